"""Inputs without a value: a template check is not a deployment (docs/tosca.md)."""

from __future__ import annotations

import textwrap

import pytest
from tosca_fixtures import V13

import toskit
from toskit.errors import FunctionError
from toskit.functions import Call

TEMPLATE = """
tosca_definitions_version: tosca_2_0
node_types:
  Server:
    properties:
      ram: {type: integer, validation: {$greater_than: [$value, 0]}}
      name: {type: string}
service_template:
  inputs:
    ram: {type: integer}
    extra: {type: string, required: false}
    label: {type: string, default: web}
  node_templates:
    web:
      type: Server
      properties:
        ram: {$get_input: ram}
        name: {$concat: [{$get_input: label}, "-", {$get_input: extra}]}
  outputs:
    memory: {value: {$get_input: ram}}
"""


def by_code(st: toskit.ServiceTemplate, code: str) -> list[toskit.Diagnostic]:
    return [d for d in st.diagnostics if d.code == code]


@pytest.mark.parametrize(
    ("inputs", "severity"),
    [(None, "info"), ({}, "error"), ({"label": "db"}, "error")],
    ids=["no-inputs-info", "empty-mapping-error", "mapping-lacking-it-error"],
)
def test_one_missing_input_per_required_input(inputs: dict | None, severity: str) -> None:
    st = toskit.loads(TEMPLATE, inputs=inputs)
    missing = [d for d in by_code(st, "missing-input") if "'ram'" in d.message]
    assert len(missing) == 1
    assert missing[0].severity == severity
    assert missing[0].path == "service_template.inputs.ram"
    assert missing[0].line == 10
    assert by_code(st, "function-error") == []
    assert by_code(st, "type-mismatch") == []
    assert by_code(st, "validation-failed") == []
    assert st.ok is (severity == "info")


def test_info_message_says_it_is_supplied_at_deployment() -> None:
    st = toskit.loads(TEMPLATE)
    (ram,) = [d for d in by_code(st, "missing-input") if "'ram'" in d.message]
    assert ram.message == (
        "input 'ram' has no value and no default; it must be supplied at deployment"
    )


def test_optional_input_without_value_is_only_info_even_with_a_mapping() -> None:
    st = toskit.loads(TEMPLATE, inputs={"ram": 4})
    (extra,) = by_code(st, "missing-input")
    assert extra.severity == "info" and "optional input 'extra'" in extra.message
    assert st.ok


def test_get_input_of_a_missing_input_stays_a_call() -> None:
    st = toskit.loads(TEMPLATE)
    web = st.node_templates["web"]
    ram = web.properties["ram"]
    assert isinstance(ram, Call) and ram.name == "get_input" and ram.args == ["ram"]
    # A call with an unevaluated argument stays a call as a whole.
    assert isinstance(web.properties["name"], Call) and web.properties["name"].name == "concat"
    assert isinstance(st.outputs["memory"], Call)
    assert st.inputs["ram"] is toskit.NO_DEFAULT
    table = web.property_table()
    assert table["ram"].value == str(ram)


def test_a_supplied_value_is_used_and_checked() -> None:
    st = toskit.loads(TEMPLATE, inputs={"ram": 8, "extra": "a"})
    web = st.node_templates["web"]
    assert web.properties["ram"] == 8
    assert web.properties["name"] == "web-a"
    assert st.outputs["memory"] == 8
    assert st.diagnostics == []
    bad = toskit.loads(TEMPLATE, inputs={"ram": 0, "extra": "a"})
    assert [d.code for d in bad.diagnostics if d.severity == "error"] == ["validation-failed"]


def test_toskit_check_exits_zero_for_an_unset_input(tmp_path, capsys) -> None:
    from toskit.cli import main

    path = tmp_path / "t.yaml"
    path.write_text(TEMPLATE, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert "info[missing-input]" in capsys.readouterr().out


def test_functions_evaluate_still_raises_input_value_missing() -> None:
    tree = toskit.functions.parse({"$get_input": "x"}, "2.0")
    with pytest.raises(FunctionError) as info:
        toskit.functions.evaluate(tree, inputs={"x": toskit.NO_DEFAULT})
    assert info.value.kind == "InputValueMissing"
    kept = toskit.functions.evaluate(
        tree, inputs={"x": toskit.NO_DEFAULT}, defer_missing_inputs=True
    )
    assert kept == tree


# ---- get_input among input defaults ----


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
