"""Where each node of a clean document was written, found without building its values.

An explanation needs the line of every layer it shows, and a document loaded
by the fast parser keeps no positions: ``YamlDocument.position_tree()``
composes them on first use with PyYAML, building every value again beside
the position tree (about as long as the load itself on benchmark B1). The
values are already loaded, so :func:`position_tree` reads the same PyYAML
events and builds the position tree alone (about 40 % less), with the same
classes (:mod:`toskit.source.locations`) and the same positions.

Cheaper still, a document written in YAML's plain block forms is read from
its lines without PyYAML at all (``_scan``, ~1.4x faster than the events on
B1; PyYAML's event objects were half of the composing): each row's
indentation, its key up to ``": "``, a value's first character, a one-line
flow list split at its commas, led by the values already loaded, every key
text checked to resolve to the key expected. What it does not read plainly
(see the comment above ``_scan``) goes to the event reader;
``tests/explain/test_position_lines.py`` holds the two equal.

It answers only for what it reproduces exactly: a document without
diagnostics, one document, untagged nodes, no anchor, alias or merge key
(``<<``), scalar keys only, no duplicate key, nested within the default
bound. For anything else, or a text PyYAML refuses, it
returns ``None`` and the caller uses the document's own tree
(``tests/explain/test_positions_and_blame.py`` holds the two equal over the
examples and the test data).
"""

from __future__ import annotations

import weakref
from typing import Any

from toskit.source.locations import MapShadow, SeqShadow
from toskit.source.scalars import ScalarError, resolve_plain

__all__ = ["position_tree"]


_UNSEEN: Any = object()


class _Decline(Exception):
    """Something only the full composer reproduces: use the document's tree."""


# One tree per document, kept as long as the document lives: explanations of
# entities whose template is gone (each then has a memo of its own) share it.
_TREES: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def position_tree(doc: Any) -> Any:
    """The root of ``doc``'s position tree, as ``doc.position_tree()`` would
    give it, or ``None`` when this document is not one this reads exactly.
    Read once per document."""
    if doc is None:
        return None
    try:
        return _TREES[doc]
    except KeyError:
        pass
    tree = _TREES[doc] = _read(doc)
    return tree


def _read(doc: Any) -> Any:
    if doc.value is None or doc.diagnostics or not isinstance(doc.text, str):
        return None
    from toskit.source.document import LIMIT_DEFAULTS

    tree = _scan(doc.text, doc.value, LIMIT_DEFAULTS["max_depth"])
    if tree is not None:
        return tree
    import yaml  # on use: `toskit check` never needs positions

    from toskit.source.compose import make_parser

    try:
        # The document loaded without a diagnostic under its own bounds: composing
        # it crosses none (the node count is not kept); the nesting stays bounded.
        return _compose(make_parser(doc.text, None), LIMIT_DEFAULTS["max_depth"])
    except (_Decline, yaml.YAMLError, ScalarError, ValueError):
        return None


def _compose(parser: Any, max_depth: int) -> Any:
    from yaml.events import (
        AliasEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    get_event = parser.get_event
    # The open collection in locals (the loop runs once an event): its shadow,
    # a map's entries or a list's items, and a map's pending key as
    # (value, line, column); the enclosing ones saved on ``stack``.
    stack: list[tuple[Any, Any, Any, Any]] = []
    shadow: Any = None
    root: Any = None
    entries: dict | None = None
    items: list | None = None
    key: Any = None
    documents = 0
    plain_keys: dict[str, Any] = {}  # a plain key's text -> its value
    while True:
        event = get_event()
        cls = event.__class__
        if cls is ScalarEvent:
            if event.tag is not None or event.anchor is not None:
                raise _Decline
            mark = event.start_mark
            node = (mark.line, mark.column)
            if entries is not None:
                if key is None:  # a key: (value, line, column); _key's work, inline
                    text = event.value
                    if event.implicit[0]:  # plain
                        # Keys repeat (``type``, ``properties``): each text resolved once.
                        value = plain_keys.get(text, _UNSEEN)
                        if value is _UNSEEN:
                            if text == "<<":
                                raise _Decline  # a merge key
                            value = plain_keys[text] = resolve_plain(text)
                    else:
                        value = text
                    if value in entries:
                        raise _Decline  # a duplicate key
                    key = (value, node[0], node[1])
                    continue
                entries[key[0]] = (key[1], key[2], node)
                key = None
            elif items is not None:
                items.append(node)
            else:
                root = node
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if (
                len(stack) >= max_depth  # nested past the bound
                or (entries is not None and key is None)  # a collection as a key
                or event.tag is not None
                or event.anchor is not None
            ):
                raise _Decline
            mark = event.start_mark
            stack.append((shadow, entries, items, key))
            if cls is MappingStartEvent:
                shadow = MapShadow(mark.line, mark.column)
                entries, items = shadow.entries, None
            else:
                shadow = SeqShadow(mark.line, mark.column)
                entries, items = None, shadow.items
            key = None
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            done = shadow
            shadow, entries, items, key = stack.pop()
            if entries is not None:
                entries[key[0]] = (key[1], key[2], done)
                key = None
            elif items is not None:
                items.append(done)
            else:
                root = done
        elif cls is AliasEvent or (cls is DocumentStartEvent and documents):
            raise _Decline  # an alias, a second document
        elif cls is DocumentStartEvent:
            documents = 1
        elif cls is StreamEndEvent:
            return root


# --- the line scanner: positions read from the text itself, led by the values ---

# A document that needs none of YAML's harder forms is read from its lines: each
# line's indentation, a key up to ": ", a scalar's first character, a one-line
# flow list split at its commas. The values already loaded lead the way (the
# keys expected in their order, which entry holds a map, a list or a scalar),
# and each key text read must resolve to the key expected, so a line this
# misreads is a decline, never a wrong position. Whatever it does not read
# plainly (a comment after content, a quote that could span lines, a block
# scalar, a tag, an anchor, a flow map, a scalar continued on the next line,
# a tab or a line break other than ``\n``) goes to :func:`_compose`.

_ODD_TEXT = frozenset("\t\r\x85\u2028\u2029\ufeff")
# A plain scalar or key starting with one of these is left to the composer.
_ODD_START = frozenset("[]{}&*!|>%@`?:,#\"'")
_ODD_FLOW = frozenset("[]{}\"':#")
_ODD_VALUE = _ODD_START | {"-"}  # a value starting so is read by ``_Lines.value``
_ODD_FIRST = _ODD_VALUE | {" "}  # after ": ", more spaces: the general path


def _scan(text: str, value: Any, max_depth: int) -> Any:
    if not isinstance(value, (dict, list)) or not value or not _ODD_TEXT.isdisjoint(text):
        return None
    rows: list[tuple[int, int, str]] = []
    started = False
    for number, line in enumerate(text.split("\n")):
        stripped = line.lstrip(" ")
        if not stripped or stripped[0] == "#":
            continue  # blank, or a comment of its own
        body = stripped.rstrip(" ")
        if "#" in body:
            return None  # a comment after content (or a "#" in a scalar)
        if line[0] in "-.%" and line.startswith(("---", "...", "%")):
            if started or body != "---" or line[0] != "-":
                return None  # only a bare "---" before the content
            started = True
            continue
        started = True
        rows.append((number, len(line) - len(stripped), body))
    scanner = _Lines(rows, max_depth)
    try:
        root = scanner.node(value, rows[0][1], 0) if rows else None
    except (_Decline, ScalarError, ValueError, IndexError):
        return None
    return root if root is not None and scanner.i == len(rows) else None


class _Lines:
    """The walk over a document's content lines (``rows``: number, indentation, text)."""

    __slots__ = ("rows", "i", "max_depth", "keys")

    def __init__(self, rows: list[tuple[int, int, str]], max_depth: int) -> None:
        self.rows = rows
        self.i = 0
        self.max_depth = max_depth
        self.keys: dict[str, Any] = {}  # a plain key's text -> its value

    def node(self, value: Any, indent: int, depth: int) -> Any:
        """The block collection ``value`` starting on the current row at ``indent``."""
        if depth >= self.max_depth:
            raise _Decline
        if value.__class__ is dict:
            return self.block_map(value, indent, depth)
        return self.block_seq(value, indent, depth)

    def block_map(self, value: dict, indent: int, depth: int) -> MapShadow:
        rows, keys = self.rows, self.keys
        end = len(rows)
        i = self.i
        shadow = MapShadow(rows[i][0], indent)
        entries = shadow.entries
        for key, item in value.items():
            number, column, body = rows[i]
            if column != indent:
                raise _Decline
            cut = body.find(": ")
            text = body[:cut] if cut > 0 else body[:-1]
            found = keys.get(text, _UNSEEN)
            if found is _UNSEEN:  # each key text checked and resolved once a document
                plain = text.rstrip(" ")
                if (
                    (cut < 0 and body[-1] != ":")
                    or not plain
                    or plain[0] in _ODD_START
                    or plain[:2] == "- "
                    or plain == "<<"
                ):
                    raise _Decline
                found = keys[text] = resolve_plain(plain)
            if found != key or found.__class__ is not key.__class__:
                raise _Decline
            cls = item.__class__
            if cut > 0 and body[cut + 2] not in _ODD_FIRST and cls is not dict and cls is not list:
                # a plain scalar one space after the key (most entries): inline
                i += 1
                if i < end and rows[i][1] > column:
                    raise _Decline  # continued on the next row
                entries[key] = (number, column, (number, column + cut + 2))
                continue
            if cut < 0:
                if body[-1] != ":":
                    raise _Decline
                cut = len(body) - 1
                rest = ""
            else:
                rest = body[cut + 2 :].lstrip(" ")
            if not rest and cls is dict and i + 1 < end and rows[i + 1][1] > column:
                # a map on the rows below (the other common entry): straight in
                if depth + 1 >= self.max_depth:
                    raise _Decline
                self.i = i + 1
                child = self.block_map(item, rows[i + 1][1], depth + 1)
            else:
                self.i = i
                child = self.value(
                    item, rest, number, column + len(body) - len(rest), column, cut + 1, depth
                )
            entries[key] = (number, column, child)
            i = self.i
        if i < end and rows[i][1] >= indent:
            raise _Decline  # more at this indentation than the map holds
        self.i = i
        return shadow

    def block_seq(self, value: list, indent: int, depth: int) -> SeqShadow:
        rows = self.rows
        i = self.i
        shadow = SeqShadow(rows[i][0], indent)
        items = shadow.items
        for item in value:
            number, column, body = rows[i]
            if column != indent or not (body[:2] == "- " or body == "-"):
                raise _Decline
            rest = body[2:].lstrip(" ")
            self.i = i
            items.append(
                self.value(item, rest, number, column + len(body) - len(rest), column, 1, depth)
            )
            i = self.i
        if i < len(rows) and (
            rows[i][1] > indent
            or (rows[i][1] == indent and (rows[i][2][:2] == "- " or rows[i][2] == "-"))
        ):
            raise _Decline  # more at this indentation than the list holds
        return shadow

    def value(
        self, item: Any, rest: str, number: int, at: int, column: int, mark: int, depth: int
    ) -> Any:
        """The node of ``item`` written as ``rest`` (at column ``at`` of row ``number``)
        after a key or dash at ``column``; ``mark`` is where an empty scalar's mark is
        (the indicator's end, from ``column``). Leaves ``self.i`` on the next row."""
        rows = self.rows
        cls = item.__class__
        if not rest:
            i = self.i = self.i + 1
            below = rows[i][1] if i < len(rows) else -1
            if cls is dict and below > column:
                return self.node(item, below, depth + 1)
            if cls is list and below >= column and (rows[i][2][:2] == "- " or rows[i][2] == "-"):
                if below == column and mark == 1:
                    raise _Decline  # a dash's list at the dash's own indentation
                return self.node(item, below, depth + 1)
            if item is None and below <= column:
                return (number, column + mark)
            raise _Decline
        if cls is dict or cls is list:
            if rest[0] == "[" and cls is list:
                node: Any = self.flow_seq(item, rest, number, at)
            elif rest == "{}" and cls is dict and not item:
                node = MapShadow(number, at)
            elif mark == 1 and rest[0] not in _ODD_START and (cls is dict or rest[:2] == "- "):
                # the collection starts on the dash's own row: read that row from ``at``
                self.rows[self.i] = (number, at, rest)
                return self.node(item, at, depth + 1)
            else:
                raise _Decline
        else:
            first = rest[0]
            if first == '"':
                if len(rest) < 2 or rest[-1] != '"' or '"' in rest[1:-1] or "\\" in rest:
                    raise _Decline
            elif first == "'":
                if len(rest) < 2 or rest[-1] != "'" or "'" in rest[1:-1]:
                    raise _Decline
            elif first in _ODD_START or rest[:2] == "- " or rest == "-":
                raise _Decline
            node = (number, at)
        i = self.i = self.i + 1
        if i < len(rows) and rows[i][1] > column:
            raise _Decline  # continued on the next row
        return node

    def flow_seq(self, item: list, rest: str, number: int, at: int) -> SeqShadow:
        if rest[-1] != "]":
            raise _Decline
        inner = rest[1:-1]
        if not _ODD_FLOW.isdisjoint(inner):
            raise _Decline
        shadow = SeqShadow(number, at)
        if not inner.strip(" "):
            if item:
                raise _Decline
            return shadow
        pieces = inner.split(",")
        if len(pieces) != len(item):
            raise _Decline
        items = shadow.items
        offset = at + 1
        for piece, one in zip(pieces, item):
            lead = piece.lstrip(" ")
            if (
                not lead
                or one.__class__ is dict
                or one.__class__ is list
                or lead[0] in _ODD_START
                or lead[:2] == "- "
                or lead == "-"
            ):
                raise _Decline
            items.append((number, offset + len(piece) - len(lead)))
            offset += len(piece) + 1
        return shadow
