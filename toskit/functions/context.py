"""What function evaluation needs from a loaded template.

``toskit.functions`` never imports ``toskit.tosca``. Instead, the loader hands
:func:`toskit.functions.evaluate` an object satisfying :class:`TemplateContext`
and the entity that holds the value being evaluated (``self_entity``: a
:class:`NodeView`, or a :class:`RelationshipView` inside a requirement or
relationship template). The TOSCA 2.0 path (``$get_property`` …) and the 1.x
path (``get_property`` …) are walked over these views only (see
:mod:`toskit.functions.paths`).

The protocols are deliberately small. Everything is read-only; a view may
compute its answers lazily. :mod:`toskit.functions.memory` holds a plain
in-memory implementation (used by the tests and handy in notebooks).

Property values
---------------
``property_value(name)`` returns the *resolved* value of a declared or
assigned property: defaults merged and its own calls evaluated (a call that
stays unevaluated is returned as its :class:`~toskit.functions.Call`). It
returns :data:`toskit.NO_DEFAULT` when the property is declared but has no
value. It is only called for names in ``property_names()``.

Implementations typically evaluate the property on first access by calling
``functions.evaluate(tree, context=..., self_entity=view)``. Reference cycles
(``a.p`` reads ``b.q`` which reads ``a.p``) are detected by the path walker:
it marks every ``(entity, property)`` it is resolving in a per-thread stack
that survives nested ``evaluate`` calls (:func:`resolving`), and reports a
re-entry as ``PathError`` naming the cycle. An implementation that resolves
a property outside the walker may wrap that in :func:`resolving` too, so the
cycle is reported one step earlier.

Types
-----
``property_type(name)`` is the declared TOSCA type name (``"version"``,
``"my.datatypes.Version"``, ``"integer"``…) or ``None`` when unknown/untyped.
:meth:`TemplateContext.primitive_type` maps a type name to the primitive it
derives from (``"version"``, ``"timestamp"``, ``"scalar-unit.size"``…), which
is how comparisons read an operand "in that type" (§6.1, typed operands).
:meth:`TemplateContext.scalar_class` gives the
:class:`~toskit.values.ScalarClass` of a TOSCA 2.0 scalar type
(``derived_from: scalar``), so a value of that type is read in its units; a
context whose templates declare no such types returns ``None``.
"""

from __future__ import annotations

import _thread
from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from toskit.functions.signatures import FunctionDefinition
    from toskit.values import ScalarClass

__all__ = [
    "PRIMITIVE_TYPES",
    "CapabilityView",
    "EntityView",
    "NodeView",
    "RelationshipView",
    "TemplateContext",
    "entity_key",
    "resolving",
    "resolution_stack",
]

PRIMITIVE_TYPES = frozenset(
    {
        "string",
        "integer",
        "float",
        "boolean",
        "null",
        "timestamp",
        "version",
        "range",
        "list",
        "map",
        "bytes",
        "scalar-unit.size",
        "scalar-unit.time",
        "scalar-unit.frequency",
        "scalar-unit.bitrate",
    }
)
"""TOSCA primitive and special type names (the roots ``primitive_type`` maps to)."""


@runtime_checkable
class EntityView(Protocol):
    """Anything that holds properties: a node, a capability, a relationship."""

    name: str

    def property_names(self) -> Collection[str]:
        """Names of the properties declared by the type or assigned by the template."""
        ...

    def property_type(self, name: str) -> str | None:
        """Declared TOSCA type of a property, ``None`` when untyped or unknown."""
        ...

    def property_value(self, name: str) -> Any:
        """Resolved value of a property (``NO_DEFAULT`` when declared without value)."""
        ...


@runtime_checkable
class CapabilityView(EntityView, Protocol):
    """A capability of a node template (``name`` is the capability's name)."""

    node: NodeView
    """The node template that owns the capability."""


@runtime_checkable
class RelationshipView(EntityView, Protocol):
    """A relationship: one requirement assignment, or a relationship template.

    ``name`` is the requirement name (for an assignment) or the relationship
    template name. Properties are the relationship's own properties.
    """

    source: NodeView | None
    """The node holding the requirement (``None`` for an unused relationship template)."""
    target: NodeView | None
    """The node the requirement was fulfilled by (``None`` when unresolved)."""
    target_capability: CapabilityView | None
    """The capability of ``target`` the relationship points at, when known."""

    def attribute_names(self) -> Collection[str]:
        """Names of the relationship's declared attributes."""
        ...


@runtime_checkable
class NodeView(EntityView, Protocol):
    """A node template as evaluation sees it."""

    count: int
    """Number of representations (``count`` in 2.0, default 1)."""

    def attribute_names(self) -> Collection[str]:
        """Names of the node's declared attributes."""
        ...

    def capability(self, name: str) -> CapabilityView | None:
        """The capability called ``name``, or ``None``."""
        ...

    def capability_names(self) -> Collection[str]:
        """Names of all capabilities (declared by the type or assigned)."""
        ...

    def requirements(self) -> Sequence[RelationshipView]:
        """Requirement assignments in declaration order (each ``.name`` is the requirement)."""
        ...

    def incoming(self) -> Sequence[RelationshipView]:
        """Relationships targeting this node, in a stable (declaration) order."""
        ...

    def artifact(self, name: str) -> str | None:
        """The ``file`` of the artifact called ``name`` (template or type), or ``None``."""
        ...

    def artifact_names(self) -> Collection[str]:
        """Names of all artifacts (for did-you-mean hints)."""
        ...

    def host(self) -> NodeView | None:
        """The node reached by following ``host`` requirements (1.x ``HOST``), or ``None``."""
        ...


@runtime_checkable
class TemplateContext(Protocol):
    """A loaded template, as evaluation sees it."""

    def node(self, name: str) -> NodeView | None:
        """The node template called ``name``, or ``None``."""
        ...

    def node_names(self) -> Collection[str]:
        """Names of every node template (for did-you-mean hints)."""
        ...

    def relationship_template(self, name: str) -> RelationshipView | None:
        """The relationship template called ``name``, or ``None``."""
        ...

    def input_type(self, name: str) -> str | None:
        """Declared type of the input ``name``, ``None`` when undeclared/untyped."""
        ...

    def primitive_type(self, type_name: str) -> str | None:
        """The primitive type (``PRIMITIVE_TYPES``) a type name is or derives from."""
        ...

    def function_definitions(self) -> Mapping[str, FunctionDefinition]:
        """Functions declared in ``functions:`` sections, by qualified name (``ns:fn``)."""
        ...

    def scalar_class(self, type_name: str) -> ScalarClass | None:
        """The class of a TOSCA 2.0 scalar type (``derived_from: scalar``), else ``None``.

        Comparisons and arithmetic read operands of that declared type in its
        units (``500 g <= 10 kg``).
        """
        ...


# An optional hook a TemplateContext may also offer (looked up with getattr):
#   value_matches_type(value, type_name) -> bool
#       whether a value is of a (data) type, for declared function signatures.


def entity_key(entity: Any) -> tuple[Any, ...]:
    """A stable identity for an entity view, used to detect reference cycles."""
    owner = getattr(entity, "node", None)
    if owner is not None and not isinstance(entity, NodeView):
        return ("capability", getattr(owner, "name", None), entity.name)
    if hasattr(entity, "target_capability"):
        source = getattr(entity, "source", None)
        return ("relationship", getattr(source, "name", None), entity.name)
    return ("node", getattr(entity, "name", None))


def describe_entity(entity: Any) -> str:
    """``node 'db'``, ``capability 'host' of node 'db'``, ``relationship 'x'``."""
    key = entity_key(entity)
    if key[0] == "capability":
        return f"capability '{key[2]}' of node '{key[1]}'"
    if key[0] == "relationship":
        if key[1] is not None:
            return f"requirement '{key[2]}' of node '{key[1]}'"
        return f"relationship template '{key[2]}'"
    return f"node '{key[1]}'"


_LOCAL = _thread._local()  # threading.local, without importing threading (#31)


def resolution_stack() -> list[tuple[Hashable, str]]:
    """The ``(entity_key, property)`` pairs being resolved on this thread."""
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    return stack


class ReferenceCycle(Exception):
    """Raised by :func:`resolving` on re-entry; the walker turns it into ``PathError``."""

    def __init__(self, cycle: list[str]) -> None:
        super().__init__(" -> ".join(cycle))
        self.cycle = cycle


@contextmanager
def resolving(entity: Any, prop: str) -> Iterator[None]:
    """Mark ``entity.prop`` as being resolved; raise :class:`ReferenceCycle` on re-entry."""
    stack = resolution_stack()
    item = (entity_key(entity), prop)
    if item in stack:
        start = stack.index(item)
        names = [f"{_short(k)}.{p}" for k, p in stack[start:]] + [f"{_short(item[0])}.{prop}"]
        raise ReferenceCycle(names)
    stack.append(item)
    try:
        yield
    finally:
        stack.pop()


def _short(key: Hashable) -> str:
    parts = [str(p) for p in key[1:] if p is not None] if isinstance(key, tuple) else [str(key)]
    return ".".join(parts)
