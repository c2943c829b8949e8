"""``toskit diff --format github|sarif``: only what NEW introduces, located in NEW (issue #34 item 4).

The README's review example: v1 has a type mismatch (``storage_gb:
fifty``) that v2 fixes, and v2 brings one of its own (``port: "8443"``) and
changes values (images, a default, an input).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ci_reports import github_commands, sarif_rows, validate_sarif

from toskit import cli
from toskit.codes import CODES
from toskit.report.diff import CHANGED_VALUE, _location

REVIEW = Path(__file__).resolve().parents[2] / "notebooks" / "examples" / "review"


@pytest.fixture
def here(monkeypatch):
    monkeypatch.chdir(REVIEW)


def run(argv, capsys):
    status = cli.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_github_lists_only_the_introduced_error(here, capsys):
    status, out, _ = run(["diff", "--format", "github", "v1.yaml", "v2.yaml"], capsys)
    assert status == 0
    ((command, props, message),) = github_commands(out)
    assert command == "error" and props["title"] == "type-mismatch"
    assert (props["file"], props["line"], props["col"]) == ("v2.yaml", "55", "17")
    assert "'8443'" in message and "fifty" not in out  # the fixed one is not reported
    status, _, err = run(
        ["diff", "--format", "github", "--fail-on", "new-errors", "v1.yaml", "v2.yaml"], capsys
    )
    assert status == 1 and "introduces 1 error" in err
    # The other way round, v1 introduces the 'fifty' mismatch, at its line in v1.
    _, out, _ = run(["diff", "--format", "github", "v2.yaml", "v1.yaml"], capsys)
    ((_, props, message),) = github_commands(out)
    assert (props["file"], props["line"]) == ("v1.yaml", "58") and "fifty" in message


def test_sarif_with_fail_on_changes_adds_the_changed_values_in_new(here, capsys):
    status, out, _ = run(["diff", "--format", "sarif", "v1.yaml", "v2.yaml"], capsys)
    assert status == 0
    assert [(f, line, code) for f, line, _c, code, _s in sarif_rows(out)] == [
        ("v2.yaml", 55, "type-mismatch")
    ]
    status, out, _ = run(
        ["diff", "--format", "sarif", "--fail-on", "changes", "v1.yaml", "v2.yaml"], capsys
    )
    assert status == 1
    log = json.loads(out)
    validate_sarif(log)
    rows = sarif_rows(out)
    assert all(f == "v2.yaml" and line for f, line, *_ in rows)  # located in NEW, every one
    changed = [r for r in log["runs"][0]["results"] if r["ruleId"] == CHANGED_VALUE]
    texts = [r["message"]["text"] for r in changed]
    assert "node template 'web': image changed from 'shop/web:1.8' to 'shop/web:1.9'" in texts
    assert any("replicas changed from 2 to 3 (set by input: web_replicas)" in t for t in texts)
    image = next(r for r in changed if "'shop/web:1.9'" in r["message"]["text"])
    region = image["locations"][0]["physicalLocation"]["region"]
    line = (REVIEW / "v2.yaml").read_text().splitlines()[region["startLine"] - 1]
    assert line[region["startColumn"] - 1 :].startswith("shop/web:1.9")
    assert all(r["level"] == "warning" for r in changed)
    assert CHANGED_VALUE in CODES


def test_same_file_reports_nothing(here, capsys):
    status, out, _ = run(
        ["diff", "--format", "github", "--fail-on", "changes", "v2.yaml", "v2.yaml"], capsys
    )
    assert (status, out) == (0, "")
    status, out, _ = run(["diff", "--format", "sarif", "v2.yaml", "v2.yaml"], capsys)
    validate_sarif(json.loads(out))
    assert json.loads(out)["runs"][0]["results"] == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("v2.yaml:55:17", ("v2.yaml", 55, 17)),
        ("C:/x/v2.yaml:5:1", ("C:/x/v2.yaml", 5, 1)),
        ("v2.yaml:7", ("v2.yaml", 7, None)),
        ("git:main:t.yaml:3:2", ("git:main:t.yaml", 3, 2)),
        (None, (None, None, None)),
        ("", (None, None, None)),
    ],
)
def test_location_strings(text, expected):
    assert _location(text) == expected


def test_a_side_that_cannot_be_read_is_a_finding_in_the_report(here, capsys):
    status, out, err = run(["diff", "--format", "sarif", "v1.yaml", "missing.yaml"], capsys)
    assert status == 2 and "missing.yaml" in err
    log = json.loads(out)
    validate_sarif(log)
    ((result,),) = [log["runs"][0]["results"]]
    assert result["ruleId"] == "file-unreadable" and "missing.yaml" in result["message"]["text"]
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
    status, out, _ = run(["diff", "--format", "github", "nothere.yaml", "v2.yaml"], capsys)
    ((command, props, message),) = github_commands(out)
    assert (
        status == 2
        and command == "error"
        and props["title"] == "file-unreadable"
        and "nothere.yaml" in message
    )
