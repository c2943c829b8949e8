"""HTML views of toskit's result objects.

Core result objects get their notebook view through one seam::

    def _repr_html_(self) -> str:
        from toskit.display import to_html
        return to_html(self)

:func:`to_html` picks a view by the object's class, matched by *name and
package* (``("tosca", "ServiceTemplate")``) along its MRO, so this package
never imports the core packages: the views are duck-typed over the public
attributes of the documented objects, and the core packages import ``toskit.display`` only
lazily. Anything without a view gets an escaped ``<pre>`` of its ``repr``.

Every fragment is self-contained: one scoped ``<style>``, no script, no
external resource, a hidden plain-text ``<pre>`` fallback, deterministic
output. Sizes are bounded by :mod:`toskit.display.options`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from toskit.runtime import gc_paused

__all__ = ["HTML", "register", "render_page", "to_html"]

# (package under toskit, class name) -> (module, function). The package is the
# second part of the defining module's name ("toskit.tosca.model.template" → tosca).
_VIEWS: dict[tuple[str, str], tuple[str, str]] = {
    ("tosca", "ServiceTemplate"): ("toskit.display.tosca_views", "service_template_html"),
    ("tosca", "Type"): ("toskit.display.tosca_views", "type_html"),
    ("tosca", "PropertyDefinition"): ("toskit.display.tosca_views", "property_definition_html"),
    ("tosca", "NodeTemplate"): ("toskit.display.tosca_views", "node_template_html"),
    ("tosca", "PropertyTable"): ("toskit.display.tosca_views", "property_table_html"),
    ("tosca", "Explanation"): ("toskit.display.explain_view", "explanation_html"),
    # Capability, relationship, group and policy templates share the node view.
    ("tosca", "EntityTemplate"): ("toskit.display.tosca_views", "node_template_html"),
    ("tosca", "Topology"): ("toskit.display.topology_view", "topology_html"),
    ("schema", "Schema"): ("toskit.display.schema_views", "schema_html"),
    ("schema", "TypeDef"): ("toskit.display.schema_views", "typedef_html"),
    ("schema", "Comparison"): ("toskit.display.schema_views", "comparison_html"),
    ("compare", "TemplateDiff"): ("toskit.display.compare_view", "template_diff_html"),
    ("schema", "MergeResult"): ("toskit.display.schema_views", "merge_result_html"),
    ("functions", "Call"): ("toskit.display.schema_views", "call_html"),
    ("conditions", "RoleSet"): ("toskit.display.conditions_views", "role_set_html"),
    ("conditions", "Role"): ("toskit.display.conditions_views", "role_html"),
    ("conditions", "RoleOutcome"): ("toskit.display.conditions_views", "outcome_html"),
    ("conditions", "Outcome"): ("toskit.display.conditions_views", "outcome_html"),
    ("conditions", "TraceEntry"): ("toskit.display.conditions_views", "trace_entry_html"),
    ("conditions", "Cluster"): ("toskit.display.conditions_views", "cluster_html"),
    ("conditions", "Expression"): ("toskit.display.conditions_views", "expression_html"),
    ("conditions", "Release"): ("toskit.display.conditions_views", "release_html"),
    ("conditions", "LimitsOutcome"): ("toskit.display.conditions_views", "limits_outcome_html"),
    ("diagnostics", "Diagnostic"): ("toskit.display.diagnostics_view", "single_diagnostic_html"),
    ("diagnostics", "DiagnosticList"): ("toskit.display.diagnostics_view", "diagnostics_html"),
}

# Views registered at run time (by class object), checked first.
_REGISTERED: dict[type, Callable[[Any], str]] = {}


def register(cls: type, view: Callable[[Any], str]) -> None:
    """Use ``view(obj) -> html`` for instances of ``cls`` (and subclasses)."""
    _REGISTERED[cls] = view


def _package_of(cls: type) -> str | None:
    parts = cls.__module__.split(".")
    if parts[0] != "toskit" or len(parts) < 2:
        return None
    return parts[1]


def _view_for(obj: Any) -> Callable[[Any], str] | None:
    for cls in type(obj).__mro__:
        if cls in _REGISTERED:
            return _REGISTERED[cls]
        package = _package_of(cls)
        if package is None:
            continue
        target = _VIEWS.get((package, cls.__name__))
        if target is not None:
            module = importlib.import_module(target[0])
            return getattr(module, target[1])
    if isinstance(obj, (list, tuple)) and obj and all(_is_diagnostic(d) for d in obj):
        from toskit.display.diagnostics_view import diagnostics_html

        return diagnostics_html
    return None


def _is_diagnostic(obj: Any) -> bool:
    from toskit.diagnostics import Diagnostic

    return isinstance(obj, Diagnostic)


def fallback_html(obj: Any, note: str | None = None) -> str:
    """An escaped ``<pre>`` of ``repr(obj)`` (bounded), with an optional note."""
    from toskit.display.html import esc, truncate
    from toskit.display.options import get

    try:
        text = repr(obj)
    except Exception as exc:  # noqa: BLE001 - a broken repr must not break display
        text = f"<{type(obj).__name__}: repr failed: {exc}>"
    text = truncate(text, get("display_max_fallback_chars"))
    note_html = f'<div class="toskit-view-error">{esc(note)}</div>' if note else ""
    return f'{note_html}<pre class="toskit-fallback">{esc(text)}</pre>'


@gc_paused  # a heavy view builder: no full collection over the template (#31)
def to_html(obj: Any) -> str:
    """A self-contained HTML fragment for ``obj``.

    A view that fails (an object missing an attribute the view expects)
    degrades to the escaped text fallback, with a note naming the error, so a
    notebook never shows a traceback for a display.
    """
    view = _view_for(obj)
    if view is None:
        return fallback_html(obj)
    try:
        return view(obj)
    except Exception as exc:  # noqa: BLE001 - display must degrade, not raise
        return fallback_html(obj, note=f"toskit view failed: {type(exc).__name__}: {exc}")


class HTML:
    """Already-rendered HTML that a notebook displays as is (``.data``)."""

    def __init__(self, data: str) -> None:
        self.data = data

    def _repr_html_(self) -> str:
        return self.data

    def __repr__(self) -> str:
        return f"<toskit.display.HTML, {len(self.data):,} characters>"


@gc_paused
def render_page(template: Any, **kwargs: Any) -> str:
    """A standalone HTML page for a service template (see :mod:`.report`)."""
    from toskit.display.report import render_page as _render_page

    return _render_page(template, **kwargs)
