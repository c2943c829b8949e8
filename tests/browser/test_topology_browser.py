"""Browser check of the topology explorer (tutorial 07): click a node, see its properties.

Voila renders ``notebooks/07-topology.ipynb`` in Debian's Chromium (fixtures
in ``conftest.py``: no network, no downloaded browser). The tutorial tags
its explorer ``tutorial-topology``. Screenshots of the explorer in the
light and the dark theme go to ``test-artifacts/07-topology-explorer-*.png``.
"""

from __future__ import annotations

import pytest
from test_notebooks_browser import ARTIFACTS, open_notebook, python_errors

pytestmark = pytest.mark.browser

NOTEBOOK = "07-topology.ipynb"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_clicking_a_node_shows_its_property_table(page, voila_url: str, theme: str) -> None:
    from playwright.sync_api import expect

    open_notebook(page, voila_url, NOTEBOOK, theme)
    assert python_errors(page) == []
    explorer = page.locator(".tutorial-topology")
    table = explorer.locator(".toskit-explorer-view")  # the clicked node's view
    expect(table).to_contain_text("tosca.nodes.Compute")  # the tutorial selected 'vm'
    expect(table).not_to_contain_text("5432")

    postgres = explorer.locator('g.toskit-t-node[data-node="postgres"]')
    expect(postgres).to_have_count(1)
    postgres.click()

    expect(explorer.locator("g.toskit-t-node.toskit-t-selected")).to_have_attribute(
        "data-node", "postgres"
    )
    expect(table).to_contain_text("5432")  # the DBMS's merged property table
    expect(table).to_contain_text("port")

    # Hovering an arrow tells the requirement, the relationship and why.
    explorer.locator(
        'g.toskit-t-edge[data-source="orders_db"][data-requirement="host"] text'
    ).hover()
    hover = explorer.locator(".toskit-topology-hover")
    expect(hover).to_contain_text("orders_db —host→ postgres")
    expect(hover).to_contain_text("relationship: tosca.relationships.HostedOn")

    explorer.screenshot(path=str(ARTIFACTS / f"07-topology-explorer-{theme}.png"))


def test_the_static_drawing_renders_with_its_unresolved_arrow(page, voila_url: str) -> None:
    from playwright.sync_api import expect

    open_notebook(page, voila_url, NOTEBOOK)
    problem = page.locator('g.toskit-t-problem.toskit-t-unresolved[data-source="orders_db"]')
    expect(problem).to_have_count(1)
    # Drawn dashed in the error colour, not invisible.
    dash = problem.locator("path").first.evaluate("p => getComputedStyle(p).strokeDasharray")
    assert dash not in ("", "none")
    box = problem.bounding_box()
    assert box is not None and box["height"] > 10
