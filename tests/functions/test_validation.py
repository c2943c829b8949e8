"""Validation clauses (§1.4, §7), 1.x constraints (§4.4) and the loader's check helper."""

from __future__ import annotations

import pytest
import yaml

import toskit
from toskit.functions import (
    Call,
    FunctionError,
    check_value,
    constraint_clause,
    evaluate,
    parse,
    validate,
)
from toskit.functions.memory import MemoryTemplate


def clause(text: str):
    return parse(yaml.safe_load(text))


def test_v21_property_clause() -> None:
    c = clause("{ $greater_or_equal: [ $value, 0 ] }")
    assert validate(c, 5) is None
    with pytest.raises(FunctionError) as info:
        validate(c, -1)
    assert info.value.kind == "ValidationFailed"
    assert "-1" in str(info.value) and "$greater_or_equal: [$value, 0]" in str(info.value)


def test_v23_data_type_clause_with_value_steps() -> None:
    c = clause("{ $greater_or_equal: [ { $value: [ high ] }, { $value: [ low ] } ] }")
    assert validate(c, {"low": 1.0, "high": 2.0}) is None
    with pytest.raises(FunctionError) as info:
        validate(c, {"low": 2.0, "high": 1.0})
    assert info.value.kind == "ValidationFailed"


def test_v25_clause_reading_sibling_properties() -> None:
    tpl = MemoryTemplate()
    node = tpl.add_node("cluster", {"min_instances": 1, "max_instances": 5, "default_instances": 7})
    c = clause(
        "{ $and: [ { $greater_or_equal: [ $value, { $get_property: [ SELF, min_instances ] } ] },"
        " { $less_or_equal: [ $value, { $get_property: [ SELF, max_instances ] } ] } ] }"
    )
    assert validate(c, 3, context=tpl, self_entity=node) is None
    with pytest.raises(FunctionError) as info:
        validate(c, 7, context=tpl, self_entity=node)
    assert info.value.kind == "ValidationFailed"
    diags = check_value(
        7,
        validations=[c],
        context=tpl,
        self_entity=node,
        path=("node_templates", "cluster", "properties", "default_instances"),
    )
    assert [d.code for d in diags] == ["validation-failed"]
    assert diags[0].path == "node_templates.cluster.properties.default_instances"


def test_not_boolean() -> None:
    with pytest.raises(FunctionError) as info:
        validate(clause("{ $sum: [ $value, 1 ] }"), 1)
    assert info.value.kind == "ValidationNotBoolean"
    with pytest.raises(FunctionError) as info:
        validate("yes", 1)
    assert info.value.kind == "ValidationNotBoolean"


def test_errors_inside_the_clause_keep_their_kind() -> None:
    with pytest.raises(FunctionError) as info:
        validate(clause("{ $greater_than: [ $value, 1 ] }"), "abc")
    assert info.value.kind == "TypeMismatch"


def test_literal_true_clause_and_bare_value() -> None:
    assert validate(True, 1) is None
    assert validate(parse("$value"), True) is None
    with pytest.raises(FunctionError):
        validate(parse("$value"), False)


def test_clause_with_typed_value() -> None:
    c = clause("{ $less_than: [ $value, 1.9.0 ] }")
    with pytest.raises(FunctionError):
        validate(c, "1.10.0", value_type="version")
    assert validate(c, "1.10.0") is None


def test_clause_with_inputs() -> None:
    c = clause("{ $less_or_equal: [ $value, { $get_input: limit } ] }")
    assert validate(c, 3, inputs={"limit": 5}) is None
    with pytest.raises(FunctionError) as info:
        validate(c, 3)
    assert info.value.kind == "UnknownInput"


def test_undecidable_clause_is_skipped() -> None:
    tpl = MemoryTemplate()
    node = tpl.add_node("n", {"p": 1})
    c = clause("{ $equal: [ $value, { $get_attribute: [ SELF, runtime_only ] } ] }")
    assert validate(c, 1, context=tpl, self_entity=node) is None
    assert check_value(1, validations=[c], context=tpl, self_entity=node) == []


# ------------------------------------------------------------------------ constraints

CONSTRAINTS = [
    ("equal", {"equal": 3}, 3, 4),
    ("greater_than", {"greater_than": 3}, 4, 3),
    ("greater_or_equal", {"greater_or_equal": 3}, 3, 2),
    ("less_than", {"less_than": 3}, 2, 3),
    ("less_or_equal", {"less_or_equal": 3}, 3, 4),
    ("in_range", {"in_range": [1, 5]}, 5, 6),
    ("in_range-low", {"in_range": [1, 5]}, 1, 0),
    ("in_range-unbounded", {"in_range": [1, "UNBOUNDED"]}, 10**9, 0),
    ("valid_values", {"valid_values": ["a", "b"]}, "b", "c"),
    ("length-string", {"length": 3}, "abc", "ab"),
    ("length-list", {"length": 2}, [1, 2], [1]),
    ("min_length", {"min_length": 2}, {"a": 1, "b": 2}, {"a": 1}),
    ("max_length", {"max_length": 2}, "ab", "abc"),
    ("pattern-whole", {"pattern": "[a-z]+"}, "abc", "abc1"),
    ("pattern-alternation", {"pattern": "a|b"}, "a", "ab"),
    ("scalar", {"greater_than": "1 GB"}, "2 GB", "500 MB"),
    ("scalar-range", {"in_range": ["1 s", "1 m"]}, "30 s", "2 m"),
]


@pytest.mark.parametrize(
    ("constraint", "good", "bad"), [pytest.param(c, g, b, id=i) for i, c, g, b in CONSTRAINTS]
)
def test_constraints(constraint: dict, good: object, bad: object) -> None:
    c = constraint_clause(constraint)
    assert isinstance(c, Call)
    assert validate(c, good, version="1.3") is None
    with pytest.raises(FunctionError) as info:
        validate(c, bad, version="1.3")
    assert info.value.kind == "ValidationFailed"


def test_constraint_with_version_type() -> None:
    c = constraint_clause({"greater_or_equal": "1.9.0"})
    assert validate(c, "1.10.0", value_type="version") is None
    with pytest.raises(FunctionError):
        validate(c, "1.10.0")


def test_constraint_argument_may_be_a_1x_call() -> None:
    c = constraint_clause({"less_than": {"get_input": "max"}}, "1.3")
    assert validate(c, 3, inputs={"max": 4}, version="1.3") is None


@pytest.mark.parametrize(
    "bad",
    [
        {"greater_thn": 1},
        {"equal": 1, "less_than": 2},
        "equal",
        {"in_range": [1]},
        {"pattern": 3},
        {"valid_values": 3},
        {"schema": {}},
    ],
    ids=[
        "misspelled",
        "two-operators",
        "not-a-map",
        "short-range",
        "pattern-type",
        "valid-values-type",
        "schema",
    ],
)
def test_bad_constraints(bad: object) -> None:
    with pytest.raises(toskit.ToskitError):
        constraint_clause(bad)


def test_misspelled_operator_suggests() -> None:
    with pytest.raises(toskit.ToskitError, match="did you mean 'greater_than'"):
        constraint_clause({"greater_thn": 1})


# ------------------------------------------------------------------------- check_value


def test_check_value_reports_each_failure() -> None:
    validations = [
        clause("{ $greater_or_equal: [ $value, 10 ] }"),
        clause("{ $less_than: [ $value, 0 ] }"),
    ]
    constraints = [{"in_range": [1, 5]}, {"valid_values": [7]}, {"greater_than": 100}]
    diags = check_value(
        7,
        validations=validations,
        constraints=constraints,
        path=("topology_template", "node_templates", "db", "properties", "port"),
        subject="node template 'db': property 'port'",
        version="1.3",
    )
    assert [d.code for d in diags] == [
        "validation-failed",
        "validation-failed",
        "constraint-violation",
        "constraint-violation",
    ]
    assert all(d.severity == "error" for d in diags)
    assert diags[0].message == (
        "node template 'db': property 'port': value 7 fails the validation clause "
        "$greater_or_equal: [$value, 10]"
    )
    assert diags[2].message.endswith("value 7 violates the constraint {in_range: [1, 5]}")
    assert diags[2].path == "topology_template.node_templates.db.properties.port"


def test_check_value_errors_and_invalid_constraints() -> None:
    diags = check_value(
        "abc",
        validations=[clause("{ $greater_than: [ $value, 1 ] }")],
        constraints=[{"bogus": 1}, {"min_length": 2}],
    )
    assert [d.code for d in diags] == ["function-error", "invalid-constraint"]
    assert "TypeMismatch" in diags[0].message and "bogus" in diags[1].message


def test_schema_constraint_is_noted_not_checked() -> None:
    (d,) = check_value("x", constraints=[{"schema": {"type": "object"}}])
    assert d.severity == "info" and d.code == "unchecked-constraint"


def test_check_value_skips_values_holding_calls() -> None:
    value = {"a": Call("get_attribute", ["SELF", "x"])}
    assert check_value(value, validations=[False], constraints=[{"equal": 1}]) == []


def test_check_value_uses_the_diagnostic_factory() -> None:
    calls = []

    def make(severity, code, message, parts, *, hint=None, at_key=False):
        calls.append(parts)
        return toskit.Diagnostic(severity, code, message, path="p", file="f.yaml", line=3, column=5)

    (d,) = check_value(0, constraints=[{"greater_than": 0}], path=("a", 1), make_diagnostic=make)
    assert calls == [("a", 1)] and d.line == 3 and d.code == "constraint-violation"


def test_v27_value_in_a_property_is_context_error() -> None:
    with pytest.raises(FunctionError) as info:
        evaluate(parse({"size": "$value"}))
    assert info.value.kind == "ContextError"


def test_validate_parses_raw_clauses_when_asked() -> None:
    assert validate({"$greater_than": ["$value", 1]}, 5, raw=True) is None
    with pytest.raises(FunctionError) as info:
        validate({"$greater_than": ["$value", 1]}, 0, raw=True)
    assert info.value.kind == "ValidationFailed"
    with pytest.raises(FunctionError) as info:
        validate({"greater_than": ["$value", 1]}, 0, version="1.3", raw=True)
    assert info.value.kind == "ValidationNotBoolean"


def test_validate_never_parses_a_parsed_clause_again() -> None:
    # spec/functions.md §1.4: validate takes a parsed clause; without raw=True
    # a plain map is data, not a call.
    with pytest.raises(FunctionError) as info:
        validate({"$greater_than": ["$value", 1]}, 5)
    assert info.value.kind == "ValidationNotBoolean"


def _mass_template() -> MemoryTemplate:
    from toskit.values import ScalarClass

    iso = {"m": 0.001, "": 1.0, "k": 1000}
    mass, problems = ScalarClass.define("Mass", units={"g": 1}, prefixes=iso)
    assert problems == []
    return MemoryTemplate(scalars={"Mass": mass, "Mass_limited": mass})


def test_clause_on_a_declared_2_0_scalar_type() -> None:
    # conformance scalar/scalar-derive.yaml: validation { $less_or_equal: [$value, 10 kg] }
    tpl = _mass_template()
    c = clause("{ $less_or_equal: [ $value, 10 kg ] }")
    assert validate(c, "500 g", value_type="Mass_limited", context=tpl) is None
    with pytest.raises(FunctionError) as info:
        validate(c, "11000 g", value_type="Mass_limited", context=tpl)
    assert info.value.kind == "ValidationFailed"
    with pytest.raises(FunctionError) as info:
        validate(c, "10 lb", value_type="Mass", context=tpl)
    assert info.value.kind == "TypeMismatch"


def test_arithmetic_on_declared_scalars() -> None:
    tpl = _mass_template()
    tpl.add_node("box", {"weight": "2 kg", "extra": "500 g"}, {"weight": "Mass", "extra": "Mass"})
    tree = parse(
        {"$sum": [{"$get_property": ["box", "weight"]}, {"$get_property": ["box", "extra"]}]}
    )
    assert evaluate(tree, context=tpl) == "2.5 kg"
    half = parse({"$quotient": [{"$get_property": ["box", "weight"]}, 4]})
    assert evaluate(half, context=tpl) == "0.5 kg"
    # without the declared type, "kg" is no classic scalar-unit
    with pytest.raises(FunctionError) as info:
        evaluate(parse({"$sum": ["2 kg", "500 g"]}))
    assert info.value.kind == "ArgType"
