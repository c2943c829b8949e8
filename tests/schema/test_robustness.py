"""Hostile inputs: deep and cyclic values, foreign Python objects."""

from __future__ import annotations

import math
import sys

import pytest

from toskit import SchemaError
from toskit.schema import MAX_DEPTH


def _nested_maps(depth: int) -> dict:
    root: dict = {}
    cur = root
    for _ in range(depth):
        cur["deep"] = {}
        cur = cur["deep"]
    return root


def _nested_lists(depth: int) -> list:
    root: list = []
    cur = root
    for _ in range(depth):
        nxt: list = []
        cur.append(nxt)
        cur = nxt
    return root


@pytest.mark.parametrize(
    ("which", "name", "value"),
    [
        ("S1", "root", {"struct": _nested_maps(10_000)}),
        ("S2", "any", _nested_maps(10_000)),
        ("S2", "any", {"x": _nested_lists(10_000)}),
    ],
    ids=["recursive-struct", "untyped-maps", "untyped-lists"],
)
def test_deep_values_give_a_diagnostic(schemas, which, name, value):
    limit = sys.getrecursionlimit()
    (d,) = schemas[which].validate(value, name)
    assert d.code == "limit-exceeded"
    assert "nested too deeply" in d.message
    assert sys.getrecursionlimit() == limit  # restored
    with pytest.raises(SchemaError, match="nested too deeply"):
        schemas[which].merge(value, value, name)
    with pytest.raises(SchemaError, match="nested too deeply"):
        schemas[which].compare(value, {}, name)


def test_depth_bound_is_generous(schemas):
    value = _nested_maps(MAX_DEPTH - 5)
    assert schemas["S2"].validate(value, "any") == []
    assert schemas["S2"].merge(value, value, "any") == value


def test_deep_value_when_caller_is_deep(schemas):
    def recurse(n: int):
        if n:
            return recurse(n - 1)
        return schemas["S2"].validate(_nested_maps(400), "any")

    assert recurse(800) == []


def test_cyclic_containers(schemas):
    cyclic: dict = {}
    cyclic["a"] = cyclic
    (d,) = schemas["S2"].validate(cyclic, "any")
    assert d.code == "limit-exceeded"
    loop: list = []
    loop.append(loop)
    (d,) = schemas["S1"].validate({"atomicList": loop}, "root")
    assert d.path == ".atomicList[0]"
    with pytest.raises(SchemaError):
        schemas["S2"].merge({}, cyclic, "any")


class Opaque:
    pass


@pytest.mark.parametrize(
    ("value", "path", "prefix"),
    [
        ({"set": {"a", "b"}}, ".set", "expected list, got set"),
        ({"str": Opaque()}, ".str", "expected string, got Opaque"),
        ({"num": b"1"}, ".num", "expected numeric (int or float), got bytes"),
        ({"num": complex(1, 1)}, ".num", "expected numeric (int or float), got complex"),
        ({"labels": {1: "a"}}, ".labels.1", "map keys must be strings"),
        ({"struct": Opaque()}, ".struct", "expected map, got Opaque"),
        ({"set": [Opaque()]}, '.set[="<Opaque>"]', "expected string, got Opaque"),
        (Opaque(), "", "expected map, got Opaque"),
    ],
    ids=["set", "object", "bytes", "complex", "int-key", "object-for-map", "object-in-set", "root"],
)
def test_foreign_values(schemas, value, path, prefix):
    (d,) = schemas["S1"].validate(value, "root")
    assert d.path == path
    assert d.message.startswith(prefix)


def test_odd_but_valid_values(schemas):
    s = schemas["S1"]
    value = {
        "num": math.nan,
        "any": 10**400,
        "atomicList": ("a", "b"),
        "numSet": [math.inf, -math.inf],
    }
    assert s.validate(value, "root") == []
    merged = s.merge(value, {"num": 1}, "root")
    assert merged["atomicList"] == ["a", "b"]  # tuples come back as lists
    assert s.to_fieldset({"numSet": [math.inf, 2.5, 1.0]}, "root") == {
        ".numSet[=Infinity]",
        ".numSet[=2.5]",
        ".numSet[=1]",
    }
    assert s.remove({"numSet": [math.inf, 2]}, [".numSet[=Infinity]"], "root") == {"numSet": [2]}


def test_subclasses_of_plain_types(schemas):
    from collections import OrderedDict

    class Text(str):
        pass

    value = OrderedDict(str=Text("x"), items=[OrderedDict(name="a")])
    s = schemas["S1"]
    assert s.validate(value, "root") == []
    assert s.merge(value, {"num": 1}, "root") == {"str": "x", "items": [{"name": "a"}], "num": 1}


def test_huge_ints_in_paths(schemas):
    s = schemas["S1"]
    limit = sys.get_int_max_str_digits()
    huge = 10**5000  # beyond Python's default int -> text limit
    (d,) = s.validate({"multi": [{"key": "a", "id": huge, "v": 1}]}, "root")
    assert d.path.startswith(".multi[id=1000") and d.path.endswith(',key="a"].v')
    paths = s.to_fieldset({"numSet": [huge, 1]}, "root")
    assert s.remove({"numSet": [huge, 1]}, paths - {".numSet[=1]"}, "root") == {"numSet": [1]}
    assert sys.get_int_max_str_digits() == limit  # restored


def test_deep_merges_in_several_threads_at_once(schemas):
    """The recursion room is process-wide: walks in overlapping threads each
    keep theirs, and the limit is restored when the last one ends."""
    import threading

    limit = sys.getrecursionlimit()
    value = _nested_maps(MAX_DEPTH - 5)
    start = threading.Barrier(4)
    results: list = []

    def work() -> None:
        start.wait(5)
        for _ in range(5):
            try:
                results.append(schemas["S2"].merge(value, value, "any") == value)
            except SchemaError as err:  # the failure this test exists to catch
                results.append(str(err))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results == [True] * 20
    assert sys.getrecursionlimit() == limit


def test_type_refs_built_per_call_do_not_accumulate(schemas):
    """A notebook loop that builds a TypeRef on every call must not grow the
    schema's compiled-node cache (inline atoms are cached only while alive)."""
    from toskit.schema import TypeRef

    s = schemas["S2"]
    s.validate("x", TypeRef.scalar("string"))
    before = len(s._compiler._cache)
    for _ in range(200):
        assert s.validate("x", TypeRef.scalar("string")) == []
        assert s.validate(1, TypeRef.scalar("string"))[0].code == "type-mismatch"
    assert len(s._compiler._cache) <= before
    kept = TypeRef.scalar("numeric")
    assert s.validate(1, kept) == [] and s.validate(2, kept) == []  # cached while alive


# ---- #19: hostile field paths and hash-colliding integers ---------------------------

_SET_SCHEMA = """types:
- name: t
  map:
    fields:
    - name: a
      type: {list: {elementType: {scalar: numeric}, elementRelationship: associative}}
    - name: k
      type: {list: {elementType: {namedType: e}, elementRelationship: associative, keys: [id]}}
- name: e
  map:
    fields:
    - {name: id, type: {scalar: numeric}}
"""


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(".a[" + "1" * 5000 + "]", id="index-5000-digits"),
        pytest.param(".a[" + "9" * 19 + "]", id="index-19-digits"),
        pytest.param(".a[²]", id="superscript-digit"),
        pytest.param(".a[١]", id="arabic-indic-digit"),
    ],
)
@pytest.mark.parametrize("operation", ["remove", "extract"])
def test_hostile_field_paths_are_schema_errors(path, operation) -> None:
    from toskit import schema

    s = schema.load(_SET_SCHEMA)
    with pytest.raises(SchemaError, match="bad path"):
        getattr(s, operation)({"a": [1, 2]}, [path], "t")


def test_set_lists_of_hash_colliding_integers_stay_linear() -> None:
    import time

    from toskit import schema

    s = schema.load(_SET_SCHEMA)
    modulus = (1 << 61) - 1
    values = [i * modulus for i in range(1, 20_001)]  # all share one Python hash
    keyed = [{"id": v} for v in values]
    start = time.process_time()
    assert s.validate({"a": values, "k": keyed}, "t") == []
    merged = s.merge({"a": values, "k": keyed}, {"a": values[:10], "k": keyed[:10]}, "t")
    assert len(merged["a"]) == 20_000
    assert len(s.to_fieldset({"a": values}, "t")) >= 20_000
    changes = s.compare({"a": values}, {"a": values[1:]}, "t")
    assert len(changes.removed) == 1
    assert time.process_time() - start < 2.0  # was 62 s


def test_huge_integers_and_equal_floats_are_one_set_item() -> None:
    from toskit import schema

    s = schema.load(_SET_SCHEMA)
    [diag] = s.validate({"a": [2**70, 2.0**70]}, "t")
    assert "duplicate" in diag.message
    assert s.validate({"a": [2**70, 2**70 + 1]}, "t") == []


# -- one depth bound, no recursion room (issue #15) -----------------------------------


def _from_depth(frames: int, work):
    return _from_depth(frames - 1, work) if frames else work()


@pytest.mark.parametrize("build", [_nested_maps, _nested_lists], ids=["maps", "lists"])
def test_values_at_the_bound_validate_and_merge_at_the_default_limit(
    schemas, build, default_limit_and_no_raise
):
    s = schemas["S2"]
    value = {"x": build(MAX_DEPTH - 1)}  # the deepest the bound allows
    other = {"x": build(MAX_DEPTH - 1), "y": "new"}

    def work():
        assert s.validate(value, "any") == []
        assert s.merge(value, other, "any") == other
        assert s.merge(value, None, "any") == value
        assert s.merge_layers([(value, "a"), (other, "b")], "any").value == other
        assert s.compare(value, other, "any").added == {".y"}
        paths = s.to_fieldset(value, "any")
        # every map level has a path; an untyped list is atomic (one path)
        assert len(paths) == (MAX_DEPTH if build is _nested_maps else 1)
        assert s.extract(other, [".y"], "any") == {"y": "new"}
        assert s.remove(other, [".y"], "any") == value

    _from_depth(300, work)  # a notebook's or a test runner's own frames on top
    assert default_limit_and_no_raise == []  # the process-wide limit was never touched


@pytest.mark.parametrize("build", [_nested_maps, _nested_lists], ids=["maps", "lists"])
def test_values_past_the_bound_are_a_clear_error_at_the_default_limit(
    schemas, build, default_limit_and_no_raise
):
    s = schemas["S2"]
    value = {"x": build(MAX_DEPTH + 1)}
    (d,) = s.validate(value, "any")
    assert d.code == "limit-exceeded" and f"more than {MAX_DEPTH} levels" in d.message
    with pytest.raises(SchemaError, match="nested too deeply"):
        s.merge(value, value, "any")
    assert default_limit_and_no_raise == []


def test_the_bound_is_the_loaders():
    from toskit.plain import MAX_DEPTH as PLAIN_DEPTH
    from toskit.source.document import LIMIT_DEFAULTS

    assert MAX_DEPTH == PLAIN_DEPTH == LIMIT_DEFAULTS["max_depth"] == 500
