"""Shortcuts of the load for templates with nothing to check there (issue #31,
bench B1): a template that assigns no requirement skips the occurrence check
unless its type's bounds make "none" a finding (bounds read once per type);
a template without ``artifacts`` or ``interfaces`` skips the artifact type
scan. The findings are those of the full checks, for each class of bound."""

from __future__ import annotations

import pytest

import toskit
from toskit.tosca.model import requirements
from toskit.tosca.types import artifacts

TEMPLATE = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  t.N:
    derived_from: tosca.nodes.Root
    requirements:
      - host: {{capability: tosca.capabilities.Node, occurrences: [{occurrences}]}}
topology_template:
  node_templates:
    none_assigned:
      type: t.N
    one_assigned:
      type: t.N
      requirements:
        - host: other
    two_assigned:
      type: t.N
      requirements:
        - host: other
        - host: other
    other:
      type: tosca.nodes.Root
    with_artifact:
      type: tosca.nodes.Root
      artifacts:
        x: {{type: t.Nope, file: a.sh}}
    with_implementation:
      type: tosca.nodes.Root
      interfaces:
        Standard:
          create:
            implementation: {{primary: {{file: b.sh, type: t.Missing}}}}
"""

# occurrences -> the requirement findings, by template.
CASES = {
    "1, 1": {("none_assigned", "unfulfilled-requirement"), ("two_assigned", "requirement-count")},
    "0, -1": {
        ("none_assigned", "requirement-count"),
        ("one_assigned", "requirement-count"),
        ("two_assigned", "requirement-count"),
    },
    "0, 1": {("two_assigned", "requirement-count")},
    "0, UNBOUNDED": set(),
    "2, 3": {
        ("none_assigned", "unfulfilled-requirement"),
        ("one_assigned", "unfulfilled-requirement"),
    },
}


def _findings(text: str) -> list[tuple]:
    return [(d.code, d.message, d.line, d.column) for d in toskit.loads(text).diagnostics]


@pytest.mark.parametrize("occurrences", list(CASES))
def test_occurrence_findings_with_and_without_the_shortcut(
    monkeypatch: pytest.MonkeyPatch, occurrences: str
) -> None:
    text = TEMPLATE.format(occurrences=occurrences)
    found = _findings(text)
    reqs = {
        (d[1].split("'")[1], d[0])
        for d in found
        if d[0] in ("unfulfilled-requirement", "requirement-count")
    }
    assert reqs == CASES[occurrences]
    # Every template's counts checked, as before the shortcut: the same findings.
    real = requirements._type_bounds
    monkeypatch.setattr(requirements, "_type_bounds", lambda t, m: (real(t, m)[0], True))
    assert _findings(text) == found


def test_artifact_types_found_in_artifacts_and_implementations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = TEMPLATE.format(occurrences="0, 1")
    found = _findings(text)
    unknown = [d[1] for d in found if d[0] == "unknown-type"]
    assert unknown == [
        "node template 'with_artifact': unknown artifact type 't.Nope'",
        "node template 'with_implementation': unknown artifact type 't.Missing'",
    ]
    # The scan asked only about the templates that write artifacts or interfaces.
    asked: list[str] = []
    real = artifacts.check_artifact_types
    monkeypatch.setattr(
        artifacts,
        "check_artifact_types",
        lambda reg, doc, raw, parts, label, *a: (
            asked.append(label) or real(reg, doc, raw, parts, label, *a)
        ),
    )
    assert _findings(text) == found
    assert asked == ["node template 'with_artifact'", "node template 'with_implementation'"]


def test_a_type_is_looked_up_once_per_kind_and_name_unknown_ones_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toskit.tosca.model import entities

    text = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  t.N:
    derived_from: tosca.nodes.Root
    properties:
      p: {type: integer, default: 1}
topology_template:
  node_templates:
    a: {type: t.N}
    b: {type: t.N, properties: {p: x}}
    c: {type: t.Nope}
    d: {type: t.Nope}
    e: {type: t.N}
"""
    looked: list[str] = []
    real = entities._resolve_type
    monkeypatch.setattr(
        entities,
        "_resolve_type",
        lambda ctx, kind, raw, *a: looked.append(raw["type"]) or real(ctx, kind, raw, *a),
    )
    st = toskit.loads(text, name="t.yaml")
    assert looked == ["t.N", "t.Nope", "t.Nope"]
    assert [(d.code, d.subject.name if d.subject else None) for d in st.diagnostics] == [
        ("type-mismatch", "b"),
        ("unknown-type", "c"),
        ("unknown-type", "d"),
    ]
    assert all(st.node_templates[n].type.name == "t.N" for n in ("a", "b", "e"))
    assert st.node_templates["e"].properties == {"p": 1}


def test_only_a_template_with_calls_gets_sets_of_its_own() -> None:
    """Resolution.calls/.evaluated are one shared empty frozenset until a call
    is noted; a template with a call is evaluated as before (its own sets)."""
    from toskit.tosca.values.resolve import NO_CALLS

    text = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  t.N:
    derived_from: tosca.nodes.Root
    properties:
      p: {type: string, required: false}
      q: {type: integer, default: 1}
topology_template:
  inputs:
    who: {type: string, default: me}
  node_templates:
    plain: {type: t.N, properties: {p: x}}
    called: {type: t.N, properties: {p: {get_input: who}}}
    undeclared: {type: t.N, properties: {r: {get_input: who}}}
    undeclared_call: {type: t.N, properties: {r: {get_attribute: [SELF, tosca_id]}}}
"""
    st = toskit.loads(text, name="t.yaml")
    plain, called = st.node_templates["plain"], st.node_templates["called"]
    assert plain._resolution.calls is NO_CALLS and plain._resolution.evaluated is NO_CALLS
    assert called._resolution.calls == {"p"} and called._resolution.evaluated == {"p"}
    assert called._resolution.calls is not NO_CALLS
    assert called.properties == {"p": "me", "q": 1}
    assert plain.properties == {"p": "x", "q": 1}
    # An undeclared property's input is substituted while it is kept: no call left.
    undeclared = st.node_templates["undeclared"]._resolution
    assert undeclared.calls is NO_CALLS and undeclared.values["r"] == "me"
    # One whose call stays (an attribute, known at deployment) notes it.
    kept = st.node_templates["undeclared_call"]._resolution
    assert kept.calls == {"r"} and kept.evaluated == {"r"}
    assert len(NO_CALLS) == 0  # nothing was added to the shared one


FILTERS_AND_INTERFACES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  t.N:
    derived_from: tosca.nodes.Root
    properties:
      p: {type: string, required: false}
    requirements:
      - dep: {capability: tosca.capabilities.Node, node: t.N, occurrences: [0, 1]}
topology_template:
  node_templates:
    a:
      type: t.N
      requirements:
        - dep:
            node: b
            node_filter:
              properties:
                - pp: {equal: x}
      interfaces:
        Standard:
          create: c.sh
          kreate: c.sh
    b: {type: t.N}
"""


@pytest.mark.parametrize("parser", ["fast", "pyyaml"])
def test_filter_names_and_interface_inputs_on_both_parse_paths(
    monkeypatch: pytest.MonkeyPatch, parser: str
) -> None:
    """The scans of node filters and interface assignments are skipped only
    for a document none of whose keys is ``node_filter`` / ``interfaces``
    (known on the fast path); where one is, both paths report the same."""
    monkeypatch.setenv("TOSKIT_YAML_PARSER", parser)
    codes = sorted(
        (d.code, d.message) for d in toskit.loads(FILTERS_AND_INTERFACES, name="t.yaml").diagnostics
    )
    assert [c for c, _ in codes] == ["unknown-operation", "unknown-property"], codes
    assert "'kreate'" in codes[0][1] and "'pp'" in codes[1][1]


def test_no_filter_or_interface_scan_without_those_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    from toskit.source import fast
    from toskit.tosca.model import filter_names, interfaces

    if not fast.available():
        pytest.skip("key names are known on the fast parse path only")
    asked: list[str] = []
    real_keys, real_assignments = filter_names._single_keys, interfaces._assignments
    monkeypatch.setattr(
        filter_names, "_single_keys", lambda *a: asked.append("filter") or real_keys(*a)
    )
    monkeypatch.setattr(
        interfaces, "_assignments", lambda *a: asked.append("interfaces") or real_assignments(*a)
    )
    toskit.loads(FILTERS_AND_INTERFACES, name="t.yaml")
    # The scans run where the keys are (a node filter's requirements per template).
    assert asked.count("interfaces") == 1 and asked.count("filter") >= 2
    asked.clear()
    plain = FILTERS_AND_INTERFACES.split("  node_templates:")[0] + (
        "  node_templates:\n    a: {type: t.N, properties: {p: x}}\n    b: {type: t.N}\n"
    )
    st = toskit.loads(plain, name="t.yaml")
    assert st.ok and st.node_templates["a"].properties == {"p": "x"}
    assert asked == []  # neither scan: no key of the document names a filter or interfaces
