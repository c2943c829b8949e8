"""``YamlDocument`` and ``load_yaml``: safe YAML with locations and limits."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, Fix, Related, Subject, did_you_mean, format_path, suggest
from toskit.errors import ToskitError
from toskit.patterns import lazy_pattern
from toskit.records import replace
from toskit.source.fast import FALLBACK, load_fast
from toskit.source.fast import select as select_parser
from toskit.source.locations import Location, find, key_paths, walk
from toskit.source.spans import first_duplicate, span_end, span_of_line, span_of_token, yaml_text
from toskit.source.subjects import subject_of

if TYPE_CHECKING:
    from toskit.source.compose import Composed

# PyYAML (toskit.source.compose, .hints) is imported only where it is used:
# text the rapidyaml path declines, a syntax error, the first location asked
# of a document (issue #31: `toskit check` of a clean file never needs it).

__all__ = [
    "LIMIT_DEFAULTS",
    "YamlDocument",
    "load_yaml",
    "load_yaml_file",
    "read_text_file",
    "read_text_stream",
    "resolve_limits",
    "SizeExceeded",
]

LIMIT_DEFAULTS: dict[str, int] = {
    "max_alias_nodes": 10_000,
    "max_nodes": 1_000_000,
    "max_depth": 500,
    "max_size": 50_000_000,
    "max_import_depth": 1_000,
}

# YAML's line breaks (both PyYAML parsers count lines with these).
_LINE_BREAK = lazy_pattern("\r\n|[\r\n\x85\u2028\u2029]")


def resolve_limits(limits: dict[str, Any]) -> dict[str, int]:
    """``LIMIT_DEFAULTS`` overridden by ``limits`` (``None`` = default).

    An unknown name is a ``TypeError`` (a wrong keyword argument), a value
    that is not a positive integer a ``ValueError``.
    """
    resolved = dict(LIMIT_DEFAULTS)
    for key, value in limits.items():
        if key not in LIMIT_DEFAULTS:
            hint = did_you_mean(key, LIMIT_DEFAULTS)
            raise TypeError(
                f"unknown loader limit {key!r}"
                + (f"; {hint}" if hint else f" (known: {', '.join(LIMIT_DEFAULTS)})")
            )
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"loader limit {key} must be a positive integer, not {value!r}")
        resolved[key] = value
    return resolved


class YamlDocument:
    """A loaded YAML document: its value, its diagnostics, its locations.

    ``value`` is plain data (``dict``/``list``/``str``/``int``/``float``/
    ``bool``/``None``; mapping keys that are collections are
    :class:`~toskit.source.FrozenMap`/tuples). Values reached through an
    alias are the *same* object as the anchored one (as with PyYAML).
    ``value`` is ``None`` when a ``yaml-syntax`` or ``limit-exceeded`` error
    was found.

    Locations are looked up by path (keys and list indices) in a tree of
    positions kept beside the value; see :meth:`locate`.
    """

    def __init__(
        self,
        name: str,
        text: str,
        value: Any,
        diagnostics: list[Diagnostic],
        *,
        shadow: Any = None,
        limits: dict[str, int] | None = None,
        parser: str | None = None,
    ) -> None:
        self.name = name
        self.text = text
        self.value = value
        self.diagnostics = diagnostics
        self._shadow = shadow
        # Without a shadow tree, one is built from ``text`` on first use.
        self._shadow_pending = shadow is None and value is not None
        self._limits = limits or dict(LIMIT_DEFAULTS)
        self._parser = parser
        # Every mapping key of ``value`` when all are strings and the parse
        # path knows them (the fast path), else ``None`` (not known): lets a
        # reader rule out a key it looks for without walking the value.
        self.key_names: frozenset[str] | None = None
        self._lines: list[str] | None = None
        # Spans already found, and how far long lines were read (spans.span_end).
        self._span_memo: dict = {}

    def __repr__(self) -> str:
        errors = sum(d.severity == "error" for d in self.diagnostics)
        kind = type(self.value).__name__
        return f"<YamlDocument {self.name!r}: {kind}, {errors} error(s)>"

    def _root_shadow(self) -> Any:
        if self._shadow_pending:
            self._shadow_pending = False
            composed = _compose_text(self.text, self.name, self._limits, self._parser, self)
            self._shadow = composed.shadow
        return self._shadow

    def position_tree(self) -> Any:
        """The root of the document's shadow tree (:mod:`toskit.source.locations`),
        composed on first use; ``None`` when the document has no value. For a
        caller that locates many paths under one node: it may keep that node
        and :func:`~toskit.source.locations.walk` on from it (``explain`` does)."""
        return self._root_shadow()

    def _clamp(self, line0: int, column0: int) -> tuple[int, int]:
        """libyaml places the end of a text without a final line break on a
        line of its own; PyYAML's Python parser (and toskit) at the end of
        the last line."""
        lines = self._split_lines()
        if line0 >= len(lines):
            return len(lines) - 1, len(lines[-1])
        return line0, column0

    def _split_lines(self) -> list[str]:
        if self._lines is None:
            self._lines = _LINE_BREAK.split(self.text)
            # Both parsers skip a leading byte-order mark without counting it.
            if self._lines[0].startswith("\ufeff"):
                self._lines[0] = self._lines[0][1:]
        return self._lines

    def _location(self, position: tuple[int, int] | None) -> Location | None:
        if position is None:
            return None
        line0, column0 = self._clamp(*position)
        return Location(self.name, line0 + 1, column0 + 1)

    def locate(self, path: Sequence[Hashable]) -> Location | None:
        """Location of the value at ``path`` (deepest existing ancestor if missing).

        ``path`` is a sequence of mapping keys and list indices. A path
        through an alias continues inside the anchored node; a path ending
        at an alias gives the alias's own position. A key that came from a
        merge (``<<: *base``) is located where it is written in ``base``.
        ``None`` when the document has no value (a syntax error). A string
        ``path`` is one key (``locate("imports")``), not a sequence of letters.
        """
        return self._location(walk(self._root_shadow(), _parts(path)))

    def locate_key(self, path: Sequence[Hashable]) -> Location | None:
        """Location of the key that is the last element of ``path``.

        For a list index, the item's position; for a missing key, the same
        as :meth:`locate`.
        """
        return self._location(walk(self._root_shadow(), _parts(path), key=True))

    def line_text(self, line: int) -> str | None:
        """The text of a 1-based line, without its line break."""
        lines = self._split_lines()
        return lines[line - 1] if 0 < line <= len(lines) else None

    def _line_of(self, line0: int) -> str | None:
        return self.line_text(line0 + 1)

    def span(
        self, parts: Sequence[Hashable] | str = (), *, at_key: bool = False
    ) -> tuple[int, int, int, int] | None:
        """1-based ``(line, column, end_line, end_column)`` of the node (or key) at ``parts``.

        ``end_column`` is exclusive (LSP, SARIF). The start is that of
        :meth:`locate` (:meth:`locate_key` with ``at_key``); the end is found
        by scanning the text from it (:mod:`toskit.source.spans`), so it
        costs nothing until a finding asks. A path that exists only in part
        spans its deepest existing node; the document itself (``()``) spans
        its first line. ``None`` when the document has no value.
        """
        parts = _parts(parts)
        found = find(self._root_shadow(), parts, key=at_key)
        if found is None:
            return None
        (line0, column0), kind, depth = found
        line0, column0 = self._clamp(line0, column0)
        lines = self._split_lines()
        if not parts:
            end_line0, end_col0 = span_of_line(lines, line0, column0)
        else:
            end_line0, end_col0 = span_end(lines, line0, column0, kind, self._span_memo)
        if (end_line0, end_col0) <= (line0, column0):
            end_line0, end_col0 = line0, column0 + 1
        return line0 + 1, column0 + 1, end_line0 + 1, end_col0 + 1

    def related(
        self, label: str, parts: Sequence[Hashable] | str = (), *, at_key: bool = False
    ) -> Related:
        """A :class:`~toskit.diagnostics.Related` location: the node (or key) at ``parts``."""
        where = self.span(parts, at_key=at_key)
        if where is None:
            return Related(label, self.name, None, None)
        return Related(label, self.name, *where)

    def diagnostic(
        self,
        severity: str,
        code: str,
        message: str,
        parts: Sequence[Hashable] = (),
        *,
        hint: str | None = None,
        at_key: bool = False,
        path: str | None = None,
        subject: Subject | None = None,
        related: Iterable[Related] = (),
        replacement: str | None = None,
        fix_title: str | None = None,
        misspelt: str | None = None,
        candidates: Iterable[str] = (),
    ) -> Diagnostic:
        """A diagnostic located at the node (or key, with ``at_key``) of ``parts``.

        ``path`` defaults to ``format_path(parts)``; a string ``parts`` is one key.

        The finding's structure (issue #28) is filled in here, for every
        producer: its range (:meth:`span`: the key with ``at_key``, else the
        scalar, the flow collection or the block), its ``subject`` (given,
        else :func:`~toskit.source.subjects.subject_of` of ``parts``) and its
        ``related`` locations. ``replacement`` makes one machine-applicable
        :class:`~toskit.diagnostics.Fix` that replaces the located span by
        that text (quoted as the original was, or as YAML needs), titled
        ``fix_title`` (default ``replace with '…'``). A finding about a child
        that is missing is located with ``at_key`` on the parent, so that
        its caret sits on the key that lacks the child.

        A did-you-mean is made here too: ``misspelt`` (the unknown name) and
        ``candidates`` give the hint (unless ``hint`` is given) through
        :func:`~toskit.diagnostics.suggest`; with one best candidate the
        finding carries a fix renaming the one occurrence of ``misspelt`` in
        its range, with a tie it carries none and the hint names every tied
        candidate.
        """
        parts = _parts(parts)
        where = self.span(parts, at_key=at_key)
        line = column = end_line = end_column = None
        fixes: tuple[Fix, ...] = ()
        found = suggest(misspelt, candidates) if misspelt else None
        if found is not None and hint is None:
            hint = found.hint()
        if where is not None:
            line, column, end_line, end_column = where
            if found is not None and found.best is not None and replacement is None:
                fixes = self._rename(misspelt or "", found.best, where)
            elif replacement is not None and end_line == line:
                original = (self.line_text(line) or "")[column - 1 : end_column - 1]
                fixes = (
                    Fix(
                        fix_title or f"replace with '{replacement}'",
                        yaml_text(replacement, like=original),
                        self.name,
                        line,
                        column,
                        end_line,
                        end_column,
                    ),
                )
        return Diagnostic(
            severity=severity,
            code=code,
            message=message,
            path=format_path(parts) if path is None else path,
            # The structured path (Diagnostic.parts), when ``path`` is derived from it.
            parts=parts if path is None else None,
            file=self.name,
            line=line,
            column=column,
            hint=hint,
            source_line=self.line_text(line) if line is not None else None,
            end_line=end_line,
            end_column=end_column,
            subject=subject if subject is not None else subject_of(parts),
            related=tuple(related),
            fixes=fixes,
        )

    def _rename(self, word: str, new: str, where: tuple[int, int, int, int]) -> tuple[Fix, ...]:
        """A fix renaming the one occurrence of ``word`` (a whole name, maybe
        quoted) within the range ``where``; none when it is not there once."""
        line, column, end_line, end_column = where
        # A whole name: not part of a longer (dotted, namespaced) one; a ``$``
        # before it (a 2.0 call) and a ``:`` after a key are not part of it.
        pattern = re.compile(r"(?<![\w.:-])(['\"]?)" + re.escape(word) + r"\1(?![\w.-])(?!:[^\s])")
        hits: list[tuple[int, int, int, str]] = []
        for number in range(line, min(end_line, line + 200) + 1):
            text = self.line_text(number) or ""
            start = column - 1 if number == line else 0
            stop = end_column - 1 if number == end_line else len(text)
            for m in pattern.finditer(text, start, stop):
                hits.append((number, m.start() + 1, m.end() + 1, m.group(0)))
                if len(hits) > 1:
                    return ()
        if len(hits) != 1:
            return ()
        number, start, stop, original = hits[0]
        return (
            Fix(
                f"rename '{word}' to '{new}'",
                yaml_text(new, like=original),
                self.name,
                number,
                start,
                number,
                stop,
            ),
        )

    def _report(
        self,
        code: str,
        message: str,
        line0: int,
        column0: int,
        hint: str | None = None,
        path: str = "",
    ) -> Diagnostic:
        line0, column0 = self._clamp(line0, column0)
        # The range (issue #28): a duplicate key's own text, with the first
        # one as its related location; otherwise the token at the position.
        lines = self._split_lines()
        related: tuple[Related, ...] = ()
        if code == "duplicate-key":
            end_line0, end_col0 = span_end(lines, line0, column0, "key")
            first = first_duplicate(lines, line0, column0, end_col0)
            if first is not None:
                f_end = span_end(lines, first[0], first[1], "key")
                related = (
                    Related(
                        "the first occurrence (its value is kept)",
                        self.name,
                        first[0] + 1,
                        first[1] + 1,
                        f_end[0] + 1,
                        f_end[1] + 1,
                    ),
                )
        else:
            end_line0, end_col0 = span_of_token(lines, line0, column0)
        return Diagnostic(
            "error",
            code,
            message,
            path=path,
            file=self.name,
            line=line0 + 1,
            column=column0 + 1,
            hint=hint,
            source_line=self._line_of(line0),
            end_line=end_line0 + 1,
            end_column=end_col0 + 1,
            subject=Subject("document"),
            related=related,
        )


def _with_subjects(diagnostics: list[Diagnostic], shadow: Any) -> list[Diagnostic]:
    """Duplicate keys with the subject of the mapping they are in (issue #28).

    The parser reports a duplicate while the tree is still being built; the
    first occurrence (its ``related`` location) is in the finished tree, so
    its path is found there by position, once, only when there are
    duplicates.
    """
    wanted = {
        (r.line - 1, r.column - 1)
        for d in diagnostics
        if d.code == "duplicate-key"
        for r in d.related[:1]
        if r.line is not None and r.column is not None
    }
    if not wanted or shadow is None:
        return diagnostics
    found = key_paths(shadow, wanted)
    out = []
    for d in diagnostics:
        first = d.related[0] if d.code == "duplicate-key" and d.related else None
        where = (
            (first.line - 1, first.column - 1) if first and first.line and first.column else None
        )
        parts = found.get(where) if where is not None else None
        out.append(d if parts is None else replace(d, subject=subject_of(parts), parts=parts))
    return out


def _parts(path: Sequence[Hashable] | str) -> tuple:
    return (path,) if isinstance(path, str) else tuple(path)


def _compose_text(
    text: str,
    name: str,
    limits: dict[str, int],
    parser: str | None,
    doc: YamlDocument,
) -> Composed:
    from toskit.source.compose import compose
    from toskit.source.hints import syntax_diagnostic

    return compose(
        text,
        limits=limits,
        parser=parser,
        report=doc._report,
        syntax_error=lambda exc: syntax_diagnostic(exc, name=name, line_of=doc._line_of, text=text),
    )


# The ASCII characters YAML allows (tab, line feed, carriage return, printable).
_ASCII_PRINTABLE = bytes([0x09, 0x0A, 0x0D, *range(0x20, 0x7F)])


def _printable_ascii(text: str) -> bool:
    """Whether ``text`` is ASCII with no character YAML refuses (a C-speed
    pre-check: the regular expression of ``find_non_printable`` is ~8 ns a
    character)."""
    return text.isascii() and not text.encode("ascii").translate(None, _ASCII_PRINTABLE)


def _find_non_printable(text: str) -> int | None:
    from toskit.source.compose import find_non_printable

    return find_non_printable(text)


def _utf8_size_over(text: str, max_size: int) -> bool:
    if len(text) * 4 <= max_size:
        return False
    if len(text) > max_size:
        return True
    return len(text.encode("utf-8", "surrogatepass")) > max_size


def load_yaml(
    text: str, *, name: str = "<string>", parser: str | None = None, **limits: Any
) -> YamlDocument:
    """Load one YAML document from text. Never raises for bad YAML.

    Problems are ``doc.diagnostics`` (codes ``yaml-syntax``,
    ``duplicate-key``, ``limit-exceeded``). ``limits`` override
    :data:`LIMIT_DEFAULTS` (``max_alias_nodes``, ``max_nodes``,
    ``max_depth``, ``max_size`` in bytes of UTF-8). ``parser`` picks
    PyYAML's ``"c"`` (libyaml) or ``"python"`` event parser, or ``"fast"``
    (rapidyaml, falling back to PyYAML: :mod:`toskit.source.fast`); the
    default is :func:`toskit.source.fast.default_parser`. All give the same
    values, diagnostics and positions.
    """
    resolved = resolve_limits(limits)
    if not isinstance(text, str):
        raise ToskitError(f"{name}: expected YAML text (str), got {type(text).__name__}")
    doc = YamlDocument(name, text, None, [], limits=resolved, parser=parser)
    if _utf8_size_over(text, resolved["max_size"]):
        doc.diagnostics.append(_too_large("document", name, resolved["max_size"]))
        return doc
    bad = None if _printable_ascii(text) else _find_non_printable(text)
    if bad is not None:
        from toskit.source.hints import end_of_text

        where = end_of_text(text[:bad])
        doc.diagnostics.append(
            doc._report(
                "yaml-syntax",
                f"character U+{ord(text[bad]):04X} is not allowed in YAML text",
                where.line,
                where.column,
                'remove it, or write it as an escape ("\\u…") inside a double-quoted string',
            )
        )
        return doc
    use_fast, parser = select_parser(parser)  # "fast": rapidyaml, PyYAML as the fallback
    doc._parser = parser
    keys: list[Any] = []
    if use_fast and (value := load_fast(text, resolved, keys)) is not FALLBACK:
        doc.value, doc._shadow_pending = value, True  # locations: PyYAML, on first locate
        doc.key_names = keys[0] if keys else None  # none: an empty document
    else:
        # Locations are recorded while loading (one pass): the whole load is still
        # ~3x faster than yaml.load(CSafeLoader) (bench/bench_loader.py).
        composed = _compose_text(text, name, resolved, parser, doc)
        doc.value = composed.value
        doc.diagnostics.extend(_with_subjects(composed.diagnostics, composed.shadow))
        doc._shadow = composed.shadow
    if _SHADOW_ENV in os.environ:
        # The test suite's shadow mode: the other path must agree (toskit.source.shadow).
        from toskit.source import shadow

        if shadow.enabled():
            shadow.compare(doc, text, name, resolved, parser)
    return doc


_SHADOW_ENV = "TOSKIT_YAML_SHADOW"  # toskit.source.shadow.ENV_VAR, without importing it


# Pseudo-file systems whose "regular files" are generated on read (process
# environments, kernel state). Devices (/dev/zero) are refused by type,
# before they are opened: opening some devices has effects of its own.
_SPECIAL_ROOTS = ("/proc/", "/sys/")


class SizeExceeded(ToskitError):
    """A file or stream over ``max_size`` bytes (nothing past the bound was read)."""

    def __init__(self, name: str, max_size: int) -> None:
        super().__init__(f"{name}: larger than {max_size} bytes")
        self.max_size = max_size


def _too_large(what: str, name: str, max_size: int) -> Diagnostic:
    """The ``limit-exceeded`` finding of a ``what`` ("file", "document")
    over ``max_size`` bytes, left unread."""
    return Diagnostic(
        "error",
        "limit-exceeded",
        f"{what} is larger than {max_size} bytes",
        file=name,
        hint=f"raise the bound with max_size=… if this {what} is trusted",
        subject=Subject("document"),  # the whole file: no range (it is not read)
    )


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToskitError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _readable_name(path: str | os.PathLike) -> str:
    """The path of :func:`read_text_file` as a ``str``, refused before it
    is opened when it is no path, names ``/proc`` or ``/sys``, or is a
    device, FIFO or socket (opening ``/dev/zero`` or a FIFO could block)."""
    name = os.fspath(path) if isinstance(path, os.PathLike) else path
    if not isinstance(name, str):
        raise ToskitError(f"a file path must be str, not {type(name).__name__}")
    if "\0" in name:
        raise ToskitError(f"{name!r}: a file path cannot contain a NUL character")
    real = os.path.realpath(name)
    if real.startswith(_SPECIAL_ROOTS):
        raise ToskitError(f"{name}: not a regular file (toskit does not read {real[:5]}…)")
    try:
        before = os.stat(name)
    except (OSError, ValueError):
        return name  # reported by os.open in read_text_file
    if not stat.S_ISREG(before.st_mode) and not stat.S_ISDIR(before.st_mode):
        raise ToskitError(f"{name}: not a regular file (a device, pipe or socket)")
    return name


def _read_bounded(fh: Any, st_size: int, max_size: int | None) -> bytes:
    """The bytes of an open file: all of them, or at most ``max_size + 1``."""
    if max_size is None:
        return fh.read()
    # read(n) allocates n bytes first: ask for what stat said (+1 to see
    # growth), not the whole bound (50 MB for a 1 kB file, #37)
    data = fh.read(min(max_size, st_size) + 1)
    if st_size < len(data) <= max_size:  # it grew meanwhile
        data += fh.read(max_size + 1 - len(data))
    return data


def read_text_file(path: str | os.PathLike, max_size: int | None = None) -> str:
    """Read a UTF-8 regular file; ``ToskitError`` when it cannot or may not be read.

    Only regular files are read: a directory, FIFO, socket or device
    (``/dev/zero``, checked before it is opened), and anything under
    ``/proc`` or ``/sys``, is refused without reading (a FIFO is opened
    non-blocking, so it cannot hang). With ``max_size``, at most
    ``max_size + 1`` bytes are read and a longer file raises
    :class:`SizeExceeded`.
    """
    name = _readable_name(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ToskitError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise ToskitError(f"{name}: is a directory, not a file") from None
    except (OSError, ValueError) as exc:
        raise ToskitError(
            f"{name}: cannot read ({getattr(exc, 'strerror', None) or exc})"
        ) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ToskitError(f"{name}: is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise ToskitError(f"{name}: not a regular file (a device, pipe or socket)")
        if max_size is not None and info.st_size > max_size:
            raise SizeExceeded(name, max_size)
        with os.fdopen(fd, "rb", closefd=True) as fh:
            fd = -1
            data = _read_bounded(fh, info.st_size, max_size)
    except OSError as exc:
        raise ToskitError(f"{name}: cannot read ({exc.strerror or exc})") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if max_size is not None and len(data) > max_size:
        raise SizeExceeded(name, max_size)
    return _decode(data, name)


def read_text_stream(
    stream: Any, max_size: int = LIMIT_DEFAULTS["max_size"], name: str = "<stdin>"
) -> str:
    """Read a UTF-8 stream (``sys.stdin``) holding at most ``max_size + 1`` bytes.

    Reads in chunks from the binary buffer when there is one; a longer
    stream raises :class:`SizeExceeded` as soon as the bound is passed, so
    memory stays under the bound whatever is piped in.
    """
    source = getattr(stream, "buffer", stream)
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = source.read(min(1 << 20, max_size + 1 - total))
        if not chunk:
            break
        if isinstance(chunk, str):
            chunk = chunk.encode("utf-8", "surrogatepass")
        chunks.append(chunk)
        total += len(chunk)
        if total > max_size:
            raise SizeExceeded(name, max_size)
    return _decode(b"".join(chunks), name)


def load_yaml_file(path: str | os.PathLike, **limits: Any) -> YamlDocument:
    """Load a YAML file; raises ``ToskitError`` when it cannot be read.

    Reads at most ``max_size + 1`` bytes (regular files only, see
    :func:`read_text_file`); a larger file is a ``limit-exceeded``
    diagnostic, found without holding more than the bound in memory.
    """
    max_size = resolve_limits({k: v for k, v in limits.items() if k != "parser"})["max_size"]
    try:
        text = read_text_file(path, max_size)
    except SizeExceeded:
        name = str(path)
        doc = YamlDocument(name, "", None, [])
        doc.diagnostics.append(_too_large("file", name, max_size))
        return doc
    return load_yaml(text, name=str(path), **limits)
