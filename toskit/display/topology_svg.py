"""SVG drawing of a laid-out :class:`~toskit.tosca.topology.model.Topology`.

``Topology.to_svg()`` and the topology views draw through :func:`render_svg`;
the geometry (where each box and edge goes, a box's text lines) is
:mod:`toskit.tosca.topology.layout`'s.

The SVG uses class names (``toskit-t-node``, ``toskit-t-edge``, ``toskit-t-hosting``,
``toskit-t-problem``…) styled through CSS variables (``--toskit-*`` with
fallbacks), so the notebook's theme applies; their rules have one home,
:data:`SVG_STYLE`, which a standalone file embeds and toskit's stylesheet
includes. Every text is escaped (and made valid XML). Nodes carry
``data-node`` and edges ``data-source``/``data-requirement`` attributes for
the explorer widget, and each has a ``<title>`` (the hover text).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING, Any

from toskit.tosca.topology.layout import (
    CHAR_WIDTH,
    LINE_HEIGHT,
    PAD,
    STUB,
    Box,
    Layout,
    Path,
    box_lines,
    clip,
    edge_label,
)

if TYPE_CHECKING:
    from toskit.tosca.topology.model import Topology

__all__ = ["SVG_STYLE", "render_svg"]

BADGE_R = 8.0  # radius of a box's findings badge

SVG_STYLE = """
.toskit-t-svg { font-family: var(--toskit-font, system-ui, sans-serif); font-size: 12px; }
.toskit-t-svg .toskit-t-node rect { fill: var(--toskit-bg-alt, #f3f4f6); stroke: var(--toskit-fg-faint, #8a8a8a); stroke-width: 1.2; }
.toskit-t-svg .toskit-t-node.toskit-t-group rect { stroke-dasharray: 5 3; }
.toskit-t-svg .toskit-t-node.toskit-t-selected rect { stroke: var(--toskit-accent, #1a73e8); stroke-width: 2.5; }
.toskit-t-svg .toskit-t-node:hover rect, .toskit-t-svg .toskit-t-node:focus rect { stroke: var(--toskit-accent, #1a73e8); }
.toskit-t-svg .toskit-t-node text { fill: var(--toskit-fg, #1a1a1a); }
.toskit-t-svg .toskit-t-node text.toskit-t-name { font-weight: 600; }
.toskit-t-svg .toskit-t-node text.toskit-t-type { fill: var(--toskit-accent, #1a73e8); }
.toskit-t-svg .toskit-t-node text.toskit-t-prop { fill: var(--toskit-fg-muted, #555); font-size: 11px; }
.toskit-t-svg .toskit-t-node { cursor: pointer; }
.toskit-t-svg .toskit-t-edge path { fill: none; stroke: var(--toskit-fg-muted, #666); stroke-width: 1.4; }
.toskit-t-svg .toskit-t-edge.toskit-t-hosting path.toskit-t-line { stroke: var(--toskit-fg, #333); stroke-width: 2.4; }
.toskit-t-svg .toskit-t-edge.toskit-t-ambiguous path.toskit-t-line { stroke: var(--toskit-warn, #b45309); stroke-dasharray: 3 3; }
.toskit-t-svg .toskit-t-edge path.toskit-t-hit { stroke: transparent; stroke-width: 10; }
.toskit-t-svg .toskit-t-edge:hover path.toskit-t-line { stroke: var(--toskit-accent, #1a73e8); }
.toskit-t-svg .toskit-t-edge text { fill: var(--toskit-fg-muted, #555); font-size: 11px; }
.toskit-t-svg .toskit-t-arrow { fill: var(--toskit-fg-muted, #666); }
.toskit-t-svg .toskit-t-problem path { fill: none; stroke: var(--toskit-error, #c62828); stroke-width: 1.6; stroke-dasharray: 6 4; }
.toskit-t-svg .toskit-t-problem circle { fill: none; stroke: var(--toskit-error, #c62828); }
.toskit-t-svg .toskit-t-problem text { fill: var(--toskit-error, #c62828); font-size: 11px; }
.toskit-t-svg .toskit-t-arrow-error { fill: var(--toskit-error, #c62828); }
.toskit-t-svg .toskit-t-node rect.toskit-t-has-errors { stroke: var(--toskit-error, #b3261e); stroke-width: 2; }
.toskit-t-svg .toskit-t-node rect.toskit-t-has-warnings { stroke: var(--toskit-warn, #8a4b00); stroke-width: 2; }
.toskit-t-svg .toskit-t-badge circle { stroke: var(--toskit-bg, #fff); stroke-width: 1.5; }
.toskit-t-svg .toskit-t-badge-error circle { fill: var(--toskit-error, #b3261e); }
.toskit-t-svg .toskit-t-badge-warning circle { fill: var(--toskit-warn, #8a4b00); }
.toskit-t-svg .toskit-t-node text.toskit-t-badge-text { fill: var(--toskit-bg, #fff); font-size: 10px; font-weight: 700; }
.toskit-t-svg .toskit-t-edge text, .toskit-t-svg .toskit-t-problem text.toskit-t-label { paint-order: stroke; stroke: var(--toskit-bg, #fff); stroke-width: 3px; stroke-linejoin: round; }
.toskit-t-svg .toskit-t-boundary rect { fill: none; stroke: var(--toskit-fg-faint, #999); stroke-width: 1.2; stroke-dasharray: 8 4; }
.toskit-t-svg .toskit-t-boundary text { fill: var(--toskit-fg-muted, #555); font-style: italic; }
.toskit-t-svg .toskit-t-port path { fill: none; stroke: var(--toskit-fg-faint, #999); stroke-dasharray: 2 3; }
.toskit-t-svg .toskit-t-port rect { fill: var(--toskit-bg, #fff); stroke: var(--toskit-fg-faint, #999); }
.toskit-t-svg .toskit-t-port text { fill: var(--toskit-fg, #1a1a1a); font-size: 11px; }
"""


# Characters XML 1.0 forbids even when escaped (YAML's "\x01" can make them).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


# What _esc changes: most names and numbers have none of it (one scan instead
# of six; a 20,000-node drawing escapes 200,000 texts).
_TOUCHED = re.compile("[&<>\"'\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _esc(text: str) -> str:
    """``text`` escaped for SVG text and attributes, and valid XML."""
    if _TOUCHED.search(text) is None:
        return text
    return escape(_NOT_XML.sub("\ufffd", text), quote=True)


_WRITTEN: dict[float, str] = {}
"""_f's texts during one render_svg (a 20,000-node drawing writes 330,000
coordinates, 53,000 distinct); emptied when it returns."""


def _f(value: float) -> str:
    """A coordinate with at most one decimal, without a trailing ``.0``."""
    text = _WRITTEN.get(value)
    if text is None:
        text = f"{value:.1f}"
        if text.endswith(".0"):
            text = text[:-2]
        # 0.0 and -0.0 are one key but two texts ("0", "-0"): zeros are not kept.
        if value:
            _WRITTEN[value] = text
    return text


def _path_d(points: list[tuple[float, float]]) -> str:
    return "M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _midpoint(points: list[tuple[float, float]]) -> tuple[float, float]:
    if len(points) % 2 == 1:
        return points[len(points) // 2]
    a, b = points[len(points) // 2 - 1], points[len(points) // 2]
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _text(x: float, y: float, text: str, cls: str, anchor: str = "middle") -> str:
    return f'<text class="{cls}" x="{_f(x)}" y="{_f(y)}" text-anchor="{anchor}">{_esc(text)}</text>'


LABEL_BASELINE = 10.0  # from the top of a label's box to its text's baseline (11px font)


def _label(path: Path, text: str) -> str:
    """An edge's label where the layout placed it (:attr:`Path.label`)."""
    if path.label is None:  # a line too short to be given a place
        mx, my = _midpoint(path.points) if path.points else (0.0, 0.0)
        return _text(mx + 4, my - 3, text, "toskit-t-label", "start")
    left = path.label.x - path.label.w / 2
    top = path.label.y - path.label.h / 2
    return _text(left, top + LABEL_BASELINE, text, "toskit-t-label", "start")


def render_svg(
    topology: Topology,
    lay: Layout,
    *,
    standalone: bool = True,
    interactive: bool = False,
    findings: Mapping[str, tuple[int, int]] | None = None,
) -> str:
    """SVG text of a laid-out topology (see the module docstring).

    ``interactive`` makes the node boxes keyboard-focusable (the explorer
    widget selects a focused box with Enter); a static view has nothing to
    focus. ``findings`` (``Topology.findings()``: box name → errors,
    warnings) draws a badge with the count on each box that has any and
    edges its box in the error (or warning) colour.
    """
    try:
        return _render_svg(
            topology, lay, standalone=standalone, interactive=interactive, findings=findings
        )
    finally:
        _WRITTEN.clear()


def _render_svg(
    topology: Topology,
    lay: Layout,
    *,
    standalone: bool,
    interactive: bool,
    findings: Mapping[str, tuple[int, int]] | None,
) -> str:
    findings = findings or {}
    boundary = topology.boundary
    # Marker ids must not clash between drawings on one page; deterministic.
    uid = hashlib.sha1(
        f"{topology.name}|{topology.view}|{len(lay.boxes)}|{len(lay.edges)}".encode()
    ).hexdigest()[:8]
    top = 34.0 if boundary is not None else 0.0
    bottom = 34.0 if boundary is not None and boundary.requirements else 0.0
    width = max(lay.width, 200.0, _boundary_width(topology))
    height = lay.height + top + bottom
    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    out = [
        f'<svg{ns} class="toskit-t-svg" role="img" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(width)} {_f(height)}">',
        f"<title>{_esc(f'Topology of {topology.name}')}</title>",
    ]
    # A standalone file carries its style (light fallbacks of the --toskit-*
    # variables); in a view, toskit's one stylesheet holds the same rules and
    # sets the variables per theme.
    if standalone:
        out.append(f"<style>{SVG_STYLE}</style>")
    out.append(
        "<defs>"
        f'<marker id="toskit-t-arrow-{uid}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse">'
        '<path class="toskit-t-arrow" d="M0,0 L10,5 L0,10 z"/></marker>'
        f'<marker id="toskit-t-err-{uid}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse">'
        '<path class="toskit-t-arrow-error" d="M0,0 L10,5 L0,10 z"/></marker>'
        "</defs>"
    )
    out.append(f'<g transform="translate(0,{_f(top)})">')
    out.extend(_edges_svg(topology, lay, uid))
    out.extend(_stubs_svg(topology, lay, uid))
    focus = ' tabindex="0"' if interactive else ""
    for name, box in lay.boxes.items():
        counts = findings.get(name, (0, 0))
        out.append(_node_svg(topology, name, box, counts, focus, lay.lines.get(name)))
    out.append("</g>")
    if boundary is not None:
        out.append(_boundary_svg(topology, lay, width, height, top))
    out.append("</svg>")
    return "\n".join(out)


def _edges_svg(topology: Topology, lay: Layout, uid: str) -> list[str]:
    """The laid-out edges, then the self-loops (which the layout leaves out)."""
    out = []
    ambiguous = {(p.source, p.requirement) for p in topology.ambiguous}
    for path in lay.edges:
        e = topology.edges[path.index]
        classes = ["toskit-t-edge"]
        if e.hosting:
            classes.append("toskit-t-hosting")
        if (e.source, e.requirement) in ambiguous:
            classes.append("toskit-t-ambiguous")
        d = _path_d(path.points)
        out.append(
            f'<g class="{" ".join(classes)}" data-source="{_esc(e.source)}" '
            f'data-target="{_esc(e.target)}" data-requirement="{_esc(e.requirement)}">'
            f"<title>{_esc(e.tooltip)}</title>"
            f'<path class="toskit-t-hit" d="{d}"/>'
            f'<path class="toskit-t-line" d="{d}" marker-end="url(#toskit-t-arrow-{uid})"/>'
            + _label(path, edge_label(e.requirement, e.count))
            + "</g>"
        )
    for e in topology.edges:
        if e.source == e.target and e.source in lay.boxes:
            b = lay.boxes[e.source]
            x, y = b.x + b.w / 2, b.y
            d = (
                f"M{_f(x)},{_f(y - 6)} C{_f(x + 30)},{_f(y - 20)} "
                f"{_f(x + 30)},{_f(y + 20)} {_f(x)},{_f(y + 6)}"
            )
            out.append(
                f'<g class="toskit-t-edge" data-source="{_esc(e.source)}" '
                f'data-target="{_esc(e.target)}" '
                f'data-requirement="{_esc(e.requirement)}"><title>{_esc(e.tooltip)}</title>'
                f'<path class="toskit-t-line" d="{d}" marker-end="url(#toskit-t-arrow-{uid})"/>'
                + _text(x + 32, y, clip(e.requirement, 28), "toskit-t-label", "start")
                + "</g>"
            )
    return out


def _stubs_svg(topology: Topology, lay: Layout, uid: str) -> list[str]:
    """Unresolved requirements: a dashed arrow to a small "?" circle."""
    out = []
    for stub, path in lay.stubs:
        p = topology.problems[path.index]
        out.append(
            f'<g class="toskit-t-problem toskit-t-{_esc(p.kind)}" data-source="{_esc(p.source)}" '
            f'data-requirement="{_esc(p.requirement)}"><title>{_esc(p.tooltip)}</title>'
            f'<path d="{_path_d(path.points)}" marker-end="url(#toskit-t-err-{uid})"/>'
            f'<circle cx="{_f(stub.x)}" cy="{_f(stub.y)}" r="{_f(STUB / 2)}"/>'
            + _text(stub.x, stub.y + 4, "?", "toskit-t-q")
            + _label(path, edge_label(p.requirement))
            + "</g>"
        )
    return out


def _node_tip(node: Any, errors: int, warnings: int) -> str:
    """A box's hover text: name and type, its findings' counts, what it is."""
    tip = [f"{node.name}: {node.type}"]
    if errors or warnings:
        said = [
            f"{n} {w}{'' if n == 1 else 's'}"
            for n, w in ((errors, "error"), (warnings, "warning"))
            if n
        ]
        tip.append(", ".join(said) + " (see its properties)")
    if node.description:
        tip.append(node.description)
    if node.unchecked:
        tip.append(node.unchecked)
    if node.is_group:
        tip.append(f"{len(node.members)} node templates: " + ", ".join(node.members[:20]))
    return "\n".join(tip)


def _node_svg(
    topology: Topology,
    name: str,
    box: Box,
    counts: tuple[int, int],
    focus: str,
    lines: list[tuple[str, str]] | None = None,
) -> str:
    """One box: its rect (edged by its findings), text lines (``lines``, as
    the layout sized the box by them, else :func:`box_lines`) and findings badge."""
    node = topology.nodes[name]
    node_classes = "toskit-t-node toskit-t-group" if node.is_group else "toskit-t-node"
    errors, warnings = counts
    # The box's state is a class of its rect (the group's classes name what it is).
    rect_class = ""
    if errors or warnings:
        rect_class = ' class="toskit-t-has-errors"' if errors else ' class="toskit-t-has-warnings"'
    left, ytop = box.x - box.w / 2, box.y - box.h / 2
    parts = [
        f'<g class="{node_classes}" data-node="{_esc(name)}"{focus}>',
        f"<title>{_esc(_node_tip(node, errors, warnings))}</title>",
        f'<rect{rect_class} x="{_f(left)}" y="{_f(ytop)}" '
        f'width="{_f(box.w)}" height="{_f(box.h)}" rx="6"/>',
    ]
    for i, (line, cls) in enumerate(lines or box_lines(topology, name)):
        parts.append(_text(box.x, ytop + PAD + LINE_HEIGHT * (i + 1) - 4, line, cls))
    if errors or warnings:
        # The badge sits on the box's top-right corner: the count of errors
        # (or, with none, of warnings).
        shown = errors or warnings
        kind = "error" if errors else "warning"
        parts.append(
            f'<g class="toskit-t-badge toskit-t-badge-{kind}">'
            f'<circle cx="{_f(left + box.w)}" cy="{_f(ytop)}" r="{_f(BADGE_R)}"/>'
            + _text(
                left + box.w,
                ytop + 4,
                str(shown) if shown < 100 else "99+",
                "toskit-t-badge-text",
            )
            + "</g>"
        )
    parts.append("</g>")
    return "".join(parts)


def _label_width(boundary: Any) -> float:
    return CHAR_WIDTH * len(clip(f"substitutes for {boundary.node_type or '?'}", 80)) + 20


def _port_width(label: str) -> float:
    return len(clip(label, 24)) * CHAR_WIDTH + 12


def _boundary_width(topology: Topology) -> float:
    """How wide the drawing must be for the boundary's label and ports."""
    boundary = topology.boundary
    if boundary is None:
        return 0.0
    caps = sum(_port_width(outer) + 8 for outer, _, _ in boundary.capabilities)
    reqs = sum(_port_width(outer) + 8 for outer, _, _ in boundary.requirements)
    return max(14 + _label_width(boundary) + caps, 14 + reqs) + 8


def _boundary_svg(topology: Topology, lay: Layout, width: float, height: float, top: float) -> str:
    boundary = topology.boundary
    assert boundary is not None
    out = ['<g class="toskit-t-boundary">']
    out.append(f'<rect x="4" y="4" width="{_f(width - 8)}" height="{_f(height - 8)}" rx="10"/>')
    out.append(
        _text(
            14,
            20,
            clip(f"substitutes for {boundary.node_type or '?'}", 80),
            "toskit-t-boundary-label",
            "start",
        )
    )
    out.append("</g>")
    x = 14 + _label_width(boundary)

    def port(label: str, node: str, inner: str | None, py: float, at_top: bool, kind: str) -> None:
        nonlocal x
        text = clip(label, 24)
        w = _port_width(label)
        if x + w > width - 8:
            return  # no room: the HTML view lists every mapping
        parts = [f'<g class="toskit-t-port toskit-t-port-{kind}" data-node="{_esc(node)}">']
        where = f"{node}.{inner}" if inner else node
        parts.append(f"<title>{_esc(f'{kind} {label} → {where}')}</title>")
        box = lay.boxes.get(node)
        if box is not None:
            ny = box.y + top + (-box.h / 2 if at_top else box.h / 2)
            parts.append(
                f'<path d="M{_f(x + w / 2)},{_f(py + (9 if at_top else -9))} '
                f'L{_f(box.x)},{_f(ny)}"/>'
            )
        parts.append(f'<rect x="{_f(x)}" y="{_f(py - 9)}" width="{_f(w)}" height="18" rx="4"/>')
        parts.append(_text(x + w / 2, py + 4, text, "toskit-t-port-label"))
        parts.append("</g>")
        out.append("".join(parts))
        x += w + 8

    for outer, node, inner in boundary.capabilities:
        port(outer, node, inner, 18, True, "capability")
    x = 14.0
    for outer, node, inner in boundary.requirements:
        port(outer, node, inner, height - 18, False, "requirement")
    return "\n".join(out)
