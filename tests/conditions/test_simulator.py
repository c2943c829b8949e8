"""The simulator's model (toskit.conditions.simulator), without ipywidgets:
selection, select by role, assigning roles to every selected node at once,
settings validated with their own type and regex, hidden roles not offered."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fixtures.conditions import POOL, ROLES, WMN

from toskit import ToskitError
from toskit.conditions import Cluster, load_release
from toskit.conditions.settings import SettingError, validate_setting
from toskit.conditions.simulator import Simulation

FUEL = Path(__file__).resolve().parents[2] / "conformance" / "fuel" / "openstack.yaml"


def test_the_model_needs_no_ipywidgets():
    assert "toskit.conditions.simulator" in sys.modules
    import toskit.conditions.simulator as module

    assert "ipywidgets" not in module.__dict__ and "widgets" not in module.__name__


def twenty_nodes() -> Simulation:
    nodes = [{"id": i, "name": f"node-{i}", "roles": ["compute"]} for i in range(1, 21)]
    nodes[0]["roles"] = ["controller"]
    return Simulation(ROLES, Cluster("multinode", nodes=nodes, pool=[{"id": 101}, {"id": 102}]))


def test_selection_and_outcomes_with_reasons():
    sim = twenty_nodes()
    sim.select([101])
    out = sim.outcome("controller")
    assert out.allowed is False
    assert out.reason == (
        "blocked: rule 1 (cluster:mode == 'multinode'): node 1 (node-1; roles: controller) "
        "is a node of the cluster that is not selected, has role controller and is not being "
        "deleted"
    )
    sim.select([1])
    assert sim.outcome("controller").allowed and sim.outcome("controller").reason == ""
    sim.select([1, 101, 101])
    assert sim.selected == [1, 101]
    assert sim.outcome("controller").warnings == [WMN]
    with pytest.raises(ToskitError, match="no node with id 99"):
        sim.select([99])


def test_select_by_role_and_assign_to_all_selected():
    sim = twenty_nodes()
    assert sim.select_by_role("compute") == list(range(2, 21))
    sim.select([2, 3, 4])
    version = sim.version
    assert sim.assign("cinder") == [2, 3, 4]
    assert sim.version > version
    for node_id in (2, 3, 4):
        assert sim.nodes[node_id]["pending_roles"] == ["cinder"]
    assert sim.nodes[5]["pending_roles"] == []
    assert sim.select_by_role("cinder") == [2, 3, 4]  # pending roles count
    sim.assign("cinder")  # twice: no duplicate
    assert sim.nodes[2]["pending_roles"] == ["cinder"]
    sim.unassign(["cinder", "compute"], [2])
    assert (sim.nodes[2]["roles"], sim.nodes[2]["pending_roles"]) == ([], [])
    with pytest.raises(ToskitError, match="unknown role 'cindr'"):
        sim.assign("cindr")


def test_a_pool_node_given_a_role_joins_the_cluster_as_pending_addition():
    sim = Simulation(ROLES, Cluster("multinode", pool=POOL), selected=[11])
    sim.assign(["controller"])
    assert 11 in sim.nodes and 11 not in sim.pool
    assert sim.nodes[11]["pending_addition"] is True and sim.nodes[11]["pending_roles"] == [
        "controller"
    ]
    assert [n["id"] for n in sim.cluster.nodes] == [11]
    # A second controller is now blocked, and the reason names node 11.
    sim.select([12])
    assert "node 11 (roles: none; pending: controller)" in sim.outcome("controller").reason


def test_to_frame_has_status_and_reason():
    sim = twenty_nodes()
    sim.select([101])
    frame = sim.to_frame().set_index("role")
    assert frame.loc["controller", "status"] == "blocked"
    assert frame.loc["controller", "reason"].startswith("blocked: rule 1")
    assert frame.loc["compute", "reason"] == ""


@pytest.fixture(scope="module")
def release():
    return load_release(FUEL, "Newton on Ubuntu 16.04")


def test_settings_are_validated_with_their_own_regex_and_message(release):
    sim = Simulation(release, release.cluster(mode="ha_compact", pool=[{"id": 11}]), selected=[11])
    field = sim.field("storage.osd_pool_size")
    assert (field.setting_type, field.regex, field.regex_error) == (
        "text",
        r"^[1-9]\d*$",
        "Invalid number",
    )
    with pytest.raises(SettingError) as info:
        sim.set_setting("storage.osd_pool_size", "abc")
    assert str(info.value) == (
        "setting 'storage.osd_pool_size' (Ceph object replication factor): Invalid number (got 'abc')"
    )
    assert sim.settings_overrides == {}  # a refused value changes nothing
    assert all("TypeError" not in w for o in sim.outcomes.values() for w in o.warnings)
    sim.set_setting("storage.osd_pool_size", "2")
    assert sim.setting("storage.osd_pool_size") == "2"
    sim.reset_settings()
    assert sim.settings_overrides == {} and sim.setting("storage.osd_pool_size") == "3"


def test_validate_setting_by_kind(release):
    sim = Simulation(release)
    ceph = sim.field("storage.volumes_ceph")
    assert validate_setting(ceph, True) is True
    with pytest.raises(SettingError, match="takes true or false, got 'yes'"):
        validate_setting(ceph, "yes")


def test_hidden_roles_are_not_offered_for_assignment(release):
    sim = Simulation(release, release.cluster(mode="ha_compact", pool=[{"id": 11}]), selected=[11])
    assert "mongo" in sim.hidden_roles and "mongo" not in sim.assignable_roles
    with pytest.raises(ToskitError, match="'mongo' is hidden"):
        sim.assign("mongo")
    sim.set_feature_groups(["experimental"])
    assert "mongo" in sim.assignable_roles


def test_cluster_attributes_can_be_edited(release):
    sim = Simulation(release, release.cluster(status="new", net_provider="neutron"))
    editable = sim.editable_attributes
    assert editable["net_provider"] == ("neutron", "nova_network")
    assert "new" in editable["status"] and "operational" in editable["status"]
    sim.set_attribute("status", "operational")
    assert sim.cluster.attributes["status"] == "operational"
