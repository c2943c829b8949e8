"""Topology inputs: their values, and ``get_input`` substitution with provenance.

Input values come from the caller (``load(..., inputs=...)``), else the
declared ``default`` (or 2.0 ``value``); a declared input with neither has
the value :data:`toskit.NO_DEFAULT` in ``ServiceTemplate.inputs``.

:meth:`InputResolver.substitute` replaces a 1.x ``{get_input: name}`` /
2.0 ``{$get_input: name}`` value (also ``[name, step…]``) by the input's
value, with the origin ``input: <name>`` so that the property table shows
where the value came from. A call that cannot be evaluated stays as
written and is reported (``function-error``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, did_you_mean
from toskit.sentinels import NO_DEFAULT
from toskit.tosca.check import CheckContext, check_value
from toskit.tosca.resolve import Layer, Origin

if TYPE_CHECKING:
    from toskit.tosca.loader import _Build

__all__ = ["InputResolver"]


class InputResolver:
    """Input values of one load, and ``get_input`` evaluation."""

    def __init__(self, build: _Build, raw: Any, parts: tuple[Hashable, ...]) -> None:
        self.build = build
        self.doc = build.doc
        self.parts = parts
        self.diagnostics: list[Diagnostic] = []
        self.definitions: dict[str, Any] = dict(raw) if isinstance(raw, Mapping) else {}
        self.key = "$get_input" if build.grammar.major == 2 else "get_input"
        self.values: dict[str, Any] = {}
        passed = build.passed_inputs
        for name, definition in self.definitions.items():
            d = definition if isinstance(definition, Mapping) else {}
            if name in passed:
                value = passed[name]
                self._check(name, d, value)
            elif "value" in d:
                value = d["value"]
            elif "default" in d:
                value = d["default"]
            else:
                value = NO_DEFAULT
            self.values[str(name)] = value
        for name in passed:
            if name not in self.definitions:
                self.diagnostics.append(
                    self.doc.diagnostic(
                        "warning",
                        "unknown-input",
                        f"input '{name}' was given but the template does not declare it",
                        parts if self.definitions else (),
                        hint=did_you_mean(str(name), [str(k) for k in self.definitions]),
                    )
                )
                self.values[str(name)] = passed[name]

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
        )
        check_value(ctx, value, schema, b.value_type(type_name, None), (name,))

    # -- get_input ---------------------------------------------------------------

    def _call_args(self, value: Any) -> Any:
        if isinstance(value, Mapping) and len(value) == 1:
            ((key, arg),) = value.items()
            if key == self.key:
                return arg
        return _NOT_A_CALL

    def substitute(self, value: Any, origin: Origin, deep: bool) -> Layer:
        """Evaluate ``get_input`` at the top of ``value`` (and inside it when ``deep``)."""
        arg = self._call_args(value)
        if arg is not _NOT_A_CALL:
            return self._evaluate(value, arg, origin)
        if deep and isinstance(value, (Mapping, list)):
            return self._deep(value, origin), origin
        return value, origin

    def _deep(self, value: Any, origin: Origin) -> Any:
        if isinstance(value, Mapping):
            if self._call_args(value) is not _NOT_A_CALL:
                return self.substitute(value, origin, True)[0]
            return {k: self._deep(v, origin.child(k)) for k, v in value.items()}
        if isinstance(value, list):
            return [self._deep(v, origin.child(i)) for i, v in enumerate(value)]
        return value

    def _evaluate(self, call: Any, arg: Any, origin: Origin) -> Layer:
        steps: list[Any] = []
        if isinstance(arg, list) and arg:
            name, steps = arg[0], list(arg[1:])
        else:
            name = arg
        if not isinstance(name, str):
            return self._fail(
                call, origin, "ArgType", f"the input name must be a string, got {name!r}"
            )
        if name not in self.values:
            hint = did_you_mean(name, self.values)
            return self._fail(call, origin, "UnknownInput", f"no input named '{name}'", hint)
        result = self.values[name]
        if result is NO_DEFAULT:
            # Declared but not given: the deployer supplies it. The call stays
            # unevaluated (shown as a call), which is not an error.
            return _as_call(call, self.key), origin
        for step in steps:
            if (
                isinstance(result, Mapping)
                and isinstance(step, str)
                and step in result
                or (
                    isinstance(result, list)
                    and isinstance(step, int)
                    and not isinstance(step, bool)
                    and 0 <= step < len(result)
                )
            ):
                result = result[step]
            else:
                return self._fail(
                    call, origin, "PathError", f"input '{name}' has no entry {step!r}"
                )
        return result, Origin(f"input: {name}", origin.doc, origin.parts)

    def _fail(
        self, call: Any, origin: Origin, kind: str, detail: str, hint: str | None = None
    ) -> Layer:
        message = f"get_input: {kind}: {detail}"
        if origin.doc is not None:
            self.diagnostics.append(
                origin.doc.diagnostic("error", "function-error", message, origin.parts, hint=hint)
            )
        return _as_call(call, self.key), origin


def _as_call(value: Any, key: str) -> Any:
    """The failed call as a ``functions.Call`` (kept in place, shown as a call)."""
    try:
        from toskit.functions import Call  # type: ignore[attr-defined]
    except ImportError:
        return value
    ((_, arg),) = value.items()
    args = arg if isinstance(arg, list) else [] if arg is None else [arg]
    return Call("get_input", args)


class _NotACall:
    pass


_NOT_A_CALL = _NotACall()
