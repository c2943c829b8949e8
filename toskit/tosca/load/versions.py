"""Which TOSCA grammar a document uses.

``tosca_definitions_version`` selects the grammar; without it the grammar is
inferred (``service_template`` -> 2.0, ``topology_template`` -> 1.3,
neither -> 2.0) with a ``missing-version`` warning. An unknown version is
one ``unknown-version`` error, and the document is read as the known
version it most likely means (:func:`reading_of`: ``tosca_simple_yaml_1_1_0``
as ``tosca_simple_yaml_1_1``, any other ``tosca_simple_*`` with the 1.x
grammar), named by the hint, so the grammar does not turn every 1.x keyname
into a cascade of 2.0 errors; only a version that names no grammar at all
is read as if missing. A TOSCA 2.0 file must start with its version
(``version-not-first``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from toskit.diagnostics import Diagnostic, did_you_mean, suggest
from toskit.patterns import lazy_pattern
from toskit.source import YamlDocument
from toskit.tosca.load.grammar import GRAMMAR_1, GRAMMAR_2, VERSIONS, Grammar

__all__ = ["detect_version", "reading_of"]

_SIMPLE_YAML = lazy_pattern(r"tosca_simple_yaml_(\d+)[._](\d+)(?:[._]\d+)*", re.IGNORECASE)
_NFV = "tosca_simple_profile_for_nfv_1_0_0"


def reading_of(written: str) -> str | None:
    """The known version an unknown ``tosca_definitions_version`` is read as, or ``None``.

    ``tosca_simple_yaml_1_1_0`` (ONAP) is ``tosca_simple_yaml_1_1``: the
    leading major and minor numbers decide, extra components are dropped.
    Then the one closest known version, if the spelling is that close to a
    single one; then the family the prefix names (``tosca_simple_*``,
    ``tosca_1*``: 1.3; ``tosca_2*``: 2.0). ``None`` when nothing names a
    grammar (``foo``): the document is then read as if it had no version.
    """
    m = _SIMPLE_YAML.fullmatch(written.strip())
    if m is not None:
        known = f"tosca_simple_yaml_{int(m.group(1))}_{int(m.group(2))}"
        if known in VERSIONS:
            return known
    lowered = written.strip().lower()
    if lowered in VERSIONS:
        return lowered  # a case slip: TOSCA_SIMPLE_YAML_1_3
    if lowered.startswith("tosca_simple_profile_for_nfv"):
        return _NFV
    found = suggest(written, VERSIONS)
    if found is not None and found.best is not None:
        return found.best
    if lowered.startswith(("tosca_simple", "tosca_1")):
        return GRAMMAR_1.version
    if lowered.startswith("tosca_2"):
        return GRAMMAR_2.version
    return None


def detect_version(doc: YamlDocument, root: Mapping) -> tuple[str, Grammar, list[Diagnostic]]:
    """The version string, its grammar, and ``missing-version``/``unknown-version``."""
    diags: list[Diagnostic] = []
    written = root.get("tosca_definitions_version")
    if isinstance(written, str) and written in VERSIONS:
        grammar = VERSIONS[written]
        if grammar.major == 2 and next(iter(root)) != "tosca_definitions_version":
            # TOSCA 2.0: the version must come first, so tools can tell the grammar
            # before reading the rest.
            diags.append(
                doc.diagnostic(
                    "error",
                    "version-not-first",
                    "tosca_definitions_version must be the first keyname of a TOSCA 2.0 file",
                    ("tosca_definitions_version",),
                    at_key=True,
                )
            )
        return written, grammar, diags
    inferred = (
        GRAMMAR_1 if "topology_template" in root and "service_template" not in root else GRAMMAR_2
    )
    if written is None:
        diags.append(
            doc.diagnostic(
                "warning",
                "missing-version",
                f"no tosca_definitions_version; assuming {inferred.version}",
                (),
                hint=f"add 'tosca_definitions_version: {inferred.version}' as the first line",
            )
        )
        return inferred.version, inferred, diags
    reading = reading_of(written) if isinstance(written, str) else None
    shown = f"'{written}'" if isinstance(written, str) else _yaml_repr(written)
    if reading is not None:
        diags.append(
            doc.diagnostic(
                "error",
                "unknown-version",
                f"unknown tosca_definitions_version {shown}; reading it as {reading}",
                ("tosca_definitions_version",),
                hint=f"did you mean '{reading}'?",
                replacement=reading,  # the fix (issue #28): the version it is read as
                fix_title=f"write '{reading}'",
            )
        )
        # the version read as: it picks the normative types too (1.1's for 1.1_0)
        return reading, VERSIONS[reading], diags
    diags.append(
        doc.diagnostic(
            "error",
            "unknown-version",
            f"unknown tosca_definitions_version {shown}; reading it as {inferred.version}",
            ("tosca_definitions_version",),
            # A did-you-mean with its fix (issue #28), else the known versions.
            hint=None
            if isinstance(written, str) and did_you_mean(written, VERSIONS)
            else f"known versions: {', '.join(VERSIONS)}",
            misspelt=written if isinstance(written, str) else None,
            candidates=VERSIONS,
        )
    )
    return (written if isinstance(written, str) else inferred.version), inferred, diags


def _yaml_repr(value: object) -> str:
    """A non-string version as YAML writes it (``1.3``, ``true``, ``null``, a map)."""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, Mapping):
        return "a map"
    if isinstance(value, list):
        return "a list"
    return "null" if value is None else str(value)
