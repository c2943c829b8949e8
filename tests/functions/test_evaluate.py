"""Evaluating built-in functions: the V examples of §10.2 that need no template, §6."""

from __future__ import annotations

import pytest
import yaml

import toskit
from toskit.functions import Call, FunctionError, evaluate, parse


def ev(text: str, inputs=None, **kw):
    return evaluate(parse(yaml.safe_load(text)), inputs, **kw)


def kind_of_error(text: str, inputs=None, **kw) -> str:
    with pytest.raises(FunctionError) as info:
        ev(text, inputs, **kw)
    assert isinstance(info.value, toskit.ToskitError)
    return info.value.kind


VALUES = [
    ("V1", "{ $concat: [ [1, 2], [3] ] }", [1, 2, 3]),
    ("V3-delim", "{ $join: [ [a, b, c], '-' ] }", "a-b-c"),
    ("V3-no-delim", "{ $join: [ [a, b] ] }", "ab"),
    ("V5-ip", "{ $token: [ ip=10.0.0.2, '=', 1 ] }", "10.0.0.2"),
    ("V5-empty-piece", "{ $token: [ 'a::b', ':', 1 ] }", ""),
    ("V29-and", "{ $and: [ true, false ] }", False),
    ("V29-or", "{ $or: [ false, true ] }", True),
    ("V29-not", "{ $not: [ true ] }", False),
    ("V29-xor", "{ $xor: [ true, true ] }", False),
    ("V31-lists", "{ $equal: [ [1, 2], [1, 2] ] }", True),
    ("V35-valid_values", "{ $valid_values: [ b, [a, b, c] ] }", True),
    ("V35-has_entry-list", "{ $has_entry: [ [a, b, c], b ] }", True),
    ("V35-has_entry-map", "{ $has_entry: [ {x: b}, b ] }", True),
    ("V37-suffix-str", "{ $has_suffix: [ foobar, bar ] }", True),
    ("V37-suffix-list", "{ $has_suffix: [ [1,2,3], [2,3] ] }", True),
    ("V37-prefix-list", "{ $has_prefix: [ [1,2,3], [1,3] ] }", False),
    ("V39-has_key", "{ $has_key: [ {a: 1}, a ] }", True),
    ("V39-has_all_keys", "{ $has_all_keys: [ {a: 1, b: 2}, [a, b] ] }", True),
    ("V39-has_any_key", "{ $has_any_key: [ {a: 1}, [x, y] ] }", False),
    ("V39-has_all_entries", "{ $has_all_entries: [ [1,2,3], [3,1] ] }", True),
    ("V39-has_any_entry", "{ $has_any_entry: [ {a: 1, b: 2}, [2, 9] ] }", True),
    ("V43-7-3", "{ $remainder: [7, 3] }", 1),
    ("V43-neg", "{ $remainder: [-7, 3] }", -1),
    ("V45-union", "{ $union: [ [1,7], [3,4,9], [15,16] ] }", [1, 7, 3, 4, 9, 15, 16]),
    ("V45-union-dups", "{ $union: [ [1,1,2] ] }", [1, 2]),
    ("V45-intersection", "{ $intersection: [ [1,2,3], [2,3,4] ] }", [2, 3]),
    ("V45-intersection-dups", "{ $intersection: [ [1,1] ] }", [1]),
    # more of §6
    ("concat-strings", "{ $concat: [ a, b, c ] }", "abc"),
    ("concat-one-level", "{ $concat: [ [[1]], [2] ] }", [[1], 2]),
    ("length-string", "{ $length: [ héllo ] }", 5),
    ("length-list", "{ $length: [ [1, 2, 3] ] }", 3),
    ("length-map", "{ $length: [ {a: 1} ] }", 1),
    ("token-first", "{ $token: [ 'a,b;c', ',;', 2 ] }", "c"),
    ("equal-null", "{ $equal: [ null, 1 ] }", False),
    ("equal-nulls", "{ $equal: [ null, null ] }", True),
    ("equal-int-float", "{ $equal: [ 1, 1.0 ] }", True),
    ("equal-maps", "{ $equal: [ {a: [1]}, {a: [1]} ] }", True),
    ("gt-numbers", "{ $greater_than: [ 2, 1.5 ] }", True),
    ("lt-strings", "{ $less_than: [ apple, banana ] }", True),
    ("le-equal", "{ $less_or_equal: [ 2, 2 ] }", True),
    ("ge", "{ $greater_or_equal: [ 1, 2 ] }", False),
    ("scalars-compare", "{ $greater_than: [ 1 GiB, 1000 MB ] }", True),
    ("scalars-case", "{ $equal: [ 1 gb, 1000 MB ] }", True),
    ("time-compare", "{ $less_than: [ 500 ms, 1 s ] }", True),
    ("matches-search", "{ $matches: [ abc123, '[0-9]+' ] }", True),
    ("matches-anchored", "{ $matches: [ abc123, '^[0-9]+$' ] }", False),
    ("contains-str", "{ $contains: [ foobar, oba ] }", True),
    ("contains-run", "{ $contains: [ [1,2,3,4], [2,3] ] }", True),
    ("contains-not-run", "{ $contains: [ [1,2,3,4], [2,4] ] }", False),
    ("contains-empty", "{ $contains: [ [1], [] ] }", True),
    ("has_all_entries-empty", "{ $has_all_entries: [ [1], [] ] }", True),
    ("has_any_entry-empty", "{ $has_any_entry: [ [1], [] ] }", False),
    ("bool-not-number", "{ $has_entry: [ [1, 2], true ] }", False),
    ("sum-ints", "{ $sum: [ 1, 2, 3 ] }", 6),
    ("sum-float", "{ $sum: [ 1, 2.5 ] }", 3.5),
    ("sum-scalars", "{ $sum: [ 1 GB, 500 MB ] }", "1.5 GB"),
    ("sum-scalars-whole", "{ $sum: [ 1 GB, 1000 MB ] }", "2 GB"),
    ("difference", "{ $difference: [ 5, 7 ] }", -2),
    ("difference-scalar", "{ $difference: [ 1 h, 30 m ] }", "0.5 h"),
    ("product", "{ $product: [ 2, 3, 4 ] }", 24),
    ("product-float", "{ $product: [ 2, 0.5 ] }", 1.0),
    ("product-scalar", "{ $product: [ 2 MB, 3 ] }", "6 MB"),
    ("quotient", "{ $quotient: [ 8, 2 ] }", 4.0),
    ("quotient-scalar", "{ $quotient: [ 3 GHz, 2 ] }", "1.5 GHz"),
    ("remainder-scalar", "{ $remainder: [ 10 MB, 3 ] }", "1 MB"),
    ("round-half-down", "{ $round: [ 3.5 ] }", 3),
    ("round-neg-half", "{ $round: [ -3.5 ] }", -4),
    ("round-up", "{ $round: [ 3.53 ] }", 4),
    ("round-int", "{ $round: [ 7 ] }", 7),
    ("floor", "{ $floor: [ -1.5 ] }", -2),
    ("ceil", "{ $ceil: [ 1.2 ] }", 2),
    ("ceil-int", "{ $ceil: [ 3 ] }", 3),
    ("get_input-name", "{ $get_input: cpus }", 4),
    ("get_input-list", "{ $get_input: [ cpus ] }", 4),
    ("nested-calls", "{ $concat: [ { $join: [ [a, b], '+' ] }, '=', x ] }", "a+b=x"),
    ("rebuilds-containers", "{ k: [ { $sum: [1, 1] } ], j: 3 }", {"k": [2], "j": 3}),
]


@pytest.mark.parametrize(("text", "expected"), [pytest.param(t, e, id=i) for i, t, e in VALUES])
def test_evaluates(text: str, expected: object) -> None:
    result = ev(text, {"cpus": 4})
    assert result == expected and type(result) is type(expected)


ERRORS = [
    ("V5-out-of-range", "{ $token: [ a, ':', 5 ] }", "PathError"),
    ("V31-mismatch", "{ $equal: [ 1, '1' ] }", "TypeMismatch"),
    ("V43-float", "{ $remainder: [7.5, 2] }", "ArgType"),
    ("V43-zero", "{ $remainder: [7, 0] }", "DivisionByZero"),
    ("V47-unknown", "{ $frobnicate: [1] }", "UnknownFunction"),
    ("V7-unknown-input", "{ $get_input: memory }", "UnknownInput"),
    ("quotient-zero", "{ $quotient: [ 1, 0 ] }", "DivisionByZero"),
    ("matches-bad-regex", "{ $matches: [ a, '(' ] }", "InvalidRegex"),
    ("gt-bool", "{ $greater_than: [ true, false ] }", "ArgType"),
    ("gt-null", "{ $greater_than: [ null, 1 ] }", "ArgType"),
    ("gt-list", "{ $greater_than: [ [1], [2] ] }", "ArgType"),
    ("gt-mixed", "{ $greater_than: [ 1, a ] }", "TypeMismatch"),
    ("gt-scalar-classes", "{ $greater_than: [ 1 GB, 1 s ] }", "TypeMismatch"),
    ("gt-scalar-number", "{ $greater_than: [ 1 GB, 1 ] }", "TypeMismatch"),
    ("equal-bool-int", "{ $equal: [ true, 1 ] }", "TypeMismatch"),
    ("equal-list-map", "{ $equal: [ [], {} ] }", "TypeMismatch"),
    ("value-outside", "$value", "ContextError"),
    ("node_index-outside", "$node_index", "ContextError"),
    ("relationship_index-outside", "$relationship_index", "ContextError"),
    ("get_property-outside", "{ $get_property: [ SELF, x ] }", "ContextError"),
    ("get_property-named-outside", "{ $get_property: [ db, x ] }", "ContextError"),
    ("get_attribute-outside", "{ $get_attribute: [ SELF, x ] }", "ContextError"),
    ("get_artifact-outside", "{ $get_artifact: [ SELF, zip ] }", "ContextError"),
    (
        "available_allocation-outside",
        "{ $available_allocation: [ SELF, CAPABILITY, host, n ] }",
        "ContextError",
    ),
    ("sum-overflow", "{ $product: [ 9223372036854775807, 2 ] }", "ArgType"),
    ("sum-big", "{ $sum: [ 9223372036854775807, 1 ] }", "ArgType"),
    ("sum-mix-scalar-number", "{ $sum: [ 1 GB, 1 ] }", "ArgType"),
    ("sum-scalar-classes", "{ $sum: [ 1 GB, 1 s ] }", "ArgType"),
    ("sum-bool", "{ $sum: [ true, 1 ] }", "ArgType"),
    ("product-scalar-two-factors", "{ $product: [ 1 GB, 2, 3 ] }", "ArgCount"),
    ("product-scalar-by-string", "{ $product: [ 1 GB, a ] }", "ArgType"),
    ("quotient-by-scalar", "{ $quotient: [ 4, 2 GB ] }", "ArgType"),
    ("round-inf", "{ $round: [ .inf ] }", "ArgType"),
    ("concat-mixed", "{ $concat: [ a, [b] ] }", "ArgType"),
    ("concat-number-2.0", "{ $concat: [ port, 80 ] }", "ArgType"),
    ("join-numbers-2.0", "{ $join: [ [1, 2] ] }", "ArgType"),
    ("token-empty-delims", "{ $token: [ a, '', 0 ] }", "ArgType"),
    ("token-negative", "{ $token: [ a, ':', -1 ] }", "ArgType"),
    ("token-bool-index", "{ $token: [ a, ':', true ] }", "ArgType"),
    ("has_prefix-mixed", "{ $has_prefix: [ abc, [a] ] }", "ArgType"),
    ("has_key-list", "{ $has_key: [ [a], a ] }", "ArgType"),
    ("valid_values-not-list", "{ $valid_values: [ a, a ] }", "ArgType"),
    ("and-non-bool", "{ $and: [ true, 1 ] }", "ArgType"),
    ("get_input-name-type", "{ $get_input: [ 3 ] }", "ArgType"),
    ("get_input-step-type", "{ $get_input: [ net, 1.5 ] }", "ArgType"),
    ("get_input-missing-key", "{ $get_input: [ net, nope ] }", "PathError"),
    ("get_input-int-on-map", "{ $get_input: [ net, 0 ] }", "PathError"),
    ("get_input-str-on-list", "{ $get_input: [ list, a ] }", "PathError"),
    ("get_input-index-range", "{ $get_input: [ list, 9 ] }", "PathError"),
    ("get_input-no-value", "{ $get_input: [ declared ] }", "InputValueMissing"),
]


@pytest.mark.parametrize(("text", "kind"), [pytest.param(t, k, id=i) for i, t, k in ERRORS])
def test_error_kinds(text: str, kind: str) -> None:
    inputs = {"net": {"name": "mgmt"}, "list": [1], "declared": toskit.NO_DEFAULT}
    assert kind_of_error(text, inputs) == kind


# ArgCount for each built-in: (name, a bad argument list).
ARG_COUNTS = [
    ("get_input", []),
    ("and", [True]),
    ("or", [False]),
    ("not", [True, False]),
    ("xor", [True]),
    ("equal", [1]),
    ("greater_than", [1, 2, 3]),
    ("greater_or_equal", [1]),
    ("less_than", []),
    ("less_or_equal", [1]),
    ("valid_values", [1]),
    ("matches", ["a"]),
    ("has_prefix", ["a"]),
    ("has_suffix", ["a", "b", "c"]),
    ("contains", ["a"]),
    ("has_entry", [[1]]),
    ("has_key", [{}]),
    ("has_all_entries", [[1]]),
    ("has_any_entry", [[1]]),
    ("has_all_keys", [{}]),
    ("has_any_key", [{}]),
    ("length", []),
    ("concat", []),
    ("join", []),
    ("token", ["a", ":"]),
    ("union", []),
    ("intersection", []),
    ("sum", []),
    ("difference", [1]),
    ("product", []),
    ("quotient", [1]),
    ("remainder", [1]),
    ("round", [1, 2]),
    ("floor", []),
    ("ceil", [1, 2]),
    ("node_index", [1]),
    ("relationship_index", [1]),
]


@pytest.mark.parametrize(("name", "args"), ARG_COUNTS, ids=[n for n, _ in ARG_COUNTS])
def test_arg_count(name: str, args: list) -> None:
    with pytest.raises(FunctionError) as info:
        evaluate(Call(name, args), {})
    assert info.value.kind == "ArgCount"
    assert info.value.function == name
    assert info.value.diagnostic.code == "function-error"
    assert info.value.diagnostic.message.startswith(f"{name}: ArgCount: ")


ARG_TYPES = [
    ("not", [1]),
    ("xor", [True, "x"]),
    ("or", [False, None]),
    ("valid_values", [1, {"a": 1}]),
    ("matches", [1, "a"]),
    ("matches", ["a", 1]),
    ("has_suffix", [1, 1]),
    ("contains", [{"a": 1}, "a"]),
    ("has_entry", ["abc", "a"]),
    ("has_all_entries", [[1], 1]),
    ("has_any_entry", [1, [1]]),
    ("has_all_keys", [{"a": 1}, "a"]),
    ("has_any_key", [[1], [1]]),
    ("length", [5]),
    ("concat", [None]),
    ("join", ["abc"]),
    ("join", [["a"], 1]),
    ("token", [1, ":", 0]),
    ("union", [[1], 2]),
    ("intersection", ["a"]),
    ("sum", ["a"]),
    ("difference", [1, None]),
    ("product", [2, "x"]),
    ("quotient", ["x", 2]),
    ("remainder", [7, 2.0]),
    ("round", ["1"]),
    ("floor", [True]),
    ("ceil", [None]),
    ("get_input", [None]),
]


@pytest.mark.parametrize(
    ("name", "args"), ARG_TYPES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(ARG_TYPES)]
)
def test_arg_type(name: str, args: list) -> None:
    with pytest.raises(FunctionError) as info:
        evaluate(Call(name, args), {})
    assert info.value.kind == "ArgType", info.value


def test_v7_unknown_input_names_it_and_suggests() -> None:
    with pytest.raises(FunctionError) as info:
        ev("{ $get_input: memroy }", {"memory": 1, "cpus": 4})
    err = info.value
    assert err.kind == "UnknownInput" and err.function == "get_input"
    assert "memroy" in str(err) and err.diagnostic.hint == "did you mean 'memory'?"


def test_v9_input_steps() -> None:
    inputs = {"management_network": {"name": "mgmt", "gateway": "10.0.0.1"}}
    assert ev("{ $get_input: [ management_network, name ] }", inputs) == "mgmt"
    assert ev("{ $get_input: [ l, 1, k ] }", {"l": [0, {"k": "v"}]}) == "v"


def test_v47_unknown_function_has_own_code_and_hint() -> None:
    with pytest.raises(FunctionError) as info:
        ev("{ $concatt: [a] }")
    assert info.value.kind == "UnknownFunction"
    assert info.value.diagnostic.code == "unknown-function"
    assert info.value.diagnostic.hint == "did you mean 'concat'?"


def test_innermost_failing_call_is_named() -> None:
    with pytest.raises(FunctionError) as info:
        ev("{ $concat: [ a, { $token: [ b, ':', 3 ] } ] }")
    assert info.value.function == "token" and info.value.kind == "PathError"
    assert str(info.value).startswith("token: PathError: ")


def test_error_carries_the_call_and_its_path() -> None:
    tree = parse({"outer": {"$concat": [1]}}, path=("props", "p"))
    with pytest.raises(FunctionError) as info:
        evaluate(tree)
    assert info.value.call == tree["outer"]
    assert info.value.diagnostic.path == "props.p.outer"


def test_and_or_stop_early() -> None:
    # The argument after the deciding one is never evaluated (it would fail).
    assert ev("{ $and: [ false, { $get_input: nope } ] }", {}) is False
    assert ev("{ $or: [ true, 5 ] }", {}) is True
    assert kind_of_error("{ $and: [ true, 5 ] }") == "ArgType"


def test_v33_versions_by_declared_type_and_strings_by_code_point() -> None:
    clause = parse(yaml.safe_load("{ $less_than: [ $value, 1.9.0 ] }"))
    assert evaluate(clause, value="1.10.0", value_type="version") is False
    assert evaluate(clause, value="1.10.0") is True
    assert evaluate(clause, value="1.10.0", value_type="string") is True


def test_typed_operands_through_inputs() -> None:
    tree = parse({"$greater_than": [{"$get_input": "v"}, "1.9"]})
    assert evaluate(tree, {"v": "1.10"}, input_types={"v": "version"}) is True
    assert evaluate(tree, {"v": "1.10"}) is False
    with pytest.raises(FunctionError) as info:
        evaluate(tree, {"v": "one"}, input_types={"v": "version"})
    assert info.value.kind == "TypeMismatch"


def test_timestamps_compare_by_instant() -> None:
    tree = parse({"$less_than": ["$value", "2001-12-14 21:59:43.10 -5"]})
    assert evaluate(tree, value="2001-12-15T02:59:43.0Z", value_type="timestamp") is True
    eq = parse({"$equal": ["$value", "2001-12-14t21:59:43.10-05:00"]})
    assert evaluate(eq, value="2001-12-15T02:59:43.1Z", value_type="timestamp") is True


def test_unevaluated_arguments_keep_the_call() -> None:
    v1 = parse({"concat": ["a", {"get_operation_output": ["SELF", "i", "o", "x"]}]}, "1.3")
    assert evaluate(v1, version="1.3") is v1
    nodes = parse({"get_nodes_of_type": "tosca.nodes.Compute"}, "1.3")
    assert evaluate(nodes, version="1.3") is nodes


def test_runtime_only_names_are_unknown_in_2_0() -> None:
    assert kind_of_error("{ $get_operation_output: [ SELF, a, b, c ] }") == "UnknownFunction"


def test_1x_leniency_for_concat_and_join() -> None:
    tree = parse({"concat": ["port:", 80, " ", True, " ", 1.5]}, "1.3")
    assert evaluate(tree, version="1.3") == "port:80 true 1.5"
    assert evaluate(parse({"join": [[1, "a"], "-"]}, "1.3"), version="1.3") == "1-a"
    with pytest.raises(FunctionError) as info:
        evaluate(parse({"concat": ["a", None]}, "1.3"), version="tosca_simple_yaml_1_3")
    assert info.value.kind == "ArgType"


def test_complex_key_evaluates_to_scalar() -> None:
    tree = parse({Call("concat", ["a", "b"]): 1, "x": 2})
    assert evaluate(tree) == {"ab": 1, "x": 2}
    with pytest.raises(FunctionError) as info:
        evaluate({Call("concat", [[1], [2]]): 1})
    assert info.value.kind == "ArgType"


def test_depth_is_bounded() -> None:
    # Call trees built by hand (parse refuses them first: test_robustness.py).
    tree: object = 1
    for _ in range(50):  # MAX_CALL_DEPTH
        tree = Call("sum", [tree])
    assert evaluate(tree) == 1
    with pytest.raises(FunctionError) as info:
        evaluate(Call("sum", [tree]))
    assert info.value.kind == "LimitExceeded"
    assert info.value.diagnostic.code == "limit-exceeded"
    with pytest.raises(FunctionError, match="nested deeper than 20"):
        evaluate(tree, max_depth=20)


def test_value_with_steps() -> None:
    tree = parse(
        yaml.safe_load("{ $greater_or_equal: [ { $value: [ high ] }, { $value: [ low ] } ] }")
    )
    assert evaluate(tree, value={"low": 2.0, "high": 1.0}) is False
    with pytest.raises(FunctionError) as info:
        evaluate(tree, value={"low": 1})
    assert info.value.kind == "PathError"


def test_v27_value_outside_clause_is_context_error() -> None:
    with pytest.raises(FunctionError) as info:
        evaluate(parse("$value"))
    assert info.value.kind == "ContextError" and info.value.function == "value"


def test_keys_evaluating_to_the_same_value_are_duplicate_keys() -> None:
    tree = {Call("concat", ["a", "b"]): 1, "ab": 2}
    with pytest.raises(FunctionError) as info:
        evaluate(tree)
    assert info.value.kind == "DuplicateKey" and info.value.diagnostic.code == "duplicate-key"


def test_evaluate_calls_keeps_failing_calls_and_reports_each() -> None:
    from toskit.functions import evaluate_calls

    tree = parse(
        {
            "ok": {"$concat": ["a", "b"]},
            "bad": {"$get_input": "memory"},
            "unknown": [{"$frobnicate": [1]}],
            "nested": {"$concat": ["x", {"$token": ["a", ":", 4]}]},
        },
        path=("node_templates", "n", "properties"),
    )
    diags: list = []
    result = evaluate_calls(tree, {"cpus": 4}, diagnostics=diags)
    assert result["ok"] == "ab"
    assert result["bad"] is tree["bad"] and str(result["bad"]) == "$get_input: [memory]"
    assert result["unknown"][0] is tree["unknown"][0]
    assert result["nested"] is tree["nested"]
    assert [(d.code, d.path) for d in diags] == [
        ("function-error", "node_templates.n.properties.bad"),
        ("unknown-function", "node_templates.n.properties.unknown[0]"),
        ("function-error", "node_templates.n.properties.nested.$concat[1]"),
    ]
    assert diags[0].message == "get_input: UnknownInput: no input 'memory' is declared"


def test_evaluate_calls_locates_through_the_factory_and_checks_keys() -> None:
    from toskit.functions import evaluate_calls

    seen = []

    def make(severity, code, message, parts, *, hint=None, at_key=False):
        seen.append(parts)
        return toskit.Diagnostic(severity, code, message, line=len(seen))

    diags: list = []
    tree = {
        Call("concat", ["a", "b"], path=("k1",)): 1,
        "ab": 2,
        Call("concat", [[1], [2]], path=("k2",)): 3,
    }
    result = evaluate_calls(tree, diagnostics=diags, make_diagnostic=make)
    assert [d.code for d in diags] == ["duplicate-key", "function-error"]
    assert seen == [("k1",), ("k2",)] and [d.line for d in diags] == [1, 2]
    assert result == {Call("concat", ["a", "b"]): 1, "ab": 2, Call("concat", [[1], [2]]): 3}


def test_dates_from_a_yaml_loader_compare_by_instant() -> None:
    import datetime as dt

    later = dt.datetime(2020, 1, 2, tzinfo=dt.timezone.utc)
    assert evaluate(Call("less_than", [dt.date(2020, 1, 1), later])) is True
    assert evaluate(Call("equal", [later, later])) is True
