"""Widgets carry a static HTML snapshot for stored notebooks (issue #18
item 7): GitHub, nbviewer and an un-run notebook show the views, not
``TemplateExplorer(selected=None, node='db')``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import pytest

import toskit
from toskit.widgets import PropertyExplorer, TypeTree, explore
from toskit.widgets.snapshot import StaticSnapshot

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
            data={
                "text/plain": "x",
                "text/html": "<div>snap</div>",
                build.WIDGET_VIEW: {"model_id": "1"},
            },
        ),
        nbformat.v4.new_output(
            "display_data", data={"text/plain": "y", build.WIDGET_VIEW: {"model_id": "2"}}
        ),
    ]
    nb.cells = [cell]
    nb.metadata["widgets"] = {"state": {}}
    build.store_snapshots(nb)
    assert set(cell.outputs[0]["data"]) == {"text/plain", "text/html"}
    assert build.WIDGET_VIEW in cell.outputs[1]["data"]  # no snapshot: left alone
    assert "widgets" not in nb.metadata


# -- the stored snapshot follows the widget ------------------------------------
# IPython's `display` is replaced by one that records the bundles sent to the
# output (display, then each update_display_data); without an event loop a
# refresh runs at once (the fixture says so, whatever loop is running), and
# `_schedule` is replaced where a test needs timing.


class _Handle:
    def __init__(self, sent: list) -> None:
        self.sent = sent

    def update(self, data, raw=False, metadata=None):
        assert raw
        self.sent.append(("update", data))


@pytest.fixture
def shown(monkeypatch):
    """Display a widget as IPython would; returns the list of bundles sent."""
    import IPython.display

    sent: list = []

    def fake_display(data, raw=False, metadata=None, display_id=None):
        assert raw and display_id is True  # an output that can be updated
        sent.append(("display", data))
        return _Handle(sent)

    monkeypatch.setattr(IPython.display, "display", fake_display)
    # Refresh at once, whatever loop is running: in the whole suite Playwright's
    # sync API leaves one running, and the default would schedule on it.
    monkeypatch.setattr(StaticSnapshot, "_schedule", staticmethod(lambda delay, callback: None))

    def show(widget):
        widget._ipython_display_()
        return sent

    return show


def _html(entry) -> str:
    return body(entry[1]["text/html"])


def test_the_stored_snapshot_follows_the_selection(shown):
    widget = explore(toskit.load(SERVICE))
    sent = shown(widget)
    assert [kind for kind, _ in sent] == ["display"]
    assert "used by" not in _html(sent[0])
    widget.tree.select("Endpoint")
    assert [kind for kind, _ in sent] == ["display", "update"]
    update = sent[-1][1]
    # The live view stays the same widget; the fallback is what it shows now.
    assert update["application/vnd.jupyter.widget-view+json"]["model_id"] == widget.model_id
    view = _html(sent[-1])
    assert 'class="toskit-user toskit-selected"' in view and "used by" in view
    assert_safe(sent[-1][1]["text/html"])
    # Picking a node in the explorer: the snapshot shows that node's table.
    widget.properties.select("db")
    assert "connection.endpoint.port" in _html(sent[-1])
    assert (
        'class="toskit-user toskit-selected"><div class="toskit-leaf"><span class="toskit-node-name">DatabaseService'
        in _html(sent[-1])
    )


def test_a_change_that_leaves_the_view_as_it_was_sends_nothing(shown):
    tree = TypeTree(toskit.load(SERVICE))
    sent = shown(tree)
    tree.layout.width = "300px"  # not in the snapshot
    tree.select(None)  # already nothing selected
    assert len(sent) == 1
    tree.filter = "Endpoint"
    assert len(sent) == 2 and "DatabaseService" not in _html(sent[-1])


def test_a_burst_of_changes_gives_one_update_after_the_delay(shown, monkeypatch):
    scheduled: list = []

    class _Timer:
        def __init__(self, delay, callback):
            self.delay, self.callback, self.cancelled = delay, callback, False
            scheduled.append(self)

        def cancel(self):
            self.cancelled = True

    monkeypatch.setattr(TypeTree, "_schedule", staticmethod(_Timer))
    tree = TypeTree(toskit.load(SERVICE))
    sent = shown(tree)
    for text in ("E", "En", "End", "Endpoint"):  # typing in the filter box
        tree.filter = text
    assert len(sent) == 1  # nothing yet: the widget is busy
    live = [t for t in scheduled if not t.cancelled]
    assert len(live) == 1 and live[0].delay == TypeTree.snapshot_delay
    live[0].callback()
    assert (
        len(sent) == 2
        and "DatabaseService" not in _html(sent[-1])
        and "Endpoint" in _html(sent[-1])
    )


def test_the_simulator_snapshot_follows_the_cluster(shown):
    from toskit import conditions
    from toskit.conditions.examples import SEED_ROLES_YAML
    from toskit.widgets import ClusterSimulator

    sim = ClusterSimulator(
        conditions.load_roles(SEED_ROLES_YAML),
        conditions.Cluster("multinode", nodes=[], pool=[{"id": 11}, {"id": 12}]),
    )
    sent = shown(sim)
    warning = "Multi-node environment cannot have more than one controller node."
    assert warning not in _html(sent[-1])
    sim.select_node(11)
    sim.select_node(12)
    assert warning in _html(sent[-1])
    sim.deselect_node(12)
    assert warning not in _html(sent[-1])


def test_a_widget_never_displayed_does_no_snapshot_work():
    tree = TypeTree(toskit.load(SERVICE))
    calls = []
    tree.snapshot_html = lambda: calls.append(1) or ""  # type: ignore[method-assign]
    tree.select("Endpoint")
    assert tree.refresh_snapshot() is False and calls == []


def test_snapshot_type_names_are_not_dead_controls():
    """Live, the explorer's type names are links the tree follows; in a stored
    snapshot nothing follows them, so they are plain names there."""
    widget = explore(toskit.load(SERVICE))
    widget.tree.select("Connection")
    live = widget.properties.body_html
    assert 'role="link" tabindex="0" data-toskit-type="Endpoint"' in live
    for stored in (_data(widget)["text/html"], _data(widget.properties)["text/html"]):
        html = body(stored)
        assert (
            "toskit-type-link" not in html and 'role="link"' not in html and "tabindex" not in html
        )
        assert '<span class="toskit-type-name">Endpoint</span>' in html


# -- the topology widgets carry one too (issue 35 item 3) -------------------------

WEB_SHOP = ROOT / "notebooks" / "examples" / "web-shop.yaml"


def test_topology_widgets_have_snapshots_of_the_drawing():
    from toskit.widgets.topology import TopologyView

    st = toskit.load(WEB_SHOP)
    explorer = explore(st.topology())
    data = _data(explorer)
    assert "application/vnd.jupyter.widget-view+json" in data
    html = data["text/html"]
    assert_safe(html)
    view = body(html)
    assert "a snapshot of the widget as it was displayed" in view
    assert '<div class="toskit-topology-drawing"><svg' in view
    assert 'class="toskit-t-node' in view  # node boxes drawn
    # The clicked node's properties beside the drawing.
    assert f'<span class="toskit-title">{explorer.properties.node}</span>' in view
    assert "TopologyExplorer(" not in view
    alone = _data(TopologyView(st))["text/html"]
    assert_safe(alone)
    assert "<svg" in body(alone) and "snapshot of the widget" in body(alone)


def test_the_topology_snapshot_follows_the_view_and_the_click(shown):
    st = toskit.load(WEB_SHOP)
    explorer = explore(st.topology())
    sent = shown(explorer)
    first = _html(sent[-1])
    names = list(st.node_templates)
    other = next(n for n in names if n != explorer.properties.node)
    explorer.graph.select(other)
    assert f'<span class="toskit-title">{other}</span>' in _html(sent[-1])
    explorer.graph.view = "grouped by type"
    assert _html(sent[-1]) != first


def test_explore_of_anything_else_stores_its_static_view():
    import ipywidgets

    from toskit import schema
    from toskit.display import to_html
    from toskit.widgets.snapshot import unhidden_view

    doc = schema.load("types:\n- name: t\n  scalar: string\n")
    widget = explore(doc)
    # A rendered output (where JupyterLab follows a file:line link), holding the view.
    assert isinstance(widget, ipywidgets.Output) and widget.value == to_html(doc)
    (output,) = widget.outputs
    assert output["data"]["text/html"].endswith(to_html(doc))
    data = _data(widget)
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/html"] == unhidden_view(to_html(doc))
