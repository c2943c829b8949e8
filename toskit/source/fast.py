"""The fast parse path: rapidyaml builds the values, PyYAML stays the reference.

PyYAML's event parser costs more than a whole TOSCA load should
(benchmark B1, ``bench/bench_tosca.py``); rapidyaml (PyPI ``rapidyaml``, module ``ryml``)
parses the same text ~40x faster into a C++ tree, which :func:`load_fast`
walks into the same plain values as :mod:`toskit.source.compose`.

The fast path only ever answers for documents it reproduces *exactly*: a
clean document (no diagnostic) made of mappings, sequences and untagged
scalars. Anything else makes :func:`load_fast` return :data:`FALLBACK` and
the caller composes the text with PyYAML as before, so every diagnostic,
hint and caret comes from the reference path:

* rapidyaml reports a syntax error (PyYAML then finds it, with its hint);
* a tag, an anchor or an alias (so merge keys ``<<`` too), a complex key,
  a plain ``<<`` key, a duplicate key (keys equal as Python values);
* a flow collection spanning lines, a plain scalar holding `` #``, a key
  whose source could span more than 1,024 characters (PyYAML's bound for
  an implicit key), a block scalar of only spaces;
* more than one document, a ``%`` directive, a byte-order mark after the
  start (a leading one is removed first), a tab, a carriage return or one
  of YAML's other line breaks (U+0085, U+2028, U+2029);
* a bound that could be crossed: more nodes than ``max_nodes`` (counted
  as PyYAML counts them), nesting deeper than ``max_depth`` (or than
  :data:`MAX_NESTING`, which keeps the walk's recursion shallow), an
  integer too long for Python, more than ``MAX_HUGE_INT_KEYS`` huge
  integer keys. Before parsing, a text that *could* hold more than
  ``max_nodes`` nodes (counted from its structural characters) is not
  given to rapidyaml at all, so its tree never outgrows the bound.

Locations are not recorded: the document's shadow tree is built by
PyYAML's composer on the first ``locate`` (``YamlDocument`` already does
that for documents built without one), so they are exactly today's.

A large text of plain scalars and block collections is not walked node by
node: rapidyaml writes the tree as JSON and ``json.loads`` builds it, the
walk's rules applied in its hooks (the JSON route, above ``_accessors``).

Which path: ``load_yaml(..., parser=...)`` takes ``"fast"`` (this one, with
the PyYAML fallback), ``"c"``/``"python"`` (PyYAML only), or ``None``: the
process default, :func:`default_parser` — ``"fast"`` when rapidyaml is
installed, unless the environment variable ``TOSKIT_YAML_PARSER`` says
``pyyaml`` (or ``c``/``python``/``fast``). docs/source.md records the
equivalence evidence and lists what this path declines;
``tests/source/test_differential.py`` (a grammar-driven differential
fuzzer run by ``make test``) holds it to PyYAML's values, diagnostics and
locations. Detect, don't guess: a construct found to read differently is
recognised here and handed to PyYAML.
"""

from __future__ import annotations

import _thread
import functools
import os
import re
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from toskit.patterns import lazy_pattern
from toskit.source.scalars import MAX_HUGE_INT_KEYS, ScalarError, resolve_plain

__all__ = [
    "ENV_VAR",
    "FALLBACK",
    "MAX_NESTING",
    "available",
    "default_parser",
    "load_fast",
    "select",
]

#: Returned by :func:`load_fast` when the PyYAML path must answer.
FALLBACK: Any = object()
#: Environment variable choosing the default path (``fast``, ``pyyaml``, ``c``, ``python``).
ENV_VAR = "TOSKIT_YAML_PARSER"
#: Deeper documents go to PyYAML (its composer has an explicit stack; this
#: walk recurses, and 100 levels keep it far from Python's recursion limit).
MAX_NESTING = 100

_ryml: Any = None  # the module, imported on first use (~60 ms: not at `import toskit`)
_checked = False


def available() -> bool:
    """Whether rapidyaml can be imported (checked once)."""
    global _ryml, _checked
    if not _checked:
        _checked = True
        try:
            ryml = _import_ryml()
        except Exception:  # not installed, or a broken build: PyYAML only
            _ryml = None
        else:
            _ryml = ryml
    return _ryml is not None


def _import_ryml() -> Any:
    """``import ryml``, without importing its ``deprecation`` dependency yet.

    rapidyaml's module imports ``deprecation`` (with ``packaging.version``,
    ``textwrap`` and ``datetime``: ~3 ms, a twentieth of ``toskit check``,
    #31) only to mark six old functions toskit never calls. While ryml is
    imported, ``deprecation`` is a stand-in whose ``deprecated`` defers to
    the real one on a marked function's first call (which then warns as
    before); the stand-in leaves ``sys.modules`` right after, so any later
    ``import deprecation`` gets the real module. When ``deprecation`` is
    imported already, nothing of this happens; when a rapidyaml release
    asks the stand-in for more than ``deprecated``, ryml is imported again
    the plain way (a slower start, never a lost fast parser).
    """
    if "deprecation" in sys.modules:
        import ryml  # type: ignore[import-untyped]  # rapidyaml ships no type information

        return ryml
    stand_in = types.ModuleType("deprecation", "toskit's stand-in while ryml is imported")
    stand_in.deprecated = _deferred_deprecated  # type: ignore[attr-defined]
    sys.modules["deprecation"] = stand_in
    try:
        import ryml
    except Exception:
        # Forget the half-imported ryml modules, then the ordinary import.
        for name in [m for m in sys.modules if m == "ryml" or m.startswith("ryml.")]:
            del sys.modules[name]
        if sys.modules.get("deprecation") is stand_in:
            del sys.modules["deprecation"]
        import ryml
    finally:
        if sys.modules.get("deprecation") is stand_in:
            del sys.modules["deprecation"]
    return ryml


def _deferred_deprecated(*args: Any, **kwargs: Any) -> Any:
    """``deprecation.deprecated(...)``, applied on the marked function's first call."""

    def decorate(function: Any) -> Any:
        made: list[Any] = []

        @functools.wraps(function)
        def call(*call_args: Any, **call_kwargs: Any) -> Any:
            if not made:
                import deprecation  # type: ignore[import-untyped]

                made.append(deprecation.deprecated(*args, **kwargs)(function))
            return made[0](*call_args, **call_kwargs)

        return call

    return decorate


def default_parser() -> str | None:
    """The path ``parser=None`` means: ``"fast"`` when available, else ``None`` (PyYAML's C/Python).

    ``TOSKIT_YAML_PARSER=pyyaml`` (or ``c``/``python``) makes PyYAML the
    default; ``fast`` insists on rapidyaml (a ``ValueError`` at load when
    it is not installed).
    """
    chosen = os.environ.get(ENV_VAR, "").strip().lower()
    if chosen in ("", "auto"):
        return "fast" if available() else None
    if chosen == "pyyaml":
        return None
    if chosen in ("fast", "c", "python"):
        return chosen
    raise ValueError(f"{ENV_VAR}={chosen!r}: expected 'fast', 'pyyaml', 'c', 'python' or 'auto'")


def select(parser: str | None) -> tuple[bool, str | None]:
    """``(use the fast path, PyYAML parser for fallback and locations)`` for a ``parser`` option."""
    if parser is None:
        parser = default_parser()
    if parser == "fast":
        if not available():
            raise ValueError("parser='fast' needs rapidyaml: pip install rapidyaml")
        return True, None
    if parser in (None, "c", "python"):
        return False, parser
    raise ValueError(f"parser must be 'fast', 'c', 'python' or None, not {parser!r}")


class _Fallback(Exception):
    """The PyYAML path must answer for this document."""


# Text the fast path leaves to PyYAML without parsing: YAML's other line
# breaks and tabs (where the two parsers' whitespace rules could differ),
# directives, a byte-order mark after the start.
_REFUSED_CHARACTERS = ("\t", "\r", "\x85", "\u2028", "\u2029")
# Every rapidyaml node starts at one of these characters or on a line of its
# own ... see _could_exceed.
_STRUCTURAL = ":-,[{?\n"
# str.translate deleting them: one pass over the text counts them all (a
# str.count per character is seven passes, ~3x slower on a 1.2 MB text).
_WITHOUT_STRUCTURAL = str.maketrans("", "", _STRUCTURAL)

# Text where rapidyaml is more lenient than PyYAML (found by the fuzz tests
# of tests/source/test_fast_path.py); each goes to PyYAML.
#
# * `- 'x' - y` or `- [x] - y`: rapidyaml reads two items; after a quoted
#   scalar or a flow collection PyYAML allows only ':', ',', a closing
#   bracket or a comment on that line.
# * `[a:]`, `{a:, b}`: a ':' right before a flow indicator, a key with a
#   null value for rapidyaml, an error for PyYAML.
_AFTER_CLOSE = lazy_pattern(r"['\"\]}] +-(?: |$)|:[,\]}]", re.MULTILINE)
# The same, split so that each expression starts with a literal character
# (which the regular expression engine finds at C speed; a leading class is
# tried at every position, ~1 ms on the 1,000-node B1 file): a closer's run,
# searched only when that closer is in the text, and ':' before a closer.
_AFTER_CLOSER = {c: re.compile(re.escape(c) + r" +-(?: |$)", re.MULTILINE) for c in "'\"]}"}
_COLON_CLOSE = re.compile(r":[,\]}]")
# * a '...' line, an indented '---': document markers for rapidyaml where
#   PyYAML reads (or refuses) a scalar.
_MARKERS = lazy_pattern(r"^ *\.\.\.|^ +---", re.MULTILINE)
# Their pre-checks: a literal expression beats ``"..." in text`` (~3x) on a
# text full of dots (host names).
_DOTS, _DASHES = re.compile(r"\.\.\."), re.compile("---")
# * a quoted scalar that does not close on the line where it starts:
#   rapidyaml accepts one as an implicit key, PyYAML does not.
#   Written as unrolled loops (a run of plain characters, then escapes each
#   followed by a run): `(?:[^'\n]|'')*` kept one backtracking entry per
#   character, 374 MB for one 3 MB line (#37); the same matches, none kept.
_OPEN_QUOTE = lazy_pattern(
    r"""'[^'\n]*(?:''[^'\n]*)*$|"[^"\\\n]*(?:\\.[^"\\\n]*)*\\?$""", re.MULTILINE
)
# * a block scalar header with junk after its indicators (`key: | -`,
#   `key: >1"`), which rapidyaml ignores and PyYAML reports.
_BLOCK_INDICATOR = lazy_pattern(r"[|>]([^\n]*)")
_CLEAN_HEADER = lazy_pattern(r"(?:[-+]?[1-9]?|[1-9][-+])(?: +#.*)? *")


def _starts_node(text: str, at: int) -> bool:
    """Whether a node may start at ``at``: at a line start or after ': ',
    '- ', '? ', '[', '{', ','."""
    before = text[text.rfind("\n", 0, at) + 1 : at].rstrip(" ")
    if not before:
        return True
    last = before[-1]
    if last in "[{,":
        return True
    return last in ":?-" and len(before) < at - text.rfind("\n", 0, at) - 1


def _lenient_spots(text: str) -> bool:
    """Whether ``text`` has one of the constructs above (cheap scans first)."""
    # _AFTER_CLOSE, as expressions that start with a literal (see _AFTER_CLOSER).
    if _COLON_CLOSE.search(text):
        return True
    for closer, after in _AFTER_CLOSER.items():
        if closer in text and after.search(text):
            return True
    if (_DOTS.search(text) or _DASHES.search(text)) and _MARKERS.search(text):
        return True
    # Each search restarts right after the last match's start: matches may
    # overlap (in `- {a: '', "\` the second `'` runs to the line's end, over
    # the `"` that opens a key continued on the next line).
    if "'" in text or '"' in text:
        at = 0
        while (match := _OPEN_QUOTE.search(text, at)) is not None:
            if _starts_node(text, match.start()):
                return True
            at = match.start() + 1
    if "|" in text or ">" in text:
        at = 0
        while (match := _BLOCK_INDICATOR.search(text, at)) is not None:
            if _starts_node(text, match.start()) and not _CLEAN_HEADER.fullmatch(match[1]):
                return True
            at = match.start() + 1
    return False


_stderr_lock = _thread.allocate_lock()  # threading.Lock, without threading (#31)


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 points at the null device while rapidyaml parses.

    rapidyaml writes its parse errors to C's ``stderr`` before raising; the
    error is then PyYAML's to report, so that text must not reach the user.
    (Output other threads write to fd 2 in those milliseconds is lost too;
    ``TOSKIT_YAML_PARSER=pyyaml`` avoids the fast path altogether.)
    """
    with _stderr_lock:
        try:
            saved = os.dup(2)
        except OSError:  # no fd 2 at all: nothing to protect
            yield
            return
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, 2)
            finally:
                os.close(null)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _could_exceed(text: str, max_nodes: int) -> bool:
    """Whether ``text`` might hold more than ``max_nodes`` rapidyaml nodes.

    A node is a collection or a scalar-bearing entry; each starts at one
    of ``_STRUCTURAL`` (a key ends at ':', an item at '-' or after '[' or
    ',', an explicit key at '?') or is the document's single scalar, and
    a document and a stream add one each. A text shorter than the bound
    cannot exceed it (every node takes at least one character).
    """
    if len(text) + 3 <= max_nodes:
        return False
    return len(text) - len(text.translate(_WITHOUT_STRUCTURAL)) + 3 > max_nodes


def load_fast(text: str, limits: dict[str, int], keys: list[Any] | None = None) -> Any:
    """The value of ``text`` as the PyYAML path builds it, or :data:`FALLBACK`.

    Only called for text that passed the size and character checks of
    ``load_yaml``; returns a value only when the PyYAML path would report
    no diagnostic at all for ``text`` (see the module docstring).

    With ``keys`` (a list), a value's mapping keys are appended to it:
    one ``frozenset`` of every key of the document when all are strings,
    else ``None`` (read off the walk's own table of keys, at no cost per
    node: ``YamlDocument.key_names``).
    """
    if text[:1] == "\ufeff":
        # PyYAML skips a leading byte-order mark; rapidyaml counts it as a
        # column, which moves everything on the first line (``\ufeff-`` then
        # an indented block sequence read as one plain scalar). Locations are
        # PyYAML's anyway (computed from the original text).
        text = text[1:]
    if not available() or not text:
        return FALLBACK
    if any(c in text for c in _REFUSED_CHARACTERS):
        return FALLBACK
    # Single characters first: memchr, where a two-character search is slow.
    if text[0] == "%" or ("%" in text and "\n%" in text) or "\ufeff" in text:
        return FALLBACK
    if _SPACES_BEFORE_COLON in text:
        return FALLBACK  # a key whose span the walk cannot bound (see _key_too_long)
    if _lenient_spots(text):
        return FALLBACK
    if text[-1] != "\n" and ("|" in text or ">" in text):
        # A block scalar ending the text without a line break: rapidyaml
        # still gives it its final "\n" (clip chomping), PyYAML does not.
        return FALLBACK
    if _could_exceed(text, limits["max_nodes"]):
        return FALLBACK
    ryml = _ryml
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (load_yaml refuses those first)
        return FALLBACK
    try:
        with _quiet_stderr():
            tree = ryml.parse_in_arena(data)
    except Exception:  # a syntax error (ExceptionParse) or anything rapidyaml refuses
        return FALLBACK
    try:
        if len(text) >= JSON_MIN_SIZE and _json_ready(text, limits):
            value = _from_json(ryml, tree, keys)
            if value is not _NOT_JSON:
                return value
        return _walk(ryml, tree, limits, keys)
    except (_Fallback, ScalarError, RecursionError, UnicodeDecodeError):
        # UnicodeDecodeError: an escape such as "\ud800" (a lone surrogate, which
        # both PyYAML parsers refuse) that rapidyaml writes as invalid UTF-8.
        return FALLBACK


# --- the JSON route: rapidyaml writes the tree as JSON, the json module builds it ---
#
# For a large text written only in plain scalars and block collections
# (generated templates such as B1; a hand-written file usually has a quote,
# a flow map such as ``{ get_input: x }`` or a block scalar somewhere, even in
# a comment, and takes the walk), the values are built by rapidyaml's JSON emitter and
# ``json.loads`` (both in C) instead of :func:`_walk`'s four calls into the
# tree per node: B1's 1,000 nodes ~6.5 ms instead of ~10 ms. What the walk
# does per node is done by the json module's hooks: each key text through
# :func:`_plain_key`, each string through the walk's plain-scalar rule, each
# number's text through ``resolve_plain``, a duplicate key refused. The text
# must not hold what the walk reads from the tree's flags and JSON would
# lose (see _json_ready); anything else, or JSON rapidyaml or json refuses,
# goes to the walk. ``tests/source/test_json_route.py`` holds the two equal.

#: Texts shorter than this take the walk (importing ``json`` costs ~1.5 ms once).
JSON_MIN_SIZE = 65_536
#: Set to False to always walk the tree (tests compare the two routes).
JSON_ROUTE = True
_NOT_JSON: Any = object()
# Quoted, block and escaped scalars, tags, anchors, aliases, explicit keys,
# flow maps: JSON cannot tell them from plain scalars. (A '---' document is
# the walk's, by the root's kind; a '...' line never reaches rapidyaml.)
_JSON_REFUSED = ("'", '"', "|", ">", "!", "&", "*", "?", "\\", "{")
# A flow list that spans lines or holds another (rapidyaml's FLOW_ML, depth).
_FLOW_SPAN = re.compile(r"\[[^\]\n]*[\[\n]")
# A number rapidyaml writes other than as written: a dot starting it (`.5`,
# `-.5` as 0.5) or ending it (`1.` as 1.0); the only rewrites found over
# 18,000 number-like scalars (tests/source/test_json_route.py).
_ODD_DOT = re.compile(r"\.(?:(?<![0-9]\.)[0-9]|(?<=[0-9]\.)(?=[ \n,\]]|$))")
# A list on a dash's own row (`- - x`): nesting without indentation.
_DASH_DASH = re.compile(r"- +-(?:[ \n]|$)")


def _json_ready(text: str, limits: dict[str, int]) -> bool:
    """Whether the JSON route reads ``text`` as the walk does (cheap scans)."""
    if not JSON_ROUTE or any(s in text for s in _JSON_REFUSED):
        return False
    if "[" in text and _FLOW_SPAN.search(text):
        return False
    if _ODD_DOT.search(text) or _DASH_DASH.search(text):
        return False
    # The walk refuses a tree deeper than max_depth. In block collections two
    # levels of nesting move the start at least one column right, and a
    # collection starts at a row's indentation or two columns after it (a
    # dash), with one flat flow list at most below: depth <= 2 * (indent + 3) + 1.
    indent = (min(limits["max_depth"], MAX_NESTING) - 7) // 2
    if indent < 1:
        return False
    spaces = " " * indent
    return not (text.startswith(spaces) or ("\n" + spaces) in text)


def _from_json(ryml: Any, tree: Any, keys: list[Any] | None) -> Any:
    """The walk's value of ``tree`` (a map at the root), or ``_NOT_JSON``."""
    this, type_of, _, _, _, _ = _accessors(ryml, tree)
    root = tree.root_id()
    kind = type_of(this, root)
    if kind & ryml.STREAM == ryml.STREAM or not kind & ryml.MAP:
        return _NOT_JSON  # several documents, '---', a list or a scalar: the walk's
    import json  # on first use: `toskit check` of a small file never needs it

    counts = [0, 0]  # as the walk's: huge integer keys in counts[1]
    plain_keys: dict[str, Any] = {}

    def scalar(text: str) -> Any:  # the walk's rule for a plain scalar
        if not text or text[0] in _ODD_START or text[-1] == " " or ("#" in text and " #" in text):
            raise _Fallback
        if text[0] not in _NUMBER_START and len(text) > 5:
            return text
        return resolve_plain(text)

    def items(values: list) -> list:
        return [
            scalar(v) if v.__class__ is str else items(v) if v.__class__ is list else v
            for v in values
        ]

    def mapping(pairs: list[tuple[str, Any]]) -> dict:
        out: dict = {}
        for text, value in pairs:
            key = plain_keys.get(text, _UNSEEN)
            if key is _UNSEEN:
                key = _plain_key(text, counts)
                if key.__class__ is not int or -_HASH_MODULUS < key < _HASH_MODULUS:
                    plain_keys[text] = key
            cls = value.__class__
            if cls is str:
                value = scalar(value)
            elif cls is list:
                value = items(value)
            out[key] = value
        if len(out) != len(pairs):
            raise _Fallback  # a duplicate key: PyYAML reports it
        return out

    try:
        emitted = ryml.emit_json(tree)
        value = json.loads(
            emitted,
            object_pairs_hook=mapping,
            parse_int=scalar,
            parse_float=scalar,
            parse_constant=scalar,
        )
    except (_Fallback, ScalarError):
        raise
    except Exception:  # JSON rapidyaml cannot write or json cannot read: walk
        return _NOT_JSON
    if value.__class__ is not dict:
        return _NOT_JSON
    if keys is not None:
        names = set(plain_keys.values())
        strings = counts[1] == 0 and all(k.__class__ is str for k in names)
        keys.append(frozenset(names) if strings else None)
    return value


def _accessors(ryml: Any, tree: Any) -> tuple:
    """``(this, type, key, val, first_child, next_sibling)``: each function is
    called as ``f(this, node)``.

    The SWIG functions called on the tree's raw pointer object cost a third
    of the proxy methods (no Python-level wrapper, no proxy unwrapping), and
    calling them with ``this`` directly saves a ``partial`` per call (~13 ns,
    four calls per node); the methods are the fallback should a rapidyaml
    build lack them.
    """
    low = getattr(ryml, "_ryml", None)
    this = getattr(tree, "this", None)
    names = ("type", "key", "val", "first_child", "next_sibling")
    if low is not None and this is not None and all(hasattr(low, "Tree_" + n) for n in names):
        return (this, *(getattr(low, "Tree_" + n) for n in names))
    return (None, *(_method(getattr(tree, n)) for n in names))


def _method(bound: Any) -> Any:
    """``bound`` called as ``f(this, node)`` (``this`` ignored)."""
    return lambda _this, node: bound(node)


def _scalar(view: Any, plain: int) -> Any:
    """A scalar's value: quoted and block scalars are strings, plain ones resolved."""
    if view is None:  # an empty value (`key:` or `- `)
        return None
    text = str(view, "utf-8")
    if not plain:
        return text
    # Only scalars that start like a number, or are at most five characters,
    # can be anything but a string (as in compose.py).
    if not text or text[0] in _ODD_START or text[-1] == " " or ("#" in text and " #" in text):
        raise _Fallback  # see _ODD_START; ' #' starts a comment for PyYAML
    if text[0] not in _NUMBER_START and len(text) > 5:
        return text
    return resolve_plain(text)


_UNSEEN: Any = object()


def _plain_key(key: str, counts: list[int]) -> Any:
    """A plain key's value (as :func:`_scalar` reads plain scalars), or ``_Fallback``."""
    if not key or key[0] in _ODD_START:
        raise _Fallback  # an empty plain key (`: x`), or see _ODD_START
    if len(key) > _MAX_PLAIN_KEY or key[-1] == " " or ("#" in key and " #" in key):
        raise _Fallback  # see _MAX_PLAIN_KEY; a comment PyYAML would have cut off
    if key[0] not in _NUMBER_START and len(key) > 5:
        return key
    if key == "<<":
        raise _Fallback  # a merge key
    value: Any = resolve_plain(key)
    if value.__class__ is int and not -_HASH_MODULUS < value < _HASH_MODULUS:
        counts[1] += 1
        if counts[1] > MAX_HUGE_INT_KEYS:
            raise _Fallback
    return value


def _walk(ryml: Any, tree: Any, limits: dict[str, int], keys: list[Any] | None = None) -> Any:
    """rapidyaml tree → plain values, with the PyYAML path's rules; ``_Fallback`` otherwise.

    ``keys``: see :func:`load_fast`."""
    this, type_of, key_of, val_of, first_child, next_sibling = _accessors(ryml, tree)
    none = ryml.NONE
    max_depth = min(limits["max_depth"], MAX_NESTING)
    map_flag, container = ryml.MAP, ryml.MAP | ryml.SEQ
    key_plain, val_plain, key_dquo = ryml.KEY_PLAIN, ryml.VAL_PLAIN, ryml.KEY_DQUO
    # A block scalar with no text but spaces: rapidyaml drops lines of spaces
    # that an indentation indicator makes content (`a: >1` + a line of two
    # spaces: '' against PyYAML's ' \n').
    val_block = ryml.VAL_LITERAL | ryml.VAL_FOLDED
    # What the fast path does not reproduce: tags, anchors, aliases, and flow
    # collections spanning lines, where rapidyaml's rules for comments and
    # line ends differ from PyYAML's (`{port: 8080 # http` + a line break +
    # `, user: admin}`: rapidyaml reads the comment into the value).
    refused = (
        ryml.KEYTAG | ryml.VALTAG | ryml.KEYANCH | ryml.VALANCH | ryml.KEYREF | ryml.VALREF
        | ryml.FLOW_ML
    )  # fmt: skip
    counts = [0, 0]  # PyYAML's node count (collections + scalars, keys included), huge int keys

    # Plain keys repeat (``type``, ``properties``...): each text is resolved
    # once per document (huge integer keys are not kept: they are counted).
    plain_keys: dict[bytes, Any] = {}
    quoted_keys: set[str] = set()  # the other keys (quoted: always strings)

    def collection(node: int, kind: int, depth: int) -> Any:
        if depth > max_depth:
            raise _Fallback
        child = first_child(this, node)
        count = scalars = 0
        if kind & map_flag:
            mapping: dict = {}
            while child != none:
                ckind = type_of(this, child)
                if ckind & refused:
                    raise _Fallback
                view = key_of(this, child)
                key: Any
                if ckind & key_plain:
                    # By the key's bytes: a repeated key is neither decoded
                    # nor resolved again, and its str is shared.
                    raw = b"" if view is None else view.tobytes()
                    key = plain_keys.get(raw, _UNSEEN)
                    if key is _UNSEEN:
                        key = _plain_key(str(raw, "utf-8"), counts)
                        if key.__class__ is not int or -_HASH_MODULUS < key < _HASH_MODULUS:
                            plain_keys[raw] = key
                else:
                    if view is None:
                        # No key text at all (an explicit '?' with nothing
                        # after it, as in an unclosed `[?`): PyYAML reads a
                        # null key or refuses the text; a quoted empty key
                        # ('' or "") has an empty view, not none.
                        raise _Fallback
                    key = str(view, "utf-8")
                    if len(key) > _MAX_DOUBLE_QUOTED_KEY and (
                        ckind & key_dquo or len(key) > _MAX_SINGLE_QUOTED_KEY
                    ):
                        raise _Fallback  # see _MAX_PLAIN_KEY
                    quoted_keys.add(key)
                if ckind & container:
                    mapping[key] = collection(child, ckind, depth + 1)
                else:
                    view = val_of(this, child)
                    if view is None:  # an empty value (`key:`)
                        mapping[key] = None
                    elif ckind & val_plain:
                        text = str(view, "utf-8")
                        if (
                            not text
                            or text[0] in _ODD_START
                            or text[-1] == " "
                            or ("#" in text and " #" in text)
                        ):
                            raise _Fallback  # see _ODD_START, _plain_key
                        # Only scalars that start like a number, or are at most
                        # five characters, can be anything but a string.
                        mapping[key] = (
                            text
                            if text[0] not in _NUMBER_START and len(text) > 5
                            else resolve_plain(text)
                        )
                    else:  # quoted or block: a string
                        text = str(view, "utf-8")
                        if ckind & val_block and not text.strip():
                            raise _Fallback  # see val_block
                        mapping[key] = text
                    scalars += 1
                count += 1
                child = next_sibling(this, child)
            if len(mapping) != count:
                raise _Fallback  # a duplicate key: PyYAML reports it
            # The mapping, its keys, its scalar values (collections count themselves).
            counts[0] += 1 + count + scalars
            return mapping
        sequence: list = []
        append = sequence.append
        while child != none:
            ckind = type_of(this, child)
            if ckind & refused:
                raise _Fallback
            if ckind & container:
                append(collection(child, ckind, depth + 1))
            else:
                view = val_of(this, child)
                if view is None or not ckind & val_plain:
                    text = _scalar(view, 0)
                    if ckind & val_block and text is not None and not text.strip():
                        raise _Fallback  # see val_block
                    append(text)
                else:  # as in the map branch above
                    text = str(view, "utf-8")
                    if (
                        not text
                        or text[0] in _ODD_START
                        or text[-1] == " "
                        or ("#" in text and " #" in text)
                    ):
                        raise _Fallback
                    append(
                        text
                        if text[0] not in _NUMBER_START and len(text) > 5
                        else resolve_plain(text)
                    )
                scalars += 1
            child = next_sibling(this, child)
        counts[0] += 1 + scalars
        return sequence

    root = tree.root_id()
    kind = type_of(this, root)
    if kind & ryml.STREAM == ryml.STREAM:
        # Explicit '---' (or several documents): exactly one, or PyYAML decides.
        child = first_child(this, root)
        if child == none or next_sibling(this, child) != none:
            raise _Fallback
        root = child
        kind = type_of(this, root)
    if kind & refused:
        raise _Fallback
    if kind & container:
        value = collection(root, kind, 1)
    elif kind & ~ryml.DOC == 0:  # NOTYPE: empty, or only comments
        return None
    elif kind & val_plain:
        counts[0] += 1
        value = _scalar(val_of(this, root), kind & val_plain)
    else:
        # A quoted or block scalar as the whole document: rare, and where
        # the parsers' indentation rules for column 0 differ.
        raise _Fallback
    if counts[0] > limits["max_nodes"]:
        raise _Fallback
    if keys is not None:
        # Huge integer keys are not in plain_keys (counts[1]): not strings either.
        names = {*plain_keys.values(), *quoted_keys}
        strings = counts[1] == 0 and all(k.__class__ is str for k in names)
        keys.append(frozenset(names) if strings else None)
    return value


_NUMBER_START = frozenset("0123456789+-.")
# PyYAML refuses an implicit key whose ':' is more than 1,024 characters
# after the key's start (both of its parsers count characters). rapidyaml
# has no such bound, and its tree keeps only the key's value, so the walk
# bounds the key's *source* span from its value: a plain key spans its text
# plus the spaces before its ':', a single-quoted one at most twice its
# text plus the quotes, a double-quoted one at most ten characters per
# character (``\U0001F600``). A run of 16 spaces before a ':' anywhere
# sends the text to PyYAML before parsing (_SPACES_BEFORE_COLON), so at
# most 15 such spaces remain; keys that could still span more go to PyYAML.
_KEY_SPAN = 1024
_SPACES_BEFORE_COLON = " " * 16 + ":"
_MAX_PLAIN_KEY = _KEY_SPAN - 15
_MAX_SINGLE_QUOTED_KEY = (_KEY_SPAN - 15 - 2) // 2
_MAX_DOUBLE_QUOTED_KEY = (_KEY_SPAN - 15 - 2) // 10
# Plain scalars PyYAML reads differently: it refuses the reserved '@' and
# '`', a '%', ',', ']', '}' where rapidyaml reads text, and in flow context
# takes '?a' and ':a' as a key and a value indicator. The other indicators
# cannot start a plain scalar in either parser; listed for safety.
_ODD_START = frozenset("@`%,[]{}#&*!|>'\"?: ")
# A plain scalar never starts or ends with a space in PyYAML's reading (the
# spaces are separation); rapidyaml yields one where it has misread the
# indentation (a key deeper than its mapping's column, found by the
# differential fuzzer: `  a: b` under a mapping at column 1 became ' a').
# The start is in _ODD_START, the end checked beside it.
_HASH_MODULUS = (1 << 61) - 1
