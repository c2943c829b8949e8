"""Condition forms: schema checks, compilation and evaluation.

A condition tree (plain YAML data) is checked against the forms' schema and
compiled into :class:`Form` objects. Each form evaluates three ways:

* ``test(env) -> bool``: the value only. Used where warnings are dropped
  (the operand of ``not``, the items of ``exists``), so the hot loop of an
  ``exists`` over thousands of nodes builds no lists and no trace.
* ``run(env) -> (value, warnings)``: what a role check needs.
* ``trace(env) -> TraceEntry``: value, warnings and the tree of what was
  evaluated, for display.

All three give the same value; evaluation is pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from toskit.conditions.batch import Fallback, compile_select
from toskit.conditions.explain import describe_node, mark_decisive, reads
from toskit.conditions.expression import Env, Expression, compile_expression
from toskit.conditions.results import TraceEntry
from toskit.conditions.syntax import (
    BoolOp,
    Compare,
    Literal,
    Member,
    Not,
    placeholders_of,
)
from toskit.conditions.values import type_name, value_text
from toskit.conditions.words import exists_words, form_words
from toskit.diagnostics import Suggestion, format_path, suggest
from toskit.errors import ConditionError

__all__ = ["Form", "Rules", "compile_rules", "compile_condition", "FORM_KEYS", "ConditionCompiler"]

FORM_KEYS = ("condition", "all", "any", "not", "exists", "recommended")
_SIBLINGS: dict[str, frozenset[str]] = {
    "condition": frozenset({"then", "else", "warning"}),
    "all": frozenset({"warning"}),
    "any": frozenset({"warning"}),
    "not": frozenset({"warning"}),
    "exists": frozenset({"warning"}),
    "recommended": frozenset(),
}
_VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_MISSING = object()
# Batch evaluation of `exists` (toskit.conditions.batch): lists shorter
# than _BATCH_MIN go item by item; chunks grow from _BATCH_FIRST to _BATCH_MAX.
_BATCH_MIN, _BATCH_FIRST, _BATCH_MAX = 16, 64, 8192
# The work of one evaluation (one Env: a check, a check_all, an evaluate)
# is bounded: `exists` loops may visit at most STEP_BUDGET items in all, so
# `exists` nested five deep over 100 nodes (10^10 items) stops at once with
# a ConditionError of kind LimitExceeded instead of running for hours.
STEP_BUDGET = 2_000_000
_STEPS = object()  # the Env.memo key of the items visited so far
# Bound on the length of a node's path in a condition tree, far below
# Python's recursion limit even for hostile documents.
MAX_TREE_DEPTH = 200

Test = Callable[[Env], bool]


def _tf(value: Any) -> str:
    return "TRUE" if value else "FALSE"


def _returns_bool(expr: Expression) -> bool:
    """True when the expression's value is always a boolean (no ``bool()``
    wrapper needed in the fast path)."""
    node = expr.node
    if isinstance(node, (Compare, Not, BoolOp)):
        return True
    if isinstance(node, Literal):
        return isinstance(node.value, bool)
    return isinstance(node, Member) and node.name in (
        "_hasRole",
        "_hasDeployedRole",
        "_pending_deletion",
        "_pending_addition",
    )


# --------------------------------------------------------------------------- forms


class Form:
    """A compiled condition. ``path`` names its place in the document."""

    __slots__ = ("path", "test")

    form = "?"
    path: str
    test: Test

    def run(self, env: Env) -> tuple[bool, list[str]]:
        """The form's value and the warnings it gives, in order."""
        raise NotImplementedError

    def trace(self, env: Env) -> TraceEntry:
        """What :meth:`run` computes, with every step recorded (for the trace view)."""
        raise NotImplementedError


class LiteralForm(Form):
    __slots__ = ("value",)
    form = "literal"

    def __init__(self, value: bool, path: str) -> None:
        self.value = value
        self.path = path
        self.test = (lambda env: True) if value else (lambda env: False)

    def run(self, env: Env) -> tuple[bool, list[str]]:
        return self.value, []

    def trace(self, env: Env) -> TraceEntry:
        return TraceEntry(
            "literal", self.value, [], None, [], self.path, detail=_tf(self.value) + " (literal)"
        )


class ExprForm(Form):
    __slots__ = ("expr", "fn")
    form = "expression"

    def __init__(self, expr: Expression, loop_vars: frozenset[str], path: str) -> None:
        self.expr = expr
        self.path = path
        fn = self.fn = expr.function(loop_vars)
        self.test = fn if _returns_bool(expr) else (lambda env: bool(fn(env)))

    def run(self, env: Env) -> tuple[bool, list[str]]:
        return bool(self.fn(env)), []

    def trace(self, env: Env) -> TraceEntry:
        value = bool(self.fn(env))
        return TraceEntry(
            "expression",
            value,
            [],
            self.expr.text,
            [],
            self.path,
            reads=reads(self.expr, env),
            detail=_tf(value),
        )


class ConditionForm(Form):
    """``{condition: E, then?: A, else?: B, warning?: W}``. ``top`` marks a
    top-level rule, whose failed guard without ``else`` does not apply."""

    __slots__ = ("guard", "guard_text", "guard_expr", "then", "else_", "warning", "top")
    form = "condition"

    def __init__(
        self,
        guard: Test,
        guard_text: str | None,
        then: Form | None,
        else_: Form | None,
        warning: str | None,
        top: bool,
        path: str,
    ) -> None:
        self.guard, self.guard_text = guard, guard_text
        self.guard_expr: Expression | bool | None = None  # set by the compiler
        self.then, self.else_, self.warning, self.top = then, else_, warning, top
        self.path = path
        if then is None:
            self.test = guard
        else:
            then_test = then.test
            if else_ is not None:
                else_test = else_.test
                self.test = lambda env: then_test(env) if guard(env) else else_test(env)
            elif top:
                self.test = lambda env: then_test(env) if guard(env) else True
            else:
                self.test = lambda env: then_test(env) if guard(env) else False

    def _branch(self, env: Env) -> tuple[Form | None, bool]:
        """The branch taken (or None) and whether the rule applies at all."""
        if self.guard(env):
            return self.then, True
        if self.else_ is not None:
            return self.else_, True
        return None, not (self.top and self.then is not None)

    def run(self, env: Env) -> tuple[bool, list[str]]:
        warnings: list[str]
        if self.then is None:
            value, warnings = self.guard(env), []
        else:
            branch, applies = self._branch(env)
            if not applies:
                return True, []
            value, warnings = branch.run(env) if branch is not None else (False, [])
        if not value and self.warning is not None:
            warnings = [*warnings, self.warning]
        return value, warnings

    def trace(self, env: Env) -> TraceEntry:
        children: list[TraceEntry] = []
        read = reads(self.guard_expr, env)
        guard = bool(self.guard(env))
        if self.then is None:
            value, warnings = guard, []
            detail = _tf(value)
            taken = None
        else:
            branch, applies = self._branch(env)
            taken = "then" if guard else ("else" if self.else_ is not None else None)
            if not applies:
                return TraceEntry(
                    "condition",
                    True,
                    [],
                    self.guard_text,
                    [],
                    self.path,
                    guard=False,
                    applies=False,
                    reads=read,
                    detail="guard FALSE → rule does not apply (no else)",
                )
            if branch is not None:
                child = branch.trace(env)
                children.append(child)
                value, warnings = child.value, list(child.warnings)
                detail = f"guard {_tf(guard)} → {taken}: {_tf(value)}"
            else:
                value, warnings = False, []
                detail = f"guard {_tf(guard)} → no else: FALSE"
        if not value and self.warning is not None:
            warnings.append(self.warning)
        return TraceEntry(
            "condition",
            value,
            warnings,
            self.guard_text,
            children,
            self.path,
            guard=guard if self.then is not None else None,
            branch=taken,
            reads=read,
            detail=detail,
        )


class AllForm(Form):
    __slots__ = ("items", "warning")
    form = "all"

    def __init__(self, items: list[Form], warning: str | None, path: str) -> None:
        self.items, self.warning, self.path = items, warning, path
        tests = [i.test for i in items]
        if len(tests) == 1:
            self.test = tests[0]
        elif len(tests) == 2:
            a, b = tests
            self.test = lambda env: a(env) and b(env)
        elif len(tests) == 3:
            a, b, c = tests
            self.test = lambda env: a(env) and b(env) and c(env)
        else:
            self.test = lambda env: all(t(env) for t in tests)

    def run(self, env: Env) -> tuple[bool, list[str]]:
        warnings: list[str] = []
        for item in self.items:
            value, more = item.run(env)
            warnings.extend(more)
            if not value:
                if self.warning is not None:
                    warnings.append(self.warning)
                return False, warnings
        return True, warnings

    def trace(self, env: Env) -> TraceEntry:
        warnings: list[str] = []
        children: list[TraceEntry] = []
        value = True
        for item in self.items:
            child = item.trace(env)
            children.append(child)
            warnings.extend(child.warnings)
            if not child.value:
                value = False
                if self.warning is not None:
                    warnings.append(self.warning)
                break
        if value:
            detail = f"all {len(children)} items TRUE"
        else:
            detail = f"item {len(children)} of {len(self.items)} is FALSE → FALSE (stopped)"
        return TraceEntry("all", value, warnings, None, children, self.path, detail=detail)


class AnyForm(Form):
    __slots__ = ("items", "warning")
    form = "any"

    def __init__(self, items: list[Form], warning: str | None, path: str) -> None:
        self.items, self.warning, self.path = items, warning, path
        tests = [i.test for i in items]
        self.test = lambda env: any(t(env) for t in tests)

    def run(self, env: Env) -> tuple[bool, list[str]]:
        warnings: list[str] = []
        for item in self.items:
            value, more = item.run(env)
            if value:
                return True, more
            warnings.extend(more)
        if self.warning is not None:
            warnings.append(self.warning)
        return False, warnings

    def trace(self, env: Env) -> TraceEntry:
        warnings: list[str] = []
        children: list[TraceEntry] = []
        for item in self.items:
            child = item.trace(env)
            children.append(child)
            if child.value:
                detail = f"item {len(children)} of {len(self.items)} is TRUE → TRUE (stopped)"
                return TraceEntry(
                    "any", True, list(child.warnings), None, children, self.path, detail=detail
                )
            warnings.extend(child.warnings)
        if self.warning is not None:
            warnings.append(self.warning)
        detail = f"none of {len(children)} items is TRUE → FALSE"
        return TraceEntry("any", False, warnings, None, children, self.path, detail=detail)


class NotForm(Form):
    __slots__ = ("operand", "warning")
    form = "not"

    def __init__(self, operand: Form, warning: str | None, path: str) -> None:
        self.operand, self.warning, self.path = operand, warning, path
        inner = operand.test
        self.test = lambda env: not inner(env)

    def run(self, env: Env) -> tuple[bool, list[str]]:
        # The operand's warnings explain why it was false; negated, they
        # would explain a success, so they are dropped.
        value = not self.operand.test(env)
        return value, ([] if value or self.warning is None else [self.warning])

    def trace(self, env: Env) -> TraceEntry:
        child = self.operand.trace(env)
        value = not child.value
        warnings = [] if value or self.warning is None else [self.warning]
        detail = f"operand {_tf(child.value)} → {_tf(value)}"
        return TraceEntry("not", value, warnings, None, [child], self.path, detail=detail)


def _reads_and_binds(form: Form) -> tuple[set[str], set[str]] | None:
    """The placeholders a compiled subtree reads and those it binds (its
    ``exists`` variables); ``None`` when a form is not understood."""
    reads: set[str] = set()
    binds: set[str] = set()
    stack = [form]
    while stack:
        current = stack.pop()
        if isinstance(current, LiteralForm):
            continue
        if isinstance(current, ExprForm):
            reads |= placeholders_of(current.expr.node)
        elif isinstance(current, ConditionForm):
            if isinstance(current.guard_expr, Expression):
                reads |= placeholders_of(current.guard_expr.node)
            stack.extend(f for f in (current.then, current.else_) if f is not None)
        elif isinstance(current, (AllForm, AnyForm)):
            stack.extend(current.items)
        elif isinstance(current, NotForm):
            stack.append(current.operand)
        elif isinstance(current, ExistsForm):
            reads |= placeholders_of(current.where.node)
            binds.add(current.variable)
            stack.append(current.condition)
        else:
            return None
    return reads, binds


class ExistsForm(Form):
    """``exists``. Nested inside another ``exists``, its result is memoised
    per evaluation on the items bound to the outer placeholders it reads
    (``_free``): evaluation is pure, so an inner loop that reads none or
    one of them runs once per distinct binding instead of once per outer
    item — nested ``exists`` over the same list stays cheap."""

    __slots__ = (
        "where",
        "where_text",
        "variable",
        "condition",
        "warning",
        "_where_fn",
        "_select",
        "_free",
    )
    form = "exists"

    def __init__(
        self,
        where: Expression,
        where_fn: Callable[[Env], Any],
        variable: str,
        condition: Form,
        warning: str | None,
        path: str,
    ) -> None:
        self.where, self.where_text, self._where_fn = where, where.text, where_fn
        self.variable, self.condition, self.warning, self.path = variable, condition, warning, path
        self.test = lambda env: self._match(env) >= 0
        self._select: Any = None  # a batch selector (toskit.conditions.batch), set by the compiler
        # Outer placeholders read (memo key), or None: no memo (top level,
        # shadowing, or a form not understood). Set by the compiler.
        self._free: tuple[str, ...] | None = None

    def _items(self, env: Env) -> Any:
        items = self._where_fn(env)
        if not isinstance(items, (list, tuple)):
            raise ConditionError(
                "TypeError",
                f"'exists' expects a list, got {type_name(items)}",
                expression=self.where_text,
                position=0,
                path=self.path,
            )
        return items

    def _match(self, env: Env) -> int:
        """Index of the first item for which the condition holds, or -1."""
        free = self._free
        if free is None:
            return self._match_now(env)
        variables = env.vars
        bound = tuple(variables.get(name, _MISSING) for name in free)
        key = (self, *map(id, bound))
        hit = env.memo.get(key)
        # The entry keeps the bound objects alive and checks them, so an id
        # reused by another object can never hit.
        if hit is not None and all(a is b for a, b in zip(hit[0], bound)):
            return int(hit[1])
        index = self._match_now(env)
        env.memo[key] = (bound, index)
        return index

    def _match_now(self, env: Env) -> int:
        items = self._items(env)
        if not items:
            return -1
        select = self._select
        if select is None or len(items) < _BATCH_MIN:
            return self._sequential(env, items)
        # Growing chunks: a match near the start stops early, as in the
        # sequential loop; a chunk the selector cannot handle exactly is
        # re-evaluated item by item (same value, same errors).
        trusted = id(items) in env.trusted
        start, size, total = 0, _BATCH_FIRST, len(items)
        while start < total:
            chunk = items[start : start + size]
            self._spend(env, len(chunk))
            try:
                chosen = select(env, chunk, trusted)
            except (Fallback, ConditionError):
                found = self._sequential(env, chunk)
                if found >= 0:
                    return start + found
            else:
                if chosen:
                    first = chosen[0]
                    for i, item in enumerate(chunk):
                        if item is first:
                            return start + i
            start += size
            size = min(size * 4, _BATCH_MAX)
        return -1

    def _spend(self, env: Env, steps: int) -> None:
        """Count ``steps`` items visited against :data:`STEP_BUDGET`."""
        memo = env.memo
        used = memo.get(_STEPS, 0) + steps
        memo[_STEPS] = used
        if used > STEP_BUDGET:
            raise ConditionError(
                "LimitExceeded",
                f"the evaluation visited more than {STEP_BUDGET:,} items in 'exists' loops "
                f"(nested exists over long lists); simplify the condition, or raise "
                "toskit.conditions.forms.STEP_BUDGET",
                expression=self.where_text,
                position=0,
                path=self.path,
            )

    def _sequential(self, env: Env, items: Any) -> int:
        name = self.variable
        variables = env.vars
        saved = variables.get(name, _MISSING)
        test = self.condition.test
        i = -1
        try:
            for i, item in enumerate(items):  # noqa: B007 - `i` counts the items visited
                variables[name] = item
                if test(env):
                    return i
            return -1
        finally:
            if saved is _MISSING:
                variables.pop(name, None)
            else:
                variables[name] = saved
            self._spend(env, i + 1)

    def run(self, env: Env) -> tuple[bool, list[str]]:
        value = self._match(env) >= 0
        return value, ([] if value or self.warning is None else [self.warning])

    def trace(self, env: Env) -> TraceEntry:
        index = self._match(env)
        children: list[TraceEntry] = []
        items = self._items(env)
        item = None
        if index >= 0:
            # Re-run the matching item in tracing mode (pure, same result).
            item = items[index]
            variables = env.vars
            saved = variables.get(self.variable, _MISSING)
            variables[self.variable] = item
            try:
                children.append(self.condition.trace(env))
            finally:
                if saved is _MISSING:
                    variables.pop(self.variable, None)
                else:
                    variables[self.variable] = saved
        value = index >= 0
        warnings = [] if value or self.warning is None else [self.warning]
        if value:
            detail = (
                f"<{self.variable}> = {describe_node(item)} matched "
                f"(item {index + 1} of {len(items)}) → TRUE"
            )
        else:
            detail = f"no match among {len(items)} items → FALSE"
        return TraceEntry(
            "exists",
            value,
            warnings,
            self.where_text,
            children,
            self.path,
            item=item,
            detail=detail,
            facts={
                "variable": self.variable,
                "index": index,
                "count": len(items),
                **self._words(env, item if value else None),
            },
        )

    def _words(self, env: Env, item: Any) -> dict[str, Any]:
        """The recorded phrases (:mod:`toskit.conditions.words`): ``tests``,
        the condition said of one item (``None`` when it has no phrase), and
        ``words``, the sentence a reason shows."""
        settings = env.models.get("settings")
        tests = form_words(self.condition, self.variable, settings)
        shown = describe_node(item) if item is not None else None
        words = exists_words(self.where.node, self.where_text, tests, shown)
        return {"tests": tests, "words": words}


class RecommendedForm(Form):
    """Advice: always true; warns (with ``<value>`` substituted) when the
    expression, with ``<value>`` bound, is falsy."""

    __slots__ = ("expression", "value", "value_expression", "warning")
    form = "recommended"

    def __init__(
        self,
        expression: Expression,
        value: Any,
        value_expression: Expression | None,
        warning: str,
        path: str,
    ) -> None:
        self.expression, self.value, self.value_expression = expression, value, value_expression
        self.warning, self.path = warning, path
        self.test = lambda env: True

    def _evaluate(self, env: Env, tracing: bool = False) -> tuple[Any, Any, list]:
        """The bound ``<value>``, the expression's value, and (tracing) what it read."""
        value = self.value_expression.function()(env) if self.value_expression else self.value
        variables = env.vars
        saved = variables.get("value", _MISSING)
        variables["value"] = value
        try:
            ok = self.expression.function()(env)
            read = reads(self.expression, env) if tracing else []
        finally:
            if saved is _MISSING:
                variables.pop("value", None)
            else:
                variables["value"] = saved
        return value, ok, read

    def _warnings(self, env: Env) -> list[str]:
        value, ok, _ = self._evaluate(env)
        if ok:
            return []
        return [self.warning.replace("<value>", value_text(value))]

    def run(self, env: Env) -> tuple[bool, list[str]]:
        return True, self._warnings(env)

    def trace(self, env: Env) -> TraceEntry:
        value, ok, read = self._evaluate(env, tracing=True)
        fired = not ok
        warnings = [self.warning.replace("<value>", value_text(value))] if fired else []
        filled = self.expression.text.replace("<value>", value_text(value))
        detail = f"{filled} is {_tf(ok)} → " + ("advice raised" if fired else "no advice needed")
        return TraceEntry(
            "recommended",
            True,
            warnings,
            self.expression.text,
            [],
            self.path,
            fired=fired,
            reads=read,
            detail=detail,
            facts={"value": value},
        )


class Rules(Form):
    """The top-level list of rules: every rule is evaluated, the value
    is their AND and the warnings are concatenated."""

    __slots__ = ("rules",)
    form = "rules"

    def __init__(self, rules: list[Form], path: str = "") -> None:
        self.rules, self.path = rules, path
        tests = [r.test for r in rules]
        # No early exit in value-only mode is needed for correctness, but
        # every rule must still run in `run`/`trace` for its advice.
        self.test = lambda env: all([t(env) for t in tests])

    def run(self, env: Env) -> tuple[bool, list[str]]:
        value = True
        warnings: list[str] = []
        for rule in self.rules:
            ok, more = rule.run(env)
            value = value and ok
            warnings.extend(more)
        return value, warnings

    def trace(self, env: Env) -> TraceEntry:
        children = [rule.trace(env) for rule in self.rules]
        value = all(c.value for c in children)
        warnings = [w for c in children for w in c.warnings]
        failed = [i + 1 for i, c in enumerate(children) if not c.value]
        numbers = ", ".join(map(str, failed))
        detail = (
            f"all {len(children)} rules TRUE"
            if value
            else f"rule{'s' if len(failed) > 1 else ''} {numbers} FALSE → FALSE"
        )
        root = TraceEntry("rules", value, warnings, None, children, self.path, detail=detail)
        mark_decisive(root)
        return root


# --------------------------------------------------------------------------- compiler


class ConditionCompiler:
    """Checks and compiles condition trees.

    ``parts`` address nodes from the document root (for YAML locations);
    messages name the place without the first ``skip`` parts. With
    ``collect=True`` errors are recorded in ``.errors`` as
    ``(ConditionError, parts)`` and compilation goes on with the rest of the
    tree (what ``toskit check`` needs); otherwise the first error is raised.
    """

    def __init__(self, *, collect: bool = False, skip: int = 0) -> None:
        self.collect = collect
        self.skip = skip
        self.errors: list[tuple[ConditionError, tuple]] = []
        #: error index -> ``(parts of the misspelt key, Suggestion)``: an
        #: unknown key with a did-you-mean (a structured fact, not words in
        #: a message); the key is the last of the parts
        self.renames: dict[int, tuple[tuple, Suggestion]] = {}
        #: ``(parts, Expression)`` of every expression compiled (collect mode)
        self.expressions: list[tuple[tuple, Expression]] = []
        #: where the error raised last sits (its ``parts``) and its rename,
        #: if any (not collecting): :func:`~toskit.conditions.check.locate`
        #: places that error in its document with them
        self.failed_at: tuple | None = None
        self.failed_rename: tuple[tuple, Suggestion] | None = None

    # -- errors
    def label(self, parts: tuple) -> str:
        """The place named in messages: ``parts`` without the first ``skip``."""
        return format_path(parts[self.skip :])

    def fail(
        self, err: ConditionError, parts: tuple, rename: tuple[tuple, Suggestion] | None = None
    ) -> None:
        """Raise ``err`` (or, collecting, record it and skip this subtree)."""
        if err.path is None:
            err.path = self.label(parts)
            if hasattr(err, "add_note"):
                err.add_note(f"in {err.path}")
        if self.collect:
            self.errors.append((err, parts))
            raise _Skip
        self.failed_at, self.failed_rename = parts, rename
        raise err

    def schema(
        self, parts: tuple, message: str, *, rename: tuple[tuple, Suggestion] | None = None
    ) -> None:
        """Fail with a ``SchemaError`` at ``parts``; ``rename`` addresses a
        misspelt key (its parts) and says what it most likely meant."""
        where = self.label(parts)
        text = f"{where}: {message}" if where else message
        if rename is not None and self.collect:
            self.renames[len(self.errors)] = rename
        self.fail(ConditionError("SchemaError", text, path=where), parts, rename)

    def unknown_key(self, parts: tuple, allowed: Any, message: str) -> None:
        """Fail at the unknown key that ends ``parts``; when it is a near miss
        of one of ``allowed``, the message says so and the error carries the
        rename (:attr:`renames`)."""
        key = parts[-1]
        found = suggest(str(key), [str(a) for a in allowed])
        if found is not None:
            message += f" ({found.hint()})"
        self.schema(parts, message, rename=(parts, found) if found is not None else None)

    def expression(self, text: Any, parts: tuple, what: str = "an expression") -> Expression:
        """The compiled expression at ``parts`` (errors located there)."""
        if not isinstance(text, str):
            self.schema(parts, f"expected {what} (a string), got {type_name(text)}")
        try:
            compiled = compile_expression(text)
        except ConditionError as err:
            self.fail(err, parts)
            raise AssertionError("unreachable") from None
        if self.collect:
            self.expressions.append((parts, compiled))
        return compiled

    # -- entry points
    def rules(self, source: Any, parts: tuple) -> Rules:
        """A top-level rule list; a single condition counts as one rule."""
        is_list = isinstance(source, (list, tuple))
        items = list(source) if is_list else [source]
        item_parts = [(*parts, i) for i in range(len(items))] if is_list else [parts]
        compiled: list[Form] = []
        for item, p in zip(items, item_parts):
            try:
                compiled.append(self.condition(item, p, top=True))
            except _Skip:
                compiled.append(LiteralForm(False, self.label(p)))
        return Rules(compiled, self.label(parts))

    def attempt(self, action: Callable[[], Any], default: Any = None) -> Any:
        """Run one independent check; in collect mode a recorded failure
        gives ``default`` so that the checks after it still run."""
        try:
            return action()
        except _Skip:
            return default

    def child(self, cond: Any, parts: tuple, **options: Any) -> Form:
        """Compile a sub-condition; in collect mode a broken one is recorded
        and stands in as ``false`` so that its siblings are still checked."""
        try:
            return self.condition(cond, parts, **options)
        except _Skip:
            return LiteralForm(False, self.label(parts))

    def condition(
        self,
        cond: Any,
        parts: tuple,
        *,
        top: bool = False,
        forbid: str | None = None,
        loop_vars: frozenset[str] = frozenset(),
    ) -> Form:
        """Compile one condition (any form). ``top``: a top-level rule;
        ``forbid``: the enclosing form that rules out ``recommended``;
        ``loop_vars``: the placeholders bound by enclosing ``exists``."""
        path = self.label(parts)
        if len(parts) > MAX_TREE_DEPTH:
            self.schema(
                parts,
                f"the condition tree is nested too deeply (more than {MAX_TREE_DEPTH} levels)",
            )
        if isinstance(cond, bool):
            return LiteralForm(cond, path)
        if isinstance(cond, str):
            return ExprForm(self.expression(cond, parts), loop_vars, path)
        if not isinstance(cond, Mapping):
            what = (
                "a list (only the top level is a list of rules)"
                if isinstance(cond, list)
                else type_name(cond)
            )
            self.schema(parts, f"a condition must be a boolean, a string or a mapping, got {what}")
        form = self._form_key(cond, parts)
        warning = cond.get("warning")
        if "warning" in cond and not isinstance(warning, str):
            self.schema(
                (*parts, "warning"), f"'warning' must be a string, got {type_name(warning)}"
            )
        body = cond[form]
        if form == "condition":
            return self._condition_form(cond, body, warning, parts, top, forbid, loop_vars)
        if form in ("all", "any"):
            if not isinstance(body, list):
                self.schema(
                    (*parts, form), f"{form!r} takes a list of conditions, got {type_name(body)}"
                )
            inner_forbid = forbid or ("any" if form == "any" else None)
            items = [
                self.child(c, (*parts, form, i), forbid=inner_forbid, loop_vars=loop_vars)
                for i, c in enumerate(body)
            ]
            cls = AllForm if form == "all" else AnyForm
            return cls(items, warning, path)
        if form == "not":
            operand = self.child(body, (*parts, "not"), forbid=forbid or "not", loop_vars=loop_vars)
            return NotForm(operand, warning, path)
        if form == "exists":
            return self._exists(body, warning, parts, forbid, loop_vars)
        return self._recommended(body, parts, forbid)

    def _form_key(self, cond: Mapping, parts: tuple) -> str:
        """The one form key of a condition mapping (``all``, ``exists`` …);
        its other keys must be the form's siblings (a misspelt one gets a
        rename)."""
        for key in cond:
            if not isinstance(key, str):
                self.schema(parts, f"condition keys must be strings, got {key!r}")
        forms = [k for k in FORM_KEYS if k in cond]
        if not forms:
            keys = ", ".join(repr(k) for k in cond) or "none"
            hint = ""
            rename: tuple[tuple, Suggestion] | None = None
            for key in cond:
                found = suggest(key, FORM_KEYS)
                if found is not None:
                    hint = f" ({key!r}: {found.hint()})"
                    rename = ((*parts, key), found)
                    break
            self.schema(
                parts,
                f"a condition mapping needs one of {', '.join(repr(k) for k in FORM_KEYS)}; got "
                f"keys {keys}{hint}",
                rename=rename,
            )
        if len(forms) > 1:
            self.schema(
                parts,
                "a condition mapping has exactly one form key, got "
                f"{' and '.join(map(repr, forms))}",
            )
        form = forms[0]
        allowed = _SIBLINGS[form]
        for key in cond:
            if key != form and key not in allowed:
                extra = (
                    f"; allowed beside {form!r}: {', '.join(map(repr, sorted(allowed)))}"
                    if allowed
                    else f"; {form!r} takes no sibling keys"
                )
                self.unknown_key((*parts, key), allowed, f"unknown key {key!r}{extra}")
        return form

    # -- the forms with structure
    def _condition_form(
        self,
        cond: Mapping,
        guard_src: Any,
        warning: str | None,
        parts: tuple,
        top: bool,
        forbid: str | None,
        loop_vars: frozenset[str],
    ) -> Form:
        if "else" in cond and "then" not in cond:
            self.schema((*parts, "else"), "'else' requires 'then'")
        guard_parts = (*parts, "condition")
        guard_expr: Expression | bool
        if isinstance(guard_src, bool):
            guard: Test = (lambda env: True) if guard_src else (lambda env: False)
            guard_text = None
            guard_expr = guard_src
        else:
            found = self.attempt(
                lambda: self.expression(guard_src, guard_parts, "an expression or a boolean")
            )
            if found is None:  # recorded (collect mode): still check the branches
                guard_expr, guard, guard_text = False, (lambda env: False), None
            else:
                guard_expr = found
                guard = ExprForm(found, loop_vars, self.label(guard_parts)).test
                guard_text = found.text
        then = else_ = None
        if "then" in cond:
            then = self.child(cond["then"], (*parts, "then"), forbid=forbid, loop_vars=loop_vars)
        if "else" in cond:
            else_ = self.child(cond["else"], (*parts, "else"), forbid=forbid, loop_vars=loop_vars)
        form = ConditionForm(guard, guard_text, then, else_, warning, top, self.label(parts))
        form.guard_expr = guard_expr
        return form

    def _check_body(self, form: str, body: Any, here: tuple, keys: tuple[str, ...]) -> None:
        """The body of ``form`` must be a mapping with exactly ``keys``."""
        if not isinstance(body, Mapping):
            names = ", ".join(repr(k) for k in keys[:-1]) + f" and {keys[-1]!r}"
            self.schema(here, f"{form!r} takes a mapping with {names}, got {type_name(body)}")
        unknown = {k: suggest(str(k), keys) for k in body if k not in keys}
        for key in keys:
            if key not in body:
                # A missing key beside its misspelling is one mistake: say
                # both, at the misspelt key, with the rename.
                typo = next(
                    (k for k, f in unknown.items() if f is not None and f.best == key), None
                )
                if typo is not None:
                    found = unknown[typo]
                    assert found is not None
                    self.schema(
                        (*here, typo),
                        f"{form!r} needs {key!r}; the unknown key {typo!r} is probably it, "
                        f"misspelt ({found.hint()})",
                        rename=((*here, typo), found),
                    )
                self.schema(here, f"{form!r} needs {key!r}")
        for key in body:
            if key not in keys:
                found = unknown[key]
                self.schema(
                    (*here, key),
                    f"unknown key {key!r} in {form!r}" + (f" ({found.hint()})" if found else ""),
                    rename=((*here, key), found) if found is not None else None,
                )

    def _exists(
        self,
        body: Any,
        warning: str | None,
        parts: tuple,
        forbid: str | None,
        loop_vars: frozenset[str],
    ) -> Form:
        here = (*parts, "exists")
        self._check_body("exists", body, here, ("where", "variable", "condition"))
        variable = body["variable"]
        if not isinstance(variable, str) or not _VARIABLE_NAME.match(variable):
            self.schema(
                (*here, "variable"),
                "'variable' must be a bare name such as 'node' (no angle brackets), got "
                f"{variable!r}",
            )
        where = self.attempt(lambda: self.expression(body["where"], (*here, "where")))
        if where is None:  # recorded (collect mode): still check the condition
            where = compile_expression("null")
        where_fn = where.function(loop_vars)
        inner_vars = loop_vars | {variable}
        condition = self.child(
            body["condition"], (*here, "condition"), forbid=forbid or "exists", loop_vars=inner_vars
        )
        form = ExistsForm(where, where_fn, variable, condition, warning, self.label(parts))
        form._select = compile_select(condition, variable, inner_vars)
        if loop_vars:  # nested: memoise on the outer placeholders read
            found = _reads_and_binds(form)
            if found is not None and not (found[1] & loop_vars):
                form._free = tuple(sorted(found[0] - found[1]))
        return form

    def _recommended(self, body: Any, parts: tuple, forbid: str | None) -> Form:
        here = (*parts, "recommended")
        if forbid is not None:
            self.schema(
                here,
                f"'recommended' cannot appear inside {forbid!r}: it is advice that is always true, "
                "so negating or OR-ing it means nothing",
            )
        self._check_body("recommended", body, here, ("expression", "value", "warning"))
        warning = body["warning"]
        if not isinstance(warning, str):
            self.schema((*here, "warning"), f"'warning' must be a string, got {type_name(warning)}")
        expression = self.expression(body["expression"], (*here, "expression"))
        value = body["value"]
        value_expression = (
            self.expression(value, (*here, "value")) if isinstance(value, str) else None
        )
        return RecommendedForm(expression, value, value_expression, warning, self.label(parts))


class _Skip(Exception):
    """Internal: abandon one subtree after recording an error (collect mode)."""


def compile_condition(cond: Any, parts: tuple = (), *, top: bool = False) -> Form:
    """Check and compile one condition; raises the first ``ConditionError``."""
    return ConditionCompiler().condition(cond, parts, top=top)


def compile_rules(source: Any, parts: tuple = ("conditions",), skip: int = 0) -> Rules:
    """Check and compile a top-level rule list (or one condition as one rule)."""
    return ConditionCompiler(skip=skip).rules(source, parts)
