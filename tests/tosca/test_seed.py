"""spec/tosca.md §5: every YAML example of seed 001 and its outcome."""

from __future__ import annotations

import pytest
from tosca_fixtures import FIXTURES

import toskit

NODES = "topology_template.node_templates"


def load(name: str) -> toskit.ServiceTemplate:
    return toskit.load(FIXTURES / name)


def codes(st: toskit.ServiceTemplate, severity: str | None = None) -> list[str]:
    return [d.code for d in st.diagnostics if severity is None or d.severity == severity]


def sources(st: toskit.ServiceTemplate, node: str) -> dict[str, tuple[object, str]]:
    return {r.path: (r.value, r.source) for r in st.node_templates[node].property_table().rows}


def test_basic_usage() -> None:
    st = load("basic.yaml")
    assert st.ok
    # At most the unfulfilled 'host' requirement of tosca.nodes.DBMS, as a warning.
    assert codes(st) == ["unfulfilled-requirement"]
    (warning,) = st.diagnostics
    assert warning.severity == "warning" and "'host'" in warning.message
    assert st.node_templates["my_db_service"].properties["endpoint"] == {
        "ip": "192.168.15.85",
        "port": 2233,
    }
    assert st.version == "tosca_simple_unfurl_1_0_0"


def test_missing_port_is_missing_property_at_the_field() -> None:
    st = load("missing_port.yaml")
    assert not st.ok
    (diag,) = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.code == "missing-property"
    assert diag.path == f"{NODES}.my_db_service2.properties.endpoint.port"
    assert "node template 'my_db_service2'" in diag.message
    assert "'endpoint.port'" in diag.message
    # Located at the key of the mapping that lacks it (issue #28): `endpoint:` (line 27),
    # not its first field `ip:` (line 28).
    assert (diag.file, diag.line, diag.column) == (str(FIXTURES / "missing_port.yaml"), 27, 9)
    assert (diag.end_line, diag.end_column) == (27, 17)


def test_missing_optional_port_is_fine() -> None:
    st = load("missing_port_optional.yaml")
    assert st.ok
    assert codes(st, "error") == []
    assert st.node_templates["my_db_service2"].properties == {"endpoint": {"ip": "192.168.15.85"}}


def test_unknown_field_in_data_type() -> None:
    st = load("unknown_field.yaml")
    (diag,) = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.code == "unknown-property"
    assert diag.path == f"{NODES}.my_db_service3.properties.endpoint.some_other_property"
    assert "node template 'my_db_service3'" in diag.message
    assert (diag.line, diag.column) == (30, 11)


def test_inheritance_extended_endpoint() -> None:
    st = load("inheritance.yaml")
    assert st.ok
    endpoint = st.node_templates["my_db_service"].properties["endpoint"]
    assert endpoint == {"ip": "192.168.15.85", "port": 2233, "username": "jimmy"}
    ext = st.types["my.datatypes.ExtendedEndpoint"]
    assert ext.parent is st.types["my.datatypes.Endpoint"]
    assert list(ext.properties) == ["ip", "port", "username"]
    assert list(ext.own_properties) == ["username"]
    assert ext.properties["ip"].defined_in == "my.datatypes.Endpoint"


@pytest.mark.parametrize(
    ("fixture", "written"),
    [("composition.yaml", "cloudify.nodes.DBMS"), ("defaults.yaml", "nodes.DBMS")],
    ids=["cloudify.nodes.DBMS", "nodes.DBMS"],
)
def test_unknown_parent_type_hints_the_normative_dbms(fixture: str, written: str) -> None:
    st = load(fixture)
    (diag,) = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.code == "unknown-type"
    assert written in diag.message
    assert diag.hint == "did you mean 'tosca.nodes.DBMS'?"
    assert diag.path == "node_types.DatabaseService.derived_from"
    assert diag.line == 31
    # Recovery: the type still resolves (against the kind's root).
    assert st.types["DatabaseService"].parent is st.types["tosca.nodes.Root"]


def test_composition_properties_still_resolve() -> None:
    st = load("composition.yaml")
    assert st.node_templates["my_db_service"].properties["connection"] == {
        "endpoint": {"ip": "192.168.15.85", "port": 2233},
        "auth": {"username": "jimmy", "password": "secret"},
    }


def test_default_values_with_sources() -> None:
    st = load("defaults.yaml")
    conn = st.node_templates["my_db_service"].properties["connection"]
    assert conn["endpoint"]["port"] == 2233
    assert conn["auth"]["username"] == "admin"
    rows = sources(st, "my_db_service")
    assert rows == {
        "connection.endpoint.ip": ("192.168.15.85", "template"),
        "connection.endpoint.port": (2233, "default: my.datatypes.Endpoint"),
        "connection.auth.username": ("admin", "default: my.datatypes.Auth"),
        "connection.auth.password": ("secret", "template"),
    }


def test_overriding_default_values() -> None:
    st = load("overriding_defaults.yaml")
    rows = sources(st, "my_db_service")
    assert rows["connection.endpoint.port"] == (2244, "template")
    assert rows["connection.auth.username"] == ("admin", "default: my.datatypes.Auth")


def test_nested_merging_data_type_node_type_template() -> None:
    st = load("nested_merging.yaml")
    assert codes(st) == ["missing-version"]
    assert st.version == "tosca_simple_yaml_1_3"
    app = st.node_templates["my_app"]
    assert app.properties["data1"] == {
        "prop1": "prop1_default",
        "prop2": "prop2_override",
        "prop3": "prop3_override",
    }
    assert sources(st, "my_app") == {
        "data1.prop1": ("prop1_default", "default: datatypes.Data1"),
        "data1.prop2": ("prop2_override", "default: nodes.MyApp"),
        "data1.prop3": ("prop3_override", "template"),
    }


def test_compound_data_type_default() -> None:
    st = load("compound.yaml")
    assert st.ok and codes(st) == []
    data1 = st.node_templates["uses_data2"].properties["data2"]["data1"]
    assert data1 == {"prop1": "prop1_default", "prop2": "prop2_override", "prop3": "prop3_default"}
    assert st.types["datatypes.Data2"].properties["data1"].default == {"prop2": "prop2_override"}
    rows = sources(st, "uses_data2")
    assert rows["data2.data1.prop2"] == ("prop2_override", "default: datatypes.Data2")
    assert rows["data2.data1.prop1"] == ("prop1_default", "default: datatypes.Data1")


def test_nested_merging_and_inheritance_as_written_is_a_yaml_error() -> None:
    st = load("nested_inheritance_broken.yaml")
    assert codes(st) == ["yaml-syntax"]
    (diag,) = st.diagnostics
    assert diag.hint is not None and "missing its ':'" in diag.hint
    assert st.node_templates == {}


def test_nested_merging_and_inheritance() -> None:
    st = load("nested_inheritance.yaml")
    assert st.ok and codes(st) == []
    assert st.node_templates["my_app"].properties["data2"] == {
        "prop1": "prop1_default",
        "prop2": "prop2_override",
        "prop3": "prop3_override",
    }
    assert sources(st, "my_app") == {
        "data2.prop1": ("prop1_default", "default: datatypes.Data1"),
        "data2.prop2": ("prop2_override", "default: nodes.MyApp"),
        "data2.prop3": ("prop3_override", "default: nodes.DerivedFromMyApp"),
    }
    derived = st.types["nodes.DerivedFromMyApp"].properties["data2"]
    assert derived.default == {"prop2": "prop2_override", "prop3": "prop3_override"}
    assert derived.defined_in == "nodes.DerivedFromMyApp"


def test_property_table_frame_columns() -> None:
    st = load("defaults.yaml")
    frame = st.node_templates["my_db_service"].property_table().to_frame()
    assert list(frame.columns)[:4] == ["path", "value", "type", "source"]
    assert (
        frame.set_index("path").loc["connection.auth.username", "source"]
        == "default: my.datatypes.Auth"
    )
    assert frame.set_index("path").loc["connection.endpoint.port", "type"] == "integer"


def test_overridden_values_are_kept_when_asked() -> None:
    st = load("overriding_defaults.yaml")
    table = st.node_templates["my_db_service"].property_table(show_overridden=True)
    assert table["connection.endpoint.port"].overridden == (
        (2233, "default: my.datatypes.Endpoint"),
    )
    plain = st.node_templates["my_db_service"].property_table()
    assert plain["connection.endpoint.port"].overridden == ()
