"""spec/tosca.md §3: types, names, inheritance, refinement, imports."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st_
from tosca_fixtures import errors, loads, text_1_3

import toskit
from toskit.tosca.load.profile import normative_registry, profile_diagnostics


@pytest.mark.parametrize("major", [1, 2], ids=["1.3", "2.0"])
def test_profile_is_clean_and_cached(major: int) -> None:
    assert profile_diagnostics(major) == []
    assert normative_registry(major) is normative_registry(major)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("tosca.nodes.DBMS", "tosca.nodes.DBMS"),
        ("DBMS", "tosca.nodes.DBMS"),
        ("tosca:DBMS", "tosca.nodes.DBMS"),
        ("Compute", "tosca.nodes.Compute"),
        ("tosca:Compute", "tosca.nodes.Compute"),
    ],
)
def test_normative_names_resolve_in_1x(written: str, expected: str) -> None:
    st = loads(
        f"""
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          Mine:
            derived_from: {written}
        topology_template:
          node_templates:
            n: {{type: {written}}}
        """
    )
    assert errors(st) == []
    assert st.types["Mine"].parent is st.types[expected]
    assert st.node_templates["n"].type is st.types[expected]


def test_2_0_documents_see_the_2_0_profile() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_2_0
        service_template:
          node_templates:
            a: {type: Compute}
            b: {type: tosca:Compute}
        """
    )
    assert errors(st) == []
    assert st.node_templates["a"].type is st.node_templates["b"].type
    assert "tosca.nodes.Compute" not in st.types


def test_types_mapping_full_names_all_kinds_node_wins() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        data_types:
          Clash: {properties: {a: {type: string}}}
        node_types:
          Clash: {derived_from: tosca.nodes.Root}
        capability_types:
          MyCap: {}
        """
    )
    types = st.types
    assert types["Clash"].kind == "node"
    assert st.types_of("data")["Clash"].kind == "data"
    assert types["MyCap"].kind == "capability"
    assert types["tosca.datatypes.Credential"].kind == "data"
    assert types["tosca.capabilities.Endpoint"].kind == "capability"
    for alias in ("DBMS", "tosca:DBMS", "string", "integer", "list"):
        assert alias not in types
    with pytest.raises(toskit.ToskitError, match="kinds are"):
        st.types_of("nodes")


def test_type_api() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          A:
            derived_from: tosca.nodes.Root
            description: the A
            properties:
              x: {type: integer, default: 1, description: an x}
              y: {required: false}
          B:
            derived_from: A
            properties:
              x: {default: 2}
              z: {type: string}
        """
    )
    # a new property needs a type (#38 item 4); 'y' is still read, as any value
    assert [d.code for d in errors(st)] == ["missing-type"]
    a, b = st.types["A"], st.types["B"]
    assert (b.name, b.kind, b.parent) == ("B", "node", a)
    assert [t.name for t in b.ancestors] == ["A", "tosca.nodes.Root"]
    assert a.description == "the A"
    assert list(b.properties) == ["x", "y", "z"]
    assert list(b.own_properties) == ["x", "z"]
    x = b.properties["x"]
    # A refinement that only changes the default keeps the parent's type and description.
    assert (x.type, x.default, x.defined_in, x.description, x.required) == (
        "integer",
        2,
        "B",
        "an x",
        True,
    )
    y = b.properties["y"]
    assert (y.type, y.required, y.default, y.defined_in) == (None, False, toskit.NO_DEFAULT, "A")
    assert "B" in repr(b) and "A" in repr(b)


def test_derivation_cycle_names_the_loop() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          A: {derived_from: B}
          B: {derived_from: C}
          C: {derived_from: A}
          Self: {derived_from: Self}
        topology_template:
          node_templates:
            a: {type: A}
        """
    )
    found = errors(st)
    assert [d.code for d in found] == ["derivation-cycle", "derivation-cycle"]
    assert "A -> B -> C -> A" in found[0].message
    assert found[0].path == "node_types.A.derived_from"
    assert "Self -> Self" in found[1].message
    assert [t.name for t in st.types["B"].ancestors] == ["C", "A"]  # the loop is cut at A
    assert st.node_templates["a"].properties == {}


def test_incompatible_refinement() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        data_types:
          Base: {properties: {a: {type: string, required: false}}}
          Derived: {derived_from: Base}
        node_types:
          A:
            properties:
              n: {type: integer}
              d: {type: Base}
              p: {type: integer}
          B:
            derived_from: A
            properties:
              n: {type: string}
              d: {type: Derived}
              p: {type: PortDef}
        """
    )
    (diag,) = errors(st)
    assert diag.code == "incompatible-refinement"
    assert diag.path == "node_types.B.properties.n.type"
    assert "'string'" in diag.message and "'integer'" in diag.message


def test_each_kind_has_its_own_namespace_and_root() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          Thing: {derived_from: tosca.nodes.Root}
        capability_types:
          Thing: {derived_from: tosca.capabilities.Root}
        relationship_types:
          Link: {derived_from: nowhere.Link}
        """
    )
    assert st.types_of("node")["Thing"].parent.name == "tosca.nodes.Root"
    assert st.types_of("capability")["Thing"].parent.name == "tosca.capabilities.Root"
    (diag,) = errors(st)
    assert diag.code == "unknown-type"
    assert st.types["Link"].parent is st.types["tosca.relationships.Root"]


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_imports_with_namespaces(tmp_path: Path) -> None:
    write(
        tmp_path / "lib1.yaml",
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          Base: {derived_from: tosca.nodes.Root, properties: {a: {type: integer, default: 1}}}
          Server: {derived_from: Base}
        """,
    )
    write(
        tmp_path / "lib2.yaml",
        """
        node_types:
          Plain: {derived_from: tosca.nodes.Root}
        """,
    )
    main = write(
        tmp_path / "main.yaml",
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        imports:
          - {file: lib1.yaml, namespace_prefix: lib}
          - lib2.yaml
        topology_template:
          node_templates:
            s: {type: 'lib:Server'}
            p: {type: Plain}
            bad: {type: Server}
        """,
    )
    st = toskit.load(main)
    found = errors(st)
    assert [(d.code, d.path) for d in found] == [
        ("unknown-type", "topology_template.node_templates.bad.type")
    ]
    assert found[0].hint == "did you mean 'lib:Server'?"
    assert st.node_templates["s"].properties == {"a": 1}
    assert st.node_templates["s"].type.parent is st.types["lib:Base"]
    assert not any(d.code == "missing-version" for d in st.diagnostics)


def test_2_0_import_namespace(tmp_path: Path) -> None:
    write(tmp_path / "k.yaml", "tosca_definitions_version: tosca_2_0\nnode_types:\n  Pod: {}\n")
    main = write(
        tmp_path / "main.yaml",
        """
        tosca_definitions_version: tosca_2_0
        imports:
          - {url: k.yaml, namespace: k8s}
        node_types:
          SuperPod: {derived_from: 'k8s:Pod'}
        service_template:
          node_templates:
            p: {type: SuperPod}
        """,
    )
    st = toskit.load(main)
    assert errors(st) == []
    assert st.types["SuperPod"].parent is st.types["k8s:Pod"]


@pytest.mark.parametrize(
    ("imports", "code"),
    [
        ("- missing.yaml", "import-error"),
        ("- https://example.com/types.yaml", "import-error"),
    ],
    ids=["missing", "url"],
)
def test_import_problems(tmp_path: Path, imports: str, code: str) -> None:
    write(
        tmp_path / "loop.yaml",
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - main.yaml\n",
    )
    main = write(
        tmp_path / "main.yaml",
        f"tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  {imports}\n",
    )
    st = toskit.load(main)
    assert code in [d.code for d in errors(st)]
    assert all(d.line is not None for d in errors(st))


def test_url_import_through_resolver() -> None:
    texts = {
        "https://example.com/t.yaml": "node_types:\n  Remote: {derived_from: tosca.nodes.Root}\n"
    }
    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "imports: [https://example.com/t.yaml]\n"
        "topology_template:\n  node_templates:\n    r: {type: Remote}\n",
        resolver=lambda url, importing: texts[url],
    )
    assert errors(st) == []
    assert st.node_templates["r"].type.name == "Remote"


def test_unavailable_profile_namespace_is_not_an_error() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_2_0
        imports:
          - {profile: io.kubernetes:1.30, namespace: k8s}
        node_types:
          SuperPod: {derived_from: 'k8s:Pod'}
        """
    )
    assert errors(st) == []
    assert [d.code for d in st.diagnostics] == ["unknown-profile"]


def test_defaults_of_definitions_are_checked_where_written() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_2_0
        data_types:
          Port:
            derived_from: integer
          Pair:
            properties:
              a: {type: integer}
              b: {type: integer}
        node_types:
          N:
            properties:
              p: {type: integer, default: eighty}
              q: {type: Port, default: x}
              d: {type: Pair, default: {a: 1}}
            attributes:
              a: {type: integer, default: zero}
              b: {default: 1}
        """
    )
    found = [(d.code, d.path) for d in errors(st)]
    # A partial data-typed default ({a: 1}) is fine where written.
    assert found == [
        ("type-mismatch", "node_types.N.properties.p"),
        ("type-mismatch", "node_types.N.properties.q"),
        ("type-mismatch", "node_types.N.attributes.a"),
        ("missing-type", "node_types.N.attributes.b"),
    ]
    assert (
        errors(st)[0].message
        == "node type 'N': property 'p': expected integer, got string 'eighty'"
    )
    assert errors(st)[0].line == 13


def test_long_derivation_chains_and_deep_values_do_not_exhaust_recursion() -> None:
    n = 3000
    lines = [
        "tosca_definitions_version: tosca_simple_yaml_1_3",
        "node_types:",
        "  T0: {derived_from: tosca.nodes.Root, properties: {p: {type: integer, default: 1}}}",
    ]
    lines += [f"  T{i}: {{derived_from: T{i - 1}}}" for i in range(1, n)]
    lines += ["topology_template:", "  node_templates:", f"    x: {{type: T{n - 1}}}"]
    st = toskit.loads("\n".join(lines) + "\n")
    assert st.ok and st.node_templates["x"].properties == {"p": 1}
    assert len(st.types[f"T{n - 1}"].ancestors) == n
    deep = "[" * 450 + "]" * 450
    for version, topology in (
        ("tosca_simple_yaml_1_3", "topology_template"),
        ("tosca_2_0", "service_template"),
    ):
        text = (
            f"tosca_definitions_version: {version}\n"
            "node_types:\n  N: {properties: {v: {required: false}, l: {type: list, required: false}}}\n"
            f"{topology}:\n  node_templates:\n    x:\n      type: N\n      properties:\n"
            f"        v: {deep}\n        l: {deep}\n"
        )
        loaded = toskit.loads(text)
        # 'v' has no type (missing-type, #38 item 4): its deep value is still walked
        assert [d.code for d in loaded.diagnostics if d.severity == "error"] == ["missing-type"]
        assert len(loaded.node_templates["x"].property_table().rows) == 2


def test_normative_types_are_not_recomputed_per_load() -> None:
    dbms = normative_registry(1).by_kind["node"]["tosca.nodes.DBMS"]
    before = dict(dbms.properties)
    loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          Mine: {derived_from: tosca.nodes.DBMS}
        """
    )
    assert all(before[k] is v for k, v in dbms.properties.items())


# ---- Recursive data types load (bounded expansion, never RecursionError) ----


def _recursive(data_types: str, prop: str, value: str = "") -> str:
    body = textwrap.indent(textwrap.dedent(data_types), "  ")
    node = f"n: {{type: N{', properties: {p: ' + value + '}' if value else ''}}}"
    return text_1_3(
        "data_types:\n"
        + body
        + "node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n"
        + f"      p: {prop}\n"
        + "topology_template:\n  node_templates:\n    "
        + node
        + "\n"
    )


RECURSIVE_CASES = {
    "default-contains-itself": (
        """\
        D0:
          derived_from: tosca.datatypes.Root
          properties:
            d: {type: D0, default: {d: {}}}
            x: {type: integer, default: 1}
        """,
        "{type: D0, default: {}}",
        "",
        {"d": {"d": {}, "x": 1}, "x": 1},
    ),
    "list-of-itself-default": (
        """\
        D0:
          derived_from: tosca.datatypes.Root
          properties:
            l: {type: list, entry_schema: {type: D0}, default: [{}]}
            x: {type: integer, default: 1}
        """,
        "{type: D0, default: {}}",
        "",
        {"l": [{"l": [{}], "x": 1}], "x": 1},
    ),
    "mutual-defaults": (
        """\
        A:
          derived_from: tosca.datatypes.Root
          properties:
            b: {type: B, default: {a: {}}}
        B:
          derived_from: tosca.datatypes.Root
          properties:
            a: {type: A, default: {b: {}}}
        """,
        "{type: A}",
        "{}",
        {"b": {"a": {}}},  # A's defaults are not applied again inside A's own default
    ),
    "template-value-deeper-than-defaults": (
        """\
        D0:
          derived_from: tosca.datatypes.Root
          properties:
            d: {type: D0, required: false}
            x: {type: integer, default: 1}
        """,
        "{type: D0}",
        "{d: {d: {d: {}}}}",
        {"d": {"d": {"d": {"x": 1}, "x": 1}, "x": 1}, "x": 1},
    ),
}


@pytest.mark.parametrize(
    ("data_types", "prop", "value", "expected"),
    list(RECURSIVE_CASES.values()),
    ids=list(RECURSIVE_CASES),
)
def test_recursive_data_types_expand_a_bounded_number_of_times(data_types, prop, value, expected):
    st = toskit.loads(_recursive(data_types, prop, value))
    assert [d.code for d in st.diagnostics if d.severity == "error"] == []
    assert st.node_templates["n"].properties["p"] == expected


def test_recursive_required_field_without_default_is_missing_not_a_crash():
    text = _recursive(
        "D0:\n  derived_from: tosca.datatypes.Root\n  properties:\n    d: {type: D0}\n",
        "{type: D0}",
    )
    st = toskit.loads(text)
    assert [d.code for d in st.diagnostics] == ["missing-property"]


_TYPE_NAMES = st_.sampled_from(["D0", "D1", "D2"])


@settings(max_examples=150, deadline=None)
@given(
    st_.dictionaries(
        _TYPE_NAMES,
        st_.dictionaries(
            st_.sampled_from(["a", "b"]),
            st_.fixed_dictionaries(
                {"type": st_.sampled_from(["D0", "D1", "D2", "integer", "list"])},
                optional={
                    "required": st_.booleans(),
                    "default": st_.sampled_from([{}, {"a": {}}, {"b": {"a": {}}}, [{}], 1, None]),
                    "entry_schema": st_.fixed_dictionaries({"type": _TYPE_NAMES}),
                },
            ),
            max_size=2,
        ),
        min_size=1,
        max_size=3,
    ),
    st_.recursive(
        st_.integers(0, 3),
        lambda c: (
            st_.dictionaries(st_.sampled_from(["a", "b"]), c, max_size=2) | st_.lists(c, max_size=2)
        ),
        max_leaves=6,
    ),
)
def test_data_types_referring_to_each_other_always_load(data_types, value):
    doc = {
        "tosca_definitions_version": "tosca_simple_yaml_1_3",
        "data_types": {
            name: {"derived_from": "tosca.datatypes.Root", "properties": props}
            for name, props in data_types.items()
        },
        "node_types": {
            "N": {"derived_from": "tosca.nodes.Root", "properties": {"p": {"type": "D0"}}}
        },
        "topology_template": {"node_templates": {"n": {"type": "N", "properties": {"p": value}}}},
    }
    result = toskit.loads(yaml.safe_dump(doc))
    node = result.node_templates["n"]
    assert all(isinstance(d.code, str) and d.message for d in result.diagnostics)
    node.property_table()  # provenance of every leaf is computable
    repr(result)


# ---- valid_source_node_types is a list of names ----


@pytest.mark.parametrize(
    ("written", "ok"),
    [("[App]", True), ("{App: null}", False), ("App", False), ("[App, 3]", False)],
    ids=["list", "map", "bare-name", "number-in-list"],
)
def test_valid_source_node_types_is_a_list_of_names(written: str, ok: bool) -> None:
    st = toskit.loads(
        "tosca_definitions_version: tosca_2_0\nnode_types:\n  App: {}\ncapability_types:\n"
        f"  Feature:\n    valid_source_node_types: {written}\n"
    )
    found = [d for d in errors(st) if d.code == "invalid-definition"]
    if ok:
        assert errors(st) == []
    else:
        (diag,) = found
        assert diag.message.startswith("'valid_source_node_types' must be a list of type names")
        assert diag.path == "capability_types.Feature.valid_source_node_types"


# ---- Interface types ----


INTERFACE_TYPE = """\
tosca_definitions_version: {version}
interface_types:
  Base:
    {derived}inputs:
      timeout: {timeout}
    operations:
      start:
        description: starts it
        {extra}
"""


def interface_type(major: int, timeout: str = "{type: integer}", extra: str = "") -> str:
    return INTERFACE_TYPE.format(
        version="tosca_2_0" if major == 2 else "tosca_simple_yaml_1_3",
        derived="" if major == 2 else "derived_from: tosca.interfaces.Root\n    ",
        timeout=timeout,
        extra=extra,
    )


def test_an_interface_type_declaring_operations_and_inputs_is_fine() -> None:
    assert errors(toskit.loads(interface_type(2))) == []


def test_an_interface_type_may_not_implement_an_operation_in_tosca_2_0() -> None:
    st = toskit.loads(interface_type(2, extra="implementation: scripts/start.sh"))
    (diag,) = errors(st)
    assert diag.code == "invalid-definition"
    assert diag.message.startswith("'implementation' is not allowed here: an interface type")
    assert diag.path == "interface_types.Base.operations.start.implementation"
    # TOSCA 1.x profiles in the wild do it; toskit keeps reading them.
    assert errors(toskit.loads(interface_type(1, extra="implementation: start.sh"))) == []


def test_interface_type_inputs_are_parameter_definitions_in_tosca_2_0() -> None:
    st = toskit.loads(interface_type(2, timeout="a bare value"))
    (diag,) = errors(st)
    assert (diag.code, diag.message) == (
        "invalid-definition",
        "a parameter definition must be a map, got string 'a bare value'",
    )
    assert diag.path == "interface_types.Base.inputs.timeout"


# ---- A map's key_schema must be a string type ----


@pytest.mark.parametrize(
    ("key_schema", "ok"),
    [
        ("string", True),
        ("Name", True),
        ("{type: string}", True),
        ("integer", False),
        ("{type: integer}", False),
        ("Point", False),
    ],
    ids=["string", "derived-from-string", "long-form", "integer", "long-integer", "complex"],
)
def test_a_map_key_schema_must_be_a_string_type(key_schema: str, ok: bool) -> None:
    st = toskit.loads(
        "tosca_definitions_version: tosca_2_0\ndata_types:\n  Name: {derived_from: string}\n"
        "  Point:\n    properties: {x: {type: integer}}\n"
        "node_types:\n  S:\n    properties:\n      m:\n        type: map\n"
        f"        key_schema: {key_schema}\n        entry_schema: integer\n"
    )
    if ok:
        assert errors(st) == []
    else:
        (diag,) = errors(st)
        assert diag.code == "invalid-definition"
        assert diag.message.startswith("a map's key_schema must be string or derive from it")
        assert (diag.line, diag.path) == (11, "node_types.S.properties.m.key_schema")
