"""Compile the TOSCA types a template sees onto ``toskit.schema``.

One schema holds every visible type: a data type (and the properties of a
node, capability, relationship, group or policy type) becomes a named,
separable map whose fields are its properties (inherited ones included);
``string``, ``timestamp``, ``version``, the scalar-units, ``bytes`` and
2.0 ``scalar`` become ``scalar: string``; ``integer``/``float``
``scalar: numeric``; ``boolean`` ``scalar: boolean``; a data type derived
from a primitive its root's scalar; ``list`` an atomic list of its
``entry_schema`` type; ``map`` an atomic map of its ``entry_schema`` type; a
property without a type ``__untyped_atomic_``.

Named types are called ``<kind>:<TOSCA name>`` (``data:my.datatypes.Endpoint``,
``node:DatabaseService``) so that kinds never clash; :func:`schema_name`
builds the name. ``required``, defaults, constraints, validation clauses
and the integer/float distinction stay with the TOSCA layer
(:mod:`toskit.tosca.values.check`), as §6 says.
"""

from __future__ import annotations

from typing import Any

from toskit import schema as smd
from toskit.tosca.types.definitions import SchemaDef, Type
from toskit.tosca.types.registry import KINDS, Registry

__all__ = ["compile_schema", "schema_name"]

_SCALARS = {
    "string": "string",
    "timestamp": "string",
    "version": "string",
    "bytes": "string",
    "scalar": "string",
    "scalar-unit.size": "string",
    "scalar-unit.time": "string",
    "scalar-unit.frequency": "string",
    "scalar-unit.bitrate": "string",
    "integer": "numeric",
    "float": "numeric",
    "boolean": "boolean",
    "null": "untyped",
    "nil": "untyped",
}
_UNTYPED = {"namedType": "__untyped_atomic_"}


def schema_name(kind: str, name: str) -> str:
    """The schema type name of a TOSCA type (``data:my.Endpoint``)."""
    return f"{kind}:{name}"


def _primitive_ref(name: str, entry: SchemaDef | None, registry: Registry) -> dict[str, Any]:
    if name in _SCALARS:
        return {"scalar": _SCALARS[name]}
    element = _ref(entry, registry) if entry is not None else _UNTYPED
    if name == "list":
        return {"list": {"elementType": element, "elementRelationship": "atomic"}}
    if name == "map":
        return {"map": {"elementType": element, "elementRelationship": "atomic"}}
    if name == "range":
        return {"list": {"elementType": {"scalar": "untyped"}, "elementRelationship": "atomic"}}
    return dict(_UNTYPED)


def _ref(definition: SchemaDef | None, registry: Registry) -> dict[str, Any]:
    if definition is None or definition.type is None:
        return dict(_UNTYPED)
    vt = registry.value_type(definition.type)
    if isinstance(vt, Type):
        if vt.base_primitive is not None:
            return _primitive_ref(
                vt.base_primitive, definition.entry_schema or vt.schema.entry_schema, registry
            )
        return {"namedType": schema_name("data", vt.name)}
    if isinstance(vt, str):
        return _primitive_ref(vt, definition.entry_schema, registry)
    return dict(_UNTYPED)


def _typedef(kind: str, t: Type, registry: Registry) -> dict[str, Any]:
    name = schema_name(kind, t.name)
    if kind == "data" and t.base_primitive is not None:
        return {"name": name, **_primitive_ref(t.base_primitive, t.schema.entry_schema, registry)}
    fields = [
        {"name": pname, "type": _ref(pdef.schema, registry)} for pname, pdef in t.properties.items()
    ]
    return {"name": name, "map": {"fields": fields, "elementRelationship": "separable"}}


def compile_schema(registry: Registry) -> smd.Schema:
    """One ``toskit.schema.Schema`` for every type visible in ``registry``."""
    types = []
    for kind in KINDS:
        if kind == "interface":
            continue  # interfaces have inputs and operations, not properties
        for t in registry.all_of(kind).values():
            types.append(_typedef(kind, t, registry))
    return smd.load({"types": types})
