"""After an unknown version, no cascade (issue #38 item 7).

An unknown ``tosca_definitions_version`` is one ``unknown-version`` error;
the document is read with the grammar (and normative types) of the version
the hint names, never as TOSCA 2.0 by default when it names a 1.x version.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import toskit
from toskit.tosca.load.versions import reading_of

LIBRARY_1X = """\
tosca_definitions_version: {version}
node_types:
  onap.Service:
    derived_from: tosca.nodes.Root
    properties:
      name:
        type: string
        constraints: [{{min_length: 1}}]
    requirements:
      - host:
          capability: tosca.capabilities.Container
          occurrences: [0, 1]
"""

LIBRARY_2 = """\
tosca_definitions_version: {version}
node_types:
  Service:
    derived_from: Root
    properties:
      name:
        type: string
        validation: {{$greater_or_equal: [{{$length: [$value]}}, 1]}}
"""


@pytest.mark.parametrize(
    ("written", "read_as"),
    [
        ("tosca_simple_yaml_1_1_0", "tosca_simple_yaml_1_1"),
        ("tosca_simple_yaml_1_0_0", "tosca_simple_yaml_1_0"),
        ("tosca_simple_yaml_1_3_0", "tosca_simple_yaml_1_3"),
        ("TOSCA_SIMPLE_YAML_1_2", "tosca_simple_yaml_1_2"),
        ("tosca_simple_yaml_1_4", "tosca_simple_yaml_1_3"),
        ("tosca_simple_yaml_1.3", "tosca_simple_yaml_1_3"),
        ("tosca_simple_profile_for_nfv_1_0", "tosca_simple_profile_for_nfv_1_0_0"),
        ("tosca_2_0_0", "tosca_2_0"),
        ("tosca_2_1", "tosca_2_0"),
        ("completely-unknown", None),
    ],
)
def test_reading_of(written: str, read_as: str | None) -> None:
    assert reading_of(written) == read_as


@pytest.mark.parametrize(
    "version", ["tosca_simple_yaml_1_1_0", "tosca_simple_yaml_1_3_0", "tosca_simple_yaml_1_4"]
)
def test_a_1x_library_with_an_unknown_version_has_no_2_0_cascade(version: str) -> None:
    st = toskit.loads(LIBRARY_1X.format(version=version))
    assert [d.code for d in st.diagnostics] == ["unknown-version"], [str(d) for d in st.diagnostics]
    [diag] = st.diagnostics
    assert st.version == reading_of(version)
    assert f"reading it as {st.version}" in diag.message
    assert diag.hint == f"did you mean '{st.version}'?"


def test_a_2_0_library_with_an_unknown_version_reads_as_2_0() -> None:
    st = toskit.loads(LIBRARY_2.format(version="tosca_2_0_0"))
    assert [d.code for d in st.diagnostics] == ["unknown-version"], [str(d) for d in st.diagnostics]
    assert st.version == "tosca_2_0"


def test_the_version_read_as_picks_its_normative_types() -> None:
    """1.1_0 sees the 1.1 types: BlockStorage has no ``name`` and needs ``size``."""
    text = (
        "tosca_definitions_version: tosca_simple_yaml_1_1_0\n"
        "topology_template:\n  node_templates:\n    disk:\n      type: tosca.nodes.BlockStorage\n"
        "      properties: {name: x, size: 1 GB}\n"
    )
    st = toskit.loads(text)
    assert [d.code for d in st.diagnostics] == ["unknown-version", "unknown-property"]


def test_imported_files_with_an_unknown_version_are_read_as_it_and_reported_once(
    tmp_path: Path,
) -> None:
    """ONAP: every file writes tosca_simple_yaml_1_1_0; one report per spelling and load."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(
            LIBRARY_1X.format(version="tosca_simple_yaml_1_1_0").replace(
                "onap.Service", f"onap.{name}"
            )
        )
    (tmp_path / "c.yaml").write_text(
        LIBRARY_1X.format(version="tosca_simple_yaml_1_0_0").replace("onap.Service", "onap.c")
    )
    (tmp_path / "t.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_1_0\n"
        "imports: [a.yaml, b.yaml, c.yaml]\n"
        "topology_template:\n  node_templates:\n    s: {type: onap.a, properties: {name: n}}\n"
    )
    st = toskit.load(tmp_path / "t.yaml")
    found = [(Path(d.file).name, d.code) for d in st.diagnostics]
    assert found == [("c.yaml", "unknown-version"), ("t.yaml", "unknown-version")], found


def test_a_1x_file_imported_by_a_2_0_one_with_an_unknown_version_is_read_as_1x(
    tmp_path: Path,
) -> None:
    (tmp_path / "lib.yaml").write_text(LIBRARY_1X.format(version="tosca_simple_yaml_1_3_0"))
    (tmp_path / "t.yaml").write_text("tosca_definitions_version: tosca_2_0\nimports: [lib.yaml]\n")
    st = toskit.load(tmp_path / "t.yaml")
    codes = [d.code for d in st.diagnostics]
    assert codes.count("unknown-version") == 1
    assert "unknown-keyname" not in codes


@pytest.mark.parametrize(
    ("value", "shown"), [("1.3", "1.3"), ("true", "true"), ("{a: b}", "a map"), ("[1]", "a list")]
)
def test_a_version_that_is_not_a_string_is_named_as_yaml_writes_it(value: str, shown: str) -> None:
    st = toskit.loads(f"tosca_definitions_version: {value}\n")
    [diag] = [d for d in st.diagnostics if d.code == "unknown-version"]
    assert f"tosca_definitions_version {shown};" in diag.message
    assert "True" not in diag.message and "dict" not in diag.message
