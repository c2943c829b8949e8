"""Real templates stay small when displayed (times are measured in
bench/bench_views.py; only sizes are asserted here)."""

from __future__ import annotations

import pytest
from htmlcheck import assert_safe, body

import toskit


def _many_nodes(count: int) -> str:
    head = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "data_types:\n  my.Endpoint:\n    derived_from: tosca.datatypes.Root\n    properties:\n"
        "      ip: {type: string}\n      port: {type: integer, default: 2233}\n"
        "node_types:\n  my.Service:\n    derived_from: tosca.nodes.Root\n    properties:\n"
        "      endpoint: {type: my.Endpoint}\n"
        "topology_template:\n  node_templates:\n"
    )
    return head + "".join(
        f"    n{i}:\n      type: my.Service\n      properties: {{endpoint: {{ip: 10.0.0.{i % 250}}}}}\n"
        for i in range(count)
    )


@pytest.fixture(scope="module")
def big():
    return toskit.loads(_many_nodes(10_000), name="big.yaml")


def test_ten_thousand_real_nodes_render_under_a_megabyte(big):
    html = big._repr_html_()
    assert len(html.encode()) < 1_000_000
    assert_safe(html)
    assert "… 9,950 more node templates" in body(html)


def test_five_hundred_real_properties_render_under_a_megabyte():
    props = "".join(f"      p{i}: {{type: string, default: {'v' * 300}}}\n" for i in range(500))
    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.Wide:\n"
        f"    derived_from: tosca.nodes.Root\n    properties:\n{props}"
        "topology_template:\n  node_templates:\n    wide: {type: my.Wide}\n",
        name="wide.yaml",
    )
    node = st.node_templates["wide"]
    assert len(node.property_table()) == 500
    html = node._repr_html_()
    assert len(html.encode()) < 1_000_000
    assert "… 450 more rows" in body(html)
    assert len(st._repr_html_().encode()) < 1_000_000
