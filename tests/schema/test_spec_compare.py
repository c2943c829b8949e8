"""Spec §7.3: compare, field sets, remove, extract."""

from __future__ import annotations

import pytest
from fixtures.schemas import v

from toskit import SchemaError
from toskit.schema import Comparison

C = [
    ("C01", "{num: 1, str: x}", "{num: 2, bool: true}", {".bool"}, {".str"}, {".num"}),
    ("C03", "{atomicList: [a, b]}", "{atomicList: [b, a]}", set(), set(), {".atomicList"}),
    ("C05", "{set: [a, b]}", "{set: [b, a]}", set(), set(), set()),
    (
        "C08",
        "{struct: {deep: {a: x}}}",
        "{}",
        set(),
        {".struct", ".struct.deep", ".struct.deep.a"},
        set(),
    ),
    ("int-float-same", "{num: 1, numSet: [2]}", "{num: 1.0, numSet: [2.0]}", set(), set(), set()),
    ("set-items-leaves", "{set: [a, b]}", "{set: [b, c]}", {'.set[="c"]'}, {'.set[="a"]'}, set()),
    (
        "keyed-item-added",
        "{items: [{name: a}]}",
        "{items: [{name: a}, {name: b, value: x}]}",
        {'.items[name="b"]', '.items[name="b"].name', '.items[name="b"].value'},
        set(),
        set(),
    ),
    (
        "keyed-item-field",
        "{items: [{name: a, value: x}]}",
        "{items: [{name: a, value: y}]}",
        set(),
        set(),
        {'.items[name="a"].value'},
    ),
    (
        "keyed-order-only",
        "{items: [{name: a}, {name: b}]}",
        "{items: [{name: b}, {name: a}]}",
        set(),
        set(),
        set(),
    ),
    ("map-to-null", "{struct: {a: x}}", "{struct: null}", set(), {".struct", ".struct.a"}, set()),
    ("null-to-map", "{labels: null}", "{labels: {k: v}}", {".labels", ".labels.k"}, set(), set()),
    ("null-vs-empty", "{labels: null}", "{labels: {}}", set(), set(), {".labels"}),
    ("atomic-map", "{atomicMap: {a: x}}", "{atomicMap: {a: y}}", set(), set(), {".atomicMap"}),
    (
        "atomic-map-same",
        "{atomicMap: {a: x, b: y}}",
        "{atomicMap: {b: y, a: x}}",
        set(),
        set(),
        set(),
    ),
    ("scalar-to-null", "{num: 1}", "{num: null}", set(), set(), {".num"}),
    (
        "plain-list-order",
        "{plainList: [a, b]}",
        "{plainList: [b, a]}",
        set(),
        set(),
        {".plainList"},
    ),
    (
        "default-key",
        "{ports: [{containerPort: 80}]}",
        "{ports: [{containerPort: 80, protocol: TCP}]}",
        {'.ports[containerPort=80,protocol="TCP"].protocol'},
        set(),
        set(),
    ),
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
    (
        "T01",
        "{num: 1, struct: {a: x, deep: {b: 2}}, labels: {k: v}}",
        {".labels.k", ".num", ".struct.a", ".struct.deep.b"},
    ),
    (
        "T03",
        "{struct: {}, labels: null, atomicMap: {a: b}, atomicStruct: {a: x}}",
        {".atomicMap", ".atomicStruct", ".labels", ".struct"},
    ),
    (
        "T04",
        "{ports: [{containerPort: 80}]}",
        {
            '.ports[containerPort=80,protocol="TCP"]',
            '.ports[containerPort=80,protocol="TCP"].containerPort',
        },
    ),
    ("null-scalar", "{num: null}", {".num"}),
    ("empty-assoc", "{items: [], set: []}", set()),
    ("set-items", "{set: [a, b]}", {'.set[="a"]', '.set[="b"]'}),
    (
        "keyed-items",
        "{items: [{name: a, tags: [t]}]}",
        {'.items[name="a"]', '.items[name="a"].name', '.items[name="a"].tags[="t"]'},
    ),
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
    (
        "R01",
        "{num: 1, str: x, struct: {a: x, b: 1}}",
        [".str", ".struct.a"],
        "{num: 1, struct: {b: 1}}",
    ),
    (
        "R02",
        "{items: [{name: a, value: x}, {name: b, value: p}]}",
        ['.items[name="a"]'],
        "{items: [{name: b, value: p}]}",
    ),
    ("R05", "{struct: {a: x}}", [".struct.a"], "{struct: null}"),
    ("root-becomes-null", "{num: 1}", [".num"], "null"),
    ("set-item", "{set: [a, b]}", ['.set[="a"]'], "{set: [b]}"),
    ("set-emptied", "{set: [a]}", ['.set[="a"]'], "{set: null}"),
    (
        "inside-atomic",
        "{atomicStruct: {a: x}, atomicList: [a]}",
        [".atomicStruct.a", ".atomicList[0]"],
        "{atomicStruct: {a: x}, atomicList: [a]}",
    ),
    (
        "default-key",
        "{ports: [{containerPort: 80}, {containerPort: 81}]}",
        ['.ports[containerPort=80,protocol="TCP"]'],
        "{ports: [{containerPort: 81}]}",
    ),
    ("float-spelling", "{numSet: [1.0, 2]}", ["[=1]", ".numSet[=1]"], "{numSet: [2]}"),
    (
        "inside-keyed-item",
        "{items: [{name: a, value: x, port: 1}]}",
        ['.items[name="a"].value'],
        "{items: [{name: a, port: 1}]}",
    ),
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
    (
        "X01",
        "{num: 1, str: x, items: [{name: a, value: x, port: 1}, {name: b}]}",
        [".str", '.items[name="a"].port'],
        False,
        "{str: x, items: [{port: 1}]}",
    ),
    (
        "X01-keys",
        "{num: 1, str: x, items: [{name: a, value: x, port: 1}, {name: b}]}",
        [".str", '.items[name="a"].port'],
        True,
        "{str: x, items: [{name: a, port: 1}]}",
    ),
    (
        "whole-node",
        "{struct: {a: x, deep: {b: 1}}, num: 2}",
        [".struct"],
        False,
        "{struct: {a: x, deep: {b: 1}}}",
    ),
    ("nothing", "{num: 1}", [".zzz"], False, "null"),
    ("set-item", "{set: [a, b]}", ['.set[="b"]'], False, "{set: [b]}"),
    (
        "inside-atomic",
        "{atomicStruct: {a: x, b: 1}}",
        [".atomicStruct.a"],
        False,
        "{atomicStruct: {a: x, b: 1}}",
    ),
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
    "bad",
    ["num", ".items[name=]", '.items[name="a"', "[=x]", ".a[k=1,]", 5],
    ids=["no-dot", "no-value", "unclosed", "bad-json", "trailing-comma", "not-a-string"],
)
def test_bad_paths(schemas, bad):
    with pytest.raises(SchemaError) as err:
        schemas["S1"].remove({"num": 1}, [bad], "root")
    assert err.value.diagnostics[0].message


# -- structured-merge-diff's own tables --------------------------------------------
#
# Checked against kubernetes-sigs/structured-merge-diff `typed/symdiff_test.go`
# (commit a1f0e958d663e4fb0e3314048dec9be424b53d96, the version whose
# `symdiffTestCase.test` parses both sides with `typed.AllowDuplicates`): the
# "associative list" schema (`myRoot`, keys [key, id]) and the rows with
# repeated items below. SMD checks each row both ways (removed <-> added);
# so do we. The root rows are issue #21's (schema `r`); SMD never reports the
# root path of a map value.

SMD_ROOT = """\
types:
- name: myRoot
  map:
    fields:
    - {name: list, type: {namedType: myList}}
    - {name: atomicList, type: {namedType: mySequence}}
- name: myList
  list: {elementType: {namedType: myElement}, elementRelationship: associative, keys: [key, id]}
- name: mySequence
  list: {elementType: {scalar: string}, elementRelationship: atomic}
- name: myElement
  map:
    fields:
    - {name: key, type: {scalar: string}}
    - {name: id, type: {scalar: numeric}}
    - {name: value, type: {namedType: myValue}}
    - {name: bv, type: {scalar: boolean}}
    - {name: nv, type: {scalar: numeric}}
- name: myValue
  map: {elementType: {scalar: string}}
- name: setRoot
  map:
    fields:
    - {name: setStr, type: {list: {elementType: {scalar: string}, elementRelationship: associative}}}
    - {name: setBool, type: {list: {elementType: {scalar: boolean}, elementRelationship: associative}}}
    - {name: setNumeric, type: {list: {elementType: {scalar: numeric}, elementRelationship: associative}}}
"""

A1 = '.list[id=1,key="a"]'
A2 = '.list[id=2,key="a"]'
B1 = '.list[id=1,key="b"]'

SMD = [
    # (id, type, lhs, rhs, added, removed, modified)
    (
        "assoc-add-list",
        "myRoot",
        "{}",
        "{list: [{key: a, id: 1, value: {a: a}}]}",
        {".list", A1, A1 + ".key", A1 + ".id", A1 + ".value", A1 + ".value.a"},
        set(),
        set(),
    ),
    (
        "assoc-same",
        "myRoot",
        "{list: [{key: a, id: 1, value: {a: a}}]}",
        "{list: [{key: a, id: 1, value: {a: a}}]}",
        set(),
        set(),
        set(),
    ),
    (
        "assoc-deep-modified",
        "myRoot",
        "{list: [{key: a, id: 1, value: {a: a}}]}",
        "{list: [{key: a, id: 1, value: {a: b}}]}",
        set(),
        set(),
        {A1 + ".value.a"},
    ),
    (
        "assoc-key-changed",
        "myRoot",
        "{list: [{key: a, id: 1}, {key: b, id: 1}]}",
        "{list: [{key: a, id: 1}, {key: a, id: 2}]}",
        {A2, A2 + ".key", A2 + ".id"},
        {B1, B1 + ".key", B1 + ".id"},
        set(),
    ),
    (
        "atomic-list-to-null",
        "myRoot",
        "{atomicList: [a, a, a]}",
        "{atomicList: null}",
        set(),
        set(),
        {".atomicList"},
    ),
    (
        "atomic-list-shorter",
        "myRoot",
        "{atomicList: [a, a, a]}",
        "{atomicList: [a, a]}",
        set(),
        set(),
        {".atomicList"},
    ),
    # Repeated items (AllowDuplicates): a repeated item is one atomic entry.
    (
        "dup-becomes-single",
        "myRoot",
        "{list: [{key: a, id: 1, nv: 2}, {key: b, id: 1}, {key: a, id: 1, bv: true}]}",
        "{list: [{key: a, id: 1}, {key: a, id: 2}]}",
        {A1, A1 + ".key", A1 + ".id", A2, A2 + ".key", A2 + ".id"},
        {B1, B1 + ".key", B1 + ".id", A1},
        set(),
    ),
    (
        "dup-content-changed",
        "myRoot",
        "{list: [{key: a, id: 1}, {key: b, id: 1}, {key: a, id: 1, bv: true}]}",
        "{list: [{key: a, id: 1}, {key: b, id: 1}, {key: a, id: 1, bv: true, nv: 1}]}",
        set(),
        set(),
        {A1},
    ),
    (
        "dup-unchanged",
        "myRoot",
        "{list: [{key: a, id: 1}, {key: b, id: 1}, {key: a, id: 1, bv: true}]}",
        "{list: [{key: a, id: 1}, {key: b, id: 1}, {key: a, id: 1, bv: true}]}",
        set(),
        set(),
        set(),
    ),
    (
        "dup-beside-changed-single",
        "myRoot",
        "{list: [{key: a, id: 1}, {key: b, id: 1}, {key: a, id: 1, bv: true}]}",
        "{list: [{key: a, id: 1}, {key: b, id: 1, bv: true}, {key: a, id: 1, bv: true}]}",
        {B1 + ".bv"},
        set(),
        set(),
    ),
    (
        "dup-unrelated-field",
        "myRoot",
        "{list: [{key: a, id: 1}, {key: b, id: 1}, {key: a, id: 1, bv: true}]}",
        "{list: [{key: a, id: 1}, {key: b, id: 1}, {key: a, id: 1, bv: true}], atomicList: [unrelated]}",
        {".atomicList"},
        set(),
        set(),
    ),
    (
        "dup-set-emptied",
        "setRoot",
        "{setStr: [a, b, b, c, a]}",
        "{setStr: []}",
        set(),
        {'.setStr[="a"]', '.setStr[="b"]', '.setStr[="c"]'},
        set(),
    ),
    (
        "dup-set-bool",
        "setRoot",
        "{setBool: [true, true]}",
        "{setBool: [false]}",
        {".setBool[=false]"},
        {".setBool[=true]"},
        set(),
    ),
    (
        "dup-set-numeric",
        "setRoot",
        "{setNumeric: [1, 2, 2, 3.14159, 1]}",
        "{setNumeric: [1, 2, 3]}",
        {".setNumeric[=1]", ".setNumeric[=2]", ".setNumeric[=3]"},
        {".setNumeric[=1]", ".setNumeric[=2]", ".setNumeric[=3.14159]"},
        set(),
    ),
]


@pytest.fixture(scope="module")
def smd_schema():
    from toskit import schema

    return schema.load(SMD_ROOT)


@pytest.mark.parametrize(
    ("name", "lhs", "rhs", "added", "removed", "modified"),
    [r[1:] for r in SMD],
    ids=[r[0] for r in SMD],
)
def test_smd_symdiff_table(smd_schema, name, lhs, rhs, added, removed, modified):
    got = smd_schema.compare(v(lhs), v(rhs), name, allow_duplicates=True)
    assert (set(got.added), set(got.removed), set(got.modified)) == (added, removed, modified)
    back = smd_schema.compare(v(rhs), v(lhs), name, allow_duplicates=True)
    assert (set(back.added), set(back.removed), set(back.modified)) == (removed, added, modified)


ISSUE_SCHEMA = """\
types:
- name: r
  map:
    fields:
    - {name: a, type: {scalar: string}}
    - {name: list, type: {list: {elementType: {namedType: it}, elementRelationship: associative, keys: [name]}}}
- name: it
  map:
    fields:
    - {name: name, type: {scalar: string}}
    - {name: v, type: {scalar: numeric}}
"""


def test_root_path_is_never_reported():
    from toskit import schema

    s = schema.load(ISSUE_SCHEMA)
    c = s.compare(None, {"a": "x"}, "r")
    assert (c.added, c.removed, c.modified) == ({".a"}, set(), set())
    assert s.compare(None, {}, "r").is_same
    assert s.compare({}, None, "r").is_same
    c = s.compare({"a": "x"}, None, "r")
    assert (c.added, c.removed, c.modified) == (set(), {".a"}, set())


def test_scalar_root_keeps_its_change():
    from toskit import schema

    s = schema.load("types: [{name: n, scalar: numeric}]")
    assert s.compare(1, 2, "n").modified == {""}
    assert s.compare(1, 1.0, "n").is_same


@pytest.mark.parametrize("lhs", [{}, None, {"list": []}], ids=["empty-map", "null", "empty-list"])
def test_duplicates_added_are_one_entry(lhs):
    """Issue #21: SMD (and spec §4.1) give `{.list, .list[name="a"]}` -- nothing
    below the repeated item; with `list: []` on the left only the item."""
    from toskit import schema

    s = schema.load(ISSUE_SCHEMA)
    rhs = {"list": [{"name": "a", "v": 1}, {"name": "a", "v": 2}]}
    c = s.compare(lhs, rhs, "r", allow_duplicates=True)
    expected = {'.list[name="a"]'} if lhs == {"list": []} else {".list", '.list[name="a"]'}
    assert (c.added, c.removed, c.modified) == (expected, set(), set())
    back = s.compare(rhs, lhs, "r", allow_duplicates=True)
    assert (back.added, back.removed) == (set(), expected)


# -- remove and extract with repeated items -----------------------------------------

DUPS = "{items: [{name: a, value: x}, {name: a, value: y}, {name: b, value: p}], num: 1}"


def test_remove_and_extract_refuse_duplicates_by_default(schemas):
    with pytest.raises(SchemaError, match="duplicate entries"):
        schemas["S1"].remove(v(DUPS), [".num"], "root")
    with pytest.raises(SchemaError, match="duplicate entries"):
        schemas["S1"].extract(v(DUPS), [".num"], "root")


RD = [
    (
        "other-field",
        [".num"],
        "{items: [{name: a, value: x}, {name: a, value: y}, {name: b, value: p}]}",
    ),
    ("repeated-item", ['.items[name="a"]'], "{items: [{name: b, value: p}], num: 1}"),
    ("inside-repeated-item", ['.items[name="a"].value'], DUPS),
    (
        "inside-single-item",
        ['.items[name="b"].value'],
        "{items: [{name: a, value: x}, {name: a, value: y}, {name: b}], num: 1}",
    ),
]


@pytest.mark.parametrize(("paths", "result"), [r[1:] for r in RD], ids=[r[0] for r in RD])
def test_remove_allow_duplicates(schemas, paths, result):
    got = schemas["S1"].remove(v(DUPS), paths, "root", allow_duplicates=True)
    assert got == v(result)


XD = [
    ("repeated-item", ['.items[name="a"]'], "{items: [{name: a, value: x}, {name: a, value: y}]}"),
    (
        "inside-repeated-item",
        ['.items[name="a"].value'],
        "{items: [{name: a, value: x}, {name: a, value: y}]}",
    ),
    ("single-item-field", ['.items[name="b"].value'], "{items: [{value: p}]}"),
]


@pytest.mark.parametrize(("paths", "result"), [r[1:] for r in XD], ids=[r[0] for r in XD])
def test_extract_allow_duplicates(schemas, paths, result):
    got = schemas["S1"].extract(v(DUPS), paths, "root", allow_duplicates=True)
    assert got == v(result)


def test_fieldset_remove_roundtrip_with_duplicates(schemas):
    s = schemas["S1"]
    value = v(DUPS)
    fields = s.to_fieldset(value, "root", allow_duplicates=True)
    assert s.remove(value, fields, "root", allow_duplicates=True) == v("{items: null}")
    assert s.extract(value, fields, "root", allow_duplicates=True) == value


# -- old and new values of each changed path (the comparison view shows them) -------


def test_comparison_records_old_and_new_values(schemas):
    from toskit.schema import ABSENT

    c = schemas["S1"].compare(
        v("{num: 1, str: x, struct: {a: q}}"), v("{num: 2, bool: true, struct: {a: q}}"), "root"
    )
    assert c.old_new(".num") == (1, 2)
    assert c.old_new(".str") == ("x", ABSENT)
    assert c.old_new(".bool") == (ABSENT, True)
    assert c.old_new(".struct.a") == (ABSENT, ABSENT)  # unchanged: nothing recorded
    assert c.rows(values=True) == [
        {"path": ".bool", "change": "added", "old": None, "new": True},
        {"path": ".num", "change": "modified", "old": 1, "new": 2},
        {"path": ".str", "change": "removed", "old": "x", "new": None},
    ]
    assert c.rows() == [{"path": r["path"], "change": r["change"]} for r in c.rows(values=True)]
    frame = c.to_frame()
    assert list(frame.columns) == ["path", "change", "old", "new"]
    # Equality is by paths only, as before values were recorded.
    assert c == Comparison(c.added, c.removed, c.modified)


def test_comparison_values_of_repeated_items(smd_schema):
    c = smd_schema.compare(
        v("{list: [{key: a, id: 1, nv: 2}, {key: a, id: 1, bv: true}]}"),
        v("{list: [{key: a, id: 1}]}"),
        "myRoot",
        allow_duplicates=True,
    )
    old, new = c.old_new(A1)
    assert old == [{"key": "a", "id": 1, "nv": 2}, {"key": "a", "id": 1, "bv": True}]
    assert new == {"key": "a", "id": 1}


def test_comparison_view_shows_old_to_new(schemas):
    from toskit.display.schema_views import comparison_html

    c = schemas["S1"].compare(v("{num: 1, str: '<x>'}"), v("{num: 2, bool: true}"), "root")
    html = comparison_html(c)
    view = html[html.index('<div class="toskit-wrap') :]
    assert "~ .num</span>" in view and ': <span class="toskit-value-old">1</span> → ' in view
    assert '<span class="toskit-value-new">2</span>' in view
    assert "&lt;x&gt;" in view and "<x>" not in view  # escaped
    assert '<span class="toskit-value-new">true</span>' in view


# -- properties of compare with repeated items (hypothesis) ---------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hst  # noqa: E402

_ITEMS = hst.lists(
    hst.fixed_dictionaries(
        {"key": hst.sampled_from(["a", "b"]), "id": hst.sampled_from([1, 2])},
        optional={"nv": hst.sampled_from([1, 2]), "bv": hst.booleans()},
    ),
    max_size=4,
)
_SIDE = hst.one_of(
    hst.none(), hst.fixed_dictionaries({}, optional={"list": hst.one_of(hst.none(), _ITEMS)})
)


@settings(max_examples=200, deadline=None)
@given(lhs=_SIDE, rhs=_SIDE)
def test_compare_with_duplicates_is_symmetric(smd_schema, lhs, rhs):
    c = smd_schema.compare(lhs, rhs, "myRoot", allow_duplicates=True)
    back = smd_schema.compare(rhs, lhs, "myRoot", allow_duplicates=True)
    assert (back.added, back.removed, back.modified) == (c.removed, c.added, c.modified)
    assert smd_schema.compare(lhs, lhs, "myRoot", allow_duplicates=True).is_same
    assert "" not in c.added | c.removed | c.modified
    # Nothing is reported below an item that is repeated on the side it comes from.
    for side, paths in ((lhs, c.removed), (rhs, c.added)):
        items = (side or {}).get("list") or []
        counts: dict = {}
        for item in items:
            counts[(item["key"], item["id"])] = counts.get((item["key"], item["id"]), 0) + 1
        for (key, ident), n in counts.items():
            if n > 1:
                below = f'.list[id={ident},key="{key}"].'
                assert not [p for p in paths if p.startswith(below)]
