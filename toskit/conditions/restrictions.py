"""OpenStack Fuel's ``restrictions`` and ``limits`` (spec/fuel-release.md §2–§3).

Both are compiled on the same expression engine as the seed's conditions.
A restriction is *active* when its condition is true (the opposite polarity
of a seed ``warning``); limits bound how many nodes may have a role.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toskit.conditions.expression import Env, Expression
from toskit.conditions.forms import ConditionCompiler, _Skip
from toskit.conditions.results import LimitsOutcome
from toskit.conditions.values import is_number, type_name
from toskit.errors import ConditionError

__all__ = ["Restriction", "Limits", "compile_restrictions", "compile_limits", "count_for_limits"]

ACTIONS = ("disable", "hide", "none")
BOUNDS = ("min", "max", "recommended")
_INTEGER_TEXT = re.compile(r"\s*-?[0-9]+\s*\Z")


class Restriction:
    """``{condition, message?, action?, strict?}``: ``action`` is ``disable``
    (the default), ``hide`` or ``none`` (message only)."""

    __slots__ = ("condition", "message", "action", "strict", "path")

    def __init__(
        self,
        condition: Expression | bool,
        message: str | None,
        action: str,
        strict: bool | None,
        path: str,
    ) -> None:
        self.condition, self.message, self.action = condition, message, action
        self.strict, self.path = strict, path

    def active(self, env: Env) -> bool:
        """True when the restriction applies (its condition holds), evaluated
        with its own ``strict`` setting when it has one."""
        if isinstance(self.condition, bool):
            return self.condition
        if self.strict is None or self.strict == env.strict:
            return bool(self.condition.function()(env))
        saved = env.strict
        env.strict = self.strict
        try:
            return bool(self.condition.function()(env))
        finally:
            env.strict = saved

    def __repr__(self) -> str:
        cond = self.condition.text if isinstance(self.condition, Expression) else self.condition
        return f"Restriction({cond!r}, action={self.action!r}, message={self.message!r})"


def compile_restrictions(
    value: Any, parts: tuple, compiler: ConditionCompiler
) -> tuple[Restriction, ...]:
    """Check and compile a ``restrictions`` list (the three forms of §2)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        compiler.schema(parts, f"'restrictions' must be a list, got {type_name(value)}")
    out = []
    for i, item in enumerate(value):
        here = (*parts, i)
        try:
            out.append(_restriction(item, here, compiler))
        except _Skip:  # recorded by a collecting compiler; check the others
            continue
    return tuple(out)


def _restriction(item: Any, here: tuple, compiler: ConditionCompiler) -> Restriction:
    path = compiler.label(here)
    if isinstance(item, str):
        return Restriction(compiler.expression(item, here), None, "disable", None, path)
    if not isinstance(item, Mapping):
        compiler.schema(here, f"a restriction is a string or a mapping, got {type_name(item)}")
    if "condition" not in item:
        # Short form {"<condition>": "<message>"}.
        if len(item) != 1:
            compiler.schema(
                here,
                "a restriction mapping needs 'condition' (or is the short form "
                "{'<condition>': '<message>'} with exactly one key)",
            )
        ((cond, message),) = item.items()
        if not isinstance(message, str):
            compiler.schema(
                (*here, cond), f"a restriction message must be a string, got {type_name(message)}"
            )
        return Restriction(
            compiler.expression(cond, (*here, cond), "a condition"), message, "disable", None, path
        )
    for key in item:
        if key not in ("condition", "message", "action", "strict"):
            compiler.schema(
                (*here, key),
                f"unknown key {key!r} in a restriction (allowed: condition, message, action, strict)",
            )
    cond = item["condition"]
    message = item.get("message")
    action = item.get("action", "disable")
    strict = item.get("strict")
    # Independent checks: a collecting compiler records each and goes on.
    condition = (
        cond
        if isinstance(cond, bool)
        else compiler.attempt(lambda: compiler.expression(cond, (*here, "condition")))
    )
    problems: list[tuple[tuple, str]] = []
    if message is not None and not isinstance(message, str):
        problems.append(
            ((*here, "message"), f"'message' must be a string, got {type_name(message)}")
        )
    if action not in ACTIONS:
        problems.append(
            ((*here, "action"), f"'action' must be one of {', '.join(ACTIONS)}, got {action!r}")
        )
    if strict is not None and not isinstance(strict, bool):
        problems.append(((*here, "strict"), f"'strict' must be a boolean, got {type_name(strict)}"))
    for where, text in problems:
        compiler.attempt(lambda w=where, t=text: compiler.schema(w, t))
    if condition is None or problems:
        raise _Skip
    return Restriction(condition, message, action, strict, path)


class _Bound:
    """One bound: an integer, or an expression evaluated to a number."""

    __slots__ = ("value", "expression", "kind")

    def __init__(self, kind: str, value: Any, expression: Expression | None) -> None:
        self.kind, self.value, self.expression = kind, value, expression

    def evaluate(self, env: Env) -> int | float:
        if self.expression is None:
            return self.value
        result = self.expression.function()(env)
        # Fuel settings often hold numbers as text ("3"); accept integer text.
        if isinstance(result, str) and _INTEGER_TEXT.match(result):
            return int(result)
        if not is_number(result):
            raise ConditionError(
                "TypeError",
                f"limit {self.kind!r} must evaluate to a number, got {type_name(result)}",
                expression=self.expression.text,
                position=0,
            )
        return result


class _Override:
    __slots__ = ("condition", "bounds", "message")

    def __init__(
        self, condition: Expression | bool, bounds: dict[str, _Bound], message: str | None
    ) -> None:
        self.condition, self.bounds, self.message = condition, bounds, message


class Limits:
    """A role's ``limits``: ``min``/``max``/``recommended`` bounds and the
    ``overrides`` that replace them (in order) when their condition holds."""

    __slots__ = ("bounds", "overrides", "path")

    def __init__(self, bounds: dict[str, _Bound], overrides: list[_Override], path: str) -> None:
        self.bounds, self.overrides, self.path = bounds, overrides, path

    def evaluate(self, env: Env, count: int, label: str) -> tuple[LimitsOutcome, list[str], bool]:
        """The evaluated bounds, the limit messages (min, max, recommended)
        and whether the max is exceeded."""
        current: dict[str, tuple[Any, str | None]] = {
            kind: (bound.evaluate(env), None) for kind, bound in self.bounds.items()
        }
        for override in self.overrides:
            cond = override.condition
            holds = cond if isinstance(cond, bool) else bool(cond.function()(env))
            if holds:
                for kind, bound in override.bounds.items():
                    current[kind] = (bound.evaluate(env), override.message)
        messages: list[str] = []
        lo = current.get("min")
        hi = current.get("max")
        rec = current.get("recommended")
        if lo is not None and count < lo[0]:
            messages.append(
                lo[1]
                or f"At least {lo[0]} {label} nodes are required ({count} selected currently)."
            )
        exceeded = hi is not None and count > hi[0]
        if exceeded:
            messages.append(hi[1] or f"At most {hi[0]} {label} nodes are allowed.")
        if rec is not None and count < rec[0]:
            messages.append(
                rec[1]
                or f"It is recommended to have at least {rec[0]} {label} nodes ({count} selected currently)."
            )
        outcome = LimitsOutcome(
            count,
            lo[0] if lo else None,
            hi[0] if hi else None,
            rec[0] if rec else None,
        )
        return outcome, messages, exceeded


def _bound(kind: str, value: Any, here: tuple, compiler: ConditionCompiler) -> _Bound:
    if isinstance(value, str):
        return _Bound(kind, None, compiler.expression(value, here))
    if not is_number(value):
        compiler.schema(
            here, f"limit {kind!r} must be an integer or an expression, got {type_name(value)}"
        )
    return _Bound(kind, value, None)


def compile_limits(value: Any, parts: tuple, compiler: ConditionCompiler) -> Limits | None:
    """Check and compile a ``limits`` mapping."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        compiler.schema(parts, f"'limits' must be a mapping, got {type_name(value)}")
    bounds: dict[str, _Bound] = {}
    overrides: list[_Override] = []
    broken = False
    for key, item in value.items():
        if key in BOUNDS:
            bound = compiler.attempt(lambda k=key, v=item: _bound(k, v, (*parts, k), compiler))
            if bound is None:
                broken = True
            else:
                bounds[key] = bound
        elif key == "overrides":
            if not isinstance(item, list):
                compiler.schema((*parts, key), f"'overrides' must be a list, got {type_name(item)}")
            for i, override in enumerate(item):
                try:
                    overrides.append(_override(override, (*parts, key, i), compiler))
                except _Skip:
                    broken = True
        else:
            broken = True
            compiler.attempt(
                lambda k=key: compiler.schema(
                    (*parts, k),
                    f"unknown key {k!r} in 'limits' (allowed: min, max, recommended, overrides)",
                )
            )
    if broken:
        raise _Skip
    return Limits(bounds, overrides, compiler.label(parts))


def _override(item: Any, here: tuple, compiler: ConditionCompiler) -> _Override:
    if not isinstance(item, Mapping):
        compiler.schema(here, f"a limits override must be a mapping, got {type_name(item)}")
    if "condition" not in item:
        compiler.schema(here, "a limits override needs 'condition'")
    for key in item:
        if key not in ("condition", "message", *BOUNDS):
            compiler.schema((*here, key), f"unknown key {key!r} in a limits override")
    cond = item["condition"]
    condition = cond if isinstance(cond, bool) else compiler.expression(cond, (*here, "condition"))
    message = item.get("message")
    if message is not None and not isinstance(message, str):
        compiler.schema((*here, "message"), f"'message' must be a string, got {type_name(message)}")
    bounds = {k: _bound(k, item[k], (*here, k), compiler) for k in BOUNDS if k in item}
    return _Override(condition, bounds, message)


def count_for_limits(role: str, cluster_nodes: Any, selected: list) -> int:
    """Nodes that will have ``role`` after the assignment: every selected
    node, plus every other cluster node whose roles or pending roles contain
    it, minus nodes pending deletion."""
    counted: dict[Any, Any] = {}
    for node in selected:
        counted[node["id"]] = node
    for node in cluster_nodes:
        if node["id"] in counted:
            continue
        if role in node.get("roles", ()) or role in node.get("pending_roles", ()):
            counted[node["id"]] = node
    return sum(1 for node in counted.values() if not node.get("pending_deletion", False))
