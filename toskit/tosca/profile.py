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

__all__ = ["NFV_VERSION", "normative_registry", "profile_diagnostics", "registry_for"]

_CACHE: dict[int, tuple[Registry, list[Diagnostic]]] = {}
_LOCK = threading.RLock()  # re-entrant: the NFV profile builds on the 1.x one


# The NFV profile's version, and the key of its registry in the cache.
NFV_VERSION = "tosca_simple_profile_for_nfv_1_0_0"
_NFV = 10
# 1.0-1.2 documents: the 1.x types with what 1.3 changed put back.
_OLDER = 12
OLDER_VERSIONS = frozenset(
    [f"tosca_simple_yaml_1_{minor}" for minor in range(3)]
    + [f"http://docs.oasis-open.org/tosca/ns/simple/yaml/1.{minor}" for minor in range(3)]
)
_LAYERS = {_NFV: "nfv-1.0", _OLDER: "1.0-delta"}


def _build(major: int) -> tuple[Registry, list[Diagnostic]]:
    if major in _LAYERS:
        # The NFV types and the 1.0-1.2 delta sit on top of the 1.x types.
        path = profile_path(_LAYERS[major])
        registry = Registry(base=normative_registry(1))
    else:
        path = profile_path("2.0" if major == 2 else "1.3")
        registry = Registry()
    doc = load_yaml_file(path)
    diags = list(doc.diagnostics)
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


def registry_for(version: str, major: int) -> Registry:
    """The types a document of ``version`` sees: the NFV profile's or the normative ones."""
    if version == NFV_VERSION:
        return normative_registry(_NFV)
    return normative_registry(_OLDER if version in OLDER_VERSIONS else major)


def profile_diagnostics(major: int) -> list[Diagnostic]:
    """Problems found in the shipped profile itself (should be none; tests check)."""
    normative_registry(major)
    return list(_CACHE[major][1])
