"""spec/conditions.md §3–§5 and §12.1: tokens, grammar, values, references."""

from __future__ import annotations

import pytest
from fixtures.conditions import CLUSTERS, MODELS

from toskit import ConditionError, ToskitError
from toskit.conditions import Cluster, Expression, compile_expression


def run(text, cluster="MN1", selected=(), strict=True, variables=None, models=MODELS):
    c = CLUSTERS[cluster] if isinstance(cluster, str) else cluster
    return compile_expression(text).evaluate(
        cluster=c, selected=selected, variables=variables, models=models, strict=strict
    )


# (id, expression, kwargs, expected value)
VALUES = [
    ("E01", "true", {}, True),
    ("E04", "1 == true", {}, False),
    ("E09", "cluster:mode == 'multinode'", {}, True),
    ("E11", "cluster:mode", {}, "multinode"),
    ("E15", "cluster:nonexistent == null", {"strict": False}, True),
    ("E16", "cluster:mode != 'multinode' and cluster:nonexistent == null", {}, False),
    ("E19", "'experimental' in version:feature_groups", {}, True),
    ("E22", "true or true and false", {}, True),
    ("E24", "not 1 == 2", {}, True),
    ("E27", "not ('x' in version:feature_groups)", {}, True),
    ("E31", "selectedNodes._length <= 1", {"selected": [11, 12]}, False),
    ("E32", "cluster:nodes._pluck('id')", {}, [1, 2]),
    # values and operators (§5.1)
    ("int-float-equal", "1 == 1.0", {}, True),
    ("null-not-false", "null == false", {}, False),
    ("true-not-in-numbers", "true in cluster:nodes._pluck('id')", {}, False),
    ("one-in-ids", "1 in cluster:nodes._pluck('id')", {}, True),
    ("float-in-ids", "1.0 in cluster:nodes._pluck('id')", {}, True),
    ("substring", "'multi' in cluster:mode", {}, True),
    ("not-in", "'zzz' not in cluster:mode", {}, True),
    ("mapping-key", "'storage' in settings:storage.osd_pool_size", {}, False),
    ("mapping-key-present", "'value' in settings:storage.osd_pool_size", {}, True),
    ("deep-equality", "settings:storage == settings:storage", {}, True),
    ("ordering", "settings:storage.osd_pool_size.value < 3", {}, True),
    ("float-number", "2.5 >= 2", {}, True),
    ("negative-number", "-1 < 0", {}, True),
    ("and-returns-bool", "1 and 'x'", {}, True),
    ("or-returns-bool", "0 or ''", {}, False),
    ("not-returns-bool", "not ''", {}, True),
    ("left-assoc", "false and true or true", {}, True),
    ("keyword-prefix-name", "settings:storage.osd_pool_size.value == 2", {}, True),
    ("double-quotes", '"it\'s" == "it\'s"', {}, True),
    ("hyphen-key", "settings:osd-pool == null", {"strict": False}, True),
    ("strict-false-chain", "settings:a.b.c.d", {"strict": False}, None),
    ("length-string", "cluster:mode._length", {}, 9),
    ("length-mapping", "settings:storage._length", {}, 1),
    ("pluck-missing", "cluster:nodes._pluck('name')", {}, [None, None]),
    ("with-role", "cluster:nodes._withRole('controller')._pluck('id')", {}, [1]),
    ("after-deployment", "cluster:nodes._afterDeployment._length", {"cluster": "MN1D"}, 1),
    (
        "pending-deletion",
        "cluster:nodes._pluck('pending_deletion')",
        {"cluster": "MN1D"},
        [True, False],
    ),
    ("pool-selected", "selectedNodes._pluck('id')", {"selected": [11, 1, 11]}, [11, 1]),
    ("placeholder-binding", "<value> == 'a b'", {"variables": {"value": "a b"}}, True),
    (
        "placeholder-mapping",
        "<node>._hasRole('x')",
        {"variables": {"node": {"id": 5, "roles": ["x"]}}},
        True,
    ),
    ("placeholder-defaults", "<node>._pending_deletion", {"variables": {"node": {"id": 5}}}, False),
    (
        "has-deployed-pending",
        "<n>._hasDeployedRole('x')",
        {"variables": {"n": {"pending_roles": ["x"]}}},
        False,
    ),
    (
        "pending-addition",
        "cluster:nodes._pluck('pending_addition')",
        {"cluster": "MN1P"},
        [True, False],
    ),
    ("standard-model-empty", "release:name == null", {"strict": False}, True),
    ("nullable-is-name", "settings:nullable == null", {"strict": False}, True),
    ("trueish-is-name", "settings:trueish == null", {"strict": False}, True),
    ("nested-parens", "((1 == 1))", {}, True),
    ("whitespace", "  cluster:mode\n==\t'multinode'  ", {}, True),
    ("list-result-is-list", "cluster:nodes._pluck('roles')", {}, [["controller"], ["compute"]]),
]


@pytest.mark.parametrize("sid,text,kwargs,expected", VALUES, ids=[v[0] for v in VALUES])
def test_values(sid, text, kwargs, expected):
    result = run(text, **kwargs)
    assert result == expected
    assert type(result) is type(expected)


# (id, expression, kwargs, kind, position, message fragment)
ERRORS = [
    ("E06", "'it''s'", {}, "SyntaxError", 4, "strings have no escapes"),
    ("E07", "'multinode", {}, "SyntaxError", 0, "Unterminated string"),
    ("E13", "foo:bar == 1", {}, "UnknownModel", 0, 'No model with name "foo" defined'),
    (
        "E14",
        "cluster:nonexistent == null",
        {},
        "Undefined",
        0,
        "Value of cluster:nonexistent is undefined",
    ),
    ("E17", "cluster.mode == 'multinode'", {}, "UnboundVariable", 0, "Unknown variable 'cluster'"),
    ("E21", "1 in cluster:mode", {}, "TypeError", 2, "string"),
    ("E29", "1 == 1 == true", {}, "SyntaxError", 7, "parentheses"),
    (
        "E35",
        "cluster:mode._pluck('id')",
        {},
        "TypeError",
        13,
        "'_pluck' expects a list, got string",
    ),
    ("E38", "cluster:nodes._size", {}, "UnknownSpecial", 14, "Unknown special member '_size'"),
    ("E40", "cluster:mode ==", {}, "SyntaxError", 15, "Unexpected end of expression"),
    ("E42", "cluster:mode = 'x'", {}, "SyntaxError", 13, "Illegal character '='"),
    ("lone-bang", "a ! b", {}, "SyntaxError", 2, "Illegal character '!'"),
    ("colon-alone", "cluster: mode", {}, "SyntaxError", 7, "Illegal character ':'"),
    ("le-no-space", "1 <=1", {}, None, None, None),  # valid: the operator needs no spaces
    ("placeholder-before-less", "1 <a> 2", {}, "SyntaxError", 2, "Unexpected '<a>'"),
    ("chain-lt", "1 < 2 < 3", {}, "SyntaxError", 6, "chained"),
    ("chain-in", "'a' == 'a' in 'abc'", {}, "SyntaxError", 11, "chained"),
    ("not-in-chain", "1 == 1 not in [1]", {}, "SyntaxError", 7, "chained"),
    ("not-operand", "1 == not true", {}, "SyntaxError", 5, "Unexpected 'not'"),
    ("x-not-y", "'x' not 'y'", {}, "SyntaxError", 8, "Unexpected ''y''"),
    ("x-not-end", "'x' not", {}, "SyntaxError", 7, "Unexpected end of expression"),
    ("unclosed-paren", "(1 == 1", {}, "SyntaxError", 7, "Unexpected end of expression"),
    ("extra-paren", "1 == 1)", {}, "SyntaxError", 6, "Unexpected ')'"),
    ("empty", "", {}, "SyntaxError", 0, "Unexpected end of expression"),
    ("trailing-dot", "cluster:nodes.", {}, "SyntaxError", 14, "Unexpected end of expression"),
    ("keyword-member", "cluster:nodes.in", {}, "SyntaxError", 14, "Unexpected 'in'"),
    ("two-values", "1 2 =", {}, "SyntaxError", 2, "Unexpected '2'"),
    ("property-called", "cluster:nodes._length()", {}, "TypeError", 14, "'_length' is a property"),
    (
        "method-not-called",
        "cluster:nodes._pluck",
        {},
        "TypeError",
        14,
        "'_pluck' takes exactly one argument",
    ),
    (
        "method-two-args",
        "cluster:nodes._pluck('a', 'b')",
        {},
        "TypeError",
        14,
        "'_pluck' takes exactly one argument",
    ),
    ("data-member-called", "cluster:nodes.foo(1)", {}, "TypeError", 14, "not a method"),
    ("pluck-number-arg", "cluster:nodes._pluck(1)", {}, "TypeError", 14, "string argument"),
    ("hasrole-on-list", "cluster:nodes._hasRole('x')", {}, "TypeError", 14, "expects a node"),
    (
        "length-of-number",
        "settings:storage.osd_pool_size.value._length",
        {},
        "TypeError",
        37,
        "'_length'",
    ),
    ("order-strings", "'a' < 'b'", {}, "TypeError", 4, "expects numbers"),
    ("order-bool", "true < 2", {}, "TypeError", 5, "expects numbers"),
    ("in-number", "1 in 2", {}, "TypeError", 2, "on the right"),
    ("not-in-position", "1 not in cluster:mode", {}, "TypeError", 2, "string"),
    ("in-mapping-number", "1 in settings:storage", {}, "TypeError", 2, "mapping"),
    (
        "undefined-deep",
        "settings:storage.missing == 1",
        {},
        "Undefined",
        0,
        "Value of settings:storage.missing is undefined",
    ),
    (
        "undefined-member-of-string",
        "cluster:mode.x",
        {},
        "Undefined",
        0,
        "Value of cluster:mode.x is undefined",
    ),
    (
        "undefined-inside",
        "1 == 1 and settings:storage.nope",
        {},
        "Undefined",
        11,
        "settings:storage.nope",
    ),
    (
        "undefined-placeholder-chain",
        "<n>.name",
        {"variables": {"n": {"id": 1}}},
        "Undefined",
        0,
        "Value of <n>.name is undefined",
    ),
    ("unbound-placeholder", "1 == 1 and <node>.id", {}, "UnboundVariable", 11, "<node>"),
    ("unbound-placeholder-nonstrict", "<node>", {"strict": False}, "UnboundVariable", 0, "<node>"),
    ("underscore-key-special", "settings:storage._name", {}, "UnknownSpecial", 17, "_name"),
    (
        "strict-false-keeps-typeerror",
        "settings:a.b._pluck('x')",
        {"strict": False},
        "TypeError",
        13,
        "'_pluck' expects a list, got null",
    ),
]


@pytest.mark.parametrize(
    "sid,text,kwargs,kind,position,fragment", ERRORS, ids=[e[0] for e in ERRORS]
)
def test_errors(sid, text, kwargs, kind, position, fragment):
    if kind is None:
        run(text, **kwargs)  # must not raise
        return
    with pytest.raises(ConditionError) as info:
        run(text, **kwargs)
    err = info.value
    assert err.kind == kind, str(err)
    assert err.position == position, str(err)
    assert err.expression == text
    assert fragment in err.message
    assert isinstance(err, ToskitError)


STATIC = [
    "'it''s'",
    "cluster:mode = 'x'",
    "cluster:nodes._size",
    "cluster.mode",
    "a._length()",
    "x._pluck",
]


@pytest.mark.parametrize("text", STATIC)
def test_static_errors_raise_at_compile_time(text):
    with pytest.raises(ConditionError):
        compile_expression(text)


@pytest.mark.parametrize(
    "text",
    [
        "foo:bar == 1",
        "cluster:nonexistent",
        "<node>.id",
        "1 in cluster:mode",
        "'a' < 1",
        "cluster:mode._pluck('x')",
    ],
)
def test_dynamic_errors_only_when_evaluated(text):
    expr = compile_expression(text)
    assert isinstance(expr, Expression) and expr.text == text
    guarded = compile_expression(f"false and ({text})")
    assert guarded.evaluate(cluster=CLUSTERS["MN1"]) is False


def test_caret_rendering():
    with pytest.raises(ConditionError) as info:
        compile_expression("cluster:mode = 'x'")
    assert str(info.value) == (
        "SyntaxError: Illegal character '='\n    cluster:mode = 'x'\n                 ^"
    )


def test_caret_rendering_replaces_line_breaks():
    with pytest.raises(ConditionError) as info:
        compile_expression("1 ==\n= 2")
    lines = str(info.value).splitlines()
    assert lines == ["SyntaxError: Illegal character '='", "    1 == = 2", "         ^"]


def test_error_without_position_has_one_line():
    err = ConditionError("RoleConflict", "Role 'a' in conflict with role 'b'.")
    assert str(err) == "RoleConflict: Role 'a' in conflict with role 'b'."


def test_chained_comparison_message_suggests_parentheses():
    with pytest.raises(ConditionError) as info:
        compile_expression("1 == 1 == true")
    assert "(a == b) == c" in info.value.message


def test_compile_is_cached_by_text():
    assert compile_expression("1 == 1") is compile_expression("1 == 1")


def test_numbers_tokens():
    assert compile_expression("1.5").evaluate() == 1.5
    assert type(compile_expression("2").evaluate()) is int
    assert compile_expression("-3").evaluate() == -3


def test_model_cluster_used_only_without_cluster():
    expr = compile_expression("cluster:mode")
    assert expr.evaluate(models={"cluster": {"mode": "x"}}) == "x"
    assert expr.evaluate(cluster=CLUSTERS["MN0"], models={"cluster": {"mode": "x"}}) == "multinode"


def test_models_may_add_names():
    assert compile_expression("extra:a.b").evaluate(models={"extra": {"a": {"b": 3}}}) == 3


def test_selected_without_cluster_is_an_error():
    with pytest.raises(ToskitError):
        compile_expression("true").evaluate(selected=[1])


def test_unknown_selected_id_is_named():
    with pytest.raises(ToskitError, match="99"):
        compile_expression("true").evaluate(cluster=CLUSTERS["MN1"], selected=[99])


def test_selected_id_types_are_distinct():
    cluster = Cluster("multinode", nodes=[{"id": 1}])
    with pytest.raises(ToskitError, match="'1'"):
        compile_expression("true").evaluate(cluster=cluster, selected=["1"])


def test_result_cannot_mutate_cluster():
    cluster = CLUSTERS["MN1"]
    nodes = compile_expression("cluster:nodes").evaluate(cluster=cluster)
    nodes[0]["roles"].append("hacker")
    nodes.clear()
    assert compile_expression("cluster:nodes._pluck('roles')").evaluate(cluster=cluster) == [
        ["controller"],
        ["compute"],
    ]


def test_binding_is_by_value_not_text():
    tricky = "') or true or ('"
    assert compile_expression("<value> == 'x'").evaluate(variables={"value": tricky}) is False


def test_never_uses_eval(monkeypatch):
    import builtins

    def forbidden(*a, **k):
        raise AssertionError("eval/exec used")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    assert compile_expression("cluster:mode == 'multinode' and 1 < 2").evaluate(
        cluster=CLUSTERS["MN1"]
    )
    with pytest.raises(ConditionError):
        compile_expression("__import__('os')")


def test_too_deep_nesting_is_a_condition_error():
    with pytest.raises(ConditionError) as info:
        compile_expression("(" * 500 + "1" + ")" * 500)
    assert info.value.kind == "SyntaxError"
    with pytest.raises(ConditionError):
        compile_expression("not " * 500 + "true")
    long_chain = " and ".join(["true"] * 2000)
    assert compile_expression(long_chain).evaluate() is True


def _deep(depth: int):
    value: object = 1
    for _ in range(depth):
        value = {"a": [value]}
    return value


@pytest.mark.parametrize(
    "text",
    [
        "settings:deep == settings:deep",
        "settings:deep in settings:list",
        "settings:deep",
        "settings:list._pluck('a') == settings:list._pluck('a')",
    ],
)
def test_deep_values_never_raise_recursion_error(text):
    deep = _deep(3000)
    models = {"settings": {"deep": deep, "list": [deep]}}
    try:
        compile_expression(text).evaluate(models=models)
    except ConditionError as err:
        assert err.kind == "TypeError" and "nested too deeply" in err.message


def test_deep_values_in_exists_membership():
    deep = _deep(3000)
    cond = {
        "exists": {"where": "settings:items", "variable": "x", "condition": "<x> in settings:items"}
    }
    from toskit.conditions import evaluate

    try:
        out = evaluate(cond, models={"settings": {"items": [deep] * 20}})
    except ConditionError as err:
        assert "nested too deeply" in err.message
    else:
        assert isinstance(out.value, bool)


# --------------------------------------------------------------------------- fuel's `?` (issue #17)


@pytest.mark.parametrize(
    ("text", "strict", "expected"),
    [
        ("settings:foo.bar.value? == true", True, False),
        ("settings:foo.bar.value? == null", True, True),
        ("settings:storage.osd_pool_size.value?", True, 2),  # present: its value
        ("cluster:missing?", True, None),
        ("cluster:missing? == null and cluster:mode == 'multinode'", True, True),
        ("not settings:foo.bar.value?", True, True),
        ("settings:foo.bar.value? == null", False, True),
    ],
)
def test_question_mark_is_a_lenient_lookup(text, strict, expected):
    assert run(text, strict=strict) == expected


def test_question_mark_covers_only_its_own_path():
    with pytest.raises(ConditionError) as info:
        run("settings:a.b? == null and settings:c.d == null")
    assert (info.value.kind, info.value.position) == ("Undefined", 26)


def test_question_mark_does_not_excuse_an_unknown_model():
    with pytest.raises(ConditionError) as info:
        run("nomodel:x.y? == null")
    assert info.value.kind == "UnknownModel"


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("settings:a.b ? == true", 13, "without a space"),
        ("cluster:nodes._length? == 1", 21, "can only follow a model path"),
        ("(settings:a.b)? == true", 14, "can only follow a model path"),
        ("<n>.id? == 1", 6, "can only follow a model path"),
        ("'a'? == 1", 3, "can only follow a model path"),
        ("settings:a?.b == 1", 11, "Unexpected '.'"),
        ("? == 1", 0, "Unexpected '?'"),
    ],
)
def test_question_mark_misplaced_is_a_syntax_error(text, position, fragment):
    with pytest.raises(ConditionError) as info:
        compile_expression(text)
    assert (info.value.kind, info.value.position) == ("SyntaxError", position)
    assert fragment in info.value.message


# --------------------------------------------------------------------------- default model (wizard)


def test_bare_paths_belong_to_the_default_model_when_one_is_named():
    expr = compile_expression("Compute.vcenter == true and Network.manager != 'x'", "default")
    wizard = {"Compute": {"vcenter": True}, "Network": {"manager": "nova"}}
    assert expr.evaluate(models={"default": wizard}) is True
    # selectedNodes stays the context variable
    assert compile_expression("selectedNodes._length", "default").evaluate() == 0
    with pytest.raises(ConditionError) as info:
        compile_expression("Compute.vcenter == true")  # no default model: unknown variable
    assert info.value.kind == "UnboundVariable"
    with pytest.raises(ConditionError) as info:
        expr.evaluate(models={"default": {"Compute": {}}})
    assert info.value.kind == "Undefined" and "Compute.vcenter" in info.value.message


# --------------------------------------------------------------------------- illegal characters (issue #24)


@pytest.mark.parametrize(
    ("char", "shown"),
    [
        ("\x00", "'\\x00' (U+0000)"),
        ("\u200b", "'\\u200b' (U+200B)"),
        ("\x7f", "'\\x7f' (U+007F)"),
        ("\U000e0001", "'\\U000e0001' (U+E0001)"),
        ("$", "'$'"),
        ("é", "'é'"),
    ],
)
def test_illegal_characters_are_shown_as_escapes_with_their_code_point(char, shown):
    with pytest.raises(ConditionError) as info:
        compile_expression(f"cluster:mode {char} 1")
    assert info.value.message == f"Illegal character {shown}"
    assert info.value.position == 13
    assert char not in info.value.message or char.isprintable()


# --------------------------------------------------------------------------- the compile cache (issue #24)


def test_compile_cache_is_bounded_by_total_text_size(monkeypatch):
    from toskit.conditions import expression as mod

    monkeypatch.setattr(mod, "_CACHE", {})
    monkeypatch.setattr(mod, "_cache_size", 0)
    monkeypatch.setattr(mod, "_CACHE_CHARS", 10_000)
    monkeypatch.setattr(mod, "_CACHE_ITEM_CHARS", 3_000)
    big = [" or ".join([f"cluster:mode == 'm{i}'"] * 120) for i in range(20)]
    for text in big:
        assert compile_expression(text).text == text
        assert mod.cache_chars() <= 10_000
    # the oldest went first; the newest is still cached
    assert compile_expression(big[-1]) is compile_expression(big[-1])
    assert sum(len(t) + 1 for t, _ in mod._CACHE) == mod.cache_chars()
    huge = "true or " * 1000 + "true"
    assert compile_expression(huge) is not compile_expression(huge)  # too long to keep


# --------------------------------------------------------------------------- ConditionError.diagnostic (#15)


def test_condition_error_carries_a_diagnostic():
    with pytest.raises(ConditionError) as info:
        compile_expression("cluster:mode = 'x'")
    err = info.value
    diag = err.diagnostic
    assert (diag.severity, diag.code) == ("error", "expression-syntax")
    assert diag.message == "SyntaxError: Illegal character '='"
    assert "position 13" in diag.hint
    # the existing attributes keep working
    assert (err.kind, err.position, err.expression) == ("SyntaxError", 13, "cluster:mode = 'x'")
    schema = ConditionError("SchemaError", "controller: bad", path="controller")
    assert (schema.diagnostic.code, schema.diagnostic.path) == ("condition-schema", "controller")
    undefined = ConditionError(
        "Undefined", "Value of x:y is undefined", expression="x:y", position=0
    )
    assert undefined.diagnostic.code == "expression-error"


# --------------------------------------------------------------------------- chains and parentheses (#15)


def test_undefined_after_parentheses_is_reported_where_the_outer_chain_starts():
    with pytest.raises(ConditionError) as info:
        compile_expression("(<n>.id).id").evaluate(variables={"n": {"id": 1}})
    err = info.value
    assert (err.kind, err.position) == ("Undefined", 0)
    assert err.message == "Value of (<n>.id).id is undefined"
    assert str(err).endswith("\n    (<n>.id).id\n    ^")
    # the inner chain's own Undefined is where *it* starts, after the '('
    with pytest.raises(ConditionError) as info:
        compile_expression("(<n>.x).id").evaluate(variables={"n": {"id": 1}})
    assert (info.value.position, info.value.message) == (1, "Value of <n>.x is undefined")
    # and a chain without parentheses is one chain
    with pytest.raises(ConditionError) as info:
        compile_expression("1 == <n>.id.id").evaluate(variables={"n": {"id": 1}})
    assert (info.value.position, info.value.message) == (5, "Value of <n>.id.id is undefined")


def test_unexpected_token_text_shows_invisible_characters_as_escapes():
    with pytest.raises(ConditionError) as info:
        compile_expression("'a' 'b\x00c'")
    assert info.value.message.startswith("Unexpected ''b\\x00c''")
    assert info.value.message.isprintable()


def test_compiling_many_large_expressions_keeps_memory_bounded():
    """Issue #24: a count-bounded cache kept thousands of large compiled
    expressions alive. Measured in a fresh interpreter with a 50,000-character
    budget: 60 distinct expressions of about 4,500 characters (~0.4 MB of
    closures each, 25 MB in all) leave at most the budget's worth behind."""
    import subprocess
    import sys

    code = """
import tracemalloc
from toskit.conditions import compile_expression
from toskit.conditions import expression
expression._CACHE_CHARS = 50_000
tracemalloc.start()
for i in range(60):
    compile_expression(" or ".join([f"cluster:mode == 'm{i}'"] * 190))
current, _peak = tracemalloc.get_traced_memory()
print(current, expression.cache_chars())
"""
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    current, cached = map(int, run.stdout.split())
    assert cached <= 50_000
    assert current < 10_000_000, f"{current / 1e6:.0f} MB still allocated"
