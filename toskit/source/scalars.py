"""YAML 1.2 core-schema scalars, as TOSCA reads them.

Plain (unquoted, untagged) scalars resolve to ``None``, ``bool``, ``int``,
``float`` or stay ``str``:

* null: empty, ``~``, ``null``, ``Null``, ``NULL``;
* bool: ``true``/``false`` in any case (``yes``/``no``/``on``/``off`` stay
  strings: they are YAML 1.1 only);
* int: ``0``, ``-12``, ``+3``, ``0o17`` (octal), ``0x1F`` (hex). A decimal
  with a leading zero (``017``), underscores (``1_000``) or sexagesimal
  colons (``1:20``) stays a string, so nothing is silently reinterpreted;
* float: ``1.5``, ``.5``, ``1.``, ``1e3``, ``-2.5E-3``, ``.inf``/``-.inf``
  (any of ``inf``/``Inf``/``INF``), ``.nan``/``.NaN``/``.NAN``;
* anything else, dates included, stays a string (TOSCA's ``timestamp`` type
  parses dates itself).

Explicitly tagged scalars (``!!int "12"``) are handled by
:func:`construct_tagged`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from toskit.patterns import lazy_pattern

__all__ = ["ScalarError", "resolve_plain", "construct_tagged", "CORE_TAG_PREFIX"]

CORE_TAG_PREFIX = "tag:yaml.org,2002:"
#: Integer keys at or beyond Python's hash modulus (2**61 - 1) all may share a
#: hash, which makes a dict of them quadratic; more than this many per
#: document is ``limit-exceeded`` (both parse paths; here, not in
#: :mod:`~toskit.source.compose`, so the rapidyaml path needs no PyYAML).
MAX_HUGE_INT_KEYS = 1_000

_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_INT_DEC = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_INT_OCT = lazy_pattern(r"0o[0-7]+")
_INT_HEX = lazy_pattern(r"0x[0-9a-fA-F]+")
# A float needs a dot or an exponent: "017" and "1" are not floats.
_FLOAT = lazy_pattern(
    r"[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+"
)
_INF = lazy_pattern(r"[-+]?\.(?:inf|Inf|INF)")
_NAN = lazy_pattern(r"\.(?:nan|NaN|NAN)")
# Characters a non-string plain scalar can start with.
_NUMBER_START = frozenset("0123456789+-.")


class ScalarError(ValueError):
    """A scalar that cannot be constructed (bad explicit tag value, huge int)."""

    def __init__(self, message: str, code: str = "yaml-syntax") -> None:
        super().__init__(message)
        self.code = code


def _int(text: str, base: int) -> int:
    try:
        return int(text, base)
    except ValueError:
        # Python refuses decimal strings over sys.get_int_max_str_digits().
        raise ScalarError(
            f"integer literal of {len(text)} digits is too long", code="limit-exceeded"
        ) from None


def resolve_plain(value: str) -> object:
    """The Python value of a plain scalar (see the module docstring)."""
    if not value:
        return None
    first = value[0]
    if first in _NUMBER_START:
        if _INT_DEC.fullmatch(value):
            return _int(value, 10)
        if first == "0" and len(value) > 2:
            if _INT_OCT.fullmatch(value):
                return int(value[2:], 8)
            if _INT_HEX.fullmatch(value):
                return int(value[2:], 16)
        if _FLOAT.fullmatch(value):
            return float(value)
        if _INF.fullmatch(value):
            return -math.inf if first == "-" else math.inf
        if _NAN.fullmatch(value):
            return math.nan
        return value
    if first in "nN~":
        return None if value in _NULLS else value
    if first in "tTfF" and len(value) in (4, 5):
        lowered = value.lower()
        if lowered == "true":
            return True
        if lowered == "false":
            return False
    return value


_LENIENT_INT = lazy_pattern(r"[-+]?[0-9]+")


def _tagged_int(value: str) -> int:
    text = value.strip()
    if _LENIENT_INT.fullmatch(text):
        return _int(text, 10)
    if _INT_OCT.fullmatch(text):
        return int(text[2:], 8)
    if _INT_HEX.fullmatch(text):
        return int(text[2:], 16)
    raise ScalarError(f"'{value}' is not an integer (tagged !!int)")


def _tagged_float(value: str) -> float:
    text = value.strip()
    if _FLOAT.fullmatch(text) or _LENIENT_INT.fullmatch(text):
        return float(text)
    if _INF.fullmatch(text):
        return -math.inf if text[0] == "-" else math.inf
    if _NAN.fullmatch(text):
        return math.nan
    raise ScalarError(f"'{value}' is not a float (tagged !!float)")


def _tagged_bool(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    raise ScalarError(f"'{value}' is not a boolean (tagged !!bool): use true or false")


def _tagged_null(value: str) -> None:
    if value.strip() in _NULLS:
        return None
    raise ScalarError(f"'{value}' is not null (tagged !!null)")


_TAGGED: dict[str, Callable[[str], object]] = {
    CORE_TAG_PREFIX + "str": str,
    CORE_TAG_PREFIX + "int": _tagged_int,
    CORE_TAG_PREFIX + "float": _tagged_float,
    CORE_TAG_PREFIX + "bool": _tagged_bool,
    CORE_TAG_PREFIX + "null": _tagged_null,
    # TOSCA's timestamp type parses dates; the tag only says "this is a date".
    CORE_TAG_PREFIX + "timestamp": str,
    "!": str,  # the non-specific tag: a string
}

ALLOWED_SCALAR_TAGS = "!!str, !!int, !!float, !!bool, !!null, !!timestamp"


def construct_tagged(tag: str, value: str) -> object:
    """The value of a scalar with an explicit tag; :class:`ScalarError` if refused."""
    build = _TAGGED.get(tag)
    if build is None:
        raise ScalarError(unsupported_tag_message(tag))
    return build(value)


def short_tag(tag: str) -> str:
    """``tag:yaml.org,2002:python/object`` → ``!!python/object``."""
    return "!!" + tag[len(CORE_TAG_PREFIX) :] if tag.startswith(CORE_TAG_PREFIX) else tag


def unsupported_tag_message(tag: str) -> str:
    """The message for a tag toskit refuses to construct."""
    return f"tag '{short_tag(tag)}' is not allowed: toskit loads plain data only"
