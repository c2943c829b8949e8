"""Package boundaries hold (issue #15): no module reaches into another
package's private names, and no class is a "Mixin".

A *package* is a subpackage of ``toskit`` (``toskit.tosca``,
``toskit.display``, ``toskit.widgets`` …) or the root package, whose
modules are the files directly in ``toskit/`` (``toskit/__init__.py``,
``cli.py``, ``diagnostics.py``, ``terminal.py`` …). A module may use its
own package's underscore names and private modules; from any other package
it may use only public ones (no leading underscore in the name or in the
module path; dunders such as ``__version__`` are public).

Checked with ``ast`` over every module of ``toskit/``:

* ``from toskit.<pkg>… import _name`` (absolute or relative), and any
  import from a private module of another package (``toskit.functions._limits``);
* ``<alias>._name`` where ``<alias>`` is bound to a toskit module of
  another package (``import toskit.x.y as m``, ``from toskit.x import y``,
  or the dotted ``toskit.x.y._name``);
* a class whose name contains ``Mixin`` (the loader's mixins were replaced by
  phases over an explicit context; a base class says what it adds).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOSKIT = ROOT / "toskit"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(TOSKIT.rglob("*.py"))}


def package_of(module: str) -> str:
    """``toskit.tosca.values.check`` → ``toskit.tosca``; the modules at the top
    (``toskit.cli``, ``toskit.terminal``, ``toskit`` itself) → ``toskit``."""
    parts = module.split(".")
    if len(parts) > 1 and (TOSKIT / parts[1]).is_dir():
        return ".".join(parts[:2])
    return "toskit"


def _private_module(module: str) -> bool:
    """``toskit.functions._limits``: a module its package keeps to itself."""
    return any(_is_private(part) for part in module.split(".")[1:])


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The module an ``ImportFrom`` reads from, relative imports resolved."""
    if not node.level:
        return node.module or ""
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".")
    base = base if is_package else base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else ``None``."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    names.append(node.id)
    return ".".join(reversed(names))


def violations(module: str, source: str) -> list[str]:
    """Every cross-package use of a private name, and every Mixin class, in one module."""
    tree = ast.parse(source)
    here = package_of(module)
    found: list[str] = []
    aliases: dict[str, str] = {}  # local name → the toskit module it is bound to

    def where(node: ast.AST) -> str:
        return f"{module}:{getattr(node, 'lineno', '?')}"

    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and "Mixin" in node.name:
            found.append(f"{where(node)}: class {node.name} (a 'Mixin' class)")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _private_module(alias.name) and package_of(alias.name) != here:
                    found.append(f"{where(node)}: import {alias.name}")
                if alias.name.startswith("toskit"):
                    # ``import toskit.a.b`` binds ``toskit``; ``as m`` binds the module.
                    aliases[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )
        elif isinstance(node, ast.ImportFrom):
            source_module = _absolute(module, node)
            if not source_module.startswith("toskit"):
                continue
            if _private_module(source_module) and package_of(source_module) != here:
                found.append(f"{where(node)}: from {source_module} import …")
                continue
            for alias in node.names:
                full = f"{source_module}.{alias.name}"
                if full in MODULES:  # a module: its package is its own path
                    aliases[alias.asname or alias.name] = full
                    owner = package_of(full)
                else:
                    owner = package_of(source_module)
                if _is_private(alias.name) and owner != here:
                    found.append(f"{where(node)}: from {source_module} import {alias.name}")
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _is_private(node.attr)):
            continue
        dotted = _dotted(node.value)
        if dotted is None:
            continue
        head, _, rest = dotted.partition(".")
        if head not in aliases:
            continue
        target = ".".join(filter(None, [aliases[head], rest]))
        # Only names looked up on a module count (``toskit.x.y._z``), not on
        # objects that a module happens to hold.
        if target in MODULES and package_of(target) != here:
            found.append(f"{where(node)}: {dotted}.{node.attr}")
    return found


def test_no_module_uses_another_packages_private_names_or_a_mixin():
    found = [
        v
        for module, path in MODULES.items()
        for v in violations(module, path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_no_mixin_anywhere_in_the_source():
    # ``grep -rn Mixin toskit/`` finds nothing: not in comments or docstrings either.
    hits = [f"{m}" for m, p in MODULES.items() if "Mixin" in p.read_text(encoding="utf-8")]
    assert hits == []


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("toskit.widgets.x", "from toskit.display.tosca_views import _hidden\n", 1),
        ("toskit.widgets.x", "from toskit.display import tosca_views\ntosca_views._hidden()\n", 1),
        ("toskit.widgets.x", "import toskit.display.tosca_views as tv\ntv._hidden\n", 1),
        (
            "toskit.widgets.x",
            "import toskit.display.tosca_views\ntoskit.display.tosca_views._hidden\n",
            1,
        ),
        ("toskit.widgets.x", "from ..display.tosca_views import _hidden\n", 1),
        ("toskit.widgets.x", "from toskit import _runtime\n", 1),
        ("toskit.widgets.x", "from toskit._runtime import paused_gc\n", 1),
        ("toskit.widgets.x", "import toskit._runtime\n", 1),
        ("toskit.tosca.x", "from toskit.functions._limits import deep_recursion\n", 1),
        ("toskit.tosca.x", "from toskit.diagnostics import _hidden\n", 1),
        ("toskit.widgets.x", "class LoaderMixin:\n    pass\n", 1),
        # allowed: own package, public names, dunders, attributes of objects
        ("toskit.display.x", "from toskit.display.tosca_views import _hidden\n", 0),
        ("toskit.display.x", "from .tosca_views import _hidden\n", 0),
        ("toskit.widgets.x", "from toskit.display.tosca_views import node_diagnostics\n", 0),
        ("toskit.widgets.x", "from toskit import __version__\n", 0),
        ("toskit.cli", "from toskit._terminal import terminal_safe\n", 0),  # both at the root
        ("toskit.functions.x", "from toskit.functions._limits import deep_recursion\n", 0),
        (
            "toskit.widgets.x",
            "from toskit.display import tosca_views\ntosca_views.f()._private\n",
            0,
        ),
        ("toskit.widgets.x", "import json\njson._default_encoder\n", 0),
    ],
)
def test_the_scanner_finds_what_it_should(module, source, expected, monkeypatch):
    # The checker itself must be able to fail: each forbidden form is found.
    fake = {**MODULES, module: TOSKIT / Path(*module.split(".")[1:]).with_suffix(".py")}
    fake["toskit.display.tosca_views"] = TOSKIT / "display" / "tosca_views.py"
    fake["toskit._runtime"] = TOSKIT / "_runtime.py"
    monkeypatch.setitem(globals(), "MODULES", fake)
    assert len(violations(module, source)) == expected, violations(module, source)
