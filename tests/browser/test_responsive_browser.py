"""Issue #35 item 6: every view and widget of the tutorials reads where
people use them: at 900 px, and at 1280 px with JupyterLab's sidebar open
(a 300 px column taken off the page's left side), in light and dark.

For each tutorial (rendered by Voila, every cell run) and each width:

* no table column, header or control of a toskit view or widget lies
  outside its output area (``getBoundingClientRect`` of each ``th``,
  ``td``, button, select, input against the ``.jp-OutputArea-output`` that
  holds it; a drawing's own scroll box, ``.toskit-topology-drawing``, is
  measured as a whole; a pandas DataFrame's table is checked apart, below);
* a pandas DataFrame's table (``to_frame()``: pandas' HTML, the front end's
  styles) fits its output area at 1280 px with the sidebar, and at 900 px
  fits or scrolls sideways in a box inside it, so every column is in reach;
* no control's words are cut: a button's, label's or checkbox's text fits
  its box, and a filter box's placeholder fits its text area;
* no text of a trace breaks inside a token (two word characters on two
  lines), measured character by character with DOM ranges;
* axe-core finds no serious or critical WCAG 2 A/AA violation;
* a screenshot of the whole notebook is saved to ``test-artifacts/``
  (``responsive-<notebook>-<width>-<theme>.png``) for a person to look at.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_notebooks_browser import axe_violations, full_screenshot, open_notebook, python_errors

pytestmark = pytest.mark.browser

NOTEBOOKS = sorted(
    p.name for p in (Path(__file__).resolve().parents[2] / "notebooks").glob("0[0-7]-*.ipynb")
)
# (label, viewport width, sidebar width): JupyterLab at 900 px, and at
# 1280 px with the file browser open (its default).
WIDTHS = [("900", 900, 0), ("1280-sidebar", 1280, 300)]
SIDEBAR_CSS = (
    "#rendered_cells {{ margin-left: {px}px !important; width: calc(100% - {px}px) !important; }}"
)

OUTSIDE = """() => {
    const out = [];
    for (const area of document.querySelectorAll('.jp-OutputArea-output')) {
        const box = area.getBoundingClientRect();
        if (!box.width) continue;
        const items = area.querySelectorAll(
            'th, td, button, select, input, textarea, .widget-label, .toskit-topology-drawing');
        for (const el of items) {
            // toskit's views and widgets; a pandas DataFrame's own table (to_frame)
            // scrolls sideways in JupyterLab by design and is not toskit's to lay out.
            if (!el.closest('.toskit-wrap, .jupyter-widgets') || el.closest('table.dataframe')) continue;
            if (el.closest('.toskit-topology-drawing') && !el.matches('.toskit-topology-drawing')) continue;
            if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;  // not shown
            const r = el.getBoundingClientRect();
            if (!r.width || !r.height) continue;
            if (r.left < box.left - 1 || r.right > box.right + 1) {
                const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 60);
                out.push(`${el.tagName.toLowerCase()}.${el.className || ''} "${text}": `
                    + `${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(box.left)}..${Math.round(box.right)}`);
            }
        }
    }
    return out.slice(0, 20);
}"""

# pandas DataFrame tables (``to_frame()``): pandas writes them and the front
# end styles them (a stored or untrusted notebook keeps no stylesheet of
# toskit's for them), so the tutorials choose their columns: at 1280 px with
# the sidebar every frame fits its output area; at 900 px a wider one sits in
# a box that scrolls sideways inside the output area (JupyterLab's and
# Voila's output area, ``overflow-x: auto``), so every column is in reach.
# (Whether the scroll bar shows is the browser's: the headless one of these
# checks hides every scroll bar, so it is not measured.)
FRAMES = """(mustFit) => {
    const out = [];
    for (const table of document.querySelectorAll('.jp-OutputArea-output table.dataframe')) {
        const area = table.closest('.jp-OutputArea-output');
        const box = area.getBoundingClientRect();
        const r = table.getBoundingClientRect();
        if (!r.width) continue;
        const head = Array.from(table.querySelectorAll('thead th')).map((th) => th.textContent.trim()).join(',');
        if (r.left >= box.left - 1 && r.right <= box.right + 1) continue;  // fits
        if (mustFit) {
            out.push(`[${head}] ${Math.round(r.left)}..${Math.round(r.right)} wider than its output area ${Math.round(box.left)}..${Math.round(box.right)}`);
            continue;
        }
        let scroller = table.parentElement;
        while (scroller && scroller !== area.parentElement) {
            const style = getComputedStyle(scroller);
            if (['auto', 'scroll'].includes(style.overflowX) && scroller.scrollWidth > scroller.clientWidth + 1) break;
            scroller = scroller.parentElement;
        }
        if (!scroller || scroller === area.parentElement) {
            out.push(`[${head}] ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(box.left)}..${Math.round(box.right)}, no scroll box`);
            continue;
        }
        const s = scroller.getBoundingClientRect();
        if (s.left < box.left - 1 || s.right > box.right + 1) out.push(`[${head}] its scroll box is outside the output area`);
    }
    return out.slice(0, 20);
}"""

# A control whose words are cut ("assign to selec…", a filter box showing
# "filter: type or property na"): a button, label or checkbox text wider
# than its box, or an input's placeholder wider than its text area
# (measured with the input's own font on a canvas).
TRUNCATED = """() => {
    const out = [];
    const canvas = document.createElement('canvas').getContext('2d');
    const sel = 'button, .widget-label, .widget-checkbox label, .widget-label-basic, input[placeholder]';
    for (const area of document.querySelectorAll('.jp-OutputArea-output')) {
        for (const el of area.querySelectorAll(sel)) {
            if (!el.closest('.toskit-wrap, .jupyter-widgets')) continue;
            if (!el.offsetParent) continue;
            const r = el.getBoundingClientRect();
            if (!r.width || !r.height) continue;
            let cut = false;
            let text = '';
            if (el.matches('input[placeholder]')) {
                if (el.value) continue;  // the placeholder is not shown
                const cs = getComputedStyle(el);
                canvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
                text = el.placeholder;
                const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
                cut = canvas.measureText(text).width > room + 1;
            } else {
                text = el.innerText.trim();
                cut = Boolean(text) && el.scrollWidth > el.clientWidth + 1;
            }
            if (cut) out.push(`${el.tagName.toLowerCase()} "${text.slice(0, 60)}" cut at ${Math.round(r.width)} px`);
        }
    }
    return out.slice(0, 20);
}"""

# A line break between two word characters of one text node of a trace.
TOKEN_BREAKS = """() => {
    const out = [];
    const word = /[A-Za-z0-9_]/;
    for (const el of document.querySelectorAll('.toskit-trace .toskit-code, .toskit-trace .toskit-trace-detail, .toskit-reason')) {
        if (!el.offsetParent) continue;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent;
            let lastTop = null;
            for (let i = 0; i < text.length; i++) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                if (!rect) { lastTop = null; continue; }
                if (lastTop !== null && rect.top > lastTop + 2 && word.test(text[i]) && word.test(text[i - 1])) {
                    out.push(`${JSON.stringify(text.slice(Math.max(0, i - 12), i))} / ${JSON.stringify(text.slice(i, i + 12))}`);
                }
                lastTop = rect.top;
            }
        }
        if (out.length > 20) break;
    }
    return out;
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda n: n.removesuffix(".ipynb"))
def test_views_read_at_900_and_at_1280_with_the_sidebar(
    page, voila_url: str, artifacts_dir: Path, notebook: str, theme: str
) -> None:
    open_notebook(page, voila_url, notebook, theme)
    assert python_errors(page) == []
    # Open every trace the page holds (the simulator's rows are collapsed):
    # the token check needs them laid out.
    page.evaluate(
        "() => document.querySelectorAll('.toskit-trace-section').forEach(d => d.open = true)"
    )
    problems: dict[str, list[str]] = {}
    for label, width, sidebar in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(
            "(css) => { let s = document.getElementById('toskit-sidebar');"
            " if (!s) { s = document.createElement('style'); s.id = 'toskit-sidebar'; document.head.append(s); }"
            " s.textContent = css; }",
            SIDEBAR_CSS.format(px=sidebar) if sidebar else "",
        )
        page.wait_for_timeout(300)  # ipywidgets lay out on resize
        outside = page.evaluate(OUTSIDE)
        breaks = page.evaluate(TOKEN_BREAKS)
        frames = page.evaluate(FRAMES, bool(sidebar))
        cut = page.evaluate(TRUNCATED)
        full_screenshot(
            page,
            artifacts_dir / f"responsive-{notebook.removesuffix('.ipynb')}-{label}-{theme}.png",
        )
        if outside:
            problems[f"{label}: outside the output area"] = outside
        if cut:
            problems[f"{label}: words cut"] = cut
        if frames:
            problems[f"{label}: a DataFrame's columns out of reach"] = frames
        if breaks:
            problems[f"{label}: a trace broken inside a token"] = breaks
    violations = axe_violations(page)
    if violations:
        problems["axe"] = [f"{v['id']}: {v['help']} {v['nodes'][:2]}" for v in violations]
    assert not problems, json.dumps(problems, indent=1)
