"""Writing a report file without destroying anything (``toskit show -o``).

A command that writes where it is told can overwrite the very template it
reads, a README that happens to share its name, or, through a symbolic
link, a file somewhere else. :func:`refusal` says why a path must not be
written; :func:`write_atomically` writes through a temporary file in the
same folder renamed into place, so a reader never sees half a page and a
link that appears meanwhile is replaced, never followed.

The rules:

* an empty name, a symbolic link, anything that is not a regular file, and
  any of the input files (the same file under any name) are refused, with
  or without ``force``;
* an existing regular file is replaced only when toskit wrote it (an HTML
  page carrying toskit's ``generator`` meta tag or its "made with toskit"
  footer; a JSON report whose first key is ``"generator": "toskit"``; a
  SARIF log whose tool driver is named ``toskit``; a text report, or a
  file of GitHub annotations, whose last line is :data:`TEXT_MARK`, as
  ``toskit diff -o`` writes them) or when ``force`` is given.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Iterable

__all__ = ["GENERATOR", "TEXT_MARK", "refusal", "write_atomically", "written_by_toskit"]

GENERATOR = '<meta name="generator" content="toskit">'
TEXT_MARK = "-- made with toskit"
"""The last line of a text report toskit writes to a file."""
_JSON_MARK = b'"generator": "toskit"'
# A SARIF log toskit wrote: its tool's driver is named toskit (checked in the head).
_SARIF_MARK = re.compile(rb'"driver"\s*:\s*\{\s*"name"\s*:\s*"toskit"')
_MARKERS = (b'<meta name="generator" content="toskit', b"made with toskit")
_PEEK = 8192  # bytes read at each end of an existing file to recognise a toskit page


def written_by_toskit(path: str) -> bool:
    """True when ``path`` is an HTML page, JSON or text report that toskit wrote."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_PEEK)
            size = os.fstat(fh.fileno()).st_size
            if size > _PEEK:
                fh.seek(max(size - _PEEK, _PEEK))
            tail = fh.read(_PEEK)
    except OSError:
        return False
    start = head.lstrip()
    if start.startswith(b"{"):
        # The first key of toskit's JSON reports (json.dumps keeps the order),
        # or a SARIF log whose tool is toskit.
        return start[1:].lstrip().startswith(_JSON_MARK) or bool(_SARIF_MARK.search(head))
    if (tail or head).rstrip().endswith(TEXT_MARK.encode()):
        return True
    if not start.lower().startswith(b"<!doctype html"):
        return False
    return any(marker in head or marker in tail for marker in _MARKERS)


def refusal(output: str, inputs: Iterable[str], *, force: bool = False) -> str | None:
    """Why ``output`` must not be written, or ``None`` when it may be."""
    if not output:
        return "the output file name is empty"
    try:
        info = os.lstat(output)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{output}: cannot inspect ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return f"{output} is a symbolic link; toskit does not write through links"
    for source in inputs:
        try:
            if os.path.samefile(output, source):
                return f"{output} is the input file {source}; choose another output (-o)"
        except OSError:
            continue
    if not stat.S_ISREG(info.st_mode):
        return f"{output} exists and is not a regular file"
    if not force and not written_by_toskit(output):
        return f"{output} exists and was not written by toskit (use --force to replace it)"
    return None


def _file_mode() -> int:
    # mkstemp creates 0600; a report is an ordinary file, so honour the umask.
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomically(output: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``output`` via a temporary file renamed into place."""
    folder = os.path.dirname(os.path.abspath(output))
    fd, temporary = tempfile.mkstemp(prefix=".toskit-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fchmod(fh.fileno(), _file_mode())
        os.replace(temporary, output)  # replaces a link that appeared meanwhile, never follows it
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
