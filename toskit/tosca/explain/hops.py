"""The function hops behind a value: which call, what it read, where that was set.

A ``get_input`` leads to the input's definition, its default and the value
given; a ``get_property``/``get_attribute`` to the explanation of the
property it read (on another node, a capability, a requirement's target),
followed in turn; any other call (``concat``, ``join``, …) lists its
arguments, each a literal or a call followed in turn. Hops are followed at
most :data:`~toskit.tosca.explain.MAX_HOPS` deep, counted across the
nested explanations, and a loop is cut where it comes back to a value being
explained. A call the load left unevaluated keeps ``known=False``: its hops
say where it would read, never a value the evaluation did not find.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from toskit.diagnostics import format_path
from toskit.errors import ToskitError
from toskit.functions import Call
from toskit.sentinels import NO_DEFAULT
from toskit.tosca.explain.layers import _version, _walk_raw
from toskit.tosca.explain.model import MAX_HOPS, ExplainError, Hop, Source
from toskit.tosca.explain.text import TEXT, short, yaml_flow


class _Walk(NamedTuple):
    """Where hops are followed from: the entity explained, its template, the
    values being explained (a hop back to one is a loop, cut) and how many
    hops deep this is, counted across the nested explanations."""

    entity: Any
    service: Any
    seen: frozenset
    depth: int


def _hops_of(
    written: Any, value: Any, entity: Any, service: Any, seen: frozenset
) -> tuple[Hop, ...]:
    """The calls behind ``value``: the one ``written`` where its origin
    points, or ``value`` itself."""
    # An unevaluated call at the top stays unknown: the hops say where it
    # would read, never a value the load's own evaluation did not find.
    walk = _Walk(entity, service, seen, len(seen) - 1)  # explanations nested so far
    if isinstance(written, Call):
        known = not isinstance(value, Call)
        return (_hop(written, value if known else None, known, walk, known),)
    if isinstance(value, Call):
        return (_hop(value, None, False, walk, False),)
    return ()


def _hop(call: Call, value: Any, known: bool, walk: _Walk, fill: bool = True) -> Hop:
    """One call and where it leads; ``fill``: an unknown value may be taken from
    where the call reads (not for a call the load left unevaluated)."""
    text = _call_text(call, walk.service)
    name = call.name
    if walk.depth >= MAX_HOPS:
        return Hop(name, text, value, known, detail=f"not followed: more than {MAX_HOPS} hops")
    if not fill:
        hop = _hop(call, value, known, walk, fill=True)
        if not hop.known or hop.value is value:
            return hop
        note = "the load left this call unevaluated (see the findings)"
        return Hop(
            hop.function,
            hop.call,
            value,
            False,
            hop.target,
            hop.source,
            f"{hop.detail}; {note}" if hop.detail else note,
            hop.hops,
            hop.explanation,
        )
    if name == "get_input":
        return _input_hop(call, text, value, known, walk.service)
    if name in ("get_property", "get_attribute"):
        return _property_hop(call, text, value, known, walk)
    hops = tuple(_argument(arg, f"argument {i + 1}", walk) for i, arg in enumerate(call.args))
    return Hop(name, text, value, known, hops=hops)


def _call_text(call: Call, service: Any) -> str:
    """The call as the template's dialect writes it (1.x: bare names), one line."""
    from toskit.functions import unparse

    version = _version(service)
    if version == "2.0":
        return short(call)
    try:
        text = yaml_flow(unparse(call, version))
        return text if len(text) <= TEXT else text[: TEXT - 3] + "..."
    except ToskitError:
        return short(call)


def _argument(arg: Any, label: str, walk: _Walk) -> Hop:
    """A call's argument: a literal, a call followed in turn, or a list/map holding calls."""
    from toskit.functions import contains_call

    if isinstance(arg, Call):
        return _with_found_value(_hop(arg, None, False, walk._replace(depth=walk.depth + 1)))
    if isinstance(arg, (list, Mapping)) and contains_call(arg):
        items = arg.items() if isinstance(arg, Mapping) else enumerate(arg)
        inner = tuple(_argument(item, f"{label}[{key}]", walk) for key, item in items)
        return Hop("argument", label, arg, False, hops=inner)
    return Hop("argument", label, arg, True)


def _with_found_value(hop: Hop) -> Hop:
    if hop.explanation is not None:
        return Hop(
            hop.function,
            hop.call,
            hop.explanation.value,
            True,
            hop.target,
            hop.source,
            hop.detail,
            hop.hops,
            hop.explanation,
        )
    return hop


def _input_hop(call: Call, text: str, value: Any, known: bool, service: Any) -> Hop:
    args = call.args
    name = args[0] if args and isinstance(args[0], str) else None
    if name is None or service is None:
        return Hop("get_input", text, value, known, detail="input not known")
    definitions, doc, parts = _input_definitions(service)
    definition = definitions.get(name) if definitions is not None else None
    given = service.inputs.get(name, NO_DEFAULT)
    if definition is None:
        return Hop(
            "get_input",
            text,
            value,
            known,
            target=f"input {name}",
            detail="no such input is declared",
        )
    default = (
        definition.get("default", definition.get("value", NO_DEFAULT))
        if isinstance(definition, Mapping)
        else NO_DEFAULT
    )
    where = doc.locate((*parts, name)) if doc is not None else None
    source = Source(
        "input",
        f"input: {name}",
        input_name=name,
        file=doc.name if doc else None,
        line=where.line if where is not None else None,
        column=where.column if where is not None else None,
        _doc=doc,
        _parts=(*parts, name),
    )
    notes = []
    if isinstance(definition, Mapping) and definition.get("type"):
        notes.append(f"type {definition.get('type')}")
    notes.append("default " + (short(default) if default is not NO_DEFAULT else "none"))
    if given is NO_DEFAULT:
        notes.append("no value given (supplied at deployment)")
    elif default is not NO_DEFAULT and given == default:
        notes.append(f"value {short(given)} (the default)")
    else:
        notes.append(f"value given {short(given)}")
    if not known and given is not NO_DEFAULT:
        value, known = given, True
    return Hop(
        "get_input",
        text,
        value,
        known,
        target=f"input {name}",
        source=source,
        detail=", ".join(notes),
    )


def _input_definitions(service: Any) -> tuple[Mapping | None, Any, tuple]:
    doc = getattr(service, "document", None)
    root = getattr(doc, "value", None)
    if not isinstance(root, Mapping):
        return None, None, ()
    for section in ("topology_template", "service_template"):
        inputs = _walk_raw(root, (section, "inputs"))
        if isinstance(inputs, Mapping):
            return inputs, doc, (section, "inputs")
    return None, doc, ()


def _property_hop(call: Call, text: str, value: Any, known: bool, walk: _Walk) -> Hop:
    entity, service, seen = walk.entity, walk.service, walk.seen
    args = list(call.args)
    if not args or not all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in args):
        return Hop(
            call.name, text, value, known, detail="arguments computed at run time: not followed"
        )
    node = (
        entity if getattr(entity, "kind", "") == "node" else getattr(entity, "node", None) or entity
    )
    followed = _property_target(args, node, service)
    if isinstance(followed, str):
        return Hop(call.name, text, value, known, detail=followed)
    target, rest = followed
    label = (
        _entity_label(target)
        + f", {'attribute' if call.name == 'get_attribute' else 'property'} {format_path(rest)}"
    )
    key = (id(target), tuple(rest))
    if key in seen:
        return Hop(
            call.name,
            text,
            value,
            known,
            target=label,
            detail="a loop: this value is being explained already",
        )
    if call.name == "get_attribute" and (not rest or rest[0] not in target.properties):
        return Hop(
            call.name,
            text,
            value,
            known,
            target=label,
            detail="an attribute: its value is known only at run time",
        )
    # build imports this module: the read property's explanation is made through it, on use.
    from toskit.tosca.explain.build import explain_entity

    try:
        inner = explain_entity(target, tuple(rest), service, seen)
    except ExplainError as exc:
        return Hop(call.name, text, value, known, target=label, detail=str(exc))
    if not known:
        value, known = inner.value, not isinstance(inner.value, Call)
    return Hop(call.name, text, value, known, target=label, source=inner.source, explanation=inner)


def _property_target(args: list[Any], node: Any, service: Any) -> tuple[Any, list[Any]] | str:
    """The entity a ``get_property`` / ``get_attribute`` path reads from
    ``node``, and the path left below it; or why it is not followed."""
    first = args[0]
    if first == "SELF":
        target: Any = node
    elif first == "HOST":
        target = _host_of(node)
    elif first in ("SOURCE", "TARGET"):
        return f"{first} is known only in a relationship: not followed"
    else:
        target = service.node_templates.get(first) if service is not None else None
    rest = args[1:]
    if target is None:
        return f"no node template {first!r}"
    if rest[:1] == ["CAPABILITY"]:
        rest = rest[1:]
        target = getattr(target, "capabilities", {}).get(rest[0]) if rest else None
        rest = rest[1:]
    elif rest[:1] == ["RELATIONSHIP"] or rest[:1] == ["REQUIREMENT"]:
        return "relationship paths are not followed"
    elif _version(service) == "2.0":
        pass  # 2.0 names a capability or requirement only after CAPABILITY / RELATIONSHIP
    elif (
        len(rest) > 1
        and rest[0] in getattr(target, "capabilities", {})
        and rest[0] not in target.properties
    ):
        target, rest = target.capabilities[rest[0]], rest[1:]
    elif (
        len(rest) > 1 and getattr(target, "requirement", None) and rest[0] not in target.properties
    ):
        req = target.requirement(rest[0])
        if req is not None and req.target is not None:
            target, rest = req.target, rest[1:]
    if target is None or not rest:
        return "the path names no property: not followed"
    return target, rest


def _host_of(node: Any) -> Any:
    req = node.requirement("host") if hasattr(node, "requirement") else None
    return req.target if req is not None else None


def _entity_label(entity: Any) -> str:
    owner = getattr(entity, "node", None)
    if entity.kind == "capability" and owner is not None:
        return f"node {owner.name}, capability {entity.name}"
    return f"{entity.kind} {entity.name}"
