"""ClusterSimulator driven from Python with the seed's controller rules
(spec/conditions.md §12, the seed's document with its indentation fixed)."""

from __future__ import annotations

import pytest
from htmlcheck import assert_safe, body

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
        ("multinode", [{"id": 1, "roles": ["controller"]}, {"id": 2, "roles": ["compute"]}], [11], False, []),
        ("multinode", [{"id": 1, "roles": ["controller"]}, {"id": 2, "roles": ["compute"]}], [1], True, []),
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
    assert (controller.allowed, controller.warnings, controller.conflicts) == (False, [CONF], ["compute"])
    assert sim.outcome("zabbix-server").conflicts == ["compute"]
    assert sim.outcome("cinder").allowed is True
    view = body(sim.html)
    assert CONF in view


def test_the_view_lists_every_role_and_the_cluster(roles):
    sim = _simulator(roles, nodes=[{"id": 1, "roles": ["controller"], "pending_deletion": True}])
    html = sim.html
    assert_safe(html)
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
    ids=["unknown-selection", "remove-pool-node", "edit-unknown", "unknown-role", "unknown-outcome", "duplicate-id", "empty-mode"],
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
    assert list(frame.columns) == ["role", "allowed", "warnings", "conflicts"]
    assert list(frame["role"]) == ["controller", "compute", "cinder", "zabbix-server"]
    row = frame.set_index("role").loc["controller"]
    assert (bool(row["allowed"]), row["warnings"]) == (False, [WMN])


def test_choice_labels_show_roles_on_small_clusters_only(roles):
    small = _simulator(roles, nodes=[{"id": 1, "roles": ["controller"], "pending_roles": ["cinder"]}])
    assert small._select_box.options[0] == ("1 · controller, cinder*", 1)
    small.set_roles(1, ["compute"])
    assert small._select_box.options[0] == ("1 · compute, cinder*", 1)
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
