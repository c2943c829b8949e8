"""The package itself: the error hierarchy, sentinels, and a light import."""

from __future__ import annotations

import pickle
import subprocess
import sys

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
    err = ConditionError("SyntaxError", "Illegal character '='", expression="cluster:mode = 'x'", position=13)
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
    """``import toskit`` must not pull in pandas, lark or ipywidgets (they load lazily)."""
    code = (
        "import sys, toskit\n"
        "heavy = [m for m in ('pandas', 'lark', 'ipywidgets', 'anywidget') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_a_diagnostic_renders_as_escaped_html() -> None:
    d = toskit.Diagnostic("error", "type-mismatch", "got '<script>x</script>'", file="a.yaml", line=1)
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
