"""API contract tests written from failures the QA pass found (each fixed since).

They check contract points beyond tests/test_api_contract.py: diagnostics as
HTML, data-type defaults inside list/map entries, unshared result values,
recursive data types, DSL modules that exit, misused entry points.
"""

from __future__ import annotations

import contextlib
import textwrap

import pytest

import toskit

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"

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

ENDPOINT_1X = textwrap.dedent(
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


@pytest.fixture
def dsl_module(tmp_path):
    path = tmp_path / "service.py"
    path.write_text(DSL_MODULE, encoding="utf-8")
    return path


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
