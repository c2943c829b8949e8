"""Import cycles load (issue #38 item 6).

Neither TOSCA 1.3 nor 2.0 (§6.8.2) makes a repeated or cyclic import an
error, and real type libraries are built as cycles (ONAP SDC's normative
library: ``_index.yml`` imports each file, each imports ``_index.yml``
back). Each file is read once; a cycle is an ``info`` ``import-cycle``.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import toskit
import toskit.source.imports as source_imports

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"
V2 = "tosca_definitions_version: tosca_2_0\n"
ROOT = {V13: "tosca.nodes.Root", V2: "Root"}
TOPOLOGY = {V13: "topology_template", V2: "service_template"}


def _onap_library(folder: Path, version: str) -> Path:
    """_index.yml imports a.yml and b.yml; each imports _index.yml back; A derives from B."""
    (folder / "_index.yml").write_text(version + "imports:\n  - a.yml\n  - b.yml\n")
    (folder / "a.yml").write_text(
        version + "imports:\n  - _index.yml\nnode_types:\n  A:\n    derived_from: B\n"
    )
    (folder / "b.yml").write_text(
        version
        + "imports:\n  - _index.yml\nnode_types:\n  B:\n"
        + f"    derived_from: {ROOT[version]}\n    properties:\n      p: {{type: string}}\n"
    )
    template = folder / "t.yml"
    template.write_text(
        version
        + "imports:\n  - a.yml\n"
        + f"{TOPOLOGY[version]}:\n  node_templates:\n    x:\n      type: A\n"
        + "      properties: {p: hello}\n"
    )
    return template


@pytest.mark.parametrize("version", [V13, V2], ids=["1.3", "2.0"])
def test_an_index_library_built_as_a_cycle_loads(tmp_path: Path, version: str, monkeypatch) -> None:
    template = _onap_library(tmp_path, version)
    reads: list[str] = []
    real = source_imports.load_yaml_file

    def counting(name, **limits):
        reads.append(Path(name).name)
        return real(name, **limits)

    monkeypatch.setattr(source_imports, "load_yaml_file", counting)
    st = toskit.load(template)
    assert st.ok, [str(d) for d in st.diagnostics]
    cycles = [d for d in st.diagnostics if d.code == "import-cycle"]
    assert cycles and all(d.severity == "info" for d in cycles)
    assert [d for d in st.diagnostics if d.code != "import-cycle"] == []
    # A (read first) derives from B (read later, along the cycle): resolved
    assert st.types["A"].parent is st.types["B"]
    assert st.node_templates["x"].properties == {"p": "hello"}
    # each file is read once (the template itself is read by toskit.load)
    assert sorted(reads) == ["_index.yml", "a.yml", "b.yml"]


@pytest.mark.parametrize("version", [V13, V2], ids=["1.3", "2.0"])
def test_values_are_still_checked_across_a_cycle(tmp_path: Path, version: str) -> None:
    template = _onap_library(tmp_path, version)
    template.write_text(template.read_text().replace("{p: hello}", "{p: [1]}"))
    st = toskit.load(template)
    assert [d.code for d in st.diagnostics if d.severity == "error"] == ["type-mismatch"]


@pytest.mark.parametrize("version", [V13, V2], ids=["1.3", "2.0"])
def test_a_file_importing_itself_loads(tmp_path: Path, version: str) -> None:
    (tmp_path / "t.yaml").write_text(
        version
        + "imports:\n  - t.yaml\n  - ./t.yaml\n"
        + f"node_types:\n  N:\n    derived_from: {ROOT[version]}\n"
    )
    st = toskit.load(tmp_path / "t.yaml")
    assert st.ok and "N" in st.types
    assert {d.severity for d in st.diagnostics} == {"info"}


def test_a_namespaced_cycle_sees_the_other_files_names(tmp_path: Path) -> None:
    """x imports y as ``y:``, y imports x back as ``x:``: y's type may use ``x:X``."""
    (tmp_path / "x.yaml").write_text(
        V2 + "imports:\n  - {url: y.yaml, namespace: y}\n"
        "node_types:\n  X:\n    derived_from: Root\n  X2:\n    derived_from: y:Y\n"
    )
    (tmp_path / "y.yaml").write_text(
        V2 + "imports:\n  - {url: x.yaml, namespace: x}\nnode_types:\n  Y:\n    derived_from: x:X\n"
    )
    (tmp_path / "main.yaml").write_text(
        V2 + "imports:\n  - x.yaml\nservice_template:\n  node_templates:\n    n: {type: X2}\n"
    )
    st = toskit.load(tmp_path / "main.yaml")
    assert st.ok, [str(d) for d in st.diagnostics]
    assert [d.code for d in st.diagnostics] == ["import-cycle"]
    assert [t.name for t in st.node_templates["n"].type.ancestors][:2] == ["y:Y", "X"]


def test_a_cycle_inside_a_csar_loads(tmp_path: Path) -> None:
    archive = tmp_path / "app.csar"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr(
            "TOSCA-Metadata/TOSCA.meta", "TOSCA-Meta-File-Version: 1.0\nEntry-Definitions: t.yaml\n"
        )
        z.writestr(
            "t.yaml",
            V13 + "imports:\n  - lib/a.yaml\n"
            "topology_template:\n  node_templates:\n    n: {type: A}\n",
        )
        z.writestr(
            "lib/a.yaml", V13 + "imports:\n  - b.yaml\nnode_types:\n  A: {derived_from: B}\n"
        )
        z.writestr(
            "lib/b.yaml",
            V13 + "imports:\n  - a.yaml\nnode_types:\n  B: {derived_from: tosca.nodes.Root}\n",
        )
    st = toskit.load(archive)
    assert st.ok, [str(d) for d in st.diagnostics]
    assert [(d.code, d.severity) for d in st.diagnostics] == [("import-cycle", "info")]
    assert st.types["A"].parent is st.types["B"]
