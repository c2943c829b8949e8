# SPDX-License-Identifier: EPL-1.0
# This file re-implements grandalf's layered layout (grandalf/layouts.py,
# Copyright (C) 2008-2015 Axel Tillequin, GPLv2 or EPLv1) step for step; it
# is distributed under the Eclipse Public License 1.0, grandalf's second
# licence (text: LICENSE-EPL-1.0 beside it). The rest of toskit is Apache-2.0.
"""grandalf's layered layout of one component, with less Python per vertex.

:mod:`toskit.tosca.topology.layout` draws with grandalf's ``SugiyamaLayout``
(``init_all`` then ``draw``). :class:`Layered` computes the same thing on
integer-indexed lists instead of grandalf's vertex, edge, layer and
attribute objects: the same edges turned round to break cycles (those its
depth-first cycle search finds pointing back into the current path), the
same ranking (the longest path from the boxes nothing points at, each layer
in the order grandalf fills it), the same dummy vertices for long edges
(sized as the median box), the same crossing reduction (barycentres over
the previous layer's positions, a stable sort, one pass of exchanges of
neighbours; down the layers, then up again while anything crosses), the
same coordinate assignment (Brandes and Köpf's four alignments with
grandalf's conflict marking, block placement and shifts, the mean of the
two median x values, layer after layer down by the tallest half-height and
``yspace``) and the same routes (through the dummies). Every arithmetic
step is the one grandalf does, in the same order, so the floats are equal,
not merely close: ``tests/tosca/test_topology_sugiyama.py`` compares both
on random components (trees, joins, cycles, pairs of boxes requiring each
other, long edges, wide layers) as ``repr``, and the drawings of the
tutorials and of B6 byte for byte.

This is a re-implementation for speed of grandalf's algorithm, step for
step (Copyright (C) 2008-2015 Axel Tillequin, GPLv2 or EPLv1): so this one
module is under the Eclipse Public License 1.0 (``LICENSE-EPL-1.0`` beside
it), not toskit's Apache-2.0. grandalf stays a dependency: a component whose cycle search or block placement nests
deeper than :data:`DEPTH` (:class:`TooDeep`; grandalf recurses there) still
goes to grandalf itself, as does every component when
``layout.OWN_LAYERED`` is off.
"""

from __future__ import annotations

from bisect import bisect

__all__ = ["DEPTH", "Layered", "TooDeep"]

DEPTH = 250
"""Nested block placements (or steps of the cycle search's depth-first
path) above which :class:`Layered` gives up (:class:`TooDeep`). grandalf
recurses once per block it places to the left of another, and once per
step of that path; such a component is left to grandalf, which then draws
it or hits Python's recursion limit exactly as it always did. Below this
both are far from the limit (unless the caller's own stack is: then both
fail)."""


class TooDeep(Exception):
    """The block placement or the cycle search nests deeper than :data:`DEPTH`."""


_INF = float("infinity")
_DIRECTIONS = ((1, -1), (-1, -1), (1, 1), (-1, 1))
"""grandalf's four alignments in its order: (horizontal, vertical) direction
(leftmost upper, rightmost upper, leftmost lower, rightmost lower)."""


class Layered:
    """One component ranked, with its dummies, ordered: ready to be placed
    (:meth:`place`) for any box sizes, as often as needed (a kept grandalf
    run is placed again the same way).

    Vertices are numbered: the component's boxes ``0 .. n-1`` in its order,
    then the dummies in the order grandalf makes them. ``edges`` are
    ``(source, target)`` pairs of box numbers, in link order, without a
    self-loop and without two from the same box to the same box. With
    ``cyclic``, the edges grandalf's cycle search marks (see
    :meth:`_feedback`) are turned round for ranking and ordering, as
    grandalf does; without, the edges must form no directed cycle (grandalf
    is then told there is none to turn).
    """

    def __init__(self, n: int, edges: list[tuple[int, int]], cyclic: bool = False) -> None:
        self.n = n
        self.edges = edges
        # Each box's links in link order (grandalf's Vertex.e), and the
        # edges as ranked: the marked ones turned round.
        incident: list[list[int]] = [[] for _ in range(n)]
        pointed = [False] * n
        for k, (a, b) in enumerate(edges):
            incident[a].append(k)
            incident[b].append(k)
            pointed[b] = True
        roots = [v for v in range(n) if not pointed[v]]
        turned = self._feedback(n, edges, incident, roots) if cyclic else set()
        dag = edges
        if turned:
            dag = [(b, a) if k in turned else (a, b) for k, (a, b) in enumerate(edges)]
        preds: list[list[int]] = [[] for _ in range(n)]
        succs: list[list[int]] = [[] for _ in range(n)]
        for v in range(n):  # each box's in grandalf's order: its links' order
            for k in incident[v]:
                a, b = dag[k]
                if b == v:
                    preds[v].append(a)
                else:
                    succs[v].append(b)
        # Ranks and layers as grandalf's _rank_init fills them: passes over
        # the boxes whose every in-edge has been scanned, in scan order.
        rank = [-1] * n
        waiting = [len(p) for p in preds]
        layers: list[list[int]] = []
        todo = roots + [v for v in range(n) if not preds[v] and v not in roots]
        while todo:
            layers.append(todo)
            nxt: list[int] = []
            ready: set[int] = set()
            r = len(layers) - 1
            for v in todo:
                rank[v] = r
                for x in succs[v]:  # every out-edge scanned first ...
                    waiting[x] -= 1
                for x in succs[v]:  # ... then who is ready, in order, once
                    if waiting[x] == 0 and x not in ready:
                        ready.add(x)
                        nxt.append(x)
            todo = nxt
        # Dummy vertices of long edges, in edge order, each appended to its
        # layer, from the upper end down.
        downward: list[list[int] | None] = []  # upper end, dummies, lower end
        count = n
        dummy_rank: list[int] = []
        for a, b in dag:
            r0, r1 = rank[a], rank[b]
            if r1 - r0 > 1:
                chain = [a]
                for r in range(r0 + 1, r1):
                    chain.append(count)
                    layers[r].append(count)
                    dummy_rank.append(r)
                    count += 1
                chain.append(b)
                downward.append(chain)
            else:
                downward.append(None)
        self.size = count
        self.rank = rank + dummy_rank
        self.layers = layers
        # Routes go from the edge's source to its target (up a turned edge).
        self.chains = [
            None if chain is None else chain if k not in turned else chain[::-1]
            for k, chain in enumerate(downward)
        ]
        # Each vertex's neighbours in the layer above and below, as grandalf
        # caches them: a long edge is reached through its dummy there, the
        # dummy of the box's first link with that neighbour (grandalf's
        # e_with: with two links between two boxes, both lead through it).
        up: list[list[int]] = [list(p) for p in preds]
        down: list[list[int]] = [list(x) for x in succs]
        ends = {v for spans in downward if spans is not None for v in (spans[0], spans[-1])}
        for v in ends:  # only a long edge's ends have a neighbour to replace
            for near, side in ((up[v], -1), (down[v], 1)):
                tr = rank[v] + side
                for i, x in enumerate(near):
                    if rank[x] != tr:
                        k = next(k for k in incident[v] if x in edges[k])
                        spans = downward[k]
                        assert spans is not None  # a link spanning layers has dummies
                        near[i] = spans[tr - rank[spans[0]]]
        for spans in downward:
            if spans is not None:
                for i in range(1, len(spans) - 1):
                    up.append([spans[i - 1]])
                    down.append([spans[i + 1]])
        self.up = up
        self.down = down
        self.pos = [0] * count
        self.bar = [0.0] * count
        self.step: list[float] = []
        self._blocks: list[tuple[list[int], list[int]]] | None = None
        for layer in layers:
            step = 1.0 / (len(layer) - 1) if len(layer) > 1 else 1.0
            self.step.append(step)
            for i, v in enumerate(layer):
                self.pos[v] = i
                self.bar[v] = i * step

    @staticmethod
    def _feedback(
        n: int, edges: list[tuple[int, int]], incident: list[list[int]], roots: list[int]
    ) -> set[int]:
        """The links grandalf's cycle search (Tarjan's, from the roots, then
        from each box not reached, in order) marks as feedback: those to a
        box on the current depth-first path. Walked iteratively; a path
        deeper than :data:`DEPTH` raises :class:`TooDeep` (grandalf recurses
        once per step: it decides, as it always did)."""
        outgoing = [[k for k in incident[v] if edges[k][0] == v] for v in range(n)]
        seen = [False] * n
        on_path = [False] * n
        marked: set[int] = set()
        for start in roots + list(range(n)):
            if seen[start]:
                continue
            seen[start] = on_path[start] = True
            stack = [(start, iter(outgoing[start]))]
            while stack:
                v, todo = stack[-1]
                for k in todo:
                    w = edges[k][1]
                    if not seen[w]:
                        if len(stack) >= DEPTH:
                            raise TooDeep
                        seen[w] = on_path[w] = True
                        stack.append((w, iter(outgoing[w])))
                        break
                    if on_path[w]:
                        marked.add(k)
                else:
                    on_path[v] = False
                    stack.pop()
        return marked

    # -- crossing reduction (grandalf's ordering_step, idle rounds skipped) --

    def order(self, rounds: int) -> None:
        """Up to ``rounds`` rounds of crossing reduction (grandalf's
        ``ordering_step``), stopping once a round leaves every layer as it
        found it (it would repeat identically)."""
        layers = self.layers
        for _ in range(rounds):
            before = [list(layer) for layer in layers]
            crossings = 0
            for r in range(len(layers)):
                crossings += self._order_layer(r, self.up, r > 0)
            if crossings:
                last = len(layers) - 1
                for r in range(last, -1, -1):
                    self._order_layer(r, self.down, r < last)
            if before == layers:
                break
        self._blocks = None  # positions changed: align again

    def _order_layer(self, r: int, near: list[list[int]], has_prev: bool) -> int:
        layer = self.layers[r]
        pos, bar = self.pos, self.bar
        # Crossings between this layer and the previous one (bilayer count
        # by insertion into a sorted list).
        seq: list[int] = []
        for v in layer:
            seq.extend(sorted([pos[x] for x in near[v]]))
        seen: list[int] = []
        c = 0
        for i, p in enumerate(seq):
            j = bisect(seen, p)
            if j < i:
                c += i - j
            seen.insert(j, p)
        if c <= 0:
            return c
        if has_prev:
            for v in layer:
                bars = [bar[x] for x in near[v]]
                if bars:
                    bar[v] = float(sum(bars)) / len(bars)
        layer.sort(key=bar.__getitem__)
        # One pass exchanging neighbours when that crosses less.
        c = 0
        for i in range(len(layer) - 1):
            vi, vj = layer[i], layer[i + 1]
            ni = [bar[x] for x in near[vi]]
            xij = xji = 0
            for nj in [bar[x] for x in near[vj]]:
                k = len([nx for nx in ni if nx > nj])
                xij += k
                xji += len(ni) - k
            if xji < xij:
                layer[i], layer[i + 1] = vj, vi
                c += xji
            else:
                c += xij
        step = self.step[r]
        for i, v in enumerate(layer):
            pos[v] = i
            bar[v] = i * step
        return c

    # -- coordinates (grandalf's setxy) and routes (its draw_edges) --

    def place(
        self, sizes: list[tuple[float, float]], xspace: float, yspace: float
    ) -> tuple[tuple[tuple[float, float], ...], tuple[tuple[tuple[float, float], ...], ...]]:
        """Each box's centre (in box order) and each edge's route (in edge
        order) for boxes of ``sizes`` (``(w, h)`` in box order)."""
        n, size = self.n, self.size
        ws = sorted([w for w, _ in sizes])
        hs = sorted([h for _, h in sizes])
        dw, dh = ws[n // 2], hs[n // 2]
        width = [w for w, _ in sizes] + [dw] * (size - n)
        height = [h for _, h in sizes] + [dh] * (size - n)
        if self._blocks is None:
            self._blocks = self._align()
        # The four alignments' x of each vertex; the final x is the mean of
        # the two medians.
        x0, x1, x2, x3 = (
            self._compact(dirh, dirv, root, align, width, xspace)
            for (dirh, dirv), (root, align) in zip(_DIRECTIONS, self._blocks)
        )
        centres: list[tuple[float, float]] = [(0.0, 0.0)] * size
        y: float = 0
        for layer in self.layers:
            half = max([height[v] / 2.0 for v in layer])
            for v in layer:
                vx = sorted([x0[v], x1[v], x2[v], x3[v]])
                centres[v] = ((vx[1] + vx[2]) / 2.0, y + half)
            y += 2 * half + yspace
        routes: list[tuple[tuple[float, float], ...]] = []
        for (a, b), chain in zip(self.edges, self.chains):
            if chain is None:
                routes.append((centres[a], centres[b]))
            else:
                routes.append(tuple([centres[v] for v in chain]))
        return tuple(centres[:n]), tuple(routes)

    def _align(self) -> list[tuple[list[int], list[int]]]:
        """The vertical blocks (each vertex's ``root`` and the next of its
        block, ``align``) of the four alignments, along median neighbours,
        avoiding marked conflicts. They read positions only, never a size:
        computed once however often the run is placed."""
        n, size, layers, pos, up = self.n, self.size, self.layers, self.pos, self.up
        # Alignment conflicts: an edge between two dummies crossed by another.
        conflicts: set[tuple[int, int]] = set()
        for r in range(1, len(layers)):
            layer = layers[r]
            last = len(layer) - 1
            k0, k1_init, start = 0, len(layers[r - 1]) - 1, 0
            for l1, v in enumerate(layer):
                if v < n:
                    continue
                inner = up[v][0] >= n
                if l1 == last or inner:
                    k1 = pos[up[v][0]] if inner else k1_init
                    for vl in layer[start : l1 + 1]:
                        for vk in up[vl]:
                            k = pos[vk]
                            if k < k0 or k > k1:
                                conflicts.add((vk, vl))
                    start = l1 + 1
                    k0 = k1
        blocks = []
        for dirh, dirv in _DIRECTIONS:
            near = up if dirv == -1 else self.down
            root = list(range(size))
            align = list(range(size))
            order = range(len(layers)) if dirv == -1 else range(len(layers) - 1, -1, -1)
            for r in order:
                p = r + dirv
                if not 0 <= p < len(layers):
                    continue
                prev = layers[p]
                last_m: int | None = None
                for vk in layers[r][::dirh]:
                    ps = sorted([pos[x] for x in near[vk]])
                    if not ps:
                        continue
                    if dirh == -1:
                        ps.reverse()
                    i, j = divmod(len(ps) - 1, 2)
                    for m in (ps[i],) if j == 0 else (ps[i], ps[i + j]):
                        um = prev[m]
                        if align[vk] == vk:
                            pair = (vk, um) if dirv == 1 else (um, vk)
                            if pair not in conflicts and (
                                last_m is None or dirh * last_m < dirh * m
                            ):
                                align[um] = vk
                                root[vk] = root[um]
                                align[vk] = root[vk]
                                last_m = m
            blocks.append((root, align))
        return blocks

    def _compact(
        self,
        dirh: int,
        dirv: int,
        root: list[int],
        align: list[int],
        width: list[float],
        xspace: float,
    ) -> list[float]:
        """One alignment's x of each vertex: its blocks placed from the
        ``dirh`` side, each as near as ``xspace`` allows (grandalf's
        recursive block placement, with its sinks and shifts)."""
        size, layers, pos, rank = self.size, self.layers, self.pos, self.rank
        sink = list(range(size))
        shift = [_INF] * size
        xpos: list[float | None] = [None] * size
        depth = [0]  # nested calls of place_block (grandalf's recursion)

        def place_block(v: int) -> None:
            if xpos[v] is not None:
                return
            depth[0] += 1
            if depth[0] > DEPTH:
                raise TooDeep
            xpos[v] = 0.0
            w = v
            while True:
                j = pos[w] - dirh
                layer = layers[rank[w]]
                if 0 <= j < len(layer):
                    before = layer[j]
                    delta = xspace + (width[before] + width[w]) / 2.0
                    u = root[before]
                    place_block(u)
                    if sink[v] == v:
                        sink[v] = sink[u]
                    if sink[v] != sink[u]:
                        s = sink[u]
                        shift[s] = min(shift[s], xpos[v] - (xpos[u] + delta))  # type: ignore[operator]
                    else:
                        xpos[v] = max(xpos[v], xpos[u] + delta)  # type: ignore[operator, type-var]
                w = align[w]
                if w == v:
                    break
            depth[0] -= 1

        order = range(len(layers)) if dirv == -1 else range(len(layers) - 1, -1, -1)
        for r in order:
            for v in layers[r][::dirh]:
                if root[v] == v:
                    place_block(v)
        # Each vertex takes its root's x (mirrored when placed from the
        # right; grandalf leaves a 0.0 as it is), shifted by its sink's class.
        out = [0.0] * size
        for v in range(size):
            rv = root[v]
            value: float = xpos[rv]  # type: ignore[assignment]
            if dirh == -1 and value:
                value = -value
            s = shift[sink[rv]]
            if s < _INF:
                value += dirh * s
            out[v] = value
        return out
