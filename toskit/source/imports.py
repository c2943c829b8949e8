"""Loading the files a document imports."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Hashable, Sequence
from typing import Any
from urllib.parse import urljoin

from toskit.diagnostics import Diagnostic
from toskit.errors import ToskitError
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
    cannot be read; ``import-cycle`` when the file is already in ``chain``,
    the names of the documents being imported, outermost first). A file
    imported twice is parsed once (same ``YamlDocument`` object).

    A relative path is resolved against the directory of the importing
    document's ``name`` (the current directory for ``"<string>"``). File
    documents are named by the path as written joined to that directory, so
    diagnostics show readable relative paths; identity (cache, cycles)
    uses the normalised absolute path.
    """

    def __init__(self, resolver: Resolver | None = None, **limits: Any) -> None:
        resolve_limits({k: v for k, v in limits.items() if k != "parser"})  # fail early
        self.resolver = resolver
        self.limits = limits
        self._cache: dict[str, YamlDocument] = {}

    @staticmethod
    def identity(name: str) -> str:
        """The key that identifies a document name across spellings."""
        if is_url(name) or name.startswith("<"):
            return name
        return os.path.normcase(os.path.abspath(name))

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
            return problem("import-error", f"import reference must be a file name, not {url!r}")
        name = self.resolve_name(url, importing.name)
        key = self.identity(name)

        names = list(chain)
        if not names or self.identity(names[-1]) != self.identity(importing.name):
            names.append(importing.name)
        identities = [self.identity(n) for n in names]
        if key in identities:
            loop = [*names[identities.index(key) :], name]
            return problem(
                "import-cycle",
                "import cycle: " + " → ".join(loop),
                "remove one of these imports",
            )

        cached = self._cache.get(key)
        if cached is not None:
            return cached

        if is_url(name):
            if self.resolver is None:
                return problem(
                    "import-error",
                    f"cannot import '{name}': remote imports are disabled",
                    "toskit never fetches URLs; download the file and import it by path, "
                    "or pass resolver=… to supply its text",
                )
            try:
                text = self.resolver(name, importing.name)
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
            doc = load_yaml(text, name=name, **self.limits)
        else:
            try:
                doc = load_yaml_file(name, **self.limits)
            except ToskitError as exc:
                return problem("import-error", f"cannot import '{url}': {exc}")
        self._cache[key] = doc
        return doc
