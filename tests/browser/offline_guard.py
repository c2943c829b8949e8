"""The browser checks' guard against requests outside the local server."""

from __future__ import annotations

from typing import Any


class ExternalRequests:
    """A Playwright route handler: requests to ``allowed`` go through, every
    other one is aborted and remembered (``urls``), so a test can fail on it."""

    def __init__(self, allowed: str) -> None:
        self.allowed = allowed
        self.urls: list[str] = []

    def __call__(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(self.allowed):
            route.continue_()
        else:
            self.urls.append(url)
            route.abort()

    def failure(self) -> str | None:
        """The failure message when any external request was attempted."""
        if not self.urls:
            return None
        listed = "\n  ".join(dict.fromkeys(self.urls))
        return f"the page tried to fetch {len(self.urls)} URL(s) from outside the local server:\n  {listed}"
