"""The README's example and the seeds' examples, end to end, through the public API only.

Each seed example (the four texts the project was built from) is written
here as the user would paste it, completed where the seed writes ``...``,
and run through ``toskit`` / ``toskit.functions`` / ``toskit.schema`` /
``toskit.conditions`` / ``toskit.dsl`` exactly as API.md documents them.
Expected outcomes are those of spec/tosca.md §5, spec/functions.md §10,
spec/schema.md §7 and spec/conditions.md §12.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from fixtures.conditions import CLUSTERS, CONF, ROLES_TEXT, WHA, WMN
from fixtures.schemas import FULL_YAML

import toskit
from toskit.conditions.examples import SEED_ROLES_AS_WRITTEN

ROOT = Path(__file__).resolve().parents[1]


def codes(st) -> list[str]:
    return [d.code for d in st.diagnostics]


def errors(st) -> list[str]:
    return [d.code for d in st.diagnostics if d.severity == "error"]


# ==========================================================================
# README
# ==========================================================================


def test_readme_example_through_the_public_api():
    path = ROOT / "notebooks" / "examples" / "service.yaml"
    st = toskit.load(str(path))
    problems = [
        (d.line, d.column, d.end_column, d.severity, d.code, d.hint) for d in st.diagnostics
    ]
    # One typo beside a required property: two findings that name each other
    # (#28, docs/diagnostics.md): the missing 'password' on its mapping's key
    # 'auth' and the unknown 'pasword' on its own key, each span the whole key.
    assert problems == [
        (
            30,
            11,
            15,
            "error",
            "missing-property",
            "'pasword' is written instead (not declared: 'password' misspelt?)",
        ),
        (
            30,
            18,
            25,
            "error",
            "unknown-property",
            "did you mean 'password'? ('password' is required and has no value)",
        ),
    ]
    missing, unknown = st.diagnostics
    assert str(missing).startswith(
        f"{path}:30:11: error[missing-property]: node template 'db':"
        " required property 'connection.auth.password' has no value"
    )
    assert str(unknown).startswith(
        f"{path}:30:18: error[unknown-property]: node template 'db':"
        " unknown property 'connection.auth.pasword' (not declared by Auth)"
    )
    # Each points at the other, and the unknown key carries the rename.
    assert (missing.related[0].line, missing.related[0].column) == (30, 18)
    assert (unknown.related[0].line, unknown.related[0].column) == (30, 11)
    assert [(f.replacement, f.column, f.end_column) for f in unknown.fixes] == [
        ("password", 18, 25)
    ]

    text = path.read_text(encoding="utf-8").replace("pasword", "password")
    db = toskit.loads(text).node_templates["db"]
    assert db.properties == {
        "connection": {
            "endpoint": {"ip": "192.168.15.85", "port": 2233},
            "auth": {"username": "admin", "password": "secret"},
        }
    }
    frame = db.property_table().to_frame()[["path", "value", "source"]]
    assert frame.values.tolist() == [
        ["connection.endpoint.ip", "192.168.15.85", "template"],
        ["connection.endpoint.port", 2233, "default: Endpoint"],
        ["connection.auth.username", "admin", "default: Auth"],
        ["connection.auth.password", "secret", "template"],
    ]


# ==========================================================================
# Seed 001: TOSCA data types (spec/tosca.md §5) and their Python twins (§6)
# ==========================================================================

UNFURL = "tosca_definitions_version: tosca_simple_unfurl_1_0_0\n"

ENDPOINT_TYPE = textwrap.indent(
    textwrap.dedent(
        """\
      my.datatypes.Endpoint:
        description: Socket endpoint details
        properties:
          ip:
            description: the endpoint IP
            type: string
          port:
            description: the endpoint port
            type: integer
    """
    ),
    "  ",
)

DB_SERVICE = textwrap.dedent(
    """\
    node_types:

      DatabaseService:
        derived_from: tosca.nodes.DBMS
        properties:
          endpoint:
            type: my.datatypes.Endpoint
    """
)

BASIC = (
    UNFURL
    + "\ndata_types:\n"
    + ENDPOINT_TYPE
    + "\n"
    + DB_SERVICE
    + textwrap.dedent(
        """
        topology_template:
          node_templates:
            my_db_service:
              type: DatabaseService
              properties:
                endpoint:
                  ip: 192.168.15.85
                  port: 2233
        """
    )
)


def with_templates(base: str, templates: str) -> str:
    """The basic document with its node_templates replaced by ``templates``."""
    head = base.split("topology_template:")[0]
    return (
        head
        + "topology_template:\n  node_templates:\n"
        + textwrap.indent(textwrap.dedent(templates), "    ")
    )


MISSING_PORT = with_templates(
    BASIC,
    """\
    my_db_service2:
      type: DatabaseService
      properties:
        endpoint:
          ip: 192.168.15.85
    """,
)

EXTRA_PROPERTY = with_templates(
    BASIC,
    """\
    my_db_service3:
      type: DatabaseService
      properties:
        endpoint:
          ip: 192.168.15.85
          port: 2233
          some_other_property: the_value
    """,
)

INHERITANCE = (
    UNFURL
    + textwrap.dedent(
        """\

    data_types:
    """
    )
    + ENDPOINT_TYPE
    + textwrap.dedent(
        """\

      my.datatypes.ExtendedEndpoint:
        derived_from: my.datatypes.Endpoint
        properties:
          username:
            description: Username used to connect to the endpoint
            type: string

    node_types:

      DatabaseService:
        derived_from: tosca.nodes.DBMS
        properties:
          endpoint:
            type: my.datatypes.ExtendedEndpoint

    topology_template:
      node_templates:

          my_db_service:
            type: DatabaseService
            properties:
              endpoint:
                ip: 192.168.15.85
                port: 2233
                username: jimmy
    """
    )
)

COMPOSITION = (
    UNFURL
    + "data_types:\n"
    + ENDPOINT_TYPE
    + textwrap.dedent(
        """\

      my.datatypes.Connection:
        properties:
          endpoint:
            type: my.datatypes.Endpoint
          auth:
            type: my.datatypes.Auth

      my.datatypes.Auth:
        properties:
          username:
            type: string
          password:
            type: string

    node_types:

      DatabaseService:
        derived_from: cloudify.nodes.DBMS
        properties:
          connection:
            type: my.datatypes.Connection

    topology_template:
      node_templates:

        my_db_service:
          type: DatabaseService
          properties:
            connection:
              endpoint:
                ip: 192.168.15.85
                port: 2233
              auth:
                username: jimmy
                password: secret
    """
    )
)

DEFAULTS = UNFURL + textwrap.dedent(
    """\
    data_types:
      my.datatypes.Connection:
        properties:
          endpoint:
            type: my.datatypes.Endpoint
          auth:
            type: my.datatypes.Auth

      my.datatypes.Endpoint:
        description: Socket endpoint details
        properties:
          ip:
            description: the endpoint IP
            type: string
          port:
            default: 2233
            type: integer

      my.datatypes.Auth:
        properties:
          username:
            default: admin
            type: string
          password:
            type: string

    node_types:

      DatabaseService:
        derived_from: nodes.DBMS
        properties:
          connection:
            type: my.datatypes.Connection

    topology_template:
      node_templates:

        my_db_service:
          type: DatabaseService
          properties:
            connection:
              endpoint:
                ip: 192.168.15.85
              auth:
                password: secret
    """
)

OVERRIDING = with_templates(
    DEFAULTS,
    """\
    my_db_service:
      type: DatabaseService
      properties:
        connection:
          endpoint:
            ip: 192.168.15.85
            port: 2244
          auth:
            password: secret
    """,
)

DATA1 = textwrap.indent(
    textwrap.dedent(
        """\
      datatypes.Data1:
        properties:
          prop1:
            default: prop1_default
          prop2:
            default: prop2_default
          prop3:
            default: prop3_default
    """
    ),
    "  ",
)

NESTED_MERGING = (
    "data_types:\n"
    + DATA1
    + textwrap.dedent(
        """\

    node_types:

      nodes.MyApp:
        properties:
          data1:
            type: datatypes.Data1
            default:
              prop2: prop2_override

    topology_template:
        node_templates:

          my_app:
            type: nodes.MyApp
            properties:
              data1:
                prop3: prop3_override
    """
    )
)

COMPOUND = (
    "data_types:\n"
    + DATA1
    + textwrap.dedent(
        """\

      datatypes.Data2:
        properties:
          data1:
            type: datatypes.Data1
            default:
              prop2: prop2_override

    node_types:
      nodes.Holder:
        properties:
          data2:
            type: datatypes.Data2
    topology_template:
      node_templates:
        holder:
          type: nodes.Holder
    """
    )
)

NESTED_INHERITANCE_AS_WRITTEN = (
    UNFURL
    + "data_types:\n\n"
    + DATA1
    + textwrap.dedent(
        """\

    node_types:

      nodes.MyApp:
        properties:
          data2:
            type: datatypes.Data1
            default:
              prop2: prop2_override

      nodes.DerivedFromMyApp:
        derived_from: nodes.MyApp
        properties:
          data2:
            type: datatypes.Data1
            default:
              prop3: prop3_override

    topology_template
      node_templates:

        my_app:
          type: nodes.DerivedFromMyApp
    """
    )
)

NESTED_INHERITANCE_FIXED = NESTED_INHERITANCE_AS_WRITTEN.replace(
    "topology_template\n", "topology_template:\n"
)


def test_seed_basic_usage():
    st = toskit.loads(BASIC, name="basic.yaml")
    assert st.ok
    assert set(codes(st)) <= {"unfulfilled-requirement"}
    assert st.node_templates["my_db_service"].properties["endpoint"] == {
        "ip": "192.168.15.85",
        "port": 2233,
    }


def test_seed_missing_port():
    st = toskit.loads(MISSING_PORT, name="missing.yaml")
    (diag,) = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.code == "missing-property"
    assert diag.path == "topology_template.node_templates.my_db_service2.properties.endpoint.port"
    assert (
        diag.message
        == "node template 'my_db_service2': required property 'endpoint.port' has no value"
    )
    # Located at the mapping that lacks the key. Since #28 a finding about
    # something missing underlines the key of that mapping (`endpoint:`, the
    # whole key), not the first key that happens to be inside it
    # (docs/diagnostics.md, "The range").
    lines = MISSING_PORT.splitlines()
    assert lines[diag.line - 1].strip() == "endpoint:"
    assert lines[diag.line - 1][diag.column - 1 : diag.end_column - 1] == "endpoint"


def test_seed_missing_port_not_required():
    text = MISSING_PORT.replace(
        "      port:\n        description: the endpoint port\n        type: integer\n",
        "      port:\n        description: the endpoint port\n        type: integer\n        required: false\n",
    )
    assert "required: false" in text
    st = toskit.loads(text)
    assert errors(st) == []
    assert st.node_templates["my_db_service2"].properties["endpoint"] == {"ip": "192.168.15.85"}


def test_seed_some_other_property():
    st = toskit.loads(EXTRA_PROPERTY)
    (diag,) = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.code == "unknown-property"
    assert diag.path.endswith("my_db_service3.properties.endpoint.some_other_property")
    assert "my_db_service3" in diag.message


def test_seed_inheritance():
    st = toskit.loads(INHERITANCE)
    assert errors(st) == []
    assert st.node_templates["my_db_service"].properties["endpoint"] == {
        "ip": "192.168.15.85",
        "port": 2233,
        "username": "jimmy",
    }
    ext = st.types["my.datatypes.ExtendedEndpoint"]
    assert ext.parent.name == "my.datatypes.Endpoint"
    assert ext.properties["ip"].defined_in == "my.datatypes.Endpoint"
    assert set(ext.own_properties) == {"username"}


def test_seed_composition():
    st = toskit.loads(COMPOSITION)
    (diag,) = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.code == "unknown-type"
    assert "cloudify.nodes.DBMS" in diag.message
    assert diag.hint == "did you mean 'tosca.nodes.DBMS'?"
    assert st.node_templates["my_db_service"].properties["connection"] == {
        "endpoint": {"ip": "192.168.15.85", "port": 2233},
        "auth": {"username": "jimmy", "password": "secret"},
    }


def test_seed_default_values():
    st = toskit.loads(DEFAULTS)
    assert errors(st) == ["unknown-type"]
    (diag,) = [d for d in st.diagnostics if d.code == "unknown-type"]
    assert diag.hint == "did you mean 'tosca.nodes.DBMS'?"
    node = st.node_templates["my_db_service"]
    assert node.properties["connection"]["endpoint"]["port"] == 2233
    assert node.properties["connection"]["auth"]["username"] == "admin"
    rows = {r.path: r.source for r in node.property_table().to_frame().itertuples()}
    assert rows["connection.endpoint.port"] == "default: my.datatypes.Endpoint"
    assert rows["connection.auth.username"] == "default: my.datatypes.Auth"
    assert rows["connection.endpoint.ip"] == "template"
    assert rows["connection.auth.password"] == "template"


def test_seed_overriding_default_values():
    st = toskit.loads(OVERRIDING)
    node = st.node_templates["my_db_service"]
    assert node.properties["connection"]["endpoint"]["port"] == 2244
    rows = {r.path: r.source for r in node.property_table().to_frame().itertuples()}
    assert rows["connection.endpoint.port"] == "template"
    assert rows["connection.auth.username"] == "default: my.datatypes.Auth"


def test_seed_nested_merging():
    st = toskit.loads(NESTED_MERGING)
    assert errors(st) == []
    assert st.version == "tosca_simple_yaml_1_3"
    assert "missing-version" in codes(st)
    node = st.node_templates["my_app"]
    assert node.properties["data1"] == {
        "prop1": "prop1_default",
        "prop2": "prop2_override",
        "prop3": "prop3_override",
    }
    rows = {r.path: r.source for r in node.property_table().to_frame().itertuples()}
    assert rows == {
        "data1.prop1": "default: datatypes.Data1",
        "data1.prop2": "default: nodes.MyApp",
        "data1.prop3": "template",
    }


def test_seed_compound_data_types():
    st = toskit.loads(COMPOUND)
    assert errors(st) == []
    assert st.node_templates["holder"].properties["data2"]["data1"] == {
        "prop1": "prop1_default",
        "prop2": "prop2_override",
        "prop3": "prop3_default",
    }


def test_seed_nested_merging_and_inheritance_as_written():
    st = toskit.loads(NESTED_INHERITANCE_AS_WRITTEN)
    (diag,) = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.code == "yaml-syntax"
    assert "missing its ':'" in diag.hint
    assert "topology_template:" in diag.hint
    assert NESTED_INHERITANCE_AS_WRITTEN.splitlines()[diag.line - 1].strip() == "node_templates:"


def test_seed_nested_merging_and_inheritance_fixed():
    st = toskit.loads(NESTED_INHERITANCE_FIXED)
    assert errors(st) == []
    assert st.node_templates["my_app"].properties["data2"] == {
        "prop1": "prop1_default",
        "prop2": "prop2_override",
        "prop3": "prop3_override",
    }
    assert (
        st.types["nodes.DerivedFromMyApp"].properties["data2"].defined_in
        == "nodes.DerivedFromMyApp"
    )


# ---- the seed's Python twins (toskit.dsl), each with its YAML twin ----

PY_HEADER = "import unfurl\nimport tosca\nfrom tosca import DataEntity\n\n"

PY_BASIC = PY_HEADER + textwrap.dedent(
    '''\
    class my_datatypes_Endpoint(DataEntity):
        """Socket endpoint details"""

        _type_name = "my.datatypes.Endpoint"
        ip: str
        """the endpoint IP"""

        port: int
        """the endpoint port"""


    class DatabaseService(tosca.nodes.DBMS):
        endpoint: "my_datatypes_Endpoint"


    my_db_service = DatabaseService(
        "my_db_service",
        endpoint=my_datatypes_Endpoint(
            ip="192.168.15.85",
            port=2233,
        ),
    )
    '''
)

PY_COMPOSITION = PY_HEADER + textwrap.dedent(
    """\
    class Auth(tosca.datatypes.Root):
        username: str
        password: str

    class Endpoint(tosca.datatypes.Root):
        ip: str
        port: int

    class Connection(tosca.datatypes.Root):
        endpoint: Endpoint
        auth: Auth

    class DatabaseService(tosca.nodes.DBMS):
        connection: Connection

    my_db_service = DatabaseService(
        "my_db_service",
        connection=Connection(
            endpoint=Endpoint(
                ip="192.168.15.85",
                port=2233
            ),
            auth=Auth(
                username="jimmy",
                password="secret"
            )
        )
    )

    __all__ = ["Auth", "Endpoint", "Connection", "DatabaseService"]
    """
)

PY_DEFAULTS = PY_HEADER + textwrap.dedent(
    """\
    class Auth(tosca.datatypes.Root):
      username: str = "admin"
      password: str

    class Endpoint(tosca.datatypes.Root):
        ip: str
        port: int = 2233

    class Connection(tosca.datatypes.Root):
        endpoint: Endpoint
        auth: Auth

    class DatabaseService(tosca.nodes.DBMS):
        connection: Connection

    my_db_service = DatabaseService(
        "my_db_service",
        connection=Connection(
            endpoint=Endpoint(
                ip="192.168.15.85"
            ),
            auth=Auth(
                password="secret"
            )
        )
    )

    __all__ = ["Auth", "Endpoint", "Connection", "DatabaseService"]
    """
)

PY_NESTED = PY_HEADER + textwrap.dedent(
    """\
    class Data1(tosca.datatypes.Root):
        prop1: str = "prop1_default"
        prop2: str = "prop2_default"
        prop3: str = "prop3_default"

    class MyApp(tosca.nodes.Root):
        data1: Data1 = Data1(prop2="prop2_override")

    my_app = MyApp(
        "my_app",
        data1=Data1(
            prop3="prop3_override"
        )
    )

    __all__ = ["Data1", "MyApp"]
    """
)

PY_NESTED_INHERITANCE = PY_HEADER + textwrap.dedent(
    """\
    class Data1(tosca.datatypes.Root):
      prop1: str = "prop1_default"
      prop2: str = "prop2_default"
      prop3: str = "prop3_default"

    class MyApp(tosca.nodes.Root):
        data2: Data1 = Data1(prop2="prop2_override")

    class DerivedFromMyApp(MyApp):
        data2: Data1 = Data1(prop3="prop3_override")

    my_app = DerivedFromMyApp("my_app")

    __all__ = ["Data1", "MyApp", "DerivedFromMyApp"]
    """
)

DSL_TWINS = {
    "basic": (PY_BASIC, BASIC, "my_db_service"),
    "composition": (
        PY_COMPOSITION,
        COMPOSITION.replace("cloudify.nodes.DBMS", "tosca.nodes.DBMS"),
        "my_db_service",
    ),
    "defaults": (PY_DEFAULTS, DEFAULTS.replace("nodes.DBMS", "tosca.nodes.DBMS"), "my_db_service"),
    "nested_merging": (PY_NESTED, NESTED_MERGING, "my_app"),
    "nested_inheritance": (PY_NESTED_INHERITANCE, NESTED_INHERITANCE_FIXED, "my_app"),
}


@pytest.mark.parametrize("example", sorted(DSL_TWINS))
def test_seed_python_twin_resolves_like_its_yaml(example, tmp_path):
    from toskit import dsl

    source, yaml_text, node = DSL_TWINS[example]
    path = tmp_path / f"{example}.py"
    path.write_text(source, encoding="utf-8")
    from_python = dsl.load_module(str(path))
    from_yaml = toskit.loads(yaml_text)
    assert errors(from_python) == [], [str(d) for d in from_python.diagnostics]
    assert from_python.version == "tosca_simple_unfurl_1_0_0"
    assert from_python.node_templates[node].properties == from_yaml.node_templates[node].properties


def test_seed_python_twin_loads_twice_without_a_global_registry(tmp_path):
    from toskit import dsl

    path = tmp_path / "basic.py"
    path.write_text(PY_BASIC, encoding="utf-8")
    first = dsl.load_module(str(path))
    second = dsl.load_module(str(path))
    assert (
        first.node_templates["my_db_service"].properties
        == second.node_templates["my_db_service"].properties
    )
    other = tmp_path / "nested.py"
    other.write_text(PY_NESTED, encoding="utf-8")
    nested = dsl.load_module(str(other))
    assert "DatabaseService" not in nested.types
    assert "my.datatypes.Endpoint" not in nested.types


# ==========================================================================
# Seed 002: the `$` function notation (spec/functions.md §10)
# ==========================================================================

SERVER_TYPES = textwrap.dedent(
    """\
    tosca_definitions_version: tosca_2_0
    node_types:
      Server:
        properties:
          traits:
            type: map
            entry_schema:
              type: list
              entry_schema: string
    """
)


def test_seed_002_concat_map_is_now_a_value():
    text = SERVER_TYPES + textwrap.dedent(
        """\
        service_template:
          node_templates:
            server:
              type: Server
              properties:
                traits:
                  concat: [ this, is, supposed, to, be, a, value ]
        """
    )
    st = toskit.loads(text)
    assert st.diagnostics == []
    assert st.node_templates["server"].properties["traits"] == {
        "concat": ["this", "is", "supposed", "to", "be", "a", "value"]
    }


def test_seed_002_misspelled_trait_is_unknown_and_missing_nothing_function_related():
    text = SERVER_TYPES + textwrap.dedent(
        """\
        service_template:
          node_templates:
            server:
              type: Server
              properties:
                trait:
                  concat: [ this, is, supposed, to, be, a, value ]
        """
    )
    st = toskit.loads(text)
    # What the seed's example guards: the `concat:` under the misspelt key is a
    # plain value, so nothing function-related is reported, only the typo.
    # `trait` is unknown and a typo of the required, now missing `traits`.
    # #18 made that one error naming both; #28 made it two findings that name
    # each other (the missing `traits` on `properties:`, the unknown `trait`
    # on its key, with the rename as a fix; docs/diagnostics.md).
    assert codes(st) == ["missing-property", "unknown-property"]
    missing, unknown = st.diagnostics
    assert missing.path.endswith("server.properties.traits")
    assert missing.hint == "'trait' is written instead (not declared: 'traits' misspelt?)"
    assert unknown.path.endswith("server.properties.trait")
    assert unknown.hint == "did you mean 'traits'? ('traits' is required and has no value)"
    assert (unknown.related[0].line, unknown.related[0].column) == (missing.line, missing.column)
    assert [f.replacement for f in unknown.fixes] == ["traits"]
    assert st.node_templates["server"].properties["trait"] == {
        "concat": ["this", "is", "supposed", "to", "be", "a", "value"]
    }


def test_seed_002_dollar_strings_and_escaped_keys():
    text = textwrap.dedent(
        """\
        tosca_definitions_version: tosca_2_0
        node_types:
          T:
            properties:
              prop1: {type: string}
              prop2: {type: string}
              $$prop1: {type: string, required: false}
        service_template:
          node_templates:
            a:
              type: T
              properties:
                prop1: $myid
                prop2: my_value
                $$prop1: myid
        """
    )
    st = toskit.loads(text)
    assert st.ok
    assert codes(st) == ["dollar-literal"]
    assert "$$myid" in st.diagnostics[0].hint
    assert st.node_templates["a"].properties == {
        "prop1": "$myid",
        "prop2": "my_value",
        "$$prop1": "myid",
    }


def test_seed_002_unescaped_dollar_key_is_malformed():
    from toskit import functions

    with pytest.raises(toskit.FunctionSyntaxError) as info:
        functions.parse({"$prop1": "myid", "prop2": "my_value"})
    assert info.value.diagnostic.code == "malformed-function"
    assert "$prop1" in str(info.value)


def test_seed_002_map_argument_and_namespaced_names():
    from toskit import functions

    call = functions.parse({"$get_security_context": {"env": "staging", "role": "admin"}})
    assert call == functions.Call("get_security_context", [{"env": "staging", "role": "admin"}])
    ns = functions.parse({"$ubct:sqrt": [4]})
    assert (ns.namespace, ns.name) == ("ubct", "sqrt")
    functions.register("ubct:sqrt", lambda x: x**0.5)
    try:
        assert functions.evaluate(ns) == 2.0
    finally:
        functions.unregister("ubct:sqrt")


# ==========================================================================
# Seed 003: the structural schema model — its tables are below, with the
# full example schemas (fixtures.schemas.FULL_YAML)
# ==========================================================================

# ==========================================================================
# Seed 004: role conditions (spec/conditions.md §9, §12)
# ==========================================================================


@pytest.fixture(scope="module")
def seed_roles():
    from toskit import conditions

    return conditions.load_roles(ROLES_TEXT)


def test_seed_004_as_written_is_a_yaml_syntax_error():
    from toskit import conditions

    with pytest.raises(toskit.TemplateError) as info:
        conditions.load_roles(SEED_ROLES_AS_WRITTEN)
    (diag,) = info.value.diagnostics
    assert diag.code == "yaml-syntax"
    assert (diag.line, diag.column) == (7, 11)
    assert "then:" in diag.hint and "condition:" in diag.hint
    assert ":7:" in str(info.value) or "line 7" in str(info.value)


def test_seed_004_fixed_loads(seed_roles):
    controller = seed_roles["controller"]
    assert controller.conflicts == ("compute",)
    assert len(controller.conditions) == 2
    assert seed_roles["zabbix-server"].conflicts == ("*",)


@pytest.mark.parametrize(
    "cluster, selected, allowed, warnings",
    [
        pytest.param("MN0", [11], True, [], id="S01"),
        pytest.param("MN0", [11, 12], False, [WMN], id="S02"),
        pytest.param("MN1", [11], False, [], id="S03"),
        pytest.param("MN1", [1], True, [], id="S04"),
        pytest.param("MN1P", [11], False, [], id="S06"),
        pytest.param("HA0", [11], True, [WHA], id="S09"),
        pytest.param("HA3", [11], True, [], id="S12"),
        pytest.param("HA1C2", [11], True, [], id="S13"),
        pytest.param("HAF", [11, 12], True, [], id="S16"),
    ],
)
def test_seed_004_controller_rules(seed_roles, cluster, selected, allowed, warnings):
    out = seed_roles.check("controller", CLUSTERS[cluster], selected=selected)
    assert (out.allowed, out.warnings, out.conflicts) == (allowed, warnings, [])


def test_seed_004_better_recommendation_s18():
    from toskit import conditions

    r = conditions.evaluate(
        {
            "recommended": {
                "expression": "cluster:nodes._afterDeployment._withRole('controller')._length >= <value>",
                "value": 3,
                "warning": "At least <value> controller nodes are recommended for HA deployment.",
            }
        },
        CLUSTERS["HA1C2"],
        selected=[11],
    )
    assert (r.value, r.warnings) == (True, [WHA])


def test_seed_004_conflicts(seed_roles):
    cluster = CLUSTERS["MN0"]
    k01 = seed_roles.check("controller", cluster, selected=[11], selected_roles=["compute"])
    assert (k01.allowed, k01.warnings, k01.conflicts) == (False, [CONF], ["compute"])
    k02 = seed_roles.check("compute", cluster, selected=[11], selected_roles=["controller"])
    assert (k02.allowed, k02.warnings) == (False, [CONF])
    with pytest.raises(toskit.ConditionError) as info:
        seed_roles.check_assignment(["controller", "compute"])
    assert info.value.kind == "RoleConflict"
    assert info.value.position is None
    assert "Role 'controller' in conflict with role 'compute'." in str(info.value)


def test_seed_004_trace_explains_the_outcome(seed_roles):
    out = seed_roles.check("controller", CLUSTERS["MN1"], selected=[11])
    root = out.trace
    assert root.form == "rules" and root.value is False
    assert [c.form for c in root.children] == ["condition", "condition"]
    first = root.children[0]
    assert first.value is False and first.source == "cluster:mode == 'multinode'"
    html = out._repr_html_()
    assert "<script" not in html.lower()


# ---- spec/functions.md §10.1: the parsing table, through the public API ----


def _C(name, args, **kw):
    from toskit import functions

    return functions.Call(name, args, **kw)


PARSE_TABLE = [
    ("P3", {"$concat": ["a", "b"]}, lambda: _C("concat", ["a", "b"])),
    ("P9", "$$$item", lambda: "$$item"),
    ("P11a", {"$": 1}, lambda: {"$": 1}),
    ("P11b", {"$": 1, "a": 2}, lambda: {"$": 1, "a": 2}),
    (
        "P13",
        ["$value", {"$value": ["high"]}, "$$x", "$"],
        lambda: [_C("value", []), _C("value", ["high"]), "$x", "$"],
    ),
    ("P15", {"a": {"b": [{"$$c": {"$d": []}}]}}, lambda: {"a": {"b": [{"$c": _C("d", [])}]}}),
    (
        "P21",
        {"$get_security_context": {"env": "staging", "role": "admin"}},
        lambda: _C("get_security_context", [{"env": "staging", "role": "admin"}]),
    ),
    (
        "P23",
        {"$namespace1:random_generator": [{"$get_input": ["seed"]}]},
        lambda: _C("random_generator", [_C("get_input", ["seed"])], namespace="namespace1"),
    ),
    ("P25a", {"$f": None}, lambda: _C("f", [])),
    ("P25b", {"$f": [None]}, lambda: _C("f", [None])),
]


@pytest.mark.parametrize("value, expected", [pytest.param(v, e, id=i) for i, v, e in PARSE_TABLE])
def test_functions_parse_table(value, expected):
    from toskit import functions

    assert functions.parse(value) == expected()


def test_functions_p13_bare_value_form():
    from toskit import functions

    tree = functions.parse(["$value", {"$value": ["high"]}])
    assert [c.form for c in tree] == ["bare", "map"]


def _template_20(props: str, prop_defs: str = "      p: {type: string, required: false}\n") -> str:
    return (
        "tosca_definitions_version: tosca_2_0\nnode_types:\n  T:\n    properties:\n"
        + prop_defs
        + "service_template:\n  node_templates:\n    a:\n      type: T\n      properties:\n"
        + props
    )


def test_functions_p17_literal_dollar_property_names():
    st = toskit.loads(_template_20("        $$myid1: v\n", "      $$myid1: {type: string}\n"))
    assert st.diagnostics == []
    assert st.node_templates["a"].properties == {"$$myid1": "v"}


def test_functions_p19_equal_keys_are_duplicates():
    st = toskit.loads(_template_20("        p: {1: a, true: b}\n"))
    assert "duplicate-key" in codes(st)


def test_functions_p27_key_variants_with_a_registered_function():
    import itertools

    from toskit import functions

    counter = itertools.count()
    functions.register("keygen", lambda kind: f"{kind}-{next(counter)}")
    try:
        st = toskit.loads(
            _template_20(
                "        p:\n"
                "          ? {$keygen: [UUID]}\n          : 34\n"
                "          ? {$keygen$1: [UUID]}\n          : 56\n"
                "          ? {$keygen$2: [UUID]}\n          : 78\n",
                "      p: {type: map, required: false}\n",
            )
        )
    finally:
        functions.unregister("keygen")
    assert errors(st) == [], [str(d) for d in st.diagnostics]
    value = st.node_templates["a"].properties["p"]
    assert sorted(value.values()) == [34, 56, 78]
    assert len(set(value)) == 3


def test_functions_p29_runtime_attributes_stay_calls():
    from toskit import functions

    st = toskit.loads(
        _template_20(
            "        p: { $concat: [ 'http://', $get_attribute: [ SELF, public_address ], ':',"
            " $get_attribute: [ SELF, port ] ] }\n",
            # Declared attributes (an undeclared one is a PathError: issue 20 item 14).
            "      p: {type: string, required: false}\n    attributes:\n"
            "      public_address: {type: string}\n      port: {type: integer}\n",
        )
    )
    assert errors(st) == []
    value = st.node_templates["a"].properties["p"]
    assert value == functions.Call(
        "concat",
        [
            "http://",
            functions.Call("get_attribute", ["SELF", "public_address"]),
            ":",
            functions.Call("get_attribute", ["SELF", "port"]),
        ],
    )


def test_functions_p31_price_is_a_literal_with_a_warning():
    st = toskit.loads(_template_20("        p: '$5.00'\n"))
    assert st.ok
    assert st.node_templates["a"].properties["p"] == "$5.00"
    (diag,) = st.diagnostics
    assert diag.code == "dollar-literal" and "$$5.00" in diag.hint


@pytest.mark.parametrize(
    "version, expected_codes, value",
    [
        pytest.param("tosca_simple_yaml_1_3", [], 4, id="1.x-call"),
        pytest.param("tosca_2_0", ["type-mismatch"], {"get_input": "cpus"}, id="2.0-plain-map"),
    ],
)
def test_functions_p33_get_input_by_dialect(version, expected_codes, value):
    section = "service_template" if version == "tosca_2_0" else "topology_template"
    root = "" if version == "tosca_2_0" else "    derived_from: tosca.nodes.Root\n"
    text = (
        f"tosca_definitions_version: {version}\nnode_types:\n  T:\n{root}    properties:\n"
        "      n: {type: integer}\n"
        f"{section}:\n  inputs:\n    cpus: {{type: integer, default: 4}}\n"
        "  node_templates:\n    a:\n      type: T\n      properties:\n        n: { get_input: cpus }\n"
    )
    st = toskit.loads(text)
    assert errors(st) == expected_codes
    assert st.node_templates["a"].properties["n"] == value


# ---- spec/functions.md §10.2: the evaluation table (values and error kinds) ----

EVAL_TABLE = [
    ("V1", {"$concat": [[1, 2], [3]]}, [1, 2, 3]),
    ("V3a", {"$join": [["a", "b", "c"], "-"]}, "a-b-c"),
    ("V3b", {"$join": [["a", "b"]]}, "ab"),
    ("V5a", {"$token": ["ip=10.0.0.2", "=", 1]}, "10.0.0.2"),
    ("V5b", {"$token": ["a::b", ":", 1]}, ""),
    ("V5c", {"$token": ["a", ":", 5]}, "PathError"),
    ("V29a", {"$and": [True, False]}, False),
    ("V29b", {"$or": [False, True]}, True),
    ("V29c", {"$not": [True]}, False),
    ("V29d", {"$xor": [True, True]}, False),
    ("V31a", {"$equal": [1, "1"]}, "TypeMismatch"),
    ("V31b", {"$equal": [[1, 2], [1, 2]]}, True),
    ("V35a", {"$valid_values": ["b", ["a", "b", "c"]]}, True),
    ("V35b", {"$has_entry": [["a", "b", "c"], "b"]}, True),
    ("V35c", {"$has_entry": [{"x": "b"}, "b"]}, True),
    ("V37a", {"$has_suffix": ["foobar", "bar"]}, True),
    ("V37b", {"$has_suffix": [[1, 2, 3], [2, 3]]}, True),
    ("V37c", {"$has_prefix": [[1, 2, 3], [1, 3]]}, False),
    ("V39a", {"$has_key": [{"a": 1}, "a"]}, True),
    ("V39b", {"$has_all_keys": [{"a": 1, "b": 2}, ["a", "b"]]}, True),
    ("V39c", {"$has_any_key": [{"a": 1}, ["x", "y"]]}, False),
    ("V39d", {"$has_all_entries": [[1, 2, 3], [3, 1]]}, True),
    ("V39e", {"$has_any_entry": [{"a": 1, "b": 2}, [2, 9]]}, True),
    ("V43a", {"$remainder": [7, 3]}, 1),
    ("V43b", {"$remainder": [-7, 3]}, -1),
    ("V43c", {"$remainder": [7.5, 2]}, "ArgType"),
    ("V43d", {"$remainder": [7, 0]}, "DivisionByZero"),
    ("V45a", {"$union": [[1, 7], [3, 4, 9], [15, 16]]}, [1, 7, 3, 4, 9, 15, 16]),
    ("V45b", {"$union": [[1, 1, 2]]}, [1, 2]),
    ("V45c", {"$intersection": [[1, 2, 3], [2, 3, 4]]}, [2, 3]),
    ("V45d", {"$intersection": [[1, 1]]}, [1]),
    ("V47", {"$frobnicate": [1]}, "UnknownFunction"),
]

ERROR_KINDS = {"PathError", "TypeMismatch", "ArgType", "DivisionByZero", "UnknownFunction"}


@pytest.mark.parametrize("value, expected", [pytest.param(v, e, id=i) for i, v, e in EVAL_TABLE])
def test_functions_evaluation_table(value, expected):
    from toskit import functions

    tree = functions.parse(value)
    if isinstance(expected, str) and expected in ERROR_KINDS:
        with pytest.raises(toskit.FunctionError) as info:
            functions.evaluate(tree)
        assert info.value.kind == expected
    else:
        result = functions.evaluate(tree)
        assert result == expected and type(result) is type(expected)


def test_functions_v21_validation_clause_in_a_template():
    text = _template_20(
        "        p: -1\n",
        "      p: {type: integer, validation: {$greater_or_equal: [$value, 0]}}\n",
    )
    assert errors(toskit.loads(text)) == ["validation-failed"]
    assert errors(toskit.loads(text.replace("p: -1", "p: 5"))) == []


def test_functions_v27_value_outside_validation_is_a_context_error():
    st = toskit.loads(_template_20("        p: $value\n"))
    (diag,) = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.code == "function-error" and "ContextError" in diag.message


def test_functions_v54_get_artifact():
    text = (
        "tosca_definitions_version: tosca_2_0\nnode_types:\n  T:\n    properties:\n"
        "      p: {type: string, required: false}\n      q: {type: string, required: false}\n"
        "service_template:\n  node_templates:\n    a:\n      type: T\n"
        "      artifacts:\n        zip: {type: File, file: /data/wordpress.zip}\n"
        "      properties:\n        p: {$get_artifact: [SELF, zip]}\n        q: {$get_artifact: [SELF, nozip]}\n"
    )
    st = toskit.loads(text)
    assert st.node_templates["a"].properties["p"] == "/data/wordpress.zip"
    (diag,) = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.code == "function-error" and "PathError" in diag.message


# The expression and condition-form tables of the seed (E01–E42, C01–C26)
# run in tests/conditions/test_expressions.py and test_forms.py, through the
# same public calls and with more asserted (messages, traces).


# ---- spec/schema.md §7: the full example schemas and tables ----


@pytest.fixture(scope="module")
def s_full():
    from toskit import schema

    return schema.load(FULL_YAML)


# The seed's validation and merge tables (V01–V39, M01–M35) run in
# tests/schema/test_spec_validate.py and test_spec_merge.py, through the same
# public calls and with more asserted (severity, no location, inputs untouched).


def test_seed_003_compare_and_fieldset(s_full):
    cmp = s_full.compare({"struct": {"deep": {"a": "x"}}}, {}, "root")
    assert cmp.removed == {".struct", ".struct.deep", ".struct.deep.a"}
    assert not cmp.added and not cmp.modified
    assert s_full.to_fieldset({"ports": [{"containerPort": 80}]}, "root") == {
        '.ports[containerPort=80,protocol="TCP"]',
        '.ports[containerPort=80,protocol="TCP"].containerPort',
    }


def test_seed_003_compare_fieldset_remove_extract(s_full):
    c01 = s_full.compare({"num": 1, "str": "x"}, {"num": 2, "bool": True}, "root")
    assert (c01.added, c01.removed, c01.modified) == ({".bool"}, {".str"}, {".num"})
    c03 = s_full.compare({"atomicList": ["a", "b"]}, {"atomicList": ["b", "a"]}, "root")
    assert c03.modified == {".atomicList"}
    c05 = s_full.compare({"set": ["a", "b"]}, {"set": ["b", "a"]}, "root")
    assert not (c05.added or c05.removed or c05.modified)
    assert s_full.to_fieldset(
        {"num": 1, "struct": {"a": "x", "deep": {"b": 2}}, "labels": {"k": "v"}}, "root"
    ) == {
        ".labels.k",
        ".num",
        ".struct.a",
        ".struct.deep.b",
    }
    assert s_full.to_fieldset(
        {"struct": {}, "labels": None, "atomicMap": {"a": "b"}, "atomicStruct": {"a": "x"}}, "root"
    ) == {".atomicMap", ".atomicStruct", ".labels", ".struct"}
    assert s_full.remove(
        {"num": 1, "str": "x", "struct": {"a": "x", "b": 1}}, {".str", ".struct.a"}, "root"
    ) == {
        "num": 1,
        "struct": {"b": 1},
    }
    assert s_full.remove(
        {"items": [{"name": "a", "value": "x"}, {"name": "b", "value": "p"}]},
        {'.items[name="a"]'},
        "root",
    ) == {"items": [{"name": "b", "value": "p"}]}
    assert s_full.remove({"struct": {"a": "x"}}, {".struct.a"}, "root") == {"struct": None}
    assert s_full.extract(
        {"num": 1, "str": "x", "items": [{"name": "a", "value": "x", "port": 1}, {"name": "b"}]},
        {".str", '.items[name="a"].port'},
        "root",
    ) == {"str": "x", "items": [{"port": 1}]}


# The union tables (U01–U19, A01–A07) run in tests/schema/test_spec_unions.py.
