"""File links inside the live widgets (issue #35 item 4): every widget view
that shows a ``file:line`` link is a rendered output, where JupyterLab opens
the file at the line (``tests/browser/test_widget_links_lab.py`` clicks it).

An ``ipywidgets.HTML`` is not rendered by JupyterLab: a link in it did
nothing. These tests walk each widget's tree and fail if a file link sits
in an ``ipywidgets.HTML`` again, or if the rendered output loses the view,
its links' ``href`` or its inline handlers."""

from __future__ import annotations

import re
from pathlib import Path

import ipywidgets
import pytest

import toskit
from toskit.display.html import esc
from toskit.display.links import FILE_LINK_ONCLICK
from toskit.widgets import PropertyExplorer, StaticView, explore
from toskit.widgets.rendered import RenderedHTML

SHOP = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  acme.datatypes.Address:
    derived_from: tosca.datatypes.Root
    properties: {host: {type: string}}
node_types:
  acme.nodes.Web:
    derived_from: tosca.nodes.Root
    properties:
      port: {type: integer, default: 80}
      address: {type: acme.datatypes.Address, required: false}
topology_template:
  node_templates:
    web:
      type: acme.nodes.Web
      properties:
        port: eighty
    db:
      type: acme.nodes.Web
      properties:
        port: "8080"
"""
WEB_LINE = 17  # "port: eighty"
DB_LINE = 21  # 'port: "8080"'
HREF = re.compile(r'<a class="toskit-file-link" href="([^"]*)"')


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A template in ``examples/`` under the working directory (the notebook's
    folder in a kernel), with one finding per node template."""
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "shop.yaml").write_text(SHOP, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    st = toskit.load("examples/shop.yaml")
    assert [d.line for d in st.diagnostics] == [WEB_LINE, DB_LINE]
    return st


def _widgets(root):
    out, stack = [], [root]
    while stack:
        widget = stack.pop()
        out.append(widget)
        stack.extend(getattr(widget, "children", ()) or ())
    return out


def _rendered(widget: RenderedHTML) -> str:
    """The one ``text/html`` output the front end renders."""
    assert isinstance(widget, ipywidgets.Output)
    (output,) = widget.outputs
    assert output["output_type"] == "display_data" and set(output["data"]) == {"text/html"}
    return str(output["data"]["text/html"])


def _no_file_link_in_a_plain_html(root) -> list[RenderedHTML]:
    """Every ``ipywidgets.HTML`` under ``root`` is free of file links (there
    JupyterLab would not open them); the rendered outputs under it."""
    for widget in _widgets(root):
        if isinstance(widget, ipywidgets.HTML):
            assert "toskit-file-link" not in widget.value, type(widget).__name__
    return [w for w in _widgets(root) if isinstance(w, RenderedHTML)]


def test_the_property_explorer_shows_its_view_as_one_rendered_output(shop):
    explorer = PropertyExplorer(shop, node="web")
    (view,) = _no_file_link_in_a_plain_html(explorer)
    assert view in explorer.children  # the view itself, beside the pickers
    assert "toskit-explorer-view" in view._dom_classes  # what the browser checks find
    html = _rendered(view)
    assert explorer.html in html and explorer.body_html in html
    # The finding's location links to its file and line, relative to the
    # working directory (the notebook's folder), with its handler kept.
    assert set(HREF.findall(html)) == {f"examples/shop.yaml#line={WEB_LINE - 1}"}
    assert "expected integer" in html
    assert f'onclick="{esc(FILE_LINK_ONCLICK)}"' in html


def test_the_rendered_output_follows_the_explorer(shop):
    explorer = PropertyExplorer(shop, node="web")
    (view,) = _no_file_link_in_a_plain_html(explorer)
    explorer.select("db")
    html = _rendered(view)
    assert set(HREF.findall(html)) == {f"examples/shop.yaml#line={DB_LINE - 1}"}
    explorer.show_overridden = True
    assert explorer.html in _rendered(view)
    # A type's view (no node template of it) is rendered there too: the line
    # where the type is written is a link.
    explorer.show_type("acme.datatypes.Address")
    assert "type acme.datatypes.Address" in _rendered(view)
    assert set(HREF.findall(_rendered(view))) == {"examples/shop.yaml#line=2"}
    # The type links (followed by a linked TypeTree) are kept as written.
    assert 'data-toskit-type="acme.datatypes.Address"' in _rendered(view)


@pytest.mark.parametrize("kind", ["template", "topology"])
def test_the_explorers_around_a_property_explorer_render_its_view(shop, kind):
    widget = explore(shop if kind == "template" else shop.topology())
    views = _no_file_link_in_a_plain_html(widget)
    assert views == [widget.properties._output]
    widget.properties.select("db")
    assert f"examples/shop.yaml#line={DB_LINE - 1}" in HREF.findall(_rendered(views[0]))


def test_a_static_view_is_a_rendered_output_with_the_links(shop):
    widget = explore(shop.diagnostics)
    assert isinstance(widget, StaticView)
    assert _no_file_link_in_a_plain_html(widget) == [widget]
    html = _rendered(widget)
    assert widget.value in html
    assert HREF.findall(html) == [
        f"examples/shop.yaml#line={WEB_LINE - 1}",
        f"examples/shop.yaml#line={DB_LINE - 1}",
    ]
    # A new value is shown at once; an empty one shows nothing at all.
    widget.value = "<b>x</b>"
    assert "<b>x</b>" in _rendered(widget)
    widget.value = ""
    assert widget.outputs == ()


def test_the_saved_widget_state_holds_the_rendered_view(shop):
    """A notebook saved with its widget state reopens with the view drawn from
    that state (the ``outputs`` of the Output model)."""
    explorer = PropertyExplorer(shop, node="web")
    state = explorer._output.get_state()
    assert state["_model_name"] == "OutputModel"
    (output,) = state["outputs"]
    assert f"examples/shop.yaml#line={WEB_LINE - 1}" in output["data"]["text/html"]


def test_the_stored_snapshot_keeps_the_file_links(shop):
    """A saved notebook shows the snapshot (a notebook output, where JupyterLab
    opens the links too); the live widget's links and the snapshot's agree."""
    for widget in (PropertyExplorer(shop, node="web"), explore(shop.diagnostics)):
        bundle = widget._repr_mimebundle_()
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        assert "application/vnd.jupyter.widget-view+json" in data
        snapshot = data["text/html"]
        assert f"examples/shop.yaml#line={WEB_LINE - 1}" in HREF.findall(snapshot)


def test_rendered_html_is_an_output_with_a_value():
    widget = RenderedHTML("<i>a</i>")
    assert widget.value == "<i>a</i>" and "<i>a</i>" in _rendered(widget)
    assert "toskit-rendered-html" in widget._dom_classes
    assert RenderedHTML().outputs == ()


# The handler run as the browser runs an inline one: ``this`` the link, a
# ``document`` with or without JupyterLab's shell and Voila's body mark.
_RUN_HANDLER = """
const [handler, shell, voila, href] = JSON.parse(process.argv[1]);
globalThis.document = {
  querySelector: (sel) => (sel === ".jp-LabShell" && shell ? {} : null),
  body: {dataset: voila ? {voila: "voila"} : {}},
};
const link = {getAttribute: (name) => (name === "href" ? href : null)};
const result = new Function(handler).call(link);
process.stdout.write(String(result));
"""


@pytest.mark.parametrize(
    ("page", "href", "follows"),
    [
        # JupyterLab took the link over (href rewritten): its own click handler opens the file.
        ("lab", "/files/examples/shop.yaml?_xsrf=1#line=22", True),
        # Not taken over (a user's own ipywidgets.HTML): following it would reload JupyterLab.
        ("lab", "examples/shop.yaml#line=22", False),
        ("voila", "examples/shop.yaml#line=22", True),  # Voila: a new tab asks for the file
        ("report", "examples/shop.yaml#line=22", True),  # a page of toskit show
    ],
)
def test_the_file_link_handler_stops_only_a_link_that_would_reload_jupyterlab(page, href, follows):
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    assert node, "node (Node.js) is needed to run the link's inline handler"
    args = [FILE_LINK_ONCLICK, page in ("lab", "voila"), page == "voila", href]
    result = subprocess.run(
        [node, "-e", _RUN_HANDLER, json.dumps(args)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    # An inline handler that returns false cancels the click; anything else lets it through.
    assert (result.stdout != "false") is follows, result.stdout
