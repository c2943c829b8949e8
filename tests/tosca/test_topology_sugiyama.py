"""toskit's own run of grandalf's layered layout (``toskit/tosca/topology/
sugiyama.py``, issue #31 item 3: the dense topology under 2 s even when no
component repeats) gives grandalf's floats exactly: checked against
``SugiyamaLayout`` itself on random components (trees, joins, long edges,
several roots, wide layers, equal sizes; cycles, pairs of boxes requiring
each other), as ``repr`` so that even a ``-0.0`` for a ``0.0`` would fail;
and what nests deeper than grandalf can recurse still goes to grandalf."""

from __future__ import annotations

import random
from typing import Any

import pytest
from grandalf_reference import grandalf_run  # tests/tosca/grandalf_reference.py

from toskit.tosca.topology import layout as L
from toskit.tosca.topology import sugiyama
from toskit.tosca.topology.layout import (
    XSPACE,
    YSPACE,
    _acyclic,
    _EdgeView,
    _grandalf,
    _Link,
    _View,
)
from toskit.tosca.topology.sugiyama import Layered


def _dag(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """A connected acyclic graph on ``n`` vertices: a random tree oriented
    along a random order, plus extra edges along it (joins, long edges)."""
    rank = list(range(n))
    rng.shuffle(rank)
    pairs = [(rng.randrange(i), i) for i in range(1, n)]
    if rng.random() < 0.3:  # a wide fan: many boxes on one layer
        pairs = [(0 if rng.random() < 0.7 else rng.randrange(i), i) for i in range(1, n)]
    for _ in range(rng.randrange(n)):
        a, b = rng.sample(range(n), 2)
        pairs.append((a, b))
    edges: list[tuple[int, int]] = []
    for a, b in pairs:
        edge = (a, b) if rank[a] < rank[b] else (b, a)
        if edge not in edges:
            edges.append(edge)
    return edges


def _sizes(rng: random.Random, n: int) -> list[tuple[float, float]]:
    equal = rng.random() < 0.3  # equal boxes: ties in every comparison
    return [
        (90.0, 46.0)
        if equal
        else (rng.choice([90.0, 240.0, rng.uniform(90, 240)]), rng.choice([46.0, 61.0, 76.0]))
        for _ in range(n)
    ]


def _component(
    n: int, edges: list[tuple[int, int]], sizes: list[tuple[float, float]], tag: str = ""
) -> tuple[list[Any], list[_Link], dict[Any, _View]]:
    keys: list[Any] = [f"{tag}n{i}" for i in range(n)]
    views = {k: _View(*size) for k, size in zip(keys, sizes)}
    links = [_Link(keys[a], keys[b], _EdgeView(), False) for a, b in edges]
    return keys, links, views


def _grandalf_itself(keys: list[Any], links: list[_Link], views: dict[Any, _View]) -> Any:
    """SugiyamaLayout as it comes (its own cycle search, ``draw(3)``), and the run."""
    sug = grandalf_run(keys, links, views)
    sug.draw(3)
    placed = (
        tuple(sug.vertices[k].view.xy for k in keys),
        tuple(tuple(e.view.points) for e in sug.edge_list),
    )
    return placed, sug


def _cyclic(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """A connected graph on ``n`` vertices, usually with directed cycles: a
    random tree with edges either way, extra edges, and sometimes pairs of
    vertices joined both ways."""
    edges = [
        (rng.randrange(i), i) if rng.random() < 0.5 else (i, rng.randrange(i)) for i in range(1, n)
    ]
    for _ in range(rng.randrange(n + 1)):
        a, b = rng.sample(range(n), 2)
        if (a, b) not in edges:
            edges.append((a, b))
    if rng.random() < 0.4:
        for a, b in edges[: rng.randrange(1, 4)]:
            if (b, a) not in edges:
                edges.append((b, a))
    rng.shuffle(edges)
    return edges


def _case(seed: int, most: int = 40) -> tuple[int, list[tuple[int, int]]]:
    rng = random.Random(seed)
    n = rng.randrange(2, most)
    return n, _dag(rng, n)


@pytest.mark.parametrize("seed", range(150))
def test_an_acyclic_component_gets_grandalfs_floats(seed: int) -> None:
    n, edges = _case(seed)
    keys, links, views = _component(n, edges, _sizes(random.Random(seed), n))
    assert _acyclic(keys, links)
    expected, _ = _grandalf_itself(keys, links, views)
    assert repr(_grandalf(keys, links, views)) == repr(expected)


@pytest.mark.parametrize("seed", range(6))
def test_large_acyclic_components_get_grandalfs_floats(seed: int) -> None:
    """Up to 300 boxes (more than 1,000 vertices with dummies: one round of
    crossing reduction, as layout gives grandalf; over 3,000: declined)."""
    rng = random.Random(1000 + seed)
    n = rng.randrange(100, 300)
    edges = _dag(rng, n)
    keys, links, views = _component(n, edges, _sizes(rng, n))
    run = L._grandalf_run(keys, links, views, False)  # grandalf, its own cycle search
    expected = None if run is None else L._placed(run)
    assert repr(_grandalf(keys, links, views)) == repr(expected)


@pytest.mark.parametrize("seed", range(150))
def test_a_component_with_cycles_gets_grandalfs_floats(seed: int) -> None:
    """grandalf's cycle search turns round the edges into the current
    depth-first path; ranking, dummies and ordering run on the turned
    edges, routes go from each requirer to its target (up a turned one)."""
    rng = random.Random(3000 + seed)
    n = rng.randrange(2, 30)
    keys, links, views = _component(n, _cyclic(rng, n), _sizes(rng, n))
    expected, _ = _grandalf_itself(keys, links, views)
    assert repr(_grandalf(keys, links, views)) == repr(expected)


def test_those_cyclic_components_have_cycles_and_pairs_both_ways() -> None:
    cycles = pairs = long_pairs = 0
    for seed in range(150):
        rng = random.Random(3000 + seed)
        n = rng.randrange(2, 30)
        edges = _cyclic(rng, n)
        keys, links, _ = _component(n, edges, [(90.0, 46.0)] * n)
        cycles += not _acyclic(keys, links)
        both = [(a, b) for a, b in edges if (b, a) in edges]
        pairs += bool(both)
        # two links between boxes more than a layer apart share one dummy
        # as a neighbour (grandalf's e_with), the case most easily got wrong
        lean = Layered(n, edges, cyclic=True)
        long_pairs += any(abs(lean.rank[a] - lean.rank[b]) > 1 for a, b in both)
    assert cycles >= 100 and pairs >= 40 and long_pairs >= 3, (cycles, pairs, long_pairs)


def test_those_components_cover_what_grandalf_distinguishes() -> None:
    """Long edges (dummies), dummies in a run (inner edges), alignment
    conflicts, several roots, layers of ten boxes or more, joins, and
    crossing reductions that take a second round."""
    seen = {"dummies": 0, "inner": 0, "conflicts": 0, "roots": 0, "wide": 0, "joins": 0}
    for seed in range(150):
        n, edges = _case(seed)
        keys, links, views = _component(n, edges, _sizes(random.Random(seed), n))
        _, sug = _grandalf_itself(keys, links, views)
        lean = Layered(n, edges)
        seen["dummies"] += lean.size > n
        seen["inner"] += any(
            v >= n and lean.up[v][0] >= n for v in range(lean.size) if lean.rank[v] > 0
        )
        seen["conflicts"] += bool(sug.conflicts)
        seen["roots"] += len({b for _, b in edges}) < n - 1
        seen["wide"] += max(len(layer) for layer in lean.layers) >= 10
        seen["joins"] += len({b for _, b in edges}) < len(edges)
    assert all(count >= 10 for count in seen.values()), seen


@pytest.mark.parametrize("seed", range(40))
def test_a_run_placed_again_for_other_sizes_is_a_new_run(seed: int) -> None:
    """A kept run (ranks, dummies, orders) placed for other box sizes: the
    floats of grandalf run afresh on those sizes (dummies: the new median)."""
    n, edges = _case(2000 + seed)
    rng = random.Random(seed)
    lean = Layered(n, edges)
    lean.order(3)
    for tag in "abc":
        sizes = _sizes(rng, n)
        keys, links, views = _component(n, edges, sizes, tag)
        expected, _ = _grandalf_itself(keys, links, views)
        assert repr(lean.place(sizes, XSPACE, YSPACE)) == repr(expected)


@pytest.fixture
def grandalf_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many vertices each run of grandalf itself gets."""
    runs: list[int] = []
    real = L._grandalf_run

    def counted(keys: list[Any], *args: Any) -> Any:
        runs.append(len(keys))
        return real(keys, *args)

    monkeypatch.setattr(L, "_grandalf_run", counted)
    return runs


def test_acyclic_components_do_not_reach_grandalf(grandalf_runs: list[int]) -> None:
    for seed in range(20):
        n, edges = _case(seed)
        keys, links, views = _component(n, edges, _sizes(random.Random(seed), n))
        assert _grandalf(keys, links, views) is not None
    assert grandalf_runs == []


def test_components_reach_grandalf_only_when_it_is_asked_for(
    grandalf_runs: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    edges = [(0, 1), (1, 2), (2, 0), (2, 3)]  # a cycle
    keys, links, views = _component(4, edges, [(90.0, 46.0)] * 4)
    expected, _ = _grandalf_itself(keys, links, views)
    assert _grandalf(keys, links, views) == expected
    assert grandalf_runs == []
    monkeypatch.setattr(L, "OWN_LAYERED", False)
    assert _grandalf(keys, links, views) == expected
    assert grandalf_runs == [4]


def test_a_cycle_search_deeper_than_depth_goes_to_grandalf(
    grandalf_runs: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ring of 12 boxes: grandalf's search walks 12 deep (it recurses once
    per step). With DEPTH under that, grandalf itself draws it; the same
    drawing either way."""
    n = 12
    edges = [(i, (i + 1) % n) for i in range(n)]
    keys, links, views = _component(n, edges, [(90.0 + 10 * i, 46.0) for i in range(n)])
    expected, _ = _grandalf_itself(keys, links, views)
    monkeypatch.setattr(sugiyama, "DEPTH", 11)
    with pytest.raises(sugiyama.TooDeep):
        Layered(n, edges, cyclic=True)
    assert repr(_grandalf(keys, links, views)) == repr(expected)
    assert grandalf_runs == [n]
    monkeypatch.setattr(sugiyama, "DEPTH", 12)
    assert repr(_grandalf(keys, links, views)) == repr(expected)
    assert grandalf_runs == [n]


def test_a_placement_nesting_too_deep_goes_to_grandalf(
    grandalf_runs: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Case 129 (39 boxes) nests 28 block placements (each placing the block
    to its left first): with DEPTH under that, grandalf itself draws it (or
    fails as it always did); at 28, toskit does; the same drawing."""
    n, edges = _case(129)
    keys, links, views = _component(n, edges, _sizes(random.Random(129), n))
    expected, _ = _grandalf_itself(keys, links, views)
    sizes = [(views[k].w, views[k].h) for k in keys]
    lean = Layered(n, edges)
    lean.order(3)
    monkeypatch.setattr(sugiyama, "DEPTH", 27)
    with pytest.raises(sugiyama.TooDeep):
        lean.place(sizes, XSPACE, YSPACE)
    assert repr(_grandalf(keys, links, views)) == repr(expected)
    assert grandalf_runs == [n]
    monkeypatch.setattr(sugiyama, "DEPTH", 28)
    assert repr(lean.place(sizes, XSPACE, YSPACE)) == repr(expected)
    assert repr(_grandalf(keys, links, views)) == repr(expected)
    assert grandalf_runs == [n]


def test_a_component_over_the_budget_is_declined_without_grandalf(
    grandalf_runs: list[int],
) -> None:
    """Long edges needing more than LAYOUT_BUDGET vertices with dummies:
    declined (``None``, laid out by its backbone), as grandalf's run would."""
    n = 80
    edges = [(i, j) for i in range(n) for j in range(i + 1, n) if (j - i) % 7 == 1]
    keys, links, views = _component(n, edges, [(90.0, 46.0)] * n)
    assert Layered(n, edges).size > L.LAYOUT_BUDGET
    assert _grandalf(keys, links, views) is None
    assert grandalf_runs == []
    assert L._grandalf_run(keys, links, views, True) is None  # grandalf agrees


@pytest.mark.parametrize("seed", [9, 14])
def test_components_over_a_thousand_vertices_match_grandalfs_single_round(seed: int) -> None:
    """Over LAYOUT_BUDGET // 3 vertices with dummies, the layout gives one
    round of crossing reduction (grandalf's run too): seed 9 is acyclic,
    seed 14 has cycles; 1,972 and 1,635 vertices."""
    rng = random.Random(7000 + seed)
    n = rng.randrange(250, 500)
    edges = (_dag if seed % 2 else _cyclic)(rng, n)
    keys, links, views = _component(n, edges, _sizes(rng, n))
    acyclic = _acyclic(keys, links)
    assert acyclic is (seed == 9)
    assert L.LAYOUT_BUDGET // 3 < Layered(n, edges, cyclic=not acyclic).size <= L.LAYOUT_BUDGET
    run = L._grandalf_run(keys, links, views, False)  # grandalf, its own cycle search
    assert run is not None
    assert repr(_grandalf(keys, links, views)) == repr(L._placed(run))


def test_the_module_derived_from_grandalf_carries_its_licence() -> None:
    # sugiyama.py follows grandalf's code step for step, so it is under
    # grandalf's EPL-1.0 option; its header says so and the text ships beside it.
    from pathlib import Path

    from toskit.tosca.topology import sugiyama

    module = Path(sugiyama.__file__)
    assert module.read_text(encoding="utf-8").startswith("# SPDX-License-Identifier: EPL-1.0\n")
    licence = (module.parent / "LICENSE-EPL-1.0").read_text(encoding="utf-8")
    assert "sugiyama.py" in licence.split("----", 1)[0]
    assert "Eclipse Public License -v 1.0" in licence
    assert "Each party waives its rights to a jury trial" in licence  # the whole text
