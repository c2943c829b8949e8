"""Placing schema diagnostics in YAML source text.

Validation works on plain values, so its diagnostics carry field paths
(``.items[name="a"].port``) and no file position. When the value came from
a located YAML document (:mod:`toskit.source`), :func:`locate_diagnostics`
follows each path through the value to the keys and list indices of the
node and asks the document where that node is.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.schema.fieldpath import FIELD, INDEX, SET, PathSyntaxError, parse_path
from toskit.schema.values import canonical

__all__ = ["locate_diagnostics", "raw_parts"]


def locate_diagnostics(
    diagnostics: Iterable[Diagnostic],
    value: Any,
    doc: Any,
    parts: Sequence[Hashable] = (),
) -> list[Diagnostic]:
    """``diagnostics`` (of ``value``) placed at their nodes in ``doc``.

    ``doc`` is a :class:`toskit.source.YamlDocument` and ``parts`` the keys
    and indices of ``value`` inside it (``()`` for the whole document).
    An unknown field (``unknown-property``) points at the key; everything
    else at the value; the subject stays the diagnostic's own (the value at
    its field path). A diagnostic whose path cannot be followed keeps no location;
    paths and messages are unchanged.
    """
    out = []
    # One index per list and key shape, shared by every diagnostic: 20,000
    # types each with a mistake looked their item up by a scan each (#19:
    # quadratic, minutes).
    index: dict[tuple, dict | None] = {}
    for d in diagnostics:
        inner = raw_parts(value, d.path, index)
        if inner is None:
            out.append(d)
            continue
        try:
            located = doc.diagnostic(
                d.severity,
                d.code,
                d.message,
                [*parts, *inner],
                hint=d.hint,
                at_key=d.code == "unknown-property",
                path=d.path,
                subject=d.subject,
            )
        except Exception:  # noqa: BLE001 - a location is a nicety, never a new failure
            located = d
        out.append(located)
    return out


def raw_parts(
    value: Any, path: str, index: dict[tuple, dict | None] | None = None
) -> list[Any] | None:
    """The keys and list indices of the node a field path names in ``value``
    (as far as the node exists), or ``None`` for a path that does not parse.

    ``index`` (a dict the caller keeps while ``value`` is unchanged) lets
    many paths into the same lists find their items without a scan each.
    """
    try:
        elements = parse_path(path)
    except PathSyntaxError:
        return None
    parts: list[Any] = []
    cur = value
    for kind, payload in elements:
        if kind == FIELD:
            parts.append(payload)
            cur = cur.get(payload) if isinstance(cur, Mapping) else None
            continue
        if not isinstance(cur, (list, tuple)):
            return parts
        at = payload if kind == INDEX else _find_item(cur, kind, payload, index)
        if at is None or not 0 <= at < len(cur):
            return parts
        parts.append(at)
        cur = cur[at]
    return parts


def _find_item(
    items: Sequence[Any], kind: str, payload: Any, index: dict[tuple, dict | None] | None = None
) -> int | None:
    keys = None if index is None else _keys_of(items, kind, payload, index)
    if keys is not None:
        try:
            return keys.get(payload)
        except TypeError:  # a key that cannot be hashed: scan, as without an index
            pass
    for i, item in enumerate(items):
        if kind == SET:
            if canonical(item) == payload:
                return i
        elif isinstance(item, Mapping):
            names = [n for n, _ in payload]
            key = tuple(sorted((n, canonical(item[n])) for n in names if n in item))
            if key == payload:
                return i
    return None


def _keys_of(
    items: Sequence[Any], kind: str, payload: Any, index: dict[tuple, dict | None]
) -> dict | None:
    """Each item's key, as the scan below compares it, -> the first index with
    it; built once per list and key shape (``None``: scan, e.g. an item too
    deep to have a key)."""
    try:
        names = () if kind == SET else tuple(n for n, _ in payload)
        shape = (id(items), kind, names)
        if shape in index:
            return index[shape]
    except (TypeError, ValueError):  # a payload of another shape: the scan decides
        return None
    keys: dict = {}
    try:
        for i, item in enumerate(items):
            if kind == SET:
                keys.setdefault(canonical(item), i)
            elif isinstance(item, Mapping):
                keys.setdefault(
                    tuple(sorted((n, canonical(item[n])) for n in names if n in item)), i
                )
    except Exception:  # noqa: BLE001 - the scan decides (and reports) as without an index
        index[shape] = None
        return None
    index[shape] = keys
    return keys
