"""Grammar and semantics the OASIS TOSCA 2.0 suite exercises (docs/conformance.md).

Each test is the behaviour a suite case checks, written small, with the
diagnostic toskit gives (code, place, wording), so a regression names the rule.
"""

from __future__ import annotations

import pytest

import toskit


def errors(st: toskit.ServiceTemplate) -> list[toskit.Diagnostic]:
    return [d for d in st.diagnostics if d.severity == "error"]


TIMESTAMP_2_0 = """\
tosca_definitions_version: {version}
node_types:
  Node:
    {derived}properties:
      when: {{type: timestamp}}
{topology}:
  node_templates:
    node:
      type: Node
      properties:
        when: "{value}"
"""


def timestamp_template(value: str, major: int) -> str:
    if major == 2:
        return TIMESTAMP_2_0.format(
            version="tosca_2_0", derived="", topology="service_template", value=value
        )
    return TIMESTAMP_2_0.format(
        version="tosca_simple_yaml_1_3",
        derived="derived_from: tosca.nodes.Root\n    ",
        topology="topology_template",
        value=value,
    )


@pytest.mark.parametrize(
    ("value", "major", "ok"),
    [
        ("1990-12-31T15:59:60-08:00", 2, True),
        ("2025-04-12T23:20:50.52Z", 2, True),
        ("2000-02-29", 2, True),
        ("2001-12-14 21:59:43.10", 2, False),
        ("2001-12-14 21:59:43.10", 1, True),
        ("2001-02-29", 2, False),
    ],
    ids=["leap-second", "fraction-z", "date", "space-2.0", "space-1.3", "no-such-day"],
)
def test_timestamps_are_rfc3339_in_tosca_2_0(value: str, major: int, ok: bool) -> None:
    st = toskit.loads(timestamp_template(value, major))
    if ok:
        assert errors(st) == []
    else:
        (diag,) = errors(st)
        assert diag.code == "type-mismatch"
        assert diag.message.endswith(f"expected timestamp, got string '{value}'")
        assert diag.path.endswith("node_templates.node.properties.when")


@pytest.mark.parametrize(
    ("written", "message", "line", "column"),
    [
        ("", "'substitution_mappings' has no value: a substitution mappings needs 'node_type'", 4, 3),
        ("{}", "a substitution mappings needs 'node_type'", 4, 26),
    ],
    ids=["null", "empty-map"],
)
def test_substitution_mappings_need_a_node_type(
    written: str, message: str, line: int, column: int
) -> None:
    st = toskit.loads(
        "tosca_definitions_version: tosca_2_0\nservice_template:\n  node_templates: {}\n"
        f"  substitution_mappings: {written}\n"
    )
    (diag,) = errors(st)
    assert (diag.code, diag.message) == ("missing-keyname", message)
    assert (diag.line, diag.column) == (line, column)
    assert diag.path == "service_template.substitution_mappings"


def test_substitution_mappings_with_a_node_type_pass_the_keyname_check() -> None:
    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n"
        "  substitution_mappings: {node_type: tosca.nodes.Root}\n"
    )
    assert errors(st) == []


REQ_WITH_RANGE = """\
tosca_definitions_version: {version}
capability_types:
  Host: {{{cap_derived}}}
node_types:
  App:
    {derived}requirements:
      - host:
          capability: {capability}
          {key}: {bounds}
"""

COUNT_RANGES = [
    ("[1, 2]", True),
    ("[0, UNBOUNDED]", True),
    ("[2, 2]", True),
    ("[1.0, 2.5]", False),
    ("[2, 1]", False),
    ("[-1, 3]", False),
    ("[1]", False),
    ("[true, 2]", False),
    ("'1..2'", False),
    ("[1, unbounded]", False),
]


@pytest.mark.parametrize(("bounds", "ok"), COUNT_RANGES, ids=[b for b, _ in COUNT_RANGES])
@pytest.mark.parametrize("major", [2, 1], ids=["count_range-2.0", "occurrences-1.3"])
def test_requirement_count_ranges_are_integer_ranges(bounds: str, ok: bool, major: int) -> None:
    text = REQ_WITH_RANGE.format(
        version="tosca_2_0" if major == 2 else "tosca_simple_yaml_1_3",
        derived="" if major == 2 else "derived_from: tosca.nodes.Root\n    ",
        cap_derived="" if major == 2 else "derived_from: tosca.capabilities.Root",
        capability="Host",
        key="count_range" if major == 2 else "occurrences",
        bounds=bounds,
    )
    found = errors(toskit.loads(text))
    if ok:
        assert found == []
    else:
        (diag,) = found
        assert diag.code == "invalid-definition"
        key = "count_range" if major == 2 else "occurrences"
        assert diag.message.startswith(f"'{key}' must be a range [lower, upper] of non-negative")
        assert diag.path == f"node_types.App.requirements[0].host.{key}"


@pytest.mark.parametrize(
    ("written", "ok"),
    [("[App]", True), ("{App: null}", False), ("App", False), ("[App, 3]", False)],
    ids=["list", "map", "bare-name", "number-in-list"],
)
def test_valid_source_node_types_is_a_list_of_names(written: str, ok: bool) -> None:
    st = toskit.loads(
        "tosca_definitions_version: tosca_2_0\nnode_types:\n  App: {}\ncapability_types:\n"
        f"  Feature:\n    valid_source_node_types: {written}\n"
    )
    found = [d for d in errors(st) if d.code == "invalid-definition"]
    if ok:
        assert errors(st) == []
    else:
        (diag,) = found
        assert diag.message.startswith("'valid_source_node_types' must be a list of type names")
        assert diag.path == "capability_types.Feature.valid_source_node_types"


INTERFACE_TYPE = """\
tosca_definitions_version: {version}
interface_types:
  Base:
    {derived}inputs:
      timeout: {timeout}
    operations:
      start:
        description: starts it
        {extra}
"""


def interface_type(major: int, timeout: str = "{type: integer}", extra: str = "") -> str:
    return INTERFACE_TYPE.format(
        version="tosca_2_0" if major == 2 else "tosca_simple_yaml_1_3",
        derived="" if major == 2 else "derived_from: tosca.interfaces.Root\n    ",
        timeout=timeout,
        extra=extra,
    )


def test_an_interface_type_declaring_operations_and_inputs_is_fine() -> None:
    assert errors(toskit.loads(interface_type(2))) == []


def test_an_interface_type_may_not_implement_an_operation_in_tosca_2_0() -> None:
    st = toskit.loads(interface_type(2, extra="implementation: scripts/start.sh"))
    (diag,) = errors(st)
    assert diag.code == "invalid-definition"
    assert diag.message.startswith("'implementation' is not allowed here: an interface type")
    assert diag.path == "interface_types.Base.operations.start.implementation"
    # TOSCA 1.x profiles in the wild do it; toskit keeps reading them.
    assert errors(toskit.loads(interface_type(1, extra="implementation: start.sh"))) == []


def test_interface_type_inputs_are_parameter_definitions_in_tosca_2_0() -> None:
    st = toskit.loads(interface_type(2, timeout="a bare value"))
    (diag,) = errors(st)
    assert (diag.code, diag.message) == (
        "invalid-definition",
        "a parameter definition must be a map, got str 'a bare value'",
    )
    assert diag.path == "interface_types.Base.inputs.timeout"


@pytest.mark.parametrize(
    ("key_schema", "ok"),
    [
        ("string", True),
        ("Name", True),
        ("{type: string}", True),
        ("integer", False),
        ("{type: integer}", False),
        ("Point", False),
    ],
    ids=["string", "derived-from-string", "long-form", "integer", "long-integer", "complex"],
)
def test_a_map_key_schema_must_be_a_string_type(key_schema: str, ok: bool) -> None:
    st = toskit.loads(
        "tosca_definitions_version: tosca_2_0\ndata_types:\n  Name: {derived_from: string}\n"
        "  Point:\n    properties: {x: {type: integer}}\n"
        "node_types:\n  S:\n    properties:\n      m:\n        type: map\n"
        f"        key_schema: {key_schema}\n        entry_schema: integer\n"
    )
    if ok:
        assert errors(st) == []
    else:
        (diag,) = errors(st)
        assert diag.code == "invalid-definition"
        assert diag.message.startswith("a map's key_schema must be string or derive from it")
        assert (diag.line, diag.path) == (11, "node_types.S.properties.m.key_schema")


@pytest.mark.parametrize(
    ("version", "node_type", "ok"),
    [
        ("tosca_2_0", "Service", True),
        ("tosca_2_0", "Servise", False),
        ("tosca_simple_yaml_1_3", "tosca.nodes.Root", True),
        ("tosca_simple_yaml_1_3", "tosca.nodes.Rot", False),
    ],
    ids=["2.0-known", "2.0-typo", "1.3-normative", "1.3-typo"],
)
def test_substitution_mappings_node_type_must_exist(version: str, node_type: str, ok: bool) -> None:
    topology = "service_template" if version == "tosca_2_0" else "topology_template"
    derived = "" if version == "tosca_2_0" else "derived_from: tosca.nodes.Root"
    st = toskit.loads(
        f"tosca_definitions_version: {version}\nnode_types:\n  Service: {{{derived}}}\n"
        f"{topology}:\n  node_templates:\n    s: {{type: Service}}\n"
        f"  substitution_mappings: {{node_type: {node_type}}}\n"
    )
    if ok:
        assert errors(st) == []
    else:
        (diag,) = errors(st)
        assert diag.code == "unknown-type"
        assert diag.message == f"substitution mappings: unknown node type '{node_type}'"
        assert diag.path == f"{topology}.substitution_mappings.node_type"
        assert diag.hint is not None and "did you mean" in diag.hint
