"""Browser checks: every tutorial renders in Voila, in a real Chromium.

Each notebook in ``notebooks/`` is executed by Voila and rendered by
Chromium, in the light and the dark theme. A notebook passes when every
cell was rendered (Voila stops at the first failing cell) and no output
shows a Python error or a widget that failed to display. A full-page
screenshot of each is saved to ``test-artifacts/<notebook>-<theme>.png``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"
NOTEBOOK_FILES = sorted(NOTEBOOKS.glob("[0-9][0-9]-*.ipynb"))
RENDER_TIMEOUT_MS = 120_000
MAX_SCREENSHOT_HEIGHT = 16_000

# A Python error reaches the reader as a traceback on stderr; Voila and the
# widget manager report their own failures as text in the page.
_STDERR_ERROR = re.compile(r"Traceback \(most recent call last\)|^\w+(Error|Exception): ", re.MULTILINE)
_PAGE_ERROR = re.compile(
    r"There was an error when executing cell|Error (displaying|rendering) (the )?widget"
)


def open_notebook(page, voila_url: str, name: str, theme: str = "light") -> None:
    """Render ``notebooks/<name>`` in Voila and wait until every cell has run."""
    page.goto(f"{voila_url}/voila/render/{name}?theme={theme}", wait_until="domcontentloaded")
    # Voila reveals #rendered_cells only once the whole notebook has executed.
    page.wait_for_selector("#rendered_cells", state="visible", timeout=RENDER_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")


def full_screenshot(page, path: Path) -> None:
    """Screenshot the whole notebook, not just the viewport.

    Voila scrolls inside ``#rendered_cells``, so Playwright's ``full_page``
    sees one screen only: grow the viewport to the content first (bounded).
    """
    height = page.evaluate(
        "() => Math.max(document.body.scrollHeight,"
        " document.querySelector('#rendered_cells')?.scrollHeight ?? 0)"
    )
    width = page.viewport_size["width"]
    page.set_viewport_size({"width": width, "height": min(max(height, 600), MAX_SCREENSHOT_HEIGHT)})
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": width, "height": 900})


def python_errors(page) -> list[str]:
    """Texts of the outputs on the page that show a Python error."""
    stderr = page.locator('[data-mime-type="application/vnd.jupyter.stderr"]').all_inner_texts()
    found = [text for text in stderr if _STDERR_ERROR.search(text)]
    body = page.locator("body").inner_text()
    found += [line for line in body.splitlines() if _PAGE_ERROR.search(line)]
    return [text.strip()[:500] for text in found]


def rendered_cell_count(page) -> int:
    return page.locator("#rendered_cells [cell-index]").count()


def test_there_are_tutorials_to_check() -> None:
    assert [p.name for p in NOTEBOOK_FILES][:1] == ["00-tour.ipynb"]


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("notebook", NOTEBOOK_FILES, ids=lambda p: p.stem)
def test_notebook_renders_without_python_error(
    page, voila_url: str, notebook: Path, theme: str, artifacts_dir: Path
) -> None:
    open_notebook(page, voila_url, notebook.name, theme)
    full_screenshot(page, artifacts_dir / f"{notebook.stem}-{theme}.png")

    assert page.evaluate("document.body.dataset.jpThemeLight") == str(theme == "light").lower()
    assert python_errors(page) == []
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    assert rendered_cell_count(page) == len(cells)


# -- the widgets of the tour respond to clicks --------------------------------
# The tour tags its widgets with classes (``tour-type-tree``,
# ``tour-property-explorer``, ``tour-simulator``) so these selectors do not
# depend on where the widgets sit on the page.

MULTINODE_WARNING = "Multi-node environment cannot have more than one controller node."


def test_clicking_a_type_in_the_tree_changes_the_property_explorer(page, voila_url: str) -> None:
    from playwright.sync_api import expect

    open_notebook(page, voila_url, "00-tour.ipynb")
    tree = page.locator(".tour-type-tree")
    explorer = page.locator(".tour-property-explorer .widget-html-content")
    expect(explorer).to_contain_text("connection.endpoint.port")  # node template 'db'
    before = explorer.inner_text()

    # Exactly "Endpoint" (the user data type), not tosca.capabilities.Endpoint.
    tree.locator('button.toskit-tree-button:text-is("Endpoint")').click()

    expect(tree.locator("button.toskit-selected")).to_have_text("Endpoint")
    expect(explorer).not_to_contain_text("connection.endpoint.port")
    expect(explorer).to_contain_text("Endpoint")
    assert explorer.inner_text() != before
    page.locator(".tour-type-tree, .tour-property-explorer").first.locator("xpath=..").screenshot(
        path=str(ARTIFACTS / "00-tour-explorer-endpoint.png")
    )


def test_selecting_a_second_controller_node_blocks_the_controller_role(page, voila_url: str) -> None:
    from playwright.sync_api import expect

    open_notebook(page, voila_url, "00-tour.ipynb")
    simulator = page.locator(".tour-simulator")
    outcomes = simulator.locator(".widget-html-content")
    controller_row = outcomes.locator("tr", has_text="controller").first
    expect(controller_row).to_contain_text("allowed", ignore_case=True)
    expect(outcomes).not_to_contain_text(MULTINODE_WARNING)

    nodes = simulator.locator(".widget-select-multiple", has_text="selected nodes").locator("select")
    pool_nodes = nodes.evaluate(
        "select => Array.from(select.options).map(o => o.value).filter(v => /^1[12] /.test(v))"
    )
    assert len(pool_nodes) == 2
    nodes.select_option(value=pool_nodes)  # node 11 was selected; add node 12

    expect(controller_row).to_contain_text("blocked", ignore_case=True)
    expect(controller_row).to_contain_text(MULTINODE_WARNING)
    simulator.screenshot(path=str(ARTIFACTS / "00-tour-simulator-blocked.png"))

    nodes.select_option(value=pool_nodes[:1])  # back to one node: allowed again
    expect(controller_row).to_contain_text("allowed", ignore_case=True)
    expect(outcomes).not_to_contain_text(MULTINODE_WARNING)


# The error detector itself must be able to fail: feed it the markup Voila
# produces for a failing cell and for a healthy one.
_FAILING_CELL = """
<div class="jp-OutputArea-output" data-mime-type="application/vnd.jupyter.stderr"><pre>
<span class="ansi-red-fg">ZeroDivisionError</span>   Traceback (most recent call last)
<span class="ansi-red-fg">ZeroDivisionError</span>: division by zero</pre></div>
"""
_HEALTHY_CELLS = """
<div class="jp-OutputArea-output" data-mime-type="text/plain"><pre>error[type-mismatch]: expected an integer</pre></div>
<div class="jp-OutputArea-output" data-mime-type="application/vnd.jupyter.stderr"><pre>UserWarning: careful</pre></div>
"""


@pytest.mark.parametrize(
    ("markup", "expected_errors"),
    [
        pytest.param(_FAILING_CELL, 1, id="traceback"),
        pytest.param(_HEALTHY_CELLS, 0, id="diagnostic-text-and-warning"),
        pytest.param('<div class="jupyter-widgets">Error displaying widget: model not found</div>', 1, id="broken-widget"),
    ],
)
def test_error_detector(browser, markup: str, expected_errors: int) -> None:
    page = browser.new_page()
    try:
        page.set_content(f"<html><body>{markup}</body></html>")
        assert len(python_errors(page)) == expected_errors
    finally:
        page.close()
