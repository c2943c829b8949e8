"""Safe YAML loading with locations and limits.

PROVISIONAL STUB: the interface below is the contract other modules use;
the implementation is being replaced by the real loader (issue 2).

Contract
--------
``load_yaml(text, *, name="<string>", **limits) -> YamlDocument``
    Never raises for bad YAML: problems are ``doc.diagnostics`` (codes
    ``yaml-syntax``, ``duplicate-key``, ``limit-exceeded``); ``doc.value`` is
    plain data (dict/list/str/int/float/bool/None, complex keys as
    ``FrozenMap``/tuples) or ``None`` when nothing could be built.
``load_yaml_file(path, **limits) -> YamlDocument``
    Raises ``ToskitError`` for a file that is missing or not UTF-8.
``YamlDocument.locate(path)`` / ``.locate_key(path)`` / ``.diagnostic(...)``
    Locations of nodes addressed by a path of keys and list indices.
``Importer``
    Loads imported files relative to the importing one; see its docstring.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from toskit.diagnostics import Diagnostic, format_path
from toskit.errors import ToskitError

__all__ = [
    "LIMIT_DEFAULTS",
    "FrozenMap",
    "Importer",
    "Location",
    "YamlDocument",
    "load_yaml",
    "load_yaml_file",
    "read_text_file",
]

LIMIT_DEFAULTS: dict[str, int] = {
    "max_alias_nodes": 10_000,
    "max_nodes": 1_000_000,
    "max_depth": 500,
    "max_size": 50_000_000,
}


@dataclass(frozen=True)
class Location:
    """A 1-based position in a named file."""

    file: str | None
    line: int
    column: int


class FrozenMap(Mapping):
    """A hashable, immutable mapping (used for YAML keys that are mappings)."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping | Sequence = ()) -> None:
        self._data = dict(data)
        self._hash: int | None = None

    def __getitem__(self, key: Hashable) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


class YamlDocument:
    """A loaded YAML document: its value, its diagnostics, its locations."""

    def __init__(self, name: str, text: str, value: Any, diagnostics: list[Diagnostic]) -> None:
        self.name = name
        self.text = text
        self.value = value
        self.diagnostics = diagnostics
        self._lines: list[str] | None = None

    def locate(self, path: Sequence[Hashable]) -> Location | None:
        """Location of the value at ``path`` (deepest existing ancestor if missing)."""
        return None

    def locate_key(self, path: Sequence[Hashable]) -> Location | None:
        """Location of the key that is the last element of ``path``."""
        return self.locate(path)

    def line_text(self, line: int) -> str | None:
        """The text of a 1-based line, without its newline."""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines[line - 1] if 0 < line <= len(self._lines) else None

    def diagnostic(
        self,
        severity: str,
        code: str,
        message: str,
        parts: Sequence[Hashable] = (),
        *,
        hint: str | None = None,
        at_key: bool = False,
        path: str | None = None,
    ) -> Diagnostic:
        """A diagnostic located at the node (or key, with ``at_key``) of ``parts``."""
        loc = self.locate_key(parts) if at_key else self.locate(parts)
        return Diagnostic(
            severity=severity,
            code=code,
            message=message,
            path=format_path(parts) if path is None else path,
            file=self.name,
            line=loc.line if loc else None,
            column=loc.column if loc else None,
            hint=hint,
            source_line=self.line_text(loc.line) if loc else None,
        )


def load_yaml(text: str, *, name: str = "<string>", **limits: int) -> YamlDocument:
    """Load one YAML document from text (see the module docstring)."""
    try:
        value = yaml.safe_load(text)
        diags: list[Diagnostic] = []
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        value = None
        diags = [
            Diagnostic(
                "error",
                "yaml-syntax",
                str(getattr(exc, "problem", exc)),
                file=name,
                line=mark.line + 1 if mark else None,
                column=mark.column + 1 if mark else None,
            )
        ]
    return YamlDocument(name, text, value, diags)


def read_text_file(path: str | os.PathLike) -> str:
    """Read a UTF-8 file; ``ToskitError`` when missing, unreadable or not UTF-8."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        raise ToskitError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise ToskitError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ToskitError(f"{path}: cannot read ({exc.strerror})") from None


def load_yaml_file(path: str | os.PathLike, **limits: int) -> YamlDocument:
    """Load a YAML file; raises ``ToskitError`` when it cannot be read."""
    return load_yaml(read_text_file(path), name=str(path), **limits)


class Importer:
    """Loads the files a document imports (one ``Importer`` per top-level load).

    ``resolver(url, importing_file) -> str`` (optional) supplies the text of
    imports toskit does not read itself (URLs); without one a URL import is an
    ``import-error`` (remote imports are disabled: toskit never touches the
    network).

    ``load_import(url, importing, chain)`` returns the imported
    ``YamlDocument`` or a ``Diagnostic`` (``import-error`` for a file that
    cannot be read; ``import-cycle`` when the file is already in ``chain``,
    the names of the documents being imported, outermost first). A file
    imported twice is parsed once (same ``YamlDocument`` object).
    """

    def __init__(self, resolver: Callable[[str, str | None], str] | None = None, **limits: int):
        self.resolver = resolver
        self.limits = limits
        self._cache: dict[str, YamlDocument] = {}

    def load_import(
        self, url: str, importing: YamlDocument, chain: Sequence[str] = ()
    ) -> YamlDocument | Diagnostic:
        raise NotImplementedError
