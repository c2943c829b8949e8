"""Browser check: ``ClusterSimulator`` opens on real Fuel releases (issue #17).

A notebook written for this test (in a temporary folder, never in
``notebooks/``) loads the 6.1 and the 9.0 release files of
``conformance/fuel/releases/`` and shows a ``ClusterSimulator`` for each.
Voila serves that folder with the repository's offline ``toskit`` template;
Chromium comes from ``conftest.py`` (no network, no downloaded browser). The
page must render every cell without a Python error, show each release's
roles, and no role may be "check failed" (6.0/6.1's mongo restriction reads
``cluster:status``, which the default cluster now has). The 6.1 release's
own view shows the setup wizard's model. Screenshots go to
``test-artifacts/fuel-releases-*-<theme>.png``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from offline_guard import ExternalRequests
from test_notebooks_browser import ARTIFACTS, full_screenshot, open_notebook, python_errors
from voila_server import serve_voila

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ROOT / "conformance" / "fuel" / "releases"
NOTEBOOK = "fuel-releases.ipynb"
# (file, release the simulator opens on, a role of that release)
CASES = [
    ("openstack-6.1.yaml", "Juno on Ubuntu 14.04.1", "mongo"),
    ("openstack-9.0.yaml", "Mitaka on Ubuntu+UCA 14.04", "ceph-osd"),
]


def _notebook() -> dict:
    cells = [
        "from toskit.conditions import load_release\nfrom toskit.widgets import ClusterSimulator",
    ]
    for i, (name, _release, _role) in enumerate(CASES):
        path = RELEASES / name
        cells.append(
            f"release_{i} = load_release({str(path)!r})\n"
            f"print(release_{i}.name)\n"
            f"simulator_{i} = ClusterSimulator(release_{i})\n"
            f"simulator_{i}.add_class('fuel-simulator-{i}')\n"
            f"simulator_{i}"
        )
    cells.append("release_0  # the release view, with the setup wizard's model")
    return {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": src,
            }
            for src in cells
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


@pytest.fixture(scope="module")
def fuel_voila_url(tmp_path_factory, artifacts_dir: Path) -> Iterator[str]:
    """A Voila server for a folder holding only this test's notebook."""
    folder = tmp_path_factory.mktemp("fuel-notebooks")
    (folder / NOTEBOOK).write_text(json.dumps(_notebook()), encoding="utf-8")
    with serve_voila(folder, artifacts_dir / "voila-fuel-releases.log") as base:
        yield base


@pytest.fixture
def fuel_page(browser, fuel_voila_url: str) -> Iterator[object]:
    """A fresh page that may only talk to this test's Voila server."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    guard = ExternalRequests(fuel_voila_url)
    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        yield page
    finally:
        context.close()
    if guard.failure():
        pytest.fail(guard.failure(), pytrace=False)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_simulator_opens_on_the_6_1_and_9_0_releases(
    fuel_page, fuel_voila_url: str, theme: str
) -> None:
    from playwright.sync_api import expect

    page = fuel_page
    open_notebook(page, fuel_voila_url, NOTEBOOK, theme)
    assert python_errors(page) == []
    for i, (_name, release, role) in enumerate(CASES):
        expect(page.locator("#rendered_cells")).to_contain_text(release)
        simulator = page.locator(f".fuel-simulator-{i}")
        expect(simulator).to_have_count(1)
        outcomes = simulator.locator(".toskit-sim-view")
        expect(outcomes.first).to_be_visible()
        expect(simulator).to_contain_text(role)
        expect(simulator).not_to_contain_text("check failed")
        simulator.screenshot(path=str(ARTIFACTS / f"fuel-releases-{i}-{theme}.png"))
    view = page.locator(".jp-OutputArea-output", has_text="Setup wizard model")
    expect(view).to_have_count(1)
    view.locator("summary", has_text="Setup wizard model").click()  # open the section
    expect(view).to_contain_text("vcenter: false")
    view.screenshot(path=str(ARTIFACTS / f"fuel-releases-view-{theme}.png"))
    full_screenshot(page, ARTIFACTS / f"fuel-releases-{theme}.png")
