"""Validation of a value against a type.

:func:`validate` first runs the node's fast check; only when that says no
does it walk the value again with paths, collecting every diagnostic. The
walk is bounded by :data:`~toskit.schema.values.MAX_DEPTH`: deeper (or
cyclic) values get one ``limit-exceeded`` diagnostic instead of a
``RecursionError``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

from toskit.diagnostics import Diagnostic, Subject
from toskit.errors import SchemaError
from toskit.records import replace
from toskit.schema.compiled import Node
from toskit.schema.fieldpath import render_field, render_index, render_key, render_set, subject_path
from toskit.schema.model import Schema
from toskit.schema.values import MAX_DEPTH, canonical, describe

__all__ = ["abbreviate_path", "check_value", "item_key", "validate", "validated_node"]

_SCALAR_MESSAGES = {
    "numeric": "expected numeric (int or float), got ",
    "string": "expected string, got ",
    "boolean": "expected boolean, got ",
    "untyped": "expected any scalar, got ",
}

_MISSING = object()


def validate(
    schema: Schema, value: Any, name: str, *, allow_duplicates: bool = False
) -> list[Diagnostic]:
    """Every problem of ``value`` against type ``name`` (empty list when valid).

    Raises :class:`toskit.SchemaError` only when ``name`` resolves to nothing.
    """
    node = schema.node(name)
    return check_value(node, value, allow_duplicates=allow_duplicates)


def check_value(node: Node, value: Any, *, allow_duplicates: bool = False) -> list[Diagnostic]:
    """Diagnostics for ``value`` against a compiled node (root path ``''``)."""
    if not allow_duplicates:
        try:
            if node.fast(value):
                return []
        except RecursionError:
            pass  # too deep for the fast check; the bounded walk reports it
        except Exception:  # noqa: BLE001 - foreign objects (bad __eq__/__hash__)
            pass  # the careful walk below reports what is wrong
    out: list[Diagnostic] = []
    try:
        _walk(node, value, "", out, allow_duplicates)
    except RecursionError:  # a deep key of a keyed item (rendered recursively)
        out.append(_too_deep(""))
    return out


def validated_node(schema: Schema, name: str, values: list[tuple[str, Any, bool]]) -> Node:
    """The node of ``name`` after checking each ``(label, value, allow_dups)``.

    Raises :class:`toskit.SchemaError` listing the diagnostics of every invalid
    value (each headed by its label) — the precondition of merge and compare.
    """
    node = schema.node(name)
    problems: list[Diagnostic] = []
    lines: list[str] = []
    for label, value, allow_dups in values:
        diags = check_value(node, value, allow_duplicates=allow_dups)
        if not diags:
            continue
        if len(values) > 1:
            # Two inputs (merge, compare, unions): each diagnostic names the
            # side it is from, as structured-merge-diff's "lhs: …" does.
            diags = [replace(d, message=f"{label}: {d.message}") for d in diags]
        lines.append(f"{label} is not a valid {name}:")
        lines.extend(f"  {d.path}: {d.message}" if d.path else f"  {d.message}" for d in diags)
        problems.extend(diags)
    if problems:
        raise SchemaError("\n".join(lines), problems)
    return node


def item_key(node: Node, element: dict) -> list[tuple[str, Any]]:
    """The ``(field, value)`` pairs identifying a keyed-list element; a missing
    key field takes its default, or is left out."""
    pairs = []
    for k in node.keys:
        v = element.get(k, _MISSING)
        if v is _MISSING:
            v = node.key_defaults.get(k, _MISSING)
        if v is not _MISSING:
            pairs.append((k, v))
    return pairs


def _error(code: str, message: str, path: str) -> Diagnostic:
    # The subject (issue #28): the value at the field path, as a tuple.
    return Diagnostic(
        "error", code, message, path=path, subject=Subject("value", None, subject_path(path))
    )


def _too_deep(path: str) -> Diagnostic:
    # The full path is hundreds of levels long: the message would bury the
    # point under it, so the diagnostic keeps its first and last elements.
    return _error(
        "limit-exceeded",
        f"value nested too deeply (more than {MAX_DEPTH} levels; is it cyclic?)",
        abbreviate_path(path),
    )


def _element_starts(path: str) -> list[int]:
    """Offsets where each element of a field path starts (``.`` or ``[`` at
    the top level, outside brackets and JSON strings)."""
    starts: list[int] = []
    depth = 0
    in_string = escaped = False
    for i, c in enumerate(path):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"' and depth:
            in_string = True
        elif c == "[":
            if depth == 0:
                starts.append(i)
            depth += 1
        elif c == "]":
            depth = max(depth - 1, 0)
        elif c == "." and depth == 0:
            starts.append(i)
    return starts


def abbreviate_path(path: str, head: int = 4, tail: int = 3) -> str:
    """``path`` with its middle elements replaced by ``…(N more)…`` when it has
    more than ``head + tail`` elements; shorter paths are returned unchanged."""
    starts = _element_starts(path)
    if len(starts) <= head + tail:
        return path
    hidden = len(starts) - head - tail
    return f"{path[: starts[head]]}…({hidden} more)…{path[starts[-tail] :]}"


# The careful walk runs without Python recursion: a container's check is a
# generator that yields ``(node, value, path, depth)`` for each child in
# order, and _walk keeps the generators on an explicit stack (at most
# MAX_DEPTH of them), so a value as deep as the bound needs no more Python
# frames than a flat one, and the diagnostics come out in document order.
_Children = Iterator[tuple[Node, Any, str, int]]


def _walk(node: Node, value: Any, path: str, out: list[Diagnostic], dups: bool) -> None:
    first = _check(node, value, path, out, dups, 0)
    stack = [first] if first is not None else []
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        more = _check(child[0], child[1], child[2], out, dups, child[3])
        if more is not None:
            stack.append(more)


def _check(
    node: Node, value: Any, path: str, out: list[Diagnostic], dups: bool, depth: int
) -> _Children | None:
    """Check a scalar (or report a mismatch) now; for a container, the
    generator of its children to check (see :func:`_walk`)."""
    if value is None:
        return None
    if depth > MAX_DEPTH:
        out.append(_too_deep(path))
        return None
    if isinstance(value, dict):
        if node.has_map:
            return _check_map(node, value, path, out, depth)
    elif isinstance(value, (list, tuple)):
        if node.has_list:
            return _check_list(node, value, path, out, dups, depth)
    elif node.scalar is not None and isinstance(value, (str, int, float)):
        _check_scalar(node.scalar, value, path, out)
        return None
    # The value's kind has no part: report against map, scalar, list in turn.
    if node.has_map:
        out.append(_error("type-mismatch", "expected map, got " + describe(value), path))
    elif node.scalar is not None:
        _check_scalar(node.scalar, value, path, out)
    else:
        out.append(_error("type-mismatch", "expected list, got " + describe(value), path))
    return None


def _check_scalar(scalar: str, value: Any, path: str, out: list[Diagnostic]) -> None:
    if isinstance(value, bool):
        ok = scalar in ("boolean", "untyped")
    elif isinstance(value, (int, float)):
        ok = scalar in ("numeric", "untyped")
    elif isinstance(value, str):
        ok = scalar in ("string", "untyped")
    else:
        ok = False
    if not ok:
        prefix = _SCALAR_MESSAGES.get(scalar, f"unexpected scalar type in schema: {scalar}; got ")
        out.append(_error("type-mismatch", prefix + describe(value), path))


def _check_map(node: Node, value: dict, path: str, out: list[Diagnostic], depth: int) -> _Children:
    for k, v in value.items():
        if not isinstance(k, str):
            out.append(
                _error(
                    "type-mismatch",
                    "map keys must be strings, got " + describe(k),
                    path + render_field(k),
                )
            )
            continue
        child = node.field_node(k)
        if child is None:
            out.append(_error("unknown-property", "field not declared in schema", path + "." + k))
            continue
        yield child, v, path + "." + k, depth + 1


def _check_list(
    node: Node, value: list | tuple, path: str, out: list[Diagnostic], dups: bool, depth: int
) -> _Children:
    elem = node.item_node()
    kind = node.list_kind
    if kind == "atomic":
        for i, e in enumerate(value):
            yield elem, e, path + render_index(i), depth + 1
        return
    seen: set = set()
    if kind == "keyed":
        for i, e in enumerate(value):
            if e is None:
                out.append(
                    _error(
                        "invalid-value",
                        f"element {i}: associative list with keys may not have a null element",
                        path,
                    )
                )
                return
            if not isinstance(e, dict):
                out.append(
                    _error(
                        "invalid-value",
                        f"element {i}: associative list with keys may not have non-map elements",
                        path,
                    )
                )
                return
            pairs = item_key(node, e)
            if not pairs:
                names = " ".join(f'"{k}"' for k in node.keys)
                out.append(
                    _error(
                        "invalid-value",
                        f"element {i}: associative list with keys has an element that omits "
                        f"all key fields [{names}] (and doesn't have default values for any "
                        "key fields)",
                        path,
                    )
                )
                return
            segment = render_key(pairs)
            ck: Hashable = tuple((n, canonical(v)) for n, v in pairs)
            if ck in seen and not dups:
                out.append(_error("invalid-value", f"duplicate entries for key {segment}", path))
            seen.add(ck)
            yield elem, e, path + segment, depth + 1
        return
    for i, e in enumerate(value):
        if isinstance(e, dict):
            message = f"element {i}: associative list without keys has an element that's a map type"
        elif isinstance(e, (list, tuple)):
            message = f"element {i}: not supported: associative list with lists as elements"
        elif e is None:
            message = (
                f"element {i}: associative list without keys has an element that's an explicit null"
            )
        else:
            message = ""
        if message:
            out.append(_error("invalid-value", message, path))
            return
        segment = render_set(e)
        ck = canonical(e)
        if ck in seen and not dups:
            out.append(_error("invalid-value", f"duplicate entries for key {segment}", path))
        seen.add(ck)
        yield elem, e, path + segment, depth + 1
