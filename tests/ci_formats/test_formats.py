"""``toskit check --format sarif|github|junit`` (issue #34 items 1-3 and "bad input")."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from ci_reports import (
    github_commands,
    github_rows,
    junit_rows,
    junit_tree,
    sarif_rows,
    validate_sarif,
)

from toskit import __version__, cli
from toskit.codes import CODES
from toskit.diagnostics import Diagnostic, Fix, Related, Subject
from toskit.report import CRASH, REPOSITORY, UNREADABLE, github, junit, sarif

ROOT = Path(__file__).resolve().parents[2]

TYPO = """\
tosca_definitions_version: tosca_2_0
node_types:
  Db:
    properties:
      port: {type: integer}
service_template:
  node_templates:
    db:
      type: Db
      properties:
        prot: 3
"""


def run(argv, capsys):
    status = cli.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def rich() -> cli.FileResult:
    """A result whose findings use every field a report carries."""
    diags = [
        Diagnostic(
            "error",
            "unknown-property",
            "node template 'db': unknown property 'prot'",
            ("service_template", "node_templates", "db", "properties", "prot"),
            file="svc.yaml",
            line=11,
            column=9,
            hint="did you mean 'port'?",
            end_line=11,
            end_column=13,
            related=(Related("declared here", "svc.yaml", 5, 7, 5, 11),),
            subject=Subject("node_template", "db", ("prot",)),
            fixes=(Fix("rename 'prot' to 'port'", "port", "svc.yaml", 11, 9, 11, 13),),
        ),
        Diagnostic(
            "warning",
            "missing-version",
            "no tosca_definitions_version",
            file="svc.yaml",
            line=1,
            column=1,
        ),
        Diagnostic(
            "info",
            "import-cycle",
            "imports loop",
            file="svc.yaml",
            line=2,
            column=3,
            end_line=4,
            end_column=1,
        ),
        Diagnostic(
            "error",
            "type-mismatch",
            "250 more 'type-mismatch' diagnostics not shown",
            file="svc.yaml",
            line=20,
            column=5,
            omitted=250,
        ),
    ]
    return cli.FileResult("svc.yaml", "tosca", "TOSCA 2.0 template", "2.0", diags)


# ---- SARIF --------------------------------------------------------------------


def test_sarif_is_valid_and_carries_every_field():
    log = sarif.sarif_log([rich()])
    validate_sarif(log)
    (run_,) = log["runs"]
    driver = run_["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("toskit", __version__)
    rules = {rule["id"]: rule for rule in driver["rules"]}
    # One rule per code toskit can emit, each with a description, a level and a help link.
    assert set(CODES) <= set(rules)
    assert (
        rules["unknown-property"]["shortDescription"]["text"]
        == CODES["unknown-property"].description
    )
    assert rules["import-cycle"]["defaultConfiguration"]["level"] == "note"
    assert all(
        rule["helpUri"].startswith(REPOSITORY + "/blob/main/docs/ci.md#") for rule in rules.values()
    )
    first, warning, info, summary = run_["results"]
    assert (first["ruleId"], first["level"]) == ("unknown-property", "error")
    assert driver["rules"][first["ruleIndex"]]["id"] == "unknown-property"
    assert (
        first["message"]["text"]
        == "node template 'db': unknown property 'prot'\nhint: did you mean 'port'?"
    )
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "svc.yaml"},
        "region": {"startLine": 11, "startColumn": 9, "endLine": 11, "endColumn": 13},
    }
    assert first["relatedLocations"] == [
        {
            "id": 0,
            "physicalLocation": {
                "artifactLocation": {"uri": "svc.yaml"},
                "region": {"startLine": 5, "startColumn": 7, "endLine": 5, "endColumn": 11},
            },
            "message": {"text": "declared here"},
        }
    ]
    assert first["fixes"] == [
        {
            "description": {"text": "rename 'prot' to 'port'"},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "svc.yaml"},
                    "replacements": [
                        {
                            "deletedRegion": {
                                "startLine": 11,
                                "startColumn": 9,
                                "endLine": 11,
                                "endColumn": 13,
                            },
                            "insertedContent": {"text": "port"},
                        }
                    ],
                }
            ],
        }
    ]
    assert first["properties"]["path"] == "service_template.node_templates.db.properties.prot"
    assert first["properties"]["subject"] == Subject("node_template", "db", ("prot",)).to_dict()
    assert (warning["level"], info["level"]) == ("warning", "note")
    assert info["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 2,
        "startColumn": 3,
        "endLine": 4,
        "endColumn": 1,
    }
    assert summary["properties"]["omitted"] == 250
    assert run_["columnKind"] == "unicodeCodePoints"
    assert run_["invocations"] == [{"executionSuccessful": True}]


def test_sarif_region_equals_the_text_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("svc.yaml").write_text(TYPO)
    _, text, _ = run(["check", "-j", "1", "svc.yaml"], capsys)
    _, sarif_text, _ = run(["check", "-j", "1", "--format", "sarif", "svc.yaml"], capsys)
    heads = re.findall(r"^(svc\.yaml):(\d+):(\d+): (\w+)\[([\w-]+)\]", text, re.M)
    assert heads, text
    assert [(f, int(l_), int(c), code, sev) for f, l_, c, sev, code in heads] == sarif_rows(
        sarif_text
    )


def test_sarif_paths_are_uris():
    weird = cli.FileResult(
        "dir with space/ä#1.yaml",
        "yaml",
        "plain YAML",
        None,
        [
            Diagnostic(
                "error", "yaml-syntax", "bad", file="dir with space/ä#1.yaml", line=1, column=1
            )
        ],
    )
    absolute = cli.FileResult(
        "/tmp/x y.yaml",
        "yaml",
        "plain YAML",
        None,
        [Diagnostic("error", "duplicate-key", "dup", file="/tmp/x y.yaml", line=2, column=1)],
    )
    log = sarif.sarif_log([weird, absolute])
    validate_sarif(log)
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    ]
    assert uris == ["dir%20with%20space/%C3%A4%231.yaml", "file:///tmp/x%20y.yaml"]


def test_sarif_declares_a_rule_for_a_code_toskit_does_not_list():
    result = cli.FileResult(
        "a.yaml",
        "yaml",
        "plain YAML",
        None,
        [Diagnostic("warning", "my-house-rule", "no tabs", file="a.yaml", line=1, column=1)],
    )
    log = sarif.sarif_log([result])
    validate_sarif(log)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    rule = rules[log["runs"][0]["results"][0]["ruleIndex"]]
    assert rule["id"] == "my-house-rule"
    assert rule["shortDescription"]["text"] == "My house rule"
    assert rule["defaultConfiguration"]["level"] == "warning"


def test_repository_link_is_the_projects():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^Repository = "(.*)"$', pyproject, re.M).group(1) == REPOSITORY


def test_docs_have_the_help_section():
    assert "## Diagnostic codes" in (ROOT / "docs" / "ci.md").read_text()


# ---- GitHub -------------------------------------------------------------------


def test_github_one_command_per_finding():
    text = github.render([rich()])
    commands = github_commands(text)
    assert [c for c, _, _ in commands] == ["error", "warning", "notice", "error"]
    command, props, message = commands[0]
    assert props == {
        "file": "svc.yaml",
        "line": "11",
        "endLine": "11",
        "col": "9",
        "endColumn": "13",
        "title": "unknown-property",
    }
    assert message == "node template 'db': unknown property 'prot'\nhint: did you mean 'port'?"
    assert text.splitlines()[0] == (
        "::error file=svc.yaml,line=11,endLine=11,col=9,endColumn=13,title=unknown-property::"
        "node template 'db': unknown property 'prot'%0Ahint: did you mean 'port'?"
    )
    # A span over several lines: no columns' end (GitHub ignores it there).
    assert commands[2][1] == {
        "file": "svc.yaml",
        "line": "2",
        "endLine": "4",
        "col": "3",
        "title": "import-cycle",
    }


@pytest.mark.parametrize(
    "message",
    [
        "two\nlines",
        "cr\rlf\r\n",
        "100% sure, 50%0A",
        "::stop-commands::x",
        "a\n::error::forged",
        "esc \x1b]0;title\x07 and \x1b[31mred",
        "nul \x00 del \x7f c1 \x9b",
    ],
)
def test_github_escapes_messages(message):
    file = "a,b:c%.yaml"
    result = cli.FileResult(
        file,
        "yaml",
        "plain YAML",
        None,
        [Diagnostic("error", "yaml-syntax", message, file=file, line=1, column=1)],
    )
    text = github.render([result])
    assert text.count("\n") == 1  # one line: nothing can start a command of its own
    ((command, props, decoded),) = github_commands(text)
    assert props["file"] == file and command == "error"
    assert "\x1b" not in text and "\x00" not in text and "\x9b" not in text and "\r" not in text
    if not any(ord(ch) < 32 and ch not in "\r\n" or 0x7F <= ord(ch) <= 0x9F for ch in message):
        assert decoded == message  # % CR LF round-trip exactly


def test_github_is_the_default_under_actions(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("svc.yaml").write_text(TYPO)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    status, out, _ = run(["check", "-j", "1", "svc.yaml"], capsys)
    assert status == 1
    assert out.startswith("::error file=svc.yaml,line=")
    _, out, _ = run(["check", "-j", "1", "--format", "text", "svc.yaml"], capsys)
    assert out.startswith("checked svc.yaml")  # an explicit --format wins
    monkeypatch.setenv("GITHUB_ACTIONS", "false")
    _, out, _ = run(["check", "-j", "1", "svc.yaml"], capsys)
    assert out.startswith("checked svc.yaml")


# ---- JUnit --------------------------------------------------------------------


def test_junit_one_suite_one_case_per_file_one_failure_per_error():
    clean = cli.FileResult("ok.yaml", "yaml", "plain YAML", None, [])
    text = junit.render([rich(), clean])
    root = junit_tree(text)
    (suite,) = root
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("2", "2", "0")
    first, second = suite
    assert first.get("name") == "svc.yaml" and second.get("name") == "ok.yaml"
    assert list(second) == []  # a clean file is a passing test
    failures = first.findall("failure")
    assert [f.get("type") for f in failures] == ["unknown-property", "type-mismatch"]
    assert failures[0].get("message") == "11:9: node template 'db': unknown property 'prot'"
    assert failures[0].text.splitlines() == [
        "svc.yaml:11:9: error[unknown-property]: node template 'db': unknown property 'prot'",
        "  hint: did you mean 'port'?",
    ]
    out = first.find("system-out").text.splitlines()
    assert out == [
        "svc.yaml:1:1: warning[missing-version]: no tosca_definitions_version",
        "svc.yaml:2:3: info[import-cycle]: imports loop",
    ]


def test_junit_survives_hostile_text():
    nasty = 'nul\x00 esc\x1b[31m vt\x0b ff\x0c surrogate\ud800 fffe\ufffe ]]> <tag> & "q"'
    result = cli.FileResult(
        "x<&>.yaml",
        "yaml",
        "plain YAML",
        None,
        [
            Diagnostic(
                "error",
                "yaml-syntax",
                nasty,
                file="x<&>.yaml",
                line=1,
                column=1,
                hint="line\nbreak",
            )
        ],
    )
    text = junit.render([result])
    text.encode("utf-8")  # no lone surrogate left
    root = junit_tree(text)
    failure = root.find("testsuite/testcase/failure")
    assert '<tag> & "q"' in failure.get("message") and "]]>" in failure.text
    assert "\x00" not in failure.text and "\x1b" not in failure.get("message")
    assert root.find("testsuite/testcase").get("name") == "x<&>.yaml"


# ---- bad input: every file is in every report ------------------------------------


@pytest.fixture
def bad_inputs(tmp_path, monkeypatch):
    """Six files: a typo, a missing file, a non-UTF-8 file, a broken CSAR, one that crashes, a clean one."""
    monkeypatch.chdir(tmp_path)
    Path("typo.yaml").write_text(TYPO)
    Path("latin1.yaml").write_bytes(b"a: caf\xe9\n")
    Path("bad.csar").write_bytes(b"PK\x03\x04 not really a zip")
    Path("crash.yaml").write_text("roles_metadata:\n  controller: {}\n")
    Path("ok.yaml").write_text("a: 1\n")
    monkeypatch.setattr(cli, "CHECKERS", dict(cli.CHECKERS))

    def crashing(text, name):
        raise RuntimeError("boom\n::error::forged")

    cli.register_checker("roles", crashing)
    return ["typo.yaml", "missing.yaml", "latin1.yaml", "bad.csar", "crash.yaml", "ok.yaml"]


EXPECTED_FAILURES = {
    "missing.yaml": UNREADABLE,
    "latin1.yaml": UNREADABLE,
    "bad.csar": "csar-error",
    "crash.yaml": CRASH,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_bad_input_is_a_finding_of_its_file_in_every_format(bad_inputs, capsys, jobs):
    codes = {}
    for fmt, reader in (("sarif", sarif_rows), ("github", github_rows), ("junit", junit_rows)):
        status, out, err = run(["check", "-j", jobs, "--format", fmt, *bad_inputs], capsys)
        assert status == 2, err
        rows = reader(out)
        by_file = {}
        for file, *_rest, code, _sev in rows:
            by_file.setdefault(file, set()).add(code)
        for file, code in EXPECTED_FAILURES.items():
            assert code in by_file.get(file, set()), (fmt, file, by_file)
        assert "unknown-property" in by_file["typo.yaml"] or "unknown-type" in by_file["typo.yaml"]
        codes[fmt] = Counter((f, c) for f, *_r, c, _s in rows)
        if fmt == "sarif":
            invocation = json.loads(out)["runs"][0]["invocations"][0]
            assert invocation["executionSuccessful"] is False
            notified = {
                (
                    n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                    n["associatedRule"]["id"],
                )
                for n in invocation["toolExecutionNotifications"]
            }
            assert notified == set(EXPECTED_FAILURES.items())
            crash = next(r for r in json.loads(out)["runs"][0]["results"] if r["ruleId"] == CRASH)
            assert "RuntimeError: boom" in crash["message"]["text"]
        if fmt == "github":
            assert len(out.splitlines()) == len(rows)  # the crash's newline did not forge a command
        if fmt == "junit":
            cases = {c.get("name"): c for c in junit_tree(out).iter("testcase")}
            assert set(cases) == set(bad_inputs)
            assert cases["crash.yaml"].find("error").get("type") == CRASH
            assert list(cases["ok.yaml"]) == []
    assert codes["sarif"] == codes["github"] == codes["junit"]


def test_text_and_json_report_the_crash_too(bad_inputs, capsys):
    status, out, err = run(["check", "-j", "1", *bad_inputs], capsys)
    assert status == 2
    assert "crash.yaml: toskit failed while checking it (RuntimeError: boom" in err
    assert "checked ok.yaml as plain YAML: 0 errors" in out  # the files after it are still checked
    status, out, _ = run(["check", "-j", "1", "--format", "json", *bad_inputs], capsys)
    records = {r["file"]: r for r in json.loads(out)}
    assert set(records) == set(bad_inputs)
    assert "RuntimeError" in records["crash.yaml"]["error"]


def test_every_code_has_its_row_in_the_docs():
    """Each rule's helpUri (docs/ci.md#CODE) lands on a row of the codes table."""
    docs = (ROOT / "docs" / "ci.md").read_text()
    missing = [code for code in CODES if f'<a id="{code}"></a>`{code}`' not in docs]
    assert not missing, f"add a row to docs/ci.md's 'Diagnostic codes' table for: {missing}"
    log = sarif.sarif_log([rich()])
    for rule in log["runs"][0]["tool"]["driver"]["rules"]:
        assert rule["helpUri"] == f"{REPOSITORY}/blob/main/docs/ci.md#{rule['id']}"


def test_reports_show_control_characters_as_the_text_output_does():
    from toskit.report import visible
    from toskit.terminal import terminal_safe

    every = "".join(chr(i) for i in range(0x3000))
    assert visible(every) == terminal_safe(every)
