"""Property-based tests: parse/unparse/evaluate never fail with anything but toskit errors."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import BIG_INTEGERS, plain_data, plain_scalars

from toskit import NO_DEFAULT
from toskit.errors import FunctionError, FunctionSyntaxError
from toskit.functions import BUILTINS_2_0, Call, evaluate, parse, unparse
from toskit.functions.memory import MemoryTemplate
from toskit.plain import MAX_DEPTH

NAMES = [
    "concat",
    "get_input",
    "value",
    "node_index",
    "sum",
    "and",
    "x",
    "ns:f",
    "f$1",
    ":",
    "",
    "$",
    "a:",
    "get_property",
    "token",
]
STRINGS = st.one_of(
    st.sampled_from(
        ["$" + n for n in NAMES]
        + ["$$" + n for n in NAMES]
        + ["$", "$$", "a", "1 GB", "500 MB", "1.2.3", "SELF", "ALL", "TARGET", "2 s"]
    ),
    st.text(alphabet="$a:b 1.", max_size=6),
)
SCALARS = plain_scalars(BIG_INTEGERS, st.floats(allow_nan=False), STRINGS)
KEYS = st.one_of(STRINGS, st.integers(min_value=-3, max_value=3), st.none())

DATA = plain_data(SCALARS, KEYS, max_leaves=20, list_size=4)

FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(DATA, st.sampled_from(["2.0", "1.3"]))
def test_parse_raises_only_function_syntax_error(data: object, version: str) -> None:
    diags: list = []
    try:
        parse(data, version, diagnostics=diags)
    except FunctionSyntaxError as exc:
        assert exc.diagnostics and exc.diagnostic.code in (
            "malformed-function",
            "limit-exceeded",
            "duplicate-key",
        )
    assert all(d.code == "dollar-literal" for d in diags)


@FUZZ
@given(DATA, st.sampled_from(["2.0", "1.3"]))
def test_unparse_then_parse_is_identity(data: object, version: str) -> None:
    try:
        tree = parse(data, version)
    except FunctionSyntaxError:
        return
    assert parse(unparse(tree, version), version) == tree


@FUZZ
@given(DATA)
def test_unparse_of_parsed_2_0_data_gives_back_equivalent_data(data: object) -> None:
    try:
        tree = parse(data)
    except FunctionSyntaxError:
        return
    # Unparsed data is unambiguous: parsing it reports no dollar-literal warnings.
    diags: list = []
    parse(unparse(tree), diagnostics=diags)
    assert diags == []


def _graph() -> MemoryTemplate:
    tpl = MemoryTemplate(inputs={"a": 1, "b": {"c": [1, 2]}, "none": NO_DEFAULT})
    n = tpl.add_node("a", {"x": 1, "$": "y"}, {"x": "integer"}, count=2, artifacts={"a": "f"})
    n.add_capability("a", {"x": "1 GB"})
    tpl.add_node("b", {"SELF": 3})
    tpl.connect(n, "a", tpl.node("b"))
    tpl.connect(tpl.node("b"), "b", n, capability="a")
    return tpl


GRAPH = _graph()


def _plain(value: object) -> bool:
    """Plain data (what evaluate promises), with calls only where they stay unevaluated."""
    if value is None or isinstance(value, (bool, int, float, str, Call)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return False


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(BUILTINS_2_0)),
    st.lists(DATA, max_size=5),
    st.booleans(),
    st.sampled_from(["2.0", "1.3"]),
)
def test_builtins_raise_only_function_error(
    name: str, args: list, with_context: bool, version: str
) -> None:
    kwargs = {"context": GRAPH, "self_entity": GRAPH.node("a")} if with_context else {}
    try:
        result = evaluate(
            Call(name, args),
            GRAPH.input_values,
            value=args[0] if args else None,
            version=version,
            **kwargs,
        )
    except FunctionError as exc:
        assert exc.kind and exc.diagnostic is not None and exc.function == name
        return
    assert _plain(result)


@FUZZ
@given(DATA)
def test_evaluating_parsed_data_raises_only_function_error(data: object) -> None:
    try:
        tree = parse(data)
    except FunctionSyntaxError:
        return
    try:
        evaluate(tree, {"a": 1}, context=GRAPH, self_entity=GRAPH.node("a"))
    except FunctionError as exc:
        assert exc.diagnostic.code in ("function-error", "unknown-function", "limit-exceeded")


def _nested(depth: int) -> object:
    """Alternating lists and maps, ``depth`` containers deep, with calls beside."""
    value: object = "$$x"
    levels = 0
    i = 0
    while levels < depth:
        value = {"k": [value]} if i % 2 else [value, {"$concat": ["a", "b"]}]
        levels += 2 if i % 2 else 1
        i += 1
    return value


@pytest.mark.parametrize("depth", [50, MAX_DEPTH - 2])
def test_deeply_nested_values(depth: int) -> None:
    tree = parse(_nested(depth))
    assert parse(unparse(tree)) == tree
    evaluate(tree)


def test_values_deeper_than_the_bound_are_a_clear_error() -> None:
    with pytest.raises(FunctionSyntaxError, match="nested too deeply to parse"):
        parse(_nested(MAX_DEPTH + 100))


TYPES = st.sampled_from(
    [
        None,
        "version",
        "timestamp",
        "scalar-unit.size",
        "scalar-unit.time",
        "string",
        "integer",
        "list",
        "my.Unknown",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["equal", "greater_than", "less_or_equal", "valid_values", "sum", "has_entry"]),
    DATA,
    DATA,
    TYPES,
)
def test_typed_comparisons_raise_only_function_error(
    name: str, value: object, other: object, value_type: str | None
) -> None:
    call = Call(name, [Call("value", []), other])
    try:
        result = evaluate(call, value=value, value_type=value_type)
    except FunctionError as exc:
        assert exc.function in (name, "value")
        return
    assert _plain(result)


@FUZZ
@given(DATA, DATA)
def test_canonical_keys_agree_with_deep_equality(a: object, b: object) -> None:
    from toskit.functions.compare import canonical, deep_equal

    assert (canonical(a) == canonical(b)) == deep_equal(a, b)
    assert deep_equal(a, a)


def test_union_keeps_booleans_apart_from_numbers() -> None:
    result = evaluate(Call("union", [[1, True, 1.0, [1], [True], {"a": 1}, {"a": True}]]))
    assert result == [1, True, [1], [True], {"a": 1}, {"a": True}]
    assert [type(x) for x in result[:2]] == [int, bool]
    assert type(result[3][0]) is bool and type(result[5]["a"]) is bool
    (only,) = evaluate(Call("intersection", [[1, True, 0], [True]]))
    assert only is True
