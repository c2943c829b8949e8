"""The layout's shortcuts around grandalf (issue #31 item 3: topology + SVG of
a dense 20,000-node template in under 2 s): a directed chain placed directly,
a component of a shape laid out before reusing that layout, and the
crossing-reduction rounds stopping once idle. Each must give grandalf's own
floats (so every drawing is the same as before), and the dense benchmark's
shape must reach grandalf only a few times (counted, not timed)."""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path
from typing import Any

import pytest
from grandalf_reference import grandalf_run  # tests/tosca/grandalf_reference.py

import toskit
from toskit.tosca.topology import layout as L
from toskit.tosca.topology.layout import (
    LAYOUT_BUDGET,
    MARGIN,
    ROW_WIDTH,
    _acyclic,
    _chain,
    _draw,
    _EdgeView,
    _grandalf,
    _Link,
    _Memo,
    _sugiyama,
    _View,
    label_rect,
    rects_overlap,
)
from toskit.tosca.topology.sugiyama import Layered

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location(
        "bench_topology", ROOT / "bench" / "bench_topology.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def _component(
    rng: random.Random, n: int, edges: list[tuple[int, int]]
) -> tuple[list[Any], list[_Link], dict[Any, _View]]:
    """Keys (in a shuffled order), links (shuffled) and box-like sizes."""
    keys: list[Any] = [f"n{i}" for i in range(n)]
    views = {
        k: _View(rng.choice([90.0, 240.0, rng.uniform(90, 240)]), rng.choice([46.0, 61.0, 76.0]))
        for k in keys
    }
    links = [_Link(keys[a], keys[b], _EdgeView(), False) for a, b in edges]
    rng.shuffle(keys)
    rng.shuffle(links)
    return keys, links, views


def _random_graph(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """A connected graph on ``n`` vertices: a random tree plus a few extra edges
    (some of them against the order, so cycles occur)."""
    edges = [
        (rng.randrange(i), i) if rng.random() < 0.5 else (i, rng.randrange(i)) for i in range(1, n)
    ]
    for _ in range(rng.randrange(n // 2 + 1)):
        a, b = rng.sample(range(n), 2)
        if (a, b) not in edges and (b, a) not in edges:
            edges.append((a, b))
    return edges


@pytest.mark.parametrize("seed", range(40))
def test_a_chain_is_placed_as_grandalf_places_it(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(2, 14)
    order = list(range(n))
    rng.shuffle(order)  # the path visits the vertices in any order
    keys, links, views = _component(rng, n, list(zip(order, order[1:])))
    direct = _chain(keys, links, views)
    assert direct is not None
    assert direct == _grandalf(keys, links, views) == _reference(keys, links, views)


@pytest.mark.parametrize(
    "edges",
    [
        [(0, 1), (0, 2)],  # a fork
        [(1, 0), (2, 0)],  # a join
        [(0, 1), (1, 2), (2, 0)],  # a cycle
        [(0, 1), (2, 1), (2, 3)],  # a zigzag: not one direction
        [(0, 1), (1, 2), (0, 2)],  # a shortcut
    ],
)
def test_any_other_shape_is_left_to_grandalf(edges: list[tuple[int, int]]) -> None:
    n = 1 + max(max(e) for e in edges)
    keys, links, views = _component(random.Random(0), n, edges)
    assert _chain(keys, links, views) is None
    # and grandalf's layout is what the component gets
    placed = _grandalf(keys, links, views)
    assert placed is not None
    assert _sugiyama(keys, links, views, _Memo())
    assert tuple(views[k].xy for k in keys) == placed[0]


def _reference(keys: list[Any], links: list[_Link], views: dict[Any, _View]) -> Any:
    """grandalf's own result (its cycle search, draw(3)) in _grandalf's form."""
    sug = grandalf_run(keys, links, views)
    sug.draw(3)
    return (
        tuple(sug.vertices[k].view.xy for k in keys),
        tuple(tuple(e.view.points) for e in sug.edge_list),
    )


@pytest.mark.parametrize("seed", range(30))
def test_idle_crossing_reduction_rounds_are_skipped_with_the_same_result(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(3, 30)
    keys, links, views = _component(rng, n, _random_graph(rng, n))
    mine, theirs = grandalf_run(keys, links, views), grandalf_run(keys, links, views)
    _draw(mine, 3)
    theirs.draw(3)
    assert [mine.vertices[k].view.xy for k in keys] == [theirs.vertices[k].view.xy for k in keys]
    assert [e.view.points for e in mine.edge_list] == [e.view.points for e in theirs.edge_list]


@pytest.mark.parametrize("seed", range(40))
def test_a_component_gets_what_grandalf_alone_computes(seed: int) -> None:
    """_grandalf (no cycle search on an acyclic component, idle rounds
    skipped) against grandalf's init_all() and draw(3) as they come, on
    components with and without cycles."""
    rng = random.Random(100 + seed)
    n = rng.randrange(2, 25)
    keys, links, views = _component(rng, n, _random_graph(rng, n))
    reference = grandalf_run(keys, links, views)
    reference.draw(3)
    placed = _grandalf(keys, links, views)
    assert placed is not None
    assert placed[0] == tuple(reference.vertices[k].view.xy for k in keys)
    assert placed[1] == tuple(tuple(e.view.points) for e in reference.edge_list)


def test_those_components_include_cycles_and_acyclic_ones() -> None:
    kinds = set()
    for seed in range(40):
        rng = random.Random(100 + seed)
        n = rng.randrange(2, 25)
        keys, links, _ = _component(rng, n, _random_graph(rng, n))
        kinds.add(_acyclic(keys, links))
    assert kinds == {True, False}


@pytest.mark.parametrize(
    ("edges", "acyclic"),
    [
        ([(0, 1), (1, 2), (0, 2)], True),
        ([(0, 1), (1, 2), (2, 0)], False),
        ([(0, 1), (1, 0), (2, 1)], False),
        ([(1, 0), (2, 0), (3, 2), (3, 1)], True),
    ],
)
def test_cycles_are_told_from_acyclic_components(
    edges: list[tuple[int, int]], acyclic: bool
) -> None:
    keys, links, _ = _component(random.Random(0), 1 + max(max(e) for e in edges), edges)
    assert _acyclic(keys, links) is acyclic


@pytest.mark.parametrize("seed", range(30))
def test_a_shape_laid_out_before_gets_grandalfs_layout(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(3, 20)
    edges = _random_graph(rng, n)
    keys, links, views = _component(rng, n, edges)
    memo = _Memo()
    assert _sugiyama(keys, links, views, memo)
    # The same shape under other names (the same sizes in the same order).
    renamed = {k: ("other", k) for k in keys}
    keys2 = [renamed[k] for k in keys]
    views2 = {renamed[k]: _View(v.w, v.h) for k, v in views.items()}
    links2 = [_Link(renamed[x.source], renamed[x.target], _EdgeView(), False) for x in links]
    before = dict(memo.shapes)
    assert _sugiyama(keys2, links2, views2, memo)
    assert memo.shapes == before  # answered from the memo
    fresh = _grandalf(keys2, links2, views2)
    assert fresh is not None
    assert tuple(views2[k].xy for k in keys2) == fresh[0]
    assert tuple(tuple(x.view.points) for x in links2) == fresh[1]
    # another size is another shape
    views2[keys2[0]].w += 1
    assert _sugiyama(keys2, links2, views2, memo)
    assert len(memo.shapes) == len(before) + 1


def _resized(rng: random.Random, keys: list[Any], views: dict[Any, _View], tag: str) -> Any:
    """The same component under other names, with other box sizes."""
    renamed = {k: (tag, k) for k in keys}
    sizes = {
        renamed[k]: _View(rng.choice([90.0, 240.0, rng.uniform(90, 240)]), rng.uniform(30, 90))
        for k in keys
    }
    return renamed, [renamed[k] for k in keys], sizes


@pytest.mark.parametrize("own", [True, False], ids=["toskit-run", "grandalf-run"])
@pytest.mark.parametrize("seed", range(60))
def test_a_structure_run_before_is_placed_again_as_a_new_run_places_it(
    seed: int, own: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Other box sizes on the same structure: the first two components run
    grandalf's layout (the second's run is kept: toskit's, or grandalf's
    own with OWN_LAYERED off), the next ones reuse its ranking, dummies and
    crossing reduction and only redo the placement; every result equals a
    new run of grandalf."""
    monkeypatch.setattr(L, "OWN_LAYERED", own)
    rng = random.Random(500 + seed)
    n = rng.randrange(3, 22)
    keys, links, views = _component(rng, n, _random_graph(rng, n))
    memo = _Memo()
    assert _grandalf(keys, links, views, memo, "s") == _reference(keys, links, views)
    assert memo.runs == {"s": "once"} and memo.kept == 0
    kept = None
    for tag in ("b", "c", "d"):
        renamed, keys2, views2 = _resized(rng, keys, views, tag)
        links2 = [_Link(renamed[x.source], renamed[x.target], _EdgeView(), False) for x in links]
        again = _grandalf(keys2, links2, views2, memo, "s")
        assert again is not None
        assert repr(again) == repr(_reference(keys2, links2, views2))
        # kept as toskit's own run of grandalf's layout (with or without
        # cycles), or grandalf's (sug, vertices, edges)
        assert isinstance(memo.runs["s"], Layered if own else tuple) and memo.kept == n
        assert kept is None or memo.runs["s"] is kept  # placed again on the kept run
        kept = memo.runs["s"]


def test_runs_are_kept_up_to_a_number_of_vertices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(L, "RUNS_KEPT", 10)
    rng = random.Random(7)
    memo = _Memo()
    for name, n in (("a", 6), ("b", 6)):
        keys, links, views = _component(rng, n, [(i, i + 1) for i in range(n - 2)] + [(0, n - 1)])
        for _ in range(2):
            assert _grandalf(keys, links, views, memo, name) == _reference(keys, links, views)
    assert isinstance(memo.runs["a"], Layered) and memo.runs["b"] == "once" and memo.kept == 6


def test_those_structures_include_long_edges_and_cycles() -> None:
    """The components above have dummy vertices (edges spanning layers,
    whose dummies take the median box's size) and cycles."""
    dummies = cycles = 0
    for seed in range(60):
        rng = random.Random(500 + seed)
        n = rng.randrange(3, 22)
        keys, links, views = _component(rng, n, _random_graph(rng, n))
        memo = _Memo()
        for _ in range(2):
            _grandalf(keys, links, views, memo, "s")
        run = memo.runs["s"]
        layers = run.layers if isinstance(run, Layered) else run[0].layers  # type: ignore[union-attr, index]
        dummies += sum(len(layer) for layer in layers) > n
        cycles += not _acyclic(keys, links)
    assert dummies >= 10 and cycles >= 10


def test_an_over_budget_shape_is_remembered_as_over_budget() -> None:
    # A complete bipartite-ish DAG whose long edges need more than
    # LAYOUT_BUDGET vertices with dummies: grandalf declines it once.
    n = 80
    edges = [(i, j) for i in range(n) for j in range(i + 1, n) if (j - i) % 7 == 1]
    keys, links, views = _component(random.Random(3), n, edges)
    memo = _Memo()
    assert not _sugiyama(keys, links, views, memo)
    assert list(memo.shapes.values()) == [None]
    assert list(memo.runs.values()) == [None]
    assert sum(abs(j - i) for i, j in edges) > LAYOUT_BUDGET


def _stacks(n: int, dependencies: bool = True, varied: bool = False) -> str:
    text = _bench().generate(n, varied=varied)
    return text if dependencies else re.sub(r", \{ dependency: db[^ ]+ \}", "", text)


@pytest.fixture
def grandalf_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of vertices of each new grandalf run, as they happen (a
    component placed again on an earlier run of its structure is not one)."""
    calls: list[int] = []
    real = L._grandalf

    def counted(
        keys: list[Any],
        links: list[_Link],
        views: dict[Any, _View],
        memo: _Memo | None = None,
        structure: Any = None,
    ) -> Any:
        if memo is None or memo.runs.get(structure, "") in ("", "once"):
            calls.append(len(keys))  # a new run (not one kept, nor one over budget)
        return real(keys, links, views, memo, structure)

    monkeypatch.setattr(L, "_grandalf", counted)
    return calls


def test_repeated_stacks_reach_grandalf_once_per_shape_and_draw_the_same(
    grandalf_calls: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 30 separate stacks of 7 whose names differ: their boxes have the same
    # sizes (long type names fix the widths), so they share one layout.
    topo = toskit.loads(_stacks(30, dependencies=False), name="stacks.yaml").topology()
    svg = topo.to_svg()
    runs = list(grandalf_calls)
    assert len(topo.nodes) == 210
    assert 1 <= len(runs) <= 3 and sum(runs) <= 21
    # Without the memo: one run per stack, and the same drawing byte for byte.
    monkeypatch.setattr(L, "REUSE_SHAPES", False)
    grandalf_calls.clear()
    assert topo.to_svg() == svg
    assert len(grandalf_calls) == 30


def test_stacks_of_other_widths_reuse_one_run_and_draw_as_new_runs_would(
    grandalf_calls: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 30 separate stacks of 7 of one structure whose boxes differ in width
    # (longer names and values): two grandalf runs (the second is kept), the
    # other stacks placed again.
    topo = toskit.loads(_stacks(30, False, varied=True), name="varied.yaml").topology()
    boxes = topo.layout().boxes
    widths = {tuple(boxes[n].w for n in (f"app{i}a", f"app{i}b", f"db{i}")) for i in range(30)}
    assert len(widths) > 10  # the stacks really differ
    grandalf_calls.clear()
    svg = topo.to_svg()
    assert len(grandalf_calls) == 2  # the second run of the structure is kept
    monkeypatch.setattr(L, "REUSE_SHAPES", False)
    grandalf_calls.clear()
    assert topo.to_svg() == svg
    assert len(grandalf_calls) == 30


def test_the_dense_benchmark_shape_stays_on_the_fast_path(grandalf_calls: list[int]) -> None:
    """bench_topology's template at 300 stacks (2,100 nodes, one tangle over
    MAX_ORDER: its hosting backbones are laid out, the dependencies drawn
    straight), the shape of the 20,000-node case: grandalf runs once per
    distinct shape, not once per stack, and few vertices reach it."""
    st = toskit.loads(_stacks(300), name="dense.yaml")
    topo = st.topology()
    lay = topo.layout()
    assert len(topo.nodes) == 2100 and len(topo.edges) == 2400
    assert len(grandalf_calls) <= 5, grandalf_calls
    assert sum(grandalf_calls) <= 700  # of 2,100
    # The layout's properties on this path: no two boxes overlap ...
    rects = sorted(label_rect(b) for b in lay.boxes.values())
    for i, r in enumerate(rects):
        for other in rects[i + 1 : i + 40]:
            if other[0] >= r[2]:
                break
            assert not rects_overlap(r, other)
    # ... every hosting arrow goes down from what is hosted to its host ...
    hosting = [e for e in topo.edges if e.hosting]
    assert len(hosting) == 1500
    assert all(lay.boxes[e.source].y < lay.boxes[e.target].y for e in hosting)
    # ... every box lies inside the drawing, and the components are packed
    # in rows (stacks side by side, not one column of 300).
    assert all(
        b.x - b.w / 2 >= MARGIN and b.x + b.w / 2 <= lay.width - MARGIN + 1e-9
        for b in lay.boxes.values()
    )
    machines = [lay.boxes[f"vm{i}"] for i in range(300)]
    assert len({round(b.y) for b in machines}) < 300 / 2
    rows: dict[int, list[float]] = {}
    for b in machines:
        rows.setdefault(round(b.y), []).append(b.x)
    assert max(len(xs) for xs in rows.values()) >= ROW_WIDTH // 600


def _plain_grandalf(monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout as it was before the shortcuts: every component of two or
    more boxes to grandalf, its own cycle search, draw() with all rounds."""
    monkeypatch.setattr(L, "REUSE_SHAPES", False)
    monkeypatch.setattr(L, "OWN_LAYERED", False)
    monkeypatch.setattr(L, "_chain", lambda keys, links, views: None)
    monkeypatch.setattr(L, "_acyclic", lambda keys, links: False)
    monkeypatch.setattr(L, "_draw", lambda sug, rounds: sug.draw(rounds))


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "notebooks" / "examples").rglob("*.yaml")),
    ids=lambda p: p.name,
)
def test_the_tutorials_drawings_are_those_of_plain_grandalf(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    st = toskit.load(str(path))
    views = [st.topology()]
    views += [views[0].grouped(), views[0].collapse_hosting()]
    drawn = [t.to_svg() for t in views]
    _plain_grandalf(monkeypatch)
    assert [t.to_svg() for t in views] == drawn


def test_b6_and_repeated_stacks_draw_as_with_plain_grandalf(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B6 (504 nodes in one tangle) and 40 separate stacks, equal and of
    other widths (where every shortcut is taken)."""
    texts = [_stacks(72), _stacks(40, False), _stacks(40, False, varied=True)]
    topologies = [toskit.loads(t, name=f"t{i}.yaml").topology() for i, t in enumerate(texts)]
    runs: list[int] = []
    real = L._grandalf_run

    def counted(keys: list[Any], *args: Any) -> Any:
        runs.append(len(keys))
        return real(keys, *args)

    monkeypatch.setattr(L, "_grandalf_run", counted)
    drawn = [t.to_svg() for t in topologies]
    assert runs == []  # every component acyclic: toskit's run of grandalf's layout
    _plain_grandalf(monkeypatch)
    assert [t.to_svg() for t in topologies] == drawn
    assert len(runs) >= 80  # and now grandalf's, one per component


def _rings(count: int) -> str:
    """``count`` separate groups, each a ring of requirements (a needs b
    needs c ... needs a) of 2 to 7 services on one machine, with a shortcut
    across longer rings: every component has a cycle."""
    lines = [
        "tosca_definitions_version: tosca_simple_yaml_1_3",
        "topology_template:",
        "  node_templates:",
    ]
    for g in range(count):
        size = 2 + g % 6
        lines += [f"    vm{g}:", "      type: tosca.nodes.Compute"]
        for i in range(size):
            needs = [f"{{ host: vm{g} }}", f"{{ dependency: s{g}_{(i + 1) % size} }}"]
            if size > 3 and i == 0:
                needs.append(f"{{ dependency: s{g}_{size - 2} }}")
            lines += [
                f"    s{g}_{i}:",
                "      type: tosca.nodes.SoftwareComponent",
                f"      requirements: [ {', '.join(needs)} ]",
            ]
    return "\n".join(lines) + "\n"


def test_templates_with_cycles_draw_as_with_plain_grandalf(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rings of requirements (2 to 7 services each, some with a shortcut):
    toskit's run of grandalf's layout turns the same edges round and draws
    byte for byte what grandalf itself draws, without reaching it."""
    topo = toskit.loads(_rings(12), name="rings.yaml").topology()
    runs: list[int] = []
    real = L._grandalf_run

    def counted(keys: list[Any], *args: Any) -> Any:
        runs.append(len(keys))
        return real(keys, *args)

    monkeypatch.setattr(L, "_grandalf_run", counted)
    drawn = topo.to_svg()
    assert runs == []
    _plain_grandalf(monkeypatch)
    assert topo.to_svg() == drawn
    assert len(runs) == 12  # one component per ring, each with a cycle
