"""A static HTML snapshot beside a widget's live view, kept up to date.

A notebook stores what a cell displayed as a MIME bundle. Jupyter front ends
with the widget manager render ``application/vnd.jupyter.widget-view+json``
(the live widget: the manager ranks it first); everything else — GitHub,
nbviewer, an untrusted or un-run notebook, where the widget's state is not
there — falls back to the bundle's ``text/html``. So each toskit widget adds
a ``text/html``: the static view of what it shows, marked as a snapshot,
instead of the bare ``TemplateExplorer(...)`` repr.

The snapshot follows the widget. A widget displays itself with a display id
(``_ipython_display_``), and every change of what it shows (its synced
traits, and those of the widgets inside it: a selection, a filter, a
cluster edit) schedules a refresh: after :attr:`StaticSnapshot.snapshot_delay`
seconds without a further change, the snapshot is computed again and, when it
differs, sent as an ``update_display_data`` to every output that shows the
widget. The notebook's stored output is then what the widget showed when
the notebook was saved. Changes in a burst (typing in a filter, several
clicks) give one update; a change that leaves the view as it was gives
none. Without a running event loop (plain Python, tests) the refresh runs at
once. :meth:`StaticSnapshot.refresh_snapshot` forces one.

A snapshot is what a *stored* notebook shows, and a stored notebook is often
opened untrusted: JupyterLab then sanitizes its HTML, dropping every
``<style>`` element but keeping ``class`` and the safe inline ``style``
properties (``display`` among them). A toskit fragment hides its
view with an inline ``display:none`` that only its stylesheet lifts, so an
untrusted notebook showed the ``<pre>`` repr (``TemplateExplorer(...)``) in
place of the view. :func:`unhidden_view` turns a fragment into the form that
survives the sanitizer: the view shown, the plain-text repr hidden inline.
Snapshots always carry that form; ``notebooks/build.py`` gives it to every
toskit output of a stored tutorial too.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

from toskit.display.html import esc

__all__ = ["EXPORT_LINK_STYLE", "StaticSnapshot", "inert_links", "snapshot_note", "unhidden_view"]

#: The inline style of the widgets' "export CSV/SVG" links: an ipywidgets
#: HTML output is not styled as rendered HTML, so a bare ``<a>`` read as
#: plain text; the front end's link colour (AA on its own background in
#: light and dark) and an underline make it a link.
EXPORT_LINK_STYLE = "color: var(--jp-content-link-color, #1565c0); text-decoration: underline"

# The explorer's type links (``PropertyExplorer._type_link``): controls that
# only a live TypeTree follows. Names are escaped, so no ``"`` inside.
_WIDGET_LINK = re.compile(
    r'<span class="toskit-type-link" role="link" tabindex="0" data-toskit-type="[^"]*" title="[^"]*">'
)


def inert_links(html: str) -> str:
    """``html`` with the explorer's type links made plain names: in a stored
    snapshot nothing follows them, so they must not be announced, focused or
    styled as links."""
    return _WIDGET_LINK.sub('<span class="toskit-type-name">', html)


# A fragment's two halves (``toskit.display.html.fragment``): the plain-text
# repr the stylesheet hides, and the view hidden inline until the stylesheet
# shows it.
_FALLBACK_PRE = '<pre class="toskit-text-fallback">'
_HIDDEN_VIEW = re.compile(
    r'(<div class="toskit-wrap(?! toskit-stored-drawing)[^"<>]*") style="display:none">'
)
# The inline parts of a line (a header's kind, title and chips; a finding's
# badge, code, location and path) that the stylesheet spaces with margins:
# without it they ran together ("service templateservice.yaml1 node
# template", "errortype-mismatchservice.yaml:29:47"). A space before each
# keeps the words apart; with the stylesheet it is one more space between
# parts already apart, and none at all in a flex row (the headers).
_INLINE_PART = re.compile(
    r'(?<=[^\s])(<span class="toskit-(?:kind|title|chip|badge|count|diag-code|diag-loc|diag-path|src|node-note)\b)'
)


# A topology drawing (``<div class="toskit-topology-drawing"><svg …>``): the
# sanitizer drops every SVG element but keeps their text, which then reads
# as one long paragraph of labels and tooltips.
_DRAWING = re.compile(
    r'<div class="toskit-topology-drawing">(<svg class="toskit-t-svg"(.*?)</svg>)</div>', re.S
)
_WRAPPED = (
    '<div class="toskit-wrap toskit-stored-drawing" style="display:none">'
    '<div class="toskit-topology-drawing">'
)


def _drawing_both_ways(match: re.Match[str]) -> str:
    """A drawing kept inline where the stylesheet is (a nested ``toskit-wrap``
    hidden inline, shown by the stylesheet like the view itself), and an
    ``<img>`` of the same drawing as a standalone SVG file where it is not
    (in ``toskit-text-fallback``, which the stylesheet hides): an image
    keeps its picture through the sanitizer, and an SVG in an image runs
    nothing."""
    import base64

    from toskit.display.topology_svg import SVG_STYLE

    svg = match.group(1)
    title = re.search(r"<title>(.*?)</title>", svg, re.S)
    standalone = svg.replace(
        '<svg class="toskit-t-svg"',
        '<svg xmlns="http://www.w3.org/2000/svg" class="toskit-t-svg"',
        1,
    )
    standalone = re.sub(
        r"(</title>)", lambda m: f"{m.group(1)}<style>{SVG_STYLE}</style>", standalone, count=1
    )
    data = base64.b64encode(standalone.encode("utf-8")).decode("ascii")
    alt = title.group(1) if title else "topology drawing"  # already escaped
    return (
        f"{_WRAPPED}{svg}</div></div>"
        f'<div class="toskit-text-fallback"><img alt="{alt}" '
        f'src="data:image/svg+xml;base64,{data}"></div>'
    )


def unhidden_view(html: str) -> str:
    """``html`` with every toskit view shown and its plain-text repr hidden
        by an inline ``display:none``, so that it reads without the stylesheet.
        (Not the ``hidden`` attribute: JupyterLab's own ``pre`` rule sets
        ``display`` and wins over it.)

        A viewer that keeps ``<style>`` (a trusted notebook, nbviewer, Voila)
        renders it exactly as before (the stylesheet hid the repr already); one
        that drops it (JupyterLab's sanitizer in an untrusted notebook) shows
        the view, unstyled but whole, instead of the repr (a space before each
    inline part of a line keeps its words apart, and a topology drawing
    has an ``<img>`` of itself for that case); one that drops inline
    styles too shows both. Idempotent.
    """
    html = html.replace(_FALLBACK_PRE, '<pre class="toskit-text-fallback" style="display:none">')
    html = _INLINE_PART.sub(r" \1", html)
    html = _HIDDEN_VIEW.sub(r"\1>", html)
    if _WRAPPED not in html:  # idempotent: drawings are doubled once
        html = _DRAWING.sub(_drawing_both_ways, html)
    return html


def snapshot_note() -> str:
    """The line that says a view is a stored snapshot, not the live widget."""
    return (
        '<div class="toskit-snapshot-note">a snapshot of the widget as it was displayed; '
        "run the notebook to explore</div>"
    )


def _later(delay: float, callback: Callable[[], None]) -> Any:
    """Run ``callback`` after ``delay`` seconds on the running event loop (the
    kernel's, so on the thread that handles widget messages); ``None`` when
    there is no running loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return loop.call_later(delay, callback)


class StaticSnapshot:
    """A widget base that adds ``text/html`` (``self.snapshot_html()``) to
    its MIME bundle and keeps it up to date in the outputs that show the
    widget: listed before the widget class
    (``class TypeTree(StaticSnapshot, anywidget.AnyWidget)``), so that its
    ``_repr_mimebundle_`` wraps the widget's."""

    #: Seconds without a change before the stored snapshot is refreshed.
    snapshot_delay: float = 0.5
    #: How a refresh is scheduled: ``(delay, callback) -> handle or None``
    #: (``None``: nothing scheduled, refresh now). Tests replace it.
    _schedule: Callable[[float, Callable[[], None]], Any] = staticmethod(_later)

    def snapshot_html(self) -> str:  # pragma: no cover - every widget defines it
        raise NotImplementedError

    def snapshot_sources(self) -> list[Any]:
        """The widgets whose changes change the snapshot: this one and every
        widget inside it (``children``, recursively)."""
        out, stack, seen = [], [self], set()
        while stack:
            widget = stack.pop()
            if id(widget) in seen:
                continue
            seen.add(id(widget))
            out.append(widget)
            stack.extend(getattr(widget, "children", ()) or ())
        return out

    def _snapshot_or_note(self) -> str:
        try:
            return unhidden_view(self.snapshot_html())
        except Exception as exc:  # noqa: BLE001 - a snapshot must never break the display
            return f'<pre class="toskit-fallback">{esc(repr(self))}: no snapshot ({esc(type(exc).__name__)})</pre>'

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]  # the widget base after this one has it
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, None)
        if not isinstance(data, dict):
            return bundle
        data = {**data, "text/html": self._snapshot_or_note()}
        return (data, metadata) if isinstance(bundle, tuple) else data

    def _ipython_display_(self) -> None:
        """Display the bundle under a display id, and follow the widget's
        changes from then on (the stored snapshot stays current)."""
        from IPython.display import display

        bundle = self._repr_mimebundle_()
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, None)
        handle = display(data, raw=True, metadata=metadata or {}, display_id=True)
        state = self.__dict__.setdefault(
            "_snapshot_state", {"handles": [], "shown": None, "pending": None, "observed": set()}
        )
        if handle is not None:
            state["handles"].append(handle)
        state["shown"] = data.get("text/html") if isinstance(data, dict) else None
        self._observe_sources(state)

    def _observe_sources(self, state: dict[str, Any]) -> None:
        """Observe every source not observed yet (widgets put inside later too)."""
        for widget in self.snapshot_sources():
            if id(widget) not in state["observed"]:
                state["observed"].add(id(widget))
                widget.observe(self._snapshot_changed)

    def _snapshot_changed(self, change: Any = None) -> None:
        """A change on screen: refresh the stored snapshot once things are quiet."""
        state = self.__dict__.get("_snapshot_state")
        if not state or not state["handles"]:
            return
        if getattr(change, "get", None) and change.get("name") == "children":
            self._observe_sources(state)
        pending = state["pending"]
        if pending is not None:
            pending.cancel()  # a burst of changes: wait for the last one
        state["pending"] = type(self)._schedule(self.snapshot_delay, self._flush_snapshot)
        if state["pending"] is None:
            self.refresh_snapshot()

    def _flush_snapshot(self) -> None:
        state = self.__dict__.get("_snapshot_state")
        if state:
            state["pending"] = None
        self.refresh_snapshot()

    def refresh_snapshot(self) -> bool:
        """Send the current snapshot to every output showing this widget;
        ``True`` if it had changed (an unchanged view sends nothing)."""
        state = self.__dict__.get("_snapshot_state")
        if not state or not state["handles"]:
            return False
        bundle = self._repr_mimebundle_()
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, None)
        html = data.get("text/html") if isinstance(data, dict) else None
        if html == state["shown"]:
            return False
        state["shown"] = html
        for handle in state["handles"]:
            handle.update(data, raw=True, metadata=metadata or {})
        return True
