"""The state of one load, shared by the phases of :mod:`toskit.tosca.loader`.

A leaf module: :class:`LoadContext` is plain data (the document, the
grammar, the registry, the diagnostics list, per-load caches). Each phase
of the pipeline is a function in its own module. A phase that checks or
resolves values takes the context: the value checks
(:class:`toskit.tosca.check.CheckContext`) and the merge
(:func:`toskit.tosca.entities.resolve_properties`) read most of it
(diagnostics, the once-only ``reported`` set, scalar and value types,
per-load caches). The other phases take only what they read (issue 15):

======================  ====================================================
imports                 :func:`toskit.tosca.imports.load_imports`
                        (document, grammar, importer, diagnostics)
types                   :meth:`toskit.tosca.registry.Registry.add_sources`
                        (the collected type definitions)
definitions             :func:`toskit.tosca.defchecks.check_definitions`
                        (context)
template references     :func:`~toskit.tosca.artifacts.check_template_artifacts`,
                        :func:`~toskit.tosca.filter_names.check_filter_names`,
                        :func:`~toskit.tosca.interfaces.check_template_interfaces`
                        (registry, document, topology)
inputs                  :class:`toskit.tosca.inputs.InputResolver` (context)
entities                :func:`toskit.tosca.entities.build_entities`,
                        :func:`~toskit.tosca.entities.build_capabilities`
                        (context)
requirements            :func:`toskit.tosca.requirements.resolve_requirements`
                        (context: relationship properties are resolved)
evaluation              :class:`toskit.tosca.graph.TemplateGraph`,
                        :func:`toskit.tosca.entities.check_pending`,
                        :func:`toskit.tosca.evaluation.evaluate_outputs`
                        (context)
workflows               :func:`toskit.tosca.workflows.check_workflows`
                        (document, registry, value types, topology, nodes)
======================  ====================================================

Nothing here imports a phase module at run time (only for type hints), so
every phase can import it.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic
from toskit.source import YamlDocument

if TYPE_CHECKING:
    from toskit.functions import FunctionDefinition
    from toskit.tosca.check import CheckContext
    from toskit.tosca.definitions import PropertyDefinition, Type
    from toskit.tosca.grammar import Grammar
    from toskit.tosca.graph import TemplateGraph
    from toskit.tosca.inputs import InputResolver
    from toskit.tosca.registry import Registry
    from toskit.tosca.resolve import Origin, Resolution, ValueType
    from toskit.tosca.scalars import ScalarTypes

__all__ = ["LoadContext"]


@dataclass(eq=False)
class LoadContext:
    """One load: what the phases read, the diagnostics they add, per-load caches.

    ``inputs`` and ``graph`` are set by the pipeline once their phase has
    run (inputs before the entities, the graph before evaluation); reading
    them earlier is a programming error (``RuntimeError``).
    """

    doc: YamlDocument
    grammar: Grammar
    registry: Registry
    scalars: ScalarTypes
    # ``registry.value_types()``: a plain function (result objects keep it, not the context).
    value_type: Any
    diags: list[Diagnostic]
    # The ``inputs=`` of the call; ``inputs_given`` is False for a plain check
    # (a missing input is then ``info``, not an error).
    passed_inputs: dict[str, Any] = field(default_factory=dict)
    inputs_given: bool = False
    # Names that make a 1.x single-key map a call (built-ins and the registry).
    call_names_1x: frozenset[str] = frozenset()
    # Diagnostics already reported once (``CheckContext.reported``).
    reported: set[Any] = field(default_factory=set)
    # ``functions:`` sections (2.0): declared functions by qualified name.
    function_defs: dict[str, FunctionDefinition] = field(default_factory=dict)
    known_functions: list[str] = field(default_factory=list)
    # Value trees parsed from another document (imported defaults): where
    # their diagnostics belong.
    foreign_roots: list[tuple[tuple[Hashable, ...], YamlDocument]] = field(default_factory=list)
    # Property checks queued until calls are evaluated (entities phase -> check_pending).
    pending: list[tuple[CheckContext, Resolution, PropertyDefinition, ValueType]] = field(
        default_factory=list
    )
    # Per-load caches keyed by object id (the object is kept with its entry,
    # so the id stays unique during the load).
    default_layers: dict[int, tuple[PropertyDefinition, list[tuple[Any, Origin]], bool]] = field(
        default_factory=dict
    )
    parsed_clauses: dict[int, tuple[Any, Any]] = field(default_factory=dict)
    cap_defs: dict[tuple[str, str], tuple[Type | None, dict[str, PropertyDefinition]]] = field(
        default_factory=dict
    )
    # Per (definitions, owner type): what every template of that type shares
    # (toskit.tosca.entities._plans).
    property_plans: dict[tuple[int, int], Any] = field(default_factory=dict)
    # CheckContext.field_types and .clean_constraints of the entities phase.
    field_types: dict[int, Any] = field(default_factory=dict)
    clean_constraints: dict[tuple, Any] = field(default_factory=dict)
    input_resolver: InputResolver | None = None
    template_graph: TemplateGraph | None = None

    @property
    def inputs(self) -> InputResolver:
        """The inputs phase's result (set before the entities are built)."""
        if self.input_resolver is None:
            raise RuntimeError("the inputs of this load are not resolved yet")
        return self.input_resolver

    @property
    def graph(self) -> TemplateGraph:
        """The evaluation context (set once requirements are resolved)."""
        if self.template_graph is None:
            raise RuntimeError("the template graph of this load is not built yet")
        return self.template_graph

    def make_diagnostic(
        self, severity: str, code: str, message: str, parts: Any = (), **kwargs: Any
    ) -> Diagnostic:
        """``YamlDocument.diagnostic`` of the document a value tree came from."""
        parts = tuple(parts)
        for prefix, doc in self.foreign_roots:
            if parts[: len(prefix)] == prefix:
                return doc.diagnostic(severity, code, message, parts, **kwargs)
        return self.doc.diagnostic(severity, code, message, parts, **kwargs)
