"""Readers of toskit's CI reports, for the tests: each gives ``(file, line, column, code, severity)`` rows.

Each reader checks the structure its consumers require (the SARIF schema,
JUnit's element order and counts, GitHub's one-command-a-line) before it
reads the findings back, so a test that compares formats also checks that
each is well formed.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from urllib.parse import unquote

import jsonschema

SCHEMA = Path(__file__).parent.parent / "data" / "sarif" / "sarif-schema-2.1.0.json"

Row = tuple[str, "int | None", "int | None", str, str]


@cache
def sarif_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def validate_sarif(log: dict) -> None:
    """Raises (with every problem listed) unless ``log`` is valid SARIF 2.1.0."""
    problems = sorted(sarif_validator().iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not problems, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in problems[:20])


SARIF_SEVERITY = {"error": "error", "warning": "warning", "note": "info"}


def sarif_rows(text: str) -> list[Row]:
    log = json.loads(text)
    validate_sarif(log)
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    rows = []
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        region = physical.get("region", {})
        rows.append(
            (
                unquote(physical["artifactLocation"]["uri"]),
                region.get("startLine"),
                region.get("startColumn"),
                result["ruleId"],
                SARIF_SEVERITY[result["level"]],
            )
        )
    return rows


GITHUB_LINE = re.compile(r"^::(error|warning|notice) ([^:]*)::(.*)$")
GITHUB_SEVERITY = {"error": "error", "warning": "warning", "notice": "info"}


def _unescape(value: str) -> str:
    for escaped, char in (("%3A", ":"), ("%2C", ","), ("%0D", "\r"), ("%0A", "\n"), ("%25", "%")):
        value = value.replace(escaped, char)
    return value


def github_commands(text: str) -> list[tuple[str, dict[str, str], str]]:
    """``(command, properties, message)`` of each line; every line must be a command."""
    out = []
    for line in text.splitlines():
        match = GITHUB_LINE.match(line)
        assert match, f"not a workflow command: {line!r}"
        props = {}
        for item in match.group(2).split(","):
            key, sep, value = item.partition("=")
            assert sep and key in {"file", "line", "endLine", "col", "endColumn", "title"}, item
            props[key] = _unescape(value)
        out.append((match.group(1), props, _unescape(match.group(3))))
    return out


def github_rows(text: str) -> list[Row]:
    rows = []
    for command, props, _message in github_commands(text):
        line = int(props["line"]) if "line" in props else None
        col = int(props["col"]) if "col" in props else None
        rows.append((props["file"], line, col, props["title"], GITHUB_SEVERITY[command]))
    return rows


JUNIT_HEAD = re.compile(
    r"^(?P<file>.*?)(?::(?P<line>\d+)(?::(?P<col>\d+))?)?: (?P<sev>error|warning|info)\[(?P<code>[^\]]+)\]: "
)
_COUNTS = ("tests", "failures", "errors", "skipped")


def junit_tree(text: str) -> ET.Element:
    """The parsed report, after the structural checks JUnit readers make."""
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    suites = list(root)
    assert [s.tag for s in suites] == ["testsuite"]
    (suite,) = suites
    for element in (root, suite):
        for name in (*_COUNTS, "time"):
            assert re.fullmatch(r"\d+(\.\d+)?", element.get(name, "")), (element.tag, name)
    cases = list(suite)
    assert all(case.tag == "testcase" for case in cases)
    assert int(suite.get("tests")) == len(cases) == int(root.get("tests"))
    order = {"skipped": 0, "error": 1, "failure": 2, "system-out": 3, "system-err": 4}
    n_fail = n_err = 0
    for case in cases:
        assert case.get("name") and case.get("classname")
        tags = [child.tag for child in case]
        assert all(tag in order for tag in tags), tags
        assert tags == sorted(tags, key=order.__getitem__), tags  # junit-10.xsd's sequence
        assert tags.count("system-out") <= 1
        for child in case:
            if child.tag in ("failure", "error"):
                assert child.get("type") and child.get("message") is not None
        n_fail += tags.count("failure")
        n_err += tags.count("error")
    for element in (root, suite):
        assert (int(element.get("failures")), int(element.get("errors"))) == (n_fail, n_err)
    return root


def junit_rows(text: str) -> list[Row]:
    rows = []
    for case in junit_tree(text).iter("testcase"):
        for child in case:
            lines = (child.text or "").splitlines()
            if child.tag in ("failure", "error"):
                lines = lines[:1]  # its headline; the hint follows
            for line in lines:
                if line.startswith("  hint: "):
                    continue
                match = JUNIT_HEAD.match(line)
                assert match, line
                rows.append(
                    (
                        match.group("file"),
                        int(match.group("line")) if match.group("line") else None,
                        int(match.group("col")) if match.group("col") else None,
                        match.group("code"),
                        match.group("sev"),
                    )
                )
    return rows


TEXT_HEAD = re.compile(
    r"^(?P<file>[^\s].*?)(?::(?P<line>\d+)(?::(?P<col>\d+))?)?: (?P<sev>error|warning|info)\[(?P<code>[^\]]+)\]: "
)


def text_rows(out: str, err: str) -> list[Row]:
    """The headlines of ``toskit check``'s text output, and its unreadable files (on stderr)."""
    rows = []
    for line in out.splitlines():
        if line.startswith("checked ") or line.startswith(" "):
            continue  # a file's line, a source line, a caret, a hint
        match = TEXT_HEAD.match(line)
        assert match, line
        rows.append(
            (
                match.group("file"),
                int(match.group("line")) if match.group("line") else None,
                int(match.group("col")) if match.group("col") else None,
                match.group("code"),
                match.group("sev"),
            )
        )
    for line in err.splitlines():
        if line.startswith("toskit check: "):
            rows.append((line.split(": ")[1], None, None, "<unreadable>", "error"))
    return rows


def json_rows(out: str) -> list[Row]:
    rows = []
    for record in json.loads(out):
        if "error" in record:
            rows.append((record["file"], None, None, "<unreadable>", "error"))
            continue
        for d in record["diagnostics"]:
            rows.append(
                (d["file"] or record["file"], d["line"], d["column"], d["code"], d["severity"])
            )
    return rows
