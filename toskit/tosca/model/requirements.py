"""Resolve requirement assignments to their target node templates.

A requirement assignment names its target by node template name, by node
type (the first other template of that type), or only through a
capability type / node filter (the first other template offering such a
capability). The result is a :class:`~toskit.tosca.model.template.Requirement`
on ``NodeTemplate.requirements`` that functions and views follow.

In 1.x documents a requirement defined by the node type whose lower
occurrence bound is not met is an ``unfulfilled-requirement`` *warning*:
toskit explores partial templates that an orchestrator completes. TOSCA 2.0
lets the orchestrator fulfil requirements, so no warning there.

A resolved target must suit the relationship's type: in 1.x the target
capability's type derives from one of its ``valid_target_types`` (capability
types); in 2.0 from one of its ``valid_capability_types``, and the target
node's type from one of its ``valid_target_node_types``. Otherwise it is an
``invalid-relationship-target`` error (docs/tosca.md says why an error).
Nothing is judged where a type involved is unknown or derives from an
unknown profile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic
from toskit.tosca.model import node_filters
from toskit.tosca.model.entities import resolve_properties
from toskit.tosca.model.template import NodeTemplate, RelationshipTemplate, Requirement
from toskit.tosca.types.definitions import Type

if TYPE_CHECKING:
    from toskit.tosca.load.context import EntitiesContext

__all__ = ["resolve_requirements"]


def _lower_bound(definition: Any, major: int) -> int:
    if not isinstance(definition, Mapping):
        return 1
    bounds = definition.get("count_range" if major == 2 else "occurrences")
    if (
        isinstance(bounds, list)
        and bounds
        and isinstance(bounds[0], int)
        and not isinstance(bounds[0], bool)
    ):
        return bounds[0]
    return 1


def resolve_requirements(
    ctx: EntitiesContext, nodes: dict[str, NodeTemplate], rels: dict[str, RelationshipTemplate]
) -> list[Diagnostic]:
    """Fill ``requirements`` of every node template; returns diagnostics."""
    diags: list[Diagnostic] = []
    doc = ctx.doc
    major = ctx.grammar.major
    registry = ctx.registry
    # Candidates by type, capability and filtered property value, built once per load.
    candidates = node_filters.CandidateIndex(nodes, registry)
    # Per node type (by id; the type is kept in its entry): its requirements'
    # occurrence bounds (_type_bounds), read by _check_counts for each template.
    bounds: dict[int, Any] = {}
    for node in nodes.values():
        raw = node.raw
        assigned = (
            raw.get("requirements") if raw.__class__ is dict or isinstance(raw, Mapping) else None
        )
        entries = assigned if isinstance(assigned, list) else []
        definitions = dict(node.type.requirements) if entries else {}
        for index, entry in enumerate(entries):
            if not isinstance(entry, Mapping) or len(entry) != 1:
                continue
            ((rname, value),) = entry.items()
            parts = (*node.parts, "requirements", index, rname)
            # A type deriving from a profile toskit does not have may inherit
            # the requirement: not "unknown" (the import's warning says so).
            if (
                node.type_known
                and rname not in definitions
                and not registry.derives_from_opaque(node.type)
            ):
                diags.append(
                    doc.diagnostic(
                        "error",
                        "unknown-requirement",
                        f"node template '{node.name}': unknown requirement '{rname}' "
                        f"(not declared by {node.type.name})",
                        parts,
                        misspelt=str(rname),
                        candidates=definitions,
                        at_key=True,
                    )
                )
            req = Requirement(name=str(rname), raw=value)
            definition = definitions.get(rname)
            target_name: Any = None
            capability: Any = None
            if isinstance(value, str):
                target_name = value
            elif isinstance(value, Mapping):
                target_name = value.get("node")
                capability = value.get("capability")
                req.relationship = value.get("relationship")
                req.node_filter = value.get("node_filter")
            if capability is None and isinstance(definition, Mapping):
                capability = definition.get("capability")
            elif capability is None and isinstance(definition, str):
                capability = definition
            req.capability = capability if isinstance(capability, str) else None
            req.target_name = target_name if isinstance(target_name, str) else None
            req.target = _find_target(
                node,
                req.target_name,
                req.capability,
                definition,
                nodes,
                registry,
                req.node_filter,
                candidates,
            )
            if req.target is None and req.target_name is not None:
                known = nodes.get(req.target_name) or registry.lookup("node", req.target_name)
                if known is None:
                    diags.append(
                        doc.diagnostic(
                            "error",
                            "unknown-node",
                            f"node template '{node.name}': requirement '{rname}' names "
                            f"'{req.target_name}', which is neither a node template "
                            "nor a node type",
                            (*parts, "node") if isinstance(value, Mapping) else parts,
                            misspelt=req.target_name,
                            candidates=nodes,
                        )
                    )
            _relationship(ctx, node, req, definition, rels, parts)
            found = _check_target(ctx, node, req, parts)
            if found is not None:
                diags.append(found)
            node.requirements.append(req)
        if node.type_known:
            found_bounds = bounds.get(id(node.type))
            if found_bounds is None:
                found_bounds = bounds[id(node.type)] = (node.type, _type_bounds(node.type, major))
            if node.requirements or found_bounds[1][1]:
                diags.extend(_check_counts(doc, node, major, found_bounds[1][0]))
    return diags


def _type_bounds(node_type: Any, major: int) -> tuple[list[tuple[str, int, int | None]], bool]:
    """``[(name, lower, upper)]`` of a node type's requirement definitions, and
    whether a template that assigns none of them draws a finding (a lower
    bound above zero in 1.x, an upper bound below zero)."""
    out = [
        (rname, _lower_bound(definition, major), _upper_bound(definition, major))
        for rname, definition in node_type.requirements
    ]
    empty_finds = any(
        (upper is not None and upper < 0) or (lower > 0 and major == 1) for _, lower, upper in out
    )
    return out, empty_finds


def _upper_bound(definition: Any, major: int) -> int | None:
    """The upper occurrence bound when the definition writes one (``None``: no check).

    Without written bounds nothing is enforced above: real templates (and the
    TOSCA 2.0 conformance suite) assign an unbounded requirement several times.
    """
    if not isinstance(definition, Mapping):
        return None
    bounds = definition.get("count_range" if major == 2 else "occurrences")
    if isinstance(bounds, list) and len(bounds) == 2:
        upper = bounds[1]
        if isinstance(upper, int) and not isinstance(upper, bool):
            return upper
    return None


def _check_counts(
    doc: Any,
    node: NodeTemplate,
    major: int,
    bounds: list[tuple[str, int, int | None]] | None = None,
) -> list[Diagnostic]:
    """Occurrence bounds of a template's requirement assignments.

    Above the upper bound is an error in both versions. Below the lower
    bound: 1.x warns (``unfulfilled-requirement``: the orchestrator completes
    partial templates); 2.0 lets the orchestrator add the missing ones when
    the template writes none, but a template that writes some and too few
    is an error (as the TOSCA 2.0 conformance suite tests it).
    """
    out: list[Diagnostic] = []
    counts: dict[str, int] = {}
    for req in node.requirements:
        value = req.raw
        count = value.get("count", 1) if isinstance(value, Mapping) else 1
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            count = 1
        counts[req.name] = counts.get(req.name, 0) + count
    if bounds is None:
        bounds = _type_bounds(node.type, major)[0]
    for rname, lower, upper in bounds:
        have = counts.get(rname, 0)
        if upper is not None and have > upper:
            out.append(
                doc.diagnostic(
                    "error",
                    "requirement-count",
                    f"node template '{node.name}': requirement '{rname}' allows at most {upper} "
                    f"assignment{'s' if upper != 1 else ''}, has {have}",
                    (*node.parts, "requirements"),
                    at_key=True,
                )
            )
        elif have < lower and major == 1:
            out.append(
                doc.diagnostic(
                    "warning",
                    "unfulfilled-requirement",
                    f"node template '{node.name}': requirement '{rname}' needs at least "
                    f"{lower} assignment{'s' if lower != 1 else ''}, has {have}",
                    node.parts,
                    at_key=True,
                )
            )
        elif 0 < have < lower:
            out.append(
                doc.diagnostic(
                    "error",
                    "requirement-count",
                    f"node template '{node.name}': requirement '{rname}' needs at least {lower} "
                    f"assignments, has {have}",
                    (*node.parts, "requirements"),
                    at_key=True,
                )
            )
    return out


def _relationship(
    ctx: EntitiesContext,
    node: NodeTemplate,
    req: Requirement,
    definition: Any,
    rels: dict[str, RelationshipTemplate],
    parts: tuple,
) -> None:
    """The relationship of a requirement: a relationship template, or a type
    with the properties the assignment writes (checked, defaults merged)."""
    written = req.relationship
    if written is None and isinstance(definition, Mapping):
        written = definition.get("relationship")
    name = written.get("type") if isinstance(written, Mapping) else written
    if isinstance(name, str) and name in rels:
        req.relationship_template = rels[name]
        req.properties = rels[name].properties
        return
    rtype = ctx.registry.lookup("relationship", name) if isinstance(name, str) else None
    if rtype is None:
        return
    req.relationship_type = rtype
    assigned = req.relationship if isinstance(req.relationship, Mapping) else None
    props = assigned.get("properties") if assigned is not None else None
    res = resolve_properties(
        ctx,
        f"node template '{node.name}' requirement '{req.name}'",
        rtype,
        rtype.properties,
        props,
        (*parts, "relationship") if assigned is not None else parts,
        # The orchestrator completes relationships; what is written is checked.
        require_values=False,
        # Properties a parent from an unknown profile may declare are not "unknown".
        check_unknown=not ctx.registry.derives_from_opaque(rtype),
    )
    req.properties = res.values


def _find_target(
    node: NodeTemplate,
    target_name: str | None,
    capability: str | None,
    definition: Any,
    nodes: dict[str, NodeTemplate],
    registry: Any,
    node_filter: Any = None,
    candidates: node_filters.CandidateIndex | None = None,
) -> NodeTemplate | None:
    """The first template that fits (see the module docstring).

    Candidates are tried lazily, in declaration order, so a template with
    thousands of nodes does not pay for every requirement on every node;
    with ``candidates`` (:class:`~toskit.tosca.model.node_filters.CandidateIndex`)
    only the templates of the right type and capability, narrowed by the
    filter's equality clauses, are tried.
    """
    if target_name is not None and target_name in nodes:
        return nodes[target_name]
    if node_filter is None and isinstance(definition, Mapping):
        node_filter = definition.get("node_filter")

    def first(ntype: Type | None, ctype: Type | None) -> NodeTemplate | None:
        if candidates is not None:
            return candidates.first(node, ntype, ctype, node_filter, ctype or capability)
        for other in nodes.values():
            if other is node or (ntype is not None and not other.type.is_a(ntype)):
                continue
            if ctype is not None and not any(
                c.type.is_a(ctype) for c in other.capabilities.values()
            ):
                continue
            # Node filters (1.3 clauses and 2.0 conditions) take part in choosing
            # the target: toskit.tosca.model.node_filters judges each candidate.
            if node_filters.passes(
                other, node_filter, registry, source=node, capability=ctype or capability
            ):
                return other
        return None

    if target_name is not None:
        ntype = registry.lookup("node", target_name)
        return first(ntype, None) if ntype is not None else None
    ctype = registry.lookup("capability", capability) if capability is not None else None
    if isinstance(definition, Mapping) and isinstance(definition.get("node"), str):
        ntype = registry.lookup("node", definition["node"])
        if ntype is not None:
            found = first(ntype, ctype)
            if found is not None:
                return found
    return first(None, ctype)


def _valid_types(ctx: EntitiesContext, rtype: Type, key: str, kind: str) -> list[Type] | None:
    """The types ``rtype``'s nearest declaring ancestor lists under ``key``.

    ``None``: nothing to judge (no type of the chain declares the list, or a
    name in it is unknown, reported where it is written).
    """
    for t in reversed(rtype.chain):
        names = t.definition.get(key)
        if not isinstance(names, list):
            continue
        found = [ctx.registry.lookup(kind, n, t.prefix) for n in names if isinstance(n, str)]
        if not found or any(f is None for f in found):
            return None
        return [f for f in found if f is not None]
    return None


def _target_capabilities(ctx: EntitiesContext, req: Requirement, target: NodeTemplate) -> list[Any]:
    """The target's capabilities the requirement may use.

    The one it names (by name, or those of the type it names); every
    capability when it names none.
    """
    name = req.capability
    if name is None:
        return list(target.capabilities.values())
    if name in target.capabilities:
        return [target.capabilities[name]]
    ctype = ctx.registry.lookup("capability", name)
    if ctype is None:
        return []
    return [c for c in target.capabilities.values() if c.type.is_a(ctype)]


def _missing_capability(
    ctx: EntitiesContext, node: NodeTemplate, req: Requirement, target: NodeTemplate, parts: tuple
) -> Diagnostic | None:
    """``invalid-requirement-target`` when the requirement names a capability
    type that the chosen target offers no capability of (issue #36: ``Host``
    of one version of a profile is not ``Host`` of another). TOSCA 2.0 only:
    1.x profiles in the wild name capabilities their own node types lack
    (the NFV profile's Forwarder on CP), which 1.x processors accept."""
    name = req.capability
    if ctx.grammar.major != 2 or name is None or name in target.capabilities:
        return None
    ctype = ctx.registry.lookup("capability", name)
    if ctype is None and node.type_known:
        # A name written in the requirement definition of an imported type:
        # looked up where that type was written.
        ctype = next(
            (
                found
                for t in reversed(node.type.chain)
                if (found := ctx.registry.lookup("capability", name, t.prefix)) is not None
            ),
            None,
        )
    if ctype is None or ctx.registry.derives_from_opaque(ctype):
        return None
    caps = list(target.capabilities.values())
    if any(ctx.registry.derives_from_opaque(c.type) for c in caps):
        return None
    if any(c.type.is_a(ctype) for c in caps):
        return None
    offered = ", ".join(sorted(f"{c.name} ({c.type.name})" for c in caps)) or "none"
    value = req.raw
    at = (*parts, "node") if isinstance(value, Mapping) and "node" in value else parts
    return ctx.doc.diagnostic(
        "error",
        "invalid-requirement-target",
        f"node template '{node.name}': requirement '{req.name}': node '{target.name}' offers "
        f"no capability of type {ctype.name} (its capabilities: {offered})",
        at,
        hint="target a node with such a capability; a type of another version of a profile "
        "is another type",
    )


def _check_target(
    ctx: EntitiesContext, node: NodeTemplate, req: Requirement, parts: tuple
) -> Diagnostic | None:
    """``invalid-relationship-target`` when the resolved target does not suit
    the relationship's type (see the module docstring)."""
    registry = ctx.registry
    target = req.target
    rtype = (
        req.relationship_template.type
        if req.relationship_template is not None
        else req.relationship_type
    )
    if target is None or rtype is None:
        return None
    if req.relationship_template is not None and not req.relationship_template.type_known:
        return None
    if not target.type_known or registry.derives_from_opaque(target.type):
        return None
    missing = _missing_capability(ctx, node, req, target, parts)
    if missing is not None:
        return missing
    if registry.derives_from_opaque(rtype):
        return None
    v2 = ctx.grammar.major == 2
    problem = None
    node_types = _valid_types(ctx, rtype, "valid_target_node_types", "node") if v2 else None
    if node_types and not any(target.type.is_a(t) for t in node_types):
        listed = ", ".join(t.name for t in node_types)
        problem = (
            f"node '{target.name}': its type {target.type.name} is not among the "
            f"relationship's valid_target_node_types [{listed}]"
        )
    key = "valid_capability_types" if v2 else "valid_target_types"
    cap_types = _valid_types(ctx, rtype, key, "capability")
    caps = _target_capabilities(ctx, req, target)
    if (
        problem is None
        and cap_types
        and caps
        and not any(registry.derives_from_opaque(c.type) for c in caps)
        and not any(c.type.is_a(t) for c in caps for t in cap_types)
    ):
        listed = ", ".join(t.name for t in cap_types)
        offered = ", ".join(sorted({f"{c.name} ({c.type.name})" for c in caps}))
        problem = (
            f"node '{target.name}': no capability it offers here ({offered}) is of the "
            f"relationship's {key} [{listed}]"
        )
    if problem is None:
        return None
    value = req.raw
    at = (
        (*parts, "relationship")
        if isinstance(value, Mapping) and "relationship" in value
        else parts
    )
    return ctx.doc.diagnostic(
        "error",
        "invalid-relationship-target",
        f"node template '{node.name}': requirement '{req.name}': relationship type "
        f"{rtype.name} cannot target {problem}",
        at,
        hint=f"use a relationship type whose {key} include the target capability's type",
    )
