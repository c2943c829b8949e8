"""Browser check in JupyterLab itself (issue 18): the type tree's keys stay
in the tree.

Voila has no command mode, so the Voila checks cannot see the bug the issue
reports: in JupyterLab, with a tree item focused, ↓ moved the notebook's
active cell and Enter opened the next cell for editing. Here a small
notebook (written by the test) is opened in a JupyterLab served on
127.0.0.1 with its own throw-away settings (``lab_server.serve_lab``); its
cell showing a ``TypeTree`` is run, a tree item is focused, and the keys are
pressed: focus moves within the tree, Enter selects there, and the
notebook's active cell and mode stay as they were. No page request may
leave the local server (the offline guard of ``conftest.py``).

Every wait is for a condition (kernel idle, tree drawn, focus moved), never
a fixed sleep, so a loaded two-core machine only makes it slower.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from lab_server import serve_lab

from conftest import guarded_page

pytestmark = pytest.mark.browser

NOTEBOOK = "keyboard.ipynb"
TREE_CELL = 1  # the index of the cell that shows the tree
TREE_YAML = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  acme.datatypes.Endpoint:
    derived_from: tosca.datatypes.Root
    properties: {port: {type: integer}}
node_types:
  acme.nodes.Web:
    derived_from: tosca.nodes.Root
    properties: {endpoint: {type: acme.datatypes.Endpoint}}
topology_template:
  node_templates:
    web: {type: acme.nodes.Web}
"""


def _write_notebook(folder: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_markdown_cell("# The type tree keeps its keys"),
        nbformat.v4.new_code_cell(
            "import toskit\n"
            "from toskit.widgets import TypeTree\n"
            f"tree = TypeTree(toskit.loads({TREE_YAML!r}))\n"
            'tree.add_class("lab-type-tree")\n'
            "tree"
        ),
        nbformat.v4.new_code_cell('"the next cell"'),
        nbformat.v4.new_code_cell('"the cell after"'),
    ]
    nbformat.write(nb, folder / NOTEBOOK)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path) -> Iterator[tuple[str, str]]:
    folder = tmp_path_factory.mktemp("lab-notebooks")
    _write_notebook(folder)
    with serve_lab(
        folder, tmp_path_factory.mktemp("lab-home"), artifacts_dir / "lab.log"
    ) as served:
        yield served


@pytest.fixture
def lab_page(browser, lab: tuple[str, str], request: pytest.FixtureRequest) -> Iterator[object]:
    base, _ = lab
    with guarded_page(browser, base, request) as page:
        yield page


# JupyterLab's notebook as the test sees it: JupyterLab is started with
# expose_app_in_browser, so the page holds `window.jupyterapp`.
_NOTEBOOK_STATE = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const nb = panel && panel.content;
    if (!nb || nb.activeCellIndex === undefined) return null;
    return {active: nb.activeCellIndex, mode: nb.mode, cells: nb.widgets.map((c) => c.model.type)};
}"""
# The notebook is loaded (all its cells) and its kernel is started and idle.
_READY = """() => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const kernel = panel && panel.sessionContext && panel.sessionContext.session && panel.sessionContext.session.kernel;
    return Boolean(panel && panel.context && panel.context.isReady && panel.content.widgets.length === 4
        && kernel && kernel.status === 'idle');
}"""
# The tree cell's stored text/html (the snapshot) marks `name` as selected.
_SNAPSHOT_SELECTS = """(name) => {
    const cell = window.jupyterapp.shell.currentWidget.content.widgets[TREE_CELL];
    const outputs = cell.model.outputs;
    for (let i = 0; i < outputs.length; i++) {
        const html = outputs.get(i).data['text/html'];
        if (typeof html === 'string' && html.includes('toskit-selected"><div class="toskit-leaf"><span class="toskit-node-name">' + name + '<')) return true;
    }
    return false;
}""".replace("TREE_CELL", str(TREE_CELL))
_FOCUSED = """() => {
    const li = document.activeElement && document.activeElement.closest('.lab-type-tree li[role=treeitem]');
    return li ? (li.dataset.name || li.querySelector('.toskit-tree-group-label').textContent) : null;
}"""


def test_tree_keys_do_not_reach_the_notebook_in_jupyterlab(
    lab_page, lab, artifacts_dir: Path
) -> None:
    from playwright.sync_api import expect

    page = lab_page
    base, token = lab
    page.goto(f"{base}/lab/tree/{NOTEBOOK}?token={token}", wait_until="domcontentloaded")
    page.wait_for_function(_READY)
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    tree = page.locator(".lab-type-tree")
    item = tree.locator("li[data-name='tosca.nodes.Root']")
    expect(item).to_be_visible()
    # Every cell has run: the last one shows its value.
    expect(page.locator(".jp-Notebook .jp-Cell").last.locator(".jp-OutputArea")).to_contain_text(
        "the cell after"
    )

    # A person clicks a type in the tree: it is selected and focused, and the
    # tree's cell becomes the notebook's active cell (command mode).
    item.locator("> .toskit-tree-row").click()
    page.wait_for_function(f"() => ({_FOCUSED})() === 'tosca.nodes.Root'")
    expect(item).to_have_attribute("aria-selected", "true")
    before = page.evaluate(_NOTEBOOK_STATE)
    assert before == {
        "active": TREE_CELL,
        "mode": "command",
        "cells": ["markdown", "code", "code", "code"],
    }

    # ↓ moves within the tree; JupyterLab's command mode would move the active cell.
    page.keyboard.press("ArrowDown")
    page.wait_for_function(f"() => ({_FOCUSED})() === 'acme.nodes.Web'")
    page.keyboard.press("ArrowDown")
    page.wait_for_function(f"() => ({_FOCUSED})() === 'data types'")
    page.keyboard.press("ArrowUp")
    page.wait_for_function(f"() => ({_FOCUSED})() === 'acme.nodes.Web'")
    assert page.evaluate(_NOTEBOOK_STATE) == before
    # Enter selects the focused type; in command mode it would edit the cell.
    page.keyboard.press("Enter")
    expect(tree.locator("li[aria-selected=true]")).to_have_attribute("data-name", "acme.nodes.Web")
    expect(item).to_have_attribute("aria-selected", "false")
    # The notebook's stored output follows (toskit.widgets.snapshot): its
    # text/html, what a saved notebook shows, now has acme.nodes.Web selected.
    page.wait_for_function(_SNAPSHOT_SELECTS, arg="acme.nodes.Web")
    expect(tree.locator("li[aria-selected=true]")).to_have_attribute("data-name", "acme.nodes.Web")
    page.keyboard.press("End")
    page.wait_for_function(f"() => ({_FOCUSED})() === 'acme.datatypes.Endpoint'")
    assert page.evaluate(_NOTEBOOK_STATE) == before
    # Keys the tree does not use stay in it too: in command mode D D deletes
    # the cell, X cuts it, A and B insert cells, M makes it Markdown.
    for key in ["d", "d", "x", "a", "b", "m", "Shift+Enter"]:
        page.keyboard.press(key)
    assert page.evaluate(_NOTEBOOK_STATE) == before
    assert page.locator(".jp-Notebook.jp-mod-editMode").count() == 0
    page.keyboard.press("Home")  # and the tree still has the focus
    page.wait_for_function(f"() => ({_FOCUSED})() === 'node types'")
    page.screenshot(path=str(artifacts_dir / "lab-keyboard.png"))
