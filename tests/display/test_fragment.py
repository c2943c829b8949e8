"""Every fragment is self-contained and theme-aware."""

from __future__ import annotations

import re

import pytest
from fakes import sample_template
from htmlcheck import parse

from toskit.display import HTML, fallback_html, register, to_html
from toskit.display.html import css, fragment, text_value


def test_stylesheet_selectors_are_all_under_a_toskit_class():
    text = re.sub(r"/\*.*?\*/", "", css(), flags=re.S)
    selectors = []
    for block in re.findall(r"([^{}]+)\{", text):
        block = block.strip()
        if block.startswith("@media"):
            continue
        selectors.extend(s.strip() for s in block.split(","))
    assert selectors
    for selector in selectors:
        assert ".toskit-" in selector, selector


@pytest.mark.parametrize(
    "marker",
    [
        '[data-jp-theme-light="false"]',
        "body.vscode-dark",
        "@media (prefers-color-scheme: dark)",
        "var(--jp-content-font-color1,",
    ],
)
def test_stylesheet_has_theme_support(marker):
    assert marker in css()


def test_fragment_hides_html_until_styled_and_carries_fallback():
    html = fragment("<b>body</b>", "plain text", "thing")
    doc = parse(html)
    assert doc.tags.count("style") == 1
    assert ("div", "style", "display:none") in doc.attributes
    assert "".join(doc.fallback) == "plain text"
    assert ".toskit-text-fallback { display: none; }" in css()
    assert ".toskit-wrap { display: block !important; }" in css()


def test_no_view_uses_random_ids():
    html = to_html(sample_template())
    assert " id=" not in html


def test_unknown_objects_get_an_escaped_pre():
    class Thing:
        def __repr__(self):
            return "<Thing & co>"

    assert to_html(Thing()) == '<pre class="toskit-fallback">&lt;Thing &amp; co&gt;</pre>'


def test_a_failing_view_degrades_to_the_fallback():
    class Broken:
        def __repr__(self):
            return "Broken()"

    def view(obj):
        raise AttributeError("no attribute 'rows'")

    register(Broken, view)
    html = to_html(Broken())
    assert "toskit view failed: AttributeError" in html
    assert "Broken()" in html


def test_a_failing_repr_still_renders():
    class BadRepr:
        def __repr__(self):
            raise RuntimeError("boom")

    assert "repr failed: boom" in fallback_html(BadRepr())


def test_html_wrapper_displays_as_is():
    assert HTML("<b>x</b>")._repr_html_() == "<b>x</b>"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "null"),
        (True, "true"),
        (False, "false"),
        ("", '""'),
        ("plain", "plain"),
        (3, "3"),
        (2.5, "2.5"),
        ([1, "a", None], '[1, "a", null]'),
        ({"k": {"n": True}}, '{"k": {"n": true}}'),
        ("x" * 300, "x" * 199 + "…"),
    ],
    ids=["null", "true", "false", "empty", "string", "int", "float", "list", "map", "long"],
)
def test_values_read_like_yaml(value, text):
    assert text_value(value) == text


def test_calls_inside_values_show_their_notation():
    from toskit import functions

    call = functions.Call("get_input", ["port"])
    assert text_value({"a": call}) == '{"a": "' + str(call) + '"}'
    assert text_value(call) == str(call)


def test_diagnostic_lists_display_as_html_even_when_empty():
    from toskit.diagnostics import Diagnostic, DiagnosticList

    empty = DiagnosticList()
    assert empty == [] and empty.ok
    html = empty._repr_html_()
    assert "no diagnostics" in html and "toskit-badge-ok" in html
    full = DiagnosticList([Diagnostic("error", "bad-thing", "it broke", hint="fix it")])
    assert not full.ok
    assert "it broke" in full._repr_html_() and "fix it" in full._repr_html_()


def test_toskit_explore_and_options_are_the_display_ones():
    import toskit
    import toskit.widgets
    from toskit.display import options

    assert toskit.explore is toskit.widgets.explore
    assert toskit.options is options


def test_light_report_pages_drop_only_the_automatic_dark_blocks():
    from toskit.display.html import css_without_auto_dark

    light = css_without_auto_dark()
    assert "prefers-color-scheme" not in light
    assert '[data-jp-theme-light="false"]' in light  # explicit dark themes still apply
    assert light.count("{") == light.count("}")
    # Two media blocks went, each holding one rule.
    assert css().count("{") - light.count("{") == 4


def test_report_page_themes():
    from fakes import sample_template

    from toskit.display import render_page
    from toskit.display.html import css_without_auto_dark

    st = sample_template()
    assert f"<style>{css_without_auto_dark()}</style>" in render_page(st, theme="light")
    assert '<meta name="color-scheme" content="light">' in render_page(st, theme="light")
    assert f"<style>{css()}</style>" in render_page(st)
    assert '<meta name="color-scheme" content="light dark">' in render_page(st)
