"""Any text in any field renders safely (hypothesis)."""

from __future__ import annotations

from fakes import sample_template
from htmlcheck import assert_safe
from hypothesis import given, settings
from hypothesis import strategies as st

from toskit.conditions.results import RoleOutcome, TraceEntry
from toskit.display import render_page, to_html, tosca_views
from toskit.display.html import esc, text_value

texts = st.text(min_size=1, max_size=40)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(text=texts)
def test_any_text_in_a_template_renders_safely(text):
    template = sample_template(text)
    html = tosca_views.service_template_html(template)
    assert_safe(html)
    assert esc(f"my.Service{text}") in html
    assert_safe(render_page(template))


@settings(max_examples=200, deadline=None)
@given(value=values)
def test_any_value_renders_as_bounded_escaped_text(value):
    shown = text_value(value)
    assert len(shown) <= 200
    template = sample_template()
    template.node_templates["dbx"].rows[0].value = value
    html = tosca_views.node_template_html(template.node_templates["dbx"])
    assert_safe(html)
    assert esc(shown) in html


@settings(max_examples=100, deadline=None)
@given(warning=texts, source=texts)
def test_any_outcome_text_renders_safely(warning, source):
    trace = TraceEntry(
        "rules", False, [warning], children=[TraceEntry("expression", False, [], source)]
    )
    html = to_html(RoleOutcome(source, False, [warning], [source], trace))
    assert_safe(html)
    assert esc(warning) in html and esc(source) in html


@settings(max_examples=200, deadline=None)
@given(
    parents=st.lists(
        st.one_of(st.none(), st.integers(min_value=0, max_value=15)), min_size=1, max_size=16
    )
)
def test_any_derivation_graph_gives_a_forest_with_every_type_once(parents):
    from fakes import FakeType

    from toskit.display.typetree import build_forest

    types = [FakeType(f"t{i}") for i in range(len(parents))]
    for t, parent in zip(types, parents):
        t.parent = types[parent] if parent is not None and parent < len(types) else None
    forest = build_forest(types)
    seen = []
    stack = list(forest)
    while stack:
        node = stack.pop()
        seen.append(node.name)
        stack.extend(node.children)
    assert sorted(seen) == sorted(t.name for t in types)
    html = tosca_views.type_tree_html(types)
    assert_safe(html, styles=0)
