"""Compile expression trees into Python closures and evaluate them.

An expression is parsed once (:mod:`toskit.conditions.syntax`) and compiled
into nested closures ``fn(env) -> value``; evaluating never re-parses text
and never uses Python's ``eval``.

Loop-invariant hoisting: inside ``exists`` a
subexpression that reads none of the placeholders bound by the enclosing
``exists`` loops (``selectedNodes._pluck('id')``) is compiled behind a memo
slot: it is computed lazily on first use and reused for the rest of the
evaluation. A membership test against such an invariant list builds a hashed
index once (:func:`toskit.conditions.values.build_index`), respecting strict
equality. Because the memo is filled lazily, errors and short-circuiting are
exactly those of the plain evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from toskit.conditions.cluster import DICT_TYPES, STANDARD_MODELS, Cluster
from toskit.conditions.syntax import (
    BoolOp,
    Compare,
    Literal,
    Member,
    ModelRef,
    Node,
    Not,
    Placeholder,
    Variable,
    parse,
    placeholders_of,
)
from toskit.conditions.values import (
    build_index,
    index_contains,
    is_number,
    strict_eq,
    to_plain,
    type_name,
)
from toskit.errors import ConditionError, ToskitError

__all__ = ["Env", "Expression", "compile_expression", "compile_node", "make_env"]

Fn = Callable[["Env"], Any]
_MISSING = object()
_EMPTY: Mapping[str, Any] = MappingProxyType({})
_BASE_MODELS: dict[str, Any] = {name: _EMPTY for name in (*STANDARD_MODELS, "cluster")}


class Env:
    """What an evaluation reads: models, the selection, placeholder bindings,
    the strict flag and the memo of loop-invariant values."""

    __slots__ = ("models", "selected", "vars", "strict", "memo", "trusted")

    def __init__(
        self,
        models: dict[str, Any],
        selected: list,
        variables: dict[str, Any],
        strict: bool,
    ) -> None:
        self.models = models
        self.selected = selected
        self.vars = variables
        self.strict = strict
        self.memo: dict = {}
        # ids of the lists known to hold only normalised nodes (the cluster's
        # node list and the selection): batch evaluation trusts their fields.
        self.trusted: frozenset[int] = frozenset()


def make_env(
    cluster: Cluster | None = None,
    selected: Iterable[Any] = (),
    models: Mapping[str, Any] | None = None,
    strict: bool = True,
    variables: Mapping[str, Any] | None = None,
) -> Env:
    """Build the evaluation context: the selection, the models, ``strict``."""
    # Standard models not supplied are empty (the evaluator never mutates them).
    all_models: dict[str, Any] = dict(_BASE_MODELS)
    if cluster is not None:
        if type(cluster) is not Cluster and not isinstance(cluster, Cluster):
            raise ToskitError(
                f"cluster must be a toskit.conditions.Cluster, got {type(cluster).__name__}"
            )
        if cluster._models:
            all_models.update(cluster._models)
    if models:
        if not isinstance(models, Mapping):
            raise ToskitError(f"models must be a mapping of model name to mapping, got {models!r}")
        for name in models:
            if not isinstance(name, str):
                raise ToskitError(f"model names must be strings, got {name!r}")
        all_models.update(models)
    elif models is not None and not isinstance(models, Mapping):
        raise ToskitError(f"models must be a mapping of model name to mapping, got {models!r}")
    if cluster is not None:
        all_models["cluster"] = cluster._model
        nodes = cluster.select(selected)
    else:
        if isinstance(selected, (str, bytes, Mapping)) or not isinstance(selected, Iterable):
            raise ToskitError(f"selected must be a list of node ids, got {selected!r}")
        if list(selected):
            raise ToskitError("nodes can only be selected in a cluster: pass cluster=Cluster(...)")
        nodes = []
    if variables is not None and not isinstance(variables, Mapping):
        raise ToskitError(
            f"variables must be a mapping of placeholder name to value, got {variables!r}"
        )
    env = Env(all_models, nodes, dict(variables or {}), bool(strict))
    if cluster is not None:
        env.trusted = frozenset((id(cluster._model["nodes"]), id(nodes)))
    return env


# --------------------------------------------------------------------------- compiler


class _Compiler:
    """Compiles one expression's tree. ``loop_vars`` are the placeholders
    bound by the ``exists`` loops around it (empty outside any loop)."""

    def __init__(self, text: str, loop_vars: frozenset[str]) -> None:
        self.text = text
        self.loop_vars = loop_vars

    # -- errors
    def err(self, kind: str, message: str, position: int) -> ConditionError:
        return ConditionError(kind, message, expression=self.text, position=position)

    # -- entry
    def compile(self, node: Node) -> Fn:
        if self.loop_vars and self._hoistable(node):
            return self._memo(_Compiler(self.text, frozenset()).compile(node))
        return self._compile(node)

    def _hoistable(self, node: Node) -> bool:
        if isinstance(node, (Literal, Placeholder, Variable)):
            return False
        return not (placeholders_of(node) & self.loop_vars)

    @staticmethod
    def _memo(fn: Fn) -> Fn:
        slot = object()

        def memoized(env: Env) -> Any:
            memo = env.memo
            value = memo.get(slot, _MISSING)
            if value is _MISSING:
                value = memo[slot] = fn(env)
            return value

        return memoized

    def _compile(self, node: Node) -> Fn:
        if isinstance(node, Literal):
            value = node.value
            return lambda env: value
        if isinstance(node, (ModelRef, Placeholder, Variable)):
            return self._chain(node, [], lenient=getattr(node, "lenient", False))
        if isinstance(node, Member):
            return self._member(node)
        if isinstance(node, Not):
            operand = self.compile(node.operand)
            return lambda env: not operand(env)
        if isinstance(node, BoolOp):
            return self._boolop(node)
        if isinstance(node, Compare):
            return self._compare(node)
        raise AssertionError(f"unknown node {node!r}")

    # -- references and data members
    def _base(self, node: Node) -> Fn:
        text = self.text
        if isinstance(node, Variable):  # only selectedNodes passes the static check
            return lambda env: env.selected
        if isinstance(node, Placeholder):
            name, pos = node.name, node.start

            def placeholder(env: Env) -> Any:
                value = env.vars.get(name, _MISSING)
                if value is _MISSING:
                    raise ConditionError(
                        "UnboundVariable",
                        f"Placeholder <{name}> is not bound",
                        expression=text,
                        position=pos,
                    )
                return value

            return placeholder
        if isinstance(node, ModelRef):
            model, pos = node.model, node.start
            message = f'No model with name "{model}" defined'

            def model_ref(env: Env) -> Any:
                value = env.models.get(model, _MISSING)
                if value is _MISSING:
                    raise ConditionError("UnknownModel", message, expression=text, position=pos)
                return value

            return model_ref
        return self.compile(node)

    def _chain(
        self,
        base: Node,
        keys: list[tuple[str, int]],
        base_fn: Fn | None = None,
        lenient: bool = False,
    ) -> Fn:
        """``base`` followed by data members ``keys`` (name, end offset).

        A model reference contributes its first key. The whole chain is one
        closure: a missing key is Undefined (strict) or null; with
        ``lenient`` (a ``?`` after the chain) it is null in any mode.
        """
        steps: list[tuple[str, str]] = []
        start = base.start
        if isinstance(base, ModelRef):
            steps.append((base.key, self.text[start : base.end]))
        steps.extend((key, self.text[start:end]) for key, end in keys)
        if base_fn is None:
            base_fn = self._base(base)
        if not steps:
            return base_fn
        text = self.text

        def undefined(label: str) -> ConditionError:
            return ConditionError(
                "Undefined", f"Value of {label} is undefined", expression=text, position=start
            )

        if len(steps) == 1:
            ((key, label),) = steps

            def one(env: Env) -> Any:
                value = base_fn(env)
                if type(value) in DICT_TYPES or isinstance(value, Mapping):
                    found = value.get(key, _MISSING)
                    if found is not _MISSING:
                        return found
                if env.strict and not lenient:
                    raise undefined(label)
                return None

            return one

        def chain(env: Env) -> Any:
            value = base_fn(env)
            for key, label in steps:
                if type(value) in DICT_TYPES or isinstance(value, Mapping):
                    found = value.get(key, _MISSING)
                    if found is not _MISSING:
                        value = found
                        continue
                if env.strict and not lenient:
                    raise undefined(label)
                return None
            return value

        return chain

    def _member(self, node: Member) -> Fn:
        if node.name.startswith("_"):
            return self._special(node)
        # Collect a run of data members down to its base. The run stops at
        # parentheses: `(<n>.id).id` is a chain on top of the parenthesised
        # `<n>.id` (its own chain, starting after the '('), so that an
        # Undefined is reported where the outer chain starts.
        keys: list[tuple[str, int]] = []
        cur: Node = node
        while (
            isinstance(cur, Member)
            and not cur.name.startswith("_")
            and cur.chain_start == node.chain_start
        ):
            keys.append((cur.name, cur.name_pos + len(cur.name)))
            cur = cur.obj
        keys.reverse()
        if isinstance(cur, (ModelRef, Placeholder, Variable)) and cur.start == node.chain_start:
            if isinstance(cur, ModelRef) and cur.lenient:
                # `model:key?` in parentheses, then members: the `?` covers
                # only the inner path.
                return self._chain(cur, keys, base_fn=self.compile(cur), lenient=node.lenient)
            return self._chain(cur, keys, lenient=node.lenient)
        # A chain on top of a special member or a parenthesised expression:
        # compile the inner part on its own; labels start where the chain does.
        return self._chain(cur, keys, base_fn=self.compile(cur), lenient=node.lenient)

    # -- special members
    def _special(self, node: Member) -> Fn:
        recv = self.compile(node.obj)
        checks = _Checks(node.name, self.text, node.name_pos)
        if node.name in _UNCALLED_SPECIALS:
            return _uncalled_special(node.name, recv, checks)
        assert node.args is not None and len(node.args) == 1  # checked statically
        return _called_special(node.name, recv, self._string_arg(node.args[0], checks), checks)

    def _string_arg(self, arg_node: Node, checks: _Checks) -> Fn:
        """The one string argument of a called special member (a constant
        when written as a string literal)."""
        if isinstance(arg_node, Literal) and isinstance(arg_node.value, str):
            constant = arg_node.value
            return lambda env: constant
        arg_fn = self.compile(arg_node)

        def arg(env: Env) -> Any:
            value = arg_fn(env)
            if not isinstance(value, str):
                raise checks.type_error(
                    f"{checks.name!r} expects a string argument, got {type_name(value)}"
                )
            return value

        return arg

    # -- operators
    def _boolop(self, node: BoolOp) -> Fn:
        fns = [self.compile(o) for o in node.operands]
        if node.op == "and":
            if len(fns) == 2:
                a, b = fns
                return lambda env: bool(a(env)) and bool(b(env))

            def all_of(env: Env) -> bool:
                return all(fn(env) for fn in fns)

            return all_of
        if len(fns) == 2:
            a, b = fns
            return lambda env: bool(a(env)) or bool(b(env))

        def any_of(env: Env) -> bool:
            return any(fn(env) for fn in fns)

        return any_of

    def _compare(self, node: Compare) -> Fn:
        op = node.op
        if op in ("in", "not in"):
            return self._membership(node)
        left = self.compile(node.left)
        right = self.compile(node.right)
        if op in ("==", "!="):
            negate = op == "!="
            # Fast path: comparing with a string literal.
            for lit_node, other in ((node.right, left), (node.left, right)):
                if isinstance(lit_node, Literal) and type(lit_node.value) is str:
                    lit = lit_node.value
                    if negate:
                        return lambda env: not (type(v := other(env)) is str and v == lit)
                    return lambda env: type(v := other(env)) is str and v == lit
            if negate:
                return lambda env: not strict_eq(left(env), right(env))
            return lambda env: strict_eq(left(env), right(env))
        pos, text = node.op_pos, self.text
        import operator

        py_op = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]

        def ordering(env: Env) -> bool:
            a = left(env)
            b = right(env)
            if is_number(a) and is_number(b):
                return py_op(a, b)
            raise ConditionError(
                "TypeError",
                f"{op!r} expects numbers, got {type_name(a)} and {type_name(b)}",
                expression=text,
                position=pos,
            )

        return ordering

    def _membership(self, node: Compare) -> Fn:
        negate = node.op == "not in"
        left = self.compile(node.left)
        pos, text, op = node.op_pos, self.text, node.op

        def contains(needle: Any, hay: Any) -> bool:
            if isinstance(hay, (list, tuple)):
                return any(strict_eq(needle, item) for item in hay)
            if isinstance(hay, str):
                if isinstance(needle, str):
                    return needle in hay
                raise ConditionError(
                    "TypeError",
                    f"'{op}' with a string on the right needs a string on the left, got "
                    f"{type_name(needle)}",
                    expression=text,
                    position=pos,
                )
            if isinstance(hay, Mapping):
                if isinstance(needle, str):
                    return needle in hay
                raise ConditionError(
                    "TypeError",
                    f"'{op}' with a mapping on the right tests its keys and needs a string on the "
                    f"left, got {type_name(needle)}",
                    expression=text,
                    position=pos,
                )
            raise ConditionError(
                "TypeError",
                f"'{op}' expects a list, string or mapping on the right, got {type_name(hay)}",
                expression=text,
                position=pos,
            )

        if self.loop_vars and self._hoistable(node.right):
            # Invariant right side: evaluate once, index once (lazily).
            right_plain = _Compiler(text, frozenset()).compile(node.right)
            slot = object()

            def indexed(env: Env) -> bool:
                needle = left(env)
                memo = env.memo
                entry = memo.get(slot)
                if entry is None:
                    hay = right_plain(env)
                    entry = memo[slot] = (hay, build_index(hay))
                hay, index = entry
                if index is not None:
                    return index_contains(index, needle) is not negate
                return contains(needle, hay) is not negate

            return indexed

        right = self.compile(node.right)
        if negate:
            return lambda env: not contains(left(env), right(env))
        return lambda env: contains(left(env), right(env))


def compile_node(text: str, node: Node, loop_vars: frozenset[str] = frozenset()) -> Fn:
    """Compile a parsed tree of ``text`` into a closure ``fn(env)``."""
    return _Compiler(text, loop_vars).compile(node)


# --------------------------------------------------------------------------- public object


class Expression:
    """A compiled expression: ``.text``, ``.evaluate(...)`` (the raw value).

    Build one with :func:`compile_expression`.
    """

    __slots__ = ("text", "node", "_fn", "_loop_fns")

    def __init__(self, text: str, node: Node) -> None:
        self.text = text
        self.node = node
        self._fn = compile_node(text, node)
        self._loop_fns: dict[frozenset[str], Fn] = {}

    @property
    def placeholders(self) -> frozenset[str]:
        """Names of the placeholders (``<name>``) the expression reads."""
        return placeholders_of(self.node)

    def function(self, loop_vars: frozenset[str] = frozenset()) -> Fn:
        """The closure for use inside ``exists`` loops binding ``loop_vars``."""
        if not loop_vars:
            return self._fn
        fn = self._loop_fns.get(loop_vars)
        if fn is None:
            fn = self._loop_fns[loop_vars] = compile_node(self.text, self.node, loop_vars)
        return fn

    def evaluate(
        self,
        cluster: Cluster | None = None,
        selected: Iterable[Any] = (),
        variables: Mapping[str, Any] | None = None,
        models: Mapping[str, Any] | None = None,
        strict: bool = True,
    ) -> Any:
        """Evaluate against ``cluster`` and the ``selected`` node ids; returns
        the raw value (lists as ``list``, mappings as ``dict``, null ``None``)."""
        env = make_env(cluster, selected, models, strict, variables)
        return to_plain(self._fn(env))

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Expression) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


# The cache is bounded by the total length of the cached texts, not by
# their count: a count bound lets a handful of huge expressions (and their
# closures) stay alive for good. Texts longer than _CACHE_ITEM_CHARS are
# compiled but never cached; when the total passes _CACHE_CHARS the oldest
# entries are dropped first (dicts keep insertion order).
_CACHE: dict[tuple[str, str | None], Expression] = {}
# A compiled expression holds about 100 bytes of closures per character of
# text, so 250,000 characters (a thousand ordinary Fuel conditions) keep at
# most some 25 MB alive.
_CACHE_CHARS = 250_000
_CACHE_ITEM_CHARS = 10_000
_cache_size = 0


def compile_expression(text: str, default_model: str | None = None) -> Expression:
    """Parse and compile ``text`` once (cached by text); raises
    ``ConditionError`` for syntax and other static errors.

    ``default_model`` names the model of bare paths (``Compute.vcenter``),
    as fuel-ui's setup wizard read them; without it a bare name is a
    context variable (only ``selectedNodes`` exists)."""
    global _cache_size
    if not isinstance(text, str):
        raise ConditionError("TypeError", f"an expression must be a string, got {type_name(text)}")
    key = (text, default_model)
    found = _CACHE.get(key)
    if found is not None:
        return found
    expr = Expression(text, parse(text, default_model))
    size = len(text) + 1
    if size > _CACHE_ITEM_CHARS:
        return expr
    while _CACHE and _cache_size + size > _CACHE_CHARS:
        oldest = next(iter(_CACHE))
        _cache_size -= len(oldest[0]) + 1
        del _CACHE[oldest]
    _CACHE[key] = expr
    _cache_size += size
    return expr


def cache_chars() -> int:
    """Total length of the expression texts held by the compile cache."""
    return _cache_size


# --------------------------------------------------------------------------- special members

_UNCALLED_SPECIALS = frozenset(
    {"_length", "_pending_deletion", "_pending_addition", "_afterDeployment"}
)


class _Checks:
    """The type checks of one special member (its errors point at its name)."""

    __slots__ = ("name", "text", "pos")

    def __init__(self, name: str, text: str, pos: int) -> None:
        self.name, self.text, self.pos = name, text, pos

    def type_error(self, message: str) -> ConditionError:
        return ConditionError("TypeError", message, expression=self.text, position=self.pos)

    def expect_node(self, value: Any) -> Mapping:
        if type(value) in DICT_TYPES or isinstance(value, Mapping):
            return value
        raise self.type_error(f"{self.name!r} expects a node (a mapping), got {type_name(value)}")

    def expect_nodes(self, value: Any) -> Any:
        if not isinstance(value, (list, tuple)):
            raise self.type_error(f"{self.name!r} expects a list, got {type_name(value)}")
        for item in value:
            if not (type(item) in DICT_TYPES or isinstance(item, Mapping)):
                raise self.type_error(
                    f"{self.name!r} expects a list of nodes, got a list containing "
                    f"{type_name(item)}"
                )
        return value

    def roles_of(self, node_value: Mapping, field: str) -> Any:
        roles = node_value.get(field, ())
        if roles is None:
            return ()
        if not isinstance(roles, (list, tuple)):
            raise self.type_error(
                f"{self.name!r}: the node's {field!r} must be a list, got {type_name(roles)}"
            )
        return roles


def _uncalled_special(name: str, recv: Fn, checks: _Checks) -> Fn:
    """``_length``, ``_pending_deletion``, ``_pending_addition``, ``_afterDeployment``."""
    expect_node, expect_nodes = checks.expect_node, checks.expect_nodes
    if name == "_length":

        def length(env: Env) -> Any:
            value = recv(env)
            if isinstance(value, (list, tuple, str, Mapping)):
                return len(value)
            raise checks.type_error(
                f"'_length' expects a list, string or mapping, got {type_name(value)}"
            )

        return length
    if name == "_pending_deletion":
        return lambda env: bool(expect_node(recv(env)).get("pending_deletion", False))
    if name == "_pending_addition":
        return lambda env: bool(expect_node(recv(env)).get("pending_addition", False))
    return lambda env: [n for n in expect_nodes(recv(env)) if not n.get("pending_deletion", False)]


def _called_special(name: str, recv: Fn, arg: Fn, checks: _Checks) -> Fn:
    """``_pluck``, ``_hasRole``, ``_hasDeployedRole``, ``_withRole`` (one
    string argument). Written for speed: ``_hasRole`` runs once per node in
    an ``exists`` loop, so the checks are bound to locals."""
    expect_node, expect_nodes, roles_of = checks.expect_node, checks.expect_nodes, checks.roles_of
    if name == "_pluck":

        def pluck(env: Env) -> Any:
            items = recv(env)
            if not isinstance(items, (list, tuple)):
                raise checks.type_error(f"'_pluck' expects a list, got {type_name(items)}")
            key = arg(env)
            out = []
            for item in items:
                if type(item) in DICT_TYPES or isinstance(item, Mapping):
                    out.append(item.get(key))
                else:
                    raise checks.type_error(
                        "'_pluck' expects a list of mappings, got a list containing "
                        f"{type_name(item)}"
                    )
            return out

        return pluck
    if name == "_hasRole":

        def has_role(env: Env) -> Any:
            n = recv(env)
            if type(n) not in DICT_TYPES:
                n = expect_node(n)
            role = arg(env)
            return role in roles_of(n, "roles") or role in roles_of(n, "pending_roles")

        return has_role
    if name == "_hasDeployedRole":

        def has_deployed_role(env: Env) -> Any:
            n = expect_node(recv(env))
            return arg(env) in roles_of(n, "roles")

        return has_deployed_role
    if name == "_withRole":

        def with_role(env: Env) -> Any:
            nodes = expect_nodes(recv(env))
            role = arg(env)
            return [
                n
                for n in nodes
                if role in roles_of(n, "roles") or role in roles_of(n, "pending_roles")
            ]

        return with_role
    raise AssertionError(f"special member {name} passed the static check")  # pragma: no cover
