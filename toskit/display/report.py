"""A standalone HTML report of a service template (``toskit show -o``).

The page is self-contained (one ``<style>``, no script, no external
resource) and, unlike a notebook fragment, lists *every* node template with
its full merged property table: a report is read, searched and printed, not
scrolled past. Pass ``max_nodes``/``max_rows`` to bound a huge template.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toskit.display import options
from toskit.display.diagnostics_view import diagnostics_block, ordered, summary_badges
from toskit.display.html import chip, css, css_without_auto_dark, details, esc, header, more_note
from toskit.display.topology_view import topology_section
from toskit.display.tosca_views import (
    SourcePalette,
    TypeLinks,
    _count,
    _template_title,
    inputs_block,
    node_diagnostics,
    node_summary,
    node_template_body,
    report_types,
    template_lines,
    type_tree_html,
)
from toskit.display.typetree import is_normative, template_types

__all__ = ["render_page"]

_UNBOUNDED = 10**9


def render_page(
    template: Any,
    *,
    title: str | None = None,
    max_nodes: int | None = None,
    max_rows: int | None = None,
    theme: str = "auto",
) -> str:
    """The whole page as a string.

    ``theme`` is ``"auto"`` (follow the reader's system setting), ``"light"``
    or ``"dark"``. ``max_nodes`` and ``max_rows`` bound the node templates
    listed and the rows of each table (default: all).
    """
    if theme not in ("auto", "light", "dark"):
        from toskit.errors import ToskitError

        raise ToskitError(f"theme must be 'auto', 'light' or 'dark', not {theme!r}")
    with options.context(
        display_max_rows=max_rows or _UNBOUNDED,
        display_max_nodes=max_nodes or _UNBOUNDED,
        display_max_tree_nodes=_UNBOUNDED,
    ):
        body = _page_body(template)
    name = title or _template_title(template)
    body_cls = "toskit-page" + (" toskit-page-dark" if theme == "dark" else "")
    scheme = {"auto": "light dark", "light": "light", "dark": "dark"}[theme]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="color-scheme" content="{scheme}">'
        f"<title>{esc(name)} · toskit report</title>"
        f"<style>{css_without_auto_dark() if theme == 'light' else css()}</style></head>"
        f'<body class="{body_cls}"><main class="toskit-page-main">'
        f'<div class="toskit-wrap toskit-report">{body}'
        f'<div class="toskit-page-footer">made with toskit {esc(_version())}</div></div>'
        "</main></body></html>\n"
    )


def _version() -> str:
    import toskit

    return str(getattr(toskit, "__version__", ""))


def _page_body(st: Any) -> str:
    diags = list(getattr(st, "diagnostics", []) or [])
    nodes = getattr(st, "node_templates", {}) or {}
    inputs = getattr(st, "inputs", {}) or {}
    types = template_types(st)
    user_types = [t for t in types if not is_normative(t)]
    parts = [
        header(
            "service template",
            _template_title(st),
            chip(getattr(st, "version", "") or "no version"),
            chip(_count(len(nodes), "node template", "node templates")),
            chip(_count(len(user_types), "type", "types")),
            chip(_count(len(inputs), "input", "inputs")),
            summary_badges(diags),
        )
    ]
    parts.append(
        details(
            f"Diagnostics {summary_badges(diags)}",
            diagnostics_block(ordered(diags), lines=template_lines(st)),
            open_=True,
        )
    )
    # Every type name links to its definition below, so the page is navigable without a kernel.
    links = TypeLinks(report_types(st))
    parts.append(details("Types", type_tree_html(types, link=links), open_=True, count=len(user_types)))
    parts.append(topology_section(st))  # the drawn graph of node templates and requirements
    if inputs:
        parts.append(details("Inputs", inputs_block(st), open_=True, count=len(inputs)))
    per_node = node_diagnostics(st)
    lines = template_lines(st)
    palette = SourcePalette()  # one colour per source across the page
    limit = options.get("display_max_nodes")
    sections = []
    for index, (name, node) in enumerate(nodes.items()):
        if index >= limit:
            break
        diags_here = per_node.get(str(name), [])
        body = node_template_body(
            node, diagnostics=diags_here, lines=lines, palette=palette, show_header=False, type_link=links
        )
        sections.append(details(node_summary(name, node, diags_here), body, open_=True))
    hidden = max(len(nodes) - limit, 0)
    parts.append(
        details(
            "Node templates",
            "".join(sections) + more_note(hidden, "more node templates")
            or '<div class="toskit-empty">no node templates</div>',
            open_=True,
            count=len(nodes),
        )
    )
    parts.append(details("Type definitions", links.sections(), open_=True, count=len(links.types)))
    outputs = getattr(st, "outputs", None)
    if isinstance(outputs, Mapping) and outputs:
        parts.append(details("Outputs", inputs_block(st, "outputs"), open_=True, count=len(outputs)))
    return "".join(parts)
