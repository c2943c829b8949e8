"""Events → plain Python values (+ a shadow tree of positions), without recursion.

PyYAML's composers are recursive (the C one in Cython), so toskit reads the
*event stream* instead (both parsers produce events with an explicit state
stack) and builds values with its own explicit stack. Every bound is checked
as events arrive: nesting depth at each collection start, node counts at
each node, alias expansion at each alias use, so a hostile document stops
long before it costs anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml
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

from toskit.diagnostics import Diagnostic, format_path
from toskit.records import field, record, replace
from toskit.source.frozen import FrozenMap, freeze
from toskit.source.locations import AliasShadow, MapShadow, SeqShadow
from toskit.source.scalars import (
    CORE_TAG_PREFIX,
    MAX_HUGE_INT_KEYS,
    ScalarError,
    construct_tagged,
    resolve_plain,
    unsupported_tag_message,
)

__all__ = ["C_PARSER_AVAILABLE", "Composed", "compose", "find_non_printable", "make_parser"]

try:
    from yaml._yaml import CParser as _CParser

    C_PARSER_AVAILABLE = True
except ImportError:  # PyYAML built without libyaml
    _CParser = None
    C_PARSER_AVAILABLE = False


class _PyParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's pure-Python reader, scanner and parser; no composer.

    Two scanner methods are replaced by equivalent ones that run in constant
    time: PyYAML's scan every pending "possible simple key" (one per open
    flow level) for every token, so ``[[[[…`` costs O(tokens × depth) —
    seconds for a few hundred kilobytes. Keys are stored in insertion order,
    which is also token and position order, so the oldest key is the first
    one and stale keys (on an earlier line, or over 1024 characters back)
    form a prefix.
    """

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)

    def next_possible_simple_key(self) -> int | None:
        for key in self.possible_simple_keys.values():
            return key.token_number
        return None

    def stale_possible_simple_keys(self) -> None:
        keys = self.possible_simple_keys
        while keys:
            level = next(iter(keys))
            key = keys[level]
            if key.line == self.line and self.index - key.index <= 1024:
                return
            if key.required:
                raise yaml.scanner.ScannerError(
                    "while scanning a simple key",
                    key.mark,
                    "could not find expected ':'",
                    self.get_mark(),
                )
            del keys[level]

    def scan_plain(self) -> Any:
        """PyYAML's, but a ``?`` inside a plain scalar in flow context is text.

        YAML 1.2 and libyaml read ``[a?b]`` as ``['a?b']``; PyYAML's Python
        scanner stopped the scalar at the ``?`` (an error). Only the flow
        indicators ``,[]{}`` end a plain scalar in flow context here.
        """
        chunks: list[str] = []
        start_mark = self.get_mark()
        end_mark = start_mark
        indent = self.indent + 1
        spaces: list[str] = []
        ends = "\0 \t\r\n\x85\u2028\u2029"
        while True:
            length = 0
            if self.peek() == "#":
                break
            while True:
                ch = self.peek(length)
                if (
                    ch in ends
                    or (
                        ch == ":"
                        and self.peek(length + 1) in ends + (",[]{}" if self.flow_level else "")
                    )
                    or (self.flow_level and ch in ",[]{}")
                ):
                    break
                length += 1
            if length == 0:
                break
            self.allow_simple_key = False
            chunks.extend(spaces)
            chunks.append(self.prefix(length))
            self.forward(length)
            end_mark = self.get_mark()
            spaces = self.scan_plain_spaces(indent, start_mark)
            if not spaces or self.peek() == "#" or (not self.flow_level and self.column < indent):
                break
        return yaml.tokens.ScalarToken("".join(chunks), True, start_mark, end_mark)

    def scan_flow_scalar(self, style: str) -> Any:
        """PyYAML's, but an escape naming a surrogate (``"\\ud800"``) is an error.

        libyaml refuses one ("found invalid Unicode character escape code");
        PyYAML's Python scanner kept a lone surrogate in the value, a string
        that cannot even be written out as UTF-8. Both refuse, at the escape.
        """
        token = super().scan_flow_scalar(style)
        if style == '"' and _SURROGATE.search(token.value):
            start, end = token.start_mark, token.end_mark
            source = self.buffer[start.pointer : end.pointer]
            for match in _ESCAPE.finditer(source):
                code = match[1] or match[2]
                if code and 0xD800 <= int(code, 16) <= 0xDFFF:
                    before = source[: match.start() + 2]  # libyaml marks the hex digits
                    breaks = list(_LINE_BREAK.finditer(before))
                    line = start.line + len(breaks)
                    column = (
                        len(before) - breaks[-1].end() if breaks else start.column + len(before)
                    )
                    mark = yaml.error.Mark(
                        start.name, start.index + len(before), line, column, None, None
                    )
                    raise yaml.scanner.ScannerError(
                        "while parsing a quoted scalar",
                        start,
                        "found invalid Unicode character escape code",
                        mark,
                    )
        return token

    def scan_plain_spaces(self, indent: int, start_mark: Any) -> Any:
        """PyYAML's, but tabs are blanks inside a plain scalar, as in libyaml.

        libyaml reads ``a\tb`` and a flow scalar continued on a line that
        starts with a tab (``[a`` + a line break + ``\tb]``) as one scalar,
        and refuses a tab in the indentation of a continuation line ("found
        a tab character that violates indentation"); PyYAML's Python scanner
        ended the scalar at any tab. Both follow libyaml.
        """
        chunks: list[str] = []
        length = 0
        while self.peek(length) in " \t":
            length += 1
        whitespaces = self.prefix(length)
        self.forward(length)
        if self.peek() in "\r\n\x85\u2028\u2029":
            line_break = self.scan_line_break()
            self.allow_simple_key = True
            if self._at_document_marker():
                return None
            breaks = []
            while (ch := self.peek()) in " \t\r\n\x85\u2028\u2029":
                if ch == "\t" and self.column < indent:
                    raise yaml.scanner.ScannerError(
                        "while scanning a plain scalar",
                        start_mark,
                        "found a tab character that violates indentation",
                        self.get_mark(),
                    )
                if ch in " \t":
                    self.forward()
                else:
                    breaks.append(self.scan_line_break())
                    if self._at_document_marker():
                        return None
            if line_break != "\n":
                chunks.append(line_break)
            elif not breaks:
                chunks.append(" ")
            chunks.extend(breaks)
        elif whitespaces:
            chunks.append(whitespaces)
        return chunks

    def _at_document_marker(self) -> bool:
        return self.prefix(3) in ("---", "...") and self.peek(3) in "\0 \t\r\n\x85\u2028\u2029"

    def scan_directive(self) -> Any:
        """PyYAML's, but an unknown directive (``%FOO x``) is an error, as in libyaml.

        PyYAML's Python scanner skips the line; libyaml refuses it: the same
        text loaded on one parser and refused on the other. Both refuse.
        """
        start_mark = self.get_mark()
        self.forward()
        name = self.scan_directive_name(start_mark)
        if name == "YAML":
            value = self.scan_yaml_directive_value(start_mark)
        elif name == "TAG":
            value = self.scan_tag_directive_value(start_mark)
        else:
            raise yaml.scanner.ScannerError(
                "while scanning a directive",
                start_mark,
                "found unknown directive name",
                self.get_mark(),
            )
        end_mark = self.get_mark()
        self.scan_directive_ignored_line(start_mark)
        return yaml.tokens.DirectiveToken(name, value, start_mark, end_mark)

    def scan_to_next_token(self) -> None:
        """PyYAML's, and a byte-order mark that starts a later line is an error.

        libyaml skips a BOM at the start of *any* line while it looks for
        the next token (``---`` + a line break + ``\ufeffa: 1`` is
        ``{'a': 1}``), PyYAML's scanner only at the start of the text
        (``{'\ufeffa': 1}``): the same text read two ways. YAML allows a
        BOM only before a document and inside quoted scalars, so toskit
        refuses it there on both parsers (:func:`make_parser` gives such a
        text to this parser).
        """
        if self.index == 0 and self.peek() == "\ufeff":
            self.forward()
        while True:
            if self.column == 0 and self.index > 0 and self.peek() == "\ufeff":
                raise yaml.scanner.ScannerError(
                    None,
                    None,
                    "found a byte-order mark (U+FEFF) at the start of a line; "
                    "it is allowed only at the start of the text",
                    self.get_mark(),
                )
            # libyaml's rule for tabs (PyYAML's skips spaces only): a tab
            # separates tokens in flow context and where no simple key may
            # start (after a value on the line), so `{a:\tb}` reads alike.
            while self.peek() == " " or (
                self.peek() == "\t" and (self.flow_level or not self.allow_simple_key)
            ):
                self.forward()
            if self.peek() == "#":
                while self.peek() not in "\0\r\n\x85\u2028\u2029":
                    self.forward()
            if self.scan_line_break():
                if not self.flow_level:
                    self.allow_simple_key = True
            else:
                return


_SURROGATE = re.compile("[\ud800-\udfff]")
# A double-quoted scalar's escapes: \uXXXX, \UXXXXXXXX, or any other escape
# (consumed whole, so that ``\\ud800`` is a backslash and text).
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|.)", re.DOTALL)
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
# `?`, then only blanks, line breaks and comments, then `:` (see make_parser).
_EMPTY_EXPLICIT_KEY = re.compile("\\?(?:[ \t\r\n\x85\u2028\u2029]|#[^\r\n\x85\u2028\u2029]*)*:")


def _empty_explicit_key(text: str) -> bool:
    """Whether ``text`` may hold an explicit key indicator ``?`` followed by its value's ``:``.

    The ``?`` must stand where an indicator can (the text's start, after a
    blank, a line break, ``[``, ``{`` or ``,``), so a regular expression's
    ``(?:`` in a string is not one.
    """
    for match in _EMPTY_EXPLICIT_KEY.finditer(text):
        at = match.start()
        if at == 0 or text[at - 1] in " \t\r\n\x85\u2028\u2029[{,\ufeff":
            return True
    return False


def make_parser(text: str, parser: str | None) -> Any:
    """A PyYAML event source: ``"c"`` (libyaml), ``"python"``, or ``None`` (C when present)."""
    if parser is None:
        parser = "c" if C_PARSER_AVAILABLE else "python"
    if parser == "c":
        if not C_PARSER_AVAILABLE:
            raise ValueError("PyYAML was built without libyaml: parser='c' is not available")
        if text.find("\ufeff", 1) >= 0 or ("?" in text and _empty_explicit_key(text)):
            # libyaml skips a BOM at any line start, silently; the Python
            # parser refuses one (_PyParser.scan_to_next_token) at its place.
            # libyaml also refuses an explicit empty key with a value in a
            # flow sequence (`[? : a]`, valid YAML: `[{None: 'a'}]`), which
            # the Python parser reads as YAML says.
            return _PyParser(text)
        return _CParser(text)
    if parser == "python":
        return _PyParser(text)
    raise ValueError(f"parser must be 'c', 'python' or None, not {parser!r}")


_MAP_TAGS = frozenset({None, "!", CORE_TAG_PREFIX + "map"})
_PAIRS_TAGS = frozenset({CORE_TAG_PREFIX + "pairs", CORE_TAG_PREFIX + "omap"})
# !!pairs / !!omap (YAML's ordered pairs and ordered map, used by Fuel's
# release files) stay what they are written as: a list of one-key mappings.
_SEQ_TAGS = frozenset({None, "!", CORE_TAG_PREFIX + "seq"}) | _PAIRS_TAGS
_NO_KEY = object()  # a mapping frame waiting for its next key
_MERGE = object()  # the key of a plain `<<` (merge) entry
_OPEN = object()  # an anchor whose collection is still being built
_NUMBER_START = frozenset("0123456789+-.")
_MERGE_HINT = "a merge key '<<' takes an alias to a mapping, a mapping, or a list of them"


@record
class Composed:
    """What :func:`compose` found: the value, the shadow tree and diagnostics.

    ``value`` is ``None`` when a ``yaml-syntax`` or ``limit-exceeded`` error
    was found (the document is not trustworthy); duplicate keys keep the
    value (the first occurrence of a key wins).
    """

    value: Any = None
    shadow: Any = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    fatal: bool = False


class _Frame:
    """A mapping or sequence being built (one per open collection)."""

    __slots__ = (
        "is_map", "value", "key", "key_pos", "anchor", "start_count",
        "frozen", "merges", "shadow", "line", "column", "tag",
    )  # fmt: skip
    # Declared for the type checker only (no class attributes: __slots__).
    is_map: bool
    value: Any  # the dict or list being built
    key: Any  # the pending key, or _NO_KEY
    key_pos: tuple[int, int]
    anchor: str | None
    start_count: int
    frozen: bool
    merges: Any  # None, or the (source, shadow) pairs of its << keys
    shadow: Any  # a MapShadow when is_map, else a SeqShadow
    line: int
    column: int
    tag: Any  # the event's tag (str | None); read where is_map/tag say which


class _Stop(Exception):
    """Abort composing: a bound was exceeded or the stream is malformed."""


#: Diagnostics of one code listed per document; the rest are counted (#19:
#: a line of thousands of bad tags must not print thousands of errors).
MAX_PER_KIND = 100
_HASH_MODULUS = (1 << 61) - 1


class _Composer:
    def __init__(
        self,
        limits: dict[str, int],
        report: Callable[..., Diagnostic],
    ) -> None:
        self.max_depth = limits["max_depth"]
        self.max_nodes = limits["max_nodes"]
        self.max_alias_nodes = limits["max_alias_nodes"]
        self.report = report  # report(code, message, line0, col0, hint, path)
        self.diagnostics: list[Diagnostic] = []
        self.fatal = False
        self.stack: list[_Frame] = []
        self.anchors: dict[str, Any] = {}  # name -> (value, shadow, size) or _OPEN
        self.count = 0  # nodes so far, aliases counted expanded
        self.documents = 0
        self.root: Any = None
        self.root_shadow: Any = None
        self.last_start_index = 0
        self.per_kind: dict[str, int] = {}
        self.suppressed: dict[str, list[int]] = {}  # code -> [count, line0, column0]
        self.huge_int_keys = 0

    def current_path(self, last_key: Any = _NO_KEY) -> list:
        """Keys and indices from the root to the node being built (``last_key`` appended)."""
        parts: list = []
        for frame in self.stack:
            if not frame.is_map:
                parts.append(len(frame.value))
            elif frame.key is _NO_KEY:
                break  # inside a key that is being built
            else:
                parts.append("<<" if frame.key is _MERGE else frame.key)
        if last_key is not _NO_KEY:
            parts.append(last_key)
        return parts

    def may_be_too_deep(self, text: str, exc: yaml.YAMLError) -> bool:
        """Could this parser error be libyaml's own nesting limit (1000 levels)?

        libyaml's scanner runs up to a line (1024 characters) ahead of the
        events, so on ``[[[[…`` it can hit its limit before toskit sees level
        ``max_depth``. True when the flow openers in that look-ahead window
        could take the depth over ``max_depth``.
        """
        mark = getattr(exc, "problem_mark", None)
        if mark is None:
            return False
        window = text[self.last_start_index : mark.index + 1]
        opens = len(self.stack) + window.count("[") + window.count("{")
        return opens > min(self.max_depth, 999)

    def error(
        self,
        code: str,
        message: str,
        line: int,
        column: int,
        hint: str | None = None,
        key: Any = _NO_KEY,
    ) -> None:
        """Record a diagnostic at a 0-based position, with the path being built.

        After :data:`MAX_PER_KIND` of one code, further ones are only counted
        (:meth:`summaries` reports the count).
        """
        if code != "duplicate-key":
            self.fatal = True
        seen = self.per_kind.get(code, 0)
        self.per_kind[code] = seen + 1
        if seen >= MAX_PER_KIND:
            entry = self.suppressed.setdefault(code, [0, line, column])
            entry[0] += 1
            return
        path = format_path(self.current_path(key))
        self.diagnostics.append(self.report(code, message, line, column, hint, path))

    def summaries(self) -> list[Diagnostic]:
        """One diagnostic per code over :data:`MAX_PER_KIND`: "and N more".

        Each has ``omitted`` set, so counts of diagnostics include what it hides.
        """
        return [
            replace(
                self.report(
                    code,
                    f"and {count} more {code} problem(s) in this document "
                    f"(only the first {MAX_PER_KIND} are listed)",
                    line,
                    column,
                    None,
                    "",
                ),
                omitted=count,
            )
            for code, (count, line, column) in self.suppressed.items()
        ]

    def run(self, get_event: Callable[[], Any]) -> tuple[Any, Any]:
        """Read events until the stream ends; ``(value, shadow)`` or ``(None, None)``."""
        handlers = {
            ScalarEvent: self.on_scalar,
            MappingStartEvent: self.on_collection_start,
            SequenceStartEvent: self.on_collection_start,
            MappingEndEvent: self.on_collection_end,
            SequenceEndEvent: self.on_collection_end,
            AliasEvent: self.on_alias,
            DocumentStartEvent: self.on_document_start,
        }
        try:
            while True:
                event = get_event()
                handler = handlers.get(event.__class__)
                if handler is not None:
                    handler(event)
                elif event.__class__ is StreamEndEvent:
                    return self.root, self.root_shadow
        except _Stop:
            return None, None

    # -- event handlers ----------------------------------------------------

    def on_scalar(self, event: ScalarEvent) -> None:
        self.count_nodes(1, event)
        mark = event.start_mark
        value = self.scalar_value(event)
        shadow = (mark.line, mark.column)
        if event.anchor is not None:
            self.anchors[event.anchor] = (value if value is not _MERGE else "<<", shadow, 1)
        self.deliver(value, shadow, mark.line, mark.column)

    def scalar_value(self, event: ScalarEvent) -> Any:
        """The value of a scalar: resolved when plain, constructed when tagged."""
        text = event.value
        tag = event.tag
        if tag is None:
            if not event.implicit[0]:
                return text  # quoted or block scalar: always a string
            # Only scalars that start like a number, or are short enough to be
            # null/true/false/<<, can be anything but a string.
            if text and text[0] not in _NUMBER_START and len(text) > 5:
                return text
            if text == "<<":
                top = self.stack[-1] if self.stack else None
                if top is not None and top.is_map and top.key is _NO_KEY:
                    return _MERGE
        try:
            return resolve_plain(text) if tag is None else construct_tagged(tag, text)
        except ScalarError as exc:
            self.error(exc.code, str(exc), event.start_mark.line, event.start_mark.column)
            return None

    def on_collection_start(self, event: MappingStartEvent | SequenceStartEvent) -> None:
        self.count_nodes(1, event)
        mark = event.start_mark
        stack = self.stack
        if len(stack) >= self.max_depth:
            self.error(
                "limit-exceeded",
                f"nesting deeper than {self.max_depth} levels",
                mark.line,
                mark.column,
                "raise the bound with max_depth=… if this document is trusted",
            )
            raise _Stop
        self.last_start_index = mark.index
        is_map = event.__class__ is MappingStartEvent
        if event.tag not in (_MAP_TAGS if is_map else _SEQ_TAGS):
            self.error("yaml-syntax", unsupported_tag_message(event.tag), mark.line, mark.column)
        frame = _Frame()
        frame.is_map = is_map
        frame.value = {} if is_map else []
        frame.key = _NO_KEY
        frame.merges = None
        frame.anchor = event.anchor
        frame.tag = event.tag
        frame.start_count = self.count
        parent = stack[-1] if stack else None
        # Collections inside a mapping key are built frozen (hashable).
        frame.frozen = parent is not None and (
            parent.frozen or (parent.is_map and parent.key is _NO_KEY)
        )
        frame.line, frame.column = mark.line, mark.column
        frame.shadow = (MapShadow if is_map else SeqShadow)(mark.line, mark.column)
        if event.anchor is not None:
            self.anchors[event.anchor] = _OPEN
        stack.append(frame)

    def on_collection_end(self, event: MappingEndEvent | SequenceEndEvent) -> None:
        frame = self.stack.pop()
        value = frame.value
        if frame.tag in _PAIRS_TAGS:
            self.check_pairs(frame)
        if frame.merges:
            value = self.apply_merges(frame)
        if frame.frozen:
            value = FrozenMap(value) if frame.is_map else tuple(value)
        shadow = frame.shadow
        if frame.anchor is not None:
            size = self.count - frame.start_count + 1
            self.anchors[frame.anchor] = (value, shadow, size)
        self.deliver(value, shadow, frame.line, frame.column)

    def on_alias(self, event: AliasEvent) -> None:
        mark = event.start_mark
        name = event.anchor
        target = self.anchors.get(name)
        if target is None:
            self.error(
                "yaml-syntax",
                f"alias '*{name}' names no anchor defined before it",
                mark.line,
                mark.column,
                f"define '&{name}' on a node above this line",
            )
            raise _Stop
        if target is _OPEN:
            self.error(
                "yaml-syntax",
                f"alias '*{name}' is used inside the node it names",
                mark.line,
                mark.column,
                "recursive structures are not allowed",
            )
            raise _Stop
        value, target_shadow, size = target
        if size > self.max_alias_nodes:
            self.error(
                "limit-exceeded",
                f"alias '*{name}' expands to {size} nodes "
                f"(at most {self.max_alias_nodes} per alias)",
                mark.line,
                mark.column,
                "raise the bound with max_alias_nodes=… if this document is trusted",
            )
            raise _Stop
        self.count_nodes(size, event)
        if self.stack and self.stack[-1].frozen and value.__class__ in (dict, list):
            value = freeze(value)
        shadow = AliasShadow(mark.line, mark.column, target_shadow)
        self.deliver(value, shadow, mark.line, mark.column)

    def on_document_start(self, event: DocumentStartEvent) -> None:
        self.documents += 1
        if self.documents > 1:
            mark = event.start_mark
            self.error(
                "yaml-syntax",
                "expected a single document, found a second one",
                mark.line,
                mark.column,
                "a file holds one document: remove this '---' and what follows, or split the file",
            )
            raise _Stop

    # -- building ------------------------------------------------------------

    def count_nodes(self, n: int, event: Any) -> None:
        """Add ``n`` nodes (an alias adds its anchor's expanded size)."""
        self.count += n
        if self.count > self.max_nodes:
            self.too_many_nodes(event)

    def deliver(self, value: Any, shadow: Any, line: int, column: int) -> None:
        """Put a finished node into its parent (as a key, a value or an item)."""
        stack = self.stack
        if not stack:
            self.root, self.root_shadow = value, shadow
            return
        top = stack[-1]
        if not top.is_map:
            top.value.append(value)
            top.shadow.items.append(shadow)
            return
        key = top.key
        if key is _NO_KEY:
            if value.__class__ is dict or value.__class__ is list:
                value = freeze(value)  # an alias to a collection used as a key
            top.key = value
            top.key_pos = (line, column)
            return
        top.key = _NO_KEY
        if key is _MERGE:
            self.add_merge(top, value, shadow, line, column)
            return
        data = top.value
        if key.__class__ is int and not -_HASH_MODULUS < key < _HASH_MODULUS:
            self.huge_int_keys += 1
            if self.huge_int_keys > MAX_HUGE_INT_KEYS:
                kline, kcol = top.key_pos
                self.error(
                    "limit-exceeded",
                    f"more than {MAX_HUGE_INT_KEYS} integer keys of 19 or more digits "
                    "(such keys can share one hash, which makes loading quadratic)",
                    kline,
                    kcol,
                    "write such keys as strings (quoted)",
                    key=key,
                )
                raise _Stop
        if key in data:
            kline, kcol = top.key_pos
            self.error(
                "duplicate-key",
                _duplicate_message(key, data, top.shadow.entries),
                kline,
                kcol,
                "a key may appear only once in a mapping; the first value is kept",
                key=key,
            )
            return
        data[key] = value
        kline, kcol = top.key_pos
        top.shadow.entries[key] = (kline, kcol, shadow)

    def too_many_nodes(self, event: Any) -> None:
        mark = event.start_mark
        self.error(
            "limit-exceeded",
            f"document has more than {self.max_nodes} nodes (aliases counted as expanded)",
            mark.line,
            mark.column,
            "raise the bound with max_nodes=… if this document is trusted",
        )
        raise _Stop

    def check_pairs(self, frame: _Frame) -> None:
        """``!!pairs``/``!!omap``: a sequence of one-key mappings (``!!omap``: keys unique)."""
        name = "!!" + frame.tag[len(CORE_TAG_PREFIX) :]
        seen: set = set()
        for item in frame.value:
            if not isinstance(item, (dict, FrozenMap)) or len(item) != 1:
                self.error(
                    "yaml-syntax",
                    f"{name} needs a sequence of one-key mappings ('- key: value')",
                    frame.line,
                    frame.column,
                )
                return
            if name == "!!omap":
                (key,) = item
                if key in seen:
                    self.error(
                        "duplicate-key",
                        f"duplicate key '{_show_key(key)}' in !!omap",
                        frame.line,
                        frame.column,
                    )
                seen.add(key)

    def add_merge(self, frame: _Frame, value: Any, shadow: Any, line: int, column: int) -> None:
        """Record the sources of a ``<<`` entry; applied when the mapping ends."""
        if isinstance(value, (dict, FrozenMap)):
            sources = [(value, shadow)]
        elif isinstance(value, (list, tuple)) and all(
            isinstance(v, (dict, FrozenMap)) for v in value
        ):
            items = _deref_shadow(shadow).items
            sources = list(zip(value, items))
        else:
            self.error(
                "yaml-syntax", "the value of a merge key '<<' is not a mapping", line, column,
                _MERGE_HINT, key="<<",
            )  # fmt: skip
            return
        if frame.merges is None:
            frame.merges = []
        frame.merges.extend(sources)

    def apply_merges(self, frame: _Frame) -> dict:
        """Explicit keys win over merged ones; earlier merge sources win over later."""
        explicit = frame.value
        merged: dict = {}
        merged_shadows: dict = {}
        for source, shadow in frame.merges:
            entries = _deref_shadow(shadow).entries
            for key, value in source.items():
                if key not in merged and key not in explicit:
                    merged[key] = freeze(value) if frame.frozen else value
                    if entries is not None and key in entries:
                        merged_shadows[key] = entries[key]
        merged.update(explicit)
        merged_shadows.update(frame.shadow.entries)
        frame.shadow.entries = merged_shadows
        return merged


def _show_key(key: Any) -> str:
    """A key as YAML would write it (``true``, ``null``, ``1``, ``name``)."""
    if key is True or key is False:
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, str):
        return key
    return repr(key)


def _duplicate_message(key: Any, data: dict, entries: dict | None) -> str:
    first = next((k for k in data if k == key), key)
    where = ""
    if entries is not None and first in entries:
        where = f" at line {entries[first][0] + 1}"
    if type(first) is type(key) and first == key:
        return f"duplicate key '{_show_key(key)}' (first written{where})"
    return f"duplicate key '{_show_key(key)}': equal to the key '{_show_key(first)}'{where}"


def _deref_shadow(shadow: Any) -> Any:
    while isinstance(shadow, AliasShadow):
        shadow = shadow.target
    return shadow


# Characters PyYAML's reader refuses; checked up front so that both parsers
# report them the same way (libyaml reports byte offsets, PyYAML characters).
_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def find_non_printable(text: str) -> int | None:
    """Index of the first character YAML does not allow, or ``None``."""
    match = _NON_PRINTABLE.search(text)
    return match.start() if match else None


def compose(
    text: str,
    *,
    limits: dict[str, int],
    parser: str | None,
    report: Callable[..., Diagnostic],
    syntax_error: Callable[[yaml.YAMLError], Diagnostic],
) -> Composed:
    """Parse ``text`` and build its value and shadow tree."""
    composer = _Composer(limits, report)
    source = make_parser(text, parser)
    try:
        value, shadow = composer.run(source.get_event)
    except yaml.YAMLError as exc:
        if isinstance(source, _PyParser) or not composer.may_be_too_deep(text, exc):
            composer.diagnostics.append(syntax_error(exc))
            return Composed(None, None, composer.diagnostics, True)
        # The pure-Python parser has no nesting limit of its own: it lets
        # toskit report the depth bound (or the real error) at its place.
        return compose(
            text,
            limits=limits,
            parser="python",
            report=report,
            syntax_error=syntax_error,
        )
    finally:
        dispose = getattr(source, "dispose", None)
        if dispose is not None:
            dispose()
    composer.diagnostics.extend(composer.summaries())
    if composer.fatal:
        return Composed(None, None, composer.diagnostics, True)
    return Composed(value, shadow, composer.diagnostics, False)
