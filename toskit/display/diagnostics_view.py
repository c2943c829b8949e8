"""Views of diagnostics: severity badge, code, location, message, hint and the
offending source line with a caret.

A summary diagnostic (``omitted`` > 0, made by
:func:`toskit.diagnostics.cap_per_code`) is shown as a row of its own and
counts, in the badges, as the diagnostics it stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from toskit.diagnostics import Diagnostic, abbreviate, cap_per_code, source_window
from toskit.display.html import badge, esc, fragment, header, more_note
from toskit.display.links import file_link
from toskit.display.options import get as option

__all__ = [
    "VIEW_HINT",
    "diagnostic_html",
    "diagnostics_block",
    "diagnostics_html",
    "ordered",
    "severity_counts",
]

_RANK = {"error": 0, "warning": 1, "info": 2}


def ordered(diagnostics: Iterable[Any]) -> list[Any]:
    """Errors first, then warnings, then infos; source order within each."""
    indexed = list(enumerate(diagnostics))

    def key(item: tuple[int, Any]) -> tuple:
        index, d = item
        return (_RANK.get(getattr(d, "severity", "info"), 3), index)

    return [d for _, d in sorted(indexed, key=key)]


def _stands_for(d: Any) -> int:
    """1, or for a summary diagnostic the number it stands for."""
    omitted = getattr(d, "omitted", 0)
    return omitted if isinstance(omitted, int) and omitted > 0 else 1


def severity_counts(diagnostics: Iterable[Any]) -> dict[str, int]:
    """How many diagnostics of each severity (keys in severity order); a
    summary counts as the diagnostics it stands for."""
    counts = {"error": 0, "warning": 0, "info": 0}
    for d in diagnostics:
        sev = getattr(d, "severity", "info")
        counts[sev] = counts.get(sev, 0) + _stands_for(d)
    return counts


def summary_badges(diagnostics: Sequence[Any]) -> str:
    """Badges such as ``2 errors`` ``1 warning`` (or ``ok``)."""
    counts = severity_counts(diagnostics)
    parts = []
    for sev, n in counts.items():
        if n:
            label = f"{n} {sev}" + ("s" if n != 1 else "")
            parts.append(badge(label, sev))
    return "".join(parts) if parts else badge("ok", "ok")


def _location(d: Any) -> str:
    file = getattr(d, "file", None)
    line = getattr(d, "line", None)
    column = getattr(d, "column", None)
    if file is None and line is None:
        return ""
    parts = [file or "<unknown>"]
    if line is not None:
        parts.append(str(line))
        if column is not None:
            parts.append(str(column))
    return ":".join(parts)


LineLookup = Callable[[Any, int], "str | None"]


def document_lines(*documents: Any) -> LineLookup | None:
    """A ``(file, line) -> text`` lookup over loaded YAML documents.

    Diagnostics carry ``source_line`` only when their producer filled it in;
    views of a template pass its ``document`` here so that every diagnostic
    located in that text still shows its line with a caret.
    """
    by_name = {
        getattr(doc, "name", None): doc
        for doc in documents
        if callable(getattr(doc, "line_text", None))
    }
    if not by_name:
        return None

    def lookup(file: Any, line: int) -> str | None:
        doc = by_name.get(file)
        if doc is None:
            return None
        try:
            return doc.line_text(line)
        except Exception:  # noqa: BLE001 - a missing line just shows no snippet
            return None

    return lookup


def _snippet(d: Any, lines: LineLookup | None = None) -> str:
    source_line = getattr(d, "source_line", None)
    line = getattr(d, "line", None)
    if source_line is None and lines is not None and isinstance(line, int):
        source_line = lines(getattr(d, "file", None), line)
    if source_line is None or line is None:
        return ""
    column = getattr(d, "column", None)
    # a window around the column, not a whole 100 kB line (#19)
    text, column = source_window(
        str(source_line).rstrip("\n"), column if isinstance(column, int) else None
    )
    gutter = f"{line:>5} │ "
    out = f'<span class="toskit-gutter">{esc(gutter)}</span>{esc(text)}'
    if isinstance(column, int) and column >= 1:
        # Keep tabs so the caret lines up under tab-indented text.
        lead = "".join(c if c == "\t" else " " for c in text[: column - 1])
        blank = " " * (len(gutter) - 2) + "│ "
        out += (
            f'\n<span class="toskit-gutter">{esc(blank)}</span>{esc(lead)}'
            '<span class="toskit-caret">^</span>'
        )
    return f'<div class="toskit-snippet">{out}</div>'


def diagnostic_html(d: Any, lines: LineLookup | None = None) -> str:
    """One diagnostic as a block (no surrounding fragment)."""
    # Each text abbreviated (#19): a message naming a 1 MB key is not a 1 MB row.
    severity = str(getattr(d, "severity", "info"))
    location = abbreviate(_location(d))
    path = abbreviate(str(getattr(d, "path", "") or ""))
    hint = getattr(d, "hint", None)
    hint = abbreviate(str(hint)) if hint else hint
    head = [
        badge(severity, severity if severity in _RANK else "info", small=True),
        f'<span class="toskit-diag-code">{esc(abbreviate(str(getattr(d, "code", ""))))}</span>',
    ]
    if location:
        where = file_link(
            getattr(d, "file", None),
            getattr(d, "line", None),
            getattr(d, "column", None),
            text=location,
        )
        head.append(f'<span class="toskit-diag-loc">{where}</span>')
    if path:
        head.append(f'<span class="toskit-diag-path">{esc(path)}</span>')
    head.append(
        f'<div class="toskit-diag-msg">{esc(abbreviate(str(getattr(d, "message", d))))}</div>'
    )
    hint_html = f'<div class="toskit-diag-hint">{esc(hint)}</div>' if hint else ""
    cls = f"toskit-diag toskit-diag-{esc(severity)}"
    return (
        f'<div class="{cls}"><div class="toskit-diag-head">{"".join(head)}</div>'
        f"{hint_html}{_snippet(d, lines)}</div>"
    )


#: Hint of the summaries a bounded view makes (``per_code``).
VIEW_HINT = (
    "this view lists the first {n:,} of each code; "
    "`toskit check --max-per-code 0 FILE` prints them all"
)


def diagnostics_block(
    diagnostics: Iterable[Any],
    *,
    limit: int | None = None,
    lines: LineLookup | None = None,
    per_code: int | None = None,
    budget: int | None = None,
) -> str:
    """Diagnostics (errors first), bounded by ``display_max_rows``; ``lines``
    supplies source lines the diagnostics do not carry.

    ``per_code``: at most that many rows of one code, the rest of that code
    one summary row ("N more 'code' diagnostics not shown"), as
    :func:`~toskit.diagnostics.cap_per_code` makes them (#19: a page of
    20,000 copies of one mistake). ``budget``: rows are added while their
    HTML stays within that many characters. The "… N more diagnostics" note
    under a cut list counts what the hidden summaries stand for.
    """
    limit = option("display_max_rows") if limit is None else limit
    items = list(diagnostics)
    if per_code is not None and all(isinstance(d, Diagnostic) for d in items):
        items = cap_per_code(items, per_code, hint=VIEW_HINT.format(n=per_code))
    ordered_items = ordered(items)
    if not ordered_items:
        return '<div class="toskit-empty">no diagnostics</div>'
    rows: list[str] = []
    size = 0
    for d in ordered_items[:limit]:
        row = diagnostic_html(d, lines)
        if budget is not None and size + len(row) > budget:
            break
        rows.append(row)
        size += len(row)
    hidden = sum(_stands_for(d) for d in ordered_items[len(rows) :])
    body = "".join(rows)
    return f'<div class="toskit-diags">{body}</div>{more_note(hidden, "more diagnostics")}'


def diagnostics_html(diagnostics: Sequence[Any]) -> str:
    """The full view of a list of diagnostics."""
    diags = list(diagnostics)
    body = header(
        "diagnostics", f"{sum(map(_stands_for, diags)):,} found", summary_badges(diags)
    ) + diagnostics_block(diags)
    # The plain-text fallback is cut at display_max_fallback_chars: stop
    # rendering diagnostics once past it (20,000 of them are not all joined).
    room = option("display_max_fallback_chars")
    texts: list[str] = []
    for d in ordered(diags):
        if room < 0:
            break
        texts.append(str(d))
        room -= len(texts[-1]) + 1
    fallback = "\n".join(texts) or "no diagnostics"
    return fragment(body, fallback, "diagnostics")


def single_diagnostic_html(d: Any) -> str:
    """The view of one diagnostic."""
    return fragment(diagnostic_html(d), str(d), "diagnostics")
