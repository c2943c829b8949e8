"""ServiceTemplate.property_frame() (issue #31 item 3): one DataFrame of every
node template's property rows, equal to concatenating every node's
``to_frame()`` with a ``node`` column, built as one DataFrame."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tosca_fixtures import FIXTURES

import toskit
from toskit import dsl

pd = pytest.importorskip("pandas")

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "notebooks" / "examples"
sys.path.insert(0, str(ROOT / "bench"))
from gen_template import generate  # noqa: E402

# Nodes whose own frames differ in dtype (so that the concatenation's rules
# show): integers only, booleans only (bool + int64 is int64 in pandas.concat),
# an integer beside a null (float64 in the node's own frame), a node with no
# properties, a node whose only value is null, text only, a node with a
# missing required property, a wrong type, an unknown property (findings),
# unknown properties only (no type: a None type column), function calls,
# data types expanded into fields, lists and maps, overridden defaults.
MIXED = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  d.Inner:
    derived_from: tosca.datatypes.Root
    properties:
      n: {type: integer, default: 1}
      tags: {type: list, entry_schema: {type: string}, default: [a, b]}
node_types:
  t.Ints:
    derived_from: tosca.nodes.Root
    properties:
      a: {type: integer, default: 1}
      b: {type: integer, default: 2}
  t.Bools:
    derived_from: tosca.nodes.Root
    properties:
      on: {type: boolean, default: true}
  t.IntNull:
    derived_from: tosca.nodes.Root
    properties:
      a: {type: integer, default: 1}
      z: {type: string, required: false, default: null}
  t.Empty:
    derived_from: tosca.nodes.Root
  t.Null:
    derived_from: tosca.nodes.Root
    properties:
      z: {type: string, required: false, default: null}
  t.Text:
    derived_from: tosca.nodes.Root
    properties:
      s: {type: string, default: x}
  t.Mixed:
    derived_from: tosca.nodes.Root
    properties:
      name: {type: string, default: x}
      port: {type: integer, default: 80}
      opts: {type: map, entry_schema: {type: string}, default: {k: v}}
      inner: {type: d.Inner}
      via: {type: string, required: false}
      secret: {type: string}
topology_template:
  inputs:
    who: {type: string, default: me}
  node_templates:
    ints: {type: t.Ints, properties: {a: 5}}
    bools: {type: t.Bools}
    int_null: {type: t.IntNull}
    empty: {type: t.Empty}
    nulled: {type: t.Null}
    text: {type: t.Text, properties: {s: {get_input: who}}}
    unknown_only: {type: t.Empty, properties: {stray: 1}}
    mixed:
      type: t.Mixed
      properties:
        name: {get_input: who}
        port: "not a number"
        inner: {n: 3}
        via: {concat: [{get_attribute: [SELF, name]}, x]}
        pasword: p
    fine:
      type: t.Mixed
      properties: {name: y, port: 1, inner: {}, secret: s}
"""


def _concatenated(st: toskit.ServiceTemplate, show_overridden: bool = False) -> pd.DataFrame:
    """What property_frame promises: every node's to_frame() with a node column, concatenated."""
    frames = []
    for name, node in st.node_templates.items():
        frame = node.property_table(show_overridden).to_frame()
        frame.insert(0, "node", pd.array([name] * len(frame), dtype=frame["path"].dtype))
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _templates() -> list[toskit.ServiceTemplate]:
    found = [toskit.loads(MIXED, name="mixed.yaml"), toskit.loads(generate(25), name="b1.yaml")]
    examples = sorted(EXAMPLES.rglob("*.yaml"))
    assert len(examples) >= 5  # the tutorials' examples are there
    found += [toskit.load(path) for path in examples]
    found.append(dsl.load_module(str(EXAMPLES / "shop.py")))
    found += [toskit.load(path) for path in sorted(FIXTURES.glob("*.yaml"))]
    return found


def test_the_frame_is_every_nodes_frame_concatenated() -> None:
    compared = rows = 0
    for st in _templates():
        if not st.node_templates:
            continue
        for shown in (False, True):
            expected = _concatenated(st, shown)
            # A fresh template each time: the frame must not lean on built tables.
            got = st.property_frame(show_overridden=shown)
            pd.testing.assert_frame_equal(got, expected)
            assert list(got.dtypes) == list(expected.dtypes)
            compared += 1
            rows += len(got)
    assert compared >= 30 and rows >= 500


def test_the_mixed_template_shows_every_kind_of_row() -> None:
    st = toskit.loads(MIXED, name="mixed.yaml")
    frame = st.property_frame(show_overridden=True)
    assert list(frame.columns) == [
        "node",
        *("path", "value", "type", "source", "overridden", "status", "problem"),
    ]
    by = frame.set_index(["node", "path"])
    assert by.loc[("mixed", "secret"), "status"] == "missing"
    assert by.loc[("mixed", "secret"), "value"] is None
    assert by.loc[("mixed", "secret"), "type"] == "string"
    assert by.loc[("mixed", "port"), "status"] == "invalid"
    assert "integer" in by.loc[("mixed", "port"), "problem"]
    assert by.loc[("mixed", "pasword"), "status"] == "unknown"
    assert by.loc[("mixed", "inner.n"), "value"] == 3
    assert by.loc[("mixed", "inner.tags"), "value"] == ["a", "b"]
    assert by.loc[("mixed", "name"), "source"] == "input: who"
    assert by.loc[("fine", "name"), "overridden"] == ["x"]
    assert by.loc[("ints", "a"), "value"] == 5
    assert "empty" not in set(frame["node"])  # a node without properties has no rows
    assert list(dict.fromkeys(frame["node"])) == [
        n for n in st.node_templates if n != "empty"
    ]  # the template's order
    assert frame["value"].dtype == object and frame["problem"].dtype == object


def test_a_template_without_nodes_is_an_empty_frame_with_the_columns() -> None:
    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n  t.A:\n    derived_from: tosca.nodes.Root\n",
        name="none.yaml",
    )
    assert not st.node_templates
    with_node = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "topology_template:\n  node_templates:\n    e: {type: tosca.nodes.Root}\n",
        name="one.yaml",
    )
    for shown in (False, True):
        frame = st.property_frame(show_overridden=shown)
        assert len(frame) == 0
        # The columns and dtypes of a node without properties, with its node column.
        pd.testing.assert_frame_equal(frame, _concatenated(with_node, shown))
        assert list(frame.columns)[:2] == ["node", "path"]
        assert ("overridden" in frame.columns) is shown


def test_one_dataframe_is_built_and_no_node_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from pandas.core.generic import NDFrame

    built: list[str] = []
    real = NDFrame.__init__

    def counting(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(type(self).__name__)
        real(self, *args, **kwargs)

    clean = toskit.loads(generate(40), name="b1.yaml")
    broken = toskit.loads(MIXED, name="mixed.yaml")
    monkeypatch.setattr(NDFrame, "__init__", counting)
    for st in (clean, broken):
        built.clear()
        frame = st.property_frame()
        assert built == ["DataFrame"]  # one frame, no Series, whatever the node count
        assert len(frame) > len(st.node_templates)
    # A node without findings is read from its resolution: no table is built
    # (the rows' objects are what made one frame per node cost 0.2 ms).
    assert all(not node._tables for node in clean.node_templates.values())
    assert broken.node_templates["mixed"]._tables  # its states came from its table


def test_an_entity_outside_a_loaded_template_is_unchecked() -> None:
    # Entities without a finding index (findings unknown): every row unchecked,
    # as their to_frame() says.
    from toskit.tosca.model.template import entities_frame

    st = toskit.loads(generate(3), name="b1.yaml")
    nodes = list(st.node_templates.values())
    for node in nodes:
        node.findings = None
    frame = entities_frame(nodes, False)
    assert set(frame["status"]) == {"unchecked"}
    pd.testing.assert_frame_equal(frame, _concatenated(st))


def test_property_frame_runs_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from toskit.tosca.model import template as template_module

    seen: list[bool] = []
    real = template_module.entities_frame

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr("toskit.tosca.model.service.entities_frame", spy)
    was = gc.isenabled()
    gc.enable()
    try:
        toskit.loads(generate(2), name="b1.yaml").property_frame()
    finally:
        if not was:
            gc.disable()
    assert seen == [False]


def test_every_pair_of_differently_typed_nodes_combines_as_pandas_concat() -> None:
    # Each pair of MIXED's nodes (int64 and bool values: int64; int64 and
    # float64: float64; a text node and an empty one: object...) gives the
    # dtypes and values pandas.concat gives for the pair's frames.
    from itertools import combinations

    from toskit.tosca.model.template import entities_frame

    st = toskit.loads(MIXED, name="mixed.yaml")
    nodes = list(st.node_templates.values())
    dtypes = set()
    for pair in [*combinations(nodes, 2), *((n,) for n in nodes)]:
        frames = []
        for node in pair:
            frame = node.property_table().to_frame()
            frame.insert(0, "node", pd.array([node.name] * len(frame), dtype="str"))
            frames.append(frame)
        expected = pd.concat(frames, ignore_index=True)
        got = entities_frame(pair, False)
        pd.testing.assert_frame_equal(got, expected)
        dtypes.add((str(got["value"].dtype), str(got["type"].dtype)))
    # the pairs did reach pandas' different combinations
    assert {"int64", "float64", "bool", "object", "str"} <= {v for v, _ in dtypes}
    assert {"object", "str"} <= {t for _, t in dtypes}


def test_a_pandas_without_the_internal_steps_gets_the_same_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Without DataFrame._from_arrays / sanitize_array the columns are Series,
    # combined by pandas.concat and put together by the public constructor.
    from toskit.tosca.model import template as template_module

    templates = [toskit.loads(MIXED, name="mixed.yaml"), toskit.loads(generate(4), name="b1.yaml")]
    expected = [_concatenated(st, shown) for st in templates for shown in (False, True)]
    monkeypatch.setattr(template_module, "_FAST_FRAME", [None])
    got = [st.property_frame(show_overridden=shown) for st in templates for shown in (False, True)]
    for frame, want in zip(got, expected):
        pd.testing.assert_frame_equal(frame, want)
