"""Parsing values into call trees: spec/functions.md §2–§4 and the P examples of §10.1."""

from __future__ import annotations

import datetime

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import toskit
from toskit.functions import Call, FunctionSyntaxError, dialect_of, evaluate, parse, unparse


def y(text: str):
    """A YAML value, as the loader would hand it over."""
    return yaml.safe_load(text)


# ---------------------------------------------------------------------------- §10.1

PARSE_CASES = [
    pytest.param("{ $concat: [ a, b ] }", Call("concat", ["a", "b"]), id="P3-concat"),
    pytest.param("$$$item", "$$item", id="P9-triple-dollar"),
    pytest.param("{ $: 1 }", {"$": 1}, id="P11-dollar-key-alone"),
    pytest.param("{ $: 1, a: 2 }", {"$": 1, "a": 2}, id="P11-dollar-key-beside"),
    pytest.param(
        "[ $value, { $value: [ high ] }, $$x, '$' ]",
        [Call("value", []), Call("value", ["high"]), "$x", "$"],
        id="P13-value-forms",
    ),
    pytest.param(
        "{ a: { b: [ { $$c: { $d: [] } } ] } }",
        {"a": {"b": [{"$c": Call("d", [])}]}},
        id="P15-escaped-key-value-parsed",
    ),
    pytest.param(
        "{ $get_security_context: { env: staging, role: admin } }",
        Call("get_security_context", [{"env": "staging", "role": "admin"}]),
        id="P21-map-argument",
    ),
    pytest.param(
        "{ $namespace1:random_generator: [ { $get_input: [ seed ] } ] }",
        Call("random_generator", [Call("get_input", ["seed"])], namespace="namespace1"),
        id="P23-namespaced",
    ),
    pytest.param("{ $f: }", Call("f", []), id="P25-empty"),
    pytest.param("{ $f: null }", Call("f", []), id="P25-null"),
    pytest.param("{ $f: [ null ] }", Call("f", [None]), id="P25-list-of-null"),
    pytest.param(
        "{ $concat: [ 'http://', $get_attribute: [ server, public_address ], ':', "
        "$get_attribute: [ server, port ] ] }",
        Call(
            "concat",
            [
                "http://",
                Call("get_attribute", ["server", "public_address"]),
                ":",
                Call("get_attribute", ["server", "port"]),
            ],
        ),
        id="P29-implicit-pairs-in-flow-list",
    ),
    pytest.param("{ $get_input: cpus }", Call("get_input", ["cpus"]), id="scalar-argument"),
    pytest.param("{ $f: [ [a, b] ] }", Call("f", [["a", "b"]]), id="single-list-argument"),
    pytest.param("{ $a:b:fn: [] }", Call("fn", [], namespace="a:b"), id="deep-namespace"),
    pytest.param("{ $$: 1, $$$x: 2 }", {"$": 1, "$$x": 2}, id="escaped-keys"),
    pytest.param(
        "{ 2: a, true: b, null: c, 1.5: d }",
        {2: "a", True: "b", None: "c", 1.5: "d"},
        id="scalar-keys",
    ),
    pytest.param("$$", "$", id="double-dollar-alone"),
    pytest.param("price", "price", id="plain-string"),
    pytest.param("2024-01-01", datetime.date(2024, 1, 1), id="date-passes-through"),
    pytest.param("'2024-01-01'", "2024-01-01", id="date-string"),
]


@pytest.mark.parametrize(("text", "expected"), PARSE_CASES)
def test_parse_examples(text: str, expected: object) -> None:
    assert parse(y(text)) == expected


def test_p3_call_form_and_result() -> None:
    tree = parse(y("{ $concat: [ a, b ] }"))
    assert tree.form == "map" and tree.namespace is None and tree.key_variant is None
    assert evaluate(tree) == "ab"


def test_p13_forms_and_equality_ignoring_form() -> None:
    bare, mapped, *_ = parse(y("[ $value, { $value: [] } ]")) + [None]
    assert bare.form == "bare" and mapped.form == "map"
    assert bare == mapped and hash(bare) == hash(mapped)


def test_p5_malformed_names_the_key() -> None:
    with pytest.raises(FunctionSyntaxError) as info:
        parse(y("{ $concat: [ a, b ], other: 1 }"))
    err = info.value
    assert isinstance(err, toskit.ToskitError)
    assert err.diagnostic.code == "malformed-function" and err.diagnostic.severity == "error"
    assert "$concat" in str(err) and "$concat" in err.diagnostic.message
    assert len(err.diagnostics) == 1


def test_malformed_one_diagnostic_per_function_key() -> None:
    with pytest.raises(FunctionSyntaxError) as info:
        parse({"$a": 1, "$b": 2, "c": 3})
    assert [d.code for d in info.value.diagnostics] == ["malformed-function"] * 2
    assert "$a" in str(info.value) and "$b" in str(info.value)


def test_malformed_quoted_flow_key_beside_other_key() -> None:
    # §11.3: "$keygen: [ UUID ]" quoted as one key, next to another key.
    with pytest.raises(FunctionSyntaxError):
        parse(y('{ "$keygen: [ UUID ]": 34, other: 1 }'))


def test_malformed_reports_path_of_the_map() -> None:
    with pytest.raises(FunctionSyntaxError) as info:
        parse({"outer": [{"x": {"$f": 1, "y": 2}}]}, path=("props", "p"))
    assert info.value.diagnostic.path == "props.p.outer[0].x.$f"


def test_malformed_uses_the_diagnostic_factory() -> None:
    seen = []

    def make(severity, code, message, parts, *, hint=None, at_key=False):
        seen.append((parts, at_key))
        return toskit.Diagnostic(severity, code, message, path="X", line=7, column=3, hint=hint)

    with pytest.raises(FunctionSyntaxError) as info:
        parse({"a": {"$f": 1, "b": 2}}, path=("root",), make_diagnostic=make)
    assert seen == [(("root", "a", "$f"), True)]
    assert info.value.diagnostic.line == 7


@pytest.mark.parametrize("key", ["$:f", "$ns::f", "$ns:", "$f$", "$a:$v"])
def test_malformed_name_segments(key: str) -> None:
    with pytest.raises(FunctionSyntaxError) as info:
        parse({key: []})
    assert info.value.diagnostic.code == "malformed-function"


def test_parse_stops_at_first_malformed_map() -> None:
    with pytest.raises(FunctionSyntaxError) as info:
        parse([{"$a": 1, "b": 1}, {"$c": 1, "d": 1}])
    assert "$a" in str(info.value) and "$c" not in str(info.value)


def test_key_variants_are_distinct_keys() -> None:
    from toskit.source import FrozenMap

    keys = [
        FrozenMap({"$keygen": ("UUID",)}),
        FrozenMap({"$keygen$1": ("UUID",)}),
        FrozenMap({"$keygen$2": ("UUID",)}),
    ]
    parsed = parse({k: v for k, v in zip(keys, (34, 56, 78))})
    calls = list(parsed)
    assert [c.key_variant for c in calls] == [None, "1", "2"]
    assert all(isinstance(c, Call) and c.name == "keygen" for c in calls)
    assert len(set(calls)) == 3 and list(parsed.values()) == [34, 56, 78]


def test_complex_key_that_is_not_a_call_stays_hashable() -> None:
    from toskit.source import FrozenMap

    parsed = parse({FrozenMap({"a": ("$$x",)}): 1, ("$$y", 2): 3})
    first, second = parsed
    assert first == {"a": ("$x",)} and isinstance(hash(first), int)
    assert second == ("$y", 2)


def test_input_is_not_modified() -> None:
    value = {"a": [{"$$b": {"$concat": ["x"]}}]}
    snapshot = repr(value)
    parse(value)
    assert repr(value) == snapshot


# ------------------------------------------------------------------- bare strings §3.3


def test_p7_unknown_bare_name_is_literal_with_warning() -> None:
    diags: list = []
    assert parse("$myid", diagnostics=diags, path=("properties", "prop1")) == "$myid"
    (d,) = diags
    assert d.code == "dollar-literal" and d.severity == "warning"
    assert "$$myid" in d.hint and "$myid" in d.message
    assert d.path == "properties.prop1"


def test_p31_price_is_literal_with_hint() -> None:
    diags: list = []
    assert parse(y("price: '$5.00'"), diagnostics=diags) == {"price": "$5.00"}
    assert diags[0].code == "dollar-literal" and "$$5.00" in diags[0].hint
    assert diags[0].path == "price"


@pytest.mark.parametrize("text", ["$$x", "$", "plain", "a$b"])
def test_no_dollar_literal_warning(text: str) -> None:
    diags: list = []
    parse(text, diagnostics=diags)
    assert diags == []


def test_bad_name_part_in_bare_string_is_literal_with_warning() -> None:
    diags: list = []
    assert parse("$:x", diagnostics=diags) == "$:x"
    assert diags[0].code == "dollar-literal"


def test_known_names_make_bare_calls() -> None:
    assert parse("$get_random_nr") == "$get_random_nr"
    tree = parse("$get_random_nr", known=["get_random_nr"])
    assert tree == Call("get_random_nr", []) and tree.form == "bare"
    assert parse("$ns:fn", known=["ns:fn"]) == Call("fn", [], namespace="ns")
    assert parse("$node_index") == Call("node_index", [])


def test_dollar_string_keys_are_function_keys_not_bare_candidates() -> None:
    assert parse({"$myid": 1}) == Call("myid", [1])


def test_parse_does_not_check_that_map_form_names_exist() -> None:
    assert parse({"$frobnicate": [1]}) == Call("frobnicate", [1])


# --------------------------------------------------------------------------- 1.x §4

V1_CASES = [
    pytest.param({"get_input": "cpus"}, Call("get_input", ["cpus"]), id="P33-get_input"),
    pytest.param({"concat": ["a", "b"]}, Call("concat", ["a", "b"]), id="concat"),
    pytest.param({"token": ["a:b", ":", 1]}, Call("token", ["a:b", ":", 1]), id="token"),
    pytest.param(
        {"get_operation_output": ["SELF", "Standard", "create", "x"]},
        Call("get_operation_output", ["SELF", "Standard", "create", "x"]),
        id="runtime-only",
    ),
    pytest.param({"sum": [1, 2]}, {"sum": [1, 2]}, id="2.0-only-builtin-is-a-map"),
    pytest.param({"concat": ["a"], "x": 1}, {"concat": ["a"], "x": 1}, id="multi-key-never-a-call"),
    pytest.param("$x", "$x", id="dollar-literal"),
    pytest.param("$$x", "$$x", id="no-escape"),
    pytest.param({"a": [{"get_input": "x"}]}, {"a": [Call("get_input", ["x"])]}, id="nested"),
    pytest.param({"$concat": ["a"]}, {"$concat": ["a"]}, id="dollar-key-is-plain"),
]


@pytest.mark.parametrize(("value", "expected"), V1_CASES)
def test_parse_1x(value: object, expected: object) -> None:
    diags: list = []
    assert parse(value, "1.3", diagnostics=diags) == expected
    assert diags == []


def test_p33_2_0_treats_bare_names_as_plain_maps() -> None:
    assert parse({"get_input": "cpus"}) == {"get_input": "cpus"}


def test_p1_seed_value_is_a_plain_map_in_2_0() -> None:
    value = y("{ concat: [ this, is, supposed, to, be, a, value ] }")
    assert parse(value, "tosca_2_0") == value
    assert isinstance(parse(value, "tosca_simple_yaml_1_3"), Call)


# ------------------------------------------------------------------------- dialects §2


@pytest.mark.parametrize(
    ("version", "dialect"),
    [
        ("2.0", "2.0"),
        ("tosca_2_0", "2.0"),
        ("1.0", "1.x"),
        ("1.1", "1.x"),
        ("1.2", "1.x"),
        ("1.3", "1.x"),
        ("tosca_simple_yaml_1_0", "1.x"),
        ("tosca_simple_yaml_1_1", "1.x"),
        ("tosca_simple_yaml_1_2", "1.x"),
        ("tosca_simple_yaml_1_3", "1.x"),
        ("tosca_simple_unfurl_1_0_0", "1.x"),
    ],
)
def test_dialect_of_each_version(version: str, dialect: str) -> None:
    assert dialect_of(version) == dialect
    tree = parse({"concat": ["a"]}, version)
    assert isinstance(tree, Call) == (dialect == "1.x")


@pytest.mark.parametrize("version", ["3.0", "tosca_2_1", "tosca_simple_yaml_2_0", "", "1.x"])
def test_unknown_version_raises(version: str) -> None:
    with pytest.raises(toskit.ToskitError, match="dialect"):
        parse("x", version)


# ----------------------------------------------------------------------- Call §1.1


def test_call_equality_hash_and_str() -> None:
    a = Call("concat", ["a", "b"])
    assert a == parse({"$concat": ["a", "b"]})
    assert a != Call("concat", ["a", "c"]) and a != Call("concat", ["a", "b"], namespace="x")
    assert Call("k", [], key_variant="1") != Call("k", [])
    assert a.qualified_name == "concat" and Call("f", [], "ns").qualified_name == "ns:f"
    assert {a: 1}[Call("concat", ["a", "b"])] == 1
    assert hash(Call("f", [{"x": [1, 2]}])) == hash(Call("f", [{"x": [1, 2]}]))
    assert str(a) == "$concat: [a, b]"
    assert str(Call("value", [], form="bare")) == "$value"
    assert str(Call("get_input", ["memory"])) == "$get_input: [memory]"
    assert str(Call("f", ["$x", "a: b", True, None, {"k": 1}])) == (
        '$f: [$$x, "a: b", true, null, {k: 1}]'
    )
    assert str(Call("fn", [1], "ns", key_variant="2")) == "$ns:fn$2: [1]"
    assert "concat" in repr(a)


def test_call_rejects_a_bad_form() -> None:
    with pytest.raises(toskit.ToskitError):
        Call("f", [], form="weird")


# ------------------------------------------------------------------------ unparse §1.6

ROUND_TRIPS = [
    "{ $concat: [ a, b ] }",
    "[ $value, { $value: [ high ] }, $$x, '$' ]",
    "{ a: { b: [ { $$c: { $d: [] } } ] } }",
    "{ $f: [ null ] }",
    "{ $ns:fn$2: [ { $$k: $$$v } ] }",
    "{ $: 1, $$$: 2 }",
    "$$$item",
]


@pytest.mark.parametrize("text", ROUND_TRIPS)
def test_unparse_round_trip(text: str) -> None:
    tree = parse(y(text))
    assert parse(unparse(tree)) == tree


def test_unparse_shapes() -> None:
    assert unparse(Call("value", [], form="bare")) == "$value"
    assert unparse(Call("value", [])) == {"$value": []}
    assert unparse("$x") == "$$x"
    assert unparse({"$k": "$"}) == {"$$k": "$"}
    assert unparse(Call("fn", [1], "ns", key_variant="v")) == {"$ns:fn$v": [1]}


def test_unparse_1x_writes_bare_names() -> None:
    tree = parse({"concat": [{"get_input": "x"}, "$y"]}, "1.3")
    assert unparse(tree, "1.3") == {"concat": [{"get_input": ["x"]}, "$y"]}
    assert parse(unparse(tree, "1.3"), "1.3") == tree


@pytest.mark.parametrize("args", ["ab", {"a": 1}, b"x"])
def test_call_args_must_be_a_list(args: object) -> None:
    with pytest.raises(toskit.ToskitError, match="list"):
        Call("f", args)  # type: ignore[arg-type]


def test_p33_1x_get_input_evaluates_to_the_input() -> None:
    tree = parse({"get_input": "cpus"}, "tosca_simple_yaml_1_3")
    assert tree == Call("get_input", ["cpus"])
    assert evaluate(tree, {"cpus": 4}, version="tosca_simple_yaml_1_3") == 4
    assert evaluate(parse({"get_input": "cpus"}), {"cpus": 4}) == {"get_input": "cpus"}


def test_str_of_non_finite_floats_is_yaml() -> None:
    assert str(Call("f", [float("inf"), float("-inf"), float("nan")])) == "$f: [.inf, -.inf, .nan]"


def test_keys_equal_once_unescaped_are_duplicates() -> None:
    with pytest.raises(FunctionSyntaxError) as info:
        parse({"$$": 1, "$": 2})
    assert info.value.diagnostic.code == "duplicate-key"


def test_paths_use_keys_as_written() -> None:
    diags: list = []
    parse({"$$a": {"b": "$nope"}}, diagnostics=diags, path=("p",))
    assert diags[0].path == "p.$$a.b"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=8), st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)
        ),
        max_size=4,
    )
)
def test_str_of_a_call_is_yaml_that_reads_back(args: list) -> None:
    call = Call("f", args)
    assert parse(y("{" + str(call) + "}")) == call
