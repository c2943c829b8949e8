"""The value checks' quick pass (issue #31): a data value or a list of
plain leaves is decided in one pass (``check._clean_data``,
``check._clean_list``) when nothing in it is reported; anything else goes
to the general walk. The findings, values and origins are those of the
walk alone, in the same order, for valid and invalid values of every
shape the pass decides."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import toskit
from toskit.tosca.values import check

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gen_template import generate  # noqa: E402  (a sibling script, not a package)

TYPES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  t.Inner:
    derived_from: tosca.datatypes.Root
    properties:
      name: {type: string}
      level: {type: integer, default: 1, constraints: [{in_range: [0, 9]}]}
  t.Outer:
    derived_from: tosca.datatypes.Root
    properties:
      host: {type: string, default: localhost}
      port: {type: integer, constraints: [{in_range: [1, 65535]}], required: false}
      mode: {type: string, default: a, constraints: [{valid_values: [a, b]}]}
      ratio: {type: float, required: false, constraints: [{greater_than: 0.5}]}
      code: {type: string, required: false, constraints: [{pattern: "[a-z]+"}]}
      size: {type: string, required: false, constraints: [{min_length: 2}]}
      flag: {type: boolean, required: false}
      inner: {type: t.Inner, required: false}
      tags: {type: list, required: false, entry_schema: {type: string}}
      any: {required: false}
      anymap: {type: map, required: false}
      need: {type: string}
node_types:
  t.N:
    derived_from: tosca.nodes.Root
    properties:
      conf: {type: t.Outer, required: false}
      names: {type: list, required: false, entry_schema: {type: string}}
      ports: {type: list, required: false, entry_schema: {type: integer}}
topology_template:
  node_templates:
"""

# (name, properties written): valid and invalid values of every field kind.
CASES = [
    ("valid", "{conf: {need: x, port: 80, inner: {name: n}, tags: [a, b]}, names: [a]}"),
    (
        "valid-all",
        "{conf: {need: x, port: 1, mode: b, ratio: 0.7, size: ab, "
        "flag: true, inner: {name: n, level: 9}, tags: [], any: [1, {a: 2}]}}",
    ),
    # Valid, with fields the quick pass leaves to the walk (a pattern, a map).
    ("valid-walked", "{conf: {need: x, code: abc, anymap: {k: 1}}}"),
    ("valid-nulls", "{conf: {need: x, port: null, inner: null, tags: null, ratio: null}}"),
    ("int-for-float", "{conf: {need: x, ratio: 3}}"),
    ("wrong-leaf", "{conf: {need: 5}}"),
    ("bool-for-int", "{conf: {need: x, port: true}}"),
    ("float-for-int", "{conf: {need: x, port: 80.0}}"),
    ("out-of-range", "{conf: {need: x, port: 70000}}"),
    ("range-wrong-type", "{conf: {need: x, port: '80'}}"),
    ("not-valid-value", "{conf: {need: x, mode: c}}"),
    ("not-greater", "{conf: {need: x, ratio: 0.1}}"),
    ("pattern-miss", "{conf: {need: x, code: ABC}}"),
    ("too-short", "{conf: {need: x, size: a}}"),
    ("unknown-key", "{conf: {need: x, prot: 80}}"),
    ("typo-of-missing", "{conf: {ned: x}}"),
    ("missing", "{conf: {port: 80}}"),
    ("null-required", "{conf: {need: null}}"),
    ("inner-missing", "{conf: {need: x, inner: {level: 3}}}"),
    ("inner-range", "{conf: {need: x, inner: {name: n, level: 10}}}"),
    ("inner-not-map", "{conf: {need: x, inner: [1]}}"),
    ("not-a-map", "{conf: [need, x]}"),
    ("entry-wrong", "{conf: {need: x, tags: [a, 1]}}"),
    ("list-not-list", "{conf: {need: x, tags: a}}"),
    ("names-entry", "{names: [a, [b]], ports: [1, x]}"),
    ("names-not-list", "{names: {a: 1}}"),
    ("complex-key", "{conf: {need: x, {a: 1}: 2}}"),
]


def _template() -> str:
    lines = [TYPES]
    for name, props in CASES:
        lines.append(f"    {name}:\n      type: t.N\n      properties: {props}\n")
    return "".join(lines)


def _outcome(st: Any) -> tuple:
    """What must not change: findings in order, values, rows with their origins."""
    rows = []
    for node in st.node_templates.values():
        for row in node.property_table().rows:
            rows.append((node.name, row.path, repr(row.value), row.source, str(row.origin)))
    return (
        [d.to_dict() for d in st.diagnostics],
        {name: node.properties for name, node in st.node_templates.items()},
        rows,
    )


def _walked(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Count the general walk's levels: (value, rel) of each."""
    seen: list[tuple] = []
    real = check._check_level
    monkeypatch.setattr(
        check,
        "_check_level",
        lambda ctx, v, s, vt, rel, m: seen.append((v, rel)) or real(ctx, v, s, vt, rel, m),
    )
    return seen


def _without_quick_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check, "_clean_data", lambda *a: False)
    monkeypatch.setattr(check, "_clean_list", lambda *a: False)


@pytest.mark.parametrize("text", [_template(), generate(30)], ids=["shapes", "b1"])
def test_the_quick_pass_changes_no_finding_value_or_origin(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    quick = _outcome(toskit.loads(text, name="t.yaml"))
    with monkeypatch.context() as patch:
        _without_quick_pass(patch)
        walked = _outcome(toskit.loads(text, name="t.yaml"))
    assert quick == walked


VALID = {"valid", "valid-all", "valid-nulls", "int-for-float"}  # and not walked


@pytest.mark.parametrize(("name", "props"), CASES, ids=[name for name, _ in CASES])
def test_an_invalid_value_is_walked_and_reported_a_valid_one_is_not_walked(
    monkeypatch: pytest.MonkeyPatch, name: str, props: str
) -> None:
    text = f"{TYPES}    {name}:\n      type: t.N\n      properties: {props}\n"
    walked = _walked(monkeypatch)
    st = toskit.loads(text, name="t.yaml")
    # The template's values (the types' defaults are checked on their own).
    seen = [rel for _, rel in walked if rel[0] in ("conf", "names", "ports")]
    about = [d for d in st.diagnostics if d.subject is not None and d.subject.name == name]
    if name in VALID:
        assert (about, seen) == ([], [])
    elif name == "valid-walked":
        assert (about, seen[0]) == ([], ("conf",))
    else:
        assert about and seen


def test_a_b1_load_takes_the_quick_pass_for_every_value(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _walked(monkeypatch)
    st = toskit.loads(generate(30), name="b1.yaml")
    assert st.ok
    # The template's values (the types' defaults, port and protocol, are checked once).
    assert [
        rel for _, rel in seen if rel[0] in ("connection", "tags")
    ] == []  # connection (three data types, an in_range, a valid_values) and tags


def test_a_clean_entity_makes_no_check_context(monkeypatch: pytest.MonkeyPatch) -> None:
    """A queued check carries what makes its entity's CheckContext; a value the
    quick pass clears never makes it (B1: none for 300 nodes), one that it
    does not clear makes it once per entity."""
    from toskit.tosca.model import entities

    made: list[str] = []
    real = entities._check_context
    monkeypatch.setattr(entities, "_check_context", lambda *a: made.append(a[1]) or real(*a))
    assert toskit.loads(generate(300), name="b1.yaml").ok
    assert made == []
    text = f"{TYPES}    a:\n      type: t.N\n      properties: {{conf: {{need: 5}}, names: [1]}}\n"
    st = toskit.loads(text, name="t.yaml")
    assert [d.code for d in st.diagnostics if d.subject and d.subject.name == "a"] == [
        "type-mismatch",
        "type-mismatch",
    ]
    assert made == ["node template 'a'"]


LEAVES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  t.L:
    derived_from: tosca.nodes.Root
    properties:
      s: {type: string, required: false}
      i: {type: integer, required: false}
      f: {type: float, required: false}
      b: {type: boolean, required: false}
      r: {type: integer, required: false, constraints: [{in_range: [1, 9]}]}
      t: {type: timestamp, required: false}
topology_template:
  inputs:
    n: {type: integer, default: 3}
  node_templates:
"""

# Written top-level leaves: each primitive right and wrong, under a constraint,
# a type the skip does not decide, and a call.
LEAF_CASES = [
    "{s: x, i: 1, f: 1.5, b: true}",
    "{f: 2}",  # an int is a float
    "{s: 5}",
    "{i: '1'}",
    "{i: true}",
    "{i: 1.0}",
    "{f: x}",
    "{b: 1}",
    "{s: null, i: null}",
    "{r: 5}",
    "{r: 10}",
    "{t: 2024-01-01}",
    "{t: x}",
    "{i: {get_input: n}}",
    "{s: {get_input: n}}",
]


def _leaves() -> str:
    return LEAVES + "".join(
        f"    n{index}:\n      type: t.L\n      properties: {props}\n"
        for index, props in enumerate(LEAF_CASES)
    )


@pytest.mark.parametrize("text", [_leaves(), generate(30)], ids=["leaves", "b1"])
def test_written_plain_leaves_skip_the_queue_with_the_same_outcome(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """A written leaf of a plain primitive type that has it is not queued
    for check_pending (the merge decides it); findings, values and origins
    are those of the queued check."""
    from toskit.tosca.load import loader
    from toskit.tosca.model import entities

    queued: list[str] = []
    real = loader.check_pending
    monkeypatch.setattr(
        loader,
        "check_pending",
        lambda pending: queued.extend(entry[2].name for entry in pending) or real(pending),
    )
    skipped = _outcome(toskit.loads(text, name="t.yaml"))
    leaves_queued = list(queued)
    queued.clear()
    with monkeypatch.context() as patch:
        patch.setattr(entities, "plain_leaf_type", lambda *a: None)
        assert _outcome(toskit.loads(text, name="t.yaml")) == skipped
    if text.startswith(LEAVES):
        codes = [d["code"] for d in skipped[0]]
        assert codes.count("type-mismatch") == 8 and "constraint-violation" in codes, codes
        # Not queued: the valid s, i, f, b of n0 and n1's f; the rest is (wrong
        # classes, nulls, the constraint, the timestamp, the calls).
        assert leaves_queued.count("s") == 3 and leaves_queued.count("f") == 1
        assert sorted(queued) != sorted(leaves_queued)
    else:
        assert "label" not in leaves_queued and "label" in queued
