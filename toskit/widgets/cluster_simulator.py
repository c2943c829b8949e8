"""``ClusterSimulator``: edit a simulated cluster live and watch every role's
outcome (allowed/blocked, its reason, warnings, conflicts, the trace)
follow.

The state and every rule live in :class:`toskit.conditions.simulator.Simulation`
(testable without ipywidgets); this module is the view: controls that call
the simulation's methods, and one view of the outcomes and the cluster
table (:class:`SimulatorView`, a small anywidget) in which node checkboxes
select nodes and opened traces stay open across redraws. On a 1,000-node
cluster a change re-checks every role and redraws in a few milliseconds
(``bench/bench_views.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

import anywidget
import ipywidgets
import traitlets

from toskit.conditions.settings import SettingError, SettingField, short_path
from toskit.conditions.simulator import FailedOutcome, Simulation, role_names
from toskit.display.conditions_views import cluster_body, hidden_reason_html, outcomes_table
from toskit.display.html import chip, code, css, esc, fragment
from toskit.widgets.snapshot import EXPORT_LINK_STYLE, StaticSnapshot, snapshot_note

__all__ = ["ClusterSimulator", "SimulatorView"]

# Kept for code that imported them from here.
_FailedOutcome = FailedOutcome
_names = role_names

# Rows of the node tables drawn at once (the rest is counted).
NODE_ROWS = 200


def _role_problems(outcome: Any) -> tuple[bool, int]:
    """``(blocked, warnings and conflicts)`` of a role's outcome (``None``:
    no outcome, no problem)."""
    if outcome is None:
        return False, 0
    found = len(getattr(outcome, "warnings", ()) or ()) + len(
        getattr(outcome, "conflicts", ()) or ()
    )
    return not getattr(outcome, "allowed", True), found


def role_label(name: str, outcome: Any) -> str:
    """A role's entry in the simulator's pickers: its name with what is wrong
    (``ceph-osd — blocked, 1 warning``), like the property explorer's node
    picker; the bare name when the role is allowed without a warning."""
    blocked, found = _role_problems(outcome)
    parts = ["blocked"] if blocked else []
    if found:
        parts.append(f"{found} warning{'s' if found != 1 else ''}")
    return f"{name} — {', '.join(parts)}" if parts else name


@lru_cache(maxsize=1)
def _esm() -> str:
    return (
        resources.files("toskit.widgets")
        .joinpath("cluster_simulator.js")
        .read_text(encoding="utf-8")
    )


class SimulatorView(anywidget.AnyWidget):
    """The HTML of the outcomes and the cluster (``html``), with node
    checkboxes that set ``selected`` and collapsible entries whose open
    state is kept in ``open_keys``."""

    _esm = traitlets.Unicode().tag(sync=True)
    _css = traitlets.Unicode().tag(sync=True)
    #: ``outcomes`` (drawn as ipywidgets' HTML output is) or ``nodes``
    part = traitlets.Unicode("outcomes").tag(sync=True)
    html = traitlets.Unicode("").tag(sync=True)
    selected: traitlets.List[Any] = traitlets.List().tag(sync=True)
    open_keys = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(_esm=_esm(), _css=css(), **kwargs)


def _setting_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _setting_box(field: SettingField) -> Any:
    """The control that edits one setting: a checkbox, a number box, a
    dropdown of its ``values``, a text box, or (any other type, or a setting
    the model lacks) a read-only text of its value. Full width: the label
    sits above it (see ``_setting_row``)."""
    layout = ipywidgets.Layout(width="100%")
    description = f"{field.label} ({field.name})" if field.label != field.name else field.name
    if field.kind == "bool":
        # The label only (the setting's path is the tooltip): it fits the column.
        box = ipywidgets.Checkbox(
            value=field.default,
            indent=False,
            description=field.label,
            tooltip=description,
            layout=layout,
        )
    elif field.kind == "int":
        box = ipywidgets.IntText(value=field.default, layout=layout)
    elif field.kind == "float":
        box = ipywidgets.FloatText(value=field.default, layout=layout)
    elif field.kind == "choice":
        options = list(dict.fromkeys([*field.choices, field.default]))
        box = ipywidgets.Dropdown(
            options=[(_setting_text(o), o) for o in options], value=field.default, layout=layout
        )
    elif field.kind == "text":
        box = ipywidgets.Text(value=field.default, continuous_update=False, layout=layout)
    else:
        box = ipywidgets.Text(value=_setting_text(field.default), disabled=True, layout=layout)
    box.description_allow_html = False
    # What _sync_controls needs to show the current value.
    box.toskit_default, box.toskit_kind = field.default, field.kind
    box.toskit_label = description
    return box


class ClusterSimulator(StaticSnapshot, ipywidgets.VBox):
    """A simulated cluster the user edits live, with every role's outcome.

    ``ClusterSimulator(roles, cluster=None)``: ``roles`` is a ``RoleSet``
    (``conditions.load_roles``), ``cluster`` a ``conditions.Cluster``
    (default: an empty ``multinode`` cluster).

    ``ClusterSimulator(release, cluster=None)``: a Fuel ``Release``
    (``conditions.load_release``); ``cluster`` defaults to
    ``release.cluster()``. The mode control then offers the release's modes
    only, and a collapsible settings column edits every setting the roles'
    restrictions and limits read (:attr:`setting_fields`), each validated
    with its own type and regex; :meth:`set_setting` does the same from
    Python. Roles whose outcome is ``hidden`` are left out of the list and
    are not offered for assignment; :attr:`outcomes` still has them all.

    Nodes are selected with the checkboxes of the cluster table, the
    "selected nodes" list, or "select by role"; :meth:`assign` /
    :meth:`unassign` give or take roles to every selected node at once.

    :attr:`model` is the :class:`~toskit.conditions.simulator.Simulation`
    behind the view; :attr:`outcomes` maps each role to its
    ``RoleOutcome``; :attr:`html` is what the view shows.
    """

    mode = traitlets.Unicode("multinode")
    selected: traitlets.List[Any] = traitlets.List()
    selected_roles: traitlets.List[str] = traitlets.List()

    # Above this many nodes the choice lists show ids only: then they change
    # only when nodes come or go, not on every role edit (rebuilding a list of
    # a thousand labels would cost more than re-checking every role).
    DETAILED_LABELS_UP_TO = 200

    # The CSV text behind the "export CSV" link now (None: none built yet).
    _exported: str | None = None

    def __init__(
        self, roles: Any, cluster: Any = None, *, selected: Iterable[Any] = (), **kwargs: Any
    ) -> None:
        self.model = Simulation(roles, cluster)
        self._syncing = False
        self._labelled: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None
        self._setting_errors: dict[str, str] = {}
        self._build_controls()
        super().__init__(children=self._layout(), **kwargs)
        self.add_class("toskit-simulator")
        with self._quiet():
            self.set_trait("mode", self.model.mode)
        self._changed(structure=True)
        self.selected = list(selected)

    # -- traits <-> model ------------------------------------------------------

    @traitlets.validate("selected")
    def _check_selected(self, proposal: dict[str, Any]) -> list[Any]:
        self.model.select(proposal["value"])  # validates and keeps the order
        return self.model.selected

    @traitlets.validate("selected_roles")
    def _check_roles(self, proposal: dict[str, Any]) -> list[str]:
        self.model.set_selected_roles(proposal["value"])
        return self.model.selected_roles

    @traitlets.validate("mode")
    def _check_mode(self, proposal: dict[str, Any]) -> str:
        if getattr(self, "model", None) is not None:
            self.model.set_mode(proposal["value"])
        return proposal["value"]

    @traitlets.observe("mode", "selected", "selected_roles")
    def _on_state(self, change: dict[str, Any]) -> None:
        self._changed(structure=change["name"] == "mode")

    # -- the model's API, delegated --------------------------------------------

    @property
    def roles(self) -> Any:
        """The ``RoleSet`` simulated."""
        return self.model.roles

    @property
    def release(self) -> Any:
        """The Fuel ``Release`` simulated, or None for a roles document."""
        return self.model.release

    @property
    def modes(self) -> tuple[str, ...]:
        """The modes the mode control offers."""
        return self.model.modes

    @property
    def setting_fields(self) -> list[SettingField]:
        """The settings panel's entries (empty without a release)."""
        return self.model.setting_fields

    @property
    def settings(self) -> dict[str, Any]:
        """Every panel setting's current value, by name."""
        return self.model.settings

    @property
    def settings_overrides(self) -> dict[str, Any]:
        """The settings changed from the starting values, as dotted paths."""
        return self.model.settings_overrides

    @property
    def setting_errors(self) -> dict[str, str]:
        """Setting name → the message of the last value typed that it refused."""
        return dict(self._setting_errors)

    @property
    def feature_groups(self) -> list[str]:
        """The master node's feature groups; none by default."""
        return self.model.feature_groups

    @property
    def feature_group_names(self) -> list[str]:
        """The feature groups the roles test: one checkbox each."""
        return self.model.feature_group_names

    @property
    def cluster(self) -> Any:
        """The current state as a ``conditions.Cluster``."""
        return self.model.cluster

    @property
    def outcomes(self) -> dict[str, Any]:
        """Role name → ``RoleOutcome`` for the current cluster and selection."""
        return self.model.outcomes

    @property
    def hidden_roles(self) -> list[str]:
        """Roles whose outcome is hidden (a Fuel ``hide`` restriction is active)."""
        return self.model.hidden_roles

    @property
    def shown_outcomes(self) -> dict[str, Any]:
        """The outcomes the view lists: every role that is not hidden."""
        return self.model.shown_outcomes

    @property
    def problem_roles(self) -> list[str]:
        """The roles offered for assignment that are blocked or carry a
        warning or conflict, in the roles' order (what "problems only" lists)."""
        outcomes = self.model.outcomes
        return [r for r in self.model.assignable_roles if any(_role_problems(outcomes.get(r)))]

    @property
    def problems_only(self) -> bool:
        """Whether "roles to assign" lists only :attr:`problem_roles`."""
        return bool(self._problems.value)

    def set_problems_only(self, on: bool = True) -> None:
        """List only the roles with a problem in "roles to assign" (roles
        already chosen for assignment stay listed)."""
        if self._problems.value != on:
            self._problems.value = on  # comes back here through its observer
            return
        self._sync_controls(structure=False)

    @property
    def assignable_roles(self) -> list[str]:
        """The roles offered for assignment (hidden roles are not)."""
        return self.model.assignable_roles

    @property
    def open_traces(self) -> list[str]:
        """Keys of the traces (and trace entries) open in the view."""
        return list(self._view.open_keys)

    def open_trace(self, role: str, open_: bool = True) -> None:
        """Open (or close) the trace of ``role`` in the view, as a click does."""
        self.model.outcome(role)
        key = f"trace:{role}"
        keys = [k for k in self._view.open_keys if k != key] + ([key] if open_ else [])
        self._view.open_keys = keys

    def outcome(self, role: str) -> Any:
        """The ``RoleOutcome`` of one role."""
        return self.model.outcome(role)

    def setting(self, path: str) -> Any:
        """The current value of a panel setting."""
        return self.model.setting(path)

    def set_mode(self, mode: str) -> None:
        """Switch the cluster mode (for a release, one of its modes)."""
        self.mode = mode

    def set_attribute(self, name: str, value: Any) -> None:
        """Set a cluster attribute (``status``, ``net_provider``)."""
        self.model.set_attribute(name, value)
        self._changed(structure=False)

    def set_setting(self, path: str, value: Any) -> None:
        """Change a setting; the value is validated with the setting's own
        type and regex (``SettingError`` with its own message otherwise)."""
        self.model.set_setting(path, value)
        self._setting_errors.pop(self.model.field(path).name, None)
        self._changed(structure=False)

    def reset_settings(self) -> None:
        """Every setting back to its starting value."""
        self.model.reset_settings()
        self._setting_errors.clear()
        self._changed(structure=False)

    def set_feature_groups(self, groups: Iterable[str]) -> None:
        """Set the master node's feature groups (only for a release)."""
        self.model.set_feature_groups(groups)
        self._changed(structure=False)

    def add_node(
        self, roles: Iterable[str] = (), pending_roles: Iterable[str] = (), **kwargs: Any
    ) -> Any:
        """Add a node to the cluster and return its id (see ``Simulation.add_node``)."""
        node_id = self.model.add_node(roles, pending_roles, **kwargs)
        self._changed(structure=True)
        return node_id

    def remove_node(self, node_id: Any) -> None:
        """Remove a node from the cluster (and from the selection)."""
        self.model.remove_node(node_id)
        self._pull_selection()
        self._changed(structure=True)

    def set_roles(self, node_id: Any, roles: Iterable[str]) -> None:
        """Set a node's deployed roles."""
        self.model.set_roles(node_id, roles)
        self._changed(structure=True)

    def set_pending_roles(self, node_id: Any, roles: Iterable[str]) -> None:
        """Set a node's pending roles."""
        self.model.set_pending_roles(node_id, roles)
        self._changed(structure=True)

    def set_pending_deletion(self, node_id: Any, flag: bool = True) -> None:
        """Mark (or unmark) a node as pending deletion."""
        self.model.set_pending_deletion(node_id, flag)
        self._changed(structure=True)

    def assign(
        self, roles: Iterable[str] | str, node_ids: Iterable[Any] | None = None
    ) -> list[Any]:
        """Give ``roles`` (as pending roles) to every selected node at once."""
        changed = self.model.assign(roles, node_ids)
        self._changed(structure=True)
        return changed

    def unassign(
        self, roles: Iterable[str] | str, node_ids: Iterable[Any] | None = None
    ) -> list[Any]:
        """Take ``roles`` from every selected node at once."""
        changed = self.model.unassign(roles, node_ids)
        self._changed(structure=True)
        return changed

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

    def select_by_role(self, role: str, *, add: bool = False) -> None:
        """Select every cluster node with ``role`` (``add=True``: add them)."""
        self.selected = self.model.select_by_role(role, add=add)

    def set_selected_roles(self, roles: Iterable[str]) -> None:
        """The roles to assign to the selection (conflicts are checked against them)."""
        self.selected_roles = role_names(roles)

    def to_frame(self) -> Any:
        """The outcomes as a pandas DataFrame (see ``Simulation.to_frame``)."""
        return self.model.to_frame()

    def to_csv(self) -> str:
        """The outcomes as CSV text, what the "export CSV" link downloads:
        the columns of :meth:`to_frame`, a cell of several warnings or
        conflicts with one per line (a quoted CSV cell)."""
        frame = self.to_frame()
        for column in ("warnings", "conflicts"):
            frame[column] = frame[column].map(lambda items: "\n".join(str(i) for i in items))
        return str(frame.to_csv(index=False))

    def _export_html(self) -> str:
        """A link that downloads :meth:`to_csv` (a data: URL: nothing is sent
        anywhere and no kernel is needed to follow it); rebuilt only when the
        outcomes' text changed."""
        import base64

        try:
            text = self.to_csv()
        except Exception:  # noqa: BLE001 - an export must not break the simulator
            return ""
        if text == self._exported:
            return self._export.value
        self._exported = text
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        return (
            f'<a class="toskit-export" style="{EXPORT_LINK_STYLE}" download="role-outcomes.csv" '
            f'href="data:text/csv;base64,{data}">export CSV</a>'
        )

    @property
    def html(self) -> str:
        """The outcome table and the cluster, as the view shows them."""
        return self._view.html + self._nodes_view.html

    def refresh(self) -> None:
        """Re-check every role and redraw."""
        self.model._changed()
        self._changed(structure=False)

    def __repr__(self) -> str:
        return repr(self.model)

    def snapshot_html(self) -> str:
        """The view on screen as static HTML (no checkboxes), marked as a
        snapshot: what a stored notebook shows without a kernel."""
        model = self.model
        cluster = cluster_body(
            model.cluster,
            selected=model.selected,
            nodes=list(model.nodes.values()),
            pool=list(model.pool.values()),
            limit=NODE_ROWS,
        )
        table = outcomes_table(model.shown_outcomes)  # unkeyed: static, nothing to keep open
        return fragment(
            snapshot_note() + self._outcomes_head + table + cluster, repr(model), "simulator"
        )

    # -- rendering -------------------------------------------------------------

    def _quiet(self) -> Any:
        simulator = self

        class _Quiet:
            def __enter__(self) -> None:
                simulator._syncing = True

            def __exit__(self, *exc: object) -> None:
                simulator._syncing = False

        return _Quiet()

    def _pull_selection(self) -> None:
        """The model changed the selection itself (a node removed): follow."""
        with self._quiet():
            self.set_trait("selected", self.model.selected)

    def _changed(self, *, structure: bool) -> None:
        if self._syncing:
            return
        self._render()
        self._sync_controls(structure)

    def _render(self) -> None:
        model = self.model
        outcomes = model.outcomes
        chosen = ", ".join(str(i) for i in model.selected) or "none"
        assign = (
            "".join(chip(r) for r in model.selected_roles)
            or '<span class="toskit-faint">none</span>'
        )
        summary = (
            f'<div class="toskit-summary-line"><span class="toskit-muted">selected nodes</span>'
            f'<span class="toskit-mono">{esc(chosen)}</span>'
            f'<span class="toskit-muted">roles to assign</span>{assign}</div>'
        )
        shown = model.shown_outcomes
        hidden = [n for n in outcomes if n not in shown]
        blocked = sum(1 for o in shown.values() if not getattr(o, "allowed", False))
        chips = chip(f"{len(shown) - blocked} allowed") + chip(f"{blocked} blocked")
        if hidden:
            chips += chip(f"{len(hidden)} hidden")
        release = ""
        if model.release is not None:
            release = f'<span class="toskit-muted">{esc(model.release.name)}</span>'
        head = (
            f'<div class="toskit-header"><span class="toskit-kind">role outcomes</span>'
            f'<span class="toskit-title">{esc(model.mode)}</span>{release}{chips}</div>'
        )
        if hidden:
            lines = "".join(f"<li>{code(n)} {hidden_reason_html(outcomes[n])}</li>" for n in hidden)
            summary += (
                f'<div class="toskit-summary-line"><span class="toskit-muted">{len(hidden)} hidden</span></div>'
                f'<ul class="toskit-hidden-list">{lines}</ul>'
            )
        if model.feature_groups:
            groups = "".join(chip(g) for g in model.feature_groups)
            summary += f'<div class="toskit-summary-line"><span class="toskit-muted">feature groups</span>{groups}</div>'
        overrides = model.settings_overrides
        if overrides:
            # The release's label for each changed setting (the words of the
            # settings panel), its key as the chip's title.
            labels = {f.path: f.label for f in model.setting_fields}
            changed = "".join(
                f'<span class="toskit-chip" title="{esc(short_path(path))}">'
                f"{esc(labels.get(path) or short_path(path))}: {esc(_setting_text(value))}</span>"
                for path, value in overrides.items()
            )
            summary += f'<div class="toskit-summary-line"><span class="toskit-muted">changed settings</span>{changed}</div>'
        table = outcomes_table(shown, keyed=True, open_keys=self._view.open_keys)
        self._outcomes_head = head + summary
        self._view.html = fragment(head + summary + table, repr(model), "simulator")
        self._export.value = self._export_html()
        cluster = cluster_body(
            model.cluster,
            selected=model.selected,
            nodes=list(model.nodes.values()),
            pool=list(model.pool.values()),
            checkboxes=True,
            limit=NODE_ROWS,
        )
        # The stylesheet comes with the widget (``_css``): no second <style>.
        self._nodes_view.html = f'<div class="toskit-root"><div class="toskit-wrap toskit-simulator-nodes">{cluster}</div></div>'

    # -- controls --------------------------------------------------------------

    def _build_controls(self) -> None:
        wide = {"description_width": "initial"}
        full = ipywidgets.Layout(width="300px")  # the controls column (310px), label included
        names = self.model.role_names
        # At least 420 px for the outcomes (or the whole width when there is
        # less): with less room beside the controls, the row wraps and the
        # outcomes go below them, full width (see _layout).
        # "export CSV": a download link of the outcomes (to_csv).
        self._export = ipywidgets.HTML("")
        self._exported = None
        self._view = SimulatorView(layout=ipywidgets.Layout(width="100%", overflow="auto"))
        self._view.observe(lambda c: self._render(), "open_keys")
        self._nodes_view = SimulatorView(
            part="nodes", layout=ipywidgets.Layout(width="100%", overflow="auto")
        )
        self._nodes_view.observe(lambda c: self._from_ui(self.select, c["new"]), "selected")
        self._mode_box = ipywidgets.Dropdown(
            options=list(self.model.modes), description="mode", style=wide, layout=full
        )
        self._attribute_boxes: dict[str, Any] = {}
        for name, values in self.model.editable_attributes.items():
            box = ipywidgets.Dropdown(
                options=list(values),
                value=self.model.attributes[name],
                description=name,
                style=wide,
                layout=full,
            )
            box.observe(
                lambda c, n=name: self._from_ui(lambda v: self.set_attribute(n, v), c["new"]),
                "value",
            )
            self._attribute_boxes[name] = box
        self._select_box = ipywidgets.SelectMultiple(
            description="selected nodes", rows=6, style=wide, layout=full
        )
        self._by_role = ipywidgets.Dropdown(
            options=names,
            description="select by role",
            style=wide,
            layout=ipywidgets.Layout(width="220px"),
        )
        self._by_role_button = ipywidgets.Button(
            description="select", icon="check-square", layout=ipywidgets.Layout(width="76px")
        )
        # "problems only (N)": "roles to assign" lists only the roles that are
        # blocked or warned about (N of them), as the explorer's node picker.
        self._problems = ipywidgets.Checkbox(value=False, description="problems only", indent=False)
        self._problems.observe(lambda c: self.set_problems_only(bool(c["new"])), "value")
        self._role_options: tuple[tuple[str, str], ...] = ()
        # Its label above the list (a column), so the entries get the whole
        # 300 px: "cinder-block-device — blocked, 2 warnings" was cut beside it.
        self._roles_box = ipywidgets.SelectMultiple(
            options=names,
            description="roles to assign",
            rows=min(6, max(2, len(names))),
            style=wide,
            layout=ipywidgets.Layout(width="300px", flex_flow="column", align_items="stretch"),
        )
        # Buttons as wide as their words ("assign to selec…" was cut at 148 px).
        fit = {"layout": ipywidgets.Layout(width="auto")}
        self._assign_button = ipywidgets.Button(
            description="assign to selected", icon="plus-circle", **fit
        )
        self._unassign_button = ipywidgets.Button(
            description="unassign", icon="minus-circle", **fit
        )
        self._edit_node = ipywidgets.Dropdown(description="edit node", style=wide, layout=full)
        self._edit_roles = ipywidgets.SelectMultiple(
            options=names, description="roles", rows=4, style=wide, layout=full
        )
        self._edit_pending = ipywidgets.SelectMultiple(
            options=names, description="pending roles", rows=4, style=wide, layout=full
        )
        self._edit_deletion = ipywidgets.Checkbox(description="pending deletion", indent=False)
        self._add_button = ipywidgets.Button(
            description="add node", icon="plus", layout=ipywidgets.Layout(width="auto")
        )
        self._remove_button = ipywidgets.Button(
            description="remove node", icon="trash", layout=ipywidgets.Layout(width="auto")
        )
        self._reset_button = ipywidgets.Button(
            description="reset settings", icon="undo", layout=ipywidgets.Layout(width="auto")
        )

        self._mode_box.observe(lambda c: self._from_ui(self.set_mode, c["new"]), "value")
        self._select_box.observe(lambda c: self._from_ui(self.select, c["new"]), "value")
        self._roles_box.observe(lambda c: self._from_ui(self.set_selected_roles, c["new"]), "value")
        self._by_role_button.on_click(lambda _b: self._select_by_role_from_ui())
        self._assign_button.on_click(lambda _b: self._assign_from_ui(assign=True))
        self._unassign_button.on_click(lambda _b: self._assign_from_ui(assign=False))
        self._edit_node.observe(lambda c: self._load_editor(), "value")
        self._edit_roles.observe(lambda c: self._edit(self.set_roles, c["new"]), "value")
        self._edit_pending.observe(lambda c: self._edit(self.set_pending_roles, c["new"]), "value")
        self._edit_deletion.observe(
            lambda c: self._edit(self.set_pending_deletion, c["new"]), "value"
        )
        self._add_button.on_click(lambda _b: self._add_from_ui())
        self._remove_button.on_click(lambda _b: self._remove_from_ui())
        self._reset_button.on_click(lambda _b: self.reset_settings())
        self._setting_boxes: dict[str, Any] = {}
        self._setting_notes: dict[str, Any] = {}
        self._setting_rows: list[Any] = []
        for field in self.model.setting_fields:
            box = _setting_box(field)
            box.observe(lambda c, f=field: self._setting_from_ui(f, c["new"]), "value")
            self._setting_boxes[field.path] = box
            note = ipywidgets.HTML("")
            self._setting_notes[field.path] = note
            label = [] if field.kind == "bool" else [ipywidgets.Label(box.toskit_label)]
            self._setting_rows.append(
                ipywidgets.VBox([*label, box, note], layout=ipywidgets.Layout(width="100%"))
            )
        self._feature_boxes: dict[str, Any] = {}
        for group in self.model.feature_group_names:
            box = ipywidgets.Checkbox(description=f"feature group: {group}", indent=False)
            box.observe(
                lambda c, g=group: self._from_ui(lambda v: self._toggle_feature(g, v), c["new"]),
                "value",
            )
            self._feature_boxes[group] = box

    def _layout(self) -> list[Any]:
        assign_row = ipywidgets.HBox([self._assign_button, self._unassign_button])
        by_role = ipywidgets.HBox([self._by_role, self._by_role_button])
        editor = ipywidgets.VBox(
            [
                self._edit_node,
                ipywidgets.HBox([self._add_button, self._remove_button]),
                self._edit_roles,
                self._edit_pending,
                self._edit_deletion,
            ]
        )
        controls = ipywidgets.VBox(
            [
                self._mode_box,
                *self._attribute_boxes.values(),
                self._select_box,
                by_role,
                self._problems,  # it filters the list below it
                self._roles_box,
                assign_row,
                # A Label, not an HTML widget: the outcomes stay the one HTML output.
                ipywidgets.Label("edit a node"),
                editor,
            ],
            layout=ipywidgets.Layout(flex="0 1 310px", width="310px", max_width="100%"),
        )
        outcomes = ipywidgets.VBox(
            [self._export, self._view],
            layout=ipywidgets.Layout(flex="1 1 420px", min_width="min(100%, 420px)"),
        )
        columns = [controls, outcomes]
        if self._setting_boxes or self._feature_boxes:
            panel = ipywidgets.VBox(
                [
                    ipywidgets.Label("read by restrictions and limits"),
                    self._reset_button,
                    *self._feature_boxes.values(),
                    *self._setting_rows,
                ],
                layout=ipywidgets.Layout(width="100%"),
            )
            self._settings_panel = ipywidgets.Accordion(
                children=[panel],
                selected_index=0,
                layout=ipywidgets.Layout(
                    flex="1 1 300px", max_width="100%", min_width="min(100%, 300px)"
                ),
            )
            self._settings_panel.set_title(0, "settings")
            columns.append(self._settings_panel)
        # A wrapping row, not three fixed columns: in JupyterLab with the
        # sidebar open (an output area of ~900 px) or at 900 px, the
        # outcomes keep 420 px or more and the settings go below them.
        row = ipywidgets.HBox(
            columns,
            layout=ipywidgets.Layout(width="100%", align_items="flex-start", flex_flow="row wrap"),
        )
        return [row, self._nodes_view]

    def _setting_from_ui(self, field: SettingField, value: Any) -> None:
        if self._syncing:
            return
        note = self._setting_notes[field.path]
        if field.kind == "other":
            return
        try:
            self.set_setting(field.path, value)
        except SettingError as error:
            # The value stays in the box for the user to fix; nothing changes.
            self._setting_errors[field.name] = str(error)
            note.value = f'<span style="color: var(--jp-error-color1, #c62828)">{esc(error)}</span>'
            self._reset_button.disabled = False  # "reset" also clears a refused value
            return
        note.value = ""

    def _toggle_feature(self, group: str, on: bool) -> None:
        groups = [g for g in self.model.feature_groups if g != group]
        self.set_feature_groups([*groups, group] if on else groups)

    def _from_ui(self, method: Any, value: Any) -> None:
        if not self._syncing:
            method(value)

    def _edit(self, method: Any, value: Any) -> None:
        node_id = self._edit_node.value
        if not self._syncing and node_id is not None and node_id in self.model.nodes:
            method(node_id, value)

    def _select_by_role_from_ui(self) -> None:
        if self._by_role.value:
            self.select_by_role(self._by_role.value)

    def _assign_from_ui(self, *, assign: bool) -> None:
        roles = list(self._roles_box.value)
        if not roles or not self.model.selected:
            return
        (self.assign if assign else self.unassign)(roles)

    def _add_from_ui(self) -> None:
        node_id = self.add_node()
        self._edit_node.value = node_id

    def _remove_from_ui(self) -> None:
        if self._edit_node.value is not None:
            self.remove_node(self._edit_node.value)

    def _load_editor(self) -> None:
        node = self.model.nodes.get(self._edit_node.value)
        if node is None:
            return
        with self._quiet():
            known = set(self.model.role_names)
            self._edit_roles.value = tuple(r for r in node["roles"] if r in known)
            self._edit_pending.value = tuple(r for r in node["pending_roles"] if r in known)
            self._edit_deletion.value = bool(node["pending_deletion"])

    def _label(self, node: dict[str, Any], where: str = "") -> str:
        name = f" · {node['name']}" if node.get("name") else ""
        if len(self.model.nodes) + len(self.model.pool) > self.DETAILED_LABELS_UP_TO:
            return f"{node['id']}{name}{where}"
        # A role the node holds (or is about to) that is blocked is marked,
        # so the node lists show which nodes carry a problem.
        outcomes = self.model.outcomes

        def said(role: str, mark: str = "") -> str:
            blocked = not getattr(outcomes.get(role), "allowed", True)
            return f"{role}{mark}{' (blocked)' if blocked else ''}"

        roles = (
            ", ".join(
                [said(r) for r in node["roles"]] + [said(r, "*") for r in node["pending_roles"]]
            )
            or "no roles"
        )
        flag = " (deleting)" if node["pending_deletion"] else ""
        return f"{node['id']}{name} · {roles}{flag}{where}"

    def _sync_controls(self, structure: bool) -> None:
        model = self.model
        with self._quiet():
            if list(self.selected) != model.selected:
                self.set_trait("selected", model.selected)
            for group, box in self._feature_boxes.items():
                box.value = group in model.feature_groups
            overrides = model.settings_overrides
            for path, box in self._setting_boxes.items():
                value = overrides.get(path, box.toskit_default)
                shown = value if box.toskit_kind != "other" else _setting_text(value)
                name = short_path(path)
                if box.value != shown and name not in self._setting_errors:
                    box.value = shown
                if name not in self._setting_errors:
                    self._setting_notes[path].value = ""
            self._reset_button.disabled = not overrides and not self._setting_errors
            for name, box in self._attribute_boxes.items():
                current = model.attributes.get(name)
                if current not in box.options:
                    box.options = [*box.options, current]
                box.value = current
            if self._mode_box.value != model.mode:
                if model.mode not in self._mode_box.options:
                    self._mode_box.options = [*self._mode_box.options, model.mode]
                self._mode_box.value = model.mode
            nodes, pool = model.nodes, model.pool
            detailed = len(nodes) + len(pool) <= self.DETAILED_LABELS_UP_TO
            membership = (tuple(nodes), tuple(pool))
            # Detailed labels name blocked roles, which any edit may change:
            # recomputed each time (at most DETAILED_LABELS_UP_TO of them).
            if detailed or (structure and membership != self._labelled):
                self._labelled = membership
                node_options = tuple((self._label(n), i) for i, n in nodes.items())
                options = node_options + tuple(
                    (self._label(n, " · pool"), i) for i, n in pool.items()
                )
                # Only replace lists whose labels changed.
                if tuple(self._select_box.options) != options:
                    self._select_box.options = options
                if tuple(self._edit_node.options) != node_options:
                    edit_value = self._edit_node.value
                    self._edit_node.options = node_options
                    self._edit_node.value = (
                        edit_value if edit_value in nodes else next(iter(nodes), None)
                    )
            self._select_box.value = tuple(model.selected)
            if list(self._nodes_view.selected) != model.selected:
                self._nodes_view.selected = model.selected
            # Hidden roles are not offered for assignment. Each entry says
            # what is wrong with its role; "problems only" keeps those (and
            # the roles already chosen, so a choice never vanishes).
            outcomes = model.outcomes
            problems = set(self.problem_roles)
            only = bool(self._problems.value)
            self._problems.description = f"problems only ({len(problems)})"
            offered = tuple(
                r
                for r in model.assignable_roles
                if not only or r in problems or r in model.selected_roles
            )
            role_options = tuple((role_label(r, outcomes.get(r)), r) for r in offered)
            if role_options != self._role_options:
                self._role_options = role_options
                self._roles_box.options = role_options
            self._roles_box.value = tuple(r for r in model.selected_roles if r in offered)
            # "select by role" picks nodes, not a role to fix: plain names,
            # all of them (its 220 px dropdown would cut the words anyway).
            # Controls that would do nothing are disabled.
            empty = not nodes
            for control in (
                self._edit_node,
                self._edit_roles,
                self._edit_pending,
                self._edit_deletion,
                self._remove_button,
                self._by_role_button,
                self._by_role,
            ):
                control.disabled = empty
            idle = not model.selected or not model.selected_roles
            self._assign_button.disabled = idle
            self._unassign_button.disabled = idle
        self._load_editor()
