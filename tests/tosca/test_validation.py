"""spec/tosca.md §4: validation after merging, every diagnostic located."""

from __future__ import annotations

import textwrap

import pytest
import yaml
from tosca_fixtures import errors

import toskit

NODES = "topology_template.node_templates"


def template(
    types: str, nodes: str, *, version: str = "tosca_simple_yaml_1_3", extra: str = ""
) -> str:
    """A 1.x document: ``types`` under node_types/data_types text, ``nodes`` under node_templates."""
    return (
        f"tosca_definitions_version: {version}\n"
        + textwrap.dedent(types).strip("\n")
        + "\n"
        + textwrap.dedent(extra)
        + "topology_template:\n  node_templates:\n"
        + textwrap.indent(textwrap.dedent(nodes).strip("\n"), "    ")
        + "\n"
    )


def where(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the n-th occurrence of ``needle`` in ``text``.

    ``occurrence=0``: the first occurrence inside ``node_templates``.
    """
    index = text.index("node_templates:") if occurrence == 0 else -1
    for _ in range(max(occurrence, 1)):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def one_error(st: toskit.ServiceTemplate, code: str) -> toskit.Diagnostic:
    found = [d for d in errors(st)]
    assert [d.code for d in found] == [code], [str(d) for d in found]
    return found[0]


TYPED = """
node_types:
  Server:
    derived_from: tosca.nodes.Root
    properties:
      port: {type: integer, required: false}
      ratio: {type: float, required: false}
      enabled: {type: boolean, required: false}
      size: {type: scalar-unit.size, required: false}
      period: {type: scalar-unit.time, required: false}
      speed: {type: scalar-unit.bitrate, required: false}
      clock: {type: scalar-unit.frequency, required: false}
      when: {type: timestamp, required: false}
      release: {type: version, required: false}
      window: {type: range, required: false}
      name: {type: string, required: false}
      nothing: {type: 'null', required: false}
      ports:
        type: list
        required: false
        entry_schema: {type: integer}
      labels:
        type: map
        required: false
        entry_schema: {type: string}
      traits:
        type: map
        required: false
        entry_schema:
          type: list
          entry_schema: {type: string}
"""


@pytest.mark.parametrize(
    ("prop", "value", "expected"),
    [
        ("port", "'abc'", "expected integer, got string 'abc'"),
        ("port", "1.5", "expected integer, got float 1.5"),
        ("port", "true", "expected integer, got boolean true"),
        ("ratio", "'fast'", "expected float, got string 'fast'"),
        ("enabled", "1", "expected boolean, got integer 1"),
        ("name", "42", "expected string, got integer 42"),
        ("size", "two GB", "expected scalar-unit.size, got string 'two GB'"),
        ("size", "2 s", "expected scalar-unit.size, got string '2 s'"),
        ("size", "2", "expected scalar-unit.size, got integer 2"),
        ("period", "10 GB", "expected scalar-unit.time, got string '10 GB'"),
        ("when", "yesterday", "expected timestamp, got string 'yesterday'"),
        ("release", "one.two", "expected version, got string 'one.two'"),
        ("window", "[5, 1]", "expected range, got list"),
        ("nothing", "0", "expected null, got integer 0"),
        ("ports", "8080", "expected list, got integer 8080"),
        ("labels", "[a]", "expected map, got list"),
    ],
    ids=lambda v: str(v),
)
def test_type_mismatch_names_type_and_value(prop: str, value: str, expected: str) -> None:
    text = template(TYPED, f"s:\n  type: Server\n  properties:\n    {prop}: {value}\n")
    st = toskit.loads(text)
    diag = one_error(st, "type-mismatch")
    assert expected in diag.message
    assert diag.message.startswith("node template 's': ")
    assert diag.path == f"{NODES}.s.properties.{prop}"
    line, column = where(text, f"{prop}: {value}\n", 0)
    assert (diag.line, diag.column) == (line, column + len(prop) + 2)


@pytest.mark.parametrize(
    ("prop", "value"),
    [
        ("port", "80"),
        ("ratio", "2"),  # ints are accepted for float
        ("ratio", "0.5"),
        ("enabled", "false"),
        ("size", "2 GB"),
        ("size", "512 MiB"),
        ("period", "30 s"),
        ("speed", "100 Mbps"),
        ("clock", "2.5 GHz"),
        ("when", "2024-01-01T10:00:00Z"),
        ("when", "2024-01-01"),
        ("release", "1.2.3"),
        ("release", "1.0"),
        ("window", "[1, 5]"),
        ("window", "[1, UNBOUNDED]"),
        ("nothing", "null"),
        ("ports", "[80, 443]"),
        ("labels", "{app: web}"),
        ("traits", "{a: [x, y]}"),
    ],
    ids=lambda v: str(v),
)
def test_good_values_pass(prop: str, value: str) -> None:
    st = toskit.loads(template(TYPED, f"s:\n  type: Server\n  properties:\n    {prop}: {value}\n"))
    assert errors(st) == []
    assert prop in st.node_templates["s"].properties


def test_yaml11_boolean_gets_a_hint() -> None:
    st = toskit.loads(template(TYPED, "s:\n  type: Server\n  properties:\n    enabled: yes\n"))
    diag = one_error(st, "type-mismatch")
    assert "expected boolean, got string 'yes'" in diag.message
    assert diag.hint is not None and "true or false" in diag.hint


def test_entry_schema_paths_for_lists_and_maps() -> None:
    text = template(
        TYPED,
        """
        s:
          type: Server
          properties:
            ports: [80, 443, abc, 8080, x]
            labels: {app: web, tier: 3}
            traits: {a: [x, 7]}
        """,
    )
    st = toskit.loads(text)
    found = [(d.code, d.path) for d in errors(st)]
    base = f"{NODES}.s.properties"
    assert found == [
        ("type-mismatch", f"{base}.ports[2]"),
        ("type-mismatch", f"{base}.ports[4]"),
        ("type-mismatch", f"{base}.labels.tier"),
        ("type-mismatch", f"{base}.traits.a[1]"),
    ]
    ports = errors(st)[0]
    assert "expected integer, got string 'abc'" in ports.message
    assert (ports.line, ports.column) == where(text, "abc", 0)


def test_key_schema() -> None:
    types = """
    node_types:
      N:
        properties:
          by_port:
            type: map
            key_schema: integer
            entry_schema: string
    """
    st = toskit.loads(
        template(types, "n:\n  type: N\n  properties:\n    by_port: {80: web, x: db}\n")
    )
    diag = one_error(st, "type-mismatch")
    assert diag.path == f"{NODES}.n.properties.by_port.x"


CONSTRAINED = """
node_types:
  C:
    properties:
      p: {type: integer, required: false, constraints: [{greater_than: 1}, {less_than: 10}]}
      q: {type: integer, required: false, constraints: [{in_range: [1, 5]}]}
      r: {type: string, required: false, constraints: [{valid_values: [a, b]}]}
      s: {type: string, required: false, constraints: [{pattern: '[a-z]+'}]}
      t: {type: string, required: false, constraints: [{min_length: 2}, {max_length: 4}]}
      u: {type: list, required: false, constraints: [{length: 2}]}
      v: {type: scalar-unit.size, required: false, constraints: [{greater_or_equal: 1 GB}]}
      w: {type: integer, required: false, constraints: [{equal: 3}]}
      x: {type: version, required: false, constraints: [{less_or_equal: 1.10.0}]}
      y: {type: float, required: false, constraints: [{in_range: [0, UNBOUNDED]}]}
"""


@pytest.mark.parametrize(
    ("assign", "violations"),
    [
        ("p: 5", []),
        ("p: 1", ["greater_than"]),
        ("p: 10", ["less_than"]),
        ("q: 5", []),
        ("q: 6", ["in_range"]),
        ("r: b", []),
        ("r: c", ["valid_values"]),
        ("s: abc", []),
        ("s: abc1", ["pattern"]),
        ("t: abc", []),
        ("t: a", ["min_length"]),
        ("t: abcde", ["max_length"]),
        ("u: [1, 2]", []),
        ("u: [1]", ["length"]),
        ("v: 2 GB", []),
        ("v: 1000 MB", []),
        ("v: 999 MB", ["greater_or_equal"]),
        ("w: 3", []),
        ("w: 4", ["equal"]),
        ("x: 1.9.0", []),
        ("x: 1.11.0", ["less_or_equal"]),
        ("y: 0.5", []),
        ("y: -1", ["in_range"]),
    ],
    ids=lambda v: str(v),
)
def test_constraints(assign: str, violations: list[str]) -> None:
    st = toskit.loads(template(CONSTRAINED, f"c:\n  type: C\n  properties:\n    {assign}\n"))
    found = [d for d in errors(st)]
    assert [d.code for d in found] == ["constraint-violation"] * len(violations)
    for diag, op in zip(found, violations):
        assert op in diag.message
        assert diag.path == f"{NODES}.c.properties.{assign.split(':')[0]}"
        assert diag.line is not None


def test_data_type_derived_from_primitive_with_constraints() -> None:
    types = """
    data_types:
      Percent:
        derived_from: integer
        constraints: [{in_range: [0, 100]}]
    node_types:
      N:
        properties:
          load: {type: Percent}
          port: {type: PortDef}
    """
    ok = toskit.loads(template(types, "n:\n  type: N\n  properties:\n    load: 50\n    port: 80\n"))
    assert errors(ok) == []
    bad = toskit.loads(
        template(types, "n:\n  type: N\n  properties:\n    load: 150\n    port: abc\n")
    )
    assert [(d.code, d.path.rsplit(".", 1)[-1]) for d in errors(bad)] == [
        ("constraint-violation", "load"),
        ("type-mismatch", "port"),
    ]
    assert "expected tosca.datatypes.network.PortDef" in errors(bad)[1].message


def test_unknown_property_with_did_you_mean() -> None:
    text = template(TYPED, "s:\n  type: Server\n  properties:\n    trait: {a: [x]}\n")
    st = toskit.loads(text)
    diag = one_error(st, "unknown-property")
    assert diag.hint == "did you mean 'traits'?"
    assert diag.path == f"{NODES}.s.properties.trait"
    assert "node template 's'" in diag.message
    assert (diag.line, diag.column) == where(text, "trait:", 0)  # at the key


MISSING = """
data_types:
  Endpoint:
    properties:
      ip: {type: string}
      port: {type: integer, default: 80}
  Defaults:
    properties:
      a: {type: string, default: x}
      b: {type: integer, required: false}
node_types:
  N:
    properties:
      name: {type: string}
      endpoint: {type: Endpoint}
      defaults: {type: Defaults}
      optional_endpoint: {type: Endpoint, required: false}
"""


def test_missing_whole_property_located_at_properties_map() -> None:
    text = template(MISSING, "n:\n  type: N\n  properties:\n    endpoint: {ip: 1.2.3.4}\n")
    st = toskit.loads(text)
    diag = one_error(st, "missing-property")
    assert diag.path == f"{NODES}.n.properties.name"
    assert diag.message == "node template 'n': required property 'name' has no value"
    # At the key that lacks it (issue #28): `properties:`, not its first key.
    assert (diag.line, diag.column) == where(text, "properties:", 0)
    assert diag.end_column - diag.column == len("properties")


def test_missing_property_without_properties_located_at_template() -> None:
    text = template(MISSING, "n:\n  type: N\n")
    st = toskit.loads(text)
    found = errors(st)
    assert [d.path for d in found] == [
        f"{NODES}.n.properties.name",
        f"{NODES}.n.properties.endpoint",
    ]
    # At the template's own key `n:` (issue #28: the key that lacks them).
    assert all((d.line, d.column) == where(text, "n:", 0) for d in found)
    assert "no default for 'ip' in Endpoint" in found[1].message


def test_required_data_property_built_from_defaults_optional_stays_absent() -> None:
    st = toskit.loads(
        template(MISSING, "n:\n  type: N\n  properties:\n    name: x\n    endpoint: {ip: h}\n")
    )
    assert errors(st) == []
    props = st.node_templates["n"].properties
    assert props["defaults"] == {"a": "x"}
    assert "optional_endpoint" not in props
    assert st.node_templates["n"].property_table()["defaults.a"].source == "default: Defaults"


def test_normative_optional_admin_credential_causes_nothing() -> None:
    st = toskit.loads(template("", "db:\n  type: tosca.nodes.DBMS\n"))
    assert errors(st) == []
    assert "admin_credential" not in st.node_templates["db"].properties


def test_every_problem_reported_in_one_pass() -> None:
    st = toskit.loads(
        template(
            MISSING + TYPED.replace("node_types:\n", ""),
            """
            n:
              type: N
              properties:
                endpoint: {port: abc, extra: 1}
                nmae: x
            s:
              type: Server
              properties:
                port: x
                enabled: no
            """,
        )
    )
    assert sorted((d.code, d.path.split("properties.")[-1]) for d in errors(st)) == [
        ("missing-property", "endpoint.ip"),
        ("missing-property", "name"),  # the typo's twin: two findings naming each other (#28)
        ("type-mismatch", "enabled"),
        ("type-mismatch", "endpoint.port"),
        ("type-mismatch", "port"),
        ("unknown-property", "endpoint.extra"),
        ("unknown-property", "nmae"),
    ]
    assert all(d.line is not None for d in st.diagnostics)
    lines = [(d.line, d.column) for d in st.diagnostics]
    assert lines == sorted(lines)  # source order


def test_null_is_no_value() -> None:
    st = toskit.loads(
        template(MISSING, "n:\n  type: N\n  properties:\n    name: null\n    endpoint: {ip: h}\n")
    )
    diag = one_error(st, "missing-property")
    assert diag.path.endswith(".name")
    optional = toskit.loads(template(TYPED, "s:\n  type: Server\n  properties:\n    port: null\n"))
    assert errors(optional) == []


def test_unknown_node_type_and_property_type() -> None:
    types = """
    node_types:
      N:
        properties:
          p: {type: strng}
    """
    st = toskit.loads(
        template(
            types, "a:\n  type: Nope\n  properties: {x: 1}\nb:\n  type: N\n  properties: {p: v}\n"
        )
    )
    found = errors(st)
    assert [d.code for d in found] == ["unknown-type", "unknown-type"]
    assert found[0].hint == "did you mean 'string'?"
    assert found[0].path == "node_types.N.properties.p.type"
    assert found[1].path == f"{NODES}.a.type"
    # Recovery: the template resolves against tosca.nodes.Root and keeps its values.
    assert st.node_templates["a"].type.name == "tosca.nodes.Root"
    assert st.node_templates["a"].properties == {"x": 1}


def test_2_0_bytes() -> None:
    doc = """
    tosca_definitions_version: tosca_2_0
    node_types:
      N:
        properties:
          blob: {type: bytes}
    service_template:
      node_templates:
        good: {type: N, properties: {blob: aGVsbG8=}}
        bad: {type: N, properties: {blob: 'not base64!'}}
    """
    st = toskit.loads(textwrap.dedent(doc))
    diag = one_error(st, "type-mismatch")
    assert diag.path == "service_template.node_templates.bad.properties.blob"


def test_inputs_give_values_and_provenance() -> None:
    doc = template(
        MISSING,
        """
        n:
          type: N
          properties:
            name: {get_input: name}
            endpoint:
              ip: {get_input: [hosts, 0]}
        """,
        extra="",
    ).replace(
        "topology_template:\n",
        "topology_template:\n  inputs:\n    name: {type: string, default: dflt}\n    hosts: {type: list}\n",
    )
    st = toskit.loads(doc, inputs={"hosts": ["10.0.0.1"]})
    assert errors(st) == []
    node = st.node_templates["n"]
    assert node.properties["name"] == "dflt"
    assert node.properties["endpoint"] == {"ip": "10.0.0.1", "port": 80}
    table = node.property_table()
    assert table["name"].source == "input: name"
    assert table["endpoint.ip"].source == "input: hosts"
    assert table["endpoint.port"].source == "default: Endpoint"
    assert st.inputs == {"name": "dflt", "hosts": ["10.0.0.1"]}


def test_input_problems() -> None:
    doc = template(
        MISSING,
        "n:\n  type: N\n  properties:\n    name: {get_input: nmae}\n    endpoint: {ip: {get_input: ip}}\n",
    ).replace(
        "topology_template:\n",
        "topology_template:\n  inputs:\n    name: {type: string}\n    ip: {type: string}\n",
    )
    st = toskit.loads(doc, inputs={"name": 5})
    found = errors(st)
    assert [d.code for d in found] == ["type-mismatch", "missing-input", "function-error"]
    assert found[0].message.startswith("input 'name'")
    assert "UnknownInput" in found[2].message
    assert found[2].path == f"{NODES}.n.properties.name"
    # A declared input without value, with an inputs mapping that lacks it:
    # one missing-input error where it is declared (docs/tosca.md), no
    # function-error; the call stays in place, shown as a call.
    assert found[1].message.startswith("input 'ip' has no value and no default")
    assert found[1].path == "topology_template.inputs.ip"
    ip = st.node_templates["n"].properties["endpoint"]["ip"]
    assert isinstance(ip, toskit.functions.Call) and ip.name == "get_input" and ip.args == ["ip"]
    assert st.node_templates["n"].property_table()["endpoint.ip"].value == str(ip)


def test_list_and_map_types_carry_their_entry_schema() -> None:
    types = """
    data_types:
      Ports:
        derived_from: list
        entry_schema: {type: integer}
      Labels:
        derived_from: map
        key_schema: {type: string}
        entry_schema: {type: string, constraints: [{max_length: 3}]}
    node_types:
      N:
        properties:
          ports: {type: Ports}
          labels: {type: Labels}
    """
    st = toskit.loads(
        template(types, "n:\n  type: N\n  properties:\n    ports: [1, x]\n    labels: {a: abcd}\n")
    )
    assert [(d.code, d.path.rsplit("properties.", 1)[-1]) for d in errors(st)] == [
        ("type-mismatch", "ports[1]"),
        ("constraint-violation", "labels.a"),
    ]


def test_recursive_data_type_with_a_default_of_itself_terminates() -> None:
    types = """
    data_types:
      Tree:
        properties:
          child: {type: Tree, default: {}}
          size: {type: integer, default: 1}
    node_types:
      N:
        properties:
          t: {type: Tree}
    """
    st = toskit.loads(template(types, "n:\n  type: N\n  properties:\n    t: {size: 5}\n"))
    assert errors(st) == []
    assert st.node_templates["n"].properties["t"] == {"child": {"child": {}, "size": 1}, "size": 5}


# ---- Pattern constraints cannot hang the loader ----


PATTERN_CASES = {
    "nested-repeat-simplified": (r"(a+)+$", "a" * 45 + "b", ["constraint-violation"]),
    "nested-repeat-matches": (r"(a+)+$", "a" * 45, []),
    "ambiguous-repeat-linear": (r"(\w+\s?)*$", "word " * 12 + "!", ["constraint-violation"]),
    "backreference-refused": (r"(a)\1", "aa", ["invalid-constraint"]),
    "invalid-regex": ("(a+b", "x", ["invalid-constraint"]),
    "plain-pattern": ("[a-z]+", "AB", ["constraint-violation"]),
}


@pytest.mark.parametrize(
    ("pattern", "value", "codes"), list(PATTERN_CASES.values()), ids=list(PATTERN_CASES)
)
def test_pattern_constraints_are_bounded(pattern, value, codes):
    doc = {
        "tosca_definitions_version": "tosca_simple_yaml_1_3",
        "node_types": {
            "N": {
                "derived_from": "tosca.nodes.Root",
                "properties": {"s": {"type": "string", "constraints": [{"pattern": pattern}]}},
            }
        },
        "topology_template": {"node_templates": {"a": {"type": "N", "properties": {"s": value}}}},
    }
    st = toskit.loads(yaml.safe_dump(doc))
    assert [d.code for d in st.diagnostics] == codes
    if codes == ["invalid-constraint"]:
        assert "pattern" in st.diagnostics[0].message


# ---- Timestamps are RFC 3339 in TOSCA 2.0 ----


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


# -- defaults shared by the templates of one type (entities._Plan) -------------

SHARED_TYPES = """
node_types:
  Svc:
    derived_from: tosca.nodes.Root
    properties:
      port: {type: integer, default: 70000, constraints: [{in_range: [1, 65535]}]}
      mode: {type: string, default: fast}
  Tuned:
    derived_from: Svc
    properties:
      mode: {type: string, default: slow}
"""


def test_a_bad_default_nobody_overrides_is_reported_for_every_template():
    # The default is checked once per type only when it is clean: a
    # violation is still one diagnostic per template, each at the default.
    st = toskit.loads(template(SHARED_TYPES, "a: {type: Svc}\nb: {type: Svc}\nc: {type: Tuned}"))
    found = [(d.code, d.path) for d in errors(st)]
    assert found == [("constraint-violation", "node_types.Svc.properties.port")] + [
        ("constraint-violation", f"{NODES}.{name}.properties.port") for name in ("a", "b", "c")
    ]
    assert all(d.line == 6 for d in errors(st))  # where the default is written


def test_shared_defaults_keep_each_templates_provenance():
    st = toskit.loads(
        template(
            SHARED_TYPES.replace("70000", "8080"),
            "a: {type: Tuned, properties: {port: 80}}\n"
            "b: {type: Tuned, properties: {port: 81, mode: own}}\n"
            "c: {type: Tuned, properties: {port: 82}}",
        )
    )
    assert not st.errors
    a, b, c = (st.node_templates[n] for n in "abc")
    assert [a.properties, b.properties] == [
        {"port": 80, "mode": "slow"},
        {"port": 81, "mode": "own"},
    ]
    assert a.source_of("mode") == "default: Tuned" and b.source_of("mode") == "template"
    assert a.property_table(show_overridden=True)["mode"].overridden == (("fast", "default: Svc"),)
    assert b.property_table(show_overridden=True)["mode"].overridden == (
        ("fast", "default: Svc"),
        ("slow", "default: Tuned"),
    )
    assert c.property_table(show_overridden=True)["port"].overridden == ((8080, "default: Svc"),)
    # Each template's values are its own.
    a.properties["mode"] = "changed"
    assert c.properties["mode"] == "slow"


def test_a_value_passing_its_constraints_once_is_not_waved_through_elsewhere():
    # Leaves that satisfied a definition's constraints are remembered per
    # load (CheckContext.clean_constraints); other values, and the same
    # value under other clauses, are still checked.
    types = """
node_types:
  Svc:
    derived_from: tosca.nodes.Root
    properties:
      port: {type: integer, constraints: [{in_range: [1, 100]}]}
      size: {type: integer, constraints: [{less_than: 50}]}
"""
    nodes = (
        "a: {type: Svc, properties: {port: 80, size: 10}}\n"
        "b: {type: Svc, properties: {port: 80, size: 80}}\n"
        "c: {type: Svc, properties: {port: 800, size: 80}}"
    )
    st = toskit.loads(template(types, nodes))
    assert [(d.code, d.path) for d in errors(st)] == [
        ("constraint-violation", f"{NODES}.b.properties.size"),
        ("constraint-violation", f"{NODES}.c.properties.port"),
        ("constraint-violation", f"{NODES}.c.properties.size"),
    ]


def test_a_field_written_over_its_default_is_located_and_sourced_in_the_template():
    # Its origin is derived from its map's (not recorded per leaf): the same
    # place, source and overridden default.
    types = """
data_types:
  Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      port: {type: integer, default: 5432, constraints: [{in_range: [1, 65535]}]}
node_types:
  Svc:
    derived_from: tosca.nodes.Root
    properties:
      ep: {type: Endpoint}
"""
    st = toskit.loads(template(types, "a:\n  type: Svc\n  properties:\n    ep:\n      port: 70000"))
    (d,) = errors(st)
    assert (d.code, d.path, d.line, d.column) == (
        "constraint-violation",
        f"{NODES}.a.properties.ep.port",
        18,
        17,  # the value 70000 in the template
    )
    node = st.node_templates["a"]
    assert node.source_of("ep.port") == "template"
    row = node.property_table(show_overridden=True)["ep.port"]
    assert (row.value, row.source, row.overridden) == (
        70000,
        "template",
        ((5432, "default: Endpoint"),),
    )
