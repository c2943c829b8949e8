"""Edge labels are placed by the layout clear of lines, boxes and each other
(issue #35 item 2), and the drawing puts them where the layout says."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import toskit
from toskit.display.topology_svg import LABEL_BASELINE
from toskit.tosca.topology.layout import (
    CHAR_WIDTH,
    LABEL_WORK,
    LABEL_WORK_FLOOR,
    Layout,
    _candidates,
    _place_labels,
    edge_label,
    label_rect,
    rects_overlap,
    segment_hits_rect,
)

EXAMPLES = sorted((Path(__file__).parents[2] / "notebooks" / "examples").glob("*.yaml"))
SVG = "{http://www.w3.org/2000/svg}"


def _crossing(n: int = 6, k_max: int = 3) -> str:
    """Two rows of ``n`` nodes, each top node needing ``k_max`` bottom ones in a
    shuffled order: crossing lines, each with a label."""
    lines = [
        "tosca_definitions_version: tosca_simple_yaml_1_3",
        "node_types:",
        "  Needy:",
        "    derived_from: tosca.nodes.Root",
        "    requirements:",
    ]
    for k in range(k_max):
        lines += [
            f"      - needs_{k}:",
            "          capability: tosca.capabilities.Node",
            "          relationship: tosca.relationships.DependsOn",
        ]
    lines += ["topology_template:", "  node_templates:"]
    for i in range(n):
        lines.append(f"    top{i}:")
        lines.append("      type: Needy")
        lines.append("      requirements:")
        for k in range(k_max):
            lines.append(f"        - needs_{k}: bottom{(i * 5 + k * 2) % n}")
    for i in range(n):
        lines.append(f"    bottom{i}: {{ type: tosca.nodes.Root }}")
    return "\n".join(lines) + "\n"


def _topologies() -> list[tuple[str, object]]:
    out = [(p.name, toskit.load(str(p)).topology()) for p in EXAMPLES]
    # Dense: 18 crossing lines in the 60px between two rows leave some labels no clear spot.
    out.append(("crossing", toskit.loads(_crossing(), name="crossing.yaml").topology()))
    return out


def _texts(topo, lay: Layout) -> list[str]:
    return [
        edge_label(topo.edges[p.index].requirement, topo.edges[p.index].count) for p in lay.edges
    ] + [edge_label(topo.problems[p.index].requirement) for _, p in lay.stubs]


def _clashes(r, lay: Layout, placed: list) -> int:
    """Brute force (no index): what ``r`` touches among all lines, boxes and
    the labels placed before it."""
    n = 0
    for path in lay.edges + [p for _, p in lay.stubs]:
        for a, b in zip(path.points, path.points[1:]):
            n += segment_hits_rect((a[0], a[1], b[0], b[1]), r)
    for box in list(lay.boxes.values()) + [s for s, _ in lay.stubs]:
        n += rects_overlap(label_rect(box), r)
    n += (r[0] < 0) + (r[1] < 0)  # off the drawing
    return n + sum(rects_overlap(p, r) for p in placed)


def test_the_examples_and_a_crossing_topology_are_covered() -> None:
    assert len(EXAMPLES) >= 2
    assert sum(len(t.layout().edges) for _, t in _topologies()) >= 20
    topo = toskit.loads(_crossing(4, 2), name="crossing.yaml").topology()
    lay = topo.layout()
    assert len(lay.edges) == 8
    # The case is a hard one: the old place (midpoint + (4, -3)) clashes for some label.
    old = []
    for path, text in zip(lay.edges, _texts(topo, lay)):
        mid = path.points[len(path.points) // 2]
        x, y = mid[0] + 4, mid[1] - 3
        old.append((x, y - 11, x + len(text) * CHAR_WIDTH, y + 2))
    assert sum(_clashes(r, lay, old[:i]) > 0 for i, r in enumerate(old)) >= 3


@pytest.mark.parametrize(
    ("name", "topo"), _topologies(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_a_label_is_clear_whenever_a_clear_candidate_existed(name: str, topo) -> None:
    lay = topo.layout()
    paths = lay.edges + [p for _, p in lay.stubs]
    placed: list = []
    clear = 0
    for path, text in zip(paths, _texts(topo, lay)):
        assert path.label is not None
        r = label_rect(path.label)
        assert r[2] - r[0] == pytest.approx(len(text) * CHAR_WIDTH)
        assert r[0] >= 0 and r[1] >= 0 and r[2] <= lay.width and r[3] <= lay.height
        if _clashes(r, lay, placed):
            # Only when every candidate along its line clashes too.
            assert all(_clashes(c, lay, placed) for c in _candidates(path.points, r[2] - r[0])), (
                name,
                text,
            )
        else:
            clear += 1
        placed.append(r)
    # Even where lines leave no clear spot, a label never covers another
    # (covering a label weighs more than crossing a line).
    for i, a in enumerate(placed):
        assert not any(rects_overlap(a, b) for b in placed[:i]), (name, i)
    assert clear >= len(placed) * (0.4 if name == "crossing" else 0.8), (name, clear, len(placed))


def test_a_crossing_topology_with_room_has_every_label_clear() -> None:
    topo = toskit.loads(_crossing(4, 2), name="crossing.yaml").topology()
    lay = topo.layout()
    placed: list = []
    for path in lay.edges:
        r = label_rect(path.label)
        assert _clashes(r, lay, placed) == 0
        placed.append(r)


@pytest.mark.parametrize(
    ("name", "topo"), _topologies(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_the_svg_draws_each_label_where_the_layout_placed_it(name: str, topo) -> None:
    lay = topo.layout()
    root = ET.fromstring(topo.to_svg())
    drawn = []
    for g in root.iter(f"{SVG}g"):
        classes = g.get("class", "").split()
        if "toskit-t-edge" in classes or "toskit-t-problem" in classes:
            for t in g.findall(f"{SVG}text"):
                if t.get("class") == "toskit-t-label":
                    drawn.append((t.text, float(t.get("x")), float(t.get("y"))))
    self_loops = sum(1 for e in topo.edges if e.source == e.target)
    laid = lay.edges + [p for _, p in lay.stubs]
    texts = _texts(topo, lay)
    # Edges first, then self-loops (not laid out), then stubs.
    drawn = drawn[: len(lay.edges)] + drawn[len(lay.edges) + self_loops :]
    assert len(drawn) == len(laid), name
    for (text, x, y), path, want in zip(drawn, laid, texts):
        left, top, _, _ = label_rect(path.label)
        assert text == want
        assert x == pytest.approx(left, abs=0.06)
        assert y == pytest.approx(top + LABEL_BASELINE, abs=0.06)


def _random(n: int) -> str:
    """A hosting tree with a dependency from every third node to any other:
    long lines across a wide drawing."""
    import random

    r = random.Random(n)
    lines = ["tosca_definitions_version: tosca_simple_yaml_1_3", "topology_template:"]
    lines += ["  node_templates:", "    n0: { type: tosca.nodes.Compute }"]
    for i in range(1, n):
        lines += [f"    n{i}:", "      type: tosca.nodes.SoftwareComponent", "      requirements:"]
        lines.append(f"        - host: n{r.randrange(max(1, i // 10))}")
        if i % 3 == 0:
            lines.append(f"        - dependency: n{r.randrange(n)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("floor", [LABEL_WORK_FLOOR, 0])
def test_placement_work_stays_within_its_budget_on_a_big_dense_drawing(
    floor: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With the floor as shipped (a drawing this size gets it whole) and with
    # none (the per-edge-and-box budget of a huge drawing binds).
    from toskit.tosca.topology import layout

    monkeypatch.setattr(layout, "LABEL_WORK_FLOOR", floor)
    topo = toskit.loads(_random(600), name="random.yaml").topology()
    lay = topo.layout()
    boxes = len(lay.boxes) + len(lay.stubs)
    paths = lay.edges + [p for _, p in lay.stubs]
    assert len(paths) > 700
    work = _place_labels(lay, _texts(topo, lay))
    budget = max(floor, LABEL_WORK * (len(paths) + boxes))
    # One candidate's check may run past the budget before it is noticed.
    assert work <= budget + boxes + len(paths)
    if not floor:
        assert work > budget * 0.9  # the budget is what stopped it
    assert all(p.label is not None for p in paths)
    assert all(label_rect(p.label)[0] >= 0 and label_rect(p.label)[1] >= 0 for p in paths)
