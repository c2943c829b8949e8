"""Types and property definitions: the immutable objects a registry holds.

:class:`Type` and :class:`PropertyDefinition` are part of the public API
(``ServiceTemplate.types``). They are built by :mod:`toskit.tosca.types.registry`;
user code only reads them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from toskit.records import field, record
from toskit.sentinels import NO_DEFAULT
from toskit.source import YamlDocument

__all__ = [
    "DefaultLayer",
    "PropertyDefinition",
    "SchemaDef",
    "Type",
    "PRIMITIVES",
    "yaml11_boolean",
]

# YAML 1.1 spellings of booleans: strings in YAML 1.2, which TOSCA uses
# (``required: no`` is the string 'no'); a hint names the boolean meant.
_YAML11_TRUE = frozenset({"y", "yes", "on", "true"})
_YAML11_FALSE = frozenset({"n", "no", "off", "false"})


def yaml11_boolean(value: Any) -> bool | None:
    """What a non-boolean meant as a boolean (``'no'``, ``0``, ``'Yes'``), or ``None``."""
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _YAML11_TRUE or word == "1":
            return True
        if word in _YAML11_FALSE or word == "0":
            return False
    elif isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return bool(value)
    return None


# TOSCA's primitive and special value types (no Type object: they are
# kept out of ``ServiceTemplate.types``).
PRIMITIVES: frozenset[str] = frozenset(
    {
        "string",
        "integer",
        "float",
        "boolean",
        "null",
        "nil",  # TOSCA 2.0's name for null
        "scalar",  # TOSCA 2.0: user-defined scalar types (``units``, ``prefixes``)
        "timestamp",
        "version",
        "range",
        "list",
        "map",
        "scalar-unit.size",
        "scalar-unit.time",
        "scalar-unit.frequency",
        "scalar-unit.bitrate",
        "bytes",
    }
)


@record(frozen=True)
class SchemaDef:
    """The value side of a definition: a type name plus what refines it.

    Used for property definitions and for ``entry_schema``/``key_schema``.
    ``constraints`` are the raw 1.x clauses, ``validation`` the raw 2.0
    clause (parsed by the checker when it runs).
    """

    type: str | None
    entry_schema: SchemaDef | None = None
    key_schema: SchemaDef | None = None
    constraints: tuple = ()
    validation: Any = None
    # A TOSCA 2.0 property's fixed ``value`` (a template may not change it).
    fixed: Any = NO_DEFAULT
    # Where it was written, to locate diagnostics about the definition.
    doc: YamlDocument | None = field(default=None, compare=False, repr=False)
    parts: tuple[Hashable, ...] = field(default=(), compare=False, repr=False)


@record(frozen=True)
class DefaultLayer:
    """One default written on one type, for layered merging with provenance."""

    value: Any
    type_name: str
    doc: YamlDocument | None = field(default=None, compare=False, repr=False)
    parts: tuple[Hashable, ...] = field(default=(), compare=False, repr=False)


@record(frozen=True, eq=False)
class PropertyDefinition:
    """A property (or data-type field) definition, as in effect on a type.

    ``type`` is the TOSCA type name (``None``: any value); ``required``
    defaults to ``True``; ``default`` is the value, or
    :data:`toskit.NO_DEFAULT`. For a data-typed property redefined down a
    type chain, ``default`` is the merged default (child over parent, field
    by field). ``defined_in`` names the type that wrote the definition in
    effect.
    """

    name: str
    type: str | None
    required: bool = True
    default: Any = NO_DEFAULT
    description: str | None = None
    defined_in: str | None = None
    status: str | None = None
    metadata: Mapping | None = None
    schema: SchemaDef = field(default_factory=lambda: SchemaDef(None))
    # Every default written for this property down the type chain, root first.
    default_layers: tuple[DefaultLayer, ...] = ()
    value: Any = NO_DEFAULT  # TOSCA 2.0 fixed ``value``

    @property
    def entry_schema(self) -> SchemaDef | None:
        return self.schema.entry_schema

    @property
    def key_schema(self) -> SchemaDef | None:
        return self.schema.key_schema

    @property
    def constraints(self) -> tuple:
        return self.schema.constraints

    @property
    def has_default(self) -> bool:
        return self.default is not NO_DEFAULT

    def __repr__(self) -> str:
        bits = [f"{self.name}: {self.type or 'any'}"]
        if not self.required:
            bits.append("optional")
        if self.default is not NO_DEFAULT:
            bits.append(f"default={self.default!r}")
        if self.defined_in:
            bits.append(f"from {self.defined_in}")
        return f"<PropertyDefinition {' '.join(bits)}>"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


class Type:
    """A TOSCA type of one kind (data, node, capability, relationship, …).

    ``parent`` is the ``Type`` it derives from (``None`` for a root, or for a
    data type derived directly from a primitive, whose primitive is
    ``base_primitive``); ``ancestors`` lists parents nearest first;
    ``properties`` are the effective definitions after inheritance,
    ``own_properties`` those written on this type.
    """

    def __init__(
        self,
        name: str,
        kind: str,
        *,
        description: str | None = None,
        definition: Mapping | None = None,
        doc: YamlDocument | None = None,
        parts: tuple[Hashable, ...] = (),
        prefix: str | None = None,
        normative: bool = False,
    ) -> None:
        self.name = name
        self.kind = kind
        self.description = description
        self.definition: Mapping = definition or {}
        self.doc = doc
        self.parts = parts
        self.prefix = prefix
        self.normative = normative
        self.parent: Type | None = None
        self.base_primitive: str | None = None
        self.own_properties: dict[str, PropertyDefinition] = {}
        # The effective table, built on first use (see ``properties``); ``None``
        # until then. Types share their ancestors' definitions instead of each
        # holding a copy: a derivation chain of n types stays O(n) (#24).
        self._properties: dict[str, PropertyDefinition] | None = {}
        # Of ``own_properties``, the inherited definitions they replace.
        self.replaced_properties: dict[str, PropertyDefinition] = {}
        self.schema: SchemaDef = SchemaDef(
            None
        )  # data types: own constraints/validation/entry_schema
        # Effective requirement definitions (name, raw) and capability
        # definitions (name -> raw), shared like ``properties``: built on
        # first use from the nearest ancestor that has them and the
        # ``_own_*`` written below it.
        self._requirements: list[tuple[str, Any]] | None = []
        self._capabilities: dict[str, Any] | None = {}
        self._own_requirements: list[tuple[str, Any]] = []
        self._own_capabilities: dict[str, Any] = {}

    @property
    def properties(self) -> dict[str, PropertyDefinition]:
        """Effective property definitions after inheritance (name -> definition).

        Built on first access from the nearest ancestor that has its table
        and the ``own_properties`` below it (an override keeps its inherited
        place), then kept.
        """
        found = self._properties
        if found is None:
            found = self._properties = self._inherited_table()
        return found

    @properties.setter
    def properties(self, value: dict[str, PropertyDefinition]) -> None:
        self._properties = value

    @property
    def requirements(self) -> list[tuple[str, Any]]:
        """Effective requirement definitions, ``(name, raw definition)`` in order.

        A requirement a type redefines moves to the end of its list.
        """
        found = self._requirements
        if found is None:
            table: dict[str, Any] = {}
            for each in self._below_materialized("_requirements"):
                if each is not self and each._requirements is not None:
                    table = dict(each._requirements)
                    continue
                for name, raw in each._own_requirements:
                    table.pop(name, None)  # a redefinition moves to the end
                    table[name] = raw
            found = self._requirements = list(table.items())
        return found

    @requirements.setter
    def requirements(self, value: list[tuple[str, Any]]) -> None:
        self._requirements = value

    @property
    def capabilities(self) -> dict[str, Any]:
        """Effective capability definitions, name -> raw definition."""
        found = self._capabilities
        if found is None:
            table: dict[str, Any] = {}
            for each in self._below_materialized("_capabilities"):
                if each is not self and each._capabilities is not None:
                    table = dict(each._capabilities)
                    continue
                table.update(each._own_capabilities)
            found = self._capabilities = table
        return found

    @capabilities.setter
    def capabilities(self, value: dict[str, Any]) -> None:
        self._capabilities = value

    def _below_materialized(self, attribute: str) -> list[Type]:
        """This type and its ancestors up to the nearest one whose ``attribute``
        is built (included, first), root first."""
        out: list[Type] = []
        node: Type | None = self
        seen: set[int] = set()
        while node is not None and id(node) not in seen:
            seen.add(id(node))
            out.append(node)
            if node is not self and getattr(node, attribute) is not None:
                break
            node = node.parent
        out.reverse()
        return out

    def _inherited_table(self) -> dict[str, PropertyDefinition]:
        below: list[Type] = []  # types whose own definitions apply, nearest first
        node: Type | None = self
        seen: set[int] = set()
        base: dict[str, PropertyDefinition] = {}
        while node is not None and id(node) not in seen:
            seen.add(id(node))
            if node is not self and node._properties is not None:
                base = node._properties
                break
            below.append(node)
            node = node.parent
        table = dict(base)
        for each in reversed(below):
            table.update(each.own_properties)
        return table

    @property
    def ancestors(self) -> list[Type]:
        """Parents, nearest first (cycles are broken when the registry is built)."""
        out: list[Type] = []
        seen = {id(self)}
        node = self.parent
        while node is not None and id(node) not in seen:
            seen.add(id(node))
            out.append(node)
            node = node.parent
        return out

    def is_a(self, other: Type | str) -> bool:
        """True when this type is ``other`` or derives from it."""
        name = other if isinstance(other, str) else other.name
        return self.name == name or any(a.name == name for a in self.ancestors)

    @property
    def chain(self) -> list[Type]:
        """This type and its ancestors, root first."""
        return [*reversed(self.ancestors), self]

    def __repr__(self) -> str:
        parent = f" derived_from {self.parent.name}" if self.parent else ""
        if self.base_primitive and not self.parent:
            parent = f" derived_from {self.base_primitive}"
        return f"<Type {self.kind} {self.name}{parent} ({len(self.properties)} properties)>"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)
