"""Roles documents: ``RoleSet``, ``Role``, the role check and conflicts.

A roles document (``roles_metadata``) maps role names to their metadata.
toskit interprets ``conflicts``, the seed's ``conditions`` and Fuel's
``restrictions`` and ``limits`` (one engine for both); every other key is
kept in ``Role.metadata``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from toskit.conditions.cluster import Cluster
from toskit.conditions.decision import CONFLICT_WARNING, decide
from toskit.conditions.expression import Env, make_env
from toskit.conditions.forms import ConditionCompiler, Form, Rules, _Skip
from toskit.conditions.restrictions import (
    Limits,
    Restriction,
    compile_limits,
    compile_restrictions,
)
from toskit.conditions.results import RoleOutcome
from toskit.conditions.values import type_name
from toskit.diagnostics import has_errors
from toskit.errors import ConditionError, TemplateError, ToskitError

__all__ = ["Role", "RoleSet", "UnknownRole", "load_roles", "CONFLICT_WARNING", "read_source"]


class UnknownRole(ToskitError, KeyError):
    """No role of that name in the :class:`RoleSet` (also a ``KeyError``, as a
    mapping's missing key must be)."""

    __str__ = ToskitError.__str__  # the message, not KeyError's quoted repr


class Role:
    """One role: ``name``, ``conflicts`` (tuple of names, ``('*',)`` for all),
    ``conditions`` (the compiled top-level rules), ``restrictions`` and
    ``limits`` (Fuel), ``metadata`` (every other key, kept as written)."""

    __slots__ = ("name", "conflicts", "conditions", "restrictions", "limits", "metadata", "rules")

    def __init__(
        self,
        name: str,
        conflicts: tuple[str, ...] = (),
        rules: Rules | None = None,
        restrictions: tuple[Restriction, ...] = (),
        limits: Limits | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.conflicts = conflicts
        self.rules = rules if rules is not None else Rules([], f"{name}.conditions")
        self.conditions: tuple[Form, ...] = tuple(self.rules.rules)
        self.restrictions = restrictions
        self.limits = limits
        self.metadata = dict(metadata or {})

    @property
    def label(self) -> str:
        """The display name: the metadata ``name`` (``Controller``) or the key."""
        label = self.metadata.get("name")
        return label if isinstance(label, str) and label else self.name

    def declares_conflict_with(self, other: str) -> bool:
        """True when this role lists ``other`` (or ``'*'``) in its conflicts."""
        return other != self.name and ("*" in self.conflicts or other in self.conflicts)

    def __repr__(self) -> str:
        parts = [repr(self.name)]
        if self.conflicts:
            parts.append(f"conflicts={self.conflicts!r}")
        if self.conditions:
            parts.append(f"conditions={len(self.conditions)}")
        if self.restrictions:
            parts.append(f"restrictions={len(self.restrictions)}")
        if self.limits is not None:
            parts.append("limits")
        return f"Role({', '.join(parts)})"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


class RoleSet(Mapping):
    """A read-only mapping role name → :class:`Role`, in document order, with
    :meth:`check`, :meth:`check_all` and :meth:`check_assignment`."""

    def __init__(self, roles: Iterable[Role], name: str | None = None) -> None:
        self._roles: dict[str, Role] = {r.name: r for r in roles}
        self.name = name

    # -- mapping
    def __getitem__(self, name: str) -> Role:
        """The role called ``name``; an unknown name raises :class:`UnknownRole`
        (a ``ToskitError`` that is also the ``KeyError`` a mapping raises,
        so ``in`` and ``.get`` work as usual), with a did-you-mean hint."""
        return self._role(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._roles)

    def __len__(self) -> int:
        return len(self._roles)

    def _role(self, name: Any) -> Role:
        try:
            return self._roles[name]
        except (KeyError, TypeError):
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(str(name), self._roles) if isinstance(name, str) else None
            known = ", ".join(self._roles) or "none"
            raise UnknownRole(
                f"unknown role {name!r}" + (f"; {hint}" if hint else f" (roles: {known})")
            ) from None

    # -- conflicts
    def conflicts_between(self, role: str, other: str) -> bool:
        """Symmetric conflict (the interactive check: either side may declare it)."""
        if role == other:
            return False
        mine = self._roles.get(role)
        theirs = self._roles.get(other)
        return bool(
            (mine is not None and mine.declares_conflict_with(other))
            or (theirs is not None and theirs.declares_conflict_with(role))
        )

    def check_assignment(self, node_roles: Sequence[str]) -> None:
        """Check one node's roles as Fuel's server did: only declared lists
        count; the first role that declares a conflict with others in the
        list raises ``ConditionError`` kind ``RoleConflict``."""
        names = _role_names(node_roles, "node_roles")
        for name in names:
            role = self._role(name)
            others = [o for o in dict.fromkeys(names) if role.declares_conflict_with(o)]
            if others:
                raise ConditionError(
                    "RoleConflict", f"Role '{name}' in conflict with role '{', '.join(others)}'."
                )
        return None

    # -- the role check
    def check(
        self,
        role: str,
        cluster: Cluster | None = None,
        selected: Iterable[Any] = (),
        selected_roles: Iterable[str] = (),
        models: Mapping[str, Any] | None = None,
        strict: bool = True,
        *,
        record: bool = False,
    ) -> RoleOutcome:
        """Whether ``role`` can be assigned to the ``selected`` nodes of
        ``cluster`` beside ``selected_roles``.

        The role is evaluated once (:func:`toskit.conditions.decision.decide`);
        ``record=True`` also records, in that same evaluation, the values
        read and the rules' trace (otherwise they are recorded on the first
        reading of ``trace`` or ``reason``)."""
        the_role = self._role(role)
        env = make_env(cluster, selected, models, strict)
        names = _role_names(selected_roles, "selected_roles")
        return self._check(the_role, env, names, cluster, record)

    def check_all(
        self,
        cluster: Cluster | None = None,
        selected: Iterable[Any] = (),
        selected_roles: Iterable[str] = (),
        models: Mapping[str, Any] | None = None,
        strict: bool = True,
        *,
        record: bool = False,
    ) -> dict[str, RoleOutcome]:
        """:meth:`check` for every role, in document order (one shared
        context, so invariant values are computed once for all roles)."""
        env = make_env(cluster, selected, models, strict)
        names = _role_names(selected_roles, "selected_roles")
        return {
            name: self._check(role, env, names, cluster, record)
            for name, role in self._roles.items()
        }

    def _declares(self, role: str, other: str) -> bool:
        mine = self._roles.get(role)
        return mine is not None and mine.declares_conflict_with(other)

    def _check(
        self,
        role: Role,
        env: Env,
        selected_roles: list[str],
        cluster: Cluster | None,
        record: bool = False,
    ) -> RoleOutcome:
        nodes = cluster._nodes if cluster is not None else ()
        decision = decide(
            role, env, selected_roles, self.conflicts_between, self._declares, nodes, record=record
        )
        recorder = None
        if not record:
            recorder = partial(
                decide,
                role,
                env,
                selected_roles,
                self.conflicts_between,
                self._declares,
                nodes,
                record=True,
            )
        return RoleOutcome.from_decision(decision, recorder)

    # -- display
    def __repr__(self) -> str:
        return f"RoleSet({list(self._roles)!r})"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)

    def to_frame(self) -> Any:
        """A pandas DataFrame: one row per role with its conflicts and counts."""
        import pandas as pd

        return pd.DataFrame(
            [
                {
                    "role": r.name,
                    "label": r.label,
                    "conflicts": ", ".join(r.conflicts),
                    "conditions": len(r.conditions),
                    "restrictions": len(r.restrictions),
                    "limits": r.limits is not None,
                }
                for r in self._roles.values()
            ]
        )


def _role_names(names: Any, what: str) -> list[str]:
    if type(names) in (list, tuple) and not names:
        return []
    if isinstance(names, (str, bytes, Mapping)) or not isinstance(names, Iterable):
        raise ToskitError(f"{what} must be a list of role names, got {names!r}")
    out = list(names)
    for name in out:
        if not isinstance(name, str):
            raise ToskitError(f"{what} must hold role names (strings), got {name!r}")
    return out


# --------------------------------------------------------------------------- building


def _conflicts(value: Any, parts: tuple, compiler: ConditionCompiler) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        if value == "*":
            return ("*",)
        compiler.schema(
            parts, f"'conflicts' is a list of role names or '*', got the string {value!r}"
        )
    if not isinstance(value, list):
        compiler.schema(
            parts, f"'conflicts' is a list of role names or '*', got {type_name(value)}"
        )
    for i, name in enumerate(value):
        if not isinstance(name, str):
            compiler.schema(
                (*parts, i), f"a conflicting role name must be a string, got {type_name(name)}"
            )
    return tuple(value)


def build_role(name: str, meta: Any, parts: tuple, compiler: ConditionCompiler) -> Role:
    """Check and compile one role's metadata (``parts`` address it)."""
    if meta is None:
        meta = {}
    if not isinstance(meta, Mapping):
        compiler.schema(parts, f"a role's metadata must be a mapping, got {type_name(meta)}")
    conflicts: tuple[str, ...] = ()
    rules: Rules | None = None
    restrictions: tuple[Restriction, ...] = ()
    limits: Limits | None = None
    for key, compile_one in (
        ("conflicts", lambda v, p: _conflicts(v, p, compiler)),
        ("conditions", lambda v, p: compiler.rules(v, p) if v is not None else None),
        ("restrictions", lambda v, p: compile_restrictions(v, p, compiler)),
        ("limits", lambda v, p: compile_limits(v, p, compiler)),
    ):
        if key not in meta:
            continue
        result: Any
        try:
            result = compile_one(meta[key], (*parts, key))
        except _Skip:
            continue
        if key == "conflicts":
            conflicts = result
        elif key == "conditions":
            rules = result
        elif key == "restrictions":
            restrictions = result
        else:
            limits = result
    metadata = {k: v for k, v in meta.items() if k not in ("conflicts", "conditions")}
    if rules is None:
        rules = Rules([], compiler.label((*parts, "conditions")))
    return Role(name, conflicts, rules, restrictions, limits, metadata)


def build_roleset(
    roles: Any, parts: tuple, compiler: ConditionCompiler, name: str | None = None
) -> RoleSet:
    """A :class:`RoleSet` from a role map addressed by ``parts``."""
    if roles is None:
        roles = {}
    if not isinstance(roles, Mapping):
        compiler.schema(
            parts, f"the roles must be a mapping of role name to metadata, got {type_name(roles)}"
        )
    out: list[Role] = []
    for role_name, meta in roles.items():
        if not isinstance(role_name, str):
            try:
                compiler.schema(parts, f"role names must be strings, got {role_name!r}")
            except _Skip:
                continue
        try:
            out.append(build_role(role_name, meta, (*parts, role_name), compiler))
        except _Skip:
            continue
    return RoleSet(out, name)


def read_source(source: Any, what: str = "document") -> tuple[Any, str]:
    """The plain data of ``source`` (a path, YAML text or loaded data) and its
    name. YAML errors raise ``TemplateError``; a missing file ``ToskitError``."""
    value, name, _doc = read_document(source, what)
    return value, name


def read_document(source: Any, what: str = "document") -> tuple[Any, str, Any]:
    """:func:`read_source` and the loaded YAML document (``None`` for data
    given as a mapping or list: it has no text to locate findings in)."""
    from toskit.source import load_yaml, load_yaml_file
    from toskit.source.text_or_path import is_yaml_text

    if isinstance(source, (Mapping, list)):
        return source, "<data>", None
    if isinstance(source, (Path, os.PathLike)):
        doc = load_yaml_file(source)
    elif isinstance(source, str):
        # Text or path by the rule of source.text_or_path (the same in every package).
        text = is_yaml_text(source)
        doc = load_yaml(source, name="<string>") if text else load_yaml_file(source)
    else:
        raise ToskitError(
            f"expected a path, YAML text or a mapping for the {what}, got {type(source).__name__}"
        )
    if has_errors(doc.diagnostics):
        errors = [d for d in doc.diagnostics if d.severity == "error"]
        raise TemplateError.from_diagnostics(
            errors, header=f"{doc.name}: the {what} is not valid YAML"
        )
    return doc.value, doc.name, doc


def load_roles(source: Any) -> RoleSet:
    """Load a roles document (``roles_metadata``) from a path, YAML text or
    an already loaded mapping; every condition is checked and compiled here,
    so static errors raise now (``ConditionError``).

    The error's ``diagnostic`` is located as ``toskit check`` locates it:
    a range (the offending token of a one-line expression, else the YAML
    token the finding sits at: text and files only, data has no positions)
    and a subject (the role, ``Subject("role", "controller",
    ("conditions", 0))``, or the document)."""
    value, name, doc = read_document(source, "roles document")
    if not isinstance(value, Mapping):
        hint = ""
        if isinstance(value, list) and any(isinstance(r, Mapping) and "model" in r for r in value):
            hint = " (this looks like a Fuel release file: use conditions.load_release)"
        err = ConditionError(
            "SchemaError", f"a roles document must be a mapping, got {type_name(value)}{hint}"
        )
        raise _located(err, doc, value, ())
    parts: tuple[str, ...]
    if "roles_metadata" in value:
        compiler = ConditionCompiler(skip=1)
        roles, parts = value["roles_metadata"], ("roles_metadata",)
    else:
        compiler, roles, parts = ConditionCompiler(), value, ()
    try:
        return build_roleset(roles, parts, compiler, name)
    except ConditionError as err:
        if compiler.failed_at is None:
            raise
        raise _located(err, doc, value, compiler.failed_at, compiler.failed_rename) from None


def _located(
    err: ConditionError,
    doc: Any,
    value: Any,
    parts: tuple,
    rename: Any = None,
) -> ConditionError:
    """``err`` with its diagnostic located at ``parts`` of the document
    (``doc``; with data and no text, only its subject is set)."""
    from toskit.conditions.check import locate, subject_of
    from toskit.records import replace

    # A bare role map (no roles_metadata key) is read as if under it.
    bare = isinstance(value, Mapping) and "roles_metadata" not in value and bool(parts)
    subject = subject_of(("roles_metadata", *parts) if bare else parts, value)
    base = err.diagnostic
    if doc is not None:
        # The path stays the one the message names (without roles_metadata).
        err.diagnostic = replace(locate(doc, err, parts, rename, subject), path=base.path)
    else:
        err.diagnostic = replace(base, subject=subject)
    return err
