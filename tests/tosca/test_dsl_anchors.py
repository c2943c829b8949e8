"""``dsl_definitions`` entries need a YAML anchor (toskit.tosca.load.anchors)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toskit
from toskit.tosca.load.anchors import _unanchored_keys

V2 = "tosca_definitions_version: tosca_2_0\n"


def anchors(st_: toskit.ServiceTemplate) -> list[toskit.Diagnostic]:
    return [d for d in st_.diagnostics if d.code == "missing-anchor"]


@pytest.mark.parametrize(
    ("section", "missing"),
    [
        ("  a: &a 1\n  b: &b {x: 1}\n  c: &c [1]\n", []),
        ("  a: 1\n", ["a"]),
        ("  a:\n", ["a"]),
        ("  a: &a {x: {y: 1}}\n  b: {z: 2}\n  c: &c\n    - 1\n", ["b"]),
        ("  a: &a 1\n  b: *a\n", []),
        ("  ? [k]\n  : &k 1\n  c: 2\n", ["c"]),
    ],
    ids=["all-anchored", "number", "null", "nested-map-without", "alias-value", "complex-key"],
)
def test_entries_without_anchor(section: str, missing: list[str]) -> None:
    text = V2 + "dsl_definitions:\n" + section + "node_types:\n  N: {}\n"
    found = anchors(toskit.loads(text))
    assert [d.path for d in found] == [f"dsl_definitions.{k}" for k in missing]
    assert all(d.severity == "error" for d in found)


def test_message_hint_and_place() -> None:
    (diag,) = anchors(toskit.loads(V2 + "metadata: {a: b}\ndsl_definitions:\n  ports: 80\n"))
    assert diag.message == (
        "dsl_definitions entry 'ports' has no YAML anchor, so nothing can refer to it"
    )
    assert diag.hint == "write 'ports: &ports ...' and use it elsewhere as '*ports'"
    assert (diag.line, diag.column) == (4, 3)


def test_tosca_1_x_only_warns() -> None:
    text = "tosca_definitions_version: tosca_simple_yaml_1_3\ndsl_definitions:\n  a: 1\n"
    (diag,) = anchors(toskit.loads(text))
    assert diag.severity == "warning"


def test_a_section_after_other_maps_is_found() -> None:
    text = V2 + "node_types:\n  N:\n    properties: {dsl_definitions: {type: string}}\n"
    text += "dsl_definitions:\n  x: 1\n"
    assert [d.path for d in anchors(toskit.loads(text))] == ["dsl_definitions.x"]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="dsl_efinto:&*ab[]{}- \n#'\"?", max_size=80))
def test_never_raises_on_arbitrary_text(text: str) -> None:
    import yaml

    try:
        result = _unanchored_keys("dsl_definitions:\n" + text)
    except yaml.YAMLError:
        return  # check_dsl_anchors skips text PyYAML cannot parse
    assert isinstance(result, list)
    assert all(isinstance(k, str) for k in result)
