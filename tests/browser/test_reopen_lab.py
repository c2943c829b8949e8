"""Browser checks in JupyterLab (issue 35 item 3): notebooks reopen well.

* A stored tutorial, opened and not run, shows its rich views, trusted or
  not. JupyterLab trusts only notebooks the user signed; in an untrusted one
  its sanitizer drops every ``<style>`` (it keeps ``class``, ``hidden`` and
  safe inline styles), which used to leave the plain-text repr
  (``<ServiceTemplate …>``) on screen. The stored outputs are in the form that
  reads without the stylesheet (``toskit.widgets.snapshot.unhidden_view``).
  Trusted is the same file signed with ``jupyter trust`` in the server's data
  folder before it is opened.
* A user's own notebook with a widget, run, saved, closed with its kernel
  shut down and reopened, draws the widget from the state saved with it, not
  "Error displaying widget: model not found": toskit installs the JupyterLab
  default that saves widget state (``share/jupyter/lab/settings/overrides.d/
  toskit.json``, a wheel ``shared-data`` file); the server here reads the
  repository's copy of that folder.

Every wait is for a condition, never a fixed sleep. Screenshots:
``test-artifacts/reopen-*.png``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from lab_server import serve_lab

from conftest import guarded_page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
APP_SETTINGS = ROOT / "share" / "jupyter" / "lab" / "settings"
TUTORIALS = ["00-tour", "03-schema", "04-role-conditions", "07-topology"]
OWN = "own.ipynb"
OWN_YAML = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  acme.nodes.Web:
    derived_from: tosca.nodes.Root
    properties: {port: {type: integer, default: 80}}
topology_template:
  node_templates:
    web: {type: acme.nodes.Web}
"""


def _own_notebook(folder: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import toskit\n"
            f"explorer = toskit.explore(toskit.loads({OWN_YAML!r}))\n"
            'explorer.add_class("own-explorer")\n'
            "explorer"
        )
    ]
    nbformat.write(nb, folder / OWN)


@pytest.fixture(scope="module")
def lab(
    tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path
) -> Iterator[tuple[str, str, Path]]:
    folder = tmp_path_factory.mktemp("reopen-notebooks")
    home = tmp_path_factory.mktemp("reopen-home")
    shutil.copytree(ROOT / "notebooks" / "examples", folder / "examples")
    env = {**os.environ, "JUPYTER_DATA_DIR": str(home / "data")}
    for name in TUTORIALS:
        for trust in ("untrusted", "trusted"):
            # A signature is a digest of the content: the two copies must
            # differ, or signing one would trust both.
            nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
            nb.metadata["toskit_browser_check"] = trust
            nbformat.write(nb, folder / f"{name}-{trust}.ipynb")
        # Signed in the data folder the server reads its signatures from.
        subprocess.run(
            [sys.executable, "-m", "jupyter", "trust", str(folder / f"{name}-trusted.ipynb")],
            env=env,
            check=True,
            capture_output=True,
        )
    _own_notebook(folder)
    # Every cell rendered (no windowing): the check counts every stored view.
    tracker = home / "lab-settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True, exist_ok=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    with serve_lab(folder, home, artifacts_dir / "lab-reopen.log", app_settings=APP_SETTINGS) as (
        base,
        token,
    ):
        yield base, token, folder


@pytest.fixture
def lab_page(browser, lab, request: pytest.FixtureRequest) -> Iterator[object]:
    base, _, _ = lab
    with guarded_page(browser, base, request) as page:
        page.set_viewport_size({"width": 1280, "height": 900})
        yield page


# The current notebook is the one opened and is loaded (its model, all its cells).
_LOADED = """([path, cells]) => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    return Boolean(panel && panel.context && panel.context.path === path && panel.context.isReady
        && panel.content && panel.content.widgets.length >= cells);
}"""
# Per toskit output: is a <style> there, is the view laid out, is the repr?
_OUTPUTS = """() => Array.from(window.jupyterapp.shell.currentWidget.node.querySelectorAll('.jp-OutputArea-output .toskit-root')).map((root) => {
    const view = root.querySelector(':scope > .toskit-wrap');
    const pre = root.querySelector(':scope > .toskit-text-fallback');
    const shown = (el) => Boolean(el) && getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0;
    return {style: Boolean(root.querySelector('style')), view: shown(view),
            repr: shown(pre), text: (view ? view.textContent : '').slice(0, 80)};
})"""


def _open(page, lab, name: str, cells: int = 2) -> None:
    base, token, _ = lab
    # ?reset: a fresh workspace, not the notebooks an earlier test left open.
    page.goto(f"{base}/lab/tree/{name}?reset&token={token}", wait_until="domcontentloaded")
    page.wait_for_function(_LOADED, arg=[name, cells])


@pytest.mark.parametrize("trust", ["untrusted", "trusted"])
@pytest.mark.parametrize("tutorial", TUTORIALS)
def test_a_stored_tutorial_shows_its_views_before_run_all(
    lab_page, lab, artifacts_dir: Path, tutorial: str, trust: str
) -> None:
    page = lab_page
    _open(page, lab, f"{tutorial}-{trust}.ipynb")
    # Every cell is rendered (windowing off, see the fixture): wait for the
    # first toskit view.
    page.wait_for_function(
        "() => window.jupyterapp.shell.currentWidget.node.querySelector('.jp-OutputArea-output .toskit-root')"
    )
    outputs = page.evaluate(_OUTPUTS)
    stored = sum(
        "toskit-root" in "".join(o.get("data", {}).get("text/html", ""))
        for c in nbformat.read(ROOT / "notebooks" / f"{tutorial}.ipynb", 4).cells
        for o in c.get("outputs", [])
    )
    assert len(outputs) == stored > 0
    # Untrusted: the sanitizer dropped every <style>; trusted (the server
    # found the signature): kept, the output rendered as it was stored.
    assert {o["style"] for o in outputs} == {trust == "trusted"}
    # Either way every view is laid out and no plain repr is on screen.
    assert [o for o in outputs if not o["view"] or o["repr"]] == []
    assert all(o["text"].strip() for o in outputs)
    body = page.evaluate("() => window.jupyterapp.shell.currentWidget.node.innerText")
    for plain in (
        "<ServiceTemplate",
        "TemplateExplorer(",
        "ClusterSimulator(",
        "<Schema",
        "<RoleSet",
    ):
        assert plain not in body
    # The first view in sight, for a person to compare the two renderings.
    page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.node"
        ".querySelector('.jp-OutputArea-output .toskit-root').scrollIntoView()"
    )
    page.screenshot(path=str(artifacts_dir / f"reopen-{tutorial}-{trust}.png"))


def test_a_saved_notebook_with_a_widget_reopens_without_model_not_found(
    lab_page, lab, artifacts_dir: Path
) -> None:
    from playwright.sync_api import expect

    page = lab_page
    _, _, folder = lab
    _open(page, lab, OWN, cells=1)
    page.wait_for_function(
        """() => {const k = window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel;
        return Boolean(k && k.status === 'idle');}"""
    )
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    explorer = page.locator(".own-explorer")
    expect(explorer.locator("select").first).to_be_visible()
    expect(explorer).to_contain_text("port")
    # Save, shut the kernel down and close: nothing of the session is left.
    page.evaluate(
        """async () => {
        const panel = window.jupyterapp.shell.currentWidget;
        await panel.context.save();
        await panel.sessionContext.shutdown();
        panel.dispose();
    }"""
    )
    saved = json.loads((folder / OWN).read_text(encoding="utf-8"))
    state = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert any(m["model_name"] == "VBoxModel" for m in state.values())

    _open(page, lab, OWN, cells=1)
    reopened = page.locator(".own-explorer")
    expect(reopened.locator("select").first).to_be_visible()
    expect(reopened).to_contain_text("port")
    # The cell's output area (the explorer's view is an output area inside it).
    expect(page.locator(".jp-Cell-outputArea")).not_to_contain_text("model not found")
    page.screenshot(path=str(artifacts_dir / "reopen-own-notebook.png"))
