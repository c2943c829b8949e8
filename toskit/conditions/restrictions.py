"""OpenStack Fuel's ``restrictions`` and ``limits`` on roles.

Both are compiled on the same expression engine as the seed's conditions.
A restriction is *active* when its condition is true (the opposite polarity
of a seed ``warning``); limits bound how many nodes may have a role.

The pre-5.1 ``depends`` lists (Fuel 5.0: ``- "settings:x.value": true`` or
``- {condition: {...}, warning: "..."}``) are read by
:func:`compile_depends` as restrictions with the opposite polarity: the
element needs the condition, so the restriction is active when it fails.

:meth:`Restriction.evaluate` and :meth:`Limits.explain` report what an
evaluation read (``RestrictionResult``, ``BoundResult``) for traces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import partial
from typing import Any, NamedTuple

from toskit.conditions.expression import Env, Expression, compile_expression, compile_node
from toskit.conditions.forms import ConditionCompiler, _Skip
from toskit.conditions.results import LimitsOutcome
from toskit.conditions.syntax import Member, ModelRef, Node, children
from toskit.conditions.values import is_number, to_plain, type_name
from toskit.errors import ConditionError

__all__ = [
    "BoundResult",
    "Limits",
    "LimitsVerdict",
    "Restriction",
    "RestrictionResult",
    "compile_depends",
    "compile_limits",
    "compile_restrictions",
    "count_for_limits",
    "model_reads",
]

# `enable` is nailgun's action for attributes (the value must then be
# true); on a role it neither blocks nor hides: only its message shows.
ACTIONS = ("disable", "hide", "none", "enable")
BOUNDS = ("min", "max", "recommended")
RESTRICTION_KEYS = ("condition", "message", "action", "strict")
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

    @property
    def text(self) -> str | None:
        """The condition's expression text (``None`` for a boolean condition)."""
        return self.condition.text if isinstance(self.condition, Expression) else None

    def evaluate(self, env: Env) -> RestrictionResult:
        """Evaluate the restriction and report it: the expression text, the
        model paths it read with their values, and whether it is active.
        An evaluation error is raised, as by :meth:`active`."""
        active = self.active(env)
        reads = model_reads(self.condition, env) if isinstance(self.condition, Expression) else {}
        return RestrictionResult(self, active, reads)

    def __repr__(self) -> str:
        cond = self.condition.text if isinstance(self.condition, Expression) else self.condition
        return f"Restriction({cond!r}, action={self.action!r}, message={self.message!r})"


class RestrictionResult:
    """One evaluated restriction: ``restriction``, ``text`` (its expression,
    or ``None`` for a boolean condition), ``active``, ``reads`` (model path
    → value, e.g. ``{"settings:storage.volumes_ceph.value": False}``; a
    path that is not there reads as ``None``), ``action`` and ``message``."""

    __slots__ = ("restriction", "active", "reads")

    def __init__(self, restriction: Restriction, active: bool, reads: dict[str, Any]) -> None:
        self.restriction, self.active, self.reads = restriction, active, reads

    @property
    def text(self) -> str | None:
        return self.restriction.text

    @property
    def action(self) -> str:
        return self.restriction.action

    @property
    def message(self) -> str | None:
        return self.restriction.message

    def __repr__(self) -> str:
        return f"RestrictionResult({self.text!r}, active={self.active}, reads={self.reads!r})"


class BoundResult:
    """One evaluated piece of a role's limits: ``kind`` (``min``, ``max``,
    ``recommended`` or ``override``), ``text`` (the expression, or ``None``
    for a number), ``value`` (the bound, or the override condition's truth)
    and ``reads`` (model path → value)."""

    __slots__ = ("kind", "text", "value", "reads")

    def __init__(self, kind: str, text: str | None, value: Any, reads: dict[str, Any]) -> None:
        self.kind, self.text, self.value, self.reads = kind, text, value, reads

    def __repr__(self) -> str:
        return f"BoundResult({self.kind!r}, {self.text!r}, value={self.value!r})"


def _model_paths(node: Node, out: list[Node]) -> None:
    """The maximal ``model:a.b.c`` data chains of a tree, in text order."""
    if isinstance(node, ModelRef) or (
        isinstance(node, Member)
        and node.args is None
        and not node.name.startswith("_")
        and _is_data_chain(node)
    ):
        out.append(node)
        return
    for child in children(node):
        _model_paths(child, out)


def _is_data_chain(node: Node) -> bool:
    while isinstance(node, Member):
        if node.args is not None or node.name.startswith("_"):
            return False
        node = node.obj
    return isinstance(node, ModelRef)


def model_reads(expression: Expression, env: Env) -> dict[str, Any]:
    """``{path text: value}`` of every model path ``expression`` reads,
    looked up leniently (a missing path is ``None``, an unknown model is
    left out): what a trace shows next to the expression."""
    found: list[Node] = []
    _model_paths(expression.node, found)
    reads: dict[str, Any] = {}
    saved = env.strict
    env.strict = False
    try:
        for node in found:
            label = expression.text[node.start : node.end].strip("()?")
            if label in reads:
                continue
            try:
                reads[label] = to_plain(compile_node(expression.text, node)(env))
            except ConditionError:
                continue
    finally:
        env.strict = saved
    return reads


def compile_restrictions(
    value: Any, parts: tuple, compiler: ConditionCompiler, default_model: str | None = None
) -> tuple[Restriction, ...]:
    """Check and compile a ``restrictions`` list (the long form and the two short forms).
    ``default_model``: the model of bare paths (fuel-ui's setup wizard)."""
    if value is None:
        return ()
    if not isinstance(value, list):
        compiler.schema(parts, f"'restrictions' must be a list, got {type_name(value)}")
    out = []
    for i, item in enumerate(value):
        here = (*parts, i)
        try:
            out.append(_restriction(item, here, compiler, default_model))
        except _Skip:  # recorded by a collecting compiler; check the others
            continue
    return tuple(out)


def _expression(
    compiler: ConditionCompiler,
    text: Any,
    parts: tuple,
    default_model: str | None,
    what: str = "an expression",
) -> Expression:
    if default_model is None:
        return compiler.expression(text, parts, what)
    if not isinstance(text, str):
        compiler.schema(parts, f"expected {what} (a string), got {type_name(text)}")
    try:
        return compile_expression(text, default_model)
    except ConditionError as err:
        compiler.fail(err, parts)
        raise AssertionError("unreachable") from None


def _restriction(
    item: Any, here: tuple, compiler: ConditionCompiler, default_model: str | None = None
) -> Restriction:
    path = compiler.label(here)
    if isinstance(item, str):
        return Restriction(
            _expression(compiler, item, here, default_model), None, "disable", None, path
        )
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
        # nailgun accepts any value there; a boolean or null is no message.
        if isinstance(message, bool) or message is None:
            message = None
        elif not isinstance(message, str):
            compiler.schema(
                (*here, cond), f"a restriction message must be a string, got {type_name(message)}"
            )
        return Restriction(
            _expression(compiler, cond, (*here, cond), default_model, "a condition"),
            message,
            "disable",
            None,
            path,
        )
    for key in item:
        if key not in RESTRICTION_KEYS:
            compiler.unknown_key(
                (*here, key),
                RESTRICTION_KEYS,
                f"unknown key {key!r} in a restriction (allowed: condition, message, action, "
                "strict)",
            )
    cond = item["condition"]
    message = item.get("message")
    action = item.get("action", "disable")
    strict = item.get("strict")
    # Independent checks: a collecting compiler records each and goes on.
    condition = (
        cond
        if isinstance(cond, bool)
        else compiler.attempt(
            lambda: _expression(compiler, cond, (*here, "condition"), default_model)
        )
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
        compiler.attempt(partial(compiler.schema, where, text))
    if condition is None or problems:
        raise _Skip
    return Restriction(condition, message, action, strict, path)


def literal_text(value: Any) -> str | None:
    """``value`` written in the expression language, or ``None`` when it
    cannot be (a list, a mapping, a string holding both kinds of quote)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if is_number(value):
        return repr(value)
    if isinstance(value, str):
        if "'" not in value:
            return f"'{value}'"
        if '"' not in value:
            return f'"{value}"'
    return None


def _path_term(path: str) -> str:
    """``path`` as the left side of ``==``: parenthesised unless it is one
    model path, so that ``a or b`` cannot bind to the comparison."""
    try:
        node = compile_expression(path).node
    except ConditionError:
        return f"({path})"
    return path if isinstance(node, (ModelRef, Member)) else f"({path})"


def depends_condition_text(cond: Any) -> str | None:
    """The expression a ``depends`` condition stands for: a string as it is;
    a mapping ``{path: value, ...}`` as ``path == value and ...``; ``None``
    when it is neither."""
    if isinstance(cond, str):
        return cond
    if not isinstance(cond, Mapping) or not cond:
        return None
    terms = []
    for path, value in cond.items():
        text = literal_text(value)
        if not isinstance(path, str) or text is None:
            return None
        terms.append(f"{_path_term(path)} == {text}")
    return " and ".join(terms)


def _depends_condition(cond: Any, here: tuple, compiler: ConditionCompiler) -> Expression:
    """The compiled ``depends`` condition; each path of the mapping form is
    compiled on its own first, so that a broken one is reported at its key."""
    if isinstance(cond, str):
        return compiler.expression(cond, here, "a condition")
    if not isinstance(cond, Mapping) or not cond:
        compiler.schema(
            here,
            "a 'depends' condition is an expression or a mapping of path to value, got "
            f"{type_name(cond)}",
        )
    for path, value in cond.items():
        if not isinstance(path, str):
            compiler.schema(here, f"a 'depends' path must be a string, got {type_name(path)}")
        compiler.expression(path, (*here, path), "a model path")
        if literal_text(value) is None:
            compiler.schema(
                (*here, path),
                "a 'depends' value must be null, a boolean, a number or a string, got "
                f"{type_name(value)}",
            )
    text = depends_condition_text(cond)
    assert text is not None  # every part was checked above
    return compiler.expression(text, here, "a condition")


def compile_depends(
    value: Any, parts: tuple, compiler: ConditionCompiler
) -> tuple[Restriction, ...]:
    """The pre-5.1 ``depends`` list as restrictions. Each item is
    ``{"<path>": <value>}`` or ``{condition: <expression or mapping>,
    warning?: <message>, action?: <action>}``; the element depends on the
    condition, so the restriction (condition ``not (…)``) is active when the
    condition fails, with the ``warning`` as its message."""
    if value is None:
        return ()
    if not isinstance(value, list):
        compiler.schema(parts, f"'depends' must be a list, got {type_name(value)}")
    out = []
    for i, item in enumerate(value):
        here = (*parts, i)
        try:
            out.append(_depends(item, here, compiler))
        except _Skip:
            continue
    return tuple(out)


def _depends(item: Any, here: tuple, compiler: ConditionCompiler) -> Restriction:
    if not isinstance(item, Mapping):
        compiler.schema(here, f"a 'depends' item must be a mapping, got {type_name(item)}")
    if "condition" in item:
        for key in item:
            if key not in ("condition", "warning", "message", "action"):
                compiler.schema((*here, key), f"unknown key {key!r} in a 'depends' item")
        needed = _depends_condition(item["condition"], (*here, "condition"), compiler)
        message = item.get("warning", item.get("message"))
        if message is not None and not isinstance(message, str):
            compiler.schema(
                (*here, "warning"), f"'warning' must be a string, got {type_name(message)}"
            )
        action = item.get("action", "disable")
        if action not in ACTIONS:
            compiler.schema(
                (*here, "action"), f"'action' must be one of {', '.join(ACTIONS)}, got {action!r}"
            )
    else:
        needed = _depends_condition(item, here, compiler)
        message, action = None, "disable"
    condition = compile_expression(f"not ({needed.text})")
    return Restriction(condition, message, action, None, compiler.label(here))


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
    """A role's ``limits``: ``min``/``max``/``recommended`` bounds, the
    ``overrides`` that replace them (in order) when their condition holds,
    and ``message``, the text shown when a top-level bound is not met
    (fuel-ui's; the default texts otherwise)."""

    __slots__ = ("bounds", "overrides", "path", "message")

    def __init__(
        self,
        bounds: dict[str, _Bound],
        overrides: list[_Override],
        path: str,
        message: str | None = None,
    ) -> None:
        self.bounds, self.overrides, self.path = bounds, overrides, path
        self.message = message

    def explain(self, env: Env) -> list[BoundResult]:
        """Every bound and override condition evaluated, with the model paths
        each read: what a trace shows for the limits. Errors are raised as
        by :meth:`evaluate`."""
        out = []
        for kind, bound in self.bounds.items():
            out.append(_bound_result(kind, bound, env))
        for override in self.overrides:
            cond = override.condition
            if isinstance(cond, bool):
                out.append(BoundResult("override", None, cond, {}))
                continue
            holds = bool(cond.function()(env))
            out.append(BoundResult("override", cond.text, holds, model_reads(cond, env)))
            if holds:
                out.extend(_bound_result(k, b, env) for k, b in override.bounds.items())
        return out

    def evaluate(self, env: Env, count: int, label: str) -> tuple[LimitsOutcome, list[str], bool]:
        """The evaluated bounds, the limit messages (min, max, recommended)
        and whether the max is exceeded."""
        found = self.decide(env, count, label)
        return (
            LimitsOutcome(count, found.min, found.max, found.recommended),
            list(found.messages),
            found.above_max,
        )

    def decide(self, env: Env, count: int, label: str) -> LimitsVerdict:
        """Evaluate the bounds and overrides once and compare ``count`` with
        them: what the role check records (``toskit.conditions.decision``)."""
        current: dict[str, tuple[Any, str | None]] = {
            kind: (bound.evaluate(env), self.message) for kind, bound in self.bounds.items()
        }
        held: list[bool] = []
        for override in self.overrides:
            cond = override.condition
            holds = cond if isinstance(cond, bool) else bool(cond.function()(env))
            held.append(bool(holds))
            if holds:
                for kind, bound in override.bounds.items():
                    current[kind] = (bound.evaluate(env), override.message)
        messages: list[str] = []
        lo = current.get("min")
        hi = current.get("max")
        rec = current.get("recommended")
        below_min = lo is not None and count < lo[0]
        if lo is not None and below_min:
            messages.append(
                lo[1]
                or f"At least {lo[0]} {label} nodes are required ({count} selected currently)."
            )
        above_max = hi is not None and count > hi[0]
        if hi is not None and above_max:
            messages.append(hi[1] or f"At most {hi[0]} {label} nodes are allowed.")
        below_rec = rec is not None and count < rec[0]
        if rec is not None and below_rec:
            messages.append(
                rec[1]
                or f"It is recommended to have at least {rec[0]} {label} nodes "
                f"({count} selected currently)."
            )
        return LimitsVerdict(
            lo[0] if lo else None,
            hi[0] if hi else None,
            rec[0] if rec else None,
            tuple(held),
            tuple(messages),
            below_min,
            above_max,
            below_rec,
        )


class LimitsVerdict(NamedTuple):
    """What :meth:`Limits.decide` found: the bounds in force, whether each
    override held (in order), the limit messages and the comparisons."""

    min: Any
    max: Any
    recommended: Any
    held: tuple[bool, ...]
    messages: tuple[str, ...]
    below_min: bool
    above_max: bool
    below_recommended: bool


def _bound_result(kind: str, bound: _Bound, env: Env) -> BoundResult:
    value = bound.evaluate(env)
    if bound.expression is None:
        return BoundResult(kind, None, value, {})
    return BoundResult(kind, bound.expression.text, value, model_reads(bound.expression, env))


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
    message: str | None = None
    broken = False
    for key, item in value.items():
        if key == "message":
            if isinstance(item, str) or item is None:
                message = item
            else:
                broken = True
                compiler.attempt(
                    partial(
                        compiler.schema,
                        (*parts, "message"),
                        f"'message' must be a string, got {type_name(item)}",
                    )
                )
        elif key in BOUNDS:
            bound = compiler.attempt(partial(_bound, key, item, (*parts, key), compiler))
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
                partial(
                    compiler.unknown_key,
                    (*parts, key),
                    (*BOUNDS, "overrides", "message"),
                    f"unknown key {key!r} in 'limits' (allowed: min, max, recommended, overrides, "
                    "message)",
                )
            )
    if broken:
        raise _Skip
    return Limits(bounds, overrides, compiler.label(parts), message)


def _override(item: Any, here: tuple, compiler: ConditionCompiler) -> _Override:
    if not isinstance(item, Mapping):
        compiler.schema(here, f"a limits override must be a mapping, got {type_name(item)}")
    if "condition" not in item:
        compiler.schema(here, "a limits override needs 'condition'")
    for key in item:
        if key not in ("condition", "message", *BOUNDS):
            compiler.unknown_key(
                (*here, key),
                ("condition", "message", *BOUNDS),
                f"unknown key {key!r} in a limits override",
            )
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
