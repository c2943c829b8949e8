"""Regular expressions from templates, run in linear time (RE2).

``$matches``, the 1.x ``pattern`` constraint and 2.0 validation clauses take
their patterns *and* their subject strings from the template, which is
untrusted. Python's ``re`` backtracks: ``(a|aa)+$``, ``\\d*\\d*\\d*x`` or
``.*=.*=.*;`` run for minutes on a 40-character value. So template patterns
compile with `google-re2 <https://github.com/google/re2>`_, whose matching
time is linear in the subject (and whose compiled program is bounded in
memory: :data:`MAX_PROGRAM_BYTES`).

RE2's syntax is Python's without the constructs that need backtracking: a
pattern using a back-reference (``\\1``, ``(?P=name)``), a lookaround
(``(?=``, ``(?!``, ``(?<=``, ``(?<!``), an atomic group (``(?>``), a
possessive repeat (``a++``), a conditional group (``(?(1)…)``) or verbose
mode (``(?x)``) is refused with :class:`RegexRejected`, whose message names
the construct. The one Python spelling that is translated is ``\\Z`` (end of
text), which RE2 writes ``\\z``. Other dialect differences (``\\d``, ``\\w``
and ``\\b`` are ASCII-only; ``$`` without ``(?m)`` matches only at the very
end) are listed in docs/functions.md.
"""

from __future__ import annotations

import functools
from typing import Any, Protocol

from toskit.patterns import lazy_pattern

__all__ = [
    "MAX_PATTERN_LENGTH",
    "MAX_PROGRAM_BYTES",
    "BoundedPattern",
    "RegexRejected",
    "compile_bounded",
]

#: Longest pattern text accepted (characters). Template patterns are short;
#: the bound keeps a hostile one from costing more than its compile budget.
MAX_PATTERN_LENGTH = 10_000
#: Memory RE2 may use for one compiled pattern (its ``max_mem`` option).
MAX_PROGRAM_BYTES = 8 << 20

_SYNTAX_HINT = (
    "template patterns use RE2 syntax (linear-time matching, no backtracking): "
    "see https://github.com/google/re2/wiki/Syntax"
)

# Constructs RE2 refuses, recognised by what follows a "(" or a "\\".
_GROUP_CONSTRUCTS = (
    ("(?<=", "a lookbehind '(?<=...)'"),
    ("(?<!", "a negative lookbehind '(?<!...)'"),
    ("(?=", "a lookahead '(?=...)'"),
    ("(?!", "a negative lookahead '(?!...)'"),
    ("(?>", "an atomic group '(?>...)'"),
    ("(?P=", "a named back-reference '(?P=name)'"),
    ("(?(", "a conditional group '(?(...)...)'"),
    ("(?#", "a comment group '(?#...)'"),
)
# "(?imsx)" or "(?imsx-imsx:" (our own, fixed pattern: Python's re is safe here).
_FLAG_GROUP = lazy_pattern(r"\(\?([a-zA-Z-]*)[:)]")


class RegexRejected(ValueError):
    """A pattern toskit will not run: ``str()`` says why, ``.hint`` how to fix it."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class BoundedPattern(Protocol):
    """What :func:`compile_bounded` returns: an RE2 pattern (``re``-like methods)."""

    def search(self, text: str) -> Any: ...  # noqa: D102

    def fullmatch(self, text: str) -> Any: ...  # noqa: D102

    def match(self, text: str) -> Any: ...  # noqa: D102


@functools.cache
def _re2() -> tuple[Any, Any]:
    """The ``re2`` module and the options every template pattern compiles with.

    Imported on the first pattern, not with this module: most templates have
    none, and ``toskit check`` pays ~1.3 ms for ``re2`` at start-up (#31).
    """
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print every refused pattern on stderr
    options.max_mem = MAX_PROGRAM_BYTES
    return re2, options


@functools.lru_cache(maxsize=512)
def compile_bounded(pattern: str) -> BoundedPattern:
    """Compile a template's ``pattern`` with RE2 (linear-time matching).

    Raises :class:`RegexRejected` for a pattern that is invalid, longer than
    :data:`MAX_PATTERN_LENGTH`, or uses a construct RE2 cannot run (the
    message names it: back-reference, lookaround, ...). ``\\Z`` is read as
    RE2's ``\\z``.
    """
    if not isinstance(pattern, str):
        raise RegexRejected(f"a regular expression is a string, not {type(pattern).__name__}")
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise RegexRejected(
            f"the regular expression is {len(pattern)} characters long, over the limit of "
            f"{MAX_PATTERN_LENGTH}",
            hint="toskit.functions.regex.MAX_PATTERN_LENGTH holds the limit",
        )
    translated = _translate(pattern)
    re2, options = _re2()
    try:
        return re2.compile(translated, options)
    except re2.error as exc:
        raise RegexRejected(_explain(pattern, exc), hint=_SYNTAX_HINT) from None
    except (ValueError, TypeError, OverflowError, MemoryError) as exc:
        raise RegexRejected(
            f"'{_short(pattern)}' cannot be compiled: {exc}", hint=_SYNTAX_HINT
        ) from None


def _translate(pattern: str) -> str:
    """Python spellings RE2 writes differently, outside character classes: ``\\Z`` → ``\\z``."""
    if "\\Z" not in pattern:
        return pattern
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            pair = pattern[i : i + 2]
            out.append("\\z" if pair == "\\Z" and not in_class else pair)
            i += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        out.append(char)
        i += 1
    return "".join(out)


def _short(pattern: str, limit: int = 80) -> str:
    return pattern if len(pattern) <= limit else pattern[: limit - 3] + "..."


def _construct(pattern: str) -> str | None:
    """The first construct of ``pattern`` that needs backtracking, named for people."""
    i, in_class = 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            if nxt in "123456789" and not in_class:
                return f"a back-reference '\\{nxt}'"
            i += 2
            continue
        if in_class:
            in_class = char != "]"
            i += 1
            continue
        if char == "[":
            in_class = True
        elif char == "(":
            for prefix, name in _GROUP_CONSTRUCTS:
                if pattern.startswith(prefix, i):
                    return name
            flags = _FLAG_GROUP.match(pattern, i)
            if flags is not None and "x" in flags.group(1):
                return "verbose mode '(?x)'"
        if char in "*+?}" and i + 1 < len(pattern) and pattern[i + 1] == "+":
            return f"a possessive repeat '{char}+'"
        i += 1
    return None


def _explain(pattern: str, exc: Exception) -> str:
    """The refusal message: the construct RE2 lacks, or RE2's own reason."""
    reason = exc.args[0] if exc.args else exc
    if isinstance(reason, bytes):
        reason = reason.decode("utf-8", "replace")
    construct = _construct(pattern)
    if construct is not None:
        return (
            f"'{_short(pattern)}' uses {construct}, which RE2 (the linear-time engine "
            "toskit runs template patterns with) does not support"
        )
    return f"'{_short(pattern)}' is not a valid regular expression: {_short(str(reason), 120)}"
