"""``load_module``: run a module of DSL classes and load it as a ServiceTemplate.

**Loading a module runs its code** (as Unfurl does): that is the feature.
A module given by path runs in a separate process (a fork of the
caller, ``multiprocessing``'s "fork" start method where the platform has
it), with a wall-clock ``timeout`` (default
:data:`DEFAULT_TIMEOUT` seconds). The child turns the module's classes and
templates into TOSCA YAML text plus a table of Python positions and sends
them back as JSON, which is plain data: nothing of the module's objects
reaches the caller's process. So a module that never ends, calls
``os._exit``, raises ``KeyboardInterrupt`` or another ``BaseException``,
lowers the recursion limit, empties ``sys.path`` or changes the current
directory affects only the child; each case is a ``python-error``
diagnostic, and the caller's ``os.getcwd()``, ``sys.path`` and
``sys.modules`` are untouched. Runs do not share a lock: a slow module
does not hold up another ``load_module``.

In the child, the file is executed under a unique module name. While it
runs, ``tosca`` and ``unfurl`` in ``sys.modules`` refer to
:mod:`toskit.dsl` (so modules written for Unfurl's ``tosca`` package load
unchanged).

The module's classes and templates become a TOSCA document
(:func:`toskit.dsl.python2yaml.to_yaml_data`), which is loaded with
:func:`toskit.loads` under the module's file name. Every diagnostic is
then placed on the Python line that wrote the offending part, through the
side table of YAML paths -> Python positions. A module that fails to
compile or raises while it runs gives a ``python-error`` diagnostic at the
failing line, never a traceback.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import linecache
import multiprocessing
import os
import sys
import threading
import traceback
import types
from collections.abc import Mapping
from typing import Any

from toskit.diagnostics import SEVERITIES, Diagnostic, sort_diagnostics
from toskit.dsl.entities import _COLLECTOR, SourcePosition
from toskit.dsl.python2yaml import Emitted, to_yaml_data
from toskit.dsl.sourcemap import index_for
from toskit.dsl.yamltext import dump_yaml
from toskit.errors import ToskitError

__all__ = ["DEFAULT_TIMEOUT", "MAX_RELAYED_OUTPUT", "ForgedReply", "load_module", "run_module"]

#: Seconds of wall-clock time a module file may take to run and convert.
DEFAULT_TIMEOUT = 10.0
# The document of a module whose classes could not be read (no follow-on errors).
_EMPTY = "tosca_definitions_version: tosca_simple_unfurl_1_0_0\n"
#: Largest reply (JSON bytes) accepted from the child process.
_MAX_REPLY = 200_000_000
#: Bytes of the module's own output (stdout and stderr, together) relayed to
#: the caller's ``sys.stdout``; the rest is read and dropped, with a note.
MAX_RELAYED_OUTPUT = 64 * 1024

_COUNTER = itertools.count(1)
# sys.modules is process-wide: one module run at a time swaps the aliases.
_ALIAS_LOCK = threading.RLock()
_ALIASES = ("tosca", "unfurl")


class _ModuleRun:
    """The outcome of executing a module: its namespace, templates and problems."""

    def __init__(
        self,
        filename: str,
        namespace: dict[str, Any],
        templates: list,
        diagnostics: list[Diagnostic],
    ):
        self.filename = filename
        self.namespace = namespace
        self.templates = templates
        self.diagnostics = diagnostics


def _safe_str(exc: BaseException) -> str:
    """``str(exc)``, even for an exception whose ``__str__`` raises; abbreviated."""
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - the module's own __str__ may raise anything
        return "(its message could not be shown: its __str__ failed)"
    return text if len(text) <= 500 else text[:497] + "..."


def _python_error(filename: str, exc: BaseException) -> Diagnostic:
    line = column = None
    if isinstance(exc, SyntaxError) and (exc.filename in (filename, None)):
        line, column = exc.lineno, exc.offset
        message = f"Python syntax error: {exc.msg}"
    else:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename == filename:
                line = frame.lineno
                colno = getattr(frame, "colno", None)
                column = colno + 1 if colno is not None else None
        message = f"the module raised {type(exc).__name__}: {_safe_str(exc)}"
    hint = "fix the Python error; toskit loads what the module defined before it"
    if isinstance(exc, NameError):
        hint = (
            "a name must be defined before it is used; an annotation may name a class "
            'defined later if it is quoted ("Name") or the module starts with '
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
            except BaseException as exc:  # noqa: BLE001
                # A module that fails, calls sys.exit(), raises KeyboardInterrupt
                # or any BaseException is a diagnostic of its own file, never an
                # exception out of load_module.
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


_DIAGNOSTIC_FIELDS = (
    "severity",
    "code",
    "message",
    "path",
    "file",
    "line",
    "column",
    "hint",
    "source_line",
)


def _diagnostic_data(d: Diagnostic) -> list:
    return [getattr(d, name) for name in _DIAGNOSTIC_FIELDS]


def _diagnostic_from(data: Any) -> Diagnostic:
    values = dict(zip(_DIAGNOSTIC_FIELDS, data))
    return Diagnostic(**values)


def _emit_in_child(path: str) -> dict[str, Any]:
    """Run the module file and convert it: everything as JSON-able data."""
    run = run_module(path)
    diagnostics = list(run.diagnostics)
    try:
        emitted = to_yaml_data(run.namespace, templates=run.templates, filename=run.filename)
        text = dump_yaml(emitted.data)
    except BaseException as exc:  # noqa: BLE001 - a hostile module's objects may do anything
        diagnostics.append(
            Diagnostic(
                "error",
                "python-error",
                f"the module's classes could not be converted to TOSCA: {type(exc).__name__}: "
                f"{_safe_str(exc)}",
                file=run.filename,
                hint="a value nested too deeply, or an object that breaks when read",
            )
        )
        return {
            "text": _EMPTY,
            "locations": {},
            "run": [_diagnostic_data(d) for d in diagnostics],
            "emitted": [],
            "default_file": run.filename,
        }
    return {
        "text": text,
        "locations": {k: [v.file, v.line, v.column] for k, v in emitted.locations.items()},
        "run": [_diagnostic_data(d) for d in diagnostics],
        "emitted": [_diagnostic_data(d) for d in emitted.diagnostics],
        "default_file": emitted.default_file,
    }


def _child_main(conn: Any, path: str, output_fd: int) -> None:
    """The child process: run, convert, reply with JSON bytes, and end at once.

    It leads a process group of its own (``os.setsid``), so that the caller
    can end every process the module starts with one ``os.killpg``; its
    stdout and stderr go to ``output_fd``, which the caller relays, bounded.
    """
    # Already a group leader (not expected): the caller falls back to killing the child.
    with contextlib.suppress(OSError):
        os.setsid()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001, S110 - the caller's streams may be anything
        pass
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.close(output_fd)
    try:
        payload = json.dumps(_emit_in_child(path), default=str)
    except BaseException as exc:  # noqa: BLE001
        payload = json.dumps({"crash": f"{type(exc).__name__}: {_safe_str(exc)}"})
    try:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):  # the module may have replaced them
                stream.flush()
        conn.send_bytes(payload.encode("utf-8", "surrogatepass"))
        conn.close()
    finally:
        os._exit(0)  # no atexit handlers or finalizers the module registered


_CONTEXT_LOCK = threading.Lock()
_CONTEXT: Any = None


def _context() -> Any:
    """The multiprocessing context: "fork" where there is one, else "spawn".

    A fork starts in milliseconds with toskit already imported, and (unlike
    "spawn" and "forkserver") does not re-run the caller's ``__main__``
    script in the child.
    """
    global _CONTEXT
    with _CONTEXT_LOCK:
        if _CONTEXT is None:
            methods = multiprocessing.get_all_start_methods()
            _CONTEXT = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        return _CONTEXT


class _Relay(threading.Thread):
    """Reads the child's stdout/stderr; keeps the first :data:`MAX_RELAYED_OUTPUT` bytes.

    The rest is read and dropped (a module that prints without end does not
    block on a full pipe, and does not flood the caller's output); the kept
    part is written to the caller's ``sys.stdout`` once the module is done.
    """

    def __init__(self, fd: int) -> None:
        super().__init__(daemon=True, name="toskit-load-module-output")
        self.fd = fd
        self.kept = bytearray()
        self.dropped = 0
        self.stop = threading.Event()

    def run(self) -> None:
        import select

        while True:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.05)
            except (OSError, ValueError):
                return
            if not ready:
                if self.stop.is_set():
                    return
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            room = MAX_RELAYED_OUTPUT - len(self.kept)
            self.kept += chunk[: max(room, 0)]
            self.dropped += max(len(chunk) - max(room, 0), 0)

    def finish(self) -> None:
        """Stop reading (after a short drain), close the pipe, relay what was kept."""
        self.stop.set()
        self.join(2.0)
        with contextlib.suppress(OSError):
            os.close(self.fd)
        if not self.kept and not self.dropped:
            return
        text = self.kept.decode("utf-8", "replace")
        if self.dropped:
            text += (
                f"\n[toskit: the module wrote {self.dropped:,} more bytes of output, "
                f"not shown (the first {MAX_RELAYED_OUTPUT:,} are)]\n"
            )
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except (OSError, ValueError):
            pass


def _end_process_group(process: Any) -> None:
    """Kill the child's whole process group: the module and every process it started.

    Called before the child is reaped (joined): a dead but unreaped child
    keeps its pid, hence its group id, from being reused by an unrelated
    process. A child that had not yet made its group is killed alone.
    """
    import signal

    pid = process.pid
    if pid is None:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(OSError, ValueError):
            process.kill()


class ForgedReply(ToskitError):
    """The module's process sent a reply toskit cannot read (a module wrote to toskit's pipe)."""


def _reply(raw: bytes) -> dict[str, Any]:
    """The child's reply, checked field by field (a module can write to the pipe itself)."""

    def forged(why: str) -> ForgedReply:
        return ForgedReply(
            f"load_module: the module's process sent a reply toskit cannot read ({why}); "
            "a module must not write to toskit's result pipe, or it is not loaded"
        )

    try:
        data = json.loads(raw.decode("utf-8", "surrogatepass"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise forged(f"not JSON: {type(exc).__name__}") from None
    if not isinstance(data, dict):
        raise forged(f"a JSON {type(data).__name__}, not an object")
    if set(data) == {"crash"}:
        if not isinstance(data["crash"], str):
            raise forged("'crash' is not a string")
        return data
    expected = {"text", "locations", "run", "emitted", "default_file"}
    if set(data) != expected:
        raise forged(f"its fields are {sorted(map(str, data))}, not {sorted(expected)}")
    if not isinstance(data["text"], str):
        raise forged("'text' is not a string")
    if not (data["default_file"] is None or isinstance(data["default_file"], str)):
        raise forged("'default_file' is not a string")
    locations = data["locations"]
    if not isinstance(locations, dict) or not all(
        isinstance(v, list)
        and len(v) == 3
        and (v[0] is None or isinstance(v[0], str))
        and all(x is None or (type(x) is int) for x in v[1:])
        for v in locations.values()
    ):
        raise forged("'locations' is not a map of [file, line, column]")
    for key in ("run", "emitted"):
        why = _bad_diagnostics(key, data[key])
        if why is not None:
            raise forged(why)
    return data


def _bad_diagnostics(key: str, items: Any) -> str | None:
    """What is wrong with the reply's ``key`` list of diagnostics, if anything."""
    if not isinstance(items, list):
        return f"{key!r} is not a list"
    for item in items:
        if not isinstance(item, list) or len(item) != len(_DIAGNOSTIC_FIELDS):
            return f"an entry of {key!r} is not a diagnostic"
        fields = dict(zip(_DIAGNOSTIC_FIELDS, item))
        if (
            fields["severity"] not in SEVERITIES
            or not isinstance(fields["code"], str)
            or not isinstance(fields["message"], str)
        ):
            return f"an entry of {key!r} has no valid severity, code and message"
        if not all(fields[n] is None or type(fields[n]) is int for n in ("line", "column")):
            return f"an entry of {key!r} has a line or column that is not a number"
        if not all(
            fields[n] is None or isinstance(fields[n], str)
            for n in ("path", "file", "hint", "source_line")
        ):
            return f"an entry of {key!r} has a field that is not text"
    return None


def _run_isolated(path: str, timeout: float) -> tuple[str, Emitted, list[Diagnostic]]:
    """``(yaml_text, emitted, run_diagnostics)`` of a module file run in a child process."""
    filename = os.fspath(path)
    context = _context()
    receiver, sender = context.Pipe(duplex=False)
    output_read, output_write = os.pipe()
    relay = _Relay(output_read)
    try:
        process = context.Process(
            target=_child_main, args=(sender, filename, output_write), daemon=True
        )
        process.start()
    finally:
        sender.close()
        os.close(output_write)
    relay.start()
    raw: bytes | None = None
    problem: str | None = None
    try:
        if receiver.poll(timeout):
            try:
                raw = receiver.recv_bytes(_MAX_REPLY)
            except (EOFError, OSError):
                raw = None
        else:
            problem = (
                f"the module did not finish within {timeout:g} s (it runs in a separate "
                "process, which was stopped with every process it started)"
            )
    finally:
        receiver.close()
        # Whether it replied, ended or timed out: nothing the module started outlives it.
        _end_process_group(process)
        process.join()
        relay.finish()
    empty = Emitted({}, default_file=filename)
    if raw is None:
        if problem is None:
            problem = (
                "the module ended its Python process before toskit could read its "
                f"classes (exit code {process.exitcode}; os._exit or a crash?)"
            )
        hint = (
            "raise timeout=... if the module is slow but trusted"
            if "did not finish" in problem
            else "a module must not end the process"
        )
        return (
            _EMPTY,
            empty,
            [Diagnostic("error", "python-error", problem, file=filename, hint=hint)],
        )
    data = _reply(raw)
    if "crash" in data:
        return (
            _EMPTY,
            empty,
            [
                Diagnostic(
                    "error",
                    "python-error",
                    f"loading the module failed: {data['crash']}",
                    file=filename,
                )
            ],
        )
    emitted = Emitted(
        {},
        locations={k: SourcePosition(*v) for k, v in data["locations"].items()},
        diagnostics=[_diagnostic_from(d) for d in data["emitted"]],
        default_file=data["default_file"],
    )
    return data["text"], emitted, [_diagnostic_from(d) for d in data["run"]]


def relocate(diagnostic: Diagnostic, emitted: Emitted) -> Diagnostic:
    """Put a diagnostic found in the emitted YAML on the Python line that wrote it."""
    position = emitted.locate(diagnostic.path) if diagnostic.path else None
    if position is None:
        return diagnostic.with_location(emitted.default_file, None, None)
    index = index_for(position.file)
    return diagnostic.with_location(
        position.file,
        position.line,
        position.column,
        index.line_text(position.line) if index else None,
    )


def load_module(
    module_or_path: Any,
    *,
    inputs: dict | None = None,
    timeout: float | None = None,
    **limits: Any,
):
    """A module of DSL classes and templates -> ``ServiceTemplate`` (same API as ``load``).

    **Loading a module file runs its code**, in a separate process with a
    wall-clock ``timeout`` in seconds (default :data:`DEFAULT_TIMEOUT`);
    what comes back is data (TOSCA YAML text and Python positions), and the
    caller's current directory, ``sys.path`` and ``sys.modules`` are left as
    they were. A module that fails, never ends, ends the process or raises
    any ``BaseException`` is a ``python-error`` diagnostic (module doc).

    ``module_or_path`` is a path to a ``.py`` file (executed afresh, as
    above), an already imported module object, or a namespace mapping such
    as a notebook's ``globals()`` (both read as they are, in this process:
    their code has already run). The template holds the types the module
    defines and imports (plus the types they use), and its templates. Its
    version is ``tosca_simple_unfurl_1_0_0``. Raises ``toskit.ToskitError``
    only when the file cannot be read or the argument is none of those
    three. ``toskit check`` never executes Python.
    """
    import toskit

    if not isinstance(module_or_path, (types.ModuleType, Mapping, str, os.PathLike)):
        raise ToskitError(
            "load_module takes a path to a .py file, a module or a namespace mapping, "
            f"not {type(module_or_path).__name__}"
        )
    if timeout is None:
        timeout = DEFAULT_TIMEOUT
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ToskitError(f"load_module(timeout=...) must be a positive number, not {timeout!r}")
    if isinstance(module_or_path, (str, os.PathLike)):
        from toskit.source import read_text_file

        filename = os.fspath(module_or_path)
        read_text_file(filename)  # a missing or unreadable file is a ToskitError, as before
        text, emitted, run_diagnostics = _run_isolated(filename, float(timeout))
        filename_shown = filename
    else:
        if isinstance(module_or_path, types.ModuleType):
            filename_shown = (
                getattr(module_or_path, "__file__", None) or f"<module {module_or_path.__name__}>"
            )
            run = _ModuleRun(filename_shown, vars(module_or_path), [], [])
        else:
            # A namespace such as a notebook's ``globals()``.
            filename_shown = str(module_or_path.get("__file__") or "<namespace>")
            run = _ModuleRun(filename_shown, dict(module_or_path), [], [])
        emitted = to_yaml_data(run.namespace, templates=run.templates, filename=run.filename)
        text = dump_yaml(emitted.data)
        run_diagnostics = run.diagnostics
    template = toskit.loads(text, name=filename_shown, inputs=inputs, **limits)
    own = {(d.code, d.path) for d in emitted.diagnostics}
    found = [
        relocate(d, emitted)
        for d in template.diagnostics
        # The DSL already reported these on the Python side, more precisely.
        if (d.code, d.path) not in own
    ]
    merged = sort_diagnostics([*run_diagnostics, *emitted.diagnostics, *found])
    template.diagnostics = merged
    # Keep what was generated, for to_yaml() and for people debugging a module.
    template.dsl_yaml = text
    template.dsl_source_map = {k: (v.file, v.line, v.column) for k, v in emitted.locations.items()}
    return template
