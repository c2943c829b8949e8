"""Links from a view to a place in a file: the one helper every ``file:line`` goes through.

A notebook view runs in the kernel, whose working directory is the
notebook's folder; JupyterLab resolves a relative ``href`` in an output
against that folder and opens the file in its own editor, going to the line
named by a ``#line=N`` fragment (N counted from 0, as RFC 5147 counts and
as JupyterLab's file editor reads it). So a location becomes
``<a href="examples/web-shop.yaml#line=11">examples/web-shop.yaml:12:7</a>``
when the file is under the working directory, and stays text (its absolute
path as the ``title``) otherwise: JupyterLab opens only files under its
root, and a link out of the working directory may lead nowhere.

``toskit show`` writes a page to a file: there the links are relative to
the page's folder (``..`` allowed), so a page published beside its
templates (a CI artifact of the whole folder) keeps working links;
:func:`links_from` sets that base while a page is rendered. A browser opens
the file; it ignores the line fragment (the line is in the link text).

A link is made only for a file that exists (never a link to nothing) and
whose name is a plain path: a name with a scheme (``zip:``, ``http:``,
``javascript:``) or in angle brackets (``<string>``) stays text. The
``href`` is percent-encoded (a ``:`` too), so it can never start a scheme.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any
from urllib.parse import quote

from toskit.display.html import esc
from toskit.records import record

__all__ = ["FILE_LINK_ONCLICK", "file_link", "file_href", "links_from", "location_link"]

#: The inline handler of a file link (a constant: no user text). JupyterLab
#: takes over the links of a rendered output (it rewrites the ``href`` to the
#: file's ``/files/`` URL and opens the file in its editor on a click); the
#: toskit widgets show their views as rendered outputs
#: (``toskit.widgets.rendered.RenderedHTML``), so there too. A view put in an
#: ``ipywidgets.HTML`` (a user's own widget) is not a rendered output: there
#: the browser would follow the relative ``href`` and reload the whole
#: JupyterLab page. So, inside JupyterLab, a link JupyterLab did not take
#: over does nothing (its ``title`` still says where); everywhere else (a
#: report, Voila) the link is followed. Voila's page has a ``.jp-LabShell``
#: too but no document to lose (its ``<body>`` carries ``data-voila``): there
#: the browser follows the link (Voila serves the file if its
#: ``file_allowlist`` allows it; the default, images only, answers 403).
FILE_LINK_ONCLICK = (
    "if(document.querySelector('.jp-LabShell')&&!document.body.dataset.voila"
    "&&this.getAttribute('href').indexOf('/files/')<0)return false"
)


@record(frozen=True)
class _Base:
    folder: str  # absolute
    upward: bool  # links may climb out of the folder with ``..``


_BASE: ContextVar[_Base | None] = ContextVar("toskit_link_base", default=None)

# A URI scheme (two letters at least, so a Windows drive ``C:`` is a path).
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")
# ``file:line`` or ``file:line:column`` at the end of a location text.
_LOCATION = re.compile(r"^(?P<file>.+?):(?P<line>\d+)(?::(?P<column>\d+))?$")


@contextlib.contextmanager
def links_from(folder: str | os.PathLike[str]) -> Iterator[None]:
    """Make the links of the views rendered in the block relative to
    ``folder`` (a page's folder), ``..`` allowed (``toskit show``)."""
    token = _BASE.set(_Base(os.path.abspath(folder), upward=True))
    try:
        yield
    finally:
        _BASE.reset(token)


def _is_file(path: str) -> bool:
    # Not cached: a file written after a first render gets its link on the
    # next one (a stat costs microseconds; a view shows a bounded number).
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):  # a NUL or an over-long name: no link
        return False


def file_href(file: Any, line: Any = None) -> str | None:
    """The relative ``href`` (not yet HTML-escaped) of ``file`` at ``line``
    (1-based), or ``None`` when it gets no link (see the module docstring)."""
    if not isinstance(file, str) or not file or file.startswith("<") or _SCHEME.match(file):
        return None
    base = _BASE.get() or _Base(os.getcwd(), upward=False)
    try:
        target = os.path.abspath(file)  # a relative name is the process's (as the loader read it)
        relative = os.path.relpath(target, base.folder)
    except ValueError:  # another drive (Windows), a NUL in the name
        return None
    if relative.startswith(os.pardir) and not base.upward:
        return None
    if not _is_file(target):
        return None
    href = quote(relative.replace(os.sep, "/"), safe="/")
    if isinstance(line, int) and not isinstance(line, bool) and line >= 1:
        href += f"#line={line - 1}"
    return href


def file_link(
    file: Any,
    line: Any = None,
    column: Any = None,
    *,
    text: str | None = None,
    text_html: str | None = None,
) -> str:
    """``file:line:column`` as HTML: a link to the file at that line when
    :func:`file_href` gives one, else the escaped text. ``text`` replaces the
    shown ``file:line:column``; ``text_html`` is shown instead, as markup
    that is already safe (a location with line-break opportunities)."""
    if text is None:
        text = str(file) if file else "<unknown>"
        if line is not None:
            text += f":{line}" + (f":{column}" if column is not None else "")
    inner = esc(text) if text_html is None else text_html
    href = file_href(file, line)
    if href is None:
        return inner
    where = f" at line {line}" if isinstance(line, int) and line >= 1 else ""
    return (
        f'<a class="toskit-file-link" href="{esc(href)}" '
        f'title="open {esc(file)}{where}" onclick="{esc(FILE_LINK_ONCLICK)}">{inner}</a>'
    )


def location_link(location: Any, *, text_html: str | None = None) -> str:
    """A location text (``file``, ``file:line`` or ``file:line:column``, as
    ``Origin.where()`` and the comparison's ``old_location`` give it) as
    :func:`file_link` renders it; any other text escaped."""
    if not location:
        return text_html or ""
    text = str(location)
    found = _LOCATION.match(text)
    if found is None:
        return file_link(text, text=text, text_html=text_html)
    column = found.group("column")
    return file_link(
        found.group("file"),
        int(found.group("line")),
        int(column) if column else None,
        text=text,
        text_html=text_html,
    )
