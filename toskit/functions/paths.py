"""TOSCA paths: which entity a ``get_property``-style call reads (§6.6, 1.x §4.1).

2.0 grammar (keywords upper case and exact; they win over user names)::

    path     := NODE [idx] node_ctx | SELF node_ctx | RELATIONSHIP_TEMPLATE rel_ctx | SELF rel_ctx
    node_ctx := RELATIONSHIP req [idx] rel_ctx | CAPABILITY cap RELATIONSHIP [idx] rel_ctx
              | CAPABILITY cap | (nothing)
    rel_ctx  := SOURCE node_ctx | TARGET node_ctx | CAPABILITY RELATIONSHIP [idx] rel_ctx
              | CAPABILITY | (nothing)
    idx      := non-negative int | ALL            (absent means 0)

The walker works on a list of entities so that ``ALL`` fans out: every
result of an ``ALL`` path is one item of a flat list. It only uses the view
protocols of :mod:`toskit.functions.context`.

1.x: ``[entity, (req_or_cap,) prop, key…]`` with ``entity`` one of ``SELF``,
``SOURCE``, ``TARGET``, ``HOST`` or a node template name. The second argument
names a requirement or capability when the entity has one with that name and
no property with it. A requirement leads to the requirement's target
capability when that capability has the property, else to the target node.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Literal

from toskit.errors import FunctionError
from toskit.functions.context import ReferenceCycle, describe_entity, resolving
from toskit.functions.errors import Failure, Unevaluated
from toskit.functions.notation import contains_call
from toskit.plain import describe
from toskit.sentinels import NO_DEFAULT

__all__ = [
    "KEYWORDS",
    "check_allocation_path",
    "get_artifact",
    "get_property",
    "index_value",
    "is_capability",
    "is_node",
    "is_relationship",
]

KEYWORDS = frozenset({"SELF", "SOURCE", "TARGET", "HOST", "RELATIONSHIP", "CAPABILITY", "ALL"})
"""Path keywords (2.0 and 1.x)."""


def is_relationship(entity: Any) -> bool:
    """A :class:`RelationshipView` (it has a target capability slot)."""
    return hasattr(entity, "target_capability")


def is_node(entity: Any) -> bool:
    """A :class:`NodeView` (it has requirements)."""
    return hasattr(entity, "requirements") and not is_relationship(entity)


def is_capability(entity: Any) -> bool:
    """A :class:`CapabilityView` (it belongs to a node and is neither of the others)."""
    return hasattr(entity, "node") and not is_node(entity) and not is_relationship(entity)


def index_value(value: Any, steps: Sequence[Any], what: str) -> Any:
    """Follow ``steps`` (map keys and list indices) into ``value``; ``PathError`` if missing."""
    for i, step in enumerate(steps):
        where = f"{what}" + "".join(f"[{s!r}]" for s in steps[:i])
        if (
            isinstance(step, bool)
            or not isinstance(step, (str, int))
            or (isinstance(step, int) and step < 0)
        ):
            raise Failure(
                "ArgType",
                f"a step must be a string or a non-negative integer, got {describe(step)}",
            )
        if isinstance(step, str):
            if not isinstance(value, Mapping):
                raise Failure("PathError", f"cannot read key '{step}' of {where}: it is not a map")
            if step not in value:
                raise Failure(
                    "PathError",
                    f"{where} has no key '{step}'",
                    misspelt=step,
                    candidates=[k for k in value if isinstance(k, str)],
                )
            value = value[step]
        else:
            if not isinstance(value, (list, tuple)):
                raise Failure("PathError", f"cannot read index {step} of {where}: it is not a list")
            if step >= len(value):
                raise Failure(
                    "PathError", f"index {step} is out of range for {where} ({len(value)} items)"
                )
            value = value[step]
    return value


# ------------------------------------------------------------------------------ walker


class _Walk:
    """A cursor over the argument list and the state of a path walk."""

    def __init__(self, ev: Any, args: Sequence[Any], function: str) -> None:
        self.ev = ev
        self.args = list(args)
        self.pos = 0
        self.multi = False
        self.function = function

    def peek(self) -> Any:
        return self.args[self.pos] if self.pos < len(self.args) else None

    def take(self, what: str) -> Any:
        if self.pos >= len(self.args):
            raise Failure("ArgCount", f"{self.function}: the path ends before {what}")
        token = self.args[self.pos]
        self.pos += 1
        return token

    def take_name(self, what: str) -> str:
        token = self.take(what)
        if not isinstance(token, str):
            raise Failure("ArgType", f"expected {what}, got {describe(token)}")
        return token

    def take_index(self) -> int | Literal["ALL"] | None:
        token = self.peek()
        if token == "ALL" or (isinstance(token, int) and not isinstance(token, bool)):
            self.pos += 1
            if token == "ALL":
                self.multi = True
            elif token < 0:
                raise Failure("ArgType", f"an index must be non-negative, got {token}")
            return token
        return None

    # -- 2.0 ---------------------------------------------------------------------

    def start(self) -> list[Any]:
        token = self.take("a template name or SELF")
        if token == "SELF":
            entity = self.ev.self_entity
            if entity is None:
                raise Failure("ContextError", "SELF is only defined inside a template")
            if is_relationship(entity):
                return self.rel_ctx([entity])
            return self.node_ctx([entity])
        if not isinstance(token, str):
            raise Failure(
                "ArgType", f"a path starts with SELF or a template name, got {describe(token)}"
            )
        context = self.context()
        node = context.node(token)
        if node is not None:
            return self.node_ctx(self.representations(node))
        rel = context.relationship_template(token)
        if rel is not None:
            return self.rel_ctx([rel])
        raise Failure(
            "PathError",
            f"no node template or relationship template '{token}'",
            misspelt=token,
            candidates=_names(context.node_names()),
        )

    def context(self) -> Any:
        if self.ev.context is None:
            raise Failure(
                "ContextError", "there is no template context (evaluate outside a loaded template)"
            )
        return self.ev.context

    def representations(self, node: Any) -> list[Any]:
        count = getattr(node, "count", 1)
        count = count if isinstance(count, int) and count >= 0 else 1
        index = self.take_index()
        if index == "ALL":
            return [node] * count
        if index is not None and index >= count:
            raise Failure(
                "PathError",
                f"node '{node.name}' has {count} representation(s); index {index} is out of range",
            )
        return [node]

    def node_ctx(self, nodes: list[Any]) -> list[Any]:
        token = self.peek()
        if token == "RELATIONSHIP":
            self.pos += 1
            req = self.take_name("a requirement name")
            rels: list[Any] = []
            for node in nodes:
                self.require_node(node, "RELATIONSHIP")
                matches = [r for r in node.requirements() if r.name == req]
                if not matches:
                    _unless_complete(node)
                    raise Failure(
                        "PathError",
                        f"{describe_entity(node)} has no requirement '{req}'",
                        misspelt=req,
                        candidates=[r.name for r in node.requirements()],
                    )
                rels.append(matches)
            return self.rel_ctx(self.pick_each(rels, f"requirement '{req}'"))
        if token == "CAPABILITY":
            self.pos += 1
            cap = self.take_name("a capability name")
            if self.peek() == "RELATIONSHIP":
                self.pos += 1
                groups = []
                for node in nodes:
                    self.require_node(node, "CAPABILITY")
                    self.capability_of(node, cap)
                    groups.append([r for r in node.incoming() if _cap_name(r) == cap])
                return self.rel_ctx(self.pick_each(groups, f"capability '{cap}'"))
            out = []
            for node in nodes:
                self.require_node(node, "CAPABILITY")
                out.append(self.capability_of(node, cap))
            return out
        return nodes

    def pick_each(self, groups: list[list[Any]], what: str) -> list[Any]:
        index = self.take_index()
        out: list[Any] = []
        for items in groups:
            if index == "ALL":
                out.extend(items)
                continue
            i = 0 if index is None else index
            if i >= len(items):
                raise Failure(
                    "PathError",
                    f"{what} has {len(items)} relationship(s); index {i} is out of range",
                )
            out.append(items[i])
        return out

    def require_node(self, entity: Any, keyword: str) -> None:
        if not is_node(entity):
            raise Failure(
                "PathError", f"{keyword} needs a node, but the path is at {describe_entity(entity)}"
            )

    def capability_of(self, node: Any, cap: str) -> Any:
        found = node.capability(cap)
        if found is None:
            _unless_complete(node)
            raise Failure(
                "PathError",
                f"{describe_entity(node)} has no capability '{cap}'",
                misspelt=cap,
                candidates=_names(node.capability_names()),
            )
        return found

    def rel_ctx(self, rels: list[Any]) -> list[Any]:
        token = self.peek()
        if token in ("SOURCE", "TARGET"):
            self.pos += 1
            nodes = []
            for rel in rels:
                node = rel.source if token == "SOURCE" else rel.target
                if node is None:
                    raise Failure(
                        "PathError", f"{describe_entity(rel)} has no {token.lower()} node"
                    )
                nodes.append(node)
            return self.node_ctx(nodes)
        if token == "CAPABILITY":
            self.pos += 1
            if self.peek() == "RELATIONSHIP":
                self.pos += 1
                groups = []
                for rel in rels:
                    target, cap = rel.target, _cap_name(rel)
                    if target is None or cap is None:
                        raise Failure(
                            "PathError", f"{describe_entity(rel)} has no target capability"
                        )
                    groups.append([r for r in target.incoming() if _cap_name(r) == cap])
                return self.rel_ctx(self.pick_each(groups, "the target capability"))
            caps = []
            for rel in rels:
                if rel.target_capability is None:
                    raise Failure("PathError", f"{describe_entity(rel)} has no target capability")
                caps.append(rel.target_capability)
            return caps
        return rels

    # -- 1.x ---------------------------------------------------------------------

    def start_1x(self) -> list[Any]:
        token = self.take("an entity name")
        entity = self.ev.self_entity
        if token in ("SELF", "SOURCE", "TARGET", "HOST"):
            entity = _keyword_entity_1x(token, entity)
        elif isinstance(token, str):
            context = self.context()
            entity = context.node(token)
            if entity is None:
                entity = context.relationship_template(token)
            if entity is None:
                raise Failure(
                    "PathError",
                    f"no node template '{token}'",
                    misspelt=token,
                    candidates=_names(context.node_names()),
                )
        else:
            raise Failure("ArgType", f"the entity must be a name, got {describe(token)}")
        # Optional requirement or capability name (only when a property follows it).
        second = self.peek()
        if (
            isinstance(second, str)
            and len(self.args) - self.pos >= 2
            and second not in entity.property_names()
            and is_node(entity)
        ):
            cap = entity.capability(second)
            if cap is not None:
                self.pos += 1
                return [cap]
            rels = [r for r in entity.requirements() if r.name == second]
            if rels:
                self.pos += 1
                rel = rels[0]
                prop = self.peek()
                target_cap = rel.target_capability
                if target_cap is not None and prop in target_cap.property_names():
                    return [target_cap]
                if rel.target is None:
                    raise Failure("PathError", f"requirement '{second}' has no target node")
                return [rel.target]
        return [entity]


def _cap_name(rel: Any) -> str | None:
    cap = getattr(rel, "target_capability", None)
    return getattr(cap, "name", None) if cap is not None else None


def _names(items: Collection[Any]) -> list[str]:
    return [n for n in items if isinstance(n, str)]


def _walk(ev: Any, args: Sequence[Any], function: str) -> tuple[_Walk, list[Any]]:
    walk = _Walk(ev, args, function)
    entities = walk.start_1x() if ev.dialect == "1.x" else walk.start()
    return walk, entities


def _unless_complete(entity: Any) -> None:
    """``Unevaluated`` when the entity may have names nobody here knows.

    A view whose ``definitions_complete()`` is false (its type derives from a
    profile toskit does not have) may inherit the property, capability or
    requirement a path names: the call stays a ``Call``, not a ``PathError``.
    """
    complete = getattr(entity, "definitions_complete", None)
    if callable(complete) and not complete():
        raise Unevaluated


def _check_attribute_declared(entity: Any, prop: str, names: Collection[str]) -> None:
    """A ``PathError`` for an attribute the entity's types do not declare.

    Only for a view that says its attribute names are complete
    (``attributes_complete()``: every type of its chain is known).
    """
    complete = getattr(entity, "attributes_complete", None)
    if not callable(complete) or not complete():
        return
    declared = entity.attribute_names()
    if prop not in declared:
        raise Failure(
            "PathError",
            f"{describe_entity(entity)} has no attribute '{prop}'",
            misspelt=prop,
            candidates=_names([*declared, *names]),
        )


def read_property(entity: Any, prop: str, *, attribute: bool = False) -> Any:
    """The resolved value of ``entity.prop`` with cycle detection (see context.py)."""
    names = entity.property_names()
    if prop not in names:
        if attribute:
            _check_attribute_declared(entity, prop, names)
            raise Unevaluated  # an attribute: known only at runtime
        _unless_complete(entity)
        raise Failure(
            "PathError",
            f"{describe_entity(entity)} has no property '{prop}'",
            misspelt=prop,
            candidates=_names(names),
        )
    try:
        with resolving(entity, prop):
            value = entity.property_value(prop)
    except ReferenceCycle as cycle:
        raise Failure("PathError", f"reference cycle: {cycle}") from None
    except (FunctionError, Failure, Unevaluated):
        raise
    except Exception as exc:  # a broken view must not leak a bare KeyError/TypeError
        raise Failure(
            "PathError",
            f"property '{prop}' of {describe_entity(entity)} could not be read: "
            f"{type(exc).__name__}: {exc}",
        ) from None
    if value is NO_DEFAULT:
        if attribute:
            raise Unevaluated
        raise Failure("PathError", f"property '{prop}' of {describe_entity(entity)} has no value")
    if contains_call(value):
        raise Unevaluated
    return value


def get_property(ev: Any, args: Sequence[Any], *, attribute: bool) -> Any:
    """``$get_property`` / ``$get_attribute``: walk the path, read the property, follow steps."""
    from toskit.functions.evaluate import Typed

    name = "$get_attribute" if attribute else "$get_property"
    walk, entities = _walk(ev, args, name)
    prop = walk.take_name("a property name")
    steps = walk.args[walk.pos :]
    results = []
    for entity in entities:
        value = read_property(entity, prop, attribute=attribute)
        results.append(index_value(value, steps, f"property '{prop}'"))
    if walk.multi:
        return results
    type_name = None
    if not steps:
        type_name = entities[0].property_type(prop)
    return Typed(results[0], type_name)


def get_artifact(ev: Any, args: Sequence[Any]) -> Any:
    """``$get_artifact``: the ``file`` of a node's artifact."""
    walk, entities = _walk(ev, args, "$get_artifact")
    artifact = walk.take_name("an artifact name")
    if walk.pos < len(walk.args):
        raise Failure(
            "ArgCount", f"unexpected arguments after the artifact name: {walk.args[walk.pos :]!r}"
        )
    results = []
    for entity in entities:
        if not is_node(entity):
            raise Failure(
                "PathError", f"artifacts belong to nodes, not to {describe_entity(entity)}"
            )
        found = entity.artifact(artifact)
        if found is None:
            raise Failure(
                "PathError",
                f"{describe_entity(entity)} has no artifact '{artifact}'",
                misspelt=artifact,
                candidates=_names(entity.artifact_names()),
            )
        results.append(found)
    return results if walk.multi else results[0]


def check_allocation_path(ev: Any, args: Sequence[Any]) -> None:
    """``$available_allocation``: the path must end at a capability, then a property name."""
    walk, entities = _walk(ev, args, "$available_allocation")
    for entity in entities:
        if not is_capability(entity):
            raise Failure(
                "PathError",
                "$available_allocation needs a path to a capability, not "
                f"{describe_entity(entity)}",
            )
    prop = walk.take_name("a property name")
    for entity in entities:
        if prop not in entity.property_names():
            raise Failure(
                "PathError",
                f"{describe_entity(entity)} has no property '{prop}'",
                misspelt=prop,
                candidates=_names(entity.property_names()),
            )


def _keyword_entity_1x(token: str, entity: Any) -> Any:
    """The entity a 1.x path's ``SELF``, ``SOURCE``, ``TARGET`` or ``HOST``
    names, seen from ``entity`` (the template being evaluated)."""
    if entity is None:
        raise Failure("ContextError", f"{token} is only defined inside a template")
    if token in ("SOURCE", "TARGET"):
        if not is_relationship(entity):
            raise Failure("ContextError", f"{token} is only defined inside a relationship")
        found = entity.source if token == "SOURCE" else entity.target
        if found is None:
            raise Failure("ContextError", f"the relationship has no {token.lower()} node")
        return found
    if token == "HOST":
        node = entity.source if is_relationship(entity) else entity
        host = node.host() if node is not None and is_node(node) else None
        if host is None:
            raise Failure("ContextError", "HOST: no host requirement can be followed")
        return host
    return entity
