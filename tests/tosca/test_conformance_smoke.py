"""Every ``valid`` file of the OASIS TOSCA 2.0 corpus loads without raising.

Verdicts (valid/invalid) are tracked by the conformance runner, not here;
this only guards against crashes on real-world templates.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import toskit

# The project's convention (bench/conformance.py): shared/ sits beside the repository.
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "conformance" / "oasis-tosca-2.0"


def _files(expect: str) -> list[str]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    with manifest.open(encoding="utf-8") as fh:
        return [
            row["file"] for row in csv.DictReader(fh, delimiter="\t") if row["expect"] == expect
        ]


VALID = _files("valid")


def test_corpus_is_present() -> None:
    assert len(VALID) > 200, f"the conformance corpus is missing at {CORPUS}"


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
