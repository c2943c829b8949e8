"""CSAR archives (TOSCA Cloud Service ARchives): read in memory, untrusted.

:func:`open_csar` opens ``app.csar`` (a ZIP file) and returns its entry
document -- ``Entry-Definitions`` of ``TOSCA-Metadata/TOSCA.meta``, else the
single YAML file at the archive's root -- and a :class:`CsarImporter` that
resolves imports inside the archive (relative to the importing entry, or
archive-absolute ``/x.yaml``; a relative path climbing above the root is
clamped there as RFC 3986 resolves URLs, with an ``import-above-root``
warning). TOSCA.meta is read from ``TOSCA-Metadata/`` or, as TOSCA 2.0
archives have it, from the root. Documents are named ``app.csar!/Definitions/x.yaml``
so diagnostics read ``app.csar!/Definitions/x.yaml:12:5``.

An archive is untrusted input, and nothing it says about itself is trusted.
Nothing is extracted to disk. Before :mod:`zipfile` parses the ZIP
directory, toskit finds the directory as :mod:`zipfile` will (the classic or
ZIP64 end record), bounds its size (``max_directory``) and *counts its
records itself*, reading at most ``max_entries + 1`` of them: an end record
that lies about the count (or a ZIP64 one, which has no usable count) cannot
make anyone parse more. Then every entry is checked: no ``..``, absolute or
drive-letter names, no symbolic links, no encrypted entries, no two names
for one file (``a/b`` and ``a\\b``, names equal after Unicode NFC
normalisation and case folding), a bounded declared size per file and in
total, a bounded compression ratio per entry (over 1 MiB) *and* for the
whole archive (over 1 MiB in all), so a zip bomb is ``limit-exceeded`` in
milliseconds with nothing inflated. Entries are read with a byte bound
(``max_size + 1``) and every byte inflated counts against the archive's
budget (``max_inflated``), so a lying size in the directory cannot make
toskit inflate more. See docs/source.md ("CSAR archives").
"""

from __future__ import annotations

import io
import os
import posixpath
import stat
import struct
import unicodedata
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, Subject
from toskit.errors import ToskitError
from toskit.source.document import YamlDocument, load_yaml, resolve_limits
from toskit.source.imports import Importer, is_url

if TYPE_CHECKING:
    import zipfile

# zipfile (with shutil, bz2, lzma: ~4 ms of a `toskit check`'s start-up,
# #31) is imported by the functions that open an archive, not with this
# module, which every TOSCA load imports for is_csar/open_csar.


def __getattr__(name: str) -> Any:
    """``csar.zipfile``: the module the archive functions use (tests patch it)."""
    if name == "zipfile":
        import zipfile

        return zipfile
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CSAR_LIMITS", "CsarImporter", "is_csar", "open_csar"]

# Bounds of one archive (the per-file bound is the loader's ``max_size``).
CSAR_LIMITS = {
    "max_entries": 10_000,  # entries in the archive (directory records, counted)
    "max_total": 512 * 1024 * 1024,  # declared uncompressed bytes, all entries
    "max_ratio": 200,  # uncompressed / compressed: an entry over 1 MiB, all entries over 1 MiB
    "max_directory": 16 * 1024 * 1024,  # bytes of the ZIP central directory
    "max_inflated": 128 * 1024 * 1024,  # bytes actually inflated, all reads of the archive
}
_RATIO_FLOOR = 1024 * 1024
_META = "TOSCA-Metadata/TOSCA.meta"
# TOSCA 2.0 (CSAR-Version 2.0) also puts the file at the archive's root; the
# 1.x place wins when an archive has both.
_ROOT_META = "TOSCA.meta"


def is_csar(path: str | os.PathLike) -> bool:
    """``path`` names a CSAR: a ``.csar``/``.zip`` file, or a file starting with a ZIP header."""
    name = os.fspath(path)
    if not isinstance(name, str):
        return False
    if name.lower().endswith((".csar", ".zip")):
        return True
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):
            return False  # never open a FIFO or device to sniff it (it could block)
        with open(name, "rb") as f:
            return f.read(4) == b"PK\x03\x04"
    except (OSError, ValueError):
        return False


class CsarError(Exception):
    """Why an archive is refused: a diagnostic code and a message."""

    def __init__(self, code: str, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint


def _directory(f: Any) -> tuple[int, int, int | None]:
    """(start, size, count the end record declares or ``None``) of the central directory.

    Found exactly as :mod:`zipfile` finds it (its ``_EndRecData``: the
    classic end record, or the ZIP64 one its locator points at), so the
    region counted here is the region :mod:`zipfile` parses next.
    """
    import zipfile

    find = getattr(zipfile, "_EndRecData", None)  # zipfile's own reading (CPython 3.x)
    if find is None:  # a zipfile without it: the directory cannot be bounded, so refuse
        raise CsarError(
            "csar-error", "this Python's zipfile cannot be checked for hostile archives"
        )
    try:
        endrec = find(f)
    except OSError:
        endrec = None
    if not endrec:
        raise CsarError("csar-error", "not a ZIP archive (no end of central directory record)")
    zf: Any = zipfile  # the end record's indexes are private: not in the stubs
    size = endrec[zf._ECD_SIZE]
    offset = endrec[zf._ECD_OFFSET]
    start = endrec[zf._ECD_LOCATION] - size
    zip64 = endrec[zf._ECD_SIGNATURE] == zf.stringEndArchive64
    if zip64:
        start -= zf.sizeEndCentDir64 + zf.sizeEndCentDir64Locator
    if start < 0 or offset < 0:
        raise CsarError(
            "csar-error", "not a readable ZIP archive: bad offset for central directory"
        )
    declared = None if zip64 else endrec[zf._ECD_ENTRIES_TOTAL]
    return start, size, declared


_RECORD = struct.Struct("<4s4B4HL2L5H2L")  # a central directory record (zipfile's structCentralDir)
_RECORD_MAGIC = b"PK\x01\x02"


def _count_records(f: Any, start: int, size: int, bound: int) -> int:
    """Directory records in ``size`` bytes at ``start``, counted as :mod:`zipfile` walks
    them; stops after ``bound + 1`` (the caller refuses then). Reads at most ``size`` bytes."""
    f.seek(start)
    data = f.read(size)
    at = count = 0
    while at < size and count <= bound:
        record = data[at : at + _RECORD.size]
        if len(record) != _RECORD.size or record[:4] != _RECORD_MAGIC:
            # zipfile refuses such a directory too ("Truncated central
            # directory", "Bad magic number"): say so now, nothing parsed.
            raise CsarError("csar-error", "not a readable ZIP archive: a broken central directory")
        fields = _RECORD.unpack(record)
        at += _RECORD.size + fields[12] + fields[13] + fields[14]  # name, extra, comment
        count += 1
    return count


def _check_entry(info: zipfile.ZipInfo, limits: dict[str, int]) -> None:
    name = info.filename
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":") or ".." in parts:
        raise CsarError(
            "csar-error", f"entry '{name}' has an absolute or parent ('..') path: refused"
        )
    if stat.S_ISLNK(info.external_attr >> 16):
        raise CsarError("csar-error", f"entry '{name}' is a symbolic link: refused")
    if info.flag_bits & 0x1:
        raise CsarError(
            "csar-error",
            f"entry '{name}' is encrypted: toskit reads no encrypted archives",
            "store the archive without a password",
        )
    if info.file_size > limits["max_size"] and not info.is_dir():
        raise CsarError(
            "limit-exceeded",
            f"entry '{name}' is {info.file_size} bytes uncompressed, over max_size "
            f"({limits['max_size']})",
            "raise the bound with max_size=… if this archive is trusted",
        )
    if info.file_size > _RATIO_FLOOR and info.file_size > limits["max_ratio"] * max(
        info.compress_size, 1
    ):
        raise CsarError(
            "limit-exceeded",
            f"entry '{name}' inflates {info.file_size // max(info.compress_size, 1)} times "
            f"(over {limits['max_ratio']}): a zip bomb is not inflated",
        )


class CsarArchive:
    """The checked directory of one archive, its entries read on demand."""

    def __init__(self, path: str, limits: dict[str, int]) -> None:
        import zipfile

        self.path = path
        self.limits = limits
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                raise ToskitError(
                    f"{path}: not a regular file (a directory, device, pipe or socket)"
                )
            with open(path, "rb") as f:
                start, dir_size, declared = _directory(f)
                if dir_size > limits["max_directory"]:
                    raise CsarError(
                        "limit-exceeded",
                        f"the archive's directory is {dir_size} bytes, "
                        f"over {limits['max_directory']}",
                    )
                #: Directory records read before :mod:`zipfile` parses any (at
                #: most ``max_entries + 1``; the hostile-input tests count them).
                self.records_read = _count_records(f, start, dir_size, limits["max_entries"])
        except OSError as exc:
            raise ToskitError(f"{path}: cannot read ({exc.strerror or exc})") from None
        if self.records_read > limits["max_entries"]:
            bound = limits["max_entries"]
            if declared is not None and declared > bound:
                message = f"the archive has {declared} entries, over {bound}"
            elif declared is not None:  # a classic end record that lies about the count
                message = (
                    f"the archive has more than {bound} entries (its end record says "
                    f"{declared}), over max_entries"
                )
            else:  # a ZIP64 end record: its count is not used
                message = f"the archive has more than {bound} entries, over max_entries"
            raise CsarError(
                "limit-exceeded",
                message,
                "if the archive is trusted: toskit.source.csar.open_csar(path, max_entries=…)",
            )
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise CsarError("csar-error", f"not a readable ZIP archive: {exc}") from None
        infos = self.zip.infolist()
        if len(infos) > limits["max_entries"]:
            raise CsarError(
                "limit-exceeded",
                f"the archive has {len(infos)} entries, over {limits['max_entries']}",
            )
        total = packed = 0
        self.entries: dict[str, zipfile.ZipInfo] = {}
        seen: dict[str, str] = {}
        for info in infos:
            _check_entry(info, limits)
            same = _identity(info.filename)
            if same in seen:
                raise CsarError(
                    "csar-error",
                    f"entries '{seen[same]}' and '{info.filename}' name the same file: refused "
                    "(readers disagree on which copy counts)",
                )
            seen[same] = info.filename
            total += info.file_size
            packed += info.compress_size
            if total > limits["max_total"]:
                raise CsarError(
                    "limit-exceeded",
                    f"the archive inflates to more than {limits['max_total']} bytes",
                )
            if not info.is_dir():
                self.entries[info.filename.replace("\\", "/")] = info
        if total > _RATIO_FLOOR and total > limits["max_ratio"] * max(packed, 1):
            raise CsarError(
                "limit-exceeded",
                f"the archive's entries inflate {total // max(packed, 1)} times in all "
                f"(over {limits['max_ratio']}): a zip bomb is not inflated",
            )
        #: Bytes inflated by all reads of this archive so far (``max_inflated`` bounds it).
        self.read_total = 0

    def read_text(self, entry: str) -> str:
        """The UTF-8 text of ``entry``, read with a byte bound (``CsarError``)."""
        import zipfile

        info = self.entries.get(entry)
        if info is None:
            raise CsarError("import-error", f"the archive has no entry '{entry}'")
        max_size = self.limits["max_size"]
        # Never more than the per-file bound plus one, nor past the archive's
        # inflation budget plus one: what a read inflates is counted.
        budget = self.limits["max_inflated"] - self.read_total
        want = min(max_size, budget) + 1
        try:
            with self.zip.open(info) as f:
                data = f.read(want)
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError) as exc:
            raise CsarError("csar-error", f"entry '{entry}' cannot be read: {exc}") from None
        except RuntimeError as exc:  # zipfile's "encrypted, password required" (flag checked first)
            raise CsarError("csar-error", f"entry '{entry}' cannot be read: {exc}") from None
        self.read_total += len(data)
        if len(data) > max_size:
            raise CsarError("limit-exceeded", f"entry '{entry}' is larger than {max_size} bytes")
        if len(data) > budget:
            raise CsarError(
                "limit-exceeded",
                f"reading '{entry}' inflates the archive's entries past "
                f"{self.limits['max_inflated']} bytes in all (max_inflated)",
            )
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise CsarError("import-error", f"entry '{entry}' is not UTF-8 text") from None

    def entry_definitions(self) -> str:
        """The entry document: TOSCA.meta's ``Entry-Definitions``, else the single root YAML.

        TOSCA.meta is ``TOSCA-Metadata/TOSCA.meta`` (1.x and 2.0) or, in 2.0
        archives, ``TOSCA.meta`` at the root.
        """
        meta = _META if _META in self.entries else _ROOT_META
        if meta in self.entries:
            for line in io.StringIO(self.read_text(meta)):
                key, sep, value = line.partition(":")
                if sep and key.strip() == "Entry-Definitions":
                    entry = posixpath.normpath(value.strip().lstrip("/"))
                    if entry not in self.entries:
                        raise CsarError(
                            "csar-error",
                            f"{meta} names Entry-Definitions '{value.strip()}', "
                            "which the archive does not have",
                        )
                    return entry
            raise CsarError("csar-error", f"{meta} has no Entry-Definitions")
        roots = [e for e in self.entries if "/" not in e and e.lower().endswith((".yaml", ".yml"))]
        if len(roots) != 1:
            raise CsarError(
                "csar-error",
                f"no {_META} and {len(roots)} YAML files at the archive's root "
                f"({', '.join(sorted(roots)[:5]) or 'none'})",
                "add TOSCA-Metadata/TOSCA.meta with an Entry-Definitions line, "
                "or keep one YAML file at the root",
            )
        return roots[0]


class CsarImporter(Importer):
    """Imports of documents inside an archive resolve inside it; URLs go to the resolver."""

    def __init__(self, archive: CsarArchive, resolver: Any = None, **limits: Any) -> None:
        super().__init__(resolver, **limits)
        self.archive = archive
        self.prefix = f"{archive.path}!/"
        self._docs: dict[str, YamlDocument] = {}

    def load_import(
        self,
        url: str,
        importing: YamlDocument,
        chain: Sequence[str] = (),
        *,
        parts: Sequence[Hashable] | None = None,
    ) -> YamlDocument | Diagnostic:
        if not importing.name.startswith(self.prefix) or not isinstance(url, str) or is_url(url):
            return super().load_import(url, importing, chain, parts=parts)
        where = ("imports",) if parts is None else tuple(parts)

        def problem(code: str, message: str, hint: str | None = None) -> Diagnostic:
            return importing.diagnostic("error", code, message, where, hint=hint)

        if not url.strip() or "\0" in url:
            return problem("import-error", f"import reference must be a file name, not {url!r}")
        if len(chain) >= self.max_import_depth:
            return problem(
                "limit-exceeded",
                f"cannot import '{url}': the import chain is deeper than "
                f"{self.max_import_depth} files",
            )
        # Archive-absolute (``/base.yaml``) or relative to the importing entry.
        base = posixpath.dirname(importing.name[len(self.prefix) :])
        rel = url.lstrip("/") if url.startswith("/") else posixpath.join(base, url)
        climbs = _escapes(rel)
        entry = _clamped(rel)
        if not entry:
            return problem("import-error", f"import reference must name a file, not {url!r}")
        name = self.prefix + entry
        # An import is a URL reference: RFC 3986 (5.2.4) drops '..' above the
        # root, so '../types/t.yaml' from the root is '/types/t.yaml'. Nothing
        # outside the archive is ever read, and the reader is told (a warning).
        climbed = (
            importing.diagnostic(
                "warning",
                "import-above-root",
                f"import '{url}' climbs above the archive's root; read as '/{entry}' (RFC 3986)",
                where,
                hint=f"write '/{entry}' (archive-absolute) or a path that stays in the archive",
            )
            if climbs
            else None
        )
        if name in chain or name == importing.name:
            loop = [*chain[list(chain).index(name) :]] if name in chain else [name]
            # an info, as Importer's: the file is being loaded already
            return importing.diagnostic(
                "info",
                "import-cycle",
                "import cycle (each file is read once): " + " → ".join([*loop, name]),
                where,
            )
        cached = self._docs.get(entry)
        if cached is not None:
            return cached
        try:
            text = self.archive.read_text(entry)
        except CsarError as exc:
            return problem(exc.code, f"cannot import '{url}': {exc.message}", exc.hint)
        doc = load_yaml(text, name=name, **self.limits)
        if climbed is not None:
            doc.diagnostics.append(climbed)  # reported with the document, once
        self._docs[entry] = doc
        return doc


def _identity(name: str) -> str:
    """One spelling per file: ``\\`` as ``/``, Unicode NFC, case folded.

    Names that differ only so are one file on Windows and macOS file
    systems (and to a reader that extracts the archive there), and ``a\\b``
    is ``a/b`` for toskit itself: an archive holding both is refused.
    """
    return unicodedata.normalize("NFC", name.replace("\\", "/")).casefold()


def _clamped(path: str) -> str:
    """``path`` with its dot segments removed, '..' above the root dropped (RFC 3986)."""
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def _escapes(path: str) -> bool:
    """A relative archive path that climbs above the archive's root."""
    depth = 0
    for part in path.split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part not in ("", "."):
            depth += 1
    return False


def open_csar(
    path: str | os.PathLike, resolver: Any = None, **limits: Any
) -> tuple[YamlDocument, CsarImporter | Importer]:
    """The entry document of the archive at ``path`` and the importer for its imports.

    A refused archive gives an empty document carrying the diagnostic
    (``csar-error`` or ``limit-exceeded``). ``ToskitError`` when the file
    cannot be read at all.
    """
    name = os.fspath(path)
    if not isinstance(name, str):
        raise ToskitError(f"a file path must be str, not {type(name).__name__}")
    bounds = {**CSAR_LIMITS, **{k: v for k, v in limits.items() if k in CSAR_LIMITS}}
    loader_limits = {k: v for k, v in limits.items() if k not in CSAR_LIMITS}
    bounds["max_size"] = resolve_limits({k: v for k, v in loader_limits.items() if k != "parser"})[
        "max_size"
    ]
    try:
        archive = CsarArchive(name, bounds)
        entry = archive.entry_definitions()
        text = archive.read_text(entry)
    except CsarError as exc:
        doc = YamlDocument(name, "", None, [])
        doc.diagnostics.append(
            Diagnostic(
                "error",
                exc.code,
                f"CSAR: {exc.message}",
                file=name,
                hint=exc.hint,
                subject=Subject("archive"),  # the archive itself: binary, so no range
            )
        )
        return doc, Importer(resolver, **loader_limits)
    importer = CsarImporter(archive, resolver, **loader_limits)
    return load_yaml(text, name=f"{name}!/{entry}", **loader_limits), importer
