"""Result objects of a loaded template: node templates, property tables.

``NodeTemplate`` and ``PropertyTable`` are public API. They are
plain read-only objects built by :mod:`toskit.tosca.load.loader`; the notebook
views render them through ``toskit.display.to_html``.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, format_path
from toskit.plain import bounded_text
from toskit.records import field, record
from toskit.runtime import gc_paused
from toskit.tosca.model.validity import (
    FindingIndex,
    RowState,
    declared_type,
    entity_findings,
    row_states,
    row_status,
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


@record(frozen=True)
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
        self._rows: list[PropertyRow] | None = rows
        self.show_overridden = show_overridden
        # Set instead of rows by the entity that builds the table: what
        # build_rows reads, so that rows are made on first use, and a frame of
        # a table no finding names is read from the resolution without them
        # (a row object per leaf was a third of a frame per node, #31).
        self._source: _LeafSource | None = None
        # ``(property path, diagnostic)`` of the entity's findings (set by the
        # entity that builds the table; ``None``: not known) and the lookup of
        # a missing property's declared type (not the entity: no cycle).
        self._findings: list[tuple[tuple, Diagnostic]] | None = None
        self._declared_type: Callable[[tuple], str | None] | None = None
        self._states: list[RowState] | None = None

    @property
    def rows(self) -> list[PropertyRow]:
        """The rows (:class:`PropertyRow`), made on first use."""
        rows = self._rows
        if rows is None:
            source = self._source
            if source is None:  # not reachable through the constructor: no rows
                rows = []
            else:
                rows = build_rows(*source[:5], status=source[5])
            self._rows = rows
        return rows

    @rows.setter
    def rows(self, rows: list[PropertyRow]) -> None:
        self._rows = rows

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
        """A pandas DataFrame with columns path, value, type, source (and
        overridden), status and problem.

        A missing required property is a row of its own (value ``None``, its
        declared type, source ``""``); the value and type columns of such a
        table are ``object`` (every value as the row holds it). An empty
        table has the same columns, text ones ``str`` as in any other table.
        """
        if self._states is None and self._findings is not None and not self._findings:
            # No finding names this entity (the common case): every row is
            # valid and none is missing, row_states' answer, which is not
            # built for it (a third of the rest of a frame per node, #31).
            columns = _Columns(self.show_overridden, with_node=False)
            if self._rows is None and self._source is not None:
                columns.add_leaves(None, self._source[:4], "valid")
            else:
                columns.add_rows(None, self.rows, "valid")
            return columns.frame()
        return _frame_of(self.rows, self.states, self.show_overridden)

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
    """The frame of one table (``PropertyTable.to_frame``)."""
    columns = _Columns(show_overridden, with_node=False)
    columns.add_table(None, rows, states)
    return columns.frame()


def entities_frame(entities: Iterable[EntityTemplate], show_overridden: bool) -> pandas.DataFrame:
    """One frame of every entity's property rows, a ``node`` column first
    (``ServiceTemplate.property_frame``): the rows, columns, dtypes and values
    of every entity's ``property_table(show_overridden).to_frame()`` with the
    entity's name in front, concatenated as ``pandas.concat`` would, built as
    one DataFrame (tests/tosca/test_property_frame.py compares the two).

    An entity whose rows are all there and whose findings name none of them
    (most of them) is read straight from its resolution, without building
    its table: the cost that made one frame per node 0.2 ms (#31)."""
    columns = _Columns(show_overridden, with_node=True)
    for entity in entities:
        findings = entity_findings(entity)
        if not findings and isinstance(entity, EntityTemplate):
            source = (entity._resolution, entity._definitions, entity._value_type, entity.type)
            columns.add_leaves(entity.name, source, "unchecked" if findings is None else "valid")
        else:  # findings to file row by row, maybe missing rows: the table's own states
            table = entity.property_table(show_overridden)
            columns.add_table(entity.name, table.rows, table.states)
    return columns.frame()


class _Columns:
    """The columns of one or more property tables, gathered as plain lists and
    assembled into one DataFrame at the end (no frame per table).

    The text columns (node, path, source, status) are ``str`` in every
    table's frame, so they are built once over all rows. The value column
    (and type, when a table has a ``None`` type or a missing row) is inferred
    per table, as each table's own frame infers it (a table of integers is
    ``int64``), then the per-table arrays are combined as ``pandas.concat``
    combines the frames' columns (:func:`_combine`)."""

    def __init__(self, show_overridden: bool, with_node: bool) -> None:
        self.show_overridden = show_overridden
        self.with_node = with_node
        self.nodes: list[str] = []
        self.paths: list[str] = []
        self.sources: list[str] = []
        self.statuses: list[str] = []
        self.problems: list[str | None] = []
        self.overridden: list[list[Any]] = []
        # Per table: its values (inferred as one column, or ``object`` as
        # they are: a table with a missing row) and its types (text, inferred
        # when one is None, or object).
        self.values: list[tuple[list[Any], bool]] = []
        self.types: list[tuple[list[Any], str]] = []

    def add_leaves(
        self, name: str | None, source: tuple[Resolution, Any, Any, Any], status: str
    ) -> None:
        """The rows of a resolution, ``(resolution, definitions, value_type,
        owner type)``, without making them (what :func:`build_rows` makes of
        it), every row with ``status``."""
        resolution = source[0]
        leaves = _leaves(*source)
        count = len(leaves)
        values: list[Any] = []
        types: list[str | None] = []
        paths = self.paths
        sources = self.sources
        origins = resolution.origins
        for rel, path, value, type_name in leaves:
            paths.append(path)
            values.append(str(value) if _is_call(value) else value)
            types.append(type_name)
            origin = origins.get(rel)  # most leaves have their own origin: no walk up
            sources.append((origin or origin_at(resolution, rel)).source)
        if self.show_overridden:
            below = resolution.overridden
            self.overridden += [[v for v, _ in below.get(rel, ())] for rel, _, _, _ in leaves]
        if self.with_node:
            self.nodes += [name or ""] * count
        self.statuses += [status] * count
        self.problems += [None] * count
        self.values.append((values, not count))  # no rows: an object column (as add_table)
        self.types.append((types, "infer" if None in types else "text"))

    def add_rows(self, name: str | None, rows: list[PropertyRow], status: str) -> None:
        """A table's rows, every one with ``status`` and no problem."""
        count = len(rows)
        types = [r.type for r in rows]
        self.paths += [r.path for r in rows]
        self.sources += [r.source for r in rows]
        if self.show_overridden:
            self.overridden += [[v for v, _ in r.overridden] for r in rows]
        if self.with_node:
            self.nodes += [name or ""] * count
        self.statuses += [status] * count
        self.problems += [None] * count
        self.values.append(([r.value for r in rows], not count))
        self.types.append((types, "infer" if None in types else "text"))

    def add_table(self, name: str | None, rows: list[PropertyRow], states: list[RowState]) -> None:
        """A table's rows with their states; a missing property's row (its
        state has no row) has value ``None``, its declared type, source ``""``."""
        start = len(self.paths)
        if all(s.row is not None for s in states):
            by_path = {s.path: s for s in states}
            found = [by_path.get(r.path) for r in rows]
            values = [r.value for r in rows]
            types = [r.type for r in rows]
            self.paths += [r.path for r in rows]
            self.sources += [r.source for r in rows]
            if self.show_overridden:
                self.overridden += [[v for v, _ in r.overridden] for r in rows]
            self.statuses += [s.status if s is not None else "unchecked" for s in found]
            self.problems += [s.problem if s is not None else None for s in found]
            self.values.append((values, bool(not rows)))  # no rows: an object column
            self.types.append((types, "infer" if None in types else "text"))
        else:
            # A missing row's value and type are None: both columns are
            # ``object`` (every value as the row holds it, not inferred).
            values = []
            types = []
            for s in states:
                r = s.row
                if r is not None:
                    self.paths.append(r.path)
                    values.append(r.value)
                    types.append(r.type)
                    self.sources.append(r.source)
                    if self.show_overridden:
                        self.overridden.append([v for v, _ in r.overridden])
                else:
                    self.paths.append(s.path)
                    values.append(None)
                    types.append(s.type)
                    self.sources.append("")
                    if self.show_overridden:
                        self.overridden.append([])
                self.statuses.append(s.status)
                self.problems.append(s.problem)
            self.values.append((values, True))
            self.types.append((types, "object"))
        if self.with_node:
            self.nodes += [name or ""] * (len(self.paths) - start)

    def frame(self) -> pandas.DataFrame:
        """The DataFrame: one constructor call for every column at once."""
        import pandas as pd

        text = _text_column
        value_arrays = [_objects(v) if as_is else _infer(v) for v, as_is in self.values]
        columns: list[Any] = [
            text(self.paths),
            _combine(value_arrays) if value_arrays else _objects([]),
            self._type_column(),
            text(self.sources),
        ]
        if self.show_overridden:
            columns.append(_objects(self.overridden))
        columns.append(text(self.statuses))
        columns.append(_objects(self.problems))  # object even when all None or all str
        names = _FRAME_COLUMNS[self.show_overridden]
        if self.with_node:
            columns.insert(0, text(self.nodes))
            names = ["node", *names]
        index = pd.RangeIndex(len(self.paths))
        fast = _fast_frame()
        if fast is None:  # a pandas without them: the public constructor (the same frame)
            # (an object array as an object Series: pandas would infer str for it)
            series = (pd.Series(c, index=index, dtype=c.dtype) for c in columns)
            return pd.DataFrame(dict(zip(names, series)))
        # DataFrame(dict) spends ~40 % of a 12-row frame aligning, indexing and
        # inferring (bench/bench_frame.py); every column is built in its dtype
        # already, so the arrays are handed over as they are.
        from_arrays = fast[0]
        return from_arrays(
            columns, columns=_column_index(names), index=index, verify_integrity=False
        )

    def _type_column(self) -> Any:
        if all(kind == "text" for _, kind in self.types):
            return _text_column([t for types, _ in self.types for t in types])
        arrays = [
            _text_column(types)
            if kind == "text"
            else _objects(types)
            if kind == "object"
            else _infer(types)
            for types, kind in self.types
        ]
        return _combine(arrays)


def _leaves(
    resolution: Resolution,
    definitions: Mapping[str, PropertyDefinition],
    value_type: Any,
    owner_type: Type | None,
) -> list[tuple[tuple, str, Any, str | None]]:
    """``(path as a tuple, path as text, value, type name)`` of every leaf of
    a resolution, in the order of :class:`PropertyTable`'s rows (data-type
    values expand into their fields; anything else is one leaf). The text is
    ``format_path`` of the tuple, extended a key at a time as the walk goes
    down (not formatted again for every leaf)."""
    leaves: list[tuple[tuple, str, Any, str | None]] = []

    def visit(value: Any, type_name: str | None, owner: Type | None, rel: tuple, path: str) -> None:
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
                if key.__class__ is str:
                    below = f"{path}.{key}"
                else:  # format_path's rule: an integer is an index, anything else a key
                    below = path + format_path((0, key))[3:]
                visit(item, fdef.type if fdef else None, vt, (*rel, key), below)
            return
        leaves.append((rel, path, value, type_name))

    for name, value in resolution.values.items():
        pdef = definitions.get(name)
        path = name if name.__class__ is str else format_path((name,))
        visit(value, pdef.type if pdef else None, owner_type, (name,), path)
    return leaves


def _objects(values: list[Any]) -> Any:
    """``values`` as an ``object`` array, each item as it is (a list stays one
    item: ``np.fromiter`` does not unpack sequences as ``np.array`` would)."""
    import numpy as np

    return np.fromiter(values, dtype=object, count=len(values))


def _infer(values: list[Any]) -> Any:
    """``values`` as the column ``DataFrame(dict)`` makes of a list (pandas'
    ``sanitize_array``: ``int64`` for integers, ``str`` for text...)."""
    fast = _fast_frame()
    if fast is None:  # a pandas without it: a Series infers the same
        import pandas as pd

        return pd.Series(values)
    return fast[1](values, None)


def _combine(arrays: list[Any]) -> Any:
    """One column of per-table columns, as ``pandas.concat`` of the tables'
    frames makes it (pandas' ``concatenate_managers``): one dtype stays;
    integer and bool columns are joined by numpy's promotion (``int64`` for
    ``bool`` + ``int64``, GH#42092); anything else is pandas' common type."""
    if len(arrays) == 1:
        return arrays[0]
    import numpy as np
    import pandas as pd

    if _fast_frame() is None:
        return pd.concat([pd.Series(a, dtype=a.dtype) for a in arrays], ignore_index=True)
    from pandas.core.dtypes.concat import concat_compat

    first = arrays[0].dtype
    numpy_only = all(a.__class__ is np.ndarray for a in arrays)
    if all(a.dtype == first for a in arrays):
        return np.concatenate(arrays) if numpy_only else concat_compat(arrays)
    if numpy_only and all(a.dtype.kind in "iub" for a in arrays):
        return np.concatenate(arrays)
    return concat_compat(arrays)


_FRAME_COLUMNS = {
    False: ["path", "value", "type", "source", "status", "problem"],
    True: ["path", "value", "type", "source", "overridden", "status", "problem"],
}


_COLUMN_INDEX: dict[tuple[str, ...], Any] = {}  # pandas.Index of the frames' column lists


def _column_index(names: list[str]) -> Any:
    """The frame's column Index: a copy of one built once (a copy is 5x cheaper
    than building it from the names, and its ``name`` is the frame's own)."""
    key = tuple(names)  # (by length, a node column and an overridden one were confused)
    index = _COLUMN_INDEX.get(key)
    if index is None:
        import pandas as pd

        index = _COLUMN_INDEX[key] = pd.Index(names)
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
    origins = resolution.origins
    for rel, path, value, type_name in _leaves(resolution, definitions, value_type, owner_type):
        origin = origins.get(rel) or origin_at(resolution, rel)  # most leaves have their own
        below = resolution.overridden.get(rel, ()) if show_overridden else ()
        rows.append(
            PropertyRow(
                path=path,
                value=str(value) if _is_call(value) else value,
                type=type_name,
                source=origin.source,
                overridden=tuple((v, o.source) for v, o in below) if below else (),
                parts=rel,
                status=status if status.__class__ is str else status(rel),  # type: ignore[operator]
                origin=origin,
                stack=(*below, (value, origin)) if show_overridden else (),
            )
        )
    return rows


# What build_rows reads for a table's rows: the resolution, the property
# definitions, the value-type lookup, the owner type, show_overridden and the
# rows' status (one, or a function of the path).
_LeafSource = tuple[Resolution, Mapping[str, PropertyDefinition], Any, Any, bool, Any]


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
    origin = origins.get(rel)
    if origin is not None:
        return origin  # the leaf's own (most leaves: no walk up)
    for i in range(len(rel) - 1, -1, -1):
        origin = origins.get(rel[:i])
        if origin is not None:
            # Origin(...) without the named tuple's Python-level __new__
            # (explain asks once per leaf: bench_explain).
            return _tuple_new(Origin, (origin.source, origin.doc, (*origin.parts, *rel[i:])))
    return _NO_ORIGIN


_tuple_new = tuple.__new__


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
            table = PropertyTable(self.name, None, show_overridden)  # type: ignore[arg-type]
            table._source = (
                self._resolution,
                self._definitions,
                self._value_type,
                self.type,
                show_overridden,
                row_status(findings),
            )  # the rows are made on first use (PropertyTable.rows)
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


@record
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
