"""The normative TOSCA type profiles that ship with toskit, as YAML files.

* ``tosca-simple-1.3.yaml``: every normative type of the TOSCA Simple
  Profile in YAML 1.3 (data, artifact, capability, interface, relationship,
  node, group and policy types), loaded for 1.x documents
  (``tosca_simple_yaml_1_*``, ``tosca_simple_unfurl_1_0_0``).
* ``tosca-nfv-1.0.yaml``: the TOSCA Simple Profile for NFV 1.0 (VNF, VDU,
  CP, VL, FP...), loaded on top of the 1.x types for
  ``tosca_simple_profile_for_nfv_1_0_0`` documents.
* ``tosca-2.0.yaml``: the TOSCA 2.0 simple profile
  (``org.oasis-open.simple:2.0``) with 2.0 names and grammar, loaded for
  ``tosca_2_0`` documents.

This package only locates the files; the TOSCA loader parses and caches
them. ``toskit.dsl`` generates its Python base classes from them.
"""

from __future__ import annotations

from pathlib import Path

from toskit.errors import ToskitError

__all__ = ["PROFILE_FILES", "profile_path"]

_HERE = Path(__file__).resolve().parent

#: Version family -> file name of its profile.
PROFILE_FILES: dict[str, str] = {
    "1.3": "tosca-simple-1.3.yaml",
    "2.0": "tosca-2.0.yaml",
    # On top of the 1.x types, for ``tosca_simple_profile_for_nfv_1_0_0``.
    "nfv-1.0": "tosca-nfv-1.0.yaml",
    # On top of the 1.x types, for 1.0-1.2 documents (what 1.3 changed).
    "1.0-delta": "tosca-simple-1.0-delta.yaml",
}


def profile_path(version_family: str) -> Path:
    """Return the path of the normative profile for ``"1.3"`` or ``"2.0"``.

    Raises ``ToskitError`` (naming the known families) for anything else.
    """
    try:
        return _HERE / PROFILE_FILES[version_family]
    except (KeyError, TypeError):
        known = ", ".join(repr(k) for k in PROFILE_FILES)
        raise ToskitError(
            f"no normative TOSCA profile for version family {version_family!r}; known: {known}"
        ) from None
