"""The loaded template as ``toskit.functions`` sees it, and lazy evaluation.

:class:`TemplateGraph` implements :class:`toskit.functions.TemplateContext`
over the loader's node templates; the ``*View`` classes implement the node,
capability and relationship protocols of :mod:`toskit.functions.context`.

Property values are evaluated lazily and once: :meth:`TemplateGraph.value`
evaluates an entity's merged property the first time anyone asks (the final
pass over all templates, or a ``get_property`` from another template) and
stores the result in place. Reference cycles are detected by the functions'
path walker, which marks every property it is resolving.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any

from toskit.functions import contains_call
from toskit.functions.evaluate import evaluate_calls
from toskit.sentinels import NO_DEFAULT
from toskit.tosca.model.template import (
    CapabilityTemplate,
    EntityTemplate,
    NodeTemplate,
    RelationshipTemplate,
    Requirement,
)
from toskit.tosca.types.definitions import Type
from toskit.tosca.values.resolve import copy_data

if TYPE_CHECKING:
    from toskit.tosca.load.context import EvaluationContext
    from toskit.values import ScalarClass  # annotations only: not imported by a check (#31)

__all__ = ["EntityProperties", "TemplateGraph"]


class EntityProperties:
    """An entity's property names and types, as function evaluation reads them
    (``toskit.functions.context``); subclasses say where the values come from."""

    def __init__(self, entity: Any) -> None:
        self.entity = entity
        self.name = entity.name

    def property_names(self) -> Collection[str]:
        return list(dict.fromkeys([*self.entity.property_definitions, *self.entity.properties]))

    def property_type(self, name: str) -> str | None:
        pdef = self.entity.property_definitions.get(name)
        return pdef.type if pdef is not None else None


class _EntityView(EntityProperties):
    """Properties of one entity during the load, evaluated on demand."""

    def __init__(self, graph: TemplateGraph, entity: EntityTemplate) -> None:
        super().__init__(entity)
        self.graph = graph

    def property_value(self, name: str) -> Any:
        return self.graph.value(self.entity, name, self)

    def definitions_complete(self) -> bool:
        """Every type of the entity's chain is known (none derives from an unknown profile).

        When false, a path naming a property, capability or requirement the
        known types lack stays unevaluated instead of failing (the parent may
        declare it; the ``unknown-profile`` warning at the import says so).
        """
        return self.graph.complete(self.entity.type, self.entity.type_known)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _chain_keys(t: Type, key: str) -> list[str]:
    names: dict[str, None] = {}
    for each in t.chain:
        section = each.definition.get(key)
        if isinstance(section, Mapping):
            names.update(dict.fromkeys(str(k) for k in section))
    return list(names)


class NodeView(_EntityView):
    """A node template (``toskit.functions.context.NodeView``)."""

    entity: NodeTemplate

    def __init__(self, graph: TemplateGraph, entity: NodeTemplate) -> None:
        super().__init__(graph, entity)
        self.count = entity.count
        self._caps: dict[str, CapabilityView] = {}

    def attribute_names(self) -> Collection[str]:
        raw = self.entity.raw
        own = raw.get("attributes") if isinstance(raw, Mapping) else None
        return list(dict.fromkeys([*_chain_keys(self.entity.type, "attributes"), *(own or {})]))

    def attributes_complete(self) -> bool:
        """Every type of the node's chain is known (none derives from an unknown profile)."""
        return self.definitions_complete()

    def capability(self, name: str) -> CapabilityView | None:
        cap = self.entity.capabilities.get(name)
        if cap is None:
            return None
        view = self._caps.get(name)
        if view is None:
            view = self._caps[name] = CapabilityView(self.graph, cap, self)
        return view

    def capability_names(self) -> Collection[str]:
        return list(self.entity.capabilities)

    def requirements(self) -> list[RequirementView]:
        return [self.graph.requirement_view(self, req) for req in self.entity.requirements]

    def incoming(self) -> list[RequirementView]:
        out: list[RequirementView] = []
        for node in self.graph.nodes.values():
            for req in node.requirements:
                source = self.graph.node(node.name)
                if req.target is self.entity and source is not None:
                    out.append(self.graph.requirement_view(source, req))
        return out

    def _artifacts(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for t in self.entity.type.chain:
            section = t.definition.get("artifacts")
            if isinstance(section, Mapping):
                found.update(section)
        raw = self.entity.raw
        own = raw.get("artifacts") if isinstance(raw, Mapping) else None
        if isinstance(own, Mapping):
            found.update(own)
        return found

    def artifact(self, name: str) -> str | None:
        value = self._artifacts().get(name)
        if isinstance(value, Mapping):
            value = value.get("file")
        return value if isinstance(value, str) else None

    def artifact_names(self) -> Collection[str]:
        return list(self._artifacts())

    def host(self) -> NodeView | None:
        seen: set[str] = set()
        node: NodeTemplate | None = self.entity
        host: NodeTemplate | None = None
        while node is not None and node.name not in seen:
            seen.add(node.name)
            target = _host_of(node)
            if target is None:
                break
            host = node = target
        return self.graph.node(host.name) if host is not None else None


# The normative HostedOn relationship type (1.x and 2.0 names).
_HOSTED_ON = frozenset({"tosca.relationships.HostedOn", "HostedOn"})


def _host_of(node: NodeTemplate) -> NodeTemplate | None:
    """The node ``node`` is hosted on: its ``host`` requirement, else any
    requirement whose relationship derives from HostedOn (``runs_on``...)."""
    req = node.requirement("host")
    if req is not None and req.target is not None:
        return req.target
    for req in node.requirements:
        chain = req.relationship_type.chain if req.relationship_type is not None else []
        if req.target is not None and any(t.normative and t.name in _HOSTED_ON for t in chain):
            return req.target
    return None


class CapabilityView(_EntityView):
    """A capability of a node template."""

    def __init__(self, graph: TemplateGraph, entity: EntityTemplate, node: NodeView) -> None:
        super().__init__(graph, entity)
        self.node = node

    def definitions_complete(self) -> bool:
        """The node's types and the capability's are all known."""
        return self.node.definitions_complete() and self.graph.complete(self.entity.type, True)


class RequirementView:
    """A requirement assignment seen as a relationship."""

    def __init__(self, graph: TemplateGraph, source: NodeView, req: Requirement) -> None:
        self.graph = graph
        self.name = req.name
        self.source = source
        self.requirement = req
        self.target = graph.node(req.target.name) if req.target is not None else None
        self._properties: dict[str, Any] = req.properties
        rtype = req.relationship_type
        self._types: dict[str, str | None] = (
            {name: pdef.type for name, pdef in rtype.properties.items()} if rtype else {}
        )

    @property
    def target_capability(self) -> CapabilityView | None:
        if self.target is None:
            return None
        name = self.requirement.capability
        if name and self.target.capability(name) is not None:
            return self.target.capability(name)
        # A capability named by type: the target's first capability of that type.
        ctype = self.graph.load.registry.lookup("capability", name) if name else None
        for cap_name, cap in self.target.entity.capabilities.items():
            if ctype is not None and cap.type.is_a(ctype):
                return self.target.capability(cap_name)
        return None

    def property_names(self) -> Collection[str]:
        return list(self._properties)

    def property_type(self, name: str) -> str | None:
        return self._types.get(name)

    def property_value(self, name: str) -> Any:
        return self._properties.get(name, NO_DEFAULT)

    def _type(self) -> Type | None:
        """The relationship's type: written in the assignment, or its template's."""
        req = self.requirement
        if req.relationship_template is not None:
            return req.relationship_template.type
        return req.relationship_type

    def attribute_names(self) -> Collection[str]:
        rtype = self._type()
        if rtype is None:
            return []
        # Properties are attributes too (TOSCA reflects each property as one).
        return list(dict.fromkeys([*_chain_keys(rtype, "attributes"), *rtype.properties]))

    def attributes_complete(self) -> bool:
        """The relationship's type is known, and so is every type of its chain.

        An unnamed relationship (no type to read) is never complete: the
        orchestrator picks it, and its attributes cannot be known here.
        """
        rtype = self._type()
        return rtype is not None and self.graph.complete(rtype, True)

    def definitions_complete(self) -> bool:
        """The relationship's type is known (an unnamed one has no definitions to miss)."""
        rtype = self.requirement.relationship_type
        return rtype is None or self.graph.complete(rtype, True)


class RelationshipTemplateView(_EntityView):
    """A relationship template (no source or target of its own)."""

    source = None
    target = None
    target_capability = None

    def attribute_names(self) -> Collection[str]:
        return _chain_keys(self.entity.type, "attributes")

    def attributes_complete(self) -> bool:
        """Every type of the relationship's chain is known (``get_attribute`` checks names)."""
        return self.definitions_complete()


class TemplateGraph:
    """``toskit.functions.TemplateContext`` over one load's templates."""

    def __init__(
        self,
        ctx: EvaluationContext,
        nodes: Mapping[str, NodeTemplate],
        relationships: Mapping[str, RelationshipTemplate],
    ) -> None:
        # The load's context; ``release`` drops it once loading is done.
        self.ctx: EvaluationContext | None = ctx
        self.nodes = nodes
        self.relationships = relationships
        self._views: dict[str, NodeView] = {}
        self._rel_views: dict[str, RelationshipTemplateView] = {}
        self._req_views: dict[int, RequirementView] = {}

    @property
    def load(self) -> EvaluationContext:
        """The load being evaluated (a released graph answers nothing more)."""
        if self.ctx is None:
            raise RuntimeError("this template graph was released after loading")
        return self.ctx

    # -- TemplateContext --------------------------------------------------------

    def node(self, name: str) -> NodeView | None:
        entity = self.nodes.get(name)
        if entity is None:
            return None
        view = self._views.get(name)
        if view is None:
            view = self._views[name] = NodeView(self, entity)
        return view

    def node_names(self) -> Collection[str]:
        return list(self.nodes)

    def relationship_template(self, name: str) -> RelationshipTemplateView | None:
        entity = self.relationships.get(name)
        if entity is None:
            return None
        view = self._rel_views.get(name)
        if view is None:
            view = self._rel_views[name] = RelationshipTemplateView(self, entity)
        return view

    def input_type(self, name: str) -> str | None:
        definition = self.load.inputs.definitions.get(name)
        if isinstance(definition, Mapping) and isinstance(definition.get("type"), str):
            return definition["type"]
        return None

    def primitive_type(self, type_name: str) -> str | None:
        vt = self.load.registry.value_type(type_name)
        if isinstance(vt, Type):
            return vt.base_primitive
        return vt

    def function_definitions(self) -> Mapping[str, Any]:
        return self.load.parsing.function_defs

    def scalar_class(self, type_name: str) -> ScalarClass | None:
        return self.load.scalars.by_name(type_name)

    def complete(self, t: Type, known: bool) -> bool:
        """``t`` is known and no type of its chain derives from an unknown profile."""
        if not known or self.ctx is None:
            return False
        return not self.ctx.registry.derives_from_opaque(t)

    # -- evaluation ---------------------------------------------------------------

    def requirement_view(self, source: NodeView, req: Requirement) -> RequirementView:
        view = self._req_views.get(id(req))
        if view is None:
            view = self._req_views[id(req)] = RequirementView(self, source, req)
        return view

    def view_of(self, entity: EntityTemplate) -> Any:
        """The view evaluation uses as ``SELF`` for a value of ``entity``."""
        if isinstance(entity, NodeTemplate):
            return self.node(entity.name)
        if isinstance(entity, RelationshipTemplate):
            return self.relationship_template(entity.name)
        node = entity.node if isinstance(entity, CapabilityTemplate) else None
        if node is not None:
            return self.node(node.name)  # SELF in a capability's property is its node
        return None

    def value(self, entity: EntityTemplate, name: str, view: Any = None) -> Any:
        """The evaluated value of ``entity``'s property ``name`` (``NO_DEFAULT``: none)."""
        values = entity._resolution.values
        if name not in values:
            return NO_DEFAULT
        res = entity._resolution
        # Only values that may hold calls need evaluating (once: ``evaluated``).
        if name not in res.calls or name in res.evaluated:
            return values[name]
        value = values[name]
        if contains_call(value):
            self_view = (
                self.view_of(entity) if view is None or isinstance(view, CapabilityView) else view
            )
            # A get_property/get_input result may be another value's object.
            # evaluate_calls is called here, not through self.evaluate: this is
            # the frame a get_property chain re-enters once a hop, and one more
            # frame a hop puts a chain at its depth bound (50) past the
            # interpreter's default recursion limit.
            value = values[name] = copy_data(
                evaluate_calls(value, self_entity=self_view, **self._evaluation_options())
            )
        # Marked only once done: a re-entry meanwhile is a reference cycle, which
        # the path walker (it marks what it resolves) reports.
        res.evaluated.add(name)
        return value

    def evaluate(self, value: Any, self_entity: Any = None) -> Any:
        """``value``'s calls evaluated over this load (inputs, function
        definitions, the graph), with ``self_entity`` as ``SELF``; a failed
        call stays in place, its diagnostic added to the load's."""
        return evaluate_calls(value, self_entity=self_entity, **self._evaluation_options())

    def _evaluation_options(self) -> dict[str, Any]:
        """The arguments of ``evaluate_calls`` that are the same for every value of this load."""
        ctx = self.load
        return {
            "inputs": ctx.inputs.values,
            "diagnostics": ctx.diags,
            "make_diagnostic": ctx.make_diagnostic,
            "version": ctx.grammar.functions_version,
            "context": self,
            "input_types": ctx.inputs.types,
            "definitions": ctx.parsing.function_defs,
            # An input without value is supplied at deployment (missing-input).
            "defer_missing_inputs": True,
        }

    def release(self) -> None:
        """Forget the loader and the views once loading is done.

        Evaluation closures may keep the graph alive in a reference cycle until
        the cyclic collector runs; without these references the template and
        its documents do not wait for it.
        """
        self._views.clear()
        self._rel_views.clear()
        self._req_views.clear()
        self.nodes = {}
        self.relationships = {}
        self.ctx = None

    def evaluate_all(self, entities: list[EntityTemplate]) -> None:
        """Evaluate every property of every entity (each once), and the
        properties a node's requirements write in an inline relationship."""
        for entity in entities:
            for name in list(entity._resolution.calls):
                self.value(entity, name)
            if isinstance(entity, NodeTemplate):
                for req in entity.requirements:
                    self._evaluate_requirement(entity, req)

    def _evaluate_requirement(self, node: NodeTemplate, req: Requirement) -> None:
        """Evaluate an inline relationship's properties with the relationship as ``SELF``.

        ``SOURCE`` is the node, ``TARGET`` the node the requirement resolved
        to: a ``get_attribute`` there is checked as in a node template
        (issue 20 item 14). A relationship template's properties are its
        own, evaluated with it.
        """
        if req.relationship_template is not None or not req.properties:
            return
        source = self.node(node.name)
        if source is None:
            return
        view = self.requirement_view(source, req)
        for name, value in list(req.properties.items()):
            if contains_call(value):
                req.properties[name] = copy_data(self.evaluate(value, view))
