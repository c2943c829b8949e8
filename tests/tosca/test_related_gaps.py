"""Related locations of two findings (issue #28 item 1, gaps of the last session).

* An ``import-cycle`` names the other end of the cycle: the import that
  closes it is the finding's place; the file it re-enters, at that file's
  import that opened the cycle, is related.
* A ``type-mismatch``, ``constraint-violation`` or ``validation-failed`` on a
  template's value that overrides a type default relates the default's
  definition ("type default overridden here"); a finding on a value that
  overrides nothing has no such location.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import toskit
from toskit.diagnostics import Diagnostic

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"
V20 = "tosca_definitions_version: tosca_2_0\n"
OVERRIDDEN = "type default overridden here"


def _cycles(st: toskit.ServiceTemplate) -> list[Diagnostic]:
    return [d for d in st.diagnostics if d.code == "import-cycle"]


def test_a_cycle_relates_the_import_of_the_file_it_re_enters(tmp_path: Path) -> None:
    # main -> b -> c -> main: the finding is on c's import of main; main's
    # import of b (the one that opened the cycle) is related.
    (tmp_path / "main.yaml").write_text(V13 + "imports:\n  - x.yaml\n  - b.yaml\n")
    (tmp_path / "b.yaml").write_text(V13 + "imports: [c.yaml]\n")
    (tmp_path / "c.yaml").write_text(V13 + "imports:\n  - main.yaml\n")
    (tmp_path / "x.yaml").write_text(V13)
    (cycle,) = _cycles(toskit.load(tmp_path / "main.yaml"))
    assert Path(cycle.file or "").name == "c.yaml" and cycle.line == 3
    (related,) = cycle.related
    assert Path(related.file or "").name == "main.yaml"
    assert (related.line, related.column, related.end_column) == (4, 5, 11)  # "b.yaml"
    assert "re-entered" in related.label
    assert cycle.to_dict()["related"][0]["line"] == 4


@pytest.mark.parametrize("version", [V13, V20], ids=["1.3", "2.0"])
def test_a_namespaced_cycle_relates_the_import_too(tmp_path: Path, version: str) -> None:
    key = "namespace_prefix" if version == V13 else "namespace"
    (tmp_path / "x.yaml").write_text(version + f"imports:\n  - {{file: y.yaml, {key}: y}}\n")
    (tmp_path / "y.yaml").write_text(version + f"imports:\n  - {{file: x.yaml, {key}: x}}\n")
    (tmp_path / "main.yaml").write_text(version + "imports:\n  - x.yaml\n")
    (cycle,) = _cycles(toskit.load(tmp_path / "main.yaml"))
    assert Path(cycle.file or "").name == "y.yaml"
    (related,) = cycle.related
    assert Path(related.file or "").name == "x.yaml" and related.line == 3


def test_a_file_importing_itself_relates_the_file(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(V13 + "imports:\n  - s.yaml\n")
    (cycle,) = _cycles(toskit.load(tmp_path / "s.yaml"))
    (related,) = cycle.related
    assert Path(related.file or "").name == "s.yaml" and related.line == 1
    assert "re-enters" in related.label


TYPES = """node_types:
  Base:
    derived_from: tosca.nodes.Root
    properties:
      port: {type: integer, default: 5, constraints: [{in_range: [1, 10]}]}
      name: {type: string, default: x}
      conf: {type: map, entry_schema: integer, default: {a: 1}}
      plain: {type: integer, constraints: [{in_range: [1, 10]}]}
      rec: {type: Rec}
  Sub:
    derived_from: Base
    properties:
      port: {type: integer, default: 6}
data_types:
  Rec:
    derived_from: tosca.datatypes.Root
    properties:
      size: {type: integer, default: 3}
      note: {type: string, required: false}
"""


def _findings(properties: str) -> dict[str, Diagnostic]:
    text = (
        V13
        + TYPES
        + "topology_template:\n  node_templates:\n    n:\n      type: Sub\n      properties:\n"
        + properties
    )
    st = toskit.loads(text)
    return {".".join(map(str, d.subject.path)): d for d in st.errors if d.subject}


def _overridden(d: Diagnostic) -> list[tuple[str, int | None]]:
    return [(r.label, r.line) for r in d.related if r.label.startswith(OVERRIDDEN)]


def test_a_wrong_value_over_a_default_relates_the_nearest_default() -> None:
    found = _findings(
        "        port: 50\n"  # constraint-violation over Sub's default (line 14)
        "        name: [1]\n"  # type-mismatch over Base's default (line 7)
        "        conf: {a: x}\n"  # an entry of a map that replaced Base's default (line 8)
        "        rec: {size: big}\n"  # a data type's field over its field default (line 19)
    )
    assert found["port"].code == "constraint-violation"
    assert _overridden(found["port"]) == [(f"{OVERRIDDEN} (default: Sub)", 14)]
    assert found["name"].code == "type-mismatch"
    assert _overridden(found["name"]) == [(f"{OVERRIDDEN} (default: Base)", 7)]
    assert _overridden(found["conf.a"]) == [(f"{OVERRIDDEN} (default: Base)", 8)]
    assert _overridden(found["rec.size"]) == [(f"{OVERRIDDEN} (default: Rec)", 19)]


def test_a_wrong_value_that_overrides_nothing_has_no_default_related() -> None:
    found = _findings("        plain: 50\n        rec: {note: [1]}\n")
    assert found["plain"].code == "constraint-violation" and _overridden(found["plain"]) == []
    assert found["rec.note"].code == "type-mismatch" and _overridden(found["rec.note"]) == []


def test_a_wrong_default_itself_names_no_override() -> None:
    st = toskit.loads(
        V13 + "node_types:\n  T:\n    derived_from: tosca.nodes.Root\n    properties:\n"
        "      p: {type: integer, default: x}\n"
        "topology_template:\n  node_templates:\n    n: {type: T}\n"
    )
    wrong = [d for d in st.errors if d.code == "type-mismatch"]
    assert wrong and all(_overridden(d) == [] for d in wrong)


def test_a_failed_validation_clause_relates_the_default_it_overrides() -> None:
    st = toskit.loads(
        V20 + "node_types:\n  Base:\n    properties:\n"
        "      port: {type: integer, default: 5, validation: {$less_than: [$value, 10]}}\n"
        "service_template:\n  node_templates:\n    n:\n      type: Base\n"
        "      properties:\n        port: 50\n"
    )
    (failed,) = [d for d in st.errors if d.code == "validation-failed"]
    assert _overridden(failed) == [(f"{OVERRIDDEN} (default: Base)", 5)]
