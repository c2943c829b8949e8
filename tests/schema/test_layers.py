"""Schema.merge_layers: layered merge with provenance."""

from __future__ import annotations

import pytest
from fixtures.schemas import v

from toskit import SchemaError
from toskit.schema import ABSENT, MergeResult


def test_three_layers_sources_and_overrides(schemas):
    s = schemas["S1"]
    result = s.merge_layers(
        [
            (v("{num: 1, struct: {a: x, b: 1}, items: [{name: a, value: x}, {name: b}]}"), "base"),
            (ABSENT, "skipped"),
            (v("{num: 2, struct: {b: 2}, items: [{name: c}, {name: a, port: 3}]}"), "mid"),
            (v("{struct: {a: y}, atomicList: [q]}"), "top"),
        ],
        "root",
    )
    assert isinstance(result, MergeResult)
    assert result.value == v(
        "{num: 2, struct: {a: y, b: 2}, items: [{name: c}, {name: a, value: x, port: 3}, {name: b}], atomicList: [q]}"
    )
    assert result.sources == {
        ("num",): "mid",
        ("struct", "a"): "top",
        ("struct", "b"): "mid",
        ("items", 0, "name"): "mid",
        ("items", 1, "name"): "mid",
        ("items", 1, "value"): "base",
        ("items", 1, "port"): "mid",
        ("items", 2, "name"): "base",
        ("atomicList",): "top",
    }
    assert result.overridden == {
        ("num",): [("base", 1)],
        ("struct", "a"): [("base", "x")],
        ("struct", "b"): [("base", 1)],
        ("items", 1, "name"): [("base", "a")],
    }


def test_override_history_is_lowest_first(schemas):
    result = schemas["S1"].merge_layers(
        [({"num": 1}, "a"), ({"num": 2}, "b"), ({"str": "s"}, "c"), ({"num": 3}, "d")], "root"
    )
    assert result.sources == {("num",): "d", ("str",): "c"}
    assert result.overridden == {("num",): [("a", 1), ("b", 2)]}


def test_atomic_values_are_single_leaves(schemas):
    result = schemas["S1"].merge_layers(
        [({"atomicStruct": {"a": "x", "b": 1}}, "type"), ({"atomicStruct": {"b": 2}}, "template")],
        "root",
    )
    assert result.value == {"atomicStruct": {"b": 2}}
    assert result.sources == {("atomicStruct",): "template"}
    assert result.overridden == {("atomicStruct",): [("type", {"a": "x", "b": 1})]}


def test_null_and_empty_leaves(schemas):
    result = schemas["S1"].merge_layers(
        [({"labels": {"k": "v"}, "struct": {}}, "a"), ({"labels": None, "num": None}, "b")], "root"
    )
    # None over a non-empty separable map keeps it; nothing is replaced.
    assert result.value == {"labels": {"k": "v"}, "struct": {}, "num": None}
    assert result.sources == {("labels", "k"): "a", ("struct",): "a", ("num",): "b"}
    assert result.overridden == {}
    result = schemas["S1"].merge_layers([({"struct": {}}, "a"), ({"struct": None}, "b")], "root")
    assert result.value == {"struct": None}
    assert result.overridden == {("struct",): [("a", {})]}


def test_set_items_are_leaves_by_position(schemas):
    result = schemas["S1"].merge_layers(
        [({"set": ["a", "b"]}, "x"), ({"set": ["c", "a"]}, "y")], "root"
    )
    assert result.value == {"set": ["c", "a", "b"]}
    assert result.sources == {("set", 0): "y", ("set", 1): "y", ("set", 2): "x"}
    assert result.overridden == {("set", 1): [("x", "a")]}


def test_kind_change_records_whole_subtree(schemas):
    result = schemas["S2"].merge_layers(
        [({"a": {"x": 1, "y": 2}}, "low"), ({"a": {"y": 3}}, "mid"), ({"a": 5}, "high")], "any"
    )
    assert result.value == {"a": 5}
    assert result.sources == {("a",): "high"}
    assert result.overridden == {("a",): [("mid", {"x": 1, "y": 3})]}


def test_scalar_root_and_empty_layers(schemas):
    result = schemas["S2"].merge_layers([("s", "one"), ("t", "two")], "strOrList")
    assert result.value == "t"
    assert result.sources == {(): "two"}
    assert result.overridden == {(): [("one", "s")]}
    none = schemas["S2"].merge_layers([(ABSENT, "a")], "any")
    assert none.value is ABSENT and none.sources == {} and none.overridden == {}


def test_result_is_independent_of_layers(schemas):
    base = {"struct": {"a": "x", "deep": {"b": 1}}}
    top = {"labels": {"k": "v"}}
    result = schemas["S1"].merge_layers([(base, "base"), (top, "top")], "root")
    result.value["struct"]["deep"]["b"] = 2
    result.value["labels"]["k"] = "w"
    assert base == {"struct": {"a": "x", "deep": {"b": 1}}}
    assert top == {"labels": {"k": "v"}}


def test_invalid_layer_names_its_label(schemas):
    with pytest.raises(SchemaError) as err:
        schemas["S1"].merge_layers([({"num": 1}, "base"), ({"num": "x"}, "node type db")], "root")
    assert "node type db" in str(err.value)
    assert err.value.diagnostics[0].path == ".num"
    with pytest.raises(SchemaError, match="pair"):
        schemas["S1"].merge_layers([{"num": 1}], "root")


def test_rows_and_repr(schemas):
    result = schemas["S1"].merge_layers(
        [({"num": 1}, "a"), ({"num": 2, "items": [{"name": "n"}]}, "b")], "root"
    )
    rows = result.rows()
    assert {"path": "num", "value": 2, "source": "b", "overridden": [("a", 1)]} in rows
    assert {"path": "items[0].name", "value": "n", "source": "b", "overridden": []} in rows
    assert repr(result).startswith("<MergeResult 2 leaves, 1 overridden")
    frame = result.to_frame()
    assert list(frame.columns) == ["path", "value", "source", "overridden"]
    assert len(frame) == 2


def test_linear_time(schemas):
    """Doubling the layer size roughly doubles the work (no quadratic step).

    CPU time of this process, not wall time: other work on a busy machine
    must not make the ratio fail."""
    import time

    s = schemas["S1"]

    def run(n: int) -> float:
        lo = {
            "items": [{"name": f"i{i}", "value": "x"} for i in range(n)],
            "labels": {f"k{i}": "v" for i in range(n)},
        }
        hi = {
            "items": [{"name": f"i{i}", "port": i} for i in range(0, n, 2)],
            "labels": {f"k{i}": "w" for i in range(0, n, 3)},
        }
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            s.merge_layers([(lo, "lo"), (hi, "hi")], "root")
            best = min(best, time.process_time() - t)
        return best

    small, large = run(8000), run(32000)
    assert large / small < 4 * 2.5  # 4× the data; generous bound for a noisy machine


def test_labels_may_be_any_object(schemas):
    low, high = {"origin": ["type", 1]}, {"origin": ["template"]}  # unhashable labels
    result = schemas["S1"].merge_layers([({"num": 1}, low), ({"num": 2}, high)], "root")
    assert result.sources[("num",)] is high
    assert result.overridden[("num",)] == [(low, 1)]
