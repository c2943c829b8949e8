"""Browser check of the cluster simulator (issue 16), in a real Chromium.

Tutorial 04 shows the Fuel release in a ``ClusterSimulator`` tagged
``fuel-simulator`` (six nodes, none selected). Driving it as a person
would: tick three nodes' checkboxes, assign a role to all three at once,
open a role's trace, change a setting in the settings column — the trace
must still be open and show the new value the restriction read.
Screenshots (light and dark) go to ``test-artifacts/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_notebooks_browser import open_notebook, python_errors

pytestmark = pytest.mark.browser

NOTEBOOK = "04-role-conditions.ipynb"
TRACE_KEY = "trace:cinder-block-device"
SETTING = "settings:storage.volumes_block_device.value"


def _checkbox(view, node: int):
    return view.locator(_box(node))


def _box(node: int) -> str:
    return f'input.toskit-node-check[data-node-id="{node}"]'


def _row(page, view, node: int):
    """The cluster table's row of ``node`` (``has`` takes a locator relative to the row)."""
    return view.locator("tr", has=page.locator(_box(node)))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_checkboxes_assign_to_all_and_an_open_trace_follows_a_setting(
    page, voila_url: str, artifacts_dir: Path, theme: str
) -> None:
    from playwright.sync_api import expect

    open_notebook(page, voila_url, NOTEBOOK, theme)
    simulator = page.locator(".fuel-simulator")
    view = simulator.locator(".toskit-sim-view")  # the outcomes
    nodes = simulator.locator(".toskit-sim-nodes")  # the cluster table
    chosen = view.locator(".toskit-summary-line .toskit-mono").first
    expect(chosen).to_have_text("none")

    # 1. Tick three nodes, one after the other (each tick redraws the view).
    ticked: list[str] = []
    for node in (2, 3, 4):
        _checkbox(nodes, node).check()
        ticked.append(str(node))
        expect(chosen).to_have_text(", ".join(ticked))
    for node in (2, 3, 4):
        expect(_checkbox(nodes, node)).to_be_checked()
    expect(_checkbox(nodes, 5)).not_to_be_checked()

    # 2. Assign one role to all three at once.
    roles = simulator.locator(".widget-select-multiple", has_text="roles to assign").locator(
        "select"
    )
    roles.select_option(value="cinder")
    assign = simulator.get_by_role("button", name="assign to selected")
    expect(assign).to_be_enabled()
    assign.click()
    for node in (2, 3, 4):
        row = _row(page, nodes, node)
        expect(row.locator(".toskit-chip", has_text="cinder")).to_have_count(1)
    expect(_row(page, nodes, 5).locator(".toskit-chip", has_text="cinder")).to_have_count(0)

    # 3. Open the trace of cinder-block-device (blocked by a restriction).
    trace = view.locator(f'details[data-toskit-key="{TRACE_KEY}"]')
    trace.locator("> summary").click()
    expect(trace).to_have_attribute("open", "")
    expect(trace).to_contain_text(f"{SETTING} = false")

    # 4. Change the setting it reads: the trace stays open, with the new value.
    setting = simulator.locator(".widget-checkbox", has_text="Cinder Block device driver").locator(
        "input"
    )
    setting.check()
    trace = view.locator(f'details[data-toskit-key="{TRACE_KEY}"]')
    expect(trace).to_contain_text(f"{SETTING} = true")
    expect(trace).to_have_attribute("open", "")
    expect(trace).to_be_visible()
    # The restriction no longer blocks (cinder, chosen to assign, still conflicts).
    row = view.locator("tr", has_text="cinder-block-device").first
    expect(row).not_to_contain_text("Cinder Block Device driver should be enabled")
    expect(row).to_contain_text("conflicts with the selected role cinder")

    # 5. "export CSV" downloads the outcomes as they are now (a data: link).
    with page.expect_download() as download:
        simulator.get_by_role("link", name="export CSV").click()
    assert download.value.suggested_filename == "role-outcomes.csv"
    rows = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("role,allowed,status,reason")
    assert any(r.startswith("cinder-block-device,False,blocked") for r in rows)

    # Tall enough for the whole widget (Voila scrolls inside its own container).
    page.set_viewport_size({"width": 1200, "height": 2400})
    simulator.screenshot(path=str(artifacts_dir / f"04-fuel-simulator-{theme}.png"))
    assert python_errors(page) == []
