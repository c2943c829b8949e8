"""Spec §7.3: compare, field sets, remove, extract."""

from __future__ import annotations

import pytest
from schema_fixtures import v

from toskit import SchemaError
from toskit.schema import Comparison

C = [
    ("C01", "{num: 1, str: x}", "{num: 2, bool: true}", {".bool"}, {".str"}, {".num"}),
    ("C03", "{atomicList: [a, b]}", "{atomicList: [b, a]}", set(), set(), {".atomicList"}),
    ("C05", "{set: [a, b]}", "{set: [b, a]}", set(), set(), set()),
    ("C08", "{struct: {deep: {a: x}}}", "{}", set(), {".struct", ".struct.deep", ".struct.deep.a"}, set()),
    ("int-float-same", "{num: 1, numSet: [2]}", "{num: 1.0, numSet: [2.0]}", set(), set(), set()),
    ("set-items-leaves", "{set: [a, b]}", "{set: [b, c]}", {'.set[="c"]'}, {'.set[="a"]'}, set()),
    ("keyed-item-added", "{items: [{name: a}]}", "{items: [{name: a}, {name: b, value: x}]}",
     {'.items[name="b"]', '.items[name="b"].name', '.items[name="b"].value'}, set(), set()),
    ("keyed-item-field", "{items: [{name: a, value: x}]}", "{items: [{name: a, value: y}]}",
     set(), set(), {'.items[name="a"].value'}),
    ("keyed-order-only", "{items: [{name: a}, {name: b}]}", "{items: [{name: b}, {name: a}]}", set(), set(), set()),
    ("map-to-null", "{struct: {a: x}}", "{struct: null}", set(), {".struct", ".struct.a"}, set()),
    ("null-to-map", "{labels: null}", "{labels: {k: v}}", {".labels", ".labels.k"}, set(), set()),
    ("null-vs-empty", "{labels: null}", "{labels: {}}", set(), set(), {".labels"}),
    ("atomic-map", "{atomicMap: {a: x}}", "{atomicMap: {a: y}}", set(), set(), {".atomicMap"}),
    ("atomic-map-same", "{atomicMap: {a: x, b: y}}", "{atomicMap: {b: y, a: x}}", set(), set(), set()),
    ("scalar-to-null", "{num: 1}", "{num: null}", set(), set(), {".num"}),
    ("plain-list-order", "{plainList: [a, b]}", "{plainList: [b, a]}", set(), set(), {".plainList"}),
    ("default-key", "{ports: [{containerPort: 80}]}", "{ports: [{containerPort: 80, protocol: TCP}]}",
     {'.ports[containerPort=80,protocol="TCP"].protocol'}, set(), set()),
]


@pytest.mark.parametrize(
    ("lhs", "rhs", "added", "removed", "modified"), [r[1:] for r in C], ids=[r[0] for r in C]
)
def test_spec_compare(schemas, lhs, rhs, added, removed, modified):
    c = schemas["S1"].compare(v(lhs), v(rhs), "root")
    assert isinstance(c, Comparison)
    assert (c.added, c.removed, c.modified) == (added, removed, modified)
    assert isinstance(c.added, frozenset)
    assert c.is_same == (not (added or removed or modified))


def test_compare_kind_change(schemas):
    c = schemas["S2"].compare(v("{a: {x: 1}}"), v("{a: 5}"), "any")
    assert c.modified == {".a"}
    assert c.removed == {".a.x"}


def test_compare_duplicates_as_one_entry(schemas):
    s = schemas["S1"]
    c = s.compare(v("{set: [a, a, b]}"), v("{set: [b]}"), "root", allow_duplicates=True)
    assert c.removed == {'.set[="a"]'}
    c = s.compare(
        v("{items: [{name: a, value: x}, {name: a}]}"),
        v("{items: [{name: a, value: y}, {name: a}]}"),
        "root",
        allow_duplicates=True,
    )
    assert c.modified == {'.items[name="a"]'} and not c.added and not c.removed
    with pytest.raises(SchemaError):
        s.compare(v("{set: [a, a]}"), v("{}"), "root")


def test_comparison_repr(schemas):
    c = schemas["S1"].compare(v("{num: 1}"), v("{num: 2}"), "root")
    assert repr(c) == "<Comparison modified: .num>"
    assert repr(Comparison()) == "<Comparison: no changes>"
    assert "toskit" in c._repr_html_() or "<" in c._repr_html_()


T = [
    ("T01", "{num: 1, struct: {a: x, deep: {b: 2}}, labels: {k: v}}",
     {".labels.k", ".num", ".struct.a", ".struct.deep.b"}),
    ("T03", "{struct: {}, labels: null, atomicMap: {a: b}, atomicStruct: {a: x}}",
     {".atomicMap", ".atomicStruct", ".labels", ".struct"}),
    ("T04", "{ports: [{containerPort: 80}]}",
     {'.ports[containerPort=80,protocol="TCP"]', '.ports[containerPort=80,protocol="TCP"].containerPort'}),
    ("null-scalar", "{num: null}", {".num"}),
    ("empty-assoc", "{items: [], set: []}", set()),
    ("set-items", "{set: [a, b]}", {'.set[="a"]', '.set[="b"]'}),
    ("keyed-items", "{items: [{name: a, tags: [t]}]}",
     {'.items[name="a"]', '.items[name="a"].name', '.items[name="a"].tags[="t"]'}),
    ("atomic-list", "{atomicList: [a, b], plainList: []}", {".atomicList", ".plainList"}),
    ("root-null", "null", set()),
    ("root-empty", "{}", set()),
]


@pytest.mark.parametrize(("value", "expected"), [r[1:] for r in T], ids=[r[0] for r in T])
def test_spec_fieldset(schemas, value, expected):
    assert schemas["S1"].to_fieldset(v(value), "root") == expected


def test_fieldset_duplicates(schemas):
    got = schemas["S1"].to_fieldset(
        v("{items: [{name: a, value: x}, {name: a}, {name: b}]}"), "root", allow_duplicates=True
    )
    assert got == {'.items[name="a"]', '.items[name="b"]', '.items[name="b"].name'}


def test_fieldset_of_deduced_maps(schemas):
    assert schemas["S2"].to_fieldset(v("{a: {x: 1}}"), "any") == {".a", ".a.x"}


R = [
    ("R01", "{num: 1, str: x, struct: {a: x, b: 1}}", [".str", ".struct.a"], "{num: 1, struct: {b: 1}}"),
    ("R02", "{items: [{name: a, value: x}, {name: b, value: p}]}", ['.items[name="a"]'],
     "{items: [{name: b, value: p}]}"),
    ("R05", "{struct: {a: x}}", [".struct.a"], "{struct: null}"),
    ("root-becomes-null", "{num: 1}", [".num"], "null"),
    ("set-item", "{set: [a, b]}", ['.set[="a"]'], "{set: [b]}"),
    ("set-emptied", "{set: [a]}", ['.set[="a"]'], "{set: null}"),
    ("inside-atomic", "{atomicStruct: {a: x}, atomicList: [a]}", [".atomicStruct.a", ".atomicList[0]"],
     "{atomicStruct: {a: x}, atomicList: [a]}"),
    ("default-key", "{ports: [{containerPort: 80}, {containerPort: 81}]}",
     ['.ports[containerPort=80,protocol="TCP"]'], "{ports: [{containerPort: 81}]}"),
    ("float-spelling", "{numSet: [1.0, 2]}", ["[=1]", ".numSet[=1]"], "{numSet: [2]}"),
    ("inside-keyed-item", "{items: [{name: a, value: x, port: 1}]}", ['.items[name="a"].value'],
     "{items: [{name: a, port: 1}]}"),
    ("no-match", "{num: 1}", [".zzz", ".num.x"], "{num: 1}"),
    ("root-path", "{num: 1}", [""], "null"),
]


@pytest.mark.parametrize(("value", "paths", "result"), [r[1:] for r in R], ids=[r[0] for r in R])
def test_spec_remove(schemas, value, paths, result):
    value = v(value)
    assert schemas["S1"].remove(value, paths, "root") == v(result)


def test_remove_fieldset_roundtrip(schemas):
    s = schemas["S1"]
    value = v("{num: 1, struct: {a: x, deep: {b: 2}}, labels: {k: v}, set: [a]}")
    # Emptied separable maps and associative lists become None, keys stay (R05).
    assert s.remove(value, s.to_fieldset(value, "root"), "root") == v(
        "{struct: {deep: null}, labels: null, set: null}"
    )


X = [
    ("X01", "{num: 1, str: x, items: [{name: a, value: x, port: 1}, {name: b}]}",
     [".str", '.items[name="a"].port'], False, "{str: x, items: [{port: 1}]}"),
    ("X01-keys", "{num: 1, str: x, items: [{name: a, value: x, port: 1}, {name: b}]}",
     [".str", '.items[name="a"].port'], True, "{str: x, items: [{name: a, port: 1}]}"),
    ("whole-node", "{struct: {a: x, deep: {b: 1}}, num: 2}", [".struct"], False,
     "{struct: {a: x, deep: {b: 1}}}"),
    ("nothing", "{num: 1}", [".zzz"], False, "null"),
    ("set-item", "{set: [a, b]}", ['.set[="b"]'], False, "{set: [b]}"),
    ("inside-atomic", "{atomicStruct: {a: x, b: 1}}", [".atomicStruct.a"], False,
     "{atomicStruct: {a: x, b: 1}}"),
]


@pytest.mark.parametrize(
    ("value", "paths", "append", "result"), [r[1:] for r in X], ids=[r[0] for r in X]
)
def test_spec_extract(schemas, value, paths, append, result):
    got = schemas["S1"].extract(v(value), paths, "root", append_key_fields=append)
    assert got == v(result)


def test_extract_fieldset_is_identity(schemas):
    s = schemas["S1"]
    value = v("{num: 1, struct: {a: x, deep: {b: 2}}, labels: {k: v}, items: [{name: a, port: 1}]}")
    assert s.extract(value, s.to_fieldset(value, "root"), "root") == value


@pytest.mark.parametrize(
    "bad", ["num", ".items[name=]", ".items[name=\"a\"", "[=x]", ".a[k=1,]", 5],
    ids=["no-dot", "no-value", "unclosed", "bad-json", "trailing-comma", "not-a-string"],
)
def test_bad_paths(schemas, bad):
    with pytest.raises(SchemaError) as err:
        schemas["S1"].remove({"num": 1}, [bad], "root")
    assert err.value.diagnostics[0].message
