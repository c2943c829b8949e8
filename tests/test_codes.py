"""Every diagnostic code the package uses is listed in ``toskit.codes`` (issue #28 item 4).

The package is read with :mod:`ast`: a kebab-case string given as the code
of a diagnostic factory (``Diagnostic(...)``, ``doc.diagnostic(...)``,
``check.report(...)``, ``CsarError(...)``, ...) or assigned to a name
``code``/``CODE`` is a code. A code missing from :data:`toskit.codes.CODES`
fails here; so does a listed code that the package no longer mentions.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import toskit
from toskit.codes import CODES, code_info
from toskit.diagnostics import SEVERITIES

PACKAGE = Path(toskit.__file__).parent
KEBAB = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)+$")

# Calls whose leading string arguments include a diagnostic code.
FACTORIES = {
    "Diagnostic",
    "diagnostic",
    "report",
    "_report",
    "_diagnostic",
    "_error",
    "error",
    "diag",
    "make_diagnostic",
    "problem",
    "CsarError",
    "ScalarError",
    "make",
    "FunctionError",
    "FunctionSyntaxError",
    "schema_error_message",
}


def _codes_in_package() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name == "codes.py" and path.parent == PACKAGE:
            continue
        rel = str(path.relative_to(PACKAGE))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            values: list[ast.expr] = []
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in FACTORIES:
                    values = list(node.args[:3])
                values += [k.value for k in node.keywords if k.arg == "code"]
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in ("code", "CODE") for t in node.targets
            ):
                values = [node.value]
                if isinstance(node.value, ast.IfExp):
                    values = [node.value.body, node.value.orelse]
            for v in values:
                if (
                    isinstance(v, ast.Constant)
                    and isinstance(v.value, str)
                    and KEBAB.match(v.value)
                ):
                    found.setdefault(v.value, set()).add(rel)
    return found


def test_every_code_the_package_uses_is_listed():
    found = _codes_in_package()
    assert len(found) > 40  # the scan works (it would find nothing if the factories were renamed)
    missing = {code: sorted(where) for code, where in found.items() if code not in CODES}
    assert not missing, f"codes used in toskit but not listed in toskit/codes.py: {missing}"


def test_every_listed_code_is_used_somewhere():
    text = "\n".join(
        p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py") if p.name != "codes.py"
    )
    stale = [code for code in CODES if f'"{code}"' not in text]
    assert not stale, f"listed in toskit/codes.py but used nowhere: {stale}"


def test_code_table_is_well_formed():
    for code, info in CODES.items():
        assert KEBAB.match(code), code
        assert info.code == code
        assert info.severity in SEVERITIES and set(info.severities) <= set(SEVERITIES)
        assert info.severity in info.severities
        assert info.description and "\n" not in info.description
    assert code_info("unknown-property").severity == "error"
    assert code_info("no-such-code") is None
