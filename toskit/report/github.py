"""``toskit check --format github``: GitHub Actions workflow commands.

One line per finding::

    ::error file=a.yaml,line=12,endLine=12,col=9,endColumn=13,title=unknown-property::node …

``error`` for an error, ``warning`` for a warning, ``notice`` for an
``info``; the title is the diagnostic code; the message is the
diagnostic's, with its hint on a line of its own. It is the default format
of ``toskit check`` when ``GITHUB_ACTIONS=true`` and no ``--format`` is
given.

Escaping, as the Actions runner decodes it: in the message ``%``, CR and LF
become ``%25``, ``%0D``, ``%0A``; in a property value ``:`` and ``,``
become ``%3A`` and ``%2C`` as well. Every other control character (an ESC
of a hostile key) is shown as a visible stand-in (``␛``), as in the text
output, so no finding can end its line early, start a command of its own
(``::stop-commands::``, ``::add-mask::``) or recolour the log.

Columns: ``col`` is the ``file:line:column`` that the text output prints,
``endColumn`` the exclusive end of the span (the numbers SARIF carries),
written only when the span is on one line (GitHub ignores columns of a
multi-line annotation). A file that could not be checked is one ``::error``
of that file (code ``file-unreadable`` or ``internal-error``).
"""

from __future__ import annotations

from collections.abc import Iterable

from toskit.diagnostics import Diagnostic, abbreviate
from toskit.report import CheckedFile, findings, visible

__all__ = ["COMMANDS", "annotation", "escape_data", "escape_property", "render"]

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    """``text`` as a workflow command's message (``%``, CR, LF encoded; other controls shown)."""
    encoded = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return visible(encoded)


def escape_property(text: str) -> str:
    """``text`` as a workflow command's property value (``:`` and ``,`` encoded too)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _message(diag: Diagnostic) -> str:
    text = abbreviate(diag.message)
    if diag.hint:
        text += f"\nhint: {abbreviate(diag.hint)}"
    return text


def annotation(diag: Diagnostic, fallback_file: str) -> str:
    """One finding as a workflow command line (without the line feed)."""
    props = [f"file={escape_property(abbreviate(diag.file or fallback_file))}"]
    if diag.line is not None:
        props.append(f"line={diag.line}")
        end_line = (
            diag.end_line if diag.end_line is not None and diag.end_line >= diag.line else None
        )
        if end_line is not None:
            props.append(f"endLine={end_line}")
        if diag.column is not None:
            props.append(f"col={diag.column}")
            if (
                end_line == diag.line
                and diag.end_column is not None
                and diag.end_column >= diag.column
            ):
                props.append(f"endColumn={diag.end_column}")
    props.append(f"title={escape_property(abbreviate(diag.code))}")
    command = COMMANDS.get(diag.severity, "warning")
    return f"::{command} {','.join(props)}::{escape_data(_message(diag))}"


def render(results: Iterable[CheckedFile]) -> str:
    """Every finding of a run, one workflow command a line, in file order."""
    lines = [annotation(diag, result.path) for result in results for diag in findings(result)]
    return "".join(line + "\n" for line in lines)
