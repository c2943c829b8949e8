"""``ClusterSimulator``: edit a simulated cluster live and watch every role's
outcome (allowed/blocked, warnings, conflicts) follow.

All logic lives in Python methods (``add_node``, ``select_node``,
``set_roles``, …) that tests and notebooks call directly; the controls only
call those methods. After each change the cluster is rebuilt and every role
re-checked (on a 1,000-node cluster this takes a few milliseconds; see
``bench/bench_views.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import ipywidgets
import traitlets

from toskit.display.conditions_views import cluster_body, outcomes_table
from toskit.display.html import chip, esc, fragment
from toskit.errors import ToskitError

__all__ = ["ClusterSimulator"]

MODES = ("multinode", "ha_compact", "ha_full")
_NODE_DEFAULTS = {"roles": [], "pending_roles": [], "pending_deletion": False, "pending_addition": False}


def _node_dict(node: Any) -> dict[str, Any]:
    """A plain, normalised copy of a node (mapping or object)."""
    if isinstance(node, Mapping):
        data = dict(node)
    else:
        data = {k: getattr(node, k) for k in ("id", *_NODE_DEFAULTS, "name") if hasattr(node, k)}
    if "id" not in data:
        raise ToskitError(f"a cluster node needs an 'id': {node!r}")
    for key, default in _NODE_DEFAULTS.items():
        value = data.get(key, default)
        data[key] = list(value) if isinstance(default, list) else bool(value)
    return data


def _names(roles: Iterable[Any] | str) -> list[str]:
    if isinstance(roles, str):
        return [roles]
    return [str(r) for r in roles]


class ClusterSimulator(ipywidgets.VBox):
    """A simulated cluster the user edits live, with every role's outcome.

    ``roles`` is a ``RoleSet`` (``conditions.load_roles``); ``cluster`` a
    ``conditions.Cluster`` (default: an empty ``multinode`` cluster).
    :attr:`outcomes` maps each role to its ``RoleOutcome`` for the current
    cluster, selection and roles to assign; :attr:`html` is what the widget
    shows.
    """

    mode = traitlets.Unicode("multinode")
    selected = traitlets.List()
    selected_roles = traitlets.List()

    def __init__(self, roles: Any, cluster: Any = None, *, selected: Iterable[Any] = (), **kwargs: Any) -> None:
        self._roles = roles
        self._role_names = [str(name) for name in roles]
        if cluster is None:
            from toskit import conditions

            cluster = conditions.Cluster(mode="multinode")
        # Rebuild clusters with the class we were given (a Cluster subclass stays one).
        self._cluster_class = type(cluster)
        self._nodes: dict[Any, dict[str, Any]] = {}
        for node in getattr(cluster, "nodes", ()) or ():
            data = _node_dict(node)
            self._nodes[data["id"]] = data
        self._pool: dict[Any, dict[str, Any]] = {}
        for node in getattr(cluster, "pool", ()) or ():
            data = _node_dict(node)
            self._pool[data["id"]] = data
        attributes = getattr(cluster, "attributes", None)
        self._attributes: dict[str, Any] = dict(attributes) if isinstance(attributes, Mapping) else {}
        models = getattr(cluster, "models", None)
        self._models: dict[str, Any] | None = dict(models) if isinstance(models, Mapping) and models else None
        self._cluster: Any = None
        self._outcomes: dict[str, Any] | None = None
        self._syncing = False
        self._labelled: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None  # ids the lists were built for
        self._build_controls()
        super().__init__(children=self._layout(), **kwargs)
        self.set_trait("mode", str(getattr(cluster, "mode", "multinode")))
        self.selected = list(selected)
        self._changed(structure=True)

    # -- state ------------------------------------------------------------------

    @traitlets.validate("selected")
    def _check_selected(self, proposal: dict[str, Any]) -> list[Any]:
        ids = list(dict.fromkeys(proposal["value"]))  # a repeated id counts once
        for node_id in ids:
            if node_id not in self._nodes and node_id not in self._pool:
                raise ToskitError(f"no node with id {node_id!r} in the cluster or its pool")
        return ids

    @traitlets.validate("selected_roles")
    def _check_roles(self, proposal: dict[str, Any]) -> list[str]:
        names = list(dict.fromkeys(_names(proposal["value"])))
        unknown = [n for n in names if n not in self._role_names]
        if unknown:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(unknown[0], self._role_names)
            raise ToskitError(f"unknown role {unknown[0]!r}" + (f"; {hint}" if hint else ""))
        return names

    @traitlets.validate("mode")
    def _check_mode(self, proposal: dict[str, Any]) -> str:
        mode = proposal["value"]
        if not isinstance(mode, str) or not mode:
            raise ToskitError("a cluster mode is a non-empty string such as 'multinode'")
        return mode

    @traitlets.observe("mode", "selected", "selected_roles")
    def _on_state(self, change: dict[str, Any]) -> None:
        self._changed(structure=change["name"] == "mode")

    def _node(self, node_id: Any) -> dict[str, Any]:
        node = self._nodes.get(node_id)
        if node is None:
            where = " (it is in the pool)" if node_id in self._pool else ""
            raise ToskitError(f"no cluster node with id {node_id!r}{where}")
        return node

    def set_mode(self, mode: str) -> None:
        """Switch the cluster mode (``multinode``, ``ha_compact``, …)."""
        self.mode = mode

    def add_node(
        self,
        roles: Iterable[str] = (),
        pending_roles: Iterable[str] = (),
        *,
        pending_deletion: bool = False,
        node_id: Any = None,
        **fields: Any,
    ) -> Any:
        """Add a node to the cluster and return its id (the next free integer
        unless ``node_id`` is given)."""
        if node_id is None:
            ints = [i for i in (*self._nodes, *self._pool) if isinstance(i, int) and not isinstance(i, bool)]
            node_id = max(ints, default=0) + 1
        elif node_id in self._nodes or node_id in self._pool:
            raise ToskitError(f"node id {node_id!r} is already used")
        self._nodes[node_id] = _node_dict(
            {
                **fields,
                "id": node_id,
                "roles": _names(roles),
                "pending_roles": _names(pending_roles),
                "pending_deletion": pending_deletion,
            }
        )
        self._changed(structure=True)
        return node_id

    def remove_node(self, node_id: Any) -> None:
        """Remove a node from the cluster (and from the selection)."""
        self._node(node_id)
        del self._nodes[node_id]
        if node_id in self.selected:
            with self._quiet():
                self.selected = [i for i in self.selected if i != node_id]
        self._changed(structure=True)

    def set_roles(self, node_id: Any, roles: Iterable[str]) -> None:
        """Set a node's deployed roles."""
        self._node(node_id)["roles"] = _names(roles)
        self._changed(structure=True)

    def set_pending_roles(self, node_id: Any, roles: Iterable[str]) -> None:
        """Set a node's pending roles."""
        self._node(node_id)["pending_roles"] = _names(roles)
        self._changed(structure=True)

    def set_pending_deletion(self, node_id: Any, flag: bool = True) -> None:
        """Mark (or unmark) a node as pending deletion."""
        self._node(node_id)["pending_deletion"] = bool(flag)
        self._changed(structure=True)

    def select(self, node_ids: Iterable[Any]) -> None:
        """Replace the selection (ids of cluster or pool nodes)."""
        self.selected = list(node_ids)

    def select_node(self, node_id: Any) -> None:
        """Add one node to the selection."""
        if node_id not in self.selected:
            self.selected = [*self.selected, node_id]

    def deselect_node(self, node_id: Any) -> None:
        """Remove one node from the selection."""
        self.selected = [i for i in self.selected if i != node_id]

    def set_selected_roles(self, roles: Iterable[str]) -> None:
        """The roles to assign to the selection (conflicts are checked against them)."""
        self.selected_roles = _names(roles)

    @property
    def roles(self) -> Any:
        return self._roles

    @property
    def cluster(self) -> Any:
        """The current state as a ``conditions.Cluster`` (rebuilt after a change)."""
        if self._cluster is None:
            self._cluster = self._cluster_class(
                mode=self.mode,
                nodes=[dict(n) for n in self._nodes.values()],
                pool=[dict(n) for n in self._pool.values()],
                models=self._models,
                **self._attributes,
            )
        return self._cluster

    @property
    def outcomes(self) -> dict[str, Any]:
        """Role name → ``RoleOutcome`` for the current cluster and selection."""
        if self._outcomes is None:
            cluster = self.cluster
            self._outcomes = {
                name: self._roles.check(
                    name, cluster, selected=list(self.selected), selected_roles=list(self.selected_roles)
                )
                for name in self._role_names
            }
        return self._outcomes

    def outcome(self, role: str) -> Any:
        """The ``RoleOutcome`` of one role."""
        if role not in self._role_names:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(role, self._role_names)
            raise ToskitError(f"unknown role {role!r}" + (f"; {hint}" if hint else ""))
        return self.outcomes[role]

    def to_frame(self) -> Any:
        """The outcomes as a pandas DataFrame: ``role``, ``allowed``,
        ``warnings``, ``conflicts`` (pandas is imported on first use)."""
        import pandas as pd

        rows = [
            {"role": name, "allowed": out.allowed, "warnings": list(out.warnings), "conflicts": list(out.conflicts)}
            for name, out in self.outcomes.items()
        ]
        return pd.DataFrame(rows, columns=["role", "allowed", "warnings", "conflicts"])

    @property
    def html(self) -> str:
        """The outcome table and the cluster, as shown by the widget."""
        return self._output.value

    def refresh(self) -> None:
        """Re-check every role and redraw."""
        self._changed(structure=False)

    # -- rendering -------------------------------------------------------------

    def _quiet(self) -> Any:
        simulator = self

        class _Quiet:
            def __enter__(self) -> None:
                simulator._syncing = True

            def __exit__(self, *exc: object) -> None:
                simulator._syncing = False

        return _Quiet()

    def _changed(self, *, structure: bool) -> None:
        if self._syncing:
            return
        self._cluster = None
        self._outcomes = None
        self._render()
        self._sync_controls(structure)

    def _render(self) -> None:
        outcomes = self.outcomes
        chosen = ", ".join(str(i) for i in self.selected) or "none"
        assign = "".join(chip(r) for r in self.selected_roles) or '<span class="toskit-faint">none</span>'
        summary = (
            f'<div class="toskit-summary-line"><span class="toskit-muted">selected nodes</span>'
            f'<span class="toskit-mono">{esc(chosen)}</span>'
            f'<span class="toskit-muted">roles to assign</span>{assign}</div>'
        )
        blocked = sum(1 for o in outcomes.values() if not getattr(o, "allowed", False))
        head = (
            f'<div class="toskit-header"><span class="toskit-kind">role outcomes</span>'
            f'<span class="toskit-title">{esc(self.mode)}</span>'
            f"{chip(f'{len(outcomes) - blocked} allowed')}{chip(f'{blocked} blocked')}</div>"
        )
        cluster = cluster_body(
            self.cluster,
            selected=self.selected,
            nodes=list(self._nodes.values()),
            pool=list(self._pool.values()),
        )
        body = head + summary + outcomes_table(outcomes) + cluster
        self._output.value = fragment(body, self._plain(), "simulator")

    def _plain(self) -> str:
        return (
            f"ClusterSimulator(mode={self.mode!r}, nodes={len(self._nodes)}, "
            f"selected={list(self.selected)!r}, selected_roles={list(self.selected_roles)!r})"
        )

    def __repr__(self) -> str:
        return self._plain()

    # -- controls --------------------------------------------------------------

    def _build_controls(self) -> None:
        wide = {"description_width": "initial"}
        self._mode_box = ipywidgets.Dropdown(options=list(MODES), description="mode", style=wide)
        self._select_box = ipywidgets.SelectMultiple(description="selected nodes", rows=6, style=wide)
        self._roles_box = ipywidgets.SelectMultiple(
            options=self._role_names, description="roles to assign", rows=6, style=wide
        )
        self._edit_node = ipywidgets.Dropdown(description="edit node", style=wide)
        self._edit_roles = ipywidgets.SelectMultiple(
            options=self._role_names, description="roles", rows=4, style=wide
        )
        self._edit_pending = ipywidgets.SelectMultiple(
            options=self._role_names, description="pending roles", rows=4, style=wide
        )
        self._edit_deletion = ipywidgets.Checkbox(description="pending deletion", indent=False)
        self._add_button = ipywidgets.Button(description="add node", icon="plus")
        self._remove_button = ipywidgets.Button(description="remove node", icon="trash")
        self._output = ipywidgets.HTML()

        self._mode_box.observe(lambda c: self._from_ui(self.set_mode, c["new"]), "value")
        self._select_box.observe(lambda c: self._from_ui(self.select, c["new"]), "value")
        self._roles_box.observe(lambda c: self._from_ui(self.set_selected_roles, c["new"]), "value")
        self._edit_node.observe(lambda c: self._load_editor(), "value")
        self._edit_roles.observe(lambda c: self._edit(self.set_roles, c["new"]), "value")
        self._edit_pending.observe(lambda c: self._edit(self.set_pending_roles, c["new"]), "value")
        self._edit_deletion.observe(lambda c: self._edit(self.set_pending_deletion, c["new"]), "value")
        self._add_button.on_click(lambda _b: self._add_from_ui())
        self._remove_button.on_click(lambda _b: self._remove_from_ui())

    def _layout(self) -> list[Any]:
        editor = ipywidgets.VBox(
            [
                ipywidgets.HBox([self._edit_node, self._add_button, self._remove_button]),
                ipywidgets.HBox([self._edit_roles, self._edit_pending, self._edit_deletion]),
            ]
        )
        top = ipywidgets.HBox([self._mode_box, self._select_box, self._roles_box])
        return [top, editor, self._output]

    def _from_ui(self, method: Any, value: Any) -> None:
        if not self._syncing:
            method(value)

    def _edit(self, method: Any, value: Any) -> None:
        node_id = self._edit_node.value
        if not self._syncing and node_id is not None and node_id in self._nodes:
            method(node_id, value)

    def _add_from_ui(self) -> None:
        node_id = self.add_node()
        self._edit_node.value = node_id

    def _remove_from_ui(self) -> None:
        if self._edit_node.value is not None:
            self.remove_node(self._edit_node.value)

    def _load_editor(self) -> None:
        node = self._nodes.get(self._edit_node.value)
        if node is None:
            return
        with self._quiet():
            known = set(self._role_names)
            self._edit_roles.value = tuple(r for r in node["roles"] if r in known)
            self._edit_pending.value = tuple(r for r in node["pending_roles"] if r in known)
            self._edit_deletion.value = bool(node["pending_deletion"])

    # Above this many nodes the choice lists show ids only: then they change
    # only when nodes come or go, not on every role edit (rebuilding a list of
    # a thousand labels would cost more than re-checking every role).
    DETAILED_LABELS_UP_TO = 200

    def _label(self, node: dict[str, Any], where: str = "") -> str:
        name = f" · {node['name']}" if node.get("name") else ""
        if len(self._nodes) + len(self._pool) > self.DETAILED_LABELS_UP_TO:
            return f"{node['id']}{name}{where}"
        roles = ", ".join(node["roles"] + [f"{r}*" for r in node["pending_roles"]]) or "no roles"
        flag = " (deleting)" if node["pending_deletion"] else ""
        return f"{node['id']}{name} · {roles}{flag}{where}"

    def _sync_controls(self, structure: bool) -> None:
        with self._quiet():
            if self._mode_box.value != self.mode:
                if self.mode not in self._mode_box.options:
                    self._mode_box.options = [*self._mode_box.options, self.mode]
                self._mode_box.value = self.mode
            detailed = len(self._nodes) + len(self._pool) <= self.DETAILED_LABELS_UP_TO
            membership = (tuple(self._nodes), tuple(self._pool))
            if structure and (detailed or membership != self._labelled):
                self._labelled = membership
                node_options = tuple((self._label(n), i) for i, n in self._nodes.items())
                options = node_options + tuple((self._label(n, " · pool"), i) for i, n in self._pool.items())
                # Only replace lists whose labels changed.
                if tuple(self._select_box.options) != options:
                    self._select_box.options = options
                if tuple(self._edit_node.options) != node_options:
                    edit_value = self._edit_node.value
                    self._edit_node.options = node_options
                    self._edit_node.value = edit_value if edit_value in self._nodes else next(iter(self._nodes), None)
            self._select_box.value = tuple(self.selected)
            self._roles_box.value = tuple(self.selected_roles)
        self._load_editor()
