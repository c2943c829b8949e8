"""The schema's view of plain values: equality keys, JSON literals, depth.

Values are the JSON-like data YAML gives (``None``, ``bool``, ``int``,
``float``, ``str``, ``list``/``tuple``, ``dict``). Anything else is *foreign*
and is reported by validation, never crashes the engine. Kinds, equality
(by kind), copies and descriptions are :mod:`toskit.plain`'s, the one home
every package shares; this module re-exports them and adds what only the
schema needs (JSON literals for field paths, the emptiness of a merge leaf).
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from toskit.plain import MAX_DEPTH, canonical, copy_value, values_equal
from toskit.plain import describe as describe_plain
from toskit.runtime import deep_walk
from toskit.schema.model import schema_error_message
from toskit.sentinels import ABSENT, Absent

__all__ = [
    "ABSENT",
    "MAX_DEPTH",
    "Absent",
    "canonical",
    "copy_value",
    "describe",
    "guarded_walk",
    "is_empty",
    "render_literal",
    "values_equal",
]


def is_empty(value: Any) -> bool:
    """True for ``ABSENT``, ``None``, ``{}`` and ``[]`` (the merge "leaf" sides)."""
    if value is None or value is ABSENT:
        return True
    if isinstance(value, (dict, list, tuple)):
        return len(value) == 0
    return False


def describe(value: Any, limit: int = 60) -> str:
    """:func:`toskit.plain.describe` in the schema's words (``numeric 1``,
    ``string 'x'``), for the ``got …`` part of messages."""
    return describe_plain(value, limit, number="numeric")


def render_literal(value: Any) -> str:
    """A value as a JSON literal for field paths.

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


class guarded_walk:  # noqa: N801 - used like a function: ``with guarded_walk("…"):``
    """A merge, compare, … walk with the cyclic GC paused, whose
    ``RecursionError`` (a value deeper than :data:`MAX_DEPTH`, or cyclic:
    :class:`toskit.plain.TooDeep`) becomes a :class:`toskit.SchemaError` with
    ``message``, the context dropped.

    The walks need no recursion room: they run on explicit stacks
    (:func:`toskit.plain.drive`). Merging allocates many small containers and
    no reference cycles, so the collector would only re-scan live data
    (merges of 10,000 list items ran ~35% slower with it); the pause is
    :class:`toskit.runtime.deep_walk`'s, shared with the loader.
    """

    __slots__ = ("message",)

    _PAUSED = deep_walk(0, pause_gc=True)

    def __init__(self, message: str = "value nested too deeply") -> None:
        self.message = message

    def __enter__(self) -> None:
        self._PAUSED.__enter__()

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        self._PAUSED.__exit__(exc_type, *exc)
        if exc_type is not None and issubclass(exc_type, RecursionError):
            raise schema_error_message(self.message) from None
