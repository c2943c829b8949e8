"""``check_text``: every problem of a roles document or a Fuel release file
as located diagnostics (for ``toskit check``).

Unlike :func:`load_roles`, which raises at the first error, this collects
every error it can (one per broken condition node) and places each at the
offending YAML node. For an expression error inside a one-line scalar, the
column points at the offending character itself (for a short-form
restriction, inside its key); the hint repeats the expression with the
position.

In a Fuel release file the setup wizard's conditions (``wizard_metadata``)
are compiled with its default model, so bare paths (``Compute.vcenter``)
are model paths there; 5.0's ``depends`` lists and settings ``conflicts``
written as conditions are checked as well.

Codes (:data:`CODES`): ``yaml-syntax`` and the loader's other codes;
``condition-schema`` (a malformed condition tree, restriction or limit);
``expression-syntax`` (an expression that does not parse);
``expression-error`` (another static expression error: unknown special
member or variable, a property called, a method not called);
``unknown-role`` (a warning: a role named in ``conflicts`` or by
``_hasRole('…')``, ``_hasDeployedRole('…')``, ``_withRole('…')`` is not a
role of the document but is a near miss of one, :data:`NEAR_MISS`; a name
far from every role is allowed: a role of a plugin); ``unknown-setting`` (a
warning, Fuel files: a ``settings:group.attribute`` path whose group or
attribute no record of the file defines but is a near miss of one; a
path marked lenient with ``?`` is not checked); ``fuel-release`` (a Fuel file
whose records cannot be read as releases); ``unknown-document`` (neither
kind).

Every finding is structured (issue #28): a range (``end_line``,
``end_column``: the offending token inside a one-line expression, else the
YAML token where the finding is placed), a :class:`~toskit.diagnostics.Subject`
(:func:`subject_of`: ``role``, ``setting``, ``wizard``, ``release`` or
``document``), related locations (the definitions of the candidates a name
was compared with) and, only when exactly one candidate is closest, a
:class:`~toskit.diagnostics.Fix` that renames the misspelt name.
"""

from __future__ import annotations

from collections.abc import Mapping
from difflib import SequenceMatcher
from typing import Any

from toskit.conditions.expression import Expression
from toskit.conditions.forms import ConditionCompiler
from toskit.conditions.fuel import WIZARD_MODEL
from toskit.conditions.restrictions import compile_depends, compile_restrictions
from toskit.conditions.roles import build_roleset
from toskit.conditions.syntax import (
    BoolOp,
    Compare,
    Literal,
    Member,
    ModelRef,
    Node,
    Not,
    token_span,
)
from toskit.diagnostics import (
    Diagnostic,
    Fix,
    Related,
    Subject,
    Suggestion,
    format_path,
    has_errors,
    sort_diagnostics,
    suggest,
)
from toskit.errors import ConditionError, ToskitError
from toskit.records import replace

__all__ = ["CODES", "check_text", "document_kind", "locate", "subject_of"]

#: Every code this module emits itself (the YAML loader adds its own).
CODES = (
    "condition-schema",
    "expression-syntax",
    "expression-error",
    "unknown-role",
    "unknown-setting",
    "fuel-release",
    "unknown-document",
)

#: Special members whose one string argument names a role.
ROLE_METHODS = frozenset({"_hasRole", "_hasDeployedRole", "_withRole"})
#: How alike a name must be to a role of the document to be taken for a
#: typo of it (difflib's ratio): ``compte``/``compute`` 0.92 is,
#: ``cinder-vmware``/``cinder`` 0.63 (a role of a plugin) is not.
NEAR_MISS = 0.8


def document_kind(value: Any) -> str | None:
    """``roles`` (a mapping with ``roles_metadata``), ``fuel-release`` (a
    list of fixture records), or ``None``."""
    if isinstance(value, Mapping) and "roles_metadata" in value:
        return "roles"
    if isinstance(value, list) and any(
        isinstance(r, Mapping) and "model" in r and ("fields" in r or "extend" in r) for r in value
    ):
        return "fuel-release"
    return None


def check_text(text: str, name: str = "<string>") -> list[Diagnostic]:
    """Diagnostics for a roles document or a Fuel release file, in source order."""
    from toskit.source import load_yaml

    doc = load_yaml(text, name=name)
    diagnostics = list(doc.diagnostics)
    if has_errors(diagnostics) and doc.value is None:
        return sort_diagnostics(diagnostics)
    kind = document_kind(doc.value)
    compiler = ConditionCompiler(collect=True)
    names = _Names()
    if kind == "roles":
        compiler.skip = 1
        _run(
            lambda: build_roleset(doc.value["roles_metadata"], ("roles_metadata",), compiler),
            compiler,
        )
        names.add_roles(doc.value["roles_metadata"], ("roles_metadata",))
    elif kind == "fuel-release":
        _check_fuel(doc, compiler, diagnostics)
        names.add_fuel(doc.value)
    else:
        diagnostics.append(
            _with_span(
                doc,
                doc.diagnostic(
                    "error",
                    "unknown-document",
                    "not a roles document (a mapping with 'roles_metadata') nor a Fuel release "
                    "file (a list of fixture records)",
                    (),
                ),
                Subject("document", None, ()),
            )
        )
    seen: set = set()
    for index, (err, parts) in enumerate(compiler.errors):
        diag = locate(doc, err, parts, compiler.renames.get(index))
        key = (diag.line, diag.column, diag.message)
        if key not in seen:
            seen.add(key)
            diagnostics.append(diag)
    if kind is not None:
        diagnostics.extend(_near_misses(doc, compiler, names))
    return sort_diagnostics(diagnostics)


def _run(action: Any, compiler: ConditionCompiler) -> None:
    compiler.attempt(action)


def _check_fuel(doc: Any, compiler: ConditionCompiler, diagnostics: list[Diagnostic]) -> None:
    """Each record's own ``fields`` (so that inherited parts are reported
    once, where they are written): its roles and every ``restrictions``
    list anywhere below them; then the merged releases must be readable."""
    from toskit.conditions.fuel import release_records

    for index, record in enumerate(doc.value):
        if not isinstance(record, Mapping):
            continue
        fields = record.get("fields")
        if not isinstance(fields, Mapping):
            continue
        base = (index, "fields")
        roles = fields.get("roles_metadata")
        if roles is not None:
            _run(
                lambda r=roles, b=base: build_roleset(r, (*b, "roles_metadata"), compiler), compiler
            )
        for key, parts, value in _restriction_lists(fields, base, depth=0):
            if key == "restrictions":
                if parts[2:3] == ("roles_metadata",):
                    continue  # checked with the roles
                # The setup wizard's bare paths (`Compute.vcenter`) belong
                # to its own model, as in fuel-ui.
                default = WIZARD_MODEL if parts[2:3] == ("wizard_metadata",) else None
                _run(
                    lambda v=value, p=parts, d=default: compile_restrictions(v, p, compiler, d),
                    compiler,
                )
            elif key == "depends" or _is_condition_list(value):
                # 5.0's `depends`, and `conflicts` written as conditions
                # (`- "settings:common.libvirt_type.value": "vcenter"`).
                _run(lambda v=value, p=parts: compile_depends(v, p, compiler), compiler)
    try:
        release_records(doc.value)
    except ToskitError as err:
        diag = doc.diagnostic("error", "fuel-release", str(err), ())
        diagnostics.append(_with_span(doc, diag, Subject("release", None, ())))


def _is_condition_list(value: Any) -> bool:
    """A ``conflicts`` list of conditions (mappings), not of role names."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _restriction_lists(value: Any, parts: tuple, depth: int):
    """``(key, parts, value)`` of every ``restrictions`` and ``depends``
    key below ``value``, and of every ``conflicts`` key that holds
    conditions."""
    if depth > 60:
        return
    if isinstance(value, Mapping):
        for key, child in value.items():
            here = (*parts, key)
            if (
                key in ("restrictions", "depends")
                or key == "conflicts"
                and _is_condition_list(child)
            ):
                yield key, here, child
            else:
                yield from _restriction_lists(child, here, depth + 1)
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _restriction_lists(child, (*parts, i), depth + 1)


def locate(
    doc: Any,
    err: ConditionError,
    parts: tuple,
    rename: tuple[tuple, Suggestion] | None = None,
    subject: Subject | None = None,
) -> Diagnostic:
    """``err`` placed in the document ``doc`` (a loaded YAML document): at
    the YAML node of ``parts`` and, for an expression written on one line,
    at its offending token (the range). A short-form restriction
    (``- "<condition>": "<message>"``) has its condition as the mapping key,
    so its errors are placed at the key, not at the message. ``rename``: a
    misspelt key and what it most likely meant (a fix when one candidate is
    closest). ``subject`` defaults to :func:`subject_of` ``parts``.

    ``toskit check`` places every error it collects with this, and
    :func:`~toskit.conditions.load_roles` the one it raises (its
    ``ConditionError.diagnostic``)."""
    base = err.diagnostic
    at_key = (
        err.kind != "SchemaError"
        and err.expression is not None
        and bool(parts)
        and parts[-1] == err.expression
    ) or (rename is not None and rename[0] == parts)  # a misspelt key: at the key
    diag = doc.diagnostic(
        "error",
        base.code,
        base.message,
        parts,
        hint=base.hint,
        path=format_path(parts),
        at_key=at_key,
    )
    if subject is None:
        subject = subject_of(parts, doc.value)
    if err.kind != "SchemaError" and err.expression is not None and err.position is not None:
        start, end = token_span(err.expression, err.position)
        placed = _expression_at(doc, diag.line, diag.column, err.expression)
        if placed is not None:
            line, column, text = placed
            return replace(
                diag,
                column=column + start,
                end_line=line,
                end_column=column + end,
                source_line=text,
                subject=subject,
            )
    diag = _with_span(doc, diag, subject)
    if rename is not None:
        key_parts, found = rename
        diag = replace(diag, hint=found.hint(), **_rename(doc, key_parts, found))
    return diag


def _expression_at(
    doc: Any, line: int | None, column: int | None, expression: str
) -> tuple[int, int, str] | None:
    """``(line, column of the expression's first character, line text)``
    when the expression is written on one line at ``line:column``, plain
    or quoted without escapes; ``None`` otherwise."""
    if line is None or column is None or "\n" in expression:
        return None
    text = doc.line_text(line)
    if text is None:
        return None
    rest = text[column - 1 :]
    if rest[:1] in ("'", '"') and rest[1 : 1 + len(expression)] == expression:
        return line, column + 1, text
    if rest.startswith(expression):
        return line, column, text
    return None


def _token_end(text: str, start: int) -> int:
    """The (exclusive, 0-based) end of the YAML token that starts at
    ``start`` in the line ``text``: a quoted scalar to its closing quote, a
    flow collection to its closing bracket, a key to its ``:``, a plain
    scalar to the end of the line (a comment aside)."""
    if start >= len(text):
        return start
    first = text[start]
    if first in "'\"":
        i = start + 1
        while i < len(text):
            if text[i] == first:
                if first == "'" and text[i + 1 : i + 2] == "'":
                    i += 2
                    continue
                return i + 1
            if first == '"' and text[i] == "\\":
                i += 1
            i += 1
        return len(text)
    if first in "[{":
        depth = 0
        for i in range(start, len(text)):
            if text[i] in "[{":
                depth += 1
            elif text[i] in "]}":
                depth -= 1
                if depth == 0:
                    return i + 1
        return len(text.rstrip())
    return _plain_end(text, start)


def _plain_end(text: str, start: int) -> int:
    """The end of a plain scalar or key at ``start``: its ``:``, a comment,
    or (inside a flow collection) the next ``,``, ``]`` or ``}``."""
    before = text[:start]
    in_flow = before.count("[") + before.count("{") > before.count("]") + before.count("}")
    end = len(text)
    for i in range(start, len(text)):
        c = text[i]
        if c == ":" and (i + 1 == len(text) or text[i + 1] in " \t"):
            end = i
            break
        if c == "#" and i > start and text[i - 1] in " \t":
            end = i
            break
        if in_flow and c in ",]}":
            end = i
            break
    return max(start + 1, len(text[:end].rstrip()))


def _with_span(doc: Any, diag: Diagnostic, subject: Subject) -> Diagnostic:
    """``diag`` with its subject and, unless it has one, the range of the
    YAML token it is placed at (one line: a mapping or list that spans
    many lines is underlined at its first token)."""
    if diag.end_line is not None or diag.line is None or diag.column is None:
        return replace(diag, subject=subject)
    text = doc.line_text(diag.line)
    if text is None:
        return replace(diag, subject=subject)
    end = _token_end(text, diag.column - 1)
    return replace(diag, subject=subject, end_line=diag.line, end_column=end + 1)


def _key_span(doc: Any, parts: tuple) -> tuple[int, int, int] | None:
    """``(line, column, end column)`` of the key text that ends ``parts``,
    when it is written as is (plain or quoted) on its line."""
    if not parts or not isinstance(parts[-1], str):
        return None
    loc = doc.locate_key(parts)
    if loc is None:
        return None
    text = doc.line_text(loc.line) or ""
    key = parts[-1]
    column = loc.column
    rest = text[column - 1 :]
    if rest[:1] in ("'", '"') and rest[1 : 1 + len(key)] == key:
        column += 1
    elif not rest.startswith(key):
        return None
    return loc.line, column, column + len(key)


def _rename(doc: Any, key_parts: tuple, found: Suggestion, label: str = "key") -> dict[str, Any]:
    """``fixes``: one rename, when one candidate is closest and the key is
    written as is."""
    # The candidates are the language's own keys: defined nowhere in the file.
    out: dict[str, Any] = {}
    span = _key_span(doc, key_parts)
    if found.best is not None and span is not None:
        line, column, end = span
        out["fixes"] = (
            Fix(
                f"rename {label} '{key_parts[-1]}' to '{found.best}'",
                found.best,
                doc.name,
                line,
                column,
                line,
                end,
            ),
        )
    return out


def subject_of(parts: tuple, document: Any = None) -> Subject:
    """What a finding at ``parts`` is about.

    * ``Subject("role", name, path in the role)``: under a role
      (``roles_metadata.<role>``, in a roles document or a release record);
    * ``Subject("setting", "group.attribute", path in it)``: under
      ``attributes_metadata.editable`` of a Fuel release record;
    * ``Subject("wizard", pane, path in it)``: under ``wizard_metadata``
      (the setup wizard's pane, such as ``Compute``);
    * ``Subject("release", release name or None, path in its fields)``:
      anywhere else in a Fuel record (its ``name`` when it has one);
    * ``Subject("document", None, parts)``: the document itself.
    """
    parts = tuple(parts)
    if parts[:1] == ("roles_metadata",):
        if len(parts) >= 2:
            return Subject("role", str(parts[1]), parts[2:])
        return Subject("document", None, parts)
    if len(parts) >= 2 and isinstance(parts[0], int) and parts[1] == "fields":
        rest = parts[2:]
        if rest[:1] == ("roles_metadata",) and len(rest) >= 2:
            return Subject("role", str(rest[1]), rest[2:])
        if rest[:2] == ("attributes_metadata", "editable") and len(rest) >= 4:
            return Subject("setting", f"{rest[2]}.{rest[3]}", rest[4:])
        if rest[:1] == ("wizard_metadata",) and len(rest) >= 2:
            return Subject("wizard", str(rest[1]), rest[2:])
        name = None
        if isinstance(document, list) and parts[0] < len(document):
            record = document[parts[0]]
            fields = record.get("fields") if isinstance(record, Mapping) else None
            if isinstance(fields, Mapping) and isinstance(fields.get("name"), str):
                name = fields["name"]
        return Subject("release", name, rest if name is not None else parts)
    return Subject("document", None, parts)


class _Names:
    """The role and settings names of a document, and where each is defined."""

    def __init__(self) -> None:
        self.roles: dict[str, tuple] = {}  # name -> parts of its definition (first one)
        self.groups: dict[str, tuple] = {}
        self.attributes: dict[str, dict[str, tuple]] = {}

    def add_roles(self, roles: Any, parts: tuple) -> None:
        if isinstance(roles, Mapping):
            for name in roles:
                if isinstance(name, str):
                    self.roles.setdefault(name, (*parts, name))

    def add_fuel(self, records: Any) -> None:
        for i, record in enumerate(records):
            fields = record.get("fields") if isinstance(record, Mapping) else None
            if not isinstance(fields, Mapping):
                continue
            self.add_roles(fields.get("roles_metadata"), (i, "fields", "roles_metadata"))
            attributes = fields.get("attributes_metadata")
            editable = attributes.get("editable") if isinstance(attributes, Mapping) else None
            if not isinstance(editable, Mapping):
                continue
            for group, attrs in editable.items():
                if not isinstance(group, str):
                    continue
                here = (i, "fields", "attributes_metadata", "editable", group)
                self.groups.setdefault(group, here)
                known = self.attributes.setdefault(group, {})
                if isinstance(attrs, Mapping):
                    for attr in attrs:
                        if isinstance(attr, str):
                            known.setdefault(attr, (*here, attr))


def _related(
    doc: Any, names: tuple[str, ...], table: dict[str, tuple], what: str = "role"
) -> tuple[Related, ...]:
    """Where each of ``names`` is defined (``table``: name -> parts),
    labelled ``<what> '<name>' is defined here``."""
    out = []
    for name in names:
        where = table.get(name)
        span = _key_span(doc, where) if where is not None else None
        if span is not None:
            line, column, end = span
            out.append(
                Related(f"{what} '{name}' is defined here", doc.name, line, column, line, end)
            )
    return tuple(out)


def _near_miss(word: str, candidates: Any) -> Suggestion | None:
    """What ``word`` most likely meant, when it is near enough to be a typo."""
    found = suggest(word, candidates)
    if found is None:
        return None
    close = [c for c in found.candidates if SequenceMatcher(None, word, c).ratio() >= NEAR_MISS]
    return Suggestion(tuple(close)) if close else None


def _near_misses(doc: Any, compiler: ConditionCompiler, names: _Names) -> list[Diagnostic]:
    """``unknown-role`` and ``unknown-setting`` findings: names that are
    near misses of the document's roles and (Fuel) settings."""
    out: list[Diagnostic] = []
    for parts, items in _conflict_lists(doc.value):
        for i, name in enumerate(items):
            if isinstance(name, str) and name != "*" and name not in names.roles:
                found = _near_miss(name, list(names.roles))
                if found is not None:
                    out.append(_conflict_miss(doc, (*parts, i), name, found, names))
    seen: set = set()
    for parts, expr in compiler.expressions:
        for start, end, word, kind, known, group in _named_in(expr, names):
            if word in known:
                continue
            # Only a near miss is a finding: a role outside the document is
            # allowed in conflicts, and a settings group no record defines may
            # come from a plugin.
            found = _near_miss(word, list(known))
            if found is None:
                continue
            diag = _expression_miss(
                doc, parts, expr.text, (start, end), word, (kind, known, group), found
            )
            key = (diag.line, diag.column, diag.message)
            if key not in seen:
                seen.add(key)
                out.append(diag)
    return out


def _conflict_lists(value: Any) -> list[tuple[tuple, list]]:
    """``(parts, names)`` of every role's ``conflicts`` list of names."""
    found: list[tuple[tuple, list]] = []

    def roles_at(roles: Any, parts: tuple) -> None:
        if isinstance(roles, Mapping):
            for name, meta in roles.items():
                items = meta.get("conflicts") if isinstance(meta, Mapping) else None
                if isinstance(items, list):
                    found.append(((*parts, name, "conflicts"), items))

    if isinstance(value, Mapping):
        roles_at(value.get("roles_metadata"), ("roles_metadata",))
    elif isinstance(value, list):
        for i, record in enumerate(value):
            fields = record.get("fields") if isinstance(record, Mapping) else None
            if isinstance(fields, Mapping):
                roles_at(fields.get("roles_metadata"), (i, "fields", "roles_metadata"))
    return found


def _conflict_miss(
    doc: Any, parts: tuple, name: str, found: Suggestion, names: _Names
) -> Diagnostic:
    diag = doc.diagnostic(
        "warning",
        "unknown-role",
        f"'conflicts' names {name!r}, which is not a role of this document",
        parts,
        hint=found.hint(),
    )
    diag = _with_span(doc, diag, subject_of(parts, doc.value))
    related = _related(doc, found.candidates, names.roles)
    fixes: tuple = ()
    if found.best is not None and diag.line is not None and diag.column is not None:
        text = doc.line_text(diag.line) or ""
        column = diag.column + (1 if text[diag.column - 1 : diag.column] in ("'", '"') else 0)
        if text[column - 1 : column - 1 + len(name)] == name:
            fixes = (
                Fix(
                    f"rename role '{name}' to '{found.best}'",
                    found.best,
                    doc.name,
                    diag.line,
                    column,
                    diag.line,
                    column + len(name),
                ),
            )
    return replace(diag, related=related, fixes=fixes)


#: A name an expression reads: ``(start, end, name, kind, known names ->
#: their definitions, settings group or None)``.
Named = tuple[int, int, str, str, dict[str, tuple], str | None]


def _named_in(expr: Expression, names: _Names) -> list[Named]:
    """``(start, end, name, kind, known names)`` of each role named by a
    ``_hasRole('…')``-like call and (Fuel) each ``settings:`` group and
    attribute key of ``expr``; the span is the name's inside the text."""
    out: list[Named] = []
    stack: list[Node] = [expr.node]
    while stack:
        node = stack.pop()
        if isinstance(node, Member):
            args = node.args or ()
            if node.name in ROLE_METHODS and len(args) == 1 and names.roles:
                arg = args[0]
                if isinstance(arg, Literal) and isinstance(arg.value, str):
                    out.append((arg.start + 1, arg.end - 1, arg.value, "role", names.roles, None))
            found = _settings_chain(node)
            if found is not None:
                chain, lenient = found
                if names.groups and not lenient:
                    out.extend(_settings_keys(expr.text, chain, names))
                continue
            stack.append(node.obj)
            stack.extend(args)
        elif isinstance(node, ModelRef):
            if node.model == "settings" and names.groups and not node.lenient:
                out.extend(_settings_keys(expr.text, [node], names))
        elif isinstance(node, Not):
            stack.append(node.operand)
        elif isinstance(node, BoolOp):
            stack.extend(node.operands)
        elif isinstance(node, Compare):
            stack.extend((node.left, node.right))
    return out


def _settings_chain(node: Member) -> tuple[list[Node], bool] | None:
    """``[ModelRef, Member, …]`` of a ``settings:`` data chain ending at
    ``node``, base first, and whether it is lenient (``?``: a missing key
    is meant to be possible); ``None`` for anything else."""
    chain: list[Node] = []
    current: Node = node
    lenient = False
    while isinstance(current, Member):
        if current.args is not None or current.name.startswith("_"):
            return None
        lenient = lenient or current.lenient
        chain.append(current)
        current = current.obj
    if not isinstance(current, ModelRef) or current.model != "settings":
        return None
    chain.append(current)
    return list(reversed(chain)), lenient or current.lenient


def _settings_keys(text: str, chain: list[Node], names: _Names) -> list[Named]:
    """The first unknown key of a ``settings:group.attribute`` chain, if any."""
    base = chain[0]
    assert isinstance(base, ModelRef)
    start = base.start + len(base.model) + 1
    group = base.key
    if group not in names.groups:
        return [(start, start + len(group), group, "group", names.groups, None)]
    if len(chain) > 1:
        member = chain[1]
        assert isinstance(member, Member)
        known = names.attributes.get(group, {})
        if member.name not in known:
            pos = member.name_pos
            return [(pos, pos + len(member.name), member.name, "attribute", known, group)]
    return []


def _expression_miss(
    doc: Any,
    parts: tuple,
    expression: str,
    span: tuple[int, int],
    word: str,
    what: tuple[str, dict[str, tuple], str | None],
    found: Suggestion,
) -> Diagnostic:
    """An ``unknown-role`` / ``unknown-setting`` finding inside an expression."""
    kind, known, group = what
    at_key = bool(parts) and parts[-1] == expression
    if kind == "role":
        code, message = "unknown-role", f"{word!r} is not a role of this document"
        label = "role"
    elif kind == "group":
        code, message = "unknown-setting", f"no settings group {word!r} in this release file"
        label = "settings group"
    else:
        code = "unknown-setting"
        message = f"no setting {word!r} in the settings group {group!r} of this release file"
        label = "setting"
    diag = doc.diagnostic(
        "warning", code, message, parts, hint=found.hint(), path=format_path(parts), at_key=at_key
    )
    subject = subject_of(parts, doc.value)
    related = _related(doc, found.candidates, known, label)
    placed = _expression_at(doc, diag.line, diag.column, expression)
    if placed is None:
        return replace(_with_span(doc, diag, subject), related=related)
    line, column, text = placed
    start, end = span
    fixes: tuple = ()
    if found.best is not None:
        fixes = (
            Fix(
                f"rename {label} '{word}' to '{found.best}'",
                found.best,
                doc.name,
                line,
                column + start,
                line,
                column + end,
            ),
        )
    return replace(
        diag,
        column=column + start,
        end_line=line,
        end_column=column + end,
        source_line=text,
        subject=subject,
        related=related,
        fixes=fixes,
    )
