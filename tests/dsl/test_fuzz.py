"""Hostile input never crashes the DSL: only AnnotationError / diagnostics / ToskitError."""

from __future__ import annotations

import string
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import plain_data, plain_scalars

from toskit import dsl
from toskit.dsl.annotations import AnnotationError, interpret

_SCALARS = plain_scalars(
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
)
_JSONISH = plain_data(_SCALARS, st.one_of(st.text(max_size=6), st.integers(0, 5)), max_leaves=12)
_TYPE_NAMES = st.one_of(
    st.sampled_from(
        ["string", "integer", "list", "map", "tosca.nodes.DBMS", "DBMS", "T1", "T2", "D1", "x.y"]
    ),
    st.text(max_size=6),
)


@st.composite
def _property(draw) -> Any:
    if draw(st.integers(0, 6)) == 0:
        return draw(_JSONISH)
    prop: dict[str, Any] = {}
    for key in draw(
        st.sets(
            st.sampled_from(
                [
                    "type",
                    "default",
                    "required",
                    "description",
                    "entry_schema",
                    "constraints",
                    "status",
                    "x",
                ]
            )
        )
    ):
        if key == "type":
            prop[key] = draw(_TYPE_NAMES)
        elif key == "entry_schema":
            prop[key] = draw(st.one_of(_TYPE_NAMES, st.fixed_dictionaries({"type": _TYPE_NAMES})))
        else:
            prop[key] = draw(_JSONISH)
    return prop


@st.composite
def _type_definition(draw) -> Any:
    if draw(st.integers(0, 8)) == 0:
        return draw(_JSONISH)
    body: dict[str, Any] = {}
    if draw(st.booleans()):
        body["derived_from"] = draw(_TYPE_NAMES)
    if draw(st.booleans()):
        body["description"] = draw(st.text(max_size=10))
    if draw(st.booleans()):
        body["properties"] = draw(st.dictionaries(st.text(max_size=6), _property(), max_size=3))
    if draw(st.booleans()):
        body[draw(st.sampled_from(["requirements", "attributes", "capabilities", "metadata"]))] = (
            draw(_JSONISH)
        )
    return body


@st.composite
def _documents(draw) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    names = st.one_of(
        st.sampled_from(["T1", "T2", "D1", "class", "dsl", "a.b", "a_b"]), st.text(max_size=6)
    )
    for section in ("data_types", "node_types"):
        if draw(st.booleans()):
            doc[section] = draw(st.dictionaries(names, _type_definition(), max_size=3))
    if draw(st.booleans()):
        templates = draw(
            st.dictionaries(
                names,
                st.one_of(
                    _JSONISH,
                    st.fixed_dictionaries(
                        {"type": _TYPE_NAMES},
                        optional={
                            "properties": st.dictionaries(st.text(max_size=5), _JSONISH, max_size=3)
                        },
                    ),
                ),
                max_size=3,
            )
        )
        doc["topology_template"] = draw(st.one_of(st.just({"node_templates": templates}), _JSONISH))
    if draw(st.booleans()):
        doc[draw(st.text(max_size=6))] = draw(_JSONISH)
    return doc


@settings(max_examples=150, deadline=None)
@given(document=_documents())
def test_any_document_gives_python_that_compiles(document) -> None:
    source = dsl.to_python_source(document)
    compile(source, "<generated>", "exec")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(document=_documents())
def test_any_document_gives_python_that_loads_without_a_traceback(tmp_path, document) -> None:
    path = tmp_path / "fuzz.py"
    path.write_text(dsl.to_python_source(document), encoding="utf-8")
    template = dsl.load_module(path)
    assert "python-error" not in {d.code for d in template.diagnostics}, [
        str(d) for d in template.diagnostics
    ]


_ANNOTATION_TEXT = st.one_of(
    st.text(alphabet=string.printable, max_size=20),
    st.lists(
        st.sampled_from(
            [
                "list[",
                "dict[str, ",
                "]",
                "int",
                "str",
                "|",
                "None",
                "Optional[",
                "Endpoint",
                ", ",
                "'",
                '"',
                ".",
            ]
        ),
        max_size=12,
    ).map("".join),
)


class Endpoint(dsl.DataEntity):
    ip: str


@settings(max_examples=300, deadline=None)
@given(text=_ANNOTATION_TEXT)
def test_string_annotations_give_a_schema_or_an_annotation_error(text) -> None:
    try:
        meaning = interpret(text, {"Endpoint": Endpoint, "Optional": __import__("typing").Optional})
    except AnnotationError as exc:
        assert exc.message
    else:
        assert isinstance(meaning.schema, dict)
