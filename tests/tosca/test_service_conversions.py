"""``ServiceTemplate.to_yaml`` / ``to_python`` (API.md; implemented by ``toskit.dsl``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tosca_fixtures import V13

import toskit
from toskit import dsl
from toskit.diagnostics import DiagnosticList

SEED = Path(__file__).resolve().parent.parent / "dsl" / "seed"


def resolved(template: toskit.ServiceTemplate) -> dict:
    return {name: node.properties for name, node in template.node_templates.items()}


@pytest.mark.parametrize("example", ["basic", "nested_merging"])
def test_to_yaml_then_load_keeps_the_resolved_properties(example: str) -> None:
    original = toskit.load(str(SEED / f"{example}.yaml"))
    text = original.to_yaml()
    assert text.startswith("tosca_definitions_version:")
    again = toskit.loads(text)
    assert resolved(again) == resolved(original)
    assert resolved(original)  # the seed has node templates to compare


@pytest.mark.parametrize("example", ["basic", "nested_merging"])
def test_yaml_to_python_to_yaml_keeps_the_resolved_properties(example: str, tmp_path) -> None:
    original = toskit.load(str(SEED / f"{example}.yaml"))
    source = original.to_python()
    assert source == dsl.template_to_python(original)
    path = tmp_path / "again.py"
    path.write_text(source, encoding="utf-8")
    from_python = dsl.load_module(path)
    assert resolved(from_python) == resolved(original)
    back = toskit.loads(from_python.to_yaml())
    assert resolved(back) == resolved(original)


# ---- ServiceTemplate.diagnostics is a DiagnosticList (with a view), still a list ----


def test_service_template_diagnostics_are_a_diagnostic_list_with_a_view():
    st = toskit.loads(V13 + "node_type: {}\n")
    assert isinstance(st.diagnostics, DiagnosticList)
    assert [d.code for d in st.diagnostics] == ["unknown-keyname"]
    html = st.diagnostics._repr_html_()
    assert "unknown-keyname" in html and "<script" not in html.lower()


def test_errors_and_warnings_are_diagnostic_lists_and_still_lists():
    st = toskit.loads(V13 + "node_type: {}\n")
    assert isinstance(st.errors, DiagnosticList) and isinstance(st.warnings, DiagnosticList)
    assert st.diagnostics == list(st.diagnostics)  # compares as a plain list
    assert len(st.errors) + len(st.warnings) <= len(st.diagnostics)
    assert st.diagnostics.ok == st.ok
