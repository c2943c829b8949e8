"""Which TOSCA grammar a document uses (spec/tosca.md §2).

``tosca_definitions_version`` selects the grammar; without it the grammar is
inferred (``service_template`` -> 2.0, ``topology_template`` -> 1.3,
neither -> 2.0) with a ``missing-version`` warning; an unknown version is an
``unknown-version`` error (with a did-you-mean hint) read as if missing. A
TOSCA 2.0 file must start with its version (``version-not-first``).
"""

from __future__ import annotations

from collections.abc import Mapping

from toskit.diagnostics import Diagnostic, did_you_mean
from toskit.source import YamlDocument
from toskit.tosca.grammar import GRAMMAR_1, GRAMMAR_2, VERSIONS, Grammar

__all__ = ["detect_version"]


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
    diags.append(
        doc.diagnostic(
            "error",
            "unknown-version",
            f"unknown tosca_definitions_version {written!r}; reading it as {inferred.version}",
            ("tosca_definitions_version",),
            hint=did_you_mean(str(written), VERSIONS) or f"known versions: {', '.join(VERSIONS)}",
        )
    )
    return (written if isinstance(written, str) else inferred.version), inferred, diags
