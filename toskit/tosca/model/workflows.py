"""TOSCA 2.0 workflows: the inputs of ``call_operation`` activities.

Part of the loading pipeline (:mod:`toskit.tosca.load.loader`), run for 2.0
files only (TOSCA 1.3's ``call_operation`` names an operation, no inputs).
For each ``call_operation`` whose step targets a node template, the
operation's parameters are collected from the interface type (its and the
operation's ``inputs``) and from every type of the template's derivation
chain (interface-level and operation-level ``inputs``). Then:

* an input the activity gives that the operation does not declare is
  ``unknown-operation-input``;
* a required declared input (``required`` not ``false``, no ``default`` or
  ``value``) that neither the activity, the types nor the template's own
  interface assignment gives is ``missing-operation-input``;
* ``{$get_input: x}`` of a workflow input whose primitive type differs from
  the operation input's is ``type-mismatch`` (an integer may feed a float);
* ``{$get_input: x}`` of an optional workflow input feeding a required
  operation input is ``missing-operation-input`` (the workflow may be run
  without it).

An operation toskit cannot find (unknown interface or operation, a target
that is a group) is not checked: the interface grammar itself is checked
elsewhere, and a missing check is better than a false error.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic
from toskit.tosca.types.definitions import Type

if TYPE_CHECKING:
    from toskit.source import YamlDocument
    from toskit.tosca.model.template import NodeTemplate
    from toskit.tosca.types.registry import Registry

# ``LoadContext.value_type``: (type name, owner type) -> value type.
ValueTypeFn = Callable[[Any, Any], Any]

__all__ = ["check_workflows"]


def check_workflows(
    doc: YamlDocument,
    registry: Registry,
    value_type: ValueTypeFn,
    topology: Mapping,
    tparts: tuple[Hashable, ...],
    nodes: Mapping[str, Any],
) -> list[Diagnostic]:
    """Diagnostics of every ``call_operation`` activity (see the module docstring).

    Reads only the document (for locations), the registry (interface types)
    and the value-type resolver (primitive types of inputs).
    """
    out: list[Diagnostic] = []
    workflows = topology.get("workflows")
    if not isinstance(workflows, Mapping):
        return out
    for wname, workflow in workflows.items():
        if not isinstance(workflow, Mapping) or not isinstance(workflow.get("steps"), Mapping):
            continue
        inputs = workflow.get("inputs")
        winputs: Mapping = inputs if isinstance(inputs, Mapping) else {}
        for sname, step in workflow["steps"].items():
            if not isinstance(step, Mapping) or not isinstance(step.get("activities"), list):
                continue
            target = step.get("target")
            node = nodes.get(target) if isinstance(target, str) else None
            if node is None:
                continue
            for index, activity in enumerate(step["activities"]):
                if not isinstance(activity, Mapping) or "call_operation" not in activity:
                    continue
                parts = (
                    *tparts,
                    "workflows",
                    wname,
                    "steps",
                    sname,
                    "activities",
                    index,
                    "call_operation",
                )
                out.extend(
                    _check_call(
                        doc, registry, value_type, node, activity["call_operation"], winputs, parts
                    )
                )
    return out


def _check_call(
    doc: YamlDocument,
    registry: Registry,
    value_type: ValueTypeFn,
    node: NodeTemplate,
    call: Any,
    winputs: Mapping,
    parts: tuple[Hashable, ...],
) -> list[Diagnostic]:
    given: Mapping = {}
    if isinstance(call, str):
        name = call
    elif isinstance(call, Mapping) and isinstance(call.get("operation"), str):
        name = call["operation"]
        written = call.get("inputs")
        given = written if isinstance(written, Mapping) else {}
    else:
        return []
    iface, _, op = name.partition(".")
    declared = _declared_inputs(registry, node, iface, op)
    if declared is None:
        return []
    definitions, assigned = declared
    assigned |= _template_assigned(node, iface, op)
    # Inputs a parent from a profile toskit does not have may declare: not "unknown".
    open_ended = _open_ended(registry, node, iface)
    out: list[Diagnostic] = []
    label = f"call_operation '{name}' on node template '{node.name}'"
    for key, value in given.items():
        if key not in definitions and key not in assigned:
            if open_ended:
                continue
            out.append(
                doc.diagnostic(
                    "error",
                    "unknown-operation-input",
                    f"{label}: operation '{name}' has no input '{key}'",
                    (*parts, "inputs", key),
                    at_key=True,
                    misspelt=str(key),
                    candidates=[*definitions, *assigned],
                )
            )
            continue
        definition = definitions.get(key)
        source = _workflow_input(value, winputs)
        if definition is None or source is None:
            continue
        wname, wdef = source
        wtype, otype = wdef.get("type"), definition.get("type")
        if _clash(value_type, wtype, otype):
            out.append(
                doc.diagnostic(
                    "error",
                    "type-mismatch",
                    f"{label}: input '{key}' expects {otype}, "
                    f"but workflow input '{wname}' is {wtype}",
                    (*parts, "inputs", key),
                )
            )
        elif _required(definition) and wdef.get("required", True) is False and not _has_value(wdef):
            out.append(
                doc.diagnostic(
                    "error",
                    "missing-operation-input",
                    f"{label}: input '{key}' is required, but workflow input '{wname}' that "
                    "feeds it is optional",
                    (*parts, "inputs", key),
                    hint=f"make workflow input '{wname}' required or give it a default",
                )
            )
    for key, definition in definitions.items():
        if key in given or key in assigned or not _required(definition):
            continue
        out.append(
            doc.diagnostic(
                "error",
                "missing-operation-input",
                f"{label}: the required input '{key}' of operation '{name}' has no value",
                parts,
                hint=f"give it under 'inputs:' of the call_operation ({key}: ...)",
            )
        )
    return out


def _declared_inputs(
    registry: Registry, node: NodeTemplate, iface: str, op: str
) -> tuple[dict[str, Mapping], set[str]] | None:
    """Parameter definitions and assigned names of ``iface.op``; ``None``: not found."""
    definitions: dict[str, Mapping] = {}
    assigned: set[str] = set()
    found = False
    for t in node.type.chain:
        interfaces = t.definition.get("interfaces")
        idef = interfaces.get(iface) if isinstance(interfaces, Mapping) else None
        if not isinstance(idef, Mapping):
            continue
        itype = registry.lookup("interface", idef.get("type"), t.prefix)
        sections: list[Any] = []
        for each in itype.chain if itype is not None else []:
            sections.append(each.definition.get("inputs"))
            ops = each.definition.get("operations")
            if isinstance(ops, Mapping) and op in ops:
                found = True
                if isinstance(ops[op], Mapping):
                    sections.append(ops[op].get("inputs"))
        sections.append(idef.get("inputs"))
        ops = idef.get("operations")
        if isinstance(ops, Mapping) and op in ops:
            found = True
            if isinstance(ops[op], Mapping):
                sections.append(ops[op].get("inputs"))
        for section in sections:
            if not isinstance(section, Mapping):
                continue
            for key, item in section.items():
                if isinstance(item, Mapping) and "type" in item:
                    definitions[str(key)] = item
                    if _has_value(item):
                        assigned.add(str(key))
                else:  # a value assigned in the type
                    assigned.add(str(key))
    return (definitions, assigned) if found else None


def _open_ended(registry: Registry, node: NodeTemplate, iface: str) -> bool:
    """The node type, or the interface's type, derives from an unknown profile."""
    if not registry.opaque_prefixes:
        return False
    if registry.derives_from_opaque(node.type):
        return True
    for t in node.type.chain:
        interfaces = t.definition.get("interfaces")
        idef = interfaces.get(iface) if isinstance(interfaces, Mapping) else None
        if not isinstance(idef, Mapping):
            continue
        name = idef.get("type")
        itype = registry.lookup("interface", name, t.prefix)
        if registry.is_opaque(name) or (itype is not None and registry.derives_from_opaque(itype)):
            return True
    return False


def _template_assigned(node: NodeTemplate, iface: str, op: str) -> set[str]:
    """Input names the template's own interface assignment gives."""
    interfaces = node.raw.get("interfaces") if isinstance(node.raw, Mapping) else None
    idef = interfaces.get(iface) if isinstance(interfaces, Mapping) else None
    if not isinstance(idef, Mapping):
        return set()
    names: set[str] = set()
    if isinstance(idef.get("inputs"), Mapping):
        names.update(map(str, idef["inputs"]))
    ops = idef.get("operations")
    odef = ops.get(op) if isinstance(ops, Mapping) else None
    if isinstance(odef, Mapping) and isinstance(odef.get("inputs"), Mapping):
        names.update(map(str, odef["inputs"]))
    return names


def _workflow_input(value: Any, winputs: Mapping) -> tuple[str, Mapping] | None:
    """``(name, definition)`` when ``value`` is ``{$get_input: name}`` of a workflow input."""
    if not (isinstance(value, Mapping) and len(value) == 1 and "$get_input" in value):
        return None
    arg = value["$get_input"]
    if isinstance(arg, list) and len(arg) == 1:
        arg = arg[0]
    if not isinstance(arg, str):
        return None
    definition = winputs.get(arg)
    return (arg, definition) if isinstance(definition, Mapping) else None


def _required(definition: Mapping) -> bool:
    return definition.get("required", True) is not False and not _has_value(definition)


def _has_value(definition: Mapping) -> bool:
    return "default" in definition or "value" in definition


def _clash(value_type: ValueTypeFn, given: Any, expected: Any) -> bool:
    """Whether a value of type ``given`` cannot be one of type ``expected`` (primitives)."""
    if not (isinstance(given, str) and isinstance(expected, str)) or given == expected:
        return False
    a, b = _primitive(value_type, given), _primitive(value_type, expected)
    if a is None or b is None or a == b:
        return False
    return not (a == "integer" and b == "float")


def _primitive(value_type: ValueTypeFn, name: str) -> str | None:
    """The primitive a type name is or derives from (``None``: unknown or complex)."""
    vt = value_type(name, None)
    if isinstance(vt, str):
        return vt
    return vt.base_primitive if isinstance(vt, Type) else None
