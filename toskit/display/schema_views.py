"""Views of the structural schema model (``toskit.schema``): schemas, type
definitions and comparisons; and of function calls (``toskit.functions``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toskit.display.html import (
    bounded,
    chip,
    code,
    details,
    esc,
    fallback_repr,
    fragment,
    header,
    more_note,
    section_link,
    table,
    text_value,
)
from toskit.display.options import get as option
from toskit.display.words import count, relationship_words

__all__ = [
    "call_html",
    "comparison_html",
    "schema_html",
    "schema_type_anchor",
    "typedef_body",
    "typedef_html",
    "typeref_html",
    "typeref_text",
]


def _same(text: str) -> str:
    return text


def typeref_text(ref: Any, depth: int = 0) -> str:
    """A short reading of a type reference: ``inner``, ``string``,
    ``list<string> (associative, keys: name)``, ``map<numeric>``…"""
    return _typeref(ref, depth, _same, _same)


def typeref_html(ref: Any, link: Any) -> str:
    """:func:`typeref_text` as escaped HTML, every named type rendered by
    ``link(name)`` (a link to its section, or escaped text)."""
    return _typeref(ref, 0, link, esc)


def atom_text(atom: Any, depth: int = 0) -> str:
    """The kinds an atom accepts, e.g. ``scalar string | map``."""
    return _atom(atom, depth, _same, _same)


def _typeref(ref: Any, depth: int, name: Any, lit: Any) -> str:
    """``name(type_name)`` renders a named type and ``lit(text)`` the rest
    (plain text, or HTML: escaped text and links)."""
    if ref is None:
        return lit("—")
    if depth > 6:
        return lit("…")
    named = getattr(ref, "named_type", None)
    relationship = getattr(ref, "element_relationship", None)
    if named:
        text = name(str(named))
    else:
        text = _atom(getattr(ref, "inlined", None), depth + 1, name, lit)
    # the relationship in words (the keyword is the schema's, not the reader's)
    return text + lit(f" ({relationship_words('', str(relationship))})") if relationship else text


def _atom(atom: Any, depth: int, name: Any, lit: Any) -> str:
    if atom is None:
        return lit("—")
    parts = []
    scalar = getattr(atom, "scalar", None)
    if scalar:
        parts.append(lit(str(scalar)))
    lst = getattr(atom, "list", None)
    if lst is not None:
        element = _typeref(getattr(lst, "element_type", None), depth + 1, name, lit)
        rel = getattr(lst, "element_relationship", None) or "atomic"
        keys = tuple(map(str, getattr(lst, "keys", ()) or ()))
        parts.append(lit("list<") + element + lit(f"> ({relationship_words('list', rel, keys)})"))
    mp = getattr(atom, "map", None)
    if mp is not None:
        fields = tuple(getattr(mp, "fields", ()) or ())
        element_type = getattr(mp, "element_type", None)
        rel = getattr(mp, "element_relationship", None) or "separable"
        words = relationship_words("map", rel)
        if fields:
            parts.append(lit(f"struct of {count(len(fields), 'field')} ({words})"))
        else:
            parts.append(
                lit("map<") + _typeref(element_type, depth + 1, name, lit) + lit(f"> ({words})")
            )
    return lit(" | ").join(parts) or lit("—")


def schema_type_anchor(name: Any) -> str:
    """The ``id`` of a schema type's section in a schema's view
    (``toskit-schema-type-<name>``, characters outside ``[A-Za-z0-9._-]`` as ``_``)."""
    return "toskit-schema-type-" + "".join(
        c if c.isalnum() or c in "-_." else "_" for c in str(name)
    )


def _escaped(name: str) -> str:
    return esc(name)


def _fields_table(mp: Any, link: Any = _escaped) -> str:
    fields = tuple(getattr(mp, "fields", ()) or ())

    def rows() -> Iterable[Any]:
        for f in fields:
            default = getattr(f, "default", None)
            yield [
                ("toskit-path", esc(getattr(f, "name", ""))),
                ("toskit-type", typeref_html(getattr(f, "type", None), link)),
                ("toskit-value", esc(text_value(default)) if default is not None else ""),
            ]

    return table(("field", "type", "default"), rows(), total=len(fields), empty="no fields")


def typedef_body(td: Any, *, link: Any = _escaped) -> str:
    """A type definition: its atom, fields, element type and unions
    (``link(name)`` renders the named types in them)."""
    atom = getattr(td, "atom", td)
    parts = [header("schema type", getattr(td, "name", ""), chip(atom_text(atom)))]
    mp = getattr(atom, "map", None)
    if mp is not None:
        if getattr(mp, "fields", None):
            parts.append(_fields_table(mp, link))
        element = getattr(mp, "element_type", None)
        if element is not None:
            parts.append(
                f'<div class="toskit-summary-line"><span class="toskit-muted">other keys</span>'
                f'<span class="toskit-code">{typeref_html(element, link)}</span></div>'
            )
        unions = tuple(getattr(mp, "unions", ()) or ())
        for union in unions:
            members = ", ".join(
                f"{getattr(u, 'field_name', '')}={getattr(u, 'discriminator_value', '')}"
                for u in getattr(union, "fields", ()) or ()
            )
            disc = getattr(union, "discriminator", None) or "no discriminator"
            parts.append(
                f'<div class="toskit-summary-line"><span class="toskit-muted">union</span>'
                f"{code(disc)} {esc(members)}</div>"
            )
    return "".join(parts)


def typedef_html(td: Any) -> str:
    """The view of a ``TypeDef``."""
    return fragment(typedef_body(td), fallback_repr(td), "schema-type")


def schema_html(schema: Any) -> str:
    """The view of a ``Schema``: one collapsed section per type. A named type
    in a field is a link to its section when the section is in the view
    (the first ``display_max_rows`` types), else text."""
    types = list(getattr(schema, "types", ()) or ())
    shown, hidden = bounded(types, option("display_max_rows"))
    names = {str(getattr(td, "name", "")) for td in shown}

    def link(name: str) -> str:
        if name not in names:
            return esc(name)
        return section_link(schema_type_anchor(name), esc(name))

    sections = [
        details(
            f'<span class="toskit-node-name">{esc(getattr(td, "name", ""))}</span>'
            f'<span class="toskit-node-note">{esc(atom_text(getattr(td, "atom", None)))}</span>',
            f'<div id="{esc(schema_type_anchor(getattr(td, "name", "")))}">'
            f"{typedef_body(td, link=link)}</div>",
        )
        for td in shown
    ]
    body = (
        header("schema", count(len(types), "type"))
        + "".join(sections)
        + more_note(hidden, "more types")
    )
    return fragment(body, fallback_repr(schema), "schema")


def _paths_list(paths: Iterable[Any], cls: str, sign: str, values: Any = None) -> str:
    ordered = sorted(str(p) for p in paths)
    shown, hidden = bounded(ordered, option("display_max_rows"))
    items = "".join(
        f'<li class="{cls}"><span class="toskit-mono">{esc(sign)} {esc(p)}</span>'
        f"{_old_new(values, p, sign)}</li>"
        for p in shown
    )
    return f'<ul class="toskit-paths">{items}</ul>{more_note(hidden, "more paths")}'


def _is_absent(value: Any) -> bool:
    # toskit.schema.ABSENT, duck-typed: this package never imports the core.
    return type(value).__name__ == "Absent"


def _old_new(values: Any, path: str, sign: str) -> str:
    """``: old → new`` (or the one side there is) after a changed path."""
    if not hasattr(values, "get"):
        return ""
    pair = values.get(path)
    if not isinstance(pair, tuple) or len(pair) != 2:
        return ""
    old, new = pair
    parts = []
    if not _is_absent(old):
        parts.append(f'<span class="toskit-value-old">{esc(text_value(old))}</span>')
    if not _is_absent(new):
        parts.append(f'<span class="toskit-value-new">{esc(text_value(new))}</span>')
    if not parts:
        return ""
    return '<span class="toskit-old-new">: ' + " → ".join(parts) + "</span>"


def comparison_html(comparison: Any) -> str:
    """The view of a schema ``Comparison``: added, removed and modified paths,
    each with its value (``old → new`` for a modified one) when the
    comparison recorded them."""
    groups = (
        ("added", "+", "toskit-added"),
        ("removed", "−", "toskit-removed"),
        ("modified", "~", "toskit-modified"),
    )
    counts = {name: len(getattr(comparison, name, ()) or ()) for name, _, _ in groups}
    chips = [chip(f"{n} {name}") for name, n in counts.items()]
    same = not any(counts.values())
    parts = [header("comparison", "no changes" if same else "changes", *chips)]
    for name, sign, cls in groups:
        paths = getattr(comparison, name, ()) or ()
        if paths:
            body = _paths_list(paths, cls, sign, getattr(comparison, "values", None))
            parts.append(details(name.capitalize(), body, open_=True, count=len(paths)))
    return fragment("".join(parts), fallback_repr(comparison), "comparison")


def call_html(call: Any) -> str:
    """The view of a function ``Call``: its 2.0 notation and its parts."""
    try:
        notation = str(call)
    except Exception:  # noqa: BLE001 - a broken str() must not break the view
        notation = repr(call)
    name = getattr(call, "qualified_name", None) or getattr(call, "name", "")
    args = list(getattr(call, "args", []) or [])
    parts = [header("function call", name, chip(count(len(args), "argument"))), code(notation)]
    return fragment("".join(parts), notation, "call")


class _MergeRows:
    """A ``MergeResult`` read as a property table (overridden values first-class)."""

    show_overridden = True

    def __init__(self, result: Any) -> None:
        rows = result.rows() if callable(getattr(result, "rows", None)) else []
        self.rows = [
            {
                "path": row.get("path", ""),
                "value": row.get("value"),
                "type": "",
                "source": row.get("source", ""),
                # MergeResult lists (label, value), lowest first.
                "overridden": [
                    {"value": v, "source": label} for label, v in row.get("overridden", [])
                ],
            }
            for row in rows
        ]


def merge_result_html(result: Any) -> str:
    """The view of a ``MergeResult``: each leaf with the layer that supplied it
    and, struck through, the lower values it replaced."""
    from toskit.display.tosca_views import property_table_body

    adapter = _MergeRows(result)
    overridden = sum(1 for r in adapter.rows if r["overridden"])
    body = header(
        "merge result", count(len(adapter.rows), "leaf", "leaves"), chip(f"{overridden} overridden")
    )
    body += property_table_body(adapter)
    return fragment(body, fallback_repr(result), "merge-result")
