"""Spec §1 and §7.5: loading, the model objects, find and resolve."""

from __future__ import annotations

import pytest
from fixtures.schemas import SCHEMA_YAML, as_dict

import toskit
from toskit import SchemaError, schema
from toskit.schema import Atom, List, Map, Schema, StructField, TypeDef, TypeRef, Union, UnionField


@pytest.mark.parametrize("name", sorted(SCHEMA_YAML))
def test_yaml_and_dict_give_the_same_schema(name):
    from_text = schema.load(SCHEMA_YAML[name])
    from_dict = schema.load(as_dict(name))
    assert from_text == from_dict
    assert isinstance(from_text.types, tuple)
    assert all(isinstance(t, TypeDef) for t in from_text.types)


def test_find(schemas):
    s = schemas["S1"]
    assert s.find("item").name == "item"
    assert s.find("nope") is None
    assert s.find("__untyped_atomic_").scalar == "untyped"
    assert s.find("__untyped_deduced_").map.element_relationship == "separable"


def test_model_objects(schemas):
    s = schemas["S1"]
    root = s.find("root")
    items = root.map.find_field("items")
    assert isinstance(items, StructField)
    assert items.type.inlined.list == List(
        element_type=TypeRef(named_type="item"), element_relationship="associative", keys=("name",)
    )
    assert root.map.element_type is None and root.map.unions == ()
    port = s.find("port").map.find_field("protocol")
    assert port.default == "TCP"
    assert s.find("inner").map.find_field("deep").type == TypeRef(named_type="inner")
    u = schemas["S3"].find("union").map.unions[0]
    assert u == Union(
        discriminator="discriminator",
        deduce_invalid_discriminator=True,
        fields=(UnionField("one", "One"), UnionField("two", "TWO"), UnionField("three", "three")),
    )


def test_resolve_override(schemas):
    s = schemas["S1"]
    atom = s.resolve({"namedType": "inner", "elementRelationship": "atomic"})
    assert atom.map.element_relationship == "atomic"
    assert s.find("inner").map.element_relationship is None
    assert [f.name for f in atom.map.fields] == ["a", "b", "deep"]


def test_resolve_forms(schemas):
    s = schemas["S1"]
    assert s.resolve("inner") is s.find("inner").atom
    assert s.resolve({"scalar": "string"}) == Atom(scalar="string")
    assert s.resolve(TypeRef(inlined=Atom(scalar="numeric"))) == Atom(scalar="numeric")
    with pytest.raises(SchemaError, match="no type found matching: zz"):
        s.resolve("zz")
    with pytest.raises(SchemaError, match="no type found matching: zz"):
        s.resolve({"namedType": "zz"})


def _errors(source) -> list[tuple[str, str]]:
    with pytest.raises(SchemaError) as err:
        schema.load(source)
    assert isinstance(err.value, toskit.ToskitError)
    for d in err.value.diagnostics:
        assert d.code == "schema-error" and d.severity == "error"
    return [(d.path, d.message) for d in err.value.diagnostics]


def test_typo_in_field_type():
    text = SCHEMA_YAML["S1"].replace(
        "{name: num, type: {scalar: numeric}}", "{name: num, type: {sclar: numeric}}"
    )
    errors = _errors(text)
    assert (
        '.types[name="root"].map.fields[name="num"].type.sclar',
        "field not declared in schema",
    ) in errors


def test_bad_scalar_name():
    text = SCHEMA_YAML["S1"].replace(
        "{name: num, type: {scalar: numeric}}", "{name: num, type: {scalar: int}}"
    )
    errors = _errors(text)
    assert errors == [
        (
            '.types[name="root"].map.fields[name="num"].type.scalar',
            "unexpected scalar type in schema: int",
        )
    ]


LOAD_ERRORS = [
    (
        "keys-not-list",
        "types: [{name: t, list: {keys: name, elementRelationship: associative}}]",
        '.types[name="t"].list.keys',
        "expected list, got",
    ),
    (
        "fields-not-list",
        "types: [{name: t, map: {fields: {}}}]",
        '.types[name="t"].map.fields',
        "expected list, got",
    ),
    (
        "name-not-string",
        "types: [{name: 5, scalar: string}]",
        ".types[name=5].name",
        "expected string, got",
    ),
    (
        "list-relationship",
        "types: [{name: t, list: {elementRelationship: separable}}]",
        '.types[name="t"].list.elementRelationship',
        "unexpected element relationship in schema: separable",
    ),
    (
        "map-relationship",
        "types: [{name: t, map: {elementRelationship: associative}}]",
        '.types[name="t"].map.elementRelationship',
        "unexpected element relationship in schema: associative",
    ),
    (
        "ref-relationship",
        "types: [{name: t, map: {elementType: {scalar: string, elementRelationship: x}}}]",
        '.types[name="t"].map.elementType.elementRelationship',
        "unexpected element relationship in schema: x",
    ),
    (
        "duplicate-type",
        "types: [{name: t, scalar: string}, {name: t, scalar: numeric}]",
        ".types",
        'duplicate entries for key [name="t"]',
    ),
    (
        "dangling-ref",
        "types: [{name: t, map: {fields: [{name: f, type: {namedType: nope}}]}}]",
        '.types[name="t"].map.fields[name="f"].type.namedType',
        "no type found matching: nope",
    ),
    ("empty-typedef", "types: [{name: t}]", '.types[name="t"]', "invalid atom"),
    (
        "ref-both",
        "types: [{name: t, map: {elementType: {namedType: t, scalar: string}}}]",
        '.types[name="t"].map.elementType',
        "invalid atom",
    ),
    (
        "ref-neither",
        "types: [{name: t, map: {elementType: {elementRelationship: atomic}}}]",
        '.types[name="t"].map.elementType',
        "invalid atom",
    ),
    (
        "override-on-scalar",
        "types: [{name: s, scalar: string}, {name: t, map: {elementType: {namedType: s, elementRelationship: atomic}}}]",
        '.types[name="t"].map.elementType',
        "invalid atom",
    ),
    ("unknown-top-key", "typs: []", ".typs", "field not declared in schema"),
    ("types-not-list", "types: {a: 1}", ".types", "expected list, got"),
    (
        "deduce-not-bool",
        "types: [{name: t, map: {unions: [{deduceInvalidDiscriminator: yes please}]}}]",
        '.types[name="t"].map.unions[0].deduceInvalidDiscriminator',
        "expected boolean, got",
    ),
    (
        "duplicate-field",
        "types: [{name: t, map: {fields: [{name: a, type: {scalar: string}}, {name: a, type: {scalar: string}}]}}]",
        '.types[name="t"].map.fields',
        'duplicate entries for key [name="a"]',
    ),
]


@pytest.mark.parametrize(
    ("text", "path", "message"), [r[1:] for r in LOAD_ERRORS], ids=[r[0] for r in LOAD_ERRORS]
)
def test_load_errors(text, path, message):
    errors = _errors(text)
    assert any(p == path and m.startswith(message) for p, m in errors), errors


def test_every_problem_is_collected():
    text = """
types:
- name: a
  map:
    fields:
    - {name: x, type: {sclar: string}}
    - {name: y, type: {scalar: int}}
    - {name: z, type: {namedType: missing}}
- name: b
  list: {elementRelationship: sideways}
"""
    errors = _errors(text)
    assert len(errors) == 4, errors


def test_error_str_lists_path_and_message():
    with pytest.raises(SchemaError) as err:
        schema.load("types: [{name: t, scalar: int}]")
    assert str(err.value) == '.types[name="t"].scalar: unexpected scalar type in schema: int'


def test_empty_element_type_is_absent():
    s = schema.load(
        "types: [{name: t, map: {elementType: {}, fields: [{name: a, type: {scalar: string}}]}}]"
    )
    assert s.find("t").map.element_type is None
    assert [d.message for d in s.validate({"b": 1}, "t")] == ["field not declared in schema"]


def test_keys_ignored_on_non_associative_list():
    s = schema.load("types: [{name: t, list: {elementType: {scalar: string}, keys: [name]}}]")
    assert s.validate(["a", "a"], "t") == []


def test_yaml_syntax_error_is_schema_error():
    with pytest.raises(SchemaError):
        schema.load("types: [unclosed")


@pytest.mark.parametrize(
    "source", [5, None, ["types"], b"types: []"], ids=["int", "none", "list", "bytes"]
)
def test_bad_source(source):
    with pytest.raises(SchemaError):
        schema.load(source)


def test_empty_schema_resolves_builtins():
    s = schema.load({})
    assert s.types == ()
    assert s.validate({"a": [1]}, "__untyped_deduced_") == []


# -- building the objects directly -------------------------------------------------------


def _point() -> TypeDef:
    num = TypeRef(inlined=Atom(scalar="numeric"))
    return TypeDef("point", Atom(map=Map(fields=[StructField("x", num), StructField("y", num)])))


def test_direct_construction_equals_loaded():
    direct = Schema(types=[_point()])
    loaded = schema.load(
        "types: [{name: point, map: {fields: [{name: x, type: {scalar: numeric}}, {name: y, type: {scalar: numeric}}]}}]"
    )
    assert direct == loaded
    assert direct.validate({"x": 1, "y": "2"}, "point")[0].path == ".y"


@pytest.mark.parametrize(
    ("types", "path", "message"),
    [
        (
            [TypeDef("t", Atom(scalar="int"))],
            '.types[name="t"].scalar',
            "unexpected scalar type in schema: int",
        ),
        ([TypeDef("t", Atom())], '.types[name="t"]', "invalid atom"),
        (
            [TypeDef("t", Atom(scalar="string")), TypeDef("t", Atom(scalar="string"))],
            ".types",
            'duplicate entries for key [name="t"]',
        ),
        (
            [TypeDef("t", Atom(map=Map(element_type=TypeRef(named_type="q"))))],
            '.types[name="t"].map.elementType.namedType',
            "no type found matching: q",
        ),
        ([TypeDef(5, Atom(scalar="string"))], ".types[0].name", "expected string, got"),
        (["not a typedef"], ".types[0]", "expected TypeDef, got"),
        (
            [TypeDef("t", Atom(list=List(element_relationship="separable")))],
            '.types[name="t"].list.elementRelationship',
            "unexpected element relationship in schema: separable",
        ),
        (
            [TypeDef("t", Atom(map=Map(fields=[StructField("a", "string")])))],
            '.types[name="t"].map.fields[name="a"].type',
            "expected TypeRef, got",
        ),
    ],
    ids=[
        "scalar",
        "empty-atom",
        "duplicate",
        "dangling",
        "name-type",
        "not-typedef",
        "relationship",
        "bad-ref",
    ],
)
def test_direct_construction_is_checked(types, path, message):
    with pytest.raises(SchemaError) as err:
        Schema(types=types)
    got = [(d.path, d.message) for d in err.value.diagnostics]
    assert any(p == path and m.startswith(message) for p, m in got), got


def test_reprs(schemas):
    s = schemas["S1"]
    assert repr(s) == "<Schema 5 types: root, inner, item, item2, port>"
    assert repr(s.find("item")) == (
        "<TypeDef item: map{name: string, value: string, port: numeric, tags: set<string>}>"
    )
    assert repr(s.find("root")).startswith(
        "<TypeDef root: map{num: numeric, str: string, bool: boolean, any: untyped, "
        "atomicList: atomic list<string>, plainList: list<string>, … 9 more}"
    )
    assert (
        repr(schemas["S2"].find("strOrList")) == "<TypeDef strOrList: string | atomic list<string>>"
    )
    assert repr(s.find("__untyped_deduced_")) == (
        "<TypeDef __untyped_deduced_: untyped | atomic list<__untyped_atomic_> | "
        "map{*: __untyped_deduced_}>"
    )
    assert s._repr_html_()
    assert s.find("item")._repr_html_()


def test_load_errors_point_at_the_yaml_source():
    text = (
        SCHEMA_YAML["S1"]
        .replace("{name: num, type: {scalar: numeric}}", "{name: num, type: {sclar: numeric}}")
        .replace("{name: b, type: {scalar: numeric}}", "{name: b, type: {scalar: int}}")
    )
    with pytest.raises(SchemaError) as err:
        schema.load(text, name="s1.yaml")
    by_message = {d.message: d for d in err.value.diagnostics}
    lines = text.splitlines()
    typo = by_message["field not declared in schema"]
    assert typo.path == '.types[name="root"].map.fields[name="num"].type.sclar'
    if typo.line is not None:  # the located loader knows where every node is
        assert typo.file == "s1.yaml"
        assert lines[typo.line - 1][typo.column - 1 :].startswith("sclar")
        bad = by_message["unexpected scalar type in schema: int"]
        assert lines[bad.line - 1][bad.column - 1 :].startswith("int")
    # str() stays "<path>: <message>" per line, whatever the location.
    assert (
        '.types[name="root"].map.fields[name="num"].type.sclar: field not declared in schema'
        in str(err.value).splitlines()
    )


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ({"sclar": "string"}, "field not declared in schema"),
        ({}, "invalid atom"),
        ({"scalar": "int"}, "unexpected scalar type in schema: int"),
        ({"namedType": "inner", "scalar": "string"}, "invalid atom"),
        (
            {"namedType": "inner", "elementRelationship": "bogus"},
            "unexpected element relationship in schema: bogus",
        ),
        ({"scalar": "string", "elementRelationship": "atomic"}, "invalid atom"),
        (5, "expected a TypeRef, a dict or a type name"),
    ],
    ids=["typo", "empty", "bad-scalar", "both", "bad-relationship", "override-on-scalar", "int"],
)
def test_resolve_rejects_bad_refs(schemas, ref, message):
    with pytest.raises(SchemaError) as err:
        schemas["S1"].resolve(ref)
    assert message in str(err.value)


@pytest.mark.parametrize("name", [None, 5, ["root"]], ids=["none", "int", "list"])
def test_type_name_must_be_a_string(schemas, name):
    with pytest.raises(SchemaError, match="type name must be a string"):
        schemas["S1"].validate({}, name)


@pytest.mark.parametrize("name", sorted(SCHEMA_YAML))
def test_to_data_round_trip(name):
    import copy
    import pickle

    s = schema.load(SCHEMA_YAML[name])
    assert s.to_data() == as_dict(name)
    assert schema.load(s.to_data()) == s
    assert hash(s) == hash(schema.load(as_dict(name)))
    for clone in (copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert clone == s
        for value in ({"zz": 1}, [1], "x"):  # works after copying, and agrees
            assert clone.validate(value, s.types[0].name) == s.validate(value, s.types[0].name)


def test_typeref_shortcuts_build_what_tosca_compiles_to():
    """Spec §6 in Python: a data type as a separable struct, a TOSCA list as an
    atomic list, a TOSCA map as an atomic map, an untyped property."""
    s = Schema(
        types=[
            TypeDef(
                "tosca.datatypes.Endpoint",
                Atom(
                    map=Map(
                        fields=[
                            StructField("port", TypeRef.scalar("numeric")),
                            StructField(
                                "tags",
                                TypeRef.of(Atom(list=List(TypeRef.scalar("string"), "atomic"))),
                            ),
                            StructField(
                                "meta",
                                TypeRef.of(
                                    Atom(
                                        map=Map(
                                            element_type=TypeRef.scalar("string"),
                                            element_relationship="atomic",
                                        )
                                    )
                                ),
                            ),
                            StructField("extra", TypeRef.named("__untyped_atomic_")),
                            StructField(
                                "inner", TypeRef.named("tosca.datatypes.Endpoint", "atomic")
                            ),
                        ]
                    )
                ),
            )
        ]
    )
    name = "tosca.datatypes.Endpoint"
    assert (
        s.validate({"port": 80, "tags": ["a"], "meta": {"k": "v"}, "extra": {"x": [1]}}, name) == []
    )
    merged = s.merge(
        {"port": 80, "tags": ["a"], "meta": {"k": "v"}}, {"tags": ["b"], "meta": {"j": "w"}}, name
    )
    assert merged == {"port": 80, "tags": ["b"], "meta": {"j": "w"}}
    assert s.resolve(TypeRef.named(name, "atomic")).map.element_relationship == "atomic"


def test_load_from_a_path(tmp_path):
    path = tmp_path / "s1.yaml"
    path.write_text(SCHEMA_YAML["S1"], encoding="utf-8")
    assert schema.load(path) == schema.load(SCHEMA_YAML["S1"])
    bad = tmp_path / "bad.yaml"
    bad.write_text("types: [{name: t, scalar: int}]", encoding="utf-8")
    with pytest.raises(SchemaError) as err:
        schema.load(bad)
    assert err.value.diagnostics[0].file == str(bad)
    with pytest.raises(toskit.ToskitError, match="no such file"):
        schema.load(tmp_path / "missing.yaml")


# -- messages (issue #21) ------------------------------------------------------------


def test_yaml_syntax_error_message_carries_its_line():
    with pytest.raises(SchemaError) as err:
        schema.load("types:\n- name: a\n  map: {fields: [\n", name="bad.yaml")
    (d,) = err.value.diagnostics
    assert d.code == "yaml-syntax" and d.line is not None
    assert f"bad.yaml:{d.line}:" in str(err.value)


def test_both_invalid_merge_inputs_say_which_side():
    s = schema.load("types: [{name: r, map: {fields: [{name: a, type: {scalar: string}}]}}]")
    with pytest.raises(SchemaError) as err:
        s.merge({"a": 1}, {"a": [2]}, "r")
    lhs, rhs = err.value.diagnostics
    assert lhs.message.startswith("lhs: ") and "numeric 1" in lhs.message
    assert rhs.message.startswith("rhs: ") and "list" in rhs.message
    text = str(err.value)
    assert text.index("lhs is not a valid r") < text.index("lhs: expected")
    assert text.index("rhs is not a valid r") < text.index("rhs: expected")


def test_one_invalid_value_message_has_no_side_prefix():
    s = schema.load("types: [{name: r, map: {fields: [{name: a, type: {scalar: string}}]}}]")
    with pytest.raises(SchemaError) as err:
        s.remove({"a": 1}, [".a"], "r")
    assert err.value.diagnostics[0].message.startswith("expected string")


def test_depth_limit_path_is_abbreviated():
    s = schema.load("types: [{name: n, map: {elementType: {namedType: n}}}]")
    value: dict = {}
    cur = value
    for _ in range(2000):
        cur["k"] = {}
        cur = cur["k"]
    (d,) = s.validate(value, "n")
    assert d.code == "limit-exceeded"
    assert d.path.startswith(".k.k.k.k…(") and d.path.endswith(")….k.k.k")
    assert len(d.path) < 40
    with pytest.raises(SchemaError) as err:
        s.merge(value, {}, "n")
    assert len(str(err.value)) < 300


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("", ""),
        (".a.b", ".a.b"),
        ('.a[0].b[="x.y"].c[k="[.]"].d.e.f.g', '.a[0].b[="x.y"]…(3 more)….e.f.g'),
    ],
    ids=["root", "short", "brackets-and-strings"],
)
def test_abbreviate_path(path, expected):
    from toskit.schema.validate import abbreviate_path

    assert abbreviate_path(path) == expected
