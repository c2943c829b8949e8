"""The static topology view: inline SVG, theme-aware, escaped, no script."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from htmlcheck import HOSTILE, PAYLOAD, assert_payload_is_text, assert_safe
from hypothesis import given, settings
from hypothesis import strategies as st

import toskit
from toskit.display import render_page, to_html
from toskit.display.html import css
from toskit.display.topology_svg import SVG_STYLE
from toskit.display.topology_view import LARGE

SVG_TAGS = {"svg", "g", "rect", "path", "text", "title", "defs", "marker", "circle", "style"}
HTML_TAGS = {
    "b", "br", "code", "details", "div", "pre", "span", "style", "summary", "table", "tbody",
    "td", "th", "thead", "tr",
}  # fmt: skip

STACK = """
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web_app:
      type: tosca.nodes.WebApplication
      requirements: [ { host: web_server } ]
    web_server:
      type: tosca.nodes.WebServer
      requirements: [ { host: server } ]
    server: { type: tosca.nodes.Compute }
    lost:
      type: tosca.nodes.SoftwareComponent
      requirements: [ { host: nowhere } ]
"""


def _hostile_template() -> str:
    """Every user string that reaches the drawing carries the payload."""
    p = PAYLOAD.replace("\\", "\\\\").replace('"', '\\"')
    return f"""
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  "T{p}":
    derived_from: tosca.nodes.SoftwareComponent
    properties:
      label: {{ type: string }}
    requirements:
      - "r{p}":
          capability: tosca.capabilities.Compute
          relationship: tosca.relationships.HostedOn
topology_template:
  substitution_mappings:
    node_type: "T{p}"
    capabilities:
      "c{p}": [ "n{p}", feature ]
  node_templates:
    "n{p}":
      type: "T{p}"
      description: "d{p}"
      properties: {{ label: "v{p}" }}
      requirements:
        - "r{p}": vm
        - "r{p}": "missing{p}"
    vm: {{ type: tosca.nodes.Compute }}
"""


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes.extend((tag, k) for k, _ in attrs)

    def handle_data(self, data):
        self.text.append(data)


def _parsed(html: str) -> _Collect:
    c = _Collect()
    c.feed(html)
    c.close()
    return c


@pytest.fixture(scope="module")
def hostile():
    st = toskit.loads(_hostile_template(), name="hostile.yaml")
    assert len(st.node_templates) == 2, st.diagnostics
    return st.topology()


def test_the_view_is_registered_and_draws_svg() -> None:
    topo = toskit.loads(STACK, name="stack.yaml").topology()
    html = to_html(topo)
    assert topo._repr_html_() == html
    assert "toskit-topology" in html and "<svg" in html
    assert html.count('class="toskit-t-node"') == 4
    assert "1 unresolved" in html
    assert "Unresolved and ambiguous requirements" in html


def test_hostile_names_are_escaped_everywhere(hostile) -> None:
    html = to_html(hostile)
    assert_payload_is_text(html)  # the project's checker: known tags, one stylesheet
    assert "<script" not in html.lower()
    doc = _parsed(html)
    assert doc.tags <= SVG_TAGS | HTML_TAGS, doc.tags - SVG_TAGS - HTML_TAGS
    assert not [a for a in doc.attributes if a[1].startswith("on")]
    text = "".join(doc.text)
    for piece in HOSTILE:
        assert piece in text


def test_exported_svg_is_well_formed_xml_with_escaped_text(hostile) -> None:
    svg = hostile.to_svg()
    root = ET.fromstring(svg)  # would fail on an unescaped < or "
    texts = "".join(root.itertext())
    for piece in HOSTILE:
        assert piece[:12] in texts
    assert not [el for el in root.iter() if any(k.startswith("on") for k in el.attrib)]
    assert "<script" not in svg


def test_unresolved_requirement_is_a_dashed_error_arrow_to_nowhere() -> None:
    topo = toskit.loads(STACK).topology()
    svg = topo.to_svg()
    problem = re.search(r'<g class="toskit-t-problem toskit-t-unresolved" data-source="lost"', svg)
    assert problem is not None
    assert "stroke: var(--toskit-error" in svg and "stroke-dasharray" in svg


def test_colours_follow_the_theme_variables() -> None:
    svg = toskit.loads(STACK).topology().to_svg()
    style = svg[svg.index("<style>") : svg.index("</style>")]
    colours = re.findall(r"(?:fill|stroke): ([^;]+);", style)
    assert colours
    for value in colours:
        assert value.startswith("var(--toskit-") or value in ("none", "transparent"), value


def test_a_large_topology_suggests_grouping() -> None:
    nodes = "".join(f"    n{i}: {{ type: tosca.nodes.Compute }}\n" for i in range(LARGE + 1))
    text = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n"
        + nodes
    )
    topo = toskit.loads(text).topology()
    html = to_html(topo)
    assert ".grouped()" in html
    grouped = to_html(topo.grouped())
    assert (
        "grouped by type" in grouped and grouped.count('class="toskit-t-node toskit-t-group"') == 1
    )


def test_the_report_has_a_topology_section() -> None:
    st = toskit.loads(STACK, name="stack.yaml")
    page = render_page(st)
    assert_safe(page)
    assert "Topology" in page and "<svg" in page
    assert 'data-node="web_app"' in page


def test_the_stylesheet_carries_the_drawing_rules() -> None:
    # A view's SVG has no <style> of its own: the one stylesheet styles it.
    assert SVG_STYLE.strip() in css()
    topo = toskit.loads(STACK).topology()
    assert "<style>" not in topo.to_svg(standalone=False)
    assert "<style>" in topo.to_svg()


# -- the explorer widget ---------------------------------------------------------


def test_explore_a_topology_clicks_through_to_the_property_table() -> None:
    from toskit.widgets import explore
    from toskit.widgets.topology import TopologyExplorer

    st = toskit.loads(
        STACK.replace(
            "server: { type: tosca.nodes.Compute }",
            """server:
      type: tosca.nodes.Compute
      capabilities: { host: { properties: { num_cpus: 4 } } }""",
        )
    )
    explorer = explore(st.topology())
    assert isinstance(explorer, TopologyExplorer)
    explorer.graph.selected = "web_server"  # what a click in the drawing sets
    assert explorer.properties.node == "web_server"
    explorer.select("server")
    assert explorer.properties.node == "server"
    assert "tosca.nodes.Compute" in explorer.properties.html
    assert "web_app" in explorer.graph.svg and "<script" not in explorer.graph.svg


def test_hovering_an_edge_tells_requirement_relationship_and_why() -> None:
    from toskit.widgets.topology import TopologyView

    view = TopologyView(toskit.loads(STACK))
    text = view.edge_text("web_app", "host")
    assert "relationship: tosca.relationships.HostedOn" in text
    assert "why: named by the requirement ('web_server')" in text
    # the same text is the arrow's <title>, which the widget shows on hover
    assert "relationship: tosca.relationships.HostedOn" in view.svg


def test_the_widget_switches_views_and_refuses_bad_ones() -> None:
    from toskit.widgets.topology import TopologyView

    view = TopologyView(toskit.loads(STACK))
    view.view = "hosting chains collapsed"
    assert set(view.topology.nodes) == {"server", "lost"}
    view.selected = "server"
    assert view.selected_template == "server"
    with pytest.raises(toskit.ToskitError, match="view must be one of"):
        view.view = "sideways"
    with pytest.raises(toskit.ToskitError, match="no node 'sever'"):
        view.selected = "sever"
    with pytest.raises(toskit.ToskitError):
        TopologyView(42)


def test_the_widget_script_assigns_only_the_python_built_svg_as_markup() -> None:
    from toskit.widgets.topology import _esm

    script = _esm()
    assert script.count("innerHTML") == 1 and 'innerHTML = model.get("svg")' in script
    assert "textContent" in script


# -- any names: the drawing stays well-formed and escaped -------------------------

_names = st.text(min_size=1, max_size=12).filter(lambda s: s.strip() == s and s)


@settings(max_examples=40, deadline=None)
@given(names=st.lists(_names, min_size=1, max_size=5, unique=True), value=st.text(max_size=20))
def test_any_names_give_a_well_formed_escaped_drawing(names, value) -> None:
    import json

    nodes = {
        name: {
            "type": "tosca.nodes.SoftwareComponent",
            "properties": {"component_version": "1.0"},
            "description": value,
            "requirements": [{"host": names[(i + 1) % len(names)]}, {"dependency": value or "x"}],
        }
        for i, name in enumerate(names)
    }
    doc = {
        "tosca_definitions_version": "tosca_simple_yaml_1_3",
        "topology_template": {"node_templates": nodes},
    }
    # JSON is YAML; raw non-ASCII (not \u escapes) keeps this about the drawing.
    service = toskit.loads(json.dumps(doc, ensure_ascii=False))
    topo = service.topology()
    svg = topo.to_svg()
    root = ET.fromstring(svg)
    assert len(root.findall(".//{http://www.w3.org/2000/svg}g[@class='toskit-t-node']")) == len(
        service.node_templates
    )
    html = to_html(topo)
    assert "<script" not in html
    assert isinstance(topo.to_dot(), str)


def test_a_huge_topology_is_drawn_grouped_and_a_bounded_report_too() -> None:
    from toskit.display.topology_view import DRAW_LIMIT

    nodes = "".join(f"    n{i}: {{ type: tosca.nodes.Compute }}\n" for i in range(DRAW_LIMIT + 1))
    text = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n"
        + nodes
    )
    service = toskit.loads(text)
    html = to_html(service.topology())
    assert f"{DRAW_LIMIT + 1:,} nodes: drawn grouped by type (1 box)" in html
    assert html.count('class="toskit-t-node') == 1
    assert len(html) < 200_000
    bounded = render_page(service, max_nodes=50)
    assert bounded.count('class="toskit-t-node') == 1
    assert render_page(service).count('class="toskit-t-node"') == DRAW_LIMIT + 1  # unbounded: whole


def test_only_the_widget_makes_boxes_focusable() -> None:
    from toskit.widgets.topology import TopologyView

    service = toskit.loads(STACK)
    assert "tabindex" not in to_html(service.topology())
    assert service.topology().to_svg().count("tabindex") == 0
    assert TopologyView(service).svg.count('tabindex="0"') == len(service.node_templates)


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(
        alphabet=st.one_of(
            st.sampled_from(list("&<>\"'\x00\x01\x0b\x1f\ud800\udfff\ufffe\uffffa é→")),
            st.characters(min_codepoint=0, max_codepoint=0xFFFF),
        ),
        max_size=12,
    ),
    value=st.one_of(
        st.floats(allow_nan=False, min_value=-1e7, max_value=1e7),
        st.integers(-(10**6), 10**6).map(lambda i: i / 20),
        st.sampled_from([0.0, -0.0, 0.04, -0.04, 0.05, -0.05, 9.95, 99.96]),
    ),
)
def test_the_drawings_quick_escape_and_number_forms_are_the_full_ones(
    text: str, value: float
) -> None:
    """_esc skips the escaping of a text with nothing to escape, and _f drops
    ``.0`` in one step (the SVG of 20,000 nodes escapes 200,000 texts): both
    give what the full forms give, on any text (XML-forbidden characters,
    lone surrogates, quotes) and any coordinate."""
    from html import escape

    from toskit.display.topology_svg import _NOT_XML, _esc, _f

    assert _esc(text) == escape(_NOT_XML.sub("\ufffd", text), quote=True)
    assert _f(value) == f"{value:.1f}".rstrip("0").rstrip(".")


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=30))
def test_coordinates_kept_while_a_drawing_is_written_read_as_each_alone(
    values: list[float],
) -> None:
    """_f keeps its texts while one drawing is written (330,000 coordinates
    in a 20,000-node drawing, 53,000 distinct): each the text of that value
    alone, 0.0 and -0.0 (one dict key, two texts) in either order included."""
    from toskit.display import topology_svg as T

    values = [0.0, -0.0, *values, -0.0, 0.0, *values]
    try:
        texts = [T._f(v) for v in values]
        assert texts == [f"{v:.1f}".removesuffix(".0") for v in values]
        assert texts[:2] == ["0", "-0"]
        assert all(v for v in T._WRITTEN)  # zeros are never kept
    finally:
        T._WRITTEN.clear()


def test_a_drawing_keeps_no_coordinate_texts_and_draws_the_same_twice() -> None:
    from toskit.display import topology_svg as T

    topo = toskit.loads(STACK).topology()
    first = topo.to_svg()
    assert T._WRITTEN == {}
    assert topo.to_svg() == first
    assert 'width="' in first and T._WRITTEN == {}
