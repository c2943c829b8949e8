"""The ``toskit`` command line.

``toskit check FILE…``
    Loads each file, works out what kind of document it is, runs that
    kind's checker and prints, for each file, one line naming the kind it
    detected (``checked FILE as TOSCA 2.0 template: 1 error, 0 warnings``)
    followed by its diagnostics (``str(d)``: location, severity, code,
    message, hint, the source line with a caret): the first 100 of each code in each file
    (``--max-per-code N``, ``0`` for all), then one summary per code
    (``19,900 more 'unknown-type' diagnostics not shown``) where the first
    hidden one was. Every count (the per-file line, the summary line, the
    exit status) includes the hidden ones. ``--format json`` prints a JSON
    list of ``{file, kind, label, tosca_version, counts, omitted,
    diagnostics}`` instead: ``counts`` per severity with the hidden ones,
    ``omitted`` code → how many are not listed, and a summary's record has
    ``"omitted": N``. A directory stands for its ``*.yaml``/``*.yml`` files,
    recursively; ``-`` reads standard input. ``-j N`` checks the files in
    ``N`` processes (default: the number of CPUs this process may use);
    output stays in input order. Exit status: 0 when no file has an error,
    1 when one has, 2 when the command could not run (bad arguments, or a
    file that cannot be read: a missing file, a directory with no YAML, a
    file that is not UTF-8 text; such a file is reported and is not
    counted as checked). ``--root DIR`` sets the folder that a TOSCA
    template's local imports must stay inside (default: its enclosing
    project, the nearest folder holding ``.git`` or an unpacked CSAR's
    ``TOSCA-Metadata``, else its own folder).
    ``--format sarif|github|junit`` renders the same results for CI
    (:mod:`toskit.report`; ``github`` is the default when
    ``GITHUB_ACTIONS=true``); a file that cannot be read or whose check
    crashes is then a finding of that file. ``--fix`` first applies the
    findings' unambiguous fixes in place (:mod:`toskit.fix`; ``--dry-run``
    prints the diff instead). docs/ci.md has the details.
``toskit show FILE [-o OUT.html] [--force] [--root DIR]``
    Writes the HTML view of FILE as a standalone page: a TOSCA template as
    its report, a roles document as its roles view, a Fuel release file as
    the view of each of its releases, a structural schema as its type view.
    A plain YAML file, or one that does not parse, is refused (exit 2, one
    line saying why). The page is never written onto an input, never
    through a symbolic link, never over an existing file that toskit did
    not write (unless ``--force``), and always through a temporary file
    renamed into place (:mod:`toskit.output_file`).
``toskit lsp``
    The language server over stdin/stdout (:mod:`toskit.lsp`, docs/lsp.md);
    pygls is imported only by this subcommand.

Every text the command prints passes through :mod:`toskit.terminal`:
control characters from a document (ANSI/OSC escape sequences, carriage
returns, line feeds inside a key) are shown as visible stand-ins, never
sent to the terminal. ``check`` and ``show`` escape each field they print
(line feeds included); every subcommand's output, ``diff`` too, goes
through a :class:`~toskit.terminal.TerminalStream` that shows any other
control character but the output's own line feeds. A closed output
pipe (``toskit check … | head -1``) ends the command quietly with status
141, as if killed by SIGPIPE.

Kinds of document (see :func:`detect_kind`) and their checkers live in
:data:`CHECKERS`, a table of ``check(text, name) -> list[Diagnostic]``
functions. Every kind starts with the YAML-level checks (syntax, duplicate
keys, bounds); each system adds its own checks (``toskit.tosca``,
``toskit.conditions`` for roles documents and Fuel releases,
``toskit.schema``), imported only when a document of that kind is checked.
:func:`register_checker` replaces a kind's checker (with ``-j`` above 1 the
worker processes are forked, so they see it too).

Subcommands are registered by the functions in :data:`SUBCOMMANDS`; each
adds its subparser and sets ``run(args, out, err) -> int``.
"""

from __future__ import annotations

import argparse
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO, cast

from toskit.diagnostics import (
    MAX_PER_CODE,
    MAX_TEXT,
    Diagnostic,
    abbreviate,
    cap_per_code,
    count_by_severity,
    omitted_per_code,
    sort_diagnostics,
)
from toskit.errors import ToskitError
from toskit.patterns import lazy_pattern
from toskit.records import field, record, replace
from toskit.terminal import terminal_safe

__all__ = [
    "CHECKERS",
    "SUBCOMMANDS",
    "Checker",
    "check_file",
    "check_text",
    "detect_kind",
    "diagnostic_record",
    "kind_label",
    "main",
    "register_checker",
]

Checker = Callable[[str, str], list[Diagnostic]]

# Top-level keys that only a TOSCA document has.
TOSCA_KEYS = frozenset(
    {
        "tosca_definitions_version",
        "topology_template",
        "service_template",
        "node_types",
        "data_types",
        "capability_types",
        "relationship_types",
        "interface_types",
        "artifact_types",
        "group_types",
        "policy_types",
        "dsl_definitions",
        "repositories",
    }
)

# The status of a command whose output pipe closed (128 + SIGPIPE), as for any Unix tool.
BROKEN_PIPE_STATUS = 141


def detect_kind(value: Any) -> str:
    """What a loaded document is: ``tosca``, ``roles``, ``fuel-release``, ``schema`` or ``yaml``.

    * ``tosca``: a mapping with ``tosca_definitions_version`` or a TOSCA
      section (``topology_template``, ``service_template``, ``*_types``…);
    * ``roles``: a mapping with ``roles_metadata`` (the roles seed);
    * ``fuel-release``: a list of fixture records (mappings with ``model``
      and ``fields``), as in Fuel's ``openstack.yaml``;
    * ``schema``: a mapping whose ``types`` is a list (a structural schema);
    * ``yaml``: anything else (only the YAML-level checks apply).
    """
    if isinstance(value, dict):
        if any(isinstance(key, str) and key in TOSCA_KEYS for key in value):
            return "tosca"
        if "roles_metadata" in value:
            return "roles"
        if isinstance(value.get("types"), list):
            return "schema"
        return "yaml"
    if isinstance(value, list) and any(
        isinstance(record, dict) and "model" in record and "fields" in record for record in value
    ):
        return "fuel-release"
    return "yaml"


_KIND_LABELS = {
    "roles": "roles document",
    "fuel-release": "Fuel release file",
    "schema": "structural schema",
    "yaml": "plain YAML",
}
UNPARSED_LABEL = "YAML that does not parse"
OVERSIZE_LABEL = "a file over the size bound (not read)"
_TOSCA_VERSION = re.compile(
    r"^tosca_(?:simple_yaml_|simple_profile_[a-z_]*?_)?(\d+)_(\d+)(?:_\d+)*$"
)
_TOSCA_NS_VERSION = lazy_pattern(
    r"^http://docs\.oasis-open\.org/tosca/ns/simple/yaml/(\d+)\.(\d+)$"
)


def tosca_version(value: Any) -> str | None:
    """``"2.0"``, ``"1.3"``… from a TOSCA document's
    ``tosca_definitions_version``, else ``None``."""
    if not isinstance(value, dict):
        return None
    declared = value.get("tosca_definitions_version")
    match = (
        _TOSCA_VERSION.match(declared) or _TOSCA_NS_VERSION.match(declared)
        if isinstance(declared, str)
        else None
    )
    return f"{match.group(1)}.{match.group(2)}" if match else None


def kind_label(kind: str, value: Any = None) -> str:
    """What ``toskit check`` calls a document: ``TOSCA 2.0 template``, ``roles document``…"""
    if kind == "tosca":
        version = tosca_version(value)
        if version is not None:
            return f"TOSCA {version} template"
        declared = value.get("tosca_definitions_version") if isinstance(value, dict) else None
        return (
            "TOSCA template (unknown version)"
            if declared is not None
            else "TOSCA template (no version)"
        )
    if kind == "yaml" and value is None:
        return "empty YAML document"
    return _KIND_LABELS.get(kind, kind)


def check_yaml(text: str, name: str) -> list[Diagnostic]:
    """The YAML-level checks: syntax, duplicate keys, tags, bounds."""
    from toskit.source import load_yaml

    return load_yaml(text, name=name).diagnostics


def check_schema(text: str, name: str) -> list[Diagnostic]:
    """A structural schema document: YAML checks, then the schema-of-schemas checks."""
    from toskit import schema
    from toskit.errors import SchemaError

    try:
        schema.load(text, name=name)
    except SchemaError as exc:
        return list(exc.diagnostics)
    return check_yaml(text, name)


def check_tosca(
    text: str,
    name: str,
    root: str | None = None,
    max_per_code: int | None = MAX_PER_CODE,
    *,
    doc: Any = None,
) -> list[Diagnostic]:
    """A TOSCA document: everything ``toskit.loads`` reports. ``root`` sets the
    folder that local imports must stay inside (default: the file's enclosing
    project, else its folder);
    ``max_per_code`` is the loader's cap of diagnostics listed per code.
    ``doc``: ``text`` already read by ``toskit.source.load_yaml(text, name=name)``
    with the default limits (``toskit check`` read it to find its kind): built
    from, not parsed a second time (#31: the second parse was ~15 % of a
    small file's check)."""
    if doc is not None:
        from toskit.runtime import deep_walk
        from toskit.tosca.load.loader import build

        # As loads() does: the cyclic collector paused while the template is built.
        with deep_walk(0, pause_gc=True):
            return build(
                doc, root=root, max_per_code=max_per_code, profiles=_PROFILES.get("catalog")
            ).diagnostics
    from toskit.tosca import loads

    return loads(
        text, name=name, root=root, max_per_code=max_per_code, profiles=_PROFILES.get("catalog")
    ).diagnostics


# ``toskit check --profiles DIR``: the catalog of this run (set by _cmd_check;
# forked workers inherit it and each indexes it lazily, on its first profile import).
_PROFILES: dict[str, Any] = {}


def _lazy(dotted: str) -> Checker:
    """A checker imported on first use, so ``toskit check`` loads only what it needs."""
    module_name, attribute = dotted.split(":")

    def checker(text: str, name: str) -> list[Diagnostic]:
        import importlib

        return getattr(importlib.import_module(module_name), attribute)(text, name)

    checker.__name__ = checker.__qualname__ = attribute
    checker.__doc__ = f"The checker {dotted}."
    return checker


CHECKERS: dict[str, Checker] = {
    "tosca": check_tosca,
    "roles": _lazy("toskit.conditions:check_text"),
    "fuel-release": _lazy("toskit.conditions:check_text"),
    "schema": check_schema,
    "yaml": check_yaml,
}


def register_checker(kind: str, checker: Checker) -> None:
    """Use ``checker(text, name) -> list[Diagnostic]`` for documents of ``kind``."""
    if kind not in CHECKERS:
        raise ValueError(f"unknown document kind {kind!r} (known: {', '.join(CHECKERS)})")
    CHECKERS[kind] = checker


@record
class FileResult:
    """What ``toskit check`` found for one file (``error`` set when it could not be read).

    ``crashed``: the check itself failed (a bug in toskit or in a registered
    checker); ``error`` then says how. Reports show either as a finding of
    the file (:mod:`toskit.report`).
    """

    path: str
    kind: str = ""
    label: str = ""
    version: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None
    crashed: bool = False


def _check_document(
    text: str, name: str, root: str | None = None, max_per_code: int | None = MAX_PER_CODE
) -> FileResult:
    from toskit.source import load_yaml

    doc = load_yaml(text, name=name)
    if doc.value is None and doc.diagnostics:
        found = cap_per_code(sort_diagnostics(doc.diagnostics), max_per_code)
        return FileResult(name, "yaml", UNPARSED_LABEL, None, found)
    kind = detect_kind(doc.value)
    checker = CHECKERS[kind]
    # --root and --max-per-code reach the TOSCA checker; a registered checker
    # takes (text, name) only, and its list is capped here.
    label, version = kind_label(kind, doc.value), tosca_version(doc.value)  # before it is built on
    if checker is check_tosca:
        found = check_tosca(text, name, root, max_per_code, doc=doc)
    else:
        found = checker(text, name)
    diagnostics = cap_per_code(sort_diagnostics(found), max_per_code)
    return FileResult(name, kind, label, version, diagnostics)


def check_text(text: str, name: str) -> tuple[str, list[Diagnostic]]:
    """``(kind, diagnostics)`` for one document's text."""
    result = _check_document(text, name)
    return result.kind, result.diagnostics


def _oversize(name: str, max_size: int) -> FileResult:
    """The finding for a file or stream over ``max_size`` bytes: ``limit-exceeded``, nothing
    past the bound read (so no kind is detected either)."""
    found = Diagnostic(
        "error",
        "limit-exceeded",
        f"{name} is larger than {max_size} bytes: not read",
        file=name,
        hint="split the file, or load it with toskit.load(..., max_size=N) if it is trusted",
    )
    return FileResult(name, "yaml", OVERSIZE_LABEL, None, [found])


def _read_stdin() -> str:
    """Standard input as UTF-8 text, holding at most the loader's size bound plus one byte.

    A regular file redirected to standard input is measured first and not
    read at all when it is over the bound; ``SizeExceeded`` either way.
    """
    from toskit.source import LIMIT_DEFAULTS
    from toskit.source.document import SizeExceeded

    bound = LIMIT_DEFAULTS["max_size"]
    try:
        info = os.fstat(sys.stdin.fileno())
        left = info.st_size - os.lseek(sys.stdin.fileno(), 0, os.SEEK_CUR)
    except (OSError, ValueError, AttributeError):  # no descriptor (a test's StringIO), a pipe
        left = None
    else:
        left = left if stat.S_ISREG(info.st_mode) else None
    if left is not None and left > bound:
        raise SizeExceeded("<stdin>", bound)
    source = getattr(sys.stdin, "buffer", sys.stdin)
    # One growing buffer, not a list of chunks joined at the end: the peak is
    # the bytes read plus their text, not three copies.
    data = bytearray()
    while len(data) <= bound:
        chunk = source.read(min(1 << 20, bound + 1 - len(data)))
        if not chunk:
            break
        data += chunk.encode("utf-8", "surrogatepass") if isinstance(chunk, str) else chunk
    if len(data) > bound:
        raise SizeExceeded("<stdin>", bound)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToskitError(f"<stdin>: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def check_file(path: str) -> tuple[str, list[Diagnostic]]:
    """``(kind, diagnostics)`` for a file (``-``: standard input).

    Raises ``ToskitError`` when the file cannot be read.
    """
    from toskit.source import LIMIT_DEFAULTS, read_text_file
    from toskit.source.document import SizeExceeded

    try:
        text = _read_stdin() if path == "-" else read_text_file(path, LIMIT_DEFAULTS["max_size"])
    except SizeExceeded as exc:
        result = _oversize("<stdin>" if path == "-" else path, exc.max_size)
        return result.kind, result.diagnostics
    return check_text(text, "<stdin>" if path == "-" else path)


_Task = tuple[str, str | None, str | None, int | None]


def _check_task(task: _Task) -> FileResult:
    """One file for ``toskit check`` (``text`` given for standard input); runs in a worker.

    ``task``: ``(path, text or None, root or None, max_per_code)``.
    """
    path, text, root, max_per_code = task
    from toskit.runtime import deep_walk
    from toskit.source import LIMIT_DEFAULTS, read_text_file
    from toskit.source.document import SizeExceeded

    name = "<stdin>" if path == "-" else path
    if path == "-" and text is None:  # the parent could not read it (and says why)
        return FileResult(name, error="<stdin>: could not be read")
    try:
        # The cyclic GC paused, as the TOSCA loader does for itself: its passes
        # over a large document's many small objects made checking superlinear
        # (20,000 roles with a bad condition: 5.2 s, 1.5 s paused).
        with deep_walk(0, pause_gc=True):
            if text is None and _is_csar(path):
                result = _check_csar(path, max_per_code)
            else:
                if text is None:
                    # Measured before it is read (stat), and never read past
                    # the bound: kind detection sees no part of a file over it.
                    text = read_text_file(path, LIMIT_DEFAULTS["max_size"])
                result = _check_document(text, name, root, max_per_code)
    except SizeExceeded as exc:
        result = _oversize(name, exc.max_size)
    except ToskitError as exc:
        return FileResult(name, error=str(exc))
    except Exception as exc:  # one file's crash must not lose the report of the others (#34)
        return FileResult(
            name,
            error=f"{name}: toskit failed while checking it ({type(exc).__name__}: {exc})",
            crashed=True,
        )
    result.path = name
    return result


def _is_csar(path: str) -> bool:
    from toskit.source.csar import is_csar

    return path != "-" and is_csar(path)


def _check_csar(path: str, max_per_code: int | None = MAX_PER_CODE) -> FileResult:
    """A CSAR archive (issue 20): its entry document, loaded with its imports inside it."""
    from toskit.tosca import load

    found = sort_diagnostics(
        load(path, max_per_code=max_per_code, profiles=_PROFILES.get("catalog")).diagnostics
    )
    found = cap_per_code(found, max_per_code)
    return FileResult(path, "tosca", "TOSCA CSAR archive", None, found)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def diagnostic_record(diag: Diagnostic) -> dict[str, Any]:
    """A diagnostic as a JSON-ready dict (``toskit check --format json``).

    The fields of :meth:`Diagnostic.to_dict` (issue #28: ``end_line``,
    ``end_column``, ``subject``, ``related``, ``fixes`` beside the others);
    a summary (``diag.omitted`` > 0) has one more key, ``omitted``: how many
    diagnostics of its code and severity it stands for. Texts longer than
    :data:`toskit.diagnostics.MAX_TEXT` are abbreviated (#19: a message
    naming a 1 MB key), as ``str(diag)`` abbreviates them; a fix's
    replacement is never cut (a cut edit would be a wrong one): a fix whose
    replacement is too long is left out.
    """
    record: dict[str, Any] = diag.to_dict()
    for key in ("code", "message", "path", "file", "hint"):
        if record[key] is not None:
            record[key] = abbreviate(record[key])
    subject = record["subject"]
    if subject is not None:
        subject["name"] = None if subject["name"] is None else abbreviate(str(subject["name"]))
        subject["path"] = [abbreviate(p) if isinstance(p, str) else p for p in subject["path"]]
    for item in (*record["related"], *record["fixes"]):
        item["file"] = None if item["file"] is None else abbreviate(item["file"])
    for item in record["related"]:
        item["label"] = abbreviate(item["label"])
    for item in record["fixes"]:
        item["title"] = abbreviate(item["title"])
    record["fixes"] = [f for f in record["fixes"] if len(f["replacement"]) <= MAX_TEXT]
    return record


def terminal_diagnostic(diag: Diagnostic) -> Diagnostic:
    """A copy of ``diag`` whose text fields are safe to print (see :mod:`toskit.terminal`)."""
    source = diag.source_line
    return replace(
        diag,
        code=terminal_safe(diag.code),
        message=terminal_safe(diag.message),
        path=terminal_safe(diag.path),
        file=None if diag.file is None else terminal_safe(diag.file),
        hint=None if diag.hint is None else terminal_safe(diag.hint),
        source_line=None if source is None else terminal_safe(source.rstrip("\r\n")),
    )


def expand_paths(paths: Sequence[str]) -> list[str]:
    """Files to check: a directory stands for its ``*.yaml``/``*.yml`` files, recursively."""
    files: list[str] = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            found = sorted(
                os.path.join(root, name)
                for root, _dirs, names in os.walk(path)
                for name in names
                if name.endswith((".yaml", ".yml"))
            )
            files.extend(found or [path])  # an empty directory is reported as unreadable
        else:
            files.append(path)
    return files


def default_jobs() -> int:
    """The number of CPUs this process may run on (``toskit check -j`` default and cap)."""
    from toskit.batch import cpu_count

    return cpu_count()


# One small document of each kind: checking them in the parent before the
# workers fork imports every checker and loads the normative profiles once.
_WARM_DOCUMENTS = (
    "tosca_definitions_version: tosca_simple_yaml_1_3\n",
    "tosca_definitions_version: tosca_2_0\n",
    "roles_metadata: {}\n",
    "types: []\n",
)


def _warm(tasks: Sequence[_Task] = ()) -> None:
    """What every worker needs, loaded once in the parent (``toskit.batch``).

    Only toskit's own checkers run here, never a registered one: a checker
    that misbehaves must do so in a worker, where it costs one file. When
    the first files of ``tasks`` are all TOSCA, only the TOSCA checker is
    warmed (the roles and schema checkers cost the parent ~25 ms, #31); a
    worker that meets another kind later loads its checker itself.
    """
    builtin = {"tosca": check_tosca, "schema": check_schema, "yaml": check_yaml}
    tosca_only = _all_tosca(tasks[:_WARM_SAMPLE])
    for text in _WARM_DOCUMENTS[:2] if tosca_only else _WARM_DOCUMENTS:
        try:
            from toskit.source import load_yaml

            kind = detect_kind(load_yaml(text, name="<warm-up>").value)
            if kind in builtin:
                builtin[kind](text, "<warm-up>")
            else:  # the roles and Fuel checker: its module, imported
                import toskit.conditions  # noqa: F401
        except Exception:  # noqa: BLE001, S112 - warming is an optimisation; the workers report
            continue


_WARM_SAMPLE = 8  # files whose first bytes choose what the parent warms
_SNIFF_BYTES = 4096


def _all_tosca(sample: Sequence[_Task]) -> bool:
    """Whether every file of ``sample`` (and at least one) names a TOSCA version
    in its first bytes; only regular files are read (never a pipe or device)."""
    for path, text, _root, _max in sample:
        if text is not None:
            head = text[:_SNIFF_BYTES]
        else:
            try:
                if path == "-" or not stat.S_ISREG(os.stat(path).st_mode):
                    return False
                with open(path, "rb") as f:
                    head = f.read(_SNIFF_BYTES).decode("utf-8", "replace")
            except (OSError, ValueError):
                return False
        if "tosca_definitions_version" not in head:
            return False
    return bool(sample)


def _crashed(task: _Task, why: str) -> FileResult:
    """The result of a file whose worker process died while checking it."""
    name = "<stdin>" if task[0] == "-" else task[0]
    return FileResult(name, error=f"{name}: toskit failed while checking it ({why})", crashed=True)


def _results(tasks: list[_Task], jobs: int) -> Iterator[FileResult]:
    """Check every task, in order; in up to ``jobs`` forked processes (``toskit.batch``).

    ``jobs`` is capped at the CPU count; a file whose worker dies is reported
    (exit status 2) and the others are checked as usual.
    """
    from toskit.batch import run

    # Fork: workers inherit the imported modules and any registered checker.
    yield from run(tasks, jobs, _check_task, _crashed, warm=lambda: _warm(tasks))


#: Formats that toskit.report renders from the per-file results (#34).
REPORT_FORMATS = ("sarif", "github", "junit")


def check_format(requested: str | None) -> str:
    """The format of ``toskit check``: the one asked for; else ``github`` under
    GitHub Actions (``GITHUB_ACTIONS=true``), else ``text``."""
    if requested:
        return requested
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def _fix_check(root: str | None) -> Callable[[str, str], list[Diagnostic]]:
    """The checker ``--fix`` uses: the command's own, uncapped (every finding's fix)."""

    def check(text: str, name: str) -> list[Diagnostic]:
        return _check_document(text, name, root, None).diagnostics

    return check


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    files = expand_paths(args.files)
    fmt = check_format(args.format)
    status = _check_options(args, err)
    if status:
        return status
    if args.fix:  # fix first (toskit/fix.py), then report on the fixed files as usual
        status = _check_fix(args, files, out, err)
        if args.dry_run:
            return status
    stdin_text, stdin_instead = _check_stdin(files)
    max_per_code = args.max_per_code or None  # 0: every diagnostic
    tasks: list[_Task] = [
        (path, stdin_text if path == "-" else None, args.root, max_per_code) for path in files
    ]
    totals = _CheckTotals()
    for result in _results(tasks, args.jobs):
        if result.path == "<stdin>" and stdin_instead is not None:
            result = stdin_instead
        totals.add(result, fmt, args.quiet, out, err)
    if totals.unreadable:
        status = 2
    elif totals.errors and status == 0:
        status = 1
    totals.write(fmt, args.quiet, out, err)
    return status


def _check_options(args: argparse.Namespace, err: TextIO) -> int:
    """0, or 2 (told on ``err``) when ``--profiles`` or ``--dry-run`` cannot be
    used; loads the ``--profiles`` catalog for this run."""
    _PROFILES.clear()
    if args.profiles:
        from toskit.tosca.load.catalog import ProfileCatalog

        try:
            _PROFILES["catalog"] = ProfileCatalog(args.profiles)
        except ToskitError as exc:
            print(f"toskit check: {terminal_safe(str(exc))}", file=err)
            return 2
    if args.dry_run and not args.fix:
        print("toskit check: --dry-run goes with --fix", file=err)
        return 2
    return 0


def _check_fix(args: argparse.Namespace, files: list[str], out: TextIO, err: TextIO) -> int:
    """``toskit check --fix``: the exit status of fixing ``files`` in place."""
    from toskit.fix import fix_files

    def skip(path: str) -> str | None:
        return "a CSAR archive is not fixed in place" if _is_csar(path) else None

    return fix_files(
        files,
        _fix_check(args.root),
        args.root,
        dry_run=args.dry_run,
        out=out,
        err=err,
        skip=skip,
    )


def _check_stdin(files: list[str]) -> tuple[str | None, FileResult | None]:
    """The text of stdin when ``-`` is among ``files``; or, when it cannot be
    read (too large, not UTF-8), the result that stands for it."""
    if "-" not in files:
        return None, None
    from toskit.source.document import SizeExceeded

    try:
        return _read_stdin(), None
    except SizeExceeded as exc:
        return None, _oversize("<stdin>", exc.max_size)
    except ToskitError as exc:
        return None, FileResult("<stdin>", error=str(exc))


@record
class _CheckTotals:
    """What ``toskit check`` found, added up file by file as results come."""

    checked: int = 0
    errors: int = 0
    warnings: int = 0
    unreadable: int = 0
    report: list[dict[str, Any]] = field(default_factory=list)  # --format json
    collected: list[FileResult] = field(default_factory=list)  # for the REPORT_FORMATS

    def add(self, result: FileResult, fmt: str, quiet: bool, out: TextIO, err: TextIO) -> None:
        """Count one file's result; in the text format, print it at once."""
        if fmt in REPORT_FORMATS:
            self.collected.append(result)
        if result.error is not None:
            print(f"toskit check: {terminal_safe(result.error)}", file=err)
            self.unreadable += 1
            self.report.append({"file": result.path, "error": result.error})
            return
        self.checked += 1
        # A summary counts as the diagnostics it stands for (#19): the counts
        # and the exit status are what was found, not what is listed.
        counts = count_by_severity(result.diagnostics)
        n_errors, n_warnings = counts["error"], counts["warning"]
        self.errors += n_errors
        self.warnings += n_warnings
        if fmt in REPORT_FORMATS:
            return
        if fmt == "json":
            self.report.append(
                {
                    "file": result.path,
                    "kind": result.kind,
                    "label": result.label,
                    "tosca_version": result.version,
                    "counts": counts,
                    "omitted": omitted_per_code(result.diagnostics),
                    "diagnostics": [diagnostic_record(d) for d in result.diagnostics],
                }
            )
            return
        if not quiet:
            print(
                f"checked {terminal_safe(result.path)} as {result.label}: "
                f"{_plural(n_errors, 'error')}, {_plural(n_warnings, 'warning')}",
                file=out,
            )
        # Already capped: 100 of each code in each file, then a summary (#19: 20,000 mistakes).
        for diag in result.diagnostics:
            print(terminal_diagnostic(diag), file=out)

    def write(self, fmt: str, quiet: bool, out: TextIO, err: TextIO) -> None:
        """The report of a REPORT_FORMATS or json run, and the summary line."""
        if fmt in REPORT_FORMATS:
            import importlib

            out.write(importlib.import_module(f"toskit.report.{fmt}").render(self.collected))
        if fmt == "json":
            import json  # imported on use, not at the top: `toskit check` of a clean file needs no json (#31)

            # json escapes C0 controls, and (ensure_ascii) every non-ASCII character, as \uXXXX.
            json.dump(self.report, out, indent=2)
            out.write("\n")
        if not quiet:
            summary = (
                f"{_plural(self.checked, 'file')} checked: {_plural(self.errors, 'error')}, "
                f"{_plural(self.warnings, 'warning')}"
            )
            if self.unreadable:
                summary += f"; {_plural(self.unreadable, 'file')} could not be read"
            print(summary, file=err)


def _per_code(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (every diagnostic) or more")
    return value


# ---- show ----------------------------------------------------------------


class _Refused(Exception):
    """``toskit show`` declines a document; the message is the one-line reason."""


def _standalone_page(title: str, body_html: str) -> str:
    """A page around fragments of ``toskit.display`` (same frame as a template report)."""
    from toskit import __version__
    from toskit.display.html import css, esc
    from toskit.output_file import GENERATOR

    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="color-scheme" content="light dark">{GENERATOR}'
        f"<title>{esc(title)} · toskit report</title>"
        f"<style>{css()}</style></head>"
        '<body class="toskit-page"><main class="toskit-page-main">'
        f'<div class="toskit-wrap toskit-report">{body_html}'
        f'<div class="toskit-page-footer">made with toskit {esc(__version__)}</div></div>'
        "</main></body></html>\n"
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def render_document(path: str, root: str | None = None) -> str:
    """The standalone HTML page for the document at ``path``, whatever its kind.

    Raises ``ToskitError`` when the file cannot be read, and ``_Refused``
    (one line) for a document that has no view. A file that does not parse
    gets the page of ``toskit.load(path)``: its parse errors with their
    source window (:func:`render_document_status` says so with status 1).
    """
    return render_document_status(path, root)[0]


def render_document_status(path: str, root: str | None = None) -> tuple[str, int]:
    """:func:`render_document` and the exit status of ``toskit show`` for it.

    The status is 1 for a file that does not parse (its page lists the
    parse errors, as the notebook view of ``toskit.load`` does: a CI job
    that publishes pages gets one for the broken file too), else 0.
    """
    from toskit.display import render_page, to_html
    from toskit.source import LIMIT_DEFAULTS, load_yaml, read_text_file

    text = read_text_file(path, LIMIT_DEFAULTS["max_size"])  # SizeExceeded: measured, not read
    doc = load_yaml(text, name=path)
    if doc.value is None:
        if not any(d.severity == "error" for d in doc.diagnostics):
            raise _Refused(f"{path}: nothing to show, it is empty")
        from toskit.tosca import load as load_template

        # The kind cannot be told without a value: the template view is the
        # one toskit.load gives, and it lists any document's parse errors.
        return render_page(load_template(path, root=root)), 1
    kind = detect_kind(doc.value)
    title = os.path.basename(path)
    if kind == "tosca":
        from toskit.tosca import load

        return render_page(load(path, root=root)), 0
    if kind == "roles":
        from toskit import conditions

        try:
            return _standalone_page(title, to_html(conditions.load_roles(path))), 0
        except ToskitError as exc:
            raise _Refused(f"{path}: cannot show this roles document: {_first_line(exc)}") from None
    if kind == "fuel-release":
        return _standalone_page(title, _releases_html(path, doc.value)), 0
    if kind == "schema":
        from toskit import schema

        try:
            return _standalone_page(title, to_html(schema.load(text, name=path))), 0
        except ToskitError as exc:
            raise _Refused(f"{path}: cannot show this schema: {_first_line(exc)}") from None
    raise _Refused(
        f"{path}: plain YAML (no TOSCA, roles, Fuel release or schema keys), nothing to show"
    )


#: Releases of a Fuel release file that ``toskit show`` draws (a real file has a few).
SHOW_MAX_RELEASES = 50


def _releases_html(path: str, value: Any) -> str:
    """The views of a Fuel release file's releases, within the page bound.

    Each release is built from the document already loaded (``value``):
    reading the file again for each of 2,000 releases took minutes (#19).
    At most :data:`SHOW_MAX_RELEASES` views, while the page stays within
    :data:`toskit.display.report.PAGE_MAX_CHARS`, then "… N more releases".
    """
    from toskit import conditions
    from toskit.display import to_html
    from toskit.display.html import more_note
    from toskit.display.report import PAGE_MAX_CHARS

    try:
        names = [name for name, *_ in conditions.list_releases(path)]  # YAML errors refuse here
        parts: list[str] = []
        size = 0
        for name in names[:SHOW_MAX_RELEASES]:
            view = to_html(conditions.load_release(value, name))
            if size + len(view) > PAGE_MAX_CHARS:
                break
            parts.append(view)
            size += len(view)
    except ToskitError as exc:
        raise _Refused(f"{path}: cannot show this Fuel release file: {_first_line(exc)}") from None
    hidden = len(names) - len(parts)
    return "".join(parts) + more_note(hidden, "more releases not shown (the page is bounded)")


def _default_output(path: str) -> str:
    return os.path.splitext(path)[0] + ".html"


def _cmd_show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from toskit.output_file import refusal, write_atomically

    def fail(message: str) -> int:
        print(f"toskit show: {terminal_safe(message)}", file=err)
        return 2

    if args.file == "-":
        return fail("show needs a file, not standard input")
    output = _default_output(args.file) if args.output is None else args.output
    reason = refusal(output, [args.file], force=args.force)
    if reason:
        return fail(reason)
    try:
        from toskit.display.links import links_from

        # file:line links relative to the page's folder (docs/display.md)
        with links_from(os.path.dirname(os.path.abspath(output))):
            page, status = render_document_status(args.file, args.root)
    except (ToskitError, _Refused) as exc:
        return fail(_first_line(exc))
    reason = refusal(output, [args.file], force=args.force)  # the world may have moved meanwhile
    if reason:
        return fail(reason)
    try:
        write_atomically(output, page)
    except OSError as exc:
        return fail(f"cannot write {output}: {exc.strerror or exc}")
    print(f"wrote {terminal_safe(output)}", file=err)
    if status:
        print(
            f"toskit show: {terminal_safe(args.file)} does not parse: the page lists its errors",
            file=err,
        )
    return status


# ---- the parser ------------------------------------------------------------


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


_ROOT_HELP = (
    "the folder a template's local imports must stay inside "
    "(default: the enclosing project, the nearest folder holding .git or "
    "TOSCA-Metadata/TOSCA.meta, else the template's own folder; docs/limits.md)"
)


_CHECK_HELP = "print the diagnostics of each file"


def _stub(commands: Any, name: str, help_text: str) -> bool:
    """Add only ``name`` and its help line when the parser is built for another
    subcommand (``toskit check`` builds no options of ``show``, ``lsp``,
    ``explain``…: ~0.5 ms of its start-up, #31); False when it is to be built."""
    if _building_for in (None, name):
        return False
    commands.add_parser(name, help=help_text)
    return True


def _add_check(commands: Any) -> None:
    if _stub(commands, "check", _CHECK_HELP):
        return
    check = commands.add_parser(
        "check",
        help=_CHECK_HELP,
        description="Print the kind of each file and every diagnostic. Exit status: 0 no "
        "error, 1 errors found, 2 could not run (a file that cannot be read counts).",
    )
    check.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="YAML files, directories (their *.yaml/*.yml files), '-' for stdin",
    )
    check.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="only the diagnostics: no per-file line, no summary",
    )
    check.add_argument(
        "--format",
        choices=("text", "json", *REPORT_FORMATS),
        default=None,
        help="text (per file, its kind then its diagnostics), json (a list per file), sarif "
        "(SARIF 2.1.0), github (workflow commands: annotations) or junit (JUnit XML); "
        "default: github when GITHUB_ACTIONS=true, else text",
    )
    check.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=default_jobs(),
        metavar="N",
        help="check files in N processes (default: the number of CPUs, here %(default)s); "
        "output stays in input order",
    )
    check.add_argument("--root", metavar="DIR", help=_ROOT_HELP)
    check.add_argument(
        "--profiles",
        metavar="DIR",
        action="append",
        default=[],
        help="a folder (or CSAR) of TOSCA profiles: '- profile: name:version' imports are "
        "looked up in the files under it that declare 'profile:' (repeatable; docs/profiles.md)",
    )
    check.add_argument(
        "--max-per-code",
        type=_per_code,
        default=MAX_PER_CODE,
        metavar="N",
        help="diagnostics of one code listed per file before one 'N more not shown' summary "
        "(default %(default)s; 0: all); counts always include every one",
    )
    check.add_argument(
        "--fix",
        action="store_true",
        help="first apply the unambiguous fixes of the findings in place (nothing else changes), "
        "then report what is left; never through a link or outside --root (default: the current "
        "directory)",
    )
    check.add_argument(
        "--dry-run",
        action="store_true",
        help="with --fix: write nothing, print a unified diff of what --fix would change "
        "(exit 1 when it would change something)",
    )
    check.set_defaults(run=_cmd_check)


_SHOW_HELP = "write the HTML view of a template, roles document, Fuel release or schema"


def _add_show(commands: Any) -> None:
    if _stub(commands, "show", _SHOW_HELP):
        return
    show = commands.add_parser(
        "show",
        help=_SHOW_HELP,
        description="Write the HTML view of FILE as a standalone page. Never writes onto an "
        "input, through a symbolic link, or over a file toskit did not write (unless --force). "
        "Exit status: 0 page written, 1 page written for a file that does not parse (its "
        "errors), 2 no page.",
    )
    show.add_argument("file", metavar="FILE")
    show.add_argument("-o", "--output", metavar="OUT.html", help="default: FILE with .html")
    show.add_argument(
        "--force",
        action="store_true",
        help="replace an existing OUT.html that toskit did not write",
    )
    show.add_argument("--root", metavar="DIR", help=_ROOT_HELP)
    show.set_defaults(run=_cmd_show)


# The subcommand the parser is built for (set by _parser; None: any, e.g. --help).
_building_for: str | None = None
# What `toskit --help` says of `diff` when its own parser is not built.
_DIFF_HELP = "what changed between two versions of a template, value by value"


def _add_diff(commands: Any) -> None:
    # `diff` lives with toskit.compare, whose import (the comparison and the
    # TOSCA checks, ~40 ms) no other subcommand needs: unless `diff` is the
    # subcommand run (or none is named yet), only its name and help are added.
    if _building_for not in (None, "diff"):
        commands.add_parser("diff", help=_DIFF_HELP)
        return
    from toskit.compare.cli import add_diff_parser

    add_diff_parser(commands)


def _add_upgrade(commands: Any) -> None:
    # Like diff: toskit.compare is imported only when upgrade-check runs.
    if _building_for not in (None, "upgrade-check"):
        commands.add_parser("upgrade-check", help=_UPGRADE_HELP)
        return
    from toskit.compare.upgrade import add_upgrade_parser

    add_upgrade_parser(commands)


# What `toskit --help` says of `upgrade-check` (toskit.compare.upgrade.UPGRADE_HELP).
_UPGRADE_HELP = "what a new version of a type library does to templates (errors, orphans, defaults)"


def _cmd_lsp(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # pygls is imported here, on use: `toskit check` never loads it.
    from toskit.lsp import main as lsp_main

    try:
        return lsp_main()
    except ToskitError as exc:  # pygls missing: say which extra installs it
        err.write(f"toskit lsp: {exc}\n")
        return 2


_LSP_HELP = "run the TOSCA language server on stdin/stdout (needs the 'lsp' extra)"


def _add_lsp(commands: Any) -> None:
    if _stub(commands, "lsp", _LSP_HELP):
        return
    lsp = commands.add_parser(
        "lsp",
        help=_LSP_HELP,
        description="A Language Server Protocol server over stdio: diagnostics as you type, "
        "hover, go to definition, completion, quick fixes, outline, references (docs/lsp.md).",
    )
    lsp.set_defaults(run=_cmd_lsp)


def _cmd_explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    # `toskit explain` and `toskit blame` (args.command says which). The explain package
    # is imported here, on use: `toskit check` never loads it.
    from toskit.tosca.explain.command import run

    return run(args, out, err)


_EXPLAIN_HELP = "why a value is what it is: its layers, function hops, checks and findings"
_BLAME_HELP = (
    "each node's effective properties as YAML, every leaf commented with its layer and file:line"
)


def _add_explain(commands: Any) -> None:
    # Two subcommands: each is built in full when either is run.
    if _building_for not in (None, "explain", "blame"):
        _stub(commands, "explain", _EXPLAIN_HELP)
        _stub(commands, "blame", _BLAME_HELP)
        return
    explain = commands.add_parser(
        "explain",
        help=_EXPLAIN_HELP,
        description="Explain one effective value of a TOSCA template: every layer that wrote it "
        "(lowest first, with file:line), the calls it went through, the constraints checked "
        "and the findings on it (docs/explain.md). Exit 0, or 2 when the file cannot be read "
        "or the path names no value.",
    )
    explain.add_argument("file", metavar="FILE")
    explain.add_argument(
        "path", metavar="PATH", help="e.g. node_templates.db.properties.connection.endpoint.port"
    )
    explain.add_argument("--format", choices=["text", "json"], default="text")
    explain.set_defaults(run=_cmd_explain)
    blame = commands.add_parser(
        "blame",
        help=_BLAME_HELP,
        description="Print every node template's effective properties as YAML; each leaf ends "
        "with a comment naming the layer that set it and its file:line, and '# was …' for the "
        "values it replaced; a long value is abbreviated (docs/explain.md). Exit 0, or 2 when "
        "the file cannot be read or --node names no node template.",
    )
    blame.add_argument("file", metavar="FILE")
    blame.add_argument("--node", metavar="NAME", help="only this node template")
    blame.add_argument(
        "--full", action="store_true", help="print long values whole (not abbreviated)"
    )
    blame.set_defaults(run=_cmd_explain)


# Each adds one subcommand: its subparser, with `set_defaults(run=...)`.
SUBCOMMANDS: list[Callable[[Any], Any]] = [
    _add_check,
    _add_show,
    _add_diff,
    _add_upgrade,
    _add_lsp,
    _add_explain,  # and blame
]


def _command_of(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names (its first word that is not an option), if any."""
    for word in argv:
        if word == "--":
            return None
        if not word.startswith("-"):
            return word
    return None


def _terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` (``COLUMNS``, then stdout's
    terminal, else 80), without importing :mod:`shutil`."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            fileno = sys.__stdout__.fileno()  # type: ignore[union-attr]
            columns = os.get_terminal_size(fileno).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, its width found as argparse finds it but
    without :mod:`shutil` (argparse builds a formatter for every
    ``add_argument``, and shutil brings bz2 and lzma: ~2 ms of every
    ``toskit check``, #31)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    """``ArgumentParser`` with :class:`_Formatter` (its subcommands' parsers
    are of its class, so they use it too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


def _parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser; given ``argv``, only the subcommand it names is
    built in full (the others are a name and a help line), so that
    ``toskit check`` imports nothing of ``diff``."""
    global _building_for
    from toskit import __version__

    _building_for = None if argv is None else _command_of(argv)
    parser = _Parser(
        prog="toskit",
        description="Explore and validate TOSCA templates, structural schemas and role conditions.",
    )
    parser.add_argument("--version", action="version", version=f"toskit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    try:
        for add in SUBCOMMANDS:
            add(commands)
    finally:
        _building_for = None
    return parser


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the exit-time flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (never calls ``sys.exit``)."""
    if argv is None:
        argv = sys.argv[1:]
    parser = _parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (status 2)
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_usage(sys.stderr)
        return 2
    from toskit.terminal import TerminalStream

    try:
        out, err = (cast(TextIO, TerminalStream(stream)) for stream in (sys.stdout, sys.stderr))
        status: int = args.run(args, out, err)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE_STATUS
    return status
