"""``ServiceTemplate.topology()``: the Topology model, its smaller views and exports."""

from __future__ import annotations

import re

import pytest

import toskit
from toskit.tosca.topology.model import Topology

WEB_STACK = """
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web_app:
      type: tosca.nodes.WebApplication
      properties: { context_root: /shop }
      requirements:
        - host: web_server
        - dependency: database
    web_server:
      type: tosca.nodes.WebServer
      requirements:
        - host: server
    server:
      type: tosca.nodes.Compute
    database:
      type: tosca.nodes.Database
      properties: { name: orders }
      requirements:
        - host: dbms
    dbms:
      type: tosca.nodes.DBMS
      properties: { port: 5432 }
      requirements:
        - host: server
    client:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: server
        - dependency:
            node: dbms
            relationship: tosca.relationships.ConnectsTo
"""


@pytest.fixture(scope="module")
def web() -> Topology:
    st = toskit.loads(WEB_STACK, name="web.yaml")
    return st.topology()


def test_nodes_carry_type_and_key_properties(web: Topology) -> None:
    assert set(web.nodes) == {"web_app", "web_server", "server", "database", "dbms", "client"}
    app = web.nodes["web_app"]
    assert app.type == "tosca.nodes.WebApplication"
    assert ("context_root", "/shop") in app.properties
    assert ("port", "5432") in web.nodes["dbms"].properties


def test_hosted_on_chain(web: Topology) -> None:
    host = web.edge("web_app", "host")
    assert host is not None
    assert (host.target, host.relationship, host.hosting) == (
        "web_server",
        "tosca.relationships.HostedOn",
        True,
    )
    assert host.capability == "host"
    assert web.hosting_chain("web_app") == ["web_app", "web_server", "server"]
    assert web.hosting_chain("database") == ["database", "dbms", "server"]


def test_connects_to_and_depends_on_are_not_hosting(web: Topology) -> None:
    dep = web.edge("client", "dependency")
    assert dep is not None
    assert (dep.target, dep.relationship, dep.hosting) == (
        "dbms",
        "tosca.relationships.ConnectsTo",
        False,
    )
    assert web.edge("web_app", "dependency").relationship == "tosca.relationships.DependsOn"


def test_edge_tooltip_says_requirement_relationship_and_why(web: Topology) -> None:
    tip = web.edge("web_app", "host").tooltip
    assert "web_app —host→ web_server" in tip
    assert "relationship: tosca.relationships.HostedOn" in tip
    assert "why: named by the requirement ('web_server')" in tip


def test_a_resolved_template_has_no_problems(web: Topology) -> None:
    assert web.problems == []
    assert web.boundary is None


def test_occurrences_violated_are_missing_requirements_with_their_diagnostic() -> None:
    text = WEB_STACK.replace(
        """    web_server:
      type: tosca.nodes.WebServer
      requirements:
        - host: server
""",
        """    web_server:
      type: tosca.nodes.WebServer
""",
    )
    st = toskit.loads(text)
    topo = st.topology()
    (problem,) = [p for p in topo.unresolved if p.source == "web_server"]
    assert (problem.kind, problem.requirement) == ("missing", "host")
    assert problem.diagnostic is not None and problem.diagnostic.code == "unfulfilled-requirement"
    assert problem.diagnostic in st.diagnostics


def test_too_many_assignments_are_a_requirement_count_problem() -> None:
    text = """
tosca_definitions_version: tosca_2_0
node_types:
  Host: { capabilities: { host: { type: tosca.capabilities.Compute } } }
  App:
    requirements:
      - host: { capability: tosca.capabilities.Compute, count_range: [ 1, 1 ] }
service_template:
  node_templates:
    a: { type: Host }
    b: { type: Host }
    app:
      type: App
      requirements: [ { host: a }, { host: b } ]
"""
    st = toskit.loads(text)
    topo = st.topology()
    counted = [
        p for p in topo.problems if p.diagnostic and p.diagnostic.code == "requirement-count"
    ]
    assert [(p.kind, p.source, p.requirement) for p in counted] == [("too-many", "app", "host")]
    assert len([e for e in topo.edges if e.source == "app"]) == 2
    assert topo.unresolved == []  # both arrows are drawn; nothing points to nowhere
    assert 'class="toskit-t-problem' not in topo.to_svg()


def test_unknown_target_is_unresolved_with_the_loader_diagnostic() -> None:
    text = WEB_STACK.replace("- host: dbms", "- host: dbmss")
    st = toskit.loads(text)
    topo = st.topology()
    (problem,) = topo.unresolved
    assert (problem.kind, problem.source, problem.requirement) == ("unresolved", "database", "host")
    assert problem.diagnostic.code == "unknown-node"
    assert topo.edge("database", "host") is None


def test_ambiguous_target_is_reported_and_the_first_candidate_taken() -> None:
    text = """
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: tosca.nodes.Compute
    vm1: { type: tosca.nodes.Compute }
    vm2: { type: tosca.nodes.Compute }
"""
    topo = toskit.loads(text, name="amb.yaml").topology()
    (problem,) = topo.ambiguous
    assert problem.target == "vm1"
    assert problem.diagnostic.code == "ambiguous-requirement"
    assert problem.diagnostic.line == 8  # the requirement, as written
    assert "vm2" in problem.message
    assert topo.edge("app", "host").target == "vm1"
    assert [c.outcome for c in problem.candidates] == ["chosen", "passed"]


def test_a_node_filter_removes_the_ambiguity_and_shows_the_exclusion() -> None:
    text = """
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
            node: tosca.nodes.Compute
            node_filter:
              capabilities:
                - host: { properties: [ { num_cpus: { greater_or_equal: 4 } } ] }
    vm1:
      type: tosca.nodes.Compute
      capabilities: { host: { properties: { num_cpus: 1 } } }
    vm2:
      type: tosca.nodes.Compute
      capabilities: { host: { properties: { num_cpus: 8 } } }
"""
    topo = toskit.loads(text).topology()
    assert topo.ambiguous == []
    edge = topo.edge("app", "host")
    assert edge.target == "vm2"
    assert "num_cpus" in (edge.node_filter or "")
    outcomes = {c.candidate: c.outcome for c in edge.candidates}
    assert outcomes == {"vm1": "excluded", "vm2": "chosen"}
    assert "vm1: excluded" in edge.tooltip


def test_2_0_unfulfilled_capability_requirement_is_unresolved() -> None:
    text = """
tosca_definitions_version: tosca_2_0
capability_types:
  Storage: {}
node_types:
  App:
    requirements:
      - disk: { capability: Storage }
service_template:
  node_templates:
    app:
      type: App
      requirements: [ { disk: { capability: Storage } } ]
"""
    topo = toskit.loads(text).topology()
    (problem,) = topo.unresolved
    assert problem.kind == "unresolved"
    assert problem.diagnostic.code == "unresolved-requirement"
    assert "an orchestrator may fulfil it" in problem.message


SUBSTITUTION = """
tosca_definitions_version: tosca_2_0
capability_types:
  Host: {}
  Service: {}
relationship_types:
  HostedOn: {}
node_types:
  Compute:
    capabilities: { host: { type: Host } }
  Software:
    capabilities: { api: { type: Service } }
    requirements:
      - host: { capability: Host, relationship: HostedOn }
  Platform:
    capabilities: { api: { type: Service } }
    requirements:
      - storage: { capability: Host }
service_template:
  substitution_mappings:
    node_type: Platform
    capabilities:
      api: [ software, api ]
    requirements:
      - storage: [ vm, host ]
  node_templates:
    software:
      type: Software
      requirements: [ { host: vm } ]
    vm: { type: Compute }
"""


def test_substitution_mappings_are_the_boundary() -> None:
    topo = toskit.loads(SUBSTITUTION).topology()
    assert topo.boundary is not None
    assert topo.boundary.node_type == "Platform"
    assert topo.boundary.capabilities == (("api", "software", "api"),)
    assert topo.boundary.requirements == (("storage", "vm", "host"),)
    assert "substitutes for Platform" in topo.to_svg()
    assert "cluster_boundary" in topo.to_dot()


def test_grouped_by_type_merges_nodes_and_counts_edges() -> None:
    text = (
        """
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
"""
        + "".join(
            f"""    app{i}:
      type: tosca.nodes.SoftwareComponent
      requirements: [ {{ host: vm{i % 2} }} ]
"""
            for i in range(6)
        )
        + """    vm0: { type: tosca.nodes.Compute }
    vm1: { type: tosca.nodes.Compute }
"""
    )
    topo = toskit.loads(text).topology()
    grouped = topo.grouped()
    assert set(grouped.nodes) == {"tosca.nodes.SoftwareComponent", "tosca.nodes.Compute"}
    assert len(grouped.nodes["tosca.nodes.SoftwareComponent"].members) == 6
    (edge,) = grouped.edges
    assert edge.count == 6 and edge.hosting
    assert grouped.view == "grouped by type"
    with pytest.raises(toskit.ToskitError):
        topo.grouped(by="colour")


def test_collapse_hosting_keeps_one_box_per_chain(web: Topology) -> None:
    collapsed = web.collapse_hosting()
    assert set(collapsed.nodes) == {"server"}
    assert set(collapsed.nodes["server"].members) == set(web.nodes)
    assert collapsed.edges == []  # every edge is inside the one chain


def test_to_dot_escapes_quotes_and_marks_hosting(web: Topology) -> None:
    dot = web.to_dot()
    assert dot.startswith('digraph "web.yaml" {')
    assert '"web_app" -> "web_server" [label="host"' in dot
    assert "style=bold" in dot
    hostile = toskit.loads(WEB_STACK.replace("/shop", '"a\\"b"')).topology()
    assert 'context_root: a\\"b' in hostile.to_dot()


def test_to_dot_draws_unresolved_requirements_dashed_to_a_point() -> None:
    topo = toskit.loads(WEB_STACK.replace("- host: dbms", "- host: nowhere")).topology()
    dot = topo.to_dot()
    assert re.search(r'"database" -> "\?0" \[style=dashed, color=red, label="host"', dot)


def test_to_svg_is_standalone_and_lays_every_node_out(web: Topology) -> None:
    svg = web.to_svg()
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert svg.count('class="toskit-t-node"') == len(web.nodes)
    assert svg.count('class="toskit-t-edge') == len(web.edges)
    lay = web.layout()
    # Requirements point down: the needing node sits above the needed one.
    assert lay.boxes["web_app"].y < lay.boxes["web_server"].y < lay.boxes["server"].y
    assert lay.boxes["database"].y < lay.boxes["dbms"].y < lay.boxes["server"].y


def test_cycles_and_self_references_lay_out() -> None:
    text = """
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    a: { type: tosca.nodes.Root, requirements: [ { dependency: b } ] }
    b: { type: tosca.nodes.Root, requirements: [ { dependency: a } ] }
    c: { type: tosca.nodes.Root, requirements: [ { dependency: c } ] }
"""
    topo = toskit.loads(text).topology()
    assert len(topo.edges) == 3
    svg = topo.to_svg()
    assert svg.count('class="toskit-t-edge') == 3


def test_repr_lists_edges_and_problems() -> None:
    topo = toskit.loads(WEB_STACK.replace("- host: dbms", "- host: nowhere")).topology()
    text = repr(topo)
    assert "web_app -host-> web_server [tosca.relationships.HostedOn]" in text
    assert "database -host-> ? (unresolved" in text


def test_dsl_built_template_has_a_topology(tmp_path) -> None:
    from toskit import dsl

    st = toskit.loads(WEB_STACK)
    module = tmp_path / "web_stack.py"
    module.write_text(st.to_python(), encoding="utf-8")
    again = dsl.load_module(str(module))
    topo = again.topology()
    assert set(topo.nodes) == set(st.node_templates)
    assert topo.hosting_chain("web_app") == ["web_app", "web_server", "server"]


def test_collapse_hosting_takes_attached_storage_into_the_machine_box() -> None:
    text = (
        WEB_STACK
        + """    disk:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: d }
    shared:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: s }
    vm2:
      type: tosca.nodes.Compute
      requirements:
        - local_storage: { node: shared, relationship: tosca.relationships.AttachesTo }
"""
    ).replace(
        """    server:
      type: tosca.nodes.Compute
""",
        """    server:
      type: tosca.nodes.Compute
      requirements:
        - local_storage: { node: disk, relationship: tosca.relationships.AttachesTo }
        - local_storage: { node: shared, relationship: tosca.relationships.AttachesTo }
""",
    )
    topo = toskit.loads(text).topology()
    assert topo.edge("server", "local_storage").attachment
    collapsed = topo.collapse_hosting()
    assert "disk" in collapsed.nodes["server"].members
    # attached to two machines: stays a box of its own, with both arrows
    assert "shared" in collapsed.nodes
    assert {(e.source, e.target) for e in collapsed.edges} == {
        ("server", "shared"),
        ("vm2", "shared"),
    }


def test_a_500_node_template_draws_in_under_two_seconds() -> None:
    """bench/bench_topology.py's template and target (its figure: about 0.4 s here)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "bench_topology.py"
    spec = importlib.util.spec_from_file_location("bench_topology", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.measure(stacks=72, runs=1)
    assert figures["nodes"] == 504 and figures["edges"] == 576
    assert figures["draw_total_s"] < bench.TARGET_S
    # the readable views are much smaller drawings
    assert figures["collapsed_svg_kb"] < figures["svg_kb"] / 2


def test_a_dense_graph_falls_back_to_its_hosting_backbone_in_bounded_time() -> None:
    """500 nodes with 4 random dependencies each would need ~200,000 dummy
    vertices in a layered layout (minutes); the backbone is laid out instead."""
    import random
    import time

    rng = random.Random(1)
    n = 500
    lines = [
        "tosca_definitions_version: tosca_simple_yaml_1_3",
        "topology_template:",
        "  node_templates:",
    ]
    for i in range(n):
        deps = [d for d in rng.sample(range(n), 4) if d != i]
        host = "" if i % 10 == 0 else f"{{ host: n{i - i % 10} }}, "
        lines += [
            f"    n{i}:",
            "      type: tosca.nodes.SoftwareComponent"
            if i % 10
            else "      type: tosca.nodes.Compute",
            "      requirements: [ "
            + host
            + ", ".join(f"{{ dependency: n{d} }}" for d in deps)
            + " ]",
        ]
    topo = toskit.loads("\n".join(lines) + "\n").topology()
    start = time.perf_counter()
    lay = topo.layout()
    assert time.perf_counter() - start < 10
    assert len(lay.boxes) == n
    centres = {(round(b.x), round(b.y)) for b in lay.boxes.values()}
    assert len(centres) == n  # no two boxes on one spot
    # the hosting backbone was laid out: every machine sits below what it hosts
    assert all(lay.boxes[f"n{i}"].y < lay.boxes[f"n{i - i % 10}"].y for i in range(n) if i % 10)


def test_a_chain_of_thousands_of_requirements_lays_out_without_deep_recursion() -> None:
    import sys
    import time

    n = 3000
    lines = [
        "tosca_definitions_version: tosca_simple_yaml_1_3",
        "topology_template:",
        "  node_templates:",
    ]
    for i in range(n - 1):
        lines.append(
            f"    n{i}: {{ type: tosca.nodes.Root, requirements: [ {{ dependency: n{i + 1} }} ] }}"
        )
    lines.append(f"    n{n - 1}: {{ type: tosca.nodes.Root }}")
    topo = toskit.loads("\n".join(lines) + "\n").topology()
    limit = sys.getrecursionlimit()
    start = time.perf_counter()
    svg = topo.to_svg()
    assert time.perf_counter() - start < 10
    assert sys.getrecursionlimit() == limit
    assert svg.count('class="toskit-t-edge') == n - 1


def test_an_assignment_with_count_above_one_is_not_ambiguous() -> None:
    text = """
tosca_definitions_version: tosca_2_0
capability_types:
  Svc: {}
node_types:
  Server: { capabilities: { svc: { type: Svc } } }
  Client:
    requirements:
      - service: { capability: Svc, count_range: [ 0, UNBOUNDED ] }
service_template:
  node_templates:
    s1: { type: Server }
    s2: { type: Server }
    s3: { type: Server }
    many:
      type: Client
      requirements: [ { service: { count: 3 } } ]
    one:
      type: Client
      requirements: [ { service: { capability: Svc } } ]
"""
    topo = toskit.loads(text).topology()
    assert [p.source for p in topo.ambiguous] == ["one"]
    assert (
        "could be fulfilled by 's1', 's2' or 's3'; the first was taken" in topo.ambiguous[0].message
    )
