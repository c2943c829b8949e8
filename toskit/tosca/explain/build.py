"""Assembling one :class:`~toskit.tosca.explain.Explanation`.

``explain(template, path)`` and ``explain_entity(entity, path)`` put the
parts together: the value (:mod:`.paths`), its layer stack with each
layer's :class:`~toskit.tosca.explain.Source` (:mod:`.layers`), the
hops behind a call (:mod:`.hops`), the clauses checked (:mod:`.checks`) and
the findings filed on the path or below it. Nothing here runs while
loading; what explanations of one template share is memoised per template.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toskit.diagnostics import format_path
from toskit.functions import Call
from toskit.tosca.explain.checks import _checks, _definition
from toskit.tosca.explain.hops import _hops_of
from toskit.tosca.explain.layers import (
    _make_source,
    _memo_of,
    _replace_kind,
    _service_of,
    _source,
)
from toskit.tosca.explain.model import Explanation, StackLayer
from toskit.tosca.explain.paths import entity_and_path, value_at
from toskit.tosca.model.template import origin_at
from toskit.tosca.model.validity import entity_findings

if TYPE_CHECKING:
    from toskit.tosca.model.service import ServiceTemplate
    from toskit.tosca.model.template import EntityTemplate

__all__ = ["explain", "explain_entity"]


def explain(template: ServiceTemplate, path: str | tuple) -> Explanation:
    """The :class:`Explanation` of the value at a template-wide ``path``.

    ``path`` starts with a section (``node_templates``, ``relationship_templates``,
    ``groups``, ``policies``), optionally under ``topology_template.`` /
    ``service_template.``, then the entity's name, optionally
    ``capabilities.<name>``, then ``properties.`` and the property path:
    ``node_templates.db.properties.connection.endpoint.port``.
    """
    entity, rel = entity_and_path(template, path)
    return explain_entity(entity, rel, template)


def explain_entity(
    entity: EntityTemplate,
    path: str | tuple,
    template: ServiceTemplate | None = None,
    _seen: frozenset[tuple[int, tuple]] = frozenset(),
) -> Explanation:
    """The :class:`Explanation` of ``entity``'s property at ``path``
    (``"connection.endpoint.port"`` or a tuple; ``"eps[0].port"`` for a list entry)."""
    rel, value = value_at(entity, path)
    resolution = entity._resolution
    top = origin_at(resolution, rel)
    service = template if template is not None else _service_of(entity)
    memo = _memo_of(service if service is not None else entity)
    sources = memo.sources
    # The Source of an origin is made once per template (_Memo); the common
    # case, one layer, without a loop.
    src = sources.get(top) if top.parts.__class__ is tuple else None
    if src is None:
        src = _make_source(top, service, memo)  # the miss: made here, no second lookup
        try:  # noqa: SIM105 - once per origin of a leaf: no context manager
            sources[top] = src
        except TypeError:  # a path part that cannot be hashed: not memoised
            pass
    below = resolution.overridden.get(rel)
    if below:
        layers = []
        for v, o in below:
            low = sources.get(o) if o.parts.__class__ is tuple else None
            if low is None:
                low = _source(o, v, entity, service, memo)
            layers.append(StackLayer(v, low, False))
        layers.append(StackLayer(value, src, True))
        stack = tuple(layers)
    else:
        stack = (StackLayer(value, src, True),)
    written = src._wrote_call  # a call, or None: read once per origin
    hops = (
        _hops_of(written, value, entity, service, _seen | {(id(entity), rel)})
        if written is not None or value.__class__ is Call
        else ()
    )
    key = (id(entity._definitions), id(entity.type), rel)
    cached = memo.definitions.get(key)
    if cached is None:
        pdef, type_name = _definition(entity, rel)
        schema = pdef.schema if pdef is not None else None
        # Kept with the definitions and type, so their ids stay unique.
        cached = memo.definitions[key] = (
            pdef if schema is not None and (schema.constraints or schema.validation) else None,
            type_name,
            format_path(rel),
            entity.property_definitions,
            entity.type,
        )
    pdef = cached[0]  # only a definition with clauses to report
    index = entity.findings
    findings: tuple = ()
    if index is not None and index.any:
        # The entity's findings, filed once per template and entity.
        entry = memo.findings.get(id(entity))
        if entry is None or entry[0] is not entity:
            entry = memo.findings[id(entity)] = (entity, entity_findings(entity))
        if entry[1]:
            n = len(rel)
            findings = tuple(d for p, d in entry[1] if tuple(p[:n]) == rel)
    checks = _checks(pdef, value, findings, memo) if pdef is not None else ()
    if hops and written is not None and src.kind == "template":
        # The written value was a call: the value is what the call gave.
        stack = (
            *stack[:-1],
            StackLayer(value, _replace_kind(src, "function", hops[0].call), True),
        )
    return Explanation(  # positional: one per leaf (bench_explain)
        entity.kind,
        entity.name,
        cached[2],
        rel,
        str(value) if value.__class__ is Call else value,
        cached[1],
        stack,
        hops,
        checks,
        findings,
    )
