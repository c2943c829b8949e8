"""The Python registry: register/unregister, bare and map forms, namespaces (§1.5, §8.1)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import toskit
from toskit import functions
from toskit.functions import Call, FunctionError, evaluate, parse


@pytest.fixture()
def registered() -> Iterator[list[str]]:
    """Names registered by a test; unregistered afterwards (the registry is process-wide)."""
    names: list[str] = []
    yield names
    for name in names:
        if name in functions.registered_names():
            functions.unregister(name)


def reg(names: list[str], name: str, func) -> None:
    assert functions.register(name, func) is func
    names.append(name)


def test_bare_and_map_forms(registered: list[str]) -> None:
    reg(registered, "shout", lambda *args: "!".join(str(a) for a in args) or "HEY")
    bare = parse("$shout")
    assert bare == Call("shout", []) and bare.form == "bare"
    assert evaluate(bare) == "HEY"
    assert evaluate(parse({"$shout": ["a", "b"]})) == "a!b"
    # 1.x: a registered name makes a single-key map a call.
    assert evaluate(parse({"shout": ["x", 1]}, "1.3"), version="1.3") == "x!1"


def test_namespaced_name(registered: list[str]) -> None:
    reg(registered, "my:ns:double", lambda x: 2 * x)
    tree = parse({"$my:ns:double": 21})
    assert tree.namespace == "my:ns" and tree.name == "double"
    assert evaluate(tree) == 42
    assert parse("$my:ns:double") == Call("double", [], "my:ns")


def test_namespaced_bare_call_without_args_reaches_the_callable(registered: list[str]) -> None:
    reg(registered, "ns:answer", lambda: 42)
    diags: list = []
    assert evaluate(parse("$ns:answer", diagnostics=diags)) == 42
    assert diags == []


def test_namespaced_builtin_name_is_allowed(registered: list[str]) -> None:
    reg(registered, "mine:concat", lambda *a: "custom")
    assert evaluate(parse({"$mine:concat": ["a"]})) == "custom"
    assert evaluate(parse({"$concat": ["a"]})) == "a"


def test_register_again_replaces(registered: list[str]) -> None:
    reg(registered, "ver", lambda: 1)
    reg(registered, "ver", lambda: 2)
    assert evaluate(parse("$ver")) == 2


def test_unregister(registered: list[str]) -> None:
    reg(registered, "gone", lambda: 1)
    functions.unregister("gone")
    assert "gone" not in functions.registered_names()
    assert parse("$gone", diagnostics=[]) == "$gone"
    with pytest.raises(FunctionError) as info:
        evaluate(parse({"$gone": []}))
    assert info.value.kind == "UnknownFunction"
    with pytest.raises(toskit.ToskitError, match="gone"):
        functions.unregister("gone")


@pytest.mark.parametrize(
    "name", ["", "a::b", "$x", "a b", ":x", "x:", "concat", "get_input", "get_nodes_of_type", 3]
)
def test_bad_names(name: object) -> None:
    with pytest.raises(toskit.ToskitError):
        functions.register(name, lambda: 1)  # type: ignore[arg-type]


def test_not_callable() -> None:
    with pytest.raises(toskit.ToskitError, match="callable"):
        functions.register("x:y", 42)  # type: ignore[arg-type]


def test_a_callable_that_raises_becomes_arg_type(registered: list[str]) -> None:
    def explode(x):
        raise ValueError(f"cannot use {x}")

    reg(registered, "t:explode", explode)
    with pytest.raises(FunctionError) as info:
        evaluate(parse({"$t:explode": ["it"]}))
    err = info.value
    assert err.kind == "ArgType" and err.function == "t:explode"
    assert "cannot use it" in str(err) and "ValueError" in str(err)


def test_a_wrong_arity_call_becomes_arg_type(registered: list[str]) -> None:
    reg(registered, "t:one", lambda x: x)
    with pytest.raises(FunctionError) as info:
        evaluate(parse({"$t:one": [1, 2]}))
    assert info.value.kind == "ArgType"


def test_function_error_from_a_callable_passes_through(registered: list[str]) -> None:
    def strict(x):
        raise FunctionError("strict: PathError: nope", kind="PathError", function="strict")

    reg(registered, "t:strict", strict)
    with pytest.raises(FunctionError) as info:
        evaluate(parse({"$t:strict": [1]}))
    assert info.value.kind == "PathError"


def test_arguments_are_evaluated_before_the_call(registered: list[str]) -> None:
    seen = []
    reg(registered, "t:spy", lambda *a: seen.append(a) or len(a))
    assert (
        evaluate(parse({"$t:spy": [{"$concat": ["a", "b"]}, {"$get_input": "x"}]}), {"x": 1}) == 2
    )
    assert seen == [("ab", 1)]


def test_p27_keygen_key_variants(registered: list[str]) -> None:
    counter = iter(range(100))
    reg(registered, "keygen", lambda kind: f"{kind}-{next(counter)}")
    from toskit.source import FrozenMap

    raw = {
        FrozenMap({"$keygen": ("UUID",)}): 34,
        FrozenMap({"$keygen$1": ("UUID",)}): 56,
        FrozenMap({"$keygen$2": ("UUID",)}): 78,
    }
    tree = parse(raw)
    assert [k.key_variant for k in tree] == [None, "1", "2"]
    result = evaluate(tree)
    assert sorted(result.values()) == [34, 56, 78] and len(result) == 3
    assert all(k.startswith("UUID-") for k in result)
