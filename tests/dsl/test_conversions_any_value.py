"""YAML -> Python -> YAML for every value the loader accepts (issues #30 item 5, #37 item 6).

* complex mapping keys (``? [a, {b: c}] : v``) anywhere -- document
  metadata, type metadata, property defaults, template properties -- give a
  module that loads (``FrozenMap`` is imported when it is used);
* values nested as deep as the loader accepts (500 levels) convert without
  ``RecursionError``, also where Python's parser could not nest the literal
  (``dsl.value_from_yaml``);
* a 2,000-deep ``derived_from`` chain, in either order, converts;
* a node named ``""`` survives with its diagnostic;
* every non-printing character (bidi controls, zero-width and format
  characters, C0/C1 controls, separators, unassigned code points) is an
  escape in the generated source, never raw ("Trojan Source");
* a hypothesis test over values: deep, complex keys, every scalar type.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import BIG_INTEGERS, plain_data, plain_scalars

import toskit
from toskit import dsl
from toskit.dsl.yamltext import dump_yaml
from toskit.source import FrozenMap, load_yaml


def _round_trip(tmp_path, text: str) -> tuple[Any, Any, str]:
    """(template loaded from ``text``, the template of its generated module, the module source)."""
    first = toskit.loads(text)
    source = first.to_python()
    path = tmp_path / "generated.py"
    path.write_text(source, encoding="utf-8")
    return first, dsl.load_module(path), source


def _yaml_value(template: Any, *path: Any) -> Any:
    """A value of the template's own document, read back from ``to_yaml()``."""
    value = load_yaml(template.to_yaml()).value
    for part in path:
        value = value[part]
    return value


def _same(a: Any, b: Any) -> bool:
    """Equal as YAML text (``1`` is not ``1.0`` nor ``true``; NaN equals NaN)."""
    return dump_yaml(a) == dump_yaml(b)


def _nested(depth: int, leaf: Any = 0, *, kind: str = "list") -> Any:
    value = leaf
    for _ in range(depth):
        value = [value] if kind == "list" else {"k": value}
    return value


# ---------------------------------------------------------------- complex keys

COMPLEX = """\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata:
  ? [a, {b: c}]
  : complex key
  ? {x: [1, {y: 2}]}
  : other
node_types:
  N:
    metadata:
      ? [k]
      : v
    properties:
      m:
        type: map
        required: false
        default:
          ? {p: [1, 2]}
          : in a default
      l:
        type: list
        required: false
        default: [{? [z] : 1}]
topology_template:
  node_templates:
    n:
      type: N
      properties:
        m: {? [q, {r: s}] : in a template}
"""


def test_complex_keys_everywhere_give_a_module_that_loads(tmp_path) -> None:
    first, second, source = _round_trip(tmp_path, COMPLEX)
    # Map-typed properties take scalar keys: the same two findings, before and after.
    codes = sorted(d.code for d in first.diagnostics)
    assert codes == ["type-mismatch", "type-mismatch"]
    assert "from toskit.source import FrozenMap" in source
    assert sorted(d.code for d in second.diagnostics) == codes, [str(d) for d in second.diagnostics]
    assert _yaml_value(second, "metadata") == {
        ("a", FrozenMap({"b": "c"})): "complex key",
        FrozenMap({"x": (1, FrozenMap({"y": 2}))}): "other",
    }
    node_type = _yaml_value(second, "node_types", "N")
    assert node_type["metadata"] == {("k",): "v"}
    assert node_type["properties"]["m"]["default"] == {FrozenMap({"p": (1, 2)}): "in a default"}
    assert node_type["properties"]["l"]["default"] == [{("z",): 1}]
    template = _yaml_value(second, "topology_template", "node_templates", "n")
    assert template["properties"]["m"] == {("q", FrozenMap({"r": "s"})): "in a template"}


def test_a_module_without_complex_keys_does_not_import_frozenmap(tmp_path) -> None:
    _, second, source = _round_trip(
        tmp_path, "tosca_definitions_version: tosca_simple_yaml_1_3\nmetadata: {a: [1, {b: c}]}\n"
    )
    assert "FrozenMap" not in source and second.ok


# ------------------------------------------------------------------ deep values


def _deep_default_document(value: Any, kind: str) -> str:
    return dump_yaml(
        {
            "tosca_definitions_version": "tosca_simple_yaml_1_3",
            "node_types": {
                "N": {"properties": {"p": {"type": kind, "required": False, "default": value}}}
            },
            "topology_template": {"node_templates": {"n": {"type": "N"}}},
        }
    )


def test_a_480_deep_list_default_converts_and_loads_back(tmp_path) -> None:
    value = _nested(479, [])
    first, second, source = _round_trip(tmp_path, _deep_default_document(value, "list"))
    assert first.ok and second.ok, [str(d) for d in second.diagnostics]
    assert "dsl.value_from_yaml(" in source  # Python cannot nest 480 brackets
    compile(source, "generated.py", "exec")
    assert _same(_yaml_value(second, "node_types", "N", "properties", "p", "default"), value)
    assert _same(second.node_templates["n"].properties["p"], value)


def test_values_as_deep_as_the_loader_accepts(tmp_path) -> None:
    # The document's own levels (node_types/N/properties/p/default) plus the
    # value's make 500, the loader's bound.
    for value, kind in [
        (_nested(494, "x", kind="map"), "map"),
        (_nested(494, FrozenMap({"deep": 1})), "list"),
        ([_nested(100), {("a", FrozenMap({"b": (1,)})): _nested(380)}], "list"),
    ]:
        first, second, _ = _round_trip(tmp_path, _deep_default_document(value, kind))
        assert first.ok, first.diagnostics
        assert second.ok, [str(d) for d in second.diagnostics]
        assert _same(_yaml_value(second, "node_types", "N", "properties", "p", "default"), value)


def test_medium_depth_stays_a_python_literal(tmp_path) -> None:
    value = _nested(60, {"a": 1})
    _, second, source = _round_trip(tmp_path, _deep_default_document(value, "list"))
    assert "value_from_yaml" not in source and second.ok
    assert _same(second.node_templates["n"].properties["p"], value)


def test_dump_yaml_of_a_deep_value_uses_no_python_recursion() -> None:
    # A stack already 800 frames deep leaves ~200: the writer must not need 3 per level.
    def at_depth(n: int) -> str:
        return dump_yaml(_nested(499)) if n == 0 else at_depth(n - 1)

    text = at_depth(sys.getrecursionlimit() - 200)
    assert text.startswith("- - - ") and load_yaml(text).value == _nested(499)


def test_value_from_yaml_rejects_bad_text() -> None:
    import pytest

    with pytest.raises(toskit.ToskitError, match="value_from_yaml"):
        dsl.value_from_yaml("[unclosed")


# ------------------------------------------------------- derived_from chains


def _chain(n: int, *, child_first: bool) -> str:
    order = reversed(range(n)) if child_first else range(n)
    lines = ["tosca_definitions_version: tosca_simple_yaml_1_3", "node_types:"]
    for i in order:
        lines += [f"  T{i}:", f"    derived_from: {f'T{i - 1}' if i else 'tosca.nodes.Root'}"]
    lines += ["topology_template:", "  node_templates:", f"    n:\n      type: T{n - 1}"]
    return "\n".join(lines) + "\n"


def test_a_2000_deep_derived_from_chain_converts_in_either_order() -> None:
    for child_first in (True, False):
        first = toskit.loads(_chain(2000, child_first=child_first))
        assert first.ok, first.diagnostics[:3]
        source = first.to_python()
        compile(source, "generated.py", "exec")
        # Parents are written before children: T0 first, T1999 last.
        assert source.index("class T0(") < source.index("class T1(") < source.index("class T1999(")
        assert source.count("\nclass T") == 2000


def test_a_deep_derived_from_chain_loads_back(tmp_path) -> None:
    # 400, not 2,000: CPython itself takes ~2.5 ms per class of a 2,000-deep
    # chain to build it (the module's own cost, not toskit's).
    first, second, _ = _round_trip(tmp_path, _chain(400, child_first=True))
    assert first.ok and second.ok, [str(d) for d in second.diagnostics][:3]
    assert len([t for t in second.types.values() if not t.normative]) == 400
    assert second.node_templates["n"].type.name == "T399"
    assert second.types["T399"].parent.name == "T398"


# ------------------------------------------------------------- empty names


def test_a_node_named_empty_survives_the_round_trip(tmp_path) -> None:
    text = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n  N: {}\n"
        "topology_template:\n  node_templates:\n    '': {type: N}\n    ok: {type: N}\n"
    )
    first, second, _ = _round_trip(tmp_path, text)
    codes = [(d.code, "non-empty" in d.message) for d in first.diagnostics]
    assert codes == [("invalid-definition", True)]
    assert [(d.code, "non-empty" in d.message) for d in second.diagnostics] == codes
    assert "" in _yaml_value(second, "topology_template", "node_templates")
    assert set(second.node_templates) == set(first.node_templates) == {"", "ok"}


# ------------------------------------------------------- non-printing text

# One of each class str.isprintable() refuses, and the Trojan Source set.
HIDDEN = [
    "\u202e",
    "\u202a",
    "\u2066",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",  # bidi controls
    "\u200b",
    "\u2060",
    "\ufeff",
    "\U000e0001",  # zero-width / format
    "\x07",
    "\x1b",
    "\x85",
    "\x9f",  # C0 / C1 controls
    "\u2028",
    "\u2029",
    "\u00a0",
    "\u3000",  # separators, non-plain spaces
    "\U0010fffd",
    "\ue000",
]  # private use


def test_every_non_printing_character_is_an_escape_in_the_source(tmp_path) -> None:
    hidden = "".join(HIDDEN)
    data = {
        "tosca_definitions_version": "tosca_simple_yaml_1_3",
        "description": f"top {hidden} end",
        "metadata": {f"key{hidden}": f"value{hidden}"},
        "node_types": {
            f"My{hidden}Type": {
                "derived_from": "tosca.nodes.Root",
                "description": f"a\n{hidden}\nb",
                "properties": {
                    f"p{hidden}": {
                        "type": "string",
                        "description": f"d{hidden}",
                        "default": f"x{hidden}",
                    }
                },
            }
        },
        "topology_template": {"node_templates": {f"n{hidden}": {"type": f"My{hidden}Type"}}},
    }
    first, second, source = _round_trip(tmp_path, dump_yaml(data))
    raw = sorted({f"U+{ord(c):04X}" for c in source if not c.isprintable() and c not in "\n"})
    assert raw == [], raw
    for char in HIDDEN:
        escape = (
            f"\\x{ord(char):02x}"
            if ord(char) < 0x100
            else (f"\\u{ord(char):04x}" if ord(char) < 0x10000 else f"\\U{ord(char):08x}")
        )
        assert escape in source, (char, escape)
    assert first.ok and second.ok, [str(d) for d in second.diagnostics]
    # ... and the text the interpreter sees is the text that was written.
    back = load_yaml(second.to_yaml()).value
    assert back["metadata"] == {f"key{hidden}": f"value{hidden}"}
    node_type = back["node_types"][f"My{hidden}Type"]
    assert node_type["properties"][f"p{hidden}"]["default"] == f"x{hidden}"
    assert f"n{hidden}" in back["topology_template"]["node_templates"]


# ------------------------------------------------------------------ hypothesis

_SCALARS = plain_scalars(
    BIG_INTEGERS,
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    st.sampled_from(
        [
            "",
            "true",
            "null",
            "1.0",
            "0o17",
            "~",
            "'",
            '"',
            "\\",
            "a: b",
            "- x",
            "#",
            "\u202eevil",
            "\x85",
            "\u2028",
        ]
    ),
)


def _frozen(value: Any) -> Any:
    """A value as a key: maps FrozenMap, lists tuples (as the loader makes them)."""
    if isinstance(value, dict):
        return FrozenMap({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _keys(children: st.SearchStrategy) -> st.SearchStrategy:
    hashable_scalars = _SCALARS.filter(lambda v: not (isinstance(v, float) and math.isnan(v)))
    return st.one_of(hashable_scalars, children.map(_frozen).filter(_no_nan))


def _no_nan(value: Any) -> bool:
    """NaN never equals itself: as (part of) a key it can never be found again."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and math.isnan(v):
            return False
        if isinstance(v, FrozenMap):
            stack += [*v.keys(), *v.values()]
        elif isinstance(v, tuple):
            stack += list(v)
    return True


_VALUES = plain_data(_SCALARS, _keys, max_leaves=12)
_DEEP = st.tuples(_VALUES, st.integers(0, 470), st.sampled_from(["list", "map"])).map(
    lambda t: _nested(t[1], t[0], kind=t[2])
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=st.one_of(_VALUES, _DEEP), where=st.sampled_from(["metadata", "default", "property"]))
def test_any_value_round_trips_yaml_python_yaml(tmp_path_factory, value, where) -> None:
    folder = tmp_path_factory.mktemp("values")
    doc: dict[str, Any] = {"tosca_definitions_version": "tosca_simple_yaml_1_3"}
    if where == "metadata":
        doc["metadata"] = {"v": value}
    else:
        prop: dict[str, Any] = {"type": "list", "required": False}
        if where == "default":
            prop["default"] = [value]
        doc["node_types"] = {"N": {"properties": {"p": prop}}}
        template: dict[str, Any] = {"type": "N"}
        if where == "property":
            template["properties"] = {"p": [value]}
        doc["topology_template"] = {"node_templates": {"n": template}}
    text = dump_yaml(doc)
    first = toskit.loads(text)
    assert not [d for d in first.diagnostics if d.code in ("limit-exceeded", "yaml-syntax")]
    first, second, source = _round_trip(folder, text)
    compile(source, "generated.py", "exec")
    assert not [d for d in second.diagnostics if d.code == "python-error"], second.diagnostics
    back = load_yaml(second.to_yaml()).value
    if where == "metadata":
        assert _same(back["metadata"]["v"], value)
    elif where == "default":
        assert _same(back["node_types"]["N"]["properties"]["p"]["default"], [value])
    else:
        assert _same(back["topology_template"]["node_templates"]["n"]["properties"]["p"], [value])


def test_a_python_value_deeper_than_the_loader_accepts_is_a_diagnostic() -> None:
    # In this process (a namespace, as a notebook passes globals()): no RecursionError.
    class Deep(dsl.DataEntity):
        x: list = _nested(600)

    st = dsl.load_module({"Deep": Deep})
    assert [(d.code, "deeper than 500" in d.message) for d in st.diagnostics] == [
        ("limit-exceeded", True)
    ]
