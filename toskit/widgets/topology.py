"""The topology in the explorer: click a node for its properties, hover an arrow for why.

* :class:`TopologyView` — the drawn topology (the same SVG as the static
  view); clicking a node box sets :attr:`TopologyView.selected`; hovering
  an arrow shows the requirement, the relationship type and why that target
  in a panel under the drawing. :attr:`TopologyView.view` switches between
  all node templates, grouped by type and hosting chains collapsed.
* :class:`TopologyExplorer` — a ``TopologyView`` above a
  :class:`~toskit.widgets.PropertyExplorer` that shows the merged property
  table of the node clicked (a collapsed chain's host, a type group's
  first member).

``toskit.widgets.explore(st.topology())`` gives a ``TopologyExplorer``.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import anywidget
import ipywidgets
import traitlets

from toskit.display.html import css, esc
from toskit.errors import ToskitError
from toskit.widgets.property_explorer import PropertyExplorer
from toskit.widgets.snapshot import EXPORT_LINK_STYLE, StaticSnapshot, inert_links, snapshot_note

__all__ = ["TopologyExplorer", "TopologyView"]

VIEWS = ("templates", "grouped by type", "hosting chains collapsed")

# Widget-only rules (the drawing's own rules are in the one stylesheet).
_WIDGET_CSS = """
.toskit-topology-widget .toskit-topology-hover { white-space: pre-wrap; font-family: var(--toskit-mono);
  font-size: 12px; color: var(--toskit-fg-muted); min-height: 3.2em; margin-top: 4px; padding: 4px 6px;
  border-left: 3px solid var(--toskit-border); }
.toskit-topology-widget .toskit-topology-hover.toskit-topology-hover-active { color: var(--toskit-fg);
  border-left-color: var(--toskit-accent); }
"""


@lru_cache(maxsize=1)
def _esm() -> str:
    return resources.files("toskit.widgets").joinpath("topology.js").read_text(encoding="utf-8")


def _template_and_topology(obj: Any) -> tuple[Any, Any]:
    if hasattr(obj, "edges") and hasattr(obj, "nodes"):  # a Topology
        return getattr(obj, "service", None), obj
    make = getattr(obj, "topology", None)
    if not callable(make):
        raise ToskitError(
            f"a topology widget needs a ServiceTemplate or a Topology, not {type(obj).__name__}"
        )
    return obj, make()


def _static_drawing(topology: Any) -> str:
    """The drawing of ``topology`` as the static view draws it (error and
    warning badges, nothing focusable): a snapshot's picture."""
    from toskit.display.topology_svg import render_svg

    svg = render_svg(topology, topology.layout(), standalone=False, findings=topology.findings())
    return f'<div class="toskit-topology-drawing">{svg}</div>'


class TopologyView(StaticSnapshot, anywidget.AnyWidget):
    """The drawn topology of a template; clicking a node selects it (see the module docstring)."""

    _esm = traitlets.Unicode().tag(sync=True)
    _css = traitlets.Unicode().tag(sync=True)
    svg = traitlets.Unicode("").tag(sync=True)
    selected = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    view = traitlets.Unicode("templates").tag(sync=True)

    def __init__(self, obj: Any, **kwargs: Any) -> None:
        self._template, self._base = _template_and_topology(obj)
        self._topologies: dict[str, Any] = {self._base.view: self._base}
        view = kwargs.pop("view", self._base.view)
        super().__init__(_esm=_esm(), _css=css() + _WIDGET_CSS, **kwargs)
        self.view = view
        self._draw()

    @property
    def topology(self) -> Any:
        """The ``Topology`` drawn now (the current :attr:`view`)."""
        found = self._topologies.get(self.view)
        if found is None:
            if self.view == "grouped by type":
                found = self._base.grouped()
            else:
                found = self._base.collapse_hosting()
            self._topologies[self.view] = found
        return found

    @traitlets.validate("view")
    def _check_view(self, proposal: dict[str, Any]) -> str:
        value = proposal["value"]
        if value not in VIEWS:
            raise ToskitError(f"view must be one of {', '.join(map(repr, VIEWS))}, not {value!r}")
        return str(value)

    @traitlets.validate("selected")
    def _check_selected(self, proposal: dict[str, Any]) -> str | None:
        name = proposal["value"]
        if name is not None and name not in self.topology.nodes:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(name, self.topology.nodes)
            raise ToskitError(f"no node {name!r} in this topology" + (f"; {hint}" if hint else ""))
        return name

    @traitlets.observe("view")
    def _on_view(self, change: dict[str, Any]) -> None:
        self.selected = None
        self._draw()

    def _draw(self) -> None:
        from toskit.display.topology_svg import render_svg

        topology = self.topology
        # The live drawing marks the nodes with findings as the static one and
        # the exported SVG do (badge with the count, box edged in the colour).
        self.svg = render_svg(
            topology,
            topology.layout(),
            standalone=False,
            interactive=True,
            findings=topology.findings(),
        )

    def select(self, name: str | None) -> None:
        """Select node ``name`` (``None`` clears the selection)."""
        self.selected = name

    @property
    def selected_template(self) -> str | None:
        """The node template the selection stands for: itself, a collapsed chain's
        host (the box's name), or a type group's first member."""
        if self.selected is None:
            return None
        templates = getattr(self._template, "node_templates", None) or {}
        if self.selected in templates:
            return self.selected
        node = self.topology.nodes[self.selected]
        return node.members[0] if node.members else node.name

    def edge_text(self, source: str, requirement: str) -> str | None:
        """What hovering that arrow shows (requirement, relationship, why that target)."""
        edge = self.topology.edge(source, requirement)
        return edge.tooltip if edge is not None else None

    def __repr__(self) -> str:
        return (
            f"TopologyView({self.topology.name!r}, view={self.view!r}, selected={self.selected!r})"
        )

    def snapshot_html(self) -> str:
        """The drawing of the current view, as static HTML marked as a snapshot."""
        from toskit.display.html import fragment

        return fragment(
            snapshot_note() + _static_drawing(self.topology), repr(self), "topology-view"
        )


class TopologyExplorer(StaticSnapshot, ipywidgets.VBox):
    """A :class:`TopologyView` above the property table of the node clicked."""

    def snapshot_html(self) -> str:
        """The drawing of the current view beside the clicked node's table,
        as static HTML marked as a snapshot (a stored notebook, GitHub,
        nbviewer, an untrusted notebook show it; no "model not found")."""
        from toskit.display.html import fragment

        body = (
            snapshot_note()
            + '<div class="toskit-snapshot-row"><div class="toskit-snapshot-main">'
            + _static_drawing(self.graph.topology)
            + '</div><div class="toskit-snapshot-main">'
            + inert_links(self.properties.body_html)
            + "</div></div>"
        )
        return fragment(body, repr(self), "topology-explorer")

    def __init__(self, obj: Any, **kwargs: Any) -> None:
        self.graph = TopologyView(obj)
        template = self.graph._template
        if template is None:
            raise ToskitError(
                "this Topology was not built from a ServiceTemplate: no properties to show"
            )
        self.properties = PropertyExplorer(template)
        self._views = ipywidgets.ToggleButtons(
            options=list(VIEWS), value=self.graph.view, description="show",
            style={"description_width": "initial", "button_width": "auto"},
        )  # fmt: skip
        self._views.observe(lambda change: setattr(self.graph, "view", change["new"]), "value")
        self.graph.observe(self._follow, "selected")
        # The drawing and the clicked node's details side by side when there
        # is room for both (the details were under a ~650 px drawing with
        # most of the width empty); the details need ~600 px for their tables
        # (requirement, target, capability, relationship) without hiding a
        # column, so below ~1,080 px they wrap under the drawing, full width.
        self.graph.layout = ipywidgets.Layout(
            flex="1 1 480px", min_width="min(100%, 360px)", overflow="auto"
        )
        self.properties.layout = ipywidgets.Layout(flex="1 1 600px", min_width="min(100%, 600px)")
        row = ipywidgets.HBox(
            [self.graph, self.properties],
            layout=ipywidgets.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"),
        )
        # "export SVG": the drawing of the current view as a standalone file.
        self._export = ipywidgets.HTML("")
        self.graph.observe(lambda _change: self._export_link(), "view")
        self._export_link()
        bar = ipywidgets.HBox(
            [self._views, self._export],
            layout=ipywidgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(children=[bar, row], **kwargs)

    def to_svg(self) -> str:
        """The drawing of the current view as a standalone SVG file (its own
        styles, light fallbacks), what the "export SVG" link downloads."""
        return str(self.graph.topology.to_svg(standalone=True))

    def _export_link(self) -> None:
        import base64

        try:
            data = base64.b64encode(self.to_svg().encode("utf-8")).decode("ascii")
        except Exception:  # noqa: BLE001 - an export must not break the explorer
            self._export.value = ""
            return
        self._export.value = (
            f'<a class="toskit-export" style="{EXPORT_LINK_STYLE}" download="topology-{esc(self.graph.view.replace(" ", "-"))}.svg" '
            f'href="data:image/svg+xml;base64,{data}">export SVG</a>'
        )

    def _follow(self, change: dict[str, Any]) -> None:
        name = self.graph.selected_template
        if name is not None:
            self.properties.select(name)

    def select(self, name: str) -> None:
        """Select node ``name`` in the drawing (and show its properties)."""
        self.graph.select(name)

    def __repr__(self) -> str:
        return f"TopologyExplorer(selected={self.graph.selected!r}, node={self.properties.node!r})"
