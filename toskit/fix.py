"""``toskit check --fix``: apply the findings' unambiguous fixes, and nothing else.

A finding may carry a :class:`~toskit.diagnostics.Fix` (replace one range of
the file with a text: ``prot`` -> ``port`` when one candidate is clearly
meant). :func:`fix_file` applies those to one file:

* **only the fixes' ranges change**: the file is read as bytes and decoded
  as UTF-8 without newline translation, each range is replaced in that
  text, and the rest is written back byte for byte (comments, key order,
  quoting, CRLF or CR line breaks, a BOM, a missing final newline);
* **unambiguous only**: a finding with one fix is applied; a finding with
  several (alternatives) or none (a did-you-mean tie) is left as it is and
  counted; a file whose findings have no applicable fix is not written, and
  the command says so;
* **until nothing is left to fix**: the fixed text is checked again and
  the new fixes applied, at most :data:`MAX_ROUNDS` rounds (a fixed type
  name can reveal a misspelt property under it), so a second run changes
  nothing; fixes whose ranges overlap are applied one per round;
* **never through a link, never outside the root**: the file must be a
  regular file, not a symbolic link, with one hard link (a rename would
  split the others from it), and its real path must lie inside ``root``
  (``--root``; default the current directory); a fix aimed at another file
  (an import) is not applied;
* **by temporary file and rename**: in the file's folder, with the file's
  permission bits, after checking that the file did not change since it
  was read (else nothing is written).

The rules of :mod:`toskit.output_file` are those of a *new* report file
(never an input, never a file toskit did not write), the opposite of an
in-place fix, so this module keeps its own, stricter ones for inputs.

``--dry-run`` writes nothing and prints a unified diff per file instead.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO

from toskit.diagnostics import Diagnostic, Fix, abbreviate
from toskit.errors import ToskitError
from toskit.records import field, record

__all__ = [
    "MAX_ROUNDS",
    "FixOutcome",
    "apply_fixes",
    "fix_file",
    "fix_files",
    "fixes_to_apply",
    "unified_diff",
]

#: Rounds of check-then-fix on one file before giving up on reaching a fixed point.
MAX_ROUNDS = 5

# The line breaks YAML readers count (PyYAML: CRLF, CR, LF, NEL, LS, PS); the
# loader's line numbers count the same, so a fix's line is found by them.
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_BOM = "\ufeff"

CheckFunction = Callable[[str, str], Sequence[Diagnostic]]


@record
class FixOutcome:
    """What :func:`fix_file` did to one file."""

    path: str
    before: str = ""
    after: str = ""
    #: Fixes applied, in the order applied.
    applied: list[Fix] = field(default_factory=list)
    #: Findings that were left as they are, each with the reason.
    left: list[tuple[Diagnostic, str]] = field(default_factory=list)
    #: Why the file was not touched at all (symlink, outside the root, ...), else ``None``.
    refused: str | None = None
    #: Whether the file was (or, with ``dry_run``, would be) rewritten.
    written: bool = False

    @property
    def changed(self) -> bool:
        return self.after != self.before


def line_starts(text: str) -> list[int]:
    """Offset of the first character of each line (line 1 at index 0)."""
    return [0, *(m.end() for m in _BREAK.finditer(text))]


def _offset(text: str, starts: list[int], line: int, column: int) -> int | None:
    """The offset of 1-based ``(line, column)``, or ``None`` when it is not in the text."""
    if not (1 <= line <= len(starts)) or column < 1:
        return None
    start = starts[line - 1]
    end = starts[line] if line < len(starts) else len(text)
    # The line's own characters, without its break; column len+1 is just after them.
    match = _BREAK.search(text, start, end)
    content_end = match.start() if match else end
    offset = start + column - 1
    return offset if offset <= content_end else None


def _same_file(fix_file: str | None, path: str) -> bool:
    if fix_file is None or fix_file == path:
        return True
    try:
        return os.path.samefile(fix_file, path)
    except (OSError, ValueError):
        return False


def fixes_to_apply(
    diagnostics: Iterable[Diagnostic], path: str
) -> tuple[list[Fix], list[tuple[Diagnostic, str]]]:
    """The fixes to apply to ``path``, and the findings left alone with why.

    A finding with exactly one fix, aimed at this file, is applied; several
    fixes are alternatives (ambiguous) and none means no unambiguous fix.
    """
    fixes: list[Fix] = []
    left: list[tuple[Diagnostic, str]] = []
    for diag in diagnostics:
        if diag.omitted:
            # a summary: its findings were listed (max_per_code=None) or are counted elsewhere
            continue
        if not diag.fixes:
            left.append((diag, "no unambiguous fix"))
        elif len(diag.fixes) > 1:
            left.append((diag, f"{len(diag.fixes)} candidate fixes (ambiguous)"))
        elif not _same_file(diag.fixes[0].file, path):
            left.append((diag, f"its fix is in another file ({diag.fixes[0].file})"))
        else:
            fixes.append(diag.fixes[0])
    return fixes, left


def apply_fixes(text: str, fixes: Iterable[Fix]) -> tuple[str, list[Fix], list[tuple[Fix, str]]]:
    """``text`` with ``fixes`` applied: ``(new text, applied, skipped with why)``.

    Ranges are 1-based, ``end_column`` exclusive, columns in characters,
    lines as YAML counts them. A range outside the text is skipped; of
    overlapping ranges the first (in text order) is applied and the others
    skipped; the same fix twice is applied once.
    """
    starts = line_starts(text)
    located: list[tuple[int, int, Fix]] = []
    skipped: list[tuple[Fix, str]] = []
    for fix in dict.fromkeys(fixes):  # the same edit from two findings is one edit
        begin = _offset(text, starts, fix.line, fix.column)
        end = _offset(text, starts, fix.end_line, fix.end_column)
        if begin is None or end is None or end < begin:
            skipped.append((fix, "its range is not in the file"))
            continue
        located.append((begin, end, fix))
    located.sort(key=lambda item: (item[0], item[1]))
    pieces: list[str] = []
    applied: list[Fix] = []
    cursor = 0
    last_insertion: int | None = None
    for begin, end, fix in located:
        # Two insertions at one point have no order to keep: the second waits.
        if begin < cursor or (begin == end and begin == last_insertion):
            skipped.append((fix, "it overlaps another fix"))
            continue
        pieces.append(text[cursor:begin])
        pieces.append(fix.replacement)
        cursor = end
        last_insertion = begin if begin == end else None
        applied.append(fix)
    pieces.append(text[cursor:])
    return "".join(pieces), applied, skipped


def unified_diff(path: str, before: str, after: str) -> str:
    """A unified diff of one file (``a/PATH`` -> ``b/PATH``), as ``git diff`` shows it."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=f"a/{path}",
        tofile=f"b/{path}",
    )
    out = []
    for line in lines:
        out.append(
            line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
        )
    return "".join(out)


def _inside(path: str, root: str) -> bool:
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def _refusal(path: str, root: str) -> str | None:
    """Why ``path`` must not be fixed in place, or ``None``."""
    if path == "-":
        return "standard input cannot be fixed in place"
    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"cannot inspect it ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return "it is a symbolic link; toskit does not write through links"
    if not stat.S_ISREG(info.st_mode):
        return "it is not a regular file"
    if info.st_nlink > 1:
        return f"it has {info.st_nlink} hard links; replacing it would split them"
    if not _inside(path, root):
        return f"it is outside the root {root} (--root)"
    return None


def _read(path: str) -> tuple[bytes, str]:
    """The file's bytes and their text (UTF-8, no newline translation)."""
    from toskit.source import read_text_file

    read_text_file(path)  # its refusals (devices, /proc, size, not UTF-8) apply here too
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        return raw, raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToskitError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _write(path: str, raw_before: bytes, text: str) -> None:
    """Replace ``path`` by ``text`` through a temporary file, unless it
    changed since it was read."""
    info = os.lstat(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".toskit-fix-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fchmod(fh.fileno(), stat.S_IMODE(info.st_mode))
        with open(path, "rb") as fh:
            if fh.read() != raw_before or stat.S_ISLNK(os.lstat(path).st_mode):
                raise ToskitError(f"{path}: changed while it was being fixed; nothing written")
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def fix_file(
    path: str, check: CheckFunction, root: str | None = None, *, dry_run: bool = False
) -> FixOutcome:
    """Apply the unambiguous fixes of ``check(text, path)``'s findings to ``path``.

    ``check`` returns the findings of a text (``toskit check`` passes its own
    checker, uncapped). Raises ``ToskitError`` when the file cannot be read.
    See the module's docstring for the rules.
    """
    outcome = FixOutcome(path)
    outcome.refused = _refusal(path, root if root is not None else os.curdir)
    if outcome.refused:
        return outcome
    raw, text = _read(path)
    bom = _BOM if text.startswith(_BOM) else ""
    body = text[len(bom) :]
    outcome.before = outcome.after = text
    current = body
    for _round in range(MAX_ROUNDS + 1):
        found = check(current, path)
        fixes, left = fixes_to_apply(found, path)
        new, applied, skipped = apply_fixes(current, fixes)
        # What is left: findings without a usable fix, and those whose fix could
        # not be placed (an overlapping one is tried again in the next round).
        by_fix = {d.fixes[0]: d for d in found if len(d.fixes) == 1}
        outcome.left = left + [(by_fix[fix], why) for fix, why in skipped if fix in by_fix]
        if _round == MAX_ROUNDS or new == current:
            break  # no fix left that changes anything (or the bound on rounds)
        outcome.applied.extend(applied)
        current = new
    outcome.after = bom + current
    if outcome.changed and not dry_run:
        _write(path, raw, outcome.after)
    outcome.written = outcome.changed
    return outcome


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def fix_files(
    paths: Sequence[str],
    check: CheckFunction,
    root: str | None,
    *,
    dry_run: bool,
    out: TextIO,
    err: TextIO,
    skip: Callable[[str], str | None] = lambda path: None,
) -> int:
    """``toskit check --fix [--dry-run]`` over ``paths``: messages to ``err``, diffs to ``out``.

    Returns 2 when a file could not be fixed (unreadable, refused), else 1
    when ``dry_run`` found something to change, else 0. ``skip(path)`` gives
    a reason to leave a file out (a CSAR archive), or ``None``.
    """
    status = 0
    would_change = False
    for path in paths:
        reason = skip(path)
        if reason:
            print(f"toskit check --fix: {path}: not fixed: {reason}", file=err)
            continue
        try:
            outcome = fix_file(path, check, root, dry_run=dry_run)
        except ToskitError as exc:
            print(f"toskit check --fix: {exc}", file=err)
            status = 2
            continue
        except Exception as exc:  # a crash in one file's check must not stop the others
            print(
                f"toskit check --fix: {path}: toskit failed while checking it "
                f"({type(exc).__name__}: {exc})",
                file=err,
            )
            status = 2
            continue
        if outcome.refused:
            print(f"toskit check --fix: {path}: not fixed: {outcome.refused}", file=err)
            status = 2
            continue
        if outcome.changed:
            would_change = True
            verb = "would fix" if dry_run else "fixed"
            n = len(outcome.applied)
            print(f"{verb} {path}: {n} {'fix' if n == 1 else 'fixes'} applied", file=err)
            if dry_run:
                out.write(unified_diff(path, outcome.before, outcome.after))
        elif outcome.left:
            examples = "; ".join(
                f"{d.code} at {d.line}:{d.column}"
                + (f" ({abbreviate(d.hint, 200)})" if d.hint else "")
                for d, _why in outcome.left[:3]
            )
            more = f"; {len(outcome.left) - 3} more" if len(outcome.left) > 3 else ""
            print(
                f"toskit check --fix: {path}: left as it is: "
                f"{_plural(len(outcome.left), 'finding')} without an unambiguous fix "
                f"({examples}{more})",
                file=err,
            )
    if status == 0 and dry_run and would_change:
        status = 1
    return status
