"""The state of a cluster simulation, without any widget.

:class:`Simulation` holds what a person edits in ``ClusterSimulator`` (the
mode, cluster attributes such as ``status``, the nodes and the pool, the
selection, the roles to assign, a Fuel release's settings and feature
groups) and answers with every role's outcome. The widget
(:mod:`toskit.widgets.cluster_simulator`) is a thin view over it; tests and
scripts use this class directly, with no ipywidgets installed.

Choices:

* **Assigning** a role to the selected nodes (:meth:`Simulation.assign`)
  adds it to their *pending* roles, as Fuel does until a deployment; a pool
  node that gets a role joins the cluster, marked ``pending_addition``.
  :meth:`Simulation.unassign` removes the role from both lists (a node
  left with no role stays in the cluster).
* Roles that a ``hide`` restriction hides are not offered for assignment
  (:attr:`Simulation.assignable_roles`); assigning one raises.
* A setting is validated with its own type and ``regex`` and the
  release's own error text (:func:`toskit.conditions.settings.validate_setting`);
  a rejected value changes nothing.
* A role whose check raises (a restriction reading a setting the release
  lacks) shows as blocked with the error as its reason; the others still
  show.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toskit.conditions.cluster import Cluster
from toskit.conditions.roles import RoleSet
from toskit.conditions.settings import (
    SettingField,
    referenced_feature_groups,
    setting_fields,
    short_path,
    validate_setting,
)
from toskit.errors import ConditionError, ToskitError

__all__ = ["FailedOutcome", "MODES", "Simulation"]

MODES = ("multinode", "ha_compact", "ha_full")
NODE_DEFAULTS: dict[str, Any] = {
    "roles": [],
    "pending_roles": [],
    "pending_deletion": False,
    "pending_addition": False,
}
# Cluster attributes (nailgun's cluster fields) a person may edit, with the
# values offered; an attribute the cluster does not carry is not offered.
EDITABLE_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "status": ("new", "deployment", "stopped", "operational", "error", "remove", "update"),
    "net_provider": ("neutron", "nova_network"),
}


def node_dict(node: Any) -> dict[str, Any]:
    """A plain, normalised copy of a node (mapping or object)."""
    if isinstance(node, Mapping):
        data = dict(node)
    else:
        data = {k: getattr(node, k) for k in ("id", *NODE_DEFAULTS, "name") if hasattr(node, k)}
    if "id" not in data:
        raise ToskitError(f"a cluster node needs an 'id': {node!r}")
    for key, default in NODE_DEFAULTS.items():
        value = data.get(key, default)
        data[key] = list(value) if isinstance(default, list) else bool(value)
    return data


def is_release(obj: Any) -> bool:
    """A Fuel ``Release`` (duck-typed: roles, settings, modes and ``cluster()``)."""
    return all(hasattr(obj, a) for a in ("roles", "settings", "modes")) and callable(
        getattr(obj, "cluster", None)
    )


class FailedOutcome:
    """Stands in for a role whose check raised: blocked, the error as its
    warning and its reason, no trace."""

    def __init__(self, role: str, error: Exception) -> None:
        self.role = role
        self.allowed = False
        self.hidden = False
        self.warnings = [f"check failed: {error}"]
        self.conflicts: list[str] = []
        self.restrictions: list[str] = []
        self.limits = None
        self.trace = None
        self.error = error
        self.reason = f"blocked: the check failed: {error}"
        # The reason quotes the warning: the outcome table lists it once.
        self.reason_quotes = (f"check failed: {error}",)
        self.status = "blocked"

    def __repr__(self) -> str:
        return f"RoleOutcome({self.role!r}, allowed=False, error={str(self.error)!r})"


def string_list(values: Any, what: str) -> list[str]:
    """``values`` as a list of distinct names; ``ToskitError`` otherwise."""
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise ToskitError(f"{what} are a list of names such as ['experimental'], got {values!r}")
    names = list(dict.fromkeys(values))
    bad = [v for v in names if not isinstance(v, str)]
    if bad:
        raise ToskitError(f"{what} are names (strings), got {bad[0]!r}")
    return names


def role_names(roles: Iterable[Any] | str) -> list[str]:
    """One role name or several, as a list of strings."""
    if isinstance(roles, str):
        return [roles]
    return [str(r) for r in roles]


class Simulation:
    """A simulated cluster under edit and the outcome of every role.

    ``Simulation(roles, cluster=None, selected=())``: ``roles`` is a
    ``RoleSet`` or a Fuel ``Release`` (then ``cluster`` defaults to
    ``release.cluster()`` and the settings its roles read are editable).
    Every mutator re-checks lazily: :attr:`outcomes` is computed on first
    read after a change, and :attr:`version` counts the changes.
    """

    def __init__(self, roles: Any, cluster: Any = None, *, selected: Iterable[Any] = ()) -> None:
        self._release = roles if is_release(roles) else None
        if self._release is not None:
            roles = self._release.roles
            if cluster is None:
                cluster = self._release.cluster()
        if not (isinstance(roles, Mapping) and callable(getattr(roles, "check", None))):
            hint = (
                " (load the text first with toskit.conditions.load_roles)"
                if isinstance(roles, str)
                else ""
            )
            raise ToskitError(
                "ClusterSimulator needs a RoleSet (conditions.load_roles) or a Fuel Release "
                f"(conditions.load_release), got {type(roles).__name__}{hint}"
            )
        self._roles: Any = roles
        self._role_names = [str(name) for name in roles]
        if cluster is None:
            cluster = Cluster(mode="multinode")
        elif not isinstance(getattr(cluster, "mode", None), str) or not hasattr(cluster, "nodes"):
            raise ToskitError(
                f"ClusterSimulator needs a conditions.Cluster, got {type(cluster).__name__}"
            )
        # Rebuild clusters with the class we were given (a Cluster subclass stays one).
        self._cluster_class = type(cluster)
        self._nodes: dict[Any, dict[str, Any]] = {}
        for node in getattr(cluster, "nodes", ()) or ():
            data = node_dict(node)
            self._nodes[data["id"]] = data
        self._pool: dict[Any, dict[str, Any]] = {}
        for node in getattr(cluster, "pool", ()) or ():
            data = node_dict(node)
            self._pool[data["id"]] = data
        attributes = getattr(cluster, "attributes", None)
        self._attributes: dict[str, Any] = (
            dict(attributes) if isinstance(attributes, Mapping) else {}
        )
        models = getattr(cluster, "models", None)
        self._models: dict[str, Any] | None = (
            dict(models) if isinstance(models, Mapping) and models else None
        )
        self._mode = str(getattr(cluster, "mode", "multinode"))
        if self._release is not None:
            # The release's modes; a cluster given in another mode keeps it too.
            self._modes: tuple[str, ...] = tuple(dict.fromkeys([*self._release.modes, self._mode]))
            settings = (self._models or {}).get("settings", self._release.settings)
            self._setting_fields = setting_fields(roles, settings)
            self._feature_group_names = referenced_feature_groups(roles)
            version = (self._models or {}).get("version")
            groups = version.get("feature_groups") if isinstance(version, Mapping) else None
            self._feature_groups: list[str] = string_list(groups or [], "feature groups")
        else:
            self._modes = tuple(dict.fromkeys([*MODES, self._mode]))
            self._setting_fields = []
            self._feature_group_names = []
            self._feature_groups = []
        self._overrides: dict[str, Any] = {}  # full leaf path -> value, in edit order
        self._selected: list[Any] = []
        self._selected_roles: list[str] = []
        self._cluster: Any = None
        self._outcomes: dict[str, Any] | None = None
        self.version = 0
        self.select(selected)

    # -- reading ---------------------------------------------------------------

    @property
    def roles(self) -> Any:
        """The ``RoleSet`` simulated."""
        return self._roles

    @property
    def role_names(self) -> list[str]:
        """Every role, in document order."""
        return list(self._role_names)

    @property
    def release(self) -> Any:
        """The Fuel ``Release`` simulated, or None for a roles document."""
        return self._release

    @property
    def mode(self) -> str:
        """The cluster mode."""
        return self._mode

    @property
    def modes(self) -> tuple[str, ...]:
        """The modes offered (a release's own modes)."""
        return self._modes

    @property
    def nodes(self) -> dict[Any, dict[str, Any]]:
        """Cluster nodes by id (the simulation's own dicts: do not modify)."""
        return self._nodes

    @property
    def pool(self) -> dict[Any, dict[str, Any]]:
        """Pool nodes by id (the simulation's own dicts: do not modify)."""
        return self._pool

    @property
    def attributes(self) -> dict[str, Any]:
        """The cluster attributes (``status``, ``net_provider``, …), a copy."""
        return dict(self._attributes)

    @property
    def editable_attributes(self) -> dict[str, tuple[str, ...]]:
        """The attributes this cluster carries that a person may change,
        with the values offered (the current value always among them)."""
        out = {}
        for name, values in EDITABLE_ATTRIBUTES.items():
            if name in self._attributes:
                current = self._attributes[name]
                out[name] = tuple(dict.fromkeys([*values, current]))
        return out

    @property
    def selected(self) -> list[Any]:
        """The selected node ids, in order."""
        return list(self._selected)

    @property
    def selected_roles(self) -> list[str]:
        """The roles to assign to the selection (conflicts are checked against them)."""
        return list(self._selected_roles)

    @property
    def setting_fields(self) -> list[SettingField]:
        """Every setting the roles' restrictions and limits read (empty without a release)."""
        return list(self._setting_fields)

    @property
    def feature_groups(self) -> list[str]:
        """The master node's feature groups (``version:feature_groups``); none by default."""
        return list(self._feature_groups)

    @property
    def feature_group_names(self) -> list[str]:
        """The feature groups the roles test (``experimental``, ``advanced``)."""
        return list(self._feature_group_names)

    # -- changes ---------------------------------------------------------------

    def _changed(self) -> None:
        self._cluster = None
        self._outcomes = None
        self.version += 1

    def _node(self, node_id: Any) -> dict[str, Any]:
        node = self._nodes.get(node_id)
        if node is None:
            where = " (it is in the pool)" if node_id in self._pool else ""
            raise ToskitError(f"no cluster node with id {node_id!r}{where}")
        return node

    def _known_roles(self, roles: Iterable[str] | str) -> list[str]:
        names = list(dict.fromkeys(role_names(roles)))
        unknown = [n for n in names if n not in self._role_names]
        if unknown:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(unknown[0], self._role_names)
            raise ToskitError(f"unknown role {unknown[0]!r}" + (f"; {hint}" if hint else ""))
        return names

    def set_mode(self, mode: str) -> None:
        """Switch the cluster mode (for a release, one of its modes)."""
        if not isinstance(mode, str) or not mode:
            raise ToskitError("a cluster mode is a non-empty string such as 'multinode'")
        if self._release is not None and mode not in self._modes:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(mode, self._modes)
            raise ToskitError(
                f"{mode!r} is not a mode of release {self._release.name!r} "
                f"(modes: {', '.join(self._modes)})" + (f"; {hint}" if hint else "")
            )
        if mode != self._mode:
            self._mode = mode
            self._changed()

    def set_attribute(self, name: str, value: Any) -> None:
        """Set a cluster attribute (``status``, ``net_provider``, …)."""
        if not isinstance(name, str) or not name or name in ("mode", "nodes", "models"):
            raise ToskitError(f"not a cluster attribute name: {name!r}")
        self._attributes[name] = value
        self._changed()

    def select(self, node_ids: Iterable[Any]) -> None:
        """Replace the selection (ids of cluster or pool nodes; a repeated id counts once)."""
        if isinstance(node_ids, (str, bytes, Mapping)) or not isinstance(node_ids, Iterable):
            raise ToskitError(f"selected must be a list of node ids, got {node_ids!r}")
        ids = list(dict.fromkeys(node_ids))
        for node_id in ids:
            if node_id not in self._nodes and node_id not in self._pool:
                raise ToskitError(f"no node with id {node_id!r} in the cluster or its pool")
        if ids != self._selected:
            self._selected = ids
            self._changed()

    def select_node(self, node_id: Any) -> None:
        """Add one node to the selection."""
        if node_id not in self._selected:
            self.select([*self._selected, node_id])

    def deselect_node(self, node_id: Any) -> None:
        """Remove one node from the selection."""
        self.select([i for i in self._selected if i != node_id])

    def select_by_role(self, role: str, *, add: bool = False) -> list[Any]:
        """Select every cluster node that has ``role`` (deployed or pending);
        ``add=True`` adds them to the current selection. Returns the selection."""
        (name,) = self._known_roles([role])
        ids = [
            i for i, n in self._nodes.items() if name in n["roles"] or name in n["pending_roles"]
        ]
        self.select([*self._selected, *ids] if add else ids)
        return self.selected

    def set_selected_roles(self, roles: Iterable[str] | str) -> None:
        """The roles to assign to the selection."""
        names = self._known_roles(roles)
        if names != self._selected_roles:
            self._selected_roles = names
            self._changed()

    def add_node(
        self,
        roles: Iterable[str] = (),
        pending_roles: Iterable[str] = (),
        *,
        pending_deletion: bool = False,
        node_id: Any = None,
        pool: bool = False,
        **fields: Any,
    ) -> Any:
        """Add a node to the cluster (``pool=True``: to the pool) and return
        its id (the next free integer unless ``node_id`` is given)."""
        if node_id is None:
            ints = [
                i
                for i in (*self._nodes, *self._pool)
                if isinstance(i, int) and not isinstance(i, bool)
            ]
            node_id = max(ints, default=0) + 1
        elif node_id in self._nodes or node_id in self._pool:
            raise ToskitError(f"node id {node_id!r} is already used")
        data = node_dict(
            {
                **fields,
                "id": node_id,
                "roles": role_names(roles),
                "pending_roles": role_names(pending_roles),
                "pending_deletion": pending_deletion,
            }
        )
        (self._pool if pool else self._nodes)[node_id] = data
        self._changed()
        return node_id

    def remove_node(self, node_id: Any) -> None:
        """Remove a node from the cluster (and from the selection)."""
        self._node(node_id)
        del self._nodes[node_id]
        self._selected = [i for i in self._selected if i != node_id]
        self._changed()

    def set_roles(self, node_id: Any, roles: Iterable[str]) -> None:
        """Set a node's deployed roles."""
        self._node(node_id)["roles"] = role_names(roles)
        self._changed()

    def set_pending_roles(self, node_id: Any, roles: Iterable[str]) -> None:
        """Set a node's pending roles."""
        self._node(node_id)["pending_roles"] = role_names(roles)
        self._changed()

    def set_pending_deletion(self, node_id: Any, flag: bool = True) -> None:
        """Mark (or unmark) a node as pending deletion."""
        self._node(node_id)["pending_deletion"] = bool(flag)
        self._changed()

    @property
    def assignable_roles(self) -> list[str]:
        """The roles offered for assignment: every role that is not hidden."""
        hidden = set(self.hidden_roles)
        return [n for n in self._role_names if n not in hidden]

    def assign(
        self, roles: Iterable[str] | str, node_ids: Iterable[Any] | None = None
    ) -> list[Any]:
        """Add ``roles`` to the pending roles of ``node_ids`` (default: the
        selection), all at once; a pool node joins the cluster as pending
        addition. Hidden roles cannot be assigned. Returns the ids changed."""
        names = self._known_roles(roles)
        hidden = [n for n in names if n in self.hidden_roles]
        if hidden:
            raise ToskitError(
                f"role {hidden[0]!r} is hidden by a restriction and cannot be assigned"
            )
        ids = self._targets(node_ids)
        for node_id in ids:
            if node_id in self._pool:
                node = self._pool.pop(node_id)
                node["pending_addition"] = True
                self._nodes[node_id] = node
            node = self._nodes[node_id]
            for name in names:
                if name not in node["roles"] and name not in node["pending_roles"]:
                    node["pending_roles"].append(name)
        if ids:
            self._changed()
        return ids

    def unassign(
        self, roles: Iterable[str] | str, node_ids: Iterable[Any] | None = None
    ) -> list[Any]:
        """Remove ``roles`` (deployed and pending) from ``node_ids`` (default:
        the selection). Returns the ids changed."""
        names = set(self._known_roles(roles))
        ids = [i for i in self._targets(node_ids) if i in self._nodes]
        for node_id in ids:
            node = self._nodes[node_id]
            node["roles"] = [r for r in node["roles"] if r not in names]
            node["pending_roles"] = [r for r in node["pending_roles"] if r not in names]
        if ids:
            self._changed()
        return ids

    def _targets(self, node_ids: Iterable[Any] | None) -> list[Any]:
        ids = self.selected if node_ids is None else list(dict.fromkeys(node_ids))
        for node_id in ids:
            if node_id not in self._nodes and node_id not in self._pool:
                raise ToskitError(f"no node with id {node_id!r} in the cluster or its pool")
        return ids

    # -- settings --------------------------------------------------------------

    def field(self, path: str) -> SettingField:
        """The settings-panel entry for ``path`` (``storage.volumes_ceph`` or
        its full path ``storage.volumes_ceph.value``)."""
        if not isinstance(path, str):
            raise ToskitError(
                f"a setting is named by a dotted path such as 'storage.volumes_ceph', got {path!r}"
            )
        for field in self._setting_fields:
            if path in (field.path, field.name):
                return field
        if self._release is None:
            raise ToskitError(
                "this simulator has no settings (it was built from a roles document, not a release)"
            )
        from toskit.diagnostics import did_you_mean

        names = [f.name for f in self._setting_fields]
        hint = did_you_mean(short_path(path), names)
        raise ToskitError(
            f"no setting {path!r} is read by the roles' restrictions or limits"
            + (f"; {hint}" if hint else f" (settings: {', '.join(names) or 'none'})")
        )

    def setting(self, path: str) -> Any:
        """The current value of a setting."""
        field = self.field(path)
        return self._overrides.get(field.path, field.default)

    @property
    def settings(self) -> dict[str, Any]:
        """Every panel setting's current value, by name."""
        return {f.name: self._overrides.get(f.path, f.default) for f in self._setting_fields}

    @property
    def settings_overrides(self) -> dict[str, Any]:
        """The settings changed from the starting values, as dotted paths."""
        return dict(self._overrides)

    def set_setting(self, path: str, value: Any) -> None:
        """Change a setting after validating ``value`` with the setting's own
        type and regex (``SettingError`` with its own message otherwise)."""
        field = self.field(path)
        value = validate_setting(field, value)
        if value == field.default and type(value) is type(field.default):
            self._overrides.pop(field.path, None)
        else:
            self._overrides[field.path] = value
        self._changed()

    def reset_settings(self) -> None:
        """Every setting (and the feature groups) back to the starting values."""
        self._overrides.clear()
        self._changed()

    def set_feature_groups(self, groups: Iterable[str]) -> None:
        """Set the master node's feature groups (only for a release)."""
        if self._release is None:
            raise ToskitError(
                "feature groups belong to a Fuel release; this simulator has a roles document"
            )
        self._feature_groups = string_list(groups, "feature groups")
        self._changed()

    # -- outcomes --------------------------------------------------------------

    @property
    def cluster(self) -> Any:
        """The current state as a ``conditions.Cluster`` (rebuilt after a change)."""
        if self._cluster is None:
            models = self._models
            if self._release is not None:
                version = (models or {}).get("version")
                version = dict(version) if isinstance(version, Mapping) else {}
                version["feature_groups"] = list(self._feature_groups)
                models = {**(models or {}), "version": version}
            self._cluster = self._cluster_class(
                mode=self._mode,
                nodes=[dict(n) for n in self._nodes.values()],
                pool=[dict(n) for n in self._pool.values()],
                models=models,
                **self._attributes,
            )
            if self._overrides:
                self._cluster = self._cluster.with_settings(self._overrides)
        return self._cluster

    @property
    def outcomes(self) -> dict[str, Any]:
        """Role name → ``RoleOutcome`` for the current cluster and selection."""
        if self._outcomes is None:
            self._outcomes = self._check_all()
        return self._outcomes

    def _check_all(self) -> dict[str, Any]:
        cluster = self.cluster
        selected, assign = self.selected, self.selected_roles
        # Every trace is drawn: a RoleSet records them in its one evaluation
        # (a role set of another kind is asked as the mapping protocol says).
        extra: dict[str, Any] = {"record": True} if isinstance(self._roles, RoleSet) else {}
        check_all = getattr(self._roles, "check_all", None)
        if check_all is not None:
            try:
                # One shared context: invariants are computed once for all roles.
                return dict(check_all(cluster, selected=selected, selected_roles=assign, **extra))
            except ConditionError:
                pass  # find the role that fails, below; the others still show
        outcomes: dict[str, Any] = {}
        for name in self._role_names:
            try:
                outcomes[name] = self._roles.check(
                    name, cluster, selected=selected, selected_roles=assign, **extra
                )
            except ConditionError as error:
                outcomes[name] = FailedOutcome(name, error)
        return outcomes

    def outcome(self, role: str) -> Any:
        """The ``RoleOutcome`` of one role."""
        if role not in self._role_names:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(role, self._role_names)
            raise ToskitError(f"unknown role {role!r}" + (f"; {hint}" if hint else ""))
        return self.outcomes[role]

    @property
    def hidden_roles(self) -> list[str]:
        """Roles whose outcome is hidden (a Fuel ``hide`` restriction is active)."""
        return [name for name, out in self.outcomes.items() if getattr(out, "hidden", False)]

    @property
    def shown_outcomes(self) -> dict[str, Any]:
        """The outcomes a view lists: every role that is not hidden."""
        return {n: o for n, o in self.outcomes.items() if not getattr(o, "hidden", False)}

    def to_frame(self) -> Any:
        """The outcomes as a pandas DataFrame: ``role``, ``allowed``,
        ``status``, ``reason``, ``warnings``, ``conflicts``, and for a release
        also ``hidden`` and the limit columns ``count``, ``min``, ``max``,
        ``recommended``."""
        import pandas as pd

        columns = ["role", "allowed", "status", "reason", "warnings", "conflicts"]
        fuel = self._release is not None
        if fuel:
            columns += ["hidden", "count", "min", "max", "recommended"]
        rows = []
        for name, out in self.outcomes.items():
            row = {
                "role": name,
                "allowed": out.allowed,
                "status": getattr(out, "status", "allowed" if out.allowed else "blocked"),
                "reason": getattr(out, "reason", ""),
                "warnings": list(out.warnings),
                "conflicts": list(out.conflicts),
            }
            if fuel:
                limits = getattr(out, "limits", None)
                row["hidden"] = bool(getattr(out, "hidden", False))
                for bound in ("count", "min", "max", "recommended"):
                    row[bound] = getattr(limits, bound, None)
            rows.append(row)
        return pd.DataFrame(rows, columns=columns)

    def __repr__(self) -> str:
        release = f"release={self._release.name!r}, " if self._release is not None else ""
        settings = f", settings_overrides={self._overrides!r}" if self._overrides else ""
        if self._feature_groups:
            settings += f", feature_groups={self._feature_groups!r}"
        return (
            f"ClusterSimulator({release}mode={self._mode!r}, nodes={len(self._nodes)}, "
            f"selected={self._selected!r}, selected_roles={self._selected_roles!r}{settings})"
        )
