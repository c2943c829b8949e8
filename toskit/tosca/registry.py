"""Build the types a document can see, one namespace per kind.

A :class:`Registry` holds the types of one kind family (data, node, …),
resolves names (full, normative short names, ``tosca:`` prefixed names,
import-namespace qualified names), links each type to its parent, breaks
``derived_from`` loops (``derivation-cycle``), recovers from unknown
parents against the kind's root (``unknown-type``), and computes the
effective property definitions after inheritance and refinement
(``incompatible-refinement``).

A registry may sit on a ``base`` registry (the normative profile, built once
per process): lookups fall through to it, and the base's ``Type`` objects
are shared, never modified.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from toskit.diagnostics import Diagnostic, did_you_mean
from toskit.sentinels import NO_DEFAULT
from toskit.source import YamlDocument
from toskit.tosca.artifacts import check_artifact_types
from toskit.tosca.definitions import PRIMITIVES, DefaultLayer, PropertyDefinition, SchemaDef, Type
from toskit.tosca.expansion import check_expansion

__all__ = ["KINDS", "Registry", "TypeSource", "merge_defaults"]

# Keynames of type definitions that list type names, and the kind they name.
_TYPE_LIST_KEYS = {
    "valid_source_types": "node",
    "valid_source_node_types": "node",
    "valid_target_types": "capability",
    "valid_capability_types": "capability",
    "valid_target_node_types": "node",
    "valid_relationship_types": "relationship",
}

KINDS = ("data", "node", "capability", "relationship", "interface", "artifact", "group", "policy")

# The word TOSCA 1.x puts after ``tosca.`` in normative names of each kind.
_KIND_WORDS = {
    "data": "datatypes",
    "node": "nodes",
    "capability": "capabilities",
    "relationship": "relationships",
    "interface": "interfaces",
    "artifact": "artifacts",
    "group": "groups",
    "policy": "policies",
}


@dataclass(frozen=True)
class TypeSource:
    """One type definition as written in a document."""

    kind: str
    name: str  # as registered (with ``prefix:`` for namespaced imports)
    raw: Any
    doc: YamlDocument | None
    parts: tuple[Hashable, ...]
    prefix: str | None = None  # the import namespace the definition lives in
    normative: bool = False


SMALL_TABLE = 64  # effective property tables up to this size are kept per type


class Registry:
    """The types visible to a document, with name resolution."""

    def __init__(self, base: Registry | None = None) -> None:
        self.base = base
        self.by_kind: dict[str, dict[str, Type]] = {kind: {} for kind in KINDS}
        self.aliases: dict[str, dict[str, Type]] = {kind: {} for kind in KINDS}
        self.roots: dict[str, Type] = dict(base.roots) if base else {}
        # Namespaces of imported profiles toskit does not have (names in them are not errors).
        self.opaque_prefixes: set[str] = set()

    def derives_from_opaque(self, t: Type) -> bool:
        """``t`` or an ancestor derives from a type of a profile toskit does not have."""
        if not self.opaque_prefixes:
            return False  # the usual case, without walking the chain
        return any(self.is_opaque(a.definition.get("derived_from")) for a in t.chain)

    def is_opaque(self, name: Any) -> bool:
        """True for a name in the namespace of a profile that could not be loaded."""
        if not isinstance(name, str) or ":" not in name:
            return False
        namespace = name.rsplit(":", 1)[0]
        return namespace in self.opaque_prefixes

    # -- lookups ---------------------------------------------------------

    def lookup(self, kind: str, name: Any, prefix: str | None = None) -> Type | None:
        """The type ``name`` of ``kind`` as seen from a file in namespace ``prefix``."""
        if not isinstance(name, str) or kind not in self.by_kind:
            return None
        if prefix:
            found = self._find(kind, f"{prefix}:{name}")
            if found is not None:
                return found
        return self._find(kind, name)

    def _find(self, kind: str, name: str) -> Type | None:
        registry: Registry | None = self
        while registry is not None:
            found = registry.by_kind[kind].get(name)
            if found is not None:
                return found
            registry = registry.base
        registry = self
        while registry is not None:
            found = registry.aliases[kind].get(name)
            if found is not None:
                return found
            registry = registry.base
        return None

    def names(self, kind: str) -> list[str]:
        """Every full type name of ``kind`` (own first, then the base's)."""
        out: dict[str, None] = {}
        registry: Registry | None = self
        while registry is not None:
            out.update(dict.fromkeys(registry.by_kind[kind]))
            registry = registry.base
        return list(out)

    def all_of(self, kind: str) -> dict[str, Type]:
        """Full name -> type for one kind (own types shadow the base's)."""
        out: dict[str, Type] = {}
        chain = []
        registry: Registry | None = self
        while registry is not None:
            chain.append(registry)
            registry = registry.base
        for registry in reversed(chain):
            out.update(registry.by_kind[kind])
        return out

    def value_types(self) -> Callable[[str | None, Type | None], Type | str | None]:
        """A cached ``(type name, owner type) -> value type`` resolver for this registry.

        Result objects keep this function (not the loader), so a loaded
        template holds no reference cycle through its loader.
        """
        cache: dict[tuple[Any, Any], Type | str | None] = {}
        lookup = self.value_type

        def value_type(name: str | None, owner: Type | None) -> Type | str | None:
            key = (name, owner.prefix if owner is not None else None)
            try:
                return cache[key]
            except KeyError:
                found = cache[key] = lookup(name, key[1]) if name is not None else None
                return found

        return value_type

    def value_type(self, name: Any, prefix: str | None = None) -> Type | str | None:
        """A property ``type``: a primitive name, a data ``Type``, or ``None`` when unknown."""
        if not isinstance(name, str):
            return None
        if name in PRIMITIVES:
            return name
        found = self.lookup("data", name, prefix)
        if found is not None:
            return found
        # ``tosca:string`` and friends.
        if name.startswith("tosca:") and name[6:] in PRIMITIVES:
            return name[6:]
        return None

    # -- building --------------------------------------------------------

    def add_sources(self, sources: Iterable[TypeSource]) -> list[Diagnostic]:
        """Create, link and complete the types of ``sources``; returns diagnostics."""
        diags: list[Diagnostic] = []
        new: list[Type] = []
        for src in sources:
            raw = src.raw if isinstance(src.raw, Mapping) else {}
            desc = raw.get("description")
            t = Type(
                src.name,
                src.kind,
                description=desc if isinstance(desc, str) else None,
                definition=raw,
                doc=src.doc,
                parts=src.parts,
                prefix=src.prefix,
                normative=src.normative,
            )
            self.by_kind[src.kind][src.name] = t
            new.append(t)
        # Exact short names first, so that ``Compute`` is tosca.nodes.Compute and
        # not the tail of tosca.nodes.Abstract.Compute.
        for exact in (True, False):
            for t in new:
                if t.normative:
                    self._add_aliases(t, exact)
        for t in new:
            self._link_parent(t, diags)
        acyclic: set[int] = set()
        for t in new:
            self._break_cycle(t, diags, acyclic)
        for t in new:
            if (
                t.normative
                and t.parent is None
                and t.name.endswith("Root")
                and t.kind not in self.roots
            ):
                self.roots[t.kind] = t
        done: set[int] = set()
        children = self._children(t for t in new if self.by_kind[t.kind].get(t.name) is t)
        for t in new:
            self._complete(t, done, diags, children)
        for t in new:
            if not t.normative and t.doc is not None:
                self._check_references(t, diags)
        # Defaults that would fill in without bound (#19): reported once, here.
        diags.extend(check_expansion(new, self.value_types()))
        return diags

    def _check_references(self, t: Type, diags: list[Diagnostic]) -> None:
        """Type names a definition refers to (valid_*_types, requirements, members…)."""
        raw = t.definition
        assert t.doc is not None
        doc = t.doc

        def check(kind: str, name: Any, parts: tuple[Hashable, ...]) -> None:
            if not isinstance(name, str) or self.lookup(kind, name, t.prefix) is not None:
                return
            if self.is_opaque(name):
                return
            diags.append(
                doc.diagnostic(
                    "error",
                    "unknown-type",
                    f"{t.kind} type '{t.name}': unknown {kind} type '{name}'",
                    parts,
                    hint=did_you_mean(name, self.names(kind)),
                )
            )

        for key, kind in _TYPE_LIST_KEYS.items():
            names = raw.get(key)
            if isinstance(names, list):
                for index, name in enumerate(names):
                    check(kind, name, (*t.parts, key, index))
        if t.kind == "data" and t.base_primitive is not None and raw.get("properties"):
            diags.append(
                doc.diagnostic(
                    "error",
                    "invalid-definition",
                    f"data type '{t.name}' derives from the primitive '{t.base_primitive}' "
                    "and cannot add properties",
                    (*t.parts, "properties"),
                    at_key=True,
                )
            )
        reqs = raw.get("requirements")
        if isinstance(reqs, list):
            for index, entry in enumerate(reqs):
                if not isinstance(entry, Mapping) or len(entry) != 1:
                    continue
                ((rname, rdef),) = entry.items()
                parts = (*t.parts, "requirements", index, rname)
                if isinstance(rdef, str):
                    check("capability", rdef, parts)
                    continue
                if not isinstance(rdef, Mapping):
                    continue
                if not self._names_capability(rdef.get("node"), rdef.get("capability"), t):
                    check("capability", rdef.get("capability"), (*parts, "capability"))
                check("node", rdef.get("node"), (*parts, "node"))
                rel = rdef.get("relationship")
                rel_name = rel.get("type") if isinstance(rel, Mapping) else rel
                check("relationship", rel_name, (*parts, "relationship"))
        caps = raw.get("capabilities")
        if isinstance(caps, Mapping):
            for cname, cdef in caps.items():
                ctype = cdef.get("type") if isinstance(cdef, Mapping) else cdef
                check("capability", ctype, (*t.parts, "capabilities", cname, "type"))
        if t.kind in ("node", "relationship"):
            label = f"{t.kind} type '{t.name}'"
            diags.extend(check_artifact_types(self, doc, raw, t.parts, label, t.prefix))

    def _names_capability(self, node: Any, capability: Any, t: Type) -> bool:
        """``capability`` names a capability definition of the node type ``node``.

        A requirement may name the target's capability (``capability: endpoint``)
        rather than a capability type (1.3 §3.7.3; tosca-parser accepts it).
        """
        if not isinstance(node, str) or not isinstance(capability, str):
            return False
        ntype = self.lookup("node", node, t.prefix)
        if ntype is None:
            return False
        for ancestor in ntype.chain:
            caps = ancestor.definition.get("capabilities")
            if isinstance(caps, Mapping) and capability in caps:
                return True
        return False

    def _add_aliases(self, t: Type, exact: bool) -> None:
        aliases = self.aliases[t.kind]
        name = t.name
        short: list[str] = []
        head = f"tosca.{_KIND_WORDS[t.kind]}."
        if name.startswith(head):
            rest = name[len(head) :]
            short.append(rest if exact else rest.rsplit(".", 1)[-1])
        elif exact and ":" not in name:
            short.append(name)
        for s in short:
            aliases.setdefault(s, t)
            aliases.setdefault(f"tosca:{s}", t)

    def _link_parent(self, t: Type, diags: list[Diagnostic]) -> None:
        parent_name = t.definition.get("derived_from")
        if parent_name is None:
            return
        if t.kind == "data" and isinstance(parent_name, str):
            primitive = self.value_type(parent_name, t.prefix)
            if isinstance(primitive, str):
                t.base_primitive = primitive
                return
        parent = self.lookup(t.kind, parent_name, t.prefix)
        if parent is None and self.is_opaque(parent_name):
            parent = self.roots.get(t.kind)
        elif parent is None:
            candidates = self.names(t.kind)
            if t.kind == "data":
                candidates += sorted(PRIMITIVES)
            if t.doc is not None:
                diags.append(
                    t.doc.diagnostic(
                        "error",
                        "unknown-type",
                        f"{t.kind} type '{t.name}' derives from unknown type '{parent_name}'",
                        (*t.parts, "derived_from"),
                        hint=did_you_mean(str(parent_name), candidates),
                    )
                )
            parent = self.roots.get(t.kind)
            if parent is t:
                parent = None
        t.parent = parent

    def _break_cycle(self, t: Type, diags: list[Diagnostic], acyclic: set[int]) -> None:
        """Report and cut a ``derived_from`` loop through ``t``.

        ``acyclic`` collects types whose chain is known to end, so a long
        chain is walked once overall, not once per type.
        """
        seen: list[Type] = [t]
        seen_ids = {id(t)}
        node = t.parent
        while node is not None and id(node) not in acyclic:
            if node is t:
                loop = " -> ".join(x.name for x in [*seen, t])
                if t.doc is not None:
                    diags.append(
                        t.doc.diagnostic(
                            "error",
                            "derivation-cycle",
                            f"derived_from loops: {loop}",
                            (*t.parts, "derived_from"),
                        )
                    )
                # Cut the loop here so every other walk terminates.
                t.parent = None
                break
            if id(node) in seen_ids:
                return  # a loop further up; reported when its own member is visited
            seen.append(node)
            seen_ids.add(id(node))
            node = node.parent
        # The chain from t now ends (or was cut at t): all of it is acyclic.
        if t.parent is None or node is None or id(node) in acyclic:
            acyclic.update(seen_ids)

    def _complete(
        self,
        t: Type,
        done: set[int],
        diags: list[Diagnostic],
        children: Mapping[int, list[Type]] | None = None,
    ) -> None:
        """Compute effective properties, parents first (iteratively: chains may be long).

        The not yet completed types from ``t`` up, and everything derived
        from them among this registry's types, are completed in one walk
        down the derivation tree that keeps one running property table
        (applied on the way down, undone on the way up), so no type copies
        its ancestors' table here: a chain of n types costs O(n) (#24).
        Types keep a table of their own only while it is small; the others
        build it on first use (``Type.properties``).
        """
        node: Type | None = t
        top: Type | None = None
        # Stop at types already done, and at the base registry's (shared, complete).
        while (
            node is not None
            and id(node) not in done
            and self.by_kind[node.kind].get(node.name) is node
        ):
            top = node
            node = node.parent
        if top is None:
            return
        if children is None:
            children = self._children(list(self._own_types()))
        parent = top.parent
        table: dict[str, PropertyDefinition] = dict(parent.properties) if parent else {}
        stack: list[tuple[Type, list[tuple[str, PropertyDefinition | None]] | None]] = [(top, None)]
        while stack:
            each, undo = stack.pop()
            if undo is not None:  # leaving ``each``: its definitions go
                for name, previous in reversed(undo):
                    if previous is None:
                        del table[name]
                    else:
                        table[name] = previous
                continue
            if id(each) in done:
                continue
            done.add(id(each))
            applied = self._complete_one(each, table, diags)
            stack.append((each, applied))
            stack.extend((child, None) for child in reversed(children.get(id(each), ())))

    def _own_types(self) -> Iterable[Type]:
        for types in self.by_kind.values():
            yield from types.values()

    @staticmethod
    def _children(types: Iterable[Type]) -> dict[int, list[Type]]:
        """``types`` by the id of the type they derive from."""
        out: dict[int, list[Type]] = {}
        for child in types:
            if child.parent is not None:
                out.setdefault(id(child.parent), []).append(child)
        return out

    def _complete_one(
        self, t: Type, inherited: dict[str, PropertyDefinition], diags: list[Diagnostic]
    ) -> list[tuple[str, PropertyDefinition | None]]:
        """Complete ``t`` over its parent's effective table ``inherited``.

        Applies ``t``'s definitions to ``inherited`` and returns what they
        replaced (``None``: a new name), for the caller to undo.
        """
        parent = t.parent
        if parent is not None and t.base_primitive is None:
            t.base_primitive = parent.base_primitive
        raw = t.definition
        own_props = raw.get("properties")
        applied: list[tuple[str, PropertyDefinition | None]] = []
        if isinstance(own_props, Mapping):
            for pname, praw in own_props.items():
                if not isinstance(pname, str):
                    continue
                previous = inherited.get(pname)
                pdef = self.property_definition(
                    t, pname, praw, previous, (*t.parts, "properties", pname), diags
                )
                t.own_properties[pname] = pdef
                if previous is not None:
                    t.replaced_properties[pname] = previous
                applied.append((pname, previous))
                inherited[pname] = pdef
        # A small table is kept (the common case: used often, costs little);
        # a large one is shared through the ancestors and built when used.
        t._properties = dict(inherited) if len(inherited) <= SMALL_TABLE else None
        if t.kind == "data":
            t.schema = self.schema_def(raw, t.doc, t.parts, t.prefix, diags, check_type=False)
        if t.kind in ("node", "group"):
            # Own entries only; the effective lists are built on first use
            # (Type.requirements / .capabilities), sharing the ancestors'.
            own_reqs = raw.get("requirements")
            if isinstance(own_reqs, list):
                for entry in own_reqs:
                    if isinstance(entry, Mapping) and len(entry) == 1:
                        ((rname, rdef),) = entry.items()
                        t._own_requirements.append((rname, rdef))
            own_caps = raw.get("capabilities")
            if isinstance(own_caps, Mapping):
                t._own_capabilities.update(own_caps)
            t._requirements = None
            t._capabilities = None
        return applied

    def schema_def(
        self,
        raw: Any,
        doc: YamlDocument | None,
        parts: tuple[Hashable, ...],
        prefix: str | None,
        diags: list[Diagnostic],
        *,
        check_type: bool = True,
        inherit: SchemaDef | None = None,
    ) -> SchemaDef:
        """A :class:`SchemaDef` from a definition map (or a bare type name)."""
        if isinstance(raw, str):
            raw = {"type": raw}
        if not isinstance(raw, Mapping):
            return inherit or SchemaDef(None, doc=doc, parts=parts)
        type_name = raw.get("type", inherit.type if inherit else None)
        if check_type and "type" in raw:
            self._check_value_type(raw.get("type"), doc, (*parts, "type"), prefix, diags)
        entry = raw.get("entry_schema")
        key = raw.get("key_schema")
        constraints = raw.get("constraints")
        return SchemaDef(
            type=type_name if isinstance(type_name, str) else None,
            entry_schema=self.schema_def(entry, doc, (*parts, "entry_schema"), prefix, diags)
            if entry is not None
            else (inherit.entry_schema if inherit else None),
            key_schema=self.schema_def(key, doc, (*parts, "key_schema"), prefix, diags)
            if key is not None
            else (inherit.key_schema if inherit else None),
            constraints=tuple(constraints)
            if isinstance(constraints, list)
            else (inherit.constraints if inherit else ()),
            validation=raw.get("validation", inherit.validation if inherit else None),
            doc=doc,
            parts=parts,
        )

    def _check_value_type(
        self,
        name: Any,
        doc: YamlDocument | None,
        parts: tuple[Hashable, ...],
        prefix: str | None,
        diags: list[Diagnostic],
    ) -> None:
        if doc is None or self.value_type(name, prefix) is not None or self.is_opaque(name):
            return
        candidates = [*sorted(PRIMITIVES), *self.names("data")]
        diags.append(
            doc.diagnostic(
                "error",
                "unknown-type",
                f"unknown data type '{name}'",
                parts,
                hint=did_you_mean(str(name), candidates),
            )
        )

    def property_definition(
        self,
        owner: Type,
        name: str,
        raw: Any,
        parent: PropertyDefinition | None,
        parts: tuple[Hashable, ...],
        diags: list[Diagnostic],
    ) -> PropertyDefinition:
        """One effective property definition (a refinement of ``parent`` if given)."""
        doc = owner.doc
        if not isinstance(raw, Mapping):
            # Short forms: a refinement's bare value is its new default (2.0);
            # otherwise ``prop: string`` names the type.
            # A type deriving from an unknown profile may refine a property
            # toskit cannot see: its bare value is a default too.
            refines = parent is not None or self.derives_from_opaque(owner)
            if refines and not (
                isinstance(raw, str) and self.value_type(raw, owner.prefix)
            ):
                raw = {"default": raw}
            else:
                raw = {"type": raw} if isinstance(raw, str) else {}
        schema = self.schema_def(
            raw, doc, parts, owner.prefix, diags, inherit=parent.schema if parent else None
        )
        if (
            parent is not None
            and "type" in raw
            and parent.type
            and schema.type
            and doc is not None
            and not self.refines(schema.type, parent.type, owner.prefix)
        ):
            diags.append(
                doc.diagnostic(
                    "error",
                    "incompatible-refinement",
                    f"{owner.kind} type '{owner.name}' redefines property '{name}' as "
                    f"'{schema.type}', which does not derive from '{parent.type}' "
                    f"(defined in '{parent.defined_in}')",
                    (*parts, "type"),
                )
            )
        if (
            parent is not None
            and parent.value is not NO_DEFAULT
            and ("value" in raw or "default" in raw)
            and doc is not None
        ):
            key = "value" if "value" in raw else "default"
            diags.append(
                doc.diagnostic(
                    "error",
                    "incompatible-refinement",
                    f"{owner.kind} type '{owner.name}' changes property '{name}', whose value "
                    f"is fixed by '{parent.defined_in}'",
                    (*parts, key),
                )
            )
        required = raw.get("required", parent.required if parent else True)
        description = raw.get("description", parent.description if parent else None)
        layers = parent.default_layers if parent else ()
        if "default" in raw:
            layers = (*layers, DefaultLayer(raw["default"], owner.name, doc, (*parts, "default")))
        fixed = raw.get("value", parent.value if parent else NO_DEFAULT)
        if "value" in raw:
            # A fixed value is also the value a template that omits it gets.
            layers = (*layers, DefaultLayer(raw["value"], owner.name, doc, (*parts, "value")))
        if fixed is not NO_DEFAULT:
            schema = replace(schema, fixed=fixed)
        default = _effective_default(layers, self.value_type(schema.type, owner.prefix))
        return PropertyDefinition(
            name=name,
            type=schema.type,
            required=required if isinstance(required, bool) else True,
            default=default,
            description=description if isinstance(description, str) else None,
            defined_in=owner.name,
            status=raw.get("status", parent.status if parent else None),
            metadata=raw.get("metadata", parent.metadata if parent else None),
            schema=schema,
            default_layers=layers,
            value=fixed,
        )

    def refines(self, child: str, parent: str, prefix: str | None = None) -> bool:
        """True when value type ``child`` may replace ``parent`` in a refinement."""
        if child == parent:
            return True
        c = self.value_type(child, prefix)
        p = self.value_type(parent, prefix)
        if c is None or p is None:
            return True  # already reported as unknown-type; don't pile on
        if c is p:
            return True
        if isinstance(c, Type):
            if isinstance(p, Type):
                return c.is_a(p)
            return c.base_primitive == p
        return False


def _effective_default(layers: tuple[DefaultLayer, ...], value_type: Type | str | None) -> Any:
    """The default in effect: data-typed defaults merge child over parent."""
    if not layers:
        return NO_DEFAULT
    if isinstance(value_type, Type) and value_type.base_primitive is None:
        return merge_defaults([layer.value for layer in layers])
    return layers[-1].value


def merge_defaults(values: list[Any]) -> Any:
    """Merge maps key by key, later over earlier; anything else: the last wins."""
    result = values[0]
    for value in values[1:]:
        if isinstance(result, Mapping) and isinstance(value, Mapping):
            merged = dict(result)
            for key, item in value.items():
                merged[key] = merge_defaults([merged[key], item]) if key in merged else item
            result = merged
        else:
            result = value
    return result
