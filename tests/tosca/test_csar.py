"""CSAR archives (issue 20 item 18): read in memory, bounded, imports inside the archive."""

from __future__ import annotations

import stat
import time
import zipfile
from pathlib import Path

import pytest

import toskit
from toskit.cli import main

CORPUS = Path(__file__).resolve().parents[2] / "conformance" / "oasis-tosca-2.0"


def _csar(
    path: Path,
    files: dict[str, str | bytes],
    entry: str | None = None,
    compression: int = zipfile.ZIP_DEFLATED,
) -> Path:
    with zipfile.ZipFile(path, "w", compression) as zf:
        if entry is not None:
            zf.writestr(
                "TOSCA-Metadata/TOSCA.meta",
                f"TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 2.0\nEntry-Definitions: {entry}\n",
            )
        for name, data in files.items():
            zf.writestr(name, data)
    return path


def _folder(folder: Path, moved: dict[str, str] | None = None) -> dict[str, str | bytes]:
    """Every file of a corpus folder, by its path in the archive (``moved``: renamed)."""
    out: dict[str, str | bytes] = {}
    for file in sorted(folder.rglob("*")):
        if file.is_file() and not file.name.endswith(".zip"):
            rel = file.relative_to(folder).as_posix()
            out[(moved or {}).get(rel, rel)] = file.read_bytes()
    return out


@pytest.mark.parametrize(
    ("folder", "moved", "entry"),
    [
        # ../types/... from Definitions/ is the archive's types/ folder.
        ("examples", {"s26a.yaml": "Definitions/s26a.yaml"}, "Definitions/s26a.yaml"),
        ("examples", None, "s28a.yaml"),
        # /base.yaml is archive-absolute.
        ("examples", None, "s29.yaml"),
        ("group-types", None, "s14a.yaml"),
    ],
)
def test_oasis_csar_tests(tmp_path: Path, folder: str, moved: dict | None, entry: str) -> None:
    archive = _csar(tmp_path / "app.csar", _folder(CORPUS / folder, moved), entry)
    st = toskit.load(archive)
    assert st.errors == [], st.errors
    assert main(["check", str(archive)]) == 0


TYPES = "tosca_definitions_version: tosca_2_0\nnode_types:\n  T: {derived_from: Root}\n"
MAIN = (
    "tosca_definitions_version: tosca_2_0\nimports:\n  - IMPORT\n"
    "service_template:\n  node_templates:\n    a: {type: T}\n"
)


def test_single_root_yaml_without_metadata(tmp_path: Path) -> None:
    archive = _csar(
        tmp_path / "app.zip",
        {"main.yaml": MAIN.replace("IMPORT", "types/t.yaml"), "types/t.yaml": TYPES},
    )
    assert toskit.load(archive).diagnostics == []


def test_diagnostics_name_the_entry_in_the_archive(tmp_path: Path) -> None:
    archive = _csar(
        tmp_path / "app.csar",
        {
            "Definitions/main.yaml": MAIN.replace("IMPORT", "t.yaml"),
            "Definitions/t.yaml": TYPES + "  U: {derived_from: Bogus}\n",
        },
        "Definitions/main.yaml",
    )
    (diag,) = toskit.load(archive).diagnostics
    assert diag.code == "unknown-type"
    assert (diag.file, diag.line, diag.column) == (f"{archive}!/Definitions/t.yaml", 4, 21)


@pytest.mark.parametrize(
    ("files", "entry", "code", "words"),
    [
        (
            {"a.yaml": TYPES, "b.yaml": TYPES},
            None,
            "csar-error",
            "2 YAML files at the archive's root",
        ),
        ({"a.yaml": TYPES}, "Definitions/none.yaml", "csar-error", "does not have"),
        ({"../evil.yaml": TYPES}, None, "csar-error", "parent ('..') path"),
        ({"/etc/evil.yaml": TYPES}, None, "csar-error", "absolute"),
        ({"a.yaml": b"\xff\xfe not utf-8"}, None, "import-error", "not UTF-8"),
    ],
)
def test_refused_archives(
    tmp_path: Path, files: dict, entry: str | None, code: str, words: str
) -> None:
    st = toskit.load(_csar(tmp_path / "app.csar", files, entry))
    assert [d.code for d in st.diagnostics] == [code]
    assert words in st.diagnostics[0].message


def test_import_outside_the_archive_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.yaml").write_text(TYPES)
    archive = _csar(tmp_path / "app.csar", {"main.yaml": MAIN.replace("IMPORT", "../secret.yaml")})
    codes = [d.code for d in toskit.load(archive).diagnostics]
    # '../secret.yaml' from the root is '/secret.yaml' (RFC 3986): never the file beside it.
    assert codes[0] == "import-error" and "unknown-type" in codes
    assert "no entry 'secret.yaml'" in toskit.load(archive).diagnostics[0].message


def test_dot_dot_above_the_root_is_clamped_with_a_warning(tmp_path: Path) -> None:
    """RFC 3986 resolution: '../types/t.yaml' from the root is '/types/t.yaml' (OASIS s26a)."""
    archive = _csar(
        tmp_path / "app.csar",
        {"main.yaml": MAIN.replace("IMPORT", "../types/t.yaml"), "types/t.yaml": TYPES},
    )
    st = toskit.load(archive)
    (diag,) = st.diagnostics
    assert (diag.code, diag.severity) == ("import-above-root", "warning")
    assert "read as '/types/t.yaml'" in diag.message
    assert (diag.file, diag.line) == (f"{archive}!/main.yaml", 3)
    assert st.errors == [] and [n.type.name for n in st.node_templates.values()] == ["T"]


def test_tosca_meta_at_the_root_names_the_entry(tmp_path: Path) -> None:
    """TOSCA 2.0 archives keep TOSCA.meta at the root (the OASIS suite's CSARs do)."""
    archive = _csar(
        tmp_path / "app.csar",
        {
            "TOSCA.meta": "CSAR-Version: 2.0\nEntry-Definitions: main.yaml\n",
            "main.yaml": MAIN.replace("IMPORT", "t.yaml"),
            "t.yaml": TYPES,
            "other.yaml": "not: [tosca",
        },
    )
    st = toskit.load(archive)
    assert st.diagnostics == [] and list(st.node_templates) == ["a"]
    bad = _csar(tmp_path / "bad.csar", {"TOSCA.meta": "CSAR-Version: 2.0\n", "a.yaml": TYPES})
    (diag,) = toskit.load(bad).diagnostics
    assert diag.code == "csar-error" and "TOSCA.meta has no Entry-Definitions" in diag.message


def test_symlink_entries_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "app.csar"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("main.yaml", MAIN.replace("IMPORT", "t.yaml"))
        link = zipfile.ZipInfo("t.yaml")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(link, "/etc/passwd")
    st = toskit.load(path)
    assert [d.code for d in st.diagnostics] == ["csar-error"]
    assert "symbolic link" in st.diagnostics[0].message


def test_zip_bomb_is_limit_exceeded_quickly(tmp_path: Path) -> None:
    # 200 MB of zeros deflate to about 200 KB: refused from the directory, nothing inflated.
    path = tmp_path / "bomb.csar"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("main.yaml", MAIN.replace("IMPORT", "t.yaml"))
        with zf.open("t.yaml", "w", force_zip64=True) as f:
            chunk = b"\0" * (1 << 20)
            for _ in range(200):
                f.write(chunk)
    start = time.perf_counter()
    st = toskit.load(path)
    assert time.perf_counter() - start < 0.5
    assert [d.code for d in st.diagnostics] == ["limit-exceeded"]


def test_entry_count_is_bounded(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"main.yaml": MAIN.replace("IMPORT", "t.yaml")}
    files.update({f"x/{i}": "" for i in range(10_001)})
    st = toskit.load(_csar(tmp_path / "many.csar", files, compression=zipfile.ZIP_STORED))
    assert [d.code for d in st.diagnostics] == ["limit-exceeded"]
    assert "10002 entries, over 10000" in st.diagnostics[0].message


def test_per_file_size_is_the_loaders_max_size(tmp_path: Path) -> None:
    archive = _csar(
        tmp_path / "app.csar",
        {"main.yaml": MAIN.replace("IMPORT", "t.yaml"), "t.yaml": TYPES + "#" * 5000},
    )
    st = toskit.load(archive, max_size=1000)
    assert [d.code for d in st.diagnostics] == ["limit-exceeded"]


def test_a_fifo_named_csar_is_a_toskit_error(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.csar"
    os.mkfifo(fifo)
    with pytest.raises(toskit.ToskitError, match="not a regular file"):
        toskit.load(fifo)
