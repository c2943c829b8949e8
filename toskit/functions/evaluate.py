"""Evaluating call trees.

:func:`evaluate` replaces every :class:`Call` of a tree by its result,
rebuilding the maps and lists around it. Calls that cannot be evaluated
statically (§5.3) stay in place as the original ``Call`` object, and so does
every call with an argument that stays unevaluated. Failures raise
``toskit.FunctionError`` for the innermost failing call.

Extra keywords beyond the spec's ``(tree, inputs, value=, version=)``:

``context``, ``self_entity``
    a :class:`~toskit.functions.context.TemplateContext` and the entity
    holding the value (``NodeView`` or ``RelationshipView``); without them,
    graph functions raise ``ContextError``.
``value_type``
    the declared type of ``value`` (``"version"``, ``"timestamp"``…), so
    comparisons read the other operand in that type (§6.1).
``input_types``
    declared input types by name (falls back to ``context.input_type``).
``definitions``
    declared functions (``functions:`` sections) by qualified name; by
    default ``context.function_definitions()``.
``defer_missing_inputs``
    when true, a ``get_input`` of an input whose value is ``NO_DEFAULT``
    stays an unevaluated ``Call`` instead of raising ``InputValueMissing``:
    checking a template is not deploying it (the TOSCA loader passes it and
    reports the input once as ``missing-input``). Default false (§6.3).
``max_depth``
    bound on nested calls, counted across nested evaluations (a
    ``get_property`` that evaluates another property counts); exceeding it is
    a ``FunctionError`` of kind ``LimitExceeded`` (code ``limit-exceeded``).
    It may lower the bound, not raise it: at most ``MAX_CALL_DEPTH`` (50,
    ``toskit.functions._limits``), the nesting that fits in CPython's default
    recursion limit; a larger value counts as 50.
``max_value_size``
    bound on the size of every value a built-in *builds* (``$concat``,
    ``$join``, ``$union``, ``$intersection``, ``$token``): characters of a
    string, or items of a list or map counted through nesting (strings inside
    by their length, a list reached twice counted twice). Checked before the
    value is built, so a ``$concat`` that doubles through ``get_property`` 40
    times is a ``LimitExceeded`` (``limit-exceeded``) at the bound, not a
    ``MemoryError``. Default :data:`DEFAULT_MAX_VALUE_SIZE`.
"""

from __future__ import annotations

import _thread
from collections.abc import Callable, Generator, Mapping
from types import GeneratorType
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.errors import FunctionError
from toskit.functions import registry
from toskit.functions._limits import MAX_CALL_DEPTH
from toskit.functions.errors import Failure, Unevaluated, function_error
from toskit.functions.notation import Call, contains_call, dialect_of
from toskit.plain import drive, kind_of
from toskit.records import record
from toskit.sentinels import ABSENT

__all__ = [
    "ABSENT",
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_VALUE_SIZE",
    "MAX_CALL_DEPTH",
    "Evaluation",
    "Typed",
    "evaluate",
    "evaluate_calls",
    "value_size",
]

#: Bound on nested calls (``max_depth``): the most that fits in CPython's
#: default recursion limit (toskit.functions._limits).
DEFAULT_MAX_DEPTH = MAX_CALL_DEPTH
#: Largest value a built-in may build (characters, or items through nesting):
#: 10 million, about 10-40 MB of text, far above any real property value.
DEFAULT_MAX_VALUE_SIZE = 10_000_000


def value_size(value: Any, budget: int) -> int:
    """Size of ``value`` as ``max_value_size`` counts it, stopping once over ``budget``.

    Strings count their length, lists and maps their items plus the items'
    sizes, anything else 1. Iterative (no recursion) and at most ``budget``
    steps, so measuring a hostile value (aliases nested into an exponential
    expansion) costs no more than the bound.
    """
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, (list, tuple)):
            total += len(item)
            if total > budget:
                return total
            stack.extend(item)
        elif isinstance(item, Mapping):
            total += len(item)
            if total > budget:
                return total
            stack.extend(item.keys())
            stack.extend(item.values())
        else:
            total += 1
        if total > budget:
            return total
    return total


# ABSENT (toskit.sentinels) marks "no ``value=`` was given" (``$value`` is then a ``ContextError``).


@record(frozen=True)
class Typed:
    """A built-in result that carries its declared TOSCA type (for typed operands)."""

    value: Any
    type_name: str | None


_LOCAL = _thread._local()  # threading.local, without importing threading (#31)


def _depth() -> int:
    return getattr(_LOCAL, "depth", 0)


_Walking = Generator[Any, Any, Any]  # yields a step's generator (toskit.plain.drive)


class Evaluation:
    """One evaluation environment: inputs, ``$value``, the template context, options."""

    def __init__(
        self,
        *,
        inputs: Mapping[str, Any] | None = None,
        value: Any = ABSENT,
        value_type: str | None = None,
        version: str = "2.0",
        context: Any = None,
        self_entity: Any = None,
        input_types: Mapping[str, str] | None = None,
        definitions: Mapping[str, Any] | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
        defer_missing_inputs: bool = False,
        max_value_size: int | None = None,
    ) -> None:
        self.inputs = inputs
        self.max_value_size = DEFAULT_MAX_VALUE_SIZE if max_value_size is None else max_value_size
        self.defer_missing_inputs = defer_missing_inputs
        self.value = value
        self.value_type = value_type
        self.dialect = dialect_of(version)
        self.context = context
        self.self_entity = self_entity
        self.input_types = input_types
        if definitions is None and context is not None:
            definitions = context.function_definitions()
        self.definitions: Mapping[str, Any] = definitions or {}
        # Only lowered: deeper calls would not fit in the default recursion limit.
        self.max_depth = min(max_depth, MAX_CALL_DEPTH)

    # -- helpers for built-ins ---------------------------------------------------

    @property
    def lenient(self) -> bool:
        """1.x leniency for ``concat``/``join`` (§4.3)."""
        return self.dialect == "1.x"

    def primitive_type(self, type_name: str | None) -> str | None:
        """The primitive a declared type is or derives from (via the context)."""
        if type_name is None:
            return None
        from toskit.functions.context import PRIMITIVE_TYPES

        if type_name in PRIMITIVE_TYPES:
            return type_name
        if self.context is None:
            return None
        try:
            return self.context.primitive_type(type_name)
        except Exception:  # a broken context must not crash evaluation
            return None

    def type_reader(self, type_name: str | None) -> Any:
        """How a value of a declared type is read in comparisons and arithmetic.

        A :class:`~toskit.values.ScalarClass` when the context knows the type
        as a TOSCA 2.0 scalar type (``TemplateContext.scalar_class``), else
        the primitive type name (or ``None``). A context written before the
        hook was declared (without it) reads no declared scalar types.
        """
        if type_name is None:
            return None
        hook = getattr(self.context, "scalar_class", None)
        if callable(hook):
            try:
                found = hook(type_name)
            except Exception:  # a broken context must not crash evaluation
                found = None
            if found is not None:
                return found
        return self.primitive_type(type_name)

    def input_type(self, name: str) -> str | None:
        if self.input_types and name in self.input_types:
            return self.input_types[name]
        return self.context.input_type(name) if self.context is not None else None

    def with_value(self, value: Any, value_type: str | None = None) -> Evaluation:
        """A copy of this environment with ``$value`` bound (for validation clauses)."""
        clone = object.__new__(Evaluation)
        clone.__dict__.update(self.__dict__)
        clone.value = value
        clone.value_type = value_type
        return clone

    def check_size(self, size: int, what: str) -> None:
        """Refuse to build a value of ``size`` over ``max_value_size`` (``LimitExceeded``)."""
        if size > self.max_value_size:
            raise Failure(
                "LimitExceeded",
                f"{what} would be larger than {self.max_value_size} "
                "(characters, or items counted through nesting)",
                hint="raise the bound with max_value_size=… if this template is trusted",
            )

    def check_value_size(self, value: Any, what: str) -> Any:
        """``value``, after checking its size against ``max_value_size``."""
        self.check_size(value_size(value, self.max_value_size), what)
        return value

    # -- the tree walk ----------------------------------------------------------

    def eval(self, node: Any) -> Any:
        """Evaluate a tree: calls replaced by results, unevaluated calls kept."""
        return self.eval_typed(node)[0]

    def eval_typed(self, node: Any) -> tuple[Any, str | None]:
        """Evaluate and return ``(value, declared type or None)``.

        Data (maps and lists) is walked without Python recursion
        (:func:`toskit.plain.drive`), so data as deep as the depth bound costs
        no frames; only nested *calls* recurse (bounded by ``max_depth``, at
        most :data:`MAX_CALL_DEPTH`, which fits in the default recursion limit).
        """
        if isinstance(node, Call):
            return self.eval_call(node)
        if isinstance(node, (Mapping, list, tuple)):
            return drive(self.eval_step, node), None
        return node, None

    def eval_step(self, node: Any) -> Any:
        """One step of the data walk: a call's result, a scalar, or the
        generator that evaluates a container's items."""
        if isinstance(node, Call):
            return self.eval_call(node)[0]
        if isinstance(node, Mapping):
            return self.eval_map(node)
        if isinstance(node, (list, tuple)):
            return self.eval_items(node)
        return node

    def eval_items(self, node: list | tuple) -> _Walking:
        out = []
        for item in node:
            value = self.eval_step(item)
            if type(value) is GeneratorType:  # only containers wait on the driver
                value = yield value
            out.append(value)
        return out if isinstance(node, list) else tuple(out)

    def eval_map(self, node: Mapping) -> _Walking:
        out: dict[Any, Any] = {}
        for key, item in node.items():
            if isinstance(key, Call):
                new_key = self.eval(key)
                if not isinstance(new_key, Call) and not (
                    new_key is None or isinstance(new_key, (str, int, float, bool))
                ):
                    raise function_error(
                        "ArgType",
                        f"a map key must evaluate to a string, number, boolean or null, "
                        f"not {_kind(new_key)}",
                        key,
                    )
                if not isinstance(new_key, Call) and _has_key(out, new_key):
                    raise function_error(
                        "DuplicateKey",
                        f"the key {new_key!r} appears twice in one map after evaluation",
                        key,
                    )
                key = new_key
            elif _has_key(out, key):
                raise function_error(
                    "DuplicateKey", f"the key {key!r} appears twice in one map after evaluation"
                )
            value = self.eval_step(item)
            if type(value) is GeneratorType:  # only containers wait on the driver
                value = yield value
            out[key] = value
        return out

    def eval_call(self, call: Call) -> tuple[Any, str | None]:
        depth = _depth()
        if depth >= self.max_depth:
            raise function_error(
                "LimitExceeded", f"calls nested deeper than {self.max_depth}", call
            )
        _LOCAL.depth = depth + 1
        try:
            result = self._dispatch(call)
        except Unevaluated:
            return call, None
        except Failure as failure:
            raise function_error(
                failure.kind,
                failure.detail,
                call,
                failure.hint,
                misspelt=failure.misspelt,
                candidates=failure.candidates,
            ) from None
        except RecursionError:
            # Only when the caller itself was already near the limit: calls
            # nested max_depth deep fit in it from 300 frames down.
            raise function_error(
                "LimitExceeded", "the evaluation is nested too deeply", call
            ) from None
        except OverflowError:
            # int → float conversions of huge integers ($sum of 10**400 and 1.5)
            raise function_error(
                "ArgType",
                "a number is beyond the float range (an integer too large "
                "to mix with floating-point numbers)",
                call,
            ) from None
        except ValueError as exc:
            if "digits" not in str(exc):
                raise
            # Python's int/str conversion bound (4300 digits), hit while describing a value
            raise function_error(
                "ArgType",
                "an integer has too many digits to be shown or converted (over 4300)",
                call,
            ) from None
        finally:
            _LOCAL.depth = depth
        if isinstance(result, Typed):
            return result.value, result.type_name
        return result, None

    def args(self, call: Call) -> tuple[list[Any], list[str | None]]:
        """Evaluate a call's arguments left to right; an unevaluated one stops the call."""
        values: list[Any] = []
        types: list[str | None] = []
        for arg in call.args:
            value, type_name = self.eval_typed(arg)
            if contains_call(value):
                raise Unevaluated
            values.append(value)
            types.append(type_name)
        return values, types

    def _dispatch(self, call: Call) -> Any:
        from toskit.functions import builtins

        if call.namespace is None:
            builtin = builtins.lookup(call.name, self.dialect)
            if builtin is not None:
                return builtin(self, call)
        qualified = call.qualified_name
        definition = self.definitions.get(qualified)
        if definition is not None:
            from toskit.functions.signatures import run_declared

            args, types = self.args(call)
            return run_declared(self, definition, args, registry.lookup(qualified))
        func = registry.lookup(qualified)
        if func is not None:
            args, _ = self.args(call)
            return call_python(func, args, qualified)
        known = set(registry.BUILTINS_2_0) | set(self.definitions) | registry.registered_names()
        raise Failure(
            "UnknownFunction",
            f"no function '{qualified}' is built in, declared or registered",
            misspelt=qualified,
            candidates=sorted(known),
        )


def _has_key(mapping: Mapping, key: Any) -> bool:
    try:
        return key in mapping
    except TypeError:  # an unhashable key cannot be present
        return False


def call_python(func: Callable[..., Any], args: list[Any], name: str) -> Any:
    """Run a registered callable; non-toskit exceptions become ``ArgType`` (§1.5)."""
    try:
        return func(*args)
    except FunctionError:
        raise
    except Exception as exc:  # any failure of user code is reported, never leaked
        raise Failure(
            "ArgType", f"the registered function '{name}' failed: {type(exc).__name__}: {exc}"
        ) from None


def _kind(value: Any) -> str:
    """A key's kind (:func:`toskit.plain.kind_of`) in a sentence: ``a
    string``, ``a number``, ``null``."""
    kind = kind_of(value)
    return kind if kind == "null" or kind not in _PLAIN_KINDS else f"a {kind}"


_PLAIN_KINDS = frozenset({"boolean", "number", "string", "list", "map"})


def evaluate(
    tree: Any,
    inputs: Mapping[str, Any] | None = None,
    *,
    value: Any = ABSENT,
    version: str = "2.0",
    context: Any = None,
    self_entity: Any = None,
    value_type: str | None = None,
    input_types: Mapping[str, str] | None = None,
    definitions: Mapping[str, Any] | None = None,
    max_depth: int = DEFAULT_MAX_DEPTH,
    defer_missing_inputs: bool = False,
    max_value_size: int | None = None,
) -> Any:
    """Evaluate a parsed tree to plain data (see the module docstring).

    Raises ``toskit.FunctionError`` (``.kind``, ``.function``,
    ``.diagnostic``) when a call fails; calls that cannot be evaluated
    statically stay in the result as ``Call`` objects.
    """
    env = Evaluation(
        inputs=inputs,
        value=value,
        value_type=value_type,
        version=version,
        context=context,
        self_entity=self_entity,
        input_types=input_types,
        definitions=definitions,
        max_depth=max_depth,
        defer_missing_inputs=defer_missing_inputs,
        max_value_size=max_value_size,
    )
    try:
        return env.eval(tree)
    except RecursionError:  # toskit.plain.TooDeep: data deeper than MAX_DEPTH
        call = tree if isinstance(tree, Call) else None
        raise function_error("LimitExceeded", "the value is nested too deeply", call) from None


class _CallWalker:
    """The walk of :func:`evaluate_calls`: each call evaluated on its own, a
    failing one left in place with its diagnostic reported."""

    def __init__(
        self,
        env: Evaluation,
        diagnostics: list[Diagnostic],
        make_diagnostic: Callable[..., Diagnostic] | None,
    ) -> None:
        self.env = env
        self.diagnostics = diagnostics
        self.make_diagnostic = make_diagnostic

    def report(self, exc: FunctionError, fallback: Call | None) -> None:
        diag = exc.diagnostic
        failing = exc.call or fallback
        parts = failing.path if failing is not None else ()
        if diag is None:
            return
        if self.make_diagnostic is not None:
            # A did-you-mean is made again where it is located, with its fix.
            extra: dict[str, Any] = (
                {"misspelt": exc.misspelt, "candidates": exc.candidates} if exc.misspelt else {}
            )
            diag = self.make_diagnostic(
                diag.severity, diag.code, diag.message, parts, hint=diag.hint, **extra
            )
        self.diagnostics.append(diag)

    def one(self, call: Call) -> Any:
        try:
            return self.env.eval(call)
        except RecursionError:
            self.report(
                function_error("LimitExceeded", "the value is nested too deeply", call), call
            )
        except FunctionError as exc:
            self.report(exc, call)
        return call

    def key(self, key: Call, literal: list[Any], taken: list[Any]) -> Any:
        """A call written as a map key, evaluated: it must give a scalar that
        is not already a key of the map (else it stays the call)."""
        new_key = self.one(key)
        if isinstance(new_key, Call):
            return new_key
        if not (new_key is None or isinstance(new_key, (str, int, float, bool))):
            message = (
                "a map key must evaluate to a string, number, boolean or null, "
                f"not {_kind(new_key)}"
            )
            self.report(function_error("ArgType", message, key), key)
            return key
        if new_key in literal or new_key in taken:
            message = f"the key {new_key!r} appears twice in one map after evaluation"
            self.report(function_error("DuplicateKey", message, key), key)
            return key
        taken.append(new_key)
        return new_key

    def walk_map(self, node: Mapping) -> _Walking:
        literal = [k for k in node if not isinstance(k, Call)]
        taken: list[Any] = []
        out: dict[Any, Any] = {}
        for key, item in node.items():
            new_key = self.key(key, literal, taken) if isinstance(key, Call) else key
            value = self.walk(item)
            if type(value) is GeneratorType:  # only containers wait on the driver
                value = yield value
            out[new_key] = value
        return out

    def walk_list(self, node: list) -> _Walking:
        out = []
        for item in node:
            value = self.walk(item)
            if type(value) is GeneratorType:  # only containers wait on the driver
                value = yield value
            out.append(value)
        return out

    def walk(self, node: Any) -> Any:
        # One step of the data walk (toskit.plain.drive: no Python recursion).
        if isinstance(node, Call):
            return self.one(node)
        if isinstance(node, Mapping):
            return self.walk_map(node)
        if isinstance(node, list):
            return self.walk_list(node)
        return node


def evaluate_calls(
    tree: Any,
    inputs: Mapping[str, Any] | None = None,
    *,
    diagnostics: list[Diagnostic],
    make_diagnostic: Callable[..., Diagnostic] | None = None,
    **options: Any,
) -> Any:
    """Evaluate every top-level call of a tree on its own, as loading does (§5.1, §5.2).

    A call that fails stays in place as its ``Call`` and its diagnostic
    (``function-error``, ``unknown-function``, ``limit-exceeded``,
    ``duplicate-key``) is appended to ``diagnostics``, located through
    ``make_diagnostic`` (signature of ``YamlDocument.diagnostic``) at the
    innermost failing call's ``.path``; the other calls are still evaluated.
    ``options`` are the keywords of :func:`evaluate`.
    """
    walker = _CallWalker(Evaluation(inputs=inputs, **options), diagnostics, make_diagnostic)
    try:
        return drive(walker.walk, tree)
    except RecursionError:  # toskit.plain.TooDeep: data deeper than MAX_DEPTH
        call = tree if isinstance(tree, Call) else None
        raise function_error("LimitExceeded", "the value is nested too deeply", call) from None
