"""The language server's state: open documents, their analyses, parsed imports.

Free of pygls (the server in :mod:`toskit.lsp.server` drives it), so it is
tested and benchmarked on its own.

**One model.** An analysis runs exactly what ``toskit check`` runs on the
text: the YAML checks, then the checker of the kind detected
(:data:`toskit.cli.CHECKERS`), the TOSCA loader for templates, each list
sorted and capped per code as ``check`` does. The diagnostics are the same
objects, with the same messages; :mod:`toskit.lsp.features` only converts
them.

**Unsaved text first.** A TOSCA template's imports go through
:class:`OverlayImporter`: a file that is open in the editor is read from
its unsaved text, any other from disk. The import root and every other rule
are those of ``check`` (the loader's ``Importer``): the overlay only
replaces *where the text comes from* for a file the rules already allow,
never widens them.

**Reuse.** A parsed import is kept between analyses, keyed by the file's
identity and stamped with its modification time and size (an open file: by
its editor version), so an edit to a template re-parses that template only.
The normative profiles are built once per process by the loader itself.

**Importers.** Each analysis records the identities of every file it read;
a change to an open file re-analyses the open documents that imported it
(:meth:`Workspace.affected`).
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from toskit.diagnostics import MAX_PER_CODE, Diagnostic, cap_per_code, sort_diagnostics
from toskit.errors import ToskitError
from toskit.lsp.text import split_lines
from toskit.records import field, record
from toskit.source import Importer, YamlDocument, load_yaml
from toskit.source.imports import is_url

__all__ = [
    "Analysis",
    "OverlayImporter",
    "Workspace",
    "name_to_uri",
    "uri_to_name",
]

#: The scheme of a document inside a CSAR archive:
#: ``zip:file:///abs/app.csar!/Definitions/main.yaml`` (the ``jar:`` form
#: Java tooling uses; toskit names the same document ``/abs/app.csar!/Definitions/main.yaml``).
ZIP_SCHEME = "zip:"


def _file_uri(path: str) -> str:
    return "file://" + quote(os.path.abspath(path).replace(os.sep, "/"), safe="/:@!$&'()*+,;=-._~")


def name_to_uri(name: str) -> str:
    """The URI of a document toskit names ``name`` (a path, or ``archive!/member``)."""
    if "!/" in name and not is_url(name):
        archive, member = name.split("!/", 1)
        return f"{ZIP_SCHEME}{_file_uri(archive)}!/{quote(member, safe='/')}"
    if is_url(name) or name.startswith("<"):
        return name
    return _file_uri(name)


def uri_to_name(uri: str) -> str:
    """What toskit calls the document at ``uri`` (a local path for ``file:``; else the URI).

    ``zip:file:///a/app.csar!/x.yaml`` is ``/a/app.csar!/x.yaml``, as the
    CSAR loader names its members.
    """
    if uri.startswith(ZIP_SCHEME + "file:") and "!/" in uri:
        archive, member = uri[len(ZIP_SCHEME) :].split("!/", 1)
        return f"{uri_to_name(archive)}!/{unquote(member)}"
    parts = urlsplit(uri)
    if parts.scheme == "file":
        path = unquote(parts.path)
        if os.name == "nt" and path.startswith("/") and path[2:3] == ":":
            path = path[1:]
        return os.path.normpath(path)
    return uri


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


@record
class OpenDocument:
    """A document the editor has open: its unsaved text and version."""

    uri: str
    name: str
    text: str
    version: int | None = None


@record
class Analysis:
    """What ``toskit check`` found in one version of a document, and what it built.

    ``diagnostics`` are the ones ``check`` prints (every file's, sorted,
    capped per code); ``template`` is the ``ServiceTemplate`` of a TOSCA
    document (``None`` for other kinds); ``document`` the parsed YAML of the
    text itself; ``imports`` the identities of every file the load read.
    """

    uri: str
    name: str
    text: str
    version: int | None
    kind: str
    label: str
    diagnostics: list[Diagnostic]
    document: YamlDocument | None = None
    template: Any = None
    imports: frozenset[str] = frozenset()
    lines: list[str] = field(default_factory=list)
    root: str | None = None  # the workspace folder: hover shows file names relative to it

    def __post_init__(self) -> None:
        if not self.lines:
            self.lines = split_lines(self.text)


class OverlayImporter(Importer):
    """``check``'s importer, reading open files from the editor and parsed files from a cache.

    Everything but the source of the text is the base class's: the root, the
    cycle and depth checks, URLs refused (no resolver: the server never
    touches the network). A file is looked up here only once those rules
    let it be read: inside the root, a local path.
    """

    def __init__(self, workspace: Workspace, **limits: Any) -> None:
        super().__init__(None, **limits)
        self.workspace = workspace
        self.read: set[str] = set()

    def load_import(
        self,
        url: str,
        importing: YamlDocument,
        chain: Sequence[str] = (),
        *,
        parts: Sequence[Hashable] | None = None,
    ) -> YamlDocument | Diagnostic:
        local = (
            isinstance(url, str)
            and bool(url.strip())
            and "\0" not in url
            and not is_url(url)
            and not is_url(importing.name)
            and not importing.name.startswith("<")
        )
        if local:
            name = self.resolve_name(url, importing.name)
            key = self.identity(name)
            self.read.add(key)
            # The base class's own cache and root (same rules as ``check``).
            if key not in self._cache:
                try:
                    real = os.path.realpath(name)
                    allowed = _inside(real, self._root_for(importing))
                except (OSError, ValueError):
                    allowed = False
                if allowed:
                    doc = self.workspace.parsed(name, key, real, self.limits)
                    if doc is not None:
                        self._cache[key] = doc
        result = super().load_import(url, importing, chain, parts=parts)
        if local and isinstance(result, YamlDocument):
            self.workspace.remember(result)
        return result


class Workspace:
    """Open documents, their latest analyses, and the parsed-import cache.

    ``root``: the workspace folder the client named (``None``: none). It
    does not widen the import root; it is where ``check``'s rules start
    from for the documents the client opens (their own folder or project).
    """

    def __init__(self, root: str | None = None, max_per_code: int | None = MAX_PER_CODE) -> None:
        self.root = os.path.realpath(root) if root else None
        self.max_per_code = max_per_code
        self.documents: dict[str, OpenDocument] = {}
        self.analyses: dict[str, Analysis] = {}
        # identity -> (stamp, parsed document) of files read as imports.
        self._parsed: dict[str, tuple[tuple, YamlDocument]] = {}
        self._stale: set[str] = set()  # analyses whose imports changed since they ran
        self.loads = 0  # analyses run (tests count them: nothing re-analysed needlessly)
        self.parses = 0  # import files parsed (tests count them: reuse)

    # -- documents -------------------------------------------------------

    def open(self, uri: str, text: str, version: int | None = None) -> None:
        """The editor opened ``uri`` with ``text``."""
        self.documents[uri] = OpenDocument(uri, uri_to_name(uri), text, version)
        self._stale_importers(uri)

    def change(self, uri: str, text: str, version: int | None = None) -> None:
        """The editor's text of ``uri`` is now ``text``."""
        doc = self.documents.get(uri)
        if doc is None:
            self.open(uri, text, version)
        else:
            doc.text, doc.version = text, version
        self._stale_importers(uri)

    def _stale_importers(self, uri: str) -> None:
        """The analyses that read ``uri`` are out of date (run again when next asked for)."""
        key = Importer.identity(uri_to_name(uri))
        self._stale.update(u for u, a in self.analyses.items() if u != uri and key in a.imports)

    def close(self, uri: str) -> None:
        """The editor closed ``uri``: its file on disk is the truth again."""
        self.documents.pop(uri, None)
        self.analyses.pop(uri, None)
        self.forget(uri_to_name(uri))
        self._stale_importers(uri)

    def forget(self, name: str) -> None:
        """Drop the parsed copy of file ``name`` (it changed on disk) and the
        analyses that read it."""
        self._parsed.pop(Importer.identity(name), None)
        self._stale_importers(name_to_uri(name))

    def affected(self, uri: str) -> list[str]:
        """The open documents to re-analyse after ``uri`` changed: itself, then its importers."""
        key = Importer.identity(uri_to_name(uri))
        out = [uri] if uri in self.documents else []
        for other, analysis in self.analyses.items():
            if other != uri and other in self.documents and key in analysis.imports:
                out.append(other)
        return out

    # -- the import cache ---------------------------------------------------

    def _open_by_identity(self, key: str) -> OpenDocument | None:
        for doc in self.documents.values():
            if not doc.uri.startswith(ZIP_SCHEME) and Importer.identity(doc.name) == key:
                return doc
        return None

    def parsed(self, name: str, key: str, real: str, limits: dict) -> YamlDocument | None:
        """The parsed text of import ``name``: the editor's if open, else the disk's (cached).

        ``None`` when the file cannot be read (the importer then reports it).
        """
        opened = self._open_by_identity(key)
        if opened is not None:
            stamp: tuple = ("open", opened.version, len(opened.text), hash(opened.text))
        else:
            try:
                info = os.stat(real)
            except (OSError, ValueError):
                self._parsed.pop(key, None)
                return None
            stamp = ("disk", info.st_mtime_ns, info.st_size, info.st_ino)
        cached = self._parsed.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        if opened is None:
            return (
                None  # the importer reads it (and reports what it cannot read); remember() keeps it
            )
        self.parses += 1
        doc = load_yaml(opened.text, name=name, **limits)
        self._parsed[key] = (stamp, doc)
        return doc

    def remember(self, doc: YamlDocument) -> None:
        """Keep an import the importer read from disk, stamped with the file's state."""
        key = Importer.identity(doc.name)
        if key in self._parsed and self._parsed[key][1] is doc:
            return
        if self._open_by_identity(key) is not None:
            return
        try:
            info = os.stat(os.path.realpath(doc.name))
        except (OSError, ValueError):
            return
        self.parses += 1
        self._parsed[key] = (("disk", info.st_mtime_ns, info.st_size, info.st_ino), doc)

    # -- analysis --------------------------------------------------------

    def analysis(self, uri: str) -> Analysis | None:
        """The analysis of the open document's current text (run now if stale)."""
        doc = self.documents.get(uri)
        if doc is None:
            return None
        found = self.analyses.get(uri)
        if (
            found is not None
            and found.version == doc.version
            and found.text is doc.text
            and uri not in self._stale
        ):
            return found
        return self.analyze(uri)

    def analyze(self, uri: str) -> Analysis:
        """Check the open document ``uri`` as ``toskit check`` would, from its unsaved text."""
        from toskit.runtime import deep_walk

        doc = self.documents[uri]
        self._stale.discard(uri)
        self.loads += 1
        # The cyclic GC paused, as ``check`` and the loader do for a load.
        with deep_walk(0, pause_gc=True):
            analysis = self._analyze(doc)
        analysis.root = self.root
        self.analyses[uri] = analysis
        return analysis

    def _analyze(self, opened: OpenDocument) -> Analysis:
        from toskit.cli import CHECKERS, UNPARSED_LABEL, check_tosca, detect_kind, kind_label

        def done(kind: str, label: str, found: list[Diagnostic], **kw: Any) -> Analysis:
            found = cap_per_code(sort_diagnostics(found), self.max_per_code)
            return Analysis(
                opened.uri, opened.name, opened.text, opened.version, kind, label, found, **kw
            )

        try:
            doc = load_yaml(opened.text, name=opened.name)
        except ToskitError as exc:  # misuse cannot happen here; a bound can
            return done(
                "yaml",
                UNPARSED_LABEL,
                [Diagnostic("error", "limit-exceeded", str(exc), file=opened.name)],
            )
        if doc.value is None and doc.diagnostics:
            return done("yaml", UNPARSED_LABEL, list(doc.diagnostics), document=doc)
        kind = detect_kind(doc.value)
        label = kind_label(kind, doc.value)
        checker = CHECKERS[kind]
        if kind != "tosca" or checker is not check_tosca:
            # Another kind (or a checker someone registered): exactly what check runs.
            return done(kind, label, list(checker(opened.text, opened.name)), document=doc)
        template, read = self._load_tosca(opened, doc)
        return done(
            kind,
            label,
            list(template.diagnostics),
            document=doc,
            template=template,
            imports=frozenset(read),
        )

    def _load_tosca(self, opened: OpenDocument, doc: YamlDocument) -> tuple[Any, set[str]]:
        from toskit.tosca.load.loader import run

        importer: Importer
        if opened.uri.startswith(ZIP_SCHEME):
            importer = _csar_importer(opened.name)
            return run(doc, None, importer, max_per_code=None), set()
        overlay = OverlayImporter(self)
        # max_per_code=None: the cap is applied once, by ``done`` (as check does).
        return run(doc, None, overlay, max_per_code=None), overlay.read


def _csar_importer(name: str) -> Importer:
    """The importer of a document inside an archive (``/a/app.csar!/x.yaml``):
    its imports stay in it."""
    from toskit.source.csar import CSAR_LIMITS, CsarArchive, CsarError, CsarImporter
    from toskit.source.document import LIMIT_DEFAULTS

    archive = name.split("!/", 1)[0]
    try:
        return CsarImporter(
            CsarArchive(archive, {**CSAR_LIMITS, "max_size": LIMIT_DEFAULTS["max_size"]})
        )
    except (CsarError, ToskitError):
        return Importer(None)
