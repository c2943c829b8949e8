"""Size limits before reading (issue 37 item 5): files, imports, stdin, CSAR members.

A file over ``max_size`` is measured (``stat``) and never read, so neither
its kind nor its text is looked at: ``toskit check big.yaml`` reports a
``limit-exceeded`` finding for that file, not "YAML that does not parse".
A stream (a pipe on standard input) cannot be measured: it is read at most
``max_size + 1`` bytes. Peak memory is measured with :mod:`tracemalloc`
on sparse files (100 MB on disk that take no space) and on generator-backed
streams, so the tests need no big file and assert memory, not time.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tracemalloc
import zipfile
from pathlib import Path

import toskit
from toskit import cli
from toskit.source import LIMIT_DEFAULTS, Importer, load_yaml, load_yaml_file
from toskit.source.csar import CsarArchive, open_csar

BIG = 100_000_000  # bytes: twice the default max_size
MB = 1 << 20


def _sparse(path: Path, size: int = BIG, head: bytes = b"a: 1\n") -> Path:
    """A ``size``-byte file that takes no disk space: ``head`` then holes (NUL bytes)."""
    with open(path, "wb") as fh:
        fh.write(head)
        fh.truncate(size)
    return path


def _peak(action, warm: bool = True) -> tuple[object, int]:
    """``action()``'s result and the peak of Python memory it allocated (bytes).

    With ``warm``, ``action`` runs once before it is measured, so that what
    a first call imports or builds once (modules, the TOSCA profiles) is
    not counted; tests that print or read a stream warm up themselves.
    """
    if warm:
        action()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        result = action()
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return result, peak


def test_check_of_a_big_file_is_a_limit_exceeded_finding_not_read(tmp_path, capsys):
    big = _sparse(tmp_path / "big.yaml", head=b"tosca_definitions_version: tosca_2_0\n")
    _warm_check(tmp_path, capsys)
    status, peak = _peak(
        lambda: cli.main(["check", "-j", "1", "--format", "json", str(big)]), False
    )
    (result,) = json.loads(capsys.readouterr().out)
    assert status == 1
    assert [d["code"] for d in result["diagnostics"]] == ["limit-exceeded"]
    assert result["label"] == cli.OVERSIZE_LABEL  # not "YAML that does not parse", not TOSCA
    assert "not read" in result["diagnostics"][0]["message"]
    assert peak < 2 * MB  # nothing of the 100 MB was read


def _warm_check(tmp_path, capsys) -> None:
    """One ``toskit check`` of a small template first: its imports are not the big file's cost."""
    small = tmp_path / "warm.yaml"
    small.write_text("tosca_definitions_version: tosca_2_0\n")
    cli.main(["check", "-j", "1", "--format", "json", str(small)])
    capsys.readouterr()


def test_check_says_so_in_its_text_summary(tmp_path, capsys):
    big = _sparse(tmp_path / "big.yaml")
    small = tmp_path / "small.yaml"
    small.write_text("a: 1\n")
    assert cli.main(["check", "-j", "1", str(big), str(small)]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "limit-exceeded" in text
    assert "does not parse" not in text
    assert f"checked {small} as" in text  # the other file is checked as usual


def test_check_file_and_show_measure_first(tmp_path):
    big = _sparse(tmp_path / "big.yaml")
    (kind, found), peak = _peak(lambda: cli.check_file(str(big)))
    assert [d.code for d in found] == ["limit-exceeded"] and peak < 2 * MB
    status, peak = _peak(lambda: cli.main(["show", str(big), "-o", str(tmp_path / "o.html")]))
    assert status == 2 and peak < 2 * MB
    assert not (tmp_path / "o.html").exists()


def test_load_and_load_yaml_file_measure_first(tmp_path):
    big = _sparse(tmp_path / "big.yaml")
    doc, peak = _peak(lambda: load_yaml_file(big))
    assert [d.code for d in doc.diagnostics] == ["limit-exceeded"] and peak < 2 * MB
    st, peak = _peak(lambda: toskit.load(big))
    assert [d.code for d in st.diagnostics] == ["limit-exceeded"] and peak < 4 * MB


def test_an_import_over_the_bound_is_measured_not_read(tmp_path):
    _sparse(tmp_path / "big.yaml")
    main = tmp_path / "main.yaml"
    main.write_text("imports:\n  - big.yaml\n")
    doc = load_yaml(main.read_text(), name=str(main))
    result, peak = _peak(lambda: Importer(root=str(tmp_path)).load_import("big.yaml", doc))
    assert peak < 2 * MB
    codes = (
        [d.code for d in result.diagnostics] if hasattr(result, "diagnostics") else [result.code]
    )
    assert codes == ["limit-exceeded"]


def test_a_file_on_stdin_is_measured_first(tmp_path):
    big = _sparse(tmp_path / "big.yaml")
    with open(big, "rb") as fh:
        run = subprocess.run(
            [sys.executable, "-m", "toskit", "check", "--format", "json", "-"],
            stdin=fh, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert run.returncode == 1, run.stderr
    (result,) = json.loads(run.stdout)
    assert result["file"] == "<stdin>"
    assert [d["code"] for d in result["diagnostics"]] == ["limit-exceeded"]


class _Endless:
    """A pipe-like stream (no size to measure) of ``a: 1`` lines, made as it is read."""

    def __init__(self, total: int, line: bytes = b"a: 1\n") -> None:
        self.left = total
        self.line = line
        self.read_bytes = 0

    def read(self, n: int = -1) -> bytes:
        n = self.left if n < 0 else min(n, self.left)
        self.left -= n
        self.read_bytes += n
        return (self.line * (n // len(self.line) + 1))[:n]

    def fileno(self) -> int:
        raise io.UnsupportedOperation("not a file")


def test_a_stream_is_read_at_most_the_bound_plus_one(tmp_path, monkeypatch, capsys):
    bound = 4 * MB
    monkeypatch.setitem(LIMIT_DEFAULTS, "max_size", bound)
    stream = _Endless(25 * MB)
    monkeypatch.setattr(sys, "stdin", _Endless(1))  # the warm-up reads this one
    _warm_check(tmp_path, capsys)
    cli.main(["check", "-j", "1", "--format", "json", "-"])
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", stream)
    status, peak = _peak(lambda: cli.main(["check", "-j", "1", "--format", "json", "-"]), False)
    (result,) = json.loads(capsys.readouterr().out)
    assert status == 1
    assert [d["code"] for d in result["diagnostics"]] == ["limit-exceeded"]
    assert stream.read_bytes == bound + 1  # counted: never past the bound
    # Near the bound's own cost (the bytes read; the stream's own 1 MiB chunks
    # and their copies come on top), not the stream's 25 MiB, nor 4x the bound.
    assert peak < 2 * bound


def test_a_stream_within_the_bound_is_read_whole_and_checked(monkeypatch):
    bound = 4 * MB
    monkeypatch.setitem(LIMIT_DEFAULTS, "max_size", bound)
    monkeypatch.setattr(sys, "stdin", _Endless(12, b"# a comment\n"))
    cli.check_file("-")
    stream = _Endless(bound, b"# a comment\n")  # exactly the bound: allowed
    monkeypatch.setattr(sys, "stdin", stream)
    (kind, found), peak = _peak(lambda: cli.check_file("-"), False)
    assert stream.read_bytes == bound and found == []
    # The bytes and their text (2x), plus the stream's own chunks: not 4x.
    assert peak < 3.25 * bound


def test_a_csar_member_over_the_bound_is_refused_from_the_directory(tmp_path, monkeypatch):
    path = tmp_path / "app.csar"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("main.yaml", "tosca_definitions_version: tosca_2_0\nimports:\n  - t.yaml\n")
        zf.writestr("t.yaml", "#" * 200_000)
    reads: list[str] = []
    read = CsarArchive.read_text
    monkeypatch.setattr(CsarArchive, "read_text", lambda self, e: reads.append(e) or read(self, e))
    doc, _ = open_csar(path, max_size=100_000)
    assert [d.code for d in doc.diagnostics] == ["limit-exceeded"]
    assert reads == []  # measured from the directory, nothing inflated


def test_sparse_files_take_no_space(tmp_path):
    """The fixture's promise: the 100 MB files above cost no disk."""
    big = _sparse(tmp_path / "big.yaml")
    assert big.stat().st_size == BIG
    assert getattr(os.stat(big), "st_blocks", 0) * 512 < 1 * MB or sys.platform == "win32"
