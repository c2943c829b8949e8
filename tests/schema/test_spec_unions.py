"""Spec §7.4: union normalization."""

from __future__ import annotations

import pytest
from fixtures.schemas import v

from toskit import SchemaError

U = [
    ("U01", "{one: 1}", "{one: 1}", "{discriminator: One, one: 1}"),
    ("U03", "{one: 1}", "{two: 1}", "{discriminator: TWO, two: 1}"),
    ("U05", "{one: 1, discriminator: One}", "{}", "{}"),
    (
        "U07",
        "{discriminator: One, one: 1}",
        "{discriminator: random, one: 1}",
        "{discriminator: random}",
    ),
    ("U09", "{discriminator: One, one: 1}", "{one: 1}", "{discriminator: One, one: 1}"),
    ("U11", "{one: 1, two: 1}", "{one: 1}", "{discriminator: One, one: 1}"),
    ("U19", "{}", "{discriminator: TWO}", "{discriminator: TWO}"),
    ("null-stays", "{}", "{one: 1, two: null}", "{discriminator: One, one: 1, two: null}"),
    ("letter-no-deduce", "{}", "{a: 1}", "{a: 1}"),
    ("letter-switch", "{a: 1, letter: A}", "{a: 1, b: 2, letter: b}", "{b: 2, letter: b}"),
]


@pytest.mark.parametrize(("old", "new", "result"), [r[1:] for r in U], ids=[r[0] for r in U])
def test_normalize_union(schemas, old, new, result):
    new_value = v(new)
    assert schemas["S3"].normalize_union(v(old), new_value, "union") == v(result)
    assert new_value == v(new)  # the input is not modified


UE = [
    (
        "U13",
        "{one: 1}",
        "{one: 2, two: 1}",
        "multiple fields set without discriminator change: ",
        {"one", "two"},
    ),
    (
        "U15",
        "{}",
        "{one: 1, discriminator: Two}",
        "discriminator (Two) and field changed (one) don't match",
        None,
    ),
    (
        "U17",
        "{one: 1, two: 2}",
        "{one: 2, two: 1}",
        "multiple fields set without discriminator change: ",
        {"one", "two"},
    ),
    (
        "multiple-added",
        "{}",
        "{one: 1, two: 2, discriminator: One}",
        "multiple new fields added: ",
        {"one", "two"},
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "message", "names"), [r[1:] for r in UE], ids=[r[0] for r in UE]
)
def test_normalize_union_conflicts(schemas, old, new, message, names):
    with pytest.raises(SchemaError) as err:
        schemas["S3"].normalize_union(v(old), v(new), "union")
    text = err.value.diagnostics[0].message
    assert str(err.value).startswith(message)
    assert text.startswith(message)
    if names is not None:
        assert set(text[len(message) :].split(", ")) == names


A = [
    ("A01", "{numeric: 1}", "{numeric: 1, string: s}", "{numeric: 1, type: Numeric}"),
    ("A05", "{fieldB: x}", "{fieldA: q, fieldB: x}", "{fieldB: x}"),
    ("A07", "{}", "{numeric: 1, string: s}", "{numeric: 1, string: s}"),
]


@pytest.mark.parametrize(("applied", "merged", "result"), [r[1:] for r in A], ids=[r[0] for r in A])
def test_normalize_union_apply(schemas, applied, merged, result):
    assert schemas["S4"].normalize_union_apply(v(applied), v(merged), "u") == v(result)


@pytest.mark.parametrize(
    ("applied", "message"),
    [
        (
            "{type: Numeric, string: s}",
            "applied discriminator (Numeric) doesn't match applied field (string)",
        ),
        ("{fieldA: a, fieldB: b}", "more than one field of union applied: "),
    ],
    ids=["A03", "two-applied"],
)
def test_normalize_union_apply_conflicts(schemas, applied, message):
    with pytest.raises(SchemaError) as err:
        schemas["S4"].normalize_union_apply(v(applied), v(applied), "u")
    assert err.value.diagnostics[0].message.startswith(message)
    assert err.value.diagnostics[0].code == "union-conflict"


def test_nested_unions_paired_by_path():
    from toskit import schema

    s = schema.load(
        """
types:
- name: outer
  map:
    fields:
    - {name: inner, type: {namedType: u}}
    - {name: list, type: {list: {elementType: {namedType: u}, elementRelationship: associative, keys: [id]}}}
- name: u
  map:
    fields:
    - {name: id, type: {scalar: string}}
    - {name: kind, type: {scalar: string}}
    - {name: x, type: {scalar: numeric}}
    - {name: y, type: {scalar: numeric}}
    unions:
    - {discriminator: kind, deduceInvalidDiscriminator: true, fields: [{fieldName: x, discriminatorValue: X}, {fieldName: y, discriminatorValue: Y}]}
"""
    )
    old = v("{inner: {x: 1}, list: [{id: a, x: 1}, {id: b, y: 1}]}")
    new = v("{inner: {x: 1}, list: [{id: b, y: 2}, {id: a, x: 1, y: 1, kind: Y}]}")
    got = s.normalize_union(old, new, "outer")
    assert got == v(
        "{inner: {x: 1, kind: X}, list: [{id: b, y: 2, kind: Y}, {id: a, y: 1, kind: Y}]}"
    )
    with pytest.raises(SchemaError) as err:
        s.normalize_union(v("{inner: {x: 1}}"), v("{inner: {x: 1, y: 2}}"), "outer")
    assert err.value.diagnostics[0].path == ".inner"


def test_invalid_union_input(schemas):
    with pytest.raises(SchemaError):
        schemas["S3"].normalize_union({}, {"one": "x"}, "union")
