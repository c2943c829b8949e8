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

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from toskit import functions
from toskit.diagnostics import Diagnostic, did_you_mean
from toskit.functions import Call
from toskit.sentinels import NO_DEFAULT
from toskit.tosca.check import CheckContext, check_value
from toskit.tosca.resolve import Layer, Origin

if TYPE_CHECKING:
    from toskit.tosca.loader import _Build

__all__ = ["InputResolver"]


class InputResolver:
    """Input values of one load, and ``get_input`` evaluation during the merge."""

    def __init__(self, build: _Build, raw: Any, parts: tuple[Hashable, ...]) -> None:
        self.build = build
        self.doc = build.doc
        self.parts = parts
        self.diagnostics: list[Diagnostic] = []
        self.definitions: dict[str, Any] = (
            {str(k): v for k, v in raw.items()} if isinstance(raw, Mapping) else {}
        )
        self.values: dict[str, Any] = {}
        self.types: dict[str, str] = {}
        passed = build.passed_inputs
        for name, definition in self.definitions.items():
            d = definition if isinstance(definition, Mapping) else {}
            if isinstance(d.get("type"), str):
                self.types[name] = d["type"]
            if name in passed:
                value = passed[name]
                self._check(name, d, value)
            elif "value" in d:
                value = build.parse_value(d["value"], self.doc, (*parts, name, "value"))
            elif "default" in d:
                value = build.parse_value(d["default"], self.doc, (*parts, name, "default"))
            else:
                value = NO_DEFAULT
                self._report_missing(name, d)
            self.values[name] = value
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
                        hint=did_you_mean(str(name), list(self.definitions)),
                    )
                )
                self.values[str(name)] = passed[name]

    def _report_missing(self, name: str, definition: Mapping) -> None:
        """One ``missing-input`` for a declared input with no value and no default."""
        required = definition.get("required", True) is not False
        if self.build.inputs_given and required:
            severity = "error"
            message = (
                f"input '{name}' has no value and no default, and the inputs given "
                "do not supply it"
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

    def _check(self, name: str, definition: Mapping, value: Any) -> None:
        type_name = definition.get("type")
        if type_name is None:
            return
        b = self.build
        schema = b.registry.schema_def(definition, self.doc, (*self.parts, name), None, [])
        ctx = CheckContext(
            label=f"input '{name}'",
            path_prefix=self.parts,
            doc=self.doc,
            anchor=(*self.parts, name),
            origins={(name,): Origin(f"input: {name}", self.doc, (*self.parts, name))},
            value_type=b.value_type,
            diagnostics=self.diagnostics,
            reported=b.reported,
            noun="",
            scalar_info=b.scalar_info,
            rfc3339_timestamps=b.grammar.major == 2,
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
