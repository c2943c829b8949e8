"""Issue #35 item 4: the property explorer's picker shows where the problems
are, can list only those, and opens on the first template with one."""

from __future__ import annotations

import pytest

import toskit
from toskit.widgets import PropertyExplorer

TEXT = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Server:
    derived_from: tosca.nodes.Root
    properties:
      port: {type: integer}
      name: {type: string, required: false}
topology_template:
  node_templates:
    fine:
      type: my.Server
      properties: {port: 80}
    broken:
      type: my.Server
      properties: {port: eighty, nmae: x}
    also_fine:
      type: my.Server
      properties: {port: 81}
    empty:
      type: my.Server
"""


@pytest.fixture(scope="module")
def st():
    return toskit.loads(TEXT)


def test_opens_on_the_first_template_with_problems(st):
    explorer = PropertyExplorer(st)
    assert explorer.problem_nodes == ["broken", "empty"]
    assert explorer.node == "broken"
    assert PropertyExplorer(st, node="fine").node == "fine"  # an explicit choice wins


def test_the_picker_counts_errors_and_warnings(st):
    labels = dict((value, label) for label, value in PropertyExplorer(st)._dropdown.options)
    assert labels["fine"] == "fine"
    assert labels["broken"].startswith("broken — ") and "error" in labels["broken"]
    assert labels["empty"] == "empty — 1 error"  # the missing required port
    # Counted, not guessed: as many as the explorer's findings of that node.
    explorer = PropertyExplorer(st)
    errors, warnings = explorer._counts("broken")
    assert errors + warnings == len(explorer._diagnostics["broken"]) and errors >= 2


def test_problems_only_lists_the_templates_with_findings(st):
    explorer = PropertyExplorer(st, node="fine")
    assert explorer._problems.description == "problems only (2)"
    explorer._problems.value = True  # a click on the checkbox
    assert explorer.problems_only
    assert [v for _, v in explorer._dropdown.options] == ["broken", "empty"]
    assert explorer.node == "broken"  # the node shown had no problem: the first one with some
    assert explorer._dropdown.value == "broken"
    explorer.set_problems_only(False)
    assert not explorer._problems.value
    assert [v for _, v in explorer._dropdown.options] == ["fine", "broken", "also_fine", "empty"]


def test_problems_only_on_a_clean_template_keeps_the_node(st):
    clean = toskit.loads(TEXT.split("    broken:")[0])
    explorer = PropertyExplorer(clean)
    assert explorer.problem_nodes == [] and explorer.node == "fine"
    explorer.set_problems_only(True)
    assert explorer.node == "fine" and [v for _, v in explorer._dropdown.options] == ["fine"]


def test_export_csv_downloads_the_shown_table(st):
    import base64
    import csv
    import io
    import re

    explorer = PropertyExplorer(st, node="fine")
    text = explorer.to_csv()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and rows[0]["path"] == "port" and rows[0]["value"] == "80"
    link = explorer._export.value
    assert 'download="fine.csv"' in link and ">export CSV</a>" in link
    data = re.search(r'href="data:text/csv;base64,([^"]+)"', link).group(1)
    assert base64.b64decode(data).decode("utf-8") == text
    explorer.select("broken")  # the link follows the node shown
    assert 'download="broken.csv"' in explorer._export.value
    with pytest.raises(toskit.ToskitError, match="no node template 'nope' to export"):
        explorer.to_csv("nope")
