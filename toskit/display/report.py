"""A standalone HTML report of a service template (``toskit show -o``).

The page is self-contained (one ``<style>``, no script but the type links'
constant handler, no external resource; ``file:line`` links are relative to
the page's folder when ``toskit show`` renders it in ``links_from``) and,
unlike a notebook fragment, lists node templates with their
full merged property tables: a report is read, searched and printed, not
scrolled past.

Its size is bounded whatever the template (#19: 20,000 mistakes made a
52 MB page). By default (each bound is a keyword of :func:`render_page`,
``None`` for no bound):

* diagnostics: the first :data:`PAGE_PER_CODE` of each code, then one
  "N more 'code' diagnostics not shown" row per code, and at most
  :data:`PAGE_MAX_DIAGNOSTICS` rows in all; the badges count every one;
* node templates: at most :data:`PAGE_MAX_NODES` sections (and as many
  boxes drawn in the topology), each table at most :data:`PAGE_MAX_ROWS`
  rows, sections while they fit in :data:`PAGE_BUDGET` characters
  ("… N more node templates not shown");
* type definitions: at most :data:`PAGE_MAX_TYPES` (and as many entries in
  the type tree), within their own :data:`PAGE_BUDGET`; a type name links
  to its definition only when the definition is on the page, so every link
  of the page has its target;
* the diagnostic rows also stop at :data:`PAGE_BUDGET` characters, one node
  section larger than that is a one-line note (such a type definition is
  left out), and
  every part is charged to :data:`PAGE_MAX_CHARS` for the whole body: a
  part that would cross it is a one-line note. Texts of diagnostics are
  abbreviated (:func:`toskit.diagnostics.abbreviate`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toskit.diagnostics import Diagnostic, cap_per_code, sort_diagnostics
from toskit.display import options
from toskit.display.diagnostics_view import VIEW_HINT, diagnostics_block, ordered, summary_badges
from toskit.display.html import css, css_without_auto_dark, details, esc, more_note
from toskit.display.topology_view import topology_section
from toskit.display.tosca_views import (
    SourcePalette,
    TypeLinks,
    _template_header,
    _template_title,
    inputs_block,
    node_diagnostics,
    node_summary,
    node_template_body,
    report_types,
    requirement_problems,
    template_description,
    template_lines,
    type_body,
    type_tree_html,
)
from toskit.display.typetree import is_normative, template_types
from toskit.records import record

__all__ = ["render_page"]

_UNBOUNDED = 10**9

#: Diagnostics of one code listed on a page before a summary row.
PAGE_PER_CODE = 100
#: Diagnostic rows (summaries included) on a page.
PAGE_MAX_DIAGNOSTICS = 1_000
#: Node template sections on a page (and boxes drawn in its topology).
PAGE_MAX_NODES = 1_000
#: Rows of one table (a node's properties, the inputs…) on a page.
PAGE_MAX_ROWS = 500
#: Type definitions on a page (and entries of its type tree).
PAGE_MAX_TYPES = 1_000
#: Characters of diagnostic rows, of node template sections and of type
#: definitions (each): no further one is added once the next would cross it.
PAGE_BUDGET = 1_500_000
#: Characters of the whole page body: a part that would cross it is a
#: one-line note instead (the stylesheet, about 50 kB, comes on top).
PAGE_MAX_CHARS = 6_000_000


def render_page(
    template: Any,
    *,
    title: str | None = None,
    max_nodes: int | None = PAGE_MAX_NODES,
    max_rows: int | None = PAGE_MAX_ROWS,
    theme: str = "auto",
    max_types: int | None = PAGE_MAX_TYPES,
    per_code: int | None = PAGE_PER_CODE,
    max_diagnostics: int | None = PAGE_MAX_DIAGNOSTICS,
    budget: int | None = PAGE_BUDGET,
    max_chars: int | None = PAGE_MAX_CHARS,
) -> str:
    """The whole page as a string.

    ``theme`` is ``"auto"`` (follow the reader's system setting), ``"light"``
    or ``"dark"``. ``max_nodes`` and ``max_rows`` bound the node templates
    listed and the rows of each table, ``max_types`` the type definitions,
    ``per_code`` the diagnostics of one code and ``max_diagnostics`` all of
    them, ``budget`` the characters of diagnostic rows, of node sections and
    of type definitions, ``max_chars`` those of the whole page body (see the
    module docstring; ``None``: no bound).
    """
    if theme not in ("auto", "light", "dark"):
        from toskit.errors import ToskitError

        raise ToskitError(f"theme must be 'auto', 'light' or 'dark', not {theme!r}")
    bounds = _Bounds(
        per_code=per_code,
        max_diagnostics=max_diagnostics or _UNBOUNDED,
        max_types=max_types or _UNBOUNDED,
        budget=budget or _UNBOUNDED,
        total=max_chars or _UNBOUNDED,
    )
    with options.context(
        display_max_rows=max_rows or _UNBOUNDED,
        display_max_nodes=max_nodes or _UNBOUNDED,
        display_max_tree_nodes=max_types or _UNBOUNDED,
    ):
        body = _page_body(template, bounds)
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


@record
class _Bounds:
    """The page's bounds, and how much of the whole-page bound (``total``) is used."""

    per_code: int | None
    max_diagnostics: int
    max_types: int
    budget: int
    total: int
    used: int = 0

    def area(self) -> int:
        """Characters the next bounded area (diagnostics, node sections, type
        definitions) may take: its ``budget``, or what is left of ``total``."""
        return max(0, min(self.budget, self.total - self.used))

    def fit(self, title: str, html: str) -> str:
        """``html`` if it fits in what is left of the page, else a one-line note in its place."""
        if len(html) > self.total - self.used:
            html = details(title, _too_large(len(html)), open_=True)
        self.used += len(html)
        return html


def _too_large(size: int) -> str:
    return (
        f'<div class="toskit-more">… not shown: {size:,} characters, more than the '
        "page's bound leaves for it (see the notebook view or toskit check)</div>"
    )


def _page_types(st: Any, bounds: _Bounds) -> tuple[TypeLinks, str]:
    """The types whose definitions the page shows (their links), and that section.

    The first ``max_types`` of :func:`report_types` while their definitions
    fit in the area's budget (a definition larger than the whole budget is
    left out, the next ones still tried). Links are made for those only, so
    a name whose definition is not on the page is plain text, never a link
    to nothing.
    """
    candidates = report_types(st)
    probe = TypeLinks(candidates[: bounds.max_types])
    area = bounds.area()
    size, kept = 0, []
    for t in probe.types:
        body = len(type_body(t, type_link=probe))
        if body > bounds.budget:
            continue
        if size + body > area:
            break
        size += body
        kept.append(t)
    links = probe if len(kept) == len(probe.types) else TypeLinks(kept)
    left_out = len(TypeLinks(candidates).types) - len(kept)
    # Rendered again with the final links: a link left out is shorter, so it still fits.
    section = details(
        "Type definitions",
        links.sections() + more_note(left_out, "more types not shown (the page is bounded)"),
        open_=True,
        count=len(links.types) + left_out,
    )
    return links, section


def _node_diagnostics(node: Any, listed: list[Any], per_code: int | None) -> list[Any]:
    """A node's diagnostics for its section: all of them, capped per code.

    ``listed`` are those of the template's (capped) list; the ones the load
    did not list but that name the node's properties come back from the
    node's validity index, so the node's badges count every one; then at
    most ``per_code`` of each code are shown, the rest one summary row.
    """
    from toskit.tosca.model.validity import entity_diagnostics

    every = list(listed)
    known = {id(d) for d in every}
    unlisted = [d for d in entity_diagnostics(node) or () if id(d) not in known]
    if unlisted and all(isinstance(d, Diagnostic) for d in every):
        every = sort_diagnostics(every + unlisted)
    if per_code is None or not all(isinstance(d, Diagnostic) for d in every):
        return every
    return cap_per_code(every, per_code, hint=VIEW_HINT.format(n=per_code))


def _page_body(st: Any, bounds: _Bounds) -> str:
    diags = list(getattr(st, "diagnostics", []) or [])
    nodes = getattr(st, "node_templates", {}) or {}
    inputs = getattr(st, "inputs", {}) or {}
    types = template_types(st)
    user_types = [t for t in types if not is_normative(t)]
    # Every part is charged to the page's bound (``bounds.fit``): whatever the
    # template, the page stays within ``total`` characters (#19).
    parts = [
        bounds.fit(
            "Service template",
            _template_header(st, diags, nodes, inputs, user_types) + template_description(st),
        )
    ]
    title = f"Diagnostics {summary_badges(diags)}"
    block = diagnostics_block(
        ordered(diags),
        lines=template_lines(st),
        per_code=bounds.per_code,
        limit=bounds.max_diagnostics,
        budget=bounds.area(),
    )
    parts.append(bounds.fit(title, details(title, block, open_=True)))
    # Every type name links to its definition below, so the page is navigable
    # without a kernel. The definitions are chosen (and charged) first: the
    # links in every other part depend on which ones are on the page.
    links, definitions = _page_types(st, bounds)
    bounds.used += len(definitions)
    tree = details("Types", type_tree_html(types, link=links), open_=True, count=len(user_types))
    parts.append(bounds.fit("Types", tree))
    topology = topology_section(st)  # the drawn graph of node templates and requirements
    parts.append(bounds.fit("Topology", topology) if topology else "")
    if inputs:
        parts.append(
            bounds.fit("Inputs", details("Inputs", inputs_block(st), open_=True, count=len(inputs)))
        )
    per_node = node_diagnostics(st)
    lines = template_lines(st)
    palette = SourcePalette()  # one colour per source across the page
    limit = options.get("display_max_nodes")
    unresolved = requirement_problems(st, list(nodes)[:limit])
    area = bounds.area()
    sections: list[str] = []
    size = 0
    for index, (name, node) in enumerate(nodes.items()):
        if index >= limit:
            break
        diags_here = _node_diagnostics(node, per_node.get(str(name), []), bounds.per_code)
        body = node_template_body(
            node,
            diagnostics=diags_here,
            lines=lines,
            palette=palette,
            show_header=False,
            type_link=links,
            requirement_problems=unresolved.get(str(name), ()),
        )
        if len(body) > bounds.budget:  # one node larger than all of them may be
            body = _too_large(len(body))
        section = details(node_summary(name, node, diags_here), body, open_=True)
        if size + len(section) > area:
            break
        sections.append(section)
        size += len(section)
    hidden = len(nodes) - len(sections)
    more = "more node templates" + (
        " not shown (the page is bounded)" if len(sections) < limit else ""
    )
    node_part = details(
        "Node templates",
        "".join(sections) + more_note(hidden, more)
        or '<div class="toskit-empty">no node templates</div>',
        open_=True,
        count=len(nodes),
    )
    parts.append(bounds.fit("Node templates", node_part))
    parts.append(definitions)
    outputs = getattr(st, "outputs", None)
    if isinstance(outputs, Mapping) and outputs:
        out_part = details("Outputs", inputs_block(st, "outputs"), open_=True, count=len(outputs))
        parts.append(bounds.fit("Outputs", out_part))
    return "".join(parts)
