"""PropertyTable.to_frame()'s column-wise build (issue #31 item 3) equals the
general one (rows, then validity.with_status): same columns, dtypes, values."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tosca_fixtures import FIXTURES

import toskit
from toskit.tosca.model import template as template_module
from toskit.tosca.model.validity import with_status

pd = pytest.importorskip("pandas")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gen_template import generate  # noqa: E402

# Values of every shape a row holds: all-integer and all-string columns (pandas
# infers int64 / str for those), lists, maps, None, a function call, a
# property of the wrong type (a problem on its row), overridden defaults.
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
  t.Mixed:
    derived_from: tosca.nodes.Root
    properties:
      name: {type: string, default: x}
      port: {type: integer, default: 80}
      ratio: {type: float, required: false}
      opts: {type: map, entry_schema: {type: string}, default: {k: v}}
      inner: {type: d.Inner}
      empty: {type: string, required: false}
      nothing: {type: string, required: false, default: null}
      via: {type: string, required: false}
topology_template:
  inputs:
    who: {type: string, default: me}
  node_templates:
    ints: {type: t.Ints, properties: {a: 5}}
    mixed:
      type: t.Mixed
      properties:
        name: {get_input: who}
        port: "not a number"
        inner: {n: 3}
        via: {concat: [{get_attribute: [SELF, name]}, x]}
    strings: {type: t.Mixed, properties: {name: y, port: 1, inner: {}}}
"""


def _general(table: toskit.PropertyTable) -> pd.DataFrame:
    """The frame as built before #31: rows, then with_status's columns."""
    columns = ["path", "value", "type", "source"]
    data = [[r.path, r.value, r.type, r.source] for r in table.rows]
    if table.show_overridden:
        columns.append("overridden")
        for row, r in zip(data, table.rows):
            row.append([value for value, _ in r.overridden])
    return with_status(table, pd.DataFrame(data, columns=columns))


def _tables(st: toskit.ServiceTemplate) -> list[toskit.PropertyTable]:
    return [
        node.property_table(show_overridden=shown)
        for node in st.node_templates.values()
        for shown in (False, True)
    ]


def _templates() -> list[toskit.ServiceTemplate]:
    found = [toskit.loads(MIXED, name="mixed.yaml"), toskit.loads(generate(12), name="b1.yaml")]
    found += [toskit.load(path) for path in sorted(FIXTURES.glob("*.yaml"))]
    return found


def test_every_table_frames_as_the_general_build() -> None:
    fast = 0
    for st in _templates():
        for table in _tables(st):
            # First, on the fresh table: read from the resolution when no
            # finding names the node (its rows are not made), else from rows.
            got = table.to_frame()
            if any(s.row is None for s in table.states):
                continue  # missing properties: compared below
            fast += 1
            expected = _general(table)
            pd.testing.assert_frame_equal(table.to_frame(), expected)  # from the rows now
            pd.testing.assert_frame_equal(got, expected)
            assert list(got.dtypes) == list(expected.dtypes)
    assert fast >= 40  # the comparison ran over many tables


def test_the_mixed_template_covers_the_inferred_dtypes_and_problems() -> None:
    st = toskit.loads(MIXED, name="mixed.yaml")
    ints = st.node_templates["ints"].property_table().to_frame()
    assert str(ints["value"].dtype) == "int64"
    mixed = st.node_templates["mixed"].property_table().to_frame()
    assert mixed["value"].dtype == object
    assert mixed["problem"].dtype == object
    assert mixed.set_index("path").loc["port", "status"] == "invalid"
    assert isinstance(mixed.set_index("path").loc["port", "problem"], str)


def test_a_table_with_a_missing_property_still_gets_its_row() -> None:
    st = toskit.load(FIXTURES / "missing_port.yaml")
    tables = [t for t in _tables(st) if any(s.row is None for s in t.states)]
    assert tables
    for table in tables:
        pd.testing.assert_frame_equal(table.to_frame(), _general(table))


def test_an_empty_table_and_a_table_of_lists_frame_as_the_general_build() -> None:
    from toskit.tosca.model.template import PropertyRow, PropertyTable

    lists = [
        PropertyRow("a", [1, 2], "list", "template"),
        PropertyRow("b", [3, 4], "list", "template"),
    ]
    for table in (PropertyTable("x", lists), PropertyTable("x", lists, True)):
        pd.testing.assert_frame_equal(table.to_frame(), _general(table))
    # An empty table: the same columns, the text ones in the dtype of a full
    # table's (the general build made them object and status float64, which
    # turned a concatenation of tables' frames to object).
    full = PropertyTable("x", lists, True).to_frame()
    for shown in (False, True):
        empty = PropertyTable("x", [], shown).to_frame()
        assert len(empty) == 0
        names = [c for c in full.columns if shown or c != "overridden"]
        assert list(empty.columns) == names
        for column in ("path", "type", "source", "status", "problem"):
            assert empty[column].dtype == full[column].dtype, column
        assert empty["value"].dtype == object


def test_the_column_build_is_what_to_frame_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = template_module._Columns.frame
    monkeypatch.setattr(template_module._Columns, "frame", lambda s: calls.append(1) or real(s))
    states = []
    real_states = template_module.row_states
    monkeypatch.setattr(
        template_module, "row_states", lambda *a, **k: states.append(1) or real_states(*a, **k)
    )
    st = toskit.loads(generate(3), name="b1.yaml")
    for node in st.node_templates.values():
        node.property_table().to_frame()
    assert len(calls) == len(st.node_templates)
    # No finding names these nodes: the rows' states are not built for the frame.
    assert states == []
    for node in toskit.loads(MIXED, name="mixed.yaml").node_templates.values():
        node.property_table().to_frame()
    assert states  # a table with findings computes them


def test_the_public_constructor_fallback_frames_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # A pandas without the internal steps _frame_of uses gets the same frames
    # from DataFrame(dict); and the internal steps are in use with this pandas.
    assert template_module._fast_frame() is not None
    st = toskit.loads(MIXED, name="mixed.yaml")
    tables = [t for t in _tables(st) if all(s.row is not None for s in t.states)]
    fast = [t.to_frame() for t in tables]
    monkeypatch.setattr(template_module, "_FAST_FRAME", [None])
    for table, frame in zip(tables, fast):
        pd.testing.assert_frame_equal(table.to_frame(), frame)
        pd.testing.assert_frame_equal(frame, _general(table))
    assert len(tables) >= 4


def test_frames_do_not_share_a_mutable_column_index() -> None:
    st = toskit.loads(generate(3), name="b1.yaml")
    first, second = [node.property_table().to_frame() for node in st.node_templates.values()][:2]
    first.columns.name = "renamed"
    assert second.columns.name is None
    assert list(second.columns) == ["path", "value", "type", "source", "status", "problem"]


def test_a_frame_of_a_table_no_finding_names_makes_no_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = template_module.build_rows
    monkeypatch.setattr(
        template_module, "build_rows", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    st = toskit.loads(generate(5), name="b1.yaml")
    tables = [node.property_table() for node in st.node_templates.values()]
    frames = [table.to_frame() for table in tables]
    assert calls == []  # read from the resolutions: no row objects
    for table, frame in zip(tables, frames):
        assert len(table.rows) == len(frame) > 5  # made now, on first use, once
        assert list(frame["path"]) == [r.path for r in table.rows]
        pd.testing.assert_frame_equal(table.to_frame(), frame)  # from the rows: the same
    assert len(calls) == len(tables)
    # A node some finding names: its rows and states are made for the frame.
    mixed = toskit.loads(MIXED, name="mixed.yaml").node_templates["mixed"].property_table()
    mixed.to_frame()
    assert len(calls) == len(tables) + 1


def test_every_row_path_is_the_formatted_tuple_path() -> None:
    # The walk extends a leaf's text path a key at a time; it must be what
    # format_path makes of the tuple (an integer key is an index, others keys).
    from toskit.diagnostics import format_path

    odd_keys = MIXED.replace("inner: {n: 3}", "inner: {n: 3, 7: seven, true: yes}")
    templates = [*_templates(), toskit.loads(odd_keys, name="odd.yaml")]
    paths = set()
    for st in templates:
        for table in _tables(st):
            for row in table.rows:
                assert row.path == format_path(row.parts)
                paths.add(row.path)
    assert {"inner[7]", "inner.True", "inner.n", "connection.endpoint.port"} <= paths
