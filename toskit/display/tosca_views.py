"""Views of TOSCA results: service template, type, property definition, node
template and merged property table.

The functions are duck-typed over the public objects of ``toskit.tosca``,
so they import nothing from it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence, Sized
from typing import Any

from toskit.diagnostics import abbreviate
from toskit.display.diagnostics_view import (
    diagnostics_block,
    document_lines,
    ordered,
    summary_badges,
)
from toskit.display.explain_view import stack_cell
from toskit.display.html import (
    badge,
    chip,
    details,
    esc,
    fallback_repr,
    fragment,
    header,
    more_note,
    rows_note,
    section_link,
    table,
    text_value,
    truncate,
)
from toskit.display.links import file_link, location_link
from toskit.display.options import get as option
from toskit.display.typetree import (
    TypeNode,
    build_forest,
    filter_forest,
    is_normative,
    kinds_in_order,
    template_types,
    user_forest,
)
from toskit.display.words import count
from toskit.sentinels import NO_DEFAULT

__all__ = [
    "copyable_path",
    "fragment_type_links",
    "requirement_problems",
    "template_description",
    "node_diagnostics",
    "node_template_body",
    "node_template_html",
    "property_definition_html",
    "property_table_body",
    "property_table_html",
    "service_template_body",
    "service_template_html",
    "type_anchor",
    "type_body",
    "type_html",
    "type_tree_html",
]

# ---------------------------------------------------------------- helpers


def _field(row: Any, name: str, default: Any = None) -> Any:
    """A row's field, whether the row is an object or a mapping."""
    if isinstance(row, Mapping):
        return row.get(name, default)
    return getattr(row, name, default)


def _type_name(t: Any) -> str:
    if t is None:
        return "any"
    return str(getattr(t, "name", t))


def _is_no_default(value: Any) -> bool:
    return value is NO_DEFAULT


def _kind_title(kind: str) -> str:
    return f"{kind} type" if kind else "type"


# ---------------------------------------------------------------- provenance


class SourcePalette:
    """One CSS class per source layer, assigned in order of first appearance.

    ``template`` and ``input: …`` have fixed colours; every other distinct
    source (``default: <type>``, a merge layer's label) gets the next of ten
    palette colours (repeating only from the eleventh); an empty source is grey. The cell always
    shows the exact source string; the colour is only a class.
    """

    _SIZE = 10

    def __init__(self) -> None:
        self._classes: dict[str, str] = {}
        self._pills: dict[str, str] = {}  # rendered once per source
        self._next = 0

    def css_class(self, source: Any) -> str:
        text = str(source)
        cls = self._classes.get(text)
        if cls is None:
            if text == "template":
                cls = "toskit-src-template"
            elif text.startswith("input:"):
                cls = "toskit-src-input"
            elif text:
                # `default: <type>` layers, and any other label (a schema
                # merge's own layer names), take the palette in turn.
                cls = f"toskit-src-{self._next % self._SIZE}"
                self._next += 1
            else:
                cls = "toskit-src-other"
            self._classes[text] = cls
        return cls

    def pill(self, source: Any) -> str:
        text = str(source)
        html = self._pills.get(text)
        if html is None:
            html = f'<span class="toskit-src {self.css_class(text)}">{esc(text)}</span>'
            self._pills[text] = html
        return html

    def legend(self, sources: Iterable[Any] | None = None) -> str:
        """Swatches for ``sources`` (default: every source seen so far)."""
        names = (
            list(dict.fromkeys(str(s) for s in sources))
            if sources is not None
            else list(self._classes)
        )
        if not names:
            return ""
        pills = "".join(self.pill(text) for text in names)
        return f'<div class="toskit-legend"><span>sources:</span>{pills}</div>'


def _table_rows(prop_table: Any) -> list[Any]:
    rows = getattr(prop_table, "rows", None)
    if rows is not None:
        return list(rows)
    to_frame = getattr(prop_table, "to_frame", None)
    if callable(to_frame):
        return to_frame().to_dict("records")
    return list(prop_table)


def _overridden_entries(row: Any) -> list[tuple[Any, Any]]:
    """(value, source) pairs a row's value overrode, nearest layer first.

    ``PropertyRow.overridden`` lists them lowest layer first; under the
    winning value they read from the one it replaced downwards.
    """
    entries = _field(row, "overridden", None)
    if not entries or isinstance(entries, bool):
        return []
    out = []
    for entry in entries:
        if isinstance(entry, Mapping):
            out.append((entry.get("value"), entry.get("source")))
        elif isinstance(entry, tuple) and len(entry) == 2:
            out.append(entry)
        else:
            out.append((getattr(entry, "value", entry), getattr(entry, "source", "")))
    return out[::-1]


_STATUS_LABEL = {
    "valid": "ok",
    "invalid": "invalid",
    "warning": "warning",
    "missing": "missing",
    "unknown": "unknown",
}
_STATUS_BADGE = {"invalid": "error", "missing": "error", "unknown": "error", "warning": "warning"}


def _row_states(prop_table: Any, rows: list[Any]) -> list[Any]:
    """Each row's state (valid, invalid, missing, unknown …): the table's
    ``states``, computed from the findings' subjects when the table was
    built (:mod:`toskit.tosca.model.validity`); a table that did not come from a
    loaded template gets ``unchecked`` rows."""
    states = getattr(prop_table, "states", None)
    if isinstance(states, list):
        return states
    return [_Unchecked(str(_field(r, "path", "")), r) for r in rows]


class _Unchecked:
    """The state of a row whose findings are not known."""

    status = "unchecked"
    problem = None
    location = None
    suggestion = None
    type = None
    diagnostics = ()

    def __init__(self, path: str, row: Any) -> None:
        self.path = path
        self.row = row


def _status_cell(state: Any) -> str:
    status = state.status
    if status == "valid":
        return '<span class="toskit-status-ok" title="no problem found">ok</span>'
    title = f' title="{esc(state.problem)}"' if state.problem else ""
    variant = _STATUS_BADGE.get(status, "info")
    return (
        f'<span class="toskit-badge toskit-badge-{variant} toskit-badge-small"{title}>'
        f"{esc(_STATUS_LABEL.get(status, status))}</span>"
    )


def _problem_row(state: Any, lines: Any, columns: int) -> tuple[str, list[Any]]:
    """The expandable line under a row with a problem: its message, and
    opened, each diagnostic with ``file:line`` and its source line."""
    from toskit.display.diagnostics_view import diagnostic_html

    # The location is a link (JupyterLab opens the file at the line), so it
    # sits beside the <details>, not in its <summary> (no control inside a
    # control: axe's nested-interactive).
    where = (
        f'<span class="toskit-diag-loc">{location_link(state.location)}</span>'
        if state.location
        else ""
    )
    summary = f'<span class="toskit-problem-msg">{esc(state.problem or "")}</span>'
    inner = "".join(diagnostic_html(d, lines) for d in state.diagnostics)
    cell = (
        f'<div class="toskit-problem-line"><details class="toskit-problem"><summary>{summary}'
        f'</summary><div class="toskit-diags">{inner}</div></details>{where}</div>'
    )
    return (f"toskit-problem-row toskit-row-{state.status}", [("", cell, f'colspan="{columns}"')])


def property_table_body(
    prop_table: Any,
    *,
    show_overridden: bool | None = None,
    palette: SourcePalette | None = None,
    lines: Any = None,
    type_link: Any = None,
    stacks: bool = False,
) -> str:
    """The merged property table with a provenance legend (no fragment).

    With ``stacks``, each value row is followed by an expandable line
    (``<details>``) with the row's layer stack, each layer with its
    ``file:line`` (issue #32; the property explorer turns it on).

    Every row carries its state (``ok``, ``invalid``, ``warning``,
    ``missing``, ``unknown``; :mod:`toskit.tosca.model.validity`): a row with a
    problem has the message on hover and, under it, an expandable line with
    the diagnostics (``file:line`` and the source line, read through
    ``lines``); a required property without value gets a row of its own and
    an unknown one its did-you-mean.

    Overridden lower-layer values are shown struck through under the value
    that replaced them when the table was built with ``show_overridden=True``
    (or when ``show_overridden`` is passed here). Views that show several
    tables pass one ``palette`` so a source keeps its colour across them.
    ``type_link(name)`` renders a type name (default: escaped text).
    """
    if show_overridden is None:
        show_overridden = bool(getattr(prop_table, "show_overridden", False))
    rows = _table_rows(prop_table)
    states = _row_states(prop_table, rows)
    checked = any(s.status != "unchecked" for s in states)
    columns = (
        ("path", "value", "type", "source", "status")
        if checked
        else ("path", "value", "type", "source")
    )
    link = type_link or (lambda name: esc(name))
    palette = palette if palette is not None else SourcePalette()
    used: list[Any] = []
    limit = option("display_max_rows")
    shown: list[Any] = []
    main_rows = 0
    rendered = 0  # value rows drawn (overridden ones count, problem lines do not)
    for state in states:
        if rendered >= limit:
            break
        main_rows += 1
        rendered += 1
        row = state.row
        status_cls = f" toskit-row-{state.status}" if checked and state.status != "valid" else ""
        path_html = copyable_path(state.path)
        if state.status == "unknown" and state.suggestion:
            path_html += (
                f' <span class="toskit-suggest">did you mean <b>{esc(state.suggestion)}</b>?</span>'
            )
        if row is None:
            type_name = state.type or ""
            cells = [
                ("toskit-path", path_html),
                ("toskit-value", '<span class="toskit-faint">no value</span>'),
                ("toskit-type", link(type_name) if type_name else ""),
                ("toskit-source", ""),
            ]
            if checked:
                cells.append(("toskit-status", _status_cell(state)))
            shown.append((status_cls.strip(), cells))
            shown.append(_problem_row(state, lines, len(columns)))
            continue
        row_is_overridden = _field(row, "overridden", None) is True
        used.append(_field(row, "source", ""))
        pill = palette.pill(_field(row, "source", ""))
        type_name = _field(row, "type", "") or ""
        cells = [
            ("toskit-path", path_html),
            ("toskit-value", esc(text_value(_field(row, "value")))),
            ("toskit-type", link(type_name) if type_name else ""),
            ("toskit-source", pill),
        ]
        if checked:
            cells.append(("toskit-status", _status_cell(state)))
        shown.append(
            ((("toskit-overridden" if row_is_overridden else "") + status_cls).strip(), cells)
        )
        if checked and state.status != "valid":
            shown.append(_problem_row(state, lines, len(columns)))
        if stacks:
            stack = stack_cell(row)
            if stack:
                shown.append(("toskit-stack-row", [("", stack, f'colspan="{len(columns)}"')]))
        if show_overridden and not row_is_overridden:
            for value, src in _overridden_entries(row):
                if rendered >= limit:
                    break
                rendered += 1
                used.append(src)
                filler = [("toskit-status", "")] if checked else []
                shown.append(
                    (
                        "toskit-overridden",
                        [
                            ("toskit-path", esc(state.path)),
                            ("toskit-value", esc(text_value(value))),
                            ("toskit-type", ""),
                            ("toskit-source", palette.pill(src)),
                            *filler,
                        ],
                    )
                )
    body = table(columns, shown, limit=max(len(shown), 1), empty="no properties")
    hidden = len(states) - main_rows
    return body + rows_note(hidden, main_rows) + palette.legend(used)


def copyable_path(path: Any) -> str:
    """A row's dotted path that one click selects whole (``user-select:
    all``), ready to copy for ``node.explain(path)`` or a search: a copy
    button needs a script, which a stored or untrusted notebook drops."""
    return (
        f'<span class="toskit-copy" title="click to select the whole path, then copy it">'
        f"{esc(path)}</span>"
    )


def property_table_html(prop_table: Any) -> str:
    """The view of a ``PropertyTable``."""
    rows = _table_rows(prop_table)
    title = next((t for a in ("owner", "name", "node") if (t := getattr(prop_table, a, None))), "")
    body = header("property table", _type_name(title) if title else count(len(rows), "row"))
    body += property_table_body(prop_table)
    return fragment(body, fallback_repr(prop_table), "property-table")


# ---------------------------------------------------------------- types


#: Nearest ancestors a type's breadcrumb names (then "… N more" and the root).
BREADCRUMB_MAX = 8


def _ancestors_shown(t: Any) -> tuple[list[Any], int, Any]:
    """The :data:`BREADCRUMB_MAX` nearest ancestors of ``t`` (nearest first),
    how many more lie between them and the root, and the root (``None``
    when already listed). Walks ``parent`` links, keeping only what is shown:
    a 10,000-deep chain costs no list of 10,000 per type (#37)."""
    if not hasattr(t, "parent"):  # a stand-in without parent links
        every = list(getattr(t, "ancestors", []) or [])
        if len(every) <= BREADCRUMB_MAX + 1:
            return every, 0, None
        return every[:BREADCRUMB_MAX], len(every) - BREADCRUMB_MAX - 1, every[-1]
    near: list[Any] = []
    seen = {id(t)}
    more, last = 0, None
    node = getattr(t, "parent", None)
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        if len(near) < BREADCRUMB_MAX:
            near.append(node)
        else:
            more += 1
            last = node
        node = getattr(node, "parent", None)
    if last is None:
        return near, 0, None
    return near, more - 1, last


def _breadcrumb(t: Any, type_link: Any = None) -> str:
    near, more, root = _ancestors_shown(t)
    link = type_link or (lambda name: esc(name))
    parts = [f"<span>{link(_type_name(a))}</span>" for a in reversed(near)]
    if more:
        parts.insert(0, f'<span class="toskit-faint">… {more:,} more</span>')
    if root is not None:
        parts.insert(0, f"<span>{link(_type_name(root))}</span>")
    parts.append(f'<span class="toskit-crumb-this">{esc(_type_name(t))}</span>')
    sep = '<span class="toskit-crumb-sep">→</span>'
    return f'<div class="toskit-crumbs">{sep.join(parts)}</div>'


def _default_text(defn: Any) -> str:
    default = getattr(defn, "default", None)
    if _is_no_default(default):
        return ""
    return text_value(default)


_PLAIN_SCALAR = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.-/+")


class _Full(Exception):
    """The text of :func:`_flow` reached its budget."""


def _flow_string(value: str, depth: int, limit: int) -> str:
    """A string of :func:`_flow`, cut to ``limit + 1`` characters: plain
    where YAML would read it back the same (and at the top level), else
    quoted."""
    head = value[: limit + 1]
    if depth == 0 or (
        value
        and all(c in _PLAIN_SCALAR for c in head)
        and (len(value) == len(head) or all(c in _PLAIN_SCALAR for c in value))
    ):
        return head
    return json.dumps(head, ensure_ascii=False)


def _flow(value: Any, depth: int = 0) -> str:
    """A value in YAML flow style, as a template writes it
    (``[1, 65535]``, ``$greater_or_equal: [$value, 1]``, ``[a-z]+``).

    Built within ``display_max_value_chars`` (then ``…``): a clause that
    aliases a huge string many times costs what is shown (#37). Nesting
    below 20 levels is ``…``, so the recursion is bounded.
    """
    limit = option("display_max_value_chars")
    out: list[str] = []
    size = 0

    def emit(text: str) -> None:
        nonlocal size
        out.append(text[: limit + 1 - size])
        size += len(out[-1])
        if size > limit:
            raise _Full

    def walk(value: Any, depth: int) -> None:
        if depth > 20:
            emit("…")
        elif isinstance(value, Mapping):
            if depth:
                emit("{")
            for i, (k, v) in enumerate(value.items()):
                if i:
                    emit(", ")
                walk(k, depth + 1)
                emit(": ")
                walk(v, depth + 1)
            if depth:
                emit("}")
        elif isinstance(value, (list, tuple)):
            emit("[")
            for i, v in enumerate(value):
                if i:
                    emit(", ")
                walk(v, depth + 1)
            emit("]")
        elif isinstance(value, str):
            emit(_flow_string(value, depth, limit))
        else:
            emit(text_value(value))

    try:
        walk(value, depth)
    except _Full:
        return truncate("".join(out), limit)
    return "".join(out)


def constraint_texts(defn: Any) -> list[str]:
    """A property definition's constraints (1.x) and validation clause (2.0)
    in their source form: ``in_range [1, 65535]``, ``valid_values [tcp,
    udp]``, ``$greater_or_equal: [$value, 1]``; also those of its entry and
    key schemas (``entry: …``, ``key: …``)."""
    out: list[str] = []

    def add(schema: Any, prefix: str) -> None:
        if schema is None:
            return
        for constraint in getattr(schema, "constraints", ()) or ():
            if isinstance(constraint, Mapping) and len(constraint) == 1:
                ((op, arg),) = constraint.items()
                out.append(f"{prefix}{op} {_flow(arg, 1)}")
            else:
                out.append(prefix + _flow(constraint))
        validation = getattr(schema, "validation", None)
        if validation is not None:
            out.append(prefix + _flow(validation))

    schema = getattr(defn, "schema", None)
    if schema is None:  # a stand-in with the fields on the definition itself
        add(defn, "")
        return out
    add(schema, "")
    add(getattr(schema, "entry_schema", None), "entry: ")
    add(getattr(schema, "key_schema", None), "key: ")
    return out


def _constraints_html(defn: Any) -> str:
    texts = constraint_texts(defn)
    return "<br>".join(f'<span class="toskit-constraint">{esc(truncate(t))}</span>' for t in texts)


def _required_html(defn: Any) -> str:
    """``REQUIRED`` only when the property must be given: a required property
    with a default is supplied by it."""
    required = getattr(defn, "required", True)
    if not required:
        return '<span class="toskit-faint">optional</span>'
    if not _is_no_default(getattr(defn, "default", NO_DEFAULT)):
        return (
            '<span class="toskit-faint" title="required, and the default supplies it">'
            "has a default</span>"
        )
    return badge("required", "info", small=True)


def property_definitions_table(t: Any, *, type_link: Any = None) -> str:
    """Effective property definitions with constraints and "defined in";
    own ones marked (● explained in a note under the table)."""
    props: Mapping[str, Any] = getattr(t, "properties", {}) or {}
    own = set((getattr(t, "own_properties", {}) or {}).keys())
    link = type_link or (lambda name: esc(name))

    def rows() -> Iterable[Any]:
        for name, defn in props.items():
            is_own = name in own
            name_html = esc(name)
            if is_own:
                name_html = (
                    f'<span class="toskit-own">{name_html}</span>'
                    '<span class="toskit-own-mark" title="defined on this type">●</span>'
                )
            type_name = getattr(defn, "type", None)
            defined_in = getattr(defn, "defined_in", "") or ""
            # The description under the name, wrapping in the room there is:
            # as a seventh column it was pushed out of a 900 px output area
            # (issue #35), leaving tall, empty-looking rows.
            description = getattr(defn, "description", "") or ""
            if description:
                name_html += f'<div class="toskit-prop-desc">{esc(description)}</div>'
            yield [
                ("toskit-path", name_html),
                ("toskit-type", link(type_name) if type_name else "any"),
                ("", _required_html(defn)),
                ("toskit-value", esc(_default_text(defn))),
                ("toskit-constraints", _constraints_html(defn)),
                ("toskit-mono", link(defined_in) if defined_in else ""),
            ]

    body = table(
        ("property", "type", "required", "default", "constraints", "defined in"),
        rows(),
        total=len(props),
        empty="no properties",
    )
    if own and props:
        body += (
            '<div class="toskit-legend"><span class="toskit-own-mark">●</span>'
            "<span>defined on this type</span></div>"
        )
    return body


def type_body(t: Any, *, type_link: Any = None) -> str:
    """A type: ancestry breadcrumb, description, effective properties (with
    ``type_link(name)``, type names are links: a report's anchors)."""
    kind = str(getattr(t, "kind", "") or "")
    origin = chip("normative") if is_normative(t) else chip("user-defined")
    parts = [header(_kind_title(kind), _type_name(t), origin), _breadcrumb(t, type_link)]
    parts.append(_type_location(t))
    description = getattr(t, "description", None)
    if description:
        parts.append(f'<div class="toskit-desc">{esc(description)}</div>')
    parts.append(property_definitions_table(t, type_link=type_link))
    return "".join(parts)


def _type_location(t: Any) -> str:
    """Where a user type is written, as a link to that line (normative types,
    defined by the profiles toskit ships, get none)."""
    doc, parts = getattr(t, "doc", None), getattr(t, "parts", None)
    locate = getattr(doc, "locate_key", None)  # the type's name, not its body
    if is_normative(t) or parts is None or not callable(locate):
        return ""
    try:
        found = locate(parts)
    except Exception:  # noqa: BLE001 - a view never fails on a broken document
        return ""
    if found is None:
        return ""
    where = file_link(found.file or getattr(doc, "name", None), found.line, found.column)
    return (
        '<div class="toskit-summary-line"><span class="toskit-muted">written at</span>'
        f"{where}</div>"
    )


def type_anchor(t: Any) -> str:
    """The ``id`` a type's section carries: ``toskit-type-<kind>-<name>``,
    with every character outside ``[A-Za-z0-9._-]`` replaced by ``_``
    (deterministic: the same type gets the same anchor in every view)."""
    kind, name = str(getattr(t, "kind", "") or ""), _type_name(t)
    return "toskit-type-" + "".join(
        c if c.isalnum() or c in "-_." else "_" for c in f"{kind}-{name}"
    )


class TypeLinks:
    """Anchors for a report's types and links to them.

    ``TypeLinks(types)`` gives each type an ``id`` (``toskit-type-<kind>-<name>``,
    made safe and unique); calling it with a type name returns a link to that
    anchor, or the escaped name when the type has none. Names are looked up
    by kind first (``kind`` given), then by name alone.
    """

    def __init__(self, types: Iterable[Any]) -> None:
        self.types: list[Any] = []
        self._ids: dict[tuple[str, str], str] = {}
        self._by_name: dict[str, str] = {}
        used: set[str] = set()
        for t in types:
            kind, name = str(getattr(t, "kind", "") or ""), _type_name(t)
            if (kind, name) in self._ids:
                continue
            base = type_anchor(t)
            anchor, n = base, 1
            while anchor in used:
                n += 1
                anchor = f"{base}-{n}"
            used.add(anchor)
            self._ids[(kind, name)] = anchor
            self._by_name.setdefault(name, anchor)
            self.types.append(t)

    def anchor(self, t: Any) -> str | None:
        return self._ids.get((str(getattr(t, "kind", "") or ""), _type_name(t)))

    def __call__(self, name: Any, kind: str | None = None) -> str:
        text = str(name)
        anchor = self._ids.get((kind, text)) if kind is not None else None
        anchor = anchor or self._by_name.get(text)
        if anchor is None:
            return esc(text)
        return section_link(anchor, esc(text))

    def sections(self) -> str:
        """Every linked type's view, each under its anchor."""
        return "".join(
            f'<div class="toskit-type-def" id="{esc(self.anchor(t))}">'
            f"{type_body(t, type_link=self)}</div>"
            for t in self.types
        )


def report_types(st: Any) -> list[Any]:
    """The types a report describes: user types, their ancestors, and the
    types their properties (and node templates) name, in that order."""
    every = template_types(st)
    by_name: dict[str, Any] = {}
    for t in every:
        by_name.setdefault(_type_name(t), t)
    out: list[Any] = []
    seen: set[int] = set()

    def add(t: Any) -> None:
        if t is not None and id(t) not in seen:
            seen.add(id(t))
            out.append(t)

    user = [t for t in every if not is_normative(t)]
    for t in user:
        add(t)
    # Each chain is walked once, up to the first type already walked (whose
    # ancestors are all in): linear in the types, not in depth times types.
    walked: set[int] = set()
    for t in user:
        if not hasattr(t, "parent"):  # a stand-in with only an ancestors list
            for a in getattr(t, "ancestors", []) or []:
                add(a)
            continue
        walked.add(id(t))
        a = getattr(t, "parent", None)
        while a is not None and id(a) not in walked:
            walked.add(id(a))
            add(a)
            a = getattr(a, "parent", None)
    # The types properties name: every type's own definitions (its ancestors
    # are in the list too), never the effective table of every type, which
    # is quadratic in a derivation chain's depth.
    for t in list(out):
        own = getattr(t, "own_properties", None)
        defs = own if isinstance(own, Mapping) else (getattr(t, "properties", {}) or {})
        for defn in defs.values():
            add(by_name.get(str(getattr(defn, "type", "") or "")))
    for node in (getattr(st, "node_templates", {}) or {}).values():
        if getattr(node, "type_known", True) is not False:
            add(getattr(node, "type", None))
    return out


def type_html(t: Any) -> str:
    """The view of a ``Type``, under its anchor (:func:`type_anchor`): a link
    to the type in another output of the same notebook page (a service
    template view's section, for one) can land here."""
    body = f'<div class="toskit-type-def" id="{esc(type_anchor(t))}">{type_body(t)}</div>'
    return fragment(body, fallback_repr(t), "type")


def property_definition_html(defn: Any) -> str:
    """The view of one ``PropertyDefinition``."""
    required = getattr(defn, "required", True)
    rows = [
        ("type", esc(getattr(defn, "type", None) or "any")),
        ("required", "true" if required else "false"),
        ("default", esc(_default_text(defn)) or '<span class="toskit-faint">none</span>'),
        ("constraints", _constraints_html(defn) or '<span class="toskit-faint">none</span>'),
        ("defined in", esc(getattr(defn, "defined_in", "") or "")),
        ("description", esc(getattr(defn, "description", "") or "")),
    ]
    body = header("property", getattr(defn, "name", "")) + table(
        ("key", "value"), ([("toskit-muted", k), ("toskit-value", v)] for k, v in rows)
    )
    return fragment(body, fallback_repr(defn), "property")


def _tree_items(
    nodes: Sequence[TypeNode],
    depth: int,
    budget: list[int],
    selected: str | None,
    link: Any = None,
) -> str:
    """Nested list items, every branch shown (the views bound what they pass
    in); ``budget`` is the number of entries still allowed. No control sits
    inside another: names are text, or links (``link(name)``) in a report.

    Walked with an explicit stack (#37): ``display_max_depth`` may be set
    as deep as a chain goes without running out of Python frames.
    """
    max_depth = option("display_max_depth")
    root: list[str] = []
    # Frames: [nodes, next index, depth, items of this level, closing html or None at the top]
    stack: list[list[Any]] = [[nodes, 0, depth, root, None]]
    while stack:
        frame = stack[-1]
        level, index, level_depth, items = frame[0], frame[1], frame[2], frame[3]
        if index >= len(level) or budget[0] <= 0:
            if index < len(level):
                rest = sum(n.size() for n in level[index:])
                items.append(f"<li>{more_note(rest, 'more types')}</li>")
            stack.pop()
            if frame[4] is not None:
                opening, parent_items = frame[4]
                parent_items.append(f"{opening}<ul>{''.join(items)}</ul></li>")
            continue
        frame[1] = index + 1
        node = level[index]
        budget[0] -= 1
        cls = "toskit-normative" if node.normative else "toskit-user"
        if node.name == selected:
            cls += " toskit-selected"
        if node.match:
            cls += " toskit-match"
        note = ""
        if node.cycle:
            note = '<span class="toskit-node-note">derivation cycle</span>'
        name = link(node.name, node.kind) if link is not None else esc(node.name)
        name_html = f'<span class="toskit-node-name">{name}</span>{note}'
        if not node.children:
            items.append(f'<li class="{cls}"><div class="toskit-leaf">{name_html}</div></li>')
            continue
        below = node.size() - 1
        count = f'<span class="toskit-node-note">{below} derived</span>'
        if level_depth + 1 >= max_depth:
            more = more_note(below, "more below")
            items.append(
                f'<li class="{cls}"><div class="toskit-leaf">{name_html}{count}</div>{more}</li>'
            )
            continue
        opening = f'<li class="{cls}"><div class="toskit-leaf">{name_html}{count}</div>'
        stack.append([node.children, 0, level_depth + 1, [], (opening, items)])
    return "".join(root)


def type_tree_html(
    types: Iterable[Any], *, selected: str | None = None, filter_text: str = "", link: Any = None
) -> str:
    """The inheritance forest of ``types``, one collapsible group per kind.

    User types come first: each group shows the branches that lead to them
    (normative ancestors dimmed, as context), and the whole forest of the
    kind, normative types included, sits under a closed toggle below. A kind
    with no user type is one closed group. With ``filter_text`` only the
    types whose names (or own property names) contain it, and their
    ancestors, are drawn, open. At most ``display_max_tree_nodes`` entries
    are drawn. ``link(name, kind)`` renders a type name (a report's anchors).
    """
    types = list(types)
    by_kind: dict[str, list[Any]] = {}
    for t in types:
        by_kind.setdefault(str(getattr(t, "kind", "") or ""), []).append(t)
    budget = [option("display_max_tree_nodes")]
    groups: list[str] = []
    for kind in kinds_in_order(by_kind):
        full = build_forest(by_kind[kind])
        user = sum(1 for t in by_kind[kind] if not is_normative(t))
        normative = len(by_kind[kind]) - user
        label = f"{kind} types" if kind else "types"
        note = f"{_count(user, 'yours', 'yours')}, {normative:,} normative"
        summary = f"{esc(label)} <span class='toskit-node-note'>{esc(note)}</span>"
        if filter_text:
            forest = filter_forest(full, filter_text)
            if not forest:
                continue
            inner = f'<ul class="toskit-tree">{_tree_items(forest, 0, budget, selected, link)}</ul>'
            groups.append(details(summary, inner, open_=True))
            continue
        if user and not normative:
            inner = f'<ul class="toskit-tree">{_tree_items(full, 0, budget, selected, link)}</ul>'
            groups.append(details(summary, inner, open_=True))
        elif user:
            mine = (
                '<ul class="toskit-tree">'
                f"{_tree_items(user_forest(full), 0, budget, selected, link)}</ul>"
            )
            everything = details(
                f"all {len(by_kind[kind]):,} {esc(label)}, normative included",
                f'<ul class="toskit-tree">{_tree_items(full, 0, budget, selected, link)}</ul>',
            )
            groups.append(details(summary, mine + everything, open_=True))
        else:
            inner = f'<ul class="toskit-tree">{_tree_items(full, 0, budget, selected, link)}</ul>'
            groups.append(details(summary, inner))
    if not groups:
        empty = "no type matches " + esc(repr(filter_text)) if filter_text else "no types"
        return f'<div class="toskit-empty">{empty}</div>'
    return "".join(groups)


def _template_header(
    st: Any, diags: Sequence[Any], nodes: Sized, inputs: Sized, user_types: Sized, *extra: str
) -> str:
    """The service template's header: title, version, counts, ``extra`` chips, diagnostic badges.

    Shared by the notebook view and the standalone report page (one look).
    """
    return header(
        "service template",
        _template_title(st),
        chip(getattr(st, "version", "") or "no version"),
        chip(_count(len(nodes), "node template", "node templates")),
        chip(_count(len(user_types), "type", "types")),
        chip(_count(len(inputs), "input", "inputs")),
        *extra,
        summary_badges(diags),
    )


def _count(n: int, singular: str, plural: str) -> str:
    """``1 node template``, ``2 node templates``."""
    return f"{n:,} {singular if n == 1 else plural}"


# ---------------------------------------------------------------- node templates


def _node_type_name(node: Any) -> str:
    """The node's type name; for an unknown type, the name as written (not the
    ``tosca.nodes.Root`` stand-in the loader resolves it to)."""
    if getattr(node, "type_known", True) is False:
        raw = getattr(node, "raw", None)
        written = raw.get("type") if isinstance(raw, Mapping) else None
        if isinstance(written, str) and written:
            return written
    return _type_name(getattr(node, "type", None))


def _property_table(node: Any, show_overridden: bool = False) -> Any:
    method = getattr(node, "property_table", None)
    if not callable(method):
        return None
    if show_overridden:
        try:
            return method(show_overridden=True)
        except TypeError:
            return method()
    return method()


def node_template_body(
    node: Any,
    *,
    show_overridden: bool = False,
    diagnostics: Sequence[Any] = (),
    lines: Any = None,
    palette: SourcePalette | None = None,
    show_header: bool = True,
    type_link: Any = None,
    stacks: bool = False,
    requirement_problems: Sequence[Any] = (),
) -> str:
    """A node template (or any entity template: capability, relationship,
    group, policy): its type, merged property table, requirements,
    capabilities with properties, group members or policy targets, and
    diagnostics. Inside a section whose summary already names the node,
    ``show_header=False`` leaves out the heading line.
    ``requirement_problems`` are the topology's problems of this node
    (:func:`requirement_problems`): an unresolved requirement's row shows
    its finding."""
    kind = str(getattr(node, "kind", "node") or "node")
    chips = [chip(_node_type_name(node))]
    if getattr(node, "type_known", True) is False:
        chips.append(badge("unknown type", "error", small=True))
    count = getattr(node, "count", 1)
    if isinstance(count, int) and count != 1:
        chips.append(chip(f"count {count}"))
    chips.extend(chip(d) for d in getattr(node, "directives", []) or [])
    parts = [header(f"{kind} template", getattr(node, "name", ""), *chips)] if show_header else []
    if type_link is not None and not show_header:
        # In a report the summary names the type as text (no link inside a
        # <summary>); the body's first line links it.
        parts.append(
            f'<div class="toskit-summary-line"><span class="toskit-muted">type</span>'
            f"{type_link(_node_type_name(node))}</div>"
        )
    description = getattr(node, "description", None)
    if description:
        parts.append(f'<div class="toskit-desc">{esc(description)}</div>')
    for attribute, label in (("members", "members"), ("targets", "targets")):
        names = getattr(node, attribute, None)
        if names:
            listed = "".join(chip(n) for n in names)
            parts.append(
                f'<div class="toskit-summary-line"><span class="toskit-muted">{label}</span>'
                f"{listed}</div>"
            )
    prop_table = _property_table(node, show_overridden)
    if prop_table is not None:
        parts.append(
            property_table_body(
                prop_table,
                show_overridden=show_overridden,
                palette=palette,
                lines=lines,
                type_link=type_link,
                stacks=stacks,
            )
        )
    else:
        props = getattr(node, "properties", {}) or {}
        parts.append(
            table(
                ("property", "value"),
                (
                    [("toskit-path", esc(k)), ("toskit-value", esc(text_value(v)))]
                    for k, v in props.items()
                ),
                total=len(props),
                empty="no properties",
            )
        )
    diags = list(diagnostics) or list(getattr(node, "diagnostics", []) or [])
    parts.append(_requirements_block(node, diags, requirement_problems))
    parts.append(_capabilities_block(node, palette, lines, type_link))
    if diags:
        parts.append(
            # Open when a diagnostic is not already shown in a table row.
            details(
                f"diagnostics {summary_badges(diags)}",
                diagnostics_block(diags, lines=lines),
                open_=prop_table is None
                or any(".properties." not in str(getattr(d, "path", "")) for d in diags),
            )
        )
    return "".join(parts)


def requirement_problems(st: Any, names: Iterable[Any]) -> dict[str, list[Any]]:
    """The unresolved requirements of the named node templates, by node: the
    topology's problems of kind ``unresolved`` (each with the loader's
    finding, or the one the topology makes: ``unresolved-requirement``).

    The topology is built only when one of these nodes has a requirement
    with no target (a clean template's view pays nothing); ``{}`` when it
    cannot be built (a view never fails on a broken template).
    """
    nodes = getattr(st, "node_templates", None) or {}
    wanted = [str(n) for n in names]
    if not any(
        getattr(r, "target", None) is None
        for n in wanted
        for r in (getattr(nodes.get(n), "requirements", None) or ())
    ):
        return {}
    make = getattr(st, "topology", None)
    try:
        problems = list(make().problems) if callable(make) else []
    except Exception:  # noqa: BLE001 - a view never fails on a broken template
        return {}
    keep = set(wanted)
    out: dict[str, list[Any]] = {}
    for p in problems:
        if getattr(p, "kind", None) == "unresolved" and getattr(p, "source", None) in keep:
            out.setdefault(str(p.source), []).append(p)
    return out


def _requirement_finding(
    index: int, req: Any, diagnostics: Sequence[Any], problems: list[Any]
) -> Any:
    """The finding that says why requirement ``index`` has no target: the
    next topology problem of that name (taken from ``problems``), else a
    diagnostic of the node filed under that requirement, else ``None``."""
    name = getattr(req, "name", None)
    for i, p in enumerate(problems):
        if getattr(p, "requirement", None) == name:
            del problems[i]
            return getattr(p, "diagnostic", None) or p
    for d in diagnostics:
        subject = getattr(d, "subject", None)
        path = getattr(subject, "path", None) or ()
        if getattr(subject, "section", None) == "requirements" and path[:1] == (index,):
            return d
    return None


def _requirement_problem_cell(finding: Any) -> str:
    """Under an unresolved requirement: the finding's message and where it is."""
    if finding is None:
        return '<span class="toskit-problem-msg">no node template was found for it</span>'
    message = esc(abbreviate(str(getattr(finding, "message", finding))))
    line = getattr(finding, "line", None)
    where = (
        '<span class="toskit-diag-loc">'
        + file_link(getattr(finding, "file", None), line, getattr(finding, "column", None))
        + "</span>"
        if line is not None
        else ""
    )
    return f'<span class="toskit-problem-msg">{message}</span>{where}'


def _requirements_block(
    node: Any, diagnostics: Sequence[Any] = (), problems: Sequence[Any] = ()
) -> str:
    """Requirement assignments and what each resolved to; one with no target
    is a problem row (error styling) followed by its finding's message and
    location (``problems``: the topology's, :func:`requirement_problems`)."""
    requirements = list(getattr(node, "requirements", []) or [])
    if not requirements:
        return ""
    left = list(problems)

    def rows() -> Iterable[Any]:
        for index, req in enumerate(requirements):
            target = getattr(req, "target", None)
            target_name = getattr(target, "name", None) or getattr(req, "target_name", None)
            relationship = getattr(req, "relationship", None)
            relationship_name = getattr(relationship, "name", relationship)
            cells = [
                ("toskit-path", esc(getattr(req, "name", ""))),
                (
                    "toskit-mono",
                    esc(target_name)
                    if target is not None and target_name
                    else badge("unresolved", "error", small=True)
                    + (f" {esc(target_name)}" if target_name else ""),
                ),
                ("toskit-type", esc(getattr(req, "capability", None) or "")),
                (
                    "toskit-type",
                    esc(text_value(relationship_name)) if relationship_name is not None else "",
                ),
            ]
            if target is not None:
                yield cells
                continue
            yield ("toskit-row-invalid", cells)
            finding = _requirement_finding(index, req, diagnostics, left)
            yield (
                "toskit-problem-row toskit-row-invalid",
                [("", _requirement_problem_cell(finding), 'colspan="4"')],
            )

    body = table(
        ("requirement", "target", "capability", "relationship"), rows(), total=len(requirements)
    )
    return details("Requirements", body, open_=True, count=len(requirements))


def _capabilities_block(
    node: Any, palette: SourcePalette | None, lines: Any = None, type_link: Any = None
) -> str:
    """Capabilities that have properties, each with its merged table."""
    capabilities = getattr(node, "capabilities", None)
    if not isinstance(capabilities, Mapping):
        return ""
    with_props = [
        (name, cap) for name, cap in capabilities.items() if getattr(cap, "properties", None)
    ]
    if not with_props:
        return ""
    sections = []
    for name, cap in with_props[: option("display_max_nodes")]:
        prop_table = _property_table(cap)
        inner = (
            property_table_body(prop_table, palette=palette, lines=lines, type_link=type_link)
            if prop_table is not None
            else ""
        )
        summary = (
            f'<span class="toskit-node-name">{esc(name)}</span>'
            f'<span class="toskit-node-note">{esc(_node_type_name(cap))}</span>'
        )
        sections.append(details(summary, inner))
    hidden = len(with_props) - len(sections)
    return details(
        "Capabilities",
        "".join(sections) + more_note(hidden, "more capabilities"),
        count=len(with_props),
    )


def node_template_html(node: Any) -> str:
    """The view of a ``NodeTemplate``."""
    return fragment(node_template_body(node), fallback_repr(node), "node-template")


def node_diagnostics(st: Any) -> dict[str, list[Any]]:
    """Diagnostics grouped by the node template their path names.

    Node names may contain dots (``web.frontend``), so the name is the
    longest known node name that the rest of the path starts with, followed
    by ``.``, ``[`` or the end.
    """
    names = {str(n) for n in (getattr(st, "node_templates", {}) or {})}
    out: dict[str, list[Any]] = {}
    for d in getattr(st, "diagnostics", []) or []:
        path = str(getattr(d, "path", "") or "")
        for prefix in ("topology_template.node_templates.", "service_template.node_templates."):
            if path.startswith(prefix):
                name = _node_name_in(path[len(prefix) :], names)
                if name is not None:
                    out.setdefault(name, []).append(d)
                break
    return out


def _node_name_in(rest: str, names: set[str]) -> str | None:
    cuts = [i for i, c in enumerate(rest) if c in ".["] + [len(rest)]
    for cut in reversed(cuts):
        if rest[:cut] in names:
            return rest[:cut]
    return None


def node_templates_block(st: Any, *, limit: int | None = None, type_link: Any = None) -> str:
    """Every node template (bounded) as a collapsed section with its table
    (``type_link(name)`` renders the type names in it)."""
    nodes: Mapping[str, Any] = getattr(st, "node_templates", {}) or {}
    limit = option("display_max_nodes") if limit is None else limit
    shown = _first(nodes, limit)
    hidden = max(len(nodes) - len(shown), 0)
    per_node = node_diagnostics(st)
    lines = template_lines(st)
    palette = SourcePalette()  # one colour per source across all the tables
    unresolved = requirement_problems(st, (name for name, _ in shown))
    items = []
    for name, node in shown:
        diags = per_node.get(str(name), [])
        summary = node_summary(name, node, diags)
        items.append(
            details(
                summary,
                node_template_body(
                    node,
                    diagnostics=diags,
                    lines=lines,
                    palette=palette,
                    show_header=False,
                    type_link=type_link,
                    requirement_problems=unresolved.get(str(name), ()),
                ),
            )
        )
    if not items:
        return '<div class="toskit-empty">no node templates</div>'
    return "".join(items) + more_note(hidden, "more node templates")


def node_summary(name: Any, node: Any, diagnostics: Sequence[Any] = ()) -> str:
    """The one-line summary of a node template in a list: name, type, badges."""
    marks = summary_badges(diagnostics) if diagnostics else ""
    if getattr(node, "type_known", True) is False:
        marks = badge("unknown type", "error", small=True) + " " + marks
    return (
        f'<span class="toskit-node-name">{esc(name)}</span>'
        f'<span class="toskit-node-note">{esc(_node_type_name(node))}</span> {marks}'
    )


def _first(mapping: Mapping[str, Any], limit: int) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for item in mapping.items():
        if len(out) >= limit:
            break
        out.append(item)
    return out


def inputs_block(st: Any, attribute: str = "inputs") -> str:
    """Resolved inputs (or ``outputs``) as a name/value table."""
    values: Mapping[str, Any] = getattr(st, attribute, {}) or {}
    label = attribute[:-1]

    def shown(value: Any) -> str:
        # An output definition ({value: …, description: …}) shows its value;
        # an input without value or default is said so, not as a sentinel.
        if isinstance(value, Mapping) and "value" in value:
            value = value["value"]
        if _is_no_default(value) or type(value).__name__ in ("_Absent", "NoDefault"):
            return '<span class="toskit-faint">no value</span>'
        return esc(text_value(value))

    return table(
        (label, "value"),
        ([("toskit-path", esc(k)), ("toskit-value", shown(v))] for k, v in values.items()),
        total=len(values),
        empty=f"no {attribute}",
    )


def _other_templates_chips(st: Any) -> list[str]:
    """Counts of relationship templates, groups and policies, when present."""
    chips = []
    for attribute, singular, label in (
        ("relationship_templates", "relationship template", "relationship templates"),
        ("groups", "group", "groups"),
        ("policies", "policy", "policies"),
    ):
        values = getattr(st, attribute, None)
        if isinstance(values, (Mapping, list, tuple)) and values:
            chips.append(chip(_count(len(values), singular, label)))
    return chips


def template_lines(st: Any) -> Any:
    """Source lines of a template's own document, for diagnostic snippets."""
    return document_lines(getattr(st, "document", None))


def _template_title(st: Any) -> str:
    for attr in ("name", "file", "path"):
        value = getattr(st, attr, None)
        if value:
            return str(value)
    return "service template"


def template_description(st: Any) -> str:
    """The template's ``description`` under its header ("" without one);
    the notebook view and the ``toskit show`` page both show it."""
    description = getattr(st, "description", None)
    if not isinstance(description, str) or not description:
        return ""
    return f'<div class="toskit-desc">{esc(description)}</div>'


def service_template_body(st: Any) -> str:
    """Version, counts, diagnostics (errors first), type tree, inputs, nodes."""
    diags = list(getattr(st, "diagnostics", []) or [])
    nodes = getattr(st, "node_templates", {}) or {}
    inputs = getattr(st, "inputs", {}) or {}
    types = template_types(st)
    user_types = [t for t in types if not is_normative(t)]
    head = _template_header(st, diags, nodes, inputs, user_types, *_other_templates_chips(st))
    sections = [head, template_description(st)]
    if diags:
        sections.append(
            details(
                f"Diagnostics {summary_badges(diags)}",
                diagnostics_block(ordered(diags), lines=template_lines(st)),
                open_=any(getattr(d, "severity", "") == "error" for d in diags) or len(diags) <= 5,
            )
        )
    links, definitions = fragment_type_links(st)
    sections.append(
        details(
            "Types",
            type_tree_html(types, link=links),
            open_=bool(user_types),
            count=len(user_types),
        )
    )
    if inputs:
        sections.append(details("Inputs", inputs_block(st), open_=True, count=len(inputs)))
    sections.append(
        details(
            "Node templates",
            node_templates_block(st, type_link=links),
            open_=True,
            count=len(nodes),
        )
    )
    sections.append(definitions)
    outputs = getattr(st, "outputs", None)
    if isinstance(outputs, Mapping) and outputs:
        sections.append(
            details("Outputs", inputs_block(st, "outputs"), open_=True, count=len(outputs))
        )
    return "".join(sections)


# What a service template's view spends on its "Type definitions" section:
# the first FRAGMENT_MAX_TYPES of report_types() while they fit in
# FRAGMENT_TYPES_BUDGET characters (the view stays bounded, B4).
FRAGMENT_MAX_TYPES = 30
FRAGMENT_TYPES_BUDGET = 150_000


def fragment_type_links(st: Any) -> tuple[TypeLinks, str]:
    """The links of a service template's notebook view, and the collapsed
    "Type definitions" section they point to.

    As in a ``toskit show`` report, with no kernel and no JavaScript: the
    section holds the definitions of the template's types (user types, their
    ancestors, the types their properties and node templates name;
    :func:`report_types`), bounded, each under its :func:`type_anchor`, and a
    type name is a link only when its definition is in the section — never a
    link to nothing.
    """
    candidates = report_types(st)
    probe = TypeLinks(candidates[:FRAGMENT_MAX_TYPES])
    size, kept = 0, []
    for t in probe.types:
        size += len(type_body(t, type_link=probe))
        if size > FRAGMENT_TYPES_BUDGET:
            break
        kept.append(t)
    links = probe if len(kept) == len(probe.types) else TypeLinks(kept)
    if not links.types:
        return links, ""
    left_out = len(TypeLinks(candidates).types) - len(links.types)
    section = details(
        "Type definitions",
        links.sections()
        + more_note(left_out, "more types not shown (see toskit show, or display a type)"),
        count=len(links.types) + left_out,
    )
    return links, section


def service_template_html(st: Any) -> str:
    """The view of a ``ServiceTemplate``."""
    return fragment(service_template_body(st), fallback_repr(st), "service-template")
