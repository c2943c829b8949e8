"""Regression tests for API-contract fixes found by QA (diagnostic lists, defaults
inside collection entries, unshared values, recursive data types, misused entry points)."""

from __future__ import annotations

import textwrap

import toskit
from toskit.diagnostics import DiagnosticList

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"


def _text(body: str) -> str:
    return V13 + textwrap.dedent(body)


# ---- 1. diagnostics are a DiagnosticList ----


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
