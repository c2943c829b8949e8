"""Plain-text rendering of a :class:`~toskit.compare.model.TemplateDiff`
(``str(diff)`` and ``toskit diff``'s default output).

Grouped like the HTML view: types, templates, values by template (old → new
with both sources), requirements, inputs, diagnostics introduced and fixed.
Long values are shortened so that one change stays on one line.
"""

from __future__ import annotations

from typing import Any

from toskit.compare.model import TemplateDiff, ValueChange

__all__ = ["render_text", "short"]

_WIDTH = 60


_NOT_TEXT = frozenset({"true", "false", "null", "~", "yes", "no", "on", "off"})


def _needs_quotes(text: str) -> bool:
    if text == "" or text.strip() != text or "\n" in text or text.lower() in _NOT_TEXT:
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


def short(value: Any, width: int = _WIDTH) -> str:
    """A one-line rendering of ``value`` (YAML-ish scalars, bounded)."""
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        # Quoted when bare text would read as another kind ("8443", "true")
        # or hide whitespace: `port: "8443"` must not look like 8443.
        text = repr(value) if _needs_quotes(value) else value
    else:
        text = repr(value) if isinstance(value, (list, dict, tuple)) else str(value)
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 1] + "…"


def _value_line(v: ValueChange) -> str:
    if v.change == "added":
        return f"    + {v.path}: {short(v.new)}  ({v.new_source})"
    if v.change == "removed":
        return f"    - {v.path}: {short(v.old)}  ({v.old_source})"
    sources = v.new_source if v.old_source == v.new_source else f"{v.old_source} → {v.new_source}"
    return f"    ~ {v.path}: {short(v.old)} → {short(v.new)}  ({sources})"


def render_text(diff: TemplateDiff) -> str:
    """The report as text, one change per line."""
    lines = [f"diff {diff.old_name} → {diff.new_name}"]
    if diff.old_version != diff.new_version:
        lines.append(f"  version: {diff.old_version} → {diff.new_version}")
    if diff.is_same:
        lines.append("  no changes")
        return "\n".join(lines)
    if diff.types:
        lines.append("types:")
        for t in diff.types:
            mark = {"added": "+", "removed": "-"}.get(t.change, "~")
            lines.append(f"  {mark} {t.kind} type {t.name} ({t.change})")
            if t.derived_from:
                lines.append(f"      derived_from: {t.derived_from[0]} → {t.derived_from[1]}")
            for p in t.properties:
                if p.aspect in ("added", "removed"):
                    lines.append(f"      {p.property}: {p.aspect} ({p.new if p.aspect == 'added' else p.old})")
                else:
                    lines.append(f"      {p.property}.{p.aspect}: {short(p.old)} → {short(p.new)}")
    if diff.templates:
        lines.append("templates:")
        for c in diff.templates:
            if c.change == "retyped":
                lines.append(f"  ~ {c.kind} {c.name}: type {c.old_type} → {c.new_type}")
            else:
                mark = "+" if c.change == "added" else "-"
                lines.append(f"  {mark} {c.kind} {c.name} ({c.new_type or c.old_type})")
    if diff.values:
        lines.append("values:")
        current = None
        for v in diff.values:
            if (v.kind, v.entity) != current:
                current = (v.kind, v.entity)
                lines.append(f"  {v.kind} {v.entity}:")
            lines.append(_value_line(v))
    if diff.requirements:
        lines.append("requirements:")
        for r in diff.requirements:
            index = f"[{r.index}]" if r.index else ""
            lines.append(
                f"  ~ {r.entity}.{r.requirement}{index}: {r.old_target or '(none)'} → {r.new_target or '(none)'}"
            )
    if diff.inputs:
        lines.append("inputs:")
        for name, old, new in diff.inputs:
            lines.append(f"  ~ {name}: {short(old)} → {short(new)}")
    for label, diags in (("introduced", diff.introduced), ("fixed", diff.fixed)):
        if diags:
            lines.append(f"diagnostics {label}:")
            for d in diags:
                where = f"{d.path}: " if d.path else ""
                lines.append(f"  {'+' if label == 'introduced' else '-'} {d.severity}[{d.code}] {where}{d.message}")
    if diff.unchanged_templates:
        lines.append(f"({diff.unchanged_templates} templates unchanged)")
    return "\n".join(lines)
