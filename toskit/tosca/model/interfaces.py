"""Interface assignments of templates (issue 20 item 13).

Node templates, relationship templates (and a requirement's inline
``relationship: {type, interfaces}``, which also sees the interfaces the
requirement definition adds to its relationship) and 1.x groups: each
may only assign interfaces its type declares
(``unknown-interface``) and, in them, operations and notifications the
interface type or the type's interface definition declares
(``unknown-operation``); a ``get_input`` in an operation's inputs must name
a declared topology input (``function-error``, as in a property). Each diagnostic has a
did-you-mean hint. Nothing is reported for a template whose type, or whose
interface's type, is unknown or derives from an unknown profile, or whose
type chain declares no interface at all: what cannot be known is not guessed.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterator, Mapping
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.source import YamlDocument

__all__ = ["check_template_interfaces"]

# Keynames of an interface definition or assignment that are not operations
# (TOSCA 1.x writes operations as plain keys).
_NOT_OPERATIONS = frozenset(
    {
        "type",
        "description",
        "inputs",
        "metadata",
        "operations",
        "notifications",
        "derived_from",
        "version",
    }
)


def _operation_names(definition: Any) -> Iterator[str]:
    """Operations and notifications an interface type or definition declares."""
    if not isinstance(definition, Mapping):
        return
    for section in ("operations", "notifications"):
        ops = definition.get(section)
        if isinstance(ops, Mapping):
            yield from (str(k) for k in ops)
    yield from (str(k) for k in definition if k not in _NOT_OPERATIONS)


def _complete(registry: Any, t: Any) -> bool:
    """Every type of ``t``'s chain is known (none derives from an unknown profile)."""
    return not any(registry.is_opaque(a.definition.get("derived_from")) for a in t.chain)


def _declared_interfaces(
    registry: Any, etype: Any, extra: Mapping | None = None
) -> dict[str, set[str] | None]:
    """Interface name -> the operation names it allows (``None``: cannot be known).

    ``extra``: interface definitions a requirement definition adds to its
    relationship (``relationship: {type: ..., interfaces: ...}``).
    """
    declared: dict[str, set[str] | None] = {}
    sections = [(t.definition.get("interfaces"), t.prefix) for t in etype.chain]
    sections.append((extra, None))
    for section, prefix in sections:
        if not isinstance(section, Mapping):
            continue
        for iname, idef in section.items():
            ops = declared.get(str(iname), set())
            if ops is None:
                continue
            type_name = idef.get("type") if isinstance(idef, Mapping) else None
            if isinstance(type_name, str):
                itype = registry.lookup("interface", type_name, prefix)
                if itype is None or not _complete(registry, itype):
                    declared[str(iname)] = None
                    continue
                for a in itype.chain:
                    ops.update(_operation_names(a.definition))
            ops.update(_operation_names(idef))
            declared[str(iname)] = ops
    return declared


# (label, type kind, type name, interface assignments, their path, extra definitions)
_Assignment = tuple[str, str, Any, Mapping, tuple[Hashable, ...], "Mapping | None"]


def _assignments(
    registry: Any, topology: Mapping, tparts: tuple[Hashable, ...]
) -> Iterator[_Assignment]:
    """Every interface assignment of the topology, with what checks it.

    Node templates, relationship templates, a requirement's inline
    relationship and (1.x) groups; policies have no interfaces in any
    version's grammar.
    """
    for section, kind, noun in (
        ("node_templates", "node", "node template"),
        ("relationship_templates", "relationship", "relationship template"),
        ("groups", "group", "group"),
    ):
        templates = topology.get(section)
        if not isinstance(templates, Mapping):
            continue
        for name, raw in templates.items():
            if not isinstance(raw, Mapping):
                continue
            interfaces = raw.get("interfaces")
            if isinstance(interfaces, Mapping):
                parts = (*tparts, section, name, "interfaces")
                yield f"{noun} '{name}'", kind, raw.get("type"), interfaces, parts, None
            if kind == "node":
                yield from _requirement_assignments(registry, name, raw, (*tparts, section, name))


def _requirement_assignments(
    registry: Any, name: Any, raw: Mapping, parts: tuple[Hashable, ...]
) -> Iterator[_Assignment]:
    """The interface assignments of a node template's inline relationships."""
    entries = raw.get("requirements")
    if not isinstance(entries, list):
        return
    ntype = registry.lookup("node", raw.get("type"))
    definitions = dict(ntype.requirements) if ntype is not None else {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or len(entry) != 1:
            continue
        ((rname, value),) = entry.items()
        rel = value.get("relationship") if isinstance(value, Mapping) else None
        interfaces = rel.get("interfaces") if isinstance(rel, Mapping) else None
        if not isinstance(rel, Mapping) or not isinstance(interfaces, Mapping):
            continue
        definition = definitions.get(rname)
        drel = definition.get("relationship") if isinstance(definition, Mapping) else None
        type_name = rel.get("type")
        if type_name is None:
            type_name = drel.get("type") if isinstance(drel, Mapping) else drel
        extra = drel.get("interfaces") if isinstance(drel, Mapping) else None
        yield (
            f"node template '{name}' requirement '{rname}'",
            "relationship",
            type_name,
            interfaces,
            (*parts, "requirements", index, rname, "relationship", "interfaces"),
            extra if isinstance(extra, Mapping) else None,
        )


def check_template_interfaces(
    registry: Any,
    doc: YamlDocument,
    topology: Mapping,
    tparts: tuple[Hashable, ...],
    inputs: Collection[str],
    v2: bool,
) -> list[Diagnostic]:
    """Diagnostics of the topology's interface assignments (see the module docstring)."""
    out: list[Diagnostic] = []
    if doc.key_names is not None and "interfaces" not in doc.key_names:
        # The topology is this document's: no key of it is ``interfaces``,
        # so no template assigns any (bench B1: no walk over the templates).
        return out
    for label, kind, type_name, interfaces, parts, extra in _assignments(
        registry, topology, tparts
    ):
        out.extend(
            _check_assignment(
                registry, doc, label, kind, type_name, interfaces, parts, extra, inputs, v2
            )
        )
    return out


def _check_assignment(
    registry: Any,
    doc: YamlDocument,
    label: str,
    kind: str,
    type_name: Any,
    interfaces: Mapping,
    parts: tuple[Hashable, ...],
    extra: Mapping | None,
    inputs: Collection[str],
    v2: bool,
) -> list[Diagnostic]:
    """One template's interface assignments against its type's interface definitions."""
    out: list[Diagnostic] = []
    for iname, assignment in interfaces.items():
        if not isinstance(assignment, Mapping):
            continue
        for _, op, rel in _assigned(assignment, v2):
            op_inputs = op.get("inputs") if isinstance(op, Mapping) else None
            at = (*parts, iname, *rel, "inputs")
            out.extend(_input_refs(doc, op_inputs, at, inputs, label, v2))
    etype = registry.lookup(kind, type_name) if isinstance(type_name, str) else None
    if etype is None or not _complete(registry, etype):
        return out
    declared = _declared_interfaces(registry, etype, extra)
    if not declared:
        # A type none of whose chain declares any interface (a root type of
        # its own, as the TOSCA 2.0 spec's snippets write ConnectsTo for a
        # relationship template with a `configure` interface, and the OASIS
        # suite expects them valid) says nothing about its interfaces.
        return out
    for iname, assignment in interfaces.items():
        if iname not in declared:
            out.append(
                doc.diagnostic(
                    "error",
                    "unknown-interface",
                    f"{label}: unknown interface '{iname}' (not declared by {etype.name})",
                    (*parts, iname),
                    misspelt=str(iname),
                    candidates=list(declared),
                    at_key=True,
                )
            )
            continue
        allowed = declared[iname]
        if allowed is None or not isinstance(assignment, Mapping):
            continue
        for op_name, _, rel in _assigned(assignment, v2):
            if op_name in allowed:
                continue
            out.append(
                doc.diagnostic(
                    "error",
                    "unknown-operation",
                    f"{label}: interface '{iname}' has no operation '{op_name}'",
                    (*parts, iname, *rel),
                    misspelt=op_name,
                    candidates=sorted(allowed),
                    at_key=True,
                )
            )
    return out


def _assigned(assignment: Mapping, v2: bool) -> Iterator[tuple[str, Any, tuple[Hashable, ...]]]:
    """The operations and notifications an interface assignment writes, with their paths."""
    for section in ("operations", "notifications"):
        ops = assignment.get(section)
        if isinstance(ops, Mapping):
            for k, v in ops.items():
                yield str(k), v, (section, k)
    if not v2:
        for k, v in assignment.items():
            if k not in _NOT_OPERATIONS:
                yield str(k), v, (k,)


def _input_refs(
    doc: YamlDocument,
    value: Any,
    parts: tuple[Hashable, ...],
    inputs: Collection[str],
    label: str,
    v2: bool,
) -> list[Diagnostic]:
    """``unknown-input`` for each ``get_input`` in ``value`` naming an undeclared input."""
    out: list[Diagnostic] = []
    key = "$get_input" if v2 else "get_input"
    stack: list[tuple[Any, tuple[Hashable, ...]]] = [(value, parts)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, Mapping):
            if len(node) == 1 and key in node:
                arg = node[key]
                name = arg[0] if isinstance(arg, list) and arg else arg
                if isinstance(name, str) and name not in inputs:
                    out.append(
                        doc.diagnostic(
                            "error",
                            "function-error",
                            f"{label}: get_input: UnknownInput: no input '{name}' is declared",
                            at,
                            misspelt=name,
                            candidates=list(inputs),
                        )
                    )
                continue
            stack.extend((v, (*at, k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, (*at, i)) for i, v in enumerate(node))
    return out
