"""Spec §7.2 merge examples, §3 order and leaf rules."""

from __future__ import annotations

import copy

import pytest
from fixtures.schemas import v

from toskit import SchemaError

M = [
    (
        "M01",
        "S1",
        "root",
        "{num: 1, str: x}",
        "{num: 2, bool: true}",
        "{num: 2, str: x, bool: true}",
    ),
    ("M02", "S1", "root", "{atomicList: [a, b, c]}", "{atomicList: [b]}", "{atomicList: [b]}"),
    ("M04", "S1", "root", "{set: [a, b, c]}", "{set: [c, d, e, f]}", "{set: [a, b, c, d, e, f]}"),
    ("M06", "S1", "root", "{set: [c, d, e, f]}", "{set: [a, c, e]}", "{set: [a, c, d, e, f]}"),
    (
        "M09",
        "S1",
        "root",
        "{items: [{name: a, value: x}]}",
        "{items: [{name: a, port: 1}]}",
        "{items: [{name: a, value: x, port: 1}]}",
    ),
    (
        "M10",
        "S1",
        "root",
        "{items: [{name: a}, {name: b}, {name: c}]}",
        "{items: [{name: c}, {name: b}]}",
        "{items: [{name: a}, {name: c}, {name: b}]}",
    ),
    (
        "M13",
        "S1",
        "root",
        "{multi: [{key: a, id: 1}]}",
        "{multi: [{key: a, id: 2}]}",
        "{multi: [{key: a, id: 1}, {key: a, id: 2}]}",
    ),
    (
        "M15",
        "S1",
        "root",
        "{atomicMap: {a: x, b: p}}",
        "{atomicMap: {c: z}}",
        "{atomicMap: {c: z}}",
    ),
    (
        "M17",
        "S1",
        "root",
        "{atomicStruct: {a: x, b: 1}}",
        "{atomicStruct: {b: 2}}",
        "{atomicStruct: {b: 2}}",
    ),
    ("M18", "S1", "root", "{num: 1}", "{num: null}", "{num: null}"),
    ("M19", "S1", "root", "{labels: {a: x}}", "{labels: null}", "{labels: {a: x}}"),
    ("M21", "S1", "root", "{labels: null}", "{labels: {}}", "{labels: {}}"),
    ("M24", "S1", "root", "{items: [{name: a}]}", "{items: null}", "{items: [{name: a}]}"),
    ("M26", "S1", "root", "{plainList: [a]}", "{plainList: [b]}", "{plainList: [b]}"),
    (
        "M27",
        "S1",
        "root",
        "{ports: [{containerPort: 80, name: x}]}",
        "{ports: [{containerPort: 80, protocol: TCP, name: p}]}",
        "{ports: [{containerPort: 80, protocol: TCP, name: p}]}",
    ),
    ("M30", "S2", "any", "{a: {x: 1}}", "{a: 5}", "{a: 5}"),
    (
        "M33",
        "S1",
        "root",
        "{numSet: [1, 2, 3.5]}",
        "{numSet: [1, 2, 3]}",
        "{numSet: [1, 2, 3.5, 3]}",
    ),
    ("M35", "S1", "root", "{items: [{name: a}]}", "{items: []}", "{items: [{name: a}]}"),
    # §3 prose
    (
        "order-rotate",
        "S1",
        "root",
        "{set: [a, b, c, d]}",
        "{set: [d, e, f, a]}",
        "{set: [b, c, d, e, f, a]}",
    ),
    ("atomic-to-empty", "S1", "root", "{atomicList: [a]}", "{atomicList: []}", "{atomicList: []}"),
    ("scalar-to-null", "S1", "root", "{num: 1}", "{num: null}", "{num: null}"),
    ("empty-map-then-null", "S1", "root", "{labels: {}}", "{labels: null}", "{labels: null}"),
    ("null-then-empty", "S1", "root", "{labels: null}", "{labels: {}}", "{labels: {}}"),
    ("absent-then-empty-list", "S1", "root", "{}", "{items: []}", "{items: []}"),
    (
        "separable-key-by-key",
        "S1",
        "root",
        "{labels: {a: x, b: y}}",
        "{labels: {b: z, c: w}}",
        "{labels: {a: x, b: z, c: w}}",
    ),
    (
        "struct-deep",
        "S1",
        "root",
        "{struct: {a: x, deep: {a: y, b: 1}}}",
        "{struct: {deep: {b: 2}}}",
        "{struct: {a: x, deep: {a: y, b: 2}}}",
    ),
    (
        "atomic-struct-null",
        "S1",
        "root",
        "{atomicStruct: {a: x}}",
        "{atomicStruct: null}",
        "{atomicStruct: null}",
    ),
    ("numbers-keep-type", "S1", "root", "{num: 1}", "{num: 1.0}", "{num: 1.0}"),
    ("kind-change-scalar-to-map", "S2", "any", "{a: 5}", "{a: {x: 1}}", "{a: {x: 1}}"),
    ("kind-change-list-to-map", "S2", "any", "{a: [1]}", "{a: {x: 1}}", "{a: {x: 1}}"),
    ("deduced-maps-merge", "S2", "any", "{a: {x: 1}}", "{a: {y: 2}}", "{a: {x: 1, y: 2}}"),
    ("any-lists-atomic", "S2", "any", "{a: [1, 2]}", "{a: [3]}", "{a: [3]}"),
    (
        "keyed-nested-set",
        "S1",
        "root",
        "{items: [{name: a, tags: [x, y]}]}",
        "{items: [{name: a, tags: [z]}]}",
        "{items: [{name: a, tags: [x, y, z]}]}",
    ),
    ("root-null-rhs", "S1", "root", "{num: 1}", "null", "{num: 1}"),
]


@pytest.mark.parametrize(
    ("schema_name", "type_name", "lhs", "rhs", "result"),
    [row[1:] for row in M],
    ids=[row[0] for row in M],
)
def test_spec_merge(schemas, schema_name, type_name, lhs, rhs, result):
    lhs, rhs = v(lhs), v(rhs)
    before = copy.deepcopy((lhs, rhs))
    merged = schemas[schema_name].merge(lhs, rhs, type_name)
    assert merged == v(result)
    assert (lhs, rhs) == before  # inputs untouched


def test_merge_result_order_is_exact(schemas):
    merged = schemas["S1"].merge(v("{set: [c, d, e, f]}"), v("{set: [a, c, e]}"), "root")
    assert merged["set"] == ["a", "c", "d", "e", "f"]
    merged = schemas["S1"].merge(v("{numSet: [1, 2, 3.5]}"), v("{numSet: [1, 2, 3]}"), "root")
    assert [type(x) for x in merged["numSet"]] == [int, int, float, int]


def test_result_shares_no_container(schemas):
    lhs = v("{struct: {a: x, deep: {b: 1}}, labels: {k: v}, items: [{name: a, tags: [t]}]}")
    rhs = v("{set: [q]}")
    merged = schemas["S1"].merge(lhs, rhs, "root")
    merged["struct"]["deep"]["b"] = 99
    merged["labels"]["k"] = "changed"
    merged["items"][0]["tags"].append("u")
    merged["set"].append("r")
    assert lhs == v("{struct: {a: x, deep: {b: 1}}, labels: {k: v}, items: [{name: a, tags: [t]}]}")
    assert rhs == {"set": ["q"]}


@pytest.mark.parametrize(
    ("lhs", "rhs", "result"),
    [
        ("[a, b, b]", "[b]", "[a, b]"),
        ("[b, a, b]", "[c]", "[b, a, b, c]"),
        ("[a, b, a]", "[a, c]", "[a, b, c]"),
    ],
    ids=["spec-example", "kept-in-place", "first-copy-position"],
)
def test_lhs_duplicates(schemas, lhs, rhs, result):
    merged = schemas["S1"].merge({"set": v(lhs)}, {"set": v(rhs)}, "root", allow_duplicates=True)
    assert merged == {"set": v(result)}


def test_lhs_duplicate_keyed_items_replaced_whole(schemas):
    lhs = v("{items: [{name: a, value: x}, {name: a, port: 1}, {name: b}]}")
    rhs = v("{items: [{name: a, port: 2}]}")
    merged = schemas["S1"].merge(lhs, rhs, "root", allow_duplicates=True)
    assert merged == v("{items: [{name: a, port: 2}, {name: b}]}")


def test_invalid_inputs_raise(schemas):
    s = schemas["S1"]
    with pytest.raises(SchemaError) as err:
        s.merge({"num": "x"}, {}, "root")
    assert err.value.diagnostics[0].path == ".num"
    with pytest.raises(SchemaError, match="duplicate entries"):
        s.merge({}, {"set": ["a", "a"]}, "root", allow_duplicates=True)
    with pytest.raises(SchemaError, match="duplicate entries"):
        s.merge({"set": ["a", "a"]}, {}, "root")
    with pytest.raises(SchemaError, match="no type found matching: zz"):
        s.merge({}, {}, "zz")


def test_unions_not_applied_by_merge(schemas):
    merged = schemas["S3"].merge({"one": 1}, {"two": 2}, "union")
    assert merged == {"one": 1, "two": 2}
