"""TypeTree and PropertyExplorer, driven from Python."""

from __future__ import annotations

import pytest
from fakes import sample_template
from htmlcheck import assert_safe, body

import toskit
from toskit.widgets import PropertyExplorer, TemplateExplorer, TypeTree, explore


@pytest.fixture
def st():
    return sample_template("")


def _names(nodes):
    out = []
    for node in nodes:
        out.append(node["name"])
        out.extend(_names(node["children"]))
    return out


def test_type_tree_groups_kinds_and_flags_normative_types(st):
    tree = TypeTree(st)
    groups = {g["kind"]: g for g in tree.tree}
    assert list(groups) == ["node", "data"]
    node_root = groups["node"]["roots"][0]
    assert node_root["name"] == "tosca.nodes.Root" and node_root["normative"] is True
    service = node_root["children"][0]["children"][0]
    assert service["name"] == "my.Service" and service["normative"] is False
    assert groups["node"]["note"] == "1 yours, 2 normative (hidden)"
    assert groups["node"]["open"] is True and node_root["open"] is True
    # Only the branches leading to user types until normative types are asked for.
    assert _names(groups["node"]["roots"]) == ["tosca.nodes.Root", "tosca.nodes.DBMS", "my.Service"]
    tree.show_normative = True
    everything = {g["kind"]: g for g in tree.tree}
    assert (
        len(_names(everything["node"]["roots"])) == 3
        and everything["node"]["note"] == "1 yours, 2 normative"
    )


def test_type_tree_hides_kinds_of_normative_types_only():
    tree = TypeTree(toskit.loads("tosca_definitions_version: tosca_simple_yaml_1_3\n"))
    assert tree.tree == []  # every kind is normative only
    tree.show_normative = True
    assert [g["kind"] for g in tree.tree][:2] == ["node", "data"]


def test_type_tree_of_one_kind(st):
    tree = TypeTree(st, kind="data")
    assert tree.kind == "data"
    assert _names(tree.tree[0]["roots"]) == ["tosca.datatypes.Root", "my.Endpoint"]


def test_type_tree_rejects_unknown_kind_with_a_hint(st):
    with pytest.raises(toskit.ToskitError, match="did you mean 'node'"):
        TypeTree(st, kind="nodes")


def test_selecting_a_type_sets_the_trait_and_marks_the_html(st):
    tree = TypeTree(st)
    assert tree.selected is None and tree.selected_type is None
    tree.select("my.Endpoint")
    assert tree.selected == "my.Endpoint"
    assert tree.selected_type.name == "my.Endpoint"
    assert 'class="toskit-user toskit-selected"' in tree.html
    assert_safe(tree.html)


def test_selecting_an_unknown_type_is_a_clear_error(st):
    tree = TypeTree(st)
    with pytest.raises(
        toskit.ToskitError, match="no type 'my.Endpont'.*did you mean 'my.Endpoint'"
    ):
        tree.selected = "my.Endpont"
    assert tree.selected is None


def test_type_tree_module_is_an_es_module_without_html_injection(st):
    tree = TypeTree(st)
    assert "export default" in tree._esm
    assert "innerHTML" not in tree._esm
    assert "http" not in tree._esm and "import " not in tree._esm  # self-contained, no network
    assert ".toskit-tree-button" in tree._css


def test_property_explorer_shows_the_first_node_and_follows_the_dropdown(st):
    explorer = PropertyExplorer(st)
    assert explorer.node == "db"
    assert "endpoint.port" in body(explorer.html)
    assert_safe(explorer.html)
    with pytest.raises(toskit.ToskitError, match="no node template 'dbb'.*did you mean 'db'"):
        explorer.node = "dbb"


def test_property_explorer_toggle_shows_overridden_values(st):
    explorer = PropertyExplorer(st)
    assert "toskit-overridden" not in body(explorer.html)
    explorer._toggle.value = True  # what a click on the checkbox does
    assert explorer.show_overridden is True
    assert body(explorer.html).count('<tr class="toskit-overridden">') == 1
    explorer.show_overridden = False
    assert explorer._toggle.value is False
    assert "toskit-overridden" not in body(explorer.html)


def test_selecting_a_type_in_the_tree_changes_the_explorer(st):
    tree = TypeTree(st)
    explorer = PropertyExplorer(st).link(tree)
    before = explorer.html
    tree.select("my.Endpoint")  # a data type: no node template has it
    after = explorer.html
    assert after != before
    assert "type <b" in after and "0 node templates" in after
    assert "toskit-crumbs" in after  # the type's own view
    tree.select("tosca.nodes.Root")  # every node derives from it
    assert "1 node template" in explorer.html
    assert "endpoint.port" in body(explorer.html)
    explorer.select("db")
    assert explorer.followed_type is None


def test_explore_picks_the_obvious_widget(st):
    widget = explore(st)
    assert isinstance(widget, TemplateExplorer)
    widget.tree.select("my.Endpoint")
    assert "my.Endpoint" in widget.properties.html


def test_explore_falls_back_to_static_html():
    import ipywidgets

    widget = explore(toskit.Diagnostic("error", "x-y", "boom"))
    # A rendered output (toskit.widgets.rendered.RenderedHTML), where
    # JupyterLab opens a file:line link; the HTML is its value.
    assert isinstance(widget, ipywidgets.Output)
    assert "boom" in widget.value
    assert "boom" in widget.outputs[0]["data"]["text/html"]


def test_widgets_on_an_empty_template():
    from fakes import FakeServiceTemplate

    empty = FakeServiceTemplate()
    tree = TypeTree(empty)
    assert tree.tree == [] and tree.type_names == []
    explorer = PropertyExplorer(empty).link(tree)
    assert explorer.node is None
    assert "no node templates" in body(explorer.html)
    assert_safe(explorer.html)


def test_widgets_are_dom_widgets(st):
    import ipywidgets

    from toskit.widgets import ClusterSimulator

    assert issubclass(TypeTree, ipywidgets.DOMWidget)
    assert issubclass(PropertyExplorer, ipywidgets.DOMWidget)
    assert issubclass(ClusterSimulator, ipywidgets.DOMWidget)


def test_filtering_the_tree_by_property_name(st):
    tree = TypeTree(st)
    tree.filter = "endpoint"  # my.Service defines `endpoint`; my.Endpoint is named so
    groups = {g["kind"]: g for g in tree.tree}
    assert list(groups) == ["node", "data"]
    service = [n for n in _walk(groups["node"]["roots"]) if n["name"] == "my.Service"][0]
    assert service["match"] is True


def _walk(nodes):
    for node in nodes:
        yield node
        yield from _walk(node["children"])


def test_filtering_the_tree(st):
    tree = TypeTree(st)
    tree.filter = "my.end"
    groups = tree.tree
    assert [g["kind"] for g in groups] == ["data"]
    root = groups[0]["roots"][0]
    assert root["name"] == "tosca.datatypes.Root" and "match" not in root and root["open"]
    assert root["children"][0] == {
        "name": "my.Endpoint",
        "kind": "data",
        "normative": False,
        "children": [],
        "match": True,
        "size": 1,
        "open": True,
    }
    html = body(tree.html)
    assert 'class="toskit-user toskit-match"' in html and "my.Service" not in html
    tree.filter = "no such type"
    assert tree.tree == []
    assert "no type matches &#x27;no such type&#x27;" in tree.html
    tree.filter = ""
    assert len(tree.tree) == 2
