"""How large a value made of data-type defaults alone can get, and its bound.

A data type's field defaults are filled in inside every data value
(the lowest layer of the merge), recursively. Written small, such defaults can
multiply: a type whose two fields are of the previous type, 30 levels deep,
fills in 2^30 values from a few lines of YAML. :func:`expanded_size` counts
(statically, once per type and definition) the values such a fill-in would
build; the merge (:mod:`toskit.tosca.values.resolve`) does not fill in a value
whose count exceeds :data:`MAX_EXPANDED`, keeping the default as written,
and :func:`check_expansion` reports the type (or property definition) where
the count crosses the bound as ``limit-exceeded``.

The count is an upper estimate: every field with a default or marked
``required`` is taken as filled in, and a list or map default of data
entries counts each entry's fill-in.

The bounds are options of a load (``toskit.load(..., max_expanded=...,
max_fill_depth=..., max_fill_total=...)``; docs/limits.md): the loader
opens a :class:`FillBudget` with :func:`fill_budget` for the load, and the
functions here read it (the module constants are the defaults, and the
bounds outside a load). ``max_fill_total`` bounds the values all the
fill-ins of one load build together: each fill-in is charged what it
builds itself (its own fields; a nested data field's fill-in is charged
when it happens), and once the budget is spent every further fill-in keeps
its value as written; the loader then reports ``limit-exceeded`` once.
"""

from __future__ import annotations

import contextlib
import contextvars
import weakref
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.records import field, record
from toskit.tosca.types.definitions import PropertyDefinition, Type

__all__ = [
    "FILL_LIMITS",
    "MAX_EXPANDED",
    "MAX_FILL_DEPTH",
    "MAX_FILL_TOTAL",
    "FillBudget",
    "active_budget",
    "check_expansion",
    "fill_budget",
    "expanded_size",
    "field_size",
    "fill_depth",
    "too_large",
]

MAX_EXPANDED = 100_000  # values one fill-in from defaults may build (default of max_expanded)
MAX_FILL_DEPTH = 100  # data types one fill-in from defaults may nest (default of max_fill_depth)
MAX_FILL_TOTAL = 300_000  # values all fill-ins of one load may build (default of max_fill_total)

# The load options these bounds are (toskit.load / loads keywords).
FILL_LIMITS = ("max_expanded", "max_fill_depth", "max_fill_total")


@record
class FillBudget:
    """The fill-in bounds of one load, and what its fill-ins have spent."""

    max_expanded: int = MAX_EXPANDED
    max_fill_depth: int = MAX_FILL_DEPTH
    max_fill_total: int | None = MAX_FILL_TOTAL  # None: no total (outside a load)
    spent: int = 0
    # Where the total was first crossed: (owner type, property definition).
    crossed: tuple[Type | None, PropertyDefinition] | None = None
    # Scalar fields per data type (what a fill-in of it builds at its own level).
    _scalars: dict[int, tuple[Type, int]] = field(default_factory=dict)

    def diagnostics(self) -> list[Diagnostic]:
        """``limit-exceeded`` once, where the load's total was crossed (or nothing)."""
        if self.crossed is None:
            return []
        owner, fdef = self.crossed
        doc = owner.doc if owner is not None else None
        if owner is None or doc is None:
            return []
        return [
            doc.diagnostic(
                "error",
                "limit-exceeded",
                f"filling in property '{fdef.name}' of {owner.kind} type '{owner.name}' "
                f"from defaults crosses the {self.max_fill_total:,} values all fill-ins "
                "of this load may build",
                (*owner.parts, "properties", fdef.name),
                hint="this value and every later one filled in from defaults are kept "
                "as written; raise the bound with max_fill_total=… if the template is trusted",
                at_key=True,
            )
        ]


# Outside a load: the module settings, and no total.
_BUDGET: contextvars.ContextVar[FillBudget | None] = contextvars.ContextVar(
    "toskit_fill_budget", default=None
)


def active_budget() -> FillBudget | None:
    """The budget of the load in progress (``None`` outside :func:`fill_budget`)."""
    return _BUDGET.get()


def _current() -> FillBudget:
    found = _BUDGET.get()
    if found is None:
        return FillBudget(MAX_EXPANDED, MAX_FILL_DEPTH, None)
    return found


@contextlib.contextmanager
def fill_budget(
    max_expanded: int | None = None,
    max_fill_depth: int | None = None,
    max_fill_total: int | None = None,
) -> Iterator[FillBudget]:
    """The bounds of one load (``None``: the module default), in effect inside ``with``."""
    budget = FillBudget(
        MAX_EXPANDED if max_expanded is None else max_expanded,
        MAX_FILL_DEPTH if max_fill_depth is None else max_fill_depth,
        MAX_FILL_TOTAL if max_fill_total is None else max_fill_total,
    )
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)


ValueTypeFn = Callable[[str | None, Type | None], Type | str | None]

# Sizes of types and definitions once their registry is complete (the merge's
# view). Weak keys: a cache entry goes with its load's types.
_type_sizes: weakref.WeakKeyDictionary[Type, int] = weakref.WeakKeyDictionary()
_field_sizes: weakref.WeakKeyDictionary[PropertyDefinition, int] = weakref.WeakKeyDictionary()
_type_depths: weakref.WeakKeyDictionary[Type, int] = weakref.WeakKeyDictionary()


def _data(vt: Any) -> Type | None:
    return vt if isinstance(vt, Type) and vt.base_primitive is None else None


def _nested(
    fdef: PropertyDefinition, owner: Type, value_type: ValueTypeFn
) -> tuple[Type | None, int]:
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
            _current().max_expanded if limit is None else limit,
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
    size = _field_sizes[fdef] = 1 + times * min(inner, _current().max_expanded + 1)
    return size


def fill_depth(vt: Type, value_type: ValueTypeFn) -> int:
    """Data types a value of ``vt`` made of defaults alone nests (an upper estimate)."""
    found = _type_depths.get(vt)
    if found is None:
        expanded_size(vt, value_type)
        found = _type_depths[vt]
    return found


def too_large(fdef: PropertyDefinition, owner: Type | None, value_type: ValueTypeFn) -> bool:
    """Whether filling ``fdef`` in from defaults alone would cross ``max_expanded``
    values, nest deeper than ``max_fill_depth``, or spend more than what is left
    of the load's ``max_fill_total`` (see :func:`fill_budget`).

    Called by the merge where a fill-in from defaults is about to happen (and
    only there): a fill-in it allows is charged to the load's budget.
    """
    budget = _current()
    if field_size(fdef, owner, value_type) > budget.max_expanded:
        return True
    if owner is None:
        return False
    nested, times = _nested(fdef, owner, value_type)
    if nested is None or times <= 0:
        return False
    if fill_depth(nested, value_type) >= budget.max_fill_depth:
        return True
    if budget.max_fill_total is None:
        return False
    # What this fill-in builds at its own level: the field, and each copy's
    # fields that are not data values themselves (those are charged when
    # their own fill-in happens), so nothing is counted twice.
    cost = 1 + times * _scalar_fields(budget, nested, value_type)
    if budget.spent + cost > budget.max_fill_total:
        if budget.crossed is None:
            budget.crossed = (owner, fdef)
        return True
    budget.spent += cost
    return False


def _scalar_fields(budget: FillBudget, vt: Type, value_type: ValueTypeFn) -> int:
    """Fields of data type ``vt`` whose fill-in does not recurse into a data value."""
    found = budget._scalars.get(id(vt))
    if found is not None and found[0] is vt:
        return found[1]
    count = 0
    for fdef in vt.properties.values():
        nested, times = _nested(fdef, vt, value_type)
        if nested is None or not times:
            count += 1
    budget._scalars[id(vt)] = (vt, count)
    return count


def check_expansion(new: Iterable[Type], value_type: ValueTypeFn) -> list[Diagnostic]:
    """``limit-exceeded`` where a fill-in from defaults first crosses the bound.

    Reported on the data type whose fields together cross it (each within
    it, its parent within it), or on the definition that multiplies a type
    within it past it (a list default of many entries); types that merely
    contain or derive from such a type are not reported again. Only types
    written in a document are reported.
    """
    bounds = _current()
    max_expanded, max_fill_depth = bounds.max_expanded, bounds.max_fill_depth
    types: dict[Type, int] = {}
    fields: dict[PropertyDefinition, int] = {}
    depths: dict[Type, int] = {}
    written = [t for t in new if t.doc is not None and not t.normative]
    _sizes(written, value_type, types, fields, max_expanded, depths)
    diags: list[Diagnostic] = []
    for t in written:
        doc = t.doc
        assert doc is not None
        over = [f for f in t.own_properties.values() if fields.get(f, 0) > max_expanded]
        for fdef in over:
            nested, _ = _nested(fdef, t, value_type)
            if nested is not None and types.get(nested, 0) > max_expanded:
                continue  # the nested type is reported itself
            diags.append(
                doc.diagnostic(
                    "error",
                    "limit-exceeded",
                    f"{t.kind} type '{t.name}': the default of property '{fdef.name}' "
                    f"fills in more than {max_expanded:,} values",
                    (*t.parts, "properties", fdef.name),
                    hint="it is kept as written, not filled in from its type's defaults "
                    "(raise the bound with max_expanded=…)",
                    at_key=True,
                )
            )
        if (
            t.kind == "data"
            and types.get(t, 0) > max_expanded
            and (t.parent is None or types.get(t.parent, 0) <= max_expanded)
            and not over
        ):
            diags.append(
                doc.diagnostic(
                    "error",
                    "limit-exceeded",
                    f"data type '{t.name}': a value made of its defaults would hold more "
                    f"than {max_expanded:,} values",
                    t.parts,
                    hint="a value of it is kept as written, not filled in from its defaults "
                    "(raise the bound with max_expanded=…)",
                    at_key=True,
                )
            )
        if (
            t.kind == "data"
            and depths.get(t, 0) > max_fill_depth
            and (t.parent is None or depths.get(t.parent, 0) <= max_fill_depth)
            and not any(
                nested is not None and depths.get(nested, 0) > max_fill_depth
                for nested, _ in (_nested(f, t, value_type) for f in t.own_properties.values())
            )
        ):
            diags.append(
                doc.diagnostic(
                    "error",
                    "limit-exceeded",
                    f"data type '{t.name}': a value made of its defaults would nest data "
                    f"types more than {max_fill_depth} deep",
                    t.parts,
                    hint="a value of it is kept as written, not filled in from its defaults "
                    "(raise the bound with max_fill_depth=…)",
                    at_key=True,
                )
            )
    return diags
