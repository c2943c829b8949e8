"""The normative TOSCA types, loaded once per process and shared.

The YAML files live in :mod:`toskit.tosca.profiles`; this module parses one
the first time a document of its version family needs it and keeps the
resulting :class:`~toskit.tosca.types.registry.Registry` for the life of the
process. Every template's registry sits on top of it (lookups fall through,
``Type`` objects are shared and never modified).

The files are not parsed at every start: :mod:`toskit.tosca.load.compiled_profiles`
holds their values as Python literals (compiled to bytecode at install like
any module), used when the file's text is the one they were generated from
(its length and CRC-32), else the file is parsed as before. Building the
1.3 value so costs ~0.2 ms instead of ~1.6 ms of parsing at every
``toskit check`` (#31). After editing a profile file, regenerate it::

    python -c "from toskit.tosca.load import profile; profile.write_compiled()"

(``tests/test_startup.py`` fails while it is stale.)
"""

from __future__ import annotations

import _thread
import binascii

from toskit.diagnostics import Diagnostic
from toskit.source import YamlDocument, load_yaml_file, read_text_file
from toskit.tosca.load.grammar import TYPE_SECTIONS
from toskit.tosca.profiles import (
    ABSENT_TYPES,
    OLDER_FAMILIES,
    PROFILE_FILES,
    older_family,
    profile_file,
)
from toskit.tosca.types.registry import Registry, TypeSource

__all__ = [
    "NFV_VERSION",
    "compiled_source",
    "normative_registry",
    "profile_diagnostics",
    "profile_document",
    "registry_for",
    "write_compiled",
]

_CACHE: dict[int, tuple[Registry, list[Diagnostic]]] = {}
# re-entrant: the NFV profile builds on the 1.x one (threading.RLock is
# _thread.RLock; importing threading costs ~0.5 ms of start-up, #31)
_LOCK = _thread.RLock()


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


def _fingerprint(text: str) -> tuple[int, int]:
    """What a compiled value is checked against: the text's length and the CRC-32 of its UTF-8."""
    return len(text), binascii.crc32(text.encode("utf-8"))


def profile_document(path_key: str) -> YamlDocument:
    """The document of a shipped profile file (a key of ``PROFILE_FILES``).

    Its value comes from :mod:`toskit.tosca.load.compiled_profiles` when that
    was generated from this very text, else from parsing the file: the same
    value, key names and (no) diagnostics either way; locations are found
    from the text on first use, as for any document read by rapidyaml.
    """
    from toskit.tosca.load import compiled_profiles

    path = profile_file(path_key)
    entry = compiled_profiles.PROFILES.get(path_key)
    if entry is not None:
        text = read_text_file(path)
        length, crc, key_names, build = entry
        if _fingerprint(text) == (length, crc):
            doc = YamlDocument(path, text, build(), [])
            doc.key_names = frozenset(key_names)
            return doc
    return load_yaml_file(path)


def compiled_source() -> str:
    """The text of ``toskit/tosca/load/compiled_profiles.py`` for the shipped profile files
    (each parsed, never read back from the compiled values)."""
    import ast

    out = [
        '"""The shipped normative profiles\' YAML values, as Python literals (generated).',
        "",
        "Written by ``toskit.tosca.load.profile.write_compiled()`` from the files of",
        ":mod:`toskit.tosca.profiles`: do not edit. ``profile.profile_document`` uses",
        "a value only when the file's text still has the length and CRC-32 recorded",
        "here (else it parses the file); ``tests/test_startup.py`` checks it is current.",
        '"""',
        "",
        "# fmt: off",
        "from typing import Any",
        "",
    ]
    entries = []
    for index, key in enumerate(PROFILE_FILES):
        path = profile_file(key)
        text = read_text_file(path)
        doc = load_yaml_file(path)
        if doc.diagnostics or doc.key_names is None or not isinstance(doc.value, dict):
            raise ValueError(f"{path}: not a clean mapping read by rapidyaml: {doc.diagnostics}")
        literal = repr(doc.value)
        if ast.literal_eval(literal) != doc.value:
            raise ValueError(f"{path}: its value does not survive repr()")
        out += ["", f"def _profile_{index}() -> Any:", f"    return {literal}", ""]
        length, crc = _fingerprint(text)
        names = tuple(sorted(doc.key_names))
        entries.append(f"    {key!r}: ({length}, {crc}, {names!r}, _profile_{index}),")
    out += [
        "",
        "#: profile key -> (text length, CRC-32 of its UTF-8, its key names, its value's builder)",
        "PROFILES: dict[str, tuple[int, int, tuple[str, ...], Any]] = {",
        *entries,
        "}",
    ]
    return "\n".join(out) + "\n"


def write_compiled() -> None:
    """Regenerate ``compiled_profiles.py`` beside this module (after editing a profile file)."""
    import os

    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compiled_profiles.py")
    with open(target, "w", encoding="utf-8") as handle:
        handle.write(compiled_source())


def _sources(path_key: str, diags: list[Diagnostic]) -> tuple[list[TypeSource], list[str]]:
    """The type sources of one shipped profile file, and the names it declares absent."""
    doc = profile_document(path_key)
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
