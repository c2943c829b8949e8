"""``toskit diff OLD NEW``: the command line form of :func:`toskit.compare`.

Each side is a template file, or ``git:REV:PATH`` for the file at revision
``REV`` of the git repository of the current directory (the file's folder
at that revision, read with ``git archive``, a local command: no network;
relative imports are read at the same revision). Output: ``--format text``
(default), ``json`` or ``html`` (a standalone page), to stdout or ``-o
FILE``. Exit status: 0; 1 when ``--fail-on`` says so (``new-errors``: the new
version introduces an error diagnostic; ``changes``: anything differs); 2
when the comparison could not run (a missing file, a bad revision).

This module only registers the subcommand and runs it; ``toskit.cli`` owns
the other commands and calls :func:`add_diff_parser`.
"""

from __future__ import annotations

import argparse
import io
import posixpath
import subprocess
import tarfile
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from toskit.errors import ToskitError

__all__ = ["GIT_PREFIX", "add_diff_parser", "parse_git_spec", "read_side", "render", "run_diff"]

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


def _git(args: list[str], spec: str) -> bytes:
    """Run a local git command; its stdout, or a ToskitError naming ``spec``."""
    try:
        done = subprocess.run(["git", *args], capture_output=True, timeout=_GIT_TIMEOUT, check=False)
    except FileNotFoundError:
        raise ToskitError(f"{spec}: git is not installed") from None
    except subprocess.TimeoutExpired:
        raise ToskitError(f"{spec}: git took longer than {_GIT_TIMEOUT} s") from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ToskitError(f"{spec}: {reason[0] if reason else 'git ' + args[0] + ' failed'}")
    return done.stdout


def parse_git_spec(spec: str) -> tuple[str, str]:
    """``(REV, PATH)`` of ``git:REV:PATH`` (ToskitError when malformed)."""
    rev, sep, path = spec[len(GIT_PREFIX) :].partition(":")
    if not sep or not rev or not path:
        raise ToskitError(f"{spec!r}: expected git:REV:PATH, e.g. git:main:service.yaml")
    if rev.startswith("-"):
        raise ToskitError(f"{spec!r}: a revision cannot start with '-'")
    return rev, path


def _load_from_git(spec: str) -> Any:
    """Load ``git:REV:PATH``: the folder of PATH at REV is extracted into a
    temporary folder (``git archive``, local) so that the template's relative
    imports are read at the same revision; names are then written back as
    ``git:REV:…`` so no temporary path reaches the report."""
    from toskit.tosca import load

    rev, path = parse_git_spec(spec)
    lines = _git(["rev-parse", "--show-toplevel", "--show-prefix"], spec).decode("utf-8", "replace")
    top, _, prefix = lines.rstrip("\n").partition("\n")
    # PATH is relative to the current directory, as on the command line;
    # "/PATH" is from the repository root.
    full = posixpath.normpath(path.lstrip("/") if path.startswith("/") else prefix + path)
    if full.startswith("..") or full in ("", "."):
        raise ToskitError(f"{spec}: the path leaves the repository")
    folder, base = posixpath.split(full)
    # From the top of the repository: in a subfolder, git archive would
    # also restrict the tree to that subfolder.
    archive = _git(["-C", top, "archive", "--format=tar", f"{rev}:{folder}"], spec)
    with tempfile.TemporaryDirectory(prefix="toskit-diff-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        target = Path(tmp, base)
        if not target.is_file():
            raise ToskitError(f"{spec}: no file {full} at revision {rev}")
        template = load(target)
        shown = f"{GIT_PREFIX}{rev}:{folder + '/' if folder else ''}"

        def rename(file: Any) -> Any:
            if isinstance(file, str) and file.startswith(tmp):
                return shown + Path(file).relative_to(tmp).as_posix()
            return file

        template.name = spec
        template.diagnostics = type(template.diagnostics)(
            replace(d, file=spec if d.file == str(target) else rename(d.file)) for d in template.diagnostics
        )
    return template


def read_side(spec: str) -> Any:
    """The ``ServiceTemplate`` of one side: a file path or ``git:REV:PATH``."""
    from toskit.tosca import load

    if spec.startswith(GIT_PREFIX):
        return _load_from_git(spec)
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
