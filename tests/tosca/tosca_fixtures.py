"""Helpers shared by the tests of toskit.tosca (imported, not pasted)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import toskit

FIXTURES = Path(__file__).parent / "fixtures"

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"


def text_1_3(body: str) -> str:
    """A TOSCA 1.3 document: the version line, then ``body`` dedented."""
    return V13 + textwrap.dedent(body)


def loads(text: str, **kwargs: object) -> toskit.ServiceTemplate:
    """``toskit.loads`` of dedented text."""
    return toskit.loads(textwrap.dedent(text), **kwargs)  # type: ignore[arg-type]


def errors(st: toskit.ServiceTemplate) -> list[toskit.Diagnostic]:
    """The diagnostics of severity ``error``."""
    return [d for d in st.diagnostics if d.severity == "error"]


def codes(st: toskit.ServiceTemplate) -> list[str]:
    """The codes of all diagnostics, in source order."""
    return [d.code for d in st.diagnostics]
