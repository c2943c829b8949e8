"""Interface assignments of node templates (issue 20 item 13).

A node template may only assign interfaces its node type declares
(``unknown-interface``) and, in them, operations and notifications the
interface type or the node type's interface definition declares
(``unknown-operation``); a ``get_input`` in an operation's inputs must name
a declared topology input (``function-error``, as in a property). Each diagnostic has a
did-you-mean hint. Nothing is reported for a node whose type, or whose
interface's type, is unknown or derives from an unknown profile: what
cannot be known is not guessed.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterator, Mapping
from typing import Any

from toskit.diagnostics import Diagnostic, did_you_mean
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


def _declared_interfaces(registry: Any, ntype: Any) -> dict[str, set[str] | None]:
    """Interface name -> the operation names it allows (``None``: cannot be known)."""
    declared: dict[str, set[str] | None] = {}
    for t in ntype.chain:
        section = t.definition.get("interfaces")
        if not isinstance(section, Mapping):
            continue
        for iname, idef in section.items():
            ops = declared.get(str(iname), set())
            if ops is None:
                continue
            type_name = idef.get("type") if isinstance(idef, Mapping) else None
            if isinstance(type_name, str):
                itype = registry.lookup("interface", type_name, t.prefix)
                if itype is None or not _complete(registry, itype):
                    declared[str(iname)] = None
                    continue
                for a in itype.chain:
                    ops.update(_operation_names(a.definition))
            ops.update(_operation_names(idef))
            declared[str(iname)] = ops
    return declared


def check_template_interfaces(
    registry: Any,
    doc: YamlDocument,
    topology: Mapping,
    tparts: tuple[Hashable, ...],
    inputs: Collection[str],
    v2: bool,
) -> list[Diagnostic]:
    """Diagnostics of the node templates' interface assignments."""
    out: list[Diagnostic] = []
    templates = topology.get("node_templates")
    if not isinstance(templates, Mapping):
        return out
    for name, raw in templates.items():
        interfaces = raw.get("interfaces") if isinstance(raw, Mapping) else None
        if not isinstance(interfaces, Mapping):
            continue
        parts = (*tparts, "node_templates", name, "interfaces")
        label = f"node template '{name}'"
        for iname, assignment in interfaces.items():
            if not isinstance(assignment, Mapping):
                continue
            for _, op, rel in _assigned(assignment, v2):
                op_inputs = op.get("inputs") if isinstance(op, Mapping) else None
                at = (*parts, iname, *rel, "inputs")
                out.extend(_input_refs(doc, op_inputs, at, inputs, label, v2))
        ntype = registry.lookup("node", raw.get("type"))
        if ntype is None or not _complete(registry, ntype):
            continue
        declared = _declared_interfaces(registry, ntype)
        for iname, assignment in interfaces.items():
            if iname not in declared:
                out.append(
                    doc.diagnostic(
                        "error",
                        "unknown-interface",
                        f"{label}: unknown interface '{iname}' (not declared by {ntype.name})",
                        (*parts, iname),
                        hint=did_you_mean(str(iname), list(declared)),
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
                        hint=did_you_mean(op_name, sorted(allowed)),
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
                            hint=did_you_mean(name, list(inputs)),
                        )
                    )
                continue
            stack.extend((v, (*at, k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, (*at, i)) for i, v in enumerate(node))
    return out
