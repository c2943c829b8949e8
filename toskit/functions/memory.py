"""A plain in-memory template graph implementing :mod:`toskit.functions.context`.

Handy for trying functions without writing YAML, and the reference
implementation of the protocol (the tests use it)::

    from toskit.functions import memory, evaluate, parse

    tpl = memory.MemoryTemplate(inputs={"port": "integer"})
    db = tpl.add_node("db", properties={"port": 3306}, types={"port": "integer"})
    web = tpl.add_node("web", properties={"db_port": parse({"$get_property": ["db", "port"]})})
    tpl.connect(web, "database", db, capability="endpoint")
    web.property_value("db_port")   # 3306

Property values may hold calls: they are evaluated on first access (with
``self_entity`` the owner) and cached; evaluation failures propagate.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from toskit.functions.context import PRIMITIVE_TYPES
from toskit.sentinels import NO_DEFAULT

__all__ = ["MemoryCapability", "MemoryNode", "MemoryRelationship", "MemoryTemplate"]


class _Holder:
    """Properties with declared types, evaluated lazily."""

    name: str
    template: MemoryTemplate

    def _init_properties(
        self, properties: Mapping[str, Any] | None, types: Mapping[str, str] | None
    ) -> None:
        self.properties: dict[str, Any] = dict(properties or {})
        self.types: dict[str, str] = dict(types or {})
        self._cache: dict[str, Any] = {}

    def property_names(self) -> Collection[str]:
        return list(dict.fromkeys([*self.types, *self.properties]))

    def property_type(self, name: str) -> str | None:
        return self.types.get(name)

    def property_value(self, name: str) -> Any:
        if name in self._cache:
            return self._cache[name]
        if name not in self.properties:
            return NO_DEFAULT
        from toskit.functions.evaluate import evaluate

        value = evaluate(
            self.properties[name],
            self.template.input_values,
            context=self.template,
            self_entity=self._self_for_evaluation(),
            version=self.template.version,
        )
        self._cache[name] = value
        return value

    def _self_for_evaluation(self) -> Any:
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class MemoryCapability(_Holder):
    """A capability of a :class:`MemoryNode`."""

    def __init__(
        self,
        node: MemoryNode,
        name: str,
        properties: Mapping[str, Any] | None = None,
        types: Mapping[str, str] | None = None,
    ) -> None:
        self.node = node
        self.name = name
        self.template = node.template
        self._init_properties(properties, types)

    def _self_for_evaluation(self) -> Any:
        return self.node  # SELF in a capability's property is the node


class MemoryRelationship(_Holder):
    """A requirement assignment (``source`` set) or a relationship template."""

    def __init__(
        self,
        template: MemoryTemplate,
        name: str,
        source: MemoryNode | None,
        target: MemoryNode | None,
        capability: str | None = None,
        properties: Mapping[str, Any] | None = None,
        types: Mapping[str, str] | None = None,
        attributes: Collection[str] = (),
    ) -> None:
        self.template = template
        self.name = name
        self.source = source
        self.target = target
        self._capability = capability
        self.attributes = list(attributes)
        self._init_properties(properties, types)

    @property
    def target_capability(self) -> MemoryCapability | None:
        if self.target is None or self._capability is None:
            return None
        return self.target.capability(self._capability)

    def attribute_names(self) -> Collection[str]:
        return self.attributes


class MemoryNode(_Holder):
    """A node template."""

    def __init__(
        self,
        template: MemoryTemplate,
        name: str,
        properties: Mapping[str, Any] | None = None,
        types: Mapping[str, str] | None = None,
        *,
        count: int = 1,
        attributes: Collection[str] = (),
        artifacts: Mapping[str, str] | None = None,
    ) -> None:
        self.template = template
        self.name = name
        self.count = count
        self.attributes = list(attributes)
        self.artifacts = dict(artifacts or {})
        self.capabilities: dict[str, MemoryCapability] = {}
        self._requirements: list[MemoryRelationship] = []
        self._init_properties(properties, types)

    def add_capability(
        self,
        name: str,
        properties: Mapping[str, Any] | None = None,
        types: Mapping[str, str] | None = None,
    ) -> MemoryCapability:
        cap = MemoryCapability(self, name, properties, types)
        self.capabilities[name] = cap
        return cap

    def attribute_names(self) -> Collection[str]:
        return self.attributes

    def capability(self, name: str) -> MemoryCapability | None:
        return self.capabilities.get(name)

    def capability_names(self) -> Collection[str]:
        return list(self.capabilities)

    def requirements(self) -> list[MemoryRelationship]:
        return list(self._requirements)

    def incoming(self) -> list[MemoryRelationship]:
        return [
            rel
            for node in self.template.nodes.values()
            for rel in node._requirements
            if rel.target is self
        ]

    def artifact(self, name: str) -> str | None:
        return self.artifacts.get(name)

    def artifact_names(self) -> Collection[str]:
        return list(self.artifacts)

    def host(self) -> MemoryNode | None:
        seen: set[str] = set()
        node: MemoryNode | None = self
        host = None
        while node is not None and node.name not in seen:
            seen.add(node.name)
            rel = next((r for r in node._requirements if r.name == "host"), None)
            if rel is None or rel.target is None:
                break
            host = node = rel.target
        return host


class MemoryTemplate:
    """A :class:`~toskit.functions.context.TemplateContext` built in Python."""

    def __init__(
        self,
        *,
        inputs: Mapping[str, Any] | None = None,
        input_types: Mapping[str, str] | None = None,
        derived: Mapping[str, str] | None = None,
        functions: Mapping[str, Any] | None = None,
        scalars: Mapping[str, Any] | None = None,
        version: str = "2.0",
    ) -> None:
        self.input_values: dict[str, Any] = dict(inputs or {})
        self.input_types = dict(input_types or {})
        self.derived = dict(derived or {})  # type name -> parent type name
        self.functions = dict(functions or {})
        self.scalars = dict(scalars or {})  # type name -> toskit.values.ScalarClass
        self.version = version
        self.nodes: dict[str, MemoryNode] = {}
        self.relationships: dict[str, MemoryRelationship] = {}

    def add_node(
        self,
        name: str,
        properties: Mapping[str, Any] | None = None,
        types: Mapping[str, str] | None = None,
        **options: Any,
    ) -> MemoryNode:
        node = MemoryNode(self, name, properties, types, **options)
        self.nodes[name] = node
        return node

    def connect(
        self,
        source: MemoryNode,
        requirement: str,
        target: MemoryNode | None,
        *,
        capability: str | None = None,
        properties: Mapping[str, Any] | None = None,
        types: Mapping[str, str] | None = None,
    ) -> MemoryRelationship:
        rel = MemoryRelationship(self, requirement, source, target, capability, properties, types)
        source._requirements.append(rel)
        return rel

    def add_relationship_template(
        self,
        name: str,
        source: MemoryNode | None,
        target: MemoryNode | None,
        *,
        capability: str | None = None,
        properties: Mapping[str, Any] | None = None,
    ) -> MemoryRelationship:
        rel = MemoryRelationship(self, name, source, target, capability, properties)
        self.relationships[name] = rel
        return rel

    # -- TemplateContext ---------------------------------------------------------

    def node(self, name: str) -> MemoryNode | None:
        return self.nodes.get(name)

    def node_names(self) -> Collection[str]:
        return list(self.nodes)

    def relationship_template(self, name: str) -> MemoryRelationship | None:
        return self.relationships.get(name)

    def input_type(self, name: str) -> str | None:
        return self.input_types.get(name)

    def primitive_type(self, type_name: str) -> str | None:
        seen = set()
        while type_name not in PRIMITIVE_TYPES:
            if type_name in seen or type_name not in self.derived:
                return None
            seen.add(type_name)
            type_name = self.derived[type_name]
        return type_name

    def function_definitions(self) -> Mapping[str, Any]:
        return self.functions

    def scalar_class(self, type_name: str) -> Any:
        """The ``ScalarClass`` of a TOSCA 2.0 scalar type, or ``None``."""
        return self.scalars.get(type_name)
