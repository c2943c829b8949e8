"""The state of every property row of an entity, computed from diagnostics.

A property table (``PropertyTable``) lists the values an entity ended up
with; the checker reports problems as diagnostics with a path. This module
joins the two so that a row says what is wrong with it, where it is:

* ``valid``   — no diagnostic names the row;
* ``invalid`` — an error names the row or a part of its value (wrong type,
  constraint or validation failure, function error …);
* ``warning`` — only warnings name it;
* ``missing`` — a required property without value or default: it has no
  row in the table, so one is added;
* ``unknown`` — a property the type does not declare, with the checker's
  did-you-mean (:attr:`RowState.suggestion`).

One typo (``pasword``) is one row, the unknown one, whose ``suggestion``
is the missing name. The checker reports such a typo as one
``unknown-property`` whose message names both (``did you mean 'password'?
(required, has no value)``); diagnostics made elsewhere may still come as
two (the unknown ``pasword`` with its did-you-mean hint, and the missing
``password``), which are folded here into that one row (the missing row is
not added separately).

It lives in ``toskit.tosca`` (not ``toskit.display``) so that
``PropertyTable.to_frame()`` can add its ``status`` and ``problem`` columns
without importing any view. Entities learn their template's diagnostics
through :func:`attach`, called once when a ``ServiceTemplate`` is built.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, format_path

if TYPE_CHECKING:
    import pandas

__all__ = [
    "STATUSES",
    "RowState",
    "TableContext",
    "attach",
    "entity_diagnostics",
    "row_states",
    "table_context",
    "table_states",
    "with_status",
]

STATUSES = ("valid", "invalid", "warning", "missing", "unknown", "unchecked")
"""Every value of :attr:`RowState.status` (``unchecked``: the entity's
diagnostics are not known, e.g. a table built outside a loaded template)."""

_SUGGESTION = re.compile(r"did you mean '([^']+)'")


@dataclass(frozen=True)
class RowState:
    """One row of a property table with its state.

    ``row`` is the table's ``PropertyRow``, or ``None`` for a ``missing``
    property (which has no value, so no row of its own); ``type`` is then
    the declared type when known.
    """

    path: str
    status: str
    diagnostics: tuple[Diagnostic, ...] = ()
    row: Any = None
    suggestion: str | None = None
    type: str | None = None
    message: str | None = None  # one text for several diagnostics (a folded typo)

    @property
    def problem(self) -> str | None:
        """The messages of the row's diagnostics (errors first), or ``None``."""
        if self.message:
            return self.message
        if not self.diagnostics:
            return None
        ranked = sorted(self.diagnostics, key=lambda d: d.severity != "error")
        return "; ".join(_message(d) for d in ranked)

    @property
    def location(self) -> str | None:
        """``file:line`` of the first diagnostic, when it has one."""
        for d in self.diagnostics:
            if d.line is not None:
                return f"{d.file or '<unknown>'}:{d.line}"
        return None


def _message(d: Diagnostic) -> str:
    # The checker prefixes "node template 'db': "; in a row of db's table that
    # is noise, the row says which property it is.
    text = d.message
    if text.startswith(("node template '", "capability '", "relationship template '", "group '", "policy '")):
        _, sep, rest = text.partition("': ")
        if sep:
            text = rest
    if d.hint:
        text += f" ({d.hint})"
    return text


def _suggestion(d: Diagnostic) -> re.Match[str] | None:
    """The did-you-mean of an unknown property: in its hint, or in its
    message when the checker grouped it with a missing required twin."""
    return _SUGGESTION.search(d.hint or "") or _SUGGESTION.search(d.message)


def _message_without_hint(d: Diagnostic) -> str:
    return _message(Diagnostic(d.severity, d.code, d.message, d.path))


class _Index:
    """A template's diagnostics grouped by the entity path they fall under
    (built on first use: most tables of a large template are never shown)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self._diagnostics = diagnostics
        self._by_prefix: dict[str, list[Diagnostic]] | None = None

    def under(self, prefix: str) -> list[Diagnostic]:
        if self._by_prefix is None:
            groups: dict[str, list[Diagnostic]] = {}
            for d in self._diagnostics:
                path = d.path or ""
                at = path.find(".properties.")
                while at != -1:
                    # Entity names may contain ".properties." themselves: file
                    # the diagnostic under every candidate prefix.
                    groups.setdefault(path[:at], []).append(d)
                    at = path.find(".properties.", at + 1)
            self._by_prefix = groups
        return self._by_prefix.get(prefix, [])


def attach(template: Any) -> None:
    """Let every entity of ``template`` (node, relationship, group and policy
    templates, capabilities) find its diagnostics: :func:`entity_diagnostics`."""
    index = _Index(getattr(template, "diagnostics", ()) or ())
    for attribute in ("node_templates", "relationship_templates", "groups", "policies"):
        entities = getattr(template, attribute, None)
        if not isinstance(entities, Mapping):
            continue
        for entity in entities.values():
            _set_index(entity, index)
            for capability in (getattr(entity, "capabilities", None) or {}).values():
                _set_index(capability, index)


def _set_index(entity: Any, index: _Index) -> None:
    # A read-only stand-in cannot take the index: its rows stay unchecked.
    # (try/except, not contextlib.suppress: twice per node of a large load.)
    try:  # noqa: SIM105
        entity._validity_index = index
    except (AttributeError, TypeError):
        pass


def entity_diagnostics(entity: Any) -> list[Diagnostic] | None:
    """Diagnostics about ``entity``'s properties (``None``: not known)."""
    index = getattr(entity, "_validity_index", None)
    if index is None:
        return None
    parts = getattr(entity, "parts", ())
    if not parts:
        return None
    return index.under(format_path(parts))


def _relative(d: Diagnostic, prefix: str) -> str | None:
    head = prefix + ".properties."
    path = d.path or ""
    return path[len(head):] if path.startswith(head) else None


def _covers(outer: str, inner: str) -> bool:
    """``outer`` is ``inner`` or one of its ancestors (``a`` covers ``a.b`` and ``a[0]``)."""
    return inner == outer or (inner.startswith(outer) and inner[len(outer)] in ".[")


def row_states(
    rows: Iterable[Any],
    diagnostics: Iterable[Diagnostic] | None,
    *,
    prefix: str = "",
    declared_type: Any = None,
) -> list[RowState]:
    """The state of each row, plus a ``missing`` row per required property
    that has no value (placed after the last row it shares a parent with).

    ``diagnostics`` are those of the entity (paths starting with
    ``prefix + ".properties."``), or ``None`` when they are not known (every
    row is then ``unchecked``). ``declared_type(path)`` gives the type name
    of a missing property, when the caller can tell.
    """
    rows = list(rows)
    if diagnostics is None:
        return [RowState(str(_path(r)), "unchecked", row=r) for r in rows]
    missing: dict[str, list[Diagnostic]] = {}
    unknown: dict[str, Diagnostic] = {}
    others: list[tuple[str, Diagnostic]] = []
    for d in diagnostics:
        rel = _relative(d, prefix) if prefix else (d.path or "")
        if rel is None:
            continue
        if d.code == "missing-property":
            missing.setdefault(rel, []).append(d)
        elif d.code == "unknown-property":
            unknown.setdefault(rel, d)
        else:
            others.append((rel, d))
    # A typo: the unknown name's did-you-mean is a missing sibling. One row.
    folded: dict[str, tuple[str, list[Diagnostic]]] = {}
    for rel, d in unknown.items():
        match = _suggestion(d)
        if not match:
            continue
        parent = _parent(rel)
        sibling = f"{parent}.{match.group(1)}" if parent else match.group(1)
        if sibling in missing:
            folded[rel] = (sibling, missing.pop(sibling))

    states: list[RowState] = []
    for r in rows:
        path = str(_path(r))
        found = [d for rel, d in others if _covers(path, rel) or _covers(rel, path)]
        if path in unknown:
            d = unknown[path]
            sibling, extra = folded.get(path, ("", []))
            match = _suggestion(d)
            message = None
            if match and _SUGGESTION.search(d.message):
                # Grouped by the checker: the message says it all (the hint
                # only repeats the rename).
                message = _message_without_hint(d)
            elif extra:
                name = sibling.rsplit(".", 1)[-1]
                message = (
                    f"{_message_without_hint(d)}: did you mean '{name}'? "
                    f"('{name}' is required and has no value)"
                )
            states.append(
                RowState(
                    path, "unknown", (d, *extra, *found), r, match.group(1) if match else None, message=message
                )
            )
        elif found:
            status = "invalid" if any(d.severity == "error" for d in found) else "warning"
            states.append(RowState(path, status, tuple(found), r))
        else:
            states.append(RowState(path, "valid", (), r))
    for rel, diags in missing.items():
        state = RowState(rel, "missing", tuple(diags), None, type=declared_type(rel) if declared_type else None)
        states.insert(_insert_at(states, rel), state)
    # A problem at a path no row shows (say, a value the merge dropped) still
    # gets a row, so that the table never hides an error.
    shown = [s.path for s in states]
    orphans: dict[str, list[Diagnostic]] = {}
    for rel, d in others:
        if not any(_covers(p, rel) or _covers(rel, p) for p in shown):
            orphans.setdefault(rel, []).append(d)
    for rel, diags in orphans.items():
        status = "invalid" if any(d.severity == "error" for d in diags) else "warning"
        states.insert(_insert_at(states, rel), RowState(rel, status, tuple(diags), None))
    return states


def _path(row: Any) -> Any:
    return row.get("path", "") if isinstance(row, Mapping) else getattr(row, "path", "")


def _parent(path: str) -> str:
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


def _insert_at(states: list[RowState], path: str) -> int:
    """After the last row under the same parent (else the nearest ancestor), else at the end."""
    parent = _parent(path)
    while parent:
        at = None
        for i, s in enumerate(states):
            if _covers(parent, s.path):
                at = i + 1
        if at is not None:
            return at
        parent = _parent(parent)
    return len(states)


def _declared_type(entity: Any) -> Any:
    """``path -> type name`` for a property of ``entity`` (walks data types)."""
    definitions = getattr(entity, "property_definitions", None) or {}
    value_type = getattr(entity, "_value_type", None)
    entity_type = getattr(entity, "type", None)  # not the entity: the table must not keep it alive

    def lookup(path: str) -> str | None:
        keys = [k for k in re.split(r"\.|\[\d+\]", path) if k]
        defs: Mapping[str, Any] = definitions
        owner = entity_type
        type_name = None
        for i, key in enumerate(keys):
            pdef = defs.get(key) if isinstance(defs, Mapping) else None
            if pdef is None:
                return None
            type_name = getattr(pdef, "type", None)
            if i + 1 < len(keys):
                if not callable(value_type) or type_name is None:
                    return None
                try:
                    nested = value_type(type_name, owner)
                except Exception:  # noqa: BLE001 - an unresolvable type just has no name
                    return None
                defs = getattr(nested, "properties", None) or {}
                owner = nested
        return type_name

    return lookup


@dataclass(frozen=True)
class TableContext:
    """What a ``PropertyTable`` keeps to compute its row states: the
    diagnostics index, the entity's path and a declared-type lookup (not the
    entity itself, which holds the table: no reference cycle)."""

    index: Any
    prefix: str
    declared_type: Any

    def diagnostics(self) -> list[Diagnostic] | None:
        return self.index.under(self.prefix) if self.index is not None and self.prefix else None


def table_context(entity: Any) -> TableContext:
    """The :class:`TableContext` of ``entity``'s property tables."""
    return TableContext(
        getattr(entity, "_validity_index", None),
        format_path(getattr(entity, "parts", ()) or ()),
        _declared_type(entity),
    )


def table_states(table: Any, entity: Any = None) -> list[RowState]:
    """The row states of a ``PropertyTable`` (of ``entity`` when given, else
    of the entity the table was built for)."""
    context = table_context(entity) if entity is not None else getattr(table, "_validity", None)
    rows = getattr(table, "rows", table)
    if not isinstance(context, TableContext):
        return row_states(rows, None)
    return row_states(rows, context.diagnostics(), prefix=context.prefix, declared_type=context.declared_type)


def with_status(table: Any, frame: pandas.DataFrame) -> pandas.DataFrame:
    """``frame`` (a table's ``to_frame()``) with ``status`` and ``problem``
    columns, and a row per missing required property (value ``None``, also
    for a problem at a path that has no row)."""
    import pandas as pd

    states = table_states(table)
    by_path = {s.path: s for s in states if s.row is not None}
    frame = frame.copy()
    frame["status"] = [by_path[p].status if p in by_path else "unchecked" for p in frame["path"]]
    problems = [by_path[p].problem if p in by_path else None for p in frame["path"]]
    frame["problem"] = pd.Series(problems, index=frame.index, dtype=object)
    if not any(s.row is None for s in states):
        return frame
    records = frame.to_dict("records")
    position = {r["path"]: i for i, r in enumerate(records)}
    out: list[dict[str, Any]] = []
    for s in states:
        if s.row is not None and s.path in position:
            out.append(records[position[s.path]])
        elif s.row is None:
            blank: dict[str, Any] = {c: None for c in frame.columns}
            blank.update(path=s.path, type=s.type, source="", status=s.status, problem=s.problem)
            if "overridden" in frame.columns:
                blank["overridden"] = []
            out.append(blank)
    result = pd.DataFrame(out, columns=list(frame.columns))
    for column in ("value", "type", "problem"):  # None stays None (not NaN) in the added rows
        result[column] = pd.Series([r[column] for r in out], index=result.index, dtype=object)
    return result
