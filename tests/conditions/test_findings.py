"""Structured findings of roles documents and Fuel release files (issue #28).

One table: each case is a small document and the one finding it must give,
with its code, its subject, the text its range underlines, and its fix (or
the tied candidates its hint names). Every code ``check_text`` emits is in
the table, and every finding of every case carries a range and a subject.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from toskit.conditions import check_text
from toskit.conditions.check import CODES
from toskit.diagnostics import Diagnostic, Subject


@dataclass(frozen=True)
class Case:
    text: str
    code: str
    subject: Subject
    underlined: str
    fix: str | None = None  # the replacement of the one fix
    tied: tuple[str, ...] = ()  # the candidates a tie's hint names
    related: tuple[str, ...] = ()  # the labels of the related locations


def roles(body: str) -> str:
    return "roles_metadata:\n" + body


def release(roles_body: str, extra: str = "") -> str:
    return (
        "- pk: 1\n"
        "  model: nailgun.release\n"
        "  fields:\n"
        "    name: R\n"
        "    state: available\n"
        "    roles_metadata:\n"
        f"{roles_body}"
        "    attributes_metadata:\n"
        "      editable:\n"
        "        storage:\n"
        "          volumes_ceph: {value: false}\n"
        "          volumes_abd: {value: false}\n"
        "          volumes_abe: {value: false}\n"
        f"{extra}"
    )


def role(name: str, **keys: str) -> Subject:
    return Subject("role", name, tuple(keys.get("path", ())))


CASES = {
    "schema-else-without-then": Case(
        roles('  c:\n    conditions:\n      - {condition: "true", else: false}\n'),
        "condition-schema",
        Subject("role", "c", ("conditions", 0, "else")),
        "false",
    ),
    "schema-misspelt-form-key-gets-a-rename": Case(
        roles('  c:\n    conditions:\n      - conditon: "true"\n'),
        "condition-schema",
        Subject("role", "c", ("conditions", 0)),
        'conditon: "true"',
        fix="condition",
    ),
    "schema-misspelt-exists-key-gets-a-rename": Case(
        roles(
            "  c:\n    conditions:\n      - exists:\n"
            '          where: "cluster:nodes"\n          variable: n\n'
            '          condition: "true"\n          varable: m\n'
        ),
        "condition-schema",
        Subject("role", "c", ("conditions", 0, "exists", "varable")),
        "varable",
        fix="variable",
    ),
    "schema-missing-key-beside-its-misspelling-is-one-finding": Case(
        roles(
            "  c:\n    conditions:\n      - exists:\n"
            '          were: "cluster:nodes"\n          variable: n\n'
            '          condition: "true"\n'
        ),
        "condition-schema",
        Subject("role", "c", ("conditions", 0, "exists", "were")),
        "were",
        fix="where",
    ),
    "schema-misspelt-sibling-key": Case(
        roles('  c:\n    conditions:\n      - {condition: "true", warnign: w}\n'),
        "condition-schema",
        Subject("role", "c", ("conditions", 0, "warnign")),
        "warnign",
        fix="warning",
    ),
    "schema-misspelt-restriction-key": Case(
        release(
            '      mongo:\n        restrictions:\n          - {condition: "true", mesage: m}\n'
        ),
        "condition-schema",
        Subject("role", "mongo", ("restrictions", 0, "mesage")),
        "mesage",
        fix="message",
    ),
    "schema-misspelt-limits-key": Case(
        release("      mongo:\n        limits: {min: 1, recomended: 3}\n"),
        "condition-schema",
        Subject("role", "mongo", ("limits", "recomended")),
        "recomended",
        fix="recommended",
    ),
    "schema-misspelt-override-key": Case(
        release(
            "      mongo:\n        limits:\n          overrides:\n"
            '            - {condition: "true", maxx: 3}\n'
        ),
        "condition-schema",
        Subject("role", "mongo", ("limits", "overrides", 0, "maxx")),
        "maxx",
        fix="max",
    ),
    "syntax-illegal-character": Case(
        roles("  c:\n    conditions:\n      - \"cluster:mode = 'x'\"\n"),
        "expression-syntax",
        Subject("role", "c", ("conditions", 0)),
        "=",
    ),
    "syntax-unterminated-string": Case(
        roles('  c:\n    conditions:\n      - "cluster:mode == \'x"\n'),
        "expression-syntax",
        Subject("role", "c", ("conditions", 0)),
        "'x",
    ),
    "syntax-end-of-input-is-an-empty-range": Case(
        roles('  c:\n    conditions:\n      - "cluster:mode =="\n'),
        "expression-syntax",
        Subject("role", "c", ("conditions", 0)),
        "",
    ),
    "error-unknown-special-member": Case(
        roles('  c:\n    conditions:\n      - condition: "cluster:nodes._size"\n'),
        "expression-error",
        Subject("role", "c", ("conditions", 0, "condition")),
        "_size",
    ),
    "error-unknown-variable": Case(
        roles("  c:\n    conditions:\n      - \"cluster.mode == 'x'\"\n"),
        "expression-error",
        Subject("role", "c", ("conditions", 0)),
        "cluster",
    ),
    "unknown-role-in-conflicts-one-candidate": Case(
        roles("  controller:\n    conflicts: [compte]\n  compute: {}\n"),
        "unknown-role",
        Subject("role", "controller", ("conflicts", 0)),
        "compte",
        fix="compute",
        related=("role 'compute' is defined here",),
    ),
    "unknown-role-in-conflicts-quoted": Case(
        roles("  controller:\n    conflicts:\n      - 'compte'\n  compute: {}\n"),
        "unknown-role",
        Subject("role", "controller", ("conflicts", 0)),
        "'compte'",
        fix="compute",
        related=("role 'compute' is defined here",),
    ),
    "unknown-role-tie-has-no-fix": Case(
        roles("  a:\n    conflicts: [db-host]\n  db-host1: {}\n  db-host2: {}\n"),
        "unknown-role",
        Subject("role", "a", ("conflicts", 0)),
        "db-host",
        tied=("db-host1", "db-host2"),
        related=("role 'db-host1' is defined here", "role 'db-host2' is defined here"),
    ),
    "unknown-role-in-hasRole": Case(
        roles(
            "  controller:\n    conditions:\n"
            "      - \"not (selectedNodes._withRole('contrller')._length > 1)\"\n"
        ),
        "unknown-role",
        Subject("role", "controller", ("conditions", 0)),
        "contrller",
        fix="controller",
        related=("role 'controller' is defined here",),
    ),
    "unknown-setting-group": Case(
        release(
            "      ceph-osd:\n        restrictions:\n"
            '          - "settings:storag.volumes_ceph.value == false"\n'
        ),
        "unknown-setting",
        Subject("role", "ceph-osd", ("restrictions", 0)),
        "storag",
        fix="storage",
        related=("settings group 'storage' is defined here",),
    ),
    "unknown-setting-attribute-in-a-limit": Case(
        release(
            "      ceph-osd:\n        limits:\n"
            '          recommended: "settings:storage.volumes_cepth.value"\n'
        ),
        "unknown-setting",
        Subject("role", "ceph-osd", ("limits", "recommended")),
        "volumes_cepth",
        fix="volumes_ceph",
        related=("setting 'volumes_ceph' is defined here",),
    ),
    "unknown-setting-tie-has-no-fix": Case(
        release(
            "      ceph-osd:\n        restrictions:\n"
            '          - "settings:storage.volumes_abc.value": "a tie"\n'
        ),
        "unknown-setting",
        Subject("role", "ceph-osd", ("restrictions", 0, "settings:storage.volumes_abc.value")),
        "volumes_abc",
        tied=("volumes_abd", "volumes_abe"),
        related=(
            "setting 'volumes_abd' is defined here",
            "setting 'volumes_abe' is defined here",
        ),
    ),
    "fuel-short-form-restriction-key": Case(
        release('      mongo:\n        restrictions:\n          - "a = 1": "message"\n'),
        "expression-syntax",
        Subject("role", "mongo", ("restrictions", 0, "a = 1")),
        "=",
    ),
    "fuel-setting-restriction": Case(
        release(
            "      compute: {}\n",
            "          volumes_lvm:\n"
            "            value: true\n"
            "            restrictions:\n"
            '              - "settings:storage.volumes_ceph.value =="\n',
        ),
        "expression-syntax",
        Subject("setting", "storage.volumes_lvm", ("restrictions", 0)),
        "",
    ),
    "fuel-wizard-restriction": Case(
        release(
            "      compute: {}\n",
            "    wizard_metadata:\n"
            "      Compute:\n"
            "        restrictions:\n"
            '          - "Compute.vcenter == tru e"\n',
        ),
        "expression-syntax",
        Subject("wizard", "Compute", ("restrictions", 0)),
        "e",
    ),
    "fuel-release-level-restriction": Case(
        release(
            "      compute: {}\n",
            "    networks_metadata:\n"
            "      neutron:\n"
            "        restrictions:\n"
            '          - "cluster:nodes._size"\n',
        ),
        "expression-error",
        Subject("release", "R", ("networks_metadata", "neutron", "restrictions", 0)),
        "_size",
    ),
    "fuel-release-records-unreadable": Case(
        "- pk: 1\n  model: nailgun.release\n  extend: 7\n  fields: {name: R}\n",
        "fuel-release",
        Subject("release", None, ()),
        "- pk: 1",
    ),
    "unknown-document": Case(
        "just: a mapping\n",
        "unknown-document",
        Subject("document", None, ()),
        "just: a mapping",
    ),
}


def _findings(case: Case, code: str) -> list[Diagnostic]:
    return [d for d in check_text(case.text, "doc.yaml") if d.code == code]


def _underlined(d: Diagnostic) -> str:
    assert d.source_line is not None and d.column is not None and d.end_column is not None
    if d.end_line != d.line:
        return d.source_line[d.column - 1 :]
    return d.source_line[d.column - 1 : d.end_column - 1]


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_each_finding_carries_range_subject_related_and_fix(case: Case):
    found = _findings(case, case.code)
    assert len(found) == 1, [str(d) for d in check_text(case.text, "doc.yaml")]
    d = found[0]
    assert d.subject == case.subject
    assert (d.line, d.column, d.end_line, d.end_column) != (None,) * 4
    assert d.end_line is not None and d.end_column is not None
    assert (d.end_line, d.end_column) >= (d.line, d.column)
    assert _underlined(d) == case.underlined
    assert tuple(r.label for r in d.related) == case.related
    if case.fix is not None:
        assert [f.replacement for f in d.fixes] == [case.fix]
        fix = d.fixes[0]
        # Applying the fix to the line gives the corrected name.
        line = d.source_line or ""
        fixed = line[: fix.column - 1] + fix.replacement + line[fix.end_column - 1 :]
        assert case.fix in fixed and fix.line == fix.end_line == d.line
        assert d.hint == f"did you mean '{case.fix}'?"
    else:
        assert d.fixes == ()
    if case.tied:
        assert d.hint is not None and "equally close" in d.hint
        assert all(f"'{name}'" in d.hint for name in case.tied)


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_every_finding_of_every_case_is_structured(case: Case):
    for d in check_text(case.text, "doc.yaml"):
        assert d.subject is not None, str(d)
        assert d.end_line is not None and d.end_column is not None, str(d)
        if d.hint and d.hint.startswith("did you mean"):
            # A did-you-mean either carries exactly one fix or names its tie.
            assert len(d.fixes) == 1 or "equally close" in d.hint, str(d)
        assert d.to_dict()["subject"] == d.subject.to_dict()


def test_every_code_check_text_emits_is_in_the_table():
    assert {case.code for case in CASES.values()} == set(CODES)


def test_a_name_far_from_every_role_is_allowed():
    """Spec §7.1: conflicts may name roles outside the document."""
    text = roles("  controller:\n    conflicts: [cinder-vmware, zzz]\n  cinder: {}\n")
    assert check_text(text, "doc.yaml") == []


def test_a_lenient_settings_path_is_not_checked():
    text = release(
        '      mongo:\n        restrictions:\n          - "settings:storage.volumes_cepth.value?"\n'
    )
    assert [d.code for d in check_text(text, "doc.yaml")] == []


def test_the_json_form_of_a_finding_has_its_structure():
    d = _findings(CASES["unknown-role-in-conflicts-one-candidate"], "unknown-role")[0]
    out = d.to_dict()
    assert out["subject"] == {"kind": "role", "name": "controller", "path": ["conflicts", 0]} | {
        k: v for k, v in out["subject"].items() if k not in ("kind", "name", "path")
    }
    assert out["fixes"][0]["replacement"] == "compute"
    assert (out["line"], out["column"], out["end_line"], out["end_column"]) == (3, 17, 3, 23)
    assert out["related"][0]["line"] == 4


def test_the_codes_are_in_toskits_table_of_codes():
    from toskit.codes import CODES as ALL

    assert all(ALL[code].area == "conditions" for code in CODES)
    assert {c for c, info in ALL.items() if info.area == "conditions"} == set(CODES)


# --------------------------------------------------------------------------- any text

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from toskit.conditions.syntax import token_span  # noqa: E402

EXPRESSION_TEXT = st.lists(
    st.sampled_from(list("ab_:.'\"()<>=! 01-?\t\u200b") + ["cluster:", "settings:", " in ", "._"]),
    max_size=16,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=EXPRESSION_TEXT, data=st.data())
def test_token_span_holds_the_position(text, data):
    position = data.draw(st.integers(0, len(text)))
    start, end = token_span(text, position)
    assert 0 <= start <= end <= len(text)
    if position >= len(text):
        assert (start, end) == (len(text), len(text))
    else:
        assert start <= position < end


@settings(max_examples=60, deadline=None)
@given(text=EXPRESSION_TEXT)
def test_any_expression_gives_structured_findings_inside_its_line(text):
    import json

    doc = roles(f"  c:\n    conditions:\n      - {json.dumps(text)}\n  compute: {{}}\n")
    for d in check_text(doc, "doc.yaml"):
        assert d.subject is not None and d.end_line is not None and d.end_column is not None
        assert (d.end_line, d.end_column) >= (d.line, d.column)
        if d.code.startswith("expression") and d.end_line == d.line == 4:
            line = d.source_line or ""
            assert d.end_column - 1 <= len(line)


# --------------------------------------------------------------------------- raised errors

from toskit.conditions import evaluate, load_roles  # noqa: E402
from toskit.errors import ConditionError  # noqa: E402

RAISED = {
    name: case
    for name, case in CASES.items()
    if case.text.startswith("roles_metadata:")
    and case.code in ("condition-schema", "expression-syntax", "expression-error")
}


def test_the_raised_table_covers_every_static_error_code():
    assert {case.code for case in RAISED.values()} == {
        "condition-schema",
        "expression-syntax",
        "expression-error",
    }


@pytest.mark.parametrize("case", list(RAISED.values()), ids=list(RAISED))
def test_load_roles_raises_the_finding_check_text_gives(case: Case):
    """The error ``load_roles`` raises carries the range, subject and fix
    ``toskit check`` gives the same document (the gap left by #28)."""
    with pytest.raises(ConditionError) as info:
        load_roles(case.text)
    d = info.value.diagnostic
    assert d.code == case.code
    assert d.subject == case.subject
    assert d.file == "<string>" and d.end_line is not None
    assert _underlined(d) == case.underlined
    assert [f.replacement for f in d.fixes] == ([case.fix] if case.fix else [])
    checked = _findings(case, case.code)[0]
    assert (d.line, d.column, d.end_line, d.end_column) == (
        checked.line,
        checked.column,
        checked.end_line,
        checked.end_column,
    )
    # the path stays the one the message names (without roles_metadata)
    assert d.path == info.value.path


def test_load_roles_from_a_file_names_the_file(tmp_path):
    path = tmp_path / "roles.yaml"
    path.write_text("roles_metadata:\n  compute:\n    conditions:\n      - 'cluster:mode =='\n")
    with pytest.raises(ConditionError) as info:
        load_roles(path)
    d = info.value.diagnostic
    assert d.file is not None and d.file.endswith("roles.yaml")
    assert (d.line, d.column, d.end_line, d.end_column) == (4, 25, 4, 25)
    assert d.subject == Subject("role", "compute", ("conditions", 0))


@pytest.mark.parametrize(
    "source, subject",
    [
        # a bare role map (no roles_metadata key) is read as one
        ("compute:\n  conditions: ['a ==']\n", Subject("role", "compute", ("conditions", 0))),
        ("- 1\n", Subject("document", None, ())),
    ],
)
def test_load_roles_text_without_roles_metadata(source, subject):
    with pytest.raises(ConditionError) as info:
        load_roles(source)
    d = info.value.diagnostic
    assert d.subject == subject and d.line is not None and d.end_column is not None


def test_load_roles_from_data_has_a_subject_and_no_made_up_range():
    with pytest.raises(ConditionError) as info:
        load_roles({"roles_metadata": {"mongo": {"restrictions": ["a =="]}}})
    d = info.value.diagnostic
    assert d.subject == Subject("role", "mongo", ("restrictions", 0))
    assert (d.file, d.line, d.end_line) == (None, None, None)


@pytest.mark.parametrize(
    "condition, subject, where, underlined",
    [
        # one expression: the range is in the text as given (blanks kept)
        ("cluster:mode ==", (), (1, 16, 1, 16), ""),
        ("   cluster:mode = 'x'", (), (1, 17, 1, 18), "="),
        # YAML text: located in its lines, subject the path in the condition
        ("all:\n  - true\n  - 'a = 1'\n", ("all", 1), (3, 8, 3, 9), "="),
        ("any: [true, 'cluster:nodes._size']", ("any", 1), (1, 28, 1, 33), "_size"),
        # raised while evaluating (strict): located where it is written
        ("all:\n  - true\n  - 'cluster:nope == 1'\n", ("all", 1), (3, 6, 3, 14), "cluster:"),
        ("cluster:nope.x == 1", (), (1, 1, 1, 9), "cluster:"),
    ],
)
def test_evaluate_errors_carry_range_and_subject(condition, subject, where, underlined):
    with pytest.raises(ConditionError) as info:
        evaluate(condition)
    d = info.value.diagnostic
    assert d.subject == Subject("condition", None, subject)
    assert d.file == "<condition>"
    assert (d.line, d.column, d.end_line, d.end_column) == where
    assert _underlined(d) == underlined
    assert d.path  # the place is named, also for an error raised while evaluating


def test_evaluate_misspelt_form_key_in_text_gets_the_rename():
    with pytest.raises(ConditionError) as info:
        evaluate("al: [true]\n")
    d = info.value.diagnostic
    assert d.subject == Subject("condition", None, ())
    assert [(f.replacement, f.line, f.column, f.end_column) for f in d.fixes] == [("all", 1, 1, 3)]


def test_evaluate_data_has_a_subject_and_no_range():
    with pytest.raises(ConditionError) as info:
        evaluate({"not": {"all": [True, "a =="]}})
    d = info.value.diagnostic
    assert d.subject == Subject("condition", None, ("not", "all", 1))
    assert (d.file, d.line) == (None, None)
