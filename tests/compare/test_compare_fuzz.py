"""Hypothesis: compare finds exactly the values that differ, both ways."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toskit
from toskit.plain import values_equal as same_value

HEADER = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  T:
    derived_from: tosca.nodes.Root
    properties:
      i: {type: integer, required: false}
      s: {type: string, required: false}
      b: {type: boolean, required: false}
      l: {type: list, entry_schema: {type: integer}, required: false}
      m: {type: map, entry_schema: {type: string}, required: false}
topology_template:
  node_templates:
"""

VALUES = {
    "i": st.integers(-3, 3),
    "s": st.sampled_from(["a", "b", "1", "true", ""]),
    "b": st.booleans(),
    "l": st.lists(st.integers(0, 2), max_size=3),
    "m": st.dictionaries(st.sampled_from(["k", "q"]), st.sampled_from(["x", "y"]), max_size=2),
}
NODE = st.fixed_dictionaries({}, optional=VALUES)
TEMPLATE = st.dictionaries(st.sampled_from(["n1", "n2", "n3"]), NODE, max_size=3)


def text(nodes: dict) -> str:
    body = "".join(
        f"    {name}:\n      type: T\n      properties: {json.dumps(props)}\n"
        for name, props in nodes.items()
    )
    return HEADER + (body or "    {}\n")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=TEMPLATE, b=TEMPLATE)
def test_value_changes_are_exactly_the_differences(a, b):
    old, new = toskit.loads(text(a), name="a.yaml"), toskit.loads(text(b), name="b.yaml")
    diff = toskit.compare(old, new)
    expected = set()
    for name in a.keys() & b.keys():
        for prop in a[name].keys() | b[name].keys():
            if (
                prop not in a[name]
                or prop not in b[name]
                or not same_value(a[name][prop], b[name][prop])
            ):
                expected.add((name, prop))
    got = {(v.entity, v.path) for v in diff.values if v.entity in a.keys() & b.keys()}
    assert got == expected
    renamed = {(t.old_name, t.name) for t in diff.templates if t.change == "renamed"}
    for old_name, new_name in renamed:  # a body that moved: equal, or mostly equal
        assert old_name in a.keys() - b.keys() and new_name in b.keys() - a.keys()
    assert {t.name for t in diff.templates if t.change == "added"} == b.keys() - a.keys() - {
        n for _, n in renamed
    }
    assert {t.name for t in diff.templates if t.change == "removed"} == a.keys() - b.keys() - {
        o for o, _ in renamed
    }
    back = toskit.compare(new, old)
    # Backwards, a renamed template is renamed the other way: its values
    # carry the other name as entity and old_entity.
    assert sorted(
        repr((v.old_entity or v.entity, v.entity, v.path, v.old, v.new))
        for v in back.values
        if v.change == "changed"
    ) == sorted(
        repr((v.entity, v.old_entity or v.entity, v.path, v.new, v.old))
        for v in diff.values
        if v.change == "changed"
    )
    assert toskit.compare(old, old).is_same
    json.loads(diff.to_json())  # always serialisable
    assert str(diff)
