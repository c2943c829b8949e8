"""Result objects of a loaded template: node templates, property tables.

``NodeTemplate`` and ``PropertyTable`` are public API. They are
plain read-only objects built by :mod:`toskit.tosca.load.loader`; the notebook
views render them through ``toskit.display.to_html``.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, format_path
from toskit.plain import bounded_text
from toskit.runtime import gc_paused
from toskit.tosca.model.validity import (
    FindingIndex,
    RowState,
    declared_type,
    entity_findings,
    row_states,
    row_status,
    with_status,
)
from toskit.tosca.types.definitions import PropertyDefinition, Type
from toskit.tosca.values.resolve import Origin, Resolution

if TYPE_CHECKING:
    import pandas

__all__ = [
    "CapabilityTemplate",
    "EntityTemplate",
    "NodeTemplate",
    "PropertyRow",
    "PropertyTable",
    "Requirement",
]


@dataclass(frozen=True)
class PropertyRow:
    """One leaf of resolved properties: where it is, what it is, who set it.

    ``overridden`` lists the lower-layer values this one replaced, lowest
    first, as ``(value, source)`` pairs (filled only when the table was
    built with ``show_overridden=True``). ``parts`` is the path as a tuple
    (``("eps", 0, "port")``; ``path`` is its string) and ``status`` the
    row's state, computed from the findings' subjects when the table is
    built (``valid``, ``invalid``, ``warning``, ``unknown``; ``unchecked``
    for a row made outside a loaded template; :mod:`toskit.tosca.model.validity`).

    ``origin`` is the structured form of ``source`` (issue #32): the layer's
    label, document and node path, whose ``file:line`` is found only when
    asked (:meth:`~toskit.tosca.values.resolve.Origin.span`); ``stack`` holds
    every layer that wrote the path as ``(value, Origin)``, lowest first,
    the winner last (filled with ``overridden``). ``node.explain(path)``
    reads them as an :class:`~toskit.tosca.explain.Explanation`.
    """

    path: str
    value: Any
    type: str | None
    source: str
    overridden: tuple[tuple[Any, str], ...] = ()
    parts: tuple[Hashable, ...] = ()
    status: str = "unchecked"
    origin: Origin | None = field(default=None, compare=False, repr=False)
    stack: tuple[tuple[Any, Origin], ...] = field(default=(), compare=False, repr=False)


class PropertyTable:
    """One row per leaf of an entity's resolved properties.

    Data-type values expand into their fields; a ``list``, a ``map``,
    ``None`` and a function call are one row each (a call's value is
    ``str()`` of it). ``rows`` works without pandas; ``to_frame()`` needs it.
    """

    def __init__(self, owner: str, rows: list[PropertyRow], show_overridden: bool = False) -> None:
        self.owner = owner
        self.rows = rows
        self.show_overridden = show_overridden
        # ``(property path, diagnostic)`` of the entity's findings (set by the
        # entity that builds the table; ``None``: not known) and the lookup of
        # a missing property's declared type (not the entity: no cycle).
        self._findings: list[tuple[tuple, Diagnostic]] | None = None
        self._declared_type: Callable[[tuple], str | None] | None = None
        self._states: list[RowState] | None = None

    @property
    def states(self) -> list[RowState]:
        """Every row's :class:`~toskit.tosca.model.validity.RowState` and a row per
        missing required property (``unchecked`` rows for a table made
        outside a loaded template); computed on first use, from the findings'
        subjects."""
        if self._states is None:
            self._states = row_states(self.rows, self._findings, declared_type=self._declared_type)
        return self._states

    def __iter__(self) -> Iterator[PropertyRow]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, path: str) -> PropertyRow:
        """The row with dotted ``path``."""
        for row in self.rows:
            if row.path == path:
                return row
        raise KeyError(path)

    @gc_paused  # a heavy view builder: no full collection over the template (#31)
    def to_frame(self) -> pandas.DataFrame:
        """A pandas DataFrame with columns path, value, type, source (and overridden)."""
        import pandas as pd

        states = self.states
        if self.rows and all(s.row is not None for s in states):
            # No missing property: one DataFrame built from whole columns, the
            # frame with_status returns for these rows (same columns, dtypes
            # and values), ~3x cheaper than building it and adding columns (#31).
            return _frame_of(self.rows, states, self.show_overridden)
        columns = ["path", "value", "type", "source"]
        data: list[list[Any]] = [[r.path, r.value, r.type, r.source] for r in self.rows]
        if self.show_overridden:
            columns.append("overridden")
            for row, r in zip(data, self.rows):
                row.append([value for value, _ in r.overridden])
        return with_status(
            self, pd.DataFrame(data, columns=columns)
        )  # status, problem (validity.py)

    def __repr__(self) -> str:
        if not self.rows:
            return f"<PropertyTable {self.owner}: no properties>"
        width = max(len(r.path) for r in self.rows)
        lines = [f"PropertyTable {self.owner} ({len(self.rows)} rows)"]
        for r in self.rows:
            lines.append(
                f"  {r.path:<{width}}  {_short(r.value):<24} {r.type or 'any':<18} {r.source}"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def _frame_of(
    rows: list[PropertyRow], states: list[RowState], show_overridden: bool
) -> pandas.DataFrame:
    """The frame of a table whose every state has a row: what ``with_status``
    makes of it (tests/tosca/test_to_frame_fast.py compares the two)."""
    import numpy as np
    import pandas as pd

    by_path = {s.path: s for s in states}
    paths = [r.path for r in rows]
    found = [by_path.get(path) for path in paths]
    types = [r.type for r in rows]
    # Columns of text only (path, source, status; type when no row lacks one)
    # are built in the dtype pandas infers for text, without its inference
    # per column (~40 % of a frame, #31); the value column is a plain list,
    # which pandas infers as the general path's rows (int64, object...).
    text = _text_column
    columns: list[Any] = [
        text(paths),
        [r.value for r in rows],
        text(types) if None not in types else types,
        text([r.source for r in rows]),
    ]
    if show_overridden:
        columns.append([[value for value, _ in r.overridden] for r in rows])
    columns.append(text([s.status if s is not None else "unchecked" for s in found]))
    problems = np.empty(len(rows), dtype=object)  # object even when all None or all str
    problems[:] = [s.problem if s is not None else None for s in found]
    columns.append(problems)
    names = _FRAME_COLUMNS[show_overridden]
    fast = _fast_frame()
    if fast is None:  # a pandas without them: the public constructor (the same frame)
        # (the problem column as an object Series: an object array is inferred as str)
        columns[-1] = pd.Series(columns[-1], dtype=object)
        return pd.DataFrame(dict(zip(names, columns)))
    # DataFrame(dict) spends ~40 % of a 12-row frame aligning, indexing and
    # inferring (bench/bench_frame.py); here the list columns (value; type
    # with a None; overridden) go through the inference DataFrame(dict)
    # applies to each (sanitize_array), the others are built in their
    # dtype, so the frame is the same (tests/tosca/test_to_frame_fast.py).
    from_arrays, sanitize = fast
    index = pd.RangeIndex(len(rows))
    arrays = [sanitize(c, index) if c.__class__ is list else c for c in columns]
    return from_arrays(arrays, columns=_column_index(names), index=index, verify_integrity=False)


_FRAME_COLUMNS = {
    False: ["path", "value", "type", "source", "status", "problem"],
    True: ["path", "value", "type", "source", "overridden", "status", "problem"],
}


_COLUMN_INDEX: dict[int, Any] = {}  # pandas.Index of _FRAME_COLUMNS' lists, by length


def _column_index(names: list[str]) -> Any:
    """The frame's column Index: a copy of one built once (a copy is 5x cheaper
    than building it from the names, and its ``name`` is the frame's own)."""
    index = _COLUMN_INDEX.get(len(names))
    if index is None:
        import pandas as pd

        index = _COLUMN_INDEX[len(names)] = pd.Index(names)
    return index.copy()


_FAST_FRAME: list[Any] = []  # (DataFrame._from_arrays, sanitize_array) or None (once)


def _fast_frame() -> tuple[Callable[..., Any], Callable[..., Any]] | None:
    """pandas' own steps of ``DataFrame(dict)`` for columns already aligned
    (internal names: ``None`` when this pandas lacks them)."""
    if not _FAST_FRAME:
        import pandas as pd

        try:
            from pandas.core.construction import sanitize_array
        except ImportError:
            sanitize_array = None
        from_arrays = getattr(pd.DataFrame, "_from_arrays", None)
        ok = sanitize_array is not None and from_arrays is not None
        _FAST_FRAME.append((from_arrays, sanitize_array) if ok else None)
    return _FAST_FRAME[0]


_TEXT_COLUMN: list[Callable[[list[Any]], Any]] = []  # the builder _text_column uses (once)


def _text_column(values: list[Any]) -> Any:
    """``values`` (all ``str``) as the column pandas would infer for them:
    ``str`` (pandas 3) or ``object`` (pandas 2), built without inferring."""
    if not _TEXT_COLUMN:
        import numpy as np
        import pandas as pd

        dtype = pd.Series(["a"]).dtype
        if isinstance(dtype, pd.StringDtype):
            # The array class's own constructor: what pd.array(values, dtype)
            # ends in, without its dispatch (4 columns a frame, #31).
            array_class = dtype.construct_array_type()

            def build(values: list[Any]) -> Any:
                return array_class._from_sequence(values, dtype=dtype)
        else:  # pandas 2: object

            def build(values: list[Any]) -> Any:
                column = np.empty(len(values), dtype=object)
                column[:] = values
                return column

        _TEXT_COLUMN.append(build)
    return _TEXT_COLUMN[0](values)


def _short(value: Any) -> str:
    # repr built within the cell's width (#37: a value aliasing a huge string)
    text = bounded_text(value, 25, style="repr") if not isinstance(value, str) else value[:25]
    return text if len(text) <= 24 else text[:21] + "..."


def _is_call(value: Any) -> bool:
    return type(value).__name__ == "Call"


def build_rows(
    resolution: Resolution,
    definitions: Mapping[str, PropertyDefinition],
    value_type: Any,
    owner_type: Type | None,
    show_overridden: bool,
    status: str | Callable[[tuple], str] = "unchecked",
) -> list[PropertyRow]:
    """Flatten a resolution into rows (see :class:`PropertyTable`).

    ``status`` is every row's status, or a function of the row's tuple path
    (:func:`~toskit.tosca.model.validity.row_status`).
    """
    rows: list[PropertyRow] = []

    def visit(value: Any, type_name: str | None, owner: Type | None, rel: tuple) -> None:
        vt = value_type(type_name, owner) if type_name else None
        if (
            isinstance(vt, Type)
            and vt.base_primitive is None
            and isinstance(value, Mapping)
            and not _is_call(value)
        ):
            fields = vt.properties
            for key, item in value.items():
                fdef = fields.get(key)
                visit(item, fdef.type if fdef else None, vt, (*rel, key))
            return
        origin = origin_at(resolution, rel)
        below = resolution.overridden.get(rel, ()) if show_overridden else ()
        rows.append(
            PropertyRow(
                # One key (most rows) is its own path: format_path only for the rest.
                path=rel[0] if len(rel) == 1 and rel[0].__class__ is str else format_path(rel),
                value=str(value) if _is_call(value) else value,
                type=type_name,
                source=origin.source,
                overridden=tuple((v, o.source) for v, o in below),
                parts=rel,
                status=status if status.__class__ is str else status(rel),  # type: ignore[operator]
                origin=origin,
                stack=(*below, (value, origin)) if show_overridden else (),
            )
        )

    for name, value in resolution.values.items():
        pdef = definitions.get(name)
        visit(value, pdef.type if pdef else None, owner_type, (name,))
    return rows


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _parse_path(path: str) -> tuple:
    """``"eps[0].port"`` -> ``("eps", 0, "port")``: the inverse of ``format_path``."""
    return tuple(int(index) if index else key for key, index in _PATH_PART.findall(path))


_NO_ORIGIN = Origin("template", None, ())
_EXPLAIN: dict[str, Any] = {}  # toskit.tosca.explain's entry point, once imported


def origin_at(resolution: Resolution, rel: tuple) -> Origin:
    """The :class:`Origin` of the value at ``rel``: the nearest recorded one,
    its document path extended by the rest of ``rel`` (the merge records an
    origin only where it differs from its parent's; see resolve.py)."""
    origins = resolution.origins
    for i in range(len(rel), -1, -1):
        origin = origins.get(rel[:i])
        if origin is not None:
            return (
                origin
                if i == len(rel)
                else Origin(origin.source, origin.doc, (*origin.parts, *rel[i:]))
            )
    return _NO_ORIGIN


def _origin_of(resolution: Resolution, rel: tuple) -> str:
    return origin_at(resolution, rel).source


class EntityTemplate:
    """Shared behaviour of everything with resolved properties."""

    kind = "entity"

    def __init__(
        self,
        name: str,
        type: Type,
        *,
        definitions: Mapping[str, PropertyDefinition],
        resolution: Resolution,
        value_type: Any,
        description: str | None = None,
        metadata: Mapping | None = None,
        parts: tuple[Hashable, ...] = (),
        type_known: bool = True,
    ) -> None:
        self._set_up(
            name,
            type,
            definitions,
            resolution,
            value_type,
            description,
            metadata,
            parts,
            type_known,
        )

    def _set_up(
        self,
        name: str,
        type: Type,
        definitions: Mapping[str, PropertyDefinition],
        resolution: Resolution,
        value_type: Any,
        description: str | None,
        metadata: Mapping | None,
        parts: tuple[Hashable, ...],
        type_known: bool,
    ) -> None:
        """The shared fields, taken by position: a subclass's ``__init__``
        calls this rather than forwarding ``*args, **kwargs`` to
        ``super().__init__``, which doubled a template's construction (a
        load makes one per node and capability, bench B1, #31)."""
        self.name = name
        self.type = type
        self.description = description
        self.metadata = (
            dict(metadata) if metadata is not None and isinstance(metadata, Mapping) else {}
        )
        self.parts = parts
        self.type_known = type_known
        self._definitions = definitions
        self._resolution = resolution
        resolution.entity = self
        self._value_type = value_type
        self._tables: dict[bool, PropertyTable] = {}
        # The template's findings filed by subject (set by ServiceTemplate:
        # validity.attach); ``None`` outside a loaded template.
        self.findings: FindingIndex | None = None
        # A weak reference to the ServiceTemplate (set by it), for explain's
        # hops to other templates and inputs.
        self._service: Callable[[], Any] | None = None

    @property
    def properties(self) -> dict[str, Any]:
        """Fully resolved property values (defaults and functions applied)."""
        return self._resolution.values

    @property
    def property_definitions(self) -> Mapping[str, PropertyDefinition]:
        """The definitions the properties were resolved against."""
        return self._definitions

    def source_of(self, path: str | tuple) -> str | None:
        """The layer that supplied the value at ``path`` (``"eps[0].port"`` or a tuple)."""
        rel = _parse_path(path) if isinstance(path, str) else tuple(path)
        if not rel or rel[0] not in self._resolution.values:
            return None
        return _origin_of(self._resolution, rel)

    def explain(self, path: str | tuple) -> Any:
        """Why the property at ``path`` has its value: an
        :class:`~toskit.tosca.explain.Explanation` (layer stack with file and
        range, function hops, checks, findings). A path naming no value
        raises :class:`~toskit.tosca.explain.ExplainError` with a did-you-mean."""
        run = _EXPLAIN.get("entity")
        if run is None:  # imported on first use (toskit check never needs it)
            from toskit.tosca.explain import explain_entity

            run = _EXPLAIN["entity"] = explain_entity
        return run(self, path)

    def property_table(self, show_overridden: bool = False) -> PropertyTable:
        """One row per leaf value (built once and cached)."""
        table = self._tables.get(show_overridden)
        if table is None:
            # Each row's status from the findings filed under this entity's
            # subject (issue #28), set as the row is made; the full states
            # (missing rows too) when the table is asked for them.
            findings = entity_findings(self)
            rows = build_rows(
                self._resolution,
                self._definitions,
                self._value_type,
                self.type,
                show_overridden,
                status=row_status(findings),
            )
            table = PropertyTable(self.name, rows, show_overridden)
            if findings is not None:
                table._findings = findings
                if findings:  # only a missing row needs its declared type
                    table._declared_type = declared_type(self)
            self._tables[show_overridden] = table
        return table

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.name}: {self.type.name}"
            f" ({len(self.properties)} properties)>"
        )

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


class CapabilityTemplate(EntityTemplate):
    """A capability of a node template, with its resolved properties."""

    kind = "capability"

    def __init__(
        self,
        name: str,
        type: Type,
        *,
        definitions: Mapping[str, PropertyDefinition],
        resolution: Resolution,
        value_type: Any,
        description: str | None = None,
        metadata: Mapping | None = None,
        parts: tuple[Hashable, ...] = (),
        type_known: bool = True,
        node: NodeTemplate | None = None,
    ) -> None:
        self._set_up(
            name,
            type,
            definitions,
            resolution,
            value_type,
            description,
            metadata,
            parts,
            type_known,
        )
        # A weak reference: the node holds its capabilities, and a cycle would
        # keep a dropped template alive until the cyclic collector runs.
        self._node = weakref.ref(node) if node is not None else None

    @property
    def node(self) -> NodeTemplate | None:
        """The node template that owns this capability."""
        return self._node() if self._node is not None else None


@dataclass
class Requirement:
    """A requirement assignment and the node template it was resolved to."""

    name: str
    target_name: str | None = None
    target: NodeTemplate | None = None
    capability: str | None = None
    relationship: Any = None
    node_filter: Any = None
    raw: Any = None
    properties: dict[str, Any] = field(default_factory=dict)
    relationship_type: Type | None = None
    relationship_template: RelationshipTemplate | None = None

    def __repr__(self) -> str:
        target = self.target.name if self.target else (self.target_name or "?")
        return f"<Requirement {self.name} -> {target}>"


class NodeTemplate(EntityTemplate):
    """A node template: its type, resolved properties, capabilities and requirements."""

    kind = "node"

    def __init__(
        self,
        name: str,
        type: Type,
        *,
        definitions: Mapping[str, PropertyDefinition],
        resolution: Resolution,
        value_type: Any,
        description: str | None = None,
        metadata: Mapping | None = None,
        parts: tuple[Hashable, ...] = (),
        type_known: bool = True,
    ) -> None:
        self._set_up(
            name,
            type,
            definitions,
            resolution,
            value_type,
            description,
            metadata,
            parts,
            type_known,
        )
        self.requirements: list[Requirement] = []
        self.capabilities: dict[str, CapabilityTemplate] = {}
        self.directives: list[str] = []
        self.count: int = 1
        # The template as written (after ``copy``), for requirements, capabilities
        # and artifacts.
        self.raw: Mapping[str, Any] = {}

    def requirement(self, name: str) -> Requirement | None:
        """The first requirement assignment called ``name``."""
        return next((r for r in self.requirements if r.name == name), None)


class RelationshipTemplate(EntityTemplate):
    """A relationship template."""

    kind = "relationship"


class GroupTemplate(EntityTemplate):
    """A group definition in a topology."""

    kind = "group"

    def __init__(
        self,
        name: str,
        type: Type,
        *,
        definitions: Mapping[str, PropertyDefinition],
        resolution: Resolution,
        value_type: Any,
        description: str | None = None,
        metadata: Mapping | None = None,
        parts: tuple[Hashable, ...] = (),
        type_known: bool = True,
        members: list[str] | None = None,
    ) -> None:
        self._set_up(
            name,
            type,
            definitions,
            resolution,
            value_type,
            description,
            metadata,
            parts,
            type_known,
        )
        self.members = members or []


class PolicyTemplate(EntityTemplate):
    """A policy definition in a topology."""

    kind = "policy"

    def __init__(
        self,
        name: str,
        type: Type,
        *,
        definitions: Mapping[str, PropertyDefinition],
        resolution: Resolution,
        value_type: Any,
        description: str | None = None,
        metadata: Mapping | None = None,
        parts: tuple[Hashable, ...] = (),
        type_known: bool = True,
        targets: list[str] | None = None,
    ) -> None:
        self._set_up(
            name,
            type,
            definitions,
            resolution,
            value_type,
            description,
            metadata,
            parts,
            type_known,
        )
        self.targets = targets or []


__all__ += ["GroupTemplate", "PolicyTemplate", "RelationshipTemplate"]
