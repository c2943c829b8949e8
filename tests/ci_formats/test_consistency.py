"""On the conformance corpus, every format lists the same findings at the same places (issue #34 item 8).

``toskit check`` runs once per format over ``conformance/oasis-tosca-2.0``
(every ``*.yaml`` in it); each report is read back by its own reader (which
also checks the format's structure: the SARIF schema, JUnit's shape, one
workflow command a line) into ``(file, line, column, code, severity)`` rows,
and the five multisets must be equal. The ends of spans, which text and
JUnit do not print, must agree between SARIF and GitHub (GitHub writes a
column end only for one-line spans).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from ci_reports import github_commands, github_rows, json_rows, junit_rows, sarif_rows, text_rows

from toskit import cli

ROOT = Path(__file__).resolve().parents[2]
CORPUS = "conformance/oasis-tosca-2.0"


@pytest.fixture(scope="module")
def outputs():
    """``{format: (status, stdout, stderr)}`` of one check of the corpus per format."""
    import contextlib
    import io
    import os

    here = os.getcwd()
    os.chdir(ROOT)  # relative paths, as CI passes them
    try:
        result = {}
        for fmt in ("text", "json", "sarif", "github", "junit"):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = cli.main(["check", "-j", "1", "--format", fmt, CORPUS])
            result[fmt] = (status, out.getvalue(), err.getvalue())
        return result
    finally:
        os.chdir(here)


def test_every_format_agrees_on_count_and_location(outputs):
    statuses = {fmt: status for fmt, (status, _, _) in outputs.items()}
    assert set(statuses.values()) == {1}, statuses  # the corpus has invalid files; none unreadable
    rows = {
        "text": text_rows(outputs["text"][1], outputs["text"][2]),
        "json": json_rows(outputs["json"][1]),
        "sarif": sarif_rows(outputs["sarif"][1]),
        "github": github_rows(outputs["github"][1]),
        "junit": junit_rows(outputs["junit"][1]),
    }
    counts = {fmt: Counter(r) for fmt, r in rows.items()}
    assert len(rows["text"]) > 150  # the corpus's invalid files have findings (229 when written)
    for fmt in ("json", "sarif", "github", "junit"):
        assert counts[fmt] == counts["text"], (
            fmt,
            (counts[fmt] - counts["text"]),
            (counts["text"] - counts[fmt]),
        )
    files = {f for f, *_ in rows["text"]}
    checked = sum(1 for p in (ROOT / CORPUS).rglob("*") if p.suffix in (".yaml", ".yml"))
    assert len(files) > 100 and all(f.startswith(CORPUS + "/") for f in files)  # 176 when written
    assert f"{checked} files checked" in outputs["text"][2]
    # JUnit has one testcase per file, findings or not.
    assert outputs["junit"][1].count("<testcase ") == checked


def test_span_ends_agree_between_sarif_and_github(outputs):
    results = json.loads(outputs["sarif"][1])["runs"][0]["results"]
    commands = github_commands(outputs["github"][1])
    assert len(results) == len(commands)
    with_end = 0
    for result, (_command, props, _message) in zip(results, commands):
        region = result["locations"][0]["physicalLocation"].get("region", {})
        assert str(region.get("startLine")) == props.get("line", "None")
        if "endLine" in region:
            with_end += 1
            assert props["endLine"] == str(region["endLine"])
            if region["endLine"] == region["startLine"] and "endColumn" in region:
                assert props["endColumn"] == str(region["endColumn"])
    assert with_end > len(results) // 2  # most findings have a span (issue #28)


def test_text_carets_span_the_sarif_region(outputs):
    """The text output underlines a finding's span; SARIF's region is that span, finding by finding."""
    text_out = outputs["text"][1]
    results = json.loads(outputs["sarif"][1])["runs"][0]["results"]
    assert [r[:4] for r in text_rows(text_out, "")] == [
        r[:4] for r in sarif_rows(outputs["sarif"][1])
    ]  # same order
    blocks: list[list[str]] = []
    for line in text_out.splitlines():
        if line.startswith("checked "):
            continue
        if not line.startswith(" "):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
    assert len(blocks) == len(results)
    compared = 0
    for block, result in zip(blocks, results):
        carets = [
            ln
            for ln in block
            if ln.strip().startswith("|") and set(ln.strip()[1:].strip()) == {"^"}
        ]
        region = result["locations"][0]["physicalLocation"].get("region", {})
        source = [ln for ln in block if ln.lstrip()[:1].isdigit() and " | " in ln]
        if not carets or "endColumn" not in region or region["endLine"] != region["startLine"]:
            continue
        shown = source[0].split(" | ", 1)[1]
        if len(shown) >= 120:
            continue  # a long line is cut around the column
        width = carets[0].count("^")
        assert width == max(
            1,
            min(
                region["endColumn"] - region["startColumn"], len(shown) - region["startColumn"] + 1
            ),
        ), block
        compared += 1
    assert compared > 100  # most findings are one-line spans on short lines


def test_span_ends_agree_between_json_and_sarif(outputs):
    records = [
        d for record in json.loads(outputs["json"][1]) for d in record.get("diagnostics", [])
    ]
    results = json.loads(outputs["sarif"][1])["runs"][0]["results"]
    assert len(records) == len(results)
    ends = 0
    for d, result in zip(records, results):
        region = result["locations"][0]["physicalLocation"].get("region", {})
        assert (d["code"], d["line"], d["column"]) == (
            result["ruleId"],
            region.get("startLine"),
            region.get("startColumn"),
        )
        assert d.get("end_line") == region.get("endLine")
        if d.get("end_column") is not None:
            assert d["end_column"] == region["endColumn"]
            ends += 1
    assert ends > len(results) // 2
