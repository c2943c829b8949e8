"""Every Python block of seed 001, verbatim, resolves like its YAML twin (spec/tosca.md §5–6).

The Python blocks live in ``seed/*.pytext`` exactly as the seed writes them
(not ``.py``: they are data, and the linter must not "fix" them)
(the later blocks use ``tosca.`` without importing it: they continue the
first block, and ``load_module`` provides the name). The seed repeats the
Basic-usage Python block under "Inheritance", so that block's twin is the
Basic-usage YAML (``inheritance_block.py``).
"""

from __future__ import annotations

import sys

import pytest

import toskit
from toskit import dsl

ENDPOINT = {"ip": "192.168.15.85", "port": 2233}
NESTED = {"prop1": "prop1_default", "prop2": "prop2_override", "prop3": "prop3_override"}

# (python block, YAML twin, expected resolved properties of every node template)
CASES = [
    ("basic", "basic", {"my_db_service": {"endpoint": ENDPOINT}}),
    ("inheritance_block", "basic", {"my_db_service": {"endpoint": ENDPOINT}}),
    (
        "composition",
        "composition",
        {
            "my_db_service": {
                "connection": {
                    "endpoint": ENDPOINT,
                    "auth": {"username": "jimmy", "password": "secret"},
                }
            }
        },
    ),
    (
        "defaults",
        "defaults",
        {
            "my_db_service": {
                "connection": {
                    "endpoint": ENDPOINT,
                    "auth": {"username": "admin", "password": "secret"},
                }
            }
        },
    ),
    ("nested_merging", "nested_merging", {"my_app": {"data1": NESTED}}),
    ("nested_inheritance", "nested_inheritance", {"my_app": {"data2": NESTED}}),
]


@pytest.mark.parametrize(("python", "twin", "expected"), CASES, ids=[c[0] for c in CASES])
def test_python_block_resolves_like_its_yaml_twin(
    seed_dir, resolved_props, python, twin, expected
) -> None:
    from_python = dsl.load_module(seed_dir / f"{python}.pytext")
    from_yaml = toskit.load(str(seed_dir / f"{twin}.yaml"))
    assert resolved_props(from_python) == expected
    assert resolved_props(from_yaml) == expected
    assert from_python.ok, [str(d) for d in from_python.diagnostics]


@pytest.mark.parametrize(("python", "twin", "expected"), CASES, ids=[c[0] for c in CASES])
def test_python_block_is_a_1x_unfurl_template_without_version_warning(
    seed_dir, python, twin, expected
) -> None:
    template = dsl.load_module(seed_dir / f"{python}.pytext")
    assert template.version == "tosca_simple_unfurl_1_0_0"
    assert "missing-version" not in {d.code for d in template.diagnostics}
    # The only thing the seed leaves open is the DBMS host requirement (a warning).
    assert {d.code for d in template.diagnostics} <= {"unfulfilled-requirement"}


def test_unfulfilled_requirement_points_at_the_python_template_call(seed_dir) -> None:
    template = dsl.load_module(seed_dir / "basic.pytext")
    (warning,) = [d for d in template.diagnostics if d.code == "unfulfilled-requirement"]
    assert warning.severity == "warning"
    assert warning.file == str(seed_dir / "basic.pytext")
    assert warning.line == 21  # my_db_service = DatabaseService(
    assert "DatabaseService(" in warning.source_line


def test_basic_types_carry_python_descriptions(seed_dir) -> None:
    template = dsl.load_module(seed_dir / "basic.pytext")
    endpoint = template.types["my.datatypes.Endpoint"]
    assert endpoint.description == "Socket endpoint details"
    assert endpoint.properties["ip"].description == "the endpoint IP"
    assert endpoint.properties["port"].type == "integer"
    service = template.types["DatabaseService"]
    assert service.parent.name == "tosca.nodes.DBMS"
    assert service.properties["endpoint"].type == "my.datatypes.Endpoint"
    # Inherited from the normative DBMS / SoftwareComponent types.
    assert service.properties["root_password"].required is False
    assert service.properties["admin_credential"].type == "tosca.datatypes.Credential"


def test_defaults_provenance_matches_yaml(seed_dir) -> None:
    template = dsl.load_module(seed_dir / "defaults.pytext")
    frame = template.node_templates["my_db_service"].property_table().to_frame()
    rows = {row.path: row for row in frame.itertuples()}
    assert rows["connection.endpoint.port"].value == 2233
    assert rows["connection.endpoint.port"].source == "default: Endpoint"
    assert rows["connection.auth.username"].source == "default: Auth"
    assert rows["connection.auth.password"].source == "template"


def test_nested_merging_partial_default_records_only_given_fields(seed_dir) -> None:
    template = dsl.load_module(seed_dir / "nested_merging.pytext")
    data1 = template.types["MyApp"].properties["data1"]
    # The data-class instance in the class body is a *partial* default.
    assert data1.type == "Data1"
    assert template.node_templates["my_app"].properties["data1"] == NESTED


def test_load_module_leaves_no_trace_in_sys_modules(seed_dir) -> None:
    before = {name: sys.modules.get(name) for name in ("tosca", "unfurl")}
    count = len(sys.modules)
    dsl.load_module(seed_dir / "basic.pytext")
    assert {name: sys.modules.get(name) for name in ("tosca", "unfurl")} == before
    assert not any(name.startswith("toskit_dsl_module_") for name in sys.modules)
    assert len(sys.modules) == count


def test_existing_tosca_module_is_restored(seed_dir, monkeypatch) -> None:
    import types

    sentinel = types.ModuleType("tosca")
    monkeypatch.setitem(sys.modules, "tosca", sentinel)
    template = dsl.load_module(seed_dir / "basic.pytext")
    assert template.ok
    assert sys.modules["tosca"] is sentinel
