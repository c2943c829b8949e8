"""Topology inputs: their values, and ``get_input`` during the merge.

Input values come from the caller (``load(..., inputs=...)``), else the
declared ``default`` (or 2.0 ``value``); a declared input with neither has
the value :data:`toskit.NO_DEFAULT` in ``ServiceTemplate.inputs``.

Checking a template is not deploying it: such an input is reported once as
``missing-input``, severity ``info`` when the caller gave no ``inputs``
(it must be supplied at deployment) and ``error`` when the caller gave an
``inputs`` mapping that lacks a required input (they asked for a resolved
template). Either way its ``get_input`` calls stay unevaluated ``Call``
objects (the evaluation runs with ``defer_missing_inputs``), and type checks
and validation skip values holding them, as for other static calls.

:meth:`InputResolver.resolve` replaces a parsed ``get_input`` call (1.x
``{get_input: name}``, 2.0 ``{$get_input: name}``, also ``[name, step…]``)
by the input's value *during the merge*, with the origin ``input: <name>``,
so that a data-typed input merges field by field and the property table
shows where each value came from. A call it cannot resolve is left alone:
the evaluation pass (``toskit.functions``) evaluates or reports it.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from toskit import functions
from toskit.diagnostics import Diagnostic
from toskit.functions import Call
from toskit.sentinels import NO_DEFAULT
from toskit.tosca.values.check import CheckContext, check_value
from toskit.tosca.values.evaluation import parse_value, validate_clauses
from toskit.tosca.values.resolve import Layer, Origin, copy_data

if TYPE_CHECKING:
    from toskit.tosca.load.context import InputsContext

__all__ = ["InputResolver"]

# How many inputs a chain of get_input defaults may pass through (keeps the
# resolution's recursion far below Python's limit).
_MAX_INPUT_CHAIN = 200


class InputResolver:
    """Input values of one load, and ``get_input`` evaluation during the merge."""

    def __init__(self, ctx: InputsContext, raw: Any, parts: tuple[Hashable, ...]) -> None:
        # The load's context; dropped by ``release`` once loading is done.
        self.build: InputsContext | None = ctx
        self.inputs_given = ctx.inputs_given
        self.doc = ctx.doc
        self.parts = parts
        self.diagnostics: list[Diagnostic] = []
        self.definitions: dict[str, Any] = (
            {str(k): v for k, v in raw.items()} if isinstance(raw, Mapping) else {}
        )
        self.values: dict[str, Any] = {}
        self.types: dict[str, str] = {}
        # Where an input's value or default is written (for get_input among inputs).
        self._written_at: dict[str, tuple[Hashable, ...]] = {}
        passed = ctx.passed_inputs
        for name, definition in self.definitions.items():
            d = definition if isinstance(definition, Mapping) else {}
            if isinstance(d.get("type"), str):
                self.types[name] = d["type"]
            if name in passed:
                value = passed[name]
                self._check(name, d, value)
            elif "value" in d:
                value = parse_value(ctx, d["value"], self.doc, (*parts, name, "value"))
                self._written_at[name] = (*parts, name, "value")
            elif "default" in d:
                value = parse_value(ctx, d["default"], self.doc, (*parts, name, "default"))
                self._written_at[name] = (*parts, name, "default")
            else:
                value = NO_DEFAULT
                self._report_missing(name, d)
            self.values[name] = value
        self._resolve_input_references()
        for name, at in self._written_at.items():
            # A default (or 2.0 value) must fit the input's own definition too.
            self._check(name, self.definitions[name], self.values[name], at)
        # An input default may itself be a call (rare): then any property may hold one.
        self.has_calls = any(functions.contains_call(v) for v in self.values.values())
        for name in passed:
            if name not in self.definitions:
                self.diagnostics.append(
                    self.doc.diagnostic(
                        "warning",
                        "unknown-input",
                        f"input '{name}' was given but the template does not declare it",
                        parts if self.definitions else (),
                        misspelt=str(name),
                        candidates=list(self.definitions),
                    )
                )
                self.values[str(name)] = passed[name]

    # -- get_input among input defaults -------------------------------------

    def _resolve_input_references(self) -> None:
        """Replace ``get_input`` calls in input defaults by the inputs' values.

        ``inputs: {url: {default: {get_input: host}}}`` takes ``host``'s value
        (after ``host``'s own references). A cycle (``a`` -> ``b`` -> ``a``)
        is a ``function-error`` naming it, like a ``get_property`` cycle, and
        its calls stay unevaluated; other functions are left to the
        evaluation pass.
        """
        self._done: set[str] = set()
        self._cycles_reported: set[frozenset[str]] = set()
        for name in list(self._written_at):
            self._resolve_input(name, [])

    def _resolve_input(self, name: str, stack: list[str]) -> None:
        if name in self._done or name not in self._written_at:
            return
        value = self.values[name]
        if functions.contains_call(value):
            stack.append(name)
            self.values[name] = self._substitute(value, stack, self._written_at[name])
            stack.pop()
        self._done.add(name)

    def _substitute(self, value: Any, stack: list[str], parts: tuple[Hashable, ...]) -> Any:
        if isinstance(value, Call):
            return self._input_reference(value, stack, parts)
        if value.__class__ is dict:
            return {k: self._substitute(v, stack, (*parts, k)) for k, v in value.items()}
        if value.__class__ is list:
            return [self._substitute(v, stack, (*parts, i)) for i, v in enumerate(value)]
        return value

    def _input_reference(self, call: Call, stack: list[str], parts: tuple[Hashable, ...]) -> Any:
        """The value a ``get_input`` in an input default refers to (the call if unknown yet)."""
        if call.name != "get_input" or call.namespace is not None:
            return call
        args = call.args
        if not args or not isinstance(args[0], str) or args[0] not in self.values:
            return call  # the evaluation pass reports a bad or unknown input
        target = args[0]
        if target in stack:
            self._report_cycle([*stack[stack.index(target) :], target], parts)
            return call
        if len(stack) >= _MAX_INPUT_CHAIN:
            self.diagnostics.append(
                self.doc.diagnostic(
                    "error",
                    "limit-exceeded",
                    f"get_input: inputs refer to each other more than {_MAX_INPUT_CHAIN} deep; "
                    "the rest is left unevaluated",
                    parts,
                )
            )
            return call
        self._resolve_input(target, stack)
        result = self.values[target]
        if result is NO_DEFAULT or functions.contains_call(result):
            return call
        for step in args[1:]:
            if not _has_step(result, step):
                return call  # the evaluation pass reports the bad step
            result = result[step]
        return copy_data(result)

    def _report_cycle(self, cycle: list[str], parts: tuple[Hashable, ...]) -> None:
        key = frozenset(cycle)
        if key in self._cycles_reported:
            return  # one diagnostic per cycle, at the input where it closes
        self._cycles_reported.add(key)
        names = " -> ".join(f"input '{n}'" for n in cycle)
        self.diagnostics.append(
            self.doc.diagnostic(
                "error",
                "function-error",
                f"get_input: PathError: reference cycle: {names}",
                parts,
                hint="give one of these inputs a plain default, or a value when loading",
            )
        )

    def _report_missing(self, name: str, definition: Mapping) -> None:
        """One ``missing-input`` for a declared input with no value and no default."""
        required = definition.get("required", True) is not False
        if self.inputs_given and required:
            severity = "error"
            message = (
                f"input '{name}' has no value and no default, and the inputs given do not supply it"
            )
            hint = f"pass inputs={{'{name}': ...}}"
        elif required:
            severity = "info"
            message = (
                f"input '{name}' has no value and no default; it must be supplied at deployment"
            )
            hint = None
        else:
            severity = "info"
            message = f"optional input '{name}' has no value and no default"
            hint = None
        self.diagnostics.append(
            self.doc.diagnostic(
                severity, "missing-input", message, (*self.parts, name), hint=hint, at_key=True
            )
        )

    def _check(
        self, name: str, definition: Any, value: Any, at: tuple[Hashable, ...] | None = None
    ) -> None:
        """``value`` against the input's type, constraints and validation clause."""
        type_name = definition.get("type") if isinstance(definition, Mapping) else None
        if type_name is None or value is NO_DEFAULT:
            return
        b = self.build
        assert b is not None, "inputs are checked while loading"
        schema = b.registry.schema_def(definition, self.doc, (*self.parts, name), None, [])
        ctx = CheckContext(
            label=f"input '{name}'",
            path_prefix=self.parts,
            doc=self.doc,
            anchor=(*self.parts, name),
            origins={(name,): Origin(f"input: {name}", self.doc, at or (*self.parts, name))},
            value_type=b.value_type,
            diagnostics=self.diagnostics,
            reported=b.reported,
            noun="",
            scalars=b.scalars,
            rfc3339_timestamps=b.grammar.major == 2,
            validator=functools.partial(validate_clauses, b) if b.grammar.major == 2 else None,
        )
        check_value(ctx, value, schema, b.value_type(type_name, None), (name,))

    def resolve(self, value: Any, origin: Origin) -> Layer:
        """``value`` with a top-level resolvable ``get_input`` replaced by the input's value."""
        if not (isinstance(value, Call) and value.name == "get_input" and value.namespace is None):
            return value, origin
        args = value.args
        if not args or not isinstance(args[0], str):
            return value, origin
        name = args[0]
        result = self.values.get(name, NO_DEFAULT)
        if result is NO_DEFAULT or isinstance(result, Call):
            return value, origin
        for step in args[1:]:
            if not _has_step(result, step):
                return value, origin  # the evaluation pass reports the bad step
            result = result[step]
        return result, Origin(f"input: {name}", origin.doc, origin.parts)


def _has_step(value: Any, step: Any) -> bool:
    """Whether ``value[step]`` is a valid get_input step (map key or list index)."""
    if isinstance(value, Mapping):
        return isinstance(step, str) and step in value
    if isinstance(value, list):
        return isinstance(step, int) and not isinstance(step, bool) and 0 <= step < len(value)
    return False
