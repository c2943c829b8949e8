"""Layout and SVG drawing of a :class:`~toskit.tosca.topology.model.Topology`.

The layout is grandalf's layered Sugiyama layout (ranking, dummy vertices
for long edges, crossing reduction), computed in Python: no network and no
JavaScript. Each connected component is laid out on its own and the
components are packed in rows. A requirement points down: the node that
needs sits above the node that is needed (web app above web server above
compute), as in the TOSCA specification's figures.

Unresolved requirements get a small stub vertex of their own, so the
layout leaves room for the dashed arrow "to nowhere" they are drawn as.

The SVG uses class names (``toskit-t-node``, ``toskit-t-edge``, ``toskit-t-hosting``,
``toskit-t-problem``…) styled through CSS variables (``--jp-*`` with fallbacks),
so the notebook's theme applies; every text is escaped. Nodes carry
``data-node`` and edges ``data-source``/``data-requirement`` attributes for
the explorer widget, and each has a ``<title>`` (the hover text).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toskit.tosca.topology.model import Topology

__all__ = ["Box", "Layout", "Path", "layout", "render_svg"]

CHAR_WIDTH = 7.0  # px per character at the 12px font used in boxes
LINE_HEIGHT = 15.0
PAD = 8.0
MIN_WIDTH = 90.0
MAX_WIDTH = 240.0
STUB = 14.0  # size of an unresolved requirement's stub vertex
BADGE_R = 8.0  # radius of a box's findings badge
BOLD = 1.12  # a bold name's characters are this much wider than CHAR_WIDTH
ROW_WIDTH = 1400.0  # components are packed in rows up to about this width
GAP = 40.0
MARGIN = 24.0
LABEL_CHARS = int((MAX_WIDTH - 2 * PAD) / CHAR_WIDTH)


@dataclass
class Box:
    """A laid-out vertex: centre ``x``, ``y`` and size ``w``×``h``."""

    x: float
    y: float
    w: float
    h: float


@dataclass
class Path:
    """A laid-out edge: the polyline from the source box to the target."""

    points: list[tuple[float, float]]
    index: int  # into Topology.edges, or into Topology.problems for stubs


@dataclass
class Layout:
    """Where everything goes; ``width``×``height`` is the drawing's size."""

    boxes: dict[str, Box] = field(default_factory=dict)
    edges: list[Path] = field(default_factory=list)
    stubs: list[tuple[Box, Path]] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0


def _clip(text: str, limit: int = LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _lines(topology: Topology, name: str) -> list[tuple[str, str]]:
    """The text lines of a box, each with its CSS class."""
    node = topology.nodes[name]
    # The name is bold: fewer of its characters fit (a long type name as a
    # grouped box's name overflowed its box).
    lines = [(_clip(node.name, int(LABEL_CHARS / BOLD)), "toskit-t-name")]
    if node.type != node.name:  # a type group is named by its type
        lines.append((_clip(node.type), "toskit-t-type"))
    if node.is_group:
        lines.append((_clip(f"{len(node.members)} node templates"), "toskit-t-prop"))
    lines += [(_clip(f"{k}: {v}"), "toskit-t-prop") for k, v in node.properties]
    if node.directives:
        lines.append((_clip("directives: " + ", ".join(node.directives)), "toskit-t-prop"))
    return lines


def _size(lines: list[tuple[str, str]]) -> tuple[float, float]:
    widest = max(len(line) * (BOLD if cls == "toskit-t-name" else 1.0) for line, cls in lines)
    w = min(MAX_WIDTH, max(MIN_WIDTH, widest * CHAR_WIDTH + 2 * PAD))
    return w, len(lines) * LINE_HEIGHT + 2 * PAD


class _View:
    def __init__(self, w: float, h: float) -> None:
        self.w = w
        self.h = h
        self.xy = (0.0, 0.0)


class _EdgeView:
    def __init__(self) -> None:
        self.points: list[tuple[float, float]] = []

    def setpath(self, points: list[Any]) -> None:
        self.points = [(float(x), float(y)) for x, y in points]


# Past these, a component is not laid out whole (grandalf's cost grows with the
# dummy vertices that long edges need: a dense random graph of 500 nodes needs
# 200,000 and minutes). Its backbone (hosting and attachment edges, unresolved
# stubs) is laid out instead and the other edges drawn straight; a backbone
# still too big becomes a grid.
LAYOUT_BUDGET = 3000
"""Vertices, dummies included, that one component may have to be laid out whole."""
DENSE = 2.0
"""Non-backbone edges per vertex above which a component goes to its backbone at once."""
MAX_DEPTH = 200
"""Longest depth-first path grandalf may walk (it recurses once per step)."""
MAX_ORDER = 1000
"""Vertices of a component grandalf may get (its connectivity check is quadratic)."""


@dataclass
class _Link:
    source: Any
    target: Any
    view: _EdgeView
    backbone: bool


def layout(topology: Topology) -> Layout:
    """Lay ``topology`` out with grandalf (see the module docstring)."""
    views: dict[Any, _View] = {
        name: _View(*_size(_lines(topology, name))) for name in topology.nodes
    }
    pairs: dict[tuple[str, str], _Link] = {}
    for e in topology.edges:
        if e.source == e.target or e.source not in views or e.target not in views:
            continue  # self loops are drawn apart
        link = pairs.get((e.source, e.target))
        if link is None:  # parallel edges share one path
            link = pairs[(e.source, e.target)] = _Link(e.source, e.target, _EdgeView(), False)
        link.backbone = link.backbone or e.hosting or e.attachment
    stubs: list[tuple[int, Any, _Link]] = []
    for i, p in enumerate(topology.problems):
        if p.kind not in ("unresolved", "missing") or p.source not in views:
            continue  # ambiguous and too-many requirements have their arrows
        key = ("?", i)
        views[key] = _View(STUB, STUB)
        stubs.append((i, key, _Link(p.source, key, _EdgeView(), True)))
    links = list(pairs.values()) + [link for _, _, link in stubs]
    blocks = _arrange(list(views), links, views)
    out = Layout()
    x0, y0, row_height = MARGIN, MARGIN, 0.0
    for keys, routed in sorted(blocks, key=lambda b: -len(b[0])):
        members = [views[k] for k in keys]
        left = min(v.xy[0] - v.w / 2 for v in members)
        top = min(v.xy[1] - v.h / 2 for v in members)
        w = max(v.xy[0] + v.w / 2 for v in members) - left
        h = max(v.xy[1] + v.h / 2 for v in members) - top
        if x0 > MARGIN and x0 + w > ROW_WIDTH:
            x0, y0, row_height = MARGIN, y0 + row_height + GAP, 0.0
        dx, dy = x0 - left, y0 - top
        for v in members:
            v.xy = (v.xy[0] + dx, v.xy[1] + dy)
        for ev in routed:
            ev.points = [(x + dx, y + dy) for x, y in ev.points]
        x0 += w + GAP
        row_height = max(row_height, h)
        out.width = max(out.width, x0 - GAP + MARGIN)
    out.height = y0 + row_height + MARGIN
    for name in topology.nodes:
        v = views[name]
        out.boxes[name] = Box(v.xy[0], v.xy[1], v.w, v.h)
    for i, e in enumerate(topology.edges):
        link = pairs.get((e.source, e.target))
        if link is not None:
            out.edges.append(Path(_route(link.view, out.boxes[e.source], out.boxes[e.target]), i))
    for i, key, link in stubs:
        v = views[key]
        stub = Box(v.xy[0], v.xy[1], STUB, STUB)
        source = out.boxes[topology.problems[i].source]
        out.stubs.append((stub, Path(_route(link.view, source, stub), i)))
    return out


def _arrange(
    keys: list[Any], links: list[_Link], views: dict[Any, _View]
) -> list[tuple[list[Any], list[_EdgeView]]]:
    """Lay out each connected component; returns ``(keys, routed edge views)`` blocks
    in each block's own coordinates (the caller packs them)."""
    blocks: list[tuple[list[Any], list[_EdgeView]]] = []
    for ckeys, clinks in _components(keys, links):
        if len(ckeys) == 1:
            view = views[ckeys[0]]
            view.xy = (view.w / 2, view.h / 2)
            blocks.append((ckeys, []))
            continue
        weak = sum(1 for link in clinks if not link.backbone)
        if (
            len(ckeys) <= MAX_ORDER
            and weak <= DENSE * len(ckeys)
            and _dfs_depth(ckeys, clinks) <= MAX_DEPTH
            and _sugiyama(ckeys, clinks, views)
        ):
            blocks.append((ckeys, [link.view for link in clinks]))
            continue
        backbone = [link for link in clinks if link.backbone]
        if len(backbone) < len(clinks):
            blocks.extend(_arrange(ckeys, backbone, views))
        else:
            _grid([views[k] for k in ckeys])
            blocks.append((ckeys, []))
    return blocks


def _components(keys: list[Any], links: list[_Link]) -> list[tuple[list[Any], list[_Link]]]:
    """Connected components, in first-key order (union-find: grandalf's own
    ``Graph`` finds them in quadratic time)."""
    parent = {k: k for k in keys}

    def find(k: Any) -> Any:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for link in links:
        a, b = find(link.source), find(link.target)
        if a != b:
            parent[b] = a
    groups: dict[Any, tuple[list[Any], list[_Link]]] = {}
    for k in keys:
        groups.setdefault(find(k), ([], []))[0].append(k)
    for link in links:
        groups[find(link.source)][1].append(link)
    return list(groups.values())


def _sugiyama(keys: list[Any], links: list[_Link], views: dict[Any, _View]) -> bool:
    """grandalf's layered layout of one component; ``False`` when over budget."""
    # Imported here: grandalf is only needed once something is drawn.
    from grandalf.graphs import Edge, Vertex, graph_core
    from grandalf.layouts import SugiyamaLayout

    vertices = {}
    for key in keys:
        vertex = Vertex(key)
        vertex.view = views[key]
        vertices[key] = vertex
    edges = []
    for link in links:
        edge = Edge(vertices[link.source], vertices[link.target])
        edge.view = link.view
        edges.append(edge)
    try:
        sug = SugiyamaLayout(graph_core(list(vertices.values()), edges))
        sug.xspace, sug.yspace = 30, 60
        sug.init_all()
        size = sum(len(layer) for layer in sug.layers)
        if size > LAYOUT_BUDGET:
            return False
        # Fewer crossing-reduction rounds on bigger components.
        sug.draw(3 if size <= LAYOUT_BUDGET // 3 else 1)
        return True
    except RecursionError:  # a safety net: _dfs_depth should have caught it
        for link in links:
            link.view.points = []
        return False


def _dfs_depth(keys: list[Any], links: list[_Link]) -> int:
    """The deepest depth-first path from the roots (iteratively).

    grandalf's cycle detection recurses once per step of such a path, so a
    chain of a thousand requirements would exceed Python's recursion limit.
    """
    out: dict[Any, list[Any]] = {k: [] for k in keys}
    has_in: set[Any] = set()
    for link in links:
        out[link.source].append(link.target)
        has_in.add(link.target)
    roots = [k for k in keys if k not in has_in] or keys[:1]
    seen: set[Any] = set()
    deepest = 0
    for root in roots + keys:
        if root in seen:
            continue
        seen.add(root)
        stack = [iter(out[root])]
        while stack:
            deepest = max(deepest, len(stack))
            for nxt in stack[-1]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(iter(out[nxt]))
                    break
            else:
                stack.pop()
    return deepest


def _grid(members: list[_View]) -> None:
    """Place boxes in rows (the last resort: no layering, edges drawn straight)."""
    columns = max(1, int(len(members) ** 0.5))
    cell_w = max(v.w for v in members) + 30
    cell_h = max(v.h for v in members) + 60
    for i, v in enumerate(members):
        v.xy = ((i % columns) * cell_w + v.w / 2, (i // columns) * cell_h + v.h / 2)


def _border(box: Box, toward: tuple[float, float]) -> tuple[float, float]:
    """Where the segment from ``box``'s centre toward a point leaves the box."""
    dx, dy = toward[0] - box.x, toward[1] - box.y
    if dx == 0 and dy == 0:
        return box.x, box.y
    sx = (box.w / 2) / abs(dx) if dx else float("inf")
    sy = (box.h / 2) / abs(dy) if dy else float("inf")
    s = min(sx, sy, 1.0)
    return box.x + dx * s, box.y + dy * s


def _route(view: _EdgeView, source: Box, target: Box) -> list[tuple[float, float]]:
    points = list(view.points) or [(source.x, source.y), (target.x, target.y)]
    # grandalf routes from the upper to the lower vertex: an inverted (cycle)
    # edge comes back reversed.
    start, end = points[0], points[-1]
    if (start[0] - target.x) ** 2 + (start[1] - target.y) ** 2 < (start[0] - source.x) ** 2 + (
        start[1] - source.y
    ) ** 2 and (end[0], end[1]) != (target.x, target.y):
        points.reverse()
    inner = points[1:-1]
    first = inner[0] if inner else (target.x, target.y)
    last = inner[-1] if inner else (source.x, source.y)
    return [_border(source, first), *inner, _border(target, last)]


# ---------------------------------------------------------------------------- SVG

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


def _esc(text: str) -> str:
    """``text`` escaped for SVG text and attributes, and valid XML."""
    return escape(_NOT_XML.sub("\ufffd", text), quote=True)


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _path_d(points: list[tuple[float, float]]) -> str:
    return "M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in points)


def _midpoint(points: list[tuple[float, float]]) -> tuple[float, float]:
    if len(points) % 2 == 1:
        return points[len(points) // 2]
    a, b = points[len(points) // 2 - 1], points[len(points) // 2]
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def _text(x: float, y: float, text: str, cls: str, anchor: str = "middle") -> str:
    return f'<text class="{cls}" x="{_f(x)}" y="{_f(y)}" text-anchor="{anchor}">{_esc(text)}</text>'


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
        'markerHeight="7" orient="auto-start-reverse"><path class="toskit-t-arrow" d="M0,0 L10,5 L0,10 z"/></marker>'
        f'<marker id="toskit-t-err-{uid}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path class="toskit-t-arrow-error" d="M0,0 L10,5 L0,10 z"/></marker>'
        "</defs>"
    )
    out.append(f'<g transform="translate(0,{_f(top)})">')
    ambiguous = {(p.source, p.requirement) for p in topology.ambiguous}
    focus = ' tabindex="0"' if interactive else ""
    for path in lay.edges:
        e = topology.edges[path.index]
        classes = ["toskit-t-edge"]
        if e.hosting:
            classes.append("toskit-t-hosting")
        if (e.source, e.requirement) in ambiguous:
            classes.append("toskit-t-ambiguous")
        d = _path_d(path.points)
        mx, my = _midpoint(path.points)
        label = e.requirement + (f" ×{e.count}" if e.count > 1 else "")
        out.append(
            f'<g class="{" ".join(classes)}" data-source="{_esc(e.source)}" '
            f'data-target="{_esc(e.target)}" data-requirement="{_esc(e.requirement)}">'
            f"<title>{_esc(e.tooltip)}</title>"
            f'<path class="toskit-t-hit" d="{d}"/>'
            f'<path class="toskit-t-line" d="{d}" marker-end="url(#toskit-t-arrow-{uid})"/>'
            + _text(mx + 4, my - 3, _clip(label, 28), "toskit-t-label", "start")
            + "</g>"
        )
    for e in topology.edges:
        if e.source == e.target and e.source in lay.boxes:
            b = lay.boxes[e.source]
            x, y = b.x + b.w / 2, b.y
            d = f"M{_f(x)},{_f(y - 6)} C{_f(x + 30)},{_f(y - 20)} {_f(x + 30)},{_f(y + 20)} {_f(x)},{_f(y + 6)}"
            out.append(
                f'<g class="toskit-t-edge" data-source="{_esc(e.source)}" data-target="{_esc(e.target)}" '
                f'data-requirement="{_esc(e.requirement)}"><title>{_esc(e.tooltip)}</title>'
                f'<path class="toskit-t-line" d="{d}" marker-end="url(#toskit-t-arrow-{uid})"/>'
                + _text(x + 32, y, _clip(e.requirement, 28), "toskit-t-label", "start")
                + "</g>"
            )
    for stub, path in lay.stubs:
        p = topology.problems[path.index]
        mx, my = _midpoint(path.points)
        out.append(
            f'<g class="toskit-t-problem toskit-t-{_esc(p.kind)}" data-source="{_esc(p.source)}" '
            f'data-requirement="{_esc(p.requirement)}"><title>{_esc(p.tooltip)}</title>'
            f'<path d="{_path_d(path.points)}" marker-end="url(#toskit-t-err-{uid})"/>'
            f'<circle cx="{_f(stub.x)}" cy="{_f(stub.y)}" r="{_f(STUB / 2)}"/>'
            + _text(stub.x, stub.y + 4, "?", "toskit-t-q")
            + _text(mx + 4, my - 3, _clip(p.requirement, 28), "toskit-t-label", "start")
            + "</g>"
        )
    for name, box in lay.boxes.items():
        node = topology.nodes[name]
        lines = _lines(topology, name)
        node_classes = "toskit-t-node toskit-t-group" if node.is_group else "toskit-t-node"
        errors, warnings = findings.get(name, (0, 0))
        # The box's state is a class of its rect (the group's classes name what it is).
        rect_class = ""
        if errors or warnings:
            rect_class = (
                ' class="toskit-t-has-errors"' if errors else ' class="toskit-t-has-warnings"'
            )
        left, ytop = box.x - box.w / 2, box.y - box.h / 2
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
        parts = [
            f'<g class="{node_classes}" data-node="{_esc(name)}"{focus}>',
            f"<title>{_esc(chr(10).join(tip))}</title>",
            f'<rect{rect_class} x="{_f(left)}" y="{_f(ytop)}" width="{_f(box.w)}" height="{_f(box.h)}" rx="6"/>',
        ]
        for i, (line, cls) in enumerate(lines):
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
        out.append("".join(parts))
    out.append("</g>")
    if boundary is not None:
        out.append(_boundary_svg(topology, lay, width, height, top))
    out.append("</svg>")
    return "\n".join(out)


def _label_width(boundary: Any) -> float:
    return CHAR_WIDTH * len(_clip(f"substitutes for {boundary.node_type or '?'}", 80)) + 20


def _port_width(label: str) -> float:
    return len(_clip(label, 24)) * CHAR_WIDTH + 12


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
            _clip(f"substitutes for {boundary.node_type or '?'}", 80),
            "toskit-t-boundary-label",
            "start",
        )
    )
    out.append("</g>")
    x = 14 + _label_width(boundary)

    def port(label: str, node: str, inner: str | None, py: float, at_top: bool, kind: str) -> None:
        nonlocal x
        text = _clip(label, 24)
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
                f'<path d="M{_f(x + w / 2)},{_f(py + (9 if at_top else -9))} L{_f(box.x)},{_f(ny)}"/>'
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
