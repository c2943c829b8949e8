"""bench/floor.py, the floor of benchmark B1 (issue #31 item 2), computes what
toskit computes: the same values and origins for every node template."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import toskit

pytest.importorskip("ryml")
BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
from floor import Floor  # noqa: E402
from gen_template import generate  # noqa: E402


@pytest.mark.parametrize("nodes", [1, 7, 60])
def test_the_floor_has_toskits_values_and_origins(nodes: int) -> None:
    text = generate(nodes)
    floor = Floor(text)
    st = toskit.loads(text, name="b1.yaml")
    assert list(floor.values) == list(st.node_templates)
    for name, node in st.node_templates.items():
        assert floor.values[name] == node.properties, name
        sources = {row.path: row.source for row in node.property_table().rows}
        assert floor.origins[name] == sources, name
    assert floor.problems == []
    assert st.ok


def test_the_floor_checks_what_toskit_checks() -> None:
    # A port out of range, a protocol not among the valid values, a label of the wrong type.
    text = (
        generate(2)
        .replace("port: 1024", "port: 70000", 1)
        .replace("host: db1.example.com", "host: db1.example.com\n            protocol: ftp", 1)
        .replace("label: database 0", "label: [not, a, string]", 1)
    )
    floor = Floor(text)
    st = toskit.loads(text, name="b1.yaml")
    assert len(floor.problems) == 3
    flagged = {d.path.rsplit(".properties.", 1)[-1] for d in st.errors}
    assert {"connection.endpoint.port", "connection.endpoint.protocol", "label"} <= flagged
