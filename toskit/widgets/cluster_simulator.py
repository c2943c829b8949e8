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
from toskit.errors import ConditionError, ToskitError
from toskit.widgets.fuel_settings import (
    SettingField,
    referenced_feature_groups,
    setting_fields,
    short_path,
)

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


def _is_release(obj: Any) -> bool:
    """A Fuel ``Release`` (duck-typed: roles, settings, modes and ``cluster()``)."""
    return all(hasattr(obj, a) for a in ("roles", "settings", "modes")) and callable(getattr(obj, "cluster", None))


class _FailedOutcome:
    """Stands in for a role whose check raised (say, a restriction reading a
    setting the release does not define): blocked, the error as its warning."""

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

    def __repr__(self) -> str:
        return f"RoleOutcome({self.role!r}, allowed=False, error={str(self.error)!r})"


def _coerce(field: SettingField, value: Any) -> Any:
    """``value`` checked against the kind of ``field`` (see ``set_setting``)."""
    kind = field.kind
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "bool" and isinstance(value, bool):
        return value
    if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == "float" and is_number:
        return float(value)
    if kind == "choice" and (value in field.choices or value == field.default):
        return value
    if kind == "text" and (isinstance(value, str) or is_number):
        # Fuel keeps numbers of text settings as text ("3"); so do we.
        return value if isinstance(value, str) else str(value)
    if kind == "other":
        return value
    expected = {
        "bool": "true or false",
        "int": "an integer",
        "float": "a number",
        "choice": "one of " + ", ".join(repr(c) for c in field.choices),
        "text": "a string",
    }[kind]
    label = f" ({field.label})" if field.label != field.name else ""
    raise ToskitError(f"setting {field.name!r}{label} takes {expected}, got {value!r}")


def _setting_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _setting_box(field: SettingField) -> Any:
    """The control that edits one setting: a checkbox, a number box, a
    dropdown of its ``values``, a text box, or (any other type, or a setting
    the model lacks) a read-only text of its value."""
    description = f"{field.label} ({field.name})" if field.label != field.name else field.name
    common = {"description": description, "style": {"description_width": "initial"}}
    layout = ipywidgets.Layout(width="auto")
    if field.kind == "bool":
        box = ipywidgets.Checkbox(value=field.default, indent=False, layout=layout, **common)
    elif field.kind == "int":
        box = ipywidgets.IntText(value=field.default, **common)
    elif field.kind == "float":
        box = ipywidgets.FloatText(value=field.default, **common)
    elif field.kind == "choice":
        options = list(dict.fromkeys([*field.choices, field.default]))
        box = ipywidgets.Dropdown(options=[(_setting_text(o), o) for o in options], value=field.default, **common)
    elif field.kind == "text":
        box = ipywidgets.Text(value=field.default, continuous_update=False, **common)
    else:
        box = ipywidgets.Text(value=_setting_text(field.default), disabled=True, **common)
    # What _sync_controls needs to show the current value.
    box.toskit_default, box.toskit_kind = field.default, field.kind
    return box


def _string_list(values: Any, what: str) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise ToskitError(f"{what} are a list of names such as ['experimental'], got {values!r}")
    names = list(dict.fromkeys(values))
    bad = [v for v in names if not isinstance(v, str)]
    if bad:
        raise ToskitError(f"{what} are names (strings), got {bad[0]!r}")
    return names


def _names(roles: Iterable[Any] | str) -> list[str]:
    if isinstance(roles, str):
        return [roles]
    return [str(r) for r in roles]


class ClusterSimulator(ipywidgets.VBox):
    """A simulated cluster the user edits live, with every role's outcome.

    ``ClusterSimulator(roles, cluster=None)``: ``roles`` is a ``RoleSet``
    (``conditions.load_roles``), ``cluster`` a ``conditions.Cluster``
    (default: an empty ``multinode`` cluster).

    ``ClusterSimulator(release, cluster=None)``: a Fuel ``Release``
    (``conditions.load_release``); ``cluster`` defaults to
    ``release.cluster()``. The mode control then offers the release's modes
    only, and a settings panel edits every setting the roles' restrictions
    and limits read (:attr:`setting_fields`); :meth:`set_setting` does the
    same from Python. Roles whose outcome is ``hidden`` are left out of the
    shown list (a note counts them); :attr:`outcomes` still has them all.

    :attr:`outcomes` maps each role to its ``RoleOutcome`` for the current
    cluster, selection and roles to assign; :attr:`html` is what the widget
    shows.
    """

    mode = traitlets.Unicode("multinode")
    selected = traitlets.List()
    selected_roles = traitlets.List()

    def __init__(self, roles: Any, cluster: Any = None, *, selected: Iterable[Any] = (), **kwargs: Any) -> None:
        self._release = roles if _is_release(roles) else None
        if self._release is not None:
            roles = self._release.roles
            if cluster is None:
                cluster = self._release.cluster()
        if not (isinstance(roles, Mapping) and callable(getattr(roles, "check", None))):
            hint = " (load the text first with toskit.conditions.load_roles)" if isinstance(roles, str) else ""
            raise ToskitError(
                "ClusterSimulator needs a RoleSet (conditions.load_roles) or a Fuel Release "
                f"(conditions.load_release), got {type(roles).__name__}{hint}"
            )
        self._roles = roles
        self._role_names = [str(name) for name in roles]
        if cluster is None:
            from toskit import conditions

            cluster = conditions.Cluster(mode="multinode")
        elif not isinstance(getattr(cluster, "mode", None), str) or not hasattr(cluster, "nodes"):
            raise ToskitError(f"ClusterSimulator needs a conditions.Cluster, got {type(cluster).__name__}")
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
        initial_mode = str(getattr(cluster, "mode", "multinode"))
        if self._release is not None:
            # The release's modes; a cluster given in another mode keeps it too.
            self._modes: tuple[str, ...] = tuple(dict.fromkeys([*self._release.modes, initial_mode]))
            settings = (self._models or {}).get("settings", self._release.settings)
            self._setting_fields = setting_fields(roles, settings)
            self._feature_group_names = referenced_feature_groups(roles)
            version = (self._models or {}).get("version")
            groups = version.get("feature_groups") if isinstance(version, Mapping) else None
            self._feature_groups: list[str] = _string_list(groups or [], "feature groups")
        else:
            self._modes = tuple(dict.fromkeys([*MODES, initial_mode]))
            self._setting_fields = []
            self._feature_group_names = []
            self._feature_groups = []
        self._overrides: dict[str, Any] = {}  # full leaf path -> value, in edit order
        self._cluster: Any = None
        self._outcomes: dict[str, Any] | None = None
        self._syncing = False
        self._labelled: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None  # ids the lists were built for
        self._build_controls()
        super().__init__(children=self._layout(), **kwargs)
        self.set_trait("mode", initial_mode)
        # Build the node lists first: setting ``selected`` syncs the selection
        # box, whose options must already hold the selected ids.
        self._changed(structure=True)
        self.selected = list(selected)

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
        if self._release is not None and mode not in self._modes:
            from toskit.diagnostics import did_you_mean

            hint = did_you_mean(mode, self._modes)
            raise ToskitError(
                f"{mode!r} is not a mode of release {self._release.name!r} "
                f"(modes: {', '.join(self._modes)})" + (f"; {hint}" if hint else "")
            )
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
        """Switch the cluster mode (``multinode``, ``ha_compact``, …; for a
        release, one of its modes)."""
        self.mode = mode

    @property
    def modes(self) -> tuple[str, ...]:
        """The modes the mode control offers."""
        return self._modes

    @property
    def release(self) -> Any:
        """The Fuel ``Release`` simulated, or None for a roles document."""
        return self._release

    @property
    def setting_fields(self) -> list[SettingField]:
        """The settings panel's entries: every setting the roles'
        restrictions and limits read (empty without a release)."""
        return list(self._setting_fields)

    def _field(self, path: str) -> SettingField:
        if not isinstance(path, str):
            raise ToskitError(f"a setting is named by a dotted path such as 'storage.volumes_ceph', got {path!r}")
        for field in self._setting_fields:
            if path in (field.path, field.name):
                return field
        if self._release is None:
            raise ToskitError("this simulator has no settings (it was built from a roles document, not a release)")
        from toskit.diagnostics import did_you_mean

        names = [f.name for f in self._setting_fields]
        hint = did_you_mean(short_path(path), names)
        raise ToskitError(
            f"no setting {path!r} is read by the roles' restrictions or limits"
            + (f"; {hint}" if hint else f" (settings: {', '.join(names) or 'none'})")
        )

    def setting(self, path: str) -> Any:
        """The current value of a panel setting (``"storage.volumes_ceph"``
        or its full path ``"storage.volumes_ceph.value"``)."""
        field = self._field(path)
        return self._overrides.get(field.path, field.default)

    @property
    def settings(self) -> dict[str, Any]:
        """Every panel setting's current value, by name (``storage.volumes_ceph``)."""
        return {f.name: self._overrides.get(f.path, f.default) for f in self._setting_fields}

    @property
    def settings_overrides(self) -> dict[str, Any]:
        """The settings changed from the starting values, as the dotted
        paths ``Release.cluster(settings_overrides=…)`` takes."""
        return dict(self._overrides)

    def set_setting(self, path: str, value: Any) -> None:
        """Change a setting (``set_setting("storage.volumes_ceph", True)``;
        the full path ``storage.volumes_ceph.value`` works too), rebuild the
        cluster's ``settings`` model and re-check every role.

        The value must suit the setting: a boolean for a checkbox, a number
        for a number (integer text such as ``"3"`` for a text setting is
        kept as text), one of the setting's ``values`` for a choice.
        """
        field = self._field(path)
        value = _coerce(field, value)
        if value == field.default and type(value) is type(field.default):
            self._overrides.pop(field.path, None)
        else:
            self._overrides[field.path] = value
        self._changed(structure=False)

    @property
    def feature_groups(self) -> list[str]:
        """The master node's feature groups (``version:feature_groups``) the
        release's roles are checked with; none by default."""
        return list(self._feature_groups)

    @property
    def feature_group_names(self) -> list[str]:
        """The feature groups the roles test (``experimental``, ``advanced``):
        one checkbox each in the settings panel."""
        return list(self._feature_group_names)

    def set_feature_groups(self, groups: Iterable[str]) -> None:
        """Set the master node's feature groups (``["experimental"]``) and
        re-check every role (only for a release)."""
        if self._release is None:
            raise ToskitError("feature groups belong to a Fuel release; this simulator has a roles document")
        self._feature_groups = _string_list(groups, "feature groups")
        self._changed(structure=False)

    def reset_settings(self) -> None:
        """Every setting back to its starting value."""
        self._overrides.clear()
        self._changed(structure=False)

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
            models = self._models
            if self._release is not None:
                version = (models or {}).get("version")
                version = dict(version) if isinstance(version, Mapping) else {}
                version["feature_groups"] = list(self._feature_groups)
                models = {**(models or {}), "version": version}
            self._cluster = self._cluster_class(
                mode=self.mode,
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
        selected, assign = list(self.selected), list(self.selected_roles)
        check_all = getattr(self._roles, "check_all", None)
        if check_all is not None:
            try:
                # One shared context: invariants are computed once for all roles.
                return dict(check_all(cluster, selected=selected, selected_roles=assign))
            except ConditionError:
                pass  # find the role that fails, below; the others still show
        outcomes: dict[str, Any] = {}
        for name in self._role_names:
            try:
                outcomes[name] = self._roles.check(name, cluster, selected=selected, selected_roles=assign)
            except ConditionError as error:
                outcomes[name] = _FailedOutcome(name, error)
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
        """The outcomes the widget lists: every role that is not hidden."""
        return {name: out for name, out in self.outcomes.items() if not getattr(out, "hidden", False)}

    def to_frame(self) -> Any:
        """The outcomes as a pandas DataFrame: ``role``, ``allowed``,
        ``warnings``, ``conflicts``, and for a release also ``hidden`` and
        the limit columns ``count``, ``min``, ``max``, ``recommended``
        (pandas is imported on first use)."""
        import pandas as pd

        columns = ["role", "allowed", "warnings", "conflicts"]
        fuel = self._release is not None
        if fuel:
            columns += ["hidden", "count", "min", "max", "recommended"]
        rows = []
        for name, out in self.outcomes.items():
            row = {"role": name, "allowed": out.allowed, "warnings": list(out.warnings), "conflicts": list(out.conflicts)}
            if fuel:
                limits = getattr(out, "limits", None)
                row["hidden"] = bool(getattr(out, "hidden", False))
                for bound in ("count", "min", "max", "recommended"):
                    row[bound] = getattr(limits, bound, None)
            rows.append(row)
        return pd.DataFrame(rows, columns=columns)

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
        shown = {n: o for n, o in outcomes.items() if not getattr(o, "hidden", False)}
        hidden = [n for n in outcomes if n not in shown]
        blocked = sum(1 for o in shown.values() if not getattr(o, "allowed", False))
        chips = chip(f"{len(shown) - blocked} allowed") + chip(f"{blocked} blocked")
        if hidden:
            chips += chip(f"{len(hidden)} hidden")
        release = ""
        if self._release is not None:
            release = f'<span class="toskit-muted">{esc(self._release.name)}</span>'
        head = (
            f'<div class="toskit-header"><span class="toskit-kind">role outcomes</span>'
            f'<span class="toskit-title">{esc(self.mode)}</span>{release}{chips}</div>'
        )
        if hidden:
            summary += (
                f'<div class="toskit-summary-line"><span class="toskit-muted">{len(hidden)} hidden</span>'
                f'<span class="toskit-faint">{esc(", ".join(hidden))}</span></div>'
            )
        if self._feature_groups:
            groups = "".join(chip(g) for g in self._feature_groups)
            summary += f'<div class="toskit-summary-line"><span class="toskit-muted">feature groups</span>{groups}</div>'
        if self._overrides:
            changed = "".join(
                chip(f"{short_path(path)}: {_setting_text(value)}") for path, value in self._overrides.items()
            )
            summary += (
                f'<div class="toskit-summary-line"><span class="toskit-muted">changed settings</span>{changed}</div>'
            )
        cluster = cluster_body(
            self.cluster,
            selected=self.selected,
            nodes=list(self._nodes.values()),
            pool=list(self._pool.values()),
        )
        body = head + summary + outcomes_table(shown) + cluster
        self._output.value = fragment(body, self._plain(), "simulator")

    def _plain(self) -> str:
        release = f"release={self._release.name!r}, " if self._release is not None else ""
        settings = f", settings_overrides={self._overrides!r}" if self._overrides else ""
        if self._feature_groups:
            settings += f", feature_groups={self._feature_groups!r}"
        return (
            f"ClusterSimulator({release}mode={self.mode!r}, nodes={len(self._nodes)}, "
            f"selected={list(self.selected)!r}, selected_roles={list(self.selected_roles)!r}{settings})"
        )

    def __repr__(self) -> str:
        return self._plain()

    # -- controls --------------------------------------------------------------

    def _build_controls(self) -> None:
        wide = {"description_width": "initial"}
        self._mode_box = ipywidgets.Dropdown(options=list(self._modes), description="mode", style=wide)
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
        self._setting_boxes: dict[str, Any] = {}
        for field in self._setting_fields:
            box = _setting_box(field)
            box.observe(lambda c, p=field.path: self._from_ui(lambda v: self.set_setting(p, v), c["new"]), "value")
            self._setting_boxes[field.path] = box
        self._feature_boxes: dict[str, Any] = {}
        for group in self._feature_group_names:
            box = ipywidgets.Checkbox(description=f"feature group: {group}", indent=False)
            box.observe(lambda c, g=group: self._from_ui(lambda v: self._toggle_feature(g, v), c["new"]), "value")
            self._feature_boxes[group] = box

    def _layout(self) -> list[Any]:
        editor = ipywidgets.VBox(
            [
                ipywidgets.HBox([self._edit_node, self._add_button, self._remove_button]),
                ipywidgets.HBox([self._edit_roles, self._edit_pending, self._edit_deletion]),
            ]
        )
        top = ipywidgets.HBox([self._mode_box, self._select_box, self._roles_box])
        if not self._setting_boxes and not self._feature_boxes:
            return [top, editor, self._output]
        heading = ipywidgets.HTML("<b>settings</b> (those the roles' restrictions and limits read)")
        panel = ipywidgets.VBox([heading, *self._feature_boxes.values(), *self._setting_boxes.values()])
        return [top, panel, editor, self._output]

    def _toggle_feature(self, group: str, on: bool) -> None:
        groups = [g for g in self._feature_groups if g != group]
        self.set_feature_groups([*groups, group] if on else groups)

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
            for group, box in self._feature_boxes.items():
                box.value = group in self._feature_groups
            for path, box in self._setting_boxes.items():
                value = self._overrides.get(path, box.toskit_default)
                shown = value if box.toskit_kind != "other" else _setting_text(value)
                if box.value != shown:
                    box.value = shown
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
