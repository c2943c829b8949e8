"""The settings a Fuel release's roles depend on, for the simulator's
settings panel.

A role's ``restrictions`` and ``limits`` read settings with member chains
such as ``settings:storage.volumes_ceph.value``. :func:`referenced_settings`
walks the compiled expressions' syntax trees (``Expression.node``; no regex
over the text, so strings and comments that merely look like a reference
do not count) and returns every ``settings:`` chain they read, as dotted
leaf paths. :func:`setting_fields` pairs each path with its place in the
settings model: label, current value and the kind of control that edits it.

Choices the spec leaves open:

* A chain stops at the first special member (``_length``, ``_pluck(…)``):
  the data read is the chain before it.
* A chain with a single key (``settings:storage``) names a whole group, not
  a setting a person toggles; it is left out of the panel.
* Paths are listed in the order of the settings model (groups and
  attributes as the release file writes them), then, for paths the model
  does not define, in the order the roles first reference them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "SettingField",
    "expression_feature_groups",
    "expression_settings",
    "referenced_feature_groups",
    "referenced_settings",
    "setting_fields",
    "short_path",
]


def _chain(node: Any) -> list[str] | None:
    """The keys of a ``settings:`` member chain ending at ``node``, or None."""
    from toskit.conditions.syntax import Member, ModelRef

    names: list[str] = []
    while isinstance(node, Member):
        if node.args is not None or node.name.startswith("_"):
            return None
        names.append(node.name)
        node = node.obj
    if isinstance(node, ModelRef) and node.model == "settings":
        return [node.key, *reversed(names)]
    return None


def _walk(node: Any, found: list[str]) -> None:
    from toskit.conditions.syntax import BoolOp, Compare, Member, ModelRef, Not

    stack = [node]
    while stack:  # iterative: expression nesting is bounded, but stay flat anyway
        current = stack.pop()
        if isinstance(current, (Member, ModelRef)):
            keys = _chain(current)
            if keys is not None:
                if len(keys) >= 2:
                    found.append(".".join(keys))
                continue
            if isinstance(current, Member):
                stack.extend(reversed(current.args or ()))
                stack.append(current.obj)
        elif isinstance(current, Not):
            stack.append(current.operand)
        elif isinstance(current, BoolOp):
            stack.extend(reversed(current.operands))
        elif isinstance(current, Compare):
            stack.extend((current.right, current.left))


def expression_settings(expression: Any) -> list[str]:
    """The ``settings:`` paths one compiled expression reads, in text order."""
    node = getattr(expression, "node", None)
    found: list[str] = []
    if node is not None:
        _walk(node, found)
    return found


def expression_feature_groups(expression: Any) -> list[str]:
    """The feature group names one expression tests with
    ``'<name>' in version:feature_groups`` (or ``not in``), in text order."""
    from toskit.conditions.syntax import BoolOp, Compare, Literal, Member, ModelRef, Not

    node = getattr(expression, "node", None)
    found: list[str] = []
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if isinstance(current, Compare):
            left, right = current.left, current.right
            if (
                current.op in ("in", "not in")
                and isinstance(left, Literal)
                and isinstance(left.value, str)
                and isinstance(right, ModelRef)
                and (right.model, right.key) == ("version", "feature_groups")
            ):
                found.append(left.value)
            stack.extend((right, left))
        elif isinstance(current, Not):
            stack.append(current.operand)
        elif isinstance(current, BoolOp):
            stack.extend(reversed(current.operands))
        elif isinstance(current, Member):
            stack.extend(reversed(current.args or ()))
            stack.append(current.obj)
    return found


def _role_expressions(role: Any) -> Iterable[Any]:
    for restriction in getattr(role, "restrictions", ()) or ():
        yield getattr(restriction, "condition", None)
    limits = getattr(role, "limits", None)
    if limits is None:
        return
    for bound in (getattr(limits, "bounds", None) or {}).values():
        yield getattr(bound, "expression", None)
    for override in getattr(limits, "overrides", ()) or ():
        yield getattr(override, "condition", None)
        for bound in (getattr(override, "bounds", None) or {}).values():
            yield getattr(bound, "expression", None)


def referenced_settings(roles: Mapping[str, Any]) -> list[str]:
    """Every ``settings:`` leaf path the roles' restrictions and limits read
    (``storage.volumes_ceph.value``), each once, in order of first reference."""
    found: list[str] = []
    for role in roles.values():
        for expression in _role_expressions(role):
            found.extend(expression_settings(expression))
    return list(dict.fromkeys(found))


def referenced_feature_groups(roles: Mapping[str, Any]) -> list[str]:
    """Every feature group (``experimental``, ``advanced``) whose presence in
    ``version:feature_groups`` the roles' restrictions and limits test, each
    once, in order of first reference."""
    found: list[str] = []
    for role in roles.values():
        for expression in _role_expressions(role):
            found.extend(expression_feature_groups(expression))
    return list(dict.fromkeys(found))


def short_path(path: str) -> str:
    """``storage.volumes_ceph.value`` → ``storage.volumes_ceph`` (the name a
    person uses for a setting); other paths unchanged."""
    return path[: -len(".value")] if path.endswith(".value") and path.count(".") >= 2 else path


@dataclass(frozen=True)
class SettingField:
    """One editable setting: ``path`` (the full leaf path, such as
    ``storage.volumes_ceph.value``), ``name`` (``storage.volumes_ceph``),
    ``label`` (the setting's own ``label``, else its name), ``default`` (its
    value in the settings model the simulator started from), ``kind``
    (``bool``, ``int``, ``float``, ``choice``, ``text`` or ``other``) and
    ``choices`` (the ``data`` of its ``values``, for ``choice``)."""

    path: str
    name: str
    label: str
    default: Any
    kind: str
    choices: tuple[Any, ...] = ()
    defined: bool = True


_MISSING = object()


def _lookup(model: Any, keys: list[str]) -> Any:
    for key in keys:
        if not isinstance(model, Mapping) or key not in model:
            return _MISSING
        model = model[key]
    return model


def _kind(value: Any, choices: tuple[Any, ...]) -> str:
    if isinstance(value, bool):
        return "bool"
    if choices and all(isinstance(c, str) for c in choices) and (value is None or isinstance(value, str)):
        return "choice"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "text"
    return "other"


def setting_fields(roles: Mapping[str, Any], settings: Any) -> list[SettingField]:
    """A :class:`SettingField` for every setting the roles reference, with
    its default taken from ``settings`` (the settings model)."""
    paths = referenced_settings(roles)
    order: dict[str, int] = {}
    if isinstance(settings, Mapping):
        for group, attrs in settings.items():
            if isinstance(attrs, Mapping):
                for attr in attrs:
                    order.setdefault(f"{group}.{attr}", len(order))
    first = {p: i for i, p in enumerate(paths)}

    def rank(path: str) -> tuple[int, int]:
        head = ".".join(path.split(".")[:2])
        return (order[head], first[path]) if head in order else (len(order), first[path])

    fields = []
    for path in sorted(paths, key=rank):
        keys = path.split(".")
        value = _lookup(settings, keys)
        name = short_path(path)
        owner = _lookup(settings, keys[:-1]) if path.endswith(".value") else _MISSING
        label = name
        choices: tuple[Any, ...] = ()
        if isinstance(owner, Mapping):
            if isinstance(owner.get("label"), str) and owner["label"]:
                label = owner["label"]
            values = owner.get("values")
            if isinstance(values, list):
                choices = tuple(v["data"] for v in values if isinstance(v, Mapping) and "data" in v)
        defined = value is not _MISSING
        default = value if defined else None
        fields.append(SettingField(path, name, label, default, _kind(default, choices), choices, defined))
    return fields
