"""Bad Python gives diagnostics on the Python file and line, never a traceback."""

from __future__ import annotations

import pytest

from toskit import dsl
from toskit.errors import ToskitError


def _by_code(template, code):
    return [d for d in template.diagnostics if d.code == code]


def test_wrong_value_type_in_a_template_is_a_type_mismatch_at_the_keyword(write_module) -> None:
    path = write_module(
        """\
        import tosca
        from tosca import DataEntity


        class Endpoint(DataEntity):
            ip: str
            port: int


        class DatabaseService(tosca.nodes.DBMS):
            endpoint: Endpoint


        db = DatabaseService(
            "db",
            endpoint=Endpoint(
                ip="10.0.0.1",
                port="abc",
            ),
        )
        """
    )
    template = dsl.load_module(path)
    (mismatch,) = _by_code(template, "type-mismatch")
    assert mismatch.file == str(path)
    assert (mismatch.line, mismatch.column) == (18, 9)
    assert mismatch.source_line.strip() == 'port="abc",'
    assert "expected integer, got string 'abc'" in mismatch.message
    assert mismatch.path == "topology_template.node_templates.db.properties.endpoint.port"
    assert not template.ok


def test_default_of_the_wrong_type_is_reported_at_the_class_attribute(write_module) -> None:
    path = write_module(
        """\
        from tosca import DataEntity

        class Endpoint(DataEntity):
            ip: str = 42
            port: int = "abc"
            secure: bool = 1
            ratio: float = 3
        """
    )
    template = dsl.load_module(path)
    problems = {(d.line, d.message.split(": ", 2)[-1]) for d in _by_code(template, "type-mismatch")}
    assert problems == {
        (4, "expected string, got integer 42"),
        (5, "expected integer, got string 'abc'"),
        (6, "expected boolean, got integer 1"),
    }  # an integer default for a float is fine (TOSCA accepts it)


def test_data_class_default_of_another_class_is_a_type_mismatch(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class A(tosca.DataEntity):
            x: int = 1

        class B(tosca.DataEntity):
            y: int = 2

        class App(tosca.nodes.Root):
            a: A = B(y=3)
        """
    )
    (mismatch,) = _by_code(dsl.load_module(path), "type-mismatch")
    assert mismatch.line == 10
    assert "expected A, got B value" in mismatch.message


@pytest.mark.parametrize(
    ("annotation", "code", "fragment"),
    [
        ('"Missing"', "unknown-type", "unknown name 'Missing'"),
        ("int | str", "invalid-annotation", "a union of several types"),
        ('"list[Nope]"', "unknown-type", "unknown name 'Nope'"),
        ('"1 + 2"', "invalid-annotation", "unsupported annotation"),
        ("complex", "invalid-annotation", "cannot map the annotation complex"),
        ("tosca.nodes.Compute", "invalid-annotation", "is a node type"),
        ('"x y"', "invalid-annotation", "is not a Python expression"),
    ],
    ids=[
        "unknown-forward-ref",
        "union",
        "unknown-in-generic",
        "expression",
        "complex",
        "node-in-data",
        "syntax",
    ],
)
def test_annotations_without_tosca_meaning(write_module, annotation, code, fragment) -> None:
    path = write_module(
        f"""\
        import tosca

        class Data(tosca.DataEntity):
            ok: int = 1
            bad: {annotation}

        thing = tosca.nodes.Root("thing")
        """
    )
    template = dsl.load_module(path)
    (problem,) = _by_code(template, code)
    assert fragment in problem.message
    assert (problem.file, problem.line) == (str(path), 5)
    assert problem.path == "data_types.Data.properties.bad"
    # The rest of the module still loads.
    assert template.types["Data"].properties["ok"].default == 1
    assert "thing" in template.node_templates
    assert not _by_code(template, "missing-property")


def test_unknown_forward_reference_gets_a_did_you_mean(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class Endpoint(tosca.DataEntity):
            ip: str

        class Service(tosca.nodes.Root):
            endpoint: "Endpont"
        """
    )
    (problem,) = _by_code(dsl.load_module(path), "unknown-type")
    assert problem.hint == "did you mean 'Endpoint'?"


def test_python_exception_is_a_diagnostic_and_earlier_definitions_still_load(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class A(tosca.DataEntity):
            x: int = 1

        raise ValueError("boom")
        """
    )
    template = dsl.load_module(path)
    (error,) = _by_code(template, "python-error")
    assert (error.line, error.column) == (6, 1)
    assert "ValueError: boom" in error.message
    assert "A" in template.types


def test_name_error_hints_at_forward_references(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class Service(tosca.nodes.Root):
            endpoint: Endpoint
        """
    )
    (error,) = _by_code(dsl.load_module(path), "python-error")
    assert error.line == 4
    assert "NameError" in error.message
    assert "quoted" in error.hint


def test_syntax_error_is_a_diagnostic(write_module) -> None:
    path = write_module("import tosca\nclass A(tosca.DataEntity)\n    x: int\n")
    template = dsl.load_module(path)
    (error,) = template.diagnostics
    assert error.code == "python-error"
    assert (error.line, error.column) == (2, 26)
    assert "syntax error" in error.message
    assert template.node_templates == {}


def test_recursion_in_the_module_is_a_diagnostic(write_module) -> None:
    path = write_module(
        """\
        def f(n):
            return f(n + 1)

        f(0)
        """
    )
    (error,) = _by_code(dsl.load_module(path), "python-error")
    assert "RecursionError" in error.message


def test_derivation_cycle_is_reported_at_the_class(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class A(tosca.nodes.Root):
            _derived_from = "B"

        class B(tosca.nodes.Root):
            _derived_from = "A"

        a = A("a")
        """
    )
    (cycle,) = _by_code(dsl.load_module(path), "derivation-cycle")
    assert cycle.line in (3, 6)
    assert "A" in cycle.message and "B" in cycle.message


def test_a_value_that_contains_itself_is_a_value_cycle(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class App(tosca.nodes.Root):
            items: list

        loop = []
        loop.append(loop)
        app = App("app", items=loop)
        """
    )
    (cycle,) = _by_code(dsl.load_module(path), "value-cycle")
    assert cycle.line == 8


def test_two_classes_with_one_type_name(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class C(tosca.DataEntity):
            _type_name = "Dup"

        class D(tosca.DataEntity):
            _type_name = "Dup"
        """
    )
    (dup,) = _by_code(dsl.load_module(path), "duplicate-type")
    assert dup.line == 6
    assert "C and D" in dup.message


def test_template_without_a_name(write_module) -> None:
    path = write_module(
        """\
        import tosca

        named = tosca.nodes.Root()
        tosca.nodes.Root()
        """
    )
    template = dsl.load_module(path)
    assert "named" in template.node_templates  # the variable names it
    (missing,) = _by_code(template, "missing-template-name")
    assert missing.line == 4


def test_two_templates_with_one_name(write_module) -> None:
    path = write_module(
        """\
        import tosca

        a = tosca.nodes.Root("x")
        b = tosca.nodes.Root("x")
        """
    )
    (dup,) = _by_code(dsl.load_module(path), "duplicate-template")
    assert dup.line == 4


def test_unknown_field_is_unknown_property_at_the_keyword(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class Endpoint(tosca.DataEntity):
            ip: str
            port: int

        class Service(tosca.nodes.Root):
            endpoint: Endpoint

        s = Service("s", endpoint=Endpoint(ip="1", port=2, some_other_property="v"))
        """
    )
    (unknown,) = _by_code(dsl.load_module(path), "unknown-property")
    assert (unknown.line, unknown.column) == (10, 52)


def test_positional_data_fields_are_a_python_error(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class Endpoint(tosca.DataEntity):
            ip: str

        e = Endpoint("10.0.0.1")
        """
    )
    (error,) = _by_code(dsl.load_module(path), "python-error")
    assert "keywords only" in error.message and error.line == 6


def test_a_value_python_cannot_write_as_tosca(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class App(tosca.nodes.Root):
            thing: dict

        app = App("app", thing={"when": object()})
        """
    )
    (problem,) = _by_code(dsl.load_module(path), "type-mismatch")
    assert "a Python object cannot be written as a TOSCA value" in problem.message


def test_unannotated_plain_attribute_is_a_warning(write_module) -> None:
    path = write_module(
        """\
        import tosca

        class App(tosca.nodes.Root):
            port = 80
        """
    )
    template = dsl.load_module(path)
    (warning,) = _by_code(template, "unannotated-attribute")
    assert warning.severity == "warning" and warning.line == 4
    assert template.ok


def test_missing_file_raises_toskit_error(tmp_path) -> None:
    with pytest.raises(ToskitError):
        dsl.load_module(tmp_path / "nope.py")


def test_a_module_calling_sys_exit_is_a_diagnostic(tmp_path):
    import toskit
    from toskit import dsl

    path = tmp_path / "quits.py"
    path.write_text("import sys\nsys.exit(3)\n")
    st = dsl.load_module(path)
    assert isinstance(st, toskit.ServiceTemplate)
    (diag,) = [d for d in st.diagnostics if d.code == "python-error"]
    assert "SystemExit" in diag.message and diag.line == 2


@pytest.mark.parametrize("bad", [None, 5, b"x.py"])
def test_load_module_refuses_what_is_not_a_module_path_or_namespace(bad):
    import toskit
    from toskit import dsl

    with pytest.raises(toskit.ToskitError, match="load_module takes"):
        dsl.load_module(bad)
