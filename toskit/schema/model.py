"""The schema model: frozen dataclasses mirroring structured-merge-diff's
``schema/elements.go`` (seed 003), plus ``Schema`` with its lookups.

The objects can be built directly (the TOSCA layer compiles onto them
without YAML)::

    Schema(types=(
        TypeDef("point", Atom(map=Map(fields=(
            StructField("x", TypeRef(inlined=Atom(scalar="numeric"))),
            StructField("y", TypeRef(inlined=Atom(scalar="numeric"))),
        )))),
    ))

``Schema(...)`` runs the same checks as :func:`toskit.schema.load` and raises
:class:`toskit.SchemaError` listing every problem. Attributes hold ``None``
for an absent key; list-valued attributes hold tuples (``()`` when absent).
Lists given to the constructors are turned into tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from toskit.errors import SchemaError
from toskit.records import field, record

if TYPE_CHECKING:
    from toskit.diagnostics import Diagnostic
    from toskit.schema.compare import Comparison
    from toskit.schema.compiled import Compiler, Node
    from toskit.schema.layers import MergeResult

__all__ = [
    "ELEMENT_RELATIONSHIPS",
    "SCALAR_TYPES",
    "UNTYPED_ATOMIC",
    "UNTYPED_DEDUCED",
    "Atom",
    "List",
    "Map",
    "Schema",
    "StructField",
    "TypeDef",
    "TypeRef",
    "Union",
    "UnionField",
]

SCALAR_TYPES = ("numeric", "string", "boolean", "untyped")
ELEMENT_RELATIONSHIPS = ("atomic", "associative", "separable")
UNTYPED_ATOMIC = "__untyped_atomic_"
UNTYPED_DEDUCED = "__untyped_deduced_"


def _tuple(obj: Any, attr: str) -> None:
    """Let constructors take lists (or any iterable) where tuples are stored."""
    value = getattr(obj, attr)
    if value is None:
        object.__setattr__(obj, attr, ())
    elif not isinstance(value, (tuple, str, bytes, Mapping)) and isinstance(value, Iterable):
        object.__setattr__(obj, attr, tuple(value))


@record(frozen=True)
class UnionField:
    """A field of a union and the discriminator value that selects it."""

    field_name: str | None = None
    discriminator_value: str | None = None


@record(frozen=True)
class Union:
    """At most one of ``fields`` is set; ``discriminator`` names the field
    that tells which."""

    discriminator: str | None = None
    deduce_invalid_discriminator: bool | None = None
    fields: tuple[UnionField, ...] = ()

    def __post_init__(self) -> None:
        _tuple(self, "fields")


@record(frozen=True)
class TypeRef:
    """A reference to a named type (``named_type``) or an inline ``Atom``,
    optionally overriding the target's element relationship."""

    named_type: str | None = None
    inlined: Atom | None = None
    element_relationship: str | None = None

    @property
    def is_empty(self) -> bool:
        """True for ``{}`` (treated as no reference at all)."""
        return (
            self.named_type is None and self.inlined is None and self.element_relationship is None
        )

    @classmethod
    def named(cls, name: str, element_relationship: str | None = None) -> TypeRef:
        """``{namedType: name}`` (optionally with a relationship override)."""
        return cls(named_type=name, element_relationship=element_relationship)

    @classmethod
    def scalar(cls, kind: str) -> TypeRef:
        """``{scalar: kind}``: ``numeric``, ``string``, ``boolean`` or ``untyped``."""
        return cls(inlined=Atom(scalar=kind))

    @classmethod
    def of(cls, atom: Atom, element_relationship: str | None = None) -> TypeRef:
        """An inline atom."""
        return cls(inlined=atom, element_relationship=element_relationship)


@record(frozen=True)
class StructField:
    """A declared map field. ``default`` only completes list keys (§2.3)."""

    name: str
    type: TypeRef | None = None
    default: Any = None


@record(frozen=True)
class Map:
    """A map (struct and/or dictionary); ``element_relationship`` ``None``
    means ``separable``."""

    fields: tuple[StructField, ...] = ()
    unions: tuple[Union, ...] = ()
    element_type: TypeRef | None = None
    element_relationship: str | None = None

    def __post_init__(self) -> None:
        _tuple(self, "fields")
        _tuple(self, "unions")

    def find_field(self, name: str) -> StructField | None:
        """The declared field called ``name``, or ``None``."""
        for f in self.fields:
            if f.name == name:
                return f
        return None


@record(frozen=True)
class List:
    """A list: ``atomic``, ``associative`` with ``keys`` (keyed list),
    ``associative`` without keys (set), or unset (treated as atomic)."""

    element_type: TypeRef | None = None
    element_relationship: str | None = None
    keys: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _tuple(self, "keys")


@record(frozen=True)
class Atom:
    """The kinds a value may take; several parts make a multi-kind atom."""

    scalar: str | None = None
    list: List | None = None
    map: Map | None = None

    @property
    def is_empty(self) -> bool:
        """True when the atom allows no kind at all."""
        return self.scalar is None and self.list is None and self.map is None


@record(frozen=True)
class TypeDef:
    """A named type."""

    name: str
    atom: Atom = field(default_factory=Atom)

    @property
    def scalar(self) -> str | None:
        """The atom's scalar kind, if any."""
        return self.atom.scalar if isinstance(self.atom, Atom) else None

    @property
    def list(self) -> List | None:
        """The atom's list part, if any."""
        return self.atom.list if isinstance(self.atom, Atom) else None

    @property
    def map(self) -> Map | None:
        """The atom's map part, if any."""
        return self.atom.map if isinstance(self.atom, Atom) else None

    def __repr__(self) -> str:
        return f"<TypeDef {self.name}: {describe_atom(self.atom)}>"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def typedef_to_data(typedef: TypeDef) -> dict[str, Any]:
    """A ``TypeDef`` in YAML form."""
    return {"name": typedef.name, **atom_to_data(typedef.atom)}


def atom_to_data(atom: Atom | None) -> dict[str, Any]:
    """An ``Atom`` in YAML form (its ``scalar``/``list``/``map`` keys)."""
    out: dict[str, Any] = {}
    if atom is None:
        return out
    if atom.scalar is not None:
        out["scalar"] = atom.scalar
    if atom.list is not None:
        lst: dict[str, Any] = {}
        if atom.list.element_type is not None:
            lst["elementType"] = typeref_to_data(atom.list.element_type)
        if atom.list.element_relationship is not None:
            lst["elementRelationship"] = atom.list.element_relationship
        if atom.list.keys:
            lst["keys"] = list(atom.list.keys)
        out["list"] = lst
    if atom.map is not None:
        mp: dict[str, Any] = {}
        if atom.map.fields:
            mp["fields"] = [_field_to_data(f) for f in atom.map.fields]
        if atom.map.unions:
            mp["unions"] = [_union_to_data(u) for u in atom.map.unions]
        if atom.map.element_type is not None:
            mp["elementType"] = typeref_to_data(atom.map.element_type)
        if atom.map.element_relationship is not None:
            mp["elementRelationship"] = atom.map.element_relationship
        out["map"] = mp
    return out


def typeref_to_data(ref: TypeRef) -> dict[str, Any]:
    """A ``TypeRef`` in YAML form."""
    out: dict[str, Any] = {}
    if ref.named_type is not None:
        out["namedType"] = ref.named_type
    out.update(atom_to_data(ref.inlined))
    if ref.element_relationship is not None:
        out["elementRelationship"] = ref.element_relationship
    return out


def _field_to_data(f: StructField) -> dict[str, Any]:
    out: dict[str, Any] = {"name": f.name}
    if f.type is not None:
        out["type"] = typeref_to_data(f.type)
    if f.default is not None:
        out["default"] = f.default
    return out


def _union_to_data(u: Union) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if u.discriminator is not None:
        out["discriminator"] = u.discriminator
    if u.deduce_invalid_discriminator is not None:
        out["deduceInvalidDiscriminator"] = u.deduce_invalid_discriminator
    if u.fields:
        out["fields"] = [
            {"fieldName": uf.field_name}
            | (
                {"discriminatorValue": uf.discriminator_value}
                if uf.discriminator_value is not None
                else {}
            )
            for uf in u.fields
        ]
    return out


def describe_atom(atom: Any, depth: int = 0) -> str:
    """A one-line summary of an atom: ``map{a: string, b: numeric}``,
    ``keyed list<item> by name``, ``string | atomic list<string>``."""
    if not isinstance(atom, Atom):
        return repr(atom)
    if depth > 2:
        return "…"
    parts = []
    if atom.scalar is not None:
        parts.append(str(atom.scalar))
    lst = atom.list
    if isinstance(lst, List):
        elem = describe_ref(lst.element_type, depth + 1)
        if lst.element_relationship == "associative" and lst.keys:
            parts.append(f"keyed list<{elem}> by {','.join(map(str, lst.keys))}")
        elif lst.element_relationship == "associative":
            parts.append(f"set<{elem}>")
        elif lst.element_relationship == "atomic":
            parts.append(f"atomic list<{elem}>")
        else:
            parts.append(f"list<{elem}>")
    mp = atom.map
    if isinstance(mp, Map):
        inner = [
            f"{f.name}: {describe_ref(f.type, depth + 1)}"
            for f in mp.fields[:6]
            if isinstance(f, StructField)
        ]
        if len(mp.fields) > 6:
            inner.append(f"… {len(mp.fields) - 6} more")
        if mp.element_type is not None and not mp.element_type.is_empty:
            inner.append(f"*: {describe_ref(mp.element_type, depth + 1)}")
        prefix = "atomic map" if mp.element_relationship == "atomic" else "map"
        parts.append(prefix + "{" + ", ".join(inner) + "}")
    return " | ".join(parts) if parts else "(empty)"


def describe_ref(ref: Any, depth: int = 0) -> str:
    """A one-line summary of a ``TypeRef`` (``any`` when absent)."""
    if ref is None or (isinstance(ref, TypeRef) and ref.is_empty):
        return "any"
    if not isinstance(ref, TypeRef):
        return repr(ref)
    text = str(ref.named_type) if ref.named_type is not None else describe_atom(ref.inlined, depth)
    if ref.element_relationship is not None:
        text += f" ({ref.element_relationship})"
    return text


def _untyped_defs() -> dict[str, TypeDef]:
    atomic_ref = TypeRef(named_type=UNTYPED_ATOMIC)
    deduced_ref = TypeRef(named_type=UNTYPED_DEDUCED)
    return {
        UNTYPED_ATOMIC: TypeDef(
            UNTYPED_ATOMIC,
            Atom(
                scalar="untyped",
                list=List(element_type=atomic_ref, element_relationship="atomic"),
                map=Map(element_type=atomic_ref, element_relationship="atomic"),
            ),
        ),
        UNTYPED_DEDUCED: TypeDef(
            UNTYPED_DEDUCED,
            Atom(
                scalar="untyped",
                list=List(element_type=atomic_ref, element_relationship="atomic"),
                map=Map(element_type=deduced_ref, element_relationship="separable"),
            ),
        ),
    }


BUILTIN_TYPES: dict[str, TypeDef] = _untyped_defs()
"""The two types every schema resolves without declaring them."""


@record(frozen=True, eq=True)
class Schema:
    """A list of named types, with validation, merge and comparison.

    ``Schema(types=...)`` checks the model (unknown scalar names, bad
    element relationships, duplicate names, dangling ``namedType`` references,
    empty atoms) and raises :class:`toskit.SchemaError` listing every problem.
    Per-type work (resolved atoms, field lookups, key fields) is compiled once
    per schema and reused by every call.
    """

    types: tuple[TypeDef, ...] = ()
    _checked: bool = field(default=True, repr=False, compare=False)
    # Caches, set in __post_init__ (object.__setattr__: the class is frozen).
    _by_name: dict[str, TypeDef] = field(init=False, repr=False, compare=False)
    _compiler: Compiler | None = field(init=False, repr=False, compare=False)
    _nodes: dict[str | TypeRef, Node] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _tuple(self, "types")
        if self._checked:
            from toskit.schema.load import check_schema

            diagnostics = check_schema(self, shapes=True)
            if diagnostics:
                raise schema_error(diagnostics)
        by_name: dict[str, TypeDef] = dict(BUILTIN_TYPES)
        for t in self.types if isinstance(self.types, tuple) else ():
            if isinstance(t, TypeDef) and isinstance(t.name, str):
                by_name[t.name] = t
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_compiler", None)
        object.__setattr__(self, "_nodes", {})

    def __hash__(self) -> int:
        # Field defaults may be unhashable (dicts); equal schemas have equal names.
        return hash(self.names)

    def __reduce__(self) -> tuple:
        # Compiled nodes hold closures; a copy or pickle rebuilds them lazily.
        return (Schema, (self.types, False))

    def to_data(self) -> dict[str, Any]:
        """The YAML form of the schema (``schema.load(s.to_data()) == s``)."""
        return {"types": [typedef_to_data(t) for t in self.types]}

    # -- lookups -----------------------------------------------------------

    def find(self, name: str) -> TypeDef | None:
        """The ``TypeDef`` called ``name`` (built-in untyped types included), or ``None``."""
        try:
            return self._by_name.get(name)
        except TypeError:
            return None

    def resolve(self, typeref: TypeRef | Mapping[str, Any] | str) -> Atom:
        """The ``Atom`` a reference denotes.

        ``typeref`` is a ``TypeRef``, a dict in the YAML TypeRef form, or a type
        name. Raises :class:`toskit.SchemaError` when it names no type.
        """
        from toskit.schema.load import typeref_from_data

        if isinstance(typeref, str):
            ref = TypeRef(named_type=typeref)
        elif isinstance(typeref, TypeRef):
            ref = typeref
        elif isinstance(typeref, Mapping):
            from toskit.schema.load import check_typeref_data

            check_typeref_data(typeref)
            # An empty reference is no reference: resolve_ref says "invalid atom".
            ref = typeref_from_data(typeref) or TypeRef()
        else:
            raise schema_error_message(
                f"expected a TypeRef, a dict or a type name, got {type(typeref).__name__}"
            )
        return resolve_ref(self, ref)

    @property
    def names(self) -> tuple[str, ...]:
        """The declared type names, in order."""
        return tuple(t.name for t in self.types)

    def node(self, name: str | TypeRef) -> Node:
        """The compiled form of a type (internal, cached)."""
        try:
            return self._nodes[name]
        except (KeyError, TypeError):
            pass
        compiler = self._compiler
        if compiler is None:
            from toskit.schema.compiled import Compiler

            compiler = Compiler(self)
            object.__setattr__(self, "_compiler", compiler)
        node = compiler.node_for(name)
        if isinstance(name, str):
            self._nodes[name] = node
        return node

    # -- operations (implemented in sibling modules) -----------------------

    def validate(
        self, value: Any, name: str, *, allow_duplicates: bool = False
    ) -> list[Diagnostic]:
        """Diagnostics for ``value`` against type ``name`` (empty when valid).

        The list is a :class:`toskit.diagnostics.DiagnosticList` (a ``list``
        with an HTML view for notebooks).
        """
        from toskit.diagnostics import DiagnosticList
        from toskit.schema.validate import validate

        # A DiagnosticList is a plain list that a notebook shows as HTML.
        return DiagnosticList(validate(self, value, name, allow_duplicates=allow_duplicates))

    def merge(self, lhs: Any, rhs: Any, name: str, *, allow_duplicates: bool = False) -> Any:
        """``rhs`` laid over ``lhs`` (a new value; inputs untouched)."""
        from toskit.schema.merge import merge

        return merge(self, lhs, rhs, name, allow_duplicates=allow_duplicates)

    def merge_layers(
        self, layers: Iterable[tuple[Any, str]], name: str, *, check: bool = True
    ) -> MergeResult:
        """Merge ``(value, label)`` layers, lowest first, recording provenance.

        ``layers`` holds ``(value, label)`` pairs, lowest first; values equal
        to :data:`toskit.schema.ABSENT` are skipped. Returns a ``MergeResult``
        with ``.value``, ``.sources`` (leaf path tuple → label) and
        ``.overridden`` (leaf path tuple → ``[(label, value), ...]`` of the
        lower layers replaced there, lowest first). See
        :mod:`toskit.schema.layers` for the exact rules.
        """
        from toskit.schema.layers import merge_layers

        return merge_layers(self, layers, name, check=check)

    def compare(
        self, lhs: Any, rhs: Any, name: str, *, allow_duplicates: bool = False
    ) -> Comparison:
        """What changed from ``lhs`` to ``rhs``: added/removed/modified paths."""
        from toskit.schema.compare import compare

        return compare(self, lhs, rhs, name, allow_duplicates=allow_duplicates)

    def to_fieldset(self, value: Any, name: str, *, allow_duplicates: bool = False) -> set[str]:
        """The field paths ``value`` sets."""
        from toskit.schema.compare import to_fieldset

        return to_fieldset(self, value, name, allow_duplicates=allow_duplicates)

    def remove(
        self, value: Any, paths: Iterable[str], name: str, *, allow_duplicates: bool = False
    ) -> Any:
        """``value`` without the nodes at ``paths``."""
        from toskit.schema.compare import remove

        return remove(self, value, paths, name, allow_duplicates=allow_duplicates)

    def extract(
        self,
        value: Any,
        paths: Iterable[str],
        name: str,
        *,
        append_key_fields: bool = False,
        allow_duplicates: bool = False,
    ) -> Any:
        """Only the nodes of ``value`` at ``paths`` (and on the way)."""
        from toskit.schema.compare import extract

        return extract(
            self,
            value,
            paths,
            name,
            append_key_fields=append_key_fields,
            allow_duplicates=allow_duplicates,
        )

    def normalize_union(self, old: Any, new: Any, name: str) -> Any:
        """Apply the union rules to an update ``old`` → ``new``."""
        from toskit.schema.unions import normalize_union

        return normalize_union(self, old, new, name)

    def normalize_union_apply(self, applied: Any, merged: Any, name: str) -> Any:
        """Apply the union rules after merging ``applied``."""
        from toskit.schema.unions import normalize_union_apply

        return normalize_union_apply(self, applied, merged, name)

    # -- display -----------------------------------------------------------

    def __repr__(self) -> str:
        if not isinstance(self.types, tuple):
            return f"<Schema types={self.types!r}>"
        names = ", ".join(
            str(t.name) if isinstance(t, TypeDef) else repr(t) for t in self.types[:8]
        )
        more = f", … {len(self.types) - 8} more" if len(self.types) > 8 else ""
        return f"<Schema {len(self.types)} types: {names}{more}>"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def resolve_ref(schema: Schema, ref: TypeRef) -> Atom:
    """Resolve a ``TypeRef`` against ``schema`` (override applied)."""
    if ref.named_type is not None:
        target = schema.find(ref.named_type)
        if target is None:
            raise schema_error_message(f"no type found matching: {ref.named_type}")
        atom = target.atom
    elif ref.inlined is not None:
        atom = ref.inlined
    else:
        raise schema_error_message("invalid atom")
    relationship = ref.element_relationship
    if relationship is None:
        return atom
    if atom.map is not None:
        return Atom(
            scalar=atom.scalar,
            list=atom.list,
            map=Map(
                fields=atom.map.fields,
                unions=atom.map.unions,
                element_type=atom.map.element_type,
                element_relationship=relationship,
            ),
        )
    if atom.list is not None:
        return Atom(
            scalar=atom.scalar,
            list=List(
                element_type=atom.list.element_type,
                element_relationship=relationship,
                keys=atom.list.keys,
            ),
            map=None,
        )
    raise schema_error_message("invalid atom")


def schema_error(diagnostics: list[Diagnostic], header: str | None = None) -> SchemaError:
    """A ``SchemaError`` whose message lists ``<path>: <message>`` per diagnostic."""
    lines = [header] if header else []
    for d in diagnostics:
        if d.path:
            lines.append(f"{d.path}: {d.message}")
        elif d.line is not None:
            # A YAML syntax error has no path: its line and column locate it.
            lines.append(f"{d.file or '<schema>'}:{d.line}:{d.column or 1}: {d.message}")
        else:
            lines.append(d.message)
    return SchemaError("\n".join(lines), list(diagnostics))


def schema_error_message(message: str, path: str = "", code: str = "schema-error") -> SchemaError:
    """A ``SchemaError`` with a single diagnostic."""
    from toskit.diagnostics import Diagnostic, Subject
    from toskit.schema.fieldpath import subject_path

    subject = Subject("schema", None, subject_path(path) if path else ())
    return schema_error([Diagnostic("error", code, message, path=path, subject=subject)])
