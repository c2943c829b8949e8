"""The HTML view of a TemplateDiff: content, grouping, bounds, escaping."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from compare_fixtures import BASE, load

import toskit
from toskit.compare.model import (
    DiagnosticChange,
    PropertyDefinitionChange,
    RequirementChange,
    TemplateChange,
    TemplateDiff,
    TypeChange,
    ValueChange,
)
from toskit.display.compare_view import diff_page, template_diff_html

# The display tests' structural checks (one stylesheet, no script, known tags).
sys.path.insert(0, str(Path(__file__).parent.parent / "display"))
from htmlcheck import HOSTILE, PAYLOAD, assert_payload_is_text, assert_safe, body, parse  # noqa: E402


def _diff() -> TemplateDiff:
    new = BASE.replace("default: 5432", "default: 6543").replace("replicas: 2", "replicas: two")
    return toskit.compare(load(BASE, "old.yaml"), load(new, "new.yaml"))


def test_repr_html_is_the_view():
    d = _diff()
    html = d._repr_html_()
    assert "toskit view failed" not in html
    assert html == template_diff_html(d)
    assert_safe(html)


def test_values_show_old_new_and_both_sources():
    html = body(template_diff_html(_diff()))
    text = "".join(parse(html).text)
    assert "endpoint.port" in text and "5432" in text and "6543" in text
    assert "default: my.Endpoint" in text
    assert "not in the template: the default on my.Endpoint changed" in text
    assert text.index("Diagnostics introduced") < text.index("Values")  # new errors first
    assert "1 new error" in text


def test_source_change_shows_both_pills():
    new = BASE.replace("        name: main\n", "        name: main\n        replicas: 5\n")
    html = template_diff_html(toskit.compare(load(BASE), load(new)))
    text = "".join(parse(body(html)).text)
    assert "default:my.Db→template" in text.replace(" ", "")
    assert "not in the template" not in text  # the template wrote the new value


def test_unchanged_templates_are_only_counted():
    new = BASE.replace("replicas: 2", "replicas: 3")
    html = template_diff_html(toskit.compare(load(BASE), load(new)))
    text = "".join(parse(body(html)).text)
    assert "1 template unchanged (not shown)" in text
    assert "db" not in [
        t.strip() for t in parse(body(html)).text
    ]  # the unchanged node is not listed


def _many(n: int) -> TemplateDiff:
    values = tuple(
        ValueChange(
            f"node{i}", "node", "port", "changed", i, i + 1, "template", "template", "integer"
        )
        for i in range(n)
    )
    return TemplateDiff("a", "b", "v", "v", values=values)


def test_few_templates_open_many_collapsed():
    few = template_diff_html(_many(3))
    assert few.count('<details class="toskit-section" open>') == 4  # Values + 3 templates
    many = template_diff_html(_many(20))
    assert many.count('<details class="toskit-section" open>') == 1  # only Values


def test_templates_bounded_by_display_max_nodes():
    with toskit.options.context(display_max_nodes=5):
        html = template_diff_html(_many(12))
    assert "… 7 more templates" in html
    assert "node11" not in body(html)


def test_page_is_unbounded_and_standalone():
    with toskit.options.context(display_max_nodes=5):
        page = diff_page(_many(12))
    assert page.startswith("<!DOCTYPE html>") and "node11" in page
    assert_safe(page)
    with pytest.raises(AssertionError):  # the light page drops the auto-dark blocks
        assert_safe(diff_page(_many(1), theme="light"))


def test_no_changes():
    d = toskit.compare(load(BASE), load(BASE))
    text = "".join(parse(body(template_diff_html(d))).text)
    assert "no changes" in text


def test_every_section_escapes_user_text():
    diag = toskit.Diagnostic("error", "type-mismatch", PAYLOAD, path=PAYLOAD)
    d = TemplateDiff(
        PAYLOAD,
        PAYLOAD,
        PAYLOAD,
        PAYLOAD + "2",
        types=(
            TypeChange(
                PAYLOAD,
                PAYLOAD,
                "changed",
                (PAYLOAD, PAYLOAD),
                (
                    PropertyDefinitionChange(PAYLOAD, "default", PAYLOAD, PAYLOAD),
                    PropertyDefinitionChange(PAYLOAD, "added", None, PAYLOAD),
                ),
            ),
        ),
        templates=(
            TemplateChange(PAYLOAD, "node", "retyped", PAYLOAD, PAYLOAD),
            TemplateChange(PAYLOAD + "x", "node", "added", None, PAYLOAD),
        ),
        values=(
            ValueChange(
                PAYLOAD,
                PAYLOAD,
                PAYLOAD,
                "changed",
                PAYLOAD,
                {PAYLOAD: [PAYLOAD]},
                PAYLOAD,
                "input: " + PAYLOAD,
                PAYLOAD,
            ),
        ),
        requirements=(RequirementChange(PAYLOAD, PAYLOAD, 1, PAYLOAD, None),),
        diagnostics=(DiagnosticChange("introduced", diag), DiagnosticChange("fixed", diag)),
        inputs=((PAYLOAD, PAYLOAD, 1),),
    )
    html = template_diff_html(d)
    assert_payload_is_text(html)
    for piece in HOSTILE:
        assert piece not in html  # never raw, anywhere (fallback included)
    page = diff_page(d)
    assert "<script>" not in page and "<img" not in page


def test_new_sections_escape_user_text():
    """Issue #29: fields as written, renames, moves, locations, what was not compared."""
    from toskit.compare import FieldChange

    diag = toskit.Diagnostic(
        "error", "type-mismatch", PAYLOAD, path=PAYLOAD, file=PAYLOAD, line=3, column=4
    )
    fields = tuple(
        FieldChange(
            section,
            PAYLOAD,
            path,
            change,
            PAYLOAD,
            {PAYLOAD: PAYLOAD},
            PAYLOAD,
            PAYLOAD,
            PAYLOAD,
            PAYLOAD,
        )
        for section in ("node_templates", "node_types", PAYLOAD)
        for path, change in (
            (PAYLOAD, "changed"),
            (PAYLOAD, "renamed"),
            ("", "renamed"),
            ("", "moved"),
            (PAYLOAD, "added"),
            (PAYLOAD, "removed"),
        )
    )
    d = TemplateDiff(
        PAYLOAD,
        PAYLOAD,
        types=(TypeChange(PAYLOAD, "node", "renamed", None, (), PAYLOAD),),
        templates=(TemplateChange(PAYLOAD, "node", "renamed", PAYLOAD, PAYLOAD, PAYLOAD),),
        values=(
            ValueChange(
                PAYLOAD,
                "node",
                PAYLOAD,
                "renamed",
                PAYLOAD,
                PAYLOAD,
                PAYLOAD,
                PAYLOAD,
                PAYLOAD,
                PAYLOAD,
                PAYLOAD,
                PAYLOAD,
                PAYLOAD,
            ),
        ),
        diagnostics=(DiagnosticChange("introduced", diag),),
        fields=fields,
        not_compared=(PAYLOAD,),
    )
    html = template_diff_html(d)
    assert_payload_is_text(html)
    for piece in HOSTILE:
        assert piece not in html
    page = diff_page(d)
    assert "<script>" not in page and "<img" not in page
    assert "As written" in html and "not compared" in html and "renamed" in html


@pytest.mark.parametrize(
    ("old_source", "new_source", "note"),
    [
        ("input: port", "input: port", "not in the template: the value of port changed"),
        ("default: A", "default: B", "not in the template: now set by default: B"),
        ("template", "template", None),
        ("default: A", "template", None),
    ],
    ids=["input", "other-layer", "template", "to-template"],
)
def test_why_note(old_source, new_source, note):
    d = TemplateDiff(
        "a", "b", values=(ValueChange("n", "node", "p", "changed", 1, 2, old_source, new_source),)
    )
    text = "".join(parse(body(template_diff_html(d))).text)
    if note is None:
        assert "not in the template" not in text
    else:
        assert note in text


def test_chips_count_in_words():
    text = "".join(parse(body(template_diff_html(_many(1)))).text)
    assert "1 value" in text and "1 values" not in text
    text = "".join(parse(body(template_diff_html(_many(2)))).text)
    assert "2 values" in text


def test_number_like_text_is_quoted():
    d = TemplateDiff(
        "a",
        "b",
        values=(ValueChange("n", "node", "port", "changed", 8443, "8443", "template", "template"),),
    )
    text = "".join(parse(body(template_diff_html(d))).text)
    assert "8443→'8443'" in text.replace(" ", "")


@pytest.mark.parametrize("word", ["on", "off", "yes", "8443", "null", " padded", "two\nlines"])
def test_text_that_reads_as_another_kind_is_quoted_as_in_the_text_review(word):
    import json

    from toskit.compare.text import short

    new = BASE.replace("replicas: 2", f"replicas: {json.dumps(word)}")
    diff = toskit.compare(load(BASE), load(new))
    text = "".join(parse(body(template_diff_html(diff))).text)
    assert short(word).startswith("'")  # the text review quotes it
    assert short(word) in text, (short(word), text)
    assert short(word) in str(diff)
