"""``toskit diff OLD NEW``: the command line form of :func:`toskit.compare`.

Each side is a template file, or ``git:REV:PATH`` for the file at revision
``REV`` of the git repository of the current directory. As with ``git show
REV:PATH``, PATH is from the repository root; ``./PATH`` and ``../PATH`` are
relative to the current directory. Only the blobs needed are read, with
``git ls-tree`` and ``git cat-file`` (local commands: no network): the
template, then, lazily, each file it imports (relative imports resolve at
the same revision), each bounded by the loader's ``max_size``. A symbolic
link, a folder, a submodule or a missing path is refused with a message
("PATH does not exist in REV"), never a traceback.

Output: ``--format text`` (default), ``json`` or ``html`` (a standalone
page), to stdout or ``-o FILE``, written by the rules of ``toskit show -o``
(:mod:`toskit.output_file`: never an input file, never through a symbolic
link, no file toskit did not write unless ``--force``, written to a
temporary file renamed into place). Exit status: 0; 1 when ``--fail-on``
says so (``new-errors``: the new version introduces an error diagnostic;
``changes``: anything differs); 2 when the comparison could not run (a
missing file, a bad revision, a refused output).

This module only registers the subcommand and runs it; ``toskit.cli`` owns
the other commands and calls :func:`add_diff_parser`.
"""

from __future__ import annotations

import argparse
import os
import posixpath
import secrets
import subprocess
from collections.abc import Sequence
from typing import Any, TextIO

from toskit.errors import ToskitError
from toskit.records import replace
from toskit.terminal import terminal_safe

__all__ = ["GIT_PREFIX", "add_diff_parser", "parse_git_spec", "read_side", "render", "run_diff"]

GIT_PREFIX = "git:"
_GIT_TIMEOUT = 30  # seconds; each git command here is local and reads one object
_MAX_PATH = 4096  # characters of a git:REV:PATH path (PATH_MAX on Linux)
# The name a git side's documents carry while loading: a file: URL (so
# that relative imports are joined by URL rules and reach the resolver
# below, never the disk), written back as git:REV:PATH afterwards.
_GIT_BASE = "file:///toskit-git/"


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
    diff.add_argument("new", metavar="NEW", nargs="?", help="template file or git:REV:PATH")
    # ``--types OLD_DIR NEW_DIR TEMPLATE…``: the upgrade check (toskit.compare.upgrade),
    # whose templates are OLD, NEW and these.
    diff.add_argument("more", metavar="TEMPLATE", nargs="*", help=argparse.SUPPRESS)
    diff.add_argument(
        "--types",
        nargs=2,
        metavar=("OLD_DIR", "NEW_DIR"),
        help="compare what two versions of a type library (profile folders or git:REV:FOLDER) "
        "do to the templates given (the upgrade check, docs/profiles.md)",
    )
    diff.add_argument(
        "--format",
        choices=("text", "json", "html", "github", "sarif"),
        default="text",
        help="output format (default text); github and sarif list only what NEW introduces, "
        "located in NEW (with --fail-on changes, its changed values too; docs/ci.md)",
    )
    diff.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    diff.add_argument(
        "--force",
        action="store_true",
        help="with -o: replace an existing file that toskit did not write "
        "(never an input or a link)",
    )
    diff.add_argument(
        "--fail-on",
        choices=("new-errors", "changes", "breaking"),
        action="append",
        default=[],
        help="exit 1 when the new version introduces errors (new-errors) or anything differs "
        "(changes); with --types, when the new library breaks a template (breaking)",
    )
    diff.set_defaults(run=run_diff)
    return diff


def _git(args: list[str], spec: str, *, cwd: str | None = None) -> bytes:
    """Run a local git command; its stdout, or a ToskitError naming ``spec``."""
    try:
        done = subprocess.run(
            ["git", *args], capture_output=True, timeout=_GIT_TIMEOUT, check=False, cwd=cwd
        )
    except FileNotFoundError:
        raise ToskitError(f"{spec}: git is not installed") from None
    except subprocess.TimeoutExpired:
        raise ToskitError(f"{spec}: git took longer than {_GIT_TIMEOUT} s") from None
    except OSError as exc:
        raise ToskitError(f"{spec}: cannot run git ({exc.strerror or exc})") from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ToskitError(f"{spec}: {reason[0] if reason else 'git ' + args[0] + ' failed'}")
    return done.stdout


def parse_git_spec(spec: str) -> tuple[str, str]:
    """``(REV, PATH)`` of ``git:REV:PATH`` (ToskitError when malformed)."""
    rev, sep, path = spec[len(GIT_PREFIX) :].partition(":")
    if not sep or not rev or not path:
        raise ToskitError(f"{spec[:200]!r}: expected git:REV:PATH, e.g. git:main:service.yaml")
    if rev.startswith("-"):
        raise ToskitError(f"{spec[:200]!r}: a revision cannot start with '-'")
    if len(path) > _MAX_PATH or "\0" in path or "\n" in path:
        raise ToskitError(
            f"{spec[:200]!r}…: not a usable path "
            f"(longer than {_MAX_PATH} characters, or a NUL or "
            "line feed)"
        )
    return rev, path


class _GitTree:
    """Blobs of one revision, read one at a time and bounded in size."""

    def __init__(self, spec: str, rev: str, max_size: int) -> None:
        self.spec = spec
        self.rev = rev
        self.max_size = max_size
        out = _git(["rev-parse", "--show-toplevel", "--show-prefix"], spec).decode(
            "utf-8", "replace"
        )
        self.top, _, prefix = out.rstrip("\n").partition("\n")
        self.prefix = prefix
        try:
            found = _git(
                ["-C", self.top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], spec
            )
        except ToskitError:
            raise ToskitError(f"{spec}: unknown revision {rev!r} in this repository") from None
        self.commit = found.decode("ascii", "replace").strip()

    def full_path(self, path: str) -> str:
        """PATH from the repository root (``./``, ``../``: from the current directory)."""
        if path.startswith(("./", "../")) or path in (".", ".."):
            path = self.prefix + path
        full = posixpath.normpath(path.lstrip("/"))
        if full.startswith("..") or full in ("", "."):
            raise ToskitError(f"{self.spec}: the path leaves the repository")
        return full

    def read(self, full: str) -> str:
        """The text of the blob at ``full`` (a path from the root)."""
        listing = _git(
            [
                "-C",
                self.top,
                "--literal-pathspecs",
                "ls-tree",
                "-l",
                "-z",
                "--full-tree",
                self.commit,
                "--",
                full,
            ],
            self.spec,
        )
        entry = next((e for e in listing.split(b"\0") if e), None)
        if entry is None:
            hint = ""
            if self.prefix and not full.startswith(self.prefix):
                hint = (
                    " (PATH is from the repository root, as with git show; ./PATH is from the "
                    "current folder)"
                )
            raise ToskitError(f"{full} does not exist in {self.rev}{hint}")
        meta, _, _ = entry.partition(b"\t")
        fields = meta.split()
        mode, kind, oid = (f.decode("ascii", "replace") for f in fields[:3])
        if kind == "tree":
            raise ToskitError(f"{full} is a folder in {self.rev}, not a file")
        if mode == "120000":
            raise ToskitError(
                f"{full} is a symbolic link in {self.rev}; toskit does not follow links"
            )
        if kind != "blob":
            raise ToskitError(f"{full} is not a file in {self.rev} ({kind})")
        size = int(fields[3]) if len(fields) > 3 and fields[3].isdigit() else 0
        if size > self.max_size:
            raise ToskitError(
                f"{full} in {self.rev} is {size:,} bytes, over the loader's max_size of "
                f"{self.max_size:,}"
            )
        data = _git(["-C", self.top, "cat-file", "blob", oid], self.spec)
        if len(data) > self.max_size:  # the object cannot have grown, but never trust a size
            raise ToskitError(
                f"{full} in {self.rev} is over the loader's max_size of {self.max_size:,}"
            )
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ToskitError(
                f"{full} in {self.rev}: not UTF-8 text ({exc.reason} at byte {exc.start})"
            ) from None


def _load_from_git(spec: str) -> Any:
    """Load ``git:REV:PATH`` (see the module doc): the template's blob, then,
    lazily through a resolver, the blobs it imports at the same revision;
    every name is written back as ``git:REV:…``."""
    from toskit.source.document import LIMIT_DEFAULTS
    from toskit.tosca import loads

    rev, path = parse_git_spec(spec)
    tree = _GitTree(spec, rev, LIMIT_DEFAULTS["max_size"])
    full = tree.full_path(path)
    text = tree.read(full)

    # Each folder and the file name of PATH become a placeholder in the
    # document's URL name: urljoin then resolves a relative import by
    # folders only (a '#', '?' or '%' in a real name cannot be read as a
    # fragment, a query or an escape), and the placeholders are put back
    # when the resolver reads a blob and when names are shown.
    token = secrets.token_hex(6)
    components = full.split("/")
    real = {f"toskit-{token}-{i}": part for i, part in enumerate(components)}
    base = _GIT_BASE + "/".join(real)

    def repo_path(url: str) -> str:
        rest = url[len(_GIT_BASE) :]
        return posixpath.normpath("/".join(real.get(c, c) for c in rest.split("/")))

    def resolver(url: str, importing: str | None) -> str | None:
        if not url.startswith(_GIT_BASE):
            return None  # a remote URL: toskit never fetches
        wanted = repo_path(url)
        if wanted.startswith("..") or wanted in ("", ".") or wanted.startswith("/"):
            raise ToskitError(f"{wanted} leaves the repository")
        return tree.read(wanted)

    # A resolver may return None ("not mine", docs of toskit.source.imports).
    template = loads(text, name=base, resolver=resolver)  # type: ignore[arg-type]

    def shown(name: Any) -> Any:
        if isinstance(name, str) and name.startswith(_GIT_BASE):
            return f"{GIT_PREFIX}{rev}:{repo_path(name)}"
        return name

    def shown_text(message: str) -> str:
        if _GIT_BASE not in message:
            return message
        message = message.replace(_GIT_BASE, f"{GIT_PREFIX}{rev}:")
        for placeholder, part in real.items():
            message = message.replace(placeholder, part)
        return message

    template.name = spec
    for doc in _documents(template):
        doc.name = shown(doc.name)
    template.diagnostics = type(template.diagnostics)(
        _renamed_diagnostic(d, shown, shown_text) for d in template.diagnostics
    )
    return template


def _documents(template: Any) -> list[Any]:
    """The template's document and those its own types were read from."""
    from toskit.compare.compute import own_types

    docs = [template.document] if template.document is not None else []
    for t in own_types(template).values():
        if t.doc is not None and all(t.doc is not d for d in docs):
            docs.append(t.doc)
    return docs


def _renamed_diagnostic(d: Any, shown: Any, shown_text: Any) -> Any:
    changes: dict[str, Any] = {"file": shown(d.file), "message": shown_text(d.message)}
    related = getattr(d, "related", ())
    if related:
        changes["related"] = tuple(
            replace(r, file=shown(r.file)) if hasattr(r, "file") else r for r in related
        )
    return replace(d, **changes)


def read_side(spec: str) -> Any:
    """The ``ServiceTemplate`` of one side: a file path or ``git:REV:PATH``."""
    from toskit.tosca import load

    if spec.startswith(GIT_PREFIX):
        return _load_from_git(spec)
    return load(spec)


def render(diff: Any, fmt: str, fail_on: Sequence[str] = ()) -> str:
    """``diff`` as text, JSON, a standalone HTML page, or GitHub annotations / SARIF
    of what NEW introduces (:mod:`toskit.report.diff`)."""
    if fmt in ("github", "sarif"):
        from toskit.report.diff import render as report

        return report(diff, fmt, fail_on)
    if fmt == "json":
        return diff.to_json() + "\n"
    if fmt == "html":
        from toskit.display.compare_view import diff_page

        return diff_page(diff)
    return str(diff) + "\n"


def run_diff(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``toskit diff`` with parsed ``args``; returns the exit status."""
    from toskit.output_file import refusal

    def fail(message: str) -> int:
        if len(message) > 400:  # a 5,000-character file name must not fill the screen
            message = message[:200] + " … " + message[-150:]
        print(f"toskit diff: {terminal_safe(message)}", file=err)
        return 2

    if getattr(args, "types", None):
        from toskit.compare.upgrade import run_upgrade

        if args.format not in ("text", "json", "html") or args.output is not None:
            return fail("--types writes text, json or html to stdout (no -o, github or sarif)")
        templates = [t for t in (args.old, args.new, *args.more) if t]
        old_dir, new_dir = args.types
        return run_upgrade(
            old_dir, new_dir, templates, args.format, args.fail_on, out, err, "toskit diff"
        )
    if args.new is None or getattr(args, "more", None):
        return fail(
            "expected two versions of a template: toskit diff OLD NEW "
            "(or --types OLD_DIR NEW_DIR TEMPLATE…)"
        )
    if "breaking" in args.fail_on:
        return fail("--fail-on breaking goes with --types OLD_DIR NEW_DIR")
    inputs = [side for side in (args.old, args.new) if not side.startswith(GIT_PREFIX)]
    force = bool(getattr(args, "force", False))
    if args.output is not None:
        reason = refusal(args.output, inputs, force=force)
        if reason:
            return fail(reason)
    try:
        diff, text = _diff_and_text(args)
    except ToskitError as exc:
        if args.format in ("github", "sarif") and args.output is None:
            # CI reads the report, not stderr: the side that failed is a finding there too.
            from toskit.report.diff import render_failure

            out.write(render_failure(args.format, args.new, str(exc)))
        return fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    if args.output is None:
        out.write(text)
    else:
        problem = _write_report(args.output, args.format, text, inputs, force)
        if problem:
            return fail(problem)
        print(f"wrote {terminal_safe(args.output)}", file=err)
    return _fail_on_status(diff, args.fail_on, err)


def _diff_and_text(args: argparse.Namespace) -> tuple[Any, str]:
    """Both sides read and compared, and the report in ``args.format``."""
    from toskit.compare.compute import compare

    diff = compare(read_side(args.old), read_side(args.new))
    if args.format == "html" and args.output is not None:
        from toskit.display.links import links_from

        # file:line links relative to the page's folder, as toskit show's
        with links_from(os.path.dirname(os.path.abspath(args.output))):
            return diff, render(diff, args.format, args.fail_on)
    return diff, render(diff, args.format, args.fail_on)


def _write_report(path: str, fmt: str, text: str, inputs: list[str], force: bool) -> str | None:
    """Write the report to ``path`` (``-o``); the reason it was not written, else ``None``."""
    from toskit.output_file import TEXT_MARK, refusal, write_atomically

    if fmt in ("text", "github"):
        text += TEXT_MARK + "\n"  # how toskit recognises its own report next time
    reason = refusal(path, inputs, force=force)  # the world may have moved meanwhile
    if reason:
        return reason
    try:
        write_atomically(path, text)
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror or exc}"
    return None


def _fail_on_status(diff: Any, fail_on: Sequence[str], err: TextIO) -> int:
    """The exit status ``--fail-on`` asks for (1), else 0."""
    status = 0
    if "new-errors" in fail_on and diff.new_errors:
        n = len(diff.new_errors)
        print(f"toskit diff: the new version introduces {n} error{'s' if n != 1 else ''}", file=err)
        status = 1
    if "changes" in fail_on and not diff.is_same:
        status = 1
    return status
