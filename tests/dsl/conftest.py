"""Shared fixtures for the DSL tests: seed files and a module writer."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from toskit.tosca.types.registry import KINDS

SEED_DIR = Path(__file__).parent / "seed"


@pytest.fixture
def seed_dir() -> Path:
    return SEED_DIR


@pytest.fixture
def write_module(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write dedented Python source to a fresh file and return its path."""
    counter = iter(range(1_000_000))

    def write(source: str, name: str | None = None) -> Path:
        path = tmp_path / (name or f"module_{next(counter)}.py")
        path.write_text(textwrap.dedent(source), encoding="utf-8")
        return path

    return write


def resolved(template) -> dict:
    """Node template name -> resolved properties."""
    return {name: node.properties for name, node in template.node_templates.items()}


def own_types(template) -> set[tuple[str, str]]:
    """(kind, name) of the template's non-normative types."""
    return {
        (t.kind, t.name)
        for kind in KINDS
        for t in template.types_of(kind).values()
        if not getattr(t, "normative", False)
    }


@pytest.fixture
def resolved_props():
    return resolved


@pytest.fixture
def own_type_names():
    return own_types
