"""Loading the files a document imports."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.errors import ToskitError
from toskit.plain import describe
from toskit.source.document import YamlDocument, load_yaml, load_yaml_file, resolve_limits

__all__ = ["Importer", "is_url"]

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")

Resolver = Callable[[str, "str | None"], "str | None"]


def is_url(reference: str) -> bool:
    """True for ``scheme://…`` references (never read from disk nor fetched)."""
    return bool(_URL.match(reference))


class Importer:
    """Loads the files a document imports (one ``Importer`` per top-level load).

    ``resolver(url, importing_file) -> str`` (optional) supplies the text of
    imports toskit does not read itself (URLs); without one a URL import is an
    ``import-error`` (remote imports are disabled: toskit never touches the
    network). A resolver may return ``None`` ("not mine") or raise; both
    become an ``import-error``.

    ``load_import(url, importing, chain)`` returns the imported
    ``YamlDocument`` or a ``Diagnostic`` (``import-error`` for a file that
    cannot be read; an ``info`` ``import-cycle`` when the file is already in
    ``chain``, the names of the documents being imported, outermost first:
    it is being loaded already, so the caller links to it). A file
    imported twice is parsed once (same ``YamlDocument`` object).

    A relative path is resolved against the directory of the importing
    document's ``name`` (the current directory for ``"<string>"``). File
    documents are named by the path as written joined to that directory, so
    diagnostics show readable relative paths; identity (cache, cycles)
    uses the normalised absolute path.

    **Import root.** Local files are read only inside ``root`` (a folder;
    symbolic links are followed before the check). By default the root is
    the enclosing project of the first document that imports -- the loaded
    template (the current directory for text named ``"<string>"``): the
    nearest folder above it holding ``.git`` or an unpacked CSAR's
    ``TOSCA-Metadata/TOSCA.meta`` (:func:`project_root`), else the
    template's own folder. An import outside it is an ``import-error`` that
    shows nothing of the file and names the root relative to the current
    directory, never as an absolute path.
    Folders given to :meth:`allow_root` (the folders of a profile catalog,
    once one of its profiles is imported) are readable too.
    **Remote documents** (those a resolver supplied) import only through the
    resolver: a local path or ``file:`` URL in them is an ``import-error``.
    A NUL character in a reference is an ``import-error``.
    """

    def __init__(
        self,
        resolver: Resolver | None = None,
        *,
        root: str | os.PathLike | None = None,
        **limits: Any,
    ) -> None:
        # fail early on a bad limit; max_import_depth is the chain bound below
        self.max_import_depth = resolve_limits({k: v for k, v in limits.items() if k != "parser"})[
            "max_import_depth"
        ]
        if root is not None and not isinstance(root, str | os.PathLike):
            raise ToskitError(f"root must be a folder path, not {type(root).__name__}")
        if root is not None and "\0" in os.fspath(root):
            raise ToskitError("root cannot contain a NUL character")
        self.resolver = resolver
        self.limits = limits
        self.root: str | None = None if root is None else os.path.realpath(root)
        # how the root was chosen, for the refusal's wording
        self.root_kind = "given" if root is not None else ""
        self._cache: dict[str, YamlDocument] = {}
        # Folders read beside the root: those of profiles a catalog supplied
        # (the user named them with --profiles / profiles=[...]).
        self.extra_roots: list[str] = []
        # Identities of every document seen importing or imported: a cycle can
        # only close on one of them, so a new file never costs a scan of a
        # long import chain (a chain of 5,000 files stays linear).
        self._seen: set[str] = set()

    def allow_root(self, folder: str | os.PathLike) -> None:
        """Also read local imports below ``folder`` (a profile catalog's file's folder)."""
        real = os.path.realpath(folder)
        if real not in self.extra_roots:
            self.extra_roots.append(real)

    @staticmethod
    def identity(name: str) -> str:
        """The key that identifies a document name across spellings."""
        return _identity(name)

    def _root_for(self, importing: YamlDocument) -> str:
        """The import root, fixed by the first importing document unless given."""
        if self.root is None:
            name = importing.name
            if name.startswith("<") or is_url(name):
                start = os.path.realpath(os.getcwd())
            else:
                start = os.path.dirname(os.path.realpath(name))
            project = project_root(start)
            self.root = project or start
            self.root_kind = "project" if project else "folder"
        return self.root

    @staticmethod
    def resolve_name(url: str, importing_name: str) -> str:
        """The name of what ``url`` refers to, seen from the document ``importing_name``.

        URLs and absolute paths stand as they are; a relative reference is
        joined to the importing document's URL or directory (kept relative
        to the current directory for documents named ``<…>``).
        """
        if is_url(url) or os.path.isabs(url):
            return url
        if is_url(importing_name):
            # Imported here: only a document loaded from a URL needs it, and
            # urllib.parse is ~1.5 ms of every `toskit check` start-up (#31).
            from urllib.parse import urljoin

            return urljoin(importing_name, url)
        if importing_name.startswith("<"):
            return url
        return os.path.join(os.path.dirname(importing_name), url)

    def load_import(
        self,
        url: str,
        importing: YamlDocument,
        chain: Sequence[str] = (),
        *,
        parts: Sequence[Hashable] | None = None,
    ) -> YamlDocument | Diagnostic:
        """Load ``url`` imported by ``importing`` (see the class docstring).

        ``parts``: the path of the import entry in ``importing`` (for the
        diagnostic's location); by default the ``imports`` section.
        """
        where = ("imports",) if parts is None else tuple(parts)

        def problem(code: str, message: str, hint: str | None = None) -> Diagnostic:
            return importing.diagnostic("error", code, message, where, hint=hint)

        if not isinstance(url, str) or not url.strip():
            return problem(
                "import-error", f"import reference must be a file name, not {describe(url)}"
            )
        if "\0" in url:
            return problem(
                "import-error",
                f"cannot import {_shown(url)}: a file name cannot contain a NUL character",
            )
        if len(chain) >= self.max_import_depth:
            return importing.diagnostic(
                "error",
                "limit-exceeded",
                f"cannot import {_shown(url)}: the import chain is deeper than "
                f"{self.max_import_depth} files",
                where,
                hint="raise the bound with max_import_depth=… if these files are trusted",
            )
        root = self._root_for(importing)
        name = self.resolve_name(url, importing.name)
        if is_url(importing.name) and not is_url(name):
            return problem(
                "import-error",
                f"cannot import {_shown(url)}: '{_short(importing.name)}' came from the "
                "resolver, so it may import only through the resolver, not local files",
                "import by a URL the resolver supplies, or load this document locally",
            )
        key = self.identity(name)

        self._seen.add(self.identity(importing.name))
        if key in self._seen:
            cycle = self._cycle(key, name, importing, chain, where)
            if cycle is not None:
                return cycle

        cached = self._cache.get(key)
        if cached is not None:
            return cached

        if is_url(name):
            doc = self._load_remote(name, importing.name, problem)
        else:
            doc = self._load_local(url, name, root, problem)
        if isinstance(doc, Diagnostic):
            return doc
        self._cache[key] = doc
        self._seen.add(key)
        return doc

    def _cycle(
        self,
        key: str,
        name: str,
        importing: YamlDocument,
        chain: Sequence[str],
        where: tuple[Hashable, ...],
    ) -> Diagnostic | None:
        """The ``import-cycle`` note when ``name`` (seen already, as ``key``)
        is on the chain of files being loaded; ``None`` when it was merely
        loaded before (then it comes from the cache)."""
        names = list(chain)
        if not names or self.identity(names[-1]) != self.identity(importing.name):
            names.append(importing.name)
        identities = [self.identity(n) for n in names]
        if key not in identities:
            return None
        loop = [*names[identities.index(key) :], name]
        # Not an error (TOSCA 1.3, 2.0 §6.8.2; real type libraries are
        # built as cycles): the file is being loaded already.
        return importing.diagnostic(
            "info",
            "import-cycle",
            "import cycle (each file is read once): "
            + " → ".join(n if is_url(n) or not os.path.isabs(n) else shown_path(n) for n in loop),
            where,
        )

    def _load_remote(
        self, name: str, importing_name: str, problem: Callable[..., Diagnostic]
    ) -> YamlDocument | Diagnostic:
        """A URL import, through the resolver (toskit never fetches)."""
        if self.resolver is None:
            return problem(
                "import-error",
                f"cannot import '{name}': remote imports are disabled",
                "toskit never fetches URLs; download the file and import it by path, "
                "or pass resolver=… to supply its text",
            )
        try:
            text = self.resolver(name, importing_name)
        except Exception as exc:  # a user-supplied hook: report, don't crash
            return problem("import-error", f"cannot import '{name}': resolver failed: {exc}")
        if text is None:
            return problem(
                "import-error", f"cannot import '{name}': the resolver has no text for it"
            )
        if not isinstance(text, str):
            return problem(
                "import-error",
                f"cannot import '{name}': the resolver returned {type(text).__name__}, not str",
            )
        return load_yaml(text, name=name, **self.limits)

    def _load_local(
        self, url: str, name: str, root: str, problem: Callable[..., Diagnostic]
    ) -> YamlDocument | Diagnostic:
        """A file import, read only below the import root (or an extra root)."""
        real = os.path.realpath(name)
        if not _inside(real, root) and not any(_inside(real, r) for r in self.extra_roots):
            chosen = {
                "given": "the root given",
                "project": "the enclosing project of the loaded template",
                "folder": "the loaded template's folder: no enclosing project "
                "(.git or TOSCA-Metadata) was found",
            }[self.root_kind]
            return problem(
                "import-error",
                f"cannot import {_shown(url)}: it is outside the import root "
                f"'{shown_path(root)}' ({chosen})",
                "pass --root DIR to toskit check/show (root=DIR to toskit.load) "
                "to read imports below DIR",
            )
        try:
            return load_yaml_file(name, **self.limits)
        except ToskitError as exc:
            return problem("import-error", f"cannot import {_shown(url)}: {exc}")


@functools.lru_cache(maxsize=65536)
def _identity(name: str) -> str:
    if is_url(name) or name.startswith("<"):
        return name
    return os.path.normcase(os.path.abspath(name))


# What marks the top of a project: a Git work tree (``.git`` is a folder, or
# a file in worktrees and submodules) or an unpacked CSAR.
_PROJECT_MARKERS = (".git", os.path.join("TOSCA-Metadata", "TOSCA.meta"))


def project_root(start: str) -> str | None:
    """The nearest folder at or above ``start`` (a real path) that holds ``.git``
    or ``TOSCA-Metadata/TOSCA.meta``, or ``None``.

    The search stops below the user's home folder and the file system's
    root: a home folder kept under Git (dotfiles) or a marker at ``/`` must
    not make ``~/.ssh`` or ``/etc`` importable by default.
    """
    home = os.path.realpath(os.path.expanduser("~"))
    folder = start
    while True:
        if folder == home or _inside(home, folder):
            return None  # the home folder, ``/`` and every folder holding home
        if any(os.path.exists(os.path.join(folder, m)) for m in _PROJECT_MARKERS):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def shown_path(path: str) -> str:
    """``path`` as a diagnostic may show it: relative to the current directory."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows): the folder's own name only
        return os.path.basename(path.rstrip(os.sep)) or "."


def _inside(path: str, root: str) -> bool:
    """Whether the real path ``path`` is ``root`` or below it."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _shown(url: str) -> str:
    """A reference as written, quoted, control characters escaped, abbreviated."""
    return repr(_short(url)) if any(ord(c) < 32 or c == "\x7f" for c in url) else f"'{_short(url)}'"
