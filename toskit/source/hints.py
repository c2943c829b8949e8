"""``yaml-syntax`` diagnostics with hints for the common mistakes.

Hints are built from PyYAML's *marks* (positions) and the document text,
never from PyYAML's message text: the C and the pure-Python parser word
their messages differently but agree on the marks. Recognised mistakes:

* a key missing its ``:`` (``topology_template`` followed by an indented
  ``node_templates:``): the scanner stops at the ``:`` of the next line;
* a key indented deeper than the key before it in the same mapping (the
  roles seed's ``then:`` under ``condition:``): the parser stops at the
  deeper key, having started the mapping at the shallower one;
* a key indented under a ``key: value`` line, a key among the ``- ``
  items of a list, a ``- `` item among the keys of a mapping;
* a value containing ``: `` (``msg: Error: failed``);
* a tab used for indentation;
* a quoted string that is never closed;
* a flow collection (``[``/``{``) that is never closed or lacks a ``,``.

Each mistake is one small rule in :data:`_RULES`; add a rule there (with a
test in ``tests/source/test_hints.py`` run on both parsers).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml

from toskit.diagnostics import Diagnostic, Subject
from toskit.records import record

__all__ = ["syntax_diagnostic", "hint_for"]

_KEY_AT = re.compile(r"(?:-\s+)*([^\s:#'\"][^:#]*?|'[^']*'|\"[^\"]*\")\s*:(?:\s|$)")
_WORD_AT = re.compile(r"(?:-\s+)*([^\s#][^#]*?)\s*(?:#.*)?$")


def _char_at(line_text: str | None, column: int) -> str:
    if line_text is None or not 0 <= column < len(line_text):
        return ""
    return line_text[column]


def _key_at(line_text: str | None, column: int) -> str | None:
    """The mapping key written at ``column`` (``then`` for ``then: x``)."""
    if line_text is None:
        return None
    match = _KEY_AT.match(line_text, column)
    return match.group(1).strip() if match else None


def _word_at(line_text: str | None, column: int) -> str | None:
    if line_text is None:
        return None
    match = _WORD_AT.match(line_text, column)
    return match.group(1).strip() if match else None


def _previous_content_line(line_of: Callable[[int], str | None], line: int) -> int | None:
    """The nearest line above ``line`` (0-based) that is not blank or a comment."""
    for candidate in range(line - 1, -1, -1):
        text = line_of(candidate)
        if text is not None and text.strip() and not text.lstrip().startswith("#"):
            return candidate
    return None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _colon_inside_plain_value(line_text: str | None, column: int) -> str | None:
    """Hint for ``msg: Error: failed`` (a second ``: `` on the line of a key)."""
    if line_text is None:
        return None
    start = _indent(line_text)
    key = _KEY_AT.match(line_text, start)
    if key is None or key.end() > column:
        return None
    value = line_text[key.end() :].strip()
    quoted = f'"{value}"' if '"' not in value else "'" + value.replace("'", "''") + "'"
    return (
        f"the value of '{key.group(1).strip()}' contains ': ', which YAML reads as "
        f"another key; quote the value: {key.group(1).strip()}: {quoted}"
    )


def _deeper_than_previous_key(line_of: Callable[[int], str | None], line: int) -> str | None:
    """Hint for ``alpha: 1`` followed by a deeper ``beta: 2`` (read as ``1 beta``)."""
    text = line_of(line)
    above = _previous_content_line(line_of, line)
    if text is None or above is None:
        return None
    above_text = line_of(above) or ""
    if _indent(text) <= _indent(above_text):
        return None
    deeper = _key_at(text, _indent(text))
    shallower = _key_at(above_text, _indent(above_text))
    if not deeper or not shallower:
        return None
    return (
        f"'{deeper}:' is indented deeper than '{shallower}:' (line {above + 1}), which "
        f"already has a value; keys of the same mapping must start in the same column"
    )


@record(frozen=True)
class _Error:
    """What the hint rules look at: the error's kind, its two marks and their text."""

    scanner: bool  # a ScannerError (else a ParserError or another marked error)
    parser: bool
    problem: Any  # PyYAML mark (0-based line/column)
    context: Any  # PyYAML mark or None
    problem_line: str | None
    context_line: str | None
    problem_char: str
    context_char: str
    line_of: Callable[[int], str | None]


def _tabs(e: _Error) -> str | None:
    if e.problem_char == "\t" or e.context_char == "\t":
        return "YAML indentation must use spaces, not tabs"
    return None


def _unclosed_quote(e: _Error) -> str | None:
    if e.scanner and e.context_char in ("'", '"'):
        return (
            f"the string quoted at line {e.context.line + 1}, column {e.context.column + 1} "
            f"is never closed: add the closing {e.context_char}"
        )
    return None


def _unclosed_flow(e: _Error) -> str | None:
    if e.parser and e.context_char in ("[", "{"):
        closing = "]" if e.context_char == "[" else "}"
        return (
            f"the '{e.context_char}' at line {e.context.line + 1}, column "
            f"{e.context.column + 1} is not closed, or two of its items lack a ',' between "
            f"them: check for a missing '{closing}' or ','"
        )
    return None


def _stray_colon(e: _Error) -> str | None:
    """The scanner stopped at a ':' it cannot use: three mistakes lead there."""
    if not (e.scanner and e.problem_char == ":"):
        return None
    same_line = _colon_inside_plain_value(e.problem_line, e.problem.column)
    if same_line is not None:
        return same_line
    deeper = _deeper_than_previous_key(e.line_of, e.problem.line)
    if deeper is not None:
        return deeper
    return _missing_colon(e)


def _missing_colon(e: _Error) -> str:
    """``word`` + newline + ``key:`` was read as one multi-line key."""
    if e.context is not None and e.context.line < e.problem.line:
        word_line: int | None = e.context.line
        word = _word_at(e.context_line, e.context.column)
    else:
        word_line = _previous_content_line(e.line_of, e.problem.line)
        above = e.line_of(word_line) if word_line is not None else None
        word = _word_at(above, _indent(above)) if above else None
        if word is not None and ":" in word:
            word = None
    if word and word_line is not None:
        return (
            f"a key on the line above is missing its ':' — write '{word}:' (line {word_line + 1})"
        )
    return "a key on the line above is missing its ':'"


def _key_among_items(e: _Error) -> str | None:
    if (
        e.parser
        and e.context_char == "-"
        and e.problem.line > e.context.line
        and e.problem.column == e.context.column
    ):
        return (
            f"the list that starts at line {e.context.line + 1} has its '- ' items in this "
            f"column, and this line is not one: start it with '- ', or move it to the "
            f"column of the key that holds the list"
        )
    return None


def _item_among_keys(e: _Error) -> str | None:
    if (
        e.parser
        and e.problem_char == "-"
        and e.context is not None
        and e.context_char != "-"
        and e.problem.column == e.context.column
    ):
        return (
            f"a '- ' list item cannot stand among the keys of the mapping that starts at "
            f"line {e.context.line + 1}: put it under a key (indented), or make every entry "
            f"a list item"
        )
    return None


def _key_indented_deeper(e: _Error) -> str | None:
    """The roles seed's ``then:`` under ``condition:``."""
    if not (
        e.parser
        and e.context is not None
        and e.problem.line > e.context.line
        and e.problem.column > e.context.column
    ):
        return None
    deeper = _key_at(e.problem_line, e.problem.column)
    shallower = _key_at(e.context_line, e.context.column)
    if deeper and shallower:
        return (
            f"'{deeper}:' is indented deeper than '{shallower}:' (line {e.context.line + 1}); "
            f"keys of the same mapping must start in the same column"
        )
    return (
        f"this line is indented deeper than the mapping that starts at line "
        f"{e.context.line + 1}, column {e.context.column + 1}; keys of the same mapping "
        f"must start in the same column"
    )


# Tried in order; the first rule that recognises the error gives the hint.
_RULES: tuple[Callable[[_Error], str | None], ...] = (
    _tabs,
    _unclosed_quote,
    _unclosed_flow,
    _stray_colon,
    _key_among_items,
    _item_among_keys,
    _key_indented_deeper,
)


def hint_for(exc: yaml.MarkedYAMLError, line_of: Callable[[int], str | None]) -> str | None:
    """A hint for a PyYAML error, from its marks; ``None`` when none applies.

    ``line_of(n)`` returns the text of 0-based line ``n``.
    """
    problem, context = exc.problem_mark, exc.context_mark
    if problem is None:
        return None
    problem_line = line_of(problem.line)
    context_line = line_of(context.line) if context is not None else None
    error = _Error(
        scanner=isinstance(exc, yaml.scanner.ScannerError),
        parser=isinstance(exc, yaml.parser.ParserError),
        problem=problem,
        context=context,
        problem_line=problem_line,
        context_line=context_line,
        problem_char=_char_at(problem_line, problem.column),
        context_char=_char_at(context_line, context.column) if context is not None else "",
        line_of=line_of,
    )
    for rule in _RULES:
        hint = rule(error)
        if hint is not None:
            return hint
    return None


class _Mark:
    """A position (0-based), as PyYAML's marks have it."""

    def __init__(self, line: int, column: int, index: int) -> None:
        self.line, self.column, self.index = line, column, index


_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def end_of_text(text: str) -> _Mark:
    """The position just after the last character of ``text``."""
    line = 0
    line_start = 0
    for match in _LINE_BREAK.finditer(text):
        line += 1
        line_start = match.end()
    return _Mark(line, len(text) - line_start, len(text))


def _normalise_end_marks(exc: yaml.MarkedYAMLError, text: str) -> None:
    """libyaml puts the end of a text without a final line break on a new line.

    PyYAML's Python parser puts it at the end of the last line; toskit uses
    that position with either parser.
    """
    for attr in ("problem_mark", "context_mark"):
        mark = getattr(exc, attr)
        if mark is not None and mark.index >= len(text):
            setattr(exc, attr, end_of_text(text))


def syntax_diagnostic(
    exc: yaml.YAMLError,
    *,
    name: str,
    line_of: Callable[[int], str | None],
    text: str | None = None,
) -> Diagnostic:
    """The ``yaml-syntax`` diagnostic for a PyYAML error, at its problem mark."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        if text is not None:
            _normalise_end_marks(exc, text)
        mark = exc.problem_mark
        message = exc.problem or "invalid YAML"
        if exc.context:
            where = ""
            if exc.context_mark is not None and (
                exc.context_mark.line,
                exc.context_mark.column,
            ) != (mark.line, mark.column):
                where = (
                    f" at line {exc.context_mark.line + 1}, column {exc.context_mark.column + 1}"
                )
            message = f"{message} ({exc.context}{where})"
        # The range (issue #28): the character PyYAML stopped at (a mark is a point).
        return Diagnostic(
            "error",
            "yaml-syntax",
            message,
            file=name,
            line=mark.line + 1,
            column=mark.column + 1,
            hint=hint_for(exc, line_of),
            source_line=line_of(mark.line),
            end_line=mark.line + 1,
            end_column=mark.column + 2,
            subject=Subject("document"),
        )
    return Diagnostic(
        "error", "yaml-syntax", str(exc) or "invalid YAML", file=name, subject=Subject("document")
    )
