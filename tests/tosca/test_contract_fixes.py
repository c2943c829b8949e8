"""Regression tests for API-contract fixes found by QA (diagnostic lists, defaults
inside collection entries, unshared values, recursive data types, misused entry points)."""

from __future__ import annotations

import copy
import pathlib
import textwrap

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st_

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


# ---- 4. recursive data types load (bounded expansion, never RecursionError) ----


def _recursive(data_types: str, prop: str, value: str = "") -> str:
    body = textwrap.indent(textwrap.dedent(data_types), "  ")
    node = f"n: {{type: N{', properties: {p: ' + value + '}' if value else ''}}}"
    return _text(
        "data_types:\n"
        + body
        + "node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n"
        + f"      p: {prop}\n"
        + "topology_template:\n  node_templates:\n    "
        + node
        + "\n"
    )


RECURSIVE_CASES = {
    "default-contains-itself": (
        """\
        D0:
          derived_from: tosca.datatypes.Root
          properties:
            d: {type: D0, default: {d: {}}}
            x: {type: integer, default: 1}
        """,
        "{type: D0, default: {}}",
        "",
        {"d": {"d": {}, "x": 1}, "x": 1},
    ),
    "list-of-itself-default": (
        """\
        D0:
          derived_from: tosca.datatypes.Root
          properties:
            l: {type: list, entry_schema: {type: D0}, default: [{}]}
            x: {type: integer, default: 1}
        """,
        "{type: D0, default: {}}",
        "",
        {"l": [{"l": [{}], "x": 1}], "x": 1},
    ),
    "mutual-defaults": (
        """\
        A:
          derived_from: tosca.datatypes.Root
          properties:
            b: {type: B, default: {a: {}}}
        B:
          derived_from: tosca.datatypes.Root
          properties:
            a: {type: A, default: {b: {}}}
        """,
        "{type: A}",
        "{}",
        {"b": {"a": {}}},  # A's defaults are not applied again inside A's own default
    ),
    "template-value-deeper-than-defaults": (
        """\
        D0:
          derived_from: tosca.datatypes.Root
          properties:
            d: {type: D0, required: false}
            x: {type: integer, default: 1}
        """,
        "{type: D0}",
        "{d: {d: {d: {}}}}",
        {"d": {"d": {"d": {"x": 1}, "x": 1}, "x": 1}, "x": 1},
    ),
}


@pytest.mark.parametrize(
    ("data_types", "prop", "value", "expected"),
    list(RECURSIVE_CASES.values()),
    ids=list(RECURSIVE_CASES),
)
def test_recursive_data_types_expand_a_bounded_number_of_times(data_types, prop, value, expected):
    st = toskit.loads(_recursive(data_types, prop, value))
    assert [d.code for d in st.diagnostics if d.severity == "error"] == []
    assert st.node_templates["n"].properties["p"] == expected


def test_recursive_required_field_without_default_is_missing_not_a_crash():
    text = _recursive(
        "D0:\n  derived_from: tosca.datatypes.Root\n  properties:\n    d: {type: D0}\n",
        "{type: D0}",
    )
    st = toskit.loads(text)
    assert [d.code for d in st.diagnostics] == ["missing-property"]


_TYPE_NAMES = st_.sampled_from(["D0", "D1", "D2"])


@settings(max_examples=150, deadline=None)
@given(
    st_.dictionaries(
        _TYPE_NAMES,
        st_.dictionaries(
            st_.sampled_from(["a", "b"]),
            st_.fixed_dictionaries(
                {"type": st_.sampled_from(["D0", "D1", "D2", "integer", "list"])},
                optional={
                    "required": st_.booleans(),
                    "default": st_.sampled_from([{}, {"a": {}}, {"b": {"a": {}}}, [{}], 1, None]),
                    "entry_schema": st_.fixed_dictionaries({"type": _TYPE_NAMES}),
                },
            ),
            max_size=2,
        ),
        min_size=1,
        max_size=3,
    ),
    st_.recursive(
        st_.integers(0, 3),
        lambda c: st_.dictionaries(st_.sampled_from(["a", "b"]), c, max_size=2)
        | st_.lists(c, max_size=2),
        max_leaves=6,
    ),
)
def test_data_types_referring_to_each_other_always_load(data_types, value):
    doc = {
        "tosca_definitions_version": "tosca_simple_yaml_1_3",
        "data_types": {
            name: {"derived_from": "tosca.datatypes.Root", "properties": props}
            for name, props in data_types.items()
        },
        "node_types": {
            "N": {"derived_from": "tosca.nodes.Root", "properties": {"p": {"type": "D0"}}}
        },
        "topology_template": {"node_templates": {"n": {"type": "N", "properties": {"p": value}}}},
    }
    result = toskit.loads(yaml.safe_dump(doc))
    node = result.node_templates["n"]
    assert all(isinstance(d.code, str) and d.message for d in result.diagnostics)
    node.property_table()  # provenance of every leaf is computable
    repr(result)


# ---- 5. misused entry points raise ToskitError ----

MISUSES = {
    "load(None)": (lambda: toskit.load(None), "expects a file path"),
    "load(5) is not a file descriptor": (lambda: toskit.load(5), "got int"),
    "load(bytes)": (lambda: toskit.load(b"a: 1"), "toskit.loads(text)"),
    "loads(None)": (lambda: toskit.loads(None), "expects YAML text"),
    "loads(Path)": (lambda: toskit.loads(pathlib.Path("x.yaml")), "toskit.load(path)"),
    "loads(bogus=1)": (lambda: toskit.loads("a: 1", bogus=1), "max_depth, max_size"),
    "loads(max_dept=1)": (lambda: toskit.loads("a: 1", max_dept=1), "did you mean 'max_depth'"),
    "loads(max_depth=-1)": (lambda: toskit.loads("a: 1", max_depth=-1), "positive integer"),
    "loads(max_nodes='10')": (lambda: toskit.loads("a: 1", max_nodes="10"), "positive integer"),
    "load(path, max_depth=0)": (lambda: toskit.load("x.yaml", max_depth=0), "positive integer"),
    "loads(resolver=5)": (lambda: toskit.loads("a: 1", resolver=5), "resolver must be"),
    "loads(name=5)": (lambda: toskit.loads("a: 1", name=5), "name"),
}


@pytest.mark.parametrize(("call", "message"), list(MISUSES.values()), ids=list(MISUSES))
def test_misused_entry_points_raise_toskit_error(call, message):
    with pytest.raises(toskit.ToskitError) as info:
        call()
    assert message in str(info.value)


def test_valid_limits_are_still_accepted():
    st = toskit.loads(V13, max_depth=50, max_nodes=None)
    assert st.ok


# ---- 6. get_input among input defaults ----

INPUT_REFS = {
    "1.3": (
        V13 + "node_types:\n  N:\n    derived_from: tosca.nodes.Root\n"
        "    properties:\n      x: {type: string}\ntopology_template:\n",
        "get_input",
        "tosca.nodes.Root",
    ),
    "2.0": ("tosca_definitions_version: tosca_2_0\nservice_template:\n", "$get_input", "Root"),
}


def _inputs_text(version: str, inputs: str) -> str:
    head, fn, root = INPUT_REFS[version]
    body = textwrap.dedent(inputs).replace("GET", fn) + f"node_templates:\n  n: {{type: {root}}}\n"
    return head + textwrap.indent(body, "  ")


@pytest.mark.parametrize("version", list(INPUT_REFS))
def test_input_defaults_take_the_values_of_other_inputs(version):
    text = _inputs_text(
        version,
        """\
        inputs:
          url: {type: string, default: {GET: host}}
          host: {type: string, default: example.org}
          pair: {type: list, default: [{GET: url}, {GET: [ports, 1]}]}
          ports: {type: list, default: [80, 443]}
        """,
    )
    st = toskit.loads(text)
    assert st.diagnostics == []
    assert st.inputs["url"] == "example.org"
    assert st.inputs["pair"] == ["example.org", 443]
    st.inputs["pair"].append("x")  # an own copy, not the other input's list
    assert st.inputs["ports"] == [80, 443]


@pytest.mark.parametrize("version", list(INPUT_REFS))
def test_inputs_referring_to_each_other_are_a_named_cycle(version):
    text = _inputs_text(
        version,
        """\
        inputs:
          a: {type: string, default: {GET: b}}
          b: {type: string, default: {GET: c}}
          c: {type: string, default: {GET: a}}
          d: {type: string, default: {GET: a}}
        """,
    )
    st = toskit.loads(text)
    assert [(d.severity, d.code) for d in st.diagnostics] == [("error", "function-error")]
    message = st.diagnostics[0].message
    assert "reference cycle" in message
    assert "input 'a' -> input 'b' -> input 'c' -> input 'a'" in message
    assert isinstance(st.inputs["a"], toskit.functions.Call)  # left unevaluated


def test_a_long_chain_of_input_references_is_bounded():
    lines = ["inputs:", "  i0: {type: integer, default: 1}"]
    lines += [f"  i{n}: {{type: integer, default: {{GET: i{n - 1}}}}}" for n in range(1, 400)]
    st = toskit.loads(_inputs_text("1.3", "\n".join(lines) + "\n"))
    assert {d.code for d in st.diagnostics} <= {"limit-exceeded"}
    assert st.inputs["i150"] == 1


# ---- pattern constraints cannot hang the loader ----

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
