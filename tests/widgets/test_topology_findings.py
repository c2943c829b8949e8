"""Issue #35 item 2: the topology shows where the problems are."""

from __future__ import annotations

import re

import ipywidgets

import toskit
from toskit.display import to_html
from toskit.widgets.topology import TopologyExplorer

TEXT = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.VeryLongNodeTypeNameForAGroupedDrawing:
    derived_from: tosca.nodes.Root
    properties:
      port: {type: integer}
topology_template:
  node_templates:
    fine:
      type: my.VeryLongNodeTypeNameForAGroupedDrawing
      properties: {port: 1}
    broken:
      type: my.VeryLongNodeTypeNameForAGroupedDrawing
      properties: {port: eighty, nmae: 1}
    missing:
      type: my.VeryLongNodeTypeNameForAGroupedDrawing
"""


def boxes(svg: str) -> dict[str, str]:
    return dict(
        re.findall(
            r'<g class="toskit-t-node[^"]*" data-node="([^"]+)"[^>]*>(.*?)</g>\s*(?=<g class="toskit-t-node|</g>)',
            svg,
            re.S,
        )
    )


def test_findings_are_counted_per_node_from_the_subjects():
    st = toskit.loads(TEXT)
    topology = st.topology()
    found = topology.findings()
    assert set(found) == {"broken", "missing"}
    for name, (errors, warnings) in found.items():
        mine = [
            d
            for d in st.diagnostics
            if d.subject is not None
            and d.subject.kind == "node_template"
            and d.subject.name == name
        ]
        assert errors == sum(d.severity == "error" for d in mine) and errors >= 1
        assert warnings == sum(d.severity == "warning" for d in mine)
    # A grouped box adds up its members.
    grouped = topology.grouped().findings()
    assert list(grouped.values()) == [
        (sum(e for e, _ in found.values()), sum(w for _, w in found.values()))
    ]


def test_every_node_with_findings_has_a_badge_and_an_edge_in_the_error_colour():
    topology = toskit.loads(TEXT).topology()
    svg = topology.to_svg()
    found = topology.findings()
    assert svg.count('class="toskit-t-badge toskit-t-badge-error"') == len(found) == 2
    assert svg.count('<rect class="toskit-t-has-errors"') == 2
    fine = svg.split('data-node="fine"')[1].split("</g>")[0]
    assert "toskit-t-badge" not in fine and "toskit-t-has-errors" not in fine
    broken = svg.split('data-node="broken"')[1].split("</g></g>")[0]
    assert f">{found['broken'][0]}</text>" in broken
    assert re.search(r"<title>broken: [^<]*\n\d+ errors? \(see its properties\)", broken)


def test_the_live_drawing_marks_the_same_nodes_in_every_view():
    # The explorer's clickable drawing (TopologyView.svg), not only the static
    # view and the export: every view the explorer offers.
    explorer = TopologyExplorer(toskit.loads(TEXT))
    view = explorer.graph
    for name in ("templates", "grouped by type", "hosting chains collapsed"):
        view.view = name
        topology = view.topology
        found = topology.findings()
        assert found, name
        drawn = {
            node
            for node, body in boxes(view.svg).items()
            if 'class="toskit-t-badge toskit-t-badge-error"' in body
        }
        assert drawn == {node for node, (errors, _) in found.items() if errors}, name
        assert view.svg.count('<rect class="toskit-t-has-errors"') == len(drawn), name


def test_the_header_counts_the_errors():
    topology = toskit.loads(TEXT).topology()
    errors = sum(e for e, _ in topology.findings().values())
    html = to_html(topology)
    header = html.split('class="toskit-header"')[1].split("</div>")[0]
    assert f'toskit-badge-error">{errors} errors</span>' in header


def test_a_long_type_name_fits_its_grouped_box():
    from toskit.tosca.topology.layout import BOLD, CHAR_WIDTH, PAD, box_lines

    grouped = toskit.loads(TEXT).topology().grouped()
    lay = grouped.layout()
    for name, box in lay.boxes.items():
        for line, cls in box_lines(grouped, name):
            width = len(line) * CHAR_WIDTH * (BOLD if cls == "toskit-t-name" else 1.0)
            assert width + 2 * PAD <= box.w + 0.01, (line, box.w)


def test_the_details_sit_beside_the_drawing():
    explorer = TopologyExplorer(toskit.loads(TEXT))
    row = explorer.children[1]
    assert isinstance(row, ipywidgets.HBox) and row.children == (
        explorer.graph,
        explorer.properties,
    )
    assert row.layout.flex_flow == "row wrap"
    assert explorer.properties.node == "broken"  # opens on the first node with problems


def test_export_svg_downloads_the_drawing_of_the_view():
    import base64

    explorer = TopologyExplorer(toskit.loads(TEXT))
    link = explorer._export.value
    assert 'download="topology-templates.svg"' in link
    data = re.search(r'href="data:image/svg\+xml;base64,([^"]+)"', link).group(1)
    svg = base64.b64decode(data).decode("utf-8")
    assert svg == explorer.to_svg() and svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert "<style>" in svg and 'data-node="broken"' in svg
    explorer.graph.view = "grouped by type"
    assert 'download="topology-grouped-by-type.svg"' in explorer._export.value
