"""YAML -> Python -> YAML over arbitrary names, descriptions and defaults (issue #24).

The generated Python must always compile, property names equal under
Unicode NFKC (``file`` / ``ﬁle``) must stay distinct, descriptions ending
in three quotes or a backslash must survive, and complex (map) keys must
load back without a ``NameError``.
"""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toskit
from toskit import dsl
from toskit.dsl.sourcemap import clean_docstring

# Names: any printable text, with the characters that broke generation
# before (NFKC ligatures, quotes, backslashes, dots, keywords).
_NAME_CHARS = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"))
_NAMES = st.one_of(
    st.text(_NAME_CHARS, min_size=1, max_size=8),
    st.sampled_from(
        ["file", "ﬁle", "ｆｉｌｅ", "class", "mro", "x.y", "a-b", "_p", "name", "type"]
    ),
).filter(lambda s: s.strip() == s and s != "")
_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
_DESCRIPTIONS = st.one_of(
    _TEXT, st.sampled_from(['ends """', "ends \\", '"', '\\"""', "''' x '''"])
)
_DEFAULTS = st.one_of(
    _TEXT,
    st.integers(-(2**62), 2**62),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.lists(_TEXT, max_size=3),
)


def _normalised(description: str) -> str:
    """What a description reads as after a docstring round trip (documented in docs/dsl.md)."""
    return clean_docstring(description.strip())


@st.composite
def _documents(draw) -> dict[str, Any]:
    names = draw(st.lists(_NAMES, min_size=1, max_size=4, unique=True))
    props: dict[str, Any] = {}
    for name in names:
        default = draw(_DEFAULTS)
        kind = {str: "string", int: "integer", float: "float", bool: "boolean", list: "list"}[
            type(default)
        ]
        prop: dict[str, Any] = {
            "type": kind,
            "description": draw(_DESCRIPTIONS),
            "default": default,
        }
        if kind == "list":
            prop["entry_schema"] = {"type": "string"}
        props[name] = prop
    return {
        "tosca_definitions_version": "tosca_simple_unfurl_1_0_0",
        "data_types": {
            "h.Data": {
                "derived_from": "tosca.datatypes.Root",
                "description": draw(_DESCRIPTIONS),
                "properties": props,
            }
        },
    }


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(document=_documents())
def test_arbitrary_names_descriptions_and_defaults_round_trip(tmp_path, document) -> None:
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    original = toskit.loads(text, name="hostile.yaml")
    source = original.to_python()
    compile(source, "generated.py", "exec")  # always valid Python
    path = tmp_path / "generated.py"
    path.write_text(source, encoding="utf-8")
    back = dsl.load_module(path)
    assert not [d for d in back.diagnostics if d.code == "python-error"], source
    before, after = original.types["h.Data"], back.types["h.Data"]
    assert set(after.own_properties) == set(before.own_properties), source  # none merged or lost
    for name, prop in before.own_properties.items():
        other = after.own_properties[name]
        assert other.default == prop.default, (name, source)
        assert (other.description or "") == _normalised(prop.description or ""), (name, source)
    assert (after.description or "") == _normalised(before.description or ""), source


def test_nfkc_equal_property_names_stay_distinct(tmp_path) -> None:
    text = yaml.safe_dump(
        {
            "tosca_definitions_version": "tosca_simple_unfurl_1_0_0",
            "data_types": {
                "D": {
                    "derived_from": "tosca.datatypes.Root",
                    "properties": {
                        "file": {"type": "string", "default": "a"},
                        "ﬁle": {"type": "integer", "default": 2},
                    },
                }
            },
        },
        allow_unicode=True,
    )
    source = toskit.loads(text).to_python()
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    back = dsl.load_module(path)
    props = back.types["D"].own_properties
    assert {name: p.default for name, p in props.items()} == {"file": "a", "ﬁle": 2}


def test_descriptions_ending_in_quotes_or_backslash_compile(tmp_path) -> None:
    for description in ['ends with """', "ends with \\", '"', '\\"""']:
        text = yaml.safe_dump(
            {
                "tosca_definitions_version": "tosca_simple_unfurl_1_0_0",
                "data_types": {
                    "D": {
                        "derived_from": "tosca.datatypes.Root",
                        "description": description,
                        "properties": {"a": {"type": "string", "description": description}},
                    }
                },
            }
        )
        source = toskit.loads(text).to_python()
        compile(source, "m.py", "exec")
        path = tmp_path / "m.py"
        path.write_text(source, encoding="utf-8")
        back = dsl.load_module(path)
        assert back.types["D"].description == description
        assert back.types["D"].own_properties["a"].description == description


def test_complex_keys_load_back_without_name_error(tmp_path) -> None:
    text = (
        "tosca_definitions_version: tosca_simple_unfurl_1_0_0\n"
        "node_types:\n  N:\n    derived_from: tosca.nodes.Root\n"
        "    properties:\n      m: {type: map, required: false}\n"
        "topology_template:\n  node_templates:\n    n:\n      type: N\n"
        "      properties:\n        m:\n          ? {a: 1}\n          : 1\n"
    )
    original = toskit.loads(text)
    source = original.to_python()
    assert "FrozenMap" in source
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    back = dsl.load_module(path)
    assert not [d for d in back.diagnostics if d.code == "python-error"]
    assert sorted(d.code for d in back.diagnostics) == sorted(d.code for d in original.diagnostics)
