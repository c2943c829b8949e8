"""The static HTML view of a topology: the drawn graph and its tables.

``Topology._repr_html_`` and the ``toskit show`` report use it. The graph is
an inline SVG (no script: it works in stored notebooks, on GitHub and in
the report), coloured through the ``--toskit-*`` variables that follow the
notebook theme; the SVG's own texts are escaped where it is drawn
(:mod:`toskit.display.topology_svg`) and everything here goes through
:func:`~toskit.display.html.esc`. Hovering a box or an arrow shows its
``<title>``: the requirement, the relationship type and why that target.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toskit.display.html import badge, chip, details, esc, fragment, header, table
from toskit.display.links import file_link
from toskit.display.options import get as option
from toskit.display.words import count

__all__ = ["topology_body", "topology_html", "topology_section", "topology_svg_block"]

LARGE = 150
"""Above this many boxes the view suggests ``grouped()`` / ``collapse_hosting()``."""

DRAW_LIMIT = 600
"""Above this many boxes a notebook view draws the topology grouped by type
(a drawing of thousands of boxes is megabytes and unreadable; ``to_svg()``
still draws it whole)."""


def topology_svg_block(topology: Any) -> str:
    """The drawing in a scrollable box (the SVG's texts are escaped when drawn)."""
    try:
        svg = topology.to_svg(standalone=False)
    except Exception as exc:  # noqa: BLE001 - a layout failure must not break the view
        return f'<div class="toskit-view-error">topology could not be drawn: {esc(exc)}</div>'
    return f'<div class="toskit-topology-drawing">{svg}</div>'


def _legend() -> str:
    return (
        '<div class="toskit-topology-legend">'
        "Arrows go from the node that needs to the node that fulfils: thick = hosted on, "
        "thin = other relationships, dashed "
        '<span class="toskit-topology-err">red</span> = unresolved, dashed '
        '<span class="toskit-topology-warn">orange</span> = ambiguous. '
        "Hover an arrow for the requirement, the relationship and why that target.</div>"
    )


def _candidates_html(candidates: Iterable[Any]) -> str:
    items = []
    for c in candidates:
        variant = {"chosen": "ok", "passed": "info", "excluded": "blocked"}.get(
            c.outcome, "warning"
        )
        items.append(
            f"<div>{badge(c.outcome, variant, small=True)} "
            f"{esc(c.candidate)}: {esc(c.reason)}</div>"
        )
    return "".join(items)


def _problems_table(topology: Any) -> str:
    def rows() -> Iterable[Any]:
        for p in topology.problems:
            variant = "warning" if p.kind == "ambiguous" else "error"
            d = p.diagnostic
            code = d.code if d is not None else ""
            where = (
                f' <span class="toskit-diag-loc">{file_link(d.file, d.line, d.column)}</span>'
                if d is not None and d.line is not None
                else ""
            )
            yield [
                ("", badge(p.kind, variant, small=True)),
                ("", esc(p.source)),
                ("", esc(p.requirement)),
                ("", esc(p.message) + (f" {chip(code)}" if code else "") + where),
                ("", _candidates_html(p.candidates)),
            ]

    return table(
        ["problem", "node", "requirement", "message", "candidates"],
        rows(),
        total=len(topology.problems),
    )


def _edges_table(topology: Any) -> str:
    def rows() -> Iterable[Any]:
        for e in topology.edges:
            yield [
                ("", esc(e.source)),
                ("", esc(e.requirement) + (f" ×{e.count}" if e.count > 1 else "")),
                ("", esc(e.target)),
                ("", esc(e.relationship or "")),
                ("", esc(e.capability or "")),
                (
                    "",
                    esc(e.reason)
                    + (f"<div>{esc('filter: ' + e.node_filter)}</div>" if e.node_filter else ""),
                ),
            ]

    return table(
        ["node", "requirement", "target", "relationship", "capability", "why this target"],
        rows(),
        total=len(topology.edges),
    )


def _boundary_html(boundary: Any) -> str:
    def rows() -> Iterable[Any]:
        for kind, section in (
            ("capability", boundary.capabilities),
            ("requirement", boundary.requirements),
        ):
            for outer, node, inner in section:
                yield [
                    ("", esc(kind)),
                    ("", esc(outer)),
                    ("", esc(node) + (f".{esc(inner)}" if inner else "")),
                ]
        for name in boundary.properties:
            yield [("", "property"), ("", esc(name)), ("", "")]

    return f"<div>substitutes for node type {chip(boundary.node_type or '?')}</div>" + table(
        ["mapped", "outer name", "inner"], rows(), empty="no mappings"
    )


def topology_body(topology: Any, *, open_tables: bool = False, draw_limit: int = DRAW_LIMIT) -> str:
    """Header, drawing, legend and the tables (problems, edges, boundary).

    Above ``draw_limit`` boxes the drawing is the topology grouped by type
    (the tables still list every requirement, bounded by the display options).
    """
    problems = list(topology.problems)
    extras = [chip(count(len(topology.nodes), "node")), chip(count(len(topology.edges), "edge"))]
    if topology.view != "templates":
        extras.append(chip(topology.view))
    unresolved = sum(1 for p in problems if p.kind in ("unresolved", "missing"))
    ambiguous = sum(1 for p in problems if p.kind == "ambiguous")
    excess = len(problems) - unresolved - ambiguous
    if unresolved:
        extras.append(badge(f"{unresolved} unresolved", "error"))
    if excess:
        extras.append(badge(f"{excess} too many", "error"))
    if ambiguous:
        extras.append(badge(f"{ambiguous} ambiguous", "warning"))
    # The nodes' own findings, counted as the drawing's badges count them.
    try:
        per_node = topology.findings() if callable(getattr(topology, "findings", None)) else {}
    except Exception:  # noqa: BLE001 - a view never fails on a broken template
        per_node = {}
    errors = sum(e for e, _ in per_node.values())
    warnings = sum(w for _, w in per_node.values())
    if errors:
        extras.append(badge(count(errors, "error"), "error"))
    if warnings:
        extras.append(badge(count(warnings, "warning"), "warning"))
    parts = [header("topology", topology.name, *extras)]
    if len(topology.nodes) > LARGE:
        parts.append(
            '<div class="toskit-more">a large topology: '
            '<span class="toskit-code">.grouped()</span> '
            'draws one box per node type, <span class="toskit-code">.collapse_hosting()</span> '
            "one box per hosting chain</div>"
        )
    drawn = topology
    if len(topology.nodes) > draw_limit:
        drawn = topology.grouped()
        parts.append(
            f'<div class="toskit-more">{len(topology.nodes):,} nodes: drawn grouped by type '
            f"({len(drawn.nodes):,} box{'es' if len(drawn.nodes) != 1 else ''}); "
            '<span class="toskit-code">.to_svg()</span> draws every node</div>'
        )
    parts.append(topology_svg_block(drawn))
    parts.append(_legend())
    if problems:
        parts.append(
            details(
                "Unresolved and ambiguous requirements",
                _problems_table(topology),
                open_=True,
                count=len(problems),
            )
        )
    parts.append(
        details(
            "Requirements", _edges_table(topology), open_=open_tables, count=len(topology.edges)
        )
    )
    if topology.boundary is not None:
        parts.append(
            details("Substitution mappings", _boundary_html(topology.boundary), open_=True)
        )
    return "".join(parts)


def topology_html(topology: Any) -> str:
    """The notebook view of a ``Topology`` (``_repr_html_``)."""
    return fragment(topology_body(topology), repr(topology), "topology")


def topology_section(st: Any) -> str:
    """The report's "Topology" section for a service template ("" when it has no nodes)."""
    nodes = getattr(st, "node_templates", None) or {}
    make = getattr(st, "topology", None)
    if not nodes or not callable(make):
        return ""
    try:
        topology = make()
    except Exception as exc:  # noqa: BLE001 - the report must still be written
        body = f'<div class="toskit-view-error">topology unavailable: {esc(exc)}</div>'
    else:
        # A report bounded to N node templates draws at most N boxes (else grouped);
        # an unbounded report draws every node.
        body = topology_body(topology, draw_limit=option("display_max_nodes"))
    return details("Topology", body, open_=True, count=len(nodes))
