"""Views stay bounded: row limits, "… N more", sizes of huge objects."""

from __future__ import annotations

import re

import pytest
from fakes import FakeNodeTemplate, FakeRow, FakeServiceTemplate, FakeType, sample_template
from htmlcheck import assert_safe, body

import toskit
from toskit.conditions.results import TraceEntry
from toskit.diagnostics import Diagnostic
from toskit.display import conditions_views as cv
from toskit.display import options
from toskit.display import tosca_views as tv
from toskit.display.diagnostics_view import diagnostics_html


def _big_template(nodes: int) -> FakeServiceTemplate:
    root = FakeType("tosca.nodes.Root")
    app = FakeType("my.App", parent=root)
    st = FakeServiceTemplate(types={"tosca.nodes.Root": root, "my.App": app})
    for i in range(nodes):
        rows = [FakeRow(f"p{j}", f"value {i}.{j}", "string", "template") for j in range(5)]
        st.node_templates[f"node{i}"] = FakeNodeTemplate(f"node{i}", app, rows)
    st.diagnostics = [
        Diagnostic(
            "error",
            "missing-property",
            f"node template 'node{i}': missing",
            path=f"topology_template.node_templates.node{i}.properties.x",
        )
        for i in range(nodes)
    ]
    return st


def _rows_in(html: str) -> int:
    return html.count("<tr>") + html.count("<tr class=")


def test_ten_thousand_node_template_is_small():
    html = tv.service_template_html(_big_template(10_000))
    assert len(html.encode()) < 1_000_000
    assert_safe(html)
    assert "… 9,950 more node templates" in html
    assert "… 9,950 more diagnostics" in html


def test_five_hundred_property_node_is_small():
    app = FakeType("my.App", parent=FakeType("tosca.nodes.Root"))
    rows = [
        FakeRow(f"group{j // 10}.field{j}", "x" * 1000, "string", f"default: t{j % 9}")
        for j in range(500)
    ]
    html = tv.node_template_html(FakeNodeTemplate("big", app, rows))
    assert len(html.encode()) < 1_000_000
    # 50 rows shown, the rest summarised; long values truncated.
    assert _rows_in(html) == 1 + 50
    assert "… 450 more rows" in html
    assert "x" * 1000 not in body(html)
    assert "x" * 199 + "…" in body(html)


@pytest.mark.parametrize(
    ("limit", "expected_rows", "note"),
    [(3, 3, "… 2 more rows"), (5, 5, None), (50, 5, None)],
    ids=["cut", "exact", "under"],
)
def test_display_max_rows_bounds_tables(limit, expected_rows, note):
    rows = [FakeRow(f"p{j}", j, "integer", "template") for j in range(5)]
    node = FakeNodeTemplate("n", FakeType("my.T"), rows)
    with options.context(display_max_rows=limit):
        html = tv.node_template_html(node)
    assert _rows_in(html) == 1 + expected_rows
    if note:
        assert note in html
    else:
        assert "more rows" not in html


def test_overridden_rows_count_against_the_limit_but_not_the_more_note():
    st = sample_template()
    table = st.node_templates["dbx"].property_table(show_overridden=True)
    html = tv.property_table_html(table)
    assert html.count('<tr class="toskit-overridden">') == 1
    assert "more rows" not in html
    plain = tv.property_table_html(st.node_templates["dbx"].property_table())
    assert "toskit-overridden" not in body(plain)


def test_diagnostics_are_bounded_and_errors_come_first():
    diags = [Diagnostic("warning", "w", f"warn {i}") for i in range(3)] + [
        Diagnostic("error", "e", f"err {i}") for i in range(60)
    ]
    html = diagnostics_html(diags)
    assert html.count('class="toskit-diag ') == 50
    assert "… 13 more diagnostics" in html
    assert html.index("err 0") < html.index("err 49")
    assert "warn 0" not in body(html)  # errors fill the first 50


def _deep_trace(depth: int) -> TraceEntry:
    entry = TraceEntry("expression", True, [], source="true")
    for _ in range(depth):
        entry = TraceEntry("not", True, [], children=[entry])
    return TraceEntry("rules", True, [], children=[entry])


def test_trace_tree_is_cut_below_max_depth():
    with options.context(display_max_depth=5):
        html = cv.trace_html(_deep_trace(50))
    assert html.count("<li>") == 5
    assert "… 1 more below" in html


def test_trace_tree_is_bounded_in_entries():
    wide = TraceEntry(
        "all", True, [], children=[TraceEntry("expression", True, [], f"e{i}") for i in range(1000)]
    )
    html = cv.trace_html(TraceEntry("rules", True, [], children=[wide]))
    assert "… 702 more entries" in html


def test_deep_trace_does_not_recurse_without_end():
    html = cv.trace_html(_deep_trace(5000))
    assert len(html) < 100_000


def test_type_tree_is_bounded():
    root = FakeType("tosca.nodes.Root")
    types = [root] + [FakeType(f"my.T{i}", parent=root) for i in range(1000)]
    with options.context(display_max_tree_nodes=20):
        html = tv.type_tree_html(types)
    assert len(re.findall(r"toskit-node-name\">my\.T\d+<", html)) == 19
    assert "… 981 more types" in html


def test_long_derivation_chains_collapse_below_max_depth():
    chain = [FakeType("tosca.nodes.Root")]
    for i in range(100):
        chain.append(FakeType(f"my.T{i}", parent=chain[-1]))
    html = tv.type_tree_html(chain)
    assert "my.T10<" in html and "my.T20<" not in html
    assert "more below" in html


def test_derivation_cycles_are_drawn_not_followed():
    a = FakeType("my.A")
    b = FakeType("my.B", parent=a)
    a.parent = b
    html = tv.type_tree_html([a, b])
    assert html.count("derivation cycle") == 2


def test_options_are_checked_and_restored():
    assert toskit.options.display_max_rows == 50
    with toskit.options.context(display_max_rows=7):
        assert toskit.options.display_max_rows == 7
    assert toskit.options.display_max_rows == 50
    toskit.options.display_max_rows = 10
    try:
        assert options.get("display_max_rows") == 10
    finally:
        options.reset()
    assert toskit.options.display_max_rows == 50


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("display_max_rows", 0, "at least 1"),
        ("display_max_rows", "10", "must be an integer"),
        ("display_max_rows", True, "must be an integer"),
        ("display_max_row", 5, "did you mean 'display_max_rows'"),
        ("display_expand_depth", -1, "at least 0"),
    ],
    ids=["zero", "string", "bool", "typo", "negative"],
)
def test_bad_options_raise_toskit_errors(name, value, message):
    with pytest.raises(toskit.ToskitError, match=message):
        setattr(toskit.options, name, value)
    with pytest.raises(toskit.ToskitError, match=message), options.context(**{name: value}):
        pass
    assert options.snapshot() == options.DEFAULTS


def test_expand_depth_zero_is_allowed():
    with options.context(display_expand_depth=0):
        assert toskit.options.display_expand_depth == 0


@pytest.mark.parametrize(
    ("expand", "open_levels"), [(0, 0), (2, 2), (4, 4)], ids=["none", "two", "default"]
)
def test_trace_levels_open_up_to_the_expand_depth(expand, open_levels):
    with options.context(display_expand_depth=expand):
        html = cv.trace_html(_deep_trace(10))
    assert html.count("<details open>") == open_levels
    assert html.count("<details>") == 11 - open_levels
