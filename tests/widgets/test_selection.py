"""One selection model across the type tree, the node dropdown and the
tables of a TemplateExplorer, and "used by" for data types (issue #18 item 4)."""

from __future__ import annotations

import pytest

import toskit
from toskit.display.typetree import type_usage
from toskit.widgets import PropertyExplorer, TemplateExplorer, TypeTree

TEMPLATE = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  acme.datatypes.Endpoint:
    derived_from: tosca.datatypes.Root
    properties: {port: {type: integer, default: 80}}
  acme.datatypes.Connection:
    derived_from: tosca.datatypes.Root
    properties:
      endpoint: {type: acme.datatypes.Endpoint}
      backups: {type: list, required: false, entry_schema: {type: acme.datatypes.Endpoint}}
node_types:
  acme.nodes.Db:
    derived_from: tosca.nodes.Root
    properties: {connection: {type: acme.datatypes.Connection}}
  acme.nodes.Worker:
    derived_from: tosca.nodes.Root
topology_template:
  node_templates:
    db: {type: acme.nodes.Db, properties: {connection: {endpoint: {port: 5432}}}}
    worker: {type: acme.nodes.Worker}
"""


@pytest.fixture
def st():
    return toskit.loads(TEMPLATE)


def test_type_usage_walks_nested_data_types_and_entries(st):
    usage = type_usage(st)
    assert usage["acme.datatypes.Connection"] == [("db", "connection")]
    assert usage["acme.datatypes.Endpoint"] == [
        ("db", "connection.endpoint"),
        ("db", "connection.backups"),
    ]
    assert "acme.nodes.Worker" not in usage


def test_a_data_type_says_who_uses_it_and_the_dropdown_goes_blank(st):
    explorer = TemplateExplorer(st)
    properties = explorer.properties
    assert properties._dropdown.value == "db"
    explorer.tree.select("acme.datatypes.Endpoint")
    html = properties.html
    assert (
        'type <b class="toskit-mono">acme.datatypes.Endpoint</b>: 0 node templates of this type'
        in html
    )
    assert (
        'used by <b class="toskit-mono">db</b> <span class="toskit-mono">(connection.endpoint)</span>'
        in html
    )
    assert properties._dropdown.value is None  # a type's view: no node is on screen
    # Picking a node again shows it, and the tree selects its type.
    properties._dropdown.value = "worker"
    assert properties.node == "worker" and properties.followed_type is None
    assert explorer.tree.selected == "acme.nodes.Worker"
    assert "type <b" not in properties.html
    properties._dropdown.value = "db"
    assert explorer.tree.selected == "acme.nodes.Db"


def test_selecting_a_node_type_shows_its_node_in_the_dropdown(st):
    tree = TypeTree(st)
    explorer = PropertyExplorer(st, node="worker").link(tree)
    tree.select("acme.nodes.Db")
    assert explorer.node == "db" and explorer._dropdown.value == "db"
    assert "1 node template of this type" in explorer.html
    explorer.select("worker")  # from Python: the tree follows too
    assert tree.selected == "acme.nodes.Worker"
