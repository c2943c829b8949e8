"""``toskit diff --format github|sarif``: what the NEW version introduces, as CI findings.

A thin adapter over :class:`toskit.compare.TemplateDiff`'s public result:

* every diagnostic the new version introduces (``diff.introduced``:
  errors, and warnings and infos too, each with its own severity), located
  where it is in NEW, as ``toskit check`` would report it there;
* with ``--fail-on changes``, also every effective property value that
  NEW changes, adds or renames (``diff.values``), one ``changed-value``
  warning at the line of NEW that set it (the template's line, the type's
  default, the input). A value only removed has no place in NEW and is not
  listed; nor are changes that are not values (types, templates,
  requirement targets), which ``--format text|json|html`` show.

When the comparison cannot run (a side cannot be read, a bad
``git:REV:PATH``), the report is one ``file-unreadable`` error of NEW
(:func:`render_failure`) and the exit status 2.

Nothing the new version fixed or kept is reported: a pull request's
annotations are about what it brings. The findings are grouped by file and
rendered by :mod:`toskit.report.sarif` / :mod:`toskit.report.github`, so the
rules, escaping and locations are those of ``toskit check``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from toskit.diagnostics import Diagnostic, abbreviate
from toskit.records import field, record

__all__ = ["CHANGED_VALUE", "FORMATS", "diff_findings", "render", "render_failure"]

#: The code of a value that NEW changes (with ``--fail-on changes``).
CHANGED_VALUE = "changed-value"
FORMATS = ("github", "sarif")


@record
class _DiffFile:
    """One file of NEW with the findings located in it (a :class:`toskit.report.CheckedFile`)."""

    path: str
    kind: str = "tosca"
    label: str = "TOSCA template"
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None


def _location(text: Any) -> tuple[str | None, int | None, int | None]:
    """``(file, line, column)`` of a ``file:line:column`` string (any part may be missing)."""
    if not isinstance(text, str) or not text:
        return None, None, None
    parts = text.rsplit(":", 2)
    numbers: list[int] = []
    while len(parts) > 1 and parts[-1].isdigit():
        numbers.insert(0, int(parts.pop()))
    file = ":".join(parts)
    return file, (numbers[0] if numbers else None), (numbers[1] if len(numbers) > 1 else None)


def _shown(value: Any) -> str:
    return abbreviate(repr(value), 200)


def _value_finding(change: Any, new_name: str) -> Diagnostic | None:
    if change.change == "removed":
        return None
    file, line, column = _location(change.new_location)
    where = f"{change.kind} template '{change.entity}'"
    if change.change == "added":
        message = f"{where}: {change.path} is new: {_shown(change.new)}"
    elif change.change == "renamed":
        message = f"{where}: {change.path} is now {change.new_path} ({_shown(change.new)})"
    else:
        message = (
            f"{where}: {change.path} changed from {_shown(change.old)} to {_shown(change.new)}"
        )
    if change.new_source and change.new_source != "template":
        message += f" (set by {change.new_source})"
    return Diagnostic(
        "warning",
        CHANGED_VALUE,
        message,
        change.new_path or change.path,
        file=file or new_name,
        line=line,
        column=column,
    )


def diff_findings(diff: Any, fail_on: Sequence[str] = ()) -> list[Diagnostic]:
    """The findings of a diff that NEW introduces (see the module docstring), in NEW's order."""
    found = [d if d.file else _with_file(d, diff.new_name) for d in diff.introduced]
    if "changes" in fail_on:
        for change in diff.values:
            finding = _value_finding(change, diff.new_name)
            if finding is not None:
                found.append(finding)
    return found


def _with_file(diag: Diagnostic, file: str) -> Diagnostic:
    from toskit.records import replace

    return replace(diag, file=file)


def render(diff: Any, fmt: str, fail_on: Sequence[str] = ()) -> str:
    """The findings of :func:`diff_findings` as ``github`` or ``sarif`` text."""
    if fmt not in FORMATS:
        raise ValueError(
            f"toskit diff reports {', '.join(FORMATS)} through toskit.report, not {fmt!r}"
        )
    files: dict[str, _DiffFile] = {diff.new_name: _DiffFile(diff.new_name)}
    for finding in diff_findings(diff, fail_on):
        path = finding.file or diff.new_name
        files.setdefault(path, _DiffFile(path)).diagnostics.append(finding)
    text: str = importlib.import_module(f"toskit.report.{fmt}").render(list(files.values()))
    return text


def render_failure(fmt: str, new: str, message: str) -> str:
    """The report of a diff that could not run (a side unreadable, a bad revision).

    One ``file-unreadable`` error of NEW with the reason (which names the
    side), so a workflow that uploads or annotates the report still shows
    why; SARIF also lists it in ``toolExecutionNotifications``.
    """
    from toskit.report import UNREADABLE

    failed = _DiffFile(new, diagnostics=[Diagnostic("error", UNREADABLE, message, file=new)])
    text: str = importlib.import_module(f"toskit.report.{fmt}").render([failed])
    return text
