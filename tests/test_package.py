"""The package itself: the error hierarchy, sentinels, and a light import."""

from __future__ import annotations

import ast
import importlib.metadata
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import toskit
from toskit.errors import (
    ConditionError,
    FunctionError,
    FunctionSyntaxError,
    SchemaError,
    TemplateError,
    ToskitError,
)


@pytest.mark.parametrize(
    "cls", [TemplateError, FunctionError, FunctionSyntaxError, SchemaError, ConditionError]
)
def test_every_error_is_a_toskit_error(cls: type) -> None:
    assert issubclass(cls, ToskitError)
    assert getattr(toskit, cls.__name__) is cls


def test_template_error_lists_its_diagnostics() -> None:
    d1 = toskit.Diagnostic("error", "missing-property", "no port", file="a.yaml", line=3, column=5)
    d2 = toskit.Diagnostic("error", "unknown-type", "no such type", file="a.yaml", line=9, column=1)
    err = TemplateError.from_diagnostics([d1, d2])
    assert err.diagnostics == [d1, d2]
    assert "a.yaml:3:5: error[missing-property]: no port" in str(err)
    assert "a.yaml:9:1: error[unknown-type]: no such type" in str(err)


def test_condition_error_points_a_caret_at_the_position() -> None:
    err = ConditionError(
        "SyntaxError", "Illegal character '='", expression="cluster:mode = 'x'", position=13
    )
    assert str(err) == (
        "SyntaxError: Illegal character '='\n    cluster:mode = 'x'\n                 ^"
    )
    assert (err.kind, err.position, err.message) == ("SyntaxError", 13, "Illegal character '='")


def test_condition_error_without_position_is_one_line() -> None:
    err = ConditionError("RoleConflict", "Role 'a' in conflict with role 'b'.")
    assert str(err) == "RoleConflict: Role 'a' in conflict with role 'b'."


def test_condition_error_shows_line_breaks_as_spaces() -> None:
    err = ConditionError("SyntaxError", "Unexpected 'x'", expression="a\nx", position=2)
    assert str(err).splitlines()[1] == "    a x"


def test_function_syntax_error_exposes_its_first_diagnostic() -> None:
    d = toskit.Diagnostic("error", "malformed-function", "'$concat' beside other keys")
    err = FunctionSyntaxError("malformed", [d])
    assert err.diagnostic is d and err.diagnostics == [d]


def test_no_default_is_a_falsy_singleton_that_survives_pickling() -> None:
    assert not toskit.NO_DEFAULT
    assert repr(toskit.NO_DEFAULT) == "NO_DEFAULT"
    assert pickle.loads(pickle.dumps(toskit.NO_DEFAULT)) is toskit.NO_DEFAULT
    assert type(toskit.NO_DEFAULT)() is toskit.NO_DEFAULT


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        toskit.nope  # noqa: B018


def test_import_is_light() -> None:
    """``import toskit`` must not pull in pandas, ipywidgets or the layout engine (they load lazily)."""
    code = (
        "import sys, toskit\n"
        "heavy = [m for m in ('pandas', 'ipywidgets', 'anywidget', 'grandalf') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_a_diagnostic_renders_as_escaped_html() -> None:
    d = toskit.Diagnostic(
        "error", "type-mismatch", "got '<script>x</script>'", file="a.yaml", line=1
    )
    html = d._repr_html_()
    assert "type-mismatch" in html
    assert "<script" not in html.lower()


def test_schema_validation_results_render_as_html() -> None:
    from toskit import schema
    from toskit.diagnostics import DiagnosticList

    s = schema.load("types:\n- name: r\n  scalar: numeric\n")
    result = s.validate("x", "r")
    assert isinstance(result, DiagnosticList) and not result.ok
    assert result == list(result)  # still a plain list for programs
    assert "expected numeric" in result._repr_html_()
    assert s.validate(1, "r") == []


# ---- the README's dependency table tells the truth ----

ROOT = Path(__file__).resolve().parents[1]


def _declared_dependencies() -> dict[str, str]:
    """``[project] dependencies`` of pyproject.toml: normalised name -> requirement."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M)
    assert block, "pyproject.toml has no [project] dependencies list"
    requirements = re.findall(r'"([^"]+)"', block.group(1))
    return {_normalise(re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0]): r for r in requirements}


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _readme_table() -> list[tuple[str, list[str], str]]:
    """Rows of README's "Dependencies, and why" table: (package, modules, why)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Dependencies, and why", 1)[1]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if (
            not line.startswith("|")
            or len(cells) != 3
            or cells[0] in ("package", "")
            or set(cells[0]) <= set("-: ")
        ):
            continue
        package = cells[0].split("(")[0].strip()
        modules = re.findall(r"`(toskit(?:\.\w+)*)`", cells[1])
        rows.append((package, modules, cells[2]))
    return rows


def _imported_names(module: str) -> set[str]:
    """Top-level names imported anywhere in a toskit module or package."""
    path = ROOT.joinpath(*module.split("."))
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]
    names: set[str] = set()
    for file in files:
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
    return names


def test_the_readme_lists_exactly_the_declared_dependencies() -> None:
    rows = _readme_table()
    assert rows, "README.md has no 'Dependencies, and why' table"
    listed = {_normalise(package) for package, _, _ in rows}
    declared = set(_declared_dependencies())
    assert listed - declared == set(), "README lists packages pyproject.toml does not declare"
    assert declared - listed == set(), (
        "pyproject.toml declares dependencies without a row in README's "
        "'Dependencies, and why' table (package | used by | why)"
    )


def test_every_dependency_is_imported_by_the_modules_the_readme_names() -> None:
    import_names = importlib.metadata.packages_distributions()  # import name -> distributions
    for package, modules, why in _readme_table():
        assert modules and why, f"README row for {package} names no toskit module or no reason"
        provided = {
            name
            for name, dists in import_names.items()
            if package.lower() in {d.lower() for d in dists}
        }
        assert provided, f"{package} is not installed (pip install -e '.[dev]')"
        for module in modules:
            assert _imported_names(module) & provided, (
                f"README says {module} uses {package}, but it imports none of {sorted(provided)}"
            )


def test_lark_is_gone() -> None:
    """The condition parser is hand-written; lark was declared but never imported."""
    assert "lark" not in _declared_dependencies()
    assert all(_normalise(p) != "lark" for p, _, _ in _readme_table())
