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
_STDERR_ERROR = re.compile(
    r"Traceback \(most recent call last\)|^\w+(Error|Exception): ", re.MULTILINE
)
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


# -- accessibility: axe-core (vendored, see tests/browser/axe/README.md) --------

AXE = Path(__file__).parent / "axe" / "axe.min.js"
# What the readers of a view see: every output area (ours and the widgets'),
# not Voila's own page chrome.
AXE_SCOPE = ".jp-OutputArea-output, .toskit-root, .toskit-page-main"
# Table rows as they look under the pointer: the hover rule applied to every row.
_HOVER_ALL = """
.toskit-wrap .toskit-table tr td { background: var(--toskit-bg-hover) !important; }
.toskit-wrap .toskit-tree summary, .toskit-wrap .toskit-tree .toskit-leaf { background: var(--toskit-bg-hover) !important; }
"""


def axe_violations(page, scope: str = AXE_SCOPE) -> list[dict]:
    """Serious and critical WCAG 2 A/AA violations inside ``scope``, at rest
    and with every table row hovered (each as ``{id, impact, help, nodes}``)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    script = """async (scope) => {
        const targets = Array.from(document.querySelectorAll(scope));
        if (!targets.length) return [];
        const result = await axe.run(targets, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}, resultTypes: ['violations']});
        return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.join(' '), summary: n.failureSummary, html: n.html.slice(0, 200)})),
        }));
    }"""
    found = page.evaluate(script, scope)
    page.add_style_tag(content=_HOVER_ALL)
    hovered = page.evaluate(script, scope)
    for v in hovered:
        v["id"] += " (hovered)"
    return found + hovered


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

    violations = axe_violations(page)
    (artifacts_dir / f"{notebook.stem}-{theme}-axe.json").write_text(
        json.dumps(violations, indent=1)
    )
    assert violations == [], json.dumps(violations, indent=1)[:3000]


# -- the widgets of the tour respond to clicks --------------------------------
# The tour tags its widgets with classes (``tour-type-tree``,
# ``tour-property-explorer``, ``tour-simulator``) so these selectors do not
# depend on where the widgets sit on the page.

MULTINODE_WARNING = "Multi-node environment cannot have more than one controller node."


def test_clicking_a_type_in_the_tree_changes_the_property_explorer(page, voila_url: str) -> None:
    from playwright.sync_api import expect

    open_notebook(page, voila_url, "00-tour.ipynb")
    tree = page.locator(".tour-type-tree")
    # The explorer's own view (a direct child, a rendered output: toskit.widgets.rendered;
    # its pickers row holds an HTML widget, the "export CSV" link).
    explorer = page.locator(".tour-property-explorer > .toskit-explorer-view")
    expect(explorer).to_contain_text("connection.endpoint.port")  # node template 'db'
    before = explorer.inner_text()

    # Exactly "Endpoint" (the user data type), not tosca.capabilities.Endpoint.
    tree.locator('.toskit-tree-button:text-is("Endpoint")').click()

    expect(tree.locator(".toskit-tree-button.toskit-selected")).to_have_text("Endpoint")
    expect(explorer).not_to_contain_text("connection.endpoint.port")
    expect(explorer).to_contain_text("Endpoint")
    assert explorer.inner_text() != before
    # One selection: the type's view is on screen, so no node is in the dropdown,
    # and the explorer says which node template uses the data type.
    dropdown = page.locator(".tour-property-explorer select").first
    expect(dropdown).to_have_value("")
    expect(explorer).to_contain_text("used by db (connection.endpoint)")
    # Picking a node moves the tree's selection to its type.
    # The picker's entries carry their finding counts ("db — 1 error"): pick by label.
    db_label = dropdown.locator("option", has_text=re.compile(r"^db\b")).first.inner_text()
    dropdown.select_option(label=db_label)
    expect(tree.locator(".toskit-tree-button.toskit-selected")).to_have_text("DatabaseService")
    expect(explorer).to_contain_text("connection.endpoint.port")

    # The keyboard drives the tree, and no key reaches the page around it.
    page.evaluate(
        "() => { window.__leaked = []; document.addEventListener('keydown', e => window.__leaked.push(e.key)); }"
    )
    tree.locator("li[aria-selected=true]").focus()
    page.keyboard.press("ArrowUp")  # DatabaseService's parent
    page.keyboard.press("Enter")
    expect(tree.locator(".toskit-tree-button.toskit-selected")).to_have_text("tosca.nodes.DBMS")
    assert page.evaluate("() => document.activeElement.closest('.tour-type-tree') !== null")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.__leaked") == []
    expect(tree.locator(".toskit-tree-button.toskit-selected")).to_have_text("DatabaseService")
    page.locator(".tour-type-tree, .tour-property-explorer").first.locator("xpath=..").screenshot(
        path=str(ARTIFACTS / "00-tour-explorer-endpoint.png")
    )


def test_selecting_a_second_controller_node_blocks_the_controller_role(
    page, voila_url: str
) -> None:
    from playwright.sync_api import expect

    open_notebook(page, voila_url, "00-tour.ipynb")
    simulator = page.locator(".tour-simulator")
    outcomes = simulator.locator(".toskit-sim-view")  # the outcomes (not the export link)
    controller_row = outcomes.locator("tr", has_text="controller").first
    expect(controller_row).to_contain_text("allowed", ignore_case=True)
    expect(outcomes).not_to_contain_text(MULTINODE_WARNING)

    nodes = simulator.locator(".widget-select-multiple", has_text="selected nodes").locator(
        "select"
    )
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
        pytest.param(
            '<div class="jupyter-widgets">Error displaying widget: model not found</div>',
            1,
            id="broken-widget",
        ),
    ],
)
def test_error_detector(browser, markup: str, expected_errors: int) -> None:
    page = browser.new_page()
    try:
        page.set_content(f"<html><body>{markup}</body></html>")
        assert len(python_errors(page)) == expected_errors
    finally:
        page.close()


# -- the TypeTree module in Chromium, driven without a kernel ----------------
# The ES module is mounted on a stand-in model (what anywidget gives it):
# keyboard, ARIA roles, expand/collapse all and selection are checked in a
# real browser, and a listener on the document proves no key leaks out.

_MOUNT = """async ({esm, css, state}) => {
    const handlers = {};
    window.__saves = 0;
    window.__leaked = [];
    document.addEventListener('keydown', (e) => window.__leaked.push(e.key));
    const model = {
        get: (k) => state[k],
        set: (k, v) => { state[k] = v; (handlers['change:' + k] || []).forEach((f) => f()); },
        save_changes: () => { window.__saves += 1; },
        on: (n, f) => { (handlers[n] = handlers[n] || []).push(f); },
        off: () => {},
    };
    window.__model = model;
    const style = document.createElement('style');
    style.textContent = css;
    document.head.append(style);
    const mod = await import(URL.createObjectURL(new Blob([esm], {type: 'text/javascript'})));
    const host = document.createElement('div');
    host.id = 'host';
    document.body.append(host);
    mod.default.render({model, el: host});
}"""

TREE_YAML = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  acme.datatypes.Endpoint:
    derived_from: tosca.datatypes.Root
    properties: {port: {type: integer}}
  acme.datatypes.TlsEndpoint:
    derived_from: acme.datatypes.Endpoint
    properties: {secret_ref: {type: string}}
node_types:
  acme.nodes.Web:
    derived_from: tosca.nodes.Root
    properties: {endpoint: {type: acme.datatypes.TlsEndpoint}}
topology_template:
  node_templates:
    db: {type: acme.nodes.Web}
"""


@pytest.fixture
def tree_page(browser):
    import toskit
    from toskit.widgets import TypeTree

    widget = TypeTree(toskit.loads(TREE_YAML))
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    page.set_content(
        "<html lang='en'><head><title>tree</title></head><body data-jp-theme-light='true'></body></html>"
    )
    state = {"tree": widget.tree, "selected": None, "filter": "", "show_normative": False}
    page.evaluate(_MOUNT, {"esm": widget._esm, "css": widget._css, "state": state})
    try:
        yield page, widget
    finally:
        page.close()


def _focused_name(page) -> str:
    return page.evaluate(
        "() => { const li = document.activeElement.closest('li[role=treeitem]');"
        " return li ? (li.dataset.name || li.querySelector('.toskit-tree-group-label').textContent) : null; }"
    )


def test_tree_has_aria_roles_and_user_types_first(tree_page) -> None:
    page, _ = tree_page
    assert page.locator("ul[role=tree]").count() == 1
    groups = page.locator(
        "ul[role=tree] > li[role=treeitem] .toskit-tree-group-label"
    ).all_inner_texts()
    assert groups[:2] == ["node types", "data types"]  # kinds with user types first
    names = page.locator("li[role=treeitem][data-name]").evaluate_all(
        "els => els.map(e => e.dataset.name)"
    )
    # Normative types are hidden; their ancestors of user types stay as context.
    assert names == [
        "tosca.nodes.Root", "acme.nodes.Web",
        "tosca.datatypes.Root", "acme.datatypes.Endpoint", "acme.datatypes.TlsEndpoint",
    ]  # fmt: skip
    assert page.locator("li[role=treeitem][aria-expanded]").count() >= 5
    assert page.locator("li[aria-selected=true]").count() == 0


def test_tree_keyboard_stays_inside_the_widget(tree_page) -> None:
    page, _ = tree_page
    page.locator("li[role=treeitem]").first.focus()
    assert _focused_name(page) == "node types"
    page.keyboard.press("ArrowDown")
    assert _focused_name(page) == "tosca.nodes.Root"
    page.keyboard.press("ArrowDown")
    assert _focused_name(page) == "acme.nodes.Web"
    page.keyboard.press("ArrowLeft")  # a leaf: to its parent
    assert _focused_name(page) == "tosca.nodes.Root"
    page.keyboard.press("ArrowLeft")  # open branch: closes it
    assert (
        page.locator("li[data-name='tosca.nodes.Root']").get_attribute("aria-expanded") == "false"
    )
    page.keyboard.press("ArrowDown")  # acme.nodes.Web is hidden now
    assert _focused_name(page) == "data types"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")  # opens again
    assert page.locator("li[data-name='tosca.nodes.Root']").get_attribute("aria-expanded") == "true"
    page.keyboard.press("ArrowRight")  # open: to the first child
    assert _focused_name(page) == "acme.nodes.Web"
    page.keyboard.press("End")
    assert _focused_name(page) == "acme.datatypes.TlsEndpoint"
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.__model.get('selected')") == "acme.datatypes.TlsEndpoint"
    assert (
        page.locator("li[aria-selected=true]").get_attribute("data-name")
        == "acme.datatypes.TlsEndpoint"
    )
    page.keyboard.press("Home")
    assert _focused_name(page) == "node types"
    # Not one of those keys reached the document (JupyterLab listens there).
    assert page.evaluate("() => window.__leaked") == []
    page.locator(".toskit-tree-filter").press("ArrowDown")
    assert page.evaluate("() => window.__leaked") == []


def test_tree_expand_and_collapse_all_and_click_selects(tree_page) -> None:
    page, widget = tree_page
    page.get_by_role("button", name="collapse all").click()
    assert page.locator("li[aria-expanded=true]").count() == 0
    assert page.locator("li[data-name='acme.nodes.Web']").is_hidden()
    page.get_by_role("button", name="expand all").click()
    assert page.locator("li[aria-expanded=false]").count() == 0
    page.locator("li[data-name='acme.datatypes.Endpoint'] > .toskit-tree-row").click()
    assert page.evaluate("() => window.__model.get('selected')") == "acme.datatypes.Endpoint"
    assert _focused_name(page) == "acme.datatypes.Endpoint"
    # The normative box asks Python for the whole forest.
    page.locator("input.toskit-tree-normative").check()
    assert page.evaluate("() => window.__model.get('show_normative')") is True
    widget.show_normative = True
    page.evaluate("(tree) => window.__model.set('tree', tree)", widget.tree)
    assert page.locator("li[data-name='tosca.nodes.Compute']").count() == 1
    assert (
        page.locator("li[aria-selected=true]").get_attribute("data-name")
        == "acme.datatypes.Endpoint"
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_tree_widget_passes_axe(tree_page, theme: str) -> None:
    page, _ = tree_page
    page.evaluate(
        "(light) => document.body.dataset.jpThemeLight = light",
        "true" if theme == "light" else "false",
    )
    page.get_by_role("button", name="expand all").click()
    assert axe_violations(page, "#host") == []


# -- a `toskit show` report: links that work without a kernel, and axe ---------


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_report_links_navigate_and_pass_axe(browser, theme: str, artifacts_dir: Path) -> None:
    import toskit
    from toskit.display import render_page

    st = toskit.loads(REPORT_YAML, name="report.yaml")
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    try:
        page.set_content(render_page(st, theme=theme))
        link = page.locator(
            '.toskit-tree a.toskit-type-link:text-is("acme.datatypes.Endpoint")'
        ).first
        link.click()
        assert page.evaluate("() => location.hash") == "#toskit-type-data-acme.datatypes.Endpoint"
        target = page.locator('[id="toskit-type-data-acme.datatypes.Endpoint"]')
        assert target.is_visible()
        assert "in_range [1, 65535]" in target.inner_text()
        assert page.evaluate("() => document.querySelector(':target') !== null")
        page.screenshot(path=str(artifacts_dir / f"report-{theme}.png"), full_page=True)
        assert axe_violations(page, ".toskit-page-main") == []
    finally:
        page.close()


REPORT_YAML = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  acme.datatypes.Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      port: {type: integer, constraints: [{in_range: [1, 65535]}]}
      protocol: {type: string, default: tcp, constraints: [{valid_values: [tcp, udp]}]}
node_types:
  acme.nodes.Web:
    derived_from: tosca.nodes.Root
    properties:
      endpoint: {type: acme.datatypes.Endpoint}
      password: {type: string}
topology_template:
  node_templates:
    web:
      type: acme.nodes.Web
      properties:
        endpoint: {port: "eighty", protocol: http}
        pasword: x
    broken: {type: acme.nodes.Wbe}
"""


def test_explorer_is_not_clipped_at_1000px(page, voila_url: str) -> None:
    """At 1,000 px nothing in the tour's explorer is cut off: whatever is
    wider than its box scrolls (overflow auto/scroll), nothing is hidden."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1000, "height": 900})
    open_notebook(page, voila_url, "00-tour.ipynb")
    explorer = page.locator(".tour-property-explorer > .toskit-explorer-view")
    expect(explorer).to_contain_text("connection.endpoint.port")
    page.locator('.tour-type-tree .toskit-tree-button:text-is("Endpoint")').click()
    expect(explorer).to_contain_text("used by")
    clipped = page.evaluate(
        """() => {
        const out = [];
        for (const root of document.querySelectorAll('.tour-type-tree, .tour-property-explorer')) {
            for (const el of [root, ...root.querySelectorAll('*')]) {
                if (el.scrollWidth <= el.clientWidth + 1) continue;
                const style = getComputedStyle(el);
                if (['auto', 'scroll'].includes(style.overflowX) || style.display === 'inline') continue;
                if (style.overflowX === 'visible' && !el.closest('[style*="hidden"]')) continue;
                out.push(`${el.tagName}.${el.className}: ${el.scrollWidth} > ${el.clientWidth} (${style.overflowX})`);
            }
        }
        return out;
    }"""
    )
    assert clipped == []
    page.locator(".tour-type-tree").locator("xpath=..").screenshot(
        path=str(ARTIFACTS / "00-tour-explorer-1000px.png")
    )


def test_type_names_in_the_explorer_select_that_type(page, voila_url: str) -> None:
    """Every type name in the explorer's tables is a link the tree follows."""
    from playwright.sync_api import expect

    open_notebook(page, voila_url, "00-tour.ipynb")
    tree = page.locator(".tour-type-tree")
    explorer = page.locator(".tour-property-explorer > .toskit-explorer-view")
    tree.locator('.toskit-tree-button:text-is("Connection")').click()
    expect(explorer).to_contain_text("used by db (connection)")
    explorer.locator('.toskit-type-link[data-toskit-type="Endpoint"]').first.click()
    expect(tree.locator(".toskit-tree-button.toskit-selected")).to_have_text("Endpoint")
    expect(explorer).to_contain_text("used by db (connection.endpoint)")
    # The keyboard works too: Enter on a focused link.
    tree.locator('.toskit-tree-button:text-is("Connection")').click()
    link = explorer.locator('.toskit-type-link[data-toskit-type="Auth"]').first
    link.focus()
    page.keyboard.press("Enter")
    expect(tree.locator(".toskit-tree-button.toskit-selected")).to_have_text("Auth")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_service_template_fragment_links_land_on_their_definitions(
    browser, theme: str, artifacts_dir: Path
) -> None:
    """A notebook's service template view, with no kernel and no script: a type
    name in its tree is a link to that type's definition in the same output;
    following it (click, or Enter on the focused link) opens the collapsed
    "Type definitions" section at the type's property table."""
    import toskit

    html = toskit.loads(REPORT_YAML, name="report.yaml")._repr_html_()
    light = "true" if theme == "light" else "false"
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    try:
        # The page a dark JupyterLab gives an output: its layout colour behind it.
        background = "#fff" if theme == "light" else "#111"
        page.set_content(
            f"<html lang='en'><head><title>fragment</title></head>"
            f"<body data-jp-theme-light='{light}' style='background:{background}'>{html}</body></html>"
        )
        target = page.locator('[id="toskit-type-data-acme.datatypes.Endpoint"]')
        assert not target.is_visible()  # in the collapsed section
        link = page.locator(
            '.toskit-tree a.toskit-type-link:text-is("acme.datatypes.Endpoint")'
        ).first
        link.focus()
        page.keyboard.press("Enter")
        assert page.evaluate("() => location.hash") == "#toskit-type-data-acme.datatypes.Endpoint"
        assert target.is_visible()
        assert "in_range [1, 65535]" in target.inner_text()
        page.screenshot(path=str(artifacts_dir / f"fragment-type-link-{theme}.png"))
        assert axe_violations(page, ".toskit-root") == []
    finally:
        page.close()
