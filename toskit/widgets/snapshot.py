"""A static HTML snapshot beside a widget's live view.

A notebook stores what a cell displayed as a MIME bundle. Jupyter front ends
with the widget manager render ``application/vnd.jupyter.widget-view+json``
(the live widget: the manager ranks it first); everything else — GitHub,
nbviewer, an untrusted or un-run notebook, where the widget's state is not
there — falls back to the bundle's ``text/html``. So each toskit widget adds
a ``text/html``: the static view of what it showed when it was displayed,
marked as a snapshot, instead of the bare ``TemplateExplorer(...)`` repr.
"""

from __future__ import annotations

from typing import Any

from toskit.display.html import esc

__all__ = ["StaticSnapshot", "snapshot_note"]


def snapshot_note() -> str:
    """The line that says a view is a stored snapshot, not the live widget."""
    return (
        '<div class="toskit-snapshot-note">a snapshot of the widget as it was displayed; '
        "run the notebook to explore</div>"
    )


class StaticSnapshot:
    """A widget base that adds ``text/html`` (``self.snapshot_html()``) to
    its MIME bundle: listed before the widget class
    (``class TypeTree(StaticSnapshot, anywidget.AnyWidget)``), so that its
    ``_repr_mimebundle_`` wraps the widget's."""

    def snapshot_html(self) -> str:  # pragma: no cover - every widget defines it
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, None)
        if not isinstance(data, dict):
            return bundle
        try:
            html = self.snapshot_html()
        except Exception as exc:  # noqa: BLE001 - a snapshot must never break the display
            html = f'<pre class="toskit-fallback">{esc(repr(self))}: no snapshot ({esc(type(exc).__name__)})</pre>'
        data = {**data, "text/html": html}
        return (data, metadata) if isinstance(bundle, tuple) else data
