"""Plain-text rendering of a :class:`~toskit.compare.model.TemplateDiff`
(``str(diff)`` and ``toskit diff``'s default output).

Grouped like the HTML view: what could not be compared, types, templates
(renames included), values by template (old → new with both sources and
their ``file:line:column``), the other changes as written by section,
requirements, inputs, diagnostics introduced and fixed (with their
``file:line:column``). Long values are shortened so that one change stays
on one line, and every name, path and value taken from a document has its
control characters made visible (:func:`toskit.terminal.terminal_safe`),
so a line feed in a node name cannot start a forged report line.
"""

from __future__ import annotations

from typing import Any

from toskit.compare.model import FieldChange, TemplateDiff, ValueChange
from toskit.plain import flow_text
from toskit.terminal import terminal_safe

__all__ = ["location_of", "name", "needs_quotes", "render_text", "short"]

_WIDTH = 60
_NAME_WIDTH = 200


_NOT_TEXT = frozenset({"true", "false", "null", "~", "yes", "no", "on", "off"})


def needs_quotes(text: str) -> bool:
    """Whether text shown bare would read as another kind (``8443``, ``on``,
    ``null``) or hide whitespace or a line break: the text and HTML reviews
    quote it then."""
    if text == "" or text.strip() != text or "\n" in text or text.lower() in _NOT_TEXT:
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


def short(value: Any, width: int = _WIDTH) -> str:
    """A one-line rendering of ``value`` (YAML-ish scalars, bounded, control
    characters visible). Containers use :func:`toskit.plain.flow_text`, which
    reads no more of a value than it prints, however large or deep."""
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        # Quoted when bare text would read as another kind ("8443", "true")
        # or hide whitespace: `port: "8443"` must not look like 8443.
        cut = value[: width + 1]
        text = repr(cut) if needs_quotes(value) else cut
    elif isinstance(value, (list, dict, tuple)) or hasattr(value, "items"):
        text = flow_text(value, width)
    else:
        text = str(value)
    text = terminal_safe(text.replace("\n", "\\n"))
    return text if len(text) <= width else text[: width - 1] + "…"


def name(text: Any) -> str:
    """A name or path from a document, safe on one line of text."""
    shown = terminal_safe(str(text))
    return shown if len(shown) <= _NAME_WIDTH else shown[: _NAME_WIDTH - 1] + "…"


def location_of(old: str | None, new: str | None) -> str:
    """``" @ a.yaml:3:5 → b.yaml:4:5"`` (the sides that have one)."""
    if old and new:
        return f" @ {name(old)} → {name(new)}" if old != new else f" @ {name(new)}"
    if old or new:
        return f" @ {name(old or new)}"
    return ""


def _source(source: str | None, location: str | None) -> str:
    return name(source) + (f" @ {name(location)}" if location else "")


def _value_line(v: ValueChange) -> str:
    if v.change == "added":
        return f"    + {name(v.path)}: {short(v.new)}  ({_source(v.new_source, v.new_location)})"
    if v.change == "removed":
        return f"    - {name(v.path)}: {short(v.old)}  ({_source(v.old_source, v.old_location)})"
    if v.change == "renamed":
        return (
            f"    > renamed {name(v.path)} → {name(v.new_path)}: {short(v.new)}  "
            f"({_source(v.old_source, v.old_location)} → {_source(v.new_source, v.new_location)})"
        )
    if v.old_source == v.new_source and v.old_location == v.new_location:
        sources = _source(v.new_source, v.new_location)
    else:
        sources = (
            f"{_source(v.old_source, v.old_location)} → {_source(v.new_source, v.new_location)}"
        )
    return f"    ~ {name(v.path)}: {short(v.old)} → {short(v.new)}  ({sources})"


def _field_line(f: FieldChange) -> str:
    where = location_of(f.old_location, f.new_location)
    path = name(f.path) if f.path else name(f.entity if f.entity is not None else f.section)
    if f.change == "renamed":
        if not f.path:
            return f"    > renamed {name(f.old_entity)} → {name(f.entity)}{where}"
        return f"    > renamed {path} → {name(f.new_path)}: {short(f.new)}{where}"
    if f.change == "moved":
        return f"    ~ moved from {name(f.old)} to {name(f.new)}{where}"
    if f.change == "added":
        return f"    + {path}: {short(f.new)}{where}"
    if f.change == "removed":
        return f"    - {path}: {short(f.old)}{where}"
    return f"    ~ {path}: {short(f.old)} → {short(f.new)}{where}"


def _entity_header(section: str, entity: str | None, old_entity: str | None) -> str:
    if entity is None:
        return f"  {name(section)}:"
    if old_entity and old_entity != entity:
        return f"  {name(section)} {name(entity)} (renamed from {name(old_entity)}):"
    return f"  {name(section)} {name(entity)}:"


def render_text(diff: TemplateDiff) -> str:
    """The report as text, one change per line."""
    lines = [f"diff {name(diff.old_name)} → {name(diff.new_name)}"]
    if diff.old_version != diff.new_version:
        lines.append(f"  version: {name(diff.old_version)} → {name(diff.new_version)}")
    for note in diff.not_compared:
        lines.append(f"  not compared: {name(note)}")
    if diff.is_same:
        lines.append("  no changes")
        return "\n".join(lines)
    type_fields: dict[tuple[str, str | None], list[FieldChange]] = {}
    other_fields: list[FieldChange] = []
    for f in diff.fields:
        if f.section.endswith("_types"):
            type_fields.setdefault((f.section, f.entity), []).append(f)
        else:
            other_fields.append(f)
    _types_text(diff, type_fields, lines)
    _templates_text(diff, lines)
    _values_text(diff, lines)
    # A type's fields were shown under it; those of a type not listed stay here.
    leftover = [f for fs in type_fields.values() for f in fs]
    _fields_text([*leftover, *other_fields], lines)
    _rest_text(diff, lines)
    if diff.unchanged_templates:
        lines.append(f"({diff.unchanged_templates} templates unchanged)")
    return "\n".join(lines)


def _types_text(
    diff: TemplateDiff,
    type_fields: dict[tuple[str, str | None], list[FieldChange]],
    lines: list[str],
) -> None:
    """The ``types:`` section; each type's written fields are taken out of
    ``type_fields`` and shown under it."""
    if not diff.types:
        return
    lines.append("types:")
    for t in diff.types:
        mark = {"added": "+", "removed": "-", "renamed": ">"}.get(t.change, "~")
        if t.change == "renamed":
            lines.append(f"  > {t.kind} type renamed {name(t.old_name)} → {name(t.name)}")
        else:
            lines.append(f"  {mark} {t.kind} type {name(t.name)} ({t.change})")
        if t.derived_from:
            lines.append(
                f"      derived_from: {name(t.derived_from[0])} → {name(t.derived_from[1])}"
            )
        for f in type_fields.pop((f"{t.kind}_types", t.name), []):
            lines.append("  " + _field_line(f))
        for p in t.properties:
            if p.aspect in ("added", "removed"):
                kind = p.new if p.aspect == "added" else p.old
                lines.append(f"      effective {name(p.property)}: {p.aspect} ({name(kind)})")
            else:
                lines.append(
                    f"      effective {name(p.property)}.{p.aspect}: {short(p.old)} → "
                    f"{short(p.new)}"
                )


def _templates_text(diff: TemplateDiff, lines: list[str]) -> None:
    """The ``templates:`` section: added, removed, retyped and renamed templates."""
    if not diff.templates:
        return
    lines.append("templates:")
    for c in diff.templates:
        if c.change == "retyped":
            lines.append(
                f"  ~ {c.kind} {name(c.name)}: type {name(c.old_type)} → {name(c.new_type)}"
            )
        elif c.change == "renamed":
            lines.append(
                f"  > {c.kind} renamed {name(c.old_name)} → {name(c.name)} ({name(c.new_type)})"
            )
        else:
            mark = "+" if c.change == "added" else "-"
            lines.append(f"  {mark} {c.kind} {name(c.name)} ({name(c.new_type or c.old_type)})")


def _values_text(diff: TemplateDiff, lines: list[str]) -> None:
    """The ``values:`` section, grouped under each entity."""
    if not diff.values:
        return
    lines.append("values:")
    current = None
    for v in diff.values:
        if (v.kind, v.entity) != current:
            current = (v.kind, v.entity)
            lines.append(f"  {v.kind} {name(v.entity)}:")
        lines.append(_value_line(v))


def _fields_text(fields: list[FieldChange], lines: list[str]) -> None:
    """The ``as written:`` section, grouped under each entity."""
    if not fields:
        return
    lines.append("as written:")
    current = None
    for f in fields:
        key = (f.section, f.entity)
        if key != current:
            current = key
            lines.append(_entity_header(f.section, f.entity, f.old_entity))
        if f.change == "renamed" and not f.path:
            continue  # the header says it
        lines.append(_field_line(f))


def _rest_text(diff: TemplateDiff, lines: list[str]) -> None:
    """Requirement targets, inputs, and the diagnostics introduced and fixed."""
    if diff.requirements:
        lines.append("requirements:")
        for r in diff.requirements:
            index = f"[{r.index}]" if r.index else ""
            lines.append(
                f"  ~ {name(r.entity)}.{name(r.requirement)}{index}: "
                f"{name(r.old_target or '(none)')} → {name(r.new_target or '(none)')}"
            )
    if diff.inputs:
        lines.append("inputs:")
        for input_name, old, new in diff.inputs:
            lines.append(f"  ~ {name(input_name)}: {short(old)} → {short(new)}")
    for label, diags in (("introduced", diff.introduced), ("fixed", diff.fixed)):
        if diags:
            lines.append(f"diagnostics {label}:")
            for d in diags:
                where = f"{name(d.path)}: " if d.path else ""
                at = _diagnostic_location(d)
                lines.append(
                    f"  {'+' if label == 'introduced' else '-'} {at}{d.severity}[{name(d.code)}] "
                    f"{where}{name(d.message)}"
                )


def _diagnostic_location(d: Any) -> str:
    """``file:line:column: `` of a diagnostic (what is known of it)."""
    if not d.file and d.line is None:
        return ""
    text = str(d.file or "<unknown>")
    if d.line is not None:
        text += f":{d.line}"
        if d.column is not None:
            text += f":{d.column}"
    return name(text) + ": "
