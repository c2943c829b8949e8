"""``yaml-syntax`` diagnostics with hints for the common mistakes.

Hints are built from PyYAML's *marks* (positions) and the document text,
never from PyYAML's message text: the C and the pure-Python parser word
their messages differently but agree on the marks. Recognised mistakes:

* a key missing its ``:`` (``topology_template`` followed by an indented
  ``node_templates:``): the scanner stops at the ``:`` of the next line;
* a key indented deeper than the key before it in the same mapping (the
  roles seed's ``then:`` under ``condition:``): the parser stops at the
  deeper key, having started the mapping at the shallower one;
* a tab used for indentation;
* a quoted string that is never closed;
* a flow collection (``[``/``{``) that is never closed or lacks a ``,``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import yaml

from toskit.diagnostics import Diagnostic

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


def hint_for(exc: yaml.MarkedYAMLError, line_of: Callable[[int], str | None]) -> str | None:
    """A hint for a PyYAML error, from its marks; ``None`` when none applies.

    ``line_of(n)`` returns the text of 0-based line ``n``.
    """
    problem, context = exc.problem_mark, exc.context_mark
    if problem is None:
        return None
    problem_line = line_of(problem.line)
    problem_char = _char_at(problem_line, problem.column)
    context_line = line_of(context.line) if context is not None else None
    context_char = _char_at(context_line, context.column) if context is not None else ""

    if problem_char == "\t" or context_char == "\t":
        return "YAML indentation must use spaces, not tabs"

    if isinstance(exc, yaml.scanner.ScannerError) and context_char in ("'", '"'):
        return (
            f"the string quoted at line {context.line + 1}, column {context.column + 1} "
            f"is never closed: add the closing {context_char}"
        )

    if isinstance(exc, yaml.parser.ParserError) and context_char in ("[", "{"):
        closing = "]" if context_char == "[" else "}"
        return (
            f"the '{context_char}' at line {context.line + 1}, column {context.column + 1} "
            f"is not closed, or two of its items lack a ',' between them: "
            f"check for a missing '{closing}' or ','"
        )

    if problem_char == ":" and isinstance(exc, yaml.scanner.ScannerError):
        same_line = _colon_inside_plain_value(problem_line, problem.column)
        if same_line is not None:
            return same_line
        deeper = _deeper_than_previous_key(line_of, problem.line)
        if deeper is not None:
            return deeper
        # The scanner read `word` + newline + `key:` as one multi-line key.
        if context is not None and context.line < problem.line:
            word_line = context.line
            word = _word_at(context_line, context.column)
        else:
            above = _previous_content_line(line_of, problem.line)
            word_line = above
            text_above = line_of(above) if above is not None else None
            word = (
                _word_at(text_above, len(text_above) - len(text_above.lstrip()))
                if text_above
                else None
            )
            if word is not None and ":" in word:
                word = None
        if word:
            return (
                f"a key on the line above is missing its ':' — "
                f"write '{word}:' (line {word_line + 1})"
            )
        return "a key on the line above is missing its ':'"

    if (
        isinstance(exc, yaml.parser.ParserError)
        and context_char == "-"
        and problem.line > context.line
        and problem.column == context.column
    ):
        return (
            f"the list that starts at line {context.line + 1} has its '- ' items in this "
            f"column, and this line is not one: start it with '- ', or move it to the "
            f"column of the key that holds the list"
        )

    if (
        isinstance(exc, yaml.parser.ParserError)
        and problem_char == "-"
        and context is not None
        and context_char != "-"
        and problem.column == context.column
    ):
        return (
            f"a '- ' list item cannot stand among the keys of the mapping that starts at "
            f"line {context.line + 1}: put it under a key (indented), or make every entry "
            f"a list item"
        )

    if (
        isinstance(exc, yaml.parser.ParserError)
        and context is not None
        and problem.line > context.line
        and problem.column > context.column
    ):
        deeper = _key_at(problem_line, problem.column)
        shallower = _key_at(context_line, context.column)
        if deeper and shallower:
            return (
                f"'{deeper}:' is indented deeper than '{shallower}:' (line {context.line + 1}); "
                f"keys of the same mapping must start in the same column"
            )
        return (
            f"this line is indented deeper than the mapping that starts at line "
            f"{context.line + 1}, column {context.column + 1}; keys of the same mapping "
            f"must start in the same column"
        )
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
        return Diagnostic(
            "error",
            "yaml-syntax",
            message,
            file=name,
            line=mark.line + 1,
            column=mark.column + 1,
            hint=hint_for(exc, line_of),
            source_line=line_of(mark.line),
        )
    return Diagnostic("error", "yaml-syntax", str(exc) or "invalid YAML", file=name)
