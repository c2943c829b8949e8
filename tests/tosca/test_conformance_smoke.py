"""Every ``valid`` file of the OASIS TOSCA 2.0 corpus loads without raising.

Verdicts (valid/invalid) are tracked by the conformance runner, not here;
this only guards against crashes on real-world templates.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import toskit

# The corpus is part of the repository (conformance/oasis-tosca-2.0, with its LICENSE).
CORPUS = Path(__file__).resolve().parents[2] / "conformance" / "oasis-tosca-2.0"


# Upstream's manifest names one file inside a __pycache__ folder; the copy the
# project received does not carry it (conformance/README.md).
NOT_IN_CORPUS = {"dsl-definitions/__pycache__/invalid_dsl_definitions.yaml"}


def _manifest() -> list[dict[str, str]]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    with manifest.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def _files(expect: str) -> list[str]:
    return [
        row["file"]
        for row in _manifest()
        if row["expect"] == expect and row["file"] not in NOT_IN_CORPUS
    ]


VALID = _files("valid")


def test_corpus_is_present() -> None:
    assert len(VALID) > 200, f"the conformance corpus is missing at {CORPUS}"
    absent = {row["file"] for row in _manifest() if not (CORPUS / row["file"]).is_file()}
    assert absent == NOT_IN_CORPUS, "every file the manifest names is in the repository"
    assert (CORPUS / "LICENSE").is_file()


@pytest.mark.parametrize("name", VALID)
def test_valid_file_loads(name: str) -> None:
    st = toskit.load(CORPUS / name)
    assert isinstance(st.ok, bool)
    for diag in st.diagnostics:
        assert diag.code and diag.message
        assert diag.severity in ("error", "warning", "info")
    for node in st.node_templates.values():
        node.property_table()


@pytest.mark.parametrize("name", _files("invalid"))
def test_invalid_file_loads_without_raising(name: str) -> None:
    st = toskit.load(CORPUS / name)
    assert isinstance(st.diagnostics, list)
