"""The normative TOSCA types, loaded once per process and shared.

The YAML files live in :mod:`toskit.tosca.profiles`; this module parses one
the first time a document of its version family needs it and keeps the
resulting :class:`~toskit.tosca.registry.Registry` for the life of the
process. Every template's registry sits on top of it (lookups fall through,
``Type`` objects are shared and never modified).
"""

from __future__ import annotations

import threading

from toskit.diagnostics import Diagnostic
from toskit.source import load_yaml_file
from toskit.tosca.grammar import TYPE_SECTIONS
from toskit.tosca.profiles import profile_path
from toskit.tosca.registry import Registry, TypeSource

__all__ = ["normative_registry", "profile_diagnostics"]

_CACHE: dict[int, tuple[Registry, list[Diagnostic]]] = {}
_LOCK = threading.Lock()


def _build(major: int) -> tuple[Registry, list[Diagnostic]]:
    path = profile_path("2.0" if major == 2 else "1.3")
    doc = load_yaml_file(path)
    diags = list(doc.diagnostics)
    registry = Registry()
    value = doc.value if isinstance(doc.value, dict) else {}
    sources = []
    for section, kind in TYPE_SECTIONS.items():
        defs = value.get(section)
        if isinstance(defs, dict):
            for name, raw in defs.items():
                sources.append(
                    TypeSource(kind, str(name), raw, doc, (section, name), normative=True)
                )
    diags.extend(registry.add_sources(sources))
    return registry, diags


def normative_registry(major: int) -> Registry:
    """The registry of normative types for 1.x (``1``) or 2.0 (``2``) documents."""
    entry = _CACHE.get(major)
    if entry is None:
        with _LOCK:
            entry = _CACHE.get(major)
            if entry is None:
                entry = _build(major)
                _CACHE[major] = entry
    return entry[0]


def profile_diagnostics(major: int) -> list[Diagnostic]:
    """Problems found in the shipped profile itself (should be none; tests check)."""
    normative_registry(major)
    return list(_CACHE[major][1])
