"""Widgets carry a static HTML snapshot for stored notebooks (issue #18
item 7): GitHub, nbviewer and an un-run notebook show the views, not
``TemplateExplorer(selected=None, node='db')``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat

import toskit
from toskit.widgets import PropertyExplorer, TypeTree, explore

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "display"))
from htmlcheck import assert_safe, body  # noqa: E402

SERVICE = ROOT / "notebooks" / "examples" / "service.yaml"


def _data(widget):
    bundle = widget._repr_mimebundle_()
    return bundle[0] if isinstance(bundle, tuple) else bundle


def test_template_explorer_bundle_has_the_live_view_and_a_snapshot():
    widget = explore(toskit.load(SERVICE))
    widget.tree.select("Endpoint")
    data = _data(widget)
    assert "application/vnd.jupyter.widget-view+json" in data
    html = data["text/html"]
    assert_safe(html)
    view = body(html)
    assert "a snapshot of the widget as it was displayed" in view
    assert 'class="toskit-user toskit-selected"' in view  # the tree, selection marked
    assert "used by" in view and "connection.endpoint" in view  # the explorer's view
    assert "TemplateExplorer(" not in view


def test_tree_and_explorer_alone_have_snapshots():
    st = toskit.load(SERVICE)
    tree_html = _data(TypeTree(st))["text/html"]
    assert_safe(tree_html)
    assert "DatabaseService" in body(tree_html)
    explorer_html = _data(PropertyExplorer(st, node="db"))["text/html"]
    assert_safe(explorer_html)
    assert "connection.endpoint.port" in body(explorer_html)


def test_build_stores_the_snapshot_instead_of_a_dead_widget_reference():
    spec = importlib.util.spec_from_file_location("nb_build", ROOT / "notebooks" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("explore(st)")
    cell.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"text/plain": "x", "text/html": "<div>snap</div>", build.WIDGET_VIEW: {"model_id": "1"}},
        ),
        nbformat.v4.new_output("display_data", data={"text/plain": "y", build.WIDGET_VIEW: {"model_id": "2"}}),
    ]
    nb.cells = [cell]
    nb.metadata["widgets"] = {"state": {}}
    build.store_snapshots(nb)
    assert set(cell.outputs[0]["data"]) == {"text/plain", "text/html"}
    assert build.WIDGET_VIEW in cell.outputs[1]["data"]  # no snapshot: left alone
    assert "widgets" not in nb.metadata
