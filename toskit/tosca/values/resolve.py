"""Merge property values through their layers, recording provenance.

Layers, lowest first: the data type's field defaults
(recursively, inside every data value), the defaults written on the type
chain (root first), the template's own values. A data-typed value is a
separable map merged field by field; everything else (lists, maps,
primitives, untyped values) is replaced whole by the highest layer.

The merge is :func:`merge_layers`, the loader's one merge function (why it
is not ``toskit.schema``'s layered merge: docs/tosca.md, "Compiling onto
toskit.schema"). It records, for every node of the result (maps and
leaves), the :class:`Origin` that supplied it, and for every replaced leaf
the values it replaced (``overridden``), which the property table shows.

Results are handed out as unshared data:

>>> value = {"ports": [80], "name": "web"}
>>> copied = copy_data(value)
>>> copied == value, copied["ports"] is value["ports"]
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, NamedTuple, Protocol, TypeGuard

from toskit.functions import Call
from toskit.records import field, record
from toskit.sentinels import ABSENT
from toskit.source import YamlDocument
from toskit.tosca.types.definitions import PropertyDefinition, SchemaDef, Type
from toskit.tosca.types.expansion import MAX_FILL_DEPTH, too_large

__all__ = [
    "ABSENT",
    "Hooks",
    "NO_CALLS",
    "Origin",
    "Resolution",
    "copy_data",
    "merge_layers",
    "merge_property",
    "note_call",
]


MAX_MISSING = 100  # dotted paths missing_default_fields lists at most

# ABSENT (toskit.sentinels): no value at all (an optional property without value or default).


class Origin(NamedTuple):
    """Where a value came from: its layer label and its node in a document.

    A named tuple because the merge makes one per value node (construction
    cost matters on large templates).
    """

    source: str  # "template", "default: <type>", "input: <name>"
    doc: YamlDocument | None
    parts: tuple[Hashable, ...]

    def child(self, key: Hashable) -> Origin:
        return _tuple_new(Origin, (self.source, self.doc, (*self.parts, key)))

    @property
    def kind(self) -> str:
        """The layer's kind from its label: ``template``, ``default`` or ``input``.

        :mod:`toskit.tosca.explain` refines ``default`` into ``type
        default``, ``data type default`` or ``profile``, and tells
        ``function`` and ``copy`` layers apart (that needs the template).
        """
        head, sep, _ = self.source.partition(": ")
        return head if sep else self.source

    @property
    def detail(self) -> str | None:
        """What the label names after its kind: the type of a default, the input's name."""
        _, sep, rest = self.source.partition(": ")
        return rest if sep else None

    def where(self) -> str | None:
        """``file:line`` where this layer wrote the value (its start only: cheap), or ``None``."""
        if self.doc is None:
            return None
        found = self.doc.locate(self.parts)
        return None if found is None else f"{self.doc.name}:{found.line}"

    def span(self) -> tuple[str | None, int, int, int, int] | None:
        """``(file, line, column, end_line, end_column)`` where this layer wrote
        the value (1-based, end exclusive), or ``None`` when unknown.

        Found in the document's position tree only when asked: the merge
        keeps just the document and the node path (cheap on the load's hot
        path). A path that exists only in part gives its deepest existing
        node (a default filled in from a type's definition).
        """
        if self.doc is None:
            return None
        found = self.doc.span(self.parts)
        if found is None:
            return None
        return (self.doc.name, *found)


# ``Origin(a, b, c)`` runs the named tuple's ``__new__``, a Python function;
# the merge makes an origin per value node, so its own sites build them as
# ``_tuple_new(Origin, (a, b, c))`` (the same object, ~2x cheaper: #31).
_tuple_new = tuple.__new__


Layer = tuple[Any, Origin]
ValueType = Type | str | None


class Hooks(Protocol):
    """What the merge needs from the loader.

    ``value_type`` resolves a type name as seen from an owner type;
    ``substitute`` turns a layer value into its evaluated form where that is
    possible during the merge (a ``get_input`` of a known input), with the
    origin that then applies; ``default_layers`` are a definition's defaults
    down its type chain as parsed value trees with their origins (built once
    per load).
    """

    def value_type(self, name: str | None, owner: Type | None) -> ValueType: ...

    def substitute(self, value: Any, origin: Origin) -> Layer: ...

    def default_layers(self, pdef: PropertyDefinition) -> list[Layer]: ...

    def field_plan(self, vt: Type) -> list[FieldPlan]:
        """:func:`field_plan` of ``vt``, built once per load."""
        ...


class FieldPlan(NamedTuple):
    """One field of a data type as every merge of that type sees it (:func:`field_plan`)."""

    name: str
    fdef: PropertyDefinition
    # The field's defaults (``hooks.default_layers``), or None when it has none.
    defaults: list[Layer] | None
    # The one default, when there is exactly one and it is a plain leaf.
    leaf_default: Layer | None
    # ``(value, Origin)`` of every default, when none is a call (what a
    # template's leaf overrides); shared, never changed.
    overridden: tuple[Layer, ...] | None
    # The field's value type, and the data type of its entries (entry_data_type).
    vt: ValueType
    entry: Type | None


def field_plan(vt: Type, hooks: Hooks) -> list[FieldPlan]:
    """The fields of data type ``vt`` with their parsed defaults (see :class:`FieldPlan`)."""
    plan = []
    for name, fdef in vt.properties.items():
        defaults = hooks.default_layers(fdef) if fdef.default_layers else None
        leaf = overridden = None
        if defaults:
            if len(defaults) == 1 and _plain_leaf(defaults[0][0]):
                leaf = defaults[0]
            if not any(v.__class__ is Call for v, _ in defaults):
                overridden = tuple(defaults)
        fvt = hooks.value_type(fdef.type, vt)
        entry = entry_data_type(fdef.schema, fvt, vt, hooks)
        plan.append(FieldPlan(name, fdef, defaults, leaf, overridden, fvt, entry))
    return plan


# Resolution.calls and .evaluated of a resolution without calls: read-only
# (typed as a set for the readers; note_call replaces it before adding).
NO_CALLS: set[str] = frozenset()  # type: ignore[assignment]


def note_call(res: Resolution, name: str) -> set[str]:
    """Add ``name`` to ``res.calls`` (made a set of its own, with
    ``res.evaluated``, on the first call); returns ``res.calls``."""
    calls = res.calls
    if calls is NO_CALLS:
        calls = res.calls = set()
        res.evaluated = set()
    calls.add(name)
    return calls


@record(slots=True)  # one per entity: no instance dict (memory at 20,000 templates)
class Resolution:
    """The merged properties of one entity, with provenance."""

    values: dict[str, Any] = field(default_factory=dict)
    origins: dict[tuple, Origin] = field(default_factory=dict)
    # The layers each value replaced, as ``(value, Origin)``, lowest first
    # (issue #32: the whole stack, with locations resolved only when asked);
    # a tuple or list shared by the templates of one type
    # (toskit.tosca.model.entities._Plan), so read it, never change it in place.
    overridden: dict[tuple, Sequence[Layer]] = field(default_factory=dict)
    entity: Any = None  # the template object, once built
    # Top-level properties whose value may hold a function call (others skip
    # the search), and of those the ones evaluated. Both are NO_CALLS (one
    # empty frozenset for every resolution) until a call is noted
    # (:func:`note_call`): most templates have none, and two empty sets per
    # template were ~430 bytes of a B1 node's ~8 KB.
    calls: set[str] = field(default=NO_CALLS)
    evaluated: set[str] = field(default=NO_CALLS)


def _is_data(vt: ValueType) -> TypeGuard[Type]:
    """A data type with fields (not one derived from a primitive)."""
    return isinstance(vt, Type) and vt.base_primitive is None


def copy_data(value: Any, _depth: int = 0) -> Any:
    """A copy of ``value``'s maps and lists (leaves and calls are shared, being immutable).

    Merged values are handed out as plain, mutable Python data; copying the
    containers keeps one template's value from being the object of another
    template, of a type's ``default`` or of an input (editing one in a
    notebook must not change the others). Values are bounded in depth by the
    loader (500 levels); past :data:`_COPY_RECURSION` levels an explicit
    stack takes over, so a value as deep as the loader accepts copies even
    when the caller's stack is already deep (two frames per level would not
    fit in Python's default limit of 1,000).
    """
    cls = value.__class__
    if _depth > _COPY_RECURSION:
        return _copy_data_deep(value)
    if cls is dict:
        return {
            k: copy_data(v, _depth + 1) if v.__class__ is dict or v.__class__ is list else v
            for k, v in value.items()
        }
    if cls is list:
        return [
            copy_data(v, _depth + 1) if v.__class__ is dict or v.__class__ is list else v
            for v in value
        ]
    return value


_COPY_RECURSION = 64


def _copy_data_deep(value: Any) -> Any:
    """:func:`copy_data` with an explicit stack (only dicts and lists are copied)."""
    if value.__class__ is not dict and value.__class__ is not list:
        return value
    root: Any = {} if value.__class__ is dict else []
    stack = [(value, root)]
    while stack:
        source, out = stack.pop()
        items = source.items() if source.__class__ is dict else enumerate(source)
        for k, v in items:
            if v.__class__ is dict or v.__class__ is list:
                child: Any = {} if v.__class__ is dict else []
                stack.append((v, child))
                v = child
            if out.__class__ is dict:
                out[k] = v
            else:
                out.append(v)
    return root


def entry_data_type(
    schema: SchemaDef | None, vt: ValueType, owner: Type | None, hooks: Hooks
) -> Type | None:
    """The data type of a list's or map's entries, when they are data values.

    The property definition's own ``entry_schema`` wins over the one a
    derived list/map type declares. ``None`` for anything else (primitive
    entries, no entry schema, not a collection).
    """
    if vt.__class__ is str:
        if vt not in ("list", "map"):
            return None
        entry = schema.entry_schema if schema is not None else None
    elif vt.__class__ is Type and vt.base_primitive in ("list", "map"):
        entry = schema.entry_schema if schema is not None else None
        for t in reversed(vt.chain):
            entry = entry or t.schema.entry_schema
    else:
        return None
    if entry is None or entry.type is None:
        return None
    et = hooks.value_type(entry.type, owner)
    return et if _is_data(et) else None


def _fill_entries(
    value: Any,
    et: Type,
    path: tuple,
    origin: Origin,
    out: Resolution,
    hooks: Hooks,
    expanding: frozenset[int],
) -> Any:
    """A list's or map's data entries with their type's field defaults filled in.

    Layer 1 of the merge: a data type's defaults apply inside every data
    value, entries of collections included. Non-map entries (a function
    call, a wrong value the checker reports) are kept as written.
    """
    if value.__class__ is list:
        return [
            merge_layers([(item, origin.child(i))], et, (*path, i), out, hooks, expanding)
            if isinstance(item, dict)
            else copy_data(item)
            for i, item in enumerate(value)
        ]
    return {
        key: merge_layers([(item, origin.child(key))], et, (*path, key), out, hooks, expanding)
        if isinstance(item, dict)
        else copy_data(item)
        for key, item in value.items()
    }


def merge_layers(
    layers: list[Layer],
    vt: ValueType,
    path: tuple,
    out: Resolution,
    hooks: Hooks,
    expanding: frozenset[int] = frozenset(),
    entry: Type | None = None,
) -> Any:
    """Merge ``layers`` (lowest first, at least one) of a value of type ``vt``.

    ``expanding`` holds the data types being filled in from defaults alone on
    the way here: a recursive data type whose default contains itself is
    expanded once, not forever (the nested default is kept as written).
    ``entry`` is the data type of the entries when ``vt`` is a list or map of
    data values (see :func:`entry_data_type`): their defaults are filled in.
    """
    for v, _ in layers:
        if v.__class__ is Call:
            layers = [hooks.substitute(v, o) if v.__class__ is Call else (v, o) for v, o in layers]
            break
    top_value, top_origin = layers[-1]
    # ``dict``, not ``Mapping``: YAML maps are dicts, and the ABC check is slow here.
    if isinstance(top_value, dict) and vt.__class__ is Type and vt.base_primitive is None:
        # Only the run of map layers at the top takes part: a lower scalar
        # was replaced whole by the maps above it.
        start = len(layers) - 1
        while start > 0 and isinstance(layers[start - 1][0], dict):
            start -= 1
        if start:
            out.overridden[path] = layers[:start]
            layers = layers[start:]
        out.origins[path] = top_origin
        result: dict[str, Any] = {}
        value_type = hooks.value_type
        single = len(layers) == 1  # the common case: only the template writes the map
        # A leaf over defaults is merged in place unless this map is itself a
        # default (then the general path guards against self-expansion).
        written = not top_origin.source.startswith("default")
        origins = out.origins
        for name, fdef, defaults, leaf_default, default_overridden, fvt, fentry in hooks.field_plan(
            vt
        ):
            if single:
                if name not in top_value:
                    if leaf_default is not None:
                        # A field no layer writes, with one scalar default.
                        result[name], origins[(*path, name)] = leaf_default
                        continue
                    hits = []
                else:
                    leaf = top_value[name]
                    if leaf.__class__ is not Call and not isinstance(leaf, (dict, list)):
                        if defaults is None:
                            result[name] = leaf  # its origin is the map's (not recorded)
                            continue
                        if default_overridden is not None and written:
                            # A leaf written over the field's defaults (none a
                            # call): what the general path below computes. Its
                            # origin is the map's, extended by its name, which
                            # is what a lookup derives: not recorded.
                            result[name] = leaf
                            out.overridden[(*path, name)] = default_overridden
                            continue
                    elif defaults is None and written and leaf.__class__ is dict:
                        # A map the template writes, no default under it:
                        # merged alone (what the general path below does).
                        fpath = (*path, name)
                        origin = _tuple_new(
                            Origin, (top_origin.source, top_origin.doc, (*top_origin.parts, name))
                        )
                        merged = merge_layers(
                            [(leaf, origin)], fvt, fpath, out, hooks, expanding, fentry
                        )
                        if merged is not ABSENT:
                            result[name] = merged
                        continue
                    hits = [(leaf, top_origin)]
            else:
                hits = [(value[name], origin) for value, origin in layers if name in value]
            if len(hits) == 1 and defaults is None:
                # The common case: one layer writes a plain leaf. Its origin is
                # recorded only when it is not the map's own (lookups take the
                # nearest recorded ancestor and extend its document path).
                leaf, origin = hits[0]
                if leaf.__class__ is not Call and not isinstance(leaf, (dict, list)):
                    result[name] = leaf
                    if origin is not top_origin:
                        origins[(*path, name)] = origin.child(name)
                    continue
            if len(hits) == 1 and default_overridden is not None:
                leaf, origin = hits[0]
                if _plain_leaf(leaf) and not origin.source.startswith("default"):
                    result[name] = leaf
                    fpath = (*path, name)
                    origins[fpath] = _tuple_new(
                        Origin, (origin.source, origin.doc, (*origin.parts, name))
                    )
                    out.overridden[fpath] = default_overridden
                    continue
            elif not hits and leaf_default is not None:
                result[name], origins[(*path, name)] = leaf_default
                continue
            flayers = list(hooks.default_layers(fdef)) if fdef.default_layers else []
            for value, origin in hits:
                flayers.append(
                    (value, _tuple_new(Origin, (origin.source, origin.doc, (*origin.parts, name))))
                )
            if flayers:
                inner = expanding
                # Defaults alone (no template or input value reaches this far):
                # guard against a type whose default contains itself, directly
                # or through a list/map of it, which would expand forever.
                if (fentry is not None or fvt.__class__ is Type) and all(
                    o.source.startswith("default") for _, o in hits
                ):
                    # Also kept as written: a fill-in that would multiply past
                    # MAX_EXPANDED values (reported on the type: expansion.py).
                    if id(fentry if fentry is not None else fvt) in expanding or too_large(
                        fdef, vt, value_type
                    ):
                        value, origin = flayers[-1]
                        result[name] = copy_data(value)
                        out.origins[(*path, name)] = origin
                        continue
                    inner = expanding | {id(vt)}
                merged = merge_layers(flayers, fvt, (*path, name), out, hooks, inner, fentry)
                if merged is not ABSENT:
                    result[name] = merged
            elif fdef.required and (
                isinstance(fvt, Type)
                and _is_data(fvt)
                and id(fvt) not in expanding
                and not too_large(fdef, vt, value_type)
            ):
                built = build_from_defaults(fvt, (*path, name), out, hooks, expanding | {id(vt)})
                if built is not ABSENT:
                    result[name] = built
        for value, origin in reversed(layers):
            # Keys no field declares: kept as written. Every key in ``result``
            # is merged already (the common case: all of them), so the
            # field table is read only for a key that is not.
            if (
                not value.keys() <= result.keys()
                and not value.keys() <= (fields := vt.properties).keys()
            ):
                for key, item in value.items():
                    if key not in fields and key not in result:
                        result[key] = copy_data(item)
                        out.origins[(*path, key)] = origin.child(key)
        return result
    out.origins[path] = top_origin
    if len(layers) > 1:
        out.overridden[path] = layers[:-1]
    if top_value.__class__ is list or top_value.__class__ is dict:
        if entry is not None:
            return _fill_entries(top_value, entry, path, top_origin, out, hooks, expanding)
        return copy_data(top_value)
    return top_value


# -- a written map merged by its shape ---------------------------------------
#
# A template's data value written as one map (no default under the property,
# bench B1's ``connection``) merges the same way for every template that
# writes the same keys with the same kinds of values: the same fields come
# from the same defaults, with the same origins and overridden layers at the
# same paths. ``merge_written_map`` compiles that once per shape (the keys,
# and which values are maps) and then only copies: the result's fields in
# their order, the written leaves put in, an origin per written map, and the
# shared entries of ``origins``/``overridden`` added in one step. What the
# compiled form does not cover (a default that is not one plain leaf, a data
# value built from defaults, a list, a call, a key no field declares) is
# merged field by field (``merge_layers``), as is every map the first time.


class _Shape:
    """One shape of a written data map, compiled (see above)."""

    __slots__ = ("vt", "template", "leaves", "maps", "origins", "overridden", "checks")

    def __init__(self, vt: Type) -> None:
        self.vt = vt  # the data type merged
        # require_values -> the value check's program for this shape
        # (check.quick_clean_shaped), made on first use.
        self.checks: dict[bool, Any] = {}
        # The result's fields in their order; a written one holds ``None``
        # until the template's value is put in.
        self.template: dict[str, Any] = {}
        self.leaves: list[str] = []  # written leaves
        self.maps: list[tuple[str, tuple, _Shape]] = []  # written maps: (name, path, shape)
        # Every level's entries that are the same for each template: the
        # origins of default leaves, the layers a written leaf overrides.
        self.origins: dict[tuple, Origin] = {}
        self.overridden: dict[tuple, Sequence[Layer]] = {}


def _signature(value: dict) -> tuple | None:
    """The shape of a written map: its keys in order, a written map's as
    ``(key, inner shape)``; ``None`` when a key is not a string or a value is
    a list or a call (merged field by field)."""
    shape: list[Any] = []
    for key, item in value.items():
        if key.__class__ is not str:
            return None
        cls = item.__class__
        if cls is dict:
            inner = _signature(item)
            if inner is None:
                return None
            shape.append((key, inner))
        elif cls is list or cls is Call or isinstance(item, (dict, list)):
            return None
        else:
            shape.append(key)
    return tuple(shape)


def _compile_shape(vt: Type, path: tuple, signature: tuple, hooks: Hooks) -> _Shape | None:
    """What :func:`merge_layers` does with one written map of this shape (a
    single layer, from a template), or ``None`` where it does more."""
    written: dict[str, tuple | None] = {}
    for entry in signature:
        if entry.__class__ is tuple:
            written[entry[0]] = entry[1]
        else:
            written[entry] = None
    plans = hooks.field_plan(vt)
    if not written.keys() <= {plan.name for plan in plans}:
        return None  # a key no field declares: kept as written by the general path
    shape = _Shape(vt)
    template = shape.template
    for name, fdef, defaults, leaf_default, default_overridden, fvt, _ in plans:
        fpath = (*path, name)
        if name not in written:
            if leaf_default is not None:
                template[name] = leaf_default[0]
                shape.origins[fpath] = leaf_default[1]
            elif defaults or (fdef.required and _is_data(fvt)):
                return None  # defaults merged or a value built from them
            continue  # no value
        inner = written[name]
        if inner is None:  # a written leaf
            if defaults is not None:
                if default_overridden is None:
                    return None  # a default is a call
                shape.overridden[fpath] = default_overridden
            template[name] = None
            shape.leaves.append(name)
            continue
        if defaults is not None or fvt.__class__ is not Type or fvt.base_primitive is not None:
            return None  # a map over defaults, or not a data value
        sub = _compile_shape(fvt, fpath, inner, hooks)
        if sub is None:
            return None
        template[name] = None
        shape.maps.append((name, fpath, sub))
        shape.origins.update(sub.origins)
        shape.overridden.update(sub.overridden)
    return shape


def _apply_shape(shape: _Shape, value: dict, origin: Origin, origins: dict) -> dict[str, Any]:
    result = shape.template.copy()
    for name in shape.leaves:
        result[name] = value[name]
    for name, fpath, sub in shape.maps:
        inner = origins[fpath] = _tuple_new(
            Origin, (origin.source, origin.doc, (*origin.parts, name))
        )
        result[name] = _apply_shape(sub, value[name], inner, origins)
    return result


MAX_SHAPES = 64  # compiled shapes kept per property (and owner) and load


def merge_written_map(
    value: dict,
    vt: Type,
    path: tuple,
    origin: Origin,
    out: Resolution,
    hooks: Hooks,
    shapes: dict[tuple, _Shape | None],
    shaped: dict[int, tuple[dict, _Shape]] | None = None,
) -> dict[str, Any] | None:
    """``merge_layers([(value, origin)], vt, path, out, hooks)`` for a map a
    template writes (``origin``'s source is not a default) of data type
    ``vt``, by its shape (see above); ``None`` (and nothing recorded) when
    the caller must merge it field by field. ``shapes`` holds the shapes
    compiled for this ``vt`` and ``path`` (at most :data:`MAX_SHAPES`);
    ``shaped`` (by ``id``) receives the result with its shape, for the
    value check (``check.quick_clean_shaped``)."""
    signature = _signature(value)
    if signature is None:
        return None
    shape = shapes.get(signature, _NOT_COMPILED)
    if shape is _NOT_COMPILED:
        if len(shapes) >= MAX_SHAPES:
            return None
        shape = shapes[signature] = _compile_shape(vt, path, signature, hooks)
    if shape is None:
        return None
    origins = out.origins
    origins[path] = origin
    result = _apply_shape(shape, value, origin, origins)
    origins.update(shape.origins)
    if shape.overridden:
        out.overridden.update(shape.overridden)
    if shaped is not None:
        shaped[id(result)] = (result, shape)  # the result kept with it: its id stays unique
    return result


_NOT_COMPILED: Any = object()


def _plain_leaf(value: Any) -> bool:
    """Not a map, a list or a function call: merging it is taking it as it is."""
    cls = value.__class__
    return cls is not dict and cls is not list and cls is not Call


def _default_layers(fdef: PropertyDefinition, hooks: Hooks) -> list[Layer]:
    return list(hooks.default_layers(fdef)) if fdef.default_layers else []


def build_from_defaults(
    vt: Type,
    path: tuple,
    out: Resolution,
    hooks: Hooks,
    expanding: frozenset[int] = frozenset(),
) -> Any:
    """A data value made of the type's defaults, or ``ABSENT`` if a required field lacks one."""
    if missing_default_fields(vt, hooks.value_type):
        return ABSENT
    origin = Origin(f"default: {vt.name}", vt.doc, vt.parts)
    return merge_layers([({}, origin)], vt, path, out, hooks, expanding | {id(vt)})


def missing_default_fields(
    vt: Type,
    value_type: Callable[[str | None, Type | None], ValueType],
    _seen: frozenset[int] = frozenset(),
    _memo: dict[int, list[str]] | None = None,
    _depth: int = 0,
) -> list[str]:
    """Required fields (dotted, recursively) that neither a default nor nested defaults fill.

    At most :data:`MAX_MISSING` are listed: types whose fields are of the
    previous type can hold 2^n such paths. Each type is walked once per call,
    at most ``MAX_FILL_DEPTH`` deep (data types may nest thousands deep).
    """
    if id(vt) in _seen or _depth > MAX_FILL_DEPTH:
        return []  # a recursive data type: its own check covers it
    memo: dict[int, list[str]] = {} if _memo is None else _memo
    if id(vt) in memo:
        return memo[id(vt)]
    seen = _seen | {id(vt)}
    missing: list[str] = []
    for name, fdef in vt.properties.items():
        if len(missing) >= MAX_MISSING:
            break
        if not fdef.required or fdef.default_layers:
            continue
        fvt = value_type(fdef.type, vt)
        if _is_data(fvt):
            assert isinstance(fvt, Type)
            inner = missing_default_fields(fvt, value_type, seen, memo, _depth + 1)
            missing.extend(f"{name}.{sub}" for sub in inner[: MAX_MISSING - len(missing)])
        else:
            missing.append(name)
    memo[id(vt)] = missing
    return missing


def merge_property(
    pdef: PropertyDefinition,
    template_layer: Layer | None,
    vt: ValueType,
    out: Resolution,
    hooks: Hooks,
    owner: Type | None = None,
) -> Any:
    """The merged value of one property (``ABSENT`` when it has none).

    ``owner`` is the type that declares ``pdef`` (resolves its entry type).
    """
    if template_layer is None and pdef.default_layers:
        defaults = hooks.default_layers(pdef)
        top_value, top_origin = defaults[-1]
        if _plain_leaf(top_value) and not any(v.__class__ is Call for v, _ in defaults):
            # Defaults alone with a scalar on top (no template value, no call):
            # the value and provenance merge_layers would give, directly.
            out.origins[(pdef.name,)] = top_origin
            if len(defaults) > 1:
                out.overridden[(pdef.name,)] = defaults[:-1]
            return top_value
    layers = _default_layers(pdef, hooks)
    # Defaults alone that would fill in past MAX_EXPANDED values: kept as
    # written (the type is reported as limit-exceeded: expansion.py).
    oversized = (
        template_layer is None
        and (bool(layers) or pdef.required)
        # Only a data value, or a list/map of them, is filled in from defaults.
        and (vt.__class__ is Type or pdef.schema.entry_schema is not None)
        and too_large(pdef, owner, hooks.value_type)
    )
    if template_layer is not None:
        layers.append(template_layer)
    if layers:
        if oversized:
            out.origins[(pdef.name,)] = layers[-1][1]
            return copy_data(layers[-1][0])
        entry = entry_data_type(pdef.schema, vt, owner, hooks)
        return merge_layers(layers, vt, (pdef.name,), out, hooks, entry=entry)
    if pdef.required and _is_data(vt) and not oversized:
        assert isinstance(vt, Type)
        return build_from_defaults(vt, (pdef.name,), out, hooks)
    return ABSENT
