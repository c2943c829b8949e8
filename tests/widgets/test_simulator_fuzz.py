"""Any sequence of edits leaves ClusterSimulator consistent with the engine:
its outcomes equal ``roles.check`` on the cluster it shows."""

from __future__ import annotations

import sys
from pathlib import Path

# The HTML checks live beside the display tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "display"))

import pytest
from htmlcheck import body  # noqa: E402
from hypothesis import given, settings
from hypothesis import strategies as st
from simulator_html import POOL, SEED_ROLES  # noqa: E402

import toskit
from toskit import conditions
from toskit.widgets import ClusterSimulator

ROLE_NAMES = ["controller", "compute", "cinder", "zabbix-server"]
ids = st.integers(min_value=1, max_value=14)
role_lists = st.lists(st.sampled_from(ROLE_NAMES), max_size=2)
operations = st.one_of(
    st.tuples(st.just("set_mode"), st.sampled_from(["multinode", "ha_compact", "ha_full"])),
    st.tuples(st.just("add_node"), role_lists),
    st.tuples(st.just("remove_node"), ids),
    st.tuples(st.just("set_roles"), ids, role_lists),
    st.tuples(st.just("set_pending_roles"), ids, role_lists),
    st.tuples(st.just("set_pending_deletion"), ids, st.booleans()),
    st.tuples(st.just("select_node"), ids),
    st.tuples(st.just("deselect_node"), ids),
    st.tuples(st.just("set_selected_roles"), role_lists),
)


@pytest.fixture(scope="module")
def roles():
    return conditions.load_roles(SEED_ROLES)


@settings(max_examples=60, deadline=None)
@given(ops=st.lists(operations, max_size=12))
def test_random_edits_keep_the_simulator_consistent(roles, ops):
    sim = ClusterSimulator(roles, conditions.Cluster("multinode", pool=POOL))
    for name, *args in ops:
        try:
            getattr(sim, name)(*args)
        except toskit.ToskitError:
            continue  # an edit of a node that does not exist: refused, nothing changed
        cluster = sim.cluster
        assert [n["id"] for n in cluster.pool] == [11, 12]
        for role in ROLE_NAMES:
            expected = roles.check(
                role, cluster, selected=sim.selected, selected_roles=sim.selected_roles
            )
            got = sim.outcome(role)
            assert (got.allowed, got.warnings, got.conflicts) == (
                expected.allowed,
                expected.warnings,
                expected.conflicts,
            )
        view = body(sim.html)
        blocked = sum(1 for role in ROLE_NAMES if not sim.outcome(role).allowed)
        assert f"{blocked} blocked" in view
        assert sim._select_box.value == tuple(sim.selected)
