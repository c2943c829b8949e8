"""``PropertyExplorer``: a node template's merged properties, with provenance."""

from __future__ import annotations

from typing import Any

import ipywidgets
import traitlets

from toskit.display.html import esc, fragment
from toskit.display.tosca_views import (
    SourcePalette,
    node_diagnostics,
    node_template_body,
    template_lines,
    type_body,
)
from toskit.display.typetree import template_types, type_usage
from toskit.errors import ToskitError
from toskit.widgets.rendered import RenderedHTML
from toskit.widgets.snapshot import EXPORT_LINK_STYLE, StaticSnapshot, inert_links, snapshot_note

__all__ = ["PropertyExplorer"]


class PropertyExplorer(StaticSnapshot, ipywidgets.VBox):
    """Choose a node template (or follow a :class:`TypeTree`) and see its
    merged property table with provenance and its diagnostics.

    ``node`` is the chosen node template's name; ``show_overridden`` strikes
    through the lower-layer values each value replaced; ``html`` is what the
    widget shows. :meth:`link` follows a ``TypeTree``: selecting a type shows
    the first node template of that type (or derived from it), or, when there
    is none, the type's effective property definitions.
    """

    node = traitlets.Unicode(None, allow_none=True)
    show_overridden = traitlets.Bool(False)
    followed_type = traitlets.Unicode(None, allow_none=True)

    def __init__(self, st: Any, node: str | None = None, **kwargs: Any) -> None:
        self._template = st
        self._nodes: dict[str, Any] = dict(getattr(st, "node_templates", {}) or {})
        self._diagnostics = node_diagnostics(st)
        self._lines = template_lines(st)
        self._palette = SourcePalette()  # a source keeps its colour from node to node
        self._cache: dict[tuple[str, bool], str] = {}
        self._linked: list[Any] = []
        self._by_type: dict[str, list[str]] | None = None
        self._usage: dict[str, list[tuple[str, str]]] | None = None
        self._type_names: set[str] | None = None
        self._syncing = False  # set while the widget updates its own dropdown
        self._body = ""
        self._following_tree = False  # set while it selects a type in a linked tree
        names = list(self._nodes)
        self._dropdown = ipywidgets.Dropdown(
            options=self._labelled(names),
            value=None,
            description="node template",
            style={"description_width": "initial"},
            layout=ipywidgets.Layout(width="auto", max_width="100%"),
        )
        self._toggle = ipywidgets.Checkbox(
            value=False, description="show overridden values", indent=False
        )
        self._problems = ipywidgets.Checkbox(
            value=False, description=f"problems only ({len(self.problem_nodes)})", indent=False
        )
        # The view, as a rendered output: there JupyterLab opens a file:line
        # link in its editor (an ipywidgets.HTML is not rendered by it).
        self._output = RenderedHTML()
        self._output.add_class("toskit-explorer-view")
        # "export CSV": a download link of the shown node's property table.
        self._export = ipywidgets.HTML("")
        # The pickers wrap under each other in a narrow output area.
        pickers = ipywidgets.HBox(
            [self._dropdown, self._problems, self._toggle, self._export],
            layout=ipywidgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__(children=[pickers, self._output], **kwargs)
        self._dropdown.observe(self._on_dropdown, "value")
        self._toggle.observe(self._on_toggle, "value")
        self._problems.observe(lambda c: self.set_problems_only(bool(c["new"])), "value")
        if node is None and names:
            # Open where there is something to fix: the first node template
            # with a finding, else the first one.
            node = (self.problem_nodes or names)[0]
        self.node = node
        self._refresh()

    # -- Python API ----------------------------------------------------------

    @traitlets.validate("node")
    def _check_node(self, proposal: dict[str, Any]) -> str | None:
        name = proposal["value"]
        if name is not None and name not in self._nodes:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(name, self._nodes)
            raise ToskitError(f"no node template {name!r}" + (f"; {hint}" if hint else ""))
        return name

    @traitlets.observe("node", "show_overridden", "followed_type")
    def _on_state(self, change: dict[str, Any]) -> None:
        if change["name"] == "show_overridden":
            self._toggle.value = change["new"]
        self._refresh()

    def select(self, name: str) -> None:
        """Show node template ``name`` (linked trees select its type)."""
        self.followed_type = None
        self.node = name
        self._select_node_type()

    def show_type(self, type_name: str | None) -> None:
        """Follow a type: show its first node template, or its definitions."""
        matches = self._nodes_of_type(type_name) if type_name else []
        with self.hold_trait_notifications():
            self.followed_type = type_name
            if matches and self.node not in matches:
                self.node = matches[0]

    def link(self, tree: Any) -> PropertyExplorer:
        """Follow ``tree.selected`` (a :class:`TypeTree`); returns ``self``."""

        def follow(change: dict[str, Any]) -> None:
            if self._following_tree:
                return  # the tree follows us (a node was picked), not the reverse
            self.show_type(change["new"])

        tree.observe(follow, "selected")
        self._linked.append((tree, follow))
        if getattr(tree, "selected", None):
            self.show_type(tree.selected)
        return self

    def _nodes_of_type(self, type_name: str) -> list[str]:
        """Node templates of ``type_name`` or a type derived from it (indexed
        once, on first use: a template is immutable)."""
        if self._by_type is None:
            index: dict[str, list[str]] = {}
            for name, node in self._nodes.items():
                t = getattr(node, "type", None)
                if t is None:
                    continue
                chain = [t, *(getattr(t, "ancestors", []) or [])]
                for type_name_ in dict.fromkeys(str(getattr(a, "name", a)) for a in chain):
                    index.setdefault(type_name_, []).append(name)
            self._by_type = index
        return self._by_type.get(type_name, [])

    @property
    def node_names(self) -> list[str]:
        return list(self._nodes)

    @property
    def problem_nodes(self) -> list[str]:
        """The node templates with at least one error or warning, in template order."""
        return [n for n in self._nodes if sum(self._counts(n))]

    def _counts(self, name: str) -> tuple[int, int]:
        found = self._diagnostics.get(name, [])
        errors = sum(1 for d in found if getattr(d, "severity", "") == "error")
        return errors, sum(1 for d in found if getattr(d, "severity", "") == "warning")

    @property
    def problems_only(self) -> bool:
        """Whether the picker lists only :attr:`problem_nodes`."""
        return bool(self._problems.value)

    def set_problems_only(self, on: bool = True) -> None:
        """List only the node templates with findings (and show the first of
        them if the one on screen has none)."""
        if self._problems.value != on:
            self._problems.value = on  # comes back here through its observer
            return
        names = self.problem_nodes if on else self.node_names
        if on and names and self.node not in names:
            self.select(names[0])
        self._syncing = True
        try:
            shown = self._dropdown.value
            keep = [shown] if shown is not None and shown not in names else []
            self._dropdown.options = self._labelled([*keep, *names])
            self._dropdown.value = shown
        finally:
            self._syncing = False

    def to_csv(self, name: str | None = None) -> str:
        """The merged property table of node template ``name`` (default: the
        one shown) as CSV text: path, value, source and status per row, what
        the "export CSV" link downloads."""
        name = self.node if name is None else name
        if name is None or name not in self._nodes:
            raise ToskitError(f"no node template {name!r} to export")
        frame = self._nodes[name].property_table().to_frame()
        return str(frame.to_csv(index=False))

    def _export_link(self, name: str) -> str:
        """A link that downloads :meth:`to_csv` (a data: URL: the widget's HTML
        is not run through the notebook's sanitizer, and no kernel is needed
        to follow it)."""
        import base64
        import re

        try:
            data = base64.b64encode(self.to_csv(name).encode("utf-8")).decode("ascii")
        except Exception:  # noqa: BLE001 - an export must not break the explorer
            return ""
        file = re.sub(r"[^A-Za-z0-9._-]+", "_", name) or "node"
        return (
            f'<a class="toskit-export" style="{EXPORT_LINK_STYLE}" download="{esc(file)}.csv" '
            f'href="data:text/csv;base64,{data}">export CSV</a>'
        )

    def _labelled(self, names: list[str]) -> list[tuple[str, str]]:
        """The picker's entries: each name with its count of findings
        (``web — 2 errors, 1 warning``)."""
        out = []
        for name in names:
            errors, others = self._counts(name)
            counts = []
            if errors:
                counts.append(f"{errors} error{'s' if errors != 1 else ''}")
            if others:
                counts.append(f"{others} warning{'s' if others != 1 else ''}")
            out.append((f"{name} — {', '.join(counts)}" if counts else name, name))
        return out

    @property
    def html(self) -> str:
        """The HTML the widget shows now."""
        return self._output.value

    # -- rendering -------------------------------------------------------------

    def _on_dropdown(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] is None:
            return  # our own update of the dropdown, or its blank (a type is shown)
        with self.hold_trait_notifications():
            self.followed_type = None
            self.node = change["new"]
        self._refresh()
        self._select_node_type()

    def _select_node_type(self) -> None:
        """One selection: the linked trees select the type of the node shown."""
        node = self._nodes.get(self.node) if self.node is not None else None
        type_name = (
            str(getattr(getattr(node, "type", None), "name", "")) if node is not None else ""
        )
        for tree, _ in self._linked:
            if (
                type_name
                and type_name in getattr(tree, "type_names", ())
                and tree.selected != type_name
            ):
                self._following_tree = True
                try:
                    tree.selected = type_name
                finally:
                    self._following_tree = False

    def _on_toggle(self, change: dict[str, Any]) -> None:
        self.show_overridden = bool(change["new"])

    def _node_html(self, name: str) -> str:
        key = (name, bool(self.show_overridden))
        cached = self._cache.get(key)
        if cached is None:
            node = self._nodes[name]
            cached = node_template_body(
                node,
                type_link=self._type_link,
                show_overridden=self.show_overridden,
                diagnostics=self._diagnostics.get(name, []),
                lines=self._lines,
                palette=self._palette,
                stacks=True,  # a source pill opens to its layers with file:line (#32)
            )
            self._cache[key] = cached
        return cached

    def _refresh(self) -> None:
        parts: list[str] = []
        type_name = self.followed_type or ""
        following = self.followed_type is not None
        matching = self._nodes_of_type(type_name) if following else []
        showing_type = following and not matching
        if following:
            count = f"{len(matching)} node template{'s' if len(matching) != 1 else ''} of this type"
            parts.append(
                f'<div class="toskit-following">type <b class="toskit-mono">{esc(type_name)}</b>: {esc(count)}'
                f"{self._used_by(type_name)}</div>"
            )
        if showing_type:
            t = _find_type(self._template, type_name)
            parts.append(
                type_body(t, type_link=self._type_link)
                if t is not None
                else '<div class="toskit-empty">unknown type</div>'
            )
        elif self.node is not None:
            parts.append(self._node_html(self.node))
        else:
            parts.append('<div class="toskit-empty">no node templates</div>')
        self._body = "".join(parts)
        self._output.value = fragment(self._body, self._plain(), "property-explorer")
        self._export.value = (
            "" if showing_type or self.node is None else self._export_link(self.node)
        )
        # The dropdown shows the node on screen, and is blank over a type's view.
        shown = None if showing_type else self.node
        if self._dropdown.value != shown:
            self._syncing = True
            try:
                self._dropdown.value = shown
            finally:
                self._syncing = False

    def _type_link(self, name: str, kind: str | None = None) -> str:
        """A type name in the explorer's tables: a link that a linked
        ``TypeTree`` follows (its module handles the click or Enter; without
        a tree it is plain text). ``data-toskit-type`` carries the name."""
        if self._type_names is None:
            self._type_names = {str(getattr(t, "name", "")) for t in template_types(self._template)}
        if name not in self._type_names:
            return esc(name)
        return (
            f'<span class="toskit-type-link" role="link" tabindex="0" data-toskit-type="{esc(name)}" '
            f'title="show type {esc(name)}">{esc(name)}</span>'
        )

    def _used_by(self, type_name: str) -> str:
        """``; used by db (connection.endpoint)`` for a data type that node
        templates use through their properties."""
        if self._usage is None:
            self._usage = type_usage(self._template)
        uses = self._usage.get(type_name, [])
        if not uses:
            return ""
        shown = uses[:10]
        listed = ", ".join(
            f'<b class="toskit-mono">{esc(node)}</b> <span class="toskit-mono">({esc(path)})</span>'
            for node, path in shown
        )
        more = f" and {len(uses) - len(shown):,} more" if len(uses) > len(shown) else ""
        return f"; used by {listed}{esc(more)}"

    @property
    def body_html(self) -> str:
        """What the widget shows, without the surrounding fragment."""
        return self._body

    def snapshot_html(self) -> str:
        """The view on screen, marked as a snapshot (the notebook's stored view)."""
        return fragment(
            snapshot_note() + inert_links(self._body), self._plain(), "property-explorer"
        )

    def _plain(self) -> str:
        return f"PropertyExplorer(node={self.node!r}, followed_type={self.followed_type!r})"

    def __repr__(self) -> str:
        return self._plain()


def _find_type(st: Any, name: str) -> Any:
    types = getattr(st, "types", {}) or {}
    if name in types:
        return types[name]
    from toskit.display.typetree import template_types

    for t in template_types(st):
        if getattr(t, "name", None) == name:
            return t
    return None
