"""The static type tree (template views, report) and the small wording fixes
of issue #18: user types first, normative types under a closed toggle, no
control nested in another, counts that agree in number, no sentinel text."""

from __future__ import annotations

import re

import toskit
from htmlcheck import assert_safe, body, parse
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
    assert re.findall(r'toskit-node-name">([^<]+)<', shown) == ["tosca.nodes.Root", "acme.nodes.Web"]
    # Then every node type, in a toggle that starts closed.
    assert re.search(r'<details class="toskit-section"><summary>all \d+ node types, normative included</summary>', node_group)
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
