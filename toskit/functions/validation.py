"""Validation clauses (2.0) and constraints (1.x), and the loader's helper to run them.

* :func:`validate` checks a value against a validation clause: ``None`` when
  true, a ``FunctionError`` (``ValidationFailed`` …) when not.
* :func:`constraint_clause` turns one 1.x constraint (``{in_range: [1, 5]}``)
  into a validation clause over ``$value`` built from the comparison
  built-ins (§4.4), so both run on the same machinery.
* :func:`check_value` runs a property's clauses and constraints and returns
  diagnostics (``validation-failed``, ``constraint-violation``,
  ``function-error``, ``invalid-constraint``), skipping a value that still
  holds an unevaluated call.

A clause that itself stays unevaluated (it reads an attribute known only at
runtime) cannot be decided statically: it is skipped, not reported.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from toskit.diagnostics import Diagnostic, Subject, did_you_mean, format_path
from toskit.errors import FunctionError, FunctionSyntaxError, ToskitError
from toskit.functions.errors import function_error
from toskit.functions.evaluate import Evaluation
from toskit.functions.notation import (
    Call,
    DiagnosticFactory,
    _call_text,
    _flow,
    _render,
    contains_call,
    parse,
)
from toskit.functions.registry import CONSTRAINT_OPERATORS  # re-exported: defined there (#31)
from toskit.values import UNBOUNDED

__all__ = ["CONSTRAINT_OPERATORS", "check_value", "constraint_clause", "run_clause", "validate"]


SHOWN_CHARS = 300
"""Messages show a value or clause up to this many characters (then ``…``)."""


def _show(tree: Any) -> str:
    """A tree in 2.0 flow notation for a message (iterative, so any depth; abbreviated)."""
    if isinstance(tree, Call):
        return _call_text(tree, max_chars=SHOWN_CHARS)
    return _render(tree, tree=True, max_chars=SHOWN_CHARS)


def run_clause(ev: Evaluation, clause: Any) -> Any:
    """Evaluate a clause in an environment whose ``$value`` is bound; returns its result."""
    try:
        return ev.eval(clause)  # data without recursion; calls bounded by max_depth (evaluate.py)
    except RecursionError:
        call = clause if isinstance(clause, Call) else None
        raise function_error("LimitExceeded", "the clause is nested too deeply", call) from None


def _decide(result: Any, clause: Any, value: Any) -> None:
    function = clause if isinstance(clause, Call) else None
    if result is True or isinstance(result, Call):
        return
    if result is False:
        raise function_error(
            "ValidationFailed", f"value {_show(value)} fails {_show(clause)}", function
        )
    raise function_error(
        "ValidationNotBoolean",
        f"the clause {_show(clause)} gave {_show(result)}, not a boolean",
        function,
        hint=None
        if contains_call(clause)
        else (
            "the clause holds no function call: validate() takes a parsed clause "
            "(functions.parse(...)), or pass raw=True for YAML data"
        ),
    )


def validate(
    clause: Any,
    value: Any,
    *,
    inputs: Mapping[str, Any] | None = None,
    version: str = "2.0",
    value_type: str | None = None,
    context: Any = None,
    self_entity: Any = None,
    raw: bool = False,
) -> None:
    """Check ``value`` against a parsed clause (``$value`` bound to it).

    ``None`` when the clause is true (or cannot be decided statically);
    ``FunctionError`` of kind ``ValidationFailed`` when false,
    ``ValidationNotBoolean`` when not a boolean; errors inside the clause
    propagate with their own kind.

    ``clause`` is a tree that came out of :func:`parse` and is evaluated as
    it is: it is never parsed a second time, so a literal it holds (the
    string ``"$value"`` that ``"$$value"`` parses to, a ``"$k"`` key) stays
    literal. For convenience, ``raw=True`` takes the clause as written in
    YAML and parses it first (in ``version``), so
    ``validate({"$greater_than": ["$value", 1]}, 5, raw=True)`` works; a
    malformed call then raises ``FunctionSyntaxError``.
    """
    if raw:
        clause = parse(clause, version)
    ev = Evaluation(
        inputs=inputs,
        value=value,
        value_type=value_type,
        version=version,
        context=context,
        self_entity=self_entity,
    )
    _decide(run_clause(ev, clause), clause, value)


def constraint_clause(constraint: Any, version: str = "1.3") -> Call:
    """The validation clause of one 1.x constraint; ``ToskitError`` for a bad constraint.

    ``{greater_than: 5}`` → ``$greater_than: [$value, 5]``; ``in_range: [a, b]``
    → ``$and`` of ``≥ a`` and ``≤ b`` (just ``≥ a`` for ``UNBOUNDED``);
    ``length``/``min_length``/``max_length`` compare ``$length`` of the value;
    ``pattern`` must match the whole string. The argument is parsed in
    ``version`` (so a 1.x ``get_input`` inside a constraint works).
    """
    if not isinstance(constraint, Mapping) or len(constraint) != 1:
        raise ToskitError(f"a constraint is a map with one operator, not {_flow(constraint)}")
    ((operator, raw),) = constraint.items()
    if operator not in CONSTRAINT_OPERATORS:
        hint = did_you_mean(str(operator), CONSTRAINT_OPERATORS)
        raise ToskitError(
            f"unknown constraint operator '{operator}'" + (f" ({hint})" if hint else "")
        )
    arg = parse(raw, version)
    value = Call("value", [], form="bare")
    if operator in ("equal", "greater_than", "greater_or_equal", "less_than", "less_or_equal"):
        return Call(operator, [value, arg])
    if operator == "in_range":
        if not isinstance(arg, list) or len(arg) != 2:
            raise ToskitError(f"in_range takes [lower, upper], not {_flow(raw)}")
        lower = Call("greater_or_equal", [value, arg[0]])
        if arg[1] == UNBOUNDED:
            return lower
        return Call("and", [lower, Call("less_or_equal", [value, arg[1]])])
    if operator == "valid_values":
        if not isinstance(arg, list) and not isinstance(arg, Call):
            raise ToskitError(f"valid_values takes a list, not {_flow(raw)}")
        return Call("valid_values", [value, arg])
    if operator in ("length", "min_length", "max_length"):
        compare = {
            "length": "equal",
            "min_length": "greater_or_equal",
            "max_length": "less_or_equal",
        }[operator]
        return Call(compare, [Call("length", [value]), arg])
    # pattern: the whole string must match
    if not isinstance(arg, str):
        raise ToskitError(f"pattern takes a regular expression string, not {_flow(raw)}")
    return Call("matches", [value, rf"\A(?:{arg})\Z"])


def check_value(
    value: Any,
    *,
    validations: Sequence[Any] = (),
    constraints: Sequence[Any] = (),
    value_type: str | None = None,
    inputs: Mapping[str, Any] | None = None,
    version: str = "2.0",
    context: Any = None,
    self_entity: Any = None,
    path: Sequence[Hashable] = (),
    make_diagnostic: DiagnosticFactory | None = None,
    subject: str | None = None,
    defer_missing_inputs: bool = False,
) -> list[Diagnostic]:
    """Run parsed validation clauses and raw 1.x constraints on a resolved value.

    Returns diagnostics located at ``path`` (through ``make_diagnostic``,
    e.g. ``doc.diagnostic``): ``validation-failed`` / ``constraint-violation``
    (messages show the value and the clause or constraint), ``function-error``
    for an error inside a clause, ``invalid-constraint`` for a constraint
    toskit cannot read. ``subject`` (e.g. ``node template 'db': property
    'port'``) prefixes every message. A value holding a ``Call`` is skipped.
    ``defer_missing_inputs``: see :func:`toskit.functions.evaluate`; a clause
    that then stays unevaluated is not reported.
    """
    if contains_call(value):
        return []
    prefix = f"{subject}: " if subject else ""
    out: list[Diagnostic] = []
    parts = tuple(path)

    def report(code: str, message: str, hint: str | None = None, severity: str = "error") -> None:
        if make_diagnostic is not None:
            out.append(make_diagnostic(severity, code, prefix + message, parts, hint=hint))
        else:
            out.append(
                Diagnostic(
                    severity,
                    code,
                    prefix + message,
                    path=format_path(parts),
                    hint=hint,
                    subject=Subject("value", None, parts),
                )
            )

    def check(clause: Any, code: str, failed: Callable[..., str]) -> None:
        """Run one clause; ``code`` and the message ``failed()`` when the value fails it."""
        try:
            _decide(run_clause(ev, clause), clause, value)
        except FunctionError as exc:
            if exc.kind == "ValidationFailed":
                report(code, failed())
            else:
                report("function-error", str(exc), exc.diagnostic.hint if exc.diagnostic else None)

    ev = Evaluation(
        inputs=inputs,
        value=value,
        value_type=value_type,
        version=version,
        context=context,
        self_entity=self_entity,
        defer_missing_inputs=defer_missing_inputs,
    )
    shown = _show(value)
    for clause in validations:
        check(
            clause,
            "validation-failed",
            lambda c=clause: f"value {shown} fails the validation clause {_show(c)}",
        )
    for constraint in constraints:
        if isinstance(constraint, Mapping) and list(constraint) == ["schema"]:
            # TOSCA 1.3's `schema` constraint validates a string against an
            # external schema language; toskit does not interpret it.
            report("unchecked-constraint", "the 'schema' constraint is not checked", None, "info")
            continue
        try:
            clause = constraint_clause(constraint, version if version != "2.0" else "1.3")
        except (ToskitError, FunctionSyntaxError) as exc:
            report("invalid-constraint", str(exc))
            continue
        check(
            clause,
            "constraint-violation",
            lambda c=constraint: f"value {shown} violates the constraint {_flow(c)}",
        )
    return out
