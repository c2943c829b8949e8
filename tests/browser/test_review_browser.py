"""Browser check of the review tutorial (06-review): the TemplateDiff view.

Renders ``notebooks/06-review.ipynb`` in Voila and Chromium, light and dark,
and checks what a reviewer reads in the diff view: the new error first,
values old → new with their sources, the explanation of a change made by
a layer, and a collapsed section that opens on a click. Screenshots:
``test-artifacts/06-review-diff-<theme>.png`` (the view) beside the
full-page ones of ``test_notebooks_browser``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_notebooks_browser import full_screenshot, open_notebook, python_errors

pytestmark = pytest.mark.browser

NOTEBOOK = "06-review.ipynb"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_review_diff_view(page, voila_url: str, theme: str, artifacts_dir: Path) -> None:
    from playwright.sync_api import expect

    open_notebook(page, voila_url, NOTEBOOK, theme)
    full_screenshot(page, artifacts_dir / f"06-review-page-{theme}.png")
    assert python_errors(page) == []

    view = page.locator(".toskit-template-diff").first
    expect(view).to_be_visible()
    # Voila scrolls inside its own container: grow the viewport to the whole
    # notebook so the element screenshot holds the whole view.
    height = page.evaluate("document.querySelector('#rendered_cells').scrollHeight")
    page.set_viewport_size({"width": 1200, "height": min(max(height, 900), 16_000)})
    view.screenshot(path=str(artifacts_dir / f"06-review-diff-{theme}.png"))
    page.set_viewport_size({"width": 1200, "height": 900})

    # New errors come first, as a badge and as the first section.
    expect(view.locator(".toskit-diff-flags .toskit-badge-error")).to_have_text("1 new error")
    sections = view.locator("details.toskit-section > summary")
    expect(sections.first).to_contain_text("Diagnostics introduced")

    # A value changed by a type default: old → new, its source, and why.
    # (the added node worker lists its own min_version first: take the changed row, the one
    # with an old value)
    row = (
        view.locator("tr", has_text="listener.tls.min_version")
        .filter(has=page.locator(".toskit-diff-old"))
        .first
    )
    expect(row).to_contain_text("'1.2'")  # text that reads as a number is quoted
    expect(row).to_contain_text("'1.3'")
    expect(row).to_contain_text("default: shop.Tls")
    expect(row).to_contain_text("not in the template: the default on shop.Tls changed")
    # The old value is struck through, the new one is not.
    old_cell = row.locator(".toskit-diff-old")
    assert old_cell.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"

    # The fixed diagnostics start collapsed and open on a click.
    fixed = view.locator("details.toskit-section", has_text="Diagnostics fixed")
    message = fixed.locator("td", has_text="fifty").first
    expect(message).to_be_hidden()
    fixed.locator("summary").first.click()
    expect(message).to_be_visible()

    # Text is readable in both themes: not the same colour as the page behind it.
    colour = row.locator("td.toskit-path").evaluate("e => getComputedStyle(e).color")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert colour != background
