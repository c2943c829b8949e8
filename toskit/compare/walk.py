"""The one structural walk of ``toskit.compare``: two plain-data trees, side by side.

:func:`diff_tree` compares two YAML-shaped values (maps, lists, scalars, as
``toskit.source`` loads them) and reports every place they differ as a
:class:`RawChange`: ``changed`` (a scalar, or a value whose kind changed),
``added`` / ``removed`` (a map key or list item present on one side only),
``renamed`` (a map key whose value moved, unchanged, to a new key: a typo
fixed). It is *generic*: it knows no TOSCA section, so no section can be
forgotten — whatever a document holds is compared.

Equality is :func:`toskit.plain.values_equal` (``1`` is ``1.0``, ``true``
is not ``1``, ``"8443"`` is not ``8443``, map order is no change), except
that a NaN on both sides is no change (``values_equal`` follows IEEE, but
the same ``.nan`` written twice is the same document).

Lists are aligned (``difflib.SequenceMatcher`` over
:func:`toskit.plain.canonical` keys of their items) when their lengths
differ, so inserting one requirement reports one added item, not every
later item as changed. Equal-length lists are compared position by
position.

The walk is iterative: a value as deep as the loader accepts (``MAX_DEPTH``)
costs no Python recursion. Paths longer than ``2 * MAX_DEPTH`` (only a
cyclic value built in Python gets there) raise :class:`toskit.plain.TooDeep`.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from toskit.functions.notation import Call
from toskit.plain import MAX_DEPTH, TooDeep, canonical, values_equal
from toskit.records import record

__all__ = ["RawChange", "diff_tree", "quick_equal", "same_leaf", "same_tree"]

Parts = tuple[Hashable, ...]

# Lists longer than this are compared position by position (alignment is
# quadratic at worst); YAML lists in templates are far shorter.
_ALIGN_MAX = 5_000
_SCALARS = (str, int, bool, type(None))
_PLAIN_TYPES = (str, int, bool, float, type(None), dict, list, tuple)


@record(frozen=True)
class RawChange:
    """One difference found by :func:`diff_tree` (parts are absolute paths)."""

    change: str
    old_parts: Parts | None
    new_parts: Parts | None
    old: Any = None
    new: Any = None


def _is_map(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def _is_list(value: Any) -> bool:
    return type(value) is list or isinstance(value, (list, tuple))


def _foreign_text(value: Any) -> str | None:
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - an odd value is unequal to everything, never raises
        return None


def same_leaf(a: Any, b: Any) -> bool:
    """Equality of two values of which at least one is not a container.

    Plain scalars as :func:`toskit.plain.values_equal` has them (a NaN on
    both sides aside). Two function calls the loader left unevaluated are
    equal when their name, namespace, notation and arguments are (the
    arguments compared as plain data). Two other *foreign* values of one
    type (a scalar-unit object) are equal when their text is: the two sides
    are loaded separately, so they are never one object."""
    ta = type(a)
    if ta is type(b) and ta in _SCALARS:
        return bool(a == b)
    if ta is float and type(b) is float and math.isnan(a) and math.isnan(b):
        return True
    if _is_map(a) or _is_list(a) or _is_map(b) or _is_list(b):
        return False
    if ta is Call and type(b) is Call:
        # A call compares by its parts (its arguments as plain data: map
        # order is no change), never by its text.
        return (
            a.name == b.name
            and a.namespace == b.namespace
            and getattr(a, "key_variant", None) == getattr(b, "key_variant", None)
            and same_tree(list(a.args), list(b.args))
        )
    if ta is type(b) and ta not in _PLAIN_TYPES:
        text = _foreign_text(a)
        return text is not None and text == _foreign_text(b)
    return values_equal(a, b)


def _text(value: Any) -> str | None:
    try:
        return repr(value)
    except Exception:  # noqa: BLE001 - an odd value: walk instead
        return None


def quick_equal(a: Any, b: Any) -> bool:
    """True when ``a`` and ``b`` are certainly equal, checked in C: Python's
    ``==`` (which keeps strings from numbers and int keys from string keys)
    and ``repr`` (which keeps ``True`` from ``1`` and ``1`` from ``1.0``,
    keys included, and sees map order). ``False`` means "walk to find out"
    (``1`` vs ``1.0``, a NaN, keys in another order, a value whose text
    differs although it is equal)."""
    try:
        if not a == b:  # noqa: SIM201 - the one comparison we trust is ==
            return False
    except Exception:  # noqa: BLE001 - a foreign __eq__ may raise: walk instead
        return False
    ta = _text(a)
    return ta is not None and ta == _text(b)


def _key(value: Any) -> Hashable:
    """A hashable key of ``value`` for pairing (``None`` when too deep)."""
    try:
        return canonical(value)
    except TooDeep:
        return None


def diff_tree(old: Any, new: Any, old_parts: Parts, new_parts: Parts, out: list[RawChange]) -> None:
    """Append to ``out`` every difference between ``old`` and ``new`` (in document order)."""
    limit = 2 * MAX_DEPTH + len(old_parts) + len(new_parts)
    stack: list[tuple[Any, Any, Parts, Parts]] = [(old, new, old_parts, new_parts)]
    while stack:
        o, n, op, np_ = stack.pop()
        if o is n or quick_equal(o, n):
            continue
        if len(op) > limit or len(np_) > limit:
            raise TooDeep
        children: list[tuple[Any, Any, Parts, Parts]] = []
        if _is_map(o) and _is_map(n):
            removed = [k for k in o if k not in n]
            added = [k for k in n if k not in o]
            for k, ov in o.items():
                if k not in n:
                    continue
                nv = n[k]
                if ov is nv:
                    continue
                t = type(ov)
                if t is type(nv) and t in _SCALARS:  # most leaves: no ABC checks
                    if ov != nv:
                        out.append(RawChange("changed", (*op, k), (*np_, k), ov, nv))
                    continue
                if (_is_map(ov) and _is_map(nv)) or (_is_list(ov) and _is_list(nv)):
                    children.append((ov, nv, (*op, k), (*np_, k)))
                elif not same_leaf(ov, nv):
                    out.append(RawChange("changed", (*op, k), (*np_, k), ov, nv))
            if removed or added:
                _pair_keys(o, n, op, np_, removed, added, out)
        elif _is_list(o) and _is_list(n):
            _list_children(o, n, op, np_, children, out)
        elif not same_leaf(o, n):
            out.append(RawChange("changed", op, np_, o, n))
        stack.extend(reversed(children))


def same_tree(a: Any, b: Any) -> bool:
    """True when :func:`diff_tree` would find no difference; stops at the
    first one. The fast check of two resolved property maps: no keys are
    built (``values_equal`` would build and sort a key of each whole side)."""
    if quick_equal(a, b):
        return True
    stack = [(a, b, 0)]
    while stack:
        o, n, depth = stack.pop()
        if o is n:
            continue
        t = type(o)
        if t is type(n) and t in _SCALARS:
            if o != n:
                return False
            continue
        if depth > 2 * MAX_DEPTH:
            raise TooDeep
        if _is_map(o) and _is_map(n):
            if len(o) != len(n):
                return False
            for k, ov in o.items():
                if k not in n:
                    return False
                stack.append((ov, n[k], depth + 1))
        elif _is_list(o) and _is_list(n):
            if len(o) != len(n):
                return False
            stack.extend((ov, nv, depth + 1) for ov, nv in zip(o, n))
        elif not same_leaf(o, n):
            return False
    return True


def _pair_keys(
    o: Mapping[Any, Any],
    n: Mapping[Any, Any],
    op: Parts,
    np_: Parts,
    removed: list[Any],
    added: list[Any],
    out: list[RawChange],
) -> None:
    """Removed and added keys of one map; a removed key whose value reappears,
    equal, under an added key is one ``renamed`` change."""
    renamed: dict[Any, Any] = {}
    if removed and added:
        by_value: dict[Hashable, list[Any]] = {}
        for k in added:
            key = _key(n[k])
            if key is not None:
                by_value.setdefault(key, []).append(k)
        for k in removed:
            key = _key(o[k])
            candidates = by_value.get(key) if key is not None else None
            if candidates:
                renamed[k] = candidates.pop(0)
    taken = set(renamed.values())
    for k in removed:
        if k in renamed:
            nk = renamed[k]
            out.append(RawChange("renamed", (*op, k), (*np_, nk), o[k], n[nk]))
        else:
            out.append(RawChange("removed", (*op, k), None, o[k], None))
    for k in added:
        if k not in taken:
            out.append(RawChange("added", None, (*np_, k), None, n[k]))


def _list_children(
    o: Any,
    n: Any,
    op: Parts,
    np_: Parts,
    children: list[tuple[Any, Any, Parts, Parts]],
    out: list[RawChange],
) -> None:
    """Pair the items of two lists: by position when the lengths match,
    else aligned on equal items."""
    if len(o) == len(n) or len(o) > _ALIGN_MAX or len(n) > _ALIGN_MAX:
        blocks: Sequence[tuple[str, int, int, int, int]] = [("replace", 0, len(o), 0, len(n))]
    else:
        okeys = [_key(v) for v in o]
        nkeys = [_key(v) for v in n]
        # An item too deep to key (None) must not match another such item.
        okeys = [k if k is not None else ("old", i) for i, k in enumerate(okeys)]
        nkeys = [k if k is not None else ("new", i) for i, k in enumerate(nkeys)]
        blocks = difflib.SequenceMatcher(None, okeys, nkeys, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in blocks:
        if tag == "equal":
            continue
        common = min(i2 - i1, j2 - j1)
        for d in range(common):
            ov, nv = o[i1 + d], n[j1 + d]
            if (_is_map(ov) and _is_map(nv)) or (_is_list(ov) and _is_list(nv)):
                children.append((ov, nv, (*op, i1 + d), (*np_, j1 + d)))
            elif not same_leaf(ov, nv):
                out.append(RawChange("changed", (*op, i1 + d), (*np_, j1 + d), ov, nv))
        for i in range(i1 + common, i2):
            out.append(RawChange("removed", (*op, i), None, o[i], None))
        for j in range(j1 + common, j2):
            out.append(RawChange("added", None, (*np_, j), None, n[j]))
