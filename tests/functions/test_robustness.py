"""Robustness of toskit.functions: parsed clauses, deep trees, bad Call arguments, hostile regexes."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import plain_data

import toskit
from toskit.errors import FunctionSyntaxError
from toskit.functions import Call, FunctionError, evaluate, parse, unparse, validate
from toskit.functions._limits import MAX_CALL_DEPTH
from toskit.plain import MAX_DEPTH


def deep_call(depth: int, leaf: object = 1) -> object:
    value = leaf
    for _ in range(depth):
        value = {"$concat": [value]}
    return value


# ---- 1. validate never re-parses a parsed clause ----------------------------------


@pytest.mark.parametrize(
    ("raw_clause", "value"),
    [
        pytest.param("$$value", True, id="escaped-value-string"),
        pytest.param({"a": None, "$$k": None}, None, id="escaped-key-beside-others"),
        pytest.param({"$$greater_than": ["$$value", 1]}, 5, id="escaped-call-lookalike"),
        pytest.param(["$$value"], True, id="escaped-in-list"),
    ],
)
def test_validate_evaluates_a_parsed_literal_as_a_literal(raw_clause, value) -> None:
    tree = parse(raw_clause)
    with pytest.raises(FunctionError) as info:
        validate(tree, value)
    assert info.value.kind == "ValidationNotBoolean"
    assert "raw=True" in info.value.diagnostic.hint


def test_validate_raw_keyword_parses_yaml_data_first() -> None:
    assert validate({"$greater_than": ["$value", 1]}, 5, raw=True) is None
    with pytest.raises(FunctionError) as info:
        validate({"$greater_than": ["$value", 1]}, 0, raw=True)
    assert info.value.kind == "ValidationFailed"
    assert (
        validate({"get_input": "flag"}, 5, version="1.3", raw=True, inputs={"flag": True}) is None
    )
    with pytest.raises(toskit.FunctionSyntaxError):
        validate({"a": 1, "$b": 2}, 0, raw=True)


def test_validate_without_raw_does_not_read_call_syntax_in_plain_data() -> None:
    with pytest.raises(FunctionError) as info:
        validate({"$greater_than": ["$value", 1]}, 5)
    assert info.value.kind == "ValidationNotBoolean"


def test_validate_parsed_calls_still_work() -> None:
    assert validate(parse({"$greater_than": ["$value", 1]}), 5) is None
    assert validate(parse("$value"), True) is None


literal_trees = plain_data(
    st.one_of(st.none(), st.integers(), st.sampled_from(["a", "$$k", "$$value", "$"])),
    st.sampled_from(["a", "$$k", "$$value"]),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(literal_trees, st.integers())
def test_validate_any_parsed_call_free_tree_is_not_boolean(clause, value) -> None:
    tree = parse(clause)
    with pytest.raises(FunctionError) as info:
        validate(tree, value)
    assert info.value.kind == "ValidationNotBoolean"


# ---- 2. deep call trees: no RecursionError -----------------------------------------


def test_calls_nested_deeper_than_the_bound_do_not_parse() -> None:
    # The call bound (MAX_CALL_DEPTH) is checked while parsing, at the first
    # call past it, long before the data bound (toskit.plain.MAX_DEPTH).
    for depth in (MAX_CALL_DEPTH + 1, MAX_DEPTH + 400):
        with pytest.raises(FunctionSyntaxError, match="nested more than 50 deep") as info:
            parse(deep_call(depth))
        diag = info.value.diagnostic
        assert diag.code == "limit-exceeded"
        assert "'$concat' is call 51" in diag.message
        assert "MAX_CALL_DEPTH" in diag.hint
        assert diag.path.count("$concat") == MAX_CALL_DEPTH + 1  # the call past the bound


@pytest.mark.parametrize("depth", [MAX_CALL_DEPTH // 2, MAX_CALL_DEPTH])
def test_str_hash_eq_of_deep_parsed_calls(depth: int) -> None:
    tree = parse(deep_call(depth))
    other = parse(deep_call(depth))
    text = str(tree)
    assert text.startswith("$concat: [{$concat: [")
    assert text.count("$concat") == depth
    assert hash(tree) == hash(other)
    assert tree == other
    assert tree != parse(deep_call(depth, leaf=2))
    assert tree != parse(deep_call(depth - 1))


def test_hand_built_very_deep_call_str_hash_eq() -> None:
    def build(depth: int) -> Call:
        call = Call("concat", [1])
        for _ in range(depth):
            call = Call("concat", [[call]])
        return call

    a, b = build(20000), build(20000)
    assert a == b and hash(a) == hash(b)
    assert str(a).startswith("$concat: [[{$concat: [[")
    assert {a: 1}[b] == 1


def test_str_matches_unparse_for_nested_values() -> None:
    tree = parse({"$concat": ["$$lit", {"$get_input": "x"}, {"k": [1, None, True]}, "$value"]})
    assert str(tree) == "$concat: [$$lit, {$get_input: [x]}, {k: [1, null, true]}, $value]"
    assert parse(unparse(tree)) == tree


def test_eq_and_hash_follow_the_contract() -> None:
    a = Call("concat", ["a", {"k": [1, 2]}])
    b = Call("concat", ["a", {"k": [1, 2]}], form="bare")
    assert a == b and hash(a) == hash(b)  # form is not compared
    assert a != Call("concat", ["a", {"k": [1, 3]}])
    assert a != Call("concat", ["a", {"k": (1, 2)}])  # a list is not a tuple
    assert a != Call("concat", ["a", {"k": [1, 2]}], "ns")
    assert Call("f", [1]) == Call("f", [1.0]) and hash(Call("f", [1])) == hash(Call("f", [1.0]))
    assert (a == "concat") is False


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.one_of(st.none(), st.integers(-3, 3), st.sampled_from(["a", "$$b"])),
        lambda c: st.one_of(
            st.lists(c, max_size=3),
            st.dictionaries(st.sampled_from(["x", "y"]), c, max_size=2),
            st.builds(lambda args: {"$concat": args}, st.lists(c, max_size=2)),
        ),
        max_leaves=10,
    )
)
def test_equality_and_hash_agree_with_plain_data(raw) -> None:
    a, b = parse(raw), parse(raw)
    assert a == b
    if isinstance(a, Call):
        assert hash(a) == hash(b)
        assert parse(yaml_round_trip(str(a))) == a


def yaml_round_trip(text: str) -> object:
    import yaml

    return yaml.safe_load("{" + text + "}")


@pytest.mark.parametrize("depth", [900, 5000])
def test_validate_deep_raw_clause_is_a_toskit_error(depth: int) -> None:
    with pytest.raises(toskit.ToskitError):
        validate(deep_call(depth), 1, raw=True)
    with pytest.raises(FunctionError) as info:
        validate(deep_call(depth), 1)  # evaluated as literal data
    assert info.value.kind in ("ValidationNotBoolean", "LimitExceeded")
    assert len(str(info.value)) < 1000  # messages abbreviate huge values


def test_deep_clause_message_is_abbreviated() -> None:
    tree: object = "x"
    for _ in range(MAX_DEPTH - 50):  # deep, within the bound
        tree = [tree]
    with pytest.raises(FunctionError) as info:
        validate(tree, 1)
    assert info.value.kind == "ValidationNotBoolean"
    assert "…" in str(info.value) and len(str(info.value)) < 1000


def test_contains_call_on_deep_data() -> None:
    from toskit.functions import contains_call

    data: object = "$x"
    for _ in range(5000):
        data = [data]
    assert contains_call(data) is False
    assert contains_call([data, Call("value")]) is True


# ---- 3. Call constructor arguments ------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "fragment"),
    [
        pytest.param(("x", 5), {}, "list of arguments", id="int-args"),
        pytest.param(("x", None), {}, "list of arguments", id="none-args"),
        pytest.param(("x", "ab"), {}, "list of arguments", id="string-args"),
        pytest.param(("x", {"a": 1}), {}, "list of arguments", id="map-args"),
        pytest.param((5, []), {}, "name", id="int-name"),
        pytest.param(("", []), {}, "name", id="empty-name"),
        pytest.param(("x", [], 3), {}, "namespace", id="int-namespace"),
        pytest.param(("x", []), {"key_variant": 1}, "key_variant", id="int-variant"),
        pytest.param(("x", []), {"form": "flow"}, "form", id="bad-form"),
    ],
)
def test_bad_call_arguments_raise_toskit_error(args, kwargs, fragment) -> None:
    with pytest.raises(toskit.ToskitError, match=fragment):
        Call(*args, **kwargs)


def test_call_accepts_any_iterable_of_arguments() -> None:
    assert Call("concat", ("a", "b")) == Call("concat", ["a", "b"])
    assert evaluate(Call("concat", iter(["a", "b"]))) == "ab"


# ---- 4. catastrophic regular expressions --------------------------------------------

CONFORMANCE_PATTERNS = [
    r"^(https?:\/\/)?([\da-z\.-]+)\.([a-z\.]{2,6})([\/\w \.-]*)*\/?$",
    r"^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$",
    r"^[a-zA-Z_][a-zA-Z0-9_]*$",
]


def _matches(text: str, pattern: str) -> object:
    return evaluate(parse({"$matches": [text, pattern]}))


def _within(seconds: float, func, *args):
    start = time.perf_counter()
    result = func(*args)
    assert time.perf_counter() - start < seconds
    return result


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        pytest.param(r"(a+)+$", "a" * 45 + "b", False, id="nested-plus-fails-fast"),
        pytest.param(r"(a+)+$", "b" + "a" * 45, True, id="nested-plus-matches"),
        pytest.param(r"^(a*)*b$", "a" * 45 + "c", False, id="nested-star"),
        pytest.param(r"^(a{2,})*$", "a" * 45 + "c", False, id="nested-min-two"),
        pytest.param(r"^(a{2,})*$", "a", False, id="nested-min-two-short"),
        pytest.param(r"^(a{2,})*$", "", True, id="nested-min-two-empty"),
        pytest.param(r"^(a+){2,3}$", "a", False, id="bounded-outer-too-short"),
        pytest.param(r"^(a+){2,3}$", "aaaaa", True, id="bounded-outer"),
        pytest.param(
            CONFORMANCE_PATTERNS[0], "http://ab.cd/" + "a" * 60 + "!", False, id="oasis-url-hostile"
        ),
        pytest.param(CONFORMANCE_PATTERNS[0], "https://example.com/a/b c", True, id="oasis-url"),
        pytest.param(CONFORMANCE_PATTERNS[1], "192.168.1.250", True, id="oasis-ipv4"),
        pytest.param(CONFORMANCE_PATTERNS[1], "192.168.1.256", False, id="oasis-ipv4-bad"),
        pytest.param(CONFORMANCE_PATTERNS[2], "_abc9", True, id="oasis-identifier"),
        pytest.param(r"^([a-z0-9]+(-[a-z0-9]+)*)$", "a-b-" + "c" * 40 + "!", False, id="dns-label"),
        pytest.param(r"(a|aa)+$", "a" * 45 + "b", False, id="overlapping-alternatives"),
        pytest.param(r"^(a|a?)+$", "a" * 45 + "b", False, id="optional-alternative"),
        pytest.param(r"\d*\d*\d*\d*\d*\d*x", "1" * 2000, False, id="polynomial-digits"),
        pytest.param(r".*=.*=.*=.*;", "=" * 2000, False, id="polynomial-dots"),
        pytest.param(r"(\w+\s?)*$", "a" * 45 + "!", True, id="optional-separator"),
        pytest.param(r"^(\w+\s?)*$", "a" * 45 + "!", False, id="optional-separator-anchored"),
        pytest.param(r"((a+)b?)*c", "a" * 45 + "!", False, id="nested-group"),
        pytest.param(r"^(a{2,}){3,}$", "a" * 3000 + "!", False, id="nested-counted"),
        pytest.param(r"abc\Z", "xabc", True, id="python-end-of-text"),
    ],
)
def test_matches_is_bounded_and_correct(pattern: str, text: str, expected: bool) -> None:
    import re

    assert _within(0.5, _matches, text, pattern) is expected
    if len(text) < 20:  # small enough for plain `re` to agree quickly
        assert (re.search(pattern, text) is not None) is expected


@pytest.mark.parametrize(
    ("pattern", "construct"),
    [
        pytest.param(r"(x)\1", "back-reference", id="backreference"),
        pytest.param(r"(?P<n>x)(?P=n)", "named back-reference", id="named-backreference"),
        pytest.param(r"a(?=b)", "lookahead", id="lookahead"),
        pytest.param(r"a(?!b)", "negative lookahead", id="negative-lookahead"),
        pytest.param(r"(?<=a)b", "lookbehind", id="lookbehind"),
        pytest.param(r"(?<!a)b", "negative lookbehind", id="negative-lookbehind"),
        pytest.param(r"(?>a+)+$", "atomic group", id="atomic"),
        pytest.param(r"(a++)+$", "possessive repeat", id="possessive"),
        pytest.param(r"(?(1)a|b)", "conditional group", id="conditional"),
    ],
)
def test_constructs_re2_cannot_run_are_invalid_regex(pattern: str, construct: str) -> None:
    with pytest.raises(FunctionError) as info:
        _within(0.5, _matches, "a" * 45 + "!", pattern)
    assert info.value.kind == "InvalidRegex"
    assert f"uses a {construct}" in str(info.value) or f"uses an {construct}" in str(info.value)
    assert "RE2" in info.value.diagnostic.hint


def test_invalid_regex_still_reported() -> None:
    with pytest.raises(FunctionError) as info:
        _matches("a", "(")
    assert info.value.kind == "InvalidRegex"
    assert "not a valid regular expression" in str(info.value)


def test_overlong_pattern_is_refused() -> None:
    with pytest.raises(FunctionError) as info:
        _matches("a", "a" * 10_001)
    assert info.value.kind == "InvalidRegex"
    assert "over the limit of 10000" in str(info.value)


def test_pattern_constraint_is_bounded() -> None:
    from toskit.functions import check_value

    diags = _within(
        1.0,
        lambda: check_value("a" * 45 + "b", constraints=[{"pattern": "(a|aa)+"}], version="1.3"),
    )
    assert [d.code for d in diags] == ["constraint-violation"]
    assert check_value("aaa", constraints=[{"pattern": "(a|aa)+"}], version="1.3") == []
    diags = check_value("aaa", constraints=[{"pattern": r"(a)\1"}], version="1.3")
    assert [d.code for d in diags] == ["function-error"]
    assert "back-reference" in diags[0].message


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["a", "b", "(", ")", "(?:", "+", "*", "?", "{2,}", "|", "\\1", "$"]),
        max_size=10,
    ).map("".join),
    st.text(alphabet="ab", max_size=12),
)
def test_bounded_regex_agrees_with_re(pattern: str, text: str) -> None:
    """On the syntax both share, RE2 matches exactly the texts `re` matches."""
    import re

    from toskit.functions.regex import RegexRejected, compile_bounded

    try:
        expected = re.search(pattern, text) is not None
    except re.error:
        return  # not Python syntax either (RE2 is more lenient: '$+')
    try:
        compiled = compile_bounded(pattern)
    except RegexRejected as exc:
        assert " uses " in str(exc)  # Python syntax RE2 lacks: the construct is named
        return
    assert (compiled.search(text) is not None) == expected


# ---- one depth bound: data walks need no recursion room (issue #15) ------------------


def _deep_data(levels: int) -> object:
    """Maps and lists ``levels`` deep, a call at the bottom and one beside each list."""
    value: object = {"$concat": ["a", "b"]}
    for i in range(levels):
        value = {"k": value} if i % 2 else [value, {"$concat": ["c", "d"]}]
    return value


def _from_depth(frames: int, work):
    return _from_depth(frames - 1, work) if frames else work()


def test_data_at_the_bound_parses_and_evaluates_at_the_default_limit(default_limit_and_no_raise):
    from toskit.functions.evaluate import evaluate_calls

    value = _deep_data(MAX_DEPTH - 2)  # the call's map and list below make it MAX_DEPTH

    def work():
        tree = parse(value)
        assert parse(unparse(tree)) == tree
        result = evaluate(tree)
        diagnostics: list = []
        assert evaluate_calls(tree, diagnostics=diagnostics) == result
        assert diagnostics == []
        bottom = result
        for i in reversed(range(MAX_DEPTH - 2)):
            bottom = bottom["k"] if i % 2 else bottom[0]
        assert bottom == "ab"

    _from_depth(300, work)
    assert default_limit_and_no_raise == []  # the process-wide limit was never touched


def test_data_past_the_bound_is_a_clear_error_at_the_default_limit(default_limit_and_no_raise):
    from toskit.functions.evaluate import evaluate_calls

    tree = Call("concat", ["a"])
    for _ in range(MAX_DEPTH + 10):
        tree = [tree]  # built as a tree: parse is not the one to stop it
    with pytest.raises(FunctionError, match="nested too deeply") as info:
        evaluate(tree)
    assert info.value.kind == "LimitExceeded"
    with pytest.raises(FunctionError, match="nested too deeply"):
        evaluate_calls(tree, diagnostics=[])
    with pytest.raises(toskit.ToskitError, match="nested too deeply"):
        unparse(tree)
    assert default_limit_and_no_raise == []


# ---- one bound on call nesting: no raised recursion limit (issue #15) -----------------

# Nestings of every shape the frames-per-level measurements cover: a call in a
# call (6 frames a level), a list between (9), a map between.
_NESTINGS = {
    "concat": (lambda v: {"$concat": [v, "."]}, "x", "x" + "." * (MAX_CALL_DEPTH - 1)),
    "join-list": (lambda v: {"$join": [[v, "."]]}, "x", "x" + "." * (MAX_CALL_DEPTH - 1)),
    "length-map": (lambda v: {"$length": [{"k": v}]}, "x", 1),
}


def _nested(shape: str, levels: int) -> object:
    wrap, value, _ = _NESTINGS[shape]
    value = {"$concat": [value]}
    for _ in range(levels - 1):
        value = wrap(value)
    return value


@pytest.mark.parametrize("shape", sorted(_NESTINGS))
def test_calls_nested_to_the_bound_evaluate_at_the_default_limit(default_limit_and_no_raise, shape):
    """MAX_CALL_DEPTH levels of calls parse, unparse and evaluate from 300
    frames down at CPython's default limit, which nothing raises."""
    from toskit.functions.evaluate import evaluate_calls

    value = _nested(shape, MAX_CALL_DEPTH)
    expected = _NESTINGS[shape][2]

    def work():
        tree = parse(value)
        assert parse(unparse(tree)) == tree
        assert evaluate(tree) == expected
        diagnostics: list = []
        assert evaluate_calls(tree, diagnostics=diagnostics) == expected
        assert diagnostics == []

    _from_depth(300, work)
    assert default_limit_and_no_raise == []


def test_calls_one_past_the_bound_are_a_clear_error_at_the_default_limit(
    default_limit_and_no_raise,
):
    from toskit.functions.evaluate import evaluate_calls

    def work():
        with pytest.raises(FunctionSyntaxError, match="nested more than 50 deep") as info:
            parse(_nested("join-list", MAX_CALL_DEPTH + 1))
        assert info.value.diagnostic.code == "limit-exceeded"
        # A tree built by hand (not parsed) is stopped by evaluation, at the same bound.
        tree: object = Call("concat", ["x"])
        for _ in range(MAX_CALL_DEPTH):
            tree = Call("concat", [[tree]])
        with pytest.raises(FunctionError, match="calls nested deeper than 50") as failed:
            evaluate(tree)
        assert failed.value.kind == "LimitExceeded"
        assert failed.value.diagnostic.code == "limit-exceeded"
        diagnostics: list = []
        evaluate_calls(tree, diagnostics=diagnostics)
        assert [d.code for d in diagnostics] == ["limit-exceeded"]

    _from_depth(300, work)
    assert default_limit_and_no_raise == []


def test_max_depth_lowers_the_call_bound_but_cannot_raise_it() -> None:
    tree: object = Call("concat", ["x"])
    for _ in range(MAX_CALL_DEPTH - 1):
        tree = Call("concat", [tree])
    assert evaluate(tree) == "x"
    with pytest.raises(FunctionError, match="calls nested deeper than 10"):
        evaluate(tree, max_depth=10)
    with pytest.raises(FunctionError, match="calls nested deeper than 50"):
        evaluate(Call("concat", [tree]), max_depth=400)


def test_no_toskit_module_changes_the_recursion_limit() -> None:
    """toskit never raises (or lowers) the process-wide recursion limit: no
    module of the package calls or names ``setrecursionlimit`` in code."""
    import ast
    from pathlib import Path

    package = Path(toskit.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
            if name == "setrecursionlimit":
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    assert len(list(package.rglob("*.py"))) > 50  # the package was found
    assert found == []
