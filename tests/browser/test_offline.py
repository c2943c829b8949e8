"""No page fetches anything from the internet.

The ``page`` fixture (conftest.py) fails a test whose page attempts a
request outside the local Voila server; these tests check that guard
itself, and that the Voila page ``make demo`` serves (the ``toskit``
template) links nothing outside the server.
"""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import pytest
from offline_guard import ExternalRequests

pytestmark = pytest.mark.browser

EXTERNAL_PAGE = """<!doctype html><html><head>
<link rel="stylesheet" href="https://cdn.example.invalid/fontawesome/all.min.css">
</head><body><img src="https://images.example.invalid/x.png" alt="x"><p>offline</p></body></html>"""


def test_the_guard_aborts_and_lists_every_external_request(browser) -> None:
    local = "http://127.0.0.1:9/"
    guard = ExternalRequests(local)
    context = browser.new_context()
    try:
        context.route("**/*", guard)
        page = context.new_page()
        page.set_content(EXTERNAL_PAGE, wait_until="load")
        assert page.locator("p").inner_text() == "offline"
    finally:
        context.close()
    assert sorted(set(guard.urls)) == [
        "https://cdn.example.invalid/fontawesome/all.min.css",
        "https://images.example.invalid/x.png",
    ]
    message = guard.failure()
    assert message and "https://cdn.example.invalid/fontawesome/all.min.css" in message
    assert ExternalRequests(local).failure() is None


# A URL that the browser would fetch: in a src/href attribute or a JavaScript import.
_FETCHED = re.compile(
    r"""(?:src|href)\s*=\s*["'](https?://[^"']+)|import\(\s*["'](https?://[^"']+)"""
)


def test_the_voila_page_links_nothing_outside_the_server(voila_url: str) -> None:
    with urllib.request.urlopen(f"{voila_url}/voila/render/00-tour.ipynb", timeout=120) as response:
        html = response.read().decode("utf-8")
    external = [a or b for a, b in _FETCHED.findall(html) if not (a or b).startswith(voila_url)]
    assert "rendered_cells" in html
    assert external == []


def _browser_conftest(config: pytest.Config):
    here = Path(__file__).with_name("conftest.py")
    return next(
        p for p in config.pluginmanager.get_plugins() if getattr(p, "__file__", None) == str(here)
    )


def test_an_attempted_request_fails_the_test_itself(request) -> None:
    """The call-phase hook turns the page's attempts into a failure of the test."""
    conftest = _browser_conftest(request.config)

    class Item:
        stash = pytest.Stash()

    item = Item()
    guard = ExternalRequests("http://127.0.0.1:9/")
    guard.urls.append("https://cdn.example.invalid/x.css")
    item.stash[conftest.GUARD] = guard
    hook = conftest.pytest_runtest_call(item)
    next(hook)
    with pytest.raises(pytest.fail.Exception, match="https://cdn.example.invalid/x.css"):
        hook.send(None)
    clean = Item()
    clean.stash = pytest.Stash()
    clean.stash[conftest.GUARD] = ExternalRequests("http://127.0.0.1:9/")
    hook = conftest.pytest_runtest_call(clean)
    next(hook)
    with pytest.raises(StopIteration):
        hook.send(None)
