"""The normative TOSCA types, loaded once per process and shared.

The YAML files live in :mod:`toskit.tosca.profiles`; this module parses one
the first time a document of its version family needs it and keeps the
resulting :class:`~toskit.tosca.types.registry.Registry` for the life of the
process. Every template's registry sits on top of it (lookups fall through,
``Type`` objects are shared and never modified).
"""

from __future__ import annotations

import threading

from toskit.diagnostics import Diagnostic
from toskit.source import load_yaml_file
from toskit.tosca.load.grammar import TYPE_SECTIONS
from toskit.tosca.profiles import ABSENT_TYPES, OLDER_FAMILIES, older_family, profile_file
from toskit.tosca.types.registry import Registry, TypeSource

__all__ = ["NFV_VERSION", "normative_registry", "profile_diagnostics", "registry_for"]

_CACHE: dict[int, tuple[Registry, list[Diagnostic]]] = {}
_LOCK = threading.RLock()  # re-entrant: the NFV profile builds on the 1.x one


# The NFV profile's version, and the key of its registry in the cache.
NFV_VERSION = "tosca_simple_profile_for_nfv_1_0_0"
_NFV = 10
# 1.0-1.2 documents: the 1.3 types with each older version's delta applied
# (profiles.OLDER_FAMILIES); cache keys 100, 110, 120.
_OLDER = {"1.0": 100, "1.1": 110, "1.2": 120}
# A profile layered on normative types: its file, and the cache key of the
# normative types it sits on -- those of its own version (issue 38 item 10:
# the NFV 1.0 profile is written against the Simple Profile 1.0, where
# BlockStorage has no ``name``), never the newest 1.x types.
_LAYERS = {_NFV: ("nfv-1.0", _OLDER["1.0"])}


def _sources(path_key: str, diags: list[Diagnostic]) -> tuple[list[TypeSource], list[str]]:
    """The type sources of one shipped profile file, and the names it declares absent."""
    doc = load_yaml_file(profile_file(path_key))
    diags.extend(doc.diagnostics)
    value = doc.value if isinstance(doc.value, dict) else {}
    sources = []
    for section, kind in TYPE_SECTIONS.items():
        defs = value.get(section)
        if isinstance(defs, dict):
            for name, raw in defs.items():
                sources.append(
                    TypeSource(kind, str(name), raw, doc, (section, name), normative=True)
                )
    meta = value.get("metadata")
    absent = meta.get(ABSENT_TYPES, "") if isinstance(meta, dict) else ""
    return sources, str(absent).split()


def _build(major: int) -> tuple[Registry, list[Diagnostic]]:
    diags: list[Diagnostic] = []
    family = next((f for f, key in _OLDER.items() if key == major), None)
    if family is not None:
        # An older Simple Profile: the 1.3 sources, each delta replacing types
        # by name and dropping the ones its version lacks (a registry of its
        # own, so an absent name is unknown rather than inherited from 1.3).
        merged = {(s.kind, s.name): s for s in _sources("1.3", diags)[0]}
        for delta in OLDER_FAMILIES[family]:
            sources, absent = _sources(delta, diags)
            for name in absent:
                for kind in {k for k, _ in merged}:
                    merged.pop((kind, name), None)
            merged.update({(s.kind, s.name): s for s in sources})
        registry = Registry()
        diags.extend(registry.add_sources(list(merged.values())))
        return registry, diags
    if major in _LAYERS:
        # The NFV types sit on top of the normative types of their version.
        layer, base = _LAYERS[major]
        sources = _sources(layer, diags)[0]
        registry = Registry(base=normative_registry(base))
    else:
        sources = _sources("2.0" if major == 2 else "1.3", diags)[0]
        registry = Registry()
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


def registry_for(version: str, major: int) -> Registry:
    """The types a document of ``version`` sees: the NFV profile's or the normative ones."""
    if version == NFV_VERSION:
        return normative_registry(_NFV)
    family = older_family(version)
    return normative_registry(_OLDER[family] if family is not None else major)


def profile_diagnostics(major: int) -> list[Diagnostic]:
    """Problems found in the shipped profile itself (should be none; tests check)."""
    normative_registry(major)
    return list(_CACHE[major][1])
