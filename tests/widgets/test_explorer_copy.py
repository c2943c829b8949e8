"""The property explorer's paths can be copied (issue 35 item 4): every row
of the shown node carries its dotted path in a span that one click selects
whole (``user-select: all``, ``toskit.display.tosca_views.copyable_path``),
in the live widget and in its stored snapshot (where no script runs, so a
copy button could not work)."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import toskit
from toskit.widgets import PropertyExplorer, explore

SERVICE = Path(__file__).resolve().parents[2] / "notebooks" / "examples" / "service.yaml"
TWO = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Endpoint:
    derived_from: tosca.datatypes.Root
    properties: {port: {type: integer, default: 80}}
node_types:
  A:
    derived_from: tosca.nodes.Root
    properties: {name: {type: string, default: x}}
  B:
    derived_from: tosca.nodes.Root
    properties: {endpoint: {type: Endpoint, default: {}}}
topology_template:
  node_templates:
    a: {type: A}
    b: {type: B}
"""
_COPY = re.compile(r'<span class="toskit-copy" title="[^"]*">([^<]*)</span>')


def _paths(node) -> set[str]:
    return {str(row.path) for row in node.property_table().rows}


def test_every_row_of_the_shown_node_has_a_copyable_path():
    st = toskit.load(SERVICE)
    explorer = PropertyExplorer(st, node="db")
    copied = {html_lib.unescape(p) for p in _COPY.findall(explorer.html)}
    assert copied and _paths(st.node_templates["db"]) <= copied
    # Another node: its own paths.
    two = toskit.loads(TWO)
    explorer = PropertyExplorer(two, node="a")
    explorer.select("b")
    copied = {html_lib.unescape(p) for p in _COPY.findall(explorer.html)}
    assert copied == _paths(two.node_templates["b"]) == {"endpoint.port"}


def test_the_stored_snapshot_keeps_the_copyable_paths():
    widget = explore(toskit.load(SERVICE))
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert _COPY.search(data["text/html"])
    assert ".toskit-wrap .toskit-copy { user-select: all" in data["text/html"]
