"""toskit.conditions.check_text: located diagnostics for `toskit check`."""

from __future__ import annotations

from fixtures.conditions import ROLES_TEXT, SEED_AS_WRITTEN
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toskit.conditions import check_text


def test_valid_roles_document_has_no_diagnostics():
    assert check_text(ROLES_TEXT, "roles.yaml") == []


def test_seed_as_written_gives_the_yaml_error():
    diags = check_text(SEED_AS_WRITTEN, "roles.yaml")
    assert [(d.code, d.line, d.column) for d in diags] == [("yaml-syntax", 11, 11)]
    assert "then:" in diags[0].hint


BAD = """\
roles_metadata:
  controller:
    conditions:
      - condition: "cluster:mode = 'x'"
        then: {all: ['cluster:nodes._size']}
        else: 3
      - bogus: true
    conflicts: 3
  other:
    conditions:
      - exists: {where: "cluster:nodes", variable: "<n>", condition: "<n>.id == 1"}
"""


def test_every_problem_is_reported_where_it_is():
    diags = check_text(BAD, "bad.yaml")
    found = [(d.code, d.line, d.column, d.path) for d in diags]
    assert found == [
        ("expression-syntax", 4, 34, "roles_metadata.controller.conditions[0].condition"),
        ("expression-error", 5, 37, "roles_metadata.controller.conditions[0].then.all[0]"),
        ("condition-schema", 6, 15, "roles_metadata.controller.conditions[0].else"),
        ("condition-schema", 7, 9, "roles_metadata.controller.conditions[1]"),
        ("condition-schema", 8, 16, "roles_metadata.controller.conflicts"),
        ("condition-schema", 11, 52, "roles_metadata.other.conditions[0].exists.variable"),
    ]
    assert all(d.severity == "error" and d.file == "bad.yaml" for d in diags)
    syntax = diags[0]
    assert syntax.message == "SyntaxError: Illegal character '='"
    assert "position 13" in syntax.hint
    assert "did you mean" in diags[3].message or "needs one of" in diags[3].message


def test_unknown_document():
    diags = check_text("a: 1\n", "x.yaml")
    assert [d.code for d in diags] == ["unknown-document"]


def test_diagnostics_render_with_caret():
    text = str(check_text(BAD, "bad.yaml")[0])
    assert (
        text.splitlines()[0]
        == "bad.yaml:4:34: error[expression-syntax]: SyntaxError: Illegal character '='"
    )
    assert text.splitlines()[-1].endswith("^")


LINES = [
    "roles_metadata:",
    "  r:",
    "    conditions:",
    "      - condition: \"cluster:mode == 'x'\"",
    "        then: true",
    "        else: {all: [true, 'x.y']}",
    "      - not: {exists: {where: a, variable: n}}",
    "    restrictions:",
    '      - "true": msg',
    "      - {condition: 1, action: hide}",
    "    limits: {min: 'a =', max: 2}",
    "    conflicts: '*'",
    "  s: 3",
    "- model: nailgun.release",
    "  fields:",
    "    name: x",
    "    roles_metadata: {r: {}}",
    "  extend: 3",
    "      - recommended: {expression: x, value: 1}",
    "\t",
    "  : :",
    "&a [*a]",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(LINES), max_size=12))
def test_check_text_never_raises(lines):
    diags = check_text("\n".join(lines) + "\n", "fuzz.yaml")
    assert all(d.file == "fuzz.yaml" for d in diags)


# --------------------------------------------------------------------------- Fuel forms (issue #17)

SHORT_FORM = """\
roles_metadata:
  controller:
    restrictions:
      - "settings:a.b == 1 = 2": "a message that is long"
      - settings:c.d == $: plain message
      - "settings:e.f ? == 1": false
"""


def test_short_form_restriction_errors_point_into_the_condition_not_the_message():
    diags = check_text(SHORT_FORM, "roles.yaml")
    placed = [(d.line, d.column, d.message) for d in diags]
    assert placed == [
        (4, 28, "SyntaxError: Illegal character '='"),
        (5, 25, "SyntaxError: Illegal character '$'"),
        (
            6,
            23,
            "SyntaxError: Unexpected '?' ('?' must follow a model path directly, without a space)",
        ),
    ]
    # the caret is under the offending character of the key
    assert str(diags[0]).splitlines()[-1].index("^") == str(diags[0]).splitlines()[-2].index("= 2")


WIZARD = """\
- pk: 1
  model: nailgun.release
  fields:
    name: R
    state: available
    roles_metadata:
      controller: {}
    wizard_metadata:
      Compute:
        vcenter:
          type: checkbox
      Network:
        manager:
          type: radio
          values:
            - data: nova-network
              restrictions:
                - "Compute.vcenter == true": "alert"
                - "Compute.vcenter = true": "broken"
"""


def test_wizard_bare_paths_check_and_errors_are_located():
    diags = check_text(WIZARD, "release.yaml")
    assert [(d.code, d.line, d.column, d.message) for d in diags] == [
        ("expression-syntax", 19, 36, "SyntaxError: Illegal character '='"),
    ]


DEPENDS = """\
- pk: 1
  model: nailgun.release
  fields:
    name: R
    state: available
    roles_metadata:
      mongo:
        depends:
          - condition:
              "settings:additional_components.ceilometer.value": true
            warning: "Ceilometer should be enabled"
          - "settings:a.b = 1": true
    attributes_metadata:
      editable:
        storage:
          volumes_ceph:
            value: false
            conflicts:
              - "settings:common.libvirt_type.value": "vcenter"
              - "settings:common.x.value": [1, 2]
"""


def test_depends_and_setting_conflicts_are_checked_where_written():
    diags = check_text(DEPENDS, "release.yaml")
    assert [(d.code, d.line, d.column) for d in diags] == [
        ("expression-syntax", 12, 27),
        ("condition-schema", 20, 44),
    ]
    assert "a 'depends' value must be null, a boolean, a number or a string" in diags[1].message
