"""spec/tosca.md §3: types, names, inheritance, refinement, imports."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import toskit
from toskit.tosca.profile import normative_registry, profile_diagnostics


def loads(text: str, **kwargs: object) -> toskit.ServiceTemplate:
    return toskit.loads(textwrap.dedent(text), **kwargs)  # type: ignore[arg-type]


def errors(st: toskit.ServiceTemplate) -> list[toskit.Diagnostic]:
    return [d for d in st.diagnostics if d.severity == "error"]


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
    assert errors(st) == []
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
        ("- loop.yaml", "import-cycle"),
    ],
    ids=["missing", "url", "cycle"],
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
        assert loaded.ok
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
