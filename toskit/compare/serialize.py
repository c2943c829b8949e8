"""JSON form of a :class:`~toskit.compare.model.TemplateDiff`.

The layout (stable, documented in docs/compare.md)::

    {"generator": "toskit", "old": name, "new": name, "old_version": ..., "new_version": ...,
     "same": bool, "summary": {...counts...}, "not_compared": [text...],
     "types": [{"name", "kind", "change", "old_name", "derived_from", "properties": [...]}],
     "templates": [{"name", "kind", "change", "old_type", "new_type", "old_name"}],
     "values": [{"entity", "kind", "path", "change", "old", "new", "old_source", "new_source",
                 "type", "old_location", "new_location", "old_entity"}],
     "fields": [{"section", "entity", "path", "change", "old", "new", "old_location",
                 "new_location", "new_path", "old_entity"}],
     "requirements": [{"entity", "requirement", "index", "old_target", "new_target"}],
     "inputs": [{"name", "old", "new"}],
     "diagnostics": {"introduced": [diag...], "fixed": [diag...]}}

Values that JSON cannot hold (a function call left unevaluated, a scalar
unit object, a non-finite float) are written as their ``str()``.

**Capped like the text and HTML views**: a value whose JSON would exceed
:data:`VALUE_CAP` characters is written as a short flow rendering ending in
``…``, and the record gets ``"old_truncated": true`` (or ``new_``); the full
value stays on the record in Python (``diff.values[i].old``). So a 200 kB
default inherited by 2,000 nodes costs 2,000 short rows, not 400 MB.
The conversion is iterative and follows the one depth bound
(:data:`toskit.plain.MAX_DEPTH`): a value as deep as the loader accepts is
written whole when small enough.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from toskit.compare.model import TemplateDiff
from toskit.diagnostics import Diagnostic
from toskit.plain import MAX_DEPTH, TooDeep, flow_text
from toskit.records import asdict, fields

__all__ = ["VALUE_CAP", "capped", "diagnostic_dict", "jsonable", "to_dict"]

VALUE_CAP = 4_000
"""Characters of JSON (about) one value may take before it is cut."""
_PREVIEW = 200

_SCALARS = (str, int, bool, type(None))


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    return str(value)


def _size_over(value: Any, budget: int) -> bool:
    """True when the JSON of ``value`` would take more than ``budget`` characters
    (reads at most about ``budget`` of it)."""
    stack = [value]
    size = 0
    while stack:
        v = stack.pop()
        if isinstance(v, Mapping):
            size += 2 + 4 * len(v)
            for k, item in v.items():
                size += len(str(k)) if isinstance(k, str) else 8
                stack.append(item)
        elif isinstance(v, (list, tuple)):
            size += 2 + 2 * len(v)
            stack.extend(v)
        elif isinstance(v, str):
            size += len(v) + 2
        else:
            size += 8
        if size > budget:
            return True
    return False


def jsonable(value: Any) -> Any:
    """``value`` with everything JSON cannot hold turned into text (whole:
    see :func:`capped` for the bounded form). Iterative; a value nested deeper
    than :data:`~toskit.plain.MAX_DEPTH` raises :class:`~toskit.plain.TooDeep`."""
    if not isinstance(value, (Mapping, list, tuple)):
        return _scalar(value)
    root: Any = {} if isinstance(value, Mapping) else []
    stack: list[tuple[Any, Any, int]] = [(value, root, 0)]
    while stack:
        source, out, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TooDeep
        items = source.items() if isinstance(source, Mapping) else enumerate(source)
        for k, v in items:
            if isinstance(v, (Mapping, list, tuple)):
                child: Any = {} if isinstance(v, Mapping) else []
                stack.append((v, child, depth + 1))
            else:
                child = _scalar(v)
            if isinstance(out, dict):
                out[str(k)] = child
            else:
                out.append(child)
    return root


def capped(value: Any) -> tuple[Any, bool]:
    """``(JSON value, truncated)``: :func:`jsonable`, or a short text ending
    in ``…`` when the value is larger than :data:`VALUE_CAP` or too deep."""
    if isinstance(value, str):
        if len(value) > VALUE_CAP:
            return value[: VALUE_CAP - 1] + "…", True
        return value, False
    if not isinstance(value, (Mapping, list, tuple)):
        return _scalar(value), False
    if _size_over(value, VALUE_CAP):
        return flow_text(value, _PREVIEW), True
    try:
        return jsonable(value), False
    except TooDeep:
        return flow_text(value, _PREVIEW), True


def _record(obj: Any, value_fields: tuple[str, ...] = ("old", "new")) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(obj):
        v = getattr(obj, f.name)
        if f.name in value_fields:
            out[f.name], cut = capped(v)
            if cut:
                out[f"{f.name}_truncated"] = True
        else:
            out[f.name] = _scalar(v) if not isinstance(v, (list, tuple, Mapping)) else capped(v)[0]
    return out


def _location(d: Diagnostic) -> str | None:
    if not d.file and d.line is None:
        return None
    text = str(d.file or "<unknown>")
    if d.line is not None:
        text += f":{d.line}" + (f":{d.column}" if d.column is not None else "")
    return text


def diagnostic_dict(d: Diagnostic) -> dict[str, Any]:
    """The fields of a diagnostic as a plain dict, with ``location``
    (``file:line:column``)."""
    return {
        "severity": d.severity,
        "code": d.code,
        "message": d.message,
        "path": d.path,
        "file": d.file,
        "line": d.line,
        "column": d.column,
        "end_line": getattr(d, "end_line", None),
        "end_column": getattr(d, "end_column", None),
        "location": _location(d),
        "hint": d.hint,
    }


def to_dict(diff: TemplateDiff) -> dict[str, Any]:
    """The JSON-ready dict of ``diff`` (layout in the module docstring)."""
    return {
        "generator": "toskit",
        "old": diff.old_name,
        "new": diff.new_name,
        "old_version": diff.old_version,
        "new_version": diff.new_version,
        "same": diff.is_same,
        "summary": diff.summary(),
        "not_compared": list(diff.not_compared),
        "types": [
            {
                "name": t.name,
                "kind": t.kind,
                "change": t.change,
                "old_name": t.old_name,
                "derived_from": list(t.derived_from) if t.derived_from else None,
                "properties": [_record(p) for p in t.properties],
            }
            for t in diff.types
        ],
        "templates": [asdict(t) for t in diff.templates],
        "values": [_record(v) for v in diff.values],
        "fields": [_record(f) for f in diff.fields],
        "requirements": [asdict(r) for r in diff.requirements],
        "inputs": [_input(n, o, v) for n, o, v in diff.inputs],
        "diagnostics": {
            "introduced": [diagnostic_dict(d) for d in diff.introduced],
            "fixed": [diagnostic_dict(d) for d in diff.fixed],
        },
    }


def _input(name: str, old: Any, new: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    for key, value in (("old", old), ("new", new)):
        out[key], cut = capped(value)
        if cut:
            out[f"{key}_truncated"] = True
    return out
