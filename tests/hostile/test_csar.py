"""Hostile CSAR archives (issue 30 item 2): bounds that hold whatever the archive says.

Each archive is built in memory (a few kB to a few MB; a zip bomb compresses
to almost nothing) and written to the test's temporary folder only because
``open_csar`` takes a path. The tests assert *counted* budgets: directory
records read before :mod:`zipfile` parses any, whether :mod:`zipfile` parsed
the directory at all, bytes inflated, the ``limit-exceeded`` finding; never
seconds.
"""

from __future__ import annotations

import io
import json
import struct
import unicodedata
import zipfile
import zlib
from pathlib import Path

import pytest

import toskit
from toskit import cli
from toskit.source import csar
from toskit.source.csar import CSAR_LIMITS, CsarArchive, CsarError, open_csar

MAIN = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - t.yaml\n"
TYPES = "tosca_definitions_version: tosca_simple_yaml_1_3\n"
META = (
    "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: t\nEntry-Definitions: main.yaml\n"
)


def _zip(files: dict[str, bytes | str], compression: int = zipfile.ZIP_STORED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as zf:
        for name, data in files.items():
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=compression)
        zf.writestr("TOSCA-Metadata/TOSCA.meta", META)
    return buffer.getvalue()


def _many(count: int) -> dict[str, bytes | str]:
    files: dict[str, bytes | str] = {"main.yaml": MAIN, "t.yaml": TYPES}
    files.update({f"x/{i}": b"" for i in range(count)})
    return files


def _end(data: bytes) -> tuple[int, int, int]:
    """(where the classic end record starts, directory size, directory offset)."""
    at = data.rindex(b"PK\x05\x06")
    _, _, _, _, _, size, offset, _ = struct.unpack("<4sHHHHIIH", data[at : at + 22])
    return at, size, offset


def _lying_count(data: bytes, count: int) -> bytes:
    """The classic end record says the archive holds ``count`` entries."""
    at, _, _ = _end(data)
    return data[: at + 8] + struct.pack("<HH", count, count) + data[at + 12 :]


def _zip64(data: bytes) -> bytes:
    """The same archive ending in a ZIP64 end record (no usable count in the classic one)."""
    at, size, offset = _end(data)
    record = struct.pack("<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, 5, 5, size, offset)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, at, 1)
    classic = struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0
    )
    return data[:at] + record + locator + classic


# (magic, offset of the flags, of the name's length, of the name, of the uncompressed size)
_LOCAL = (b"PK\x03\x04", 6, 26, 30, 22)
_CENTRAL = (b"PK\x01\x02", 8, 28, 46, 24)


def _patch(data: bytes, name: str, change) -> bytes:
    """``change(raw, at, record_layout)`` applied to ``name``'s local and directory records."""
    raw = bytearray(data)
    for layout in (_LOCAL, _CENTRAL):
        magic, _, length_at, name_at, _ = layout
        at = raw.find(magic)
        while at >= 0:
            (length,) = struct.unpack("<H", raw[at + length_at : at + length_at + 2])
            if raw[at + name_at : at + name_at + length] == name.encode():
                change(raw, at, layout)
            at = raw.find(magic, at + 4)
    return bytes(raw)


def _encrypted(data: bytes, name: str) -> bytes:
    """``name`` marked encrypted (general purpose flag bit 0)."""

    def mark(raw, at, layout):
        raw[at + layout[1]] |= 1

    return _patch(data, name, mark)


def _deflated_archive(entries: dict[str, tuple[bytes, int, int]]) -> bytes:
    """A ZIP of main.yaml, TOSCA.meta and ``entries`` given as (raw deflate data, size, CRC-32)."""
    out, directory = io.BytesIO(), io.BytesIO()
    plain = {"main.yaml": MAIN, "TOSCA-Metadata/TOSCA.meta": META}
    items = [
        (n, zlib.compress(t.encode())[2:-4], len(t), zlib.crc32(t.encode()))
        for n, t in plain.items()
    ]
    items += [(n, *e) for n, e in entries.items()]
    for name, data, size, crc in items:
        offset = out.tell()
        encoded = name.encode()
        out.write(
            struct.pack(
                "<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(data), size, len(encoded), 0
            )
        )
        out.write(encoded + data)
        directory.write(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 8, 0, 0, crc, len(data), size,
                                    len(encoded), 0, 0, 0, 0, 0, offset) + encoded)  # fmt: skip
    start, body = out.tell(), directory.getvalue()
    out.write(body)
    out.write(
        struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(items), len(items), len(body), start, 0)
    )
    return out.getvalue()


@pytest.fixture
def counted(monkeypatch):
    """How many directory records toskit read, and whether zipfile parsed the directory."""
    seen = {"records": [], "zipfile": 0}
    count = csar._count_records

    def counting(f, start, size, bound):
        n = count(f, start, size, bound)
        seen["records"].append(n)
        return n

    real = zipfile.ZipFile

    class Spy(real):  # type: ignore[misc, valid-type]
        def __init__(self, file, mode="r", *args, **kwargs):
            seen["zipfile"] += mode == "r"  # the archives this test writes are not counted
            super().__init__(file, mode, *args, **kwargs)

    monkeypatch.setattr(csar, "_count_records", counting)
    monkeypatch.setattr(csar.zipfile, "ZipFile", Spy)
    yield seen
    monkeypatch.setattr(csar.zipfile, "ZipFile", real)


def _write(tmp_path: Path, data: bytes, name: str = "app.csar") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _codes(doc) -> list[str]:
    return [d.code for d in doc.diagnostics]


# -- the entry and directory bounds do not trust the end record ---------------------


@pytest.mark.parametrize("shape", ["honest", "lying count", "zip64"])
def test_the_entry_bound_counts_directory_records_itself(tmp_path, counted, shape):
    data = _zip(_many(20_000))  # ~1.3 MB of directory: under max_directory
    data = {"honest": data, "lying count": _lying_count(data, 5), "zip64": _zip64(data)}[shape]
    doc, _ = open_csar(_write(tmp_path, data))
    assert _codes(doc) == ["limit-exceeded"]
    assert "entries" in doc.diagnostics[0].message and "10000" in doc.diagnostics[0].message
    assert "max_entries" in (doc.diagnostics[0].message + (doc.diagnostics[0].hint or ""))
    # Counted: exactly max_entries + 1 records read, and zipfile parsed none.
    assert counted["records"] == [CSAR_LIMITS["max_entries"] + 1]
    assert counted["zipfile"] == 0
    if shape == "lying count":
        assert "its end record says 5" in doc.diagnostics[0].message


def test_the_issue_zip64_archive_stops_at_the_bound(tmp_path, counted):
    # The issue's shape at a lower bound: a ZIP64 end record over many records.
    data = _zip64(_zip(_many(5_000)))
    doc, _ = open_csar(_write(tmp_path, data), max_entries=100)
    assert _codes(doc) == ["limit-exceeded"]
    assert counted["records"] == [101] and counted["zipfile"] == 0


def test_a_directory_larger_than_its_bound_is_not_read(tmp_path, counted):
    data = _zip64(_zip(_many(3_000)))
    doc, _ = open_csar(_write(tmp_path, data), max_directory=10_000)
    assert _codes(doc) == ["limit-exceeded"]
    assert "directory is" in doc.diagnostics[0].message
    assert counted["records"] == [] and counted["zipfile"] == 0


def test_honest_archives_still_load_with_zip64_end_records(tmp_path):
    data = _zip64(_zip({"main.yaml": MAIN, "t.yaml": TYPES}))
    st = toskit.load(_write(tmp_path, data))
    assert _codes(st) == []


def test_a_broken_directory_is_a_csar_error(tmp_path, counted):
    data = bytearray(_zip(_many(10)))
    _, _, offset = _end(bytes(data))
    data[offset : offset + 4] = b"XXXX"  # the first record's magic
    doc, _ = open_csar(_write(tmp_path, bytes(data)))
    assert _codes(doc) == ["csar-error"]
    assert counted["zipfile"] == 0


# -- encrypted entries ---------------------------------------------------------------


def _encrypted_archive(tmp_path: Path, which: str, name: str = "app.csar") -> Path:
    return _write(tmp_path, _encrypted(_zip({"main.yaml": MAIN, "t.yaml": TYPES}), which), name)


@pytest.mark.parametrize("which", ["main.yaml", "t.yaml"])
def test_an_encrypted_entry_is_a_csar_error_in_load(tmp_path, which):
    path = _encrypted_archive(tmp_path, which)
    with zipfile.ZipFile(path) as zf, pytest.raises(RuntimeError):
        zf.read(which)  # what zipfile itself does with it
    st = toskit.load(path)
    assert _codes(st) == ["csar-error"]
    assert "encrypted" in st.diagnostics[0].message


def test_an_encrypted_entry_is_a_csar_error_in_check_and_diff(tmp_path, capsys):
    path = _encrypted_archive(tmp_path, "t.yaml")
    assert cli.main(["check", "--format", "json", str(path)]) == 1
    out = capsys.readouterr().out
    (result,) = json.loads(out)
    assert [d["code"] for d in result["diagnostics"]] == ["csar-error"]
    other = _write(tmp_path, _zip({"main.yaml": MAIN, "t.yaml": TYPES}), "other.csar")
    status = cli.main(["diff", str(other), str(path)])
    captured = capsys.readouterr()
    assert "RuntimeError" not in captured.out + captured.err
    assert "Traceback" not in captured.out + captured.err
    assert "csar-error" in captured.out and "encrypted" in captured.out  # a finding of the diff
    assert status in (0, 1)


def test_a_read_that_raises_runtime_error_is_a_csar_error(tmp_path, monkeypatch):
    path = _write(tmp_path, _zip({"main.yaml": MAIN, "t.yaml": TYPES}))
    archive = CsarArchive(str(path), {**CSAR_LIMITS, "max_size": 1000})

    def refuse(*args, **kwargs):
        raise RuntimeError("File 't.yaml' is encrypted, password required for extraction")

    monkeypatch.setattr(archive.zip, "open", refuse)
    with pytest.raises(CsarError) as caught:
        archive.read_text("t.yaml")
    assert caught.value.code == "csar-error"


# -- a cumulative inflation budget -----------------------------------------------------


def test_many_entries_just_under_the_ratio_floor_are_refused_unread(tmp_path, monkeypatch):
    # The issue's archive: 480 entries of 1 MiB - 1 of zeros at ~1000:1 (a ~500 kB
    # archive that inflates to ~480 MB): no single entry is over 1 MiB.
    # One deflate stream, compressed once and stored 480 times.
    size = (1 << 20) - 1
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(b"\0" * size) + packer.flush()
    crc = zlib.crc32(b"\0" * size)
    data = _deflated_archive({f"t{i}.yaml": (packed, size, crc) for i in range(480)})
    assert len(data) < 1_000_000
    with zipfile.ZipFile(io.BytesIO(data)) as zf:  # a well-formed archive
        assert len(zf.infolist()) == 482 and zf.getinfo("t7.yaml").file_size == size
    reads = []
    read = CsarArchive.read_text
    monkeypatch.setattr(CsarArchive, "read_text", lambda self, e: reads.append(e) or read(self, e))
    doc, _ = open_csar(_write(tmp_path, data))
    assert _codes(doc) == ["limit-exceeded"]
    assert "in all" in doc.diagnostics[0].message
    assert reads == []  # nothing inflated, not even TOSCA.meta or the entry document


def test_every_inflated_byte_counts_against_the_archive_budget(tmp_path):
    # Five imports of 4,000 bytes each under a 10,000-byte budget: the third
    # read crosses it, and no read inflates more than what is left plus one.
    body = TYPES + "#" * 3_950 + "\n"
    files = {"main.yaml": "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n"
             + "".join(f"  - t{i}.yaml\n" for i in range(5))}  # fmt: skip
    files.update({f"t{i}.yaml": body for i in range(5)})
    path = _write(tmp_path, _zip(files))
    doc, importer = open_csar(path, max_inflated=10_000)
    assert _codes(doc) == []
    archive = importer.archive
    results = [importer.load_import(f"t{i}.yaml", doc) for i in range(5)]
    problems = [r for r in results if not hasattr(r, "value")]
    assert [p.code for p in problems] == ["limit-exceeded"] * 3
    assert "max_inflated" in problems[0].message
    assert archive.read_total <= 10_000 + 1


def test_a_lying_uncompressed_size_inflates_no_more_than_it_says(tmp_path):
    # The directory says 10 bytes; the entry inflates to 5 MB. zipfile stops
    # at the declared size (and reports the CRC), so a read inflates at most
    # that much; with an honest size it would stop at max_size + 1.
    def small(raw, at, layout):
        raw[at + layout[4] : at + layout[4] + 4] = struct.pack("<L", 10)

    data = _zip({"main.yaml": MAIN, "t.yaml": b"#" * 5_000_000}, zipfile.ZIP_DEFLATED)
    path = _write(tmp_path, _patch(data, "t.yaml", small))
    doc, importer = open_csar(path, max_size=100_000)
    before = importer.archive.read_total
    result = importer.load_import("t.yaml", doc)
    assert result.code == "csar-error"
    assert importer.archive.read_total - before <= 11


# -- one name, one file ------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, second",
    [
        ("t.yaml", "t.yaml"),
        ("a/t.yaml", "a\\t.yaml"),
        ("t.yaml", "T.YAML"),
        (unicodedata.normalize("NFC", "é.yaml"), unicodedata.normalize("NFD", "é.yaml")),
    ],
)
def test_two_entries_for_one_name_are_refused(tmp_path, first, second):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf, _quiet():
        zf.writestr("main.yaml", MAIN)
        zf.writestr(first, TYPES)
        zf.writestr(second, "tosca_definitions_version: evil\n")
    st = toskit.load(_write(tmp_path, buffer.getvalue()))
    assert _codes(st) == ["csar-error"]
    assert "name the same file" in st.diagnostics[0].message


class _quiet:
    """zipfile warns about a duplicate name it writes: the test means to write one."""

    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._catch.__exit__(*exc)


def test_without_zipfiles_end_record_reader_archives_are_refused(tmp_path, monkeypatch):
    """toskit finds the directory with zipfile's own reader; should a Python lack it,
    an archive is refused (csar-error), never parsed unbounded."""
    path = _write(tmp_path, _zip({"main.yaml": MAIN, "t.yaml": TYPES}))
    monkeypatch.delattr(zipfile, "_EndRecData")
    doc, _ = open_csar(path)
    assert _codes(doc) == ["csar-error"]
