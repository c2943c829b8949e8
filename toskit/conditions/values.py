"""Values of the expression language: types, strict equality, hashed keys.

The language has null, boolean, number (int or float; a boolean is *not* a
number), string, list and mapping (spec/conditions.md §5.1). Equality is
strict and deep, like JavaScript's ``===`` extended to containers: ``1 ==
1.0`` but ``1 != true`` and ``null != false``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toskit.errors import ConditionError

__all__ = [
    "type_name",
    "strict_eq",
    "membership_key",
    "build_index",
    "value_text",
    "to_plain",
]


def type_name(value: Any) -> str:
    """The language's name for the type of ``value`` (for error messages)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, Mapping):
        return "mapping"
    return type(value).__name__


def is_number(value: Any) -> bool:
    """True for an int or float that is not a boolean."""
    t = type(value)
    return (
        t is int or t is float or (isinstance(value, (int, float)) and not isinstance(value, bool))
    )


def _too_deep() -> ConditionError:
    return ConditionError(
        "TypeError", "a value is nested too deeply to be compared, indexed or copied"
    )


def strict_eq(a: Any, b: Any) -> bool:
    """Strict, deep, type-aware equality (§5.1)."""
    try:
        return _strict_eq(a, b)
    except RecursionError:
        raise _too_deep() from None


def _strict_eq(a: Any, b: Any) -> bool:
    ta = type(a)
    if ta is str:
        return type(b) is str and a == b
    if a is None:
        return b is None
    if isinstance(a, bool):
        return isinstance(b, bool) and a == b
    if isinstance(a, (int, float)):
        return is_number(b) and a == b
    if isinstance(a, str):
        return isinstance(b, str) and a == b
    if isinstance(a, (list, tuple)):
        if not isinstance(b, (list, tuple)) or len(a) != len(b):
            return False
        return all(_strict_eq(x, y) for x, y in zip(a, b))
    if isinstance(a, Mapping):
        if not isinstance(b, Mapping) or len(a) != len(b):
            return False
        return all(key in b and _strict_eq(value, b[key]) for key, value in a.items())
    return type(a) is type(b) and a == b


class _Unhashable(Exception):
    pass


def membership_key(value: Any) -> Any:
    """A hashable key such that two values have equal keys exactly when
    :func:`strict_eq` holds between them.

    Strings and non-boolean numbers are their own key (Python already makes
    ``1`` and ``1.0`` equal and keeps strings apart from numbers); booleans,
    containers and null are tagged so that ``True`` never meets ``1``.
    Raises ``_Unhashable`` for a value with no such key (NaN, exotic types).
    """
    t = type(value)
    if t is str or t is int:
        return value
    if t is float:
        if value != value:  # NaN equals nothing, not even itself
            raise _Unhashable
        return value
    if value is None:
        return None
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, (int, float)):
        return membership_key(float(value) if isinstance(value, float) else int(value))
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (list, tuple)):
        return ("l", tuple(membership_key(v) for v in value))
    if isinstance(value, Mapping):
        try:
            return ("m", frozenset((k, membership_key(v)) for k, v in value.items()))
        except TypeError:
            raise _Unhashable from None
    raise _Unhashable


def build_index(items: Any) -> frozenset | None:
    """A hashed index of a list for membership tests, or ``None`` when some
    item has no key (the caller then falls back to a linear scan)."""
    if not isinstance(items, (list, tuple)):
        return None
    try:
        return frozenset(membership_key(v) for v in items)
    except (_Unhashable, RecursionError):
        return None


def index_contains(index: frozenset, value: Any) -> bool:
    """``value in items`` under strict equality, using ``build_index(items)``."""
    t = type(value)
    if t is str or t is int:
        return value in index
    try:
        return membership_key(value) in index
    except (_Unhashable, RecursionError):
        # No key: NaN equals nothing; a value too deep to key cannot equal
        # any (keyable) item of the index.
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
    """A deep copy with lists as ``list`` and mappings as ``dict``, so that a
    caller can never mutate a cluster through a returned value."""
    try:
        return _to_plain(value)
    except RecursionError:
        raise _too_deep() from None


def _to_plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_to_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _to_plain(v) for k, v in value.items()}
    return value
