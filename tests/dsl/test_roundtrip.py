"""YAML -> Python -> YAML and Python -> YAML -> Python keep the meaning.

"Meaning" is what toskit resolves: the same own types (kind and name),
the same resolved properties of every node template, and the same
diagnostics (code and path).
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toskit
from toskit import dsl
from toskit.tosca.types.registry import KINDS

SEED_YAML = [
    "basic",
    "inheritance",
    "composition",
    "defaults",
    "overriding",
    "nested_merging",
    "compound",
    "nested_inheritance",
]
SEED_PYTHON = ["basic", "composition", "defaults", "nested_merging", "nested_inheritance"]
IGNORED_CODES = {"missing-version"}  # the Python side always writes its version


def _meaning(template) -> tuple:
    types = {
        (t.kind, t.name)
        for kind in KINDS
        for t in template.types_of(kind).values()
        if not t.normative
    }
    properties = {name: node.properties for name, node in template.node_templates.items()}
    codes = sorted({(d.code, d.path) for d in template.diagnostics if d.code not in IGNORED_CODES})
    return types, properties, codes


def _python_roundtrip(template, tmp_path: Path, name: str = "roundtrip.py"):
    source = dsl.template_to_python(template)
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return dsl.load_module(path), source


def _without_paths(meaning: tuple) -> tuple:
    types, properties, codes = meaning
    return types, properties, sorted({code for code, _ in codes})


@pytest.mark.parametrize("example", SEED_YAML)
def test_seed_yaml_to_python_to_yaml_keeps_the_meaning(seed_dir, tmp_path, example) -> None:
    original = toskit.load(str(seed_dir / f"{example}.yaml"))
    from_python, _ = _python_roundtrip(original, tmp_path)
    # Python positions differ from YAML paths for template-level warnings;
    # codes and resolved values must match.
    assert _without_paths(_meaning(from_python)) == _without_paths(_meaning(original))
    again = toskit.loads(dsl.template_to_yaml(from_python), name="again.yaml")
    assert _meaning(again) == _meaning(
        toskit.loads(dsl.template_to_yaml(original), name="again.yaml")
    )
    assert _without_paths(_meaning(again)) == _without_paths(_meaning(original))


@pytest.mark.parametrize("example", SEED_PYTHON)
def test_seed_python_to_yaml_to_python_keeps_the_meaning(seed_dir, tmp_path, example) -> None:
    original = dsl.load_module(seed_dir / f"{example}.pytext")
    text = dsl.template_to_yaml(original)
    from_yaml = toskit.loads(text, name="from_python.yaml")
    assert _without_paths(_meaning(from_yaml)) == _without_paths(_meaning(original))
    back, _ = _python_roundtrip(from_yaml, tmp_path)
    assert _without_paths(_meaning(back)) == _without_paths(_meaning(original))


@pytest.mark.parametrize("example", SEED_YAML)
def test_python_output_is_deterministic_and_a_fixpoint(seed_dir, tmp_path, example) -> None:
    original = toskit.load(str(seed_dir / f"{example}.yaml"))
    first = dsl.template_to_python(original)
    assert dsl.template_to_python(toskit.load(str(seed_dir / f"{example}.yaml"))) == first
    loaded, _ = _python_roundtrip(original, tmp_path)
    assert dsl.template_to_python(loaded) == first


def test_yaml_output_is_deterministic(seed_dir) -> None:
    first = dsl.template_to_yaml(dsl.load_module(seed_dir / "defaults.pytext"))
    assert dsl.template_to_yaml(dsl.load_module(seed_dir / "defaults.pytext")) == first
    assert first.startswith("tosca_definitions_version: tosca_simple_unfurl_1_0_0\n")


# --------------------------------------------------------------------------
# A generated template of 50 types


def _fifty_types() -> dict[str, Any]:
    data_types: dict[str, Any] = {
        "gen.Port": {"derived_from": "integer", "constraints": [{"in_range": [1, 65535]}]},
        "gen.Leaf": {
            "description": 'A leaf with "quotes", a backslash \\ and üñíçødé.',
            "properties": {
                "name": {"type": "string", "default": "leaf", "description": "line one\nline two"},
                "size": {"type": "integer", "default": 1, "constraints": [{"greater_or_equal": 0}]},
                "ratio": {"type": "float", "required": False},
                "on": {"type": "boolean", "default": False},
                "some-prop": {"type": "string", "required": False, "default": "dash"},
                "class": {"type": "string", "required": False},
                "port": {"type": "gen.Port", "default": 8080},
                "tags": {"type": "list", "entry_schema": {"type": "string"}, "default": ["a", "b"]},
                "limits": {"type": "map", "entry_schema": {"type": "integer"}, "required": False},
                "size_on_disk": {"type": "scalar-unit.size", "default": "1 GB"},
                "anything": {"required": False},
            },
        },
    }
    for i in range(1, 20):
        parent = "gen.Leaf" if i == 1 else f"gen.Data{i - 1}"
        data_types[f"gen.Data{i}"] = {
            "derived_from": parent,
            "properties": {
                f"field{i}": {"type": "string", "default": f"value {i}"},
                f"leaf{i}": {"type": "gen.Leaf", "default": {"size": i}},
                f"leaves{i}": {
                    "type": "map",
                    "entry_schema": {"type": "gen.Leaf"},
                    "required": False,
                },
            },
        }
    node_types: dict[str, Any] = {}
    normative_parents = [
        "tosca.nodes.Compute",
        "tosca.nodes.DBMS",
        "DBMS",
        "tosca:SoftwareComponent",
        "tosca.nodes.Root",
    ]
    for i in range(25):
        parent = normative_parents[i % len(normative_parents)] if i < 5 else f"gen.Node{i - 5}"
        body: dict[str, Any] = {
            "derived_from": parent,
            "description": f"Generated node type {i}",
            "properties": {
                f"data{i}": {
                    "type": f"gen.Data{1 + i % 19}",
                    "default": {f"field{1 + i % 19}": f"node {i}"},
                },
                f"count{i}": {"type": "integer", "default": i},
            },
        }
        if i >= 5:
            # refine an inherited default without restating the type
            body["properties"][f"count{i - 5}"] = {"default": 100 + i}
        if i % 7 == 0:
            body["requirements"] = [
                {"peer": {"capability": "tosca.capabilities.Node", "occurrences": [0, 1]}}
            ]
            body["attributes"] = {"state_detail": {"type": "string"}}
        node_types[f"gen.Node{i}"] = body
    capability_types = {
        f"gen.Cap{i}": {
            "derived_from": "tosca.capabilities.Root",
            "properties": {"level": {"type": "integer", "default": i}},
        }
        for i in range(2)
    }
    relationship_types = {
        "gen.Link": {
            "derived_from": "tosca.relationships.ConnectsTo",
            "valid_target_types": ["gen.Cap0"],
        }
    }
    policy_types = {
        "gen.Policy": {"derived_from": "tosca.policies.Root", "description": "a policy"}
    }
    templates: dict[str, Any] = {}
    for i in range(25):
        templates[f"node_{i}"] = {
            "type": f"gen.Node{i}",
            "properties": {
                f"data{i}": {
                    f"leaf{1 + i % 19}": {"name": f"leaf of {i}", "some-prop": "x", "tags": ["t"]},
                    "size": i,
                },
                f"count{i}": i * 2,
            },
        }
    templates["db"] = {
        "type": "gen.Node1",
        "properties": {"data1": {"field2": "x"}, "port": 5432, "root_password": "secret"},
        "requirements": [{"host": "node_0"}],
    }
    return {
        "tosca_definitions_version": "tosca_simple_unfurl_1_0_0",
        "description": "Fifty generated types",
        "metadata": {"template_name": "fifty"},
        "data_types": data_types,
        "capability_types": capability_types,
        "relationship_types": relationship_types,
        "node_types": node_types,
        "policy_types": policy_types,
        "topology_template": {
            "inputs": {"who": {"type": "string", "default": "me"}},
            "node_templates": templates,
        },
    }


def test_fifty_type_template_round_trips(tmp_path) -> None:
    data = _fifty_types()
    assert sum(len(data[k]) for k in data if k.endswith("_types")) == 50
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    original = toskit.loads(text, name="fifty.yaml")
    assert len(original.node_templates) == 26
    from_python, source = _python_roundtrip(original, tmp_path)
    assert "class gen_Leaf(dsl.DataEntity):" in source
    assert _without_paths(_meaning(from_python)) == _without_paths(_meaning(original))
    again = toskit.loads(dsl.template_to_yaml(from_python), name="again.yaml")
    assert _meaning(again) == _meaning(original)
    # Python -> YAML -> Python is a fixpoint.
    assert dsl.template_to_python(from_python) == source


def test_fifty_type_template_details_survive(tmp_path) -> None:
    original = toskit.loads(yaml.safe_dump(_fifty_types(), sort_keys=False), name="fifty.yaml")
    from_python, _ = _python_roundtrip(original, tmp_path)
    leaf = from_python.types["gen.Leaf"]
    assert set(leaf.properties) == set(original.types["gen.Leaf"].properties)
    assert leaf.properties["some-prop"].default == "dash"
    assert leaf.properties["class"].required is False
    assert leaf.properties["name"].description == "line one\nline two"
    assert leaf.properties["size"].constraints == ({"greater_or_equal": 0},)
    assert leaf.properties["port"].type == "gen.Port"
    assert leaf.properties["anything"].type is None
    assert leaf.description == original.types["gen.Leaf"].description
    node = from_python.types["gen.Node7"]
    assert node.properties["count2"].default == 107
    assert node.properties["count2"].type == "integer"
    assert from_python.types["gen.Port"].base_primitive == "integer"


# --------------------------------------------------------------------------
# Random documents (hypothesis)

_PRIMS = {
    "string": st.text(alphabet=string.ascii_letters + " \"'\\\nü$:{}#", max_size=12),
    "integer": st.integers(-(2**40), 2**40),
    "float": st.floats(allow_nan=False, allow_infinity=False, width=32),
    "boolean": st.booleans(),
}
_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda s: (
        s not in {"type", "class", "def", "if", "in", "is", "or", "and", "not", "for", "as", "mro"}
    )
)


@st.composite
def _documents(draw) -> dict[str, Any]:
    fields = draw(st.dictionaries(_NAMES, st.sampled_from(sorted(_PRIMS)), min_size=1, max_size=4))
    data_props: dict[str, Any] = {}
    for name, prim in fields.items():
        prop: dict[str, Any] = {"type": prim}
        if draw(st.booleans()):
            prop["default"] = draw(_PRIMS[prim])
        if draw(st.booleans()):
            prop["required"] = False
        data_props[name] = prop
    node_props: dict[str, Any] = {"data": {"type": "h.Data"}}
    extra = draw(
        st.dictionaries(
            _NAMES.filter(lambda n: n != "data"), st.sampled_from(sorted(_PRIMS)), max_size=3
        )
    )
    for name, prim in extra.items():
        node_props[name] = {
            "type": prim,
            **({"default": draw(_PRIMS[prim])} if draw(st.booleans()) else {}),
        }
    values: dict[str, Any] = {}
    data_value: dict[str, Any] = {}
    for name, prim in fields.items():
        if draw(st.booleans()):
            # sometimes a value of another primitive type: both sides must report it
            other = draw(st.sampled_from(sorted(_PRIMS))) if draw(st.integers(0, 5)) == 0 else prim
            data_value[name] = draw(_PRIMS[other])
    values["data"] = data_value
    for name, prim in extra.items():
        if draw(st.booleans()):
            values[name] = draw(_PRIMS[prim])
    return {
        "tosca_definitions_version": "tosca_simple_unfurl_1_0_0",
        "data_types": {"h.Data": {"description": draw(_PRIMS["string"]), "properties": data_props}},
        "node_types": {"h.Node": {"derived_from": "tosca.nodes.Root", "properties": node_props}},
        "topology_template": {"node_templates": {"n": {"type": "h.Node", "properties": values}}},
    }


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(document=_documents())
def test_random_documents_round_trip_through_python(tmp_path, document) -> None:
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    original = toskit.loads(text, name="random.yaml")
    from_python, source = _python_roundtrip(original, tmp_path, "random.py")
    assert _without_paths(_meaning(from_python)) == _without_paths(_meaning(original)), source
    again = toskit.loads(dsl.template_to_yaml(from_python), name="again.yaml")
    assert _meaning(again) == _meaning(original)


_FIELD_NAMES = st.one_of(
    _NAMES, st.sampled_from(["some-key", "class", "x.y", "type", "name", "_private"])
)


@st.composite
def _nested_documents(draw) -> dict[str, Any]:
    """Two data types (one nested in the other, maybe derived), typed lists and maps."""
    inner_fields = draw(
        st.dictionaries(_FIELD_NAMES, st.sampled_from(sorted(_PRIMS)), min_size=1, max_size=3)
    )
    inner = {
        name: {"type": prim, **({"default": draw(_PRIMS[prim])} if draw(st.booleans()) else {})}
        for name, prim in inner_fields.items()
    }
    outer: dict[str, Any] = {
        "one": {"type": "h.Inner", **({"default": {}} if draw(st.booleans()) else {})},
        "many": {"type": "list", "entry_schema": {"type": "h.Inner"}, "required": False},
        "named": {"type": "map", "entry_schema": {"type": "h.Inner"}, "required": False},
        "numbers": {
            "type": "list",
            "entry_schema": {"type": "integer"},
            "default": draw(st.lists(_PRIMS["integer"], max_size=3)),
        },
    }
    if draw(st.booleans()):
        first = next(iter(inner_fields))
        outer["one"]["default"] = {first: draw(_PRIMS[inner_fields[first]])}

    def inner_value() -> dict[str, Any]:
        keys = draw(
            st.lists(st.sampled_from(sorted(inner_fields)), unique=True, max_size=len(inner_fields))
        )
        return {k: draw(_PRIMS[inner_fields[k]]) for k in keys}

    value: dict[str, Any] = {"one": inner_value()}
    if draw(st.booleans()):
        value["many"] = [inner_value() for _ in range(draw(st.integers(0, 2)))]
    if draw(st.booleans()):
        value["named"] = {draw(_NAMES): inner_value()}
    derived = draw(st.booleans())
    data_types: dict[str, Any] = {
        "h.Inner": {"properties": inner},
        "h.Outer": {"properties": outer},
    }
    node_type = "h.Outer2" if derived else "h.Outer"
    if derived:
        data_types["h.Outer2"] = {
            "derived_from": "h.Outer",
            "properties": {"extra": {"type": "string", "default": "e"}},
        }
    return {
        "tosca_definitions_version": "tosca_simple_unfurl_1_0_0",
        "data_types": data_types,
        "node_types": {"h.Node": {"properties": {"data": {"type": node_type}}}},
        "topology_template": {
            "node_templates": {"n": {"type": "h.Node", "properties": {"data": value}}}
        },
    }


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(document=_nested_documents())
def test_random_nested_documents_round_trip_through_python(tmp_path, document) -> None:
    text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    original = toskit.loads(text, name="nested.yaml")
    from_python, source = _python_roundtrip(original, tmp_path, "nested.py")
    assert _without_paths(_meaning(from_python)) == _without_paths(_meaning(original)), source
    again = toskit.loads(dsl.template_to_yaml(from_python), name="again.yaml")
    assert _meaning(again) == _meaning(original)
