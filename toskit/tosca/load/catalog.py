"""A catalog of TOSCA profiles: ``- profile: org.base:v1`` imports resolved by name and version.

TOSCA 2.0 organises type libraries as *profiles*: a file declares
``profile: org.base:v1`` and templates import it by that name
(``imports: [{profile: org.base:v1, namespace: b}]``). A
:class:`ProfileCatalog` indexes the files under some folders
(``toskit.load(..., profiles=[dir, …])``, ``toskit check --profiles DIR``)
that declare ``profile:``, and CSAR archives (``.csar``/``.zip``) holding
such files, by the declared string.

Choices (docs/profiles.md):

* **Lazy.** Nothing is read until a profile import needs the index; the
  index then reads, of each ``.yaml``/``.yml``/``.tosca`` file, only the
  head up to its top-level ``profile:`` line (at most :data:`HEAD_BYTES`
  bytes), and a file is parsed in full only when a template imports its
  profile. A folder of thousands of files costs one short read each, once
  per catalog (reuse one :class:`ProfileCatalog` across loads to index once).
  At most ``max_files`` files are looked at (a ``limit-exceeded`` finding
  beyond).
* **Exact versions.** ``org.base:v1`` matches a file declaring exactly
  ``org.base:v1``; ``org.base`` matches only ``profile: org.base``. The
  version is the part after the last ``:`` (shown in hints: the versions a
  missing profile has). Two versions of one profile imported by one template
  are two documents, so two namespaces and two sets of types: ``Host`` of
  ``org.base:v1`` is not ``Host`` of ``org.base:v2``.
* **Conflicts.** Two files declaring the same profile and version are a
  ``duplicate-profile`` error naming both (in :attr:`ProfileCatalog.diagnostics`
  and at each import of that profile); the first one in folder order, then
  path order, is used.
* **Built in.** The normative profiles toskit ships (TOSCA 2.0's
  ``org.oasis-open.simple:2.0``, the Simple Profile 1.x types) are entries
  too (:attr:`ProfileEntry.builtin`): importing them is a no-op, as they are
  always loaded for documents of their version. A folder's file declaring one
  of their names is a ``duplicate-profile`` error; the built-in one is used.
* **Bad input.** A file that cannot be read (permissions, not UTF-8, a
  broken archive) is a ``profile-catalog`` warning about that file, never a
  crash; a profile import that finds nothing is ``unknown-profile``, whose
  hint names the folders searched.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from toskit.diagnostics import Diagnostic, Related, Subject
from toskit.errors import ToskitError
from toskit.records import field, record
from toskit.source import YamlDocument, load_yaml, load_yaml_file
from toskit.source.csar import CSAR_LIMITS, CsarArchive, CsarError, CsarImporter
from toskit.source.document import resolve_limits
from toskit.source.imports import shown_path
from toskit.tosca.profiles import profile_file

__all__ = [
    "BUILTIN_PROFILES",
    "HEAD_BYTES",
    "MAX_CATALOG_FILES",
    "ProfileCatalog",
    "ProfileEntry",
    "as_catalog",
    "split_profile",
]

#: Bytes of a file read to find its top-level ``profile:`` line.
HEAD_BYTES = 65_536
#: Files (and archive entries) a catalog looks at, at most, by default.
MAX_CATALOG_FILES = 20_000

_YAML_SUFFIXES = (".yaml", ".yml", ".tosca")
_ARCHIVE_SUFFIXES = (".csar", ".zip")
# A top-level ``profile:`` key (column 0), its scalar value, an optional comment.
_PROFILE_LINE = re.compile(r"^profile[ \t]*:[ \t]*(?P<value>[^#\r\n]*?)[ \t]*(?:#.*)?$")

#: The normative profiles toskit ships, as catalog entries: declared name -> family
#: of :data:`toskit.tosca.profiles.PROFILE_FILES`.
BUILTIN_PROFILES: dict[str, str] = {
    "org.oasis-open.simple:2.0": "2.0",
    "org.oasis-open.tosca.simple:2.0": "2.0",
    "org.oasis-open.simple:1.3": "1.3",
    "tosca-simple:1.3": "1.3",
    "org.oasis-open.simple:1.2": "1.2-delta",
    "org.oasis-open.simple:1.1": "1.1-delta",
    "org.oasis-open.simple:1.0": "1.0-delta",
    "tosca-nfv:1.0": "nfv-1.0",
}
# Names that always mean the normative types, whatever their version suffix
# (how templates in the wild spell them): imported as no-ops.
_NORMATIVE_PREFIXES = (
    "org.oasis-open.simple",
    "org.oasis-open.tosca.simple",
    "tosca-simple",
    "tosca.simple",
)


def split_profile(profile: str) -> tuple[str, str | None]:
    """``("org.base", "v1")`` for ``"org.base:v1"``; ``(name, None)`` without a version.

    >>> split_profile("org.base:v1"), split_profile("org.platform")
    (('org.base', 'v1'), ('org.platform', None))
    """
    name, sep, version = profile.rpartition(":")
    return (name, version) if sep and name and version else (profile, None)


@record(frozen=True)
class ProfileEntry:
    """One profile the catalog knows: the declared string and where it is.

    ``location`` is a file path, or ``ARCHIVE!/ENTRY`` for a file inside a
    CSAR; ``line`` the 1-based line of its ``profile:`` key; ``builtin`` is
    True for the normative profiles toskit ships.
    """

    profile: str
    location: str
    line: int = 1
    builtin: bool = False
    archive: str | None = None
    entry: str | None = None

    @property
    def name(self) -> str:
        """The profile's name without its version."""
        return split_profile(self.profile)[0]

    @property
    def version(self) -> str | None:
        """The part after the last ``:`` (``None`` when there is none)."""
        return split_profile(self.profile)[1]

    def shown(self) -> str:
        """``file:line`` relative to the current directory (toskit's files by name)."""
        if self.builtin:
            return f"toskit's {os.path.basename(self.location)}"
        if self.archive is not None:
            return f"{shown_path(self.archive)}!/{self.entry}:{self.line}"
        return f"{shown_path(self.location)}:{self.line}"


@record
class _Index:
    by_profile: dict[str, list[ProfileEntry]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


class ProfileCatalog:
    """The profiles under ``folders`` (and toskit's own), indexed on first use.

    >>> catalog = ProfileCatalog([])
    >>> catalog.lookup("org.oasis-open.simple:2.0").builtin
    True
    >>> catalog.lookup("org.base:v1") is None
    True

    ``folders``: directories (searched recursively, symbolic links not
    followed) or single ``.csar``/``.zip``/YAML files. A path that does not
    exist is a :class:`toskit.ToskitError`. ``max_files`` bounds the files
    and archive entries looked at; ``limits`` are the loader's document
    limits (``max_size``, ``max_depth``…) for the files parsed in full.

    Counters for tests and benchmarks: ``heads_read`` (files whose head was
    read to index them) and ``documents_parsed`` (files parsed in full).
    """

    def __init__(
        self,
        folders: Iterable[str | os.PathLike] = (),
        *,
        max_files: int = MAX_CATALOG_FILES,
        **limits: Any,
    ) -> None:
        if isinstance(folders, str | os.PathLike):
            folders = [folders]
        paths: list[str] = []
        for folder in folders:
            if not isinstance(folder, str | os.PathLike):
                raise ToskitError(
                    "profiles must be folder paths (str or os.PathLike), "
                    f"not {type(folder).__name__}"
                )
            path = os.fspath(folder)
            if "\0" in path:
                raise ToskitError("a profile folder cannot contain a NUL character")
            if not os.path.exists(path):
                raise ToskitError(
                    f"profile folder '{path}' does not exist; pass folders holding files "
                    "that declare 'profile:'"
                )
            paths.append(path)
        if not isinstance(max_files, int) or isinstance(max_files, bool) or max_files < 1:
            raise ToskitError(f"max_files must be a positive integer, not {max_files!r}")
        try:
            resolve_limits({k: v for k, v in limits.items() if k != "parser"})
        except (TypeError, ValueError) as exc:
            raise ToskitError(str(exc)) from None
        self.folders: tuple[str, ...] = tuple(paths)
        self.max_files = max_files
        self.limits = limits
        #: ``{profile as imported: profile to read instead}`` (the upgrade check's
        #: retargeting of an old version to the new one; empty by default).
        self.aliases: dict[str, str] = {}
        self._index: _Index | None = None
        self._docs: dict[str, YamlDocument | Diagnostic] = {}
        self._archives: dict[str, CsarArchive | None] = {}
        self._importers: dict[str, CsarImporter] = {}
        self.heads_read = 0
        self.documents_parsed = 0

    def __repr__(self) -> str:
        state = "indexed" if self._index is not None else "not indexed yet"
        return f"<ProfileCatalog {list(self.folders)!r}: {state}>"

    # -- the index -----------------------------------------------------------------------

    @property
    def indexed(self) -> bool:
        """Whether the folders have been indexed (on the first lookup)."""
        return self._index is not None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Findings of the index: unreadable files, duplicate profiles, the file bound."""
        return list(self._ensure().diagnostics)

    def entries(self) -> list[ProfileEntry]:
        """Every entry, built-in ones first, then by profile (the first of duplicates)."""
        index = self._ensure()
        builtin = [
            ProfileEntry(name, profile_file(family), builtin=True)
            for name, family in BUILTIN_PROFILES.items()
        ]
        found = [entries[0] for _, entries in sorted(index.by_profile.items())]
        return builtin + found

    def versions_of(self, name: str) -> list[str]:
        """The declared strings of every version of profile ``name`` in the folders."""
        index = self._ensure()
        return sorted(p for p in index.by_profile if split_profile(p)[0] == name)

    def lookup(self, profile: str) -> ProfileEntry | None:
        """The entry for ``profile`` (exact string), built-in first; ``None`` if absent."""
        profile = self.aliases.get(profile, profile)
        family = BUILTIN_PROFILES.get(profile)
        if family is None and profile.startswith(_NORMATIVE_PREFIXES):
            family = "2.0"
        if family is not None:
            return ProfileEntry(profile, profile_file(family), builtin=True)
        found = self._ensure().by_profile.get(profile)
        return found[0] if found else None

    def duplicates(self, profile: str) -> list[ProfileEntry]:
        """Every entry declaring ``profile`` when there is more than one (else ``[]``)."""
        profile = self.aliases.get(profile, profile)
        found = list(self._ensure().by_profile.get(profile, ()))
        if profile in BUILTIN_PROFILES and found:
            found.insert(
                0, ProfileEntry(profile, profile_file(BUILTIN_PROFILES[profile]), builtin=True)
            )
        return found if len(found) > 1 else []

    def _ensure(self) -> _Index:
        if self._index is None:
            self._index = self._build()
        return self._index

    def _build(self) -> _Index:
        index = _Index()
        seen = 0
        unreadable: list[tuple[str, str]] = []
        for folder in self.folders:
            for path in _files(folder, unreadable):
                seen += 1
                if seen > self.max_files:
                    index.diagnostics.append(
                        _finding(
                            "limit-exceeded",
                            folder,
                            f"profile catalog: more than {self.max_files} files under "
                            f"'{shown_path(folder)}'; the rest are not indexed",
                            "point --profiles at the folder of the type libraries only, or "
                            "pass ProfileCatalog(folders, max_files=N)",
                        )
                    )
                    break
                lower = path.lower()
                if lower.endswith(_ARCHIVE_SUFFIXES):
                    seen += self._index_archive(path, index, self.max_files - seen)
                elif lower.endswith(_YAML_SUFFIXES):
                    self._index_file(path, index)
            else:
                continue
            break
        for path, why in unreadable:
            index.diagnostics.append(
                _finding(
                    "profile-catalog",
                    path,
                    f"profile catalog: cannot list '{shown_path(path)}': {why}",
                )
            )
        for profile, entries in index.by_profile.items():
            if profile in BUILTIN_PROFILES:
                builtin = ProfileEntry(
                    profile, profile_file(BUILTIN_PROFILES[profile]), builtin=True
                )
                entries.insert(0, builtin)
            if len(entries) > 1:
                index.diagnostics.append(duplicate_finding(profile, entries))
            if profile in BUILTIN_PROFILES:
                entries.pop(0)
        return index

    def _index_file(self, path: str, index: _Index) -> None:
        self.heads_read += 1
        try:
            with open(path, "rb") as f:
                head = f.read(HEAD_BYTES)
        except OSError as exc:
            index.diagnostics.append(
                _finding(
                    "profile-catalog",
                    path,
                    f"profile catalog: cannot read '{shown_path(path)}': {exc.strerror or exc}",
                )
            )
            return
        found = _profile_in(head)
        if isinstance(found, str):
            index.diagnostics.append(
                _finding("profile-catalog", path, f"profile catalog: '{shown_path(path)}' {found}")
            )
        elif found is not None:
            profile, line = found
            index.by_profile.setdefault(profile, []).append(ProfileEntry(profile, path, line))

    def _index_archive(self, path: str, index: _Index, budget: int) -> int:
        """Index the YAML entries of one archive; the number of entries looked at."""
        archive = self._archive(path, index)
        if archive is None:
            return 0
        looked = 0
        for entry in sorted(archive.entries):
            if not entry.lower().endswith(_YAML_SUFFIXES):
                continue
            looked += 1
            if looked > budget:
                break
            self.heads_read += 1
            try:
                text = archive.read_text(entry)
            except CsarError as exc:
                index.diagnostics.append(
                    _finding(
                        "profile-catalog",
                        path,
                        f"profile catalog: '{shown_path(path)}!/{entry}': {exc.message}",
                    )
                )
                continue
            found = _profile_in(text[:HEAD_BYTES].encode("utf-8"))
            if isinstance(found, tuple):
                profile, line = found
                index.by_profile.setdefault(profile, []).append(
                    ProfileEntry(profile, f"{path}!/{entry}", line, archive=path, entry=entry)
                )
        return looked

    def _archive(self, path: str, index: _Index | None = None) -> CsarArchive | None:
        if path not in self._archives:
            bounds = {**CSAR_LIMITS, **{k: v for k, v in self.limits.items() if k in CSAR_LIMITS}}
            bounds["max_size"] = resolve_limits(
                {k: v for k, v in self.limits.items() if k not in CSAR_LIMITS and k != "parser"}
            )["max_size"]
            try:
                self._archives[path] = CsarArchive(path, bounds)
            except (CsarError, ToskitError) as exc:
                self._archives[path] = None
                if index is not None:
                    message = exc.message if isinstance(exc, CsarError) else str(exc)
                    index.diagnostics.append(
                        _finding(
                            "profile-catalog",
                            path,
                            f"profile catalog: archive '{shown_path(path)}' "
                            f"cannot be read: {message}",
                        )
                    )
        return self._archives[path]

    # -- documents -----------------------------------------------------------------------

    def document(self, entry: ProfileEntry) -> YamlDocument | Diagnostic:
        """The parsed document of ``entry`` (parsed once per catalog), or why it cannot be read."""
        cached = self._docs.get(entry.location)
        if cached is not None:
            return cached
        doc: YamlDocument | Diagnostic
        loader_limits = {k: v for k, v in self.limits.items() if k not in CSAR_LIMITS}
        self.documents_parsed += 1
        if entry.archive is not None and entry.entry is not None:
            archive = self._archive(entry.archive)
            try:
                if archive is None:
                    raise CsarError("csar-error", "the archive cannot be read")
                text = archive.read_text(entry.entry)
            except CsarError as exc:
                doc = _finding(
                    "profile-catalog", entry.archive, f"profile '{entry.profile}': {exc.message}"
                )
            else:
                doc = load_yaml(text, name=entry.location, **loader_limits)
        else:
            try:
                doc = load_yaml_file(entry.location, **loader_limits)
            except ToskitError as exc:
                doc = _finding(
                    "profile-catalog", entry.location, f"profile '{entry.profile}': {exc}"
                )
        self._docs[entry.location] = doc
        return doc

    def importer_for(self, name: str) -> CsarImporter | None:
        """The importer of the archive a catalog document ``name`` lives in (its file imports)."""
        archive_path, sep, _ = name.partition("!/")
        if not sep or archive_path not in self._archives:
            return None
        importer = self._importers.get(archive_path)
        if importer is None:
            archive = self._archives[archive_path]
            if archive is None:
                return None
            loader_limits = {k: v for k, v in self.limits.items() if k not in CSAR_LIMITS}
            importer = self._importers[archive_path] = CsarImporter(archive, **loader_limits)
        return importer

    def allows(self, path: str) -> bool:
        """Whether the real path ``path`` lies in one of the catalog's folders (import root)."""
        real = os.path.realpath(path)
        for folder in self.folders:
            top = os.path.realpath(folder)
            if real == top or real.startswith(top.rstrip(os.sep) + os.sep):
                return True
        return False

    def searched(self) -> str:
        """The folders searched, for a hint."""
        if not self.folders:
            return (
                "no profile folders were given "
                "(toskit check --profiles DIR, toskit.load(..., profiles=[DIR]))"
            )
        return "searched " + ", ".join(f"'{shown_path(f)}'" for f in self.folders)


def duplicate_finding(profile: str, entries: Sequence[ProfileEntry]) -> Diagnostic:
    """The ``duplicate-profile`` error naming every file that declares ``profile``."""
    first = entries[0]
    where = ", ".join(e.shown() for e in entries)
    file = first.archive or first.location
    return Diagnostic(
        "error",
        "duplicate-profile",
        f"profile '{profile}' is declared by {len(entries)} files: {where}; the first is used",
        file=None if first.builtin else file,
        line=None if first.builtin else first.line,
        column=None if first.builtin else 1,
        hint="keep one file per profile and version (or give the new one a new version)",
        subject=Subject("profile", profile),
        related=tuple(
            Related("also declared here", e.archive or e.location, None if e.builtin else e.line, 1)
            for e in entries[1:]
        ),
    )


def _finding(code: str, path: str, message: str, hint: str | None = None) -> Diagnostic:
    severity = "error" if code == "limit-exceeded" else "warning"
    return Diagnostic(severity, code, message, file=path, hint=hint, subject=Subject("file", path))


def _profile_in(head: bytes) -> tuple[str, int] | str | None:
    """The top-level ``profile:`` value of a file's head and its line; a problem as text."""
    if b"\0" in head:
        return None  # a binary file: not a profile
    text = head.decode("utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("profile"):
            continue
        match = _PROFILE_LINE.match(line)
        if match is None:
            continue
        value = match.group("value")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if not value or value[0] in "[{&*!|>":
            return "declares 'profile:' with a value that is not a plain name"
        return value, number
    return None


def _files(folder: str, unreadable: list[tuple[str, str]]) -> Iterator[str]:
    """Files under ``folder`` in a stable order (a file itself; links to folders
    not followed). Iterative, so a folder nested thousands deep needs no Python
    recursion; a folder that cannot be listed is added to ``unreadable``."""
    if not os.path.isdir(folder):
        yield folder
        return
    stack = [folder]
    while stack:
        top = stack.pop()
        try:
            with os.scandir(top) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            unreadable.append((top, exc.strerror or str(exc)))
            continue
        subfolders = []
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir:
                if not entry.name.startswith(".") and entry.name != "__pycache__":
                    subfolders.append(entry.path)
            else:
                yield entry.path
        stack.extend(reversed(subfolders))  # depth first, in name order


def as_catalog(profiles: Any, limits: dict[str, Any] | None = None) -> ProfileCatalog | None:
    """``profiles=`` of :func:`toskit.load`: ``None``, a folder, a list of folders or a catalog."""
    if profiles is None or isinstance(profiles, ProfileCatalog):
        return profiles
    if isinstance(profiles, str | os.PathLike):
        profiles = [profiles]
    if not isinstance(profiles, Iterable) or isinstance(profiles, bytes | dict):
        raise ToskitError(
            f"profiles must be a list of folders or a ProfileCatalog, not {type(profiles).__name__}"
        )
    return ProfileCatalog(list(profiles), **(limits or {}))
