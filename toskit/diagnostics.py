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

The path is structured (``parts``) and its string derived from it:

>>> d = Diagnostic("error", "type-mismatch", "expected integer",
...                ("node_templates", "db", "ports", 1))
>>> d.path, d.parts
('node_templates.db.ports[1]', ('node_templates', 'db', 'ports', 1))
>>> did_you_mean("prot", ["port", "host"])
"did you mean 'port'?"
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable, Iterator

from toskit.records import asdict, field, record, replace

__all__ = [
    "Diagnostic",
    "Fix",
    "Related",
    "Subject",
    "DiagnosticList",
    "MAX_PER_CODE",
    "SEVERITIES",
    "abbreviate",
    "cap_per_code",
    "check_max_per_code",
    "count_by_severity",
    "omitted_per_code",
    "did_you_mean",
    "closest",
    "suggest",
    "Suggestion",
    "format_path",
    "has_errors",
    "sort_diagnostics",
]

SEVERITIES = ("error", "warning", "info")
_SEVERITY_RANK = {name: rank for rank, name in enumerate(SEVERITIES)}


@record(frozen=True)
class Subject:
    """What a finding is about, structured (not parsed back from a message).

    ``kind`` is the entity kind (``"node_template"``, ``"node_type"``,
    ``"data_type"``, ``"input"``, ``"output"``, ``"relationship_template"``,
    ``"group"``, ``"policy"``, ``"workflow"``, ``"import"``, ``"document"``,
    ``"role"``, ``"schema_type"``, ``"release"``, ``"condition"`` (the
    one :func:`toskit.conditions.evaluate` was given) …), ``name`` the entity's
    name (``None`` for the document itself), and ``path`` the property,
    attribute, requirement or field path *inside* the entity as a tuple
    (``("connection", "auth", "pasword")``; ``()`` for the entity itself).

    ``section`` says which part of the entity ``path`` is in: ``None`` for
    its properties (``path`` is then a property path, as above: the common
    case needs no section) or the entity itself; otherwise the keyname the
    path is under (``"requirements"``, ``"capabilities"``, ``"attributes"``,
    ``"interfaces"``, ``"artifacts"``, ``"type"``, ``"metadata"`` …), so that
    a requirement called ``host`` is never taken for a property ``host``.
    A capability's property ``num_cpus`` is ``Subject("node_template", "web",
    ("host", "properties", "num_cpus"), section="capabilities")``.

    >>> Subject("node_template", "db", ("connection", "port")).to_dict()
    {'kind': 'node_template', 'name': 'db', 'path': ['connection', 'port'], 'section': None}
    """

    kind: str
    name: str | None = None
    path: tuple[Hashable, ...] = ()
    section: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", tuple(self.path))

    @property
    def is_property(self) -> bool:
        """Whether ``path`` is a property path of the entity (non-empty, no section)."""
        return self.section is None and bool(self.path)

    def to_dict(self) -> dict:
        """A JSON-ready dict (``path`` as a list)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "path": [_json_key(p) for p in self.path],
            "section": self.section,
        }


def _json_key(part: object) -> object:
    return part if isinstance(part, (str, int)) and not isinstance(part, bool) else str(part)


@record(frozen=True)
class Related:
    """Another place that a finding is about: a definition, a default, a candidate, the other side.

    Lines and columns are 1-based; ``end_column`` is exclusive (the column
    just after the span), as in LSP and SARIF.
    """

    label: str
    file: str | None
    line: int | None
    column: int | None
    end_line: int | None = None
    end_column: int | None = None

    def to_dict(self) -> dict:
        """A JSON-ready dict: every field, in order (all are plain scalars)."""
        return asdict(self)


@record(frozen=True)
class Fix:
    """A machine-applicable edit: replace the text of one range with ``replacement``.

    Only findings whose fix is unambiguous carry one (a did-you-mean with a
    single best candidate; never a tie). Lines and columns are 1-based and
    ``end_column`` is exclusive, so an insertion has ``(line, column) ==
    (end_line, end_column)``.
    """

    title: str
    replacement: str
    file: str | None
    line: int
    column: int
    end_line: int
    end_column: int

    def to_dict(self) -> dict:
        """A JSON-ready dict: every field, in order (all are plain scalars)."""
        return asdict(self)


@record(frozen=True)
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

    ``omitted`` is 0 for a diagnostic found in a document. A *summary*
    (made by :func:`cap_per_code` when one code is reported too many times)
    has ``omitted`` > 0: it stands for that many diagnostics of its code and
    severity that are not listed, and is placed where the first of them was.

    Structured findings (issue #28) add, none of them part of equality:

    * ``end_line``/``end_column``: the end of the offending span (1-based,
      ``end_column`` exclusive, as LSP and SARIF count), ``None`` when only
      the start is known;
    * ``subject``: a :class:`Subject`, what the finding is about;
    * ``related``: other locations (:class:`Related`), each with a label;
    * ``fixes``: machine-applicable edits (:class:`Fix`), only when the fix
      is unambiguous.
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
    omitted: int = field(default=0, repr=False)
    end_line: int | None = field(default=None, compare=False, repr=False)
    end_column: int | None = field(default=None, compare=False, repr=False)
    subject: Subject | None = field(default=None, compare=False, repr=False)
    related: tuple[Related, ...] = field(default=(), compare=False, repr=False)
    fixes: tuple[Fix, ...] = field(default=(), compare=False, repr=False)

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
        if not isinstance(self.related, tuple):
            object.__setattr__(self, "related", tuple(self.related))
        if not isinstance(self.fixes, tuple):
            object.__setattr__(self, "fixes", tuple(self.fixes))

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    @property
    def stands_for(self) -> int:
        """How many diagnostics this one counts as: 1, or ``omitted`` for a summary."""
        return self.omitted or 1

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
        """The first line of ``str(self)``: location, severity, code, message.

        Each text is shortened by :func:`abbreviate`: a message naming a
        1 MB key is not printed whole.
        """
        return (
            f"{abbreviate(self.location)}: {self.severity}[{abbreviate(self.code)}]: "
            f"{abbreviate(self.message)}"
        )

    def with_location(
        self,
        file: str | None,
        line: int | None,
        column: int | None,
        source_line: str | None = None,
    ) -> Diagnostic:
        """A copy placed at another location."""
        return replace(self, file=file, line=line, column=column, source_line=source_line)

    def to_dict(self) -> dict:
        """A JSON-ready dict of every field (texts as they are; outputs abbreviate).

        Keys: ``severity code message path file line column end_line
        end_column hint subject related fixes`` and, for a summary,
        ``omitted``.
        """
        out: dict = {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "path": self.path,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "hint": self.hint,
            "subject": None if self.subject is None else self.subject.to_dict(),
            "related": [r.to_dict() for r in self.related],
            "fixes": [f.to_dict() for f in self.fixes],
        }
        if self.omitted:
            out["omitted"] = self.omitted
        return out

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)

    def __str__(self) -> str:
        lines = [self.headline()]
        if self.hint:
            lines.append(f"  hint: {abbreviate(self.hint)}")
        if self.source_line is not None and self.line is not None:
            gutter = f"{self.line:>5} | "
            text, column = source_window(self.source_line.rstrip("\n"), self.column)
            lines.append(gutter + text)
            if column is not None:
                # Keep tabs so the caret lines up under tab-indented text.
                lead = "".join(c if c == "\t" else " " for c in text[: column - 1])
                lines.append(
                    " " * (len(gutter) - 2) + "| " + lead + "^" * self._caret_width(text, column)
                )
        return "\n".join(lines)

    def _caret_width(self, shown: str, column: int) -> int:
        """How many carets: the span's width on its first line (at least one).

        A span that goes on to later lines is underlined to the end of the
        shown line; ``shown`` is the (possibly cut) line, ``column`` the
        start in it.
        """
        if self.end_column is None or self.column is None or self.end_line is None:
            return 1
        room = max(1, len(shown) - (column - 1))
        if self.end_line != self.line:
            return room
        return max(1, min(self.end_column - self.column, room))


#: Characters of a source line shown around the column (long lines are cut, #19).
SOURCE_WINDOW = 120

#: Characters of one text of a diagnostic (message, path, hint…) that outputs
#: show: ``str()``, ``toskit check`` (text and JSON), the HTML views (#19).
MAX_TEXT = 1_000


def abbreviate(text: str, limit: int = MAX_TEXT) -> str:
    """``text``, or its first and last ``limit // 2`` characters around a count of the rest.

    >>> abbreviate("k" * 5000, 10)
    'kkkkk…[4,990 characters not shown]…kkkkk'
    """
    if len(text) <= limit:
        return text
    half = limit // 2
    hidden = len(text) - 2 * half
    return f"{text[:half]}…[{hidden:,} characters not shown]…{text[len(text) - half :]}"


def source_window(
    text: str, column: int | None, width: int = SOURCE_WINDOW
) -> tuple[str, int | None]:
    """At most ``width`` characters of a source line around ``column``, and the column in them.

    A one-line 100 kB template must not be echoed whole under each of its
    diagnostics: a cut end is marked ``…``.
    """
    if len(text) <= width:
        return text, column
    center = (column or 1) - 1
    start = max(0, min(center - width // 2, len(text) - width))
    end = start + width
    shown = ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")
    return shown, None if column is None else column - start + (1 if start else 0)


#: Diagnostics of one code that a loaded template lists (then one summary
#: per code and severity); ``toskit.load(..., max_per_code=N)`` changes it,
#: ``None`` lists every one (#19: 20,000 copies of one mistake).
MAX_PER_CODE = 100


def check_max_per_code(value: object) -> int | None:
    """``value`` if it is a positive ``int`` or ``None``; else a ``ToskitError``."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    from toskit.errors import ToskitError

    raise ToskitError(f"max_per_code must be a positive integer or None (no cap), not {value!r}")


#: How a summary tells people to see every diagnostic.
SEE_ALL_HINT = (
    "toskit.load(..., max_per_code=None) or `toskit check --max-per-code 0` lists them all"
)


def cap_per_code(
    diagnostics: Iterable[Diagnostic], limit: int | None = MAX_PER_CODE, *, hint: str = SEE_ALL_HINT
) -> list[Diagnostic]:
    """The first ``limit`` diagnostics of each code in each file, in their
    order, and a summary for the rest.

    The cap is per file (as issue #19 asks: a mistake repeated in one file
    is one story; the same code in another file is another). The rest of one
    code in one file are replaced by one summary diagnostic per severity
    among them (one per code in practice: a code has one severity),
    placed where the first of them was, so a list in source order stays in
    source order: ``"19,900 more 'unknown-property' diagnostics not shown"``
    with ``omitted=19900`` and the hidden ones' severity, so that counts
    (:func:`count_by_severity`) and :func:`has_errors` stay what they were.

    Summaries already in the list (``omitted`` > 0) are not counted against
    the limit; when a code is capped again their counts are folded into the
    new summary, so capping twice gives what capping once with the smaller
    limit gives. ``limit=None`` returns the list unchanged (as a new list).
    """
    items = list(diagnostics)
    if limit is None:
        return items
    regular: dict[tuple[str | None, str], int] = {}
    for d in items:
        if not d.omitted:
            key = (d.file, d.code)
            regular[key] = regular.get(key, 0) + 1
    capped = {key for key, n in regular.items() if n > limit}
    if not capped:
        return items
    out: list[Diagnostic | None] = []
    seen: dict[tuple[str | None, str], int] = {}
    # (file, code, severity) -> [index of its summary in ``out``, count, first hidden]
    hidden: dict[tuple[str | None, str, str], list] = {}
    for d in items:
        key = (d.file, d.code)
        if key not in capped:
            out.append(d)
            continue
        if not d.omitted:
            n = seen.get(key, 0)
            seen[key] = n + 1
            if n < limit:
                out.append(d)
                continue
        entry = hidden.get((d.file, d.code, d.severity))
        if entry is None:
            hidden[(d.file, d.code, d.severity)] = [len(out), d.stands_for, d]
            out.append(None)  # the summary goes where the first hidden one was
        else:
            entry[1] += d.stands_for
    for (_file, code, severity), (index, count, first) in hidden.items():
        noun = "diagnostic" if count == 1 else "diagnostics"
        out[index] = Diagnostic(
            severity,
            code,
            f"{count:,} more '{code}' {noun} not shown "
            f"(only the first {limit:,} of each code in a file are listed)",
            file=first.file,
            line=first.line,
            column=first.column,
            hint=hint,
            omitted=count,
        )
    return [d for d in out if d is not None]


def omitted_per_code(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    """Code -> how many of its diagnostics the summaries in ``diagnostics`` stand for."""
    out: dict[str, int] = {}
    for d in diagnostics:
        if d.omitted:
            out[d.code] = out.get(d.code, 0) + d.omitted
    return out


def count_by_severity(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    """Diagnostics per severity (every severity a key), a summary counting as what it hides."""
    counts = dict.fromkeys(SEVERITIES, 0)
    for d in diagnostics:
        counts[d.severity] = counts.get(d.severity, 0) + d.stands_for
    return counts


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

    Work per hint is bounded (#19): the candidates are indexed once (and the
    index reused while the same candidates come back), a word longer than
    :data:`HINT_MAX_WORD` gets no spelling hint, and above
    :data:`HINT_MAX_COMPARED` candidates only those with the word's first
    letter and a length within 3 of it are compared, at most that many.
    """
    if not isinstance(word, str) or not word:
        return None
    # Imported here, not with the module: only a finding's hint needs it, and
    # a clean `toskit check` should not pay its import at start-up (#31).
    import difflib

    # A tuple (duplicates are harmless to the index) is the cache key.
    index = _hint_index(tuple(candidates))
    for c in index.lower.get(word.lower(), ()):
        if c != word:
            return c
    tail = word.replace(":", ".").split(".")[-1]
    if tail:
        tail_matches = [c for c in index.tails.get(tail, ())[:HINT_MAX_COMPARED] if c != word]
        if tail_matches:
            if len(word) > HINT_MAX_WORD:
                return tail_matches[0]
            best = difflib.get_close_matches(word, tail_matches, n=1, cutoff=0.0)
            return best[0] if best else tail_matches[0]
    if len(word) > HINT_MAX_WORD:
        return None
    if len(index.names) <= _SMALL_POOL:
        pool = index.names
    else:
        # One edit away (a letter dropped, added or changed: the usual typo)
        # is found by lookups alone; only a farther miss pays for ``near``.
        pool = index.one_edit(word) or index.near(word)
    best = difflib.get_close_matches(word, [c for c in pool if c != word], n=1, cutoff=0.6)
    return best[0] if best else None


# Up to this many candidates, every one is compared by spelling (as always);
# above it, :meth:`_HintIndex.near` picks a few.
_SMALL_POOL = 60
_NEAR = 12


#: Longest word that gets a spelling hint (difflib is quadratic in length).
HINT_MAX_WORD = 200
#: Most candidates compared by spelling for one hint.
HINT_MAX_COMPARED = 300
#: Most entries of a candidate set's one-edit index (about 10 per name);
#: names past it are still found by :meth:`_HintIndex.near`.
HINT_MAX_DELETES = 1_000_000


class _HintIndex:
    """Candidates of :func:`closest`, indexed by lower case, tail, first letter and length."""

    def __init__(self, names: tuple) -> None:
        self.names = [c for c in names if isinstance(c, str)]
        self.lower: dict[str, list[str]] = {}
        self.tails: dict[str, list[str]] = {}
        self.buckets: dict[tuple[str, int], list[str]] = {}
        self.deletes: dict[str, list[str]] | None = None  # built by one_edit
        for c in self.names:
            self.lower.setdefault(c.lower(), []).append(c)
            self.tails.setdefault(c.replace(":", ".").split(".")[-1], []).append(c)
            if c:
                self.buckets.setdefault((c[0].lower(), len(c)), []).append(c)

    def near(self, word: str) -> list[str]:
        """A few candidates of about the word's shape, for the spelling comparison.

        Up to :data:`HINT_MAX_COMPARED` with the word's first letter and a
        length within 3, ranked by shared letter pairs (a set intersection,
        cheap), of which the best ``_NEAR`` are returned.
        """
        out: list[str] = []
        first = word[0].lower()
        for delta in (0, -1, 1, -2, 2, -3, 3):
            out.extend(self.buckets.get((first, len(word) + delta), ()))
            if len(out) >= HINT_MAX_COMPARED:
                break
        out = out[:HINT_MAX_COMPARED]
        if len(out) <= _SMALL_POOL:
            return out
        pairs = _pairs(word)
        out.sort(key=lambda c: -len(pairs & _pairs(c)))
        return out[:_NEAR]

    def one_edit(self, word: str) -> list[str]:
        """Candidates one edit from ``word`` (case aside), by dictionary lookups only.

        A symmetric-deletion index (as SymSpell): every name is filed under
        itself and under each way of dropping one of its letters, lower
        case. ``word`` and a name one insertion, deletion or substitution
        apart always share one of those keys, so the hint costs
        ``len(word)`` lookups whatever the number of names. The index is
        built on first use, then kept with the candidate set.
        """
        if self.deletes is None:
            self.deletes = _deletion_index(self.names)
        found: dict[str, None] = {}
        for key in _one_deletion(word.lower()):
            for name in self.deletes.get(key, ()):
                found[name] = None
                if len(found) >= _NEAR:
                    return list(found)
        return list(found)


def _one_deletion(text: str) -> Iterator[str]:
    """``text`` itself, then ``text`` with each one of its letters dropped."""
    yield text
    for i in range(len(text)):
        yield text[:i] + text[i + 1 :]


def _deletion_index(names: list[str]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    entries = 0
    for name in names:
        if len(name) > HINT_MAX_WORD:
            continue
        entries += len(name) + 1
        if entries > HINT_MAX_DELETES:
            break
        for key in dict.fromkeys(_one_deletion(name.lower())):
            index.setdefault(key, []).append(name)
    return index


@functools.lru_cache(maxsize=65536)
def _pairs(text: str) -> frozenset[str]:
    lowered = text.lower()
    return frozenset(lowered[i : i + 2] for i in range(len(lowered) - 1))


_HINT_CACHE: dict[tuple, _HintIndex] = {}


def _hint_index(names: tuple) -> _HintIndex:
    index = _HINT_CACHE.get(names)
    if index is None:
        if len(_HINT_CACHE) >= 8:  # a few recent candidate sets (types, properties, ...)
            _HINT_CACHE.pop(next(iter(_HINT_CACHE)))
        index = _HINT_CACHE[names] = _HintIndex(names)
    return index


@record(frozen=True)
class Suggestion:
    """What a misspelt name most likely meant (:func:`suggest`).

    ``candidates`` holds one name, or several that are equally close (a
    tie, in the order they were given). Only a single candidate is a safe
    rename: :attr:`best` is ``None`` for a tie, and a finding then carries
    no fix; its :meth:`hint` names every tied candidate and says why.

    >>> print(suggest("cache_host", ["lb_host", "db_host", "web_host"]).hint())
    ... # doctest: +NORMALIZE_WHITESPACE
    did you mean 'lb_host', 'db_host' or 'web_host'?
    ('lb_host', 'db_host' and 'web_host' are equally close)
    >>> suggest("prot", ["port", "host"]).best
    'port'
    """

    candidates: tuple[str, ...]

    @property
    def best(self) -> str | None:
        """The one candidate, or ``None`` for a tie."""
        return self.candidates[0] if len(self.candidates) == 1 else None

    @property
    def is_tie(self) -> bool:
        """Whether several candidates are equally close."""
        return len(self.candidates) > 1

    def hint(self) -> str:
        """``did you mean 'x'?``, or for a tie every candidate and why none is picked."""
        if not self.is_tie:
            return f"did you mean '{self.candidates[0]}'?"
        shown = [f"'{c}'" for c in self.candidates[:TIE_MAX_LISTED]]
        more = len(self.candidates) - len(shown)
        if more:
            names = ", ".join(shown) + f" or {more} more"
            both = ", ".join(shown) + f" and {more} more"
        else:
            names = ", ".join(shown[:-1]) + f" or {shown[-1]}"
            both = ", ".join(shown[:-1]) + f" and {shown[-1]}"
        return f"did you mean {names}? ({both} are equally close)"


#: Longest word whose candidates are compared by edit distance for ties
#: (longer words keep :func:`closest`'s one answer).
TIE_MAX_WORD = 64
#: Most tied candidates a hint lists by name.
TIE_MAX_LISTED = 6


def suggest(word: str, candidates: Iterable[str]) -> Suggestion | None:
    """The candidate(s) a person most likely meant by ``word``, ties kept (issue #28).

    :func:`closest` finds a match as before (case, dotted tail, spelling);
    then every candidate of the same stage that is exactly as many edits
    away (insertions, deletions, substitutions and swaps of neighbours,
    case aside) as that match is tied with it: ``cache_host`` is five edits from
    each of ``lb_host``, ``db_host`` and ``web_host``, so no one of them is
    suggested alone. ``None`` when nothing is close.
    """
    names = tuple(candidates)
    try:
        return _suggest(word, names)
    except TypeError:  # an unhashable candidate: no memo
        return _suggest.__wrapped__(word, names)


@functools.lru_cache(maxsize=256)
def _suggest(word: str, names: tuple) -> Suggestion | None:
    """:func:`suggest`, remembered: a producer's hint and the factory's fix
    ask about the same name and candidates, and one mistake repeated
    20,000 times is one question."""
    match = closest(word, names)
    if match is None:
        return None
    if len(word) > TIE_MAX_WORD:
        return Suggestion((match,))
    index = _hint_index(names)
    lowered = word.lower()
    if index.lower.get(lowered):
        pool = [c for c in index.lower[lowered] if c != word]
    else:
        tail = word.replace(":", ".").split(".")[-1]
        tail_pool = (
            [c for c in index.tails.get(tail, ())[:HINT_MAX_COMPARED] if c != word] if tail else []
        )
        if tail_pool:
            pool = tail_pool
        elif len(index.names) <= _SMALL_POOL:
            pool = [c for c in index.names if c != word]
        else:
            pool = [c for c in (index.one_edit(word) or index.near(word)) if c != word]
    # Only exactly as many edits ties (a candidate fewer edits away that the
    # match's own ranking passed over does not: the match stands).
    bound = _edits(lowered, match.lower(), len(word) + len(match))
    tied = [
        c
        for c in dict.fromkeys(pool)
        if c == match
        or (abs(len(c) - len(word)) <= bound and _edits(lowered, c.lower(), bound) == bound)
    ]
    return Suggestion(tuple(tied) if len(tied) > 1 else (match,))


@functools.lru_cache(maxsize=4096)
def _edits(a: str, b: str, bound: int) -> int:
    """Optimal-string-alignment distance of ``a`` and ``b`` (``bound + 1``
    once it exceeds ``bound``)."""
    if a == b:
        return 0
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
        if min(current) > bound:
            return bound + 1
        previous2, previous = previous, current
    return min(previous[-1], bound + 1)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A hint ``did you mean 'x'?`` for the closest candidate, or ``None``.

    Equally close candidates are all named (:meth:`Suggestion.hint`): the
    hint never picks one of a tie silently.
    """
    found = suggest(word, candidates)
    return found.hint() if found is not None else None


def format_path(parts: Iterable[object]) -> str:
    """Join path parts the way toskit writes TOSCA paths (``Diagnostic.path``).

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
