"""Browser check in JupyterLab (issue 35 item 4): a ``file:line`` link inside a
live widget opens the file in JupyterLab's editor at that line.

A notebook beside ``examples/shop.yaml`` (a template with one finding, a
string where an integer belongs, on line 14) runs cells that show a
``PropertyExplorer``, the static view of the template's diagnostics through
``toskit.widgets.explore`` (a ``StaticView``), a ``TemplateExplorer`` and
the topology explorer (its details of the node clicked).
Clicking the finding's location *inside the live widget* must open
``examples/shop.yaml`` in a file editor tab with the cursor on line 14
(the editor's cursor and the status bar's "Ln 14"), without reloading the
JupyterLab page (a marker set on ``window`` before the click is still there
after it). The widgets show their views as rendered outputs
(``toskit.widgets.rendered.RenderedHTML``), where JupyterLab's link handler
takes the links over; in an ``ipywidgets.HTML`` the same click did nothing.
The type links of a ``TemplateExplorer`` (followed by its ``TypeTree``)
still work inside that output. In Voila (outside JupyterLab) the same link
is followed in a new tab, and the dashboard stays.

Every wait is for a condition, never a fixed sleep. Screenshots of the
widgets before the click and of the opened file, light and dark:
``test-artifacts/widget-links-*.png``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from lab_server import serve_lab
from voila_server import serve_voila

from conftest import guarded_page

pytestmark = pytest.mark.browser

NOTEBOOK = "links.ipynb"
FINDING_LINE = 23  # 1-based: "port: eighty" below
ADDRESS_LINE = 4  # where acme.datatypes.Address is written
SHOP_YAML = """\
tosca_definitions_version: tosca_simple_yaml_1_3

data_types:
  acme.datatypes.Address:
    derived_from: tosca.datatypes.Root
    properties:
      host: {type: string}
  acme.datatypes.Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      address: {type: acme.datatypes.Address}
node_types:
  acme.nodes.Web:
    derived_from: tosca.nodes.Root
    properties:
      port: {type: integer, default: 80}
      endpoint: {type: acme.datatypes.Endpoint, required: false}
topology_template:
  node_templates:
    web:
      type: acme.nodes.Web
      properties:
        port: eighty
"""
assert SHOP_YAML.splitlines()[FINDING_LINE - 1].strip() == "port: eighty"
assert SHOP_YAML.splitlines()[ADDRESS_LINE - 1].strip() == "acme.datatypes.Address:"

CELLS = [
    "import toskit\nfrom toskit.widgets import PropertyExplorer, explore\n"
    'st = toskit.load("examples/shop.yaml")',
    'explorer = PropertyExplorer(st, node="web")\nexplorer.add_class("links-explorer")\nexplorer',
    'findings = explore(st.diagnostics)\nfindings.add_class("links-static")\nfindings',
    'both = explore(st)\nboth.add_class("links-template")\nboth',
    'topo = explore(st.topology())\ntopo.add_class("links-topology")\ntopo',
    # A user's own ipywidgets.HTML with a toskit view: not a rendered output.
    "import ipywidgets\nfrom toskit.display import to_html\n"
    'plain = ipywidgets.HTML(to_html(st.diagnostics))\nplain.add_class("links-plain")\nplain',
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The notebook beside ``examples/shop.yaml``."""
    folder = tmp_path_factory.mktemp("widget-links")
    (folder / "examples").mkdir()
    (folder / "examples" / "shop.yaml").write_text(SHOP_YAML, encoding="utf-8")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    nbformat.write(nb, folder / NOTEBOOK)
    return folder


@pytest.fixture(scope="module")
def lab(
    folder: Path, tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path
) -> Iterator[tuple[str, str, Path]]:
    home = tmp_path_factory.mktemp("widget-links-home")
    # Every cell rendered (no windowing): the widgets below the fold are in the page.
    tracker = home / "lab-settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True, exist_ok=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    with serve_lab(folder, home, artifacts_dir / "lab-widget-links.log") as (base, token):
        yield base, token, folder


@pytest.fixture
def lab_page(browser, lab, request: pytest.FixtureRequest) -> Iterator[object]:
    base, _, _ = lab
    with guarded_page(browser, base, request) as page:
        page.set_viewport_size({"width": 1280, "height": 900})
        yield page


_LOADED = """(path) => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    return Boolean(panel && panel.context && panel.context.path === path && panel.context.isReady
        && panel.sessionContext && panel.sessionContext.session?.kernel?.status === 'idle');
}"""
# The widget in front: a file editor on ``path``, and where its cursor is.
_EDITOR = """() => {
    const widget = window.jupyterapp.shell.currentWidget;
    const editor = widget && widget.content && widget.content.editor;
    if (!widget || !widget.context || !editor || !editor.getCursorPosition) return null;
    return {path: widget.context.path, line: editor.getCursorPosition().line,
            isEditor: widget.hasClass('jp-FileEditor') || widget.content.hasClass('jp-FileEditor')};
}"""


def _run_notebook(page, lab, theme: str) -> None:
    base, token, _ = lab
    # ?reset: a fresh workspace (no file editor an earlier test left open).
    page.goto(f"{base}/lab/tree/{NOTEBOOK}?reset&token={token}", wait_until="domcontentloaded")
    page.wait_for_function(_LOADED, arg=NOTEBOOK)
    # The theme is a user setting, kept across the tests of the module: set it each time.
    name = "JupyterLab Dark" if theme == "dark" else "JupyterLab Light"
    page.evaluate(
        "(theme) => window.jupyterapp.commands.execute('apputils:change-theme', {theme})", name
    )
    page.wait_for_function(
        "(light) => document.body.dataset.jpThemeLight === light",
        arg="false" if theme == "dark" else "true",
    )
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    # A marker that a reload of the page would lose.
    page.evaluate("() => { window.__toskitNoReload = 'still here'; }")


def _file_link(view, line: int) -> object:
    """The first visible link to ``examples/shop.yaml`` at ``line`` in ``view``
    (a property row's stack of layers holds more, collapsed)."""
    return (
        view.locator("a.toskit-file-link", has_text=f"examples/shop.yaml:{line}")
        .filter(visible=True)
        .first
    )


def _click_opens_the_file(page, link, line: int = FINDING_LINE) -> None:
    """Click ``link`` (a file link inside a live widget): the file opens in an
    editor at ``line`` (1-based) and the page is not reloaded."""
    from playwright.sync_api import expect

    expect(link).to_be_visible()
    # JupyterLab took the link over: its href now points at the file's /files/ URL.
    expect(link).to_have_attribute(
        "href", re.compile(rf"/files/examples/shop\.yaml(\?[^#]*)?#line={line - 1}$")
    )
    link.click()
    page.wait_for_function(
        f"() => {{ const e = ({_EDITOR})(); return e && e.path === 'examples/shop.yaml'"
        f" && e.line === {line - 1}; }}"
    )
    state = page.evaluate(_EDITOR)
    assert state == {"path": "examples/shop.yaml", "line": line - 1, "isEditor": True}
    # The status bar says so too (its line-column item counts from 1).
    status = page.locator(".jp-StatusBar-Widget", has_text=f"Ln {line},")
    expect(status.first).to_be_visible()
    assert page.evaluate("() => window.__toskitNoReload") == "still here"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_file_link_in_a_property_explorer_opens_the_file_at_its_line(
    lab_page, lab, artifacts_dir: Path, theme: str
) -> None:
    from playwright.sync_api import expect

    page = lab_page
    _run_notebook(page, lab, theme)
    explorer = page.locator(".links-explorer")
    view = explorer.locator(".toskit-explorer-view")
    expect(view).to_contain_text("expected integer")
    # The view is a rendered output inside the widget, styled by its own sheet.
    expect(view.locator(".jp-OutputArea-output .toskit-wrap").first).to_be_visible()
    explorer.screenshot(path=str(artifacts_dir / f"widget-links-explorer-{theme}.png"))
    # The controls around the links still work: a row's path selects whole on
    # a click (the view's stylesheet is kept), "export CSV" is a download.
    copy = view.locator(".toskit-copy").filter(visible=True).first
    assert copy.evaluate("(el) => getComputedStyle(el).userSelect") == "all"
    copy.click()
    assert page.evaluate("() => String(window.getSelection())") == "port"
    expect(explorer.locator("a.toskit-export")).to_have_attribute(
        "href", re.compile(r"^data:text/csv;base64,")
    )
    _click_opens_the_file(page, _file_link(view, FINDING_LINE))
    page.screenshot(path=str(artifacts_dir / f"widget-links-opened-{theme}.png"))


def test_a_file_link_in_a_static_view_opens_the_file_at_its_line(
    lab_page, lab, artifacts_dir: Path
) -> None:
    from playwright.sync_api import expect

    page = lab_page
    _run_notebook(page, lab, "light")
    view = page.locator(".links-static")
    expect(view).to_contain_text("type-mismatch")
    view.screenshot(path=str(artifacts_dir / "widget-links-static-light.png"))
    _click_opens_the_file(page, _file_link(view, FINDING_LINE))


def test_a_file_link_in_the_topology_explorers_details_opens_the_file(
    lab_page, lab, artifacts_dir: Path
) -> None:
    from playwright.sync_api import expect

    page = lab_page
    _run_notebook(page, lab, "dark")
    topo = page.locator(".links-topology")
    # Click the node in the drawing: its details (a PropertyExplorer) show its finding.
    topo.locator('g.toskit-t-node[data-node="web"]').click()
    expect(topo.locator("g.toskit-t-node.toskit-t-selected")).to_have_attribute("data-node", "web")
    view = topo.locator(".toskit-explorer-view")
    expect(view).to_contain_text("expected integer")
    topo.screenshot(path=str(artifacts_dir / "widget-links-topology-dark.png"))
    _click_opens_the_file(page, _file_link(view, FINDING_LINE))


def test_type_links_and_file_links_in_a_template_explorer(
    lab_page, lab, artifacts_dir: Path
) -> None:
    from playwright.sync_api import expect

    page = lab_page
    _run_notebook(page, lab, "light")
    both = page.locator(".links-template")
    view = both.locator(".toskit-explorer-view")
    tree = both.locator(".toskit-typetree")
    expect(view).to_contain_text("expected integer")
    tree.locator('.toskit-tree-button:text-is("acme.datatypes.Endpoint")').click()
    expect(view).to_contain_text("0 node templates of this type")
    # A type name in the explorer's table selects that type in the tree beside
    # it: the click bubbles out of the rendered output to the tree's listener.
    view.locator('.toskit-type-link[data-toskit-type="acme.datatypes.Address"]').first.click()
    expect(tree.locator(".toskit-tree-button.toskit-selected")).to_have_text(
        "acme.datatypes.Address"
    )
    expect(view).to_contain_text("type acme.datatypes.Address")
    both.screenshot(path=str(artifacts_dir / "widget-links-template-light.png"))
    # Where the type is written: a file link of the type's view.
    _click_opens_the_file(page, _file_link(view, ADDRESS_LINE), ADDRESS_LINE)


def test_outside_jupyterlab_the_browser_follows_the_link(
    browser, folder: Path, artifacts_dir: Path, request: pytest.FixtureRequest
) -> None:
    """In Voila (a page with a ``.jp-LabShell`` too, but no document to lose)
    the same link is followed: a new tab asks Voila for the file (Voila
    serves it if its ``file_allowlist`` allows; by default it answers 403),
    and the dashboard stays as it was."""
    from playwright.sync_api import expect

    with (
        serve_voila(folder, artifacts_dir / "voila-widget-links.log") as base,
        guarded_page(browser, base, request) as page,
    ):
        page.goto(f"{base}/voila/render/{NOTEBOOK}", wait_until="domcontentloaded")
        page.wait_for_selector("#rendered_cells", state="visible", timeout=120_000)
        view = page.locator(".links-explorer .toskit-explorer-view")
        expect(view).to_contain_text("expected integer")
        page.evaluate("() => { window.__toskitNoReload = 'still here'; }")
        shown = page.url
        with page.expect_popup() as opened:
            _file_link(view, FINDING_LINE).click()
        tab = opened.value
        assert re.search(
            rf"/files/examples/shop\.yaml(\?[^#]*)?#line={FINDING_LINE - 1}$", tab.url
        ), tab.url
        assert page.url == shown
        assert page.evaluate("() => window.__toskitNoReload") == "still here"


def test_a_file_link_in_a_users_own_html_widget_does_not_reload_jupyterlab(
    lab_page, lab, artifacts_dir: Path
) -> None:
    """JupyterLab does not take over a link in an ``ipywidgets.HTML``; the
    link's handler stops the browser from following its relative ``href``
    (which would reload JupyterLab at ``/lab/tree/examples/shop.yaml``)."""
    from playwright.sync_api import expect

    page = lab_page
    _run_notebook(page, lab, "light")
    plain = page.locator(".links-plain")
    expect(plain).to_contain_text("type-mismatch")
    link = _file_link(plain, FINDING_LINE)
    expect(link).to_have_attribute("href", f"examples/shop.yaml#line={FINDING_LINE - 1}")
    link.click()
    # Then a link that does open the file: had the first click navigated, the
    # page (and the marker _click_opens_the_file looks for) would be gone.
    _click_opens_the_file(page, _file_link(page.locator(".links-static"), FINDING_LINE))
