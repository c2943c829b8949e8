"""YAML 1.2 core-schema scalars as TOSCA reads them (spec/tosca.md §1)."""

import math

import pytest

from toskit.source import load_yaml

CASES = [
    # (id, YAML scalar as written, expected Python value)
    ("true", "true", True),
    ("false", "false", False),
    ("True", "True", True),
    ("FALSE", "FALSE", False),
    ("tRuE-any-case", "tRuE", True),
    ("yes-stays-string", "yes", "yes"),
    ("no-stays-string", "no", "no"),
    ("on-stays-string", "on", "on"),
    ("Off-stays-string", "Off", "Off"),
    ("y-stays-string", "y", "y"),
    ("int", "42", 42),
    ("negative-int", "-17", -17),
    ("plus-int", "+3", 3),
    ("zero", "0", 0),
    ("octal-0o17", "0o17", 15),
    ("hex-0x1F", "0x1F", 31),
    ("hex-lower", "0xff", 255),
    ("leading-zero-017-string", "017", "017"),
    ("underscore-1_000-string", "1_000", "1_000"),
    ("sexagesimal-1:20-string", "1:20", "1:20"),
    ("binary-0b1-string", "0b101", "0b101"),
    ("signed-hex-string", "-0x1F", "-0x1F"),
    ("float", "1.5", 1.5),
    ("float-leading-dot", ".5", 0.5),
    ("float-trailing-dot", "1.", 1.0),
    ("float-exponent", "1e3", 1000.0),
    ("float-neg-exponent", "-2.5E-3", -0.0025),
    ("inf", ".inf", math.inf),
    ("neg-Inf", "-.Inf", -math.inf),
    ("plus-INF", "+.INF", math.inf),
    ("null-word", "null", None),
    ("Null", "Null", None),
    ("NULL", "NULL", None),
    ("tilde", "~", None),
    ("nil-stays-string", "nil", "nil"),
    ("date-stays-string", "2024-01-31", "2024-01-31"),
    ("datetime-stays-string", "2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
    ("version-string", "1.2.3", "1.2.3"),
    ("ip-string", "192.168.15.85", "192.168.15.85"),
    ("scalar-unit-string", "2 GB", "2 GB"),
    ("quoted-true", '"true"', "true"),
    ("quoted-int", "'12'", "12"),
    ("quoted-null", '"null"', "null"),
    ("non-specific-tag", "! 12", "12"),
    ("tag-str", "!!str 12", "12"),
    ("tag-int", '!!int "12"', 12),
    ("tag-int-leading-zero", "!!int 017", 17),
    ("tag-float", "!!float 1", 1.0),
    ("tag-bool", "!!bool TRUE", True),
    ("tag-null", "!!null ''", None),
    ("tag-timestamp", "!!timestamp 2024-01-31", "2024-01-31"),
    ("block-literal", "|\n  two\n  lines", "two\nlines\n"),
]


@pytest.mark.parametrize(("written", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_scalar_resolution(parser, written, expected):
    doc = load_yaml(f"v: {written}\n", parser=parser)
    assert doc.diagnostics == []
    value = doc.value["v"]
    assert value == expected
    assert type(value) is type(expected)


def test_nan(parser):
    doc = load_yaml("a: .nan\nb: .NaN\nc: .NAN\n", parser=parser)
    assert all(math.isnan(v) for v in doc.value.values())


def test_empty_value_is_null(parser):
    assert load_yaml("a:\nb: ''\n", parser=parser).value == {"a": None, "b": ""}


def test_keys_are_resolved_too(parser):
    doc = load_yaml("2: int\ntrue: bool\nnull: none\n0x10: hex\nyes: word\n", parser=parser)
    assert doc.value == {2: "int", True: "bool", None: "none", 16: "hex", "yes": "word"}


@pytest.mark.parametrize(
    ("written", "fragment"),
    [
        ("!!int abc", "'abc' is not an integer"),
        ("!!float x", "'x' is not a float"),
        ("!!bool yes", "'yes' is not a boolean"),
        ("!!null 0", "'0' is not null"),
    ],
    ids=["int", "float", "bool", "null"],
)
def test_bad_tagged_scalar_is_yaml_syntax(parser, written, fragment):
    doc = load_yaml(f"v: {written}\n", parser=parser)
    assert doc.value is None
    (diag,) = doc.diagnostics
    assert (diag.code, diag.line, diag.column) == ("yaml-syntax", 1, 4)
    assert fragment in diag.message


def test_huge_integer_is_limit_exceeded_not_a_crash(parser):
    doc = load_yaml("v: " + "9" * 5000 + "\n", parser=parser)
    assert doc.value is None
    assert [d.code for d in doc.diagnostics] == ["limit-exceeded"]
