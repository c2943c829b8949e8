"""JSON form of a :class:`~toskit.compare.model.TemplateDiff`.

The layout (stable, documented in docs/compare.md)::

    {"old": name, "new": name, "old_version": ..., "new_version": ...,
     "summary": {...counts...},
     "types": [{"name", "kind", "change", "derived_from", "properties": [...]}],
     "templates": [{"name", "kind", "change", "old_type", "new_type"}],
     "values": [{"entity", "kind", "path", "change", "old", "new",
                 "old_source", "new_source", "type"}],
     "requirements": [{"entity", "requirement", "index", "old_target", "new_target"}],
     "inputs": [{"name", "old", "new"}],
     "diagnostics": {"introduced": [diag...], "fixed": [diag...]}}

Values that JSON cannot hold (a function call left unevaluated, a scalar
unit object) are written as their ``str()``.
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

from toskit.compare.model import TemplateDiff
from toskit.diagnostics import Diagnostic

__all__ = ["diagnostic_dict", "jsonable", "to_dict"]

_MAX_DEPTH = 64


def jsonable(value: Any, depth: int = 0) -> Any:
    """``value`` with everything JSON cannot hold turned into text."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if depth >= _MAX_DEPTH:
        return "…"
    if isinstance(value, dict):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in value]
    return str(value)


def diagnostic_dict(d: Diagnostic) -> dict[str, Any]:
    """The fields of a diagnostic as a plain dict."""
    return {
        "severity": d.severity,
        "code": d.code,
        "message": d.message,
        "path": d.path,
        "file": d.file,
        "line": d.line,
        "column": d.column,
        "hint": d.hint,
    }


def to_dict(diff: TemplateDiff) -> dict[str, Any]:
    """The JSON-ready dict of ``diff`` (layout in the module docstring)."""
    return {
        "old": diff.old_name,
        "new": diff.new_name,
        "old_version": diff.old_version,
        "new_version": diff.new_version,
        "same": diff.is_same,
        "summary": diff.summary(),
        "types": [
            {
                "name": t.name,
                "kind": t.kind,
                "change": t.change,
                "derived_from": list(t.derived_from) if t.derived_from else None,
                "properties": [jsonable(asdict(p)) for p in t.properties],
            }
            for t in diff.types
        ],
        "templates": [asdict(t) for t in diff.templates],
        "values": [jsonable(asdict(v)) for v in diff.values],
        "requirements": [asdict(r) for r in diff.requirements],
        "inputs": [{"name": n, "old": jsonable(o), "new": jsonable(v)} for n, o, v in diff.inputs],
        "diagnostics": {
            "introduced": [diagnostic_dict(d) for d in diff.introduced],
            "fixed": [diagnostic_dict(d) for d in diff.fixed],
        },
    }
