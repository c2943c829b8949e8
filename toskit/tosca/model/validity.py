"""The state of every property row of an entity, read from the findings' subjects.

A property table (``PropertyTable``) lists the values an entity ended up
with; the checker reports problems as diagnostics, each with a structured
:class:`~toskit.diagnostics.Subject` (entity kind, name, section and the
property path as a tuple; issue #28). :class:`FindingIndex` files a
template's diagnostics by subject, as jsonschema's ``ErrorTree`` files
errors by path, and a row's state is read from the findings filed under
its path; no message is parsed and no path string searched:

* ``valid``   — no finding names the row;
* ``invalid`` — an error names the row or a part of its value (wrong type,
  constraint or validation failure, function error …);
* ``warning`` — only warnings name it;
* ``missing`` — a required property without value or default: it has no
  row in the table, so one is added;
* ``unknown`` — a property the type does not declare; its did-you-mean
  (:attr:`RowState.suggestion`) is the replacement of the finding's fix
  (none for a tie).

A typo of a required property (``pasword`` beside a missing ``password``)
is two findings that name each other (``related``) and two rows: the
unknown ``pasword`` and the missing ``password``.

It lives in ``toskit.tosca`` (not ``toskit.display``) so that
``PropertyTable.to_frame()`` can add its ``status`` and ``problem`` columns
without importing any view. A ``ServiceTemplate`` gives its entities the
index (:func:`attach`, into their declared ``findings``); an entity's
``property_table()`` computes the states once, when it builds the table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, Subject, format_path
from toskit.records import record
from toskit.source.subjects import subject_of

if TYPE_CHECKING:
    import pandas

    from toskit.tosca.model.service import ServiceTemplate

__all__ = [
    "STATUSES",
    "declared_type",
    "row_status",
    "entity_findings",
    "entity_states",
    "FindingIndex",
    "RowState",
    "Scope",
    "attach",
    "entity_diagnostics",
    "row_states",
    "scope_of",
    "table_states",
    "with_status",
]

STATUSES = ("valid", "invalid", "warning", "missing", "unknown", "unchecked")
"""Every value of :attr:`RowState.status` (``unchecked``: the entity's
diagnostics are not known, e.g. a table built outside a loaded template)."""


@record(frozen=True)
class RowState:
    """One row of a property table with its state.

    ``row`` is the table's ``PropertyRow``, or ``None`` for a ``missing``
    property (which has no value, so no row of its own); ``type`` is then
    the declared type when known. ``parts`` is the row's property path as a
    tuple (``path`` its string).
    """

    path: str
    status: str
    diagnostics: tuple[Diagnostic, ...] = ()
    row: Any = None
    suggestion: str | None = None
    type: str | None = None
    parts: tuple[Hashable, ...] = ()

    @property
    def problem(self) -> str | None:
        """The messages of the row's diagnostics (errors first), or ``None``."""
        if not self.diagnostics:
            return None
        ranked = sorted(self.diagnostics, key=lambda d: d.severity != "error")
        return "; ".join(_message(d) for d in ranked)

    @property
    def location(self) -> str | None:
        """``file:line`` of the first diagnostic, when it has one."""
        for d in self.diagnostics:
            if d.line is not None:
                return f"{d.file or '<unknown>'}:{d.line}"
        return None


def _message(d: Diagnostic) -> str:
    text = d.message
    if d.hint:
        text += f" ({d.hint})"
    return text


@record(frozen=True)
class Scope:
    """Where an entity's property findings are filed: the subject's kind,
    name and section, and the path prefix before a property path (a
    capability's ``(name, "properties")``)."""

    kind: str
    name: str | None
    section: str | None = None
    prefix: tuple[Hashable, ...] = ()

    def property_path(self, subject: Subject | None) -> tuple[Hashable, ...] | None:
        """The property path ``subject`` names in this scope, or ``None``."""
        if subject is None or subject.kind != self.kind or subject.name != self.name:
            return None
        if subject.section != self.section:
            return None
        n = len(self.prefix)
        path = subject.path
        if len(path) <= n or path[:n] != self.prefix:
            return None
        return path[n:]


def scope_of(parts: Sequence[Hashable]) -> Scope | None:
    """The :class:`Scope` of the entity written at document path ``parts``
    (a template, a capability of a node template), or ``None``."""
    if not parts:
        return None
    subject = subject_of(parts)
    if subject.kind == "document":
        return None
    if subject.section is None and not subject.path:
        return Scope(subject.kind, subject.name)
    if subject.section == "capabilities" and len(subject.path) == 1:
        return Scope(subject.kind, subject.name, "capabilities", (subject.path[0], "properties"))
    return None


class FindingIndex:
    """A template's diagnostics filed by subject (built on first use: most
    tables of a large template are never shown)."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self._diagnostics = diagnostics
        self._by_entity: dict[tuple[str, str | None], list[Diagnostic]] | None = None

    @property
    def any(self) -> bool:
        """Whether the template has any diagnostic at all."""
        return bool(self._diagnostics)

    def about(self, kind: str, name: str | None) -> list[Diagnostic]:
        """Every diagnostic whose subject is the entity ``kind``/``name``."""
        if self._by_entity is None:
            groups: dict[tuple[str, str | None], list[Diagnostic]] = {}
            for d in self._diagnostics:
                subject = d.subject
                if subject is not None:
                    groups.setdefault((subject.kind, subject.name), []).append(d)
            self._by_entity = groups
        return self._by_entity.get((kind, name), [])

    def findings(self, scope: Scope) -> list[tuple[tuple[Hashable, ...], Diagnostic]]:
        """``(property path, diagnostic)`` of every finding about a property in ``scope``."""
        out = []
        for d in self.about(scope.kind, scope.name):
            path = scope.property_path(d.subject)
            if path is not None:
                out.append((path, d))
        return out


def attach(template: ServiceTemplate) -> None:
    """Give every entity of ``template`` (node, relationship, group and policy
    templates, capabilities) the template's :class:`FindingIndex`, in its
    declared ``findings`` attribute."""
    index = FindingIndex(template.diagnostics)
    for node in template.node_templates.values():
        _set_index(node, index)
        for capability in node.capabilities.values():
            _set_index(capability, index)
    for entities in (template.relationship_templates, template.groups, template.policies):
        for entity in entities.values():
            _set_index(entity, index)


def _set_index(entity: Any, index: FindingIndex) -> None:
    # A read-only stand-in cannot take the index: its rows stay unchecked.
    # (try/except, not contextlib.suppress: twice per node of a large load.)
    try:  # noqa: SIM105
        entity.findings = index
    except (AttributeError, TypeError):
        pass


def entity_findings(entity: Any) -> list[tuple[tuple[Hashable, ...], Diagnostic]] | None:
    """``(property path, diagnostic)`` of ``entity``'s property findings (``None``: not known)."""
    index = getattr(entity, "findings", None)
    if not isinstance(index, FindingIndex):
        return None
    if not index.any:
        return []  # a template without findings (the common case): nothing to file
    scope = scope_of(getattr(entity, "parts", ()) or ())
    return None if scope is None else index.findings(scope)


def entity_diagnostics(entity: Any) -> list[Diagnostic] | None:
    """Diagnostics about ``entity``'s properties (``None``: not known)."""
    found = entity_findings(entity)
    return None if found is None else [d for _, d in found]


def row_status(
    findings: Iterable[tuple[tuple[Hashable, ...], Diagnostic]] | None,
) -> str | Callable[[tuple], str]:
    """The status of a row, from its tuple path: a function, or one status
    for every row (``valid`` with no finding, ``unchecked`` when the
    findings are not known). The same rules as :func:`row_states`."""
    if findings is None:
        return "unchecked"
    unknown: set[tuple] = set()
    others: list[tuple[tuple, str]] = []
    for rel, d in findings:
        if d.code == "unknown-property":
            unknown.add(rel)
        elif d.code != "missing-property":
            others.append((rel, d.severity))
    if not unknown and not others:
        return "valid"

    def status(parts: tuple) -> str:
        if parts in unknown:
            return "unknown"
        worst = "valid"
        for rel, severity in others:
            if _covers(parts, rel) or _covers(rel, parts):
                if severity == "error":
                    return "invalid"
                worst = "warning"
        return worst

    return status


def _covers(outer: tuple, inner: tuple) -> bool:
    """``outer`` is ``inner`` or one of its ancestors."""
    return inner[: len(outer)] == outer


def _suggestion(d: Diagnostic) -> str | None:
    """The one rename of an unknown property: its fix's replacement (a tie has none)."""
    return d.fixes[0].replacement.strip("'\"") if len(d.fixes) == 1 else None


def row_states(
    rows: Iterable[Any],
    findings: Iterable[tuple[tuple[Hashable, ...], Diagnostic]] | None,
    *,
    declared_type: Any = None,
) -> list[RowState]:
    """The state of each row, plus a ``missing`` row per required property
    that has no value (placed after the last row it shares a parent with).

    ``findings`` are ``(property path, diagnostic)`` pairs of the entity
    (:meth:`FindingIndex.findings`), or ``None`` when they are not known
    (every row is then ``unchecked``). ``declared_type(parts)`` gives the
    type name of a missing property, when the caller can tell.
    """
    rows = list(rows)
    if findings is None:
        return [RowState(str(_path(r)), "unchecked", row=r, parts=_parts_of(r)) for r in rows]
    missing: dict[tuple, list[Diagnostic]] = {}
    unknown: dict[tuple, Diagnostic] = {}
    others: list[tuple[tuple, Diagnostic]] = []
    for rel, d in findings:
        if d.code == "missing-property":
            missing.setdefault(rel, []).append(d)
        elif d.code == "unknown-property":
            unknown.setdefault(rel, d)
        else:
            others.append((rel, d))
    if not missing and not unknown and not others:  # no finding (most entities): all valid
        return [RowState(str(_path(r)), "valid", (), r, parts=_parts_of(r)) for r in rows]
    states: list[RowState] = []
    for r in rows:
        parts = _parts_of(r)
        path = str(_path(r))
        found = [d for rel, d in others if _covers(parts, rel) or _covers(rel, parts)]
        if parts in unknown:
            d = unknown[parts]
            states.append(RowState(path, "unknown", (d, *found), r, _suggestion(d), parts=parts))
        elif found:
            status = "invalid" if any(d.severity == "error" for d in found) else "warning"
            states.append(RowState(path, status, tuple(found), r, parts=parts))
        else:
            states.append(RowState(path, "valid", (), r, parts=parts))
    for rel, diags in missing.items():
        state = RowState(
            format_path(rel),
            "missing",
            tuple(diags),
            None,
            type=declared_type(rel) if declared_type else None,
            parts=rel,
        )
        states.insert(_insert_at(states, rel), state)
    # A problem at a path no row shows (say, a value the merge dropped) still
    # gets a row, so that the table never hides an error.
    shown = [s.parts for s in states]
    orphans: dict[tuple, list[Diagnostic]] = {}
    for rel, d in others:
        if not any(_covers(p, rel) or _covers(rel, p) for p in shown):
            orphans.setdefault(rel, []).append(d)
    for rel, diags in orphans.items():
        status = "invalid" if any(d.severity == "error" for d in diags) else "warning"
        states.insert(
            _insert_at(states, rel),
            RowState(format_path(rel), status, tuple(diags), None, parts=rel),
        )
    return states


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _path(row: Any) -> Any:
    return row.get("path", "") if isinstance(row, Mapping) else getattr(row, "path", "")


def _parts_of(row: Any) -> tuple[Hashable, ...]:
    """A row's tuple path (``PropertyRow.parts``; a plain row's ``path`` read as one)."""
    parts = row.get("parts") if isinstance(row, Mapping) else getattr(row, "parts", None)
    if parts:
        return tuple(parts)
    return tuple(int(i) if i else k for k, i in _PATH_PART.findall(str(_path(row))))


def _insert_at(states: list[RowState], path: tuple) -> int:
    """After the last row under the same parent (else the nearest ancestor), else at the end."""
    parent = path[:-1]
    while parent:
        at = None
        for i, s in enumerate(states):
            if _covers(parent, s.parts):
                at = i + 1
        if at is not None:
            return at
        parent = parent[:-1]
    return len(states)


def declared_type(entity: Any) -> Callable[[tuple], str | None]:
    """``parts -> type name`` for a property of ``entity`` (walks data types)."""
    definitions = getattr(entity, "property_definitions", None) or {}
    value_type = getattr(entity, "_value_type", None)
    entity_type = getattr(entity, "type", None)  # not the entity: the table must not keep it alive

    def lookup(parts: tuple[Hashable, ...]) -> str | None:
        keys = [k for k in parts if not isinstance(k, int)]
        defs: Mapping[str, Any] = definitions
        owner = entity_type
        type_name = None
        for i, key in enumerate(keys):
            pdef = (
                defs.get(key)  # type: ignore[call-overload]
                if isinstance(defs, Mapping)
                else None
            )
            if pdef is None:
                return None
            type_name = getattr(pdef, "type", None)
            if i + 1 < len(keys):
                if not callable(value_type) or type_name is None:
                    return None
                try:
                    nested = value_type(type_name, owner)
                except Exception:  # noqa: BLE001 - an unresolvable type just has no name
                    return None
                defs = getattr(nested, "properties", None) or {}
                owner = nested
        return type_name

    return lookup


def entity_states(entity: Any, rows: Sequence[Any]) -> list[RowState]:
    """The states of ``rows`` of ``entity``'s property table, from the
    findings filed under the entity's subject (``unchecked`` when the entity
    has no index). Called once, when the table is built."""
    return row_states(rows, entity_findings(entity), declared_type=declared_type(entity))


def table_states(table: Any, entity: Any = None) -> list[RowState]:
    """The row states of a ``PropertyTable``: those computed when the table
    was built (``table.states``), or of ``entity`` when given; ``unchecked``
    rows for a table made outside a loaded template."""
    rows = getattr(table, "rows", table)
    if entity is not None:
        return entity_states(entity, rows)
    states = getattr(table, "states", None)
    if isinstance(states, list):
        return states
    return row_states(rows, None)


def with_status(table: Any, frame: pandas.DataFrame) -> pandas.DataFrame:
    """``frame`` (a table's ``to_frame()``) with ``status`` and ``problem``
    columns, and a row per missing required property (value ``None``, also
    for a problem at a path that has no row)."""
    import pandas as pd

    states = table_states(table)
    by_path = {s.path: s for s in states if s.row is not None}
    frame = frame.copy()
    frame["status"] = [by_path[p].status if p in by_path else "unchecked" for p in frame["path"]]
    problems = [by_path[p].problem if p in by_path else None for p in frame["path"]]
    frame["problem"] = pd.Series(problems, index=frame.index, dtype=object)
    if not any(s.row is None for s in states):
        return frame
    records = frame.to_dict("records")
    position = {r["path"]: i for i, r in enumerate(records)}
    out: list[dict[str, Any]] = []
    for s in states:
        if s.row is not None and s.path in position:
            out.append(records[position[s.path]])
        elif s.row is None:
            blank: dict[str, Any] = {c: None for c in frame.columns}
            blank.update(path=s.path, type=s.type, source="", status=s.status, problem=s.problem)
            if "overridden" in frame.columns:
                blank["overridden"] = []
            out.append(blank)
    result = pd.DataFrame(out, columns=list(frame.columns))
    for column in ("value", "type", "problem"):  # None stays None (not NaN) in the added rows
        result[column] = pd.Series([r[column] for r in out], index=result.index, dtype=object)
    return result
