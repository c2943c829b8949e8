"""``file:`` URLs and repository-relative imports (toskit.tosca.load.imports)."""

from __future__ import annotations

from pathlib import Path

import pytest

import toskit
from toskit.tosca.load.imports import local_file_url

TYPES = "tosca_definitions_version: tosca_2_0\nnode_types:\n  Imported: {}\n"


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("file:types/t.yaml", "types/t.yaml"),
        ("file:../types/t.yaml", "../types/t.yaml"),
        ("file:///srv/t.yaml", "/srv/t.yaml"),
        ("file://localhost/srv/t.yaml", "/srv/t.yaml"),
        ("file:/srv/my%20types.yaml", "/srv/my types.yaml"),
        ("FILE:t.yaml", "t.yaml"),
        ("file://example.com/t.yaml", "file://example.com/t.yaml"),
        ("https://example.com/t.yaml", "https://example.com/t.yaml"),
        ("types/t.yaml", "types/t.yaml"),
    ],
    ids=[
        "relative",
        "parent",
        "absolute",
        "localhost",
        "escaped",
        "upper-scheme",
        "other-host-stays-a-url",
        "https-unchanged",
        "plain-path-unchanged",
    ],
)
def test_local_file_url(url: str, path: str) -> None:
    assert local_file_url(url) == path


def write(tmp_path: Path, main: str) -> Path:
    (tmp_path / "types").mkdir()
    (tmp_path / "types" / "t.yaml").write_text(TYPES, encoding="utf-8")
    path = tmp_path / "main.yaml"
    path.write_text("tosca_definitions_version: tosca_2_0\n" + main, encoding="utf-8")
    return path


def import_errors(st: toskit.ServiceTemplate) -> list[toskit.Diagnostic]:
    return [d for d in st.diagnostics if d.severity == "error"]


@pytest.mark.parametrize(
    "imports",
    [
        "imports:\n- url: file:types/t.yaml\n",
        "imports:\n- file:types/t.yaml\n",
        "repositories:\n  local: {url: 'file:types/'}\nimports:\n- url: t.yaml\n  repository: local\n",
        "repositories:\n  local: 'file:types'\nimports:\n- url: t.yaml\n  repository: local\n",
    ],
    ids=["long-file-url", "short-file-url", "file-repository", "short-repository-no-slash"],
)
def test_local_imports_resolve(tmp_path: Path, imports: str) -> None:
    st = toskit.load(str(write(tmp_path, imports)))
    assert import_errors(st) == []
    assert "Imported" in st.types


def test_a_remote_repository_is_never_fetched(tmp_path: Path) -> None:
    # The file exists beside the template, but the import names the repository's copy.
    (tmp_path / "t.yaml").write_text(TYPES, encoding="utf-8")
    st = toskit.load(
        str(
            write(
                tmp_path,
                "repositories:\n  remote: {url: 'https://example.com/base/'}\n"
                "imports:\n- url: t.yaml\n  repository: remote\n",
            )
        )
    )
    (diag,) = import_errors(st)
    assert diag.code == "import-error"
    assert diag.message.startswith(
        "cannot import 't.yaml' (read as 'https://example.com/base/t.yaml'): "
        "remote imports are disabled"
    )


def test_a_missing_file_url_names_the_import_as_written(tmp_path: Path) -> None:
    st = toskit.load(str(write(tmp_path, "imports:\n- url: file:nowhere/t.yaml\n")))
    (diag,) = import_errors(st)
    assert diag.code == "import-error"
    assert diag.message.startswith("cannot import 'file:nowhere/t.yaml' (read as 'nowhere/t.yaml')")
    assert "no such file" in diag.message


def test_an_undefined_repository_is_an_import_error(tmp_path: Path) -> None:
    st = toskit.load(
        str(
            write(
                tmp_path,
                "repositories:\n  local: {url: 'file:types/'}\n"
                "imports:\n- url: t.yaml\n  repository: locl\n",
            )
        )
    )
    (diag,) = import_errors(st)
    assert diag.code == "import-error"
    assert diag.message == "cannot import 't.yaml': no repository 'locl' is defined"
    assert diag.hint == "did you mean 'local'?"
    assert diag.path == "imports[0].repository"


def test_a_long_import_chain_loads_iteratively(tmp_path: Path, monkeypatch) -> None:
    """The imports phase walks the import tree with an explicit stack: a chain of
    1,200 files is cut at max_import_depth with one diagnostic, with no raised
    recursion limit (issue 15), and imported types come before the importer's."""
    import sys

    n = 1200
    for i in range(n):
        nxt = f"imports: [f{i + 1}.yaml]\n" if i + 1 < n else ""
        (tmp_path / f"f{i}.yaml").write_text(
            "tosca_definitions_version: tosca_2_0\n"
            + nxt
            + f"data_types: {{D{i}: {{derived_from: string}}}}\n"
        )
    raised: list[int] = []
    monkeypatch.setattr(sys, "setrecursionlimit", raised.append)
    st = toskit.load(tmp_path / "f0.yaml")
    assert [d.code for d in st.diagnostics] == ["limit-exceeded"]
    assert {"D0", "D1", "D999"} <= set(st.types)
    assert raised == []
