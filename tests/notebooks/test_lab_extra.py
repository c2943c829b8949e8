"""`make lab` installs ``toskit[lab]`` and nothing else: every module a
tutorial imports must come with it (tutorial 05 once stopped Run All with
``ModuleNotFoundError: toscaparser``, a ``dev``-only package)."""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import re
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "notebooks" / "src").glob("*.py"))


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _extra(requirement: str) -> str | None:
    found = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", requirement)
    return found.group(1) if found else None


def lab_closure() -> set[str]:
    """The distributions `pip install .[lab]` brings: toskit's dependencies and
    its ``lab`` extra as pyproject.toml declares them, then every installed
    requirement of those (their own extras not taken)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    todo = [_name(r) for r in project["dependencies"] + project["optional-dependencies"]["lab"]]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name == "toskit":
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue  # reported by the test (its modules are then missing)
        todo.extend(_name(r) for r in requires if _extra(r) is None)
    return seen


def imports(source: Path) -> set[str]:
    """The top-level modules a tutorial's code imports (not the Python text it
    passes around as strings, such as the DSL examples)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_scan_sees_a_tutorial_import_of_a_third_party_package() -> None:
    everything = set().union(*(imports(s) for s in SOURCES))
    assert {"toskit", "pandas", "toscaparser"} <= everything
    assert "unfurl" not in everything  # only inside a string that toskit.dsl reads


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_every_import_of_a_tutorial_comes_with_the_lab_extra(source: Path) -> None:
    closure = lab_closure()
    providers = metadata.packages_distributions()
    missing = []
    for module in sorted(imports(source)):
        if module in sys.stdlib_module_names or module == "toskit":
            continue
        dists = {d.lower().replace("_", "-") for d in providers.get(module, [])}
        if not dists & closure:
            missing.append(
                f"{module} (from {', '.join(sorted(dists)) or 'no installed distribution'})"
            )
    assert not missing, f"{source.name} imports what `make lab` does not install: {missing}"
