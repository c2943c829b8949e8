"""Safe YAML loading with locations and limits.

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

The package's modules: :mod:`~toskit.source.scalars` (YAML 1.2 core
scalars), :mod:`~toskit.source.compose` (events → values, bounds),
:mod:`~toskit.source.locations` (positions), :mod:`~toskit.source.hints`
(syntax errors), :mod:`~toskit.source.document`,
:mod:`~toskit.source.imports`. ``docs/source.md`` records the choices.
"""

from __future__ import annotations

from toskit.source.document import (
    LIMIT_DEFAULTS,
    YamlDocument,
    load_yaml,
    load_yaml_file,
    read_text_file,
)
from toskit.source.frozen import FrozenMap
from toskit.source.imports import Importer
from toskit.source.locations import Location

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
