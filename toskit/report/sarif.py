"""``toskit check --format sarif``: SARIF 2.1.0, for code scanning and review tools.

One run: the tool (``toskit`` with its version and one rule per diagnostic
code: every code :mod:`toskit.codes` lists and any other that a result
uses, each with a one-line description, its default level and a help link
into the docs), one result per finding listed by ``toskit check``, and one
invocation whose ``toolExecutionNotifications`` name each file that could
not be checked (unreadable, a CSAR that cannot be opened, a crash).

Choices the format leaves open, written down here:

* **Regions** are the text output's: ``startLine``/``startColumn`` are the
  ``file:line:column`` that ``toskit check`` prints, ``endLine``/``endColumn``
  the end of the span (exclusive, as SARIF counts and as toskit does).
  Columns count Unicode code points (``run.columnKind``), as Python does.
  A finding without a line has a location without a region.
* **Levels**: ``error`` -> ``error``, ``warning`` -> ``warning``, ``info``
  -> ``note``.
* **Messages** are the diagnostic's message, then ``hint: …`` on a line of
  its own when there is one; texts are abbreviated as the JSON output does.
* ``properties``: the node's ``path`` and, when known, the ``subject``
  (entity kind, name, path inside it) as ``toskit check --format json``
  has it.
* A summary of hidden findings (``N more 'code' diagnostics not shown``) is
  a result of its code with ``properties.omitted`` = N.
* A file that could not be checked is a result (code ``file-unreadable``,
  ``internal-error`` or ``csar-error``) *and* a notification, so code
  scanning shows it and SARIF readers that look at the invocation see the
  run was incomplete (``executionSuccessful`` false when a file could not
  be read or crashed, as the exit status is then 2).
* **Fixes**: each ``Fix`` of a finding is a SARIF fix (a
  ``deletedRegion`` with its ``insertedContent``).
* **Paths**: a relative path is written as a relative URI (``/``-separated,
  percent-encoded), an absolute one as a ``file:`` URI.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from toskit.diagnostics import Diagnostic, Fix, Related, abbreviate
from toskit.report import (
    CRASH,
    REPOSITORY,
    UNREADABLE,
    CheckedFile,
    findings,
    help_uri,
    is_execution_failure,
    known_codes,
    rule_info,
)

__all__ = ["SCHEMA_URI", "VERSION", "render", "sarif_log"]

VERSION = "2.1.0"
SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def artifact_uri(path: str) -> str:
    """A file name as a SARIF ``artifactLocation.uri``."""
    if os.path.isabs(path):
        return PurePath(path).as_uri()
    return quote(path.replace(os.sep, "/"), safe="/")


def message_text(diag: Diagnostic) -> str:
    """The message a result carries: the message, and the hint on its own line."""
    text = abbreviate(diag.message)
    if diag.hint:
        text += f"\nhint: {abbreviate(diag.hint)}"
    return text


def _region(
    line: int | None, column: int | None, end_line: int | None, end_column: int | None
) -> dict | None:
    if line is None or line < 1:
        return None
    region: dict[str, int] = {"startLine": line}
    if column is not None and column >= 1:
        region["startColumn"] = column
    if end_line is not None and end_line >= line:
        region["endLine"] = end_line
        start = region.get("startColumn")
        if (
            start is not None
            and end_column is not None
            and (end_line > line or end_column >= start)
        ):
            region["endColumn"] = end_column
    return region


def _physical(file: str | None, region: dict | None) -> dict:
    physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(file or "")}}
    if region:
        physical["region"] = region
    return physical


def _location(diag: Diagnostic, fallback: str) -> dict:
    region = _region(diag.line, diag.column, diag.end_line, diag.end_column)
    return {"physicalLocation": _physical(diag.file or fallback, region)}


def _related(index: int, related: Related, fallback: str) -> dict:
    region = _region(related.line, related.column, related.end_line, related.end_column)
    return {
        "id": index,
        "physicalLocation": _physical(related.file or fallback, region),
        "message": {"text": abbreviate(related.label)},
    }


def _fix(fix: Fix, fallback: str) -> dict:
    region = _region(fix.line, fix.column, fix.end_line, fix.end_column) or {"startLine": fix.line}
    return {
        "description": {"text": abbreviate(fix.title)},
        "artifactChanges": [
            {
                "artifactLocation": {"uri": artifact_uri(fix.file or fallback)},
                "replacements": [
                    {"deletedRegion": region, "insertedContent": {"text": fix.replacement}}
                ],
            }
        ],
    }


def _result(diag: Diagnostic, rule_index: int, fallback: str) -> dict:
    result: dict[str, Any] = {
        "ruleId": diag.code,
        "ruleIndex": rule_index,
        "level": LEVELS.get(diag.severity, "warning"),
        "message": {"text": message_text(diag)},
        "locations": [_location(diag, fallback)],
    }
    if diag.related:
        result["relatedLocations"] = [_related(i, r, fallback) for i, r in enumerate(diag.related)]
    if diag.fixes:
        result["fixes"] = [_fix(f, fallback) for f in diag.fixes]
    properties: dict[str, Any] = {}
    if diag.path:
        properties["path"] = abbreviate(diag.path)
    if diag.subject is not None:
        properties["subject"] = diag.subject.to_dict()
    if diag.omitted:
        properties["omitted"] = diag.omitted
    if properties:
        result["properties"] = properties
    return result


def _rule(code: str, seen_severity: str | None) -> dict:
    severity, description = rule_info(code, seen_severity)
    return {
        "id": code,
        "shortDescription": {"text": description},
        "helpUri": help_uri(code),
        "defaultConfiguration": {"level": LEVELS.get(severity, "warning")},
    }


def sarif_log(results: Iterable[CheckedFile]) -> dict:
    """The SARIF log (a JSON-ready dict) of one ``toskit check`` run."""
    from toskit import __version__

    per_file = [(result, findings(result)) for result in results]
    seen: dict[str, str] = {}
    for _file, found in per_file:
        for diag in found:
            seen.setdefault(diag.code, diag.severity)
    codes = sorted(set(known_codes()) | set(seen))
    index = {code: i for i, code in enumerate(codes)}
    sarif_results: list[dict] = []
    notifications: list[dict] = []
    complete = True
    for result, found in per_file:
        for diag in found:
            sarif_results.append(_result(diag, index[diag.code], result.path))
            if is_execution_failure(diag):
                complete = complete and diag.code not in (UNREADABLE, CRASH)
                notifications.append(
                    {
                        "level": "error",
                        "message": {"text": message_text(diag)},
                        "locations": [_location(diag, result.path)],
                        # The rule it stands for (a descriptor would name a notification kind).
                        "associatedRule": {"id": diag.code, "index": index[diag.code]},
                    }
                )
    invocation: dict[str, Any] = {"executionSuccessful": complete}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    return {
        "$schema": SCHEMA_URI,
        "version": VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "toskit",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": REPOSITORY,
                        "rules": [_rule(code, seen.get(code)) for code in codes],
                    }
                },
                "invocations": [invocation],
                "columnKind": "unicodeCodePoints",
                "results": sarif_results,
            }
        ],
    }


def render(results: Iterable[CheckedFile]) -> str:
    """The SARIF log of a run as JSON text (ASCII: every other character escaped)."""
    return json.dumps(sarif_log(results), indent=2) + "\n"
