"""Fixtures for the browser checks: a Voila server and a Playwright Chromium.

Voila serves ``notebooks/`` on 127.0.0.1 at a free port; Playwright (sync
API) drives Debian's Chromium at ``/usr/bin/chromium`` (``TOSKIT_CHROMIUM``
overrides the path). Playwright never downloads a browser here.

No page may fetch anything from the internet: Voila runs with the
repository's ``toskit`` template (``share/jupyter/voila/templates/toskit``,
Voila's lab template without its CDN links, the same as ``make demo``),
and every request that is not for the local Voila server is aborted and
makes the test itself FAIL (not only its teardown), naming the URLs
(``offline_guard.ExternalRequests``, checked by ``pytest_runtest_call`` below).

Screenshots go to ``test-artifacts/`` (gitignored) at the repository root.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from offline_guard import ExternalRequests  # noqa: E402
from voila_server import serve_voila  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path(os.environ.get("TOSKIT_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# CI has two busy cores: give widgets time to answer a click.
EXPECT_TIMEOUT_MS = 20_000
ACTION_TIMEOUT_MS = 60_000


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def voila_url(artifacts_dir: Path) -> Iterator[str]:
    """Base URL of a Voila server for ``notebooks/`` (tracebacks shown, theme switchable)."""
    with serve_voila(NOTEBOOKS, artifacts_dir / "voila.log") as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)

    if not CHROMIUM.exists():
        raise RuntimeError(
            f"Chromium not found at {CHROMIUM}; install it with "
            "`sudo apt-get update && sudo apt-get install -y chromium` (make test does this as root)"
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


# The guard of the running test's page, checked when the test body returns.
GUARD = pytest.StashKey[ExternalRequests]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """Fail the test itself (not its teardown) when its page tried to reach outside."""
    result = yield
    guard = item.stash.get(GUARD, None)
    message = guard.failure() if guard is not None else None
    if message:
        pytest.fail(message, pytrace=False)
    return result


@pytest.fixture
def page(browser, voila_url: str, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh page (1200×900) that may only talk to the local Voila server;
    the test fails if the page attempts any other request."""
    with guarded_page(browser, voila_url, request) as page:
        yield page


@contextlib.contextmanager
def guarded_page(browser, base: str, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh page (1200×900) in its own context that may only talk to ``base``;
    the guard is stashed on the test so that it fails on any other request."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    guard = ExternalRequests(base)
    request.node.stash[GUARD] = guard
    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    try:
        yield page
    finally:
        context.close()
