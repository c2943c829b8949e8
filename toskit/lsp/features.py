"""What the language server answers, as plain data (no pygls here).

Every function takes an :class:`~toskit.lsp.workspace.Analysis` (and a
cursor) and returns plain Python values: ranges are
``((line, character), (line, character))`` in LSP's 0-based positions,
converted by :func:`toskit.lsp.text.to_lsp` only. :mod:`toskit.lsp.server`
wraps them in ``lsprotocol`` types. Nothing here reads a file: locations in
other documents are computed from documents the load already parsed.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator, Mapping
from typing import Any

from toskit.diagnostics import Diagnostic, Fix
from toskit.lsp.text import Cursor, cursor_at, from_lsp, split_lines, to_lsp
from toskit.lsp.workspace import Analysis, name_to_uri
from toskit.records import record
from toskit.source import YamlDocument

__all__ = [
    "Completion",
    "Location",
    "Published",
    "Symbol",
    "code_actions",
    "completions",
    "definition",
    "diagnostics",
    "hover",
    "references",
    "symbols",
]

Range = tuple[tuple[int, int], tuple[int, int]]

SEVERITY = {"error": 1, "warning": 2, "info": 3}


@record(frozen=True)
class Location:
    """A place in a document: its URI and range."""

    uri: str
    range: Range


@record(frozen=True)
class Published:
    """One diagnostic as the client gets it, and the finding it came from."""

    range: Range
    severity: int
    code: str
    message: str
    related: tuple[tuple[Location, str], ...]
    finding: Diagnostic


# ---- ranges ------------------------------------------------------------------

_TOKEN_END = re.compile(r"\s*(?:,|\}|\]|#|:\s|:$)")


def token_range(
    lines: list[str], line: int | None, column: int | None, encoding: str = "utf-16"
) -> Range:
    """The range of the YAML token at toskit's 1-based ``line``/``column`` (a fallback
    for a finding that has no ``end_line``/``end_column``): a quoted string to its
    closing quote, a plain scalar or key to the next ``,``, ``}``, ``]``, ``: `` or
    comment, at least one character."""
    start = to_lsp(lines, line, column, encoding)
    if not lines:
        return start, start
    text = lines[start[0]]
    col0 = min(max((column or 1) - 1, 0), len(text))
    end0 = col0
    if col0 < len(text) and text[col0] in "\"'":
        close = text.find(text[col0], col0 + 1)
        end0 = close + 1 if close > 0 else len(text)
    else:
        match = _TOKEN_END.search(text, col0)
        end0 = match.start() if match else len(text.rstrip())
        if end0 <= col0:
            end0 = min(col0 + 1, len(text))
    end = to_lsp(lines, start[0] + 1, end0 + 1, encoding)
    if end == start and start[1] > 0:  # at the end of a line: the character before it
        start = (start[0], start[1] - 1)
    return start, end


def finding_range(lines: list[str], d: Any, encoding: str = "utf-16") -> Range:
    """The LSP range of a finding, fix or related place (1-based, exclusive end in toskit)."""
    if d.line is None:
        return (0, 0), (0, 0)
    if d.end_line is None or d.end_column is None:
        return token_range(lines, d.line, d.column, encoding)
    return to_lsp(lines, d.line, d.column, encoding), to_lsp(
        lines, d.end_line, d.end_column, encoding
    )


# ---- diagnostics -------------------------------------------------------------


def _same_file(analysis: Analysis, file: str | None) -> bool:
    from toskit.source import Importer

    return (
        file is None
        or file == analysis.name
        or Importer.identity(file) == Importer.identity(analysis.name)
    )


def _lines_of(analysis: Analysis, file: str | None) -> list[str]:
    """The lines of ``file`` as the load saw them (this document or one it imported)."""
    if _same_file(analysis, file):
        return analysis.lines
    doc = _imported_document(analysis, file)
    return split_lines(doc.text) if doc is not None else []


def _imported_document(analysis: Analysis, file: str | None) -> YamlDocument | None:
    template = analysis.template
    if template is None or file is None:
        return None
    for t in _every_type(template):
        if t.doc is not None and t.doc.name == file:
            return t.doc
    return None


def _every_type(template: Any) -> Iterator[Any]:
    seen: set[int] = set()
    for t in template.types.values():
        if id(t) not in seen:
            seen.add(id(t))
            yield t


def _import_entry(analysis: Analysis, file: str) -> tuple[Hashable, ...]:
    """The path of the ``imports`` entry of this document that brings
    ``file`` in (else ``imports``)."""
    import os

    doc = analysis.document
    imports = (
        doc.value.get("imports") if doc is not None and isinstance(doc.value, Mapping) else None
    )
    if isinstance(imports, list):
        for i, entry in enumerate(imports):
            ref = entry.get("file", entry.get("url")) if isinstance(entry, Mapping) else entry
            if isinstance(ref, Mapping):
                continue
            if isinstance(entry, Mapping) and ref is None and len(entry) == 1:
                ref = next(iter(entry.values()))
            if isinstance(ref, str) and os.path.normpath(
                os.path.join(os.path.dirname(analysis.name), ref)
            ) == os.path.normpath(file):
                return ("imports", i)
    return ("imports",)


def diagnostics(analysis: Analysis, encoding: str = "utf-16") -> list[Published]:
    """The findings of ``analysis`` for its own document.

    A finding located in another file (an imported one) is shown on the
    ``imports`` entry that brought that file in, its message prefixed with
    its own ``file:line:column``, and that place as related information.
    """
    out: list[Published] = []
    for d in analysis.diagnostics:
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        related: list[tuple[Location, str]] = []
        if _same_file(analysis, d.file):
            rng = finding_range(analysis.lines, d, encoding)
        else:
            where = (
                analysis.document.locate_key(_import_entry(analysis, d.file or ""))
                if analysis.document
                else None
            )
            rng = token_range(
                analysis.lines, where.line if where else 1, where.column if where else 1, encoding
            )
            message = f"{d.location}: {message}"
            related.append(
                (
                    Location(
                        name_to_uri(d.file or ""),
                        finding_range(_lines_of(analysis, d.file), d, encoding),
                    ),
                    "reported here",
                )
            )
        for r in d.related:
            if r.line is None:
                continue
            uri = analysis.uri if _same_file(analysis, r.file) else name_to_uri(r.file or "")
            related.append(
                (Location(uri, finding_range(_lines_of(analysis, r.file), r, encoding)), r.label)
            )
        out.append(Published(rng, SEVERITY.get(d.severity, 1), d.code, message, tuple(related), d))
    return out


# ---- code actions -------------------------------------------------------------


@record(frozen=True)
class Action:
    """A quick fix: its title, the finding it fixes, and its edits per URI."""

    title: str
    finding: Diagnostic
    edits: dict[str, list[tuple[Range, str]]]


def _overlaps(a: Range, b: Range) -> bool:
    return not (a[1] < b[0] or b[1] < a[0])


def code_actions(analysis: Analysis, rng: Range, encoding: str = "utf-16") -> list[Action]:
    """Each finding's fixes (only unambiguous ones carry any) for findings touching ``rng``."""
    out: list[Action] = []
    for published in diagnostics(analysis, encoding):
        if not published.finding.fixes or not _overlaps(published.range, rng):
            continue
        for fix in published.finding.fixes:
            edit = _fix_edit(analysis, fix, encoding)
            if edit is not None:
                out.append(Action(fix.title, published.finding, {edit[0]: [edit[1]]}))
    return out


def _fix_edit(analysis: Analysis, fix: Fix, encoding: str) -> tuple[str, tuple[Range, str]] | None:
    if not _same_file(analysis, fix.file):
        return None  # only the document in hand: its positions are the editor's
    rng = (
        to_lsp(analysis.lines, fix.line, fix.column, encoding),
        to_lsp(analysis.lines, fix.end_line, fix.end_column, encoding),
    )
    return analysis.uri, (rng, fix.replacement)


# ---- where things are defined ---------------------------------------------------


def _key_location(
    doc: YamlDocument | None, parts: tuple[Hashable, ...], name: str | None = None
) -> Location | None:
    """The location of the key at the end of ``parts`` in ``doc`` (its text's width)."""
    if doc is None:
        return None
    try:
        loc = doc.locate_key(parts)
    except Exception:  # a stale path must not break a request
        return None
    if loc is None:
        return None
    lines = split_lines(doc.text)
    width = len(name if name is not None else str(parts[-1]) if parts else "")
    start = to_lsp(lines, loc.line, loc.column)
    if lines and start[0] < len(lines) and lines[start[0]][start[1] : start[1] + 1] in ("'", '"'):
        width += 2
    end = to_lsp(lines, loc.line, loc.column + max(width, 1))
    return Location(name_to_uri(doc.name), (start, end))


def _topology(analysis: Analysis) -> tuple[str, Mapping]:
    template = analysis.template
    key = (
        "service_template"
        if template is not None and str(template.version).startswith("tosca_2")
        else "topology_template"
    )
    doc = analysis.document
    value = doc.value if doc is not None and isinstance(doc.value, Mapping) else {}
    topology = value.get(key)
    if not isinstance(topology, Mapping):
        other = "topology_template" if key == "service_template" else "service_template"
        if isinstance(value.get(other), Mapping):
            return other, value[other]
        return key, {}
    return key, topology


def _lookup_type(analysis: Analysis, name: str, kinds: tuple[str, ...] = ()) -> Any:
    template = analysis.template
    if template is None or not name:
        return None
    from toskit.tosca.types.registry import KINDS

    registry = template.registry
    # A node type first: a name two kinds share is most often the node type.
    for kind in kinds or ("node", *(k for k in KINDS if k != "node")):
        try:
            found = registry.lookup(kind, name)
        except Exception:
            found = None
        if found is not None:
            return found
    return template.types.get(name)


def _type_location(t: Any) -> Location | None:
    if t is None or t.doc is None or not t.parts:
        return None
    return _key_location(t.doc, tuple(t.parts))


_KIND_OF_SECTION = {
    "data_types": "data",
    "node_types": "node",
    "capability_types": "capability",
    "relationship_types": "relationship",
    "interface_types": "interface",
    "artifact_types": "artifact",
    "group_types": "group",
    "policy_types": "policy",
}

_FUNCTION = re.compile(
    r"\$?(get_input|get_property|get_attribute|get_artifact|get_operation_output)\b"
)


def _entity_templates(analysis: Analysis, section: str) -> Mapping[str, Any]:
    template = analysis.template
    if template is None:
        return {}
    return {
        "node_templates": template.node_templates,
        "relationship_templates": template.relationship_templates,
        "groups": template.groups,
        "policies": template.policies,
    }.get(section, {})


def _function_on_line(line: str, column0: int) -> str | None:
    """The name of the function call whose arguments hold ``column0`` on ``line``, if any."""
    found = None
    for match in _FUNCTION.finditer(line):
        if match.start() <= column0:
            found = match.group(1)
    return found


def _get_property_args(line: str) -> list[str]:
    match = re.search(r"\$?get_(?:property|attribute)\s*:\s*\[([^\]]*)\]", line)
    if not match:
        return []
    return [a.strip().strip("'\"") for a in match.group(1).split(",")]


def definition(
    analysis: Analysis, line: int, character: int, encoding: str = "utf-16"
) -> list[Location]:
    """Where the name under the cursor is defined.

    Type names (through imports, namespaces and CSAR members: the location
    is the document that defines it), node templates (a requirement's
    target, ``node:``), inputs (``get_input``), ``get_property`` paths (the
    property definition on the type), and import entries (the file).
    """
    line0, col0 = from_lsp(analysis.lines, line, character, encoding)
    cursor = cursor_at(analysis.lines, line0, col0)
    word = cursor.word
    if not word:
        return []
    text = analysis.lines[line0]
    topo_key, topology = _topology(analysis)
    function = _function_on_line(text, col0)
    if function == "get_input" and word.lstrip("$") != "get_input":
        loc = _key_location(analysis.document, (topo_key, "inputs", word))
        return (
            [loc]
            if loc and isinstance(topology.get("inputs"), Mapping) and word in topology["inputs"]
            else []
        )
    if function in ("get_property", "get_attribute") and not word.lstrip("$").startswith("get_"):
        loc = _property_definition_location(analysis, cursor, _get_property_args(text), word)
        if loc is not None:
            return [loc]
    if cursor.path[:1] == ("imports",) or cursor.key == "imports":
        target = _import_target(analysis, word)
        return [target] if target else []
    found_nodes = topology.get("node_templates")
    nodes: Mapping = found_nodes if isinstance(found_nodes, Mapping) else {}
    if word in nodes and not (len(cursor.path) == 2 and cursor.on_key):
        loc = _key_location(analysis.document, (topo_key, "node_templates", word))
        if loc is not None:
            return [loc]
    kinds: tuple[str, ...] = ()
    if len(cursor.full_path) >= 1 and cursor.full_path[0] in _KIND_OF_SECTION:
        kinds = (_KIND_OF_SECTION[str(cursor.full_path[0])],)
    t = _lookup_type(analysis, word, kinds) or _lookup_type(analysis, word)
    loc = _type_location(t)
    return [loc] if loc else []


def _import_target(analysis: Analysis, word: str) -> Location | None:
    import os

    if "!/" in analysis.name:
        base = analysis.name.rsplit("/", 1)[0]
        return Location(name_to_uri(f"{base}/{word}"), ((0, 0), (0, 0)))
    path = os.path.normpath(os.path.join(os.path.dirname(analysis.name), word))
    return Location(name_to_uri(path), ((0, 0), (0, 0)))


def _entity_at(analysis: Analysis, cursor: Cursor) -> tuple[str, str, Any] | None:
    """(section, name, template) of the entity template the cursor is inside."""
    topo_key, _ = _topology(analysis)
    path = cursor.full_path
    if len(path) >= 3 and path[0] == topo_key and isinstance(path[2], str):
        entities = _entity_templates(analysis, str(path[1]))
        found = entities.get(path[2])
        if found is not None:
            return str(path[1]), path[2], found
    return None


def _property_definition(
    analysis: Analysis, owner_type: Any, names: list[str]
) -> tuple[Any, Any] | None:
    """(definition, the type that wrote it) of property path ``names`` on ``owner_type``."""
    current = owner_type
    found = None
    for name in names:
        if current is None:
            return None
        definition = current.properties.get(name)
        if definition is None:
            return None
        owner = (
            _lookup_type(analysis, definition.defined_in or current.name, (current.kind,))
            or current
        )
        found = (definition, owner)
        current = _lookup_type(analysis, definition.type, ("data",)) if definition.type else None
    return found


def _property_definition_location(
    analysis: Analysis, cursor: Cursor, args: list[str], word: str
) -> Location | None:
    if not args or word not in args:
        return None
    entity_name = args[0]
    template = analysis.template
    if template is None:
        return None
    if entity_name in ("SELF", "SOURCE", "TARGET", "HOST"):
        here = _entity_at(analysis, cursor)
        entity = here[2] if here else None
    else:
        entity = template.node_templates.get(entity_name)
    if entity is None or entity.type is None:
        return None
    names = args[1 : args.index(word) + 1] if word != entity_name else []
    if not names:
        return None
    found = _property_definition(analysis, entity.type, names)
    if found is None:
        return None
    definition, owner = found
    return _key_location(owner.doc, (*owner.parts, "properties", definition.name))


# ---- hover ---------------------------------------------------------------------


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _where(loc: Location | None, root: str | None = None) -> str:
    """`` (file:line)`` of a location, the file relative to the workspace folder when inside it."""
    if loc is None:
        return ""
    from toskit.lsp.workspace import uri_to_name

    return f" ({_display_name(uri_to_name(loc.uri), root)}:{loc.range[0][0] + 1})"


def _display_name(name: str, root: str | None) -> str:
    import os

    if root is None:
        return name
    try:
        rel = os.path.relpath(name, root)
    except ValueError:
        return name
    return rel if not rel.startswith("..") else name


def _layer_location(
    analysis: Analysis, entity: Any, section: str, source: str, path: list[str]
) -> Location | None:
    """Where the layer named ``source`` (``template``, ``default: T``,
    ``input: x``) wrote the value."""
    topo_key, _ = _topology(analysis)
    if source == "template":
        return _key_location(
            analysis.document, (topo_key, section, entity.name, "properties", *path)
        )
    if source.startswith("input: "):
        name = source[len("input: ") :]
        return _key_location(analysis.document, (topo_key, "inputs", name))
    if source.startswith("default: "):
        type_name = source[len("default: ") :]
        t = _lookup_type(analysis, type_name)
        if t is None:
            return None
        # The default is written on the type's own definition of the field the path reaches there.
        for cut in range(len(path)):
            tail = path[cut:]
            if tail and tail[0] in t.own_properties:
                return _key_location(t.doc, (*t.parts, "properties", tail[0], "default"), "default")
        return _type_location(t)
    return None


def _definition_lines(analysis: Analysis, definition: Any, owner: Any) -> list[str]:
    out = [
        f"- **type**: `{definition.type or 'any'}`"
        + (" (required)" if definition.required else " (optional)")
    ]
    if definition.has_default:
        out.append(f"- **default**: `{_short(definition.default)}`")
    if definition.constraints:
        out.append(
            "- **constraints**: " + ", ".join(f"`{_short(c)}`" for c in definition.constraints)
        )
    if definition.description:
        out.append(f"- {definition.description}")
    declared = _key_location(owner.doc, (*owner.parts, "properties", definition.name))
    out.append(f"- defined in `{owner.name}`{_where(declared, analysis.root)}")
    return out


def hover(
    analysis: Analysis, line: int, character: int, encoding: str = "utf-16"
) -> tuple[str, Range] | None:
    """Markdown for the cursor, and the range it is about, or ``None``.

    On a property: each row of ``NodeTemplate.property_table()`` read
    through its ``Explanation`` (issue #32: effective value, type, the layer
    that set it with file:line, every layer it overrode with theirs, the
    calls it went through, the checks and their result); the property definitions
    of the type registry (type, required, default, constraints,
    description), a type's derivation chain, a node template's type, an
    input's definition and value, and a function call's value or why it
    stays unevaluated.
    """
    line0, col0 = from_lsp(analysis.lines, line, character, encoding)
    cursor = cursor_at(analysis.lines, line0, col0)
    rng = (
        to_lsp(analysis.lines, line0 + 1, cursor.start + 1, encoding),
        to_lsp(analysis.lines, line0 + 1, cursor.end + 1, encoding),
    )
    if analysis.template is None:
        return None
    function = _function_on_line(analysis.lines[line0], col0)
    if function == "get_input" and cursor.word.lstrip("$") != "get_input":
        _, topology = _topology(analysis)
        text = _input_hover(analysis, cursor.word, topology)
        return (text, rng) if text else None
    text = (
        _property_hover(analysis, cursor)
        or _definition_hover(analysis, cursor)
        or _name_hover(analysis, cursor)
    )
    return (text, rng) if text else None


def _row_lines(analysis: Analysis, section: str, entity: Any, row: Any, dotted: str) -> list[str]:
    """One property-table row of a hover: its value, where it was set and,
    from the row's Explanation (issue #32), the layers it overrides with
    each one's file:line, the calls the value went through and the checks."""
    explanation = _explain_row(entity, row)
    if explanation is not None:
        where = _source_where(explanation.source, analysis.root)
    else:
        where = _where(
            _layer_location(analysis, entity, section, row.source, row.path.split(".")),
            analysis.root,
        )
    label = (
        row.path[len(dotted) + 1 :] if row.path != dotted and row.path.startswith(dotted) else ""
    )
    value = _call_text(analysis, entity, row) or f"`{_short(row.value)}`"
    out = [
        f"- {('`' + label + '` = ') if label else '= '}{value} — set by **{row.source}**{where}"
        + (f", type `{row.type}`" if row.type else "")
    ]
    if explanation is None:
        out.extend(f"  - overrides `{_short(old)}` from {source}" for old, source in row.overridden)
        return out
    for layer in reversed(explanation.overridden):
        out.append(
            f"  - overrides `{_short(layer.value)}` from {layer.source.label}"
            + _source_where(layer.source, analysis.root)
        )
    for hop in explanation.hops:
        out.append(
            f"  - via `{hop.call}`"
            + (f" → {hop.target}" if hop.target else "")
            + (_source_where(hop.source, analysis.root) if hop.source is not None else "")
        )
    out.extend(f"  - {check.kind} `{check.text}`: {check.result}" for check in explanation.checks)
    return out


def _property_hover(analysis: Analysis, cursor: Cursor) -> str | None:
    found = _entity_at(analysis, cursor)
    path = cursor.full_path
    if found is None or len(path) < 5 or path[3] != "properties":
        return None
    section, name, entity = found
    prop_path: list[str] = []
    for part in path[4:]:
        if isinstance(part, int):
            continue
        if _is_call_name(str(part)):
            break  # inside a function call: the property that holds it
        prop_path.append(str(part))
    dotted = ".".join(prop_path)
    try:
        table = entity.property_table(show_overridden=True)
    except Exception:
        return None
    rows = [r for r in table if r.path == dotted or r.path.startswith(dotted + ".")]
    if not rows:
        rows = [r for r in table if dotted.startswith(r.path + ".")]
    head = f"**{name}**.`{dotted}`"
    out = [head, ""]
    for row in rows[:20]:
        out.extend(_row_lines(analysis, section, entity, row, dotted))
    if len(rows) > 20:
        out.append(f"- … {len(rows) - 20} more rows")
    if not rows:
        out.append("- no value (no default either)")
    definition = (
        _property_definition(analysis, entity.type, prop_path) if entity.type is not None else None
    )
    if definition is not None:
        out.append("")
        out.extend(_definition_lines(analysis, *definition))
    else:
        problems = [
            d
            for d in analysis.diagnostics
            if d.path.endswith(dotted) and d.code == "unknown-property"
        ]
        if problems:
            out.append("")
            hint = f" ({problems[0].hint})" if problems[0].hint else ""
            out.append(f"- not declared: {problems[0].message}{hint}")
    return "\n".join(out)


def _explain_row(entity: Any, row: Any) -> Any:
    """``entity.explain(row.parts)``, or ``None`` when it cannot be explained."""
    explain = getattr(entity, "explain", None)
    if explain is None or not getattr(row, "parts", None):
        return None
    try:
        return explain(row.parts)
    except Exception:  # a stale or odd path must not break a request
        return None


def _source_where(source: Any, root: str | None) -> str:
    """`` (file:line)`` of an Explanation layer's source."""
    if source is None or not source.file or source.line is None:
        return ""
    return f" ({_display_name(source.file, root)}:{source.line})"


def _definition_hover(analysis: Analysis, cursor: Cursor) -> str | None:
    """On a property definition of a type (``node_types: T: properties:
    name``): the effective definition."""
    path = cursor.full_path
    if (
        len(path) < 4
        or path[0] not in _KIND_OF_SECTION
        or path[2] != "properties"
        or not cursor.on_key
    ):
        return None
    t = _lookup_type(analysis, str(path[1]), (_KIND_OF_SECTION[str(path[0])],))
    if t is None or path[3] not in t.properties:
        return None
    definition = t.properties[str(path[3])]
    owner = _lookup_type(analysis, definition.defined_in or t.name, (t.kind,)) or t
    return "\n".join(
        [f"**{t.name}**.`{definition.name}`", "", *_definition_lines(analysis, definition, owner)]
    )


_INTRINSICS_1X = frozenset(
    {
        "get_input",
        "get_property",
        "get_attribute",
        "get_operation_output",
        "get_nodes_of_type",
        "get_artifact",
        "concat",
        "join",
        "token",
    }
)


def _is_call_name(key: str) -> bool:
    """A function call's key: ``$name`` (2.0) or a 1.x intrinsic function."""
    return (key.startswith("$") and not key.startswith("$$")) or key in _INTRINSICS_1X


def _call_text(analysis: Analysis, entity: Any, row: Any) -> str | None:
    """A call's evaluated value, or why it stays unevaluated."""
    from toskit.functions import Call

    value: Any = entity.properties
    for part in row.path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        else:
            return None
    if not isinstance(value, Call):
        return None
    why = [
        d.message
        for d in analysis.diagnostics
        if d.path.endswith(row.path) and d.code in ("function-error", "unknown-function")
    ]
    reason = (
        why[0]
        if why
        else (
            "it reads runtime state, known only once deployed"
            if value.name in ("get_attribute", "get_operation_output", "get_artifact")
            else "its arguments are not known until deployment "
            "(an input with no value and no default?)"
        )
    )
    return f"`{_short(str(value))}` — stays unevaluated: {reason}"


def _name_hover(analysis: Analysis, cursor: Cursor) -> str | None:
    word = cursor.word
    template = analysis.template
    topo_key, topology = _topology(analysis)
    text_line = analysis.lines[cursor.line]
    if (
        _function_on_line(text_line, cursor.start) == "get_input"
        and word.lstrip("$") != "get_input"
    ):
        return _input_hover(analysis, word, topology)
    if cursor.path == (topo_key, "inputs") and cursor.on_key:
        return _input_hover(analysis, cursor.key or word, topology)
    nodes = template.node_templates
    if word in nodes and not (cursor.path == (topo_key, "node_templates") and not cursor.on_key):
        node = nodes[word]
        type_name = node.type.name if node.type else "?"
        return f"**node template** `{word}`: type `{type_name}`, {len(node.properties)} properties"
    kinds: tuple[str, ...] = ()
    if cursor.full_path and cursor.full_path[0] in _KIND_OF_SECTION:
        kinds = (_KIND_OF_SECTION[str(cursor.full_path[0])],)
    t = _lookup_type(analysis, word, kinds) or _lookup_type(analysis, word)
    if t is None:
        return None
    chain = " → ".join(f"`{a.name}`" for a in [t, *t.ancestors])
    out = [
        f"**{t.kind} type** `{t.name}`{_where(_type_location(t), analysis.root)}",
        "",
        f"derived: {chain}",
    ]
    if t.description:
        out += ["", str(t.description)]
    if t.properties:
        out += ["", "properties: " + ", ".join(f"`{n}`" for n in list(t.properties)[:30])]
    return "\n".join(out)


def _input_hover(analysis: Analysis, name: str, topology: Mapping) -> str | None:
    inputs = topology.get("inputs")
    if not isinstance(inputs, Mapping) or name not in inputs:
        return None
    definition = inputs[name] if isinstance(inputs[name], Mapping) else {}
    out = [f"**input** `{name}`: type `{definition.get('type', 'any')}`"]
    if name in analysis.template.inputs:
        out.append(f"- value: `{_short(analysis.template.inputs[name])}`")
    if "default" in definition:
        out.append(f"- default: `{_short(definition['default'])}`")
    if definition.get("description"):
        out.append(f"- {definition['description']}")
    return "\n".join(out)


# ---- completion -------------------------------------------------------------------


@record(frozen=True)
class Completion:
    """One completion item: label, kind (LSP ``CompletionItemKind``), detail, sort key."""

    label: str
    kind: int
    detail: str = ""
    sort: str = ""
    documentation: str = ""


_PROPERTY, _CLASS, _KEYWORD, _REFERENCE, _VARIABLE = 10, 7, 14, 18, 6


def _grammar_keys(analysis: Analysis, path: tuple[Hashable, ...]) -> list[str]:
    """The keynames the grammar of the document's version allows at ``path``."""
    from toskit.tosca.load.grammar import GRAMMARS, Keys, ListOf, NamedList, NamedMap, Short

    template = analysis.template
    major = 2 if template is not None and str(template.version).startswith("tosca_2") else 1
    shape: Any = GRAMMARS[major].document
    for part in path:
        if isinstance(shape, Short):
            shape = shape.full
        if isinstance(shape, Keys):
            shape = shape.keys.get(part, shape.extra) if isinstance(part, str) else None
        elif isinstance(shape, NamedMap):
            shape = shape.item
        elif isinstance(shape, NamedList):
            shape = shape.item if not isinstance(part, int) else shape
            if isinstance(part, int):
                continue
        elif isinstance(shape, ListOf):
            shape = shape.item
        else:
            return []
        if shape is None:
            return []
    if isinstance(shape, Short):
        shape = shape.full
    return list(shape.keys) if isinstance(shape, Keys) else []


def _present_keys(analysis: Analysis, path: tuple[Hashable, ...]) -> set[str]:
    doc = analysis.document
    value: Any = doc.value if doc is not None else None
    for part in path:
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]  # noqa: SIM114 (mypy narrows each branch on its own)
        else:
            return set()
    return {k for k in value if isinstance(k, str)} if isinstance(value, Mapping) else set()


def completions(
    analysis: Analysis, line: int, character: int, encoding: str = "utf-16"
) -> list[Completion]:
    """Completion items at the cursor, from the effective type and the grammar.

    Under ``properties:`` of a template: the property names of its type (or
    the fields of the data type below), required first, with type and
    default; under ``requirements:``/``capabilities:`` their names; after
    ``type:``/``derived_from:`` the type names in scope of the right kind;
    after a requirement key or ``node:`` the node templates; elsewhere the
    keynames of the grammar in use.
    """
    line0, col0 = from_lsp(analysis.lines, line, character, encoding)
    cursor = cursor_at(analysis.lines, line0, col0)
    template = analysis.template
    topo_key, _ = _topology(analysis)
    path = cursor.path
    typing_key = cursor.on_key or cursor.key is None
    if template is None:
        return []
    if not typing_key and cursor.key in ("type", "derived_from"):
        return _type_names(analysis, path)
    entity = (
        _entity_at(analysis, Cursor(path, None, False, "", 0, 0, 0)) if len(path) >= 3 else None
    )
    if entity is not None and len(path) >= 4 and path[3] == "requirements" and not typing_key:
        return [
            Completion(n, _REFERENCE, f"node template: {t.type.name if t.type else '?'}")
            for n, t in template.node_templates.items()
        ]
    if (
        entity is not None
        and len(path) >= 5
        and path[3] == "requirements"
        and cursor.key == "node"
        and not typing_key
    ):
        return [
            Completion(n, _REFERENCE, "node template") for n, t in template.node_templates.items()
        ]
    if entity is not None and typing_key:
        _, _, ent = entity
        t = ent.type
        if len(path) == 4 and path[3] == "attributes" and t is not None:
            return _attribute_names(t, _present_keys(analysis, path))
        if len(path) >= 4 and path[3] in ("properties", "attributes") and t is not None:
            names = [str(p) for p in path[4:] if not isinstance(p, int)]
            owner = t
            if names:
                found = _property_definition(analysis, t, names)
                owner = (
                    _lookup_type(analysis, found[0].type, ("data",))
                    if found and found[0].type
                    else None
                )
            if owner is None:
                return []
            present = _present_keys(analysis, path)
            items = []
            for name, d in owner.properties.items():
                if name in present:
                    continue
                detail = (
                    f"{d.type or 'any'}"
                    + (" (required)" if d.required else "")
                    + (f" = {_short(d.default, 40)}" if d.has_default else "")
                )
                items.append(
                    Completion(
                        name,
                        _PROPERTY,
                        detail,
                        ("0" if d.required and not d.has_default else "1") + name,
                        d.description or "",
                    )
                )
            return items
        in_list = len(path) == 4 or (len(path) == 5 and isinstance(path[4], int))
        if path[3:4] == ("requirements",) and in_list and t is not None:
            return [Completion(n, _PROPERTY, "requirement") for n, _ in t.requirements]
        if len(path) == 4 and path[3] == "capabilities" and t is not None:
            return [Completion(n, _PROPERTY, "capability") for n in t.capabilities]
    if typing_key:
        present = _present_keys(analysis, path)
        return [
            Completion(k, _KEYWORD, "keyname")
            for k in _grammar_keys(analysis, path)
            if k not in present
        ]
    return []


def _attribute_names(t: Any, present: set[str]) -> list[Completion]:
    """The attributes a node type declares down its chain (nearest first), with their types."""
    seen: dict[str, Completion] = {}
    for each in (t, *t.ancestors):
        section = (
            each.definition.get("attributes") if isinstance(each.definition, Mapping) else None
        )
        if not isinstance(section, Mapping):
            continue
        for name, body in section.items():
            if isinstance(name, str) and name not in seen and name not in present:
                kind = body.get("type", "any") if isinstance(body, Mapping) else "any"
                seen[name] = Completion(
                    name, _PROPERTY, f"{kind} (attribute of {each.name})", "0" + name
                )
    return list(seen.values())


def _type_names(analysis: Analysis, path: tuple[Hashable, ...]) -> list[Completion]:
    template = analysis.template
    topo_key, _ = _topology(analysis)
    kind = "node"
    if path and path[0] in _KIND_OF_SECTION:
        kind = _KIND_OF_SECTION[str(path[0])]
        if "properties" in path or "attributes" in path:
            kind = "data"
    elif len(path) >= 2 and path[0] == topo_key:
        kind = {
            "node_templates": "node",
            "relationship_templates": "relationship",
            "groups": "group",
            "policies": "policy",
            "inputs": "data",
            "outputs": "data",
        }.get(str(path[1]), "node")
    items = [
        Completion(
            n,
            _CLASS,
            f"{kind} type",
            ("1" if n.startswith("tosca.") else "0") + n,
            t.description or "",
        )
        for n, t in template.types_of(kind).items()
    ]
    if kind == "data":
        for primitive in (
            "string",
            "integer",
            "float",
            "boolean",
            "list",
            "map",
            "timestamp",
            "range",
            "version",
            "scalar-unit.size",
            "scalar-unit.time",
            "scalar-unit.frequency",
            "scalar-unit.bitrate",
        ):
            items.append(Completion(primitive, _CLASS, "primitive type", "0" + primitive))
    return items


# ---- symbols and references -----------------------------------------------------


@record(frozen=True)
class Symbol:
    """An outline entry: name, LSP ``SymbolKind``, detail, range, children."""

    name: str
    kind: int
    detail: str
    range: Range
    children: tuple[Symbol, ...] = ()


_SYMBOL_KIND = {
    "node_templates": 19,
    "relationship_templates": 19,
    "groups": 19,
    "policies": 19,
    "inputs": 13,
    "outputs": 13,
}


def symbols(analysis: Analysis) -> list[Symbol]:
    """The outline: types (per section), inputs, node templates, outputs, …"""
    doc = analysis.document
    if doc is None or not isinstance(doc.value, Mapping):
        return []
    out: list[Symbol] = []
    for section in _KIND_OF_SECTION:
        out.extend(_section_symbols(doc, (section,), 5, f"{_KIND_OF_SECTION[section]} type"))
    topo_key, topology = _topology(analysis)
    for section in (
        "inputs",
        "node_templates",
        "relationship_templates",
        "groups",
        "policies",
        "outputs",
    ):
        out.extend(
            _section_symbols(
                doc,
                (topo_key, section),
                _SYMBOL_KIND[section],
                section.rstrip("s").replace("_", " "),
            )
        )
    return out


def _section_symbols(
    doc: YamlDocument, parts: tuple[str, ...], kind: int, detail: str
) -> list[Symbol]:
    value: Any = doc.value
    for part in parts:
        value = value.get(part) if isinstance(value, Mapping) else None
    if not isinstance(value, Mapping):
        return []
    out = []
    for name, body in value.items():
        loc = _key_location(doc, (*parts, name), str(name))
        if loc is None:
            continue
        what = detail
        if isinstance(body, Mapping) and isinstance(body.get("type"), str):
            what = f"{detail}: {body['type']}"
        out.append(Symbol(str(name), kind, what, loc.range))
    return out


def references(
    analysis: Analysis,
    others: list[Analysis],
    line: int,
    character: int,
    include_declaration: bool = True,
    encoding: str = "utf-16",
) -> list[Location]:
    """Every place that names the type or node template under the cursor.

    Searched: this document, the other open ones (``others``) and the files
    this document imports; a place is a string value equal to the name, or
    the defining key.
    """
    line0, col0 = from_lsp(analysis.lines, line, character, encoding)
    word = cursor_at(analysis.lines, line0, col0).word
    if not word or analysis.template is None:
        return []
    declared = definition(analysis, line, character, encoding)
    docs: dict[str, YamlDocument] = {}
    for a in (analysis, *others):
        if a.document is not None:
            docs[a.document.name] = a.document
    for t in _every_type(analysis.template):
        if t.doc is not None and not t.normative:
            docs.setdefault(t.doc.name, t.doc)
    out: list[Location] = []
    for doc in docs.values():
        lines = split_lines(doc.text)
        for parts in _string_paths(doc.value, word):
            loc = doc.locate(parts)
            if loc is None:
                continue
            col = loc.column
            text = lines[loc.line - 1] if loc.line - 1 < len(lines) else ""
            if text[col - 1 : col] in ("'", '"'):
                col += 1
            out.append(
                Location(
                    name_to_uri(doc.name),
                    (
                        to_lsp(lines, loc.line, col, encoding),
                        to_lsp(lines, loc.line, col + len(word), encoding),
                    ),
                )
            )
    if include_declaration:
        out.extend(d for d in declared if d not in out)
    return out


def _string_paths(value: Any, word: str, limit: int = 10_000) -> Iterator[tuple[Hashable, ...]]:
    """Paths of the string values equal to ``word`` (iterative, at most ``limit`` nodes visited)."""
    stack: list[tuple[tuple[Hashable, ...], Any]] = [((), value)]
    seen = 0
    while stack and seen < limit:
        parts, node = stack.pop()
        seen += 1
        if isinstance(node, Mapping):
            stack.extend(((*parts, k), v) for k, v in node.items() if isinstance(k, str))
        elif isinstance(node, list):
            stack.extend(((*parts, i), v) for i, v in enumerate(node))
        elif node == word and isinstance(node, str):
            yield parts
