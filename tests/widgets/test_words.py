"""Issue #35 item 5: the views' words — counts agree with their noun, and
the schema's merge keywords are said in words."""

from __future__ import annotations

import re

import toskit
from toskit import conditions, schema
from toskit.display import to_html
from toskit.display.words import count, relationship_words

ONE = """\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    only:
      type: tosca.nodes.Root
"""


def text(html: str) -> str:
    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_count_agrees_with_its_noun():
    assert [count(n, "node") for n in (0, 1, 2, 1000)] == [
        "0 nodes",
        "1 node",
        "2 nodes",
        "1,000 nodes",
    ]
    assert count(1, "leaf", "leaves") == "1 leaf" and count(3, "leaf", "leaves") == "3 leaves"
    assert count(2, "property") == "2 properties"


def test_one_node_is_one_node_in_every_view():
    topology = text(to_html(toskit.loads(ONE).topology()))
    assert "1 node" in topology and "1 nodes" not in topology and "0 edges" in topology
    cluster = text(to_html(conditions.Cluster("multinode", nodes=[{"id": 1}])))
    assert "1 node" in cluster and "1 nodes" not in cluster


def test_merge_relationships_in_words():
    assert relationship_words("map", "atomic") == "replaced whole"
    assert relationship_words("list", "atomic") == "replaced whole"
    assert relationship_words("list", "associative") == "a set: merged item by item"
    assert relationship_words("list", "associative", ("name", "port")) == "merged by name, port"
    page = text(
        to_html(
            schema.load(
                "types:\n- name: t\n  map:\n    fields:\n    - name: a\n      type: {scalar: string}\n"
                "    elementRelationship: atomic\n"
            )
        )
    )
    assert "struct of 1 field (replaced whole)" in page and "atomic" not in page


def test_a_property_description_sits_under_its_name_not_in_a_column():
    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "data_types:\n  my.D:\n    derived_from: tosca.datatypes.Root\n    properties:\n"
        "      port: {type: integer, description: 'the port <b>to</b> listen on'}\n"
    )
    html = to_html(st.types_of("data")["my.D"])
    assert "<th>description</th>" not in html
    cell = re.search(r'<td class="toskit-path">(.*?)</td>', html, re.S).group(1)
    assert cell.endswith(
        '<div class="toskit-prop-desc">the port &lt;b&gt;to&lt;/b&gt; listen on</div>'
    )


def test_a_diagnostics_long_path_wraps_between_its_names_in_the_compare_view():
    from types import SimpleNamespace

    from toskit.display.compare_view import _diagnostic_rows

    d = SimpleNamespace(
        severity="error", file="reviews/service-after-the-change.yaml", line=12, column=5,
        code="type-mismatch", path="topology_template.node_templates.worker.properties.listener.port",
        message="expected integer",
    )  # fmt: skip
    (row,) = _diagnostic_rows([d])
    where, path = row[1], row[3]
    assert where[0] == path[0] == "toskit-path toskit-wrap-path"
    assert (
        path[1]
        == "topology_template.<wbr>node_templates.<wbr>worker.<wbr>properties.<wbr>listener.<wbr>port"
    )
    assert where[1].replace("<wbr>", "") == "reviews/service-after-the-change.yaml:12:5"
    assert "<wbr>" in where[1] and "type-<wbr>" not in row[2][1]
