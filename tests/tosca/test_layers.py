"""The sub-packages of ``toskit.tosca`` import one way (issue #28 item 5).

The layers, lowest first (docs/tosca.md, "Layers"):

* ``load/context.py`` and ``profiles/``: leaves. The context is Protocols and
  annotations; at run time it imports nothing of ``toskit.tosca``, so every
  phase may import it.
* ``types/`` → ``values/`` → ``model/`` → ``topology/``: a module may import
  its own sub-package and the ones before it, never one after it.
* ``load/`` (the loader and what only it calls: versions, grammar, keynames,
  imports, catalog, profile, anchors), ``explain/`` (it reads built
  results and loads files for ``toskit explain``) and the package's
  ``__init__``: on top, they may import every layer.

Checked with ``ast`` over every module of ``toskit/tosca``. Two kinds of
import are exempt, and both are counted below so the exemption stays
visible:

* under ``if TYPE_CHECKING:`` — annotations only, never run, so no layer
  loads a later one (``context.py`` names every phase's types this way);
* inside a function — a result object's method reaching a later stage on
  demand (``ServiceTemplate.topology()``, ``.explain()``); the import runs
  when the method is called, so importing the lower layer never loads the
  higher one, and there is no import cycle at load time.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOSCA = ROOT / "toskit" / "tosca"

# Rank of each sub-package: a module may import ranks <= its own.
# explain/ reads built results (NodeTemplate, FindingIndex) and loads a file
# for ``toskit explain``: it sits on top with the loader.
RANK = {
    "profiles": 0,
    "types": 1,
    "values": 2,
    "model": 3,
    "topology": 4,
    "load": 5,
    "explain": 5,
}
LEAVES = {"toskit.tosca.load.context": 0}
TOP = 6  # toskit/tosca/__init__.py


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def rank(module: str) -> int:
    """The layer of a ``toskit.tosca`` module (its sub-package's, or a leaf's)."""
    if module in LEAVES:
        return LEAVES[module]
    parts = module.split(".")
    if len(parts) < 3:
        return TOP
    return RANK[parts[2]]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.Module) -> list[tuple[str, str, int]]:
    """``(imported module, where, line)``: where is ``run`` (module level),
    ``typing`` (under ``if TYPE_CHECKING:``) or ``function``."""
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(node, ast.If) and child in node.body and _is_type_checking(node.test):
                inner = "typing"
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = "function" if inner == "run" else inner
            if isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                if child.module == "toskit.tosca":
                    found.extend(
                        (f"toskit.tosca.{a.name}", inner, child.lineno) for a in child.names
                    )
                else:
                    found.append((child.module, inner, child.lineno))
            elif isinstance(child, ast.Import):
                found.extend((alias.name, inner, child.lineno) for alias in child.names)
            visit(child, inner)

    visit(tree, "run")
    return found


def edges() -> list[tuple[str, str, str, int]]:
    """Every import between ``toskit.tosca`` modules: (importer, imported, where, line)."""
    out = []
    for path in sorted(TOSCA.rglob("*.py")):
        module = _module_name(path)
        for target, where, line in imports(ast.parse(path.read_text(encoding="utf-8"))):
            if target.startswith("toskit.tosca.") and target.split(".")[2] in RANK:
                out.append((module, target, where, line))
    return out


def test_no_back_edge_at_run_time() -> None:
    back = [
        f"{module} imports {target} (line {line})"
        for module, target, where, line in edges()
        if where == "run" and rank(target) > rank(module)
    ]
    assert back == [], "a lower layer imports a higher one:\n" + "\n".join(back)


def test_context_is_a_leaf() -> None:
    tree = ast.parse((TOSCA / "load" / "context.py").read_text(encoding="utf-8"))
    run_time = [t for t, where, _ in imports(tree) if where == "run" and t.startswith("toskit.")]
    assert all(not t.startswith("toskit.tosca") for t in run_time), run_time


def test_the_checker_sees_back_edges() -> None:
    """The walk finds what it must: a module-level import is ``run``, one under
    TYPE_CHECKING is ``typing``, one in a method is ``function``."""
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "from toskit.tosca.model.template import NodeTemplate\n"
        "if TYPE_CHECKING:\n"
        "    from toskit.tosca.topology.model import Topology\n"
        "class A:\n"
        "    def f(self):\n"
        "        from toskit.tosca.load import loader\n"
    )
    found = [(t, w) for t, w, _ in imports(tree) if t.startswith("toskit")]
    assert found == [
        ("toskit.tosca.model.template", "run"),
        ("toskit.tosca.topology.model", "typing"),
        ("toskit.tosca.load", "function"),
    ]
    assert rank("toskit.tosca.model.template") > rank("toskit.tosca.values.check")
    assert rank("toskit.tosca.load.context") < rank("toskit.tosca.types.registry")
    assert rank("toskit.tosca.load.loader") > rank("toskit.tosca.topology.layout")
    assert rank("toskit.tosca.explain.build") > rank("toskit.tosca.model.template")


def test_exempt_imports_are_few() -> None:
    """Imports of a later layer inside functions: each is a result object's
    method reaching a later stage on demand. Counted so a new one is a decision."""
    lazy = sorted(
        f"{module} -> {target}"
        for module, target, where, _ in edges()
        if where == "function" and rank(target) > rank(module)
    )
    assert lazy == [
        "toskit.tosca.model.service -> toskit.tosca.explain",
        "toskit.tosca.model.service -> toskit.tosca.topology.model",
        "toskit.tosca.model.template -> toskit.tosca.explain",
    ], lazy


def test_tosca_never_imports_display_when_it_loads() -> None:
    """``toskit.display`` sits above ``toskit.tosca``: a tosca object's view or
    drawing (``Topology.to_svg()`` → ``toskit.display.topology_svg``) is
    imported inside the method that returns it."""
    run_time = [
        f"{path.relative_to(TOSCA)}:{line}"
        for path in sorted(TOSCA.rglob("*.py"))
        for target, where, line in imports(ast.parse(path.read_text(encoding="utf-8")))
        if where == "run" and target.startswith("toskit.display")
    ]
    assert run_time == []
    drawing = [
        path.name
        for path in sorted(TOSCA.rglob("*.py"))
        if "def render_svg" in path.read_text(encoding="utf-8")
        or "SVG_STYLE =" in path.read_text(encoding="utf-8")
    ]
    assert drawing == []
