"""``compare(old, new)``: the effective difference between two templates.

Everything is read through the public API of ``toskit.tosca`` (API.md):
``ServiceTemplate.types``/``node_templates``/``diagnostics``/``inputs``,
``NodeTemplate.properties``/``property_table()``/``requirements``. The
resolver already records which layer set each leaf (provenance), so a value
that changed because a type default or an input changed shows up with both
sources, although no line of the template changed.

Cost: one equality test of each template's resolved properties; the
property tables (one row per leaf) are built only for templates whose
properties differ, so comparing two large templates that differ in a few
values costs little beside loading them.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from toskit.compare.model import (
    DiagnosticChange,
    PropertyDefinitionChange,
    RequirementChange,
    TemplateChange,
    TemplateDiff,
    TypeChange,
    ValueChange,
)
from toskit.diagnostics import Diagnostic
from toskit.errors import ToskitError
from toskit.sentinels import NO_DEFAULT

__all__ = ["as_template", "compare", "compare_diagnostics", "diagnostic_key", "same_value"]


def as_template(side: Any, *, inputs: Mapping[str, Any] | None = None) -> Any:
    """A loaded ``ServiceTemplate`` for ``side``: one already loaded, or a
    path (``str`` or ``os.PathLike``) that is loaded with ``toskit.load``."""
    if hasattr(side, "node_templates") and hasattr(side, "diagnostics"):
        return side
    if isinstance(side, (str, os.PathLike)):
        from toskit.tosca import load

        return load(side, inputs=dict(inputs) if inputs else None)
    raise ToskitError(
        f"compare() takes two ServiceTemplates or paths to template files, "
        f"got {type(side).__name__}"
    )


def compare(old: Any, new: Any, *, inputs: Mapping[str, Any] | None = None) -> TemplateDiff:
    """What changed from ``old`` to ``new`` (``ServiceTemplate``\\ s or paths).

    ``inputs`` are used for both sides when they are loaded from paths.
    Returns a :class:`~toskit.compare.model.TemplateDiff`.
    """
    old_st = as_template(old, inputs=inputs)
    new_st = as_template(new, inputs=inputs)
    values: list[ValueChange] = []
    requirements: list[RequirementChange] = []
    templates: list[TemplateChange] = []
    unchanged = 0
    for kind, old_map, new_map in (
        ("node", old_st.node_templates, new_st.node_templates),
        ("relationship", _relationships(old_st), _relationships(new_st)),
    ):
        changes, count = _compare_templates(kind, old_map, new_map, values, requirements)
        templates.extend(changes)
        unchanged += count
    return TemplateDiff(
        old_name=str(getattr(old_st, "name", "old")),
        new_name=str(getattr(new_st, "name", "new")),
        old_version=getattr(old_st, "version", None),
        new_version=getattr(new_st, "version", None),
        types=tuple(_compare_types(old_st, new_st)),
        templates=tuple(templates),
        values=tuple(values),
        requirements=tuple(requirements),
        diagnostics=tuple(compare_diagnostics(old_st.diagnostics, new_st.diagnostics)),
        unchanged_templates=unchanged,
        inputs=tuple(_compare_inputs(old_st, new_st)),
    )


# -- equality ------------------------------------------------------------------------


_PLAIN = (str, int, float, type(None))


def same_value(a: Any, b: Any) -> bool:
    """Equality that keeps the kinds YAML keeps apart: ``True`` is not ``1``
    and ``"1"`` is not ``1``; ``1`` and ``1.0`` are the same number."""
    ta, tb = type(a), type(b)
    # Concrete type checks first: this runs once per leaf of every template,
    # and isinstance against the Mapping ABC costs ten times as much.
    if ta is tb and ta in _PLAIN:
        return bool(a == b)
    if ta is bool or tb is bool:
        return ta is tb and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (Mapping, list, tuple)) or isinstance(b, (Mapping, list, tuple)):
        return False
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an odd value compares unequal, never raises
        return False


# -- types ---------------------------------------------------------------------------


# The TOSCA entity kinds with a type namespace (API.md: `types_of(kind)`).
_KINDS = ("data", "node", "capability", "relationship", "interface", "artifact", "group", "policy")


def _own_types(st: Any) -> dict[tuple[str, str], Any]:
    """The template's own types (not the normative profile), by (kind, name).

    Read kind by kind: ``types`` keeps one type per name (the node type when
    two kinds share a name), and a diff must not miss the other one.
    """
    out: dict[tuple[str, str], Any] = {}
    for kind in _KINDS:
        try:
            namespace = st.types_of(kind)
        except (ToskitError, AttributeError):
            continue
        for name, t in namespace.items():
            if not getattr(t, "normative", False):
                out[(kind, name)] = t
    return out


def _compare_types(old_st: Any, new_st: Any) -> Iterable[TypeChange]:
    old_types, new_types = _own_types(old_st), _own_types(new_st)
    for key, t in new_types.items():
        if key not in old_types:
            yield TypeChange(t.name, t.kind, "added")
    for key, t in old_types.items():
        if key not in new_types:
            yield TypeChange(t.name, t.kind, "removed")
    for key, new_t in new_types.items():
        old_t = old_types.get(key)
        if old_t is None:
            continue
        old_parent = old_t.parent.name if old_t.parent is not None else None
        new_parent = new_t.parent.name if new_t.parent is not None else None
        derived = (old_parent, new_parent) if old_parent != new_parent else None
        props = tuple(_compare_definitions(old_t.properties, new_t.properties))
        if derived or props:
            yield TypeChange(new_t.name, new_t.kind, "changed", derived, props)


def _plain_default(pdef: Any) -> Any:
    return None if pdef.default is NO_DEFAULT else pdef.default


def _constraints(pdef: Any) -> list[str]:
    return [str(c) for c in getattr(pdef, "constraints", ()) or ()]


def _compare_definitions(
    old: Mapping[str, Any], new: Mapping[str, Any]
) -> Iterable[PropertyDefinitionChange]:
    for name, pdef in new.items():
        if name not in old:
            yield PropertyDefinitionChange(name, "added", None, pdef.type)
    for name, pdef in old.items():
        if name not in new:
            yield PropertyDefinitionChange(name, "removed", pdef.type, None)
    for name, n in new.items():
        o = old.get(name)
        if o is None:
            continue
        if o.type != n.type:
            yield PropertyDefinitionChange(name, "type", o.type, n.type)
        if (o.default is NO_DEFAULT) != (n.default is NO_DEFAULT) or not same_value(
            _plain_default(o), _plain_default(n)
        ):
            yield PropertyDefinitionChange(
                name,
                "default",
                _plain_default(o) if o.default is not NO_DEFAULT else None,
                _plain_default(n) if n.default is not NO_DEFAULT else None,
            )
        if bool(o.required) != bool(n.required):
            yield PropertyDefinitionChange(name, "required", bool(o.required), bool(n.required))
        oc, nc = _constraints(o), _constraints(n)
        if oc != nc:
            yield PropertyDefinitionChange(name, "constraints", oc, nc)


# -- templates and their values ------------------------------------------------------


def _relationships(st: Any) -> Mapping[str, Any]:
    value = getattr(st, "relationship_templates", None)
    return value if isinstance(value, Mapping) else {}


def _type_name(entity: Any) -> str | None:
    t = getattr(entity, "type", None)
    return getattr(t, "name", None) if t is not None else None


def _compare_templates(
    kind: str,
    old_map: Mapping[str, Any],
    new_map: Mapping[str, Any],
    values: list[ValueChange],
    requirements: list[RequirementChange],
) -> tuple[list[TemplateChange], int]:
    changes: list[TemplateChange] = []
    unchanged = 0
    for name, new_e in new_map.items():
        old_e = old_map.get(name)
        if old_e is None:
            changes.append(TemplateChange(name, kind, "added", None, _type_name(new_e)))
            values.extend(_rows_as_changes(name, kind, new_e, "added"))
            continue
        old_type, new_type = _type_name(old_e), _type_name(new_e)
        if old_type != new_type:
            changes.append(TemplateChange(name, kind, "retyped", old_type, new_type))
        before = len(values) + len(requirements)
        if not same_value(old_e.properties, new_e.properties):
            values.extend(_value_changes(name, kind, old_e, new_e))
        if kind == "node":
            requirements.extend(_requirement_changes(name, old_e, new_e))
        if len(values) + len(requirements) == before and old_type == new_type:
            unchanged += 1
    for name, old_e in old_map.items():
        if name not in new_map:
            changes.append(TemplateChange(name, kind, "removed", _type_name(old_e), None))
            values.extend(_rows_as_changes(name, kind, old_e, "removed"))
    return changes, unchanged


def _rows(entity: Any) -> dict[str, Any]:
    return {row.path: row for row in entity.property_table()}


def _rows_as_changes(name: str, kind: str, entity: Any, change: str) -> list[ValueChange]:
    out = []
    for row in entity.property_table():
        if change == "added":
            out.append(ValueChange(name, kind, row.path, change, None, row.value, None, row.source, row.type))
        else:
            out.append(ValueChange(name, kind, row.path, change, row.value, None, row.source, None, row.type))
    return out


def _value_changes(name: str, kind: str, old_e: Any, new_e: Any) -> list[ValueChange]:
    old_rows, new_rows = _rows(old_e), _rows(new_e)
    out: list[ValueChange] = []
    for path, n in new_rows.items():
        o = old_rows.get(path)
        if o is None:
            out.append(ValueChange(name, kind, path, "added", None, n.value, None, n.source, n.type))
        elif not same_value(o.value, n.value):
            out.append(
                ValueChange(name, kind, path, "changed", o.value, n.value, o.source, n.source, n.type)
            )
    for path, o in old_rows.items():
        if path not in new_rows:
            out.append(ValueChange(name, kind, path, "removed", o.value, None, o.source, None, o.type))
    return out


def _targets(entity: Any) -> dict[str, list[str | None]]:
    out: dict[str, list[str | None]] = {}
    for req in getattr(entity, "requirements", None) or ():
        target = getattr(req, "target", None)
        out.setdefault(req.name, []).append(getattr(target, "name", None) if target is not None else None)
    return out


def _requirement_changes(name: str, old_e: Any, new_e: Any) -> list[RequirementChange]:
    old_t, new_t = _targets(old_e), _targets(new_e)
    out: list[RequirementChange] = []
    for req in [*new_t, *(r for r in old_t if r not in new_t)]:
        olds, news = old_t.get(req, []), new_t.get(req, [])
        for i in range(max(len(olds), len(news))):
            o = olds[i] if i < len(olds) else None
            n = news[i] if i < len(news) else None
            if o != n:
                out.append(RequirementChange(name, req, i, o, n))
    return out


# -- inputs and diagnostics ----------------------------------------------------------


def _compare_inputs(old_st: Any, new_st: Any) -> Iterable[tuple[str, Any, Any]]:
    old_in = old_st.inputs if isinstance(old_st.inputs, Mapping) else {}
    new_in = new_st.inputs if isinstance(new_st.inputs, Mapping) else {}
    for name in [*new_in, *(k for k in old_in if k not in new_in)]:
        o, n = old_in.get(name), new_in.get(name)
        if name not in old_in or name not in new_in or not same_value(o, n):
            yield (name, o, n)


def diagnostic_key(d: Diagnostic) -> tuple[str, str, str, str]:
    """What identifies a diagnostic across versions: severity, code and path
    (the message too when there is no path), never file, line or column."""
    return (d.severity, d.code, d.path or "", "" if d.path else d.message)


def compare_diagnostics(
    old: Iterable[Diagnostic], new: Iterable[Diagnostic]
) -> list[DiagnosticChange]:
    """Diagnostics introduced (in ``new`` order) then fixed (in ``old`` order).

    Matching is by :func:`diagnostic_key`, as a multiset: a second copy of
    one problem is introduced even when the first was already there.
    """
    old_list, new_list = list(old), list(new)
    old_count = Counter(diagnostic_key(d) for d in old_list)
    new_count = Counter(diagnostic_key(d) for d in new_list)
    out: list[DiagnosticChange] = []
    seen: Counter[tuple[str, str, str, str]] = Counter()
    for d in new_list:
        key = diagnostic_key(d)
        seen[key] += 1
        if seen[key] > old_count[key]:
            out.append(DiagnosticChange("introduced", d))
    seen.clear()
    for d in old_list:
        key = diagnostic_key(d)
        seen[key] += 1
        if seen[key] > new_count[key]:
            out.append(DiagnosticChange("fixed", d))
    return out
