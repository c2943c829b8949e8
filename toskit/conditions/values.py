"""Values of the expression language: types, strict equality, hashed keys.

The language has null, boolean, number (int or float; a boolean is *not* a
number), string, list and mapping. Equality is
strict and deep, like JavaScript's ``===`` extended to containers: ``1 ==
1.0`` but ``1 != true`` and ``null != false``; ``NaN`` equals nothing. That
is exactly the equality of :mod:`toskit.plain` (shared by every package),
which this module applies with the language's words and errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toskit.errors import ConditionError
from toskit.plain import TooDeep, canonical, copy_value, is_number, kind_of, values_equal

__all__ = [
    "type_name",
    "strict_eq",
    "is_number",
    "build_index",
    "index_contains",
    "value_text",
    "to_plain",
]


def type_name(value: Any) -> str:
    """The language's name for the type of ``value`` (for error messages):
    :func:`toskit.plain.kind_of`, with maps called ``mapping`` as the language does."""
    kind = kind_of(value)
    return "mapping" if kind == "map" else kind


def _too_deep() -> ConditionError:
    return ConditionError(
        "TypeError", "a value is nested too deeply to be compared, indexed or copied"
    )


def strict_eq(a: Any, b: Any) -> bool:
    """Strict, deep, type-aware equality (``1 == true`` is false, ``1 == 1.0`` true)."""
    ta = type(a)
    if ta is str:  # the common cases, without building keys
        return type(b) is str and a == b
    if ta is int or ta is float:
        tb = type(b)
        if tb is int or tb is float:
            return bool(a == b)  # exact for huge ints; NaN equals nothing
    elif a is None:
        return b is None
    elif ta is bool:
        return type(b) is bool and a is b
    try:
        return values_equal(a, b)
    except TooDeep:
        raise _too_deep() from None


def build_index(items: Any) -> frozenset | None:
    """A hashed index of a list for membership tests (keys are
    :func:`toskit.plain.canonical`, so lookups respect strict equality), or
    ``None`` when the list is not a list or holds a value too deep to key
    (the caller then falls back to a linear scan)."""
    if not isinstance(items, (list, tuple)):
        return None
    try:
        return frozenset(canonical(v) for v in items)
    except TooDeep:
        return None


def index_contains(index: frozenset, value: Any) -> bool:
    """``value in items`` under strict equality, using ``build_index(items)``."""
    if type(value) is str:
        return value in index
    try:
        return canonical(value) in index
    except TooDeep:
        # A value too deep to key cannot equal any (keyable) item of the index.
        return False


def value_text(value: Any) -> str:
    """The text of a value as it is substituted for ``<value>`` in warnings."""
    try:
        return _value_text(value)
    except RecursionError:
        raise _too_deep() from None


def _value_text(value: Any) -> str:
    """The text of a value as it is substituted for ``<value>`` in warnings:
    numbers as Python's ``str``, booleans ``true``/``false``, null ``null``,
    strings as they are, lists and mappings in flow style."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_value_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def to_plain(value: Any) -> Any:
    """A deep copy with lists as ``list`` and mappings as ``dict``
    (:func:`toskit.plain.copy_value`), so that a caller can never mutate a
    cluster through a returned value."""
    try:
        return copy_value(value)
    except TooDeep:
        raise _too_deep() from None
