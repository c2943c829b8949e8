"""Merge: ``rhs`` laid over ``lhs`` following the schema.

Leaves (scalars, atomic containers, containers empty on both sides) take
``rhs`` when it is present; separable maps merge key by key; associative
lists (keyed lists and sets) merge item by item in the order of
:func:`merge_order`. The result never shares a container with the inputs.
"""

from __future__ import annotations

from collections.abc import Generator, Hashable, Sequence
from types import GeneratorType
from typing import Any

from toskit.plain import drive
from toskit.schema.compiled import Node
from toskit.schema.model import Schema
from toskit.schema.validate import item_key, validated_node
from toskit.schema.values import ABSENT, canonical, copy_value, guarded_walk

__all__ = ["container_kind", "item_keys", "merge", "merge_order", "merge_values"]


def merge(schema: Schema, lhs: Any, rhs: Any, name: str, *, allow_duplicates: bool = False) -> Any:
    """Merge two values of type ``name`` (both validated first; see module doc).

    Raises :class:`toskit.SchemaError` when either input is invalid (``lhs``
    may repeat list items with ``allow_duplicates``; ``rhs`` never may) or
    when ``name`` resolves to nothing.
    """
    node = validated_node(schema, name, [("lhs", lhs, allow_duplicates), ("rhs", rhs, False)])
    with guarded_walk("value nested too deeply to merge"):
        return merge_values(node, lhs, rhs)


def container_kind(value: Any) -> str | None:
    """``map``, ``list`` or ``None`` (scalars and null)."""
    if isinstance(value, dict):
        return "map"
    if isinstance(value, (list, tuple)):
        return "list"
    return None


def merge_values(node: Node, lhs: Any, rhs: Any) -> Any:
    """Merge two valid values of ``node`` (either may be ``ABSENT``).

    Runs without Python recursion (:func:`toskit.plain.drive`): merging two
    containers is a generator that yields ``(node, lhs, rhs)`` for each pair
    of children to merge and is sent the merged child back, so values as
    deep as the bound need no more Python frames than flat ones.
    """
    return drive(_merge_step, node, lhs, rhs)


_Merging = Generator[Any, Any, Any]  # yields a step's generator (toskit.plain.drive)


def _merge_step(node: Node, lhs: Any, rhs: Any) -> Any:
    """The merged value of a leaf, or the generator that merges a container
    (see :func:`merge_values`)."""
    if rhs is ABSENT:
        return copy_value(lhs)
    if lhs is ABSENT:
        return copy_value(rhs)
    rk = container_kind(rhs)
    lk = container_kind(lhs)
    if rk is None:
        if rhs is not None or lk is None:
            return rhs  # a scalar or null leaf, or a kind change: rhs wins
        kind = lk
    elif lk is None and lhs is not None or lk is not None and lk != rk:
        return copy_value(rhs)  # kind change
    else:
        kind = rk
    if not lhs and not rhs:
        return copy_value(rhs)  # empty (or null) on both sides: a leaf
    if kind == "map":
        if node.map_atomic or not node.has_map:
            return copy_value(rhs)
        lhs, rhs = lhs or {}, rhs or {}
        for k, rv in rhs.items():
            if type(rv) not in _SCALARS and k in lhs:
                return _merge_map(node, lhs, rhs)
        return _merge_flat_map(lhs, rhs)
    if node.list_kind == "atomic" or not node.has_list:
        return copy_value(rhs)
    return _merge_associative(node, lhs or (), rhs or ())


def _merge_map(node: Node, lhs: dict, rhs: dict) -> _Merging:
    out = {}
    fields = node.fields
    rget = rhs.get
    for k, lv in lhs.items():
        rv = rget(k, ABSENT)
        if rv is ABSENT:
            out[k] = lv if type(lv) in _SCALARS else copy_value(lv)
        elif type(rv) in _SCALARS:
            out[k] = rv  # a scalar rhs always wins (a leaf, or a kind change)
        else:
            child = fields.get(k)
            merged = _merge_step(child if child is not None else node.child(k), lv, rv)
            if type(merged) is GeneratorType:  # only containers wait on the driver
                merged = yield merged
            out[k] = merged
    for k, rv in rhs.items():
        if k not in lhs:
            out[k] = rv if type(rv) in _SCALARS else copy_value(rv)
    return out


def _merge_flat_map(lhs: dict, rhs: dict) -> dict:
    """:func:`_merge_map` when no key of both sides holds a container (or
    null) on the right: no child merges, so no generator (most keyed-list
    items are such maps; this keeps them as fast as a plain loop)."""
    out = {}
    rget = rhs.get
    for k, lv in lhs.items():
        rv = rget(k, ABSENT)
        if rv is ABSENT:
            out[k] = lv if type(lv) in _SCALARS else copy_value(lv)
        else:
            out[k] = rv
    for k, rv in rhs.items():
        if k not in lhs:
            out[k] = rv if type(rv) in _SCALARS else copy_value(rv)
    return out


# Exact types whose values are shared, not copied, and always win as rhs.
_SCALARS = frozenset((str, int, float, bool))


def item_keys(node: Node, items: Sequence[Any]) -> list[Hashable]:
    """The identity of each item of an associative list (canonical keys)."""
    if node.list_kind == "keyed":
        return [tuple((n, canonical(v)) for n, v in item_key(node, e)) for e in items]
    return [canonical(e) for e in items]


def merge_order(
    lkeys: Sequence[Hashable], rkeys: Sequence[Hashable]
) -> list[tuple[int | None, int | None]]:
    """The order of a merged associative list, as ``(l, r)`` index
    pairs: ``(i, None)`` an lhs-only item, ``(None, j)`` an rhs-only item,
    ``(i, j)`` the lhs item ``i`` merged with the rhs item ``j``.

    ``lkeys`` must hold no repeated key that is also in ``rkeys`` (callers
    collapse such duplicates first); ``rkeys`` holds no repeated key.
    """
    rindex = {k: j for j, k in enumerate(rkeys)}
    lfirst: dict[Hashable, int] = {}
    for i, k in enumerate(lkeys):
        lfirst.setdefault(k, i)
    shared = [k for k in rkeys if k in lfirst]
    si = 0
    emitted: set[Hashable] = set()
    out: list[tuple[int | None, int | None]] = []
    nl, nr = len(lkeys), len(rkeys)
    li = ri = 0
    while li < nl or ri < nr:
        if li < nl and ri < nr:
            lk = lkeys[li]
            rk = rkeys[ri]
            if lk == rk:
                out.append((li, ri))
                emitted.add(lk)
                li += 1
                ri += 1
                if si < len(shared) and shared[si] == lk:
                    si += 1
                continue
            if lk in rindex and (si >= len(shared) or shared[si] != lk):
                li += 1  # it will be emitted at its rhs position
                continue
        if li < nl:
            lk = lkeys[li]
            if lk not in rindex:
                out.append((li, None))
                li += 1
                continue
            if lk in emitted or ri >= nr:
                li += 1
                continue
        rk = rkeys[ri]
        out.append((lfirst.get(rk), ri))
        emitted.add(rk)
        ri += 1
        if si < len(shared) and shared[si] == rk:
            si += 1
    return out


def collapse_duplicates(
    lkeys: list[Hashable], rkeys: Sequence[Hashable]
) -> tuple[list[int], set[Hashable]]:
    """Indices of lhs items to keep, and the keys repeated in lhs.

    All copies of a repeated lhs item count as one atomic entry: when rhs
    has that item only the first copy is kept (it is then replaced by the
    rhs item); otherwise every copy stays.
    """
    counts: dict[Hashable, int] = {}
    for k in lkeys:
        counts[k] = counts.get(k, 0) + 1
    repeated = {k for k, c in counts.items() if c > 1}
    if not repeated:
        return list(range(len(lkeys))), repeated
    rset = set(rkeys)
    keep = []
    seen: set[Hashable] = set()
    for i, k in enumerate(lkeys):
        if k in repeated and k in rset:
            if k in seen:
                continue
            seen.add(k)
        keep.append(i)
    return keep, repeated


def _merge_associative(node: Node, lhs: Sequence[Any], rhs: Sequence[Any]) -> _Merging:
    """Merge two associative lists item by item, in the order of :func:`merge_order`.

    All copies of an item repeated in ``lhs`` (only possible with
    ``allow_duplicates``) count as one atomic entry: an rhs item with that
    key replaces them whole.
    """
    lkeys_all = item_keys(node, lhs)
    rkeys = item_keys(node, rhs)
    keep, repeated = collapse_duplicates(lkeys_all, rkeys)
    litems = [lhs[i] for i in keep]
    lkeys = [lkeys_all[i] for i in keep]
    elem = node.item_node()
    out = []
    for li, ri in merge_order(lkeys, rkeys):
        if ri is None:
            if li is not None:  # always: a pair has at least one side
                out.append(copy_value(litems[li]))
        elif li is None or lkeys[li] in repeated:
            out.append(copy_value(rhs[ri]))
        else:
            merged = _merge_step(elem, litems[li], rhs[ri])
            if type(merged) is GeneratorType:  # only containers wait on the driver
                merged = yield merged
            out.append(merged)
    return out
