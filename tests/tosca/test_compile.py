"""spec/schema.md §6: the TOSCA types compiled onto toskit.schema."""

from __future__ import annotations

import textwrap

import pytest
from tosca_fixtures import FIXTURES

import toskit
from toskit.tosca.types.compile import schema_name

SEED = [
    "basic.yaml",
    "missing_port_optional.yaml",
    "inheritance.yaml",
    "composition.yaml",
    "defaults.yaml",
    "overriding_defaults.yaml",
    "nested_merging.yaml",
    "compound.yaml",
    "nested_inheritance.yaml",
]


@pytest.mark.parametrize("name", SEED)
def test_resolved_seed_values_validate_against_the_compiled_schema(name: str) -> None:
    st = toskit.load(FIXTURES / name)
    for node in st.node_templates.values():
        assert st.schema.validate(node.properties, schema_name("node", node.type.name)) == []


def test_unknown_field_is_rejected_by_the_schema_too() -> None:
    st = toskit.load(FIXTURES / "unknown_field.yaml")
    node = st.node_templates["my_db_service3"]
    (diag,) = st.schema.validate(node.properties, "node:DatabaseService")
    assert diag.path == ".endpoint.some_other_property"


def test_type_mapping() -> None:
    st = toskit.loads(
        textwrap.dedent(
            """
            tosca_definitions_version: tosca_simple_yaml_1_3
            data_types:
              D:
                properties:
                  n: {type: integer}
                  f: {type: float}
                  s: {type: scalar-unit.size}
                  b: {type: boolean}
                  l: {type: list, entry_schema: string}
                  m: {type: map, entry_schema: integer}
                  u: {}
                  p: {type: PortDef}
            """
        )
    )
    s = st.schema
    good = {
        "n": 1,
        "f": 1.5,
        "s": "1 GB",
        "b": True,
        "l": ["a"],
        "m": {"k": 1},
        "u": {"any": [1]},
        "p": 80,
    }
    assert s.validate(good, "data:D") == []
    bad = {"n": "x", "b": "yes", "l": [1], "m": {"k": "v"}}
    assert sorted(d.path for d in s.validate(bad, "data:D")) == [".b", ".l[0]", ".m.k", ".n"]
    # Maps and lists are atomic: merging replaces them whole; data values merge by field.
    merged = s.merge({"l": ["a"], "m": {"x": 1}, "n": 1}, {"l": ["b"], "m": {"y": 2}}, "data:D")
    assert merged == {"l": ["b"], "m": {"y": 2}, "n": 1}


def test_schema_layer_merge_matches_the_resolution() -> None:
    st = toskit.load(FIXTURES / "nested_inheritance.yaml")
    result = st.schema.merge_layers(
        [
            (
                {"prop1": "prop1_default", "prop2": "prop2_default", "prop3": "prop3_default"},
                "default: datatypes.Data1",
            ),
            ({"prop2": "prop2_override"}, "default: nodes.MyApp"),
            ({"prop3": "prop3_override"}, "default: nodes.DerivedFromMyApp"),
        ],
        "data:datatypes.Data1",
    )
    node = st.node_templates["my_app"]
    assert result.value == node.properties["data2"]
    table = node.property_table()
    for path, label in result.sources.items():
        assert table["data2." + ".".join(path)].source == label
