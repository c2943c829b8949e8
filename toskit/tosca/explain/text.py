"""How an explanation reads: one-line values, labels, the terminal text and plain data.

Pure functions over the attributes of :mod:`.model`'s classes (duck-typed,
so the model imports this module and not the other way round): ``str()`` of
an :class:`~toskit.tosca.explain.Explanation` is
:func:`explanation_text`, its ``to_dict()`` values go through :func:`plain`,
and ``toskit blame`` writes values with :func:`yaml_flow`.

A value is shortened to :data:`TEXT` characters in the text and the rich
view (``...`` marks the cut); :func:`yaml_flow` keeps a value whole unless
given ``limit`` (blame's bounds, docs/explain.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toskit.plain import bounded_text

__all__ = ["TEXT", "explanation_text", "hop_lines", "label", "plain", "short", "yaml_flow"]

TEXT = 80  # characters of a value in str() and the rich view


def short(value: Any) -> str:
    """``value`` on one line, at most :data:`TEXT` characters (``...`` at a cut)."""
    text = value if isinstance(value, str) else bounded_text(value, TEXT, style="flow")
    return text if len(text) <= TEXT else text[: TEXT - 3] + "..."


def plain(value: Any) -> Any:
    """JSON-ready data: calls as text, other odd leaves as their text."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def label(source: Any) -> str:
    """The table's label, with the refined kind when it says more (``template (function)``)."""
    if source.kind in ("function", "copy"):
        return f"{source.label} ({source.kind})"
    return source.label


def yaml_flow(value: Any) -> str:
    """``value`` as one line of YAML flow style (a call as its text, quoted)."""
    import yaml

    text = yaml.safe_dump(plain(value), default_flow_style=True, width=1 << 30, allow_unicode=True)
    text = text.strip()
    if text.endswith("\n..."):
        text = text[: -len("\n...")]
    elif text.endswith("..."):
        text = text[:-3].rstrip()
    return text.replace("\n", " ")


def hop_lines(hop: Any, indent: str) -> list[str]:
    """A :class:`~toskit.tosca.explain.Hop` as indented lines, nested hops below it."""
    value = short(hop.value) if hop.known else "(not known statically)"
    head = f"{indent}{hop.call} = {value}"
    if hop.target:
        head += f"  -> {hop.target}"
    if hop.source is not None:
        head += f"  [{hop.source.kind} {hop.source.where}]"
    out = [head]
    if hop.detail:
        out.append(f"{indent}  {hop.detail}")
    for inner in hop.hops:
        out.extend(hop_lines(inner, indent + "  "))
    if hop.explanation is not None:
        for layer in hop.explanation.stack:
            out.append(
                f"{indent}  {'*' if layer.won else ' '} {short(layer.value)}  "
                f"{label(layer.source)}  {layer.source.where}"
            )
        for inner in hop.explanation.hops:
            out.extend(hop_lines(inner, indent + "    "))
    return out


def explanation_text(e: Any) -> str:
    """``str()`` of an explanation: the value, its layers, hops, checks, findings."""
    out = [
        f"{e.entity_kind} {e.entity}: {e.path} = {short(e.value)}"
        + (f"  ({e.type})" if e.type else "")
    ]
    out.append("layers (lowest first, * won):")
    for layer in e.stack:
        source = layer.source
        out.append(
            f"  {'*' if layer.won else ' '} {short(layer.value):<24} {label(source):<24} "
            f"{source.where}"
            + (f"  (copied from {source.copied_from})" if source.copied_from else "")
        )
    if e.hops:
        out.append("functions:")
        for hop in e.hops:
            out.extend(hop_lines(hop, "  "))
    if e.checks:
        out.append("checks:")
        for c in e.checks:
            out.append(
                f"  {c.kind} {c.text}: {c.result}" + (f" ({c.message})" if c.message else "")
            )
    if e.findings:
        out.append("findings:")
        for d in e.findings:
            out.append(f"  {d}")
    return "\n".join(out)
