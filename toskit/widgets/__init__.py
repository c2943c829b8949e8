"""Notebook widgets: thin, Python-driven views over toskit's result objects.

* :class:`TypeTree` — a template's type inheritance tree; clicking selects.
* :class:`PropertyExplorer` — a node template's merged properties with
  provenance; can follow a ``TypeTree``.
* :class:`ClusterSimulator` — edit a simulated cluster and watch every role's
  outcome.
* :func:`explore` — the obvious widget for any object.

All logic is in Python (tests drive the widgets without a browser); the
HTML they show comes from :mod:`toskit.display`.
"""

from __future__ import annotations

from typing import Any

import ipywidgets

from toskit.widgets.cluster_simulator import ClusterSimulator
from toskit.widgets.property_explorer import PropertyExplorer
from toskit.widgets.rendered import RenderedHTML
from toskit.widgets.snapshot import StaticSnapshot, inert_links, snapshot_note
from toskit.widgets.type_tree import TypeTree

__all__ = ["ClusterSimulator", "PropertyExplorer", "TemplateExplorer", "TypeTree", "explore"]


class TemplateExplorer(StaticSnapshot, ipywidgets.HBox):
    """A ``TypeTree`` beside a ``PropertyExplorer`` that follows it."""

    def __init__(self, st: Any, **kwargs: Any) -> None:
        self.tree = TypeTree(st)
        self.properties = PropertyExplorer(st).link(self.tree)
        # A fixed width: the tree scrolls inside its own box (toskit-tree-scroll),
        # so filtering or opening branches never moves the explorer beside it.
        self.tree.layout = ipywidgets.Layout(
            flex="0 0 340px", width="340px", min_width="0", overflow="hidden"
        )
        self.properties.layout = ipywidgets.Layout(flex="1 1 0", min_width="0", overflow="auto")
        super().__init__(children=[self.tree, self.properties], **kwargs)

    def snapshot_html(self) -> str:
        """The tree beside the explorer's view, as static HTML marked as a
        snapshot: what GitHub, nbviewer or an un-run notebook shows."""
        from toskit.display.html import fragment
        from toskit.display.tosca_views import type_tree_html

        tree = type_tree_html(
            self.tree._types, selected=self.tree.selected, filter_text=self.tree.filter
        )
        body = (
            snapshot_note()
            + '<div class="toskit-snapshot-row"><div class="toskit-snapshot-tree">'
            + tree
            + '</div><div class="toskit-snapshot-main">'
            + inert_links(self.properties.body_html)
            + "</div></div>"
        )
        return fragment(body, repr(self), "template-explorer")

    def __repr__(self) -> str:
        return f"TemplateExplorer(selected={self.tree.selected!r}, node={self.properties.node!r})"


class StaticView(StaticSnapshot, RenderedHTML):
    """``explore(obj)`` for an object with only a static view: its HTML
    (``value``) shown as a rendered output (a :class:`RenderedHTML`, where
    JupyterLab opens a ``file:line`` link in its editor), whose stored
    snapshot is that view (a saved notebook shows it, not a dead widget
    reference)."""

    def snapshot_html(self) -> str:
        return str(self.value)


def _class_key(obj: Any) -> tuple[str, str]:
    for cls in type(obj).__mro__:
        parts = cls.__module__.split(".")
        if parts[0] == "toskit" and len(parts) > 1:
            return parts[1], cls.__name__
    return "", type(obj).__name__


def explore(obj: Any, *args: Any, **kwargs: Any) -> Any:
    """The obvious widget for ``obj``.

    A service template → :class:`TemplateExplorer` (type tree + properties);
    a roles document (``RoleSet``), optionally with a cluster as second
    argument → :class:`ClusterSimulator`; a ``(RoleSet, Cluster)`` pair → the
    same; a Fuel ``Release`` → a simulator of its roles on
    ``release.cluster()`` (its modes and settings); anything else → its
    static view as a rendered output (:class:`StaticView`, which stores that
    view as its snapshot).
    """
    if isinstance(obj, tuple) and len(obj) == 2 and _class_key(obj[0])[1] == "RoleSet":
        return ClusterSimulator(obj[0], obj[1], **kwargs)
    name = _class_key(obj)[1]
    if name == "Topology":  # st.topology(): the drawing, click a node for its properties
        from toskit.widgets.topology import TopologyExplorer

        return TopologyExplorer(obj, **kwargs)
    # Duck-typed too, so that DSL-built templates and wrappers qualify.
    if name == "ServiceTemplate" or (hasattr(obj, "node_templates") and hasattr(obj, "types")):
        return TemplateExplorer(obj, **kwargs)
    if name == "Release":  # a Fuel release: its modes, settings panel and roles
        return ClusterSimulator(obj, *args, **kwargs)
    if name == "RoleSet" or (hasattr(obj, "check") and hasattr(obj, "check_assignment")):
        return ClusterSimulator(obj, *args, **kwargs)
    from toskit.display import to_html

    return StaticView(to_html(obj))
