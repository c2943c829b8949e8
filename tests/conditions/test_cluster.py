"""spec/conditions.md §2: clusters, nodes, the pool, the selection; copies."""

from __future__ import annotations

import pytest

from toskit import ToskitError
from toskit.conditions import Cluster, compile_expression


def test_nodes_are_normalised_with_defaults():
    cluster = Cluster("multinode", nodes=[{"id": 1, "name": "n1"}], status="new")
    node = cluster.node(1)
    assert dict(node) == {
        "id": 1,
        "name": "n1",
        "roles": [],
        "pending_roles": [],
        "pending_deletion": False,
        "pending_addition": False,
    }
    assert compile_expression("cluster:status").evaluate(cluster=cluster) == "new"


def test_cluster_model_has_no_pool_nodes():
    cluster = Cluster("multinode", nodes=[{"id": 1}], pool=[{"id": 2}])
    assert compile_expression("cluster:nodes._length").evaluate(cluster=cluster) == 1
    assert compile_expression("selectedNodes._pluck('id')").evaluate(
        cluster=cluster, selected=[2, 1]
    ) == [2, 1]


@pytest.mark.parametrize(
    "kwargs,fragment",
    [
        ({"mode": "multinode", "nodes": [{"name": "x"}]}, "needs an 'id'"),
        ({"mode": "multinode", "nodes": [{"id": 1}], "pool": [{"id": 1}]}, "duplicate node id 1"),
        ({"mode": "multinode", "nodes": [{"id": 1}, {"id": 1}]}, "duplicate"),
        ({"mode": "multinode", "nodes": [{"id": [1]}]}, "int or a string"),
        ({"mode": "multinode", "nodes": [{"id": True}]}, "int or a string"),
        ({"mode": "multinode", "nodes": [{"id": 1, "roles": "controller"}]}, "list of role names"),
        ({"mode": "multinode", "nodes": ["x"]}, "must be a mapping"),
        ({"mode": None}, "mode"),
        ({"mode": "multinode", "nodes": {"id": 1}}, "lists"),
    ],
    ids=[
        "no-id",
        "duplicate-across-pool",
        "duplicate",
        "bad-id",
        "bool-id",
        "roles-string",
        "node-not-mapping",
        "no-mode",
        "nodes-mapping",
    ],
)
def test_bad_clusters(kwargs, fragment):
    with pytest.raises(ToskitError, match=fragment):
        Cluster(**kwargs)


def test_cluster_is_immutable_and_copies():
    source = [{"id": 1, "roles": ["controller"]}]
    cluster = Cluster("multinode", nodes=source)
    source[0]["roles"].append("compute")
    assert list(cluster.node(1)["roles"]) == ["controller"]
    with pytest.raises(TypeError):
        cluster.node(1)["roles"] = []  # type: ignore[index]
    cluster.node(1)["roles"].append("hacker")
    cluster.nodes[0]["roles"].append("hacker")
    assert list(cluster.node(1)["roles"]) == ["controller"]
    with pytest.raises(AttributeError):
        cluster.mode = "x"  # type: ignore[misc]


def test_modified_copies():
    base = Cluster(
        "multinode", nodes=[{"id": 1, "roles": ["controller"]}], pool=[{"id": 11}], status="new"
    )
    ha = base.with_mode("ha_compact")
    assert (ha.mode, base.mode) == ("ha_compact", "multinode")
    assert ha.attributes["status"] == "new" and len(ha.pool) == 1
    added = base.with_node({"id": 2, "roles": ["compute"]})
    assert [n["id"] for n in added.nodes] == [1, 2] and len(base.nodes) == 1
    replaced = added.with_node({"id": 1, "pending_deletion": True})
    assert replaced.node(1)["pending_deletion"] is True and [n["id"] for n in replaced.nodes] == [
        1,
        2,
    ]
    pooled = base.with_node({"id": 12}, pool=True)
    assert [n["id"] for n in pooled.pool] == [11, 12]
    removed = base.without_node(11)
    assert removed.pool == () and 11 not in removed
    with pytest.raises(ToskitError):
        base.without_node(99)
    assert base.with_attributes(status="ready").attributes["status"] == "ready"


def test_with_settings_overrides_dotted_paths():
    cluster = Cluster(
        "ha_compact", models={"settings": {"storage": {"volumes_ceph": {"value": False}}}}
    )
    changed = cluster.with_settings({"storage.volumes_ceph.value": True, "new.deep.value": 3})
    assert changed.models["settings"]["storage"]["volumes_ceph"]["value"] is True
    assert changed.models["settings"]["new"]["deep"]["value"] == 3
    assert cluster.models["settings"]["storage"]["volumes_ceph"]["value"] is False
    expr = compile_expression("settings:storage.volumes_ceph.value")
    assert expr.evaluate(cluster=changed) is True
    assert (
        expr.evaluate(
            cluster=changed, models={"settings": {"storage": {"volumes_ceph": {"value": 0}}}}
        )
        == 0
    )
    with pytest.raises(ToskitError):
        cluster.with_settings({"storage.volumes_ceph.value.x": 1})


def test_repr_and_equality():
    cluster = Cluster("multinode", nodes=[{"id": 1}], pool=[{"id": 2}], status="new")
    assert repr(cluster) == "Cluster(mode='multinode', nodes=1, pool=1, status='new')"
    assert cluster == Cluster("multinode", nodes=[{"id": 1}], pool=[{"id": 2}], status="new")
    assert cluster != cluster.with_mode("ha_compact")


def test_to_frame():
    cluster = Cluster(
        "multinode", nodes=[{"id": 1, "roles": ["controller"], "name": "a"}], pool=[{"id": 2}]
    )
    frame = cluster.to_frame()
    assert list(frame["id"]) == [1, 2]
    assert list(frame["in_pool"]) == [False, True]
    assert frame.loc[0, "roles"] == ["controller"]
    assert "name" in frame.columns
