"""Batch evaluation of an ``exists`` body over many items (performance).

Evaluating the body once per item costs a handful of Python calls per item;
on a 10,000-node cluster that is most of the time. For the common shapes of
a body (``all`` of ``not``, membership of a member of the bound node in an
invariant list, ``_hasRole``, ``_pending_deletion``, …) this module builds a
*selector* ``select(env, items) -> items for which the body holds``, written
with list comprehensions over the items: no call per item.

Exactness: a selector handles only values it is sure about (normalised
nodes, ints and strings in hashed membership). Anything else — a missing
key, an unusual type, an error while computing an invariant — raises
:class:`Fallback` (or the ``ConditionError`` itself), and ``exists`` then
re-evaluates that chunk item by item, which gives exactly the sequential
value and raises exactly the sequential error. Because evaluation is pure,
the discarded partial work is invisible. Items are processed in growing
chunks, so a match near the start stops early, as the sequential loop does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toskit.conditions.cluster import DICT_TYPES
from toskit.conditions.expression import Env, _Compiler
from toskit.conditions.syntax import (
    Compare,
    Literal,
    Member,
    Node,
    Not,
    Placeholder,
    placeholders_of,
)
from toskit.conditions.values import build_index

__all__ = ["Fallback", "compile_select", "Select"]

# select(env, items, trusted): the items for which the body holds, in order.
# `trusted` says the items are normalised cluster nodes (dicts whose `id` is
# an int or str, `roles`/`pending_roles` lists, pending flags booleans).
Select = Callable[[Env, Any, bool], list]
_FAST = frozenset({int, str})
_M = object()  # the right side is not a list: no index


class Fallback(Exception):
    """Internal: this chunk needs item-by-item evaluation."""


def compile_select(
    form: Any, var: str, loop_vars: frozenset[str], negate: bool = False
) -> Select | None:
    """A selector for ``form`` (or its negation), or ``None`` if its shape is
    not supported (then ``exists`` always evaluates item by item)."""
    from toskit.conditions.forms import AllForm, ConditionForm, ExprForm, LiteralForm, NotForm

    if isinstance(form, LiteralForm):
        keep = form.value is not negate
        return (
            (lambda env, items, trusted: list(items)) if keep else (lambda env, items, trusted: [])
        )
    if isinstance(form, NotForm):
        return compile_select(form.operand, var, loop_vars, not negate)
    if isinstance(form, ExprForm):
        return _expression(form.expr.text, form.expr.node, var, loop_vars, negate)
    if isinstance(form, ConditionForm) and form.then is None and form.guard_expr is not None:
        guard = form.guard_expr
        if isinstance(guard, bool):
            keep = guard is not negate
            return (
                (lambda env, items, trusted: list(items))
                if keep
                else (lambda env, items, trusted: [])
            )
        return _expression(guard.text, guard.node, var, loop_vars, negate)
    if isinstance(form, AllForm):
        compiled = [compile_select(item, var, loop_vars) for item in form.items]
        parts = [p for p in compiled if p is not None]
        if len(parts) < len(compiled):
            return None

        def all_of(env: Env, items: Any, trusted: bool) -> list:
            for part in parts:
                if not items:
                    break
                items = part(env, items, trusted)
            return list(items)

        if not negate:
            return all_of

        def not_all(env: Env, items: Any, trusted: bool) -> list:
            kept = {id(x) for x in all_of(env, items, trusted)}
            return [x for x in items if id(x) not in kept]

        return not_all
    return None


def _loop_key(node: Node, var: str) -> tuple[bool, str | None] | None:
    """``<var>`` → (True, None); ``<var>.key`` → (True, key); else None."""
    if isinstance(node, Placeholder) and node.name == var:
        return True, None
    if (
        isinstance(node, Member)
        and node.args is None
        and not node.name.startswith("_")
        and isinstance(node.obj, Placeholder)
        and node.obj.name == var
    ):
        return True, node.name
    return None


def _expression(
    text: str, node: Node, var: str, loop_vars: frozenset[str], negate: bool
) -> Select | None:
    if isinstance(node, Not):
        return _expression(text, node.operand, var, loop_vars, not negate)
    if isinstance(node, Literal) and isinstance(node.value, bool):
        keep = node.value is not negate
        return (
            (lambda env, items, trusted: list(items)) if keep else (lambda env, items, trusted: [])
        )
    if isinstance(node, Compare) and node.op in ("in", "not in"):
        return _membership(text, node, var, loop_vars, negate != (node.op == "not in"))
    if isinstance(node, Member) and isinstance(node.obj, Placeholder) and node.obj.name == var:
        return _special(node, negate)
    return None


def _membership(
    text: str, node: Compare, var: str, loop_vars: frozenset[str], negate: bool
) -> Select | None:
    left = _loop_key(node.left, var)
    if left is None or placeholders_of(node.right) & loop_vars:
        return None
    key = left[1]
    right = _Compiler(text, frozenset()).compile(node.right)
    slot = object()

    def index_of(env: Env) -> frozenset | None:
        memo = env.memo
        entry: Any = memo.get(slot)  # an index, None (an item has no key) or _M
        if entry is None:
            hay = right(env)
            entry = memo[slot] = build_index(hay) if isinstance(hay, (list, tuple)) else _M
        if entry is _M:
            raise Fallback  # a string or mapping on the right: item by item
        return entry

    def select(env: Env, items: Any, trusted: bool) -> list:
        idx = index_of(env)
        if idx is None:
            raise Fallback
        if key is None:
            if not set(map(type, items)) <= _FAST:
                raise Fallback
            if negate:
                return [v for v in items if v not in idx]
            return [v for v in items if v in idx]
        if not trusted and not set(map(type, items)) <= DICT_TYPES:
            raise Fallback
        try:
            # Only a trusted node's id is known to be an int or a string.
            if (key != "id" or not trusted) and not {type(v[key]) for v in items} <= _FAST:
                raise Fallback
            if negate:
                return [v for v in items if v[key] not in idx]
            return [v for v in items if v[key] in idx]
        except KeyError:  # a missing key: Undefined (or null) item by item
            raise Fallback from None

    return select


def _special(node: Member, negate: bool) -> Select | None:
    """Node predicates, on trusted (normalised) nodes only; anything else
    falls back to item-by-item evaluation."""
    name = node.name
    if name in ("_pending_deletion", "_pending_addition"):
        field = name[1:]

        def flag(env: Env, items: Any, trusted: bool) -> list:
            if not trusted:
                raise Fallback
            if negate:
                return [v for v in items if not v[field]]
            return [v for v in items if v[field]]

        return flag
    if name in ("_hasRole", "_hasDeployedRole"):
        arg = node.args[0] if node.args else None
        if not (isinstance(arg, Literal) and isinstance(arg.value, str)):
            return None
        role = arg.value
        deployed_only = name == "_hasDeployedRole"

        def has_role(env: Env, items: Any, trusted: bool) -> list:
            if not trusted:
                raise Fallback
            if deployed_only:
                if negate:
                    return [v for v in items if role not in v["roles"]]
                return [v for v in items if role in v["roles"]]
            if negate:
                return [v for v in items if not (role in v["roles"] or role in v["pending_roles"])]
            return [v for v in items if role in v["roles"] or role in v["pending_roles"]]

        return has_role
    return None
