"""Field paths: rendering path elements and parsing path strings.

A path is the concatenation of its elements:

* ``.name`` — a map key or struct field;
* ``[k1=v1,k2=v2]`` — a keyed-list item, key fields sorted by name;
* ``[=v]`` — a set item;
* ``[i]`` — an index into an atomic (or unset) list.

Values inside brackets are JSON literals. Internally a path element is a
hashable tuple whose values are :func:`~toskit.schema.values.canonical`
keys, so a parsed path matches the element computed from a value whatever
the spelling (``[id=1]`` matches a key holding ``1.0``).
"""

from __future__ import annotations

import json
from typing import Any

from toskit.schema.values import canonical, render_literal, unlimited_int_digits

__all__ = [
    "field_element",
    "index_element",
    "key_element",
    "parse_path",
    "render_field",
    "render_index",
    "render_key",
    "render_set",
    "set_element",
]

FIELD = "."
KEY = "k"
SET = "="
INDEX = "#"

_DECODER = json.JSONDecoder()


def render_field(name: Any) -> str:
    """``.name`` (a non-string key as its JSON literal)."""
    return "." + (name if isinstance(name, str) else render_literal(name))


def render_key(pairs: list[tuple[str, Any]]) -> str:
    """``[k1=v1,k2=v2]`` with the key fields sorted by name."""
    return "[" + ",".join(f"{n}={render_literal(v)}" for n, v in sorted(pairs, key=_first)) + "]"


def render_set(value: Any) -> str:
    """``[=v]``: the path element of a set item."""
    return "[=" + render_literal(value) + "]"


def render_index(index: int) -> str:
    """``[i]``: the path element of an atomic-list item."""
    return f"[{index}]"


def _first(pair: tuple[str, Any]) -> str:
    return pair[0]


def field_element(name: Any) -> tuple:
    """The parsed form of ``.name`` (as :func:`parse_path` gives it)."""
    return (FIELD, name)


def key_element(pairs: list[tuple[str, Any]]) -> tuple:
    """The parsed form of ``[k=v,…]`` (key fields sorted, values canonical)."""
    return (KEY, tuple(sorted(((n, canonical(v)) for n, v in pairs), key=_first)))


def set_element(value: Any) -> tuple:
    """The parsed form of ``[=v]`` (value canonical)."""
    return (SET, canonical(value))


def index_element(index: int) -> tuple:
    """The parsed form of ``[i]``."""
    return (INDEX, index)


def subject_path(text: str) -> tuple:
    """A field path as the tuple of a finding's subject (issue #28).

    Fields become their names, atomic-list items their indices, keyed and
    set items their rendered element; a path that does not parse is kept
    whole, as one element.

    >>> subject_path('.spec.ports[name="http"].port')
    ('spec', 'ports', '[name="http"]', 'port')
    >>> subject_path(".a[3].b")
    ('a', 3, 'b')
    """
    try:
        elements = parse_path(text)
    except PathSyntaxError:
        return (text,)
    out: list[Any] = []
    for element in elements:
        kind, value = element
        if kind in (FIELD, INDEX):
            out.append(value)
        elif kind == KEY:
            out.append(render_key(list(value)))
        else:
            out.append(render_set(value))
    return tuple(out)


class PathSyntaxError(ValueError):
    """A path string that does not follow the field-path syntax."""


def parse_path(text: str) -> tuple:
    """Parse a path string into internal elements.

    Raises :class:`PathSyntaxError` (a ``ValueError``) with the offending
    position; callers turn it into a ``SchemaError``. The root path is ``''``.
    """
    if not isinstance(text, str):
        raise PathSyntaxError(f"a path must be a string, got {type(text).__name__}")
    elements: list[tuple] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == ".":
            j = i + 1
            while j < n and text[j] not in ".[":
                j += 1
            elements.append(field_element(text[i + 1 : j]))
            i = j
        elif c == "[":
            i = _parse_bracket(text, i + 1, elements)
        else:
            raise PathSyntaxError(f"bad path {text!r}: expected '.' or '[' at offset {i}")
    return tuple(elements)


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _parse_bracket(text: str, i: int, elements: list[tuple]) -> int:
    n = len(text)
    if i < n and text[i] == "=":
        value, i = _decode(text, i + 1)
        elements.append(set_element(value))
        return _expect(text, i, "]")
    j = i
    while j < n and text[j] in "0123456789":  # ASCII only: str.isdigit() takes '²' and '١'
        j += 1
    if j > i and j < n and text[j] == "]":
        if j - i > 18:  # beyond any list (and Python's int() refuses 4,300+ digits)
            raise PathSyntaxError(
                f"bad path {_short(text)!r}: list index of {j - i} digits at offset {i}"
            )
        elements.append(index_element(int(text[i:j])))
        return j + 1
    pairs: list[tuple[str, Any]] = []
    while True:
        eq = text.find("=", i)
        if eq < 0 or eq == i:
            raise PathSyntaxError(f"bad path {text!r}: expected 'key=value' at offset {i}")
        name = text[i:eq]
        if any(ch in name for ch in ",[]"):
            raise PathSyntaxError(f"bad path {text!r}: bad key field name at offset {i}")
        value, i = _decode(text, eq + 1)
        pairs.append((name, value))
        if i < n and text[i] == ",":
            i += 1
            continue
        i = _expect(text, i, "]")
        break
    elements.append(key_element(pairs))
    return i


def _decode(text: str, i: int) -> tuple[Any, int]:
    try:
        with unlimited_int_digits():  # a path may name an int of any size
            return _DECODER.raw_decode(text, i)
    except json.JSONDecodeError:
        raise PathSyntaxError(f"bad path {text!r}: expected a JSON value at offset {i}") from None
    except RecursionError:
        raise PathSyntaxError(f"bad path {text!r}: value nested too deeply") from None


def _expect(text: str, i: int, char: str) -> int:
    if i < len(text) and text[i] == char:
        return i + 1
    raise PathSyntaxError(f"bad path {text!r}: expected {char!r} at offset {i}")
