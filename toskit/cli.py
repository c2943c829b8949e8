"""The ``toskit`` command line.

``toskit check FILE…``
    Loads each file, works out what kind of document it is, runs that
    kind's checker and prints every diagnostic (``str(d)``: location,
    severity, code, message, hint, the source line with a caret; or, with
    ``--format json``, a JSON list of ``{file, kind, diagnostics}``). A
    directory stands for its ``*.yaml``/``*.yml`` files, recursively. Exit
    status: 0 when no file has an error, 1 when one has, 2 when the command
    could not run (a missing file, a file that is not UTF-8 text, bad
    arguments). ``-`` reads standard input.
``toskit show FILE -o report.html``
    Writes the HTML view of a TOSCA template as a standalone page.

Kinds of document (see :func:`detect_kind`) and their checkers live in
:data:`CHECKERS`, a table of ``check(text, name) -> list[Diagnostic]``
functions. Every kind starts with the YAML-level checks (syntax, duplicate
keys, bounds); each system adds its own checks (``toskit.tosca``,
``toskit.conditions`` for roles documents and Fuel releases,
``toskit.schema``), imported only when a document of that kind is checked.
:func:`register_checker` replaces a kind's checker.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from toskit.diagnostics import Diagnostic, sort_diagnostics
from toskit.errors import ToskitError

__all__ = [
    "CHECKERS",
    "Checker",
    "check_file",
    "check_text",
    "detect_kind",
    "diagnostic_record",
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
    "tosca": _lazy("toskit.tosca:check_text"),
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


def check_text(text: str, name: str) -> tuple[str, list[Diagnostic]]:
    """``(kind, diagnostics)`` for one document's text."""
    from toskit.source import load_yaml

    doc = load_yaml(text, name=name)
    if doc.value is None and doc.diagnostics:
        return "yaml", sort_diagnostics(doc.diagnostics)
    kind = detect_kind(doc.value)
    return kind, sort_diagnostics(CHECKERS[kind](text, name))


def check_file(path: str) -> tuple[str, list[Diagnostic]]:
    """``(kind, diagnostics)`` for a file (``-``: standard input).

    Raises ``ToskitError`` when the file cannot be read.
    """
    from toskit.source import read_text_file

    if path == "-":
        return check_text(sys.stdin.read(), "<stdin>")
    return check_text(read_text_file(path), path)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def diagnostic_record(diag: Diagnostic) -> dict[str, Any]:
    """A diagnostic as a JSON-ready dict (``toskit check --format json``)."""
    return {
        "severity": diag.severity,
        "code": diag.code,
        "message": diag.message,
        "path": diag.path,
        "file": diag.file,
        "line": diag.line,
        "column": diag.column,
        "hint": diag.hint,
    }


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


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    status = 0
    errors = warnings = 0
    report: list[dict[str, Any]] = []
    files = expand_paths(args.files)
    for path in files:
        try:
            kind, diagnostics = check_file(path)
        except ToskitError as exc:
            print(f"toskit check: {exc}", file=err)
            status = 2
            report.append({"file": path, "error": str(exc)})
            continue
        if args.format == "json":
            report.append(
                {
                    "file": path,
                    "kind": kind,
                    "diagnostics": [diagnostic_record(d) for d in diagnostics],
                }
            )
        else:
            for diag in diagnostics:
                print(diag, file=out)
        errors += sum(d.severity == "error" for d in diagnostics)
        warnings += sum(d.severity == "warning" for d in diagnostics)
    if errors and status == 0:
        status = 1
    if args.format == "json":
        json.dump(report, out, indent=2)
        out.write("\n")
    if not args.quiet:
        print(
            f"{_plural(len(files), 'file')} checked: "
            f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}",
            file=err,
        )
    return status


def _cmd_show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    try:
        from toskit.display.report import render_page
        from toskit.tosca import load
    except ImportError as exc:
        print(f"toskit show: not available yet ({exc})", file=err)
        return 2
    output = args.output or _default_output(args.file)
    try:
        template = load(args.file)
        page = render_page(template)
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(page)
    except ToskitError as exc:
        print(f"toskit show: {exc}", file=err)
        return 2
    except OSError as exc:
        print(f"toskit show: cannot write {output}: {exc.strerror}", file=err)
        return 2
    print(f"wrote {output}", file=err)
    return 0


def _default_output(path: str) -> str:
    return os.path.splitext(path)[0] + ".html"


def _parser() -> argparse.ArgumentParser:
    from toskit import __version__

    parser = argparse.ArgumentParser(
        prog="toskit",
        description="Explore and validate TOSCA templates, structural schemas and role conditions.",
    )
    parser.add_argument("--version", action="version", version=f"toskit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="print the diagnostics of each file",
        description="Print every diagnostic of each file. Exit status: 0 no error, "
        "1 errors found, 2 could not run.",
    )
    check.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="YAML files, directories (their *.yaml/*.yml files), '-' for stdin",
    )
    check.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    check.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default: one diagnostic after another) or json (a list per file)",
    )
    check.set_defaults(run=_cmd_check)
    show = commands.add_parser(
        "show",
        help="write the HTML view of a template",
        description="Write the HTML view of a TOSCA template as a standalone page.",
    )
    show.add_argument("file", metavar="FILE")
    show.add_argument("-o", "--output", metavar="OUT.html", help="default: FILE with .html")
    show.set_defaults(run=_cmd_show)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (never calls ``sys.exit``)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (status 2)
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_usage(sys.stderr)
        return 2
    return args.run(args, sys.stdout, sys.stderr)
