"""Hosting chains: every node's bottom host in one pass (the collapsed view).

``Topology.collapse_hosting()`` used to walk each node's chain with a map of
hosts rebuilt per node: quadratic in the nodes (4.4 s of CPU at 8,000). The
bottoms now come from :func:`bottom_hosts`, which must agree with walking
each chain on its own (``hosting_chain``), hosting cycles included.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import toskit
from toskit.tosca.topology.model import _chain, bottom_hosts

NAMES = [f"n{i}" for i in range(12)]


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES), st.sampled_from(NAMES), max_size=12))
def test_bottoms_equal_each_chains_end(hosts: dict[str, str]) -> None:
    # Any map of hosts: chains, trees, cycles, nodes hosted by themselves.
    assert bottom_hosts(NAMES, hosts) == {name: _chain(name, hosts)[-1] for name in NAMES}


def test_cycles_end_at_each_members_predecessor() -> None:
    hosts = {"tail": "a", "a": "b", "b": "c", "c": "a", "self": "self", "on_self": "self"}
    names = ["tail", "a", "b", "c", "self", "on_self"]
    assert bottom_hosts(names, hosts) == {
        "tail": "c",
        "a": "c",
        "b": "a",
        "c": "b",
        "self": "self",
        "on_self": "self",
    }
    # Whatever the order the nodes come in.
    assert bottom_hosts(reversed(names), hosts) == bottom_hosts(names, hosts)


class _CountedDict(dict):
    """A map of hosts that counts its lookups."""

    lookups = 0

    def __getitem__(self, key):
        type(self).lookups += 1
        return super().__getitem__(key)


def test_a_deep_chain_is_walked_once() -> None:
    # 20,000 nodes each hosted by the next: one walk, one lookup per node
    # (walking each node's chain alone would be 200 million steps).
    names = [f"n{i}" for i in range(20_000)]
    hosts = _CountedDict(zip(names, names[1:]))
    _CountedDict.lookups = 0
    bottoms = bottom_hosts(names, hosts)
    assert set(bottoms.values()) == {names[-1]}
    assert _CountedDict.lookups == len(names) - 1


def _stacks(count: int) -> str:
    nodes = []
    for i in range(count):
        nodes.append(
            f"    vm{i}:\n      type: tosca.nodes.Compute\n"
            f"    server{i}:\n      type: tosca.nodes.WebServer\n"
            f"      requirements:\n        - host: vm{i}\n"
            f"    app{i}:\n      type: tosca.nodes.WebApplication\n"
            f"      requirements:\n        - host: server{i}\n"
        )
    return (
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "topology_template:\n  node_templates:\n" + "".join(nodes)
    )


def test_collapsing_reads_the_edges_a_bounded_number_of_times() -> None:
    # The number of passes over the edges does not grow with the nodes.
    passes = []
    for count in (10, 200):
        topology = toskit.loads(_stacks(count)).topology()

        class Counted(list):
            reads = 0

            def __iter__(self):
                Counted.reads += 1
                return super().__iter__()

        topology.edges = Counted(topology.edges)
        collapsed = topology.collapse_hosting()
        assert sorted(collapsed.nodes) == sorted(f"vm{i}" for i in range(count))
        passes.append(Counted.reads)
    assert passes[0] == passes[1] <= 6, passes
