"""Where a YAML node *ends*: the range of a finding, computed from the text.

The shadow tree (:mod:`toskit.source.locations`) records only where each
node starts, which keeps the load fast. A diagnostic also wants the end of
the offending span (issue #28: the key, the scalar, the whole flow item or
block), so this module scans the text from a recorded start, only when a
diagnostic is made: a load without findings never runs it.

:func:`span_end` takes the document's lines, a 0-based start and what starts
there (``"key"``, ``"scalar"``, ``"map"``, ``"seq"``, ``"alias"``) and
returns the 0-based end, the column exclusive (the column just after the
span, as LSP and SARIF count):

* a key: the key's text (quoted or plain, up to the ``:``);
* a scalar: a quoted scalar to its closing quote (across lines), a plain
  one to the end of its text on the line (not a trailing comment), a block
  scalar (``|``/``>``) to the end of its last more-indented line;
* a flow collection (``[...]``, ``{...}``): to its closing bracket;
* a block mapping or sequence: to the end of its last line (every
  following line indented at least as deep, a sequence's ``-`` items);
* an alias: the ``*name`` token.

Anchors and tags (``&a``, ``!t``) before a node are part of its span. A
scan never reads past :data:`MAX_SCAN_LINES` lines: a block longer than that
is cut there (its range then ends early; the start stays exact).
"""

from __future__ import annotations

from collections.abc import Sequence

from toskit.patterns import lazy_pattern

__all__ = [
    "MAX_SCAN_LINES",
    "first_duplicate",
    "span_end",
    "span_of_line",
    "span_of_token",
    "yaml_text",
]

#: Most lines one span scan reads (a block of a huge document is cut there).
MAX_SCAN_LINES = 5_000

_FLOW_CLOSE = {"[": "]", "{": "}"}


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _blank(text: str) -> bool:
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


def _content_end(text: str, start: int = 0) -> int:
    """End (exclusive) of ``text``'s content from ``start``: a trailing
    `` #`` comment and spaces cut."""
    end = len(text)
    at = text.find(" #", start)
    if at != -1:
        end = at
    while end > start and text[end - 1] in " \t":
        end -= 1
    return max(end, start)


def span_of_line(lines: Sequence[str], line0: int, col0: int) -> tuple[int, int]:
    """The end of the content of line ``line0`` from ``col0`` (at least one character)."""
    text = lines[line0] if 0 <= line0 < len(lines) else ""
    end = _content_end(text, min(col0, len(text)))
    return line0, end if end > col0 else col0 + 1


def span_end(
    lines: Sequence[str], line0: int, col0: int, kind: str, memo: dict | None = None
) -> tuple[int, int]:
    """0-based end (exclusive column) of the node of ``kind`` starting at ``(line0, col0)``.

    ``memo`` (a dict kept with the document) remembers each span found and
    how far each line was read for flow brackets, so that many findings on
    one long line (20,000 items of one flow mapping) read it once, not once
    each.
    """
    if memo is not None:
        found = memo.get((line0, col0, kind))
        if found is None:
            found = memo[(line0, col0, kind)] = _span_end(lines, line0, col0, kind, memo)
        return found
    return _span_end(lines, line0, col0, kind, None)


def _span_end(
    lines: Sequence[str], line0: int, col0: int, kind: str, memo: dict | None
) -> tuple[int, int]:
    if not 0 <= line0 < len(lines):
        return line0, col0 + 1
    text = lines[line0]
    if col0 >= len(text):
        return line0, col0
    if kind == "key":
        return _scalar_end(lines, line0, col0, key=True, memo=memo)
    if kind == "alias":
        return line0, _token_end(text, col0)
    line0, col0, moved = _skip_properties(lines, line0, col0)
    if line0 >= len(lines):
        return len(lines) - 1, len(lines[-1])
    text = lines[line0]
    ch = text[col0] if col0 < len(text) else ""
    if ch in _FLOW_CLOSE:
        return _flow_end(lines, line0, col0)
    if kind in ("map", "seq"):
        return _block_end(lines, line0, col0, kind)
    if moved and kind == "scalar" and ch not in "\"'|>":
        return line0, _content_end(text, col0)
    return _scalar_end(lines, line0, col0, key=False, memo=memo)


def _token_end(text: str, col0: int) -> int:
    end = col0 + 1
    while end < len(text) and text[end] not in " \t,]}":
        end += 1
    return end


def _skip_properties(lines: Sequence[str], line0: int, col0: int) -> tuple[int, int, bool]:
    """Past anchors and tags (``&a !t``) to the node itself, maybe on a later line."""
    text = lines[line0]
    moved = False
    while col0 < len(text) and text[col0] in "&!":
        col0 = _token_end(text, col0)
        while col0 < len(text) and text[col0] in " \t":
            col0 += 1
        if col0 >= len(text) or text[col0] == "#":
            # The node starts on a later line.
            for next_line in range(line0 + 1, min(len(lines), line0 + MAX_SCAN_LINES)):
                if not _blank(lines[next_line]):
                    line0, text, col0, moved = (
                        next_line,
                        lines[next_line],
                        _indent(lines[next_line]),
                        True,
                    )
                    break
            else:
                return line0, len(text), moved
    return line0, col0, moved


def _scalar_end(
    lines: Sequence[str], line0: int, col0: int, *, key: bool, memo: dict | None = None
) -> tuple[int, int]:
    text = lines[line0]
    ch = text[col0]
    if ch in "\"'":
        return _quoted_end(lines, line0, col0)
    if ch in "|>" and not key:
        return _block_scalar_end(lines, line0)
    if ch in _FLOW_CLOSE and key:
        return _flow_end(lines, line0, col0)
    flow = _in_flow(text, col0, memo, line0)
    end = col0
    n = len(text)
    while end < n:
        c = text[end]
        if c == ":" and (
            end + 1 >= n or text[end + 1] in " \t" or (flow and text[end + 1] in ",]}")
        ):
            break
        if c == "#" and end > col0 and text[end - 1] in " \t":
            break
        if flow and c in ",]}":
            break
        end += 1
    while end > col0 + 1 and text[end - 1] in " \t":
        end -= 1
    return line0, max(end, col0 + 1)


def _in_flow(text: str, col0: int, memo: dict | None = None, line0: int = 0) -> bool:
    """Whether ``col0`` is inside a flow collection opened earlier on the line.

    With ``memo``, the line is read on from where the last question about
    it stopped (findings come in source order): linear in the line, not in
    the line times the findings on it.
    """
    start, depth, quote = 0, 0, ""
    if memo is not None:
        state = memo.get(("flow", line0))
        if state is not None and state[0] <= col0:
            start, depth, quote = state
    for c in text[start:col0]:
        if quote:
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "[{":
            depth += 1
        elif c in "]}" and depth:
            depth -= 1
    if memo is not None:
        memo[("flow", line0)] = (col0, depth, quote)
    return depth > 0


def _quoted_end(lines: Sequence[str], line0: int, col0: int) -> tuple[int, int]:
    quote = lines[line0][col0]
    i = col0 + 1
    last = min(len(lines), line0 + MAX_SCAN_LINES)
    line = line0
    while line < last:
        text = lines[line]
        # Jump from stop to stop with C-level searches, not character by
        # character: a 9 MB quoted line took seconds in this loop (#37).
        while i < len(text):
            if quote == '"':
                stop = _DOUBLE_STOP.search(text, i)
                if stop is None:
                    break
                i = stop.start()
                if text[i] == "\\":
                    i += 2
                    continue
            else:
                i = text.find("'", i)
                if i < 0:
                    break
                if i + 1 < len(text) and text[i + 1] == "'":
                    i += 2
                    continue
            return line, i + 1
        line, i = line + 1, 0
    return last - 1, len(lines[last - 1])  # unterminated (the parser reported it)


_DOUBLE_STOP = lazy_pattern(r'[\\"]')


def _flow_end(lines: Sequence[str], line0: int, col0: int) -> tuple[int, int]:
    depth = 0
    line = line0
    i = col0
    last = min(len(lines), line0 + MAX_SCAN_LINES)
    while line < last:
        text = lines[line]
        while i < len(text):
            c = text[i]
            if c in "\"'":
                end_line, end = _quoted_end(lines, line, i)
                if end_line != line:
                    line, text = end_line, lines[end_line]
                i = end
                continue
            if c == "#" and (i == 0 or text[i - 1] in " \t"):
                break
            if c in "[{":
                depth += 1
            elif c in "]}":
                depth -= 1
                if depth == 0:
                    return line, i + 1
            i += 1
        line, i = line + 1, 0
    return last - 1, len(lines[last - 1])


def _block_scalar_end(lines: Sequence[str], line0: int) -> tuple[int, int]:
    base = _indent(lines[line0])
    end_line = line0
    for line in range(line0 + 1, min(len(lines), line0 + MAX_SCAN_LINES)):
        text = lines[line]
        if not text.strip():
            continue
        if _indent(text) <= base:
            break
        end_line = line
    return end_line, len(lines[end_line].rstrip())


def _block_end(lines: Sequence[str], line0: int, col0: int, kind: str) -> tuple[int, int]:
    end_line = line0
    for line in range(line0 + 1, min(len(lines), line0 + MAX_SCAN_LINES)):
        text = lines[line]
        if _blank(text):
            continue
        if text.startswith(("---", "...")) and _indent(text) == 0:
            break
        indent = _indent(text)
        if indent < col0:
            break
        if indent == col0 and kind == "seq" and not text[indent:].startswith("-"):
            break
        end_line = line
    text = lines[end_line]
    return end_line, _content_end(text, col0 if end_line == line0 else _indent(text))


_PLAIN_SAFE = lazy_pattern(r"[A-Za-z0-9_][A-Za-z0-9_.\-/]*\Z")


def yaml_text(value: str, *, like: str = "") -> str:
    """``value`` written as YAML would read it back: quoted like ``like`` (the
    text it replaces) when that was quoted, plain when it is safe plain, else
    double-quoted (JSON escapes are valid YAML)."""
    if like[:1] == "'" and "'" not in value and "\n" not in value:
        return f"'{value}'"
    if like[:1] == '"' or not _PLAIN_SAFE.match(value) or value.lower() in _PLAIN_READ_AS:
        import json  # imported on use, not at the top: `toskit check` of a clean file needs no json (#31)

        return json.dumps(value, ensure_ascii=False)
    return value


# Plain words YAML 1.2's core schema reads as something else than a string.
_PLAIN_READ_AS = frozenset({"true", "false", "null", "~", "yes", "no", "on", "off"})


def span_of_token(lines: Sequence[str], line0: int, col0: int) -> tuple[int, int]:
    """The end of the token at ``(line0, col0)`` (to a space or flow indicator;
    at least one character): the range of a finding made at a bare position
    (a syntax error, a bound passed while parsing)."""
    text = lines[line0] if 0 <= line0 < len(lines) else ""
    if col0 >= len(text):
        return line0, col0 + 1
    if text[col0] in "\"'[{":
        return span_end(lines, line0, col0, "scalar")
    return line0, _token_end(text, col0)


def first_duplicate(
    lines: Sequence[str], line0: int, col0: int, end_col0: int
) -> tuple[int, int] | None:
    """Where the key written at ``(line0, col0)``–``end_col0`` was first written
    in the same mapping, found in the text (the duplicate's related
    location), or ``None``.

    A block mapping's keys share their column: earlier lines at that column
    are searched, up to the first line indented less (the parent). A flow
    mapping on one line is searched leftwards on that line. Keys written
    differently but equal as values (``1`` and ``0x1``) are not found.
    """
    if not 0 <= line0 < len(lines):
        return None
    key = lines[line0][col0:end_col0]
    if not key:
        return None
    text = lines[line0]
    if text[:col0].strip() and text[:col0].strip() != "-":
        # A flow mapping: an earlier ``key:`` on the same line, after ``{`` or ``,``.
        at = text.rfind(key, 0, col0)
        while at != -1:
            before = text[:at].rstrip()
            after = text[at + len(key) : at + len(key) + 1]
            if before.endswith(("{", ",")) and after == ":":
                return line0, at
            at = text.rfind(key, 0, at)
        return None
    for line in range(line0 - 1, max(-1, line0 - MAX_SCAN_LINES), -1):
        other = lines[line]
        if _blank(other):
            continue
        indent = _indent(other)
        start = indent
        if other[indent:].startswith("- "):
            start = indent + 2 + _indent(other[indent + 2 :])  # ``- key:`` opens the mapping
        if start == col0 and other.startswith(key, col0):
            rest = other[col0 + len(key) : col0 + len(key) + 2]
            if rest[:1] == ":" and (len(rest) == 1 or rest[1] in " \t"):
                return line, col0
        if start < col0 or (indent < col0 and start != col0):
            return None
        if start == col0 and other[indent:].startswith("- "):
            return None  # the mapping starts at this sequence item
    return None
