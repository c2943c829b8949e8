"""The normative TOSCA type profiles that ship with toskit, as YAML files.

* ``tosca-simple-1.3.yaml``: every normative type of the TOSCA Simple
  Profile in YAML 1.3 (data, artifact, capability, interface, relationship,
  node, group and policy types), loaded for 1.x documents
  (``tosca_simple_yaml_1_*``, ``tosca_simple_unfurl_1_0_0``).
* ``tosca-simple-1.2-delta.yaml``, ``-1.1-delta.yaml``, ``-1.0-delta.yaml``:
  what each older Simple Profile changes against the next version up. A
  1.2 document sees the 1.3 types with the 1.2 delta applied, a 1.1
  document the 1.2 and 1.1 deltas, a 1.0 document all three
  (:data:`OLDER_FAMILIES`). A delta's type replaces the one of that name;
  the names in its metadata ``toskit.absent_types`` are absent. Their
  sources and licence: the files' headers and ``NOTICE``.
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

import os
from typing import TYPE_CHECKING

from toskit.errors import ToskitError

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "ABSENT_TYPES",
    "OLDER_FAMILIES",
    "PROFILE_FILES",
    "older_family",
    "profile_file",
    "profile_path",
]

# os.path, not pathlib: pathlib brings urllib.parse, ipaddress and fnmatch,
# ~2 ms of every `toskit check` that needs none of them (#31). The loader
# reads profile_file(); profile_path() still gives a Path.
_HERE = os.path.dirname(os.path.realpath(__file__))

#: Version family -> file name of its profile.
PROFILE_FILES: dict[str, str] = {
    "1.3": "tosca-simple-1.3.yaml",
    "2.0": "tosca-2.0.yaml",
    # On top of the 1.x types, for ``tosca_simple_profile_for_nfv_1_0_0``.
    "nfv-1.0": "tosca-nfv-1.0.yaml",
    # Applied to the 1.3 types for 1.0-1.2 documents (OLDER_FAMILIES).
    "1.2-delta": "tosca-simple-1.2-delta.yaml",
    "1.1-delta": "tosca-simple-1.1-delta.yaml",
    "1.0-delta": "tosca-simple-1.0-delta.yaml",
}

#: Older Simple Profile version -> the deltas applied, in order, to the 1.3 types.
OLDER_FAMILIES: dict[str, tuple[str, ...]] = {
    "1.2": ("1.2-delta",),
    "1.1": ("1.2-delta", "1.1-delta"),
    "1.0": ("1.2-delta", "1.1-delta", "1.0-delta"),
}

#: The metadata key of a delta naming (space-separated) the types its version lacks.
ABSENT_TYPES = "toskit.absent_types"

_OLDER_VERSIONS = {
    **{f"tosca_simple_yaml_1_{minor}": f"1.{minor}" for minor in range(3)},
    **{
        f"http://docs.oasis-open.org/tosca/ns/simple/yaml/1.{minor}": f"1.{minor}"
        for minor in range(3)
    },
}


def older_family(version: object) -> str | None:
    """``"1.0"``, ``"1.1"`` or ``"1.2"`` for a document of that Simple Profile
    version, else None."""
    return _OLDER_VERSIONS.get(version) if isinstance(version, str) else None


def profile_file(version_family: str) -> str:
    """The path of the normative profile for ``"1.3"`` or ``"2.0"``, as a string.

    Raises ``ToskitError`` (naming the known families) for anything else.
    """
    try:
        return os.path.join(_HERE, PROFILE_FILES[version_family])
    except (KeyError, TypeError):
        known = ", ".join(repr(k) for k in PROFILE_FILES)
        raise ToskitError(
            f"no normative TOSCA profile for version family {version_family!r}; known: {known}"
        ) from None


def profile_path(version_family: str) -> Path:
    """Return the path of the normative profile for ``"1.3"`` or ``"2.0"``.

    Raises ``ToskitError`` (naming the known families) for anything else.
    """
    from pathlib import Path

    return Path(profile_file(version_family))
