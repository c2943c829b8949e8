"""Spec §7.1: validation examples (and §2.1 path notation)."""

from __future__ import annotations

import pytest
from fixtures.schemas import v

V = [
    (
        "V01",
        "S1",
        "root",
        "{num: 1, str: x, bool: true, any: 2.5, atomicList: [a, a], set: [a, b], items: [{name: a, value: v}], labels: {k: v}, struct: {a: x, deep: {b: 2}}}",
        [],
    ),
    ("V02", "S1", "root", '{num: "1"}', [(".num", "expected numeric (int or float), got")]),
    ("V04", "S1", "root", "{str: 1}", [(".str", "expected string, got")]),
    ("V06", "S1", "root", "{num: null, str: null, bool: null, items: null, labels: null}", []),
    ("V09", "S1", "root", "{foo: 1}", [(".foo", "field not declared in schema")]),
    (
        "V12",
        "S1",
        "root",
        "{items: [{name: a}, {name: a}]}",
        [(".items", 'duplicate entries for key [name="a"]')],
    ),
    (
        "V13",
        "S1",
        "root",
        "{items: [{value: x}]}",
        [
            (
                ".items",
                'element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
            )
        ],
    ),
    (
        "V14",
        "S1",
        "root",
        "{items: [null]}",
        [(".items", "element 0: associative list with keys may not have a null element")],
    ),
    ("V16", "S1", "root", "{set: [a, a]}", [(".set", 'duplicate entries for key [="a"]')]),
    (
        "V17",
        "S1",
        "root",
        "{set: [{a: 1}]}",
        [(".set", "element 0: associative list without keys has an element that's a map type")],
    ),
    ("V20", "S1", "root", "{atomicList: x}", [(".atomicList", "expected list, got")]),
    (
        "V22",
        "S1",
        "root",
        "{items: [{name: a, port: x}]}",
        [('.items[name="a"].port', "expected numeric (int or float), got")],
    ),
    (
        "V23",
        "S1",
        "root",
        "{multi: [{key: a, id: 1, v: 2}]}",
        [('.multi[id=1,key="a"].v', "expected string, got")],
    ),
    (
        "V26",
        "S1",
        "root",
        "{ports: [{containerPort: 80}, {containerPort: 80, protocol: TCP}]}",
        [(".ports", 'duplicate entries for key [containerPort=80,protocol="TCP"]')],
    ),
    ("V28", "S1", "root", "{plainList: [a, a]}", []),
    ("V29", "S1", "root", "null", []),
    ("V32", "S1", "root", "{set: [a, 1]}", [(".set[=1]", "expected string, got")]),
    ("V37", "S2", "strOrList", "{a: b}", [("", "expected string, got")]),
    (
        "V39",
        "S1",
        "root",
        "{items: [{name: a}, {name: a}, {value: q}]}",
        [
            (".items", 'duplicate entries for key [name="a"]'),
            (
                ".items",
                'element 2: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)',
            ),
        ],
    ),
]


def _matches(diags, expected):
    got = [(d.path, d.message) for d in diags]
    assert len(got) == len(expected), got
    for (path, message), (want_path, want_prefix) in zip(got, expected):
        assert path == want_path
        assert message.startswith(want_prefix), message


@pytest.mark.parametrize(
    ("schema_name", "type_name", "value", "expected"),
    [row[1:] for row in V],
    ids=[row[0] for row in V],
)
def test_spec_validation(schemas, schema_name, type_name, value, expected):
    diags = schemas[schema_name].validate(v(value), type_name)
    _matches(diags, expected)
    for d in diags:
        assert d.severity == "error"
        assert (d.file, d.line, d.column) == (None, None, None)


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ('{num: "1"}', "type-mismatch"),
        ("{foo: 1}", "unknown-property"),
        ("{items: [{name: a}, {name: a}]}", "invalid-value"),
        ("{set: [{a: 1}]}", "invalid-value"),
    ],
    ids=["type-mismatch", "unknown-property", "duplicate", "set-of-maps"],
)
def test_codes(schemas, value, code):
    (d,) = schemas["S1"].validate(v(value), "root")
    assert d.code == code


MORE = [
    # kind, value, expected (path, message prefix) list
    ("bool-not-numeric", "{num: true}", [(".num", "expected numeric (int or float), got boolean")]),
    ("numeric-float-ok", "{num: 2.5}", []),
    ("bool-wrong", "{bool: 1}", [(".bool", "expected boolean, got")]),
    ("untyped-map", "{any: {a: 1}}", [(".any", "expected any scalar, got")]),
    ("map-expected", "{labels: [a]}", [(".labels", "expected map, got")]),
    ("labels-value", "{labels: {k: 1}}", [(".labels.k", "expected string, got")]),
    ("struct-unknown", "{struct: {zzz: 1}}", [(".struct.zzz", "field not declared in schema")]),
    (
        "deep-struct",
        "{struct: {deep: {deep: {b: x}}}}",
        [(".struct.deep.deep.b", "expected numeric")],
    ),
    ("atomic-index", "{atomicList: [a, 1]}", [(".atomicList[1]", "expected string, got")]),
    ("plain-index", "{plainList: [1]}", [(".plainList[0]", "expected string, got")]),
    (
        "keyed-non-map",
        "{items: [a]}",
        [(".items", "element 0: associative list with keys may not have non-map elements")],
    ),
    (
        "set-of-lists",
        "{set: [[a]]}",
        [(".set", "element 0: not supported: associative list with lists as elements")],
    ),
    (
        "set-null",
        "{set: [a, null]}",
        [
            (
                ".set",
                "element 1: associative list without keys has an element that's an explicit null",
            )
        ],
    ),
    (
        "set-stops",
        "{set: [null, 1]}",
        [
            (
                ".set",
                "element 0: associative list without keys has an element that's an explicit null",
            )
        ],
    ),
    ("numset-dup-float", "{numSet: [1, 1.0]}", [(".numSet", "duplicate entries for key [=1]")]),
    ("numset-bool", "{numSet: [1, true]}", [(".numSet[=true]", "expected numeric")]),
    ("set-str-num", '{set: ["1", 1]}', [(".set[=1]", "expected string")]),
    ("keyed-partial", "{multi: [{key: a}, {id: 2}]}", []),
    (
        "keyed-float-key",
        "{multi: [{key: a, id: 1}, {key: a, id: 1.0}]}",
        [(".multi", 'duplicate entries for key [id=1,key="a"]')],
    ),
    (
        "float-key-render",
        "{multi: [{key: a, id: 2.5, v: 1}]}",
        [('.multi[id=2.5,key="a"].v', "expected string")],
    ),
    ("key-type-as-data", "{items: [{name: 1}]}", [(".items[name=1].name", "expected string")]),
    (
        "key-escapes",
        '{items: [{name: "a\\"b", port: x}]}',
        [('.items[name="a\\"b"].port', "expected numeric")],
    ),
    (
        "all-errors",
        "{num: x, str: 1, foo: 2}",
        [(".num", "expected numeric"), (".str", "expected string"), (".foo", "field not declared")],
    ),
]


@pytest.mark.parametrize(("value", "expected"), [r[1:] for r in MORE], ids=[r[0] for r in MORE])
def test_more_validation(schemas, value, expected):
    _matches(schemas["S1"].validate(v(value), "root"), expected)


def test_allow_duplicates(schemas):
    s = schemas["S1"]
    assert (
        s.validate(v("{items: [{name: a}, {name: a}], set: [x, x]}"), "root", allow_duplicates=True)
        == []
    )
    assert len(s.validate(v("{items: [{name: a}, {name: a}], set: [x, x]}"), "root")) == 2


def test_multi_kind_order(schemas):
    s2 = schemas["S2"]
    assert s2.validate(v("x"), "strOrList") == []
    assert s2.validate(v("[x, y]"), "strOrList") == []
    (d,) = s2.validate(v("[1]"), "strOrList")
    assert (d.path, d.message.split(",")[0]) == ("[0]", "expected string")
    assert s2.validate(v("{a: [1, {b: c}], n: null}"), "any") == []


def test_unknown_type_raises(schemas):
    from toskit import SchemaError

    with pytest.raises(SchemaError, match="no type found matching: nope"):
        schemas["S1"].validate({}, "nope")


def test_builtin_untyped_types(schemas):
    s = schemas["S1"]
    for name in ("__untyped_atomic_", "__untyped_deduced_"):
        assert s.validate({"a": [1, {"b": None}], "c": 2.5}, name) == []
        assert s.find(name).name == name


def test_foreign_value_on_multi_kind_reports_map_first():
    from toskit import schema

    s = schema.load("types: [{name: t, scalar: string, map: {elementType: {scalar: string}}}]")
    (d,) = s.validate({1, 2}, "t")
    assert d.message == "expected map, got set"
    (d,) = s.validate(5, "t")
    assert d.message.startswith("expected string, got")


def test_locate_diagnostics_in_yaml(schemas):
    from toskit.schema import locate_diagnostics
    from toskit.source import load_yaml

    text = "spec:\n  values:\n    items:\n    - name: a\n      port: eighty\n    foo: 1\n"
    doc = load_yaml(text, name="v.yaml")
    value = doc.value["spec"]["values"]
    diags = schemas["S1"].validate(value, "root")
    located = {d.path: d for d in locate_diagnostics(diags, value, doc, ("spec", "values"))}
    port, foo = located['.items[name="a"].port'], located[".foo"]
    assert port.message.startswith("expected numeric")
    if port.line is not None:  # the located loader
        assert (port.file, port.line, port.column) == ("v.yaml", 5, 13)
        assert (foo.line, foo.column) == (6, 5)  # the key itself
