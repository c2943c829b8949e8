"""Regression tests for API-contract fixes found by QA (diagnostic lists, defaults
inside collection entries, unshared values, recursive data types, misused entry points)."""

from __future__ import annotations

import copy
import textwrap

import toskit
from toskit.diagnostics import DiagnosticList

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"


def _text(body: str) -> str:
    return V13 + textwrap.dedent(body)


# ---- 1. diagnostics are a DiagnosticList ----


def test_service_template_diagnostics_are_a_diagnostic_list_with_a_view():
    st = toskit.loads(V13 + "node_type: {}\n")
    assert isinstance(st.diagnostics, DiagnosticList)
    assert [d.code for d in st.diagnostics] == ["unknown-keyname"]
    html = st.diagnostics._repr_html_()
    assert "unknown-keyname" in html and "<script" not in html.lower()


def test_errors_and_warnings_are_diagnostic_lists_and_still_lists():
    st = toskit.loads(V13 + "node_type: {}\n")
    assert isinstance(st.errors, DiagnosticList) and isinstance(st.warnings, DiagnosticList)
    assert st.diagnostics == list(st.diagnostics)  # compares as a plain list
    assert len(st.errors) + len(st.warnings) <= len(st.diagnostics)
    assert st.diagnostics.ok == st.ok


# ---- 2. data-type defaults inside list and map entries ----

ENTRIES = _text(
    """\
    data_types:
      E:
        derived_from: tosca.datatypes.Root
        properties:
          ip: {type: string}
          port: {type: integer, default: 80}
      Holder:
        derived_from: tosca.datatypes.Root
        properties:
          eps: {type: list, entry_schema: {type: E}}
      EList:
        derived_from: list
        entry_schema: {type: E}
    node_types:
      N:
        derived_from: tosca.nodes.Root
        properties:
          eps: {type: list, entry_schema: {type: E}, required: false}
          labels: {type: map, entry_schema: {type: E}, required: false}
          holder: {type: Holder, required: false}
          typed: {type: EList, required: false}
          dflt: {type: list, entry_schema: {type: E}, default: [{ip: z}]}
    topology_template:
      node_templates:
        a:
          type: N
          properties:
            eps: [{ip: a}, {ip: b, port: 8}]
            labels: {k: {ip: c}}
            holder: {eps: [{ip: d}]}
            typed: [{ip: e}]
    """
)


def test_defaults_fill_in_inside_list_and_map_entries():
    st = toskit.loads(ENTRIES)
    assert [d.code for d in st.diagnostics] == []
    props = st.node_templates["a"].properties
    assert props["eps"] == [{"ip": "a", "port": 80}, {"ip": "b", "port": 8}]
    assert props["labels"] == {"k": {"ip": "c", "port": 80}}
    assert props["holder"] == {"eps": [{"ip": "d", "port": 80}]}
    assert props["typed"] == [{"ip": "e", "port": 80}]
    assert props["dflt"] == [{"ip": "z", "port": 80}]


def test_entry_defaults_record_their_source():
    node = toskit.loads(ENTRIES).node_templates["a"]
    assert node.source_of("eps[0].port") == "default: E"
    assert node.source_of("eps[1].port") == "template"
    assert node.source_of("labels.k.port") == "default: E"
    assert node.source_of("eps[0].ip") == "template"


def test_entry_with_a_wrong_value_is_still_reported():
    text = ENTRIES.replace("eps: [{ip: a}, {ip: b, port: 8}]", "eps: [{port: x}, 5]")
    codes = sorted(d.code for d in toskit.loads(text).diagnostics)
    assert codes and all(c in {"type-mismatch", "missing-property"} for c in codes)


# ---- 3. result values are not shared ----

SHARED = _text(
    """\
    data_types:
      D:
        derived_from: tosca.datatypes.Root
        properties:
          m: {type: map, default: {k: 1}}
          l: {type: list, default: [1]}
    node_types:
      N:
        derived_from: tosca.nodes.Root
        properties:
          p: {type: map, default: {a: 1}}
          d: {type: D, default: {}}
          q: {type: list, required: false}
          r: {type: list, required: false}
    topology_template:
      inputs:
        items: {type: list, default: [1, 2]}
      node_templates:
        a:
          type: N
          properties:
            q: {get_input: items}
        b:
          type: N
          properties:
            q: {get_input: items}
            r: {get_property: [a, q]}
    """
)


def _mutate_all(value):
    """Change every map and list inside ``value`` in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _mutate_all(item)
        value["mutated"] = True
    elif isinstance(value, list):
        for item in value:
            _mutate_all(item)
        value.append("mutated")


def test_editing_one_templates_values_changes_nothing_else():
    st = toskit.loads(SHARED)
    assert st.ok, st.diagnostics
    b_before = copy.deepcopy(st.node_templates["b"].properties)
    input_before = copy.deepcopy(st.inputs)
    _mutate_all(st.node_templates["a"].properties)
    assert st.node_templates["b"].properties == b_before
    assert st.inputs == input_before
    assert st.types["N"].properties["p"].default == {"a": 1}
    assert st.types["D"].properties["m"].default == {"k": 1}
    assert st.types["D"].properties["l"].default == [1]
    assert b_before["r"] == [1, 2]  # get_property of a's value, copied before a was edited


def test_copy_data_copies_containers_and_keeps_leaves():
    from toskit.tosca.resolve import copy_data

    leaf = ("t",)
    value = {"a": [{"b": 1}, leaf], "c": "s"}
    copied = copy_data(value)
    assert copied == value and copied is not value
    assert copied["a"] is not value["a"] and copied["a"][0] is not value["a"][0]
    assert copied["a"][1] is leaf
