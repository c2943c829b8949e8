"""A written data map merged by its shape (issue #31, bench B1's
``connection``): ``resolve.merge_written_map`` compiles once per property and
shape what the field-by-field merge does, then copies. Values, origins,
overridden layers and findings must be those of the field-by-field merge for
every shape, including the ones it hands back (lists, calls, keys no field
declares, defaults that are maps or calls, data values built from defaults),
and for many templates sharing one shape."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

import toskit
from toskit.tosca.model import entities
from toskit.tosca.values import resolve

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from gen_template import generate  # noqa: E402  (a sibling script, not a package)

TYPES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  t.Leafy:
    derived_from: tosca.datatypes.Root
    properties:
      a: {type: string, default: x}
      b: {type: integer, required: false}
      c: {type: integer, default: 3, constraints: [{in_range: [0, 9]}]}
  t.Deeper:
    derived_from: t.Leafy
    properties:
      c: {type: integer, default: 4}
      d: {type: boolean, required: false}
  t.Nest:
    derived_from: tosca.datatypes.Root
    properties:
      leafy: {type: t.Leafy, required: false}
      deep: {type: t.Deeper, required: false}
      built: {type: t.Leafy}
      mapped: {type: t.Leafy, default: {a: y}, required: false}
      tags: {type: list, required: false, entry_schema: {type: string}}
      free: {type: map, required: false}
      e: {type: string, default: "e"}
  t.Bad:
    derived_from: tosca.datatypes.Root
    properties:
      v: {type: integer, default: 20, constraints: [{in_range: [0, 9]}]}
      w: {type: string, required: false}
  t.Top:
    derived_from: tosca.datatypes.Root
    properties:
      nest: {type: t.Nest, required: false}
      leafy: {type: t.Leafy, required: false}
      n: {type: integer, default: 1}
node_types:
  t.N:
    derived_from: tosca.nodes.Root
    properties:
      top: {type: t.Top, required: false}
      nest: {type: t.Nest, required: false}
      leafy: {type: t.Leafy, required: false}
      withdefault: {type: t.Leafy, required: false, default: {b: 2}}
      bad: {type: t.Bad, required: false}
topology_template:
  inputs:
    who: {type: string, default: me}
  node_templates:
"""

LEAVES: dict[str, list[str]] = {
    "a": ["s", "'q'", "null", "5"],
    "b": ["1", "x", "null", "{get_input: who}"],
    "c": ["2", "10", "null"],
    "d": ["true", "1"],
    "e": ["z", "[1]"],
    "n": ["7", "x"],
    "zz": ["1"],  # a key no field declares
}


def _leafy(rng: random.Random, deeper: bool) -> str:
    names = ["a", "b", "c", *(["d"] if deeper else []), *(["zz"] if rng.random() < 0.1 else [])]
    chosen = [n for n in names if rng.random() < 0.5]
    return "{" + ", ".join(f"{n}: {rng.choice(LEAVES[n])}" for n in chosen) + "}"


def _nest(rng: random.Random) -> str:
    parts = []
    for name in ("leafy", "deep", "built", "mapped", "tags", "free", "e"):
        if rng.random() < 0.45:
            if name in ("leafy", "built", "mapped"):
                parts.append(f"{name}: {_leafy(rng, False)}")
            elif name == "deep":
                parts.append(f"deep: {_leafy(rng, True)}")
            elif name == "tags":
                parts.append("tags: [a, b]")
            elif name == "free":
                parts.append("free: {k: v}")
            else:
                parts.append(f"e: {rng.choice(LEAVES['e'])}")
    return "{" + ", ".join(parts) + "}"


def _template(seed: int, count: int) -> str:
    rng = random.Random(seed)
    lines = [TYPES]
    for index in range(count):
        props = []
        if rng.random() < 0.6:
            inner = []
            if rng.random() < 0.6:
                inner.append(f"nest: {_nest(rng)}")
            if rng.random() < 0.5:
                inner.append(f"leafy: {_leafy(rng, False)}")
            if rng.random() < 0.3:
                inner.append(f"n: {rng.choice(LEAVES['n'])}")
            props.append("top: {" + ", ".join(inner) + "}")
        if rng.random() < 0.5:
            props.append(f"nest: {_nest(rng)}")
        if rng.random() < 0.5:
            props.append(f"leafy: {_leafy(rng, False)}")
        if rng.random() < 0.3:
            props.append(f"withdefault: {_leafy(rng, False)}")
        if rng.random() < 0.05:
            props.append("leafy: [1, 2]")
        if rng.random() < 0.1:
            # A default that fails its own constraint, filled in by the shape.
            props.append(f"bad: {{w: {rng.choice(['x', '1'])}}}")
        lines.append(f"    n{index}:\n      type: t.N\n      properties: {{{', '.join(props)}}}\n")
    # Templates of one shape, values apart: each keeps its own origins.
    for index in range(5):
        lines.append(
            f"    same{index}:\n      type: t.N\n"
            f"      properties: {{leafy: {{a: v{index}, b: {index}}}, top: {{leafy: {{c: {index}}}}}}}\n"
        )
    return "".join(lines)


def _origin(origin: Any) -> tuple:
    """An origin without its document object (each load has its own)."""
    return (origin.source, origin.doc.name if origin.doc else None, origin.parts)


def _outcome(st: Any) -> tuple:
    nodes = {}
    for name, node in st.node_templates.items():
        res = node._resolution
        rows = [
            (row.path, repr(row.value), row.source, _origin(row.origin), row.overridden)
            for row in node.property_table(show_overridden=True).rows
        ]
        origins = {path: _origin(o) for path, o in res.origins.items()}
        overridden = {
            path: [(repr(v), _origin(o)) for v, o in layers]
            for path, layers in res.overridden.items()
        }
        nodes[name] = (repr(res.values), origins, overridden, rows)
    return [d.to_dict() for d in st.diagnostics], nodes


def _field_by_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entities, "merge_written_map", lambda *a: None)


@pytest.mark.parametrize("seed", range(6))
def test_shapes_merge_as_field_by_field(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    text = _template(seed, 60)
    shaped = _outcome(toskit.loads(text, name="t.yaml"))
    with monkeypatch.context() as patch:
        _field_by_field(patch)
        assert _outcome(toskit.loads(text, name="t.yaml")) == shaped


def test_b1_merges_by_shape_with_the_same_outcome(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[tuple] = []
    real = resolve._compile_shape
    monkeypatch.setattr(
        resolve, "_compile_shape", lambda vt, path, *a: compiled.append(path) or real(vt, path, *a)
    )
    text = generate(60)
    shaped = _outcome(toskit.loads(text, name="b1.yaml"))
    # B1 writes `connection` in two shapes (with and without a protocol);
    # the nested levels are compiled with them.
    assert [p for p in compiled if len(p) == 1] == [("connection",), ("connection",)]
    with monkeypatch.context() as patch:
        _field_by_field(patch)
        assert _outcome(toskit.loads(text, name="b1.yaml")) == shaped


def test_what_the_shapes_hand_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each case the compiled form does not cover is merged field by field
    (``merge_written_map`` answers ``None`` and records nothing)."""
    handed: list[str] = []
    real = resolve.merge_written_map

    def spy(value: Any, vt: Any, path: tuple, *a: Any) -> Any:
        merged = real(value, vt, path, *a)
        if merged is None:
            handed.append(path[0])
        return merged

    monkeypatch.setattr(entities, "merge_written_map", spy)
    cases = {
        "list": "{leafy: {a: [1]}}",
        "call": "{leafy: {b: {get_input: who}}}",
        "undeclared": "{leafy: {zz: 1}}",
        "built": "{nest: {e: f}}",  # `built` is a required data value: built from defaults
        "mapdefault": "{nest: {built: {}, mapped: {b: 1}}}",  # a map over a map default
        "nonstring": "{leafy: {1: 2}}",
    }
    for name, props in cases.items():
        handed.clear()
        st = toskit.loads(f"{TYPES}    {name}:\n      type: t.N\n      properties: {props}\n")
        assert handed, (name, [d.message for d in st.diagnostics])
    handed.clear()
    toskit.loads(f"{TYPES}    fine:\n      type: t.N\n      properties: {{leafy: {{a: s}}}}\n")
    assert handed == []


@pytest.mark.parametrize("seed", range(4))
def test_the_shaped_quick_check_clears_only_what_the_quick_check_clears(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """check.quick_clean_shaped tests a value merged by shape on its written
    leaves only (the fields filled from defaults once per shape): whatever it
    clears, quick_clean clears too, and the findings are those without it."""
    from toskit.tosca.values import check

    answers: list[bool] = []
    real = check.quick_clean_shaped

    def spy(ctx: Any, value: Any, schema: Any, vt: Any, shape: Any) -> bool:
        got = real(ctx, value, schema, vt, shape)
        answers.append(got)
        if got:
            assert check.quick_clean(ctx, value, schema, vt), value
        return got

    monkeypatch.setattr(entities, "quick_clean_shaped", spy)
    for text in (_template(seed, 80), generate(60)):
        answers.clear()
        with_shapes = [d.to_dict() for d in toskit.loads(text, name="t.yaml").diagnostics]
        assert True in answers  # used, and clearing
        with monkeypatch.context() as patch:
            patch.setattr(entities, "quick_clean_shaped", lambda *a: False)
            without = [d.to_dict() for d in toskit.loads(text, name="t.yaml").diagnostics]
        assert with_shapes == without
    assert False not in answers  # B1: every value cleared by its written leaves


def test_b1_values_are_checked_by_their_written_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    """B1's connection: after the first template of each shape, quick_clean is
    not asked (its walk of the default-filled fields is what is saved)."""
    from toskit.tosca.values import check

    asked: list[Any] = []
    real = check.quick_clean
    monkeypatch.setattr(entities, "quick_clean", lambda c, v, *a: asked.append(v) or real(c, v, *a))
    st = toskit.loads(generate(60), name="b1.yaml")
    assert st.ok
    assert not any(isinstance(v, dict) for v in asked)  # only the tags lists
    assert asked
