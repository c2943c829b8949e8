"""Machine-readable reports of ``toskit check`` for CI: SARIF, GitHub annotations, JUnit.

Each format is a pure function from the per-file results of a check to
text (:func:`toskit.report.sarif.render`, :func:`toskit.report.github.render`,
:func:`toskit.report.junit.render`); ``toskit.cli`` only chooses one and
prints what it returns.

A per-file result is anything shaped like ``toskit.cli.FileResult``
(:class:`CheckedFile`): the path, the kind of document, its diagnostics, and
``error`` set when the file could not be checked at all. Such a file is
still *a finding of that file* in every format (issue #34, "bad input"):
:func:`findings` turns it into one diagnostic, code :data:`UNREADABLE`
(the file could not be read: missing, not UTF-8, a directory, a device) or
:data:`CRASH` (toskit failed while checking it), so no file of a run is
ever missing from a report. A CSAR that cannot be opened is already a
``csar-error`` diagnostic of its file. SARIF also lists all three as
``toolExecutionNotifications`` of the run (:func:`is_execution_failure`).

Which rules a report declares, their severity and one-line description come
from :mod:`toskit.codes` (:func:`rule_info`); a code it does not list (a
user's registered checker may use any) is still declared, described by its
name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from toskit.diagnostics import Diagnostic
from toskit.terminal import terminal_safe

__all__ = [
    "CRASH",
    "DOCS_URL",
    "REPOSITORY",
    "UNREADABLE",
    "CheckedFile",
    "findings",
    "help_uri",
    "is_execution_failure",
    "known_codes",
    "rule_info",
    "visible",
]

#: Code of the finding that stands for a file that could not be read.
UNREADABLE = "file-unreadable"
#: Code of the finding that stands for a file whose check crashed.
CRASH = "internal-error"
#: Codes that mean "toskit could not check this file" (SARIF: also a notification).
EXECUTION_FAILURES = frozenset({UNREADABLE, CRASH, "csar-error"})

#: Where toskit is published (``[project.urls] Repository`` in pyproject.toml; a test keeps them
#: equal).
REPOSITORY = "https://github.com/toskit/toskit"
#: The documentation page that explains the codes (rules' help links point into it).
DOCS_URL = f"{REPOSITORY}/blob/main/docs/ci.md"


class CheckedFile(Protocol):
    """What a report needs of one checked file (``toskit.cli.FileResult`` is one)."""

    path: str
    kind: str
    label: str
    diagnostics: list[Diagnostic]
    error: str | None


def visible(text: str) -> str:
    """``text`` with every control character shown as a visible stand-in of its own.

    The stand-ins of ``toskit check``'s text output (one table:
    :func:`toskit.terminal.terminal_safe`), so a key seen in
    an annotation reads as it does in the terminal; no control character
    reaches a CI log or an XML report.

    >>> visible("a\\x1b[31mb\\n")
    'a␛[31mb␊'
    """
    return terminal_safe(text)


def findings(result: CheckedFile) -> list[Diagnostic]:
    """The findings of one file as every format lists them.

    A file that could not be checked (``result.error``) is one error finding
    of that file (code :data:`UNREADABLE`, or :data:`CRASH` when the result
    says ``crashed``), so it shows in every format.
    """
    if result.error is None:
        return list(result.diagnostics)
    code = CRASH if getattr(result, "crashed", False) else UNREADABLE
    return [Diagnostic("error", code, result.error, file=result.path)]


def is_execution_failure(diag: Diagnostic) -> bool:
    """True for a finding that means the file could not be checked at all."""
    return diag.code in EXECUTION_FAILURES


def rule_info(code: str, seen_severity: str | None = None) -> tuple[str, str]:
    """``(usual severity, one-line description)`` of a diagnostic code.

    From :data:`toskit.codes.CODES`; a code it does not list (a checker
    registered by a user may use any) gets the severity it was seen with
    (``warning`` when unknown) and a description made of its name
    (``my-check`` -> ``My check``).
    """
    from toskit.codes import code_info

    info = code_info(code)
    if info is not None:
        return info.severity, info.description
    return seen_severity or "warning", code.replace("-", " ").capitalize()


def known_codes() -> list[str]:
    """Every code toskit can emit (:data:`toskit.codes.CODES`), sorted."""
    from toskit.codes import CODES

    return sorted(CODES)


def help_uri(code: str) -> str:
    """The documentation link of a code (a SARIF rule's ``helpUri``): its row in ``docs/ci.md``.

    ``tests/ci_formats`` keeps a row (an anchor named after the code) there
    for every code of :data:`toskit.codes.CODES`; a code toskit does not list
    links to the table itself.
    """
    from toskit.codes import code_info

    return f"{DOCS_URL}#{code}" if code_info(code) is not None else f"{DOCS_URL}#diagnostic-codes"


def all_findings(results: Iterable[CheckedFile]) -> Sequence[tuple[CheckedFile, list[Diagnostic]]]:
    """Each result with its findings (:func:`findings`), in order."""
    return [(result, findings(result)) for result in results]
