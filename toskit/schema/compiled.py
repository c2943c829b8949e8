"""Compiled types: each resolved atom becomes one :class:`Node`, built once
per schema and reused by every validate/merge/compare call.

A ``Node`` holds what the walkers need without looking anything up again:
the scalar kind, the list relationship (``atomic``, ``keyed``, ``set``), key
fields and their defaults, the field table of a map and its element node.
It also carries ``fast``, a closure that answers "is this value certainly
valid?" without building any path or diagnostic; validation runs it first
and only walks the value again (with paths) when it says no. ``fast`` may
say no for a valid value (a tuple, a ``str`` subclass); it never says yes
for an invalid one.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from toskit.plain import HASH_MODULUS as _HASH_MODULUS
from toskit.schema.model import (
    UNTYPED_ATOMIC,
    UNTYPED_DEDUCED,
    Atom,
    Schema,
    TypeRef,
    resolve_ref,
    schema_error_message,
)
from toskit.schema.values import canonical

__all__ = ["Compiler", "Node"]

_SCALAR_TYPES: dict[str, frozenset[type]] = {
    "numeric": frozenset((int, float)),
    "string": frozenset((str,)),
    "boolean": frozenset((bool,)),
    "untyped": frozenset((int, float, str, bool)),
}

_MISSING = object()


class Node:
    """One resolved atom, ready for walking (internal)."""

    __slots__ = (
        "label",
        "scalar",
        "scalar_types",
        "has_list",
        "list_kind",
        "list_elem",
        "keys",
        "key_defaults",
        "has_map",
        "map_atomic",
        "fields",
        "map_elem",
        "unions",
        "fast",
    )

    def __init__(self, label: str) -> None:
        self.label = label
        self.scalar: str | None = None
        self.scalar_types: frozenset[type] = frozenset()
        self.has_list = False
        # "atomic" (atomic or unset relationship), "keyed" or "set".
        self.list_kind: str | None = None
        self.list_elem: Node | None = None
        self.keys: tuple[str, ...] = ()
        self.key_defaults: dict[str, Any] = {}
        self.has_map = False
        self.map_atomic = False
        self.fields: dict[str, Node] = {}
        self.map_elem: Node | None = None
        self.unions: tuple = ()
        self.fast: Callable[[Any], bool] = _never

    @property
    def is_scalar_only(self) -> bool:
        """True when the type allows a scalar and nothing else."""
        return self.scalar is not None and not self.has_list and not self.has_map

    def part_for(self, value: Any) -> str | None:
        """Which part (``map``, ``list``, ``scalar``) a value uses, or ``None``."""
        if isinstance(value, dict):
            return "map" if self.has_map else None
        if isinstance(value, (list, tuple)):
            return "list" if self.has_list else None
        if isinstance(value, (str, int, float)) and self.scalar is not None:
            return "scalar"
        return None

    def field_node(self, key: str) -> Node | None:
        """The node of a map key: its declared field's, else the element type's."""
        node = self.fields.get(key)
        return node if node is not None else self.map_elem

    def child(self, key: str) -> Node:
        """:meth:`field_node` for a key of a *validated* map, which always has
        one (validation reports undeclared keys)."""
        node = self.fields.get(key)
        if node is None:
            node = self.map_elem
            if node is None:
                raise schema_error_message(
                    f"no type for the undeclared key {key!r} (value not validated?)"
                )
        return node

    def item_node(self) -> Node:
        """The element node of a *validated* list (a list type always has one)."""
        if self.list_elem is None:
            raise schema_error_message("this type has no list element (value not validated?)")
        return self.list_elem

    def __repr__(self) -> str:
        return f"<Node {self.label}>"


def _never(value: Any) -> bool:
    return False


def _forget(compiler: weakref.ref[Compiler], key: tuple) -> None:
    """Drop the cached node of an inline atom that no longer exists."""
    alive = compiler()
    if alive is not None:
        alive._cache.pop(key, None)


class Compiler:
    """Builds and caches the :class:`Node` of every reference of a schema."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self._cache: dict[tuple, Node] = {}

    def node_for(self, ref: str | TypeRef) -> Node:
        """The node of a type name or ``TypeRef`` (``SchemaError`` if it names nothing)."""
        if isinstance(ref, str):
            ref = TypeRef(named_type=ref)
        elif not isinstance(ref, TypeRef) or ref.is_empty:
            raise schema_error_message(f"a type name must be a string, got {type(ref).__name__}")
        return self._ref(ref, UNTYPED_ATOMIC)

    def _ref(self, ref: TypeRef | None, default: str) -> Node:
        if ref is None or ref.is_empty:
            ref = TypeRef(named_type=default)
        if ref.named_type is not None:
            key: tuple = ("named", ref.named_type, ref.element_relationship)
            label = ref.named_type
        else:
            key = ("inline", id(ref.inlined), ref.element_relationship)
            label = "inlined"
        node = self._cache.get(key)
        if node is not None:
            return node
        atom = resolve_ref(self.schema, ref)
        if atom.is_empty:
            raise schema_error_message("invalid atom")
        if ref.inlined is not None:
            # Inline atoms are cached by identity for as long as they live (not
            # by value: a default of 1 and one of true compare equal in Python
            # but not in the schema). The entry goes with the atom, so a TypeRef
            # built per call does not grow the cache, and an atom that later
            # gets the same id finds nothing stale.
            weakref.finalize(ref.inlined, _forget, weakref.ref(self), key)
        node = Node(label)
        # Registered before its children so that recursive types terminate.
        self._cache[key] = node
        self._fill(node, atom)
        return node

    def _fill(self, node: Node, atom: Atom) -> None:
        if atom.scalar is not None:
            node.scalar = atom.scalar
            node.scalar_types = _SCALAR_TYPES.get(atom.scalar, frozenset())
        if atom.list is not None:
            lst = atom.list
            node.has_list = True
            if lst.element_relationship == "associative":
                node.list_kind = "keyed" if lst.keys else "set"
            else:
                node.list_kind = "atomic"
            # A list without an element type holds untyped values; keyed items
            # then merge field by field (see docs/schema.md).
            node.list_elem = self._ref(lst.element_type, UNTYPED_DEDUCED)
            if node.list_kind == "keyed":
                node.keys = tuple(lst.keys)
                elem_atom = self._atom_of(lst.element_type)
                if elem_atom is not None and elem_atom.map is not None:
                    for f in elem_atom.map.fields:
                        if f.name in node.keys and f.default is not None:
                            node.key_defaults[f.name] = f.default
        if atom.map is not None:
            mp = atom.map
            node.has_map = True
            node.map_atomic = mp.element_relationship == "atomic"
            node.unions = tuple(mp.unions)
            for f in mp.fields:
                # A field without a type takes any value, replaced whole.
                node.fields[f.name] = self._ref(f.type, UNTYPED_ATOMIC)
            if mp.element_type is not None and not mp.element_type.is_empty:
                node.map_elem = self._ref(mp.element_type, UNTYPED_ATOMIC)
        node.fast = _build_fast(node)

    def _atom_of(self, ref: TypeRef | None) -> Atom | None:
        if ref is None or ref.is_empty:
            return None
        return resolve_ref(self.schema, ref)


# -- fast checks -----------------------------------------------------------------


def _build_fast(node: Node) -> Callable[[Any], bool]:
    map_fast = _map_fast(node) if node.has_map else None
    list_fast = _list_fast(node) if node.has_list else None
    scalar_types = node.scalar_types
    if map_fast is not None and list_fast is None and node.scalar is None:
        return map_fast
    if list_fast is not None and map_fast is None and node.scalar is None:
        return list_fast
    if map_fast is None and list_fast is None:

        def fast_scalar(v: Any) -> bool:
            return v is None or type(v) in scalar_types

        return fast_scalar

    def fast_multi(v: Any) -> bool:
        t = type(v)
        if t is dict:
            return map_fast is not None and map_fast(v)
        if t is list:
            return list_fast is not None and list_fast(v)
        return v is None or t in scalar_types

    return fast_multi


def _map_fast(node: Node) -> Callable[[Any], bool]:
    scalar_fields = {k: n.scalar_types for k, n in node.fields.items() if n.is_scalar_only}
    other_fields = {k: n for k, n in node.fields.items() if not n.is_scalar_only}
    sget = scalar_fields.get
    oget = other_fields.get
    elem = node.map_elem
    elem_types = elem.scalar_types if elem is not None and elem.is_scalar_only else None

    def fast_map(v: Any) -> bool:
        if type(v) is not dict:
            return v is None
        for k, x in v.items():
            if x is None:
                if type(k) is not str or (elem is None and k not in node.fields):
                    return False
                continue
            t = sget(k)
            if t is not None:
                if type(x) not in t:
                    return False
                continue
            n = oget(k)
            if n is not None:
                if not n.fast(x):
                    return False
                continue
            if elem is None or type(k) is not str:
                return False
            if elem_types is not None:
                if type(x) not in elem_types:
                    return False
            elif not elem.fast(x):
                return False
        return True

    return fast_map


def _list_fast(node: Node) -> Callable[[Any], bool]:
    """The fast check of a list node, by its kind (one builder each: the
    checks themselves are the hot loops, left as written)."""
    elem = node.list_elem
    assert elem is not None
    elem_types = elem.scalar_types if elem.is_scalar_only else None
    if node.list_kind == "atomic":
        return _atomic_fast(elem, elem_types)
    if node.list_kind == "set":
        return _set_fast(elem, elem_types)
    if len(node.keys) == 1:
        return _keyed1_fast(node, elem)
    return _keyed_fast(node, elem)


def _atomic_fast(elem: Node, elem_types: Any) -> Callable[[Any], bool]:
    def fast_atomic(v: Any) -> bool:
        if type(v) is not list:
            return v is None
        if elem_types is not None:
            for e in v:  # noqa: SIM110 - a plain loop is faster than all()
                if e is not None and type(e) not in elem_types:
                    return False
            return True
        ef = elem.fast
        for e in v:  # noqa: SIM110 - a plain loop is faster than all()
            if not ef(e):
                return False
        return True

    return fast_atomic


def _set_fast(elem: Node, elem_types: Any) -> Callable[[Any], bool]:
    def fast_set(v: Any) -> bool:
        if type(v) is not list:
            return v is None
        seen: set = set()
        add = seen.add
        for e in v:
            t = type(e)
            if t is str:
                ck: Any = e
            elif t is int or t is float:
                # canonical(): huge integers would all share one hash (#19)
                ck = e if -_HASH_MODULUS < e < _HASH_MODULUS else canonical(e)
            elif t is bool:
                ck = canonical(e)
            else:
                return False
            if ck in seen:
                return False
            add(ck)
            if elem_types is not None:
                if t not in elem_types:
                    return False
            elif not elem.fast(e):
                return False
        return True

    return fast_set


def _keyed1_fast(node: Node, elem: Node) -> Callable[[Any], bool]:
    key = node.keys[0]
    default = node.key_defaults.get(key, _MISSING)

    def fast_keyed1(v: Any) -> bool:
        if type(v) is not list:
            return v is None
        seen: set = set()
        add = seen.add
        ef = elem.fast
        for e in v:
            if type(e) is not dict:
                return False
            kv = e.get(key, default)
            if kv is _MISSING:
                return False
            t = type(kv)
            ck = kv if t is str else canonical(kv)
            if ck in seen:
                return False
            add(ck)
            if not ef(e):
                return False
        return True

    return fast_keyed1


def _keyed_fast(node: Node, elem: Node) -> Callable[[Any], bool]:
    keys = node.keys
    defaults = node.key_defaults

    def fast_keyed(v: Any) -> bool:
        if type(v) is not list:
            return v is None
        seen: set = set()
        for e in v:
            if type(e) is not dict:
                return False
            parts = []
            found = False
            for k in keys:
                kv = e.get(k, _MISSING)
                if kv is _MISSING:
                    kv = defaults.get(k, _MISSING)
                if kv is not _MISSING:
                    found = True
                    parts.append(canonical(kv))
                else:
                    parts.append(_MISSING)
            if not found:
                return False
            ck = tuple(parts)
            if ck in seen:
                return False
            seen.add(ck)
            if not elem.fast(e):
                return False
        return True

    return fast_keyed
