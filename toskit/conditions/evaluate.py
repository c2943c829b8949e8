"""``toskit.conditions.evaluate``: one condition (or rule list) on a cluster."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toskit.conditions.cluster import Cluster
from toskit.conditions.expression import make_env
from toskit.conditions.forms import MAX_TREE_DEPTH, ConditionCompiler, Rules
from toskit.conditions.results import Outcome
from toskit.conditions.syntax import token_span
from toskit.diagnostics import Subject
from toskit.errors import ConditionError, TemplateError
from toskit.records import replace

__all__ = ["evaluate", "compile_for_evaluate"]

#: The name a condition given as text has in findings (its "file").
CONDITION_NAME = "<condition>"


def _as_condition(condition: Any) -> tuple[Any, Any]:
    """The condition and, for YAML text, its loaded document. A ``str`` is
    YAML: a mapping or list is the condition; otherwise (a scalar, or
    one-line text that is not valid YAML) the stripped text is one
    expression (and no document). Multi-line text that is not valid YAML is
    a TemplateError."""
    if not isinstance(condition, str):
        return condition, None
    from toskit.source import load_yaml

    doc = load_yaml(condition, name=CONDITION_NAME)
    errors = [d for d in doc.diagnostics if d.severity == "error"]
    if not errors and isinstance(doc.value, (Mapping, list)):
        return doc.value, doc
    if errors and "\n" in condition.strip():
        raise TemplateError.from_diagnostics(
            errors, header=f"{CONDITION_NAME}: the condition is not valid YAML"
        )
    return condition.strip(), None


def _root(value: Any) -> tuple:
    return ("conditions",) if isinstance(value, (list, tuple)) else ("condition",)


def compile_for_evaluate(condition: Any) -> Rules:
    """Check and compile what :func:`evaluate` receives, as top-level rules."""
    value, _doc = _as_condition(condition)
    return ConditionCompiler().rules(value, _root(value))


def evaluate(
    condition: Any,
    cluster: Cluster | None = None,
    *,
    selected: Iterable[Any] = (),
    models: Mapping[str, Any] | None = None,
    strict: bool = True,
) -> Outcome:
    """Evaluate one condition as a top-level rule list (a rule whose guard
    fails and that has no ``else`` does not apply).

    ``condition`` is a bool, a mapping, a list of rules, or a ``str`` (YAML
    text, or one expression). Static errors raise before anything is
    evaluated.

    A ``ConditionError``'s ``diagnostic`` has the subject
    ``Subject("condition", None, path)`` (``path`` inside the condition:
    ``("all", 1)``; ``()`` for the condition itself) and, for a condition
    given as text (its file is ``<condition>``), the range of the offending
    token in that text.
    """
    value, doc = _as_condition(condition)
    compiler = ConditionCompiler()
    try:
        rules = compiler.rules(value, _root(value))
        env = make_env(cluster, selected, models, strict)
        trace = rules.trace(env)
    except ConditionError as err:
        raise _located(err, condition, value, doc, compiler) from None
    return Outcome(trace.value, trace.warnings, trace)


def _located(
    err: ConditionError, text: Any, value: Any, doc: Any, compiler: ConditionCompiler
) -> ConditionError:
    """``err`` with a subject and, for text, a range: a static error is at
    the parts the compiler failed at; an error raised while evaluating, at
    the first place the expression is written."""
    parts = compiler.failed_at
    if parts is None and err.expression is not None:
        parts = _find(value, err.expression, _root(value), 0)
    base = err.diagnostic
    if not base.path and parts is not None:  # raised while evaluating: name the place
        base = replace(base, path=compiler.label(parts))
    subject = Subject("condition", None, tuple(parts[1:]) if parts else ())
    if doc is not None and parts is not None:
        from toskit.conditions.check import locate

        located = locate(doc, err, tuple(parts[1:]), compiler.failed_rename, subject)
        err.diagnostic = replace(located, path=base.path)
    elif isinstance(text, str) and err.expression is not None and err.expression == value:
        err.diagnostic = replace(base, subject=subject, **_span_in(text, err))
    else:
        err.diagnostic = replace(base, subject=subject)
    return err


def _span_in(text: str, err: ConditionError) -> dict[str, Any]:
    """The range of ``err``'s token in ``text`` (the condition given as one
    expression, its surrounding blanks stripped)."""
    lead = len(text) - len(text.lstrip())
    position = err.position or 0
    start, end = token_span(err.expression or "", position)

    def line_column(offset: int) -> tuple[int, int]:
        line_start = text.rfind("\n", 0, offset) + 1
        return text.count("\n", 0, offset) + 1, offset - line_start + 1

    line, column = line_column(lead + start)
    end_line, end_column = line_column(lead + end)
    source = text.split("\n")[line - 1]
    return {
        "file": CONDITION_NAME,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "source_line": source,
    }


def _find(value: Any, expression: str, parts: tuple, depth: int) -> tuple | None:
    """The parts of the first place ``expression`` is written in ``value``."""
    if value == expression:
        return parts
    if depth > MAX_TREE_DEPTH:  # deeper than the compiler accepts: not there
        return None
    items: Iterable[tuple[Any, Any]] = ()
    if isinstance(value, Mapping):
        items = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    for key, child in items:
        found = _find(child, expression, (*parts, key), depth + 1)
        if found is not None:
            return found
    return None
