"""Node filters choose requirement targets (1.3 clauses and 2.0 conditions).

Each case loads a template whose first-declared candidate fails the filter,
so a loader that ignored the filter would pick the wrong target.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toskit
from toskit.tosca.model import node_filters
from toskit.tosca.model.node_filters import check, explain, is_condition

TOSCA_13 = """
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
                - host:
                    properties:
                      - num_cpus: { in_range: [ 4, 16 ] }
                      - mem_size: { greater_or_equal: 8 GB }
    small:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 2, mem_size: 16 GB }
    lowmem:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 8, mem_size: 2 GB }
    large:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 8, mem_size: 32 GB }
"""

TOSCA_20 = """
tosca_definitions_version: tosca_2_0
capability_types:
  ProviderCapability:
    properties:
      performance: { type: string }
relationship_types:
  ServedBy: {}
node_types:
  Server:
    properties:
      cpus: { type: integer }
    capabilities:
      service: { type: ProviderCapability }
  Client:
    requirements:
      - server: { capability: ProviderCapability, relationship: ServedBy }
service_template:
  node_templates:
    by_capability:
      type: Client
      requirements:
        - server:
            node: Server
            node_filter:
              $equal: [ { $get_property: [ SELF, CAPABILITY, performance ] }, high ]
    by_target:
      type: Client
      requirements:
        - server:
            node: Server
            node_filter:
              $greater_or_equal: [ { $get_property: [ SELF, TARGET, cpus ] }, 8 ]
    node_style:
      type: Client
      requirements:
        - server:
            node: Server
            node_filter:
              $and:
                - $greater_or_equal: [ { $get_property: [ SELF, cpus ] }, 4 ]
                - $less_or_equal: [ { $get_property: [ SELF, cpus ] }, 8 ]
    low:
      type: Server
      properties: { cpus: 2 }
      capabilities: { service: { properties: { performance: low } } }
    mid:
      type: Server
      properties: { cpus: 6 }
      capabilities: { service: { properties: { performance: low } } }
    high:
      type: Server
      properties: { cpus: 16 }
      capabilities: { service: { properties: { performance: high } } }
"""


def _target(st, node: str, req: str = "server") -> str | None:
    r = st.node_templates[node].requirement(req)
    assert r is not None
    return r.target.name if r.target is not None else None


def test_1_3_capability_filter_skips_candidates_that_fail_a_clause() -> None:
    st = toskit.loads(TOSCA_13)
    assert _target(st, "app", "host") == "large"


def test_1_3_explain_names_the_failing_clause_per_candidate() -> None:
    st = toskit.loads(TOSCA_13)
    app = st.node_templates["app"]
    verdicts = {v.candidate: v for v in explain(st, app, app.requirement("host"))}
    assert verdicts["small"].outcome == "excluded"
    assert "num_cpus" in verdicts["small"].reason and "in_range" in verdicts["small"].reason
    assert verdicts["lowmem"].outcome == "excluded"
    assert "mem_size" in verdicts["lowmem"].reason
    assert verdicts["large"].outcome == "chosen"


def test_1_3_property_filter_and_missing_property() -> None:
    text = """
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - dependency:
            node: tosca.nodes.DBMS
            node_filter:
              properties:
                - port: { equal: 5432 }
    mysql:
      type: tosca.nodes.DBMS
      properties: { port: 3306 }
      requirements: [ { host: c } ]
    noport:
      type: tosca.nodes.DBMS
      requirements: [ { host: c } ]
    postgres:
      type: tosca.nodes.DBMS
      properties: { port: 5432 }
      requirements: [ { host: c } ]
    c: { type: tosca.nodes.Compute }
"""
    st = toskit.loads(text)
    assert _target(st, "app", "dependency") == "postgres"
    app = st.node_templates["app"]
    verdicts = {v.candidate: v for v in explain(st, app, app.requirement("dependency"))}
    assert verdicts["mysql"].outcome == "excluded" and "3306" in verdicts["mysql"].reason
    assert verdicts["noport"].outcome == "excluded"
    assert "no value for 'port'" in verdicts["noport"].reason


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        pytest.param("by_capability", "high", id="SELF-CAPABILITY-reads-target-capability"),
        pytest.param("by_target", "high", id="SELF-TARGET-reads-target-node"),
        pytest.param("node_style", "mid", id="SELF-as-candidate-node"),
    ],
)
def test_2_0_condition_filters_choose_the_target(node: str, expected: str) -> None:
    st = toskit.loads(TOSCA_20)
    assert st.ok, st.diagnostics
    assert _target(st, node) == expected


def test_2_0_explain_records_which_filter_excluded_each_candidate() -> None:
    st = toskit.loads(TOSCA_20)
    node = st.node_templates["by_capability"]
    verdicts = explain(st, node, node.requirement("server"))
    assert [(v.candidate, v.outcome) for v in verdicts] == [
        ("low", "excluded"),
        ("mid", "excluded"),
        ("high", "chosen"),
    ]
    assert "performance" in (verdicts[0].clause or "")
    assert "false for 'low'" in verdicts[0].reason


def test_2_0_filter_on_an_attribute_is_undetermined_and_does_not_exclude() -> None:
    text = TOSCA_20.replace(
        "$greater_or_equal: [ { $get_property: [ SELF, TARGET, cpus ] }, 8 ]",
        "$greater_or_equal: [ { $get_attribute: [ SELF, TARGET, uptime ] }, 8 ]",
    )
    st = toskit.loads(text)
    # Nothing can be decided statically: the first Server stays the target.
    assert _target(st, "by_target") == "low"
    node = st.node_templates["by_target"]
    first = explain(st, node, node.requirement("server"))[0]
    assert first.outcome == "chosen" and "undetermined" in first.reason


def test_2_0_filter_that_excludes_everyone_leaves_the_requirement_unresolved() -> None:
    text = TOSCA_20.replace("- 8 ]", "- 8 ]").replace(
        "$greater_or_equal: [ { $get_property: [ SELF, TARGET, cpus ] }, 8 ]",
        "$greater_or_equal: [ { $get_property: [ SELF, TARGET, cpus ] }, 100 ]",
    )
    st = toskit.loads(text)
    assert _target(st, "by_target") is None


def test_a_named_target_is_kept_and_the_filter_verdict_is_reported() -> None:
    text = TOSCA_20.replace(
        """            node: Server
            node_filter:
              $greater_or_equal: [ { $get_property: [ SELF, TARGET, cpus ] }, 8 ]""",
        """            node: low
            node_filter:
              $greater_or_equal: [ { $get_property: [ SELF, TARGET, cpus ] }, 8 ]""",
    )
    st = toskit.loads(text)
    assert _target(st, "by_target") == "low"
    node = st.node_templates["by_target"]
    (only,) = explain(st, node, node.requirement("server"))
    assert only.outcome == "chosen"
    assert "named by the requirement" in only.reason and "excluded" in only.reason


def test_is_condition() -> None:
    assert is_condition({"$and": []})
    assert not is_condition({"properties": []})
    assert not is_condition({"$$literal": 1})
    assert not is_condition(None)


# Any filter data, however odd, gives a verdict: never an exception.
_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8))
_keys = st.sampled_from(
    [
        "properties",
        "capabilities",
        "$and",
        "$or",
        "$not",
        "$equal",
        "$get_property",
        "host",
        "num_cpus",
        "in_range",
        "equal",
        "$greater_or_equal",
        "SELF",
        "$nope",
    ]
)
_data = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(_keys, children, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(node_filter=_data)
def test_any_filter_gives_a_verdict(node_filter) -> None:
    st_ = _LOADED
    candidate = st_.node_templates["large"]
    result = check(candidate, node_filter, st_.registry, source=st_.node_templates["app"])
    assert result.outcome in ("passed", "excluded", "undetermined")
    assert isinstance(node_filters.filter_text(node_filter), str)


_LOADED = toskit.loads(TOSCA_13)


def test_a_filter_on_the_requirement_definition_applies_to_every_assignment() -> None:
    text = (
        TOSCA_20.replace(
            "      - server: { capability: ProviderCapability, relationship: ServedBy }",
            """      - server:
          capability: ProviderCapability
          relationship: ServedBy
          node_filter:
            $greater_or_equal: [ { $get_property: [ SELF, TARGET, cpus ] }, 4 ]""",
        )
        + """    plain:
      type: Client
      requirements: [ { server: { node: Server } } ]
"""
    )
    st = toskit.loads(text)
    assert st.ok, st.diagnostics
    assert _target(st, "plain") == "mid"  # low (2 cpus) excluded by the type's filter
    node = st.node_templates["plain"]
    verdicts = {v.candidate: v.outcome for v in explain(st, node, node.requirement("server"))}
    assert verdicts == {"low": "excluded", "mid": "chosen", "high": "passed"}
