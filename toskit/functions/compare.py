"""Kinds of value, deep equality and ordering.

* Kinds: boolean, number (int or float), string, list, map, null. A boolean
  is never a number. Kinds, deep equality and its hashable key
  (``canonical``) are :mod:`toskit.plain`'s, shared by every package and
  re-exported here.
* Scalar-units: two strings that both read as scalar-units of one class
  compare by amount; of different classes they are a ``TypeMismatch``.
* Typed operands: when one operand's declared type is (or derives from)
  ``version``, ``timestamp`` or a ``scalar-unit.*``, the other is read in
  that type; one that does not read is a ``TypeMismatch``.
* Otherwise strings compare by code point and numbers numerically.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import Any

from toskit.functions.errors import Failure
from toskit.plain import canonical, kind_of
from toskit.plain import describe as describe_plain
from toskit.plain import values_equal as deep_equal
from toskit.values import (
    ScalarClass,
    ScalarUnit,
    Version,
    parse_scalar_unit,
    parse_timestamp,
    parse_version,
    scalar_kind_of_type,
)

__all__ = ["canonical", "deep_equal", "describe", "kind_of", "ordered_pair", "typed_pair"]


def describe(value: Any) -> str:
    """``string 'abc'``, ``number 3``, ``list [1, 2]`` (shortened) for messages:
    :func:`toskit.plain.describe` in this package's words."""
    return describe_plain(value, number="number")


_READERS: dict[str, Callable[[Any], Any]] = {
    "version": parse_version,
    "timestamp": parse_timestamp,
}


def _reader(primitive: Any) -> tuple[str, Callable[[Any], Any]] | None:
    if primitive is None:
        return None
    if isinstance(primitive, ScalarClass):
        return primitive.name, primitive.parse
    if primitive in _READERS:
        return primitive, _READERS[primitive]
    kind = scalar_kind_of_type(primitive)
    if kind is not None:
        return primitive, lambda v, k=kind: parse_scalar_unit(v, k)
    return None


def typed_pair(a: Any, b: Any, primitive_a: Any, primitive_b: Any) -> tuple[Any, Any] | None:
    """Read both operands in a declared special type; ``None`` when neither is typed.

    ``primitive_a``/``primitive_b`` are primitive type names, or
    :class:`~toskit.values.ScalarClass` objects for declared 2.0 scalar types.

    Raises ``Failure("TypeMismatch")`` when an operand does not read in that
    type, or the two declared types differ.
    """
    ra, rb = _reader(primitive_a), _reader(primitive_b)
    reader = ra if ra is not None else rb
    if reader is None:
        return None
    if ra is not None and rb is not None and ra[0] != rb[0]:
        raise Failure("TypeMismatch", f"cannot compare a {ra[0]} with a {rb[0]}")
    name, read = reader
    out = []
    for operand in (a, b):
        value = operand if isinstance(operand, (Version, ScalarUnit)) else read(operand)
        if value is None:
            raise Failure("TypeMismatch", f"{describe(operand)} is not a {name}")
        out.append(value)
    return out[0], out[1]


def _as_scalar_pair(a: Any, b: Any) -> tuple[ScalarUnit, ScalarUnit] | None:
    if not (isinstance(a, str) and isinstance(b, str)):
        return None
    sa, sb = parse_scalar_unit(a), parse_scalar_unit(b)
    if sa is None or sb is None:
        return None
    if sa.kind != sb.kind:
        raise Failure(
            "TypeMismatch", f"cannot compare a {sa.kind} scalar '{a}' with a {sb.kind} scalar '{b}'"
        )
    return sa, sb


def ordered_pair(
    a: Any, b: Any, primitive_a: Any = None, primitive_b: Any = None
) -> tuple[Any, Any]:
    """Two operands ready for ``<``: numbers, strings, scalars, versions or timestamps.

    ``ArgType`` for booleans, lists, maps and null; ``TypeMismatch`` for
    operands of different kinds or classes.
    """
    typed = typed_pair(a, b, primitive_a, primitive_b)
    if typed is not None:
        return typed
    for operand in (a, b):
        kind = kind_of(operand)
        if kind in ("boolean", "list", "map", "null"):
            raise Failure("ArgType", f"cannot order {describe(operand)}")
    if isinstance(a, _dt.date) and isinstance(b, _dt.date):
        # dates and datetimes (from YAML loaders that build them) compare by instant
        return parse_timestamp(a), parse_timestamp(b)
    ka, kb = kind_of(a), kind_of(b)
    if ka != kb:
        raise Failure("TypeMismatch", f"cannot compare {describe(a)} with {describe(b)}")
    if ka == "string":
        scalars = _as_scalar_pair(a, b)
        if scalars is not None:
            return scalars
        return a, b
    if ka == "number":
        return a, b
    raise Failure("ArgType", f"cannot order {describe(a)}")


def equal_operands(a: Any, b: Any, primitive_a: Any = None, primitive_b: Any = None) -> bool:
    """``$equal``: deep equality; ``TypeMismatch`` for two non-null values of different kinds."""
    if a is None or b is None:
        return a is None and b is None
    typed = typed_pair(a, b, primitive_a, primitive_b)
    if typed is not None:
        return typed[0] == typed[1]
    if kind_of(a) != kind_of(b):
        raise Failure("TypeMismatch", f"cannot compare {describe(a)} with {describe(b)}")
    scalars = _as_scalar_pair(a, b)
    if scalars is not None:
        return scalars[0] == scalars[1]
    return deep_equal(a, b)
