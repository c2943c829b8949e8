"""``TypeTree``: the type inheritance tree of a template, clickable."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import anywidget
import traitlets

from toskit.display.html import css, fragment
from toskit.display.tosca_views import type_tree_html
from toskit.display.typetree import (
    build_forest,
    filter_forest,
    is_normative,
    kinds_in_order,
    template_types,
    user_forest,
)
from toskit.errors import ToskitError
from toskit.widgets.snapshot import StaticSnapshot, snapshot_note

__all__ = ["TypeTree"]


@lru_cache(maxsize=1)
def _esm() -> str:
    return resources.files("toskit.widgets").joinpath("type_tree.js").read_text(encoding="utf-8")


def _annotate(node_dict: dict[str, Any], node: Any, filtering: bool = False) -> None:
    """Add ``open`` and ``size`` to the widget data, iteratively."""
    stack = [(node_dict, node)]
    while stack:
        out, n = stack.pop()
        out["size"] = n.size()
        out["open"] = n.has_user or filtering
        stack.extend(zip(out["children"], n.children))


class TypeTree(StaticSnapshot, anywidget.AnyWidget):
    """The inheritance tree of a template's types (all kinds, or one kind).

    User types come first and normative types are hidden (their ancestors of
    user types stay, dimmed) until :attr:`show_normative` is set (the
    "normative types" box). Clicking a type, or Enter on it, selects it,
    which sets :attr:`selected` (synced with Python: set it, or call
    :meth:`select`, to select from code). The tree is an ARIA tree driven by
    the keyboard (↑↓←→, Home/End, Enter; the widget keeps its key events from
    JupyterLab), with expand-all and collapse-all. Typing in the filter box
    sets :attr:`filter`, and Python redraws :attr:`tree` with only the types
    whose names, or whose own property names, contain it (and their
    ancestors). :attr:`selected_type` is the
    selected core ``Type`` object and :attr:`html` the static view of the
    tree with the selection marked and the filter applied.
    """

    _esm = traitlets.Unicode().tag(sync=True)
    _css = traitlets.Unicode().tag(sync=True)
    tree: traitlets.List[Any] = traitlets.List().tag(sync=True)
    selected = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    kind = traitlets.Unicode(None, allow_none=True, read_only=True).tag(sync=True)
    filter = traitlets.Unicode("").tag(sync=True)
    show_normative = traitlets.Bool(False).tag(sync=True)

    def __init__(self, st: Any, kind: str | None = None, **kwargs: Any) -> None:
        types = template_types(st)
        kinds = {str(getattr(t, "kind", "")) for t in types}
        if kind is not None and kind not in kinds:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(kind, kinds)
            raise ToskitError(
                f"no {kind!r} types in this template (kinds: {', '.join(kinds_in_order(kinds))})"
                + (f"; {hint}" if hint else "")
            )
        if kind is not None:
            types = [t for t in types if str(getattr(t, "kind", "")) == kind]
        self._template = st
        self._types = types
        self._by_name: dict[str, Any] = {}
        for t in types:
            # Where two kinds share a name the first (node types come first) wins,
            # as in ServiceTemplate.types.
            self._by_name.setdefault(str(getattr(t, "name", "")), t)
        super().__init__(_esm=_esm(), _css=css(), tree=self._tree_data(types), **kwargs)
        if self.show_normative:  # given as a keyword: draw with it
            self.tree = self._tree_data(types, self.filter, True)
        self.set_trait("kind", kind)

    @staticmethod
    def _tree_data(
        types: list[Any], filter_text: str = "", show_normative: bool = False
    ) -> list[dict[str, Any]]:
        """The groups the module draws. User types first: unless
        ``show_normative``, a group holds only the branches that lead to user
        types (normative ancestors as context); a filter searches everything."""
        by_kind: dict[str, list[Any]] = {}
        for t in types:
            by_kind.setdefault(str(getattr(t, "kind", "")), []).append(t)
        groups = []
        for kind in kinds_in_order(by_kind):
            full = build_forest(by_kind[kind])
            if filter_text:
                forest = filter_forest(full, filter_text)
                if not forest:
                    continue
            else:
                forest = full if show_normative else user_forest(full)
                if not forest:
                    continue  # a kind of normative types only: under the normative box
            user = sum(1 for t in by_kind[kind] if not is_normative(t))
            normative = len(by_kind[kind]) - user
            roots = []
            for node in forest:
                data = node.to_dict()
                _annotate(data, node, bool(filter_text))
                roots.append(data)
            hidden = "" if show_normative or filter_text or not normative else " (hidden)"
            groups.append(
                {
                    "kind": kind,
                    "label": f"{kind} types" if kind else "types",
                    "note": f"{user:,} yours, {normative:,} normative{hidden}",
                    "open": user > 0 or bool(filter_text),
                    "roots": roots,
                }
            )
        # Kinds with user types first, in reading order; then the others.
        groups.sort(key=lambda g: 0 if g["roots"] and g["open"] else 1)
        return groups

    @traitlets.validate("selected")
    def _check_selected(self, proposal: dict[str, Any]) -> str | None:
        name = proposal["value"]
        if name is not None and name not in self._by_name:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(name, self._by_name)
            raise ToskitError(f"no type {name!r} in this tree" + (f"; {hint}" if hint else ""))
        return name

    @traitlets.observe("filter", "show_normative")
    def _on_filter(self, change: dict[str, Any]) -> None:
        self.tree = self._tree_data(self._types, self.filter or "", self.show_normative)

    def select(self, name: str | None) -> None:
        """Select the type called ``name`` (``None`` clears the selection)."""
        self.selected = name

    @property
    def type_names(self) -> list[str]:
        """Names of the types in the tree, in declaration order."""
        return list(self._by_name)

    @property
    def selected_type(self) -> Any:
        """The selected core ``Type``, or ``None``."""
        return self._by_name.get(self.selected) if self.selected else None

    @property
    def html(self) -> str:
        """The static HTML view of the tree, the selection marked."""
        tree = type_tree_html(self._types, selected=self.selected, filter_text=self.filter)
        return fragment(tree, self._plain(), "type-tree")

    def snapshot_html(self) -> str:
        """The static tree, marked as a snapshot (the notebook's stored view)."""
        tree = type_tree_html(self._types, selected=self.selected, filter_text=self.filter)
        return fragment(snapshot_note() + tree, self._plain(), "type-tree")

    def _plain(self) -> str:
        return f"TypeTree({len(self._types)} types, selected={self.selected!r})"

    def __repr__(self) -> str:
        return self._plain()
