"""Views of deep and wide type derivations (#37 item 3).

``toskit show`` of a 2,000-deep data-type chain must not end in
RecursionError, and the notebook view of a 10,000-deep chain must compute
only what it shows: the effective properties of every type are quadratic
in the depth, so the tests count how many types get them.
"""

import re

import pytest

import toskit
from toskit import cli
from toskit.display import options, render_page
from toskit.display.tosca_views import BREADCRUMB_MAX, _tree_items, report_types, type_tree_html
from toskit.display.typetree import (
    MAX_FOREST_DEPTH,
    TypeNode,
    filter_forest,
    template_types,
    user_forest,
)
from toskit.tosca.types.definitions import Type


def _chain(depth: int, *, reverse: bool = False) -> str:
    blocks = [
        [
            "  D0:",
            "    derived_from: Root",
            "    properties:",
            "      p0: {type: string, required: false}",
        ]
    ]
    for i in range(1, depth):
        blocks.append(
            [
                f"  D{i}:",
                f"    derived_from: D{i - 1}",
                "    properties:",
                f"      p{i}: {{type: string, required: false}}",
            ]
        )
    if reverse:
        blocks.reverse()
    lines = ["tosca_definitions_version: tosca_2_0", "data_types:"]
    for block in blocks:
        lines += block
    lines += ["service_template:", "  node_templates:", "    n:", "      type: Root"]
    return "\n".join(lines) + "\n"


@pytest.fixture
def count_tables(monkeypatch):
    """How many types build their effective property table."""
    calls = [0]
    original = Type._inherited_table

    def counted(self):
        calls[0] += 1
        return original(self)

    monkeypatch.setattr(Type, "_inherited_table", counted)
    return calls


@pytest.mark.parametrize(
    "reverse", [False, True], ids=["declared-root-first", "declared-leaf-first"]
)
def test_show_of_a_2000_deep_chain_writes_its_page(reverse, tmp_path, capsys):
    path = tmp_path / "deep.yaml"
    path.write_text(_chain(2000, reverse=reverse))
    status = cli.main(["show", str(path), "-o", str(tmp_path / "r.html")])
    err = capsys.readouterr().err
    assert status == 0, err
    assert "RecursionError" not in err
    page = (tmp_path / "r.html").read_text()
    assert ">D0<" in page or ">D0</a>" in page
    # the page is bounded: the type definitions it leaves out are counted
    assert "more types not shown" in page or "more below" in page
    # breadcrumbs name the nearest ancestors and say how many more there are
    assert re.search(r"… [\d,]+ more</span>", page)


def test_notebook_view_of_a_10000_deep_chain_computes_only_what_it_shows(tmp_path, count_tables):
    path = tmp_path / "deep.yaml"
    path.write_text(_chain(10_000))
    st = toskit.load(str(path))
    before = count_tables[0]
    html = st._repr_html_()
    built = count_tables[0] - before
    # the view's "Type definitions" section shows at most 30 types: only
    # those (and the chain of one of them at most) build their table
    assert built <= 60, built
    assert "more types not shown" in html and len(html) < 2_000_000
    # the report's types are every type once, found in linear time
    types = report_types(st)
    keys = [(t.kind, t.name) for t in types]
    assert len(keys) == len(set(keys))
    names = {t.name for t in types}
    assert {"D0", "D5000", "D9999"} <= names


def test_breadcrumb_is_bounded(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text(_chain(300))
    st = toskit.load(str(path))
    page = render_page(st)
    crumbs = re.findall(r'<div class="toskit-crumbs">(.*?)</div>', page)
    assert crumbs
    for crumb in crumbs:
        assert crumb.count("toskit-crumb-sep") <= BREADCRUMB_MAX + 2
    deepest = crumbs[-1]
    this = int(re.search(r'toskit-crumb-this">D(\d+)<', deepest).group(1))
    assert this > BREADCRUMB_MAX + 1
    # the root, how many are left out, then the nearest ancestors up to the type
    assert deepest.startswith("<span>Root</span>")
    assert f"… {this - BREADCRUMB_MAX:,} more</span>" in deepest
    assert f">D{this - 1}</a>" in deepest and f">D{this - BREADCRUMB_MAX}</a>" in deepest


def _node_chain(depth: int, *, user_at: int) -> TypeNode:
    root = TypeNode("n0", "data", normative=True)
    node = root
    for i in range(1, depth):
        child = TypeNode(f"n{i}", "data", normative=i != user_at)
        node.children.append(child)
        node = child
    return root


def test_forests_of_a_10000_deep_chain_need_no_recursion():
    root = _node_chain(10_000, user_at=300)
    kept = user_forest([root])
    # the user type and its ancestors, and nothing below it
    depth, node = 0, kept[0]
    while node.children:
        (node,) = node.children
        depth += 1
    assert node.name == "n300" and depth == 300
    found = filter_forest([root], "n350")
    node, depth = found[0], 0
    while node.children:
        (node,) = node.children
        depth += 1
    assert node.name == "n350" and node.match and depth == 350
    # below MAX_FOREST_DEPTH a branch is cut, never a RecursionError
    assert filter_forest([root], "n9999") == []
    assert user_forest([_node_chain(10_000, user_at=MAX_FOREST_DEPTH + 5)]) == []


def test_type_tree_drawn_as_deep_as_asked_without_recursion():
    root = _node_chain(3_000, user_at=2_999)
    with options.context(display_max_depth=5_000, display_max_tree_nodes=10_000):
        html = _tree_items([root], 0, [10_000], None)
    assert html.count("<li") == 3_000 and "n2999" in html
    # the budget cuts a level and says how much is left
    wide = TypeNode("r", "data", True, [TypeNode(f"c{i}", "data", True) for i in range(100)])
    html = _tree_items([wide], 0, [10], None)
    assert "… 91 more types" in html and html.count("<li") == 11  # r and c0..c8, then the note


def test_type_tree_view_of_a_deep_chain(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text(_chain(2000))
    st = toskit.load(str(path))
    html = type_tree_html(template_types(st))
    assert "more below" in html and "D0" in html
    with options.context(display_max_depth=1_000, display_max_tree_nodes=2_000):
        html = type_tree_html(template_types(st), filter_text="D350")
    assert "toskit-match" in html and ">D350<" in html
