"""The public contract of API.md (and the specs' "Python API" sections).

One test per documented name or promise, exercised the way a user would
(through ``toskit``'s public names only) and asserting the documented
behaviour. ``docs/api-coverage.md`` maps every API.md entry to the tests
here.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fixtures.schemas import FULL_YAML

import toskit
from toskit import NO_DEFAULT, Diagnostic

# --------------------------------------------------------------------------
# Fixtures: small templates written the way users write them.
# --------------------------------------------------------------------------

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"
V20 = "tosca_definitions_version: tosca_2_0\n"

ENDPOINT_1X = textwrap.dedent(
    """\
    tosca_definitions_version: tosca_simple_unfurl_1_0_0
    description: endpoint example
    data_types:
      my.datatypes.Endpoint:
        description: Socket endpoint details
        properties:
          ip:
            description: the endpoint IP
            type: string
          port:
            type: integer
            default: 2233
    node_types:
      DatabaseService:
        derived_from: tosca.nodes.DBMS
        description: an external database
        properties:
          endpoint:
            type: my.datatypes.Endpoint
    topology_template:
      inputs:
        the_ip:
          type: string
          default: 10.0.0.1
      node_templates:
        my_db_service:
          type: DatabaseService
          properties:
            endpoint:
              ip: {get_input: the_ip}
    """
)

# A 2.0 document with one property of each "one row" shape (list, map,
# null, unevaluated call) plus an input.
SHAPES_20 = textwrap.dedent(
    """\
    tosca_definitions_version: tosca_2_0
    node_types:
      App:
        properties:
          items: {type: list, entry_schema: {type: string}}
          labels: {type: map, entry_schema: {type: string}}
          anything: {type: string, required: false}
          addr: {type: string, required: false}
          count: {type: integer, required: false}
          unset_optional: {type: string, required: false}
        attributes:
          ip_address: {type: string}
    service_template:
      inputs:
        n: {type: integer}
      node_templates:
        srv:
          type: App
          properties:
            items: [a, b]
            labels: {k: v}
            anything: null
            addr: {$get_attribute: [SELF, ip_address]}
            count: {$get_input: n}
    """
)

APP_1X = textwrap.dedent(
    """\
    node_types:
      App:
        derived_from: tosca.nodes.Root
        properties:
          port: {type: integer}
          name: {type: string, required: false}
    """
)

APP_20 = textwrap.dedent(
    """\
    node_types:
      App:
        properties:
          port: {type: integer}
          name: {type: string, required: false}
    """
)


def _one_template_1x(props: str) -> str:
    return V13 + APP_1X + f"topology_template:\n  node_templates:\n    a:\n      type: App\n{props}"


def _one_template_20(props: str) -> str:
    return V20 + APP_20 + f"service_template:\n  node_templates:\n    a:\n      type: App\n{props}"


def codes(st) -> list[str]:
    return [d.code for d in st.diagnostics]


# --------------------------------------------------------------------------
# Exceptions
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["TemplateError", "FunctionError", "FunctionSyntaxError", "SchemaError", "ConditionError"],
)
def test_every_error_class_derives_from_toskit_error(name):
    cls = getattr(toskit, name)
    assert issubclass(cls, toskit.ToskitError)
    assert issubclass(toskit.ToskitError, Exception)


def test_functions_error_is_reachable_from_functions_module():
    from toskit import functions

    assert functions.FunctionError is toskit.FunctionError


# --------------------------------------------------------------------------
# load / loads
# --------------------------------------------------------------------------


def test_load_reads_a_file_and_passes_inputs(tmp_path):
    path = tmp_path / "service.yaml"
    path.write_text(ENDPOINT_1X, encoding="utf-8")
    st = toskit.load(str(path), inputs={"the_ip": "1.2.3.4"})
    assert isinstance(st, toskit.ServiceTemplate)
    assert st.inputs["the_ip"] == "1.2.3.4"
    assert st.node_templates["my_db_service"].properties["endpoint"]["ip"] == "1.2.3.4"
    # Diagnostics of a file name the file.
    assert st.diagnostics and all(d.file == str(path) for d in st.diagnostics)


def test_load_accepts_a_pathlib_path(tmp_path):
    path = tmp_path / "service.yaml"
    path.write_text(ENDPOINT_1X, encoding="utf-8")
    st = toskit.load(path)
    assert "my_db_service" in st.node_templates


def test_loads_name_is_used_in_diagnostics():
    st = toskit.loads(V13 + "node_type: {}\n", name="inline.yaml")
    assert st.diagnostics and st.diagnostics[0].file == "inline.yaml"


def test_load_missing_file_raises_toskit_error(tmp_path):
    with pytest.raises(toskit.ToskitError) as info:
        toskit.load(str(tmp_path / "nope.yaml"))
    assert "nope.yaml" in str(info.value)


def test_load_non_utf8_file_raises_toskit_error(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes((V13 + "description: caf\xe9\n").encode("latin-1"))
    with pytest.raises(toskit.ToskitError):
        toskit.load(str(path))


def test_loads_of_an_empty_document_warns_only():
    st = toskit.loads("")
    assert codes(st) == ["missing-version"]
    assert st.node_templates == {}


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("a: [1, 2\n", id="bad-yaml"),
        pytest.param("- a\n- b\n", id="top-level-list"),
        pytest.param("42\n", id="scalar"),
        pytest.param(V13 + "topology_template: 5\n", id="section-not-a-map"),
        pytest.param(V13 + "node_types:\n  A: [1]\n", id="type-not-a-map"),
        pytest.param(
            V13 + "topology_template:\n  node_templates:\n    a: {}\n", id="template-without-type"
        ),
        pytest.param("!!python/object:os.system x\n", id="python-tag"),
    ],
)
def test_loads_never_raises_for_template_problems(text):
    st = toskit.loads(text)
    assert not st.ok
    assert any(d.severity == "error" for d in st.diagnostics)


# --------------------------------------------------------------------------
# ServiceTemplate
# --------------------------------------------------------------------------


def test_ok_is_true_without_errors_even_with_warnings():
    st = toskit.loads(ENDPOINT_1X)
    assert st.ok is True
    assert all(d.severity != "error" for d in st.diagnostics)


def test_ok_is_false_with_an_error():
    st = toskit.loads(_one_template_1x("      properties: {port: abc}\n"))
    assert st.ok is False


def test_diagnostics_are_in_source_order():
    text = (
        _one_template_1x("      properties:\n        port: abc\n        nmae: x\n")
        + "node_type: {}\n"
    )
    st = toskit.loads(text, name="order.yaml")
    located = [(d.line, d.column) for d in st.diagnostics]
    assert len(located) >= 3
    assert all(line is not None for line, _ in located)
    assert located == sorted(located)


def test_raise_for_errors_raises_template_error_with_diagnostics():
    st = toskit.loads(_one_template_1x("      properties: {port: abc}\n"), name="bad.yaml")
    with pytest.raises(toskit.TemplateError) as info:
        st.raise_for_errors()
    err = info.value
    assert isinstance(err, toskit.ToskitError)
    assert [d.code for d in err.diagnostics] == ["type-mismatch"]
    assert "type-mismatch" in str(err) or "expected integer" in str(err)


def test_every_problem_is_reported_in_one_pass_and_listed_by_template_error():
    text = V13 + textwrap.dedent(
        """\
        node_types:
          A:
            derived_from: tosca.nodes.Root
            properties:
              i: {type: integer}
              j: {type: integer}
        topology_template:
          node_templates:
            a: {type: A, properties: {i: x, j: y}}
            b: {type: A, properties: {i: 1, j: 2, k: 3}}
            c: {type: A}
        """
    )
    st = toskit.loads(text, name="many.yaml")
    found = [(d.code, d.path.rsplit(".", 3)[-3], d.path.rsplit(".", 1)[-1]) for d in st.diagnostics]
    assert found == [
        ("type-mismatch", "a", "i"),
        ("type-mismatch", "a", "j"),
        ("unknown-property", "b", "k"),
        ("missing-property", "c", "i"),
        ("missing-property", "c", "j"),
    ]
    with pytest.raises(toskit.TemplateError) as info:
        st.raise_for_errors()
    message = str(info.value)
    for diag in st.diagnostics:
        assert diag.message in message


def test_yaml_1_2_scalars_through_loads():
    text = V13 + textwrap.dedent(
        """\
        node_types:
          A:
            derived_from: tosca.nodes.Root
            properties:
              b: {type: boolean}
              s: {type: string}
              i: {type: integer}
        topology_template:
          node_templates:
            a: {type: A, properties: {b: yes, s: no, i: 0o17}}
        """
    )
    st = toskit.loads(text)
    assert st.node_templates["a"].properties == {"b": "yes", "s": "no", "i": 15}
    (diag,) = st.diagnostics
    assert diag.code == "type-mismatch" and diag.hint and "true" in diag.hint


def test_billion_laughs_is_bounded_by_default():
    import time

    lines = ["  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 9):
        prev, cur = chr(96 + i), chr(97 + i)
        lines.append(f"  {cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    text = V13 + "dsl_definitions:\n" + "\n".join(lines) + "\n"
    start = time.process_time()
    st = toskit.loads(text)
    assert time.process_time() - start < 5
    assert "limit-exceeded" in codes(st)


def test_raise_for_errors_is_silent_when_ok():
    st = toskit.loads(ENDPOINT_1X)
    assert st.raise_for_errors() is None


@pytest.mark.parametrize(
    "text, version",
    [
        pytest.param(V13, "tosca_simple_yaml_1_3", id="1.3"),
        pytest.param(V20, "tosca_2_0", id="2.0"),
        pytest.param(
            "tosca_definitions_version: tosca_simple_unfurl_1_0_0\n",
            "tosca_simple_unfurl_1_0_0",
            id="unfurl",
        ),
        pytest.param("topology_template: {}\n", "tosca_simple_yaml_1_3", id="assumed-1.3"),
        pytest.param("service_template: {}\n", "tosca_2_0", id="assumed-2.0"),
        pytest.param("description: nothing\n", "tosca_2_0", id="assumed-neither"),
    ],
)
def test_version_is_written_or_assumed(text, version):
    st = toskit.loads(text)
    assert st.version == version
    missing = [d for d in st.diagnostics if d.code == "missing-version"]
    if text.startswith("tosca_definitions_version"):
        assert missing == []
    else:
        assert len(missing) == 1 and missing[0].severity == "warning"
        assert version in missing[0].message


def test_types_are_keyed_by_full_names_only():
    st = toskit.loads(ENDPOINT_1X)
    assert "tosca.nodes.DBMS" in st.types
    assert "DatabaseService" in st.types
    assert "my.datatypes.Endpoint" in st.types
    for alias in ("DBMS", "tosca:DBMS", "Root", "string", "integer", "list", "map"):
        assert alias not in st.types, alias
    for name, typ in st.types.items():
        assert isinstance(typ, toskit.Type)
        assert typ.name == name


def test_types_include_every_normative_kind():
    st = toskit.loads(V13)
    kinds = {t.kind for t in st.types.values()}
    assert {
        "data",
        "node",
        "capability",
        "relationship",
        "interface",
        "artifact",
        "group",
        "policy",
    } <= kinds
    for name in (
        "tosca.datatypes.Root",
        "tosca.nodes.Root",
        "tosca.capabilities.Root",
        "tosca.relationships.Root",
        "tosca.interfaces.Root",
        "tosca.artifacts.Root",
        "tosca.groups.Root",
        "tosca.policies.Root",
    ):
        assert name in st.types, name


def test_node_type_wins_a_name_clash_and_types_of_gives_each_kind():
    text = V13 + textwrap.dedent(
        """\
        data_types:
          Shared:
            derived_from: tosca.datatypes.Root
            properties: {d: {type: string}}
        node_types:
          Shared:
            derived_from: tosca.nodes.Root
            properties: {n: {type: string, required: false}}
        """
    )
    st = toskit.loads(text)
    assert st.ok, [str(d) for d in st.diagnostics]
    assert st.types["Shared"].kind == "node"
    assert st.types_of("data")["Shared"].kind == "data"
    assert set(st.types_of("data")["Shared"].properties) == {"d"}
    assert (
        st.types_of("node")["Shared"] is st.types["Shared"]
        or st.types_of("node")["Shared"].kind == "node"
    )
    assert all(t.kind == "capability" for t in st.types_of("capability").values())
    assert "tosca.capabilities.Endpoint" in st.types_of("capability")


def test_types_of_a_2_0_document_prefer_the_node_type():
    st = toskit.loads(V20)
    assert "string" not in st.types and "tosca.nodes.Root" not in st.types
    assert st.types["Root"].kind == "node"
    assert st.types["Compute"].kind == "node"
    assert st.types_of("capability")["Compute"].kind == "capability"
    assert st.types_of("data")["Root"].kind == "data"
    with pytest.raises(toskit.ToskitError):
        st.types_of("bogus")


def test_node_templates_mapping():
    st = toskit.loads(ENDPOINT_1X)
    assert list(st.node_templates) == ["my_db_service"]
    node = st.node_templates["my_db_service"]
    assert isinstance(node, toskit.NodeTemplate)
    assert node.name == "my_db_service"


def test_inputs_resolved_from_defaults_and_given_values():
    assert toskit.loads(ENDPOINT_1X).inputs == {"the_ip": "10.0.0.1"}
    assert toskit.loads(ENDPOINT_1X, inputs={"the_ip": "1.1.1.1"}).inputs == {"the_ip": "1.1.1.1"}


def test_inputs_given_as_a_non_mapping_raise_toskit_error():
    with pytest.raises(toskit.ToskitError):
        toskit.loads(V13, inputs=[1, 2])


def test_given_input_of_the_wrong_type_is_a_diagnostic():
    text = V13 + "topology_template:\n  inputs:\n    port: {type: integer}\n  node_templates: {}\n"
    st = toskit.loads(text, inputs={"port": "abc"})
    assert "type-mismatch" in codes(st)
    assert not st.ok


# --------------------------------------------------------------------------
# Type and PropertyDefinition
# --------------------------------------------------------------------------


def test_type_members():
    st = toskit.loads(ENDPOINT_1X)
    svc = st.types["DatabaseService"]
    assert svc.name == "DatabaseService"
    assert svc.kind == "node"
    assert svc.description == "an external database"
    assert isinstance(svc.parent, toskit.Type) and svc.parent.name == "tosca.nodes.DBMS"
    names = [t.name for t in svc.ancestors]
    assert names[0] == "tosca.nodes.DBMS"
    assert names[-1] == "tosca.nodes.Root"
    assert st.types["tosca.nodes.Root"].parent is None
    assert st.types["tosca.nodes.Root"].ancestors == []
    assert set(svc.own_properties) == {"endpoint"}
    # effective = inherited + own
    assert "endpoint" in svc.properties
    assert set(svc.parent.properties) <= set(svc.properties)
    assert st.types["my.datatypes.Endpoint"].kind == "data"


def test_property_definition_members_and_defaults():
    st = toskit.loads(ENDPOINT_1X)
    ep = st.types["my.datatypes.Endpoint"]
    ip = ep.properties["ip"]
    assert isinstance(ip, toskit.PropertyDefinition)
    assert ip.name == "ip"
    assert ip.type == "string"
    assert ip.required is True
    assert ip.default is NO_DEFAULT
    assert ip.description == "the endpoint IP"
    assert ip.defined_in == "my.datatypes.Endpoint"
    port = ep.properties["port"]
    assert port.default == 2233
    assert port.description is None
    inherited = st.types["DatabaseService"].properties["root_password"]
    assert inherited.defined_in == "tosca.nodes.DBMS"
    assert inherited.required is False


def test_entry_schema_of_a_list_data_type_applies():
    text = V13 + textwrap.dedent(
        """\
        data_types:
          Ints:
            derived_from: list
            entry_schema: {type: integer}
        node_types:
          N:
            derived_from: tosca.nodes.Root
            properties:
              p: {type: Ints}
        topology_template:
          node_templates:
            a: {type: N, properties: {p: [1, x]}}
        """
    )
    st = toskit.loads(text)
    found = [d for d in st.diagnostics if d.code == "type-mismatch"]
    assert found and found[0].path.endswith("properties.p[1]")


def test_property_definition_without_type_is_none():
    st = toskit.loads(
        V13
        + "data_types:\n  D:\n    derived_from: tosca.datatypes.Root\n    properties:\n      any_value: {}\n"
    )
    assert st.types["D"].properties["any_value"].type is None


def test_refinement_keeps_parent_type_and_defined_in_is_the_writer():
    text = V13 + textwrap.dedent(
        """\
        node_types:
          A:
            derived_from: tosca.nodes.Root
            properties:
              p: {type: integer, description: parent}
          B:
            derived_from: A
            properties:
              p: {default: 5}
        """
    )
    st = toskit.loads(text)
    assert st.ok, [str(d) for d in st.diagnostics]
    p = st.types["B"].properties["p"]
    assert p.type == "integer"
    assert p.default == 5
    assert p.defined_in == "B"
    assert st.types["A"].properties["p"].default is NO_DEFAULT
    assert set(st.types["B"].own_properties) == {"p"}


# --------------------------------------------------------------------------
# NodeTemplate.properties and PropertyTable
# --------------------------------------------------------------------------


def test_node_template_properties_are_resolved_plain_values():
    from toskit import functions

    st = toskit.loads(SHAPES_20, inputs={"n": 3})
    assert st.ok, [str(d) for d in st.diagnostics]
    props = st.node_templates["srv"].properties
    assert props["items"] == ["a", "b"]
    assert props["labels"] == {"k": "v"}
    assert props["anything"] is None
    assert props["count"] == 3  # evaluated: its input is known
    assert isinstance(props["addr"], functions.Call)  # runtime attribute: stays a call
    assert props["addr"].name == "get_attribute"
    assert "unset_optional" not in props  # optional, no value, no default: absent
    assert st.node_templates["srv"].type is st.types["App"]


def test_property_table_columns_rows_and_sources():
    st = toskit.loads(SHAPES_20, inputs={"n": 3})
    node = st.node_templates["srv"]
    frame = node.property_table().to_frame()
    assert {"path", "value", "type", "source"} <= set(frame.columns)
    rows = {r.path: r for r in frame.itertuples()}
    assert set(rows) == {"items", "labels", "anything", "addr", "count"}
    assert rows["items"].value == ["a", "b"]
    assert rows["labels"].value == {"k": "v"}
    assert rows["anything"].value is None
    assert rows["addr"].value == str(node.properties["addr"])
    assert rows["count"].value == 3
    assert rows["count"].source == "input: n"
    assert rows["items"].source == "template"
    assert rows["count"].type == "integer"


def test_property_table_expands_data_types_with_default_sources():
    st = toskit.loads(ENDPOINT_1X)
    frame = st.node_templates["my_db_service"].property_table().to_frame()
    by_path = {r.path: (r.value, r.source, r.type) for r in frame.itertuples()}
    assert by_path["endpoint.ip"] == ("10.0.0.1", "input: the_ip", "string")
    assert by_path["endpoint.port"] == (2233, "default: my.datatypes.Endpoint", "integer")


def test_property_table_source_names_node_type_default():
    text = V13 + textwrap.dedent(
        """\
        node_types:
          A:
            derived_from: tosca.nodes.Root
            properties:
              p: {type: integer, default: 1}
          B:
            derived_from: A
            properties:
              p: {type: integer, default: 2}
        topology_template:
          node_templates:
            b: {type: B}
        """
    )
    st = toskit.loads(text)
    frame = st.node_templates["b"].property_table().to_frame()
    assert (
        frame.to_dict("records") and frame.loc[frame.path == "p", "source"].item() == "default: B"
    )
    assert frame.loc[frame.path == "p", "value"].item() == 2


# --------------------------------------------------------------------------
# Diagnostics
# --------------------------------------------------------------------------


def test_diagnostic_fields_and_str_format():
    st = toskit.loads(_one_template_1x("      properties: {port: 1, nmae: x}\n"), name="svc.yaml")
    (diag,) = st.diagnostics
    assert isinstance(diag, Diagnostic)
    assert diag.severity == "error"
    assert diag.code == "unknown-property"
    assert diag.path == "topology_template.node_templates.a.properties.nmae"
    assert diag.file == "svc.yaml"
    assert (diag.line, diag.column) == (12, 29)
    assert diag.hint == "did you mean 'name'?"
    text = str(diag)
    assert text.startswith("svc.yaml:12:29: error[unknown-property]: ")
    assert diag.message in text.splitlines()[0]
    assert "did you mean 'name'?" in text


def test_diagnostic_path_uses_brackets_for_list_indices():
    text = V13 + textwrap.dedent(
        """\
        node_types:
          A:
            derived_from: tosca.nodes.Root
            properties:
              ports: {type: list, entry_schema: {type: integer}}
        topology_template:
          node_templates:
            a:
              type: A
              properties:
                ports: [1, x]
        """
    )
    st = toskit.loads(text)
    (diag,) = [d for d in st.diagnostics if d.code == "type-mismatch"]
    assert diag.path == "topology_template.node_templates.a.properties.ports[1]"
    assert (diag.line, diag.column) == (12, 20)


IMPORT_DIR_FILES = {
    "a.yaml": V13 + "imports: [b.yaml]\n",
    "b.yaml": V13 + "imports: [a.yaml]\n",
}

# code -> (document text, severity)
CODE_CASES = {
    "yaml-syntax": ("a: [1, 2\n", "error"),
    "missing-property": (_one_template_1x(""), "error"),
    "unknown-property": (_one_template_1x("      properties: {port: 1, nmae: x}\n"), "error"),
    "type-mismatch": (_one_template_1x("      properties: {port: abc}\n"), "error"),
    "unknown-type": (
        V13 + "topology_template:\n  node_templates:\n    a:\n      type: tosca.nodes.Compte\n",
        "error",
    ),
    "derivation-cycle": (
        V13 + "node_types:\n  A: {derived_from: B}\n  B: {derived_from: A}\n",
        "error",
    ),
    "malformed-function": (
        _one_template_20("      properties:\n        port: {$concat: [a], other: 1}\n"),
        "error",
    ),
    "unknown-function": (
        _one_template_20("      properties:\n        port: {$frobnicate: [1]}\n"),
        "error",
    ),
    "function-error": (
        _one_template_20("      properties:\n        port: {$get_input: nope}\n"),
        "error",
    ),
    "limit-exceeded": (V13 + "description: " + "[" * 600 + "]" * 600 + "\n", "error"),
    "duplicate-key": (V13 + "description: a\ndescription: b\n", "error"),
    "missing-version": ("node_types: {}\n", "warning"),
    "unknown-keyname": (V13 + "node_type: {}\n", "error"),
    "constraint-violation": (
        V13
        + "node_types:\n  App:\n    derived_from: tosca.nodes.Root\n    properties:\n"
        + "      port: {type: integer, constraints: [{greater_than: 10}]}\n"
        + "topology_template:\n  node_templates:\n    a:\n      type: App\n      properties: {port: 5}\n",
        "error",
    ),
    "validation-failed": (
        V20
        + "node_types:\n  App:\n    properties:\n"
        + "      port: {type: integer, validation: {$greater_or_equal: [$value, 0]}}\n"
        + "service_template:\n  node_templates:\n    a:\n      type: App\n      properties: {port: -1}\n",
        "error",
    ),
    "incompatible-refinement": (
        V13
        + "node_types:\n  A:\n    derived_from: tosca.nodes.Root\n    properties:\n      p: {type: integer}\n"
        + "  B:\n    derived_from: A\n    properties:\n      p: {type: string}\n",
        "error",
    ),
    "dollar-literal": (
        V20
        + "node_types:\n  App:\n    properties:\n      p: {type: string}\n"
        + "service_template:\n  node_templates:\n    a:\n      type: App\n      properties: {p: $myid}\n",
        "warning",
    ),
    "import-error": (V13 + "imports:\n  - does_not_exist.yaml\n", "error"),
    "unfulfilled-requirement": (
        V13 + "topology_template:\n  node_templates:\n    db:\n      type: tosca.nodes.DBMS\n",
        "warning",
    ),
}


@pytest.mark.parametrize("code", sorted(CODE_CASES))
def test_required_diagnostic_code_exists(code, tmp_path):
    text, severity = CODE_CASES[code]
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    st = toskit.load(str(path))
    found = [d for d in st.diagnostics if d.code == code]
    assert found, f"expected {code}, got {[str(d) for d in st.diagnostics]}"
    diag = found[0]
    assert diag.severity == severity
    assert diag.message
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", diag.code)
    assert st.ok is (severity != "error" and not any(d.severity == "error" for d in st.diagnostics))
    if code != "import-error":
        assert diag.file == str(path)
        assert diag.line is not None and diag.line >= 1
        assert diag.column is not None and diag.column >= 1


def test_import_cycle_code(tmp_path):
    for name, text in IMPORT_DIR_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    st = toskit.load(str(tmp_path / "a.yaml"))
    assert "import-cycle" in codes(st)
    # info at most: each file is still loaded once and the template loads
    assert all(d.severity == "info" for d in st.diagnostics if d.code == "import-cycle")
    assert st.ok


def test_import_of_a_url_is_not_fetched():
    st = toskit.loads(V13 + "imports:\n  - https://example.invalid/types.yaml\n")
    assert "import-error" in codes(st)


def test_imported_types_are_visible(tmp_path):
    (tmp_path / "types.yaml").write_text(
        V13 + "node_types:\n  Imported:\n    derived_from: tosca.nodes.Root\n", encoding="utf-8"
    )
    (tmp_path / "main.yaml").write_text(
        V13
        + "imports: [types.yaml]\ntopology_template:\n  node_templates:\n    x: {type: Imported}\n",
        encoding="utf-8",
    )
    st = toskit.load(str(tmp_path / "main.yaml"))
    assert st.ok, [str(d) for d in st.diagnostics]
    assert st.node_templates["x"].type.name == "Imported"


def test_unknown_type_hint_is_did_you_mean():
    st = toskit.loads(V13 + "node_types:\n  S:\n    derived_from: nodes.DBMS\n")
    (diag,) = [d for d in st.diagnostics if d.code == "unknown-type"]
    assert diag.hint == "did you mean 'tosca.nodes.DBMS'?"


@pytest.mark.parametrize(
    "kwarg, text",
    [
        pytest.param(
            {"max_depth": 10},
            V13 + "dsl_definitions:\n  deep: " + "[" * 20 + "]" * 20 + "\n",
            id="depth",
        ),
        pytest.param(
            {"max_alias_nodes": 50},
            V13
            + "metadata:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  c: [*b, *b, *b, *b, *b]\n",
            id="alias",
        ),
        pytest.param({"max_size": 100}, V13 + "description: " + "x" * 200 + "\n", id="size"),
    ],
)
def test_limits_are_keyword_arguments_of_loads(kwarg, text):
    assert toskit.loads(text).ok
    st = toskit.loads(text, **kwarg)
    assert "limit-exceeded" in codes(st)


# --------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------


def test_functions_parse_evaluate_unparse_roundtrip():
    from toskit import functions

    tree = functions.parse({"$concat": ["a", "b"]}, version="2.0")
    assert tree == functions.Call(name="concat", args=["a", "b"], namespace=None)
    assert tree.form == "map"
    assert str(tree) == "$concat: [a, b]"
    assert functions.evaluate(tree) == "ab"
    assert functions.unparse(tree, version="2.0") == {"$concat": ["a", "b"]}
    assert functions.parse(functions.unparse(tree)) == tree


def test_functions_parse_unescapes_and_keeps_literals():
    from toskit import functions

    assert functions.parse({"$$k": "$$v", "$": 1}) == {"$k": "$v", "$": 1}
    diags: list[Diagnostic] = []
    assert functions.parse("$myid", diagnostics=diags) == "$myid"
    assert [d.code for d in diags] == ["dollar-literal"]
    assert "$$myid" in diags[0].hint


def test_functions_parse_1x_bare_names():
    from toskit import functions

    tree = functions.parse({"get_input": "cpus"}, version="1.3")
    assert tree == functions.Call("get_input", ["cpus"])
    assert functions.parse({"get_input": "cpus"}, version="2.0") == {"get_input": "cpus"}
    with pytest.raises(toskit.ToskitError):
        functions.parse("x", version="9.9")


def test_functions_parse_malformed_raises_function_syntax_error():
    from toskit import functions

    with pytest.raises(toskit.FunctionSyntaxError) as info:
        functions.parse({"$concat": ["a"], "other": 1})
    err = info.value
    assert isinstance(err, toskit.ToskitError)
    assert err.diagnostic.code == "malformed-function"
    assert err.diagnostic.severity == "error"
    assert "$concat" in str(err)


def test_functions_evaluate_inputs_and_error_kind():
    from toskit import functions

    assert (
        functions.evaluate(
            functions.parse({"$get_input": ["net", "name"]}), inputs={"net": {"name": "mgmt"}}
        )
        == "mgmt"
    )
    with pytest.raises(toskit.FunctionError) as info:
        functions.evaluate(functions.parse({"$get_input": "memory"}), inputs={"cpus": 4})
    assert info.value.kind == "UnknownInput"
    assert info.value.function == "get_input"
    assert info.value.diagnostic.code == "function-error"
    with pytest.raises(toskit.FunctionError) as info:
        functions.evaluate(functions.parse({"$frobnicate": [1]}))
    assert info.value.kind == "UnknownFunction"
    assert info.value.diagnostic.code == "unknown-function"


def test_functions_validate_clause():
    from toskit import functions

    clause = functions.parse({"$greater_or_equal": ["$value", 0]})
    assert functions.validate(clause, 5) is None
    with pytest.raises(toskit.FunctionError) as info:
        functions.validate(clause, -1)
    assert info.value.kind == "ValidationFailed"
    with pytest.raises(toskit.FunctionError) as info:
        functions.validate(functions.parse({"$concat": ["a", "$value"]}), "b")
    assert info.value.kind == "ValidationNotBoolean"


def test_functions_register_and_unregister():
    from toskit import functions

    def twice(x):
        return 2 * x

    try:
        assert functions.register("qa_contract:twice", twice) is twice
        assert functions.evaluate(functions.parse({"$qa_contract:twice": [21]})) == 42
        st = toskit.loads(
            _one_template_20("      properties:\n        port: {$qa_contract:twice: [4]}\n")
        )
        assert st.ok, [str(d) for d in st.diagnostics]
        assert st.node_templates["a"].properties["port"] == 8
    finally:
        functions.unregister("qa_contract:twice")
    with pytest.raises(toskit.ToskitError):
        functions.unregister("qa_contract:twice")
    with pytest.raises(toskit.ToskitError):
        functions.register("concat", twice)  # a built-in without namespace
    with pytest.raises(toskit.FunctionError) as info:
        functions.evaluate(functions.parse({"$qa_contract:twice": [21]}))
    assert info.value.kind == "UnknownFunction"


def test_functions_registered_callable_errors_become_function_errors():
    from toskit import functions

    def boom(x):
        raise ValueError("bad x")

    functions.register("qa_contract:boom", boom)
    try:
        with pytest.raises(toskit.FunctionError) as info:
            functions.evaluate(functions.parse({"$qa_contract:boom": [1]}))
        assert info.value.kind == "ArgType"
        assert "bad x" in str(info.value)
    finally:
        functions.unregister("qa_contract:boom")


def test_functions_parse_known_and_evaluate_keywords():
    from toskit import functions

    assert functions.parse("$ns:fn") == "$ns:fn"
    assert functions.parse("$ns:fn", known=("ns:fn",)) == functions.Call("fn", [], namespace="ns")
    assert functions.evaluate(functions.parse("$value"), value=5) == 5
    with pytest.raises(toskit.FunctionError) as info:
        functions.evaluate(functions.parse("$value"))
    assert info.value.kind == "ContextError"
    with pytest.raises(toskit.FunctionError) as info:
        functions.evaluate(functions.parse({"$get_property": ["SELF", "x"]}))
    assert info.value.kind == "ContextError"
    with pytest.raises(toskit.FunctionError) as info:
        functions.evaluate(functions.parse({"$get_input": "x"}), inputs={"x": NO_DEFAULT})
    assert info.value.kind == "InputValueMissing"
    # 1.x leniency: concat turns scalars into strings; 2.0 does not.
    assert (
        functions.evaluate(functions.parse({"concat": [1, "a"]}, version="1.3"), version="1.3")
        == "1a"
    )
    with pytest.raises(toskit.FunctionError) as info:
        functions.evaluate(functions.parse({"$concat": [1, "a"]}))
    assert info.value.kind == "ArgType"


def test_functions_call_attributes():
    from toskit import functions

    call = functions.parse({"$ns:fn$2": [1]})
    assert (call.name, call.namespace, call.key_variant, call.qualified_name) == (
        "fn",
        "ns",
        "2",
        "ns:fn",
    )
    bare = functions.parse("$value")
    assert bare.form == "bare" and bare == functions.Call("value", [])
    assert {call: 1}[functions.parse({"$ns:fn$2": [1]})] == 1  # hashable


# --------------------------------------------------------------------------
# Schema
# --------------------------------------------------------------------------

# The example schemas S1–S4 in one document (tests/fixtures/schemas.py).
SCHEMA = FULL_YAML


@pytest.fixture(scope="module")
def s1():
    from toskit import schema

    return schema.load(SCHEMA)


def test_schema_load_text_and_dict_find_resolve(s1):
    import yaml

    from toskit import schema

    as_dict = schema.load(yaml.safe_load(SCHEMA))
    assert as_dict.find("item").name == "item"
    assert s1.find("item").name == "item"
    assert s1.find("nope") is None
    atom = s1.resolve({"namedType": "inner", "elementRelationship": "atomic"})
    assert atom.map.element_relationship == "atomic"
    assert s1.find("inner").map.element_relationship in (None, "separable")
    assert s1.resolve("inner") == s1.find("inner").atom
    with pytest.raises(toskit.SchemaError):
        s1.resolve("missing")


def test_schema_load_errors_are_schema_errors_with_diagnostics():
    from toskit import schema

    with pytest.raises(toskit.SchemaError) as info:
        schema.load(
            "types:\n- name: r\n  map:\n    fields:\n    - {name: n, type: {sclar: string}}\n"
        )
    err = info.value
    assert "sclar" in str(err) and "field not declared in schema" in str(err)
    assert err.diagnostics and err.diagnostics[0].code == "schema-error"
    assert err.diagnostics[0].path == '.types[name="r"].map.fields[name="n"].type.sclar'


def test_schema_validate_returns_diagnostics_with_field_paths(s1):
    assert s1.validate({"num": 1, "str": "x", "items": [{"name": "a"}]}, "root") == []
    diags = s1.validate({"num": "1", "foo": 1, "items": [{"name": "a"}, {"name": "a"}]}, "root")
    by_path = {d.path: d for d in diags}
    assert by_path[".num"].code == "type-mismatch"
    assert by_path[".num"].message.startswith("expected numeric (int or float), got")
    assert by_path[".foo"].code == "unknown-property"
    assert by_path[".items"].message == 'duplicate entries for key [name="a"]'
    assert all(isinstance(d, Diagnostic) and d.severity == "error" for d in diags)
    with pytest.raises(toskit.SchemaError):
        s1.validate({}, "no-such-type")


def test_schema_merge_compare_fieldset(s1):
    assert s1.merge({"num": 1, "str": "x"}, {"num": 2, "set": ["a"]}, "root") == {
        "num": 2,
        "str": "x",
        "set": ["a"],
    }
    assert s1.merge({"set": ["c", "d"]}, {"set": ["a", "c"]}, "root") == {"set": ["a", "c", "d"]}
    cmp = s1.compare({"num": 1, "str": "x"}, {"num": 2, "struct": {"a": "y"}}, "root")
    assert ".struct.a" in cmp.added
    assert cmp.removed == {".str"}
    assert cmp.modified == {".num"}
    assert s1.to_fieldset({"num": 1, "struct": {"a": "x"}}, "root") == {".num", ".struct.a"}


def test_schema_remove_and_extract(s1):
    assert s1.remove({"num": 1, "str": "x"}, {".str"}, "root") == {"num": 1}
    got = s1.extract(
        {"num": 1, "items": [{"name": "a", "value": "v"}]}, {'.items[name="a"].value'}, "root"
    )
    assert got == {"items": [{"value": "v"}]}


def test_schema_allow_duplicates_keyword(s1):
    value = {"items": [{"name": "a"}, {"name": "a"}]}
    assert s1.validate(value, "root")
    assert s1.validate(value, "root", allow_duplicates=True) == []


def test_schema_unions(s1):
    assert s1.normalize_union({"one": 1}, {"two": 1}, "union") == {"discriminator": "TWO", "two": 1}
    with pytest.raises(toskit.SchemaError) as info:
        s1.normalize_union({"one": 1}, {"one": 2, "two": 1}, "union")
    assert "multiple fields set without discriminator change" in str(info.value)
    assert s1.normalize_union_apply({"one": 1}, {"one": 1, "two": 2}, "union") == {
        "one": 1,
        "discriminator": "One",
    }


# --------------------------------------------------------------------------
# Conditions
# --------------------------------------------------------------------------

ROLES = textwrap.dedent(
    """\
    roles_metadata:
      controller:
        name: Controller
        conflicts: [compute]
        conditions:
          - condition: "cluster:mode == 'multinode'"
            then: "selectedNodes._length == 1"
            else: true
            warning: "only one controller in multinode"
          - recommended:
              expression: "cluster:nodes._length >= <value>"
              value: 3
              warning: "at least <value> nodes are recommended"
      compute:
        name: Compute
    """
)


@pytest.fixture(scope="module")
def roles():
    from toskit import conditions

    return conditions.load_roles(ROLES)


@pytest.fixture(scope="module")
def cluster():
    from toskit import conditions

    return conditions.Cluster(
        mode="multinode",
        nodes=[{"id": 1, "roles": ["compute"], "pending_roles": [], "pending_deletion": False}],
        pool=[{"id": 2}, {"id": 3}],
    )


def test_conditions_load_roles_gives_roles(roles):
    assert list(roles) == ["controller", "compute"]
    role = roles["controller"]
    assert role.name == "controller"
    assert role.conflicts == ("compute",)
    assert len(role.conditions) == 2
    assert role.metadata["name"] == "Controller"


def test_conditions_load_roles_from_a_path(tmp_path):
    from toskit import conditions

    path = tmp_path / "roles.yaml"
    path.write_text(ROLES, encoding="utf-8")
    assert list(conditions.load_roles(path)) == ["controller", "compute"]
    assert list(conditions.load_roles(str(path))) == ["controller", "compute"]
    with pytest.raises(toskit.ToskitError):
        conditions.load_roles(str(tmp_path / "missing.yaml"))


def test_conditions_check_outcome(roles, cluster):
    out = roles.check("controller", cluster, selected=[2, 3])
    assert out.allowed is False
    assert out.warnings == ["only one controller in multinode", "at least 3 nodes are recommended"]
    assert out.conflicts == []
    assert out.trace.form == "rules"
    assert len(out.trace.children) == 2
    ok = roles.check("controller", cluster, selected=[2])
    assert ok.allowed is True
    assert ok.warnings == ["at least 3 nodes are recommended"]


def test_conditions_check_conflicts(roles, cluster):
    out = roles.check("controller", cluster, selected=[2], selected_roles=["compute"])
    assert out.allowed is False
    assert out.conflicts == ["compute"]
    with pytest.raises(toskit.ToskitError):
        roles.check("nope", cluster, selected=[2])
    with pytest.raises(toskit.ToskitError):
        roles.check("controller", cluster, selected=[99])


def test_conditions_check_assignment(roles):
    assert roles.check_assignment(["controller"]) is None
    with pytest.raises(toskit.ConditionError) as info:
        roles.check_assignment(["controller", "compute"])
    assert info.value.kind == "RoleConflict"
    assert info.value.position is None
    assert "Role 'controller' in conflict with role 'compute'." in str(info.value)


def test_conditions_evaluate_dict_and_text(cluster):
    from toskit import conditions

    r = conditions.evaluate({"condition": "cluster:mode == 'ha'", "warning": "needs HA"}, cluster)
    assert (r.value, r.warnings) == (False, ["needs HA"])
    r = conditions.evaluate("selectedNodes._length == 2", cluster, selected=[2, 3])
    assert (r.value, r.warnings) == (True, [])
    r = conditions.evaluate("- \"cluster:mode == 'multinode'\"\n- false\n", cluster)
    assert r.value is False
    assert r.trace.form == "rules"


def test_conditions_compile_expression(cluster):
    from toskit import conditions

    expr = conditions.compile_expression("cluster:nodes._pluck('id')")
    assert expr.text == "cluster:nodes._pluck('id')"
    assert expr.evaluate(cluster=cluster) == [1]
    assert conditions.compile_expression("<value> == 3").evaluate(variables={"value": 3}) is True
    assert (
        conditions.compile_expression("settings:a.b").evaluate(models={"settings": {"a": {"b": 7}}})
        == 7
    )
    assert (
        conditions.compile_expression("settings:a.c").evaluate(
            models={"settings": {"a": {}}}, strict=False
        )
        is None
    )


@pytest.mark.parametrize(
    "text, kind, position",
    [
        pytest.param("a == b == c", "SyntaxError", 7, id="chained"),
        pytest.param("'x", "SyntaxError", 0, id="unterminated"),
        pytest.param("cluster:nodes._size", "UnknownSpecial", 14, id="special"),
    ],
)
def test_conditions_errors_have_kind_and_position(text, kind, position):
    from toskit import conditions

    with pytest.raises(toskit.ConditionError) as info:
        conditions.compile_expression(text).evaluate(cluster=conditions.Cluster(mode="multinode"))
    assert info.value.kind == kind
    assert info.value.position == position


def test_conditions_runtime_errors_have_kind():
    from toskit import conditions

    with pytest.raises(toskit.ConditionError) as info:
        conditions.compile_expression("foo:x").evaluate()
    assert info.value.kind == "UnknownModel"
    with pytest.raises(toskit.ConditionError) as info:
        conditions.compile_expression("settings:missing").evaluate(models={"settings": {}})
    assert info.value.kind == "Undefined"


def test_conditions_cluster_validation():
    from toskit import conditions

    with pytest.raises(toskit.ToskitError):
        conditions.Cluster(mode="multinode", nodes=[{"roles": []}])
    with pytest.raises(toskit.ToskitError):
        conditions.Cluster(mode="multinode", nodes=[{"id": 1}], pool=[{"id": 1}])


def test_conditions_bad_yaml_raises_template_error():
    from toskit import conditions

    with pytest.raises(toskit.TemplateError) as info:
        conditions.load_roles(
            'controller:\n  conditions:\n    - condition: "x"\n        then: true\n'
        )
    assert info.value.diagnostics[0].code == "yaml-syntax"


# --------------------------------------------------------------------------
# dsl
# --------------------------------------------------------------------------

DSL_MODULE = textwrap.dedent(
    '''\
    import tosca
    from tosca import DataEntity


    class Endpoint(DataEntity):
        """Socket endpoint details"""

        _type_name = "my.datatypes.Endpoint"
        ip: str
        """the endpoint IP"""
        port: int = 2233


    class DatabaseService(tosca.nodes.DBMS):
        endpoint: Endpoint


    my_db_service = DatabaseService("my_db_service", endpoint=Endpoint(ip="1.2.3.4"))
    '''
)


@pytest.fixture
def dsl_module(tmp_path):
    path = tmp_path / "service.py"
    path.write_text(DSL_MODULE, encoding="utf-8")
    return path


def test_dsl_load_module_gives_a_service_template(dsl_module):
    from toskit import dsl

    st = dsl.load_module(str(dsl_module))
    assert isinstance(st, toskit.ServiceTemplate)
    assert st.version == "tosca_simple_unfurl_1_0_0"
    assert "missing-version" not in codes(st)
    assert st.ok, [str(d) for d in st.diagnostics]
    assert st.node_templates["my_db_service"].properties == {
        "endpoint": {"ip": "1.2.3.4", "port": 2233}
    }
    endpoint = st.types["my.datatypes.Endpoint"]
    assert endpoint.description == "Socket endpoint details"
    assert endpoint.properties["ip"].description == "the endpoint IP"
    assert "tosca" not in sys.modules and "unfurl" not in sys.modules


def test_dsl_load_module_accepts_a_module_object(tmp_path, monkeypatch):
    import importlib

    from toskit import dsl

    (tmp_path / "qa_contract_svc.py").write_text(
        "from toskit import dsl\n\n\nclass Endpoint(dsl.DataEntity):\n    ip: str\n    port: int = 2233\n\n\n"
        "class Db(dsl.nodes.Root):\n    endpoint: Endpoint\n\n\ndb = Db('db', endpoint=Endpoint(ip='1.2.3.4'))\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("qa_contract_svc")
    try:
        st = dsl.load_module(module)
        assert st.node_templates["db"].properties == {"endpoint": {"ip": "1.2.3.4", "port": 2233}}
        assert dsl.load_module(tmp_path / "qa_contract_svc.py").node_templates["db"].properties == {
            "endpoint": {"ip": "1.2.3.4", "port": 2233}
        }
    finally:
        sys.modules.pop("qa_contract_svc", None)


def test_service_template_to_yaml(dsl_module):
    from toskit import dsl

    st = dsl.load_module(str(dsl_module))
    text = st.to_yaml()
    again = toskit.loads(text)
    assert (
        again.node_templates["my_db_service"].properties
        == st.node_templates["my_db_service"].properties
    )
    assert "my.datatypes.Endpoint" in again.types


def test_service_template_to_python(dsl_module, tmp_path):
    from toskit import dsl

    st = dsl.load_module(str(dsl_module))
    source = st.to_python()
    assert "toskit" in source or "tosca" in source
    path = tmp_path / "again.py"
    path.write_text(source, encoding="utf-8")
    again = dsl.load_module(str(path))
    assert (
        again.node_templates["my_db_service"].properties
        == st.node_templates["my_db_service"].properties
    )


def test_yaml_template_to_python_roundtrip(tmp_path):
    from toskit import dsl

    st = toskit.loads(ENDPOINT_1X.replace("{get_input: the_ip}", "10.0.0.9"))
    path = tmp_path / "from_yaml.py"
    path.write_text(st.to_python(), encoding="utf-8")
    again = dsl.load_module(str(path))
    assert (
        again.node_templates["my_db_service"].properties
        == st.node_templates["my_db_service"].properties
    )


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "toskit", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    (root / "ok.yaml").write_text(ENDPOINT_1X, encoding="utf-8")
    (root / "bad.yaml").write_text(
        _one_template_1x("      properties: {port: abc}\n"), encoding="utf-8"
    )
    (root / "keyname.yaml").write_text(V13 + "node_type: {}\n", encoding="utf-8")
    return root


def test_cli_check_exit_0_when_no_error(cli_dir):
    proc = _cli("check", "ok.yaml", cwd=cli_dir)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "error[" not in proc.stdout


@pytest.mark.parametrize(
    "name, code, line", [("bad.yaml", "type-mismatch", 12), ("keyname.yaml", "unknown-keyname", 2)]
)
def test_cli_check_exit_1_and_prints_template_diagnostics(cli_dir, name, code, line):
    proc = _cli("check", name, cwd=cli_dir)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert re.search(rf"^{re.escape(name)}:{line}:\d+: error\[{code}\]: ", proc.stdout, re.M), (
        proc.stdout
    )


def test_cli_check_exit_2_when_it_cannot_run(cli_dir):
    assert _cli("check", "missing.yaml", cwd=cli_dir).returncode == 2
    assert _cli("frobnicate", cwd=cli_dir).returncode == 2


def test_cli_show_writes_a_standalone_page(cli_dir):
    proc = _cli("show", "bad.yaml", "-o", "report.html", cwd=cli_dir)
    assert proc.returncode == 0, proc.stderr
    page = (cli_dir / "report.html").read_text(encoding="utf-8")
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert "<script" not in page.lower()
    assert "type-mismatch" in page


def test_toskit_console_script_exists():
    script = Path(sys.executable).with_name("toskit")
    assert script.exists()
    proc = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert "check" in proc.stdout and "show" in proc.stdout


# --------------------------------------------------------------------------
# Display
# --------------------------------------------------------------------------


def _display_objects():
    from toskit import conditions, functions, schema

    st = toskit.loads(ENDPOINT_1X)
    node = st.node_templates["my_db_service"]
    s = schema.load(SCHEMA)
    roles = conditions.load_roles(ROLES)
    cl = conditions.Cluster(mode="multinode", nodes=[{"id": 1}])
    return {
        "ServiceTemplate": st,
        "Type": st.types["DatabaseService"],
        "NodeTemplate": node,
        "PropertyTable": node.property_table(),
        "Schema": s,
        "TypeDef": s.find("root"),
        "Comparison": s.compare({"num": 1}, {"num": 2}, "root"),
        "RoleSet": roles,
        "RoleOutcome": roles.check("controller", cl, selected=[1]),
        "Outcome": conditions.evaluate("cluster:mode == 'multinode'", cl),
        "Cluster": cl,
        "Role": roles["controller"],
        "TraceEntry": roles.check("controller", cl, selected=[1]).trace,
        "Expression": conditions.compile_expression("cluster:mode == 'multinode'"),
        "Call": functions.parse({"$concat": ["a", {"$get_input": "x"}]}),
        "PropertyDefinition": st.types["my.datatypes.Endpoint"].properties["ip"],
    }


DISPLAY_NAMES = [
    "ServiceTemplate",
    "Type",
    "NodeTemplate",
    "PropertyTable",
    "Schema",
    "TypeDef",
    "Comparison",
    "RoleSet",
    "RoleOutcome",
    "Outcome",
    "Cluster",
    "Role",
    "TraceEntry",
    "Expression",
    "Call",
    "PropertyDefinition",
]


@pytest.fixture(scope="module")
def display_objects():
    return _display_objects()


@pytest.mark.parametrize("name", DISPLAY_NAMES)
def test_repr_html_is_self_contained(display_objects, name):
    obj = display_objects[name]
    html = obj._repr_html_()
    assert isinstance(html, str) and html
    assert html.count("<style") == 1
    assert "<script" not in html.lower()
    assert "<link" not in html.lower() and "@import" not in html
    assert "--jp-" in html
    assert "<pre" in html  # plain-text fallback for viewers that strip <style>
    assert obj._repr_html_() == html  # deterministic (no random ids), so nbval can pin it
    classes = {c for attr in re.findall(r'class="([^"]*)"', html) for c in attr.split()}
    assert classes and all(c.startswith("toskit") for c in classes), sorted(classes)[:10]
    style = html[html.index("<style") : html.index("</style>")]
    style = re.sub(r"/\*.*?\*/", "", style, flags=re.S)  # comments name files (x.py), not classes
    selectors = re.findall(r"\.([A-Za-z_][\w-]*)", re.sub(r"\{[^{}]*\}", "{}", style))
    # body.vscode-dark is the one foreign class the notebooks spec prescribes (dark theme).
    assert selectors and all(s.startswith("toskit") or s == "vscode-dark" for s in selectors), (
        sorted(set(selectors))
    )
    text = repr(obj)
    assert text and not text.startswith("<toskit.") and " object at 0x" not in text


HOSTILE = '<script>alert(1)</script>"onmouseover=x </style>'


def test_repr_html_escapes_user_text():
    import yaml

    from toskit import conditions, schema

    x = HOSTILE
    doc = {
        "tosca_definitions_version": "tosca_simple_yaml_1_3",
        "description": x,
        "data_types": {x: {"derived_from": "tosca.datatypes.Root", "description": x}},
        "node_types": {
            "N": {
                "derived_from": "tosca.nodes.Root",
                "description": x,
                "properties": {"q": {"type": "string", "default": x, "description": x}},
            }
        },
        "topology_template": {"node_templates": {x: {"type": "N", "properties": {x: x}}}},
    }
    st = toskit.loads(yaml.safe_dump(doc), name=x)
    s = schema.load(
        {"types": [{"name": x, "map": {"fields": [{"name": x, "type": {"scalar": "string"}}]}}]}
    )
    roles = conditions.load_roles(
        {"roles_metadata": {x: {"name": x, "conditions": [{"condition": "false", "warning": x}]}}}
    )
    cl = conditions.Cluster(mode=x, nodes=[{"id": x, "roles": [x], "name": x}])
    objects = [
        st,
        st.types["N"],
        st.types[x],
        st.node_templates[x],
        st.node_templates[x].property_table(),
        s,
        s.find(x),
        s.compare({x: "a"}, {x: "b"}, x),
        roles,
        cl,
        roles.check(x, cl, selected=[x]),
        conditions.evaluate({"condition": "false", "warning": x}, cl),
    ]
    for obj in objects:
        html = obj._repr_html_()
        assert "<script" not in html.lower(), type(obj)
        assert '"onmouseover' not in html, type(obj)
        assert html.count("</style>") == 1, type(obj)
        assert "&lt;script&gt;" in html, type(obj)


def _many_properties(count: int) -> str:
    props = "".join(f"      x{i}: {{type: integer, default: {i}}}\n" for i in range(count))
    return (
        V13
        + "node_types:\n  A:\n    derived_from: tosca.nodes.Root\n    properties:\n"
        + "      p: {type: integer, default: 1}\n"
        + props
        + "topology_template:\n  node_templates:\n    a:\n      type: A\n      properties: {p: 2}\n"
    )


def test_property_table_show_overridden():
    node = toskit.loads(_many_properties(1)).node_templates["a"]
    frame = node.property_table(show_overridden=True).to_frame()
    row = frame[frame.path == "p"].iloc[0]
    assert (row.value, row.source) == (2, "template")
    assert "overridden" in frame.columns
    assert 1 in list(row.overridden) or "1" in str(row.overridden)


def test_html_tables_are_bounded_by_display_max_rows():
    assert toskit.options.display_max_rows == 50
    node = toskit.loads(_many_properties(60)).node_templates["a"]
    assert len(node.property_table().to_frame()) == 61  # the frame is complete
    html = node.property_table()._repr_html_()
    assert "11 more" in html
    assert html.count("<tr") <= 52


def test_widgets_are_dom_widgets():
    import ipywidgets

    from toskit import conditions, widgets

    st = toskit.loads(ENDPOINT_1X)
    roles = conditions.load_roles(ROLES)
    cl = conditions.Cluster(mode="multinode", nodes=[{"id": 1}])
    for cls in (widgets.TypeTree, widgets.PropertyExplorer, widgets.ClusterSimulator):
        assert issubclass(cls, ipywidgets.DOMWidget), cls
    assert isinstance(widgets.TypeTree(st), ipywidgets.DOMWidget)
    assert isinstance(widgets.PropertyExplorer(st), ipywidgets.DOMWidget)
    assert isinstance(widgets.ClusterSimulator(roles, cl), ipywidgets.DOMWidget)


def test_explore_gives_a_widget_for_each_kind_of_object():
    import ipywidgets

    from toskit import conditions

    st = toskit.loads(ENDPOINT_1X)
    roles = conditions.load_roles(ROLES)
    for obj in (st, roles):
        view = toskit.explore(obj)
        assert isinstance(view, ipywidgets.Widget), type(view)


# --------------------------------------------------------------------------
# Package
# --------------------------------------------------------------------------


# What `import toskit` may bring in: its own core (the names API.md exports
# eagerly) and the standard library. Everything else (the loader, PyYAML,
# pandas, the views) waits for the first attribute that needs it.
_IMPORT_PROBE = """\
import json, sys
before = set(sys.modules)
import toskit
imported = sorted(set(sys.modules) - before)
toskit.load  # the first use of the loader imports it
after_load = sorted(set(sys.modules) - before)
print(json.dumps({"imported": imported, "after_load": after_load}))
"""
_EAGER_TOSKIT = {
    "toskit",
    "toskit.diagnostics",
    "toskit.errors",
    "toskit.records",
    "toskit.sentinels",
}
_HEAVY = ("yaml", "pandas", "numpy", "lark", "ipywidgets", "anywidget", "IPython", "jinja2")


def test_import_toskit_is_fast_and_lazy():
    # Counted, not timed: which modules a fresh `import toskit` holds (a wall
    # clock bound failed on a loaded machine; bench/bench_startup.py measures
    # the time). The subprocess timeout is only a hang guard.
    proc = subprocess.run(
        [sys.executable, "-c", _IMPORT_PROBE], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    imported = report["imported"]
    tops = {name.split(".")[0] for name in imported}
    assert {m for m in imported if m.split(".")[0] == "toskit"} <= _EAGER_TOSKIT
    assert not [t for t in tops if t != "toskit" and t not in sys.stdlib_module_names]
    assert not [h for h in _HEAVY if h in tops]
    assert len(imported) <= 80  # 34 today: typing, re, enum and their own
    # Records are toskit.records' (#31): neither dataclasses nor inspect.
    assert "dataclasses" not in imported and "inspect" not in imported
    # Lazy, not missing: the loader comes with the first use; the parsers
    # with the first document (PyYAML only when one needs it: #31,
    # tests/test_startup.py).
    after = set(report["after_load"])
    assert "toskit.tosca" in after and "yaml" not in after
    assert "pandas" not in after


@pytest.mark.parametrize(
    "name",
    [
        "load",
        "loads",
        "ServiceTemplate",
        "NodeTemplate",
        "Type",
        "PropertyDefinition",
        "PropertyTable",
        "Diagnostic",
        "NO_DEFAULT",
        "ToskitError",
        "TemplateError",
        "FunctionError",
        "FunctionSyntaxError",
        "SchemaError",
        "ConditionError",
        "functions",
        "schema",
        "conditions",
        "dsl",
        "widgets",
        "explore",
    ],
)
def test_public_name_exists(name):
    assert getattr(toskit, name) is not None
    assert name in dir(toskit)


# ---- API contract tests written from failures the QA pass found (each fixed since). (folded from test_api_contract_more.py) ----


ENDPOINT_1X_WITH_DATA_TYPE = textwrap.dedent(
    """\
    tosca_definitions_version: tosca_simple_unfurl_1_0_0
    data_types:
      my.datatypes.Endpoint:
        properties:
          ip: {type: string}
          port: {type: integer, default: 2233}
    node_types:
      DatabaseService:
        derived_from: tosca.nodes.DBMS
        properties:
          endpoint: {type: my.datatypes.Endpoint}
    topology_template:
      node_templates:
        my_db_service:
          type: DatabaseService
          properties:
            endpoint: {ip: 10.0.0.9}
    """
)


def test_repr_html_of_a_diagnostic():
    st = toskit.loads(V13 + "node_type: {}\n")
    html = st.diagnostics[0]._repr_html_()
    assert "unknown-keyname" in html and "<script" not in html.lower()


def test_diagnostic_lists_render_as_html():
    """notebooks.md §1: "Diagnostic lists" and "schema validation results" have a view.

    ``toskit.diagnostics.DiagnosticList`` exists (with ``_repr_html_``), but
    ``ServiceTemplate.diagnostics`` and ``Schema.validate`` return plain lists.
    """
    from toskit import schema

    st = toskit.loads(V13 + "node_type: {}\n")
    html = st.diagnostics._repr_html_()
    assert "unknown-keyname" in html and "<script" not in html.lower()
    s = schema.load("types:\n- name: r\n  scalar: numeric\n")
    assert "expected numeric" in s.validate("x", "r")._repr_html_()


def test_data_type_defaults_fill_in_inside_list_and_map_entries():
    """NodeTemplate.properties: "defaults filled in" (tosca.md §4 layer 1: "applied
    recursively inside every data value"). Entries of a list/map whose entry_schema is a
    data type get no defaults, and a field that has a default is reported missing."""
    text = V13 + textwrap.dedent(
        """\
        data_types:
          E:
            derived_from: tosca.datatypes.Root
            properties:
              ip: {type: string}
              port: {type: integer, default: 80}
        node_types:
          N:
            derived_from: tosca.nodes.Root
            properties:
              eps: {type: list, entry_schema: {type: E}}
              named: {type: map, entry_schema: {type: E}}
        topology_template:
          node_templates:
            a:
              type: N
              properties:
                eps: [{ip: a}, {ip: b, port: 8}]
                named: {x: {ip: c}}
        """
    )
    st = toskit.loads(text)
    assert [d.code for d in st.diagnostics] == []
    assert st.node_templates["a"].properties == {
        "eps": [{"ip": "a", "port": 80}, {"ip": "b", "port": 8}],
        "named": {"x": {"ip": "c", "port": 80}},
    }


def test_results_do_not_share_mutable_defaults():
    """DESIGN.md: result objects are plain and immutable. Today NodeTemplate.properties
    hands out the node type's default object itself: editing one template's value in a
    notebook changes every other template and the PropertyDefinition.default."""
    text = V13 + textwrap.dedent(
        """\
        node_types:
          N:
            derived_from: tosca.nodes.Root
            properties:
              p: {type: map, default: {a: 1}}
        topology_template:
          node_templates:
            a: {type: N}
            b: {type: N}
        """
    )
    st = toskit.loads(text)
    value = st.node_templates["a"].properties["p"]
    with contextlib.suppress(TypeError):  # an immutable value is fine too
        value["a"] = 99
    assert st.node_templates["b"].properties == {"p": {"a": 1}}
    assert st.types["N"].properties["p"].default == {"a": 1}


# ---- the display dispatch table (issue 15) ----


def _classes_of_package(package: str) -> set[str]:
    """Names of the classes defined in the modules of ``toskit.<package>``."""
    import importlib
    import inspect
    import pkgutil

    root = importlib.import_module(f"toskit.{package}")
    modules = [root]
    if hasattr(root, "__path__"):
        for info in pkgutil.walk_packages(root.__path__, f"toskit.{package}."):
            modules.append(importlib.import_module(info.name))
    return {
        name
        for module in modules
        for name, obj in vars(module).items()
        if inspect.isclass(obj) and obj.__module__ == module.__name__
    }


def test_every_display_dispatch_entry_resolves_to_a_real_view() -> None:
    """Each (package, class) -> (module, function) entry of toskit.display names a
    class that exists in that package and a callable view that exists (a renamed
    class or view would otherwise fall back to the generic repr silently)."""
    import importlib
    import inspect

    from toskit import display

    table = display._VIEWS
    assert len(table) >= 20
    for (package, class_name), (module_name, function_name) in table.items():
        assert class_name in _classes_of_package(package), (package, class_name)
        view = getattr(importlib.import_module(module_name), function_name, None)
        assert callable(view), (module_name, function_name)
        assert len(inspect.signature(view).parameters) >= 1, (module_name, function_name)
