"""The OASIS TOSCA 2.0 conformance corpus, each file loaded once per test run.

``tests/tosca/test_conformance_smoke.py`` (every file loads, its tables
render) and ``tests/test_conformance_floor.py`` (the pass rate of ``toskit
check`` verdicts) read the same 420 files; :func:`load` keeps each result,
so the run loads the corpus once, not twice.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path

import toskit
from toskit.errors import ToskitError

# The corpus is part of the repository (conformance/oasis-tosca-2.0, with its LICENSE).
CORPUS = Path(__file__).resolve().parents[1] / "conformance" / "oasis-tosca-2.0"

# Upstream's manifest names one file inside a __pycache__ folder; the copy the
# project received does not carry it (conformance/README.md).
NOT_IN_CORPUS = {"dsl-definitions/__pycache__/invalid_dsl_definitions.yaml"}


def manifest() -> list[dict[str, str]]:
    """The rows of MANIFEST.tsv (``file``, ``expect``, ``needs_csar``)."""
    path = CORPUS / "MANIFEST.tsv"
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def files(expect: str) -> list[str]:
    """The corpus files the manifest expects to be ``valid`` or ``invalid``."""
    return [
        row["file"]
        for row in manifest()
        if row["expect"] == expect and row["file"] not in NOT_IN_CORPUS
    ]


@functools.cache
def catalog(folder: str) -> toskit.tosca.load.catalog.ProfileCatalog:
    """The profile catalog of one corpus folder (indexed once per run)."""
    from toskit.tosca.load.catalog import ProfileCatalog

    return ProfileCatalog([CORPUS / folder])


@functools.cache
def load(name: str) -> toskit.ServiceTemplate | ToskitError:
    """``toskit.load`` of one corpus file (its ``ToskitError`` if it cannot be read), once.

    The profile catalog is the file's own folder, as ``bench/conformance.py``
    runs ``toskit check --profiles FOLDER``.
    """
    try:
        return toskit.load(CORPUS / name, profiles=catalog(str(Path(name).parent)))
    except ToskitError as exc:
        return exc


def check_status(name: str) -> tuple[int, str]:
    """What ``toskit check`` gives for a corpus file: exit status and first error line.

    Status 0 (no error), 1 (errors) or 2 (not readable), as the CLI; read from
    the cached load (``test_conformance_floor`` checks that they agree).
    """
    st = load(name)
    if isinstance(st, ToskitError):
        return 2, str(st)
    first = next((d.headline() for d in st.diagnostics if d.severity == "error"), "")
    return (0 if st.ok else 1), first
