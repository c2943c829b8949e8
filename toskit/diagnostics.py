"""One diagnostic type for the whole toolkit.

A :class:`Diagnostic` is a problem found in a document: its severity, a
stable kebab-case ``code``, a message, the path of the offending node, its
file/line/column (1-based) and an optional hint. Loading collects every
diagnostic it can and goes on; it raises only when asked
(``ServiceTemplate.raise_for_errors()``).

``str(d)`` is meant for people::

    service.yaml:12:9: error[missing-property]: node template 'db': ...
      hint: did you mean 'port'?
       12 |         endpoint:
          |         ^
"""

from __future__ import annotations

import difflib
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace

__all__ = [
    "Diagnostic",
    "DiagnosticList",
    "SEVERITIES",
    "did_you_mean",
    "closest",
    "format_path",
    "has_errors",
    "sort_diagnostics",
]

SEVERITIES = ("error", "warning", "info")
_SEVERITY_RANK = {name: rank for rank, name in enumerate(SEVERITIES)}


@dataclass(frozen=True)
class Diagnostic:
    """A problem found in a document.

    The path is kept structured, as jsonschema's errors keep theirs: give
    ``parts`` (or ``path`` itself) as a tuple of keys and list indices
    (``("node_templates", "db", "properties", "ports", 1)``); ``parts``
    holds that tuple and ``path`` is its string form (:func:`format_path`,
    ``node_templates.db.properties.ports[1]``). A ``path`` given as a string
    (the field-path notation of ``toskit.schema``, or text from elsewhere)
    is kept as written, and ``parts`` is then ``None`` unless given too.
    Diagnostics of TOSCA documents (``YamlDocument.diagnostic``) always
    carry their ``parts``.

    ``source_line`` (the text of the offending line, when known) is used by
    ``str()`` to show the line with a caret under ``column``. Neither it nor
    ``parts`` takes part in equality (``path`` does).
    """

    severity: str
    code: str
    message: str
    path: str = ""
    file: str | None = None
    line: int | None = None
    column: int | None = None
    hint: str | None = None
    source_line: str | None = field(default=None, compare=False, repr=False)
    parts: tuple[Hashable, ...] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.severity not in _SEVERITY_RANK:
            raise ValueError(f"severity must be one of {SEVERITIES}, not {self.severity!r}")
        path: object = self.path
        if isinstance(path, (tuple, list)):
            # The structured path; the string is derived from it.
            object.__setattr__(self, "parts", tuple(path))
            object.__setattr__(self, "path", format_path(path))
        elif not isinstance(path, str):
            raise TypeError(
                f"Diagnostic path must be a str or a tuple of keys and indices, "
                f"not {type(path).__name__}"
            )
        elif self.parts is not None:
            object.__setattr__(self, "parts", tuple(self.parts))
            if not path:
                object.__setattr__(self, "path", format_path(self.parts))

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    @property
    def location(self) -> str:
        """``file:line:column`` with the parts that are known."""
        parts = [self.file or "<unknown>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def headline(self) -> str:
        """The first line of ``str(self)``: location, severity, code, message."""
        return f"{self.location}: {self.severity}[{self.code}]: {self.message}"

    def with_location(
        self,
        file: str | None,
        line: int | None,
        column: int | None,
        source_line: str | None = None,
    ) -> Diagnostic:
        """A copy placed at another location."""
        return replace(self, file=file, line=line, column=column, source_line=source_line)

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)

    def __str__(self) -> str:
        lines = [self.headline()]
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        if self.source_line is not None and self.line is not None:
            gutter = f"{self.line:>5} | "
            lines.append(gutter + self.source_line.rstrip("\n"))
            if self.column is not None:
                # Keep tabs so the caret lines up under tab-indented text.
                lead = "".join(
                    c if c == "\t" else " " for c in self.source_line[: self.column - 1]
                )
                lines.append(" " * (len(gutter) - 2) + "| " + lead + "^")
        return "\n".join(lines)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """True when any diagnostic has severity ``error``."""
    return any(d.severity == "error" for d in diagnostics)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Source order: by file, line, column (unknown positions last), stable."""

    def key(d: Diagnostic) -> tuple:
        return (
            d.file or "",
            d.line if d.line is not None else 1 << 30,
            d.column if d.column is not None else 1 << 30,
        )

    return sorted(diagnostics, key=key)


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate a person most likely meant by ``word``, or ``None``.

    Tries, in order: a case-insensitive exact match; a candidate whose
    dotted/colon-separated tail equals the word's last segment (so
    ``nodes.DBMS`` and ``cloudify.nodes.DBMS`` find ``tosca.nodes.DBMS``);
    then the closest spelling by :func:`difflib.get_close_matches`.
    """
    pool = [c for c in dict.fromkeys(candidates) if isinstance(c, str) and c != word]
    if not pool or not isinstance(word, str) or not word:
        return None
    lowered = word.lower()
    for c in pool:
        if c.lower() == lowered:
            return c
    tail = word.replace(":", ".").split(".")[-1]
    if tail:
        tail_matches = [c for c in pool if c.replace(":", ".").split(".")[-1] == tail]
        if tail_matches:
            best = difflib.get_close_matches(word, tail_matches, n=1, cutoff=0.0)
            return best[0] if best else tail_matches[0]
    best = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    return best[0] if best else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A hint ``did you mean 'x'?`` for the closest candidate, or ``None``."""
    match = closest(word, candidates)
    return f"did you mean '{match}'?" if match is not None else None


def format_path(parts: Iterable[object]) -> str:
    """Join path parts the way API.md writes TOSCA paths.

    Keys are joined by ``.`` (no leading dot), integers become ``[i]`` with no
    dot before them: ``("a", "ports", 1, "x")`` → ``a.ports[1].x``.
    """
    out: list[str] = []
    for part in parts:
        if isinstance(part, int) and not isinstance(part, bool):
            out.append(f"[{part}]")
        else:
            if out:
                out.append(".")
            out.append(str(part))
    return "".join(out)


class DiagnosticList(list):
    """A plain ``list`` of :class:`Diagnostic` that notebooks show as HTML.

    Functions returning diagnostics may return one so that a notebook cell
    ending in the result shows severity badges, locations and hints instead
    of a list repr. It compares and behaves exactly like a ``list``.
    """

    @property
    def ok(self) -> bool:
        """True when no diagnostic has severity ``error``."""
        return not has_errors(self)

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)
