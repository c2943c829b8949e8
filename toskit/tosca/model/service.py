"""``ServiceTemplate``: the result of loading a TOSCA document (public API)."""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import (
    MAX_PER_CODE,
    Diagnostic,
    DiagnosticList,
    cap_per_code,
    check_max_per_code,
    count_by_severity,
    has_errors,
    omitted_per_code,
)
from toskit.errors import TemplateError
from toskit.runtime import gc_paused
from toskit.source import YamlDocument
from toskit.tosca.model.template import (
    GroupTemplate,
    NodeTemplate,
    PolicyTemplate,
    RelationshipTemplate,
    entities_frame,
)
from toskit.tosca.model.validity import attach
from toskit.tosca.types.definitions import Type
from toskit.tosca.types.registry import KINDS, Registry

if TYPE_CHECKING:
    import pandas

__all__ = ["ServiceTemplate"]


class ServiceTemplate:
    """A loaded TOSCA template: its types, templates, inputs and diagnostics.

    Built by :func:`toskit.tosca.load`/:func:`toskit.tosca.loads`, which never
    raise for problems inside the template: ``.diagnostics`` lists them in
    source order and ``.raise_for_errors()`` turns the errors into a
    :class:`toskit.TemplateError`.

    ``.diagnostics`` lists at most ``max_per_code`` diagnostics of one code
    (default :data:`~toskit.diagnostics.MAX_PER_CODE`, 100; ``None``: all);
    the rest of a code are one summary diagnostic ("19,900 more
    'unknown-property' diagnostics not shown", ``omitted=19900``) where the
    first of them was (:func:`~toskit.diagnostics.cap_per_code`).
    ``.ok``, ``.counts`` and ``raise_for_errors()`` count the hidden ones
    too, ``.omitted`` says how many were hidden per code, and every
    entity's property rows (``validity``) still see every diagnostic.
    """

    def __init__(
        self,
        *,
        name: str,
        version: str,
        registry: Registry,
        diagnostics: list[Diagnostic],
        node_templates: dict[str, NodeTemplate],
        relationship_templates: dict[str, RelationshipTemplate],
        groups: dict[str, GroupTemplate],
        policies: dict[str, PolicyTemplate],
        inputs: dict[str, Any],
        outputs: Mapping[str, Any] | None = None,
        description: str | None = None,
        metadata: Mapping | None = None,
        document: YamlDocument | None = None,
        max_per_code: int | None = MAX_PER_CODE,
    ) -> None:
        limit = check_max_per_code(max_per_code)
        self.name = name
        self.version = version
        self.registry = registry
        # A list subclass with an HTML view (notebooks.md §1 "Diagnostic lists").
        # Every diagnostic first: attach() below indexes them for the entities'
        # property rows, so a row whose diagnostic is not listed still shows it.
        self.diagnostics = DiagnosticList(diagnostics)
        self.node_templates = node_templates
        self.relationship_templates = relationship_templates
        self.groups = groups
        self.policies = policies
        self.inputs = inputs
        self.outputs = dict(outputs) if isinstance(outputs, Mapping) else {}
        self.description = description
        self.metadata = dict(metadata) if isinstance(metadata, Mapping) else {}
        self.document = document
        self._types: dict[str, Type] | None = None
        self._schema: Any = None
        attach(self)  # entities find their diagnostics (property row states, validity.py)
        # node.explain() follows get_property/get_input through the template (#32).
        me = weakref.ref(self)
        for section in (node_templates, relationship_templates, groups, policies):
            for entity in section.values():
                entity._service = me
        # Then the listed ones: the first ``limit`` of each code in each file, then a summary (#19).
        self.diagnostics = DiagnosticList(cap_per_code(self.diagnostics, limit))

    @property
    def ok(self) -> bool:
        """``True`` when no diagnostic is an error."""
        return not has_errors(self.diagnostics)

    @property
    def counts(self) -> dict[str, int]:
        """Diagnostics per severity, those not listed included: ``{"error": 20000, ...}``.

        A summary counts as the diagnostics it stands for, so this is what
        the load found whatever ``max_per_code`` was.
        """
        return count_by_severity(self.diagnostics)

    @property
    def omitted(self) -> dict[str, int]:
        """Code -> how many of its diagnostics ``.diagnostics`` does not list (``{}``: none)."""
        return omitted_per_code(self.diagnostics)

    @property
    def errors(self) -> DiagnosticList:
        """The listed diagnostics whose severity is ``error`` (summaries included;
        ``counts`` counts)."""
        return DiagnosticList(d for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> DiagnosticList:
        """The diagnostics whose severity is ``warning``."""
        return DiagnosticList(d for d in self.diagnostics if d.severity == "warning")

    def raise_for_errors(self) -> None:
        """Raise :class:`toskit.TemplateError` listing the errors, if there are any.

        The header counts every error; the list is the listed ones (see ``max_per_code``).
        """
        errors = self.errors
        if errors:
            count = _counted(self.counts["error"], "error")  # the hidden ones too
            raise TemplateError.from_diagnostics(errors, header=f"{self.name}: {count}")

    @property
    def types(self) -> dict[str, Type]:
        """Full type name -> ``Type``, all kinds (a node type wins a name clash)."""
        if self._types is None:
            merged: dict[str, Type] = {}
            for kind in reversed(KINDS):  # "node" is written last among clashes below
                if kind == "node":
                    continue
                merged.update(self.registry.all_of(kind))
            merged.update(self.registry.all_of("node"))
            self._types = merged
        return self._types

    def types_of(self, kind: str) -> dict[str, Type]:
        """One kind's namespace: full name -> ``Type``."""
        if kind not in KINDS:
            from toskit.errors import ToskitError

            raise ToskitError(f"unknown type kind {kind!r}; kinds are {', '.join(KINDS)}")
        return self.registry.all_of(kind)

    @property
    def schema(self) -> Any:
        """Every visible type compiled onto ``toskit.schema`` (docs/tosca.md).

        Type names are ``<kind>:<TOSCA name>``, e.g. ``data:my.datatypes.Endpoint``
        (see :func:`toskit.tosca.types.compile.schema_name`). Built on first use.
        """
        if self._schema is None:
            from toskit.tosca.types.compile import compile_schema

            self._schema = compile_schema(self.registry)
        return self._schema

    def lookup_type(self, kind: str, name: str) -> Type | None:
        """Resolve a type name as the template would (short and prefixed names too)."""
        return self.registry.lookup(kind, name)

    def explain(self, path: str | tuple) -> Any:
        """Why the value at ``path`` is what it is (issue #32): an
        :class:`~toskit.tosca.explain.Explanation` of e.g.
        ``"node_templates.db.properties.connection.endpoint.port"`` (docs/explain.md)."""
        from toskit.tosca.explain import explain

        return explain(self, path)

    def to_yaml(self) -> str:
        """YAML text of this template's own types and templates (``toskit.dsl``)."""
        from toskit.dsl import template_to_yaml  # the DSL sits above this package

        return template_to_yaml(self)

    def to_python(self) -> str:
        """Python source for this template using ``toskit.dsl`` classes."""
        from toskit.dsl import template_to_python

        return template_to_python(self)

    @gc_paused  # a heavy view builder: no full collection over the template (#31)
    def topology(self) -> Any:
        """Node templates and their requirements as a graph
        (``toskit.tosca.topology.model.Topology``)."""
        from toskit.tosca.topology.model import build_topology

        return build_topology(self)

    @gc_paused  # a heavy view builder: no full collection over the template (#31)
    def property_frame(self, show_overridden: bool = False) -> pandas.DataFrame:
        """One pandas DataFrame of every node template's property rows.

        Columns: ``node`` (the node template's name), then those of
        ``property_table().to_frame()``: ``path``, ``value``, ``type``,
        ``source`` (``overridden`` with ``show_overridden=True``), ``status``,
        ``problem``; nodes in the template's order, each node's rows in its
        table's order (a missing required property is a row with value
        ``None``). Dtypes and values are those of every node's ``to_frame()``
        with a ``node`` column, concatenated by ``pandas.concat``; a template
        without nodes gives an empty frame with these columns.

        One frame for the whole template, for analysis across it: ~0.03 ms
        per node, ~3x less than a frame per node, most of whose cost is
        pandas' own constructor (docs/performance.md)::

            frame = st.property_frame()
            frame[frame.source.str.startswith("default")]   # every default in use
            frame[frame.status != "valid"]                   # every problem
            frame.groupby("node").size()                     # rows per node

        Only node templates: relationship templates, groups and policies
        have their own ``property_table()`` each, and their names are
        separate namespaces (a relationship may share a node's name), so a
        frame mixing them would need a kind column to be read; nor are a
        node's capabilities' properties in it (``node.capabilities[name]
        .property_table()``), as they are not in the node's table.
        """
        return entities_frame(self.node_templates.values(), show_overridden)

    def __repr__(self) -> str:
        counts = self.counts
        state = "ok" if self.ok else _counted(counts["error"], "error")
        warn = f", {_counted(counts['warning'], 'warning')}" if counts["warning"] else ""
        return (
            f"<ServiceTemplate {self.name} ({self.version}): "
            f"{_counted(len(self.node_templates), 'node template')}, {state}{warn}>"
        )

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def _counted(n: int, noun: str) -> str:
    """``1 error``, ``2 errors`` (the repr is read by people: "1 node templates" is not)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
