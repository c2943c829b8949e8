"""The static type tree (template views, report) and the small wording fixes
of issue #18: user types first, normative types under a closed toggle, no
control nested in another, counts that agree in number, no sentinel text."""

from __future__ import annotations

import re

from htmlcheck import assert_safe, body, parse

import toskit
from toskit.display.tosca_views import type_tree_html
from toskit.display.typetree import template_types

TEMPLATE = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  acme.datatypes.Endpoint:
    derived_from: tosca.datatypes.Root
    properties: {port: {type: integer}}
node_types:
  acme.nodes.Web:
    derived_from: tosca.nodes.Root
    properties: {endpoint: {type: acme.datatypes.Endpoint}}
topology_template:
  inputs:
    secret: {type: string}
  node_templates:
    web: {type: acme.nodes.Web, properties: {endpoint: {port: 80}}}
"""


def _text(html: str) -> str:
    return " ".join(" ".join(parse(html).text).split())


def test_user_types_first_and_normative_types_under_a_closed_toggle():
    st = toskit.loads(TEMPLATE)
    html = type_tree_html(template_types(st))
    node_group = html[: html.index("data types")]
    # The open part: only the branch that leads to the user type.
    shown = node_group[: node_group.index("normative included")]
    assert re.findall(r'toskit-node-name">([^<]+)<', shown) == [
        "tosca.nodes.Root",
        "acme.nodes.Web",
    ]
    # Then every node type, in a toggle that starts closed.
    assert re.search(
        r'<details class="toskit-section"><summary>all \d+ node types, normative included</summary>',
        node_group,
    )
    # Kinds with no user type are one closed group each.
    assert '<details class="toskit-section"><summary>capability types <span' in html
    # Names are text: no control inside a <summary> (axe: nested-interactive).
    assert "<button" not in html and "<a " not in html


def test_filter_matches_property_names_too():
    st = toskit.loads(TEMPLATE)
    html = type_tree_html(template_types(st), filter_text="port")
    assert "acme.datatypes.Endpoint" in html  # defines `port`
    assert "acme.nodes.Web" not in html


def test_counts_agree_in_number_and_inputs_show_no_sentinel():
    st = toskit.loads(TEMPLATE)
    html = st._repr_html_()
    assert_safe(html)
    text = _text(body(html))
    assert "1 node template " in text and "1 node templates" not in text
    assert "1 input " in text and "2 types" in text
    assert "NO_DEFAULT" not in body(html)
    assert "secret no value" in text


CONSTRAINED = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  acme.datatypes.Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      port: {type: integer, constraints: [{in_range: [1, 65535]}]}
      protocol: {type: string, default: tcp, constraints: [{valid_values: [tcp, udp]}]}
      host: {type: string, required: false, constraints: [{pattern: "[a-z.]+"}]}
"""
CONSTRAINED_2 = """\
tosca_definitions_version: tosca_2_0
data_types:
  P:
    properties:
      port: {type: integer, validation: {$greater_or_equal: [$value, 1]}}
      tags: {type: list, entry_schema: {type: string, validation: {$valid_values: [$value, [a, b]]}}}
"""


def _table_rows(html: str) -> dict[str, list[str]]:
    rows = {}
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body(html), flags=re.S):
        cells = [
            "".join(parse(c).text).strip()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, flags=re.S)
        ]
        rows[cells[0]] = cells
    return rows


def test_type_view_shows_constraints_in_source_form_and_required_only_without_default():
    from toskit.display import to_html

    t = toskit.loads(CONSTRAINED).types_of("data")["acme.datatypes.Endpoint"]
    html = to_html(t)
    assert_safe(html)
    rows = _table_rows(html)
    # The description sits under the property's name (issue #35: a seventh column left the output area).
    assert rows["property"] == [
        "property",
        "type",
        "required",
        "default",
        "constraints",
        "defined in",
    ]
    assert rows["port●"][2] == "required" and rows["port●"][4] == "in_range [1, 65535]"
    assert rows["protocol●"][2] == "has a default"  # required, but the default supplies it
    assert rows["protocol●"][4] == "valid_values [tcp, udp]"
    assert rows["host●"][2] == "optional" and rows["host●"][4] == 'pattern "[a-z.]+"'
    assert "● defined on this type" in _text(html)  # the mark is explained, not only on hover
    one = to_html(t.properties["port"])
    assert ["constraints", "in_range [1, 65535]"] in [r for r in _table_rows(one).values()]


def test_validation_clauses_show_as_written():
    from toskit.display import to_html

    t = toskit.loads(CONSTRAINED_2).types_of("data")["P"]
    rows = _table_rows(to_html(t))
    assert rows["port●"][4] == "$greater_or_equal: [$value, 1]"
    assert rows["tags●"][4] == "entry: $valid_values: [$value, [a, b]]"


def test_a_cut_table_says_how_many_rows_it_shows_and_the_option():
    props = "".join(f"      p{i}: {{type: integer, default: {i}}}\n" for i in range(60))
    text = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  A:\n    derived_from: tosca.nodes.Root\n"
        f"    properties:\n{props}topology_template:\n  node_templates:\n    a: {{type: A}}\n"
    )
    html = toskit.loads(text).node_templates["a"]._repr_html_()
    assert "… 10 more rows (50 of 60 shown; toskit.options.display_max_rows)" in body(html)
    with toskit.options.context(display_max_rows=100):
        assert "more rows" not in body(toskit.loads(text).node_templates["a"]._repr_html_())


def test_values_wrap_only_at_spaces():
    from toskit.display.html import css

    rule = re.search(r"td\.toskit-value \{([^}]*)\}", css()).group(1)
    assert "word-break: normal" in rule and "overflow-wrap: normal" in rule  # never inside a token
