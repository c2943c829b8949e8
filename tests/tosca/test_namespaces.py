"""Namespaced imports (#20 item 20; TOSCA 2.0 §6.8.4, 1.x ``namespace_prefix``).

Each document is read, checked and registered once, however many import
chains and namespaces reach it; nested namespaces (``a:b:Name``) are
found by walking the importers' namespace tables (docs/tosca.md,
"Namespaces"). The cases that used to be exponential run in a bounded
subprocess (tests/hostile/bounded.py) so a regression fails instead of
hanging the run.
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

import toskit

V2 = "tosca_definitions_version: tosca_2_0\n"
ROOT = Path(__file__).parents[2]


def _module(name: str, path: Path):
    """The module at ``path`` (outside the package), loaded once as ``name``."""
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


def _bounded():
    """tests/hostile/bounded.py (run a case in a subprocess under CPU/memory limits)."""
    return _module("hostile_bounded", ROOT / "tests" / "hostile" / "bounded.py")


def diamond(folder: Path, n: int) -> Path:
    """bench/bench_namespaces.py's namespace diamond of ``n`` files (the benchmark's case)."""
    return _module("bench_namespaces", ROOT / "bench" / "bench_namespaces.py").write_diamond(
        folder, n
    )


def write(path: Path, text: str) -> Path:
    """``text`` (after its version line, dedented) as the file ``path``."""
    head, _, body = text.partition("\n")
    if head.startswith("tosca_definitions_version"):
        text = head + "\n" + textwrap.dedent(body)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def v2(path: Path, text: str) -> Path:
    """``text`` as a TOSCA 2.0 file ``path`` (see :func:`write`)."""
    return write(path, V2 + text)


def test_a_17_file_namespace_diamond_parses_each_file_once(tmp_path: Path) -> None:
    """The issue's case (28 s, 1.47 GB, 655,412 types before): 17 parses, 85 types, bounded."""
    top = diamond(tmp_path, 17)
    out = _bounded().run_case(_bounded().counted_load(tmp_path, top), cpu=2.0, peak_mb=300)
    assert out.raised is None, out.message
    assert out.returned == {"parsed": 17, "distinct": 17, "own_types": 85, "diagnostics": []}


def test_a_30_file_diamond_stays_linear(tmp_path: Path) -> None:
    """2^29 namespace chains reach the last file: it is still registered once."""
    top = diamond(tmp_path, 30)
    out = _bounded().run_case(_bounded().counted_load(tmp_path, top), cpu=2.0, peak_mb=300)
    assert out.returned["parsed"] == 30
    assert out.returned["own_types"] == 150
    assert out.returned["diagnostics"] == []


def test_a_1x_namespace_prefix_diamond_is_linear_too(tmp_path: Path) -> None:
    for i in range(16):
        nxt = (
            f"imports:\n  - {{file: f{i + 1}.yaml, namespace_prefix: a}}\n"
            f"  - {{file: f{i + 1}.yaml, namespace_prefix: b}}\n"
            if i < 15
            else ""
        )
        parent = "tosca.nodes.Root" if i == 15 else "a:T"
        write(
            tmp_path / f"f{i}.yaml",
            f"tosca_definitions_version: tosca_simple_yaml_1_3\n{nxt}"
            f"node_types:\n  T: {{derived_from: '{parent}'}}\n",
        )
    out = _bounded().run_case(
        _bounded().counted_load(tmp_path, tmp_path / "f0.yaml"),
    )
    assert out.returned == {"parsed": 16, "distinct": 16, "own_types": 16, "diagnostics": []}


def test_a_mistake_in_a_file_imported_under_three_namespaces_is_reported_once(
    tmp_path: Path,
) -> None:
    v2(
        tmp_path / "lib.yaml",
        """
        node_types:
          Server:
            derived_from: Nowhere
            properties:
              port: {type: integr}
        """,
    )
    v2(
        tmp_path / "mid.yaml",
        """
        imports:
          - {url: lib.yaml, namespace: inner}
        """,
    )
    top = v2(
        tmp_path / "main.yaml",
        """
        imports:
          - {url: lib.yaml, namespace: a}
          - {url: lib.yaml, namespace: b}
          - {url: lib.yaml, namespace: c}
          - {url: mid.yaml, namespace: m}
        service_template:
          node_templates:
            s1: {type: 'a:Server', properties: {port: 1}}
            s2: {type: 'c:Server', properties: {port: 2}}
            s3: {type: 'm:inner:Server', properties: {port: 3}}
        """,
    )
    st = toskit.load(top)
    found = [(d.code, Path(d.file).name, d.line) for d in st.diagnostics]
    # One unknown parent, one unknown property type: each once, where written.
    assert found == [("unknown-type", "lib.yaml", 5), ("unknown-type", "lib.yaml", 7)]
    # The three namespaces name one type (registered once, under the first).
    assert st.node_templates["s1"].type is st.node_templates["s2"].type
    assert st.node_templates["s3"].type is st.types["a:Server"]
    assert "b:Server" not in st.types and "c:Server" not in st.types


def test_nested_namespaces_resolve_along_every_chain(tmp_path: Path) -> None:
    diamond(tmp_path, 6)
    top = v2(
        tmp_path / "main.yaml",
        """
        imports:
          - {url: f0.yaml, namespace: x}
        service_template:
          node_templates:
            first: {type: 'x:a:a:T1'}
            other: {type: 'x:b:a:T1'}
            deep: {type: 'x:b:b:b:b:b:T2', properties: {p2: 7}}
        """,
    )
    st = toskit.load(top)
    assert st.diagnostics == []
    nodes = st.node_templates
    # Registered once: every chain to f2 names the same type.
    assert nodes["first"].type is nodes["other"].type
    assert nodes["first"].type.name == "x:a:a:T1"
    assert st.lookup_type("node", "x:a:b:T1") is st.types["x:a:a:T1"]
    assert st.lookup_type("node", "x:b:a:b:T1") is st.types["x:a:a:a:T1"]
    # The chain of parents (through a: in each file) ends in f5's T2.
    assert nodes["deep"].type.name == "x:a:a:a:a:a:T2"
    assert nodes["deep"].properties == {"p2": 7}
    assert nodes["first"].properties == {"p1": 1}
    # Each file's five types once, and nothing per chain.
    assert sorted(n for n, t in st.types.items() if not t.normative and n.endswith("T0")) == [
        "x:T0",
        "x:a:T0",
        "x:a:a:T0",
        "x:a:a:a:T0",
        "x:a:a:a:a:T0",
        "x:a:a:a:a:a:T0",
    ]


def test_an_unknown_namespace_prefix_says_which_namespace(tmp_path: Path) -> None:
    v2(tmp_path / "lib.yaml", "node_types:\n  Server: {}\n")
    v2(tmp_path / "mid.yaml", "imports:\n  - {url: lib.yaml, namespace: lib}\n")
    top = v2(
        tmp_path / "main.yaml",
        """
        imports:
          - {url: mid.yaml, namespace: mid}
        node_types:
          Mine: {derived_from: 'nope:Server'}
        service_template:
          node_templates:
            ok: {type: 'mid:lib:Server'}
            typo: {type: 'mid:lbi:Server'}
            outer: {type: 'mud:lib:Server'}
            name: {type: 'mid:lib:Sever'}
        """,
    )
    st = toskit.load(top)
    by_line = {d.line: (d.code, d.message, d.hint) for d in st.diagnostics}
    assert [code for code, _, _ in by_line.values()] == ["unknown-type"] * 4
    assert by_line[6][2] == "no import defines the namespace 'nope' (namespaces there: mid)"
    assert by_line[10][2] == (
        "no import defines the namespace 'lbi' in namespace 'mid'; did you mean 'lib'?"
    )
    assert by_line[11][2] == "no import defines the namespace 'mud'; did you mean 'mid'?"
    # The namespaces exist: the hint is the closest type name.
    assert by_line[12][2] == "did you mean 'mid:lib:Server'?"


def test_a_namespace_with_nothing_close_lists_the_namespaces(tmp_path: Path) -> None:
    v2(tmp_path / "lib.yaml", "node_types:\n  Server: {}\n")
    st = toskit.loads(
        V2 + "imports:\n  - {url: lib.yaml, namespace: lib}\n"
        "service_template:\n  node_templates:\n    n: {type: 'zzzzzz:Server'}\n",
        name=str(tmp_path / "main.yaml"),
    )
    ((diag,),) = [st.diagnostics]
    assert diag.hint == "no import defines the namespace 'zzzzzz' (namespaces there: lib)"


def test_unnamespaced_imports_join_the_importers_namespace(tmp_path: Path) -> None:
    """§6.8.4: without ``namespace`` an import's types go into the importer's (root) namespace."""
    v2(
        tmp_path / "base.yaml",
        "node_types:\n  Base: {properties: {b: {type: integer, default: 1}}}\n",
    )
    v2(
        tmp_path / "lib.yaml",
        "imports: [base.yaml]\nnode_types:\n  Server: {derived_from: Base}\n",
    )
    top = v2(
        tmp_path / "main.yaml",
        """
        imports:
          - {url: lib.yaml, namespace: lib}
          - {url: base.yaml, namespace: other}
        service_template:
          node_templates:
            s: {type: 'lib:Server'}
            b: {type: 'lib:Base'}
            o: {type: 'other:Base'}
            plain: {type: Base}
        """,
    )
    st = toskit.load(top)
    assert [(d.code, d.line) for d in st.diagnostics] == [("unknown-type", 11)]  # plain Base
    nodes = st.node_templates
    assert nodes["s"].type.parent is st.types["lib:Base"]
    assert nodes["o"].type is nodes["b"].type  # one file, one type, two names
    assert nodes["s"].properties == {"b": 1}


def test_an_unknown_profile_namespace_is_opaque_along_any_chain(tmp_path: Path) -> None:
    v2(
        tmp_path / "mytypes.yaml",
        """
        imports:
          - {profile: io.kubernetes:1.30, namespace: k8s}
        node_types:
          SuperPod: {derived_from: 'k8s:Pod'}
        """,
    )
    top = v2(
        tmp_path / "main.yaml",
        """
        imports:
          - {url: mytypes.yaml, namespace: my}
          - {url: mytypes.yaml, namespace: again}
        service_template:
          node_templates:
            a: {type: 'my:k8s:Pod'}
            b: {type: 'again:k8s:Pod'}
            c: {type: 'again:SuperPod'}
        """,
    )
    st = toskit.load(top)
    # The unknown profile once (at its import), and nothing downstream of it.
    assert [d.code for d in st.diagnostics] == ["unknown-profile"]


def test_an_import_cycle_reached_along_two_namespaces_is_reported_once(tmp_path: Path) -> None:
    v2(tmp_path / "x.yaml", "imports:\n  - {url: y.yaml, namespace: y}\n")
    v2(tmp_path / "y.yaml", "imports:\n  - {url: x.yaml, namespace: x}\n")
    top = v2(
        tmp_path / "main.yaml",
        "imports:\n  - {url: x.yaml, namespace: a}\n  - {url: x.yaml, namespace: b}\n",
    )
    st = toskit.load(top)
    assert [d.code for d in st.diagnostics] == ["import-cycle"]


def test_the_same_file_under_one_namespace_twice_is_one_import(tmp_path: Path) -> None:
    v2(tmp_path / "lib.yaml", "node_types:\n  Server: {}\n")
    top = v2(
        tmp_path / "main.yaml",
        "imports:\n  - {url: lib.yaml, namespace: a}\n  - {url: ./lib.yaml, namespace: a}\n"
        "service_template:\n  node_templates:\n    s: {type: 'a:Server'}\n",
    )
    st = toskit.load(top)
    assert st.diagnostics == []
    assert [n for n, t in st.types.items() if not t.normative] == ["a:Server"]


@pytest.mark.parametrize("namespaced", [True, False])
def test_types_of_a_namespaced_file_see_the_loaded_documents_types(
    tmp_path: Path, namespaced: bool
) -> None:
    """Kept from before #20: a name not found in the file's own scope is looked up from the top."""
    v2(tmp_path / "lib.yaml", "node_types:\n  Server: {derived_from: Common}\n")
    ns = ", namespace: lib" if namespaced else ""
    top = v2(
        tmp_path / "main.yaml",
        f"imports:\n  - {{url: lib.yaml{ns}}}\nnode_types:\n  Common: {{}}\n",
    )
    st = toskit.load(top)
    assert st.diagnostics == []
    name = "lib:Server" if namespaced else "Server"
    assert st.types[name].parent is st.types["Common"]


def test_4000_unknown_parents_each_get_a_hint_within_the_bounds() -> None:
    """#20 item 21 (24 s before): one unknown-type with a hint per type, counted in full."""
    lines = ["tosca_definitions_version: tosca_2_0", "node_types:"]
    lines += [f"  Type{i}: {{derived_from: Typo{i}}}" for i in range(4000)]
    text = "\n".join(lines) + "\n"
    out = _bounded().run_case(
        f"""
        def case():
            import toskit
            st = toskit.loads({text!r}, max_per_code=None)
            return [len(st.diagnostics), sorted({{d.code for d in st.diagnostics}}),
                    sum(1 for d in st.diagnostics if d.hint)]
        """,
        cpu=2.0,
    )
    assert out.returned == [4000, ["unknown-type"], 4000]


def test_type_names_are_built_once_per_kind_and_rebuilt_when_types_are_added() -> None:
    """Every did-you-mean hint asks for them (#20 item 21): one tuple until types are added."""
    from toskit.tosca.types.registry import Registry, TypeSource

    st = toskit.loads(V2 + "node_types:\n  A: {}\n")
    registry = st.registry
    names = registry.names("node")
    assert registry.names("node") is names and "A" in names
    registry.add_sources([TypeSource("node", "B", {}, None, ("node_types", "B"))])
    again = registry.names("node")
    assert again is not names and again[:2] == ("A", "B")
    assert Registry(base=registry).names("node")[:2] == ("A", "B")


def _wide(folder: Path, files: int, same_namespace: bool) -> Path:
    """An index importing ``files`` documents, each importing ``common.yaml`` (under
    ``c``, or ``c<i>``) with one good type and two unknown parents."""
    v2(
        folder / "common.yaml",
        "imports:\n  - {profile: io.vendor:1, namespace: v}\n"
        "node_types:\n  Base: {derived_from: 'v:Thing'}\n",
    )
    for i in range(files):
        ns = "c" if same_namespace else f"c{i}"
        v2(
            folder / f"r{i}.yaml",
            f"imports:\n  - {{url: common.yaml, namespace: {ns}}}\nnode_types:\n"
            f"  R{i}: {{derived_from: '{ns}:Base'}}\n"
            f"  Bad{i}: {{derived_from: '{ns}:Nope{i}'}}\n"
            f"  Worse{i}: {{derived_from: 'q:Nope{i}'}}\n",
        )
    v2(folder / "index.yaml", "imports:\n" + "".join(f"  - r{i}.yaml\n" for i in range(files)))
    return v2(
        folder / "top.yaml",
        "imports:\n  - {url: index.yaml, namespace: rf}\n"
        "service_template:\n  node_templates:\n    a: {type: 'rf:R5'}\n    pod: {type: 'rf:R7'}\n",
    )


@pytest.mark.parametrize("same_namespace", [True, False], ids=["one-namespace", "a-namespace-each"])
def test_a_wide_profile_with_unknown_parents_stays_linear(
    tmp_path: Path, same_namespace: bool
) -> None:
    """A vendor profile's shape (#20: the 7,000-file Redfish profile hung): an index of
    1,000 files sharing one imported file, 2,000 unknown parents. Misses walk only the
    imports of the document they are written in (211 s for 3,000 files before)."""
    top = _wide(tmp_path, 1000, same_namespace)
    out = _bounded().run_case(
        _bounded().counted_load(tmp_path, top, max_per_code=None),
        cpu=4.0,  # parsing 1,003 files is most of it
    )
    assert out.raised is None, out.message
    result = out.returned
    assert result["parsed"] == 1003 and result["own_types"] == 3001
    codes = [d[0] for d in result["diagnostics"]]
    assert codes.count("unknown-type") == 2000 and codes.count("unknown-profile") == 1
    assert len(codes) == 2001


def test_a_missing_name_in_a_known_namespace_is_not_a_missing_namespace(tmp_path: Path) -> None:
    top = _wide(tmp_path, 3, same_namespace=False)
    st = toskit.load(top)
    hints = {d.message: d.hint for d in st.diagnostics if d.code == "unknown-type"}
    # c2 is imported by r2: the name is unknown, not the namespace.
    assert "no import" not in str(hints["node type 'rf:Bad2' derives from unknown type 'c2:Nope2'"])
    assert hints["node type 'rf:Worse2' derives from unknown type 'q:Nope2'"] == (
        "no import defines the namespace 'q' (namespaces there: c2)"
    )
    assert st.types["rf:R2"].parent is st.types["rf:c0:Base"]
    assert st.lookup_type("node", "rf:R1") is st.types["rf:R1"]
