"""Check a document's keynames against the grammar tables of :mod:`.grammar`.

Reports ``unknown-keyname`` (with a did-you-mean hint) for a key TOSCA does
not define at its place, and ``invalid-definition`` where a section that
must be a map (or a list) is something else. Values TOSCA leaves to the
user (property values, metadata, filters) are not looked into here.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from toskit.diagnostics import Diagnostic, did_you_mean
from toskit.source import YamlDocument
from toskit.tosca.grammar import ANY, Keys, ListOf, NamedList, NamedMap, Shape, Short

__all__ = ["check_keynames"]


def check_keynames(doc: YamlDocument, value: Any, shape: Shape) -> list[Diagnostic]:
    """Every keyname problem of ``value`` (the whole document) against ``shape``."""
    out: list[Diagnostic] = []
    _walk(doc, value, shape, [], out)
    return out


def _walk(
    doc: YamlDocument, value: Any, shape: Shape, parts: list[Hashable], out: list[Diagnostic]
) -> None:
    if shape is ANY or value is None:
        return
    if isinstance(shape, Short):
        if isinstance(value, shape.short) and not isinstance(value, dict):
            return
        _walk(doc, value, shape.full, parts, out)
        return
    if isinstance(shape, Keys):
        if not isinstance(value, dict):
            out.append(_not_a(doc, parts, f"a {shape.name} must be a map", value))
            return
        for key, item in value.items():
            sub = shape.keys.get(key) if isinstance(key, str) else None
            if sub is None:
                sub = shape.extra
            if sub is None:
                out.append(
                    doc.diagnostic(
                        "error",
                        "unknown-keyname",
                        f"unknown keyname '{key}' in {shape.name}",
                        (*parts, key),
                        hint=_hint(key, shape),
                        at_key=True,
                    )
                )
                continue
            _walk(doc, item, sub, [*parts, key], out)
        return
    if isinstance(shape, NamedMap):
        if not isinstance(value, dict):
            out.append(_not_a(doc, parts, "expected a map of names", value))
            return
        for key, item in value.items():
            _walk(doc, item, shape.item, [*parts, key], out)
        return
    if isinstance(shape, NamedList):
        if isinstance(value, dict) and shape.also_map:
            for key, item in value.items():
                _walk(doc, item, shape.item, [*parts, key], out)
            return
        if not isinstance(value, list):
            out.append(_not_a(doc, parts, "expected a list of single-key maps", value))
            return
        for index, entry in enumerate(value):
            if not isinstance(entry, dict) or len(entry) != 1:
                out.append(
                    _not_a(
                        doc, [*parts, index], "expected a single-key map (name: definition)", entry
                    )
                )
                continue
            ((key, item),) = entry.items()
            _walk(doc, item, shape.item, [*parts, index, key], out)
        return
    if isinstance(shape, ListOf):
        if not isinstance(value, list):
            out.append(_not_a(doc, parts, "expected a list", value))
            return
        for index, item in enumerate(value):
            _walk(doc, item, shape.item, [*parts, index], out)


def _hint(key: Hashable, shape: Keys) -> str | None:
    other = shape.renamed.get(key) if isinstance(key, str) else None
    if other is not None:
        return f"did you mean '{other}'? ('{key}' belongs to the other TOSCA version)"
    return did_you_mean(str(key), shape.keys)


def _not_a(doc: YamlDocument, parts: list[Hashable], what: str, value: Any) -> Diagnostic:
    return doc.diagnostic(
        "error",
        "invalid-definition",
        f"{what}, got {type(value).__name__} {_short(value)}",
        parts,
    )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
