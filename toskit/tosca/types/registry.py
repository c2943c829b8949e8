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
from typing import Any

from toskit.diagnostics import Diagnostic, did_you_mean
from toskit.records import record, replace
from toskit.sentinels import NO_DEFAULT
from toskit.source import YamlDocument
from toskit.tosca.types.artifacts import check_artifact_types
from toskit.tosca.types.definitions import (
    PRIMITIVES,
    DefaultLayer,
    PropertyDefinition,
    SchemaDef,
    Type,
    yaml11_boolean,
)
from toskit.tosca.types.expansion import check_expansion

__all__ = ["KINDS", "Registry", "Scope", "ScopedPrefix", "TypeSource", "merge_defaults"]

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


class Scope:
    """The names one document sees: its own types, and what it imports.

    Each document of a load has one scope, however many import chains reach
    it (docs/tosca.md, "Namespaces"): ``plain`` lists the documents it
    imports without a namespace (their names are visible as if written
    here), ``named`` the documents it imports under each namespace
    (``ns:Name`` looks ``Name`` up in them). ``a:b:Name`` is found by
    walking these tables (:meth:`Registry.lookup`), so a document imported
    along 2^n namespace chains is still registered once.

    ``prefix`` is the namespace chain of the first import that reached the
    document (``None``: the loaded document's own namespace): its types are
    registered as ``prefix:Name``. An import is *direct* when the imported
    document's prefix is the importer's joined with the namespace (the
    chain that named it); a name reached along direct imports only is its
    registered name, so walks go only where an indirect import is
    (``dirty``: anywhere below; ``plain_dirty``: along plain imports).
    """

    __slots__ = ("prefix", "doc", "own", "plain", "named", "opaque", "dirty", "plain_dirty")

    def __init__(self, prefix: str | None, doc: YamlDocument | None = None) -> None:
        self.prefix = prefix
        self.doc = doc
        # kind -> name as written in the document -> type
        self.own: dict[str, dict[str, Type]] = {}
        self.plain: list[Scope] = []
        self.named: dict[str, list[Scope]] = {}
        # Namespaces of profiles toskit does not have, imported by this document.
        self.opaque: set[str] = set()
        self.dirty = True  # until Registry.set_scopes knows better
        self.plain_dirty = True

    def qualified(self, name: str) -> str:
        """``name`` under this document's prefix (its registered form)."""
        return f"{self.prefix}:{name}" if self.prefix else name

    def link(self, namespace: str | None, imported: Scope) -> None:
        """Record that this document imports ``imported`` (under ``namespace``)."""
        where = self.plain if namespace is None else self.named.setdefault(namespace, [])
        if imported is not self and imported not in where:
            where.append(imported)


class ScopedPrefix(str):
    """A type's namespace prefix (``Type.prefix``) that knows its document's scope.

    It is the prefix string for everything that reads it as one (names,
    caches); :meth:`Registry.lookup` uses ``scope`` to look a name up from
    the document it is written in, whatever prefix other documents share.
    """

    scope: Scope

    @classmethod
    def of(cls, scope: Scope) -> str | None:
        """``scope.prefix`` carrying ``scope`` (``None`` without a prefix)."""
        if not scope.prefix:
            return None
        out = cls(scope.prefix)
        out.scope = scope
        return out


@record(frozen=True)
class TypeSource:
    """One type definition as written in a document."""

    kind: str
    name: str  # as registered (with ``prefix:`` for namespaced imports)
    raw: Any
    doc: YamlDocument | None
    parts: tuple[Hashable, ...]
    prefix: str | None = None  # the import namespace the definition lives in
    normative: bool = False
    scope: Scope | None = None  # the document's scope (imported and loaded documents)

    @property
    def local_name(self) -> str:
        """The name as written in its document (without the namespace prefix)."""
        if self.prefix and self.name.startswith(f"{self.prefix}:"):
            return self.name[len(self.prefix) + 1 :]
        return self.name


# Namespaces compared by spelling for an unknown-namespace hint.
_NAMESPACE_HINT_POOL = 300

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
        # The loaded document's scope, and the scopes with an indirect import
        # below them by prefix (set by the loader; ``None``: nothing to walk).
        self.top: Scope | None = None
        self.scopes: dict[str | None, list[Scope]] = {}
        # Namespace walks, memoised: (id(scope), kind, name) -> type or None.
        self._walks: dict[tuple[int, str, str], Type | None] = {}
        self._opaque_walks: dict[str, bool] = {}
        self._namespace_hints: dict[tuple[str | None, ...], Any] = {}
        self._visible_memo: dict[tuple[int, ...], list[Scope]] = {}
        # names(): built once per kind, dropped when types are added.
        self._names: dict[str, tuple[str, ...]] = {}
        self._data_candidates: tuple[str, ...] | None = None
        self._parent_candidates: tuple[str, ...] | None = None

    def set_scopes(self, top: Scope, scopes: Iterable[Scope]) -> None:
        """The documents' scopes of this load (see :class:`Scope`)."""
        self.top = top
        every = [top, *scopes]
        _mark_dirty(every)
        self.scopes = {}
        for scope in every[1:]:
            if scope.dirty:
                self.scopes.setdefault(scope.prefix, []).append(scope)
        self._walks.clear()
        self._opaque_walks.clear()
        self._namespace_hints.clear()
        self._visible_memo.clear()

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
        if namespace in self.opaque_prefixes:
            return True
        if self.top is None or not self.opaque_prefixes:
            return False
        # Reached along another namespace chain than the first one (a:b:k8s:Pod);
        # memoised (asked for every ancestor of many types).
        found = self._opaque_walks.get(namespace)
        if found is None:
            *path, last = namespace.split(":")
            visible = self._visible(self._namespace(path))
            found = self._opaque_walks[namespace] = any(last in scope.opaque for scope in visible)
        return found

    # -- lookups ---------------------------------------------------------

    def lookup(self, kind: str, name: Any, prefix: str | None = None) -> Type | None:
        """The type ``name`` of ``kind`` as seen from a file in namespace ``prefix``.

        ``prefix`` is the ``Type.prefix`` of the type whose definition names
        ``name``: a :class:`ScopedPrefix` also names that type's document,
        whose imports are then walked (docs/tosca.md, "Namespaces").
        """
        if not isinstance(name, str) or kind not in self.by_kind:
            return None
        if prefix:
            found = self._find(kind, f"{prefix}:{name}")
            if found is None and self.top is not None:
                # Through the imports of the document the name is written in
                # (those of every document of that prefix when it is not known).
                if isinstance(prefix, ScopedPrefix):
                    found = self._walk(prefix.scope, kind, name)
                else:
                    found = self._walk_all(kind, name, self.scopes.get(str(prefix), ()))
            if found is not None:
                return found
        found = self._find(kind, name)
        if found is None and self.top is not None:
            found = self._walk(self.top, kind, name)
        return found

    def fix_candidates(
        self,
        kind: str,
        name: Any,
        prefix: str | None = None,
        candidates: tuple[str, ...] | None = None,
    ) -> tuple[str, ...]:
        """The names an ``unknown-type`` fix may rename ``name`` to: those of
        :meth:`unknown_hint`, none when the hint is about a missing namespace."""
        if isinstance(name, str) and self._missing_namespace(name, prefix) is not None:
            return ()
        return tuple(self.names(kind) if candidates is None else candidates)

    def unknown_hint(
        self,
        kind: str,
        name: Any,
        prefix: str | None = None,
        candidates: tuple[str, ...] | None = None,
    ) -> str | None:
        """The hint of an ``unknown-type`` diagnostic for ``name`` (seen from ``prefix``).

        When a namespace in ``name`` names no import (``a:c:Node`` where
        ``a`` imports nothing as ``c``), the hint says which one, and which
        namespaces there are; otherwise it is the closest type name.
        """
        pool = self.names(kind) if candidates is None else candidates
        if not isinstance(name, str):
            return did_you_mean(str(name), pool)
        missing = self._missing_namespace(name, prefix)
        if missing is None:
            return did_you_mean(name, pool)
        path, segment, known = missing
        where = f" in namespace '{':'.join(path)}'" if path else ""
        hint = f"no import defines the namespace '{segment}'{where}"
        # Few names, different at each document: compared directly (not through
        # did_you_mean's cache, which keeps the large type-name candidate sets).
        import difflib  # here: only this hint needs it, not a clean check's start-up (#31)

        near = difflib.get_close_matches(segment, known[:_NAMESPACE_HINT_POOL], n=1, cutoff=0.6)
        if near:
            hint += f"; did you mean '{near[0]}'?"
        elif known:
            hint += f" (namespaces there: {', '.join(sorted(known)[:10])})"
        return hint

    def _missing_namespace(
        self, name: str, prefix: str | None
    ) -> tuple[list[str], str, list[str]] | None:
        """(namespaces walked, the first unknown one, the ones known there), or ``None``."""
        if self.top is None and not self.opaque_prefixes:
            starts: list[list[Scope]] = [[Scope(None)]]
        else:
            starts = [[self.top]] if self.top is not None else []
            if isinstance(prefix, ScopedPrefix):
                starts.insert(0, [prefix.scope])  # the document the name is written in
            elif prefix and self.scopes.get(prefix):
                starts.insert(0, self.scopes[prefix])
        *path, _ = name.split(":")
        if not path or path[0] == "tosca" or self.is_opaque(name):
            return None
        key = (str(id(starts[0][0])) if starts and starts[0] else None, *path)
        if key not in self._namespace_hints:
            self._namespace_hints[key] = self._first_missing(starts, path)
        return self._namespace_hints[key]

    def _first_missing(
        self, starts: list[list[Scope]], path: list[str]
    ) -> tuple[list[str], str, list[str]] | None:
        """Of :meth:`_missing_namespace`: the walk of ``path`` from each start."""
        first: tuple[list[str], str, list[str]] | None = None
        for start in starts:
            current = start
            for depth, segment in enumerate(path):
                visible = self._visible(current)
                if any(segment in scope.opaque for scope in visible):
                    return None
                following = [c for scope in visible for c in scope.named.get(segment, ())]
                if not following:
                    known = sorted({ns for scope in visible for ns in scope.named})
                    if first is None:
                        first = (path[:depth], segment, known)
                    break
                current = following
            else:
                return None  # the namespaces exist; the type name is what is unknown
        return first

    def _walk_all(self, kind: str, name: str, scopes: Iterable[Scope]) -> Type | None:
        for scope in scopes:
            found = self._walk(scope, kind, name)
            if found is not None:
                return found
        return None

    def _walk(self, start: Scope, kind: str, name: str) -> Type | None:
        """``name`` as seen from the document of ``start``, through its import tables.

        Iterative and memoised: each (document, remaining name) pair is
        visited at most once per walk, so a name costs at most the number of
        documents times its namespace segments, however many chains lead
        to a document.
        """
        key = (id(start), kind, name)
        try:
            return self._walks[key]
        except KeyError:
            pass
        found: Type | None = None
        stack: list[tuple[Scope, str]] = [(start, name)]
        visited: set[tuple[int, str]] = set()
        registered = self.by_kind[kind]
        while stack:
            scope, rest = stack.pop()
            if (id(scope), rest) in visited:
                continue
            visited.add((id(scope), rest))
            head, colon, tail = rest.partition(":")
            if not (scope.dirty if colon else scope.plain_dirty):
                # Only direct imports below: the name is registered as written here.
                found = registered.get(scope.qualified(rest))
                if found is not None:
                    break
                continue
            own = scope.own.get(kind)
            found = own.get(rest) if own else None
            if found is not None:
                break
            more: list[tuple[Scope, str]] = [(child, rest) for child in scope.plain]
            if colon and tail:
                more.extend((child, tail) for child in scope.named.get(head, ()))
            stack.extend(reversed(more))  # written order first
        self._walks[key] = found
        return found

    def _namespace(self, path: list[str]) -> list[Scope]:
        """The documents the namespace chain ``path`` names from the top."""
        current = [self.top] if self.top is not None else []
        for segment in path:
            current = [
                child for scope in self._visible(current) for child in scope.named.get(segment, ())
            ]
        return current

    def _visible(self, scopes: list[Scope]) -> list[Scope]:
        """``scopes`` and the documents they import without a namespace (transitively)."""
        key = tuple(id(scope) for scope in scopes)
        found = self._visible_memo.get(key)
        if found is None:
            found = self._visible_memo[key] = _plain_closure(scopes)
        return found

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

    def names(self, kind: str) -> tuple[str, ...]:
        """Every full type name of ``kind`` (own first, then the base's).

        Built once per kind and kept until types are added: every
        did-you-mean hint asks for it, and the same tuple object coming back
        lets :func:`~toskit.diagnostics.closest` reuse its index (#20 item 21).
        """
        found = self._names.get(kind)
        if found is None:
            out: dict[str, None] = {}
            registry: Registry | None = self
            while registry is not None:
                out.update(dict.fromkeys(registry.by_kind[kind]))
                registry = registry.base
            found = self._names[kind] = tuple(out)
        return found

    def _value_type_names(self) -> tuple[str, ...]:
        """Candidates of a hint for a property type: the primitives, then the data types."""
        if self._data_candidates is None:
            self._data_candidates = (*sorted(PRIMITIVES), *self.names("data"))
        return self._data_candidates

    def _parent_names(self) -> tuple[str, ...]:
        """Candidates of a hint for a data type's parent: the data types, then the primitives."""
        if self._parent_candidates is None:
            self._parent_candidates = (*self.names("data"), *sorted(PRIMITIVES))
        return self._parent_candidates

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
        cache: dict[tuple[Any, Any, int], Type | str | None] = {}
        lookup = self.value_type

        def value_type(name: str | None, owner: Type | None) -> Type | str | None:
            if not isinstance(name, str):
                return None  # ``type: {…}``: not a type name (reported by the keyname checks)
            prefix = owner.prefix if owner is not None else None
            # The document too: two documents of one prefix may mean different types.
            key = (name, prefix, id(prefix.scope if isinstance(prefix, ScopedPrefix) else None))
            try:
                return cache[key]
            except KeyError:
                found = lookup(name, prefix) if name is not None else None
                if isinstance(found, Type) and self.derives_from_opaque(found):
                    # Its fields and base come from a profile toskit does not
                    # have: its values are not checked (``unknown-profile`` says so).
                    found = None
                cache[key] = found
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
        self._names.clear()
        self._data_candidates = self._parent_candidates = None
        self._walks.clear()
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
            if src.scope is not None:
                src.scope.own.setdefault(src.kind, {})[src.local_name] = t
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
                    hint=self.unknown_hint(kind, name, t.prefix),
                    misspelt=str(name),
                    candidates=self.fix_candidates(kind, name, t.prefix),
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
        self._check_requirement_references(t, check)
        caps = raw.get("capabilities")
        if isinstance(caps, Mapping):
            for cname, cdef in caps.items():
                ctype = cdef.get("type") if isinstance(cdef, Mapping) else cdef
                check("capability", ctype, (*t.parts, "capabilities", cname, "type"))
        if t.kind in ("node", "relationship"):
            label = f"{t.kind} type '{t.name}'"
            diags.extend(check_artifact_types(self, doc, raw, t.parts, label, t.prefix))

    def _check_requirement_references(
        self, t: Type, check: Callable[[str, Any, tuple[Hashable, ...]], None]
    ) -> None:
        """The capability, node and relationship types a requirement definition names."""
        reqs = t.definition.get("requirements")
        if not isinstance(reqs, list):
            return
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
        if not isinstance(parent_name, str):
            return  # none, or not a name (reported by the keyname checks)
        if t.kind == "data" and isinstance(parent_name, str):
            primitive = self.value_type(parent_name, t.prefix)
            if isinstance(primitive, str):
                t.base_primitive = primitive
                return
        parent = self.lookup(t.kind, parent_name, t.prefix)
        if parent is None and self.is_opaque(parent_name):
            parent = self.roots.get(t.kind)
        elif parent is None:
            candidates = self._parent_names() if t.kind == "data" else self.names(t.kind)
            if t.doc is not None:
                diags.append(
                    t.doc.diagnostic(
                        "error",
                        "unknown-type",
                        f"{t.kind} type '{t.name}' derives from unknown type '{parent_name}'",
                        (*t.parts, "derived_from"),
                        hint=self.unknown_hint(t.kind, parent_name, t.prefix, candidates),
                        misspelt=str(parent_name),
                        candidates=self.fix_candidates(t.kind, parent_name, t.prefix, candidates),
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
                            # The other side (issue #28): each other type of the loop.
                            related=tuple(
                                x.doc.related(
                                    f"{x.name} derives from {x.parent.name if x.parent else '?'}",
                                    (*x.parts, "derived_from"),
                                )
                                for x in seen[1:]
                                if x.doc is not None
                            ),
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
                if previous is None:
                    self._untyped_property(t, pname, praw, diags)
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

    def _untyped_property(self, t: Type, name: str, raw: Any, diags: list[Diagnostic]) -> None:
        """A new property (no ancestor declares it) must name its type (``missing-type``).

        TOSCA 1.3 (property definition) and 2.0 (§9.3) make ``type``
        mandatory; only a refinement of a parent's property may leave it out.
        A type deriving from an unknown profile may refine what toskit cannot
        see, and ``type:`` written with a non-name is reported by the
        keyname checks.
        """
        if t.doc is None or (isinstance(raw, str) and raw) or self.derives_from_opaque(t):
            return
        root = t.doc.value
        version = root.get("tosca_definitions_version") if isinstance(root, Mapping) else None
        if version is None or (isinstance(version, str) and version in _UNTYPED_OK):
            # Unfurl's dialect: an untyped property takes any value. A document
            # naming no version (missing-version) may be written for it, as
            # the Unfurl-style seed examples are.
            return
        if isinstance(raw, Mapping) and "type" in raw:
            return
        diags.append(
            t.doc.diagnostic(
                "error",
                "missing-type",
                f"{t.kind} type '{t.name}': property '{name}' has no type",
                (*t.parts, "properties", name),
                hint="add 'type: <data type>' (only a refinement of an inherited property "
                "may leave it out)",
                at_key=True,
            )
        )

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
        if not isinstance(name, str):
            return  # 'type' must be a type name: reported by the keyname checks
        if doc is None or self.value_type(name, prefix) is not None or self.is_opaque(name):
            return
        candidates = self._value_type_names()
        diags.append(
            doc.diagnostic(
                "error",
                "unknown-type",
                f"unknown data type '{name}'",
                parts,
                hint=self.unknown_hint("data", name, prefix, candidates),
                misspelt=str(name),
                candidates=self.fix_candidates("data", name, prefix, candidates),
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
            if refines and not (isinstance(raw, str) and self.value_type(raw, owner.prefix)):
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
            # A non-boolean is reported by the keyname checks; it counts as what
            # it meant in YAML 1.1 ('yes': true), otherwise as false, so that a
            # bad 'required: no' does not make the property required everywhere.
            required=required if isinstance(required, bool) else yaml11_boolean(required) is True,
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


# Dialects whose property definitions may leave out ``type`` (any value):
# Unfurl's, as its templates (and toskit's seed examples) write them.
_UNTYPED_OK = frozenset({"tosca_simple_unfurl_1_0_0"})


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


def _plain_closure(scopes: list[Scope]) -> list[Scope]:
    """``scopes`` and the documents they import without a namespace (transitively)."""
    out: list[Scope] = []
    seen: set[int] = set()
    stack = list(reversed(scopes))
    while stack:
        scope = stack.pop()
        if id(scope) in seen:
            continue
        seen.add(id(scope))
        out.append(scope)
        stack.extend(reversed(scope.plain))
    return out


def _mark_dirty(scopes: list[Scope]) -> None:
    """Set ``dirty`` / ``plain_dirty`` of every scope (see :class:`Scope`).

    Children first (an iterative depth-first walk); the import links form a
    DAG but for import cycles (an ``import-cycle`` links back to a document
    still open), and a scope met again while open is taken as dirty, to be safe.
    """
    state: dict[int, int] = {}  # 1: open, 2: done
    for root in scopes:
        if id(root) in state:
            continue
        stack: list[tuple[Scope, bool]] = [(root, False)]
        while stack:
            scope, ready = stack.pop()
            if ready:
                plain_dirty = any(
                    child.prefix != scope.prefix or child.plain_dirty for child in scope.plain
                )
                scope.plain_dirty = plain_dirty
                scope.dirty = (
                    plain_dirty
                    or any(child.dirty for child in scope.plain)
                    or any(
                        child.prefix != scope.qualified(ns) or child.dirty
                        for ns, children in scope.named.items()
                        for child in children
                    )
                )
                state[id(scope)] = 2
                continue
            if state.get(id(scope)) == 2:
                continue
            if state.get(id(scope)) == 1:
                scope.dirty = scope.plain_dirty = True
                continue
            state[id(scope)] = 1
            stack.append((scope, True))
            for child in [*scope.plain, *(c for cs in scope.named.values() for c in cs)]:
                if state.get(id(child)) != 2:
                    stack.append((child, False))
