"""The rich view of an ``Explanation`` (issue #32), and the layer stack of a
property row that the property table shows when a row is expanded.

Duck-typed over the attributes ``toskit.tosca.explain`` documents (this
package never imports the core ones): ``stack`` of layers (``value``,
``source`` with ``kind``, ``label``, ``where``, ``copied_from``, ``won``),
``hops`` (``call``, ``value``, ``known``, ``target``, ``source``,
``detail``, ``hops``, ``explanation``), ``checks`` and ``findings``.
Every user string is escaped (``esc``); hops nest at most as deep as the
explanation followed them (``toskit.tosca.explain.MAX_HOPS``).
"""

from __future__ import annotations

from typing import Any

from toskit.display.html import badge, chip, code, details, esc, fragment, header, table, text_value
from toskit.display.links import location_link

__all__ = ["explanation_html", "layers_html", "stack_cell"]

_RESULT_BADGE = {"satisfied": "ok", "violated": "error", "not checked": "info"}


def _where(source: Any) -> str:
    where = getattr(source, "where", None) or "?"
    copied = getattr(source, "copied_from", None)
    note = f" (copied from {copied})" if copied else ""
    return f'<span class="toskit-muted">{location_link(where)}{esc(note)}</span>'


def _label(source: Any) -> str:
    label, kind = getattr(source, "label", ""), getattr(source, "kind", "")
    text = (
        label
        if not kind
        or label.startswith(kind)
        or kind in ("type default", "data type default", "profile")
        else f"{label} ({kind})"
    )
    return esc(text)


def layers_html(stack: Any) -> str:
    """The layer stack, lowest first, the winner marked: a small table."""
    rows = []
    for layer in stack:
        won = bool(getattr(layer, "won", False))
        rows.append(
            (
                "" if won else "toskit-overridden",
                [
                    ("", badge("won", "ok", small=True) if won else ""),
                    ("", code(text_value(layer.value))),
                    ("", _label(layer.source)),
                    ("", _where(layer.source)),
                ],
            )
        )
    return table(["", "value", "layer", "where"], rows, empty="no layer recorded")


def _hop_html(hop: Any) -> str:
    value = (
        code(text_value(hop.value))
        if hop.known
        else '<span class="toskit-muted">not known statically</span>'
    )
    parts = [f"{code(hop.call)} = {value}"]
    if hop.target:
        parts.append(f" → {esc(hop.target)}")
    if hop.source is not None:
        parts.append(f" {chip(hop.source.kind)} {_where(hop.source)}")
    inner = []
    if hop.detail:
        inner.append(f'<div class="toskit-muted">{esc(hop.detail)}</div>')
    if hop.explanation is not None:
        inner.append(layers_html(hop.explanation.stack))
        inner.extend(_hop_html(h) for h in hop.explanation.hops)
    inner.extend(_hop_html(h) for h in hop.hops)
    body = "".join(inner)
    nested = f'<div class="toskit-explain-nested">{body}</div>' if body else ""
    return f"<div>{''.join(parts)}{nested}</div>"


def explanation_html(explanation: Any) -> str:
    """A self-contained fragment: value, layers, function hops, checks, findings."""
    e = explanation
    title = f"{e.entity}.{e.path}"
    extras = [chip(e.type or "any"), chip(getattr(e.source, "label", ""))]
    body = [header("explain", title, *extras)]
    body.append(
        f"<div>= {code(text_value(e.value))} {chip(e.source.kind)} {_where(e.source)}</div>"
    )
    body.append(
        details("layers (lowest first)", layers_html(e.stack), open_=True, count=len(e.stack))
    )
    if e.hops:
        body.append(details("function hops", "".join(_hop_html(h) for h in e.hops), open_=True))
    if e.checks:
        rows = [
            [
                ("", esc(c.kind)),
                ("", code(c.text)),
                ("", badge(c.result, _RESULT_BADGE.get(c.result, "info"), small=True)),
                ("", esc(c.message or "")),
            ]
            for c in e.checks
        ]
        body.append(
            details(
                "checks",
                table(["kind", "clause", "result", "message"], rows),
                open_=True,
                count=len(e.checks),
            )
        )
    if e.findings:
        from toskit.display.diagnostics_view import diagnostics_block

        body.append(
            details(
                "findings", diagnostics_block(list(e.findings)), open_=True, count=len(e.findings)
            )
        )
    return fragment("".join(body), str(e), "explain")


def stack_cell(row: Any) -> str:
    """The expandable line under a property row: its layer stack, on demand.

    ``row.stack`` (``(value, origin)`` pairs, lowest first: a table built
    with ``show_overridden=True``), else ``row.origin`` alone; each layer's
    ``file:line`` is read from its origin (``origin.where()``) only here,
    when the view is drawn. ``""`` for a row without an origin.
    """
    stack = getattr(row, "stack", None) or ()
    origin = getattr(row, "origin", None)
    if not stack and origin is None:
        return ""
    layers = list(stack) if stack else [(getattr(row, "value", None), origin)]
    items = []
    for i, (value, layer) in enumerate(layers):
        where = layer.where() if layer is not None and hasattr(layer, "where") else None
        won = i == len(layers) - 1
        items.append(
            f'<li class="{"toskit-stack-won" if won else "toskit-overridden"}">'
            f"{code(text_value(value))} {esc(getattr(layer, 'source', ''))} "
            f'<span class="toskit-muted">{location_link(where or "?")}</span></li>'
        )
    n = len(layers)
    summary = (
        f'<span class="toskit-muted">{n} layer{"s" if n != 1 else ""}:'
        " where each value was written</span>"
    )
    return (
        f'<details class="toskit-stack"><summary>{summary}</summary>'
        f'<ol class="toskit-stack-layers">{"".join(items)}</ol></details>'
    )
