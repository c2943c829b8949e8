"""ClusterSimulator driven from Python with the seed's controller rules
(spec/conditions.md §12, the seed's document with its indentation fixed)."""

from __future__ import annotations

import sys
from pathlib import Path

# The HTML checks live beside the display tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "display"))

import pytest
from htmlcheck import assert_safe, body  # noqa: E402
from simulator_html import assert_view_safe  # noqa: E402

import toskit
from toskit import conditions
from toskit.conditions.examples import SEED_ROLES_YAML
from toskit.widgets import ClusterSimulator, explore

# The seed's roles document with its indentation fixed, plus compute, cinder and
# zabbix-server (spec/conditions.md §12).
SEED_ROLES = SEED_ROLES_YAML
WMN = "Multi-node environment cannot have more than one controller node."
WHA = "At least 3 controller nodes are recommended for HA deployment."
CONF = "This role cannot be combined with the selected roles."
POOL = [{"id": 11}, {"id": 12}]


@pytest.fixture(scope="module")
def roles():
    return conditions.load_roles(SEED_ROLES)


def _simulator(roles, mode="multinode", nodes=()):
    return ClusterSimulator(roles, conditions.Cluster(mode, nodes=list(nodes), pool=POOL))


def test_selecting_a_second_node_blocks_the_controller_and_deselecting_restores_it(roles):
    sim = _simulator(roles)
    sim.select_node(11)
    first = sim.outcome("controller")
    assert (first.allowed, first.warnings) == (True, [])
    sim.select_node(12)
    second = sim.outcome("controller")
    assert (second.allowed, second.warnings) == (False, [WMN])
    view = body(sim.html)
    assert WMN in view and "toskit-badge-blocked" in view
    sim.deselect_node(12)
    assert (sim.outcome("controller").allowed, sim.outcome("controller").warnings) == (True, [])
    assert WMN not in body(sim.html)


def test_the_selection_box_drives_the_same_logic(roles):
    sim = _simulator(roles)
    sim._select_box.value = (11, 12)  # what picking two nodes in the UI does
    assert sim.selected == [11, 12]
    assert sim.outcome("controller").allowed is False
    sim.select([11])
    assert sim._select_box.value == (11,)


@pytest.mark.parametrize(
    ("mode", "nodes", "selected", "allowed", "warnings"),
    [
        ("multinode", [], [11], True, []),
        (
            "multinode",
            [{"id": 1, "roles": ["controller"]}, {"id": 2, "roles": ["compute"]}],
            [11],
            False,
            [],
        ),
        (
            "multinode",
            [{"id": 1, "roles": ["controller"]}, {"id": 2, "roles": ["compute"]}],
            [1],
            True,
            [],
        ),
        ("ha_compact", [], [11], True, [WHA]),
        ("ha_compact", [{"id": i, "roles": ["controller"]} for i in (1, 2, 3)], [11], True, []),
    ],
    ids=["S01", "S03", "S04", "S09", "S12"],
)
def test_seed_examples_through_the_simulator(roles, mode, nodes, selected, allowed, warnings):
    sim = _simulator(roles, mode, nodes)
    sim.select(selected)
    out = sim.outcome("controller")
    assert (out.allowed, out.warnings) == (allowed, warnings)


def test_editing_nodes_changes_outcomes(roles):
    sim = _simulator(roles)
    sim.select([11])
    node = sim.add_node(["controller"])
    assert node == 13  # next free id after the pool's 12
    assert sim.outcome("controller").allowed is False  # a controller exists elsewhere (S03)
    sim.set_pending_deletion(node)
    assert sim.outcome("controller").allowed is True  # it is being deleted
    sim.set_pending_deletion(node, False)
    sim.set_roles(node, ["compute"])
    assert sim.outcome("controller").allowed is True
    sim.set_pending_roles(node, ["controller"])
    assert sim.outcome("controller").allowed is False  # a pending controller counts (S06)
    sim.remove_node(node)
    assert sim.outcome("controller").allowed is True
    assert [n["id"] for n in sim.cluster.nodes] == []


def test_switching_mode_re_evaluates(roles):
    sim = _simulator(roles)
    sim.select([11])
    sim.set_mode("ha_compact")
    assert sim.outcome("controller").warnings == [WHA]
    assert sim._mode_box.value == "ha_compact"
    sim._mode_box.value = "ha_full"
    assert sim.mode == "ha_full"
    assert sim.outcome("controller").warnings == []


def test_roles_to_assign_show_symmetric_conflicts(roles):
    sim = _simulator(roles)
    sim.select([11])
    sim.set_selected_roles(["compute"])
    controller = sim.outcome("controller")
    assert (controller.allowed, controller.warnings, controller.conflicts) == (
        False,
        [CONF],
        ["compute"],
    )
    assert sim.outcome("zabbix-server").conflicts == ["compute"]
    assert sim.outcome("cinder").allowed is True
    view = body(sim.html)
    assert CONF in view


def test_the_view_lists_every_role_and_the_cluster(roles):
    sim = _simulator(roles, nodes=[{"id": 1, "roles": ["controller"], "pending_deletion": True}])
    html = sim.html
    assert_view_safe(html)
    for name in roles:
        assert f'<td class="toskit-path">{name}</td>' in html
    assert "pending deletion" in body(html)
    assert html == sim.html  # deterministic


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda s: s.select([99]), "no node with id 99"),
        (lambda s: s.remove_node(11), "no cluster node with id 11 \\(it is in the pool\\)"),
        (lambda s: s.set_roles(5, ["compute"]), "no cluster node with id 5"),
        (lambda s: s.set_selected_roles(["controler"]), "did you mean 'controller'"),
        (lambda s: s.outcome("computer"), "did you mean 'compute'"),
        (lambda s: s.add_node(node_id=12), "already used"),
        (lambda s: s.set_mode(""), "non-empty string"),
    ],
    ids=[
        "unknown-selection",
        "remove-pool-node",
        "edit-unknown",
        "unknown-role",
        "unknown-outcome",
        "duplicate-id",
        "empty-mode",
    ],
)
def test_bad_edits_are_clear_errors(roles, action, message):
    sim = _simulator(roles)
    with pytest.raises(toskit.ToskitError, match=message):
        action(sim)


def test_editor_controls_edit_the_chosen_node(roles):
    sim = _simulator(roles)
    sim.select([11])
    sim._add_button.click()
    node = sim._edit_node.value
    assert node == 13
    sim._edit_roles.value = ("controller",)
    assert sim.cluster.node(node)["roles"] == ["controller"]
    assert sim.outcome("controller").allowed is False
    sim._edit_deletion.value = True
    assert sim.outcome("controller").allowed is True
    sim._remove_button.click()
    assert node not in [n["id"] for n in sim.cluster.nodes]


def test_explore_a_roles_document(roles):
    sim = explore(roles)
    assert isinstance(sim, ClusterSimulator)
    assert sim.mode == "multinode"
    paired = explore((roles, conditions.Cluster("ha_compact", pool=POOL)))
    assert paired.mode == "ha_compact"


def test_outcomes_as_a_data_frame(roles):
    sim = _simulator(roles)
    sim.select([11, 12])
    frame = sim.to_frame()
    assert list(frame.columns) == ["role", "allowed", "status", "reason", "warnings", "conflicts"]
    assert list(frame["role"]) == ["controller", "compute", "cinder", "zabbix-server"]
    row = frame.set_index("role").loc["controller"]
    assert (bool(row["allowed"]), row["warnings"]) == (False, [WMN])


def test_choice_labels_show_roles_on_small_clusters_only(roles):
    small = _simulator(
        roles, nodes=[{"id": 1, "roles": ["controller"], "pending_roles": ["cinder"]}]
    )

    def mark(sim, role):  # a blocked role is marked in the node lists
        return " (blocked)" if not sim.outcome(role).allowed else ""

    assert small._select_box.options[0] == (
        f"1 · controller{mark(small, 'controller')}, cinder*{mark(small, 'cinder')}",
        1,
    )
    small.set_roles(1, ["compute"])
    assert small._select_box.options[0] == (
        f"1 · compute{mark(small, 'compute')}, cinder*{mark(small, 'cinder')}",
        1,
    )
    big = _simulator(roles, nodes=[{"id": i, "roles": ["compute"]} for i in range(100, 400)])
    assert big._select_box.options[0] == ("100", 100)
    assert big._select_box.options[-1] == ("12 · pool", 12)
    before = big._select_box.options
    big.set_roles(105, ["controller"])  # labels do not change: the list is left alone
    assert big._select_box.options is before
    node = big.add_node(["cinder"])
    assert (str(node), node) in big._select_box.options


def test_a_selection_given_to_the_constructor_is_shown_and_checked():
    import toskit
    from toskit import conditions
    from toskit.conditions.examples import SEED_ROLES_YAML

    roles = conditions.load_roles(SEED_ROLES_YAML)
    cluster = conditions.Cluster(
        mode="multinode", nodes=[{"id": 1, "roles": ["compute"]}], pool=[{"id": 11}, {"id": 12}]
    )
    simulator = toskit.explore(roles, cluster, selected=[11, 12])
    assert simulator.selected == [11, 12]
    assert not simulator.outcome("controller").allowed
    assert simulator.outcome("controller").warnings == [
        "Multi-node environment cannot have more than one controller node."
    ]


# ---------------------------------------------------------------- issue 16: the simulator at 20-100 nodes

TWENTY = [{"id": i, "name": f"node-{i}", "roles": ["compute"]} for i in range(1, 21)]


def _twenty(roles):
    nodes = [dict(n) for n in TWENTY]
    nodes[0] = {**nodes[0], "roles": ["controller"]}
    return ClusterSimulator(roles, conditions.Cluster("multinode", nodes=nodes, pool=[{"id": 101}]))


def test_the_model_lives_in_conditions(roles):
    from toskit.conditions.simulator import Simulation

    sim = _twenty(roles)
    assert isinstance(sim.model, Simulation)
    sim.select([2])
    assert sim.model.selected == [2]


def test_node_checkboxes_select_nodes(roles):
    sim = _twenty(roles)
    html = sim.html
    assert html.count('class="toskit-node-check"') == 21  # 20 nodes and the pool node
    assert 'data-node-id="101"' in html
    sim._nodes_view.selected = [101, 2]  # what ticking two checkboxes in the browser does
    assert sim.selected == [101, 2]
    assert 'data-node-id="101" aria-label="select node 101" checked' in sim.html
    assert sim._select_box.value == (101, 2)
    assert sim.outcome("controller").warnings == [WMN]


def test_select_by_role_and_assign_to_every_selected_node(roles):
    sim = _twenty(roles)
    sim._by_role.value = "compute"
    sim._by_role_button.click()
    assert sim.selected == list(range(2, 21))
    sim.select([2, 3, 4])
    sim._roles_box.value = ("cinder",)
    assert sim._assign_button.disabled is False
    sim._assign_button.click()
    assert [sim.model.nodes[i]["pending_roles"] for i in (2, 3, 4, 5)] == [["cinder"]] * 3 + [[]]
    assert "cinder" in body(sim.html)
    sim._unassign_button.click()
    assert [sim.model.nodes[i]["pending_roles"] for i in (2, 3, 4)] == [[]] * 3


def test_an_opened_trace_stays_open_and_shows_the_new_values(roles):
    sim = _twenty(roles)
    sim.select([101])
    assert 'data-toskit-key="trace:controller" open' not in sim.html
    sim._view.open_keys = ["trace:controller"]  # what clicking "trace" in the browser does
    assert 'data-toskit-key="trace:controller" open' in sim.html
    assert "selectedNodes._length = 1" in body(sim.html)
    sim.select_node(2)
    html = sim.html
    assert 'data-toskit-key="trace:controller" open' in html
    assert "selectedNodes._length = 2" in body(html)
    assert sim.open_traces == ["trace:controller"]
    sim.open_trace("controller", False)
    assert 'data-toskit-key="trace:controller" open' not in sim.html


def test_controls_that_do_nothing_are_disabled(roles):
    sim = _simulator(roles)  # no cluster nodes: only the pool
    for control in (sim._edit_node, sim._edit_roles, sim._remove_button, sim._by_role_button):
        assert control.disabled is True
    assert sim._assign_button.disabled is True  # nothing selected, no role chosen
    sim.add_node(["compute"])
    assert sim._edit_node.disabled is False and sim._remove_button.disabled is False
    sim.select([11])
    sim.set_selected_roles(["cinder"])
    assert sim._assign_button.disabled is False


def test_reasons_show_in_the_outcome_table(roles):
    sim = _twenty(roles)
    sim.select([101])
    view = body(sim.html)
    assert (
        "blocked: rule 1 (cluster:mode == &#x27;multinode&#x27;): node 1 (node-1; roles: controller)"
        in view
    )


def test_a_stored_notebook_shows_a_static_snapshot(roles):
    sim = _twenty(roles)
    sim.select([101])
    data = sim._repr_mimebundle_()
    data = data[0] if isinstance(data, tuple) else data
    html = data["text/html"]
    assert_safe(html)  # static: no checkbox, no key
    assert "a snapshot of the widget" in html
    assert (
        "blocked: rule 1 (cluster:mode == &#x27;multinode&#x27;): node 1 (node-1; roles: controller)"
        in html
    )
    assert "node-20" in html


def test_node_lists_mark_the_blocked_roles_a_node_holds(roles):
    sim = _simulator(
        roles, nodes=[{"id": 1, "roles": ["controller"]}, {"id": 2, "roles": ["compute"]}]
    )
    labels = dict((v, k) for k, v in sim._select_box.options)
    for node_id, role in ((1, "controller"), (2, "compute")):
        blocked = not sim.outcome(role).allowed
        assert (f"{role} (blocked)" in labels[node_id]) is blocked
    # An edit that blocks a role changes the labels of the nodes holding it.
    sim.set_roles(2, ["compute", "controller"])
    labels = dict((v, k) for k, v in sim._select_box.options)
    edit = dict((v, k) for k, v in sim._edit_node.options)
    if not sim.outcome("controller").allowed:
        assert "controller (blocked)" in labels[2] and "controller (blocked)" in edit[1]
    assert any("(blocked)" in label for label in labels.values())
