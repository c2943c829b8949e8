"""Every ``valid`` file of the OASIS TOSCA 2.0 corpus loads without raising.

Verdicts (valid/invalid) are tracked by the conformance runner, not here;
this only guards against crashes on real-world templates.
"""

from __future__ import annotations

import pytest
from corpus import CORPUS, NOT_IN_CORPUS, files, load, manifest

import toskit

VALID = files("valid")


def test_corpus_is_present() -> None:
    assert len(VALID) > 200, f"the conformance corpus is missing at {CORPUS}"
    absent = {row["file"] for row in manifest() if not (CORPUS / row["file"]).is_file()}
    assert absent == NOT_IN_CORPUS, "every file the manifest names is in the repository"
    assert (CORPUS / "LICENSE").is_file()


@pytest.mark.parametrize("name", VALID)
def test_valid_file_loads(name: str) -> None:
    st = load(name)
    assert isinstance(st, toskit.ServiceTemplate), st
    assert isinstance(st.ok, bool)
    for diag in st.diagnostics:
        assert diag.code and diag.message
        assert diag.severity in ("error", "warning", "info")
    for node in st.node_templates.values():
        node.property_table()


@pytest.mark.parametrize("name", files("invalid"))
def test_invalid_file_loads_without_raising(name: str) -> None:
    st = load(name)
    assert isinstance(st, toskit.ServiceTemplate), st
    assert isinstance(st.diagnostics, list)
