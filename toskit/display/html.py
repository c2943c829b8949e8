"""Small pure helpers from data to HTML strings.

Every view is built from these. The one rule: text that came from a user
(names, descriptions, values, messages) goes through :func:`esc` exactly
once, where it becomes HTML; helpers that take ``*_html`` arguments expect
already-safe markup. Nothing here emits ``<script>``; the event attributes
are two constants (no user text): :data:`SECTION_LINK_ONCLICK` on links to
a section of the same view (:func:`section_link`) and
``toskit.display.links.FILE_LINK_ONCLICK`` on file links.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any, cast

from toskit.display.options import get as option
from toskit.plain import bounded_text

__all__ = [
    "badge",
    "bounded",
    "chip",
    "code",
    "css",
    "css_without_auto_dark",
    "details",
    "esc",
    "fallback_repr",
    "fragment",
    "header",
    "more_note",
    "rows_note",
    "section_link",
    "table",
    "text_value",
    "truncate",
]


def esc(text: Any) -> str:
    """``str(text)`` escaped for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


@lru_cache(maxsize=1)
def css() -> str:
    """The one stylesheet, read once from the package, with the topology
    drawing's rules (their one home is ``topology_svg.SVG_STYLE``, which a
    standalone SVG file embeds)."""
    from toskit.display.topology_svg import SVG_STYLE

    text = resources.files("toskit.display").joinpath("style.css").read_text(encoding="utf-8")
    text += SVG_STYLE
    # Defence in depth: the stylesheet is ours, but a `</style` in it would end
    # the block early.
    return text.replace("</", "<\\/")


@lru_cache(maxsize=1)
def css_without_auto_dark() -> str:
    """The stylesheet without its ``prefers-color-scheme: dark`` blocks (for a
    page that must stay light whatever the reader's system says)."""
    text = css()
    marker = "@media (prefers-color-scheme: dark)"
    out, start = [], 0
    while (at := text.find(marker, start)) != -1:
        out.append(text[start:at])
        depth, i = 0, text.index("{", at)
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
            if depth == 0:
                break
        start = i
    out.append(text[start:])
    return "".join(out)


def truncate(text: str, limit: int | None = None) -> str:
    """``text`` cut to ``limit`` characters (default: ``display_max_value_chars``)."""
    limit = option("display_max_value_chars") if limit is None else limit
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + "…"


def text_value(value: Any) -> str:
    """How a value reads in a table cell (plain text, not yet escaped).

    ``None`` is ``null`` and booleans are ``true``/``false`` as in YAML;
    strings are shown as they are (an empty string as ``""``); lists and
    mappings in JSON-like flow style; a function call as ``str()`` of it
    (2.0 notation). Long text is truncated.
    """
    limit = option("display_max_value_chars")
    return truncate(_plain(value, limit + 1), limit)


def _plain(value: Any, limit: int) -> str:
    """The text of ``value`` built within ``limit`` characters (#37: never
    the whole text of a value that aliases a huge string thousands of
    times, cut afterwards)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return value[:limit] if value else '""'
    if isinstance(value, (int, float)):
        return bounded_text(value, limit)
    if isinstance(value, (Mapping, list, tuple)):
        return bounded_text(value, limit, style="json")
    hook = getattr(type(value), "_bounded_text", None)
    if hook is not None:  # a call: its 2.0 notation, within the budget
        return str(hook(value, limit, "flow"))
    try:
        return str(value)[:limit]  # a scalar unit, a version...: short texts
    except Exception:  # noqa: BLE001 - a foreign __str__ may raise
        return f"<{type(value).__name__}>"


def fallback_repr(obj: Any) -> str:
    """``repr(obj)`` for a view's plain-text fallback; ``<TypeName>`` when a
    foreign ``__repr__`` raises (the fallback must never fail)."""
    try:
        return repr(obj)
    except Exception:  # noqa: BLE001 - the fallback must never fail
        return f"<{type(obj).__name__}>"


def fragment(body_html: str, fallback_text: str, kind: str) -> str:
    """A self-contained view: one scoped ``<style>``, a plain-text fallback and
    the HTML body.

    The body starts hidden by an inline style that the stylesheet overrides,
    and the stylesheet hides the fallback: a viewer that strips ``<style>``
    shows the plain text, every other one the HTML.
    """
    fallback = truncate(fallback_text, option("display_max_fallback_chars"))
    return (
        f'<div class="toskit-root"><style>{css()}</style>'
        f'<pre class="toskit-text-fallback">{esc(fallback)}</pre>'
        f'<div class="toskit-wrap toskit-{esc(kind)}" style="display:none">{body_html}</div>'
        "</div>"
    )


def chip(text: Any, cls: str = "") -> str:
    """A small rounded label."""
    extra = f" {cls}" if cls else ""
    return f'<span class="toskit-chip{extra}">{esc(text)}</span>'


def badge(text: Any, variant: str, *, small: bool = False) -> str:
    """A coloured uppercase badge; ``variant`` picks the colour
    (error, warning, info, allowed, blocked, advice, true, false, ok)."""
    size = " toskit-badge-small" if small else ""
    return f'<span class="toskit-badge toskit-badge-{esc(variant)}{size}">{esc(text)}</span>'


def header(kind: str, title: Any, *extras_html: str) -> str:
    """The first line of a view: its kind, its name, and extra chips."""
    extra = "".join(extras_html)
    return (
        f'<div class="toskit-header"><span class="toskit-kind">{esc(kind)}</span>'
        f'<span class="toskit-title">{esc(title)}</span>{extra}</div>'
    )


def details(
    summary_html: str, body_html: str, *, open_: bool = False, count: int | None = None
) -> str:
    """A collapsible section."""
    badge_html = chip(count) if count is not None else ""
    state = " open" if open_ else ""
    return (
        f'<details class="toskit-section"{state}><summary>{summary_html}{badge_html}</summary>'
        f'<div class="toskit-section-body">{body_html}</div></details>'
    )


def more_note(hidden: int, what: str = "more") -> str:
    """The "… N more" line under a bounded list; ``what`` is written for many
    (``more types``) and agrees with a count of one (``… 1 more type``)."""
    from toskit.display.words import agree

    return (
        f'<div class="toskit-more">… {hidden:,} {esc(agree(hidden, what))}</div>'
        if hidden > 0
        else ""
    )


Cell = tuple[str, str]  # (css class, html) of one cell


def table(
    columns: Sequence[str],
    rows: Iterable[Sequence[Cell] | tuple[str, Sequence[Cell]]],
    *,
    total: int | None = None,
    limit: int | None = None,
    empty: str = "nothing to show",
) -> str:
    """A bounded table.

    ``rows`` yields cells (each a ``(css class, html)`` pair, or a triple
    with extra attributes such as ``'colspan="5"'``, never user text), or a
    pair ``(row css class, cells)``. At most ``limit`` rows (default
    ``display_max_rows``) are rendered; ``total`` (when known) says how many
    there are, for the "… N more" note.
    """
    limit = option("display_max_rows") if limit is None else limit
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body: list[str] = []
    shown = 0
    for row in rows:
        if shown >= limit:
            break
        # A row is its cells, or (row css class, cells): a cell is never a
        # plain string, so a string first item is the class.
        if len(row) == 2 and isinstance(row[0], str) and not isinstance(row[1], str):
            row_cls, cells = cast("tuple[str, Sequence[Cell]]", row)
        else:
            row_cls, cells = "", cast("Sequence[Cell]", row)
        cls_attr = f' class="{row_cls}"' if row_cls else ""
        tds = "".join(_cell(cell) for cell in cells)
        body.append(f"<tr{cls_attr}>{tds}</tr>")
        shown += 1
    if not body:
        return f'<div class="toskit-empty">{esc(empty)}</div>'
    hidden = (total - shown) if total is not None else 0
    return (
        f'<table class="toskit-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>{rows_note(hidden, shown)}"
    )


def rows_note(hidden: int, shown: int) -> str:
    """Under a cut table, as pandas says it: how many rows are hidden, how
    many are shown, and the option that sets the bound."""
    if hidden <= 0:
        return ""
    return more_note(
        hidden,
        f"more rows ({shown:,} of {shown + hidden:,} shown; toskit.options.display_max_rows)",
    )


def _cell(cell: Sequence[str]) -> str:
    # (class, html) or (class, html, extra attributes such as 'colspan="5"').
    cls, inner = cell[0], cell[1]
    attrs = f" {cell[2]}" if len(cell) > 2 and cell[2] else ""
    cls_attr = f' class="{cls}"' if cls else ""
    return f"<td{cls_attr}{attrs}>{inner}</td>"


def bounded(items: Iterable[Any], limit: int) -> tuple[list[Any], int]:
    """The first ``limit`` items and how many were left out (counts a sized
    iterable without walking it)."""
    if isinstance(items, Sequence):
        return list(items[:limit]), max(len(items) - limit, 0)
    head: list[Any] = []
    hidden = 0
    for item in items:
        if len(head) < limit:
            head.append(item)
        else:
            hidden += 1
    return head, hidden


#: The inline handler of a link to a section of the same view (a type's
#: definition): it opens every ``<details>`` around the target, so a link
#: into the collapsed "Type definitions" section shows the type. Where
#: JupyterLab took the link over (it marks such a link ``target="_self"``
#: and answers the click with ``scrollIntoView`` of the first element of
#: the page with that id, which does nothing while a ``<details>`` around it
#: is closed), this handler, which runs first, scrolls to the target found in
#: the link's own view (a view shown twice repeats its ids) and stops
#: JupyterLab's. Anywhere else (a report, a saved page) the browser then
#: follows the link as usual (the address gets the fragment, ``:target``
#: applies, Back returns). Where the attribute is stripped (JupyterLab's
#: sanitizer in an untrusted notebook, which also strips the stylesheet and
#: so shows the text fallback), the plain ``href="#id"`` stays: a browser
#: navigating to it opens the ``<details>`` (Chromium, Firefox). A constant,
#: so the output stays deterministic.
SECTION_LINK_ONCLICK = (
    "var i=this.getAttribute('href').slice(1),w=this.closest('.toskit-wrap'),t=null;"
    "if(w){w.querySelectorAll('[id]').forEach(function(e){if(!t&&e.id===i)t=e})}"
    "t=t||document.getElementById(i);if(!t)return true;"
    "for(var d=t;d;d=d.parentElement){if(d.tagName==='DETAILS')d.open=true}"
    "if(this.target!=='_self')return true;"
    "t.scrollIntoView();event.stopImmediatePropagation();return false"
)


def section_link(anchor: str, text_html: str, cls: str = "toskit-type-link") -> str:
    """A link to the element with id ``anchor`` in the same view, opening the
    collapsed sections around it (:data:`SECTION_LINK_ONCLICK`);
    ``text_html`` is already-safe markup."""
    return (
        f'<a class="{esc(cls)}" href="#{esc(anchor)}" '
        f'onclick="{esc(SECTION_LINK_ONCLICK)}">{text_html}</a>'
    )


def code(text: Any) -> str:
    """Inline code."""
    return f'<span class="toskit-code">{esc(text)}</span>'
