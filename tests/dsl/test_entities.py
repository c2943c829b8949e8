"""DSL building blocks: normative classes, annotations, data values, templates."""

from __future__ import annotations

import importlib.util
import sys
import typing
from typing import Annotated, Any, Optional, Union

import pytest
import yaml

from toskit import dsl
from toskit.dsl.annotations import AnnotationError, interpret
from toskit.dsl.normative import normative_definitions, python_name_for
from toskit.tosca.profiles import profile_path

# --------------------------------------------------------------------------
# Normative base classes, generated from the shipped profile


def _profile_types() -> list[tuple[str, str]]:
    data = yaml.safe_load(profile_path("1.3").read_text(encoding="utf-8"))
    kinds = {
        "data_types": "datatypes",
        "artifact_types": "artifacts",
        "capability_types": "capabilities",
        "interface_types": "interfaces",
        "relationship_types": "relationships",
        "node_types": "nodes",
        "group_types": "groups",
        "policy_types": "policies",
    }
    return [(ns, name) for section, ns in kinds.items() for name in data[section]]


@pytest.mark.parametrize(("namespace", "name"), _profile_types(), ids=lambda v: v)
def test_every_profile_type_has_a_generated_class(namespace, name) -> None:
    kind = {
        "datatypes": "data",
        "artifacts": "artifact",
        "capabilities": "capability",
        "interfaces": "interface",
        "relationships": "relationship",
        "nodes": "node",
        "groups": "group",
        "policies": "policy",
    }[namespace]
    cls = getattr(getattr(dsl, namespace), python_name_for(kind, name))
    assert cls._type_name == name
    assert cls._tosca_kind == kind
    assert cls._tosca_normative is True
    definition = normative_definitions()[kind][name] or {}
    assert cls._tosca_definition == definition
    if cls is not dsl.DataEntity:  # DataEntity keeps its Python docstring
        assert cls.__doc__ == definition.get("description")


@pytest.mark.parametrize(
    ("expression", "tosca_name"),
    [
        (lambda: dsl.nodes.DBMS, "tosca.nodes.DBMS"),
        (lambda: dsl.nodes.Root, "tosca.nodes.Root"),
        (lambda: dsl.datatypes.Root, "tosca.datatypes.Root"),
        (lambda: dsl.datatypes.NetworkPortDef, "tosca.datatypes.network.PortDef"),
        (lambda: dsl.datatypes.Json, "tosca.datatypes.json"),
        (lambda: dsl.capabilities.EndpointAdmin, "tosca.capabilities.Endpoint.Admin"),
        (lambda: dsl.nodes.ContainerApplication, "tosca.nodes.Container.Application"),
        (lambda: dsl.interfaces.NodeLifecycleStandard, "tosca.interfaces.node.lifecycle.Standard"),
        (lambda: dsl.artifacts.Template, "tosca.artifacts.template"),
    ],
    ids=[
        "DBMS",
        "nodes.Root",
        "datatypes.Root",
        "PortDef",
        "json",
        "EndpointAdmin",
        "ContainerApplication",
        "Standard",
        "template",
    ],
)
def test_unfurl_style_class_names(expression, tosca_name) -> None:
    assert expression()._type_name == tosca_name


def test_normative_hierarchy_and_defaults() -> None:
    assert dsl.datatypes.Root is dsl.DataEntity
    assert dsl.nodes.DBMS.__mro__[1] is dsl.nodes.SoftwareComponent
    assert issubclass(dsl.nodes.Compute, dsl.nodes.AbstractCompute)
    assert issubclass(dsl.capabilities.EndpointAdmin, dsl.capabilities.Endpoint)
    # property defaults become class attributes
    assert dsl.capabilities.Endpoint.protocol == "tcp"
    assert dsl.capabilities.EndpointAdmin.secure is True
    assert dsl.datatypes.Credential.token_type == "password"
    assert dsl.datatypes.NetworkPortDef._type == "integer"


# --------------------------------------------------------------------------
# Annotations -> TOSCA schemas


class Endpoint(dsl.DataEntity):
    ip: str


class Server(dsl.nodes.Compute):
    pass


NS = {"Endpoint": Endpoint, "Server": Server, "typing": typing, "dsl": dsl}

ANNOTATIONS = [
    ("str", str, {"type": "string"}, True),
    ("int", int, {"type": "integer"}, True),
    ("float", float, {"type": "float"}, True),
    ("bool", bool, {"type": "boolean"}, True),
    ("None", None, {"type": "null"}, True),
    ("list", list, {"type": "list"}, True),
    ("dict", dict, {"type": "map"}, True),
    ("any", Any, {}, True),
    ("data class", Endpoint, {"type": "Endpoint"}, True),
    ("list[int]", list[int], {"type": "list", "entry_schema": {"type": "integer"}}, True),
    ("List[str]", typing.List[str], {"type": "list", "entry_schema": {"type": "string"}}, True),  # noqa: UP006
    (
        "dict[str, Endpoint]",
        dict[str, Endpoint],
        {"type": "map", "entry_schema": {"type": "Endpoint"}},
        True,
    ),
    (
        "dict[int, str]",
        dict[int, str],
        {"type": "map", "key_schema": {"type": "integer"}, "entry_schema": {"type": "string"}},
        True,
    ),
    ("X | None", int | None, {"type": "integer"}, False),
    ("Optional", Optional[str], {"type": "string"}, False),  # noqa: UP045
    ("Union None", Union[Endpoint, None], {"type": "Endpoint"}, False),  # noqa: UP007
    ("Annotated", Annotated[int, "meta"], {"type": "integer"}, True),
    ("Size", dsl.Size, {"type": "scalar-unit.size"}, True),
    ("timestamp", dsl.tosca_timestamp, {"type": "timestamp"}, True),
    (
        "nested",
        list[dict[str, list[Endpoint]]],
        {
            "type": "list",
            "entry_schema": {
                "type": "map",
                "entry_schema": {"type": "list", "entry_schema": {"type": "Endpoint"}},
            },
        },
        True,
    ),
    ("forward ref", "Endpoint", {"type": "Endpoint"}, True),
    ("forward ref optional", "Endpoint | None", {"type": "Endpoint"}, False),
    (
        "forward generic",
        "list[Endpoint]",
        {"type": "list", "entry_schema": {"type": "Endpoint"}},
        True,
    ),
    (
        "forward typing",
        "typing.Optional[typing.Dict[str, int]]",
        {"type": "map", "entry_schema": {"type": "integer"}},
        False,
    ),
    ("forward Optional name", "Optional[int]", {"type": "integer"}, False),
    ("forward attribute", "dsl.Size", {"type": "scalar-unit.size"}, True),
    ("forward None", "None", {"type": "null"}, True),
    ("ForwardRef", typing.ForwardRef("Endpoint"), {"type": "Endpoint"}, True),
    (
        "list of forward",
        list["Endpoint"],
        {"type": "list", "entry_schema": {"type": "Endpoint"}},
        True,
    ),
]


@pytest.mark.parametrize(
    ("label", "annotation", "schema", "required"), ANNOTATIONS, ids=[a[0] for a in ANNOTATIONS]
)
def test_annotation_meaning(label, annotation, schema, required) -> None:
    meaning = interpret(annotation, NS, "data")
    assert meaning.schema == schema
    assert meaning.required is required


def test_annotation_collects_the_data_classes_it_uses() -> None:
    assert interpret(dict[str, list[Endpoint]], NS).classes == [Endpoint]


def test_node_annotation_on_a_node_type_is_a_requirement_target() -> None:
    meaning = interpret("Server | None", NS, "node")
    assert meaning.target is Server and meaning.required is False


@pytest.mark.parametrize(
    "annotation",
    [
        "Nope",
        "int | str",
        "lambda: 1",
        "Endpoint.missing",
        "list[int, str, float]",
        "dict[str]",
        "f()",
        "Server",
    ],
)
def test_annotations_without_meaning_raise_annotation_error(annotation) -> None:
    with pytest.raises(AnnotationError):
        interpret(annotation, NS, "data")


def test_string_annotations_are_never_evaluated() -> None:
    calls = []
    namespace = {"boom": lambda: calls.append(1)}
    with pytest.raises(AnnotationError):
        interpret("boom()", namespace)
    with pytest.raises(AnnotationError):
        interpret("__import__('os').system('true')", namespace)
    assert calls == []


def test_deeply_nested_string_annotation_is_bounded() -> None:
    with pytest.raises(AnnotationError):
        interpret("list[" * 200 + "int" + "]" * 200, NS)


# --------------------------------------------------------------------------
# Data values and templates


class Data1(dsl.DataEntity):
    prop1: str = "prop1_default"
    prop2: str = "prop2_default"


def test_data_instance_records_only_given_fields() -> None:
    value = Data1(prop2="override")
    assert value._values == {"prop2": "override"}
    assert value.prop2 == "override"
    assert value.prop1 == "prop1_default"  # class default, not recorded
    assert value == Data1(prop2="override")
    assert value != Data1(prop2="other")
    assert repr(value) == "Data1(prop2='override')"
    value.prop1 = "set later"
    assert value._values == {"prop2": "override", "prop1": "set later"}


def test_data_instance_rejects_positional_fields_and_reports_missing_fields() -> None:
    with pytest.raises(TypeError, match="keywords only"):
        Data1("x")
    with pytest.raises(AttributeError, match="no field 'nope'"):
        _ = Data1().nope


def test_node_template_records_name_properties_and_extra() -> None:
    server = dsl.nodes.Compute("server", _extra={"requirements": [{"local_storage": "disk"}]})
    assert server._name == "server"
    assert server._values == {}
    app = dsl.nodes.Database("db", name="inventory")  # a property called 'name'
    assert app._name == "db" and app._values == {"name": "inventory"}
    assert repr(app) == "Database('db', name='inventory')"


def test_type_name_defaults_to_the_class_name() -> None:
    class Plain(dsl.DataEntity):
        pass

    class Named(dsl.DataEntity):
        _type_name = "my.Named"

    class Child(Named):
        pass

    assert Plain._type_name == "Plain"
    assert Named._type_name == "my.Named"
    assert Child._type_name == "Child"


def test_dsl_yaml_of_a_namespace() -> None:
    class Auth(dsl.DataEntity):
        """Credentials."""

        user: str = "admin"
        """who"""

        password: str | None

    class App(dsl.nodes.SoftwareComponent):
        auth: Auth = Auth(password="pw")
        port = dsl.Property(default=80, constraints=[{"in_range": [1, 65535]}], type="integer")
        addr: str = dsl.Attribute(default="0.0.0.0")

    app = App("app")
    emitted = dsl.to_yaml_data({"Auth": Auth, "App": App, "app": app})
    data = emitted.data
    assert data["data_types"]["Auth"] == {
        "description": "Credentials.",
        "properties": {
            "user": {"type": "string", "description": "who", "default": "admin"},
            "password": {"type": "string", "required": False},
        },
    }
    assert data["node_types"]["App"] == {
        "derived_from": "tosca.nodes.SoftwareComponent",
        "properties": {
            "auth": {"type": "Auth", "default": {"password": "pw"}},
            "port": {"type": "integer", "constraints": [{"in_range": [1, 65535]}], "default": 80},
        },
        "attributes": {"addr": {"type": "string", "default": "0.0.0.0"}},
    }
    assert data["topology_template"] == {"node_templates": {"app": {"type": "App"}}}
    assert emitted.diagnostics == []


def test_refining_an_inherited_default_without_annotation() -> None:
    class MyDBMS(dsl.nodes.DBMS):
        port = 3306

    data = dsl.to_yaml_data({"MyDBMS": MyDBMS}).data
    assert data["node_types"]["MyDBMS"]["properties"] == {"port": {"default": 3306}}


def test_load_module_accepts_an_imported_module(tmp_path) -> None:
    path = tmp_path / "imported_service.py"
    path.write_text(
        "from toskit import dsl\n\n"
        "class Web(dsl.nodes.WebServer):\n"
        "    port: int = 8080\n\n"
        "web = Web('web')\n",
        encoding="utf-8",
    )
    spec = importlib.util.spec_from_file_location("imported_service", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["imported_service"] = module
    try:
        spec.loader.exec_module(module)
        template = dsl.load_module(module)
    finally:
        del sys.modules["imported_service"]
    assert template.node_templates["web"].properties["port"] == 8080
    assert template.types["Web"].parent.name == "tosca.nodes.WebServer"


def test_each_load_reads_the_file_afresh(write_module) -> None:
    path = write_module("import tosca\n\nclass A(tosca.DataEntity):\n    x: int = 1\n")
    assert dsl.load_module(path).types["A"].properties["x"].default == 1
    path.write_text(
        "import tosca\n\nclass A(tosca.DataEntity):\n    x: int = 2\n", encoding="utf-8"
    )
    assert dsl.load_module(path).types["A"].properties["x"].default == 2


def test_the_template_holds_only_the_types_the_module_uses(write_module) -> None:
    first = write_module("import tosca\n\nclass OnlyHere(tosca.DataEntity):\n    x: int = 1\n")
    second = write_module("import tosca\n\nclass Other(tosca.DataEntity):\n    y: int = 1\n")
    dsl.load_module(first)
    template = dsl.load_module(second)
    assert "Other" in template.types and "OnlyHere" not in template.types


def test_import_toskit_dsl_stays_reasonably_fast() -> None:
    import subprocess

    # Counted: the modules the import brings in (131 today), and none of the
    # heavy ones; CPU seconds only as a hang guard (10x the quiet ~0.15 s),
    # never wall time, which a loaded machine stretches at will.
    code = (
        "import sys, time; before = set(sys.modules); t = time.process_time(); import toskit.dsl; "
        "print(time.process_time() - t); new = set(sys.modules) - before; print(len(new)); "
        "print(sorted(m for m in new if m.startswith(('toskit.display', 'toskit.widgets', 'ipywidgets', "
        "'pandas', 'IPython'))))"
    )
    cpu, count, heavy = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert heavy == "[]"
    assert int(count) < 200
    assert float(cpu) < 1.5


def test_unfurl_style_module_loads_unchanged(write_module) -> None:
    path = write_module(
        """\
        import unfurl
        import tosca
        from typing import Union, List, Dict
        from tosca import Property, Attribute, DataEntity


        class Settings(DataEntity):
            _type_name = "example.Settings"
            debug: bool = False
            tags: List[str] = Property(default=["a"], constraints=[{"min_length": 1}])


        class Database(tosca.nodes.DBMS):
            \"\"\"A database server.\"\"\"

            _type_name = "example.Database"
            settings: Settings = Settings(debug=True)
            version: Union[str, None] = None
            labels: Dict[str, str] = {}
            url: str = Attribute()


        class App(tosca.nodes.WebApplication):
            db: Database
            cache: Union[Database, None] = None


        db = Database("db", version="14")
        app = App("app", db=db)
        """
    )
    template = dsl.load_module(path)
    assert template.ok, [str(d) for d in template.diagnostics]
    assert template.node_templates["db"].properties == {
        "settings": {"debug": True, "tags": ["a"]},
        "version": "14",
        "labels": {},
    }
    database = template.types["example.Database"]
    assert database.description == "A database server."
    assert database.properties["version"].required is False
    assert database.properties["settings"].type == "example.Settings"
    assert template.types["example.Settings"].properties["tags"].constraints == ({"min_length": 1},)
    emitted = yaml.safe_load(template.dsl_yaml)
    assert emitted["node_types"]["App"]["requirements"] == [
        {"db": {"node": "example.Database"}},
        {"cache": {"node": "example.Database", "occurrences": [0, 1]}},
    ]
    assert emitted["node_types"]["example.Database"]["attributes"] == {"url": {"type": "string"}}
    assert emitted["topology_template"]["node_templates"]["app"]["requirements"] == [{"db": "db"}]


def test_sibling_type_library_is_imported_and_forgotten(write_module) -> None:
    write_module(
        """\
        import tosca

        class SharedEndpoint(tosca.DataEntity):
            \"\"\"From the library.\"\"\"
            ip: str
            port: int = 80
        """,
        name="shared_types_lib.py",
    )
    service = write_module(
        """\
        import tosca
        from shared_types_lib import SharedEndpoint

        class Service(tosca.nodes.Root):
            endpoint: SharedEndpoint

        svc = Service("svc", endpoint=SharedEndpoint(ip="10.0.0.1"))
        """,
        name="service_using_lib.py",
    )
    path_before = list(sys.path)
    template = dsl.load_module(service)
    assert template.ok, [str(d) for d in template.diagnostics]
    assert template.types["SharedEndpoint"].description == "From the library."
    assert template.node_templates["svc"].properties == {"endpoint": {"ip": "10.0.0.1", "port": 80}}
    assert "shared_types_lib" not in sys.modules
    assert sys.path == path_before


def test_scalar_units_write_tosca_scalars(write_module) -> None:
    path = write_module(
        """\
        import tosca
        from tosca import GB, GHz, ms, Size, Frequency, Time

        class Box(tosca.nodes.Root):
            disk: Size = 10 * GB
            cpu: Frequency | None
            timeout: Time = 250 * ms

        box = Box("box", cpu=2.5 * GHz)
        """
    )
    template = dsl.load_module(path)
    assert template.ok, [str(d) for d in template.diagnostics]
    assert template.types["Box"].properties["disk"].type == "scalar-unit.size"
    props = template.node_templates["box"].properties
    assert (props["disk"], props["cpu"], props["timeout"]) == ("10 GB", "2.5 GHz", "250 ms")
    assert isinstance(10 * dsl.GB, dsl.Size)
    with pytest.raises(TypeError):
        _ = "10" * dsl.GB


def test_dsl_reads_the_shipped_1_3_profile() -> None:
    from toskit.dsl.normative import profile_file

    assert profile_file() == profile_path("1.3")


def test_load_module_accepts_a_namespace_like_a_notebook() -> None:
    class NotebookData(dsl.DataEntity):
        size: int = 1

    class NotebookNode(dsl.nodes.Root):
        data: NotebookData

    node = NotebookNode("nb", data=NotebookData(size=3))
    template = dsl.load_module(
        {"NotebookData": NotebookData, "NotebookNode": NotebookNode, "node": node}
    )
    assert template.ok, [str(d) for d in template.diagnostics]
    assert template.node_templates["nb"].properties == {"data": {"size": 3}}
    assert template.types["NotebookNode"].properties["data"].type == "NotebookData"


def test_templates_in_extra_stand_for_their_names(write_module) -> None:
    path = write_module(
        """\
        import tosca

        server = tosca.nodes.Compute("server")
        db = tosca.nodes.DBMS("db", _extra={"requirements": [{"host": server}]})
        """
    )
    template = dsl.load_module(path)
    assert "unfulfilled-requirement" not in {
        d.code for d in template.diagnostics if "'db'" in d.message
    }
    assert yaml.safe_load(template.dsl_yaml)["topology_template"]["node_templates"]["db"] == {
        "type": "tosca.nodes.DBMS",
        "requirements": [{"host": "server"}],
    }
