"""YAML -> Python: readable output that loads back to the same meaning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import toskit
from toskit import dsl
from toskit.errors import ToskitError

BASIC_PYTHON = '''\
from toskit import dsl


class my_datatypes_Endpoint(dsl.DataEntity):
    """Socket endpoint details"""

    _type_name = "my.datatypes.Endpoint"

    ip: str
    """the endpoint IP"""

    port: int
    """the endpoint port"""


class DatabaseService(dsl.nodes.DBMS):
    endpoint: my_datatypes_Endpoint


my_db_service = DatabaseService(
    "my_db_service",
    endpoint=my_datatypes_Endpoint(ip="192.168.15.85", port=2233),
)


__all__ = ["my_datatypes_Endpoint", "DatabaseService"]
'''

NESTED_PYTHON = """\
from typing import Any

from toskit import dsl


class datatypes_Data1(dsl.DataEntity):
    _type_name = "datatypes.Data1"

    prop1: Any = "prop1_default"
    prop2: Any = "prop2_default"
    prop3: Any = "prop3_default"


class nodes_MyApp(dsl.nodes.Root):
    _type_name = "nodes.MyApp"

    data2: datatypes_Data1 = datatypes_Data1(prop2="prop2_override")


class nodes_DerivedFromMyApp(nodes_MyApp):
    _type_name = "nodes.DerivedFromMyApp"

    data2: datatypes_Data1 = datatypes_Data1(prop3="prop3_override")


my_app = nodes_DerivedFromMyApp("my_app")


__all__ = ["datatypes_Data1", "nodes_MyApp", "nodes_DerivedFromMyApp"]
"""


@pytest.mark.parametrize(
    ("example", "expected"),
    [("basic", BASIC_PYTHON), ("nested_inheritance", NESTED_PYTHON)],
    ids=["basic", "nested_inheritance"],
)
def test_python_reads_like_the_seed(seed_dir, example, expected) -> None:
    assert dsl.template_to_python(toskit.load(str(seed_dir / f"{example}.yaml"))) == expected


EXTRAS = """\
tosca_definitions_version: tosca_simple_yaml_1_3
description: |
  Demo of what plain annotations cannot say.
  Second line with "quotes" and a backslash \\.
metadata:
  template_name: demo
data_types:
  my.Port:
    derived_from: integer
    constraints:
      - in_range: [1, 65535]
  my.Conn:
    description: A connection.
    properties:
      some-key:
        type: string
        default: x
      class:
        type: integer
        required: false
      port:
        type: my.Port
        status: experimental
        metadata: {unit: tcp}
        x-vendor: kept
      nothing:
        type: string
        required: false
        default: null
node_types:
  my.App:
    derived_from: tosca.nodes.WebApplication
    properties:
      conn:
        type: my.Conn
        required: false
      sizes:
        type: list
        entry_schema:
          type: scalar-unit.size
          constraints: [{greater_than: 0 MB}]
      when:
        type: timestamp
        required: false
      labels:
        type: map
        key_schema: {type: string}
        entry_schema: {type: string}
        default: {app: demo}
      context_root:
        default: /app
    attributes:
      url:
        type: string
    requirements:
      - db:
          capability: tosca.capabilities.Endpoint.Database
          occurrences: [0, 1]
  my.Odd:
    derived_from: vendor.Unknown
topology_template:
  inputs:
    port:
      type: integer
      default: 80
  node_templates:
    app:
      type: my.App
      properties:
        conn:
          some-key: y
          class: 3
          port: { get_input: port }
        sizes: [1 GB, 2 GB]
      requirements:
        - host: web
    web:
      type: tosca.nodes.WebServer
    ghost:
      type: not.a.Type
  policies:
    - scale:
        type: tosca.policies.Scaling
        targets: [app]
"""


@pytest.fixture
def extras_template():
    return toskit.loads(EXTRAS, name="extras.yaml")


def _load_python(source: str, tmp_path: Path, name: str = "generated.py"):
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return dsl.load_module(path)


def test_extras_are_kept_in_readable_forms(extras_template) -> None:
    source = dsl.template_to_python(extras_template)
    assert source.startswith('"""\nDemo of what plain annotations cannot say.\n')
    assert '    _type = "integer"\n    _constraints = [{"in_range": [1, 65535]}]' in source
    assert '_tosca_names = {"some_key": "some-key", "class_": "class"}' in source
    assert '    _derived_from = "vendor.Unknown"' in source
    assert "url: str = dsl.Attribute()" in source
    assert 'context_root = "/app"' in source  # a refinement keeps the inherited type
    assert "when: dsl.tosca_timestamp | None" in source
    assert '_extra={"requirements": [{"host": "web"}]}' in source
    assert "_tosca_document = {" in source and '"ghost": {"type": "not.a.Type"}' in source
    assert 'conn=my_Conn(some_key="y", class_=3, port={"get_input": "port"})' in source
    assert all(len(line) <= 100 for line in source.splitlines()), source


def test_extras_round_trip_with_the_same_meaning(extras_template, tmp_path) -> None:
    source = dsl.template_to_python(extras_template)
    loaded = _load_python(source, tmp_path)
    for name in ("my.Port", "my.Conn", "my.App", "my.Odd"):
        before, after = extras_template.types[name], loaded.types[name]
        assert after.description == before.description
        assert (after.parent.name if after.parent else None) == (
            before.parent.name if before.parent else None
        )
        for prop, definition in before.properties.items():
            mirrored = after.properties[prop]
            assert (mirrored.type, mirrored.required, mirrored.default, mirrored.description) == (
                definition.type,
                definition.required,
                definition.default,
                definition.description,
            ), prop
            assert mirrored.constraints == definition.constraints
    assert loaded.types["my.Conn"].properties["port"].metadata == {"unit": "tcp"}
    assert loaded.types["my.App"].properties["sizes"].entry_schema.constraints == (
        {"greater_than": "0 MB"},
    )
    assert {n: t.properties for n, t in loaded.node_templates.items()} == {
        n: t.properties for n, t in extras_template.node_templates.items()
    }
    assert sorted(d.code for d in loaded.diagnostics) == sorted(
        d.code for d in extras_template.diagnostics
    )
    assert dict(loaded.inputs) == dict(extras_template.inputs)
    assert dsl.template_to_python(loaded) == source


def test_generated_python_is_lint_clean(extras_template, seed_dir, tmp_path) -> None:
    ruff = Path(sys.executable).with_name("ruff")
    sources = [dsl.template_to_python(extras_template)]
    sources += [
        dsl.template_to_python(toskit.load(str(p))) for p in sorted(seed_dir.glob("*.yaml"))
    ]
    for i, source in enumerate(sources):
        path = tmp_path / f"gen_{i}.py"
        path.write_text(source, encoding="utf-8")
    result = subprocess.run(
        [
            str(ruff),
            "check",
            "--isolated",
            "--select",
            "E,F,W,I",
            "--ignore",
            "E501",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout


def test_awkward_strings_survive(tmp_path) -> None:
    text = 'tab\there, quote " and \'\'\' and """ and \\ and newline\nünïcode ✓ \u2028 end"'
    data = {
        "tosca_definitions_version": "tosca_simple_unfurl_1_0_0",
        "data_types": {
            "D": {
                "description": text,
                "properties": {"s": {"type": "string", "default": text, "description": text}},
            }
        },
        "node_types": {
            "N": {"properties": {"d": {"type": "D"}, "odd": {"type": "string", "default": "0o17"}}}
        },
        "topology_template": {
            "node_templates": {"n": {"type": "N", "properties": {"d": {"s": text}}}}
        },
    }
    loaded = _load_python(dsl.to_python_source(data), tmp_path)
    assert loaded.ok, [str(d) for d in loaded.diagnostics]
    assert loaded.types["D"].description.strip() == text.strip()
    assert loaded.types["D"].properties["s"].default == text
    assert loaded.node_templates["n"].properties == {"d": {"s": text}, "odd": "0o17"}
    # and the YAML written back reads the same strings
    again = toskit.loads(dsl.template_to_yaml(loaded), name="again.yaml")
    assert again.node_templates["n"].properties == {"d": {"s": text}, "odd": "0o17"}


def test_name_clashes_get_distinct_identifiers(tmp_path) -> None:
    data = {
        "data_types": {"a.b": {"properties": {"x": {"type": "integer", "default": 1}}}, "a_b": {}},
        "node_types": {"class": {"properties": {"v": {"type": "a.b"}}}, "dsl": {}},
        "topology_template": {
            "node_templates": {"a_b": {"type": "class", "properties": {"v": {"x": 2}}}}
        },
    }
    source = dsl.to_python_source(data)
    assert "class a_b(dsl.DataEntity):" in source and "class a_b_2(dsl.DataEntity):" in source
    assert "class class_(dsl.nodes.Root):" in source and "class dsl_2(dsl.nodes.Root):" in source
    loaded = _load_python(source, tmp_path)
    assert loaded.node_templates["a_b"].properties == {"v": {"x": 2}}
    assert {"a.b", "a_b", "class", "dsl"} <= set(loaded.types)


def test_to_python_source_rejects_a_non_mapping() -> None:
    with pytest.raises(ToskitError, match="needs a TOSCA document"):
        dsl.to_python_source(["not", "a", "document"])


def test_template_to_yaml_of_a_loaded_yaml_template_keeps_every_section(extras_template) -> None:
    text = dsl.template_to_yaml(extras_template)
    again = toskit.loads(text, name="again.yaml")
    assert text.startswith("tosca_definitions_version: tosca_simple_yaml_1_3\n")
    assert "tosca.nodes.Root" not in again.types or again.types["tosca.nodes.Root"].normative
    assert dict(again.inputs) == dict(extras_template.inputs)
    assert {n: t.properties for n, t in again.node_templates.items()} == {
        n: t.properties for n, t in extras_template.node_templates.items()
    }
