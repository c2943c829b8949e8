"""How large a value made of data-type defaults alone can get, and its bound.

A data type's field defaults are filled in inside every data value
(spec/tosca.md §4, layer 1), recursively. Written small, such defaults can
multiply: a type whose two fields are of the previous type, 30 levels deep,
fills in 2^30 values from a few lines of YAML. :func:`expanded_size` counts
(statically, once per type and definition) the values such a fill-in would
build; the merge (:mod:`toskit.tosca.resolve`) does not fill in a value
whose count exceeds :data:`MAX_EXPANDED`, keeping the default as written,
and :func:`check_expansion` reports the type (or property definition) where
the count crosses the bound as ``limit-exceeded``.

The count is an upper estimate: every field with a default or marked
``required`` is taken as filled in, and a list or map default of data
entries counts each entry's fill-in.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.tosca.definitions import PropertyDefinition, Type

__all__ = [
    "MAX_EXPANDED",
    "MAX_FILL_DEPTH",
    "check_expansion",
    "expanded_size",
    "field_size",
    "fill_depth",
    "too_large",
]

MAX_EXPANDED = 100_000  # values one fill-in from defaults may build (module setting)
MAX_FILL_DEPTH = 100  # data types one fill-in from defaults may nest (module setting)

ValueTypeFn = Callable[[str | None, Type | None], Type | str | None]

# Sizes of types and definitions once their registry is complete (the merge's
# view). Weak keys: a cache entry goes with its load's types.
_type_sizes: weakref.WeakKeyDictionary[Type, int] = weakref.WeakKeyDictionary()
_field_sizes: weakref.WeakKeyDictionary[PropertyDefinition, int] = weakref.WeakKeyDictionary()
_type_depths: weakref.WeakKeyDictionary[Type, int] = weakref.WeakKeyDictionary()


def _data(vt: Any) -> Type | None:
    return vt if isinstance(vt, Type) and vt.base_primitive is None else None


def _nested(fdef: PropertyDefinition, owner: Type, value_type: ValueTypeFn) -> tuple[Type | None, int]:
    """The data type a field's fill-in recurses into, and how many times (0: none)."""
    fvt = value_type(fdef.type, owner)
    data = _data(fvt)
    if data is not None:
        return data, (1 if fdef.default_layers or fdef.required else 0)
    entry = fdef.schema.entry_schema
    if entry is None and isinstance(fvt, Type):
        for t in fvt.chain:  # a list/map type that declares its entries
            entry = entry or t.schema.entry_schema
    if entry is None or entry.type is None or not fdef.default_layers:
        return None, 0
    data = _data(value_type(entry.type, owner))
    top = fdef.default_layers[-1].value
    return data, (len(top) if isinstance(top, (list, dict)) else 0)


def _sizes(
    roots: Iterable[Type],
    value_type: ValueTypeFn,
    types: dict[Type, int] | weakref.WeakKeyDictionary[Type, int],
    fields: dict[PropertyDefinition, int] | weakref.WeakKeyDictionary[PropertyDefinition, int],
    limit: int,
    depths: dict[Type, int] | weakref.WeakKeyDictionary[Type, int],
) -> None:
    """Fill ``types``/``fields``/``depths`` for ``roots`` and what they reach.

    Iterative (fields may nest, and types derive, thousands deep), and
    incremental: a type's count is its parent's, plus its own definitions',
    less those they replace, so a derivation chain of n types costs O(n)
    and no type's effective table is built. A nested count is capped at
    ``limit + 1`` before it multiplies, so the numbers stay small. A type
    met again on its own path counts 0, as the merge expands a recursive
    type once.
    """

    def field(fdef: PropertyDefinition, owner: Type) -> int:
        nested, times = _nested(fdef, owner, value_type)
        inner = types.get(nested, 0) if nested is not None and times else 0
        return 1 + times * min(inner, limit + 1)

    for root in roots:
        if root in types:
            continue
        stack: list[tuple[Type, bool]] = [(root, False)]
        on_path: set[int] = set()
        while stack:
            t, ready = stack.pop()
            if ready:
                on_path.discard(id(t))
                parent = t.parent
                total = types.get(parent, 0) if parent is not None else 0
                depth = depths.get(parent, 0) if parent is not None else 0
                for name, fdef in t.own_properties.items():
                    size = fields[fdef] = field(fdef, t)
                    nested, times = _nested(fdef, t, value_type)
                    if nested is not None and times:
                        depth = max(depth, 1 + depths.get(nested, 0))
                    previous = t.replaced_properties.get(name)
                    total += size - (fields.get(previous, 0) if previous is not None else 0)
                types[t] = total
                depths[t] = depth
                continue
            if t in types or id(t) in on_path:
                continue
            on_path.add(id(t))
            stack.append((t, True))
            needed: list[Type | None] = [t.parent]
            for fdef in t.own_properties.values():
                needed.append(_nested(fdef, t, value_type)[0])
            for each in needed:
                if each is not None and each not in types and id(each) not in on_path:
                    stack.append((each, False))


def expanded_size(vt: Type, value_type: ValueTypeFn, limit: int | None = None) -> int:
    """Values a data value of ``vt`` made of defaults alone would hold (an upper estimate)."""
    found = _type_sizes.get(vt)
    if found is None:
        _sizes(
            [vt],
            value_type,
            _type_sizes,
            _field_sizes,
            MAX_EXPANDED if limit is None else limit,
            _type_depths,
        )
        found = _type_sizes[vt]
    return found


def field_size(fdef: PropertyDefinition, owner: Type | None, value_type: ValueTypeFn) -> int:
    """Values the fill-in of one definition from its defaults builds (capped)."""
    found = _field_sizes.get(fdef)
    if found is not None:
        return found
    if owner is None:
        return 1
    nested, times = _nested(fdef, owner, value_type)
    inner = expanded_size(nested, value_type) if nested is not None and times else 0
    size = _field_sizes[fdef] = 1 + times * min(inner, MAX_EXPANDED + 1)
    return size


def fill_depth(vt: Type, value_type: ValueTypeFn) -> int:
    """Data types a value of ``vt`` made of defaults alone nests (an upper estimate)."""
    found = _type_depths.get(vt)
    if found is None:
        expanded_size(vt, value_type)
        found = _type_depths[vt]
    return found


def too_large(fdef: PropertyDefinition, owner: Type | None, value_type: ValueTypeFn) -> bool:
    """Whether filling ``fdef`` in from defaults alone would cross :data:`MAX_EXPANDED`
    values or nest deeper than :data:`MAX_FILL_DEPTH`."""
    if field_size(fdef, owner, value_type) > MAX_EXPANDED:
        return True
    if owner is None:
        return False
    nested, times = _nested(fdef, owner, value_type)
    return nested is not None and times > 0 and fill_depth(nested, value_type) >= MAX_FILL_DEPTH


def check_expansion(new: Iterable[Type], value_type: ValueTypeFn) -> list[Diagnostic]:
    """``limit-exceeded`` where a fill-in from defaults first crosses the bound.

    Reported on the data type whose fields together cross it (each within
    it, its parent within it), or on the definition that multiplies a type
    within it past it (a list default of many entries); types that merely
    contain or derive from such a type are not reported again. Only types
    written in a document are reported.
    """
    types: dict[Type, int] = {}
    fields: dict[PropertyDefinition, int] = {}
    depths: dict[Type, int] = {}
    written = [t for t in new if t.doc is not None and not t.normative]
    _sizes(written, value_type, types, fields, MAX_EXPANDED, depths)
    diags: list[Diagnostic] = []
    for t in written:
        doc = t.doc
        assert doc is not None
        over = [f for f in t.own_properties.values() if fields.get(f, 0) > MAX_EXPANDED]
        for fdef in over:
            nested, _ = _nested(fdef, t, value_type)
            if nested is not None and types.get(nested, 0) > MAX_EXPANDED:
                continue  # the nested type is reported itself
            diags.append(
                doc.diagnostic(
                    "error",
                    "limit-exceeded",
                    f"{t.kind} type '{t.name}': the default of property '{fdef.name}' "
                    f"fills in more than {MAX_EXPANDED:,} values",
                    (*t.parts, "properties", fdef.name),
                    hint="it is kept as written, not filled in from its type's defaults "
                    "(the bound is toskit.tosca.expansion.MAX_EXPANDED)",
                    at_key=True,
                )
            )
        if (
            t.kind == "data"
            and types.get(t, 0) > MAX_EXPANDED
            and (t.parent is None or types.get(t.parent, 0) <= MAX_EXPANDED)
            and not over
        ):
            diags.append(
                doc.diagnostic(
                    "error",
                    "limit-exceeded",
                    f"data type '{t.name}': a value made of its defaults would hold more "
                    f"than {MAX_EXPANDED:,} values",
                    t.parts,
                    hint="a value of it is kept as written, not filled in from its defaults "
                    "(the bound is toskit.tosca.expansion.MAX_EXPANDED)",
                    at_key=True,
                )
            )
        if (
            t.kind == "data"
            and depths.get(t, 0) > MAX_FILL_DEPTH
            and (t.parent is None or depths.get(t.parent, 0) <= MAX_FILL_DEPTH)
            and not any(
                nested is not None and depths.get(nested, 0) > MAX_FILL_DEPTH
                for nested, _ in (_nested(f, t, value_type) for f in t.own_properties.values())
            )
        ):
            diags.append(
                doc.diagnostic(
                    "error",
                    "limit-exceeded",
                    f"data type '{t.name}': a value made of its defaults would nest data "
                    f"types more than {MAX_FILL_DEPTH} deep",
                    t.parts,
                    hint="a value of it is kept as written, not filled in from its defaults "
                    "(the bound is toskit.tosca.expansion.MAX_FILL_DEPTH)",
                    at_key=True,
                )
            )
    return diags
