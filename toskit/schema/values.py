"""Helpers over plain values: kinds, equality keys, short renderings, depth.

Values are the JSON-like data YAML gives (``None``, ``bool``, ``int``,
``float``, ``str``, ``list``/``tuple``, ``dict``). Anything else is *foreign*
and is reported by validation, never crashes the engine.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from toskit.runtime import deep_walk
from toskit.schema.model import schema_error_message
from toskit.sentinels import ABSENT, Absent

__all__ = [
    "ABSENT",
    "MAX_DEPTH",
    "WALK_FRAMES",
    "Absent",
    "canonical",
    "copy_value",
    "deep_stack",
    "guarded_walk",
    "is_empty",
    "kind_of",
    "render_literal",
    "short_repr",
    "values_equal",
]

MAX_DEPTH = 512
"""Deepest value nesting the engine walks; deeper values get a diagnostic.

It matches the YAML loader's own depth bound (500) with some room, so any
document the loader accepts can be validated.
"""


def kind_of(value: Any) -> str:
    """The schema kind of a value: ``map``, ``list``, ``string``, ``numeric``,
    ``boolean``, ``null``, or the Python type name of a foreign value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "numeric"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "map"
    if isinstance(value, (list, tuple)):
        return "list"
    return type(value).__name__


def is_empty(value: Any) -> bool:
    """True for ``ABSENT``, ``None``, ``{}`` and ``[]`` (the merge "leaf" sides)."""
    if value is None or value is ABSENT:
        return True
    if isinstance(value, (dict, list, tuple)):
        return len(value) == 0
    return False


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_BOOL = _Marker("bool")
_MAP = _Marker("map")
_LIST = _Marker("list")
_OTHER = _Marker("other")


# Integers at or beyond 2**61 - 1 can all share one hash (Python hashes ints
# modulo this prime): a set list of such values would make every set and
# dict quadratic (#19). They get a canonical form whose hash is seeded.
_HASH_MODULUS = (1 << 61) - 1
_BIG = _Marker("big")


def _big(value: int | float) -> Any:
    if isinstance(value, float):
        if not math.isfinite(value):
            return value
        value = int(value)  # floats this large are integers: 2.0**70 == 2**70
    length = (value.bit_length() + 8) // 8
    return (_BIG, value.to_bytes(length, "little", signed=True))


def canonical(value: Any) -> Any:
    """A hashable key such that ``canonical(a) == canonical(b)`` exactly when
    ``a`` and ``b`` are equal in the sense of spec §2.2.

    Numbers compare numerically (``1 == 1.0``), a ``bool`` never equals a
    number, strings never equal numbers, maps compare by keys regardless of
    order, lists element by element. Callers bound the depth (values are
    validated first).
    """
    t = type(value)
    if t is int or t is float:
        if -_HASH_MODULUS < value < _HASH_MODULUS:
            return value
        return _big(value)
    if t is str or value is None:
        return value
    if t is bool:
        return (_BOOL, value)
    if isinstance(value, bool):
        return (_BOOL, bool(value))
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (int, float)):
        return canonical(int(value) if isinstance(value, int) else float(value))
    if isinstance(value, dict):
        return (_MAP, frozenset((canonical(k), canonical(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (_LIST, tuple(canonical(v) for v in value))
    # A foreign object is equal only to itself: its own __eq__/__hash__ are
    # never called (they may be missing, or raise).
    return (_OTHER, id(value))


def values_equal(a: Any, b: Any) -> bool:
    """Equality of spec §2.2 (``1 == 1.0``, ``True != 1``, maps unordered)."""
    return canonical(a) == canonical(b)


def copy_value(value: Any) -> Any:
    """A deep copy of plain data (tuples become lists); scalars are shared."""
    t = type(value)
    if t is dict:
        return {k: copy_value(v) for k, v in value.items()}
    if t is list or t is tuple:
        return [copy_value(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [copy_value(v) for v in value]
    return value


def render_literal(value: Any) -> str:
    """A value as a JSON literal for field paths (spec §2.1).

    Strings are double-quoted with backslash escapes (non-ASCII kept as is),
    ``true``/``false``/``null``, integers bare, an integral float like the
    integer (``1.0`` → ``1``), other floats as ``repr`` (non-finite ones as
    JSON's ``NaN``/``Infinity``/``-Infinity`` so that they parse back).
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int_text(int(value))
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value):
            return str(int(value))
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(float(value))
    if isinstance(value, str):
        return json.dumps(str(value), ensure_ascii=False)
    if isinstance(value, dict):
        items = ",".join(
            f"{json.dumps(str(k), ensure_ascii=False)}:{render_literal(v)}"
            for k, v in value.items()
        )
        return "{" + items + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(render_literal(v) for v in value) + "]"
    return json.dumps(f"<{type(value).__name__}>")


def int_text(value: int) -> str:
    """The decimal digits of any int, however long (Python refuses to print
    ints over 4,300 digits by default; paths must still name them exactly)."""
    try:
        return str(value)
    except ValueError:
        with unlimited_int_digits():
            return str(value)


class unlimited_int_digits:  # noqa: N801 - used like a function
    """Lift Python's limit on int ↔ decimal text conversion for a moment."""

    def __enter__(self) -> None:
        self._old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)

    def __exit__(self, *exc: object) -> None:
        sys.set_int_max_str_digits(self._old)


def short_repr(value: Any, limit: int = 60) -> str:
    """The kind and a short rendering of a value for messages: ``string "x"``."""
    kind = kind_of(value)
    if kind in ("map", "list", "string", "numeric", "boolean", "null"):
        try:
            text = render_literal(value)
        except (RecursionError, ValueError):
            text = "…"
        if len(text) > limit:
            text = text[: limit - 1] + "…"
        return f"{kind} {text}" if kind != "null" else "null"
    return kind


WALK_FRAMES = 4 * MAX_DEPTH + 200
"""Python frames a schema walk may need: the walkers recurse twice per level
of nesting (a node and its map or list) and stop at :data:`MAX_DEPTH`; at the
deepest level, :func:`canonical` or :func:`copy_value` may recurse again
through what is left of the value."""


def deep_stack(*, pause_gc: bool = True) -> deep_walk:
    """The room a schema walk needs (:data:`WALK_FRAMES`), with the cyclic GC
    paused by default: ``with deep_stack(): ...``.

    Merging allocates many small containers and no reference cycles, so the
    collector would only re-scan live data (merges of 10,000 list items ran
    ~35% slower with it). Validation allocates little and passes
    ``pause_gc=False``. See :mod:`toskit.runtime` for how the process-wide
    settings are shared and restored.
    """
    return deep_walk(WALK_FRAMES, pause_gc=pause_gc)


class guarded_walk:  # noqa: N801 - used like a function: ``with guarded_walk("…"):``
    """:func:`deep_stack` for a merge, compare, … walk, whose ``RecursionError``
    (a value too deep even for that room) becomes a :class:`toskit.SchemaError`
    with ``message``, the context dropped (the traceback would be thousands of
    frames of the walker)."""

    __slots__ = ("message", "_room")

    def __init__(self, message: str = "value nested too deeply") -> None:
        self.message = message
        self._room = deep_stack()

    def __enter__(self) -> None:
        self._room.__enter__()

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        self._room.__exit__(exc_type, *exc)
        if exc_type is not None and issubclass(exc_type, RecursionError):
            raise schema_error_message(self.message) from None
