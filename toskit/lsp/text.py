"""Positions and the YAML structure around a cursor, from the text alone.

Two jobs, both free of pygls so they are tested on their own:

* **positions**: toskit counts lines and columns from 1, in code points,
  with an *exclusive* ``end_column``; LSP counts from 0, in the position
  encoding the client and server agreed on (UTF-16 code units unless the
  client offers ``utf-8``/``utf-32``). :func:`to_lsp` and :func:`from_lsp`
  are the only places that convert; every feature goes through them. A
  position past the end of a line or of the document is clamped, never an
  error (issue #33, item 6).
* **the cursor's place in the YAML**: :func:`cursor_at` works on the text
  as it is being typed, which is often not valid YAML, so it does not parse:
  it follows indentation upwards (block mappings, ``- `` sequence items,
  indentless sequences) and, on the cursor's own line, one flow mapping
  (``auth: {pasword: secret}``). It gives the path of keys and list indices
  from the document's root, whether the cursor is on a key or on a value,
  and the word under it. Multi-line flow collections and block scalars are
  read as plain lines: good enough for keys, and wrong at worst about a
  cursor inside a multi-line string (a hover or completion that finds
  nothing).
"""

from __future__ import annotations

import re
from collections.abc import Hashable

from toskit.records import record

__all__ = ["Cursor", "cursor_at", "from_lsp", "split_lines", "to_lsp", "word_at"]

# LSP's line breaks (YAML also breaks at NEL, LS and PS; a template with
# those inside is rare enough that its positions may be off by a line).
_LINE_BREAK = re.compile("\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as LSP counts them (a final line break gives a last empty line)."""
    return _LINE_BREAK.split(text)


def _units(text: str, encoding: str) -> int:
    """Length of ``text`` in the code units of ``encoding`` (``utf-16``, ``utf-8``, ``utf-32``)."""
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def to_lsp(
    lines: list[str], line: int | None, column: int | None, encoding: str = "utf-16"
) -> tuple[int, int]:
    """0-based ``(line, character)`` of toskit's 1-based ``line``/``column`` (clamped)."""
    if not lines:
        return 0, 0
    line0 = min(max((line or 1) - 1, 0), len(lines) - 1)
    text = lines[line0]
    col0 = min(max((column or 1) - 1, 0), len(text))
    return line0, _units(text[:col0], encoding)


def from_lsp(
    lines: list[str], line: int, character: int, encoding: str = "utf-16"
) -> tuple[int, int]:
    """0-based ``(line, column in code points)`` of an LSP position, clamped into the text."""
    if not lines:
        return 0, 0
    line0 = min(max(line, 0), len(lines) - 1)
    text = lines[line0]
    if character <= 0:
        return line0, 0
    if (
        encoding == "utf-32"
        or (encoding == "utf-16" and text.isascii())
        or (encoding == "utf-8" and text.isascii())
    ):
        return line0, min(character, len(text))
    count = 0
    for index, char in enumerate(text):
        count += _units(char, encoding)
        if count > character:
            return line0, index
        if count == character:
            return line0, index + 1
    return line0, len(text)


_WORD = re.compile(r"[A-Za-z0-9_.:$\-]+")


def word_at(text: str, column0: int) -> tuple[str, int, int]:
    """The word (type names: letters, digits, ``_ . : $ -``) at or just before ``column0``.

    Returns ``(word, start, end)`` with 0-based columns, ``("", column0,
    column0)`` when there is none.
    """
    for match in _WORD.finditer(text):
        if match.start() <= column0 <= match.end():
            word = match.group().rstrip(":")
            return word, match.start(), match.start() + len(word)
    return "", column0, column0


@record(frozen=True)
class Cursor:
    """Where a cursor is in a YAML document.

    ``path``: keys and list indices from the root to the mapping or list
    that holds the cursor's entry; ``key``: the key of that entry (``None``
    when the cursor is on a list item or a line with no key yet);
    ``on_key``: the cursor is on the key itself (else on its value or past
    it); ``word``/``start``/``end``: the word under the cursor (0-based
    columns on ``line``); ``value``: the text after ``key:`` on the line.
    """

    path: tuple[Hashable, ...]
    key: str | None
    on_key: bool
    word: str
    line: int
    start: int
    end: int
    value: str = ""

    @property
    def full_path(self) -> tuple[Hashable, ...]:
        """``path`` and ``key``: the path of the entry itself."""
        return self.path if self.key is None else (*self.path, self.key)


_KEY = re.compile(
    r"""(?P<key>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{\[\]},:][^#{}\[\],]*?)\s*:(?=\s|$)"""
)
_DASH = re.compile(r"-(?=\s|$)\s*")


@record(frozen=True)
class _Opener:
    """What starts at a column of a line: a sequence item (``- ``) or a ``key:``."""

    column: int
    kind: str  # "seq" or "key"
    key: str = ""
    end: int = 0  # end of the key text (keys only)
    value_at: int = 0  # where the value starts (keys only)


def _unquote(key: str) -> str:
    if len(key) >= 2 and key[0] == key[-1] == '"':
        return key[1:-1].replace('\\"', '"')
    if len(key) >= 2 and key[0] == key[-1] == "'":
        return key[1:-1].replace("''", "'")
    return key


def _openers(line: str) -> list[_Opener]:
    """The sequence dashes and the key that start the content of ``line``."""
    out: list[_Opener] = []
    pos = len(line) - len(line.lstrip(" "))
    while True:
        if pos >= len(line) or line[pos] == "#":
            return out
        dash = _DASH.match(line, pos)
        if dash is None:
            break
        out.append(_Opener(pos, "seq"))
        pos = dash.end()
    key = _KEY.match(line, pos)
    if key is not None:
        text = key.group("key")
        value_at = key.end()
        while value_at < len(line) and line[value_at] == " ":
            value_at += 1
        out.append(_Opener(pos, "key", _unquote(text.strip()), pos + len(text.rstrip()), value_at))
    return out


def _content_column(line: str) -> int | None:
    stripped = line.lstrip(" ")
    if not stripped or stripped.startswith("#"):
        return None
    return len(line) - len(stripped)


def _path_to(lines: list[str], index: int, openers: list[_Opener], upto: int) -> list[Hashable]:
    """The path of the node that ``openers[upto]`` of line ``index`` opens (inclusive)."""
    path: list[Hashable] = []
    # The ancestors above the line's first opener.
    first = openers[0]
    path.extend(_parents(lines, index, first.column, first.kind == "seq"))
    for i, opener in enumerate(openers[: upto + 1]):
        if opener.kind == "key":
            path.append(opener.key)
        elif i == 0:
            path.append(_seq_index(lines, index, opener.column))
        else:
            path.append(0)  # ``- - x``: the first item of a nested list
    return path


def _seq_index(lines: list[str], index: int, column: int) -> int:
    """How many items of the sequence whose dash is at ``column`` come before line ``index``."""
    count = 0
    for i in range(index - 1, -1, -1):
        at = _content_column(lines[i])
        if at is None or at > column:
            continue
        if at < column:
            break
        ops = _openers(lines[i])
        if ops and ops[0].kind == "seq":
            count += 1
            continue
        break  # a key at the dash's column: the parent of an indentless sequence
    return count


def _parents(lines: list[str], index: int, column: int, is_item: bool) -> list[Hashable]:
    """The path of the mapping or sequence that holds a node starting at
    ``column`` on line ``index``."""
    for i in range(index - 1, -1, -1):
        at = _content_column(lines[i])
        if at is None:
            continue
        if at > column or (at == column and not is_item):
            continue
        ops = _openers(lines[i])
        if not ops:
            if at < column:
                return []  # a plain scalar line above: nothing we can follow
            continue
        if at == column:  # is_item: a sibling item, or the key of an indentless sequence
            if ops[0].kind == "seq":
                continue
            return _path_to(lines, i, ops, 0)
        # The last opener of that line that starts left of ``column`` holds the node.
        holder = max(k for k, op in enumerate(ops) if op.column < column)
        return _path_to(lines, i, ops, holder)
    return []


def _flow_entry(line: str, column: int, start: int) -> tuple[list[str], str | None, bool] | None:
    """Inside a one-line flow mapping from ``start``: (keys of the enclosing maps, key, on_key)."""
    stack: list[str | None] = []  # per open brace: the key it is the value of
    current_key: str | None = None
    key_start = -1
    i = start
    quote = ""
    last_key: str | None = None
    last_key_span = (0, 0)
    while i < min(column, len(line)):
        c = line[i]
        if quote:
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "{":
            stack.append(current_key)
            current_key, last_key, key_start = None, None, i + 1
        elif c == "}":
            if stack:
                stack.pop()
            current_key, key_start = None, -1
        elif c == ",":
            current_key, last_key, key_start = None, None, i + 1
        elif c == ":" and key_start >= 0 and current_key is None:
            current_key = line[key_start:i].strip()
            last_key, last_key_span = current_key, (key_start, i)
        i += 1
    if not stack:
        return None
    keys = [k for k in stack[1:] if k is not None]
    if last_key is not None:
        return keys, _unquote(last_key), False
    # On a key being typed: the text from the last ``{`` or ``,``.
    if key_start >= 0:
        typed = line[key_start:column].strip()
        rest = re.match(r"[^:,{}]*", line[column:])
        full = (typed + (rest.group() if rest else "")).strip()
        return keys, _unquote(full) if full else None, True
    del last_key_span
    return keys, None, False


def cursor_at(text: str | list[str], line0: int, column0: int) -> Cursor:
    """Where the 0-based ``(line0, column0)`` is in the YAML ``text`` (see :class:`Cursor`)."""
    lines = split_lines(text) if isinstance(text, str) else text
    if not lines:
        return Cursor((), None, False, "", 0, 0, 0)
    line0 = min(max(line0, 0), len(lines) - 1)
    line = lines[line0]
    column0 = min(max(column0, 0), len(line))
    word, start, end = word_at(line, column0)
    ops = _openers(line)
    # A blank line, or the cursor left of the line's content: a new entry at the cursor's column.
    if not ops or column0 < ops[0].column:
        content = _content_column(line)
        col = column0 if content is None or column0 < content else content
        path = _parents(lines, line0, col, False)
        return Cursor(tuple(path), None, False, word, line0, start, end, line[column0:].strip())
    # The openers the cursor is at or past.
    inner = max(k for k, op in enumerate(ops) if op.column <= column0)
    opener = ops[inner]
    if opener.kind == "seq":
        item = _path_to(lines, line0, ops, inner)
        return Cursor(
            tuple(item), None, False, word, line0, start, end, line[opener.column + 1 :].strip()
        )
    holder = (
        _path_to(lines, line0, ops, inner - 1)
        if inner
        else _parents(lines, line0, opener.column, False)
    )
    if column0 <= opener.end:
        return Cursor(tuple(holder), opener.key, True, word, line0, start, end)
    value = line[opener.value_at :]
    if value.startswith("{"):
        flow = _flow_entry(line, column0, opener.value_at)
        if flow is not None:
            keys, key, on_key = flow
            inside = (*holder, opener.key, *keys)
            return Cursor(inside, key, on_key, word, line0, start, end)
    return Cursor(
        tuple(holder), opener.key, False, word, line0, start, end, value.split(" #")[0].strip()
    )
