"""Declared functions: the ``functions:`` section and signature matching (§8.2, V49, V51)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import yaml

from toskit import functions
from toskit.functions import Call, FunctionError, evaluate, load_function_definitions, parse, refine
from toskit.functions.memory import MemoryTemplate

SQRT = """
sqrt:
  description: square root
  signatures:
    - arguments:
        - type: integer
          validation: { $greater_or_equal: [ $value, 0 ] }
      result: float
      implementation: scripts/sqrt.py
    - arguments: [ float ]
      variadic: false
"""


def defs(text: str, **kw):
    loaded, diags = load_function_definitions(yaml.safe_load(text), **kw)
    assert diags == [], diags
    return loaded


@pytest.fixture()
def sqrt_registered() -> Iterator[None]:
    functions.register("sqrt", lambda x: float(x) ** 0.5)
    yield
    functions.unregister("sqrt")


def test_loads_the_spec_example() -> None:
    loaded = defs(SQRT)
    sqrt = loaded["sqrt"]
    assert sqrt.description == "square root" and len(sqrt.signatures) == 2
    first = sqrt.signatures[0]
    assert first.arguments[0].type == "integer" and first.result.type == "float"
    assert isinstance(first.arguments[0].validation, Call)
    assert first.implementation == "scripts/sqrt.py"


def test_declared_without_callable_stays_unevaluated() -> None:
    tree = parse({"$sqrt": [4]}, known=["sqrt"])
    assert evaluate(tree, definitions=defs(SQRT)) is tree


def test_matching_and_running(sqrt_registered: None) -> None:
    d = defs(SQRT)
    assert evaluate(parse({"$sqrt": [16]}), definitions=d) == 4.0
    assert evaluate(parse({"$sqrt": [2.25]}), definitions=d) == 1.5  # second signature
    # -1 fails the first signature's validation; an int matches float in the second,
    # which declares no result type (the first would reject a complex result).
    assert evaluate(parse({"$sqrt": [-1]}), definitions=d) == (-1.0) ** 0.5


def test_no_matching_signature() -> None:
    d = defs(SQRT)
    for args in (["x"], [], [1, 2]):
        with pytest.raises(FunctionError) as info:
            evaluate(Call("sqrt", args), definitions=d)
        assert info.value.kind == "NoMatchingSignature" and info.value.function == "sqrt"


def test_result_type_is_checked() -> None:
    functions.register("t:badresult", lambda x: "not a float")
    try:
        d = defs(
            "badresult: { signatures: [ { arguments: [ integer ], result: float } ] }",
            namespace="t",
        )
        with pytest.raises(FunctionError) as info:
            evaluate(parse({"$t:badresult": [1]}), definitions=d)
        assert info.value.kind == "TypeMismatch"
    finally:
        functions.unregister("t:badresult")


V49 = """
f:
  signatures:
    - arguments: [ MyType1, string, string, MyType2 ]
      variadic: true
"""


@pytest.mark.parametrize(
    ("args", "matches"),
    [
        pytest.param([1, "a", "b", 2.5], True, id="four"),
        pytest.param([1, "a", "b", 2.5, 3, 4.5], True, id="six-MyType2-x3"),
        pytest.param([1, "a", "b"], False, id="three"),
        pytest.param([1, "a", "b", "not-a-float"], False, id="wrong-type"),
        pytest.param([1, "a", "b", 2.5, "x"], False, id="wrong-repeat"),
    ],
)
def test_v49_variadic(args: list, matches: bool) -> None:
    tpl = MemoryTemplate(derived={"MyType1": "integer", "MyType2": "float"}, functions=defs(V49))
    call = Call("f", args)
    if matches:
        assert evaluate(call, context=tpl) is call  # matched, no callable: unevaluated
    else:
        with pytest.raises(FunctionError) as info:
            evaluate(call, context=tpl)
        assert info.value.kind == "NoMatchingSignature"


@pytest.mark.parametrize(
    ("signature", "args", "matches"),
    [
        ("{ arguments: [] }", [], True),
        ("{ variadic: false }", [1], False),
        ("{ variadic: true }", [1, "x", None], True),
        ("{ arguments: [ integer ], optional_arguments: [ string, boolean ] }", [1], True),
        ("{ arguments: [ integer ], optional_arguments: [ string, boolean ] }", [1, "a"], True),
        (
            "{ arguments: [ integer ], optional_arguments: [ string, boolean ] }",
            [1, "a", True],
            True,
        ),
        ("{ arguments: [ integer ], optional_arguments: [ string, boolean ] }", [1, True], False),
        (
            "{ arguments: [ integer ], optional_arguments: [ string ], variadic: true }",
            [1, "a", "b", "c"],
            True,
        ),
        ("{ arguments: [ float ] }", [1], True),
        ("{ arguments: [ integer ] }", [1.0], False),
        ("{ arguments: [ integer ] }", [True], False),
        ("{ arguments: [ { type: list, entry_schema: integer } ] }", [[1, 2]], True),
        ("{ arguments: [ { type: list, entry_schema: integer } ] }", [[1, "x"]], False),
        (
            "{ arguments: [ { type: map, key_schema: string, entry_schema: boolean } ] }",
            [{"a": True}],
            True,
        ),
        ("{ arguments: [ scalar-unit.size ] }", ["2 GB"], True),
        ("{ arguments: [ scalar-unit.size ] }", ["2 s"], False),
        ("{ arguments: [ version, timestamp ] }", ["1.2.3", "2024-01-01T00:00:00Z"], True),
        ("{ arguments: [ UnknownDataType ] }", [{"any": "thing"}], True),
    ],
)
def test_signature_matching(signature: str, args: list, matches: bool) -> None:
    d = defs(f"g: {{ signatures: [ {signature} ] }}")
    call = Call("g", args)
    if matches:
        assert evaluate(call, definitions=d) is call
    else:
        with pytest.raises(FunctionError):
            evaluate(call, definitions=d)


def test_first_matching_signature_wins() -> None:
    functions.register("t:pick", lambda *a: len(a))
    try:
        d = defs(
            "pick: { signatures: [ { arguments: [ integer ], result: string },"
            " { arguments: [ integer ], result: integer } ] }",
            namespace="t",
        )
        with pytest.raises(FunctionError) as info:  # first signature matched; its result type fails
            evaluate(Call("pick", [1], "t"), definitions=d)
        assert info.value.kind == "TypeMismatch"
    finally:
        functions.unregister("t:pick")


def test_value_matches_type_hook_on_the_context() -> None:
    class Strict(MemoryTemplate):
        def value_matches_type(self, value, type_name):
            return isinstance(value, dict) and "token" in value

    tpl = Strict(functions=defs("h: { signatures: [ { arguments: [ Credential ] } ] }"))
    assert evaluate(Call("h", [{"token": "x"}]), context=tpl) == Call("h", [{"token": "x"}])
    with pytest.raises(FunctionError):
        evaluate(Call("h", [{"user": "x"}]), context=tpl)


def test_v51_namespaced_declarations() -> None:
    d = defs("random_generator: { signatures: [ { variadic: true } ] }", namespace="namespace1")
    assert list(d) == ["namespace1:random_generator"]
    known = list(d)
    tree = parse({"$namespace1:random_generator": [1]}, known=known)
    assert evaluate(tree, definitions=d) is tree
    with pytest.raises(FunctionError) as info:
        evaluate(parse({"$random_generator": [1]}, known=known), definitions=d)
    assert info.value.kind == "UnknownFunction"
    assert info.value.diagnostic.hint == "did you mean 'namespace1:random_generator'?"
    # a declared name is known: bare form is a call
    assert parse("$namespace1:random_generator", known=known) == Call(
        "random_generator", [], "namespace1"
    )


def test_refine_appends_signatures() -> None:
    top = defs("f: { description: top, signatures: [ { arguments: [ integer ] } ] }")["f"]
    inner = defs("f: { description: inner, signatures: [ { arguments: [ string ] } ] }")["f"]
    merged = refine(top, inner)
    assert merged.description == "inner" and len(merged.signatures) == 2
    assert evaluate(Call("f", ["s"]), definitions={"f": merged}) == Call("f", ["s"])


INVALID = [
    ("not-a-map", "[ a ]", ""),
    ("empty", "{}", ""),
    ("dollar-name", "{ $f: { signatures: [ {} ] } }", "$f"),
    ("colon-name", "{ 'a:f': { signatures: [ {} ] } }", "a:f"),
    ("def-not-map", "{ f: 3 }", "f"),
    ("no-signatures", "{ f: { description: x } }", "f"),
    ("empty-signatures", "{ f: { signatures: [] } }", "f"),
    ("signature-not-map", "{ f: { signatures: [ 3 ] } }", "f.signatures[0]"),
    (
        "unknown-signature-key",
        "{ f: { signatures: [ { argumnts: [] } ] } }",
        "f.signatures[0].argumnts",
    ),
    ("unknown-definition-key", "{ f: { signatures: [ {} ], sigs: 1 } }", "f.sigs"),
    (
        "variadic-not-bool",
        "{ f: { signatures: [ { variadic: 'yes' } ] } }",
        "f.signatures[0].variadic",
    ),
    (
        "arguments-not-list",
        "{ f: { signatures: [ { arguments: integer } ] } }",
        "f.signatures[0].arguments",
    ),
    (
        "schema-without-type",
        "{ f: { signatures: [ { arguments: [ { validation: true } ] } ] } }",
        "f.signatures[0].arguments[0]",
    ),
    ("schema-bad", "{ f: { signatures: [ { result: 3 } ] } }", "f.signatures[0].result"),
]


@pytest.mark.parametrize(("text", "path"), [pytest.param(t, p, id=i) for i, t, p in INVALID])
def test_invalid_function_definitions(text: str, path: str) -> None:
    loaded, diags = load_function_definitions(yaml.safe_load(text), path=())
    assert diags and all(d.code == "invalid-function-definition" for d in diags)
    assert all(d.severity == "error" for d in diags)
    assert diags[0].path == path


def test_invalid_definition_path_prefix_and_hint() -> None:
    _, diags = load_function_definitions(
        {"f": {"signatures": [{"argumnts": []}]}}, path=("service_template", "functions")
    )
    assert diags[0].path == "service_template.functions.f.signatures[0].argumnts"
    assert diags[0].hint == "did you mean 'arguments'?"


def test_malformed_validation_clause_is_reported() -> None:
    _, diags = load_function_definitions(
        yaml.safe_load(
            "f: { signatures: [ { arguments: [ { type: integer, validation: "
            "{ $a: 1, b: 2 } } ] } ] }"
        )
    )
    assert [d.code for d in diags] == ["malformed-function"]


def test_definition_text_lists_signatures() -> None:
    sqrt = defs(SQRT)["sqrt"]
    assert str(sqrt).splitlines() == [
        "sqrt: square root",
        "  sqrt(integer) -> float",
        "  sqrt(float)",
    ]
    assert "sqrt" in repr(sqrt)
