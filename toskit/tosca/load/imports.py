"""Imports of a TOSCA document: files (with namespaces) and profiles.

The first phase of the loading pipeline (:mod:`toskit.tosca.load.loader`):
:func:`load_imports` loads every ``imports:`` entry through ``toskit.source.Importer``
(``import-error``, ``import-cycle``), checks the imported file's keynames,
and collects its type definitions, registered as ``ns:Name`` when the import
has a ``namespace_prefix`` (1.x) or ``namespace`` (2.0). ``- profile:``
imports of the normative profile are no-ops; other profiles are not
resolved through the load's :class:`~toskit.tosca.load.catalog.ProfileCatalog`
(``profiles=``) and loaded like a file import; a profile the catalog does not
have is ``unknown-profile`` and names in its namespace are opaque.

Each document is read, checked and collected once, however many import
chains (and namespaces) lead to it: the first chain names its types; the
others only link its :class:`~toskit.tosca.types.registry.Scope` into the
importer's, and the registry finds ``a:b:Name`` by walking those links
(docs/tosca.md, "Namespaces").
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, Related
from toskit.records import field, record, replace
from toskit.source import Importer, YamlDocument
from toskit.source.imports import is_url
from toskit.tosca.load.grammar import TYPE_SECTIONS, VERSIONS, Grammar
from toskit.tosca.load.keynames import check_keynames
from toskit.tosca.load.versions import detect_version, reading_of
from toskit.tosca.types.registry import Scope, ScopedPrefix, TypeSource

if TYPE_CHECKING:
    from toskit.tosca.load.catalog import ProfileCatalog

__all__ = ["Imports", "join_prefix", "load_imports", "local_file_url", "type_sources"]


@record
class Imports:
    """What the imports phase collects (before the registry exists)."""

    # Type definitions of the imported files (in import order), then the document's own.
    sources: list[TypeSource] = field(default_factory=list)
    # Namespaces of profiles toskit does not have: names in them are not checked.
    opaque_prefixes: set[str] = field(default_factory=set)
    # ``functions:`` sections of imported 2.0 files: (section, namespace, document).
    functions: list[tuple[Any, str | None, YamlDocument]] = field(default_factory=list)
    # The loaded document's scope, and every imported document's (one each).
    top: Scope = field(default_factory=lambda: Scope(None))
    scopes: list[Scope] = field(default_factory=list)


@record
class _Walk:
    """The imports phase's inputs and result, passed down the import tree."""

    importer: Importer
    grammar: Grammar
    diags: list[Diagnostic]
    found: Imports
    # unknown tosca_definitions_version spellings already reported in this load
    versions_reported: set[str] = field(default_factory=set)
    # where ``- profile:`` imports are found; None: toskit's own profiles only,
    # a catalog built on the first ``- profile:`` import (_catalog), so that a
    # load without one never imports toskit.tosca.load.catalog (#31 start-up)
    catalog: ProfileCatalog | None = None
    # the catalog's own findings (unreadable files...) are added to a load once
    catalog_reported: bool = False


def load_imports(
    doc: YamlDocument,
    root: Mapping,
    grammar: Grammar,
    importer: Importer,
    diags: list[Diagnostic],
    catalog: ProfileCatalog | None = None,
) -> Imports:
    """Load the imports of ``doc`` (recursively) and collect every type definition.

    Problems are appended to ``diags``; the document's own types come last.
    ``catalog``: where ``- profile:`` imports are looked up (default: toskit's
    normative profiles only).
    """
    walk = _Walk(importer, grammar, diags, Imports(top=Scope(None, doc)))
    if catalog is not None:
        walk.catalog = catalog
    written = root.get("tosca_definitions_version")
    if isinstance(written, str) and written not in VERSIONS:
        walk.versions_reported.add(written)  # the loaded document reported it
    top = walk.found.top
    _load(walk, doc, root, top, [doc.name], walk.found.sources)
    walk.found.sources.extend(type_sources(doc, root, None, top))
    return walk.found


@record
class _Open:
    """A document whose imports are being loaded (one level of the import tree)."""

    doc: YamlDocument
    root: Mapping
    scope: Scope  # its names; ``scope.prefix`` is the namespace chain that named them
    chain: list[str]  # the documents from the top one down to this one (import cycles)
    entries: Iterator[tuple[int, Any]]

    @property
    def prefix(self) -> str | None:
        return self.scope.prefix


def _load(
    walk: _Walk,
    doc: YamlDocument,
    root: Mapping,
    scope: Scope,
    chain: list[str],
    sources: list[TypeSource],
) -> None:
    """Load the import tree under ``doc`` depth first, in written order.

    Iterative (an explicit stack of open documents): an import chain as long
    as ``max_import_depth`` allows needs no Python recursion. A document's
    types are added once all of its own imports are done, so imported types
    come before the types of the file that imports them. A document met
    again (another chain, another namespace) is only linked into the
    importer's scope: it is not read, checked or collected twice.
    """
    seen: dict[str, Scope] = {Importer.identity(doc.name): scope}
    stack = [_Open(doc, root, scope, chain, _entries(root))]
    while stack:
        current = stack[-1]
        step = next(current.entries, None)
        if step is None:
            stack.pop()
            if stack:  # the top document's own types are added by the caller
                sources.extend(
                    type_sources(current.doc, current.root, current.prefix, current.scope)
                )
            continue
        child = _import(walk, current, *step, seen)
        if child is not None:
            loaded, iroot, iscope = child
            stack.append(
                _Open(loaded, iroot, iscope, [*current.chain, loaded.name], _entries(iroot))
            )


def _entries(root: Mapping) -> Iterator[tuple[int, Any]]:
    imports = root.get("imports")
    return enumerate(imports) if isinstance(imports, list) else iter(())


def _import(
    walk: _Walk, current: _Open, index: int, entry: Any, seen: dict[str, Scope]
) -> tuple[YamlDocument, Mapping, Scope] | None:
    """Load one ``imports:`` entry of ``current``; the document to descend into, if any.

    ``seen``: the scope of every document already met, by identity.
    """
    doc, root, chain = current.doc, current.root, current.chain
    entry = _unnamed(entry, walk.grammar)
    url: Any = entry
    ns: Any = None
    if isinstance(entry, Mapping):
        url = entry.get("url", entry.get("file"))
        ns = entry.get("namespace", entry.get("namespace_prefix"))
        if url is None and "profile" in entry:
            found = _profile_import(walk, current, entry, ("imports", index))
            if found is None:
                return None
            return _enter(walk, current, found, ns, seen, profile=("imports", index, "profile"))
    parts = ("imports", index)
    written = url
    if isinstance(entry, Mapping) and entry.get("repository") is not None:
        url = _in_repository(walk, doc, root, url, entry["repository"], parts)
        if url is None:
            return None
    if isinstance(url, str):
        url = local_file_url(url)
    # Only a catalog's archive has importers of its own (the default catalog has none).
    in_archive = walk.catalog.importer_for(doc.name) if walk.catalog is not None else None
    importer = in_archive or walk.importer
    try:
        loaded = importer.load_import(url, doc, chain, parts=parts)
    except (NotImplementedError, TypeError) as exc:
        walk.diags.append(
            doc.diagnostic("error", "import-error", f"cannot import {url!r}: {exc}", parts)
        )
        return None
    if isinstance(loaded, Diagnostic):
        if loaded.code == "import-cycle":
            # The file is open further up this chain (or is this one): its
            # names are linked here, as for a file met again on another chain.
            back = walk.importer.resolve_name(url, doc.name) if isinstance(url, str) else None
            known_scope = seen.get(Importer.identity(back)) if back is not None else None
            namespace = ns if isinstance(ns, str) and ns else None
            if known_scope is not None:
                current.scope.link(namespace, known_scope)
                if not loaded.related and known_scope.doc is not None:
                    loaded = replace(loaded, related=(_reentered(walk, chain, known_scope.doc),))
        if written != url and isinstance(written, str):
            # Name the import as written, and what it was read as.
            loaded = replace(
                loaded,
                message=loaded.message.replace(f"'{url}'", f"'{written}' (read as '{url}')", 1),
            )
        walk.diags.append(loaded)
        return None
    return _enter(walk, current, loaded, ns, seen)


def _reentered(walk: _Walk, chain: list[str], again: YamlDocument) -> Related:
    """Where an import cycle closes on ``again`` (a document open up ``chain``):
    its import of the next document of the chain, the one that opened the
    cycle; the document itself when it imports itself (or that import is
    not found, as for a profile reached through the catalog)."""
    identities = [Importer.identity(n) for n in chain]
    key = Importer.identity(again.name)
    after = identities.index(key) + 1 if key in identities else len(chain)
    if after < len(chain):
        imports = again.value.get("imports") if isinstance(again.value, Mapping) else None
        for index, entry in enumerate(imports if isinstance(imports, list) else ()):
            entry = _unnamed(entry, walk.grammar)
            url = entry.get("url", entry.get("file")) if isinstance(entry, Mapping) else entry
            if not isinstance(url, str):
                continue
            name = walk.importer.resolve_name(local_file_url(url), again.name)
            if Importer.identity(name) == identities[after]:
                return again.related(
                    "the cycle starts here: the re-entered file's import", ("imports", index)
                )
    return again.related("the file this import re-enters", ())


def _enter(
    walk: _Walk,
    current: _Open,
    loaded: YamlDocument,
    ns: Any,
    seen: dict[str, Scope],
    *,
    profile: tuple[Hashable, ...] | None = None,
) -> tuple[YamlDocument, Mapping, Scope] | None:
    """Link the imported document ``loaded`` into ``current``; descend if it is new.

    ``profile``: the import entry's path when it came from the catalog (not
    through the importer, so an import cycle is noticed here).
    """
    prefix = current.prefix
    namespace = ns if isinstance(ns, str) and ns else None
    key = Importer.identity(loaded.name)
    known = seen.get(key)
    if known is not None:
        # Read, checked and collected already: only its names are linked here.
        current.scope.link(namespace, known)
        if profile is not None and key in {Importer.identity(n) for n in current.chain}:
            loop = [
                *current.chain[[Importer.identity(n) for n in current.chain].index(key) :],
                loaded.name,
            ]
            walk.diags.append(
                current.doc.diagnostic(
                    "info",
                    "import-cycle",
                    "import cycle between profiles (each file is read once): " + " → ".join(loop),
                    profile,
                    related=[_reentered(walk, current.chain, loaded)],
                )
            )
        return None
    full_prefix = join_prefix(prefix, namespace)
    scope = seen[key] = Scope(full_prefix, loaded)
    current.scope.link(namespace, scope)
    walk.found.scopes.append(scope)
    walk.diags.extend(loaded.diagnostics)
    iroot = loaded.value if isinstance(loaded.value, Mapping) else {}
    iversion = iroot.get("tosca_definitions_version")
    igrammar = VERSIONS.get(iversion, walk.grammar) if isinstance(iversion, str) else walk.grammar
    if isinstance(iversion, str) and iversion not in VERSIONS:
        # Read as the version it most likely means (versions.reading_of), else
        # as the importer's grammar; each unknown spelling reported once a load.
        reading = reading_of(iversion)
        igrammar = VERSIONS[reading] if reading is not None else walk.grammar
        if iversion not in walk.versions_reported:
            walk.versions_reported.add(iversion)
            walk.diags.extend(
                d for d in detect_version(loaded, iroot)[2] if d.code == "unknown-version"
            )
    walk.diags.extend(check_keynames(loaded, iroot, igrammar.document))
    if igrammar.major == 2 and iroot.get("functions") is not None:
        walk.found.functions.append((iroot["functions"], full_prefix, loaded))
    return loaded, iroot, scope


# The keynames of a TOSCA 1.x import definition.
_IMPORT_KEYNAMES_1 = frozenset({"file", "repository", "namespace_uri", "namespace_prefix"})


def _unnamed(entry: Any, grammar: Grammar) -> Any:
    """A TOSCA 1.x named import (``- name: types.yaml`` / ``- name: {file: ...}``) unwrapped."""
    if grammar.major == 1 and isinstance(entry, Mapping) and len(entry) == 1:
        ((key, value),) = entry.items()
        if key not in _IMPORT_KEYNAMES_1 and isinstance(value, (str, Mapping)):
            return value
    return entry


def _in_repository(
    walk: _Walk, doc: YamlDocument, root: Mapping, url: Any, repository: Any, parts: tuple
) -> str | None:
    """``url`` relative to the named repository's URL (``None``: reported)."""
    if not isinstance(repository, str):
        return None  # not a name: reported by the keyname checks ('repository' must be a string)
    repos = root.get("repositories")
    repo = repos.get(repository) if isinstance(repos, Mapping) else None
    base = repo.get("url") if isinstance(repo, Mapping) else repo
    if not isinstance(base, str):
        known = list(repos) if isinstance(repos, Mapping) else []
        walk.diags.append(
            doc.diagnostic(
                "error",
                "import-error",
                f"cannot import {url!r}: no repository '{repository}' is defined",
                (*parts, "repository"),
                misspelt=str(repository),
                candidates=known,
            )
        )
        return None
    if not isinstance(url, str) or is_url(url) or url.startswith("file:"):
        return url  # absolute: the repository does not apply
    return base if not url else base.rstrip("/") + "/" + url.lstrip("/")


def _profile_import(
    walk: _Walk, current: _Open, entry: Mapping, parts: tuple[Hashable, ...]
) -> YamlDocument | None:
    """``- profile: name``: the document the catalog has for it, if it must be loaded.

    ``None`` for toskit's normative profiles (always loaded for documents of
    their version) and for a profile that cannot be loaded (reported here;
    names in its namespace are then opaque).
    """
    doc = current.doc
    name = entry.get("profile")
    where = (*parts, "profile")
    if not isinstance(name, str):
        return None  # not a name: reported by the keyname checks
    from toskit.tosca.load.catalog import ProfileCatalog, duplicate_finding, split_profile

    catalog = walk.catalog
    if catalog is None:
        catalog = walk.catalog = ProfileCatalog()
    found = catalog.lookup(name)
    if found is not None and found.builtin:
        return None
    if catalog.folders and not walk.catalog_reported:
        # The index's findings (unreadable files, duplicates) once per load.
        walk.catalog_reported = True
        walk.diags.extend(d for d in catalog.diagnostics if d.code != "duplicate-profile")
    if found is None:
        _opaque(walk, current, entry)
        versions = catalog.versions_of(split_profile(name)[0]) if catalog.folders else []
        more = f"; versions found: {', '.join(versions)}" if versions else ""
        walk.diags.append(
            doc.diagnostic(
                "warning",
                "unknown-profile",
                f"profile {name!r} is not available to toskit; its types cannot be checked",
                where,
                hint=catalog.searched() + more,
            )
        )
        return None
    duplicates = catalog.duplicates(name)
    if duplicates:
        walk.diags.append(_at_import(doc, duplicate_finding(found.profile, duplicates), where))
    if len(current.chain) >= walk.importer.max_import_depth:
        walk.diags.append(
            doc.diagnostic(
                "error",
                "limit-exceeded",
                f"cannot import profile {name!r}: the import chain is deeper than "
                f"{walk.importer.max_import_depth} files",
                where,
                hint="raise the bound with max_import_depth=… if these files are trusted",
            )
        )
        return None
    loaded = catalog.document(found)
    if isinstance(loaded, Diagnostic):
        _opaque(walk, current, entry)
        walk.diags.append(
            doc.diagnostic("error", "import-error", f"cannot import {loaded.message}", where)
        )
        return None
    if found.archive is None:
        # Its file imports may read the catalog's folders (named by the user).
        for folder in catalog.folders:
            walk.importer.allow_root(folder if os.path.isdir(folder) else os.path.dirname(folder))
    declared = loaded.value.get("profile") if isinstance(loaded.value, Mapping) else None
    if declared != found.profile:
        # The index read a line that the full parse does not confirm (or the
        # file does not parse: its own findings say why).
        _opaque(walk, current, entry)
        walk.diags.extend(loaded.diagnostics)
        walk.diags.append(
            doc.diagnostic(
                "warning",
                "unknown-profile",
                f"profile {name!r}: {found.shown()} does not declare it once parsed",
                where,
                hint=catalog.searched(),
            )
        )
        return None
    return loaded


def _at_import(doc: YamlDocument, finding: Diagnostic, where: tuple[Hashable, ...]) -> Diagnostic:
    """``finding`` (about the catalog) located at the import that met it."""
    return doc.diagnostic(
        finding.severity,
        finding.code,
        finding.message,
        where,
        hint=finding.hint,
        related=[
            *finding.related,
            *(
                [Related("declared here", finding.file, finding.line, finding.column)]
                if finding.file
                else []
            ),
        ],
    )


def _opaque(walk: _Walk, current: _Open, entry: Mapping) -> None:
    """Names in the namespace of a profile that cannot be loaded are not checked."""
    ns = entry.get("namespace")
    prefix = current.prefix
    if isinstance(ns, str) and ns:
        # (seen from the importing file's own namespace, and from the top;
        # along other namespace chains, through its scope).
        current.scope.opaque.add(ns)
        walk.found.opaque_prefixes.add(ns)
        if prefix:
            walk.found.opaque_prefixes.add(f"{prefix}:{ns}")


def local_file_url(url: str) -> str:
    """A ``file:`` URL as the local path it names; any other reference unchanged.

    ``file:///abs/x.yaml`` and ``file://localhost/abs/x.yaml`` name
    ``/abs/x.yaml``; ``file:rel/x.yaml`` names ``rel/x.yaml`` (relative to
    the importing file, like a plain path). Reading a local file is not
    network access; a ``file://otherhost/...`` URL stays a URL, so it is an
    ``import-error`` like any remote import. Percent escapes are decoded.
    """
    if not url.lower().startswith("file:"):
        return url
    # Here, not at the top: a `file:` import is rare, and urllib.parse (with
    # ipaddress) is ~1.5 ms of a `toskit check` that has none (#31).
    from urllib.parse import unquote

    rest = url[5:]
    if rest.startswith("//"):
        host, slash, path = rest[2:].partition("/")
        if host not in ("", "localhost"):
            return url
        return unquote(slash + path)
    return unquote(rest)


def join_prefix(outer: str | None, inner: str | None) -> str | None:
    if outer and inner:
        return f"{outer}:{inner}"
    return inner or outer


def type_sources(
    doc: YamlDocument, root: Mapping, prefix: str | None, scope: Scope | None = None
) -> list[TypeSource]:
    """The type definitions of one document, named ``prefix:Name`` (``Name`` without prefix).

    With its ``scope``, the types' ``prefix`` also knows the document
    (:class:`~toskit.tosca.types.registry.ScopedPrefix`): names written in it are
    looked up through its own imports.
    """
    if scope is not None and prefix:
        prefix = ScopedPrefix.of(scope)
    out: list[TypeSource] = []
    for section, kind in TYPE_SECTIONS.items():
        defs = root.get(section)
        if not isinstance(defs, Mapping):
            continue
        for name, raw in defs.items():
            if not isinstance(name, str):
                continue
            full = f"{prefix}:{name}" if prefix else name
            out.append(
                TypeSource(kind, full, raw, doc, (section, name), prefix=prefix, scope=scope)
            )
    return out
