"""Layout of a :class:`~toskit.tosca.topology.model.Topology`: where each box,
edge and stub goes (the geometry); the drawing is
:mod:`toskit.display.topology_svg`.

The layout is grandalf's layered Sugiyama layout (ranking, dummy vertices
for long edges, crossing reduction), computed in Python: no network and no
JavaScript. Each connected component is laid out on its own and the
components are packed in rows. A requirement points down: the node that
needs sits above the node that is needed (web app above web server above
compute), as in the TOSCA specification's figures.

Unresolved requirements get a small stub vertex of their own, so the
layout leaves room for the dashed arrow "to nowhere" they are drawn as.
A box's size follows its text lines (:func:`box_lines`), which the drawing
writes in it.

Each edge's (and stub's) label gets a place here too (:attr:`Path.label`,
see :func:`_place_labels`): the first of several candidate spots along its
line whose box touches no line, no node box and no label placed before it,
else the spot that touches the fewest.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from toskit.records import field, record
from toskit.tosca.topology.sugiyama import Layered, TooDeep

if TYPE_CHECKING:
    from toskit.tosca.topology.model import Topology

__all__ = ["Box", "Layout", "Path", "box_lines", "clip", "edge_label", "layout"]

CHAR_WIDTH = 7.0  # px per character at the 12px font used in boxes
LINE_HEIGHT = 15.0
PAD = 8.0
MIN_WIDTH = 90.0
MAX_WIDTH = 240.0
STUB = 14.0  # size of an unresolved requirement's stub vertex
BOLD = 1.12  # a bold name's characters are this much wider than CHAR_WIDTH
ROW_WIDTH = 1400.0  # components are packed in rows up to about this width
GAP = 40.0
MARGIN = 24.0
LABEL_CHARS = int((MAX_WIDTH - 2 * PAD) / CHAR_WIDTH)
EDGE_LABEL_CHARS = 28  # an edge label is clipped to this many characters
LABEL_HEIGHT = 13.0  # an edge label's box: the 11px font with its halo
LABEL_GAP = 4.0  # a label box keeps this far from its anchor on the line
LABEL_FRACTIONS = (0.5, 0.35, 0.65, 0.2, 0.8)
"""Where along its line (fraction of its length) a label may sit, tried in order."""
COVER = 10  # a spot covering a node box or a label weighs this many line crossings
OFF_DRAWING = 100  # a spot off the drawing's top or left weighs this many clashes
CELL = 96.0  # smallest side of a cell of the spatial index used to place labels
CELLS_PER_SEGMENT = 16  # cells grow so lines are indexed under this many each on average
LABEL_WORK = 10
"""Shape tests per edge and box that placing all labels may spend (and at
least :data:`LABEL_WORK_FLOOR`); past it, the remaining labels take their
first spot unchecked (long lines across a huge drawing would otherwise make
placement grow faster than the drawing). A shape test costs ~0.35 µs. A
sparse drawing needs about 2 per edge and box (20,000 nodes in 2,857
separate stacks: 1.8); only a tangle of long lines across a huge drawing
runs out: at 20,000 nodes with 22,856 such edges, 10 per edge and box cost
0.4 s of placement, 30 cost 0.7 s and 100 cost 2.6 s (each checks a few
per cent of those labels more, none of which has a free spot)."""
LABEL_WORK_FLOOR = 120_000
"""The budget of a drawing of up to ~1,000 boxes and edges (at most ~0.2 s):
there every label is placed with every check it needs (with 30 per edge
and box, a 504-node drawing had 41 labels over others instead of none)."""


@record
class Box:
    """A laid-out vertex: centre ``x``, ``y`` and size ``w``×``h``."""

    x: float
    y: float
    w: float
    h: float


@record
class Path:
    """A laid-out edge: the polyline from the source box to the target."""

    points: list[tuple[float, float]]
    index: int  # into Topology.edges, or into Topology.problems for stubs
    label: Box | None = None
    """Where the edge's label goes (its box; the text starts at its left)."""


@record
class Layout:
    """Where everything goes; ``width``×``height`` is the drawing's size."""

    boxes: dict[str, Box] = field(default_factory=dict)
    edges: list[Path] = field(default_factory=list)
    stubs: list[tuple[Box, Path]] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0
    lines: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Each box's text lines (:func:`box_lines`), which set its size."""


def clip(text: str, limit: int = LABEL_CHARS) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def edge_label(text: str, count: int = 1) -> str:
    """An edge's label: its requirement's name (``×count`` for parallel
    edges drawn as one), clipped."""
    return clip(text + (f" ×{count}" if count > 1 else ""), EDGE_LABEL_CHARS)


def box_lines(topology: Topology, name: str) -> list[tuple[str, str]]:
    """The text lines of a box, each with its CSS class."""
    node = topology.nodes[name]
    # The name is bold: fewer of its characters fit (a long type name as a
    # grouped box's name overflowed its box).
    lines = [(clip(node.name, int(LABEL_CHARS / BOLD)), "toskit-t-name")]
    if node.type != node.name:  # a type group is named by its type
        lines.append((clip(node.type), "toskit-t-type"))
    if node.is_group:
        lines.append((clip(f"{len(node.members)} node templates"), "toskit-t-prop"))
    lines += [(clip(f"{k}: {v}"), "toskit-t-prop") for k, v in node.properties]
    if node.directives:
        lines.append((clip("directives: " + ", ".join(node.directives)), "toskit-t-prop"))
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
REUSE_SHAPES = True
"""Whether a component of a shape laid out before in the drawing takes that
layout (see :func:`_sugiyama`); ``bench/bench_topology.py --fresh-layouts``
turns it off to measure a template whose components all differ."""
OWN_LAYERED = True
"""Whether a component is laid out by toskit's run of grandalf's algorithm (:class:`~toskit.tosca.topology.sugiyama.Layered`, the
same floats); ``bench/bench_topology.py --grandalf`` turns it off to
measure grandalf itself."""


@record
class _Link:
    source: Any
    target: Any
    view: _EdgeView
    backbone: bool


def layout(topology: Topology) -> Layout:
    """Lay ``topology`` out with grandalf (see the module docstring)."""
    lines = {name: box_lines(topology, name) for name in topology.nodes}
    views: dict[Any, _View] = {name: _View(*_size(text)) for name, text in lines.items()}
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
    blocks = _arrange(list(views), links, views, _Memo() if REUSE_SHAPES else None)
    out = Layout(lines=lines)
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
    texts = [
        edge_label(topology.edges[p.index].requirement, topology.edges[p.index].count)
        for p in out.edges
    ] + [edge_label(topology.problems[p.index].requirement) for _, p in out.stubs]
    _place_labels(out, texts)
    return out


def _arrange(
    keys: list[Any], links: list[_Link], views: dict[Any, _View], memo: _Memo | None
) -> list[tuple[list[Any], list[_EdgeView]]]:
    """Lay out each connected component; returns ``(keys, routed edge views)`` blocks
    in each block's own coordinates (the caller packs them). ``memo`` holds
    grandalf's layouts of this drawing's components by their exact shape
    (see :func:`_sugiyama`; ``None``: every component is laid out anew)."""
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
            and _sugiyama(ckeys, clinks, views, memo)
        ):
            blocks.append((ckeys, [link.view for link in clinks]))
            continue
        backbone = [link for link in clinks if link.backbone]
        if len(backbone) < len(clinks):
            blocks.extend(_arrange(ckeys, backbone, views, memo))
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


Placed = tuple[tuple[tuple[float, float], ...], tuple[tuple[tuple[float, float], ...], ...]]
"""grandalf's layout of one component: each vertex's centre, each link's route."""


Run = tuple[Any, list[Any], list[Any]]
"""A grandalf layout kept for another component of the same structure: the
``SugiyamaLayout``, its vertices in component order, its edges in link order."""


RUNS_KEPT = 5000
"""Vertices of grandalf runs one drawing keeps for placing again (a run
holds ~3 KB per vertex: at most ~15 MB)."""
_ONCE = "once"  # a structure run once, not kept (it may never come again)


class _Memo:
    """What one drawing has laid out, for its other components (see
    :func:`_sugiyama`): layouts by exact shape, grandalf runs by structure
    (a run is kept when a second component of its structure comes, so a
    template whose components all differ keeps none), ``kept`` vertices."""

    def __init__(self) -> None:
        self.shapes: dict[Any, Placed | None] = {}
        self.runs: dict[Any, Run | Layered | str | None] = {}
        self.kept = 0


def _sugiyama(
    keys: list[Any], links: list[_Link], views: dict[Any, _View], memo: _Memo | None
) -> bool:
    """grandalf's layered layout of one component; ``False`` when over budget.

    grandalf's result depends only on the order of the vertices, their
    sizes and the order and ends of the edges (it iterates insertion-ordered
    containers; nothing depends on names or object identity). So a component
    of exactly the same shape as one laid out before in this drawing (same
    box sizes in the same order, same links between the same positions; a
    template generated with many identical stacks has hundreds) takes that
    layout instead of a new run: the same floats, so the same drawing. One
    of the same structure but other box sizes reuses that run's ranking,
    dummy vertices and crossing reduction, which never look at a size, and
    only places it again (:func:`_grandalf`).
    ``tests/tosca/test_topology_layout.py`` holds both against fresh runs.
    """
    placed = _chain(keys, links, views)
    if placed is None and memo is None:  # no reuse (REUSE_SHAPES off)
        placed = _grandalf(keys, links, views)
    elif placed is None and memo is not None:
        index = {key: i for i, key in enumerate(keys)}
        structure = (len(keys), tuple((index[x.source], index[x.target]) for x in links))
        shape = (tuple((views[key].w, views[key].h) for key in keys), structure)
        if shape in memo.shapes:
            placed = memo.shapes[shape]
        else:
            placed = memo.shapes[shape] = _grandalf(keys, links, views, memo, structure)
    if placed is None:
        return False
    for key, xy in zip(keys, placed[0]):
        views[key].xy = xy
    for link, points in zip(links, placed[1]):
        link.view.points = list(points)
    return True


YSPACE = 60
"""Vertical space between two layers (grandalf's ``yspace``)."""
XSPACE = 30
"""Horizontal space between two boxes of a layer (grandalf's ``xspace``)."""


def _chain(keys: list[Any], links: list[_Link], views: dict[Any, _View]) -> Placed | None:
    """grandalf's layout of a component that is one directed path (each
    requirement's target needs the next; ``None`` for any other shape),
    computed directly: each layer holds one box, so every alignment puts
    every box at x 0, and layer after layer goes down by its box's height
    and :data:`YSPACE`; each route is its two centres. The same floats as
    grandalf's (``tests/tosca/test_topology_layout.py`` compares them).
    """
    if len(links) != len(keys) - 1:
        return None
    following: dict[Any, Any] = {}
    for link in links:
        if link.source in following:
            return None  # a fork
        following[link.source] = link.target
    targets = set(following.values())
    roots = set(keys) - targets
    if len(targets) != len(following) or len(roots) != 1:
        return None  # a join (two requirements on one box)
    xy: dict[Any, tuple[float, float]] = {}
    key = roots.pop()
    y = 0.0
    while True:
        half = views[key].h / 2.0
        xy[key] = (0.0, y + half)
        y += 2 * half + YSPACE
        if key not in following:
            break
        key = following[key]
    if len(xy) != len(keys):
        return None
    return (
        tuple(xy[key] for key in keys),
        tuple((xy[link.source], xy[link.target]) for link in links),
    )


def _grandalf(
    keys: list[Any],
    links: list[_Link],
    views: dict[Any, _View],
    memo: _Memo | None = None,
    structure: Any = None,
) -> Placed | None:
    """Run grandalf on one component: where its vertices and routes go, or
    ``None`` when it is over :data:`LAYOUT_BUDGET` (or recursed too deep).

    ``memo`` keeps runs by their component's ``structure`` (the number of
    vertices and the links between positions; see :class:`_Memo`). A
    component of a structure kept takes that run with its own sizes:
    grandalf's ranking, dummy vertices and crossing reduction read no size,
    so only the dummies' size (the median box's) and the coordinates
    (``setxy``, Brandes and Köpf's placement, which starts afresh each
    time) are computed again.

    A component is laid out by
    :class:`~toskit.tosca.topology.sugiyama.Layered` (grandalf's algorithm
    and floats with far less Python); one whose cycle search or block
    placement nests deeper than :data:`~toskit.tosca.topology.sugiyama.DEPTH`
    goes to grandalf itself, which decides as it always did.
    """
    before = memo.runs.get(structure, "") if memo is not None else ""
    if before is None:
        return None
    if isinstance(before, Layered):
        # Kept only once placed: its nesting (TooDeep) does not depend on sizes.
        try:
            return before.place([(views[key].w, views[key].h) for key in keys], XSPACE, YSPACE)
        except RecursionError:  # as a kept grandalf run below
            return None
    if isinstance(before, tuple):
        try:
            return _place_again(before, [views[key] for key in keys])
        except RecursionError:  # as below; the run itself went through
            return None
    acyclic = _acyclic(keys, links)
    run: Run | Layered | None = None
    placed: Placed | None = None
    over = False
    if OWN_LAYERED:
        # grandalf's layout without grandalf's objects (see sugiyama.py):
        # the same floats, a fraction of the Python.
        index = {key: i for i, key in enumerate(keys)}
        edges = [(index[x.source], index[x.target]) for x in links]
        try:
            lean = Layered(len(keys), edges, cyclic=not acyclic)
            if lean.size > LAYOUT_BUDGET:  # as grandalf's run below would find
                over = True
            else:
                lean.order(3 if lean.size <= LAYOUT_BUDGET // 3 else 1)
                sizes = [(views[key].w, views[key].h) for key in keys]
                placed, run = lean.place(sizes, XSPACE, YSPACE), lean
        except (TooDeep, RecursionError):  # grandalf decides (see sugiyama.DEPTH)
            run = None
    if run is None and not over:
        run = _grandalf_run(keys, links, views, acyclic)
        placed = None if run is None else _placed(run)
    if memo is not None:
        if run is None:
            memo.runs[structure] = None
        elif before == _ONCE and memo.kept + len(keys) <= RUNS_KEPT:
            memo.runs[structure] = run
            memo.kept += len(keys)
        else:
            memo.runs[structure] = _ONCE
    return placed


def _grandalf_run(
    keys: list[Any], links: list[_Link], views: dict[Any, _View], acyclic: bool
) -> Run | None:
    """grandalf itself on one component (see :func:`_grandalf`)."""
    # Imported here: grandalf is only needed once something is drawn.
    from grandalf.graphs import Edge, Vertex, graph_core
    from grandalf.layouts import SugiyamaLayout

    vertices = {}
    for key in keys:
        vertex = Vertex(key)
        vertex.view = _View(views[key].w, views[key].h)
        vertices[key] = vertex
    edges = []
    for link in links:
        edge = Edge(vertices[link.source], vertices[link.target])
        edge.view = _EdgeView()
        edges.append(edge)
    run: Run | None = None
    try:
        sug = SugiyamaLayout(graph_core(list(vertices.values()), edges))
        sug.xspace, sug.yspace = XSPACE, YSPACE
        # Without a cycle there is no edge to invert: grandalf's own search
        # for them (Tarjan's, recursive) would find none.
        sug.init_all(inverted_edges=[] if acyclic else None)
        size = sum(len(layer) for layer in sug.layers)
        if size <= LAYOUT_BUDGET:
            # Fewer crossing-reduction rounds on bigger components.
            _draw(sug, 3 if size <= LAYOUT_BUDGET // 3 else 1)
            run = (sug, list(vertices.values()), edges)
    except RecursionError:  # a safety net: _dfs_depth should have caught it
        run = None
    return run


def _placed(run: Run) -> Placed:
    _, vertices, edges = run
    return (
        tuple(vertex.view.xy for vertex in vertices),
        tuple(tuple(edge.view.points) for edge in edges),
    )


def _place_again(run: Run, sizes: list[_View]) -> Placed:
    """A run's layout for boxes of other ``sizes`` (see :func:`_grandalf`)."""
    from grandalf.utils.geometry import median_wh

    sug, vertices, _ = run
    for vertex, size in zip(vertices, sizes):
        vertex.view.w, vertex.view.h = size.w, size.h
    # As SugiyamaLayout sizes its dummy vertices: the median box.
    sug.dw, sug.dh = median_wh([v.view for v in sug.g.V()])
    for layer in sug.layers:
        for v in layer:
            if sug.grx[v].dummy:
                v.view.w, v.view.h = sug.dw, sug.dh
    sug.setxy()
    sug.draw_edges()
    return _placed(run)


def _draw(sug: Any, rounds: int) -> None:
    """``sug.draw(rounds)``, stopping the crossing-reduction rounds early once
    one leaves every layer's order as it found it.

    A round's outcome depends only on the layers' orders it starts from (each
    layer it reorders gets its positions renumbered from the new order), so
    a round that changed no order would be repeated identically: the result
    is grandalf's own, without the idle rounds (most components of a large
    template are trees, whose first sweep already has no crossings).
    """
    for _ in range(rounds):
        before = [[id(v) for v in layer] for layer in sug.layers]
        for _step in sug.ordering_step():
            pass
        if before == [[id(v) for v in layer] for layer in sug.layers]:
            break
    sug.setxy()
    sug.draw_edges()


def _acyclic(keys: list[Any], links: list[_Link]) -> bool:
    """Whether the links form no directed cycle (Kahn: peel off the boxes
    nothing points at until none is left, or only cycles are)."""
    pointed: dict[Any, int] = dict.fromkeys(keys, 0)
    following: dict[Any, list[Any]] = {}
    for link in links:
        pointed[link.target] += 1
        following.setdefault(link.source, []).append(link.target)
    free = [key for key, n in pointed.items() if n == 0]
    seen = 0
    while free:
        key = free.pop()
        seen += 1
        for nxt in following.get(key, ()):
            pointed[nxt] -= 1
            if pointed[nxt] == 0:
                free.append(nxt)
    return seen == len(keys)


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


Segment = tuple[float, float, float, float]
Rect = tuple[float, float, float, float]  # left, top, right, bottom


class _Grid:
    """A bucket index of segments and rectangles by square cells (at least :data:`CELL` wide), so a
    label is checked against what lies near it only (placement stays linear
    in the size of the drawing)."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[int]] = {}
        # (is a segment, shape, bounding box)
        self.items: list[tuple[bool, Segment | Rect, Rect]] = []
        self.work = 0  # shape tests done by hits()

    def add_rect(self, r: Rect) -> None:
        c = self.cell
        item = len(self.items)
        self.items.append((False, r, r))
        cells = self.cells
        for cx in range(int(r[0] // c), int(r[2] // c) + 1):
            for cy in range(int(r[1] // c), int(r[3] // c) + 1):
                cells.setdefault((cx, cy), []).append(item)

    def add_segment(self, s: Segment) -> None:
        """Index a segment under the cells it crosses (column by column: a
        long line costs its length in cells, not its bounding box's area)."""
        c = self.cell
        item = len(self.items)
        bound = (min(s[0], s[2]), min(s[1], s[3]), max(s[0], s[2]), max(s[1], s[3]))
        self.items.append((True, s, bound))
        x1, y1, x2, y2 = s
        if x1 > x2:
            x1, y1, x2, y2 = x2, y2, x1, y1
        cells = self.cells
        for cx in range(int(x1 // c), int(x2 // c) + 1):
            if x2 == x1:
                ya, yb = y1, y2
            else:
                lo, hi = max(x1, cx * c), min(x2, (cx + 1) * c)
                slope = (y2 - y1) / (x2 - x1)
                ya, yb = y1 + (lo - x1) * slope, y1 + (hi - x1) * slope
            for cy in range(int(min(ya, yb) // c), int(max(ya, yb) // c) + 1):
                cells.setdefault((cx, cy), []).append(item)

    def hits(self, r: Rect, enough: int) -> int:
        """How much ``r`` clashes: the lines it crosses, :data:`COVER` for each
        box or label it covers; counting no further than ``enough``."""
        c = self.cell
        near: set[int] = set()
        for cx in range(int(r[0] // c), int(r[2] // c) + 1):
            for cy in range(int(r[1] // c), int(r[3] // c) + 1):
                near.update(self.cells.get((cx, cy), ()))
        # The shape tests of segment_hits_rect and rects_overlap, written out
        # here: this loop runs a million times when a huge drawing is placed.
        left, top, right, bottom = r
        items = self.items
        count = done = 0
        for item in near:
            done += 1
            is_segment, shape, bound = items[item]
            # A quick rejection by bounding box first (most near shapes miss).
            if bound[0] > right or bound[2] < left or bound[1] > bottom or bound[3] < top:
                continue
            if is_segment:
                # Liang-Barsky, as segment_hits_rect: clip the segment's
                # parameter range [t0, t1] by each side of r.
                x1, y1, x2, y2 = shape
                dx, dy = x2 - x1, y2 - y1
                t0, t1 = 0.0, 1.0
                for p, q in (
                    (-dx, x1 - left),
                    (dx, right - x1),
                    (-dy, y1 - top),
                    (dy, bottom - y1),
                ):
                    if p == 0:
                        if q < 0:
                            break
                        continue
                    t = q / p
                    if p < 0:
                        if t > t0:
                            t0 = t
                    elif t < t1:
                        t1 = t
                    if t0 > t1:
                        break
                else:
                    count += 1
            elif shape[0] < right and left < shape[2] and shape[1] < bottom and top < shape[3]:
                # Covering a box or another label's letters is worse than
                # crossing a line (the label's halo keeps its own letters legible).
                count += COVER
            if count >= enough:
                break
        self.work += done
        return count


def rects_overlap(a: Rect, b: Rect) -> bool:
    """Whether two ``(left, top, right, bottom)`` rectangles share area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def segment_hits_rect(s: Segment, r: Rect) -> bool:
    """Whether segment ``s`` passes through rectangle ``r`` (Liang-Barsky)."""
    x1, y1, x2, y2 = s
    dx, dy = x2 - x1, y2 - y1
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x1 - r[0]), (dx, r[2] - x1), (-dy, y1 - r[1]), (dy, r[3] - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def label_rect(box: Box) -> Rect:
    """A (centre-based) :class:`Box` as ``(left, top, right, bottom)``."""
    return (box.x - box.w / 2, box.y - box.h / 2, box.x + box.w / 2, box.y + box.h / 2)


def _along(
    points: list[tuple[float, float]], fraction: float, lengths: list[float] | None = None
) -> tuple[float, float]:
    """The point ``fraction`` of the way along a polyline (``lengths``: its
    segments' lengths, when the caller has them)."""
    if lengths is None:
        lengths = _lengths(points)
    goal = sum(lengths) * fraction
    for (a, b), length in zip(zip(points, points[1:]), lengths):
        if goal <= length and length > 0:
            t = goal / length
            return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        goal -= length
    return points[-1]


def _lengths(points: list[tuple[float, float]]) -> list[float]:
    return [((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5 for a, b in zip(points, points[1:])]


def _candidates(points: list[tuple[float, float]], w: float) -> Iterator[Rect]:
    """Label boxes to try, best first: at each of :data:`LABEL_FRACTIONS`,
    right-above the line (the old place), then the other sides. A generator:
    most labels take the first spot, so the rest are never computed."""
    h, g = LABEL_HEIGHT, LABEL_GAP
    lengths = _lengths(points)
    for fraction in LABEL_FRACTIONS:
        x, y = _along(points, fraction, lengths)
        for left, top in (
            (x + g, y - g - h),  # right, above
            (x + g, y + g),  # right, below
            (x - g - w, y - g - h),  # left, above
            (x - g - w, y + g),  # left, below
            (x - w / 2, y - g - h),  # centred above (a level line)
            (x - w / 2, y + g),  # centred below
        ):
            yield (left, top, left + w, top + h)


def _place_labels(lay: Layout, texts: list[str]) -> int:
    """Give each edge and stub of ``lay`` (in that order, ``texts`` their
    labels) a label box: the first candidate that touches no line (its own
    included: a candidate keeps :data:`LABEL_GAP` from its anchor), no node
    box and no label placed before; else the candidate that clashes least
    (covering a box or a label weighs more than crossing a line).
    Each candidate is checked against the shapes in the index cells it
    covers only. Returns the number of shape tests spent (at most about
    :data:`LABEL_WORK` per edge and box, or :data:`LABEL_WORK_FLOOR`)."""
    paths = lay.edges + [path for _, path in lay.stubs]
    boxes = list(lay.boxes.values()) + [stub for stub, _ in lay.stubs]
    segments: dict[Segment, None] = {}  # parallel edges share one line
    for path in paths:
        for a, b in zip(path.points, path.points[1:]):
            segments[(a[0], a[1], b[0], b[1])] = None
    length = sum(abs(s[2] - s[0]) + abs(s[3] - s[1]) for s in segments)
    grid = _Grid(max(CELL, length / (CELLS_PER_SEGMENT * max(1, len(segments)))))
    for box in boxes:
        grid.add_rect(label_rect(box))
    for segment in segments:
        grid.add_segment(segment)
    budget = max(LABEL_WORK_FLOOR, LABEL_WORK * (len(paths) + len(boxes)))
    for path, text in zip(paths, texts):
        if len(path.points) < 2:
            continue
        w = len(text) * CHAR_WIDTH
        best: Rect | None = None
        fewest = -1
        for r in _candidates(path.points, w):
            # Off the drawing's top or left edge counts as a clash (it would be cut).
            off = OFF_DRAWING * ((r[0] < 0) + (r[1] < 0))
            if grid.work > budget or (best is not None and off >= fewest):
                n = off  # out of budget (the first spot on the drawing wins), or no better
            else:
                n = off + grid.hits(r, fewest - off if best is not None else len(grid.items) + 1)
            if best is None or n < fewest:
                best, fewest = r, n
            if n == 0:
                break
        assert best is not None  # there are always candidates
        if best[0] < 0 or best[1] < 0:  # every spot was off the drawing: pull it in
            dx, dy = max(0.0, -best[0]), max(0.0, -best[1])
            best = (best[0] + dx, best[1] + dy, best[2] + dx, best[3] + dy)
        if grid.work <= budget:  # only a label checked after this one needs to see it
            grid.add_rect(best)
        lay.width = max(lay.width, best[2] + LABEL_GAP)
        lay.height = max(lay.height, best[3] + LABEL_GAP)
        path.label = Box(
            (best[0] + best[2]) / 2, (best[1] + best[3]) / 2, best[2] - best[0], LABEL_HEIGHT
        )
    return grid.work
