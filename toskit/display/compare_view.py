"""The view of a ``TemplateDiff`` (``toskit.compare``), and its standalone page.

Built from the shared helpers of :mod:`toskit.display.html` and the source
palette of the property tables (:class:`~toskit.display.tosca_views.SourcePalette`),
so a source has the same colour here as in a template's property table.
Duck-typed over the public attributes of ``TemplateDiff`` (this package never
imports the core packages).

Layout: a header with counts; new errors first (what a reviewer must act
on); then values grouped by template (old → new, both sources; templates
with no change are only counted, and each template's rows collapse when
there are many templates); then types, templates, requirements, inputs
and fixed diagnostics.
"""

from __future__ import annotations

from typing import Any

from toskit.compare.text import needs_quotes
from toskit.display.conditions_views import breakable
from toskit.display.html import (
    badge,
    bounded,
    chip,
    code,
    css,
    css_without_auto_dark,
    details,
    esc,
    fragment,
    header,
    more_note,
    table,
    text_value,
)
from toskit.display.links import file_link, location_link
from toskit.display.options import get as option

__all__ = ["diff_page", "template_diff_body", "template_diff_html"]

_SIGNS = {
    "added": ("+", "toskit-added"),
    "removed": ("−", "toskit-removed"),
    "changed": ("~", "toskit-modified"),
    "renamed": ("↷", "toskit-modified"),
}


def _shown(value: Any) -> str:
    """A value as a cell reads it: like the property tables, except that text
    which would read as another kind is quoted (a port written as ``"8443"``
    must not look like the number 8443 in a review)."""
    if isinstance(value, str) and needs_quotes(value):
        return esc(text_value(repr(value)))
    return esc(text_value(value))


def _palette() -> Any:
    from toskit.display.tosca_views import SourcePalette

    return SourcePalette()


def _fallback(diff: Any) -> str:
    try:
        return str(diff)
    except Exception:  # noqa: BLE001 - the fallback must never fail
        return f"<{type(diff).__name__}>"


def _sign(change: str) -> tuple[str, str]:
    return _SIGNS.get(change, ("~", "toskit-modified"))


def _why(v: Any) -> str:
    """The reviewer's question "why did this change?" when no line did."""
    if v.change != "changed" or "template" in (v.old_source, v.new_source):
        return ""
    src = str(v.new_source or "")
    if v.old_source != v.new_source:
        reason = f"now set by {src}"
    elif src.startswith("input:"):
        reason = f"the value of {src[len('input:') :].strip()} changed"
    elif src.startswith("default:"):
        reason = f"the default on {src[len('default:') :].strip()} changed"
    else:
        reason = f"{src} changed"
    return f'<div class="toskit-diff-why">not in the template: {esc(reason)}</div>'


_SINGULAR = {
    "types": "type",
    "templates": "template",
    "values": "value",
    "requirements": "requirement",
    "inputs": "input",
    "fields": "field",
}


def _count_chip(key: str, n: int) -> str:
    label = _SINGULAR.get(key, key) if n == 1 else key
    return chip(f"{n} {label}")


def _value_rows(changes: list[Any], palette: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    rows = []
    for v in changes:
        sign, cls = _sign(v.change)
        old = "" if v.change == "added" else f'<span class="toskit-diff-old">{_shown(v.old)}</span>'
        new = "" if v.change == "removed" else _shown(v.new)
        path = esc(v.path)
        if v.change == "renamed":
            path = (
                f'renamed {esc(v.path)}<span class="toskit-diff-arrow">→</span>'
                f"{esc(getattr(v, 'new_path', ''))}"
            )
            old = ""
        if v.change == "changed" and v.old_source == v.new_source:
            sources = palette.pill(v.new_source)
        else:
            parts = [palette.pill(s) for s in (v.old_source, v.new_source) if s is not None]
            sources = '<span class="toskit-diff-arrow">→</span>'.join(parts)
        why = _why(v) + _where(getattr(v, "old_location", None), getattr(v, "new_location", None))
        rows.append(
            (
                f"toskit-diff-{v.change}",
                [
                    (cls, esc(sign)),
                    ("toskit-path", path),
                    ("", old),
                    ("toskit-diff-arrow", "→" if v.change == "changed" else ""),
                    ("", new),
                    ("", sources + why),
                ],
            )
        )
    return rows


def _where(old: Any, new: Any) -> str:
    """The ``file:line:column`` of each side, escaped, each a link to its
    file (:mod:`toskit.display.links`)."""
    if not old and not new:
        return ""
    if old and new and old != new:
        text = f'{location_link(old)}<span class="toskit-diff-arrow">→</span>{location_link(new)}'
    else:
        text = location_link(old or new)
    # the muted style of the "why" notes: a location is a reference, not a value
    return f'<div class="toskit-diff-why toskit-diff-where">{text}</div>'


def _values_section(diff: Any, palette: Any) -> str:
    by_entity: dict[tuple[str, str], list[Any]] = {}
    for v in diff.values:
        by_entity.setdefault((v.kind, v.entity), []).append(v)
    if not by_entity:
        return ""
    entities, hidden = bounded(list(by_entity.items()), option("display_max_nodes"))
    many = len(by_entity) > 8  # few templates: all open; many: collapsed
    blocks = []
    for (kind, entity), changes in entities:
        body = table(
            ["", "path", "old", "", "new", "source"],
            _value_rows(changes, palette),
            total=len(changes),
        )
        summary = f"{esc(kind)} {code(entity)}"
        renamed_from = next((v.old_entity for v in changes if getattr(v, "old_entity", None)), None)
        if renamed_from:
            summary += f" (renamed from {code(renamed_from)})"
        blocks.append(details(summary, body, open_=not many, count=len(changes)))
    note = ""
    if diff.unchanged_templates:
        n = diff.unchanged_templates
        note = (
            f'<div class="toskit-diff-note">{n:,} template{"s" if n != 1 else ""}'
            " unchanged (not shown)</div>"
        )
    inner = "".join(blocks) + more_note(hidden, "more templates") + note
    return details("Values", inner, open_=True, count=len(diff.values))


def _types_section(diff: Any) -> str:
    if not diff.types:
        return ""
    rows = []
    for t in diff.types:
        sign, cls = _sign("changed" if t.change == "changed" else t.change)
        what: list[str] = []
        if t.derived_from:
            what.append(
                f"derived_from {esc(t.derived_from[0])}"
                f'<span class="toskit-diff-arrow">→</span>{esc(t.derived_from[1])}'
            )
        for p in t.properties:
            if p.aspect in ("added", "removed"):
                what.append(f"{code(p.property)} {esc(p.aspect)}")
            else:
                what.append(
                    f"{code(p.property)} {esc(p.aspect)}: "
                    f'<span class="toskit-diff-old">{_shown(p.old)}</span>'
                    f'<span class="toskit-diff-arrow">→</span>{_shown(p.new)}'
                )
        if t.change == "renamed":
            renamed = f'renamed {code(t.old_name)}<span class="toskit-diff-arrow">→</span>'
            what.insert(0, renamed + code(t.name))
        for f in getattr(diff, "fields", ()):
            if f.section == f"{t.kind}_types" and f.entity == t.name:
                what.append(_field_html(f))
        lines = "".join(f"<div>{w}</div>" for w in what) or esc(t.change)
        rows.append(
            [(cls, esc(sign)), ("", esc(t.kind)), ("toskit-path", esc(t.name)), ("", lines)]
        )
    body = table(["", "kind", "type", "what changed"], rows, total=len(diff.types))
    return details("Types", body, open_=True, count=len(diff.types))


def _templates_section(diff: Any) -> str:
    if not diff.templates:
        return ""
    rows = []
    for c in diff.templates:
        sign, cls = _sign("changed" if c.change == "retyped" else c.change)
        if c.change == "renamed":
            types = esc(c.new_type or c.old_type) + f" (was {code(c.old_name)})"
        elif c.change == "retyped":
            types = (
                f'<span class="toskit-diff-old">{esc(c.old_type)}</span>'
                f'<span class="toskit-diff-arrow">→</span>{esc(c.new_type)}'
            )
        else:
            types = esc(c.new_type or c.old_type)
        rows.append(
            [
                (cls, esc(sign)),
                ("", esc(c.kind)),
                ("toskit-path", esc(c.name)),
                ("", esc(c.change)),
                ("", types),
            ]
        )
    body = table(["", "kind", "name", "change", "type"], rows, total=len(diff.templates))
    return details("Templates", body, open_=True, count=len(diff.templates))


def _requirements_section(diff: Any) -> str:
    if not diff.requirements:
        return ""
    rows = [
        [
            ("toskit-modified", "~"),
            ("toskit-path", esc(r.entity)),
            ("", esc(r.requirement) + (f"[{r.index}]" if r.index else "")),
            ("toskit-diff-old", esc(r.old_target or "(none)")),
            ("toskit-diff-arrow", "→"),
            ("", esc(r.new_target or "(none)")),
        ]
        for r in diff.requirements
    ]
    body = table(["", "node", "requirement", "old target", "", "new target"], rows, total=len(rows))
    return details("Requirements", body, open_=True, count=len(rows))


def _inputs_section(diff: Any) -> str:
    if not diff.inputs:
        return ""
    rows = [
        [
            ("toskit-modified", "~"),
            ("toskit-path", esc(name)),
            ("toskit-diff-old", _shown(old)),
            ("toskit-diff-arrow", "→"),
            ("", _shown(new)),
        ]
        for name, old, new in diff.inputs
    ]
    body = table(["", "input", "old", "", "new"], rows, total=len(rows))
    return details("Inputs", body, open_=False, count=len(rows))


def _field_html(f: Any) -> str:
    """One change as written: sign, path, old → new (or the new name), where."""
    sign, cls = _sign(f.change)
    path = code(f.path) if f.path else code(f.entity if f.entity is not None else f.section)
    if f.change == "renamed":
        if not f.path:
            what = (
                f'renamed {code(f.old_entity)}<span class="toskit-diff-arrow">→</span>'
                f"{code(f.entity)}"
            )
        else:
            what = (
                f'renamed {path}<span class="toskit-diff-arrow">→</span>'
                f"{code(f.new_path)}: {_shown(f.new)}"
            )
    elif f.change == "moved":
        what = f'moved from {code(f.old)}<span class="toskit-diff-arrow">→</span>{code(f.new)}'
    elif f.change == "added":
        what = f"{path}: {_shown(f.new)}"
    elif f.change == "removed":
        what = f'{path}: <span class="toskit-diff-old">{_shown(f.old)}</span>'
    else:
        what = (
            f'{path}: <span class="toskit-diff-old">{_shown(f.old)}</span>'
            f'<span class="toskit-diff-arrow">→</span>{_shown(f.new)}'
        )
    return f'<span class="{cls}">{esc(sign)}</span> {what}{_where(f.old_location, f.new_location)}'


def _fields_section(diff: Any) -> str:
    """The changes as written outside the types (which show under Types)."""
    groups: dict[tuple[str, Any], list[Any]] = {}
    for f in getattr(diff, "fields", ()):
        if not str(f.section).endswith("_types"):
            groups.setdefault((f.section, f.entity), []).append(f)
    if not groups:
        return ""
    shown, hidden = bounded(list(groups.items()), option("display_max_nodes"))
    blocks = []
    count = 0
    for (section, entity), changes in shown:
        rows, more = bounded(changes, option("display_max_rows"))
        count += len(changes)
        inner = "".join(f"<div>{_field_html(f)}</div>" for f in rows) + more_note(
            more, "more changes"
        )
        summary = esc(section) + (f" {code(entity)}" if entity is not None else "")
        blocks.append(details(summary, inner, open_=len(groups) <= 8, count=len(changes)))
    total = sum(len(c) for c in groups.values())
    return details(
        "As written", "".join(blocks) + more_note(hidden, "more entries"), open_=True, count=total
    )


def _not_compared_section(diff: Any) -> str:
    notes = list(getattr(diff, "not_compared", ()))
    if not notes:
        return ""
    items = "".join(f"<li>{esc(n)}</li>" for n in notes)
    return f'<div class="toskit-diff-note"><b>not compared:</b><ul>{items}</ul></div>'


def _diagnostic_location(d: Any) -> str:
    if not d.file and d.line is None:
        return ""
    text = str(d.file or "<unknown>")
    if d.line is not None:
        text += f":{d.line}" + (f":{d.column}" if d.column is not None else "")
    return text


def _diagnostic_rows(diags: list[Any]) -> list[list[tuple[str, str]]]:
    return [
        [
            (
                "",
                badge(
                    d.severity,
                    d.severity if d.severity in ("error", "warning", "info") else "info",
                    small=True,
                ),
            ),
            # Long locations and paths wrap between their names (not as one
            # nowrap token that pushed the message out of a 900 px output area).
            (
                "toskit-path toskit-wrap-path",
                file_link(
                    d.file,
                    d.line,
                    d.column,
                    text=_diagnostic_location(d),
                    text_html=breakable(_diagnostic_location(d)),
                )
                if _diagnostic_location(d)
                else "",
            ),
            ("", code(d.code)),
            ("toskit-path toskit-wrap-path", breakable(d.path or "")),
            ("", esc(d.message)),
        ]
        for d in diags
    ]


def _diagnostics_section(title: str, diags: list[Any], open_: bool) -> str:
    if not diags:
        return ""
    body = table(
        ["severity", "where", "code", "path", "message"], _diagnostic_rows(diags), total=len(diags)
    )
    return details(esc(title), body, open_=open_, count=len(diags))


def template_diff_body(diff: Any) -> str:
    """The inner HTML of the view (no ``<style>`` of the shared sheet)."""
    summary = diff.summary()
    chips = [_count_chip(k, n) for k, n in summary.items() if n]
    title = f"{diff.old_name} → {diff.new_name}"
    parts = [header("template diff", title, *chips)]
    new_errors = list(diff.new_errors)
    flags = []
    if new_errors:
        flags.append(
            badge(f"{len(new_errors)} new error{'s' if len(new_errors) != 1 else ''}", "error")
        )
    if diff.fixed:
        flags.append(badge(f"{len(diff.fixed)} fixed", "ok"))
    if diff.old_version != diff.new_version:
        flags.append(
            f'<span class="toskit-diff-note">version {esc(diff.old_version)}'
            f'<span class="toskit-diff-arrow">→</span>{esc(diff.new_version)}</span>'
        )
    if flags:
        parts.append(f'<div class="toskit-diff-flags">{"".join(flags)}</div>')
    parts.append(_not_compared_section(diff))
    if diff.is_same:
        parts.append('<div class="toskit-empty">no changes</div>')
    palette = _palette()
    parts.append(_diagnostics_section("Diagnostics introduced", list(diff.introduced), True))
    parts.append(_values_section(diff, palette))
    parts.append(_fields_section(diff))
    parts.append(_types_section(diff))
    parts.append(_templates_section(diff))
    parts.append(_requirements_section(diff))
    parts.append(_inputs_section(diff))
    parts.append(_diagnostics_section("Diagnostics fixed", list(diff.fixed), False))
    return "".join(parts)


def template_diff_html(diff: Any) -> str:
    """The notebook view of a ``TemplateDiff`` (a self-contained fragment)."""
    return fragment(template_diff_body(diff), _fallback(diff), "template-diff")


def diff_page(diff: Any, *, theme: str = "auto") -> str:
    """A standalone HTML page of ``diff`` (``toskit diff --format html``).

    Every section is rendered in full (no row limits): a page is read, not
    scrolled past in a notebook.
    """
    from toskit.display import options

    big = 10**9
    with options.context(display_max_rows=big, display_max_nodes=big):
        body = template_diff_body(diff)
    scheme = {"auto": "light dark", "light": "light", "dark": "dark"}.get(theme, "light dark")
    sheet = css_without_auto_dark() if theme == "light" else css()
    body_cls = "toskit-page" + (" toskit-page-dark" if theme == "dark" else "")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="generator" content="toskit">'
        f'<meta name="color-scheme" content="{scheme}">'
        f"<title>{esc(diff.old_name)} → {esc(diff.new_name)} · toskit diff</title>"
        f"<style>{sheet}</style></head>"
        f'<body class="{body_cls}"><main class="toskit-page-main">'
        f'<div class="toskit-wrap toskit-template-diff">{body}</div>'
        "</main></body></html>\n"
    )
