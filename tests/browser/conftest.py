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

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from offline_guard import ExternalRequests  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
# A Jupyter data folder of the repository holding the `toskit` Voila template.
JUPYTER_DATA = ROOT / "share" / "jupyter"
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
SERVER_START_TIMEOUT = 90.0
# CI has two busy cores: give widgets time to answer a click.
EXPECT_TIMEOUT_MS = 20_000
ACTION_TIMEOUT_MS = 60_000


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_serving(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Voila exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise RuntimeError(f"Voila did not answer at {url} within {SERVER_START_TIMEOUT} s:\n{log.read_text()}")


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def voila_url(artifacts_dir: Path) -> Iterator[str]:
    """Base URL of a Voila server for ``notebooks/`` (tracebacks shown, theme switchable)."""
    port = _free_port()
    log = artifacts_dir / "voila.log"
    command = [
        sys.executable, "-m", "voila", str(NOTEBOOKS),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",
        "--VoilaConfiguration.show_tracebacks=True",
        "--VoilaConfiguration.allow_theme_override=YES",
        "--VoilaConfiguration.template=toskit",
    ]  # fmt: skip
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(JUPYTER_DATA), os.environ.get("JUPYTER_PATH")]))
    with log.open("w") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(base + "/", process, log)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


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
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    guard = ExternalRequests(voila_url)
    request.node.stash[GUARD] = guard
    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(ACTION_TIMEOUT_MS)
    try:
        yield page
    finally:
        context.close()
