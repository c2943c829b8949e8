"""Node filters: which candidate node templates may fulfil a requirement, and why.

Two notations exist:

* **TOSCA 1.3** ``node_filter``: ``properties`` (a list of ``{name:
  constraint(s)}``) and ``capabilities`` (a list of ``{capability name or
  type: {properties: [...]}}``), each clause a 1.x constraint. A candidate
  passes when every clause holds; a property the candidate lacks fails.
* **TOSCA 2.0** ``node_filter``: one boolean condition written in ``$``
  function notation (``$and``, ``$greater_or_equal``, ``$get_property`` …).
  In a requirement's filter ``SELF`` is the relationship being formed: its
  ``TARGET`` is the candidate and ``CAPABILITY`` the candidate's capability
  the requirement points at (``[SELF, CAPABILITY, num-cpus]``). A filter
  written node-style (``[SELF, num_cpus]``) that does not read as a
  relationship path is read once more with ``SELF`` the candidate node.

A 2.0 condition that cannot be decided statically (it reads an attribute,
or a property whose value is only known at deployment) is *undetermined*:
the candidate is not excluded, since the orchestrator decides then.

:func:`passes` is what target selection asks (the hook in
:mod:`toskit.tosca.model.requirements`); :func:`check` gives the verdict with the
clause that decided it, and :func:`explain` lists every candidate of a
loaded requirement with its verdict (the topology view shows them).
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Collection, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toskit.records import record
from toskit.sentinels import NO_DEFAULT
from toskit.tosca.model.graph import EntityProperties
from toskit.tosca.types.definitions import Type
from toskit.tosca.values.check import _comparable, compare_constraint

if TYPE_CHECKING:
    from toskit.tosca.model.service import ServiceTemplate
    from toskit.tosca.model.template import CapabilityTemplate, NodeTemplate, Requirement

__all__ = [
    "CandidateIndex",
    "CandidateVerdict",
    "FilterResult",
    "check",
    "explain",
    "filter_text",
    "is_condition",
    "passes",
]

# Verdict outcomes (stable strings: views and tests use them).
PASSED = "passed"
EXCLUDED = "excluded"
UNDETERMINED = "undetermined"


@record(frozen=True)
class FilterResult:
    """A filter's verdict on one candidate.

    ``outcome`` is ``"passed"``, ``"excluded"`` or ``"undetermined"``;
    ``clause`` the clause that decided (as written, abbreviated) and
    ``reason`` a sentence a person can read.
    """

    outcome: str
    reason: str
    clause: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the candidate stays a candidate (undetermined counts as ok)."""
        return self.outcome != EXCLUDED


@record(frozen=True)
class CandidateVerdict:
    """One candidate target of a requirement and what happened to it.

    ``outcome`` is ``"chosen"`` for the target the loader picked, else the
    filter's outcome (``"passed"``: it fitted but an earlier one was
    chosen; ``"excluded"``; ``"undetermined"``).
    """

    candidate: str
    outcome: str
    reason: str
    clause: str | None = None


def is_condition(node_filter: Any) -> bool:
    """A TOSCA 2.0 filter: a map with a ``$``-function key."""
    return isinstance(node_filter, Mapping) and any(
        isinstance(k, str) and k.startswith("$") and not k.startswith("$$") for k in node_filter
    )


def filter_text(node_filter: Any, limit: int = 160) -> str:
    """A one-line rendering of a filter (or clause) for labels and tooltips."""
    text = _flow(node_filter)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _flow(value: Any, depth: int = 0) -> str:
    if depth > 12:
        return "…"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_flow(v, depth + 1)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v, depth + 1) for v in value) + "]"
    return str(value)


def passes(
    candidate: NodeTemplate,
    node_filter: Any,
    registry: Any,
    *,
    source: NodeTemplate | None = None,
    capability: Type | str | None = None,
) -> bool:
    """Whether ``candidate`` may fulfil a requirement with ``node_filter``.

    ``source`` is the node holding the requirement and ``capability`` the
    capability (type or name) it asks for; both matter only to 2.0 filters.
    """
    return check(candidate, node_filter, registry, source=source, capability=capability).ok


def check(
    candidate: NodeTemplate,
    node_filter: Any,
    registry: Any,
    *,
    source: NodeTemplate | None = None,
    capability: Type | str | None = None,
) -> FilterResult:
    """The verdict of ``node_filter`` on ``candidate`` (see the module docstring)."""
    if node_filter is None:
        return FilterResult(PASSED, "no node filter")
    if is_condition(node_filter):
        return _check_condition(candidate, node_filter, registry, source, capability)
    if not isinstance(node_filter, Mapping):
        return FilterResult(PASSED, "the node filter is not a map; nothing to check")
    return _check_1x(candidate, node_filter, registry)


# ---------------------------------------------------------------------- 1.3


def _clauses(section: Any) -> Iterator[tuple[Any, Any]]:
    """``[{name: constraints}, ...]`` or ``{name: constraints}`` as pairs."""
    if isinstance(section, Mapping):
        yield from section.items()
    elif isinstance(section, list):
        for entry in section:
            if isinstance(entry, Mapping) and len(entry) == 1:
                yield from entry.items()


def _check_1x(candidate: NodeTemplate, node_filter: Mapping, registry: Any) -> FilterResult:
    failed = _properties_verdict(
        f"'{candidate.name}'",
        candidate.properties,
        candidate.property_definitions,
        node_filter.get("properties"),
        registry,
        "properties",
    )
    if failed is not None:
        return failed
    for cname, cfilter in _clauses(node_filter.get("capabilities")):
        cap = _capability_of(candidate, cname, registry)
        if cap is None:
            return FilterResult(
                EXCLUDED,
                f"'{candidate.name}' has no capability '{cname}'",
                f"capabilities.{cname}",
            )
        props = cfilter.get("properties") if isinstance(cfilter, Mapping) else None
        failed = _properties_verdict(
            f"capability '{cap.name}' of '{candidate.name}'",
            cap.properties,
            cap.property_definitions,
            props,
            registry,
            f"capabilities.{cname}.properties",
        )
        if failed is not None:
            return failed
    return FilterResult(PASSED, "every node filter clause holds")


def _capability_of(candidate: NodeTemplate, name: Any, registry: Any) -> CapabilityTemplate | None:
    cap = candidate.capabilities.get(name)
    if cap is not None:
        return cap
    ctype = registry.lookup("capability", name) if isinstance(name, str) else None
    if ctype is None:
        return None
    return next((c for c in candidate.capabilities.values() if c.type.is_a(ctype)), None)


def _properties_verdict(
    who: str,
    values: Mapping,
    definitions: Mapping,
    clauses: Any,
    registry: Any,
    where: str,
) -> FilterResult | None:
    """The first failing clause as an ``excluded`` result, or ``None`` when all hold."""
    for name, constraints in _clauses(clauses):
        label = f"{where}.{name}"
        if name not in values:
            return FilterResult(EXCLUDED, f"{who} has no value for '{name}'", label)
        pdef = definitions.get(name)
        vt = registry.value_type(pdef.type) if pdef is not None and pdef.type else None
        prim = vt.base_primitive if isinstance(vt, Type) else vt
        for clause in constraints if isinstance(constraints, list) else [constraints]:
            if not isinstance(clause, Mapping) or len(clause) != 1:
                continue
            ((op, arg),) = clause.items()
            if compare_constraint(str(op), values[name], arg, prim) is not True:
                return FilterResult(
                    EXCLUDED,
                    f"{who}: {name} = {_flow(values[name])} fails {op} {_flow(arg)}",
                    f"{label}: {filter_text(clause, 80)}",
                )
    return None


# ---------------------------------------------------------------------- 2.0


def _check_condition(
    candidate: NodeTemplate,
    node_filter: Mapping,
    registry: Any,
    source: NodeTemplate | None,
    capability: Type | str | None,
) -> FilterResult:
    from toskit import functions
    from toskit.errors import ToskitError

    clause = filter_text(node_filter, 120)
    try:
        tree = functions.parse(node_filter, version="2.0")
    except ToskitError as exc:  # FunctionSyntaxError: a malformed call
        return FilterResult(UNDETERMINED, f"the node filter does not parse: {exc}", clause)
    context = _Context(registry)
    target = _NodeView(context, candidate)
    cap = _target_capability(candidate, capability, registry)
    relationship = _RelationshipView(
        context, _NodeView(context, source) if source is not None else None, target, cap
    )
    outcome: Any = None
    error: ToskitError | None = None
    for self_entity in (relationship, target):
        try:
            outcome = functions.evaluate(
                tree, context=context, self_entity=self_entity, version="2.0"
            )
            error = None
            break
        except ToskitError as exc:  # retried node-style, see the module docstring
            error = exc
    if error is not None:
        return FilterResult(UNDETERMINED, f"cannot be decided before deployment: {error}", clause)
    if outcome is True:
        return FilterResult(PASSED, "the node filter condition holds", clause)
    if outcome is False:
        return FilterResult(
            EXCLUDED, f"the node filter condition is false for '{candidate.name}'", clause
        )
    return FilterResult(
        UNDETERMINED, "the condition depends on values known only at deployment", clause
    )


def _target_capability(
    candidate: NodeTemplate, capability: Type | str | None, registry: Any
) -> CapabilityTemplate | None:
    if isinstance(capability, str):
        cap = candidate.capabilities.get(capability)
        if cap is not None:
            return cap
        capability = registry.lookup("capability", capability)
    if isinstance(capability, Type):
        return next((c for c in candidate.capabilities.values() if c.type.is_a(capability)), None)
    return None


class _Context:
    """The part of ``functions.TemplateContext`` a filter needs (no other nodes)."""

    def __init__(self, registry: Any) -> None:
        self.registry = registry

    def node(self, name: str) -> None:
        return None  # a filter judges one candidate; other templates are not in scope

    def node_names(self) -> Collection[str]:
        return []

    def relationship_template(self, name: str) -> None:
        return None

    def input_type(self, name: str) -> str | None:
        return None

    def primitive_type(self, type_name: str) -> str | None:
        vt = self.registry.value_type(type_name)
        return vt.base_primitive if isinstance(vt, Type) else vt

    def function_definitions(self) -> Mapping[str, Any]:
        return {}


class _Holder(EntityProperties):
    """Properties of a loaded entity (its merged, evaluated values)."""

    def __init__(self, context: _Context, entity: Any) -> None:
        super().__init__(entity)
        self.context = context

    def property_value(self, name: str) -> Any:
        return self.entity.properties.get(name, NO_DEFAULT)

    def attribute_names(self) -> Collection[str]:
        return []


class _CapabilityView(_Holder):
    def __init__(self, context: _Context, entity: Any, node: _NodeView) -> None:
        super().__init__(context, entity)
        self.node = node


class _NodeView(_Holder):
    def __init__(self, context: _Context, entity: NodeTemplate) -> None:
        super().__init__(context, entity)
        self.count = entity.count

    def capability(self, name: str) -> _CapabilityView | None:
        cap = self.entity.capabilities.get(name)
        return _CapabilityView(self.context, cap, self) if cap is not None else None

    def capability_names(self) -> Collection[str]:
        return list(self.entity.capabilities)

    def requirements(self) -> list[Any]:
        return []

    def incoming(self) -> list[Any]:
        return []

    def artifact(self, name: str) -> str | None:
        return None

    def artifact_names(self) -> Collection[str]:
        return []

    def host(self) -> None:
        return None


class _RelationshipView:
    """The relationship a requirement would form with the candidate."""

    name = "node_filter"

    def __init__(
        self,
        context: _Context,
        source: _NodeView | None,
        target: _NodeView,
        capability: CapabilityTemplate | None,
    ) -> None:
        self.source = source
        self.target = target
        self.target_capability = (
            _CapabilityView(context, capability, target) if capability is not None else None
        )

    def property_names(self) -> Collection[str]:
        return []

    def property_type(self, name: str) -> str | None:
        return None

    def property_value(self, name: str) -> Any:
        return NO_DEFAULT

    def attribute_names(self) -> Collection[str]:
        return []


# ---------------------------------------------------------------------- explain


def effective_filter(node: NodeTemplate, req: Requirement) -> Any:
    """The filter that applies to ``req``: the assignment's, else the definition's."""
    if req.node_filter is not None:
        return req.node_filter
    definition = dict(node.type.requirements).get(req.name)
    return definition.get("node_filter") if isinstance(definition, Mapping) else None


def explain(
    service: ServiceTemplate, node: NodeTemplate, req: Requirement, limit: int = 50
) -> list[CandidateVerdict]:
    """Every candidate target of ``req`` (of the right node type and capability),
    in declaration order, with its verdict; the loader's choice is ``"chosen"``.

    At most ``limit`` candidates are judged (large templates). A target
    named directly is listed alone, with the filter's verdict in its reason.
    """
    registry = service.registry
    node_filter = effective_filter(node, req)
    definition = dict(node.type.requirements).get(req.name)
    nodes = service.node_templates
    ctype = registry.lookup("capability", req.capability) if req.capability else None
    if req.target_name is not None and req.target_name in nodes:
        target = nodes[req.target_name]
        verdict = check(target, node_filter, registry, source=node, capability=ctype)
        reason = f"named by the requirement ('{req.target_name}')"
        if node_filter is not None:
            reason += f"; node filter: {verdict.outcome} ({verdict.reason})"
        outcome = "chosen" if req.target is target else verdict.outcome
        return [CandidateVerdict(target.name, outcome, reason, verdict.clause)]
    ntype_name = req.target_name
    if ntype_name is not None and registry.lookup("node", ntype_name) is None:
        return []  # names neither a template nor a type: nothing could fit
    if ntype_name is None and isinstance(definition, Mapping):
        written = definition.get("node")
        ntype_name = written if isinstance(written, str) else None
    ntype = registry.lookup("node", ntype_name) if ntype_name else None
    out: list[CandidateVerdict] = []
    for other in nodes.values():
        if other is node:
            continue
        if ntype is not None and not other.type.is_a(ntype):
            continue
        # A requirement naming a node type is matched on the type alone (as the loader does).
        if (
            ctype is not None
            and req.target_name is None
            and not any(c.type.is_a(ctype) for c in other.capabilities.values())
        ):
            continue
        if len(out) >= limit:
            break
        verdict = check(other, node_filter, registry, source=node, capability=ctype)
        if req.target is other:
            wanted = ntype.name if ntype is not None else "any type"
            fits = f"of type {wanted}" + (
                f" with a {ctype.name} capability"
                if ctype is not None and req.target_name is None
                else ""
            )
            reason = (
                f"the first candidate {fits} that the filter admits"
                if node_filter is not None
                else f"the first candidate {fits}"
            )
            if verdict.outcome == UNDETERMINED:
                reason += f" (filter undetermined: {verdict.reason})"
            out.append(CandidateVerdict(other.name, "chosen", reason, verdict.clause))
        else:
            out.append(
                CandidateVerdict(other.name, verdict.outcome, verdict.reason, verdict.clause)
            )
    return out


# ------------------------------------------------------------- target selection


class CandidateIndex:
    """The node templates of one load, indexed for target selection (issue #30 item 4).

    A requirement's target is the first node template, in declaration order,
    of the wanted node type, offering the wanted capability, that passes the
    node filter. Scanning every template for every requirement made node
    filters quadratic (1,000 nodes each filtering on a property: 500,000
    filter evaluations). The index keeps, built once per load and lazily:

    * per (node type, capability type): the positions of the templates that
      fit, so a requirement never tests the type of the others;
    * per (node type, capability type, property): those templates grouped by
      the property's value, so a filter whose clauses include an equality on
      that property (1.3 ``{name: {equal: v}}``; 2.0 ``$equal`` of
      ``$get_property: [SELF, TARGET, name]`` and a literal, alone or in an
      ``$and``) visits only the templates that can pass it;
    * per (node type, capability type, property): the templates sorted by the
      property's number, so a 1.x range clause (``greater_or_equal`` and the
      other orders) starts at the first template that can pass it (a
      bisection, and the lowest position of each prefix/suffix).

    The narrowing is only ever a superset of the templates that pass: a
    value the index cannot read exactly (a function call, a typed value) is
    kept as a candidate, and each candidate is still judged in full by
    :func:`check`, in declaration order -- the target is the same as a full
    scan's. :attr:`checked` counts the candidates judged.
    """

    def __init__(self, nodes: Mapping[str, NodeTemplate], registry: Any) -> None:
        self.nodes = list(nodes.values())
        self.registry = registry
        self._typed: dict[tuple[int, int], list[int]] = {}
        self._values: dict[tuple[Any, ...], tuple[dict[Any, dict[Any, list[int]]], list[int]]] = {}
        self._ranges: dict[tuple[Any, ...], tuple[dict[Any, Any], float]] = {}
        #: Candidates judged by a node filter so far (a counted budget for tests).
        self.checked = 0

    def typed(self, ntype: Type | None, ctype: Type | None) -> list[int]:
        """Positions of the templates of ``ntype`` offering a ``ctype`` capability."""
        key = (id(ntype), id(ctype))
        found = self._typed.get(key)
        if found is None:
            found = [
                i
                for i, other in enumerate(self.nodes)
                if (ntype is None or other.type.is_a(ntype))
                and (ctype is None or any(c.type.is_a(ctype) for c in other.capabilities.values()))
            ]
            self._typed[key] = found
        return found

    def first(
        self,
        node: NodeTemplate,
        ntype: Type | None,
        ctype: Type | None,
        node_filter: Any,
        capability: Type | str | None,
    ) -> NodeTemplate | None:
        """The first template (not ``node``) that fits and passes ``node_filter``."""
        positions = self.typed(ntype, ctype)
        start = 0
        if node_filter is not None:
            narrowed = self._narrowed(positions, ntype, ctype, node_filter)
            if narrowed is not None:
                positions = narrowed
            elif isinstance(node_filter, Mapping) and not is_condition(node_filter):
                # A range clause: every template before the first that can pass it fails it.
                ranged = _clause_range(node_filter.get("properties"))
                if ranged is not None:
                    first_possible = self._range_start(ntype, ctype, positions, *ranged)
                    start = bisect.bisect_left(positions, first_possible)
        for at in range(start, len(positions)):
            i = positions[at]
            other = self.nodes[i]
            if other is node:
                continue
            if node_filter is None:
                return other
            self.checked += 1
            if passes(other, node_filter, self.registry, source=node, capability=capability):
                return other
        return None

    # -- equality narrowing ----------------------------------------------------

    def _narrowed(
        self, positions: list[int], ntype: Type | None, ctype: Type | None, node_filter: Any
    ) -> list[int] | None:
        if is_condition(node_filter):
            found = _condition_equality(node_filter)
            if found is None:
                return None
            name, literal = found
            groups, others = self._grouped(ntype, ctype, positions, "2.0", name)
            family = _family(literal)
            keep = list(others)
            for fam, by_value in groups.items():
                if fam != family:
                    # Another kind: $equal fails with TypeMismatch, which leaves the
                    # candidate undetermined (not excluded).
                    for members in by_value.values():
                        keep.extend(members)
                else:
                    keep.extend(by_value.get(literal, []))
            return sorted(keep)
        if not isinstance(node_filter, Mapping):
            return None
        clause = _clause_equality(node_filter.get("properties"))
        if clause is None:
            return None
        name, literal = clause
        groups, others = self._grouped(ntype, ctype, positions, "1.x", name)
        keep = list(others)
        for prim, by_value in groups.items():
            try:
                key = _comparable(literal, prim)
                members = by_value.get(key, [])
            except (TypeError, ValueError, OverflowError):  # unhashable or unreadable: keep all
                members = [i for group in by_value.values() for i in group]
            keep.extend(members)
        return sorted(keep)

    def _grouped(
        self, ntype: Type | None, ctype: Type | None, positions: list[int], style: str, name: str
    ) -> tuple[dict[Any, dict[Any, list[int]]], list[int]]:
        """The templates at ``positions`` grouped by their value of property ``name``.

        ``(groups, others)``: 1.x groups are keyed by the property's primitive
        then by the value as ``equal`` compares it (templates without the
        property are left out: the clause excludes them); 2.0 groups by the
        value's kind (string, number, boolean) then the value. ``others``
        are the templates whose value the index cannot read exactly.
        """
        key = (id(ntype), id(ctype), style, name)
        found = self._values.get(key)
        if found is not None:
            return found
        groups: dict[Any, dict[Any, list[int]]] = {}
        others: list[int] = []
        for i in positions:
            node = self.nodes[i]
            if name not in node.properties:
                if style == "2.0":
                    others.append(i)  # undetermined, not excluded
                continue
            value = node.properties[name]
            prim = self._primitive(node, name)
            try:
                if style == "1.x":
                    group, value_key = prim, _comparable(value, prim)
                    hash(value_key)
                else:
                    group, value_key = _family(value), value
                    if group is None or prim not in _PLAIN_PRIMITIVES:
                        others.append(i)
                        continue
            except (TypeError, ValueError, OverflowError):
                others.append(i)
                continue
            groups.setdefault(group, {}).setdefault(value_key, []).append(i)
        self._values[key] = (groups, others)
        return groups, others

    def _range_start(
        self,
        ntype: Type | None,
        ctype: Type | None,
        positions: list[int],
        name: str,
        op: str,
        literal: Any,
    ) -> float:
        """The lowest position of a template that may pass ``name op literal`` (1.x).

        The templates with a number for the property (as ``compare_constraint``
        reads it) are sorted by that number, per primitive, with the lowest
        position of every prefix and suffix of that order: the templates a
        range clause admits are one prefix or suffix, found by bisection.
        Templates the index cannot order are always possible.
        """
        key = (id(ntype), id(ctype), name)
        table = self._ranges.get(key)
        if table is None:
            table = self._range_table(positions, name)
            self._ranges[key] = table
        groups, other_min = table
        start: float = other_min
        for prim, (values, prefix_min, suffix_min, group_min) in groups.items():
            try:
                bound = _comparable(literal, prim)
            except (TypeError, ValueError, OverflowError):
                bound = None
            if not _is_ordered_number(bound):
                start = min(start, group_min)
                continue
            if op in ("greater_or_equal", "greater_than"):
                at = (bisect.bisect_left if op == "greater_or_equal" else bisect.bisect_right)(
                    values, bound
                )
                if at < len(values):
                    start = min(start, suffix_min[at])
            else:
                at = (bisect.bisect_right if op == "less_or_equal" else bisect.bisect_left)(
                    values, bound
                )
                if at > 0:
                    start = min(start, prefix_min[at - 1])
        return start

    def _range_table(self, positions: list[int], name: str) -> tuple[dict[Any, Any], float]:
        by_prim: dict[Any, list[tuple[Any, int]]] = {}
        other_min: float = math.inf
        for i in positions:
            node = self.nodes[i]
            if name not in node.properties:
                continue  # the clause excludes it
            prim = self._primitive(node, name)
            try:
                number = _comparable(node.properties[name], prim)
            except (TypeError, ValueError, OverflowError):
                number = None
            if _is_ordered_number(number):
                by_prim.setdefault(prim, []).append((number, i))
            else:
                other_min = min(other_min, i)
        groups: dict[Any, Any] = {}
        for prim, pairs in by_prim.items():
            pairs.sort()
            values = [v for v, _ in pairs]
            prefix_min = list(itertools.accumulate((i for _, i in pairs), min))
            suffix_min = list(itertools.accumulate((i for _, i in reversed(pairs)), min))[::-1]
            groups[prim] = (values, prefix_min, suffix_min, prefix_min[-1])
        return groups, other_min

    def _primitive(self, node: NodeTemplate, name: str) -> str | None:
        pdef = node.property_definitions.get(name)
        vt = self.registry.value_type(pdef.type) if pdef is not None and pdef.type else None
        return vt.base_primitive if isinstance(vt, Type) else vt


# Property types whose values $equal compares as plain Python values.
_PLAIN_PRIMITIVES = ("string", "integer", "float", "boolean")


def _family(value: Any) -> str | None:
    """The kind $equal compares by: ``string``, ``number``, ``boolean``; ``None`` for others."""
    if type(value) is bool:
        return "boolean"
    if type(value) in (int, float):
        return "number"
    if type(value) is str:
        return "string"
    return None


_RANGE_OPERATORS = ("greater_than", "greater_or_equal", "less_than", "less_or_equal")


def _is_ordered_number(value: Any) -> bool:
    """A number that sorts with the others (not a bool, not NaN)."""
    return type(value) in (int, float) and value == value


def _clause_range(section: Any) -> tuple[str, str, Any] | None:
    """The first 1.x ``{name: {greater_or_equal: v}}`` (or another order) clause."""
    for name, constraints in _clauses(section):
        for clause in constraints if isinstance(constraints, list) else [constraints]:
            if isinstance(clause, Mapping) and len(clause) == 1:
                ((op, arg),) = clause.items()
                if op in _RANGE_OPERATORS:
                    return str(name), str(op), arg
    return None


def _clause_equality(section: Any) -> tuple[str, Any] | None:
    """The first 1.x ``{name: {equal: v}}`` clause of a filter's ``properties``."""
    for name, constraints in _clauses(section):
        for clause in constraints if isinstance(constraints, list) else [constraints]:
            if isinstance(clause, Mapping) and len(clause) == 1 and "equal" in clause:
                return str(name), clause["equal"]
    return None


def _condition_equality(condition: Any) -> tuple[str, Any] | None:
    """A 2.0 ``$equal`` of ``$get_property: [SELF, TARGET, name]`` and a scalar, if the
    condition is one or an ``$and`` holding one."""
    terms = [condition]
    if (
        isinstance(condition, Mapping)
        and set(condition) == {"$and"}
        and isinstance(condition["$and"], list)
    ):
        terms = condition["$and"]
    for term in terms:
        if not (isinstance(term, Mapping) and set(term) == {"$equal"}):
            continue
        operands = term["$equal"]
        if not (isinstance(operands, list) and len(operands) == 2):
            continue
        for read, literal in (operands, operands[::-1]):
            path = (
                read.get("$get_property") if isinstance(read, Mapping) and len(read) == 1 else None
            )
            if (
                isinstance(path, list)
                and len(path) == 3
                and path[:2] == ["SELF", "TARGET"]
                and isinstance(path[2], str)
                and _family(literal) is not None
            ):
                return path[2], literal
    return None
