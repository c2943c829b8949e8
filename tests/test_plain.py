"""toskit.plain: the one set of plain-data helpers (kind, equality, copy, describe).

Every package uses these (schema, functions, conditions, tosca, dsl); the
tests at the end check that each package's entry point *is* this behaviour,
so that no copy can drift again.
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import plain_data, plain_scalars

from toskit.plain import (
    MAX_DEPTH,
    TooDeep,
    canonical,
    copy_value,
    describe,
    flow_text,
    is_number,
    kind_of,
    values_equal,
)
from toskit.sentinels import ABSENT
from toskit.source.frozen import FrozenMap


def nested(depth: int, leaf: object = 1) -> object:
    value: object = leaf
    for i in range(depth):
        value = {"k": value} if i % 2 else [value]
    return value


# ----------------------------------------------------------------------------- kinds


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (None, "null"),
        (True, "boolean"),
        (False, "boolean"),
        (0, "number"),
        (1.5, "number"),
        (math.nan, "number"),
        ("x", "string"),
        ([], "list"),
        ((1,), "list"),
        ({}, "map"),
        (FrozenMap({"a": 1}), "map"),
        (OrderedDict(), "map"),
        (b"x", "bytes"),
        (ABSENT, "Absent"),
        (object(), "object"),
    ],
)
def test_kind_of(value, kind):
    assert kind_of(value) == kind


def test_a_bool_is_not_a_number():
    assert not is_number(True) and not is_number(False)
    assert is_number(1) and is_number(1.0) and is_number(math.inf)
    assert not is_number("1") and not is_number(None)


# -------------------------------------------------------------------------- equality


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (1, 1.0, True),
        (True, 1, False),  # a boolean never equals a number
        (False, 0, False),
        ([True], [1], False),
        ({"a": True}, {"a": 1.0}, False),
        ("1", 1, False),  # strings never equal numbers
        (None, False, False),
        (None, None, True),
        ({"a": 1, "b": [1, 2]}, {"b": [1.0, 2], "a": 1}, True),  # maps unordered
        ([1, 2], [2, 1], False),  # lists in order
        ([1, 2], (1, 2), True),  # a tuple is a list
        (FrozenMap({"a": 1}), {"a": 1}, True),
        ({1: "x"}, {1.0: "x"}, True),
        (2**70, 2.0**70, True),  # huge numbers compare numerically too
        (2**80 + 1, 2.0**80, False),
        (math.inf, math.inf, True),
        (math.inf, -math.inf, False),
        (math.nan, math.nan, False),  # NaN equals nothing, not even itself
        ([math.nan], [math.nan], False),  # also inside containers
        ({"a": math.nan}, {"a": math.nan}, False),
        (dt.date(2020, 1, 2), dt.date(2020, 1, 2), True),
        (
            dt.datetime(2020, 1, 1, 12, tzinfo=dt.timezone(dt.timedelta(hours=1))),
            dt.datetime(2020, 1, 1, 11, tzinfo=dt.timezone.utc),
            True,  # aware datetimes by instant
        ),
        (dt.date(2020, 1, 1), dt.datetime(2020, 1, 1), False),
        (b"ab", b"ab", True),
        (ABSENT, ABSENT, True),
        (ABSENT, None, False),
        ([ABSENT], [None], False),
    ],
)
def test_values_equal(a, b, equal):
    assert values_equal(a, b) is equal
    assert values_equal(b, a) is equal
    assert (canonical(a) == canonical(b)) is equal


def test_the_same_nan_object_is_not_equal_to_itself():
    nan = float("nan")
    same = [nan, nan]
    assert not values_equal(nan, nan)
    assert not values_equal(same, same)
    assert len({canonical(v) for v in same}) == 2  # a set keeps both


def test_foreign_objects_are_equal_only_to_themselves_and_never_asked():
    class Hostile:
        def __eq__(self, other):
            raise RuntimeError("never call me")

        def __hash__(self):
            raise RuntimeError("never call me")

        def __repr__(self):
            raise RuntimeError("never call me")

    a, b = Hostile(), Hostile()
    assert values_equal([a], [a])
    assert not values_equal([a], [b])
    assert describe(a) == "Hostile" and describe([a]) == "list [<Hostile>]"


def test_set_of_keys_dedups_like_the_equality():
    items = [1, 1.0, True, "1", [1], [1.0], [True], {"a": 1}, {"a": 1.0}]
    assert len({canonical(v) for v in items}) == 6  # 1, True, "1", [1], [True], {"a": 1}


def test_huge_ints_get_spread_hashes():
    # All multiples of 2**61 - 1 hash alike; their keys must not (#19).
    keys = {hash(canonical(k * ((1 << 61) - 1))) for k in range(1, 50)}
    assert len(keys) > 40


SCALARS = plain_scalars(st.integers(), st.floats(allow_nan=False), st.text(max_size=3))
DATA = plain_data(SCALARS, st.text(max_size=2), max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(DATA, DATA)
def test_keys_agree_with_equality_and_copies_are_equal(a, b):
    assert values_equal(a, a)
    assert values_equal(a, copy_value(a))
    assert (canonical(a) == canonical(b)) == values_equal(a, b)
    if values_equal(a, b):
        assert hash(canonical(a)) == hash(canonical(b))


# ------------------------------------------------------------------------------ copy


def test_copy_value_is_deep_and_plain():
    inner = [1, {"b": (2, 3)}]
    value = FrozenMap({"a": inner, "t": (1,)})
    copy = copy_value(value)
    assert copy == {"a": [1, {"b": [2, 3]}], "t": [1]}
    assert type(copy) is dict and type(copy["t"]) is list and type(copy["a"][1]["b"]) is list
    copy["a"][1]["b"].append(4)
    assert inner[1]["b"] == (2, 3)
    assert copy_value(ABSENT) is ABSENT  # scalars and sentinels are shared
    marker = object()
    assert copy_value([marker])[0] is marker


# -------------------------------------------------------------------------- describe


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "null"),
        (True, "boolean true"),
        (False, "boolean false"),
        (5, "integer 5"),
        (1.5, "float 1.5"),
        (math.nan, "float nan"),
        ("abc", "string 'abc'"),
        ([1, "a", None, True], "list [1, 'a', null, true]"),
        ({"a": {"b": 1.0}}, "map {'a': {'b': 1.0}}"),
        ((), "list []"),
        (ABSENT, "Absent"),
        (b"x", "bytes"),
    ],
)
def test_describe(value, text):
    assert describe(value) == text


def test_describe_is_cut_and_reads_only_what_it_shows():
    assert describe("x" * 10_000) == "string '" + "x" * 58 + "…"  # 60 characters after the kind
    assert len(describe(list(range(10**6)))) == len("list ") + 60
    assert describe(10**5000).startswith("integer <about 5001 digits>")
    assert describe(1, number="numeric") == "numeric 1"
    cyclic: list = []
    cyclic.append(cyclic)
    assert describe(cyclic).startswith("list [[[[") and describe(cyclic).endswith("…")
    assert flow_text({"a": 1}, limit=4) == "{'a…"


# ----------------------------------------------------------------------------- depth


@pytest.fixture
def default_recursion_limit():
    """CPython's default limit for the test, whatever the process set before."""
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(saved)


def test_values_nested_to_the_bound_work_at_the_default_recursion_limit(default_recursion_limit):
    value = nested(MAX_DEPTH - 1)

    def from_deep_caller(n: int) -> None:
        if n:
            return from_deep_caller(n - 1)
        assert values_equal(value, copy_value(value))
        assert hash(canonical(value)) == hash(canonical(copy_value(value)))
        assert describe(value).startswith("list [{'k': [{'k'")
        return None

    from_deep_caller(600)  # the helpers need no Python frames per level


@pytest.mark.parametrize("helper", [canonical, copy_value, lambda v: values_equal(v, v)])
def test_deeper_or_cyclic_values_are_too_deep(helper):
    with pytest.raises(TooDeep, match="nested deeper than 500 levels"):
        helper(nested(MAX_DEPTH + 2))  # the root, then MAX_DEPTH + 1 levels below it
    cyclic: dict = {}
    cyclic["a"] = [cyclic]
    with pytest.raises(TooDeep):
        helper(cyclic)
    assert issubclass(TooDeep, RecursionError)  # every walker's guard catches it


# ------------------------------------------------------- one implementation, shared


def test_every_package_uses_these_helpers():
    from toskit import values
    from toskit.conditions import values as cvalues
    from toskit.functions import compare
    from toskit.schema import values as svalues

    assert svalues.canonical is canonical and svalues.copy_value is copy_value
    assert svalues.values_equal is values_equal and svalues.MAX_DEPTH == MAX_DEPTH
    assert compare.canonical is canonical and compare.deep_equal is values_equal
    assert compare.kind_of is kind_of and values.is_number is is_number
    assert cvalues.is_number is is_number
    # each package's words over the one classification
    assert svalues.describe(1) == "numeric 1" and compare.describe(1) == "number 1"
    assert svalues.describe("x") == compare.describe("x") == "string 'x'"  # one quoting
    assert cvalues.type_name({}) == "mapping" and cvalues.type_name(True) == "boolean"
    assert cvalues.strict_eq([1, {"a": 2}], [1.0, {"a": 2.0}])
    assert not cvalues.strict_eq([1], [True]) and not cvalues.strict_eq(math.nan, math.nan)


def test_no_package_defines_its_own_copy():
    # One home (issue #15): these helpers are defined in toskit/plain.py only;
    # packages re-export them or wrap them in their own words and errors.
    import ast
    from pathlib import Path

    names = {
        "kind_of",
        "values_equal",
        "deep_equal",
        "copy_value",
        "canonical",
        "is_number",
        "short_repr",
        "membership_key",
    }
    root = Path(__file__).resolve().parents[1] / "toskit"
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "plain.py" and path.parent == root:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in names:
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert found == []
