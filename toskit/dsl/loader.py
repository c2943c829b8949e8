"""``load_module``: run a module of DSL classes and load it as a ServiceTemplate.

Each call reads and executes the file afresh under a unique module name
that is removed from ``sys.modules`` afterwards. While it runs, ``tosca``
and ``unfurl`` in ``sys.modules`` refer to :mod:`toskit.dsl` (so modules
written for Unfurl's ``tosca`` package load unchanged); whatever those
names referred to before is put back afterwards.

The module's classes and templates become a TOSCA document
(:func:`toskit.dsl.python2yaml.to_yaml_data`), which is loaded with
:func:`toskit.loads` under the module's file name. Every diagnostic is
then placed on the Python line that wrote the offending part, through the
side table of YAML paths -> Python positions. A module that fails to
compile or raises while it runs gives a ``python-error`` diagnostic at the
failing line, never a traceback.
"""

from __future__ import annotations

import itertools
import linecache
import os
import sys
import threading
import traceback
import types
from collections.abc import Mapping
from typing import Any

from toskit.diagnostics import Diagnostic, sort_diagnostics
from toskit.dsl.entities import _COLLECTOR
from toskit.dsl.python2yaml import Emitted, to_yaml_data
from toskit.dsl.sourcemap import index_for
from toskit.dsl.yamltext import dump_yaml
from toskit.errors import ToskitError

__all__ = ["load_module", "run_module"]

_COUNTER = itertools.count(1)
# sys.modules is process-wide: one module run at a time swaps the aliases.
_ALIAS_LOCK = threading.RLock()
_ALIASES = ("tosca", "unfurl")


class _ModuleRun:
    """The outcome of executing a module: its namespace, templates and problems."""

    def __init__(self, filename: str, namespace: dict[str, Any], templates: list, diagnostics: list[Diagnostic]):
        self.filename = filename
        self.namespace = namespace
        self.templates = templates
        self.diagnostics = diagnostics


def _python_error(filename: str, exc: BaseException) -> Diagnostic:
    line = column = None
    if isinstance(exc, SyntaxError) and (exc.filename in (filename, None)):
        line, column = exc.lineno, exc.offset
        message = f"Python syntax error: {exc.msg}"
    else:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename == filename:
                line = frame.lineno
                column = (frame.colno + 1) if getattr(frame, "colno", None) is not None else None
        message = f"the module raised {type(exc).__name__}: {exc}"
    hint = "fix the Python error; toskit loads what the module defined before it"
    if isinstance(exc, NameError):
        hint = (
            "a name must be defined before it is used; an annotation may name a class "
            "defined later if it is quoted (\"Name\") or the module starts with "
            "'from __future__ import annotations'"
        )
    source_line = None
    if line is not None:
        text = linecache.getline(filename, line)
        source_line = text.rstrip("\n") if text else None
    return Diagnostic(
        "error",
        "python-error",
        message,
        file=filename,
        line=line,
        column=column,
        hint=hint,
        source_line=source_line,
    )


def run_module(path: str | os.PathLike) -> _ModuleRun:
    """Execute a Python file as a fresh module with the ``tosca``/``unfurl`` aliases."""
    from toskit.source import read_text_file

    filename = os.fspath(path)
    text = read_text_file(filename)
    # Make the exact text we run visible to linecache/inspect (the file may change later).
    lines = text.splitlines(keepends=True)
    linecache.cache[filename] = (len(text), None, lines, filename)
    module_name = f"toskit_dsl_module_{next(_COUNTER)}"
    module = types.ModuleType(module_name)
    module.__file__ = filename
    namespace = vars(module)
    templates: list = []
    diagnostics: list[Diagnostic] = []
    try:
        code = compile(text, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        diagnostics.append(_python_error(filename, exc))
        return _ModuleRun(filename, namespace, templates, diagnostics)

    import toskit.dsl as dsl

    # The seed's later Python blocks use ``tosca.`` without importing it (they
    # continue the first block); Unfurl-style modules may do the same.
    namespace.setdefault("tosca", dsl)
    namespace.setdefault("unfurl", dsl)
    folder = os.path.dirname(os.path.abspath(filename))
    with _ALIAS_LOCK:
        saved = {name: sys.modules.get(name) for name in _ALIASES}
        before = set(sys.modules)
        token = _COLLECTOR.set(templates)
        # Sibling modules (shared type libraries) import like in a script run.
        sys.path.insert(0, folder)
        try:
            for name in _ALIASES:
                sys.modules[name] = dsl
            sys.modules[module_name] = module
            try:
                # Running the user's module is what load_module is for; no
                # template or condition text is ever executed.
                exec(code, namespace)  # noqa: S102
            except (Exception, SystemExit) as exc:
                # A module that fails, or calls sys.exit(), is a diagnostic of
                # its own file, never an exception out of load_module.
                diagnostics.append(_python_error(filename, exc))
        finally:
            _COLLECTOR.reset(token)
            sys.modules.pop(module_name, None)
            if sys.path and sys.path[0] == folder:
                del sys.path[0]
            _forget_modules_from(folder, set(sys.modules) - before)
            for name, previous in saved.items():
                if previous is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = previous
    return _ModuleRun(filename, namespace, templates, diagnostics)


def _forget_modules_from(folder: str, names: set[str]) -> None:
    """Drop the modules a run imported from the module's own folder.

    The next ``load_module`` then reads them afresh too, and no type
    library outlives the run in ``sys.modules``. Modules imported from
    elsewhere (the standard library, installed packages) stay cached.
    """
    prefix = folder.rstrip(os.sep) + os.sep
    for name in names:
        module = sys.modules.get(name)
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and os.path.abspath(file).startswith(prefix):
            sys.modules.pop(name, None)


def relocate(diagnostic: Diagnostic, emitted: Emitted) -> Diagnostic:
    """Put a diagnostic found in the emitted YAML on the Python line that wrote it."""
    position = emitted.locate(diagnostic.path) if diagnostic.path else None
    if position is None:
        return diagnostic.with_location(emitted.default_file, None, None)
    index = index_for(position.file)
    return diagnostic.with_location(
        position.file, position.line, position.column, index.line_text(position.line) if index else None
    )


def load_module(module_or_path: Any, *, inputs: dict | None = None, **limits: Any):
    """A module of DSL classes and templates -> ``ServiceTemplate`` (same API as ``load``).

    ``module_or_path`` is a path to a ``.py`` file (executed afresh), an
    already imported module object, or a namespace mapping such as a
    notebook's ``globals()`` (both read as they are). The template holds the
    types the module defines and imports (plus the types they use), and
    its templates. Its version is ``tosca_simple_unfurl_1_0_0``.
    Raises ``toskit.ToskitError`` only when the file cannot be read or the
    argument is none of those three.
    """
    import toskit

    if not isinstance(module_or_path, (types.ModuleType, Mapping, str, os.PathLike)):
        raise ToskitError(
            "load_module takes a path to a .py file, a module or a namespace mapping, "
            f"not {type(module_or_path).__name__}"
        )
    if isinstance(module_or_path, types.ModuleType):
        filename = getattr(module_or_path, "__file__", None) or f"<module {module_or_path.__name__}>"
        run = _ModuleRun(filename, vars(module_or_path), [], [])
    elif isinstance(module_or_path, Mapping):
        # A namespace such as a notebook's ``globals()``.
        filename = module_or_path.get("__file__") or "<namespace>"
        run = _ModuleRun(str(filename), dict(module_or_path), [], [])
    else:
        run = run_module(module_or_path)
    emitted = to_yaml_data(run.namespace, templates=run.templates, filename=run.filename)
    text = dump_yaml(emitted.data)
    template = toskit.loads(text, name=run.filename, inputs=inputs, **limits)
    own = {(d.code, d.path) for d in emitted.diagnostics}
    found = [
        relocate(d, emitted)
        for d in template.diagnostics
        # The DSL already reported these on the Python side, more precisely.
        if (d.code, d.path) not in own
    ]
    merged = sort_diagnostics([*run.diagnostics, *emitted.diagnostics, *found])
    template.diagnostics = merged
    # Keep what was generated, for to_yaml() and for people debugging a module.
    template.dsl_yaml = text
    template.dsl_source_map = {k: (v.file, v.line, v.column) for k, v in emitted.locations.items()}
    return template
