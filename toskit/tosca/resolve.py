"""Merge property values through their layers, recording provenance.

Layers, lowest first (spec/tosca.md §4): the data type's field defaults
(recursively, inside every data value), the defaults written on the type
chain (root first), the template's own values. A data-typed value is a
separable map merged field by field; everything else (lists, maps,
primitives, untyped values) is replaced whole by the highest layer.

The merge is :func:`merge_layers`, one function, so that it can be switched
to ``toskit.schema``'s merge once the whole type system compiles onto it.
It records, for every node of the result (maps and leaves), the
:class:`Origin` that supplied it, and for every replaced leaf the values it
replaced (``overridden``), which the property table shows.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from toskit.source import YamlDocument
from toskit.tosca.definitions import DefaultLayer, PropertyDefinition, Type

__all__ = ["ABSENT", "Hooks", "Origin", "Resolution", "merge_layers", "merge_property"]


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()
"""No value at all (an optional property without value or default)."""


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a value came from: its layer label and its node in a document."""

    source: str  # "template", "default: <type>", "input: <name>"
    doc: YamlDocument | None
    parts: tuple[Hashable, ...]

    def child(self, key: Hashable) -> Origin:
        return Origin(self.source, self.doc, (*self.parts, key))


Layer = tuple[Any, Origin]
ValueType = Type | str | None


class Hooks(Protocol):
    """What the merge needs from the loader.

    ``value_type`` resolves a type name as seen from an owner type;
    ``substitute`` turns a layer value into its evaluated form where that is
    possible during the merge (a ``get_input`` of a known input), with the
    origin that then applies; ``default_value`` is a definition's default as
    a parsed value tree (parsed once per load).
    """

    def value_type(self, name: str | None, owner: Type | None) -> ValueType: ...

    def substitute(self, value: Any, origin: Origin) -> Layer: ...

    def default_value(self, layer: DefaultLayer) -> Any: ...


@dataclass
class Resolution:
    """The merged properties of one entity, with provenance."""

    values: dict[str, Any] = field(default_factory=dict)
    origins: dict[tuple, Origin] = field(default_factory=dict)
    overridden: dict[tuple, list[tuple[Any, str]]] = field(default_factory=dict)
    entity: Any = None  # the template object, once built


def _is_data(vt: ValueType) -> bool:
    """A data type with fields (not one derived from a primitive)."""
    return isinstance(vt, Type) and vt.base_primitive is None


def merge_layers(
    layers: list[Layer],
    vt: ValueType,
    path: tuple,
    out: Resolution,
    hooks: Hooks,
) -> Any:
    """Merge ``layers`` (lowest first, at least one) of a value of type ``vt``."""
    layers = [hooks.substitute(v, o) for v, o in layers]
    top_value, top_origin = layers[-1]
    if _is_data(vt) and isinstance(top_value, Mapping) and _plain_map(top_value):
        assert isinstance(vt, Type)
        # Only the run of map layers at the top takes part: a lower scalar
        # was replaced whole by the maps above it.
        start = len(layers) - 1
        while (
            start > 0
            and isinstance(layers[start - 1][0], Mapping)
            and _plain_map(layers[start - 1][0])
        ):
            start -= 1
        if start:
            out.overridden[path] = [(v, o.source) for v, o in layers[:start]]
        maps = layers[start:]
        out.origins[path] = top_origin
        result: dict[str, Any] = {}
        fields = vt.properties
        for name, fdef in fields.items():
            flayers = _default_layers(fdef, hooks)
            for value, origin in maps:
                if name in value:
                    flayers.append((value[name], origin.child(name)))
            fvt = hooks.value_type(fdef.type, vt)
            if flayers:
                merged = merge_layers(flayers, fvt, (*path, name), out, hooks)
                if merged is not ABSENT:
                    result[name] = merged
            elif fdef.required and _is_data(fvt):
                built = build_from_defaults(fvt, (*path, name), out, hooks)
                if built is not ABSENT:
                    result[name] = built
        for value, origin in reversed(maps):
            for key, item in value.items():
                if key not in fields and key not in result:
                    result[key] = item
                    out.origins[(*path, key)] = origin.child(key)
        return result
    out.origins[path] = top_origin
    if len(layers) > 1:
        out.overridden[path] = [(v, o.source) for v, o in layers[:-1]]
    return top_value


def _plain_map(value: Mapping) -> bool:
    # Parsed trees hold calls as ``Call`` objects, never as maps; a map is data.
    return True


def _default_layers(fdef: PropertyDefinition, hooks: Hooks) -> list[Layer]:
    return [
        (hooks.default_value(layer), Origin(f"default: {layer.type_name}", layer.doc, layer.parts))
        for layer in fdef.default_layers
    ]


def build_from_defaults(
    vt: Type,
    path: tuple,
    out: Resolution,
    hooks: Hooks,
) -> Any:
    """A data value made of the type's defaults, or ``ABSENT`` if a required field lacks one."""
    if missing_default_fields(vt, hooks.value_type):
        return ABSENT
    origin = Origin(f"default: {vt.name}", vt.doc, vt.parts)
    return merge_layers([({}, origin)], vt, path, out, hooks)


def missing_default_fields(
    vt: Type,
    value_type: Callable[[str | None, Type | None], ValueType],
    _seen: frozenset[int] = frozenset(),
) -> list[str]:
    """Required fields (dotted, recursively) that neither a default nor nested defaults fill."""
    if id(vt) in _seen:
        return []  # a recursive data type: its own check covers it
    seen = _seen | {id(vt)}
    missing: list[str] = []
    for name, fdef in vt.properties.items():
        if not fdef.required or fdef.default_layers:
            continue
        fvt = value_type(fdef.type, vt)
        if _is_data(fvt):
            assert isinstance(fvt, Type)
            missing.extend(f"{name}.{sub}" for sub in missing_default_fields(fvt, value_type, seen))
        else:
            missing.append(name)
    return missing


def merge_property(
    pdef: PropertyDefinition,
    template_layer: Layer | None,
    vt: ValueType,
    out: Resolution,
    hooks: Hooks,
) -> Any:
    """The merged value of one property (``ABSENT`` when it has none)."""
    layers = _default_layers(pdef, hooks)
    if template_layer is not None:
        layers.append(template_layer)
    if layers:
        return merge_layers(layers, vt, (pdef.name,), out, hooks)
    if pdef.required and _is_data(vt):
        assert isinstance(vt, Type)
        return build_from_defaults(vt, (pdef.name,), out, hooks)
    return ABSENT
