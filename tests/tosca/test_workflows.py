"""``call_operation`` inputs in TOSCA 2.0 workflows (toskit.tosca.model.workflows)."""

from __future__ import annotations

import pytest

import toskit

TEMPLATE = """\
tosca_definitions_version: tosca_2_0
interface_types:
  Backup:
    operations:
      backup:
        description: Backup the entity
node_types:
  Entity:
    interfaces:
      backup:
        type: Backup
        inputs:
          location: {{type: string}}
        operations:
          backup:
            inputs:
              name: {{type: string}}
              retries: {{type: integer, default: 3}}
              ratio: {{type: float, required: false}}
service_template:
  node_templates:
    client:
      type: Entity
{assignment}
  workflows:
    backup:
      inputs:
        location: {{type: string}}
        name: {{type: string{name_extra}}}
        id: {{type: integer}}
      steps:
        backup_client:
          target: client
          activities:
            - call_operation:
                operation: backup.backup
                inputs:
{inputs}
"""

LOCATION = "                  location: {$get_input: location}"
NAME = "                  name: {$get_input: name}"


def load(inputs: list[str], name_extra: str = "", assignment: str = "") -> toskit.ServiceTemplate:
    return toskit.loads(
        TEMPLATE.format(inputs="\n".join(inputs), name_extra=name_extra, assignment=assignment)
    )


def errors(st: toskit.ServiceTemplate) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in st.diagnostics if d.severity == "error"]


ON = "call_operation 'backup.backup' on node template 'client'"

CASES = [
    ("all-given", [LOCATION, NAME], "", []),
    (
        "operation-input-missing",
        [LOCATION],
        "",
        [
            (
                "missing-operation-input",
                f"{ON}: the required input 'name' of operation 'backup.backup' has no value",
            )
        ],
    ),
    (
        "interface-input-missing",
        [NAME],
        "",
        [
            (
                "missing-operation-input",
                f"{ON}: the required input 'location' of operation 'backup.backup' has no value",
            )
        ],
    ),
    (
        "undeclared-input",
        [LOCATION, NAME, "                  guid: 187a"],
        "",
        [("unknown-operation-input", f"{ON}: operation 'backup.backup' has no input 'guid'")],
    ),
    (
        "type-mismatch",
        [LOCATION, "                  name: {$get_input: id}"],
        "",
        [
            (
                "type-mismatch",
                f"{ON}: input 'name' expects string, but workflow input 'id' is integer",
            )
        ],
    ),
    (
        "integer-feeds-float",
        [LOCATION, NAME, "                  ratio: {$get_input: id}"],
        "",
        [],
    ),
    (
        "optional-workflow-input-feeds-required",
        [LOCATION, NAME],
        ", required: false",
        [
            (
                "missing-operation-input",
                f"{ON}: input 'name' is required, but workflow input 'name' that feeds it is optional",
            )
        ],
    ),
    ("optional-with-default-is-fine", [LOCATION, NAME], ", required: false, default: x", []),
    ("plain-values", ["                  location: /tmp", "                  name: n"], "", []),
]


@pytest.mark.parametrize(
    ("inputs", "name_extra", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_call_operation_inputs(inputs: list[str], name_extra: str, expected: list) -> None:
    assert errors(load(inputs, name_extra)) == expected


def test_an_input_the_template_assigns_need_not_be_given() -> None:
    assignment = "      interfaces:\n        backup:\n          inputs: {location: /srv}"
    assert errors(load([NAME], assignment=assignment)) == []


def test_the_diagnostic_points_at_the_activity() -> None:
    st = load([LOCATION])
    (diag,) = [d for d in st.diagnostics if d.code == "missing-operation-input"]
    assert diag.path == (
        "service_template.workflows.backup.steps.backup_client.activities[0].call_operation"
    )
    assert diag.hint == "give it under 'inputs:' of the call_operation (name: ...)"


def test_an_operation_toskit_cannot_find_is_not_checked() -> None:
    text = TEMPLATE.format(inputs=LOCATION, name_extra="", assignment="").replace(
        "operation: backup.backup", "operation: backup.restore"
    )
    assert errors(toskit.loads(text)) == []
