"""``toskit diff OLD NEW``: the command line form of :func:`toskit.compare`.

Each side is a template file, or ``git:REV:PATH`` for the file at revision
``REV`` of the git repository of the current directory (read with ``git
show REV:./PATH``, a local command: no network). Output: ``--format text``
(default), ``json`` or ``html`` (a standalone page), to stdout or ``-o
FILE``. Exit status: 0; 1 when ``--fail-on`` says so (``new-errors``: the new
version introduces an error diagnostic; ``changes``: anything differs); 2
when the comparison could not run (a missing file, a bad revision).

This module only registers the subcommand and runs it; ``toskit.cli`` owns
the other commands and calls :func:`add_diff_parser`.
"""

from __future__ import annotations

import argparse
import subprocess
from typing import Any, TextIO

from toskit.errors import ToskitError

__all__ = ["GIT_PREFIX", "add_diff_parser", "read_side", "run_diff"]

GIT_PREFIX = "git:"
_GIT_TIMEOUT = 30  # seconds; `git show` of one blob is local and fast


def add_diff_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``diff`` subcommand to ``commands`` (an argparse subparsers action)."""
    diff = commands.add_parser(
        "diff",
        help="what changed between two versions of a template, value by value",
        description="Compare two versions of a TOSCA template: types, templates, every "
        "effective property value (with the layer that set it), requirement targets, "
        "diagnostics introduced and fixed. A side may be git:REV:PATH. Exit status: 0; "
        "1 when --fail-on applies; 2 could not run.",
    )
    diff.add_argument("old", metavar="OLD", help="template file or git:REV:PATH")
    diff.add_argument("new", metavar="NEW", help="template file or git:REV:PATH")
    diff.add_argument(
        "--format", choices=("text", "json", "html"), default="text", help="output format (default text)"
    )
    diff.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    diff.add_argument(
        "--fail-on",
        choices=("new-errors", "changes"),
        action="append",
        default=[],
        help="exit 1 when the new version introduces errors (new-errors) or anything differs (changes)",
    )
    diff.set_defaults(run=run_diff)
    return diff


def _git_show(spec: str) -> tuple[str, str]:
    """``(text, name)`` of ``git:REV:PATH``."""
    body = spec[len(GIT_PREFIX) :]
    rev, sep, path = body.partition(":")
    if not sep or not rev or not path:
        raise ToskitError(f"{spec!r}: expected git:REV:PATH, e.g. git:main:service.yaml")
    if rev.startswith("-"):
        raise ToskitError(f"{spec!r}: a revision cannot start with '-'")
    # "./" makes PATH relative to the current directory, as on the command line.
    target = f"{rev}:{path if path.startswith('/') else './' + path}"
    try:
        done = subprocess.run(
            ["git", "show", target],
            capture_output=True,
            timeout=_GIT_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise ToskitError(f"{spec}: git is not installed") from None
    except subprocess.TimeoutExpired:
        raise ToskitError(f"{spec}: git show took longer than {_GIT_TIMEOUT} s") from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ToskitError(f"{spec}: {reason[0] if reason else 'git show failed'}")
    try:
        text = done.stdout.decode("utf-8")
    except UnicodeDecodeError:
        raise ToskitError(f"{spec}: not UTF-8 text") from None
    return text, spec


def read_side(spec: str) -> Any:
    """The ``ServiceTemplate`` of one side: a file path or ``git:REV:PATH``."""
    from toskit.tosca import load, loads

    if spec.startswith(GIT_PREFIX):
        text, name = _git_show(spec)
        return loads(text, name=name)
    return load(spec)


def render(diff: Any, fmt: str) -> str:
    """``diff`` as text, JSON or a standalone HTML page."""
    if fmt == "json":
        return diff.to_json() + "\n"
    if fmt == "html":
        from toskit.display.compare_view import diff_page

        return diff_page(diff)
    return str(diff) + "\n"


def run_diff(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``toskit diff`` with parsed ``args``; returns the exit status."""
    from toskit.compare.compute import compare

    try:
        old = read_side(args.old)
        new = read_side(args.new)
        diff = compare(old, new)
        text = render(diff, args.format)
    except ToskitError as exc:
        print(f"toskit diff: {exc}", file=err)
        return 2
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as exc:
            print(f"toskit diff: cannot write {args.output}: {exc.strerror}", file=err)
            return 2
        print(f"wrote {args.output}", file=err)
    else:
        out.write(text)
    status = 0
    if "new-errors" in args.fail_on and diff.new_errors:
        n = len(diff.new_errors)
        print(f"toskit diff: the new version introduces {n} error{'s' if n != 1 else ''}", file=err)
        status = 1
    if "changes" in args.fail_on and not diff.is_same:
        status = 1
    return status
