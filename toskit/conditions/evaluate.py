"""``toskit.conditions.evaluate``: one condition (or rule list) on a cluster."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toskit.conditions.cluster import Cluster
from toskit.conditions.expression import make_env
from toskit.conditions.forms import ConditionCompiler, Rules
from toskit.conditions.results import Outcome
from toskit.errors import TemplateError

__all__ = ["evaluate", "compile_for_evaluate"]


def _as_condition(condition: Any) -> Any:
    """A ``str`` is YAML: a mapping or list is the condition; otherwise (a
    scalar, or one-line text that is not valid YAML) the stripped text is one
    expression. Multi-line text that is not valid YAML is a TemplateError."""
    if not isinstance(condition, str):
        return condition
    from toskit.source import load_yaml

    doc = load_yaml(condition, name="<condition>")
    errors = [d for d in doc.diagnostics if d.severity == "error"]
    if not errors and isinstance(doc.value, (Mapping, list)):
        return doc.value
    if errors and "\n" in condition.strip():
        raise TemplateError.from_diagnostics(
            errors, header="<condition>: the condition is not valid YAML"
        )
    return condition.strip()


def compile_for_evaluate(condition: Any) -> Rules:
    """Check and compile what :func:`evaluate` receives, as top-level rules."""
    value = _as_condition(condition)
    root = "conditions" if isinstance(value, (list, tuple)) else "condition"
    return ConditionCompiler().rules(value, (root,))


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
    """
    rules = compile_for_evaluate(condition)
    env = make_env(cluster, selected, models, strict)
    trace = rules.trace(env)
    return Outcome(trace.value, trace.warnings, trace)
