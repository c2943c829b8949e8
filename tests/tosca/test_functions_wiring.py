"""spec/functions.md §2, §5 as seen through a loaded template."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from tosca_fixtures import errors

import toskit
from toskit.functions import Call


def v2(body: str, **kwargs: object) -> toskit.ServiceTemplate:
    return toskit.loads("tosca_definitions_version: tosca_2_0\n" + textwrap.dedent(body), **kwargs)  # type: ignore[arg-type]


def v1(body: str, **kwargs: object) -> toskit.ServiceTemplate:
    return toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n" + textwrap.dedent(body),
        **kwargs,  # type: ignore[arg-type]
    )


def line_of(st: toskit.ServiceTemplate, needle: str) -> int:
    text = st.document.text
    return text.count("\n", 0, text.index(needle)) + 1


SERVER = """
node_types:
  Server:
    properties:
      traits: {type: map, required: false, entry_schema: {type: list, entry_schema: {type: string}}}
      name: {type: string, required: false}
      port: {type: integer, required: false}
      prop1: {type: string, required: false}
      $$myid1: {type: string, required: false}
      address: {type: string, required: false}
      anything: {type: map, required: false}
"""


def test_p1_concat_is_a_plain_map_in_2_0() -> None:
    st = v2(
        SERVER
        + """
service_template:
  node_templates:
    s:
      type: Server
      properties:
        traits: { concat: [ this, is, supposed, to, be, a, value ] }
"""
    )
    assert st.diagnostics == []
    assert st.node_templates["s"].properties["traits"] == {
        "concat": ["this", "is", "supposed", "to", "be", "a", "value"]
    }
    typo = v2(
        SERVER
        + """
service_template:
  node_templates:
    s:
      type: Server
      properties:
        trait: { concat: [ a ] }
"""
    )
    assert [d.code for d in typo.diagnostics] == ["unknown-property"]


def test_p7_p31_dollar_literals_warn() -> None:
    st = v2(
        SERVER
        + """
service_template:
  node_templates:
    s:
      type: Server
      properties:
        prop1: $myid
        name: '$5.00'
"""
    )
    assert st.ok
    assert st.node_templates["s"].properties["prop1"] == "$myid"
    warnings = [d for d in st.diagnostics if d.code == "dollar-literal"]
    assert len(warnings) == 2
    assert "$$myid" in warnings[0].hint and "$$5.00" in warnings[1].hint
    assert warnings[0].path == "service_template.node_templates.s.properties.prop1"
    assert warnings[0].line == line_of(st, "prop1: $myid")


def test_p17_property_names_are_literal() -> None:
    st = v2(
        SERVER
        + """
service_template:
  node_templates:
    s:
      type: Server
      properties:
        $$myid1: v
"""
    )
    assert st.diagnostics == []
    assert st.node_templates["s"].properties == {"$$myid1": "v"}


def test_p33_get_input_1x_vs_2_0() -> None:
    body = """
{topology}:
  inputs:
    cpus: {{type: integer, default: 4}}
  node_templates:
    s:
      type: Server
      properties:
        port: {{ get_input: cpus }}
"""
    one = v1(SERVER + body.format(topology="topology_template"))
    assert errors(one) == []
    assert one.node_templates["s"].properties["port"] == 4
    assert one.node_templates["s"].property_table()["port"].source == "input: cpus"
    two = v2(SERVER + body.format(topology="service_template"))
    assert [d.code for d in errors(two)] == ["type-mismatch"]


def test_get_property_across_templates_and_requirements() -> None:
    st = v2(
        """
capability_types:
  Endpoint: {properties: {port: {type: integer}}}
node_types:
  Db:
    properties:
      name: {type: string}
    capabilities:
      endpoint: {type: Endpoint}
  Web:
    properties:
      db_name: {type: string}
      db_port: {type: integer}
      via_node: {type: string}
    requirements:
      - database_endpoint: {capability: Endpoint, node: Db}
service_template:
  node_templates:
    mysql_database:
      type: Db
      properties: {name: sql_database1}
      capabilities:
        endpoint: {properties: {port: 3306}}
    wordpress:
      type: Web
      properties:
        db_name: {$get_property: [mysql_database, name]}
        db_port: {$get_property: [SELF, RELATIONSHIP, database_endpoint, 0, CAPABILITY, port]}
        via_node: {$concat: [{$get_property: [SELF, db_name]}, '!']}
      requirements:
        - database_endpoint: mysql_database
"""
    )
    assert errors(st) == []
    props = st.node_templates["wordpress"].properties
    assert props == {"db_name": "sql_database1", "db_port": 3306, "via_node": "sql_database1!"}
    req = st.node_templates["wordpress"].requirement("database_endpoint")
    assert req is not None and req.target is st.node_templates["mysql_database"]


@pytest.mark.parametrize(
    ("value", "missing"),
    [
        ("[SELF, nope]", "nope"),
        ("[ghost_node, x]", "ghost_node"),
        ("[SELF, RELATIONSHIP, nope]", "nope"),
    ],
)
def test_v17_path_errors_are_located_function_errors(value: str, missing: str) -> None:
    st = v2(
        SERVER
        + f"""
service_template:
  node_templates:
    s:
      type: Server
      properties:
        name: {{$get_property: {value}}}
"""
    )
    (diag,) = errors(st)
    assert diag.code == "function-error" and "PathError" in diag.message and missing in diag.message
    assert diag.path == "service_template.node_templates.s.properties.name"
    assert diag.line == line_of(st, "name: {$get_property")
    assert isinstance(st.node_templates["s"].properties["name"], Call)


def test_reference_cycle_is_reported_not_a_recursion_error() -> None:
    st = v2(
        SERVER
        + """
service_template:
  node_templates:
    a:
      type: Server
      properties:
        name: {$get_property: [b, name]}
    b:
      type: Server
      properties:
        name: {$get_property: [a, name]}
"""
    )
    found = errors(st)
    assert found and all(d.code == "function-error" for d in found)
    assert any("PathError" in d.message for d in found)


def test_p29_get_attribute_stays_a_call_without_error() -> None:
    # A declared attribute (an undeclared one is a PathError: issue 20 item 14).
    st = v2(
        SERVER
        + """    attributes:
      public_address: {type: string}
service_template:
  node_templates:
    server:
      type: Server
    s:
      type: Server
      properties:
        address: { $concat: [ 'http://', $get_attribute: [ server, public_address ], ':', $get_attribute: [ server, port ] ] }
"""
    )
    assert errors(st) == []
    value = st.node_templates["s"].properties["address"]
    assert isinstance(value, Call) and value.name == "concat"
    row = st.node_templates["s"].property_table()["address"]
    assert row.value == str(value) and row.value.startswith("$concat")


def test_malformed_and_unknown_functions() -> None:
    st = v2(
        SERVER
        + """
service_template:
  node_templates:
    s:
      type: Server
      properties:
        anything: { $concat: [ a, b ], other: 1 }
        prop1: { $concta: [ a, b ] }
"""
    )
    found = errors(st)
    assert [d.code for d in found] == ["malformed-function", "unknown-function"]
    assert found[0].line == line_of(st, "$concat: [ a, b ], other")
    assert found[1].line == line_of(st, "prop1: { $concta")
    assert found[1].hint == "did you mean 'concat'?"
    props = st.node_templates["s"].properties
    assert props["anything"] == {"$concat": ["a", "b"], "other": 1}
    assert isinstance(props["prop1"], Call)


def test_v21_validation_clauses() -> None:
    body = """
data_types:
  Positive:
    derived_from: integer
    validation: {{ $greater_than: [ $value, 0 ] }}
node_types:
  N:
    properties:
      count: {{type: integer, validation: {{ $greater_or_equal: [ $value, 0 ] }}}}
      size: {{type: Positive, required: false}}
      low: {{type: integer, required: false, validation: {{ $less_than: [ $value, {{ $get_property: [ SELF, count ] }} ] }}}}
service_template:
  node_templates:
    n:
      type: N
      properties:
        count: {count}
        size: {size}
        low: {low}
"""
    ok = v2(body.format(count=5, size=1, low=2))
    assert errors(ok) == []
    bad = v2(body.format(count=-1, size=0, low=9))
    found = errors(bad)
    assert [d.code for d in found] == ["validation-failed"] * 3
    assert [d.path.rsplit(".", 1)[-1] for d in found] == ["count", "size", "low"]
    assert "node template 'n'" in found[0].message
    assert found[0].line == line_of(bad, "count: -1")


def test_constraints_1x_through_inputs() -> None:
    st = v1(
        """
node_types:
  N:
    properties:
      port: {type: integer, constraints: [{in_range: [1, 65535]}]}
topology_template:
  inputs:
    port: {type: integer}
  node_templates:
    n:
      type: N
      properties:
        port: {get_input: port}
""",
        inputs={"port": 70000},
    )
    (diag,) = errors(st)
    assert diag.code == "constraint-violation"
    assert diag.path == "topology_template.node_templates.n.properties.port"


def test_1x_concat_and_outputs() -> None:
    st = v1(
        """
node_types:
  N:
    properties:
      url: {type: string}
      port: {type: integer, default: 80}
topology_template:
  node_templates:
    n:
      type: N
      properties:
        url: {concat: ['http://host:', {get_property: [SELF, port]}]}
  outputs:
    where: {value: {get_property: [n, url]}}
"""
    )
    assert errors(st) == []
    assert st.node_templates["n"].properties["url"] == "http://host:80"
    assert st.outputs == {"where": "http://host:80"}


def test_functions_section_and_namespaced_import(tmp_path: Path) -> None:
    (tmp_path / "lib.yaml").write_text(
        "tosca_definitions_version: tosca_2_0\n"
        "functions:\n  twice:\n    signatures:\n      - arguments: [integer]\n        result: integer\n",
        encoding="utf-8",
    )
    main = tmp_path / "main.yaml"
    main.write_text(
        textwrap.dedent(
            """
            tosca_definitions_version: tosca_2_0
            imports:
              - {url: lib.yaml, namespace: ns}
            functions:
              local:
                signatures:
                  - arguments: [integer]
            node_types:
              N:
                properties:
                  a: {type: integer, required: false}
                  b: {type: integer, required: false}
                  c: {type: integer, required: false}
            service_template:
              node_templates:
                n:
                  type: N
                  properties:
                    a: {$ns:twice: [2]}
                    b: {$local: [3]}
                    c: {$twice: [4]}
            """
        ),
        encoding="utf-8",
    )
    st = toskit.load(main)
    found = errors(st)
    # Declared functions without a Python implementation stay calls; the bare
    # name does not reach a namespaced declaration.
    assert [d.code for d in found] == ["unknown-function"]
    assert found[0].path.endswith("properties.c")
    props = st.node_templates["n"].properties
    assert props["a"] == Call("twice", [2], namespace="ns")
    assert props["b"] == Call("local", [3])


def test_registered_function_in_1x_and_complex_keys() -> None:
    toskit.functions.register("shout", lambda text: text.upper())
    try:
        st = v1(
            SERVER
            + """
topology_template:
  node_templates:
    s:
      type: Server
      properties:
        name: {shout: hello}
        traits: {[a, b]: [x]}
"""
        )
    finally:
        toskit.functions.unregister("shout")
    assert st.node_templates["s"].properties["name"] == "HELLO"
    (diag,) = errors(st)
    assert diag.code == "type-mismatch" and "a key must be" in diag.message
    assert diag.path.startswith("topology_template.node_templates.s.properties.traits")


def test_unknown_function_in_a_clause_is_reported_once_where_written() -> None:
    st = v2(
        """
data_types:
  Limited:
    derived_from: integer
    validation: {$in_range: [$value, [0, 100]]}
node_types:
  N:
    properties:
      a: {type: Limited}
      b: {type: Limited}
service_template:
  node_templates:
    n: {type: N, properties: {a: 5, b: 500}}
"""
    )
    (diag,) = errors(st)
    assert diag.code == "unknown-function"
    assert diag.path == "data_types.Limited.validation"
    assert diag.line == line_of(st, "validation: {$in_range")


def test_2_0_version_must_come_first() -> None:
    st = toskit.loads("description: first\ntosca_definitions_version: tosca_2_0\n")
    assert [d.code for d in st.diagnostics] == ["version-not-first"]
    assert st.diagnostics[0].line == 2
    assert (
        toskit.loads(
            "description: x\ntosca_definitions_version: tosca_simple_yaml_1_3\n"
        ).diagnostics
        == []
    )
