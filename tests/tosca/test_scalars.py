"""TOSCA 2.0 user-defined scalar types (derived_from: scalar)."""

from __future__ import annotations

import pytest

import toskit

BITRATE = """
  Bitrate:
    derived_from: scalar
    data_type: integer
    units: {bits/s: 1, kbits/s: 1000, Mbits/s: 1000000}
  Mass:
    derived_from: scalar
    units: {g: 1}
    prefixes: {"": 1, k: 1000, m: 0.001}
  Positive:
    derived_from: integer
    validation: {$greater_or_equal: [$value, 1]}
  PositiveRate:
    derived_from: scalar
    data_type: Positive
    units: {bps: 1}
"""


def load(
    data_types: str, value: str | None = None, prop_type: str = "Bitrate"
) -> toskit.ServiceTemplate:
    text = "tosca_definitions_version: tosca_2_0\ndata_types:\n" + data_types.strip("\n") + "\n"
    if value is not None:
        text += (
            f"node_types:\n  T:\n    properties:\n      p: {{type: {prop_type}}}\n"
            f"service_template:\n  node_templates:\n    n:\n      type: T\n      properties:\n        p: {value}\n"
        )
    return toskit.loads(text)


def errors(st: toskit.ServiceTemplate) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in st.diagnostics if d.severity == "error"]


@pytest.mark.parametrize(
    ("value", "prop_type"),
    [
        ("3 kbits/s", "Bitrate"),
        ("2 kg", "Mass"),
        ("0.5 mg", "Mass"),
        ("2.5 g", "Mass"),
        ("5 bps", "PositiveRate"),
    ],
)
def test_good_values(value: str, prop_type: str) -> None:
    st = load(BITRATE, value, prop_type)
    assert errors(st) == []
    assert st.node_templates["n"].properties["p"] == value


@pytest.mark.parametrize(
    ("value", "prop_type", "words"),
    [
        ("1.5 Mbits/s", "Bitrate", "whole numbers"),
        ("3 Gbits/s", "Bitrate", "unknown unit 'Gbits/s'"),
        ("3", "Bitrate", "'<number> <unit>'"),
        ("kg", "Mass", "'<number> <unit>'"),
        ("0 bps", "PositiveRate", "fails the validation clause"),
    ],
)
def test_bad_values(value: str, prop_type: str, words: str) -> None:
    st = load(BITRATE, value, prop_type)
    found = [d for d in st.diagnostics if d.severity == "error"]
    assert len(found) == 1 and words in found[0].message, [str(d) for d in found]
    assert found[0].path == "service_template.node_templates.n.properties.p"


@pytest.mark.parametrize(
    ("definition", "path", "words"),
    [
        ("  S: {derived_from: scalar}", "data_types.S", "needs 'units'"),
        (
            "  S: {derived_from: scalar, units: {a: 1, b: one}}",
            "data_types.S.units.b",
            "positive number",
        ),
        ("  S: {derived_from: scalar, units: {a: 2, b: 3}}", "data_types.S.units", "multiplier 1"),
        (
            "  S: {derived_from: scalar, units: {a: 1, b: 1}}",
            "data_types.S.units",
            "canonical_unit",
        ),
        (
            "  S: {derived_from: scalar, units: {a: 1}, canonical_unit: b}",
            "data_types.S.canonical_unit",
            "not one of",
        ),
        (
            "  S: {derived_from: scalar, units: {a: 1, ka: 1000}, canonical_unit: ka}",
            "data_types.S.canonical_unit",
            "multiplier 1",
        ),
        (
            "  S: {derived_from: scalar, units: {a: 1}, prefixes: {k: 1000}}",
            "data_types.S.prefixes",
            "multiplier 1",
        ),
        (
            "  S: {derived_from: scalar, units: {a: 1}, data_type: string}",
            "data_types.S.data_type",
            "integer or float",
        ),
        (
            "  S: {derived_from: string, units: {a: 1}}",
            "data_types.S.units",
            "does not derive from 'scalar'",
        ),
        ("  S: {units: {a: 1}}", "data_types.S.units", "does not derive from 'scalar'"),
        (
            "  S: {derived_from: scalar, units: {g: 1}}\n  T: {derived_from: S, data_type: integer}",
            "data_types.T.data_type",
            "not compatible",
        ),
    ],
    ids=[
        "no-units",
        "multiplier-not-number",
        "no-unit-one",
        "ambiguous-canonical",
        "canonical-unknown",
        "canonical-not-one",
        "no-prefix-one",
        "data-type-string",
        "parent-not-scalar",
        "no-parent",
        "float-to-integer",
    ],
)
def test_bad_definitions(definition: str, path: str, words: str) -> None:
    st = load(definition)
    found = [d for d in st.diagnostics if d.severity == "error"]
    assert [d.path for d in found] == [path], [str(d) for d in found]
    assert words in found[0].message
    assert found[0].line is not None


def test_unknown_data_type_and_abstract_scalar_property() -> None:
    st = load("  S: {derived_from: scalar, units: {a: 1}, data_type: Nope}")
    assert errors(st) == [("unknown-type", "data_types.S.data_type")]
    abstract = toskit.loads(
        "tosca_definitions_version: tosca_2_0\nnode_types:\n  T:\n    properties:\n"
        "      u: {type: scalar}\n      l: {type: list, entry_schema: scalar}\n"
    )
    assert errors(abstract) == [
        ("invalid-definition", "node_types.T.properties.u"),
        ("invalid-definition", "node_types.T.properties.l"),
    ]


# The OASIS conformance case scalar/scalar-derive.yaml, cut to what matters:
# a scalar type derived from another, limited by a validation clause written
# in the parent's units. ``$value`` is read in the declared type, so grams
# and kilograms compare by amount (issue 15: 500 g was rejected).
MASS_LIMITED = """
tosca_definitions_version: tosca_2_0
data_types:
  Mass:
    derived_from: scalar
    units: { g: 1 }
    prefixes: { "": 1.0, k: 1000 }
  Mass_limited:
    derived_from: Mass
    validation: { $less_or_equal: [$value, 10 kg] }
node_types:
  Box:
    properties:
      weight: { type: Mass_limited }
service_template:
  node_templates:
    box: { type: Box, properties: { weight: %s } }
"""


@pytest.mark.parametrize(
    ("weight", "valid"),
    [
        ("500 g", True),
        ("9 kg", True),
        ("10 kg", True),
        ("10000 g", True),
        ("10001 g", False),
        ("11 kg", False),
    ],
)
def test_derived_scalar_validation_compares_in_the_declared_units(weight: str, valid: bool) -> None:
    st = toskit.loads(MASS_LIMITED % weight)
    codes = [d.code for d in st.diagnostics]
    assert codes == ([] if valid else ["validation-failed"])
    assert st.node_templates["box"].properties["weight"] == weight


def test_scalar_comparison_in_a_clause_reads_both_sides_in_the_type() -> None:
    # 9 g < 1 kg: both literals of a declared scalar type compare by amount.
    text = MASS_LIMITED.replace(
        "$less_or_equal: [$value, 10 kg]",
        "$and: [{$less_than: [$value, 1 kg]}, {$greater_than: [$value, 1 g]}]",
    )
    assert toskit.loads(text % "9 g").ok
    assert [d.code for d in toskit.loads(text % "2 kg").diagnostics] == ["validation-failed"]


def test_the_loaded_template_offers_the_scalar_class_hook() -> None:
    from toskit.functions import TemplateContext
    from toskit.tosca.model.graph import TemplateGraph

    # A missing hook is a type error: the protocol declares it, the loader's context has it.
    assert "scalar_class" in TemplateContext.__dict__
    assert callable(getattr(TemplateGraph, "scalar_class", None))
