"""Plain data: the one home of the helpers over YAML-shaped values.

Internal to toskit (its packages share it; not public API). *Plain data*
is what a YAML loader gives: ``None``, ``bool``, ``int``, ``float``, ``str``,
lists (``list`` or ``tuple``) and maps (any :class:`~collections.abc.Mapping`,
such as the loader's ``FrozenMap``). Anything else is *foreign*. Every
package (``schema``, ``functions``, ``conditions``, ``tosca``, ``dsl``) uses
these helpers instead of its own copy, so that a kind, an equality, a copy
and a description mean the same everywhere:

* :func:`kind_of`: ``null``, ``boolean``, ``number``, ``string``, ``list``,
  ``map``, or the Python type name of a foreign value. A ``bool`` is never a
  number. A package may name a kind in its own words (the schema says
  ``numeric``, the condition language ``mapping``), never classify anew.
* :func:`values_equal` and :func:`canonical` (its hashable key): numbers
  compare numerically (``1 == 1.0``), a boolean never equals a number,
  strings never equal numbers, maps compare by keys regardless of order,
  lists item by item. ``NaN`` equals nothing, not even itself (IEEE, as Go,
  JavaScript and Python's ``==`` have it), also inside containers: every
  ``NaN`` gets a key of its own. A foreign value equals another only when
  both are the same object, except for the immutable standard value types
  a YAML loader or toskit itself builds (``datetime``, ``date``, ``time``,
  ``timedelta``, ``bytes``, ``complex``), which compare by value within one
  type. No other foreign ``__eq__``/``__hash__``/``__repr__`` is ever called
  (they may be missing, slow, or raise).
* :func:`copy_value`: a deep copy (maps become ``dict``, lists and tuples
  ``list``); scalars and foreign values are shared.
* :func:`describe`: ``string 'abc'``, ``integer 5``, ``float 1.5``,
  ``boolean true``, ``null``, ``list [1, 2]``, ``map {'a': 1}``, cut to a
  length; foreign values by their type name only. It reads at most what it
  prints, so a huge or cyclic value costs no more than a small one.

All walks here are iterative and stop at :data:`MAX_DEPTH` levels of
nesting below the root (as schema validation counts them) with
:class:`TooDeep` (cyclic values end there too): they never need
more Python frames than CPython's default recursion limit leaves.
:func:`drive` lets the walks of other packages (schema merge, function
parsing and evaluation) do the same while still reading as recursion.

>>> values_equal({"a": [1, 2.0]}, {"a": [1.0, 2]}), values_equal(True, 1)
(True, False)
>>> describe("abc"), describe(5), describe(True), describe([1, {"a": None}])
("string 'abc'", 'integer 5', 'boolean true', "list [1, {'a': null}]")
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Callable, Hashable, Iterator, Mapping
from types import GeneratorType
from typing import Any

__all__ = [
    "HASH_MODULUS",
    "bounded_text",
    "MAX_DEPTH",
    "TooDeep",
    "canonical",
    "copy_value",
    "describe",
    "drive",
    "flow_text",
    "is_number",
    "kind_of",
    "values_equal",
]

MAX_DEPTH = 500
"""The one nesting-depth bound of toskit: the YAML loader's default
``max_depth`` (``toskit.source``), and the deepest nesting every walk over
values accepts (schema validation and merges, function evaluation, the
helpers of this module). A value the loader accepts is never too deep for
a later walk; a deeper one (built in Python, or cyclic) gets a clear
toskit error from the walk that meets it."""


class TooDeep(RecursionError):
    """A value nested deeper than :data:`MAX_DEPTH` (or cyclic).

    A :class:`RecursionError` so that every walker's existing guard, which
    turns that into the package's own toskit error, catches it too; it is
    never shown to users as such.
    """

    def __init__(self, message: str = f"value nested deeper than {MAX_DEPTH} levels") -> None:
        super().__init__(message)


# ---------------------------------------------------------------------------- walks


def drive(step: Callable[..., Any], *args: Any) -> Any:
    """Run a recursive walk without Python recursion.

    ``step(*args)`` returns either a finished result, or a generator for a
    container: the generator yields the argument tuple of each sub-walk it
    needs and is sent that sub-walk's result (``merged = yield (node, l, r)``),
    then returns its own result. It may also yield a generator it got from
    calling a step itself (``r = step(...)``; ``if type(r) is GeneratorType:
    r = yield r``), so that leaves cost no round trip through the driver.
    The generators wait on an explicit stack, so a walk as deep as
    :data:`MAX_DEPTH` takes a few Python frames, not thousands; a deeper one
    raises :class:`TooDeep`. (A plain result must not
    itself be a generator; the values walked here never are.)
    """
    result = step(*args)
    if type(result) is not GeneratorType:
        return result
    stack = [result]
    sent: Any = None
    while True:
        try:
            request = stack[-1].send(sent)
        except StopIteration as done:
            stack.pop()
            if not stack:
                return done.value
            sent = done.value
            continue
        sent = request if type(request) is GeneratorType else step(*request)
        if type(sent) is GeneratorType:
            # The root container, then MAX_DEPTH levels below it (as schema
            # validation counts), and one more for a step that hands over to
            # another at the same level (a replaced value in merge_layers).
            if len(stack) > MAX_DEPTH + 1:
                raise TooDeep
            stack.append(sent)
            sent = None


# --------------------------------------------------------------------------- kinds


def is_number(value: Any) -> bool:
    """An ``int`` or a ``float``, and not a ``bool``."""
    t = type(value)
    return (
        t is int or t is float or (isinstance(value, (int, float)) and not isinstance(value, bool))
    )


def kind_of(value: Any) -> str:
    """``null``, ``boolean``, ``number``, ``string``, ``list``, ``map``, or
    the Python type name of a foreign value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "map"
    if isinstance(value, (list, tuple)):
        return "list"
    return type(value).__name__


# ------------------------------------------------------------------------ equality


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_BOOL = _Marker("bool")
_OTHER = _Marker("other")
_NAN = _Marker("nan")
_BIG = _Marker("big")

HASH_MODULUS = (1 << 61) - 1
"""Python hashes ints modulo this prime: integers at or beyond it can all
share one hash, which would make a set of them quadratic (#19), so
:func:`canonical` gives them a key with a spread hash. Numbers strictly
inside ``(-HASH_MODULUS, HASH_MODULUS)`` are their own key."""

# Foreign types compared by value: immutable, with a total, non-raising ==.
_VALUE_TYPES: tuple[type, ...] = (bytes, complex)


def _value_types() -> tuple[type, ...]:
    """``_VALUE_TYPES`` with ``datetime``'s date, time and timedelta once it is imported.

    A date or a timedelta exists only once its maker imported ``datetime``,
    so until then none can be asked about, and ``toskit check`` of a
    template without timestamps imports no ``datetime`` (#31: ~0.9 ms).
    """
    global _VALUE_TYPES
    if len(_VALUE_TYPES) == 2:
        dt = sys.modules.get("datetime")
        if dt is None:
            return _VALUE_TYPES
        _VALUE_TYPES = (dt.date, dt.time, dt.timedelta, bytes, complex)
    return _VALUE_TYPES


_NAN_IDS = itertools.count()
_END = _Marker("end")


def _big_bytes(value: int) -> bytes:
    return value.to_bytes((value.bit_length() + 8) // 8, "little", signed=True)


def _scalar_key(value: Any) -> Hashable:
    """The key of a value that is not a list or map (see :func:`canonical`)."""
    t = type(value)
    if t is str or value is None:
        return value
    if t is bool or isinstance(value, bool):
        return (_BOOL, bool(value))
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (int, float)):
        number = int(value) if isinstance(value, int) else float(value)
        if -HASH_MODULUS < number < HASH_MODULUS:
            return number
        if number != number:
            return (_NAN, next(_NAN_IDS))  # equal to no other key
        if isinstance(number, float) and math.isinf(number):
            return number
        return (_BIG, _big_bytes(int(number)))  # floats this large are integers
    if isinstance(value, _value_types()):
        return (_OTHER, _value_text(value))
    return (_OTHER, id(value))


def _value_text(value: Any) -> str:
    """A text equal for two values of one ``_VALUE_TYPES`` type exactly when ``==`` holds."""
    import datetime as _dt  # imported already: a value of its types is here

    offset = value.utcoffset() if isinstance(value, _dt.datetime) else None
    if offset is not None:  # aware datetimes are equal by instant: write them in UTC
        return "datetime " + (value - offset).replace(tzinfo=None).isoformat() + "Z"
    if isinstance(value, (_dt.date, _dt.time)):
        return f"{type(value).__name__} {value.isoformat()}"
    if isinstance(value, _dt.timedelta):
        return f"timedelta {value // _dt.timedelta(microseconds=1)}"
    return f"{type(value).__name__} {value!r}"


# Tokens of a container key: a flat tuple that alternates a tag and a payload,
# so that keys hash and compare without recursion (a nested tuple key of a
# value 500 levels deep would take ~1500 C-level recursions to compare), and
# two payloads are only ever compared under one tag (so always orderable:
# map entries are sorted to make maps unordered).
_T_NULL, _T_BOOL, _T_NUM, _T_STR, _T_BIG, _T_NAN, _T_LIST, _T_MAP, _T_OTHER, _T_ID = range(10)


def _leaf_tokens(value: Any) -> tuple[Any, ...] | None:
    """The tokens of a non-container, or ``None`` for a list or map."""
    t = type(value)
    if t is str:
        return (_T_STR, value)
    if t is int or t is float:
        if -HASH_MODULUS < value < HASH_MODULUS:
            return (_T_NUM, value)
        if value != value:
            return (_T_NAN, next(_NAN_IDS))
        if t is float and math.isinf(value):
            return (_T_NUM, value)
        return (_T_BIG, _big_bytes(int(value)))
    if t is dict or t is list or isinstance(value, (Mapping, list, tuple)):
        return None
    if value is None:
        return (_T_NULL, 0)
    key = _scalar_key(value)
    if key is None:
        return (_T_NULL, 0)
    if isinstance(key, tuple):
        tag = {_BOOL: _T_BOOL, _BIG: _T_BIG, _NAN: _T_NAN}.get(key[0])
        if tag is not None:
            return (tag, key[1])
        return (_T_OTHER, key[1]) if isinstance(key[1], str) else (_T_ID, key[1])
    return (_T_STR, key) if isinstance(key, str) else _leaf_tokens(key)


def canonical(value: Any) -> Hashable:
    """A hashable key such that ``canonical(a) == canonical(b)`` exactly when
    ``values_equal(a, b)`` (see the module doc).

    A string, a number or ``None`` is its own key (fast, and ``1`` and ``1.0``
    already meet); a list or map gets a flat tuple, so that even keys of
    deep values hash and compare without recursion. Raises
    :class:`TooDeep` beyond :data:`MAX_DEPTH` levels.
    """
    t = type(value)
    if t is str or value is None:
        return value
    if t is int or t is float:
        if -HASH_MODULUS < value < HASH_MODULUS:
            return value
    elif t is dict or t is list or isinstance(value, (Mapping, list, tuple)):
        return _container_key(value)
    return _scalar_key(value)


def _container_key(root: Any) -> tuple[Any, ...]:
    # Post-order with an explicit stack of [is_map, items, parts, key tokens]:
    # a list's parts are its tokens, a map's its (key, value) token pairs.
    stack: list[list[Any]] = []
    node = root
    while True:
        if len(stack) > MAX_DEPTH:  # the root, then MAX_DEPTH levels below it
            raise TooDeep
        if type(node) is dict or isinstance(node, Mapping):
            stack.append([True, iter(node.items()), [], ()])
        else:
            stack.append([False, iter(node), [_T_LIST, len(node)], ()])
        while True:
            frame = stack[-1]
            is_map, items, parts = frame[0], frame[1], frame[2]
            node = _END
            for item in items:
                if is_map:
                    k, item = item
                    kt = _leaf_tokens(k)
                    frame[3] = kt if kt is not None else _container_key(k)  # keys are shallow
                tokens = _leaf_tokens(item)
                if tokens is None:
                    node = item
                    break
                if is_map:
                    parts.append((frame[3], tokens))
                else:
                    parts.extend(tokens)
            if node is not _END:
                break  # descend into ``node``
            stack.pop()
            if is_map:
                parts.sort()
                done = [_T_MAP, len(parts)]
                for kt, vt in parts:
                    done.extend(kt)
                    done.extend(vt)
                parts = done
            key = tuple(parts)
            if not stack:
                return key
            parent = stack[-1]
            if parent[0]:
                parent[2].append((parent[3], key))
            else:
                parent[2].extend(key)


def values_equal(a: Any, b: Any) -> bool:
    """Equality of plain data (``1 == 1.0``, ``True != 1``, maps unordered,
    ``NaN`` equal to nothing; see the module doc)."""
    return canonical(a) == canonical(b)


# ---------------------------------------------------------------------------- copy

# Exact types that are never copied (checked first: most leaves are these).
_SHARED = frozenset((str, int, float, bool, type(None)))


def copy_value(value: Any) -> Any:
    """A deep copy of plain data: maps become ``dict``, lists and tuples
    ``list``; scalars and foreign values are shared. Raises :class:`TooDeep`
    beyond :data:`MAX_DEPTH` levels."""
    t = type(value)
    if t is str or t is int or t is float or t is bool or value is None:
        return value
    if not isinstance(value, (Mapping, list, tuple)):
        return value
    # Pre-order with an explicit stack of (source, copy, depth): each copy is
    # linked into its parent before its own items are filled in.
    root: Any = {} if isinstance(value, Mapping) else []
    stack: list[tuple[Any, Any, int]] = [(value, root, 0)]  # the root, then MAX_DEPTH levels
    child: Any
    while stack:
        source, out, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TooDeep
        if isinstance(source, Mapping):
            for k, v in source.items():
                t = type(v)
                if t in _SHARED:
                    out[k] = v
                elif t is dict or t is not list and isinstance(v, Mapping):
                    out[k] = child = {}
                    stack.append((v, child, depth + 1))
                elif t is list or isinstance(v, (list, tuple)):
                    out[k] = child = []
                    stack.append((v, child, depth + 1))
                else:
                    out[k] = v
        else:
            for v in source:
                t = type(v)
                if t in _SHARED:
                    out.append(v)
                elif t is dict or t is not list and isinstance(v, Mapping):
                    child = {}
                    stack.append((v, child, depth + 1))
                    out.append(child)
                elif t is list or isinstance(v, (list, tuple)):
                    child = []
                    stack.append((v, child, depth + 1))
                    out.append(child)
                else:
                    out.append(v)
    return root


# ------------------------------------------------------------------------ describe


def _number_text(value: Any) -> str:
    if isinstance(value, float):
        return repr(float(value))
    try:
        return str(int(value))
    except ValueError:  # over Python's int -> text limit: say how long it is
        digits = int(abs(int(value)).bit_length() * math.log10(2)) + 1
        return f"{'-' if value < 0 else ''}<about {digits} digits>"


def _json_text(text: str) -> str:
    """``text`` as a JSON string (non-ASCII characters kept)."""
    import json  # imported on use, not at the top: `toskit check` of a clean file needs no json (#31)

    return json.dumps(text, ensure_ascii=False)


def _scalar_text(value: Any, limit: int, style: str = "flow") -> str:
    """One leaf in ``style`` (see :func:`bounded_text`), reading at most
    ``limit + 1`` characters of a string (never a huge string whole)."""
    if style == "repr":
        if value is None or isinstance(value, bool):
            return repr(bool(value)) if value is not None else "None"
    elif value is None:
        return "null"
    elif isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number_text(value)
    if isinstance(value, str):
        cut = str(value[: limit + 1])
        if style == "json":
            return _json_text(cut)
        return repr(cut)
    hook = getattr(type(value), "_bounded_text", None)
    if hook is not None:  # a function call (toskit.functions.Call) renders itself within the budget
        text = str(hook(value, limit + 1, style))
        return _json_text(text) if style == "json" else text
    if style == "repr" and isinstance(value, (bytes, bytearray)):
        return repr(bytes(value[: limit + 1]))
    if style == "repr" and isinstance(value, _value_types()):
        return repr(value)
    if style == "json":
        try:
            text = str(value)  # a scalar unit, a version: short texts of their own
        except Exception:  # noqa: BLE001 - a foreign __str__ may raise: name the type
            return f"<{type(value).__name__}>"
        return _json_text(text[: limit + 1])
    return f"<{type(value).__name__}>"


_OPEN = {"flow": ("{", "[", "["), "json": ("{", "[", "["), "repr": ("{", "[", "(")}


def _tokens(value: Any, limit: int, style: str = "flow") -> Iterator[str]:
    """The text of ``value``, piece by piece (read lazily, so a caller
    that stops early never visits the rest)."""
    frames: list[list[Any]] = []  # [items, is_map, first, closing]
    pending = value
    open_map, open_list, open_tuple = _OPEN[style]
    while True:
        if pending is not _END:
            v, pending = pending, _END
            if isinstance(v, (Mapping, list, tuple)) and len(frames) >= MAX_DEPTH:
                yield "…"
            elif isinstance(v, Mapping):
                yield open_map
                frames.append([iter(v.items()), True, True, "}"])
            elif isinstance(v, (list, tuple)):
                tuple_like = open_tuple == "(" and isinstance(v, tuple)
                yield open_tuple if tuple_like else open_list
                close = (",)" if len(v) == 1 else ")") if tuple_like else "]"
                frames.append([iter(v), False, True, close])
            else:
                yield _scalar_text(v, limit, style)
        if not frames:
            return
        frame = frames[-1]
        item: Any = next(frame[0], _END)
        if item is _END:
            frames.pop()
            yield frame[3]
            continue
        if not frame[2]:
            yield ", "
        frame[2] = False
        if frame[1]:
            k, pending = item
            if style == "json" and not isinstance(k, str):
                k = k if isinstance(k, (Mapping, list, tuple)) else flow_text(k, limit)
            yield (
                "…" if isinstance(k, (Mapping, list, tuple)) else _scalar_text(k, limit, style)
            ) + ": "
        else:
            pending = item


def bounded_text(value: Any, limit: int, *, style: str = "flow") -> str:
    """The text of ``value`` cut to ``limit`` characters with ``…``, built
    while walking: it reads at most about ``limit`` characters of the value,
    so its memory and time do not depend on how large the value would be
    expanded (a list of 3,000 aliases of a 1 MB string costs what a short
    one does). ``style`` is

    * ``"flow"``: ``[1, {'a': null}]`` (strings quoted, ``true``/``null``);
    * ``"json"``: JSON text (``["a", {"b": null}]``), keys as strings;
    * ``"repr"``: Python's ``repr`` (``['a', {'b': None}, (1, 2)]``).

    A foreign value shows as ``<TypeName>``, except a value whose type has a
    ``_bounded_text(limit, style)`` method (a function call writes its own
    text within the budget) and, in ``json`` its ``str()``, in ``repr`` the
    standard value types' ``repr``. Nesting below :data:`MAX_DEPTH` is ``…``.

    >>> bounded_text(["x" * 100] * 1000, 20)
    "['xxxxxxxxxxxxxxxxx…"
    >>> bounded_text({"a": (1, None)}, 40, style="repr")
    "{'a': (1, None)}"
    >>> bounded_text({1: [True]}, 40, style="json")
    '{"1": [true]}'
    """
    pieces: list[str] = []
    size = 0
    for piece in _tokens(value, limit, style):
        pieces.append(piece)
        size += len(piece)
        if size > limit:
            break
    text = "".join(pieces)
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def flow_text(value: Any, limit: int = 60) -> str:
    """A flow rendering of ``value`` (``[1, {'a': null}]``: strings quoted,
    ``true``/``false``/``null``), cut to ``limit`` characters with ``…``.
    Foreign values show as ``<TypeName>`` (see :func:`bounded_text`)."""
    return bounded_text(value, limit)


def describe(value: Any, limit: int = 60, *, number: str | None = None) -> str:
    """The kind and a short rendering of a value for messages:
    ``string 'abc'``, ``integer 5``, ``float 1.5``, ``boolean true``,
    ``null``, ``list [1, 2]``, ``map {'a': 1}``; a foreign value by its type
    name only. ``limit`` bounds the rendering (the kind comes on top).
    ``number`` is a package's own word for both kinds of number (the
    schema's ``numeric``)."""
    if value is None:
        return "null"
    kind = kind_of(value)
    if kind == "number":
        kind = number or ("float" if isinstance(value, float) else "integer")
    elif kind not in ("boolean", "string", "list", "map"):
        return kind
    return f"{kind} {flow_text(value, limit)}"
