"""The state of one load, shared by the phases of :mod:`toskit.tosca.load.loader`.

A leaf module: :class:`LoadContext` is plain data (the document, the
grammar, the registry, the diagnostics list) plus one object per phase that
keeps per-load state, owned by that phase
(:class:`~toskit.tosca.values.evaluation.ParseState`,
:class:`~toskit.tosca.model.entities.MergeCaches`). Each phase
of the pipeline is a function in its own module, and its signature says
what it reads (issue 15): a phase reading one to three things takes them as
arguments; the others take the context typed as one of the
:class:`typing.Protocol` classes below, which list exactly the fields that
phase and the helpers it calls read or write. :class:`LoadContext`
satisfies them structurally (the phases are handed the context itself, so
this costs nothing at run time), and a phase that starts reading a field its
Protocol does not list is a mypy error. Only the loader, which builds the
context, names :class:`LoadContext` in a signature
(``tests/tosca/test_phases.py``).

======================  ====================================================
imports                 :func:`toskit.tosca.load.imports.load_imports`
                        (document, grammar, importer, diagnostics)
types                   :meth:`toskit.tosca.types.registry.Registry.add_sources`
                        (the collected type definitions)
functions               :func:`toskit.tosca.values.evaluation.load_function_definitions`
                        (:class:`FunctionsContext`)
definitions             :func:`toskit.tosca.values.defchecks.check_definitions`
                        (:class:`DefinitionsContext`)
template references     :func:`~toskit.tosca.types.artifacts.check_template_artifacts`,
                        :func:`~toskit.tosca.model.filter_names.check_filter_names`,
                        :func:`~toskit.tosca.model.interfaces.check_template_interfaces`
                        (registry, document, topology)
inputs                  :class:`toskit.tosca.model.inputs.InputResolver`
                        (:class:`InputsContext`)
entities                :func:`toskit.tosca.model.entities.build_entities`,
                        :func:`~toskit.tosca.model.entities.build_capabilities`,
                        :func:`~toskit.tosca.model.entities.resolve_properties`
                        (:class:`EntitiesContext`)
requirements            :func:`toskit.tosca.model.requirements.resolve_requirements`
                        (:class:`EntitiesContext`: relationship properties are merged)
evaluation              :class:`toskit.tosca.model.graph.TemplateGraph`,
                        :func:`toskit.tosca.values.evaluation.evaluate_outputs`
                        (:class:`EvaluationContext`)
pending checks          :func:`toskit.tosca.model.entities.check_pending`
                        (the queue of pending checks)
workflows               :func:`toskit.tosca.model.workflows.check_workflows`
                        (document, registry, value types, topology, nodes)
======================  ====================================================

Shared bases: :class:`Reporting` (document and diagnostics;
:func:`toskit.tosca.model.copies.resolve_copies`), :class:`ParseContext` (parsing
values and validation clauses) and :class:`ClauseContext` (running 2.0
validation clauses, which read the inputs and the graph once built). Why
the value-checking phases keep much of the context: the value checks
(:class:`toskit.tosca.values.check.CheckContext`), the clauses and the merge read
the diagnostics, the once-only ``reported`` set, scalar and value types and
per-load caches; their Protocols still leave out what they do not read
(only the entities phase sees its :class:`~toskit.tosca.model.entities.MergeCaches`,
which hold the merge's caches and the pending queue; only the inputs phase
the call's ``inputs=``).

Nothing here imports a phase module at run time (only for type hints), so
every phase can import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from toskit.diagnostics import Diagnostic
from toskit.records import field, record
from toskit.source import YamlDocument

if TYPE_CHECKING:
    from toskit.tosca.load.grammar import Grammar
    from toskit.tosca.model.entities import MergeCaches
    from toskit.tosca.model.graph import TemplateGraph
    from toskit.tosca.model.inputs import InputResolver
    from toskit.tosca.types.registry import Registry
    from toskit.tosca.types.scalars import ScalarTypes
    from toskit.tosca.values.evaluation import ParseState

__all__ = [
    "ClauseContext",
    "DefinitionsContext",
    "EntitiesContext",
    "EvaluationContext",
    "FunctionsContext",
    "InputsContext",
    "LoadContext",
    "ParseContext",
    "Reporting",
]


@record(eq=False)
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
    # What parsing values reads and fills (the document's functions, parsed
    # clauses, where unparsed and foreign values are): one object,
    # toskit.tosca.values.evaluation.ParseState.
    parsing: ParseState
    # The ``inputs=`` of the call; ``inputs_given`` is False for a plain check
    # (a missing input is then ``info``, not an error).
    passed_inputs: dict[str, Any] = field(default_factory=dict)
    inputs_given: bool = False
    # Diagnostics already reported once (``CheckContext.reported``).
    reported: set[Any] = field(default_factory=set)
    input_resolver: InputResolver | None = None
    # The entities phase's own state: its caches and the queue of pending
    # checks (toskit.tosca.model.entities.MergeCaches), for that phase only.
    merge_caches: MergeCaches | None = None
    template_graph: TemplateGraph | None = None

    @property
    def inputs(self) -> InputResolver:
        """The inputs phase's result (set before the entities are built)."""
        if self.input_resolver is None:
            raise RuntimeError("the inputs of this load are not resolved yet")
        return self.input_resolver

    @property
    def merge(self) -> MergeCaches:
        """The entities phase's caches and pending checks (set when it starts)."""
        if self.merge_caches is None:
            raise RuntimeError("the entities phase of this load has not started")
        return self.merge_caches

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
        for prefix, doc in self.parsing.foreign_roots:
            if parts[: len(prefix)] == prefix:
                return doc.diagnostic(severity, code, message, parts, **kwargs)
        return self.doc.diagnostic(severity, code, message, parts, **kwargs)


# -- What each phase reads ---------------------------------------------------------
#
# One Protocol per phase (or per group reading the same fields), listing the
# LoadContext attributes the phase and the helpers it calls read or write.
# LoadContext satisfies each structurally; a phase that starts reading a field
# its Protocol does not list is a mypy error. They cost nothing at run time
# (the phases are still handed the LoadContext itself).


class Reporting(Protocol):
    """Where diagnostics go: the document and the load's list
    (:func:`toskit.tosca.model.copies.resolve_copies`)."""

    doc: YamlDocument
    diags: list[Diagnostic]


class ParseContext(Reporting, Protocol):
    """Parsing values in the file's dialect, 2.0 validation clauses once per load
    (:func:`toskit.tosca.values.evaluation.parse_value`,
    :func:`~toskit.tosca.values.evaluation.clause_tree`)."""

    grammar: Grammar
    parsing: ParseState


class ClauseContext(ParseContext, Protocol):
    """Running 2.0 validation clauses (:func:`toskit.tosca.values.evaluation.validate_clauses`):
    the inputs and the graph, when their phases have run."""

    input_resolver: InputResolver | None
    template_graph: TemplateGraph | None


class FunctionsContext(Reporting, Protocol):
    """The ``functions:`` sections
    (:func:`toskit.tosca.values.evaluation.load_function_definitions`), which
    fill ``parsing.function_defs`` and ``parsing.known_functions``."""

    registry: Registry
    parsing: ParseState


class DefinitionsContext(ParseContext, Protocol):
    """Checking the document's own type definitions
    (:func:`toskit.tosca.values.defchecks.check_definitions`): value checks without clauses."""

    registry: Registry
    scalars: ScalarTypes
    value_type: Any
    reported: set[Any]


class InputsContext(DefinitionsContext, ClauseContext, Protocol):
    """Resolving and checking the inputs (:class:`toskit.tosca.model.inputs.InputResolver`)."""

    passed_inputs: dict[str, Any]
    inputs_given: bool


class EntitiesContext(DefinitionsContext, ClauseContext, Protocol):
    """Building templates and merging their properties
    (:func:`toskit.tosca.model.entities.build_entities`,
    :func:`~toskit.tosca.model.entities.build_capabilities`,
    :func:`~toskit.tosca.model.entities.resolve_properties`,
    :func:`toskit.tosca.model.requirements.resolve_requirements`): value checks, the
    inputs, and the phase's own caches and pending checks, one object
    (:class:`toskit.tosca.model.entities.MergeCaches`)."""

    @property
    def inputs(self) -> InputResolver:
        """The inputs phase's result."""
        ...

    @property
    def merge(self) -> MergeCaches:
        """The entities phase's caches and queue of pending checks."""
        ...


class EvaluationContext(ParseContext, Protocol):
    """Evaluating calls (:class:`toskit.tosca.model.graph.TemplateGraph`,
    :func:`toskit.tosca.values.evaluation.evaluate_outputs`): inputs, types, functions."""

    registry: Registry
    scalars: ScalarTypes

    @property
    def inputs(self) -> InputResolver:
        """The inputs phase's result."""
        ...

    @property
    def graph(self) -> TemplateGraph:
        """The template graph (set before evaluation)."""
        ...

    def make_diagnostic(
        self, severity: str, code: str, message: str, parts: Any = (), **kwargs: Any
    ) -> Diagnostic:
        """A diagnostic in the document a value tree came from."""
        ...
