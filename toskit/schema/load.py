"""Loading schemas and checking the model.

:func:`load` reads YAML text (through :mod:`toskit.source`) or a dict,
validates it against the *schema of schemas* (this same model describing
the keys of a schema, so shape mistakes get the ordinary validation
messages and paths), builds the model objects and runs :func:`check_schema`
on them. Every problem is collected; any problem raises
:class:`toskit.SchemaError` whose diagnostics have code ``schema-error``
and paths into the schema document such as
``.types[name="root"].map.fields[name="num"].type.sclar``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from toskit.diagnostics import Diagnostic, Subject
from toskit.records import replace
from toskit.schema.fieldpath import render_key, subject_path
from toskit.schema.locate import locate_diagnostics
from toskit.schema.model import (
    BUILTIN_TYPES,
    SCALAR_TYPES,
    Atom,
    List,
    Map,
    Schema,
    StructField,
    TypeDef,
    TypeRef,
    Union,
    UnionField,
    schema_error,
    schema_error_message,
)
from toskit.schema.values import describe

__all__ = ["check_schema", "check_typeref_data", "load", "schema_from_data", "typeref_from_data"]

CODE = "schema-error"

# The schema of schemas: a schema's own keys written in the model itself.
_META_SCHEMA: dict[str, Any] = {
    "types": [
        {
            "name": "schema",
            "map": {
                "fields": [
                    {
                        "name": "types",
                        "type": {
                            "list": {
                                "elementType": {"namedType": "typeDef"},
                                "elementRelationship": "associative",
                                "keys": ["name"],
                            }
                        },
                    }
                ]
            },
        },
        {
            "name": "typeDef",
            "map": {
                "fields": [
                    {"name": "name", "type": {"scalar": "string"}},
                    {"name": "scalar", "type": {"scalar": "string"}},
                    {"name": "list", "type": {"namedType": "list"}},
                    {"name": "map", "type": {"namedType": "map"}},
                ]
            },
        },
        {
            "name": "typeRef",
            "map": {
                "fields": [
                    {"name": "namedType", "type": {"scalar": "string"}},
                    {"name": "scalar", "type": {"scalar": "string"}},
                    {"name": "list", "type": {"namedType": "list"}},
                    {"name": "map", "type": {"namedType": "map"}},
                    {"name": "elementRelationship", "type": {"scalar": "string"}},
                ]
            },
        },
        {
            "name": "list",
            "map": {
                "fields": [
                    {"name": "elementType", "type": {"namedType": "typeRef"}},
                    {"name": "elementRelationship", "type": {"scalar": "string"}},
                    {
                        "name": "keys",
                        "type": {
                            "list": {
                                "elementType": {"scalar": "string"},
                                "elementRelationship": "atomic",
                            }
                        },
                    },
                ]
            },
        },
        {
            "name": "map",
            "map": {
                "fields": [
                    {
                        "name": "fields",
                        "type": {
                            "list": {
                                "elementType": {"namedType": "structField"},
                                "elementRelationship": "associative",
                                "keys": ["name"],
                            }
                        },
                    },
                    {
                        "name": "unions",
                        "type": {
                            "list": {
                                "elementType": {"namedType": "union"},
                                "elementRelationship": "atomic",
                            }
                        },
                    },
                    {"name": "elementType", "type": {"namedType": "typeRef"}},
                    {"name": "elementRelationship", "type": {"scalar": "string"}},
                ]
            },
        },
        {
            "name": "structField",
            "map": {
                "fields": [
                    {"name": "name", "type": {"scalar": "string"}},
                    {"name": "type", "type": {"namedType": "typeRef"}},
                    {"name": "default", "type": {"namedType": "__untyped_atomic_"}},
                ]
            },
        },
        {
            "name": "union",
            "map": {
                "fields": [
                    {"name": "discriminator", "type": {"scalar": "string"}},
                    {"name": "deduceInvalidDiscriminator", "type": {"scalar": "boolean"}},
                    {
                        "name": "fields",
                        "type": {
                            "list": {
                                "elementType": {"namedType": "unionField"},
                                "elementRelationship": "associative",
                                "keys": ["fieldName"],
                            }
                        },
                    },
                ]
            },
        },
        {
            "name": "unionField",
            "map": {
                "fields": [
                    {"name": "fieldName", "type": {"scalar": "string"}},
                    {"name": "discriminatorValue", "type": {"scalar": "string"}},
                ]
            },
        },
    ]
}


@lru_cache(maxsize=1)
def meta_schema() -> Schema:
    """The schema of schemas (type ``schema``)."""
    return schema_from_data(_META_SCHEMA)


def load(
    source: str | os.PathLike | Mapping[str, Any] | Schema, *, name: str = "<schema>"
) -> Schema:
    """Load a schema from YAML text, an already-parsed dict, or a file given as
    a ``pathlib.Path``. ``name`` names YAML text in diagnostics.

    Raises :class:`toskit.SchemaError` listing every problem found.
    """
    if isinstance(source, Schema):
        return source
    doc = None
    if isinstance(source, (str, os.PathLike)):
        from toskit.source import load_yaml, load_yaml_file

        # A path object names a file (ToskitError when it cannot be read).
        doc = load_yaml(source, name=name) if isinstance(source, str) else load_yaml_file(source)
        errors = [d for d in doc.diagnostics if d.severity == "error"]
        if errors:
            raise schema_error(errors)
        data: Any = doc.value
    elif isinstance(source, Mapping):
        data = source
    else:
        raise schema_error_message(
            f"expected schema YAML text or a dict, got {type(source).__name__}"
        )
    if data is None:
        data = {}
    # The meta schema's own codes are kept until the findings are located (an
    # unknown field is located at its key), then every one is a schema-error.
    diagnostics = list(meta_schema().validate(data, "schema"))
    if isinstance(data, Mapping):
        schema = schema_from_data(data)
        diagnostics.extend(check_schema(schema, shapes=False))
    if diagnostics:
        diagnostics = _dedupe(diagnostics)
        if doc is not None:
            diagnostics = locate_diagnostics(diagnostics, data, doc)
        diagnostics = [d if d.code == CODE else replace(d, code=CODE) for d in diagnostics]
        raise schema_error(diagnostics)
    return schema


def check_typeref_data(data: Mapping[str, Any]) -> None:
    """Raise ``SchemaError`` unless ``data`` is a well-formed TypeRef in YAML form."""
    diagnostics = [replace(d, code=CODE) for d in meta_schema().validate(data, "typeRef")]
    if not diagnostics:
        holder = Schema(types=(), _checked=False)
        checker = _Checker(holder, shapes=False)
        ref = typeref_from_data(data)
        if ref is None:
            checker.error("", "invalid atom")
        else:
            checker.relationship(
                ref.element_relationship,
                ("atomic", "associative", "separable"),
                ".elementRelationship",
            )
            if ref.inlined is not None:
                checker.atom(ref.inlined, "")
            if (ref.named_type is None) == (ref.inlined is None):
                checker.error("", "invalid atom")
        diagnostics = checker.out
    if diagnostics:
        raise schema_error(diagnostics)


def _dedupe(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, str]] = set()
    out = []
    for d in diagnostics:
        key = (d.path, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


# -- data -> model (lenient: shapes are checked by the meta schema) ---------------


def schema_from_data(data: Mapping[str, Any]) -> Schema:
    """Build the model objects from the YAML form without checking them."""
    types = data.get("types")
    if isinstance(types, list):
        types = tuple(_typedef(t) for t in types)
    elif types is None:
        types = ()
    return Schema(types=types, _checked=False)


def _raw(data: Mapping[Any, Any], key: str) -> Any:
    """``data.get(key)``, any shape: the meta schema checks shapes, not this
    lenient builder (a wrong one is kept for that check to report)."""
    return data.get(key)


def _typedef(data: Any) -> Any:
    if not isinstance(data, Mapping):
        return data
    return TypeDef(name=_raw(data, "name"), atom=_atom(data))


def _atom(data: Mapping[str, Any]) -> Atom:
    lst = data.get("list")
    mp = data.get("map")
    return Atom(
        scalar=data.get("scalar"),
        list=_list(lst) if isinstance(lst, Mapping) else lst,
        map=_map(mp) if isinstance(mp, Mapping) else mp,
    )


def typeref_from_data(data: Any) -> TypeRef | None:
    """A ``TypeRef`` from its YAML form; ``None`` for an absent or empty one."""
    if data is None:
        return None
    if not isinstance(data, Mapping):
        return data
    atom = _atom(data)
    ref = TypeRef(
        named_type=data.get("namedType"),
        inlined=None if atom.is_empty else atom,
        element_relationship=data.get("elementRelationship"),
    )
    return None if ref.is_empty else ref


def _list(data: Mapping[str, Any]) -> List:
    keys = _raw(data, "keys")
    return List(
        element_type=typeref_from_data(data.get("elementType")),
        element_relationship=data.get("elementRelationship"),
        keys=tuple(keys) if isinstance(keys, list) else keys,
    )


def _map(data: Mapping[str, Any]) -> Map:
    fields = _raw(data, "fields")
    unions = _raw(data, "unions")
    return Map(
        fields=tuple(_field(f) for f in fields) if isinstance(fields, list) else fields,
        unions=tuple(_union(u) for u in unions) if isinstance(unions, list) else unions,
        element_type=typeref_from_data(data.get("elementType")),
        element_relationship=data.get("elementRelationship"),
    )


def _field(data: Any) -> Any:
    if not isinstance(data, Mapping):
        return data
    return StructField(
        name=_raw(data, "name"),
        type=typeref_from_data(data.get("type")),
        default=data.get("default"),
    )


def _union(data: Any) -> Any:
    if not isinstance(data, Mapping):
        return data
    fields = _raw(data, "fields")
    return Union(
        discriminator=data.get("discriminator"),
        deduce_invalid_discriminator=data.get("deduceInvalidDiscriminator"),
        fields=tuple(_union_field(f) for f in fields) if isinstance(fields, list) else fields,
    )


def _union_field(data: Any) -> Any:
    if not isinstance(data, Mapping):
        return data
    return UnionField(
        field_name=data.get("fieldName"), discriminator_value=data.get("discriminatorValue")
    )


# -- model checks ---------------------------------------------------------------------


class _Checker:
    """Walks the model objects collecting ``schema-error`` diagnostics.

    With ``shapes`` it also checks the Python types of every attribute (for
    objects built directly); without it, badly shaped parts are skipped
    because the meta schema has reported them already.
    """

    def __init__(self, schema: Schema, shapes: bool) -> None:
        self.schema = schema
        self.shapes = shapes
        self.out: list[Diagnostic] = []
        self.atoms: dict[str, Atom] = {n: t.atom for n, t in BUILTIN_TYPES.items()}

    def error(self, path: str, message: str) -> None:
        # The subject (issue #28): the schema at the path of the offending part.
        self.out.append(
            Diagnostic(
                "error",
                CODE,
                message,
                path=path,
                subject=Subject("schema", None, subject_path(path)),
            )
        )

    def shape(self, path: str, expected: str, value: Any) -> None:
        if self.shapes:
            self.error(path, f"expected {expected}, got {describe(value)}")

    def run(self) -> list[Diagnostic]:
        types = self.schema.types
        if not isinstance(types, tuple):
            self.shape(".types", "list", types)
            return self.out
        entries = []
        seen: set[str] = set()
        for i, t in enumerate(types):
            if not isinstance(t, TypeDef):
                self.shape(f".types[{i}]", "TypeDef", t)
                continue
            if not isinstance(t.name, str):
                self.shape(f".types[{i}].name", "string", t.name)
                continue
            if t.name in seen:
                if self.shapes:
                    self.error(".types", f"duplicate entries for key {_name_key('name', t.name)}")
                continue
            seen.add(t.name)
            if isinstance(t.atom, Atom):
                self.atoms[t.name] = t.atom
            entries.append((f".types{_name_key('name', t.name)}", t))
        for path, t in entries:
            self.atom(t.atom, path)
        return self.out

    def atom(self, atom: Any, path: str) -> None:
        if not isinstance(atom, Atom):
            self.shape(path, "Atom", atom)
            return
        if atom.is_empty:
            self.error(path, "invalid atom")
            return
        if atom.scalar is not None:
            if not isinstance(atom.scalar, str):
                self.shape(path + ".scalar", "string", atom.scalar)
            elif atom.scalar not in SCALAR_TYPES:
                self.error(path + ".scalar", f"unexpected scalar type in schema: {atom.scalar}")
        if atom.list is not None:
            self.list(atom.list, path + ".list")
        if atom.map is not None:
            self.map(atom.map, path + ".map")

    def relationship(self, value: Any, allowed: tuple[str, ...], path: str) -> None:
        if value is None:
            return
        if not isinstance(value, str):
            self.shape(path, "string", value)
        elif value not in allowed:
            self.error(path, f"unexpected element relationship in schema: {value}")

    def list(self, lst: Any, path: str) -> None:
        if not isinstance(lst, List):
            self.shape(path, "List", lst)
            return
        self.relationship(
            lst.element_relationship, ("atomic", "associative"), path + ".elementRelationship"
        )
        if not isinstance(lst.keys, tuple):
            self.shape(path + ".keys", "list", lst.keys)
        else:
            for i, k in enumerate(lst.keys):
                if not isinstance(k, str):
                    self.shape(f"{path}.keys[{i}]", "string", k)
        self.ref(lst.element_type, path + ".elementType")

    def map(self, mp: Any, path: str) -> None:
        if not isinstance(mp, Map):
            self.shape(path, "Map", mp)
            return
        self.relationship(
            mp.element_relationship, ("separable", "atomic"), path + ".elementRelationship"
        )
        if not isinstance(mp.fields, tuple):
            self.shape(path + ".fields", "list", mp.fields)
        else:
            names: set[str] = set()
            for i, f in enumerate(mp.fields):
                if not isinstance(f, StructField):
                    self.shape(f"{path}.fields[{i}]", "StructField", f)
                    continue
                if not isinstance(f.name, str):
                    self.shape(f"{path}.fields[{i}].name", "string", f.name)
                    continue
                if f.name in names:
                    if self.shapes:
                        self.error(
                            path + ".fields",
                            f"duplicate entries for key {_name_key('name', f.name)}",
                        )
                    continue
                names.add(f.name)
                self.ref(f.type, f"{path}.fields{_name_key('name', f.name)}.type")
        if not isinstance(mp.unions, tuple):
            self.shape(path + ".unions", "list", mp.unions)
        else:
            for i, u in enumerate(mp.unions):
                self.union(u, f"{path}.unions[{i}]")
        self.ref(mp.element_type, path + ".elementType")

    def union(self, union: Any, path: str) -> None:
        if not isinstance(union, Union):
            self.shape(path, "Union", union)
            return
        if union.discriminator is not None and not isinstance(union.discriminator, str):
            self.shape(path + ".discriminator", "string", union.discriminator)
        deduce = union.deduce_invalid_discriminator
        if deduce is not None and not isinstance(deduce, bool):
            self.shape(path + ".deduceInvalidDiscriminator", "boolean", deduce)
        if not isinstance(union.fields, tuple):
            self.shape(path + ".fields", "list", union.fields)
            return
        for i, f in enumerate(union.fields):
            if not isinstance(f, UnionField):
                self.shape(f"{path}.fields[{i}]", "UnionField", f)
            elif not isinstance(f.field_name, str):
                self.shape(f"{path}.fields[{i}].fieldName", "string", f.field_name)
            elif f.discriminator_value is not None and not isinstance(f.discriminator_value, str):
                self.shape(
                    f"{path}.fields{_name_key('fieldName', f.field_name)}.discriminatorValue",
                    "string",
                    f.discriminator_value,
                )

    def ref(self, ref: Any, path: str) -> None:
        if ref is None:
            return
        if not isinstance(ref, TypeRef):
            self.shape(path, "TypeRef", ref)
            return
        if ref.is_empty:
            return
        rel = ref.element_relationship
        self.relationship(
            rel, ("atomic", "associative", "separable"), path + ".elementRelationship"
        )
        has_atom = ref.inlined is not None and not (
            isinstance(ref.inlined, Atom) and ref.inlined.is_empty
        )
        if (ref.named_type is None) == (not has_atom):
            self.error(path, "invalid atom")
            return
        if ref.named_type is not None:
            if not isinstance(ref.named_type, str):
                self.shape(path + ".namedType", "string", ref.named_type)
                return
            target = self.atoms.get(ref.named_type)
            if target is None:
                self.error(path + ".namedType", f"no type found matching: {ref.named_type}")
                return
        else:
            self.atom(ref.inlined, path)
            target = ref.inlined
        if (
            rel is not None
            and isinstance(target, Atom)
            and target.map is None
            and target.list is None
        ):
            self.error(path, "invalid atom")


def check_schema(schema: Schema, *, shapes: bool) -> list[Diagnostic]:
    """Every model problem of ``schema`` as ``schema-error`` diagnostics."""
    return _Checker(schema, shapes).run()


def _name_key(field: str, name: str) -> str:
    return render_key([(field, name)])
