"""``ServiceTemplate.to_yaml`` / ``to_python`` (API.md; implemented by ``toskit.dsl``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import toskit
from toskit import dsl

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
