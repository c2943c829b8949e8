"""The topology of a loaded template: node templates and their requirements as a graph.

``ServiceTemplate.topology()`` builds a :class:`Topology`:

* :attr:`Topology.nodes` — one :class:`TopologyNode` per node template
  (name, type, a few key properties, directives);
* :attr:`Topology.edges` — one :class:`TopologyEdge` per requirement the
  loader resolved: requirement name, relationship type, target capability,
  and why that target (every candidate with its node-filter verdict, see
  :mod:`toskit.tosca.model.node_filters`);
* :attr:`Topology.problems` — requirements that did not resolve to exactly
  one target, as first-class :class:`TopologyProblem` items with their
  diagnostic: ``unresolved`` (assigned, no target), ``missing`` (the type
  needs more assignments than written: occurrences), ``ambiguous`` (several
  candidates fit; the first was taken);
* :attr:`Topology.boundary` — the substitution mappings, drawn as the
  boundary of the service.

:meth:`Topology.grouped` and :meth:`Topology.collapse_hosting` give smaller
graphs for large templates; :meth:`Topology.to_dot` and :meth:`Topology.to_svg`
export. The layout is grandalf's layered (Sugiyama) layout, run in Python
(:mod:`toskit.tosca.topology.layout`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, Related, format_path
from toskit.errors import ToskitError
from toskit.plain import bounded_text
from toskit.records import field, record, replace
from toskit.runtime import gc_paused
from toskit.tosca.model.node_filters import CandidateVerdict, effective_filter, explain, filter_text

if TYPE_CHECKING:
    from toskit.source import YamlDocument
    from toskit.tosca.model.service import ServiceTemplate
    from toskit.tosca.model.template import NodeTemplate, Requirement
    from toskit.tosca.types.registry import Registry

__all__ = [
    "Boundary",
    "Topology",
    "TopologyEdge",
    "TopologyNode",
    "TopologyProblem",
    "build_topology",
]

KEY_PROPERTIES = 3
"""How many key properties a node shows (template-written ones first)."""

DRAWN_TO_NOWHERE = ("unresolved", "missing")
"""Problem kinds drawn as a dashed arrow to nowhere."""


@record(frozen=True)
class TopologyNode:
    """A box of the drawing: a node template, or a group of them.

    ``members`` lists the node templates a grouped or collapsed box stands
    for (just ``(name,)`` for a plain node template).
    """

    name: str
    type: str
    properties: tuple[tuple[str, str], ...] = ()
    directives: tuple[str, ...] = ()
    description: str | None = None
    members: tuple[str, ...] = ()
    unchecked: str | None = None
    """Why toskit could not check the node fully (its type derives from a type of
    a profile toskit does not have: inherited names are taken on trust), or ``None``."""

    @property
    def is_group(self) -> bool:
        """Whether the box stands for more than one node template."""
        return len(self.members) > 1


@record(frozen=True)
class TopologyEdge:
    """A resolved requirement: ``source`` needs ``target``.

    ``relationship`` is the relationship type's (or template's) name,
    ``capability`` the target's capability name it points at, ``hosting``
    whether the relationship is (derived from) HostedOn. ``reason`` says why
    this target; ``candidates`` every candidate with its verdict;
    ``node_filter`` the filter that applied (one line), if any. ``count`` is
    how many requirements a grouped edge stands for.
    """

    source: str
    target: str
    requirement: str
    relationship: str | None = None
    capability: str | None = None
    hosting: bool = False
    reason: str = ""
    node_filter: str | None = None
    candidates: tuple[CandidateVerdict, ...] = ()
    count: int = 1
    attachment: bool = False
    """Whether the relationship is (derived from) AttachesTo (a volume on a machine)."""

    @property
    def tooltip(self) -> str:
        """What hovering the edge tells: requirement, relationship, why that target."""
        lines = [f"{self.source} —{self.requirement}→ {self.target}"]
        if self.count > 1:
            lines[0] += f" ({self.count} requirements)"
        lines.append(f"relationship: {self.relationship or 'none written'}")
        if self.capability:
            lines.append(f"capability: {self.capability}")
        if self.reason:
            lines.append(f"why: {self.reason}")
        if self.node_filter:
            lines.append(f"node filter: {self.node_filter}")
        for c in self.candidates:
            if c.outcome != "chosen":
                lines.append(f"  {c.candidate}: {c.outcome} — {c.reason}")
        return "\n".join(lines)


@record(frozen=True)
class TopologyProblem:
    """A requirement that did not resolve to exactly one target.

    ``kind`` is ``"unresolved"`` (assigned, but no target found),
    ``"missing"`` (fewer assignments than the type's occurrences need),
    ``"too-many"`` (more than its occurrences allow) or ``"ambiguous"``
    (several candidates fit; ``target`` is the one taken).
    ``diagnostic`` is the loader's diagnostic when it reported one, else one
    made here (codes ``unresolved-requirement``, ``ambiguous-requirement``).
    """

    kind: str
    source: str
    requirement: str
    message: str
    diagnostic: Diagnostic | None = None
    target: str | None = None
    candidates: tuple[CandidateVerdict, ...] = ()

    @property
    def tooltip(self) -> str:
        lines = [f"{self.kind}: {self.message}"]
        for c in self.candidates:
            lines.append(f"  {c.candidate}: {c.outcome} — {c.reason}")
        return "\n".join(lines)


@record(frozen=True)
class Boundary:
    """Substitution mappings: the service seen from outside as one node.

    ``capabilities`` and ``requirements`` map the outer name to
    ``(node template, inner capability or requirement name)``;
    ``properties`` lists the mapped property (or input) names.
    """

    node_type: str | None
    capabilities: tuple[tuple[str, str, str | None], ...] = ()
    requirements: tuple[tuple[str, str, str | None], ...] = ()
    properties: tuple[str, ...] = ()


@record
class Topology:
    """Node templates and their requirements as a graph (see the module docstring)."""

    name: str
    nodes: dict[str, TopologyNode]
    edges: list[TopologyEdge]
    problems: list[TopologyProblem] = field(default_factory=list)
    boundary: Boundary | None = None
    view: str = "templates"
    """``"templates"``, ``"grouped by type"`` or ``"hosting chains collapsed"``."""
    service: ServiceTemplate | None = field(default=None, repr=False, compare=False)
    """The ``ServiceTemplate`` it was built from (the explorer shows its property tables)."""

    @property
    def unresolved(self) -> list[TopologyProblem]:
        """Problems of kind ``unresolved`` or ``missing`` (drawn as arrows to nowhere)."""
        return [p for p in self.problems if p.kind in DRAWN_TO_NOWHERE]

    @property
    def ambiguous(self) -> list[TopologyProblem]:
        """Requirements for which several candidates fitted."""
        return [p for p in self.problems if p.kind == "ambiguous"]

    def edge(self, source: str, requirement: str) -> TopologyEdge | None:
        """The first edge from ``source`` for ``requirement``."""
        return next(
            (e for e in self.edges if e.source == source and e.requirement == requirement), None
        )

    def hosting_chain(self, name: str) -> list[str]:
        """``name`` and the nodes that host it, bottom last (cycle-safe)."""
        return _chain(name, self._hosts())

    def _hosts(self) -> dict[str, str]:
        """Each hosted node's host (the last hosting edge of a node wins)."""
        return {e.source: e.target for e in self.edges if e.hosting}

    # -- smaller views ------------------------------------------------------

    def grouped(self, by: str = "type") -> Topology:
        """One box per node type ("3 × WebServer"); edges between boxes merged."""
        if by != "type":
            raise ToskitError(f"grouped(by={by!r}): only by='type' is supported")
        key = {name: f"{node.type}" for name, node in self.nodes.items()}
        return self._merged(key, "grouped by type", lambda k, members: k)

    def collapse_hosting(self) -> Topology:
        """Each hosting chain (app → server → compute) as one box named by its bottom host.

        Storage attached to one machine (AttachesTo) and hosting nothing itself
        joins that machine's box too.
        """
        # Every node's bottom host in one pass over the chains: walking each
        # node's chain with a fresh map of hosts made the collapsed view
        # quadratic (4.4 s of CPU at 8,000 nodes).
        key = bottom_hosts(self.nodes, self._hosts())
        attached: dict[str, set[str]] = {}
        for e in self.edges:
            if e.attachment:
                attached.setdefault(e.target, set()).add(key[e.source])
        hosts = {e.target for e in self.edges if e.hosting}
        for target, machines in attached.items():
            if len(machines) == 1 and key[target] == target and target not in hosts:
                key[target] = next(iter(machines))
        return self._merged(key, "hosting chains collapsed", lambda k, members: self.nodes[k].type)

    def _merged(self, key: dict[str, str], view: str, type_of: Any) -> Topology:
        members: dict[str, list[str]] = {}
        for name in self.nodes:
            members.setdefault(key[name], []).append(name)
        nodes: dict[str, TopologyNode] = {}
        for k, names in members.items():
            if len(names) == 1 and names[0] == k:
                nodes[k] = self.nodes[k]
                continue
            flat = tuple(m for n in names for m in (self.nodes[n].members or (n,)))
            nodes[k] = TopologyNode(name=k, type=str(type_of(k, names)), members=flat)
        merged: dict[tuple[str, str, str], TopologyEdge] = {}
        for e in self.edges:
            s, t = key[e.source], key[e.target]
            if s == t:
                continue  # inside one box
            k3 = (s, t, e.requirement)
            if k3 in merged:
                merged[k3] = replace(merged[k3], count=merged[k3].count + e.count)
            else:
                merged[k3] = replace(e, source=s, target=t)
        problems = [replace(p, source=key[p.source]) for p in self.problems]
        return Topology(
            self.name, nodes, list(merged.values()), problems, self.boundary, view, self.service
        )

    # -- export -------------------------------------------------------------

    def to_dot(self) -> str:
        """Graphviz DOT text (hosting edges bold; unresolved dashed to a point)."""
        lines = [
            f"digraph {_dot_id(self.name)} {{",
            "  rankdir=TB;",
            "  node [shape=box, style=rounded];",
        ]
        indent = "  "
        if self.boundary is not None:
            lines.append("  subgraph cluster_boundary {")
            lines.append(
                f"    label={_dot_id('substitutes for ' + (self.boundary.node_type or '?'))};"
            )
            lines.append("    style=dashed;")
            indent = "    "
        for node in self.nodes.values():
            label = "\\n".join(
                [_dot_escape(node.name), _dot_escape(node.type)]
                + [_dot_escape(f"{k}: {v}") for k, v in node.properties]
            )
            if node.unchecked:
                # Drawn dashed, the reason as its tooltip (a quiet state, not an error).
                tip = _dot_escape(node.unchecked)
                lines.append(
                    f'{indent}{_dot_id(node.name)} [label="{label}", style="rounded,dashed", '
                    f'tooltip="{tip}"];'
                )
                continue
            lines.append(f'{indent}{_dot_id(node.name)} [label="{label}"];')
        if self.boundary is not None:
            lines.append("  }")
        for e in self.edges:
            attrs = [f'label="{_dot_escape(e.requirement)}"', f'tooltip="{_dot_escape(e.tooltip)}"']
            if e.hosting:
                attrs.append("style=bold")
            lines.append(f"  {_dot_id(e.source)} -> {_dot_id(e.target)} [{', '.join(attrs)}];")
        for i, p in enumerate(self.problems):
            if p.kind not in DRAWN_TO_NOWHERE:
                continue
            stub = _dot_id(f"?{i}")
            lines.append(f'  {stub} [shape=point, color=red, label=""];')
            lines.append(
                f"  {_dot_id(p.source)} -> {stub} [style=dashed, color=red, "
                f'label="{_dot_escape(p.requirement)}", tooltip="{_dot_escape(p.message)}"];'
            )
        lines.append("}")
        return "\n".join(lines) + "\n"

    def layout(self) -> Any:
        """Positions of boxes, edge paths and stubs
        (:class:`~toskit.tosca.topology.layout.Layout`)."""
        from toskit.tosca.topology.layout import layout

        return layout(self)

    def findings(self) -> dict[str, tuple[int, int]]:
        """Errors and warnings per box: ``{box name: (errors, warnings)}``,
        boxes without any left out. A finding counts for the node template
        its subject names (``Subject.kind == "node_template"``); a grouped
        or collapsed box adds up its members'."""
        diagnostics = self.service.diagnostics if self.service is not None else ()
        per_node: dict[str, list[int]] = {}
        for d in diagnostics:
            subject = d.subject
            if subject is None or subject.kind != "node_template" or subject.name is None:
                continue
            if d.severity in ("error", "warning"):
                per_node.setdefault(str(subject.name), [0, 0])[d.severity == "warning"] += 1
        out: dict[str, tuple[int, int]] = {}
        for name, node in self.nodes.items():
            errors = warnings = 0
            for member in node.members or (name,):
                e, w = per_node.get(member, (0, 0))
                errors, warnings = errors + e, warnings + w
            if errors or warnings:
                out[name] = (errors, warnings)
        return out

    @gc_paused  # a heavy view builder: no full collection over the template (#31)
    def to_svg(self, standalone: bool = True) -> str:
        """The drawing as SVG text; ``standalone`` adds the XML namespace and styles
        with fallbacks so the file renders alone (the notebook view sets the theme).
        A node with findings carries a badge with their count (:meth:`findings`)."""
        # The drawing lives with the views (toskit.display sits above tosca:
        # imported here, on use, never when tosca is).
        from toskit.display.topology_svg import render_svg

        return render_svg(self, self.layout(), standalone=standalone, findings=self.findings())

    def __repr__(self) -> str:
        def count(n: int, noun: str) -> str:  # "1 node", "2 nodes"
            return f"{n} {noun}{'' if n == 1 else 's'}"

        lines = [
            f"Topology {self.name}: {count(len(self.nodes), 'node')}, "
            f"{count(len(self.edges), 'edge')}"
            + (f", {count(len(self.problems), 'problem')}" if self.problems else "")
            + (f" ({self.view})" if self.view != "templates" else "")
        ]
        for e in self.edges[:40]:
            rel = f" [{e.relationship}]" if e.relationship else ""
            lines.append(f"  {e.source} -{e.requirement}-> {e.target}{rel}")
        if len(self.edges) > 40:
            lines.append(f"  … {len(self.edges) - 40} more edges")
        for p in self.problems[:20]:
            lines.append(f"  {p.source} -{p.requirement}-> ? ({p.kind}: {p.message})")
        if self.boundary is not None:
            lines.append(f"  boundary: substitutes for {self.boundary.node_type}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def _chain(name: str, hosts: Mapping[str, str]) -> list[str]:
    """``name`` and its hosts, bottom last; stops before a host already in the chain."""
    chain = [name]
    seen = {name}
    while chain[-1] in hosts and hosts[chain[-1]] not in seen:
        chain.append(hosts[chain[-1]])
        seen.add(chain[-1])
    return chain


def bottom_hosts(names: Iterable[str], hosts: Mapping[str, str]) -> dict[str, str]:
    """``{name: _chain(name, hosts)[-1]}`` for every name, each node walked once.

    A walk stops at a node with no host (the bottom), at a node whose bottom
    is known (the bottom of every node on the walk), or where it meets
    itself: in a hosting cycle each member's chain ends at its predecessor in
    the cycle, and a node leading into the cycle ends where the walk's last
    node stands (a node hosted by itself is a cycle of one).
    """
    bottom: dict[str, str] = {}
    for start in names:
        if start in bottom:
            continue
        path: list[str] = []
        index: dict[str, int] = {}
        node = start
        while node not in bottom and node not in index:
            index[node] = len(path)
            path.append(node)
            if node not in hosts:
                break
            node = hosts[node]
        if node in index and node in hosts:  # path[index[node]:] is a cycle
            entry = index[node]
            for i, member in enumerate(path):
                bottom[member] = path[i - 1] if i > entry else path[-1]
            continue
        end = bottom.get(node, node)
        for member in path:
            bottom[member] = end
    return bottom


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _dot_id(text: str) -> str:
    return '"' + _dot_escape(text) + '"'


# -------------------------------------------------------------------------- building


def _short(value: Any, limit: int = 32) -> str:
    # repr built within the limit (#37: a value aliasing a huge string)
    text = (
        value[: limit + 1]
        if isinstance(value, str)
        else bounded_text(value, limit + 1, style="repr")
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _key_properties(node: NodeTemplate) -> tuple[tuple[str, str], ...]:
    """Up to ``KEY_PROPERTIES`` scalar properties, those the template wrote first."""
    written: list[tuple[str, str]] = []
    others: list[tuple[str, str]] = []
    for name, value in node.properties.items():
        if value is None or isinstance(value, (Mapping, list)) or type(value).__name__ == "Call":
            continue
        (written if node.source_of((name,)) == "template" else others).append(
            (str(name), _short(value))
        )
        if len(written) >= KEY_PROPERTIES:
            break
    return tuple((written + others)[:KEY_PROPERTIES])


def _relationship_is(
    req: Requirement, short_name: str, fallback: bool, known: dict[tuple[int, str], bool]
) -> bool:
    """Whether the relationship type is, or derives from, ``…short_name``
    (``known``: the answers so far by type, which a large template repeats)."""
    rtype = req.relationship_type
    if rtype is None and req.relationship_template is not None:
        rtype = req.relationship_template.type
    if rtype is None:
        return fallback
    key = (id(rtype), short_name)
    answer = known.get(key)
    if answer is None:
        names = [rtype.name, *(a.name for a in rtype.ancestors)]
        answer = known[key] = any(n.split(".")[-1] == short_name for n in names)
    return answer


def _is_hosting(req: Requirement, known: dict[tuple[int, str], bool]) -> bool:
    return _relationship_is(req, "HostedOn", req.name == "host", known)


def _relationship_name(req: Requirement) -> str | None:
    if req.relationship_template is not None:
        return f"{req.relationship_template.name} ({req.relationship_template.type.name})"
    if req.relationship_type is not None:
        return req.relationship_type.name
    written = req.relationship
    if isinstance(written, Mapping):
        written = written.get("type")
    return written if isinstance(written, str) else None


def _target_capability(service: ServiceTemplate, req: Requirement) -> str | None:
    target = req.target
    if target is None or not req.capability:
        return req.capability
    if req.capability in target.capabilities:
        return req.capability
    ctype = service.registry.lookup("capability", req.capability)
    for name, cap in target.capabilities.items():
        if ctype is not None and cap.type.is_a(ctype):
            return name
    return req.capability


_REQ_NAME = re.compile(r"requirement '([^']*)'")
_COUNT_CODES = ("unfulfilled-requirement", "requirement-count")
_TARGET_CODES = ("unknown-node", "unknown-requirement", "unresolved-requirement")


def build_topology(service: ServiceTemplate, *, explain_limit: int = 50) -> Topology:
    """The :class:`Topology` of a loaded template (``ServiceTemplate.topology()``)."""
    by_path: dict[str, list[Diagnostic]] = {}
    for d in service.diagnostics:
        by_path.setdefault(d.path, []).append(d)
    doc: YamlDocument | None = service.document
    nodes: dict[str, TopologyNode] = {}
    edges: list[TopologyEdge] = []
    problems: list[TopologyProblem] = []
    registry = service.registry
    # Relationship types' kinds by type (the types live as long as the
    # service, so their ids are stable while this runs).
    kinds: dict[tuple[int, str], bool] = {}
    for tmpl in service.node_templates.values():
        desc = tmpl.description
        nodes[tmpl.name] = TopologyNode(
            name=tmpl.name,
            type=tmpl.type.name,
            properties=_key_properties(tmpl),
            directives=tuple(tmpl.directives),
            description=desc,
            members=(tmpl.name,),
            unchecked=_unchecked(registry, tmpl),
        )
    for tmpl in service.node_templates.values():
        for index, req in enumerate(tmpl.requirements):
            parts = (*tmpl.parts, "requirements", index, req.name)
            node_filter = effective_filter(tmpl, req)
            candidates = tuple(explain(service, tmpl, req, explain_limit))
            if req.target is None:
                problems.append(
                    _unresolved(doc, by_path, tmpl, req, parts, node_filter, candidates)
                )
                continue
            chosen = next((c for c in candidates if c.outcome == "chosen"), None)
            reason = chosen.reason if chosen else "resolved by the loader"
            edges.append(
                TopologyEdge(
                    source=tmpl.name,
                    target=req.target.name,
                    requirement=req.name,
                    relationship=_relationship_name(req),
                    capability=_target_capability(service, req),
                    hosting=_is_hosting(req, kinds),
                    attachment=_relationship_is(req, "AttachesTo", False, kinds),
                    reason=reason,
                    node_filter=filter_text(node_filter) if node_filter is not None else None,
                    candidates=candidates,
                )
            )
            fitting = [c for c in candidates if c.outcome in ("passed", "undetermined")]
            # An assignment with count > 1 stands for several relationships:
            # several fitting targets are expected there, not a doubt.
            count = req.raw.get("count", 1) if isinstance(req.raw, Mapping) else 1
            several = isinstance(count, int) and not isinstance(count, bool) and count > 1
            if req.target_name not in service.node_templates and fitting and not several:
                names = [f"'{req.target.name}'"] + [f"'{c.candidate}'" for c in fitting[:5]]
                more = " and more" if len(fitting) > 5 else ""
                message = (
                    f"node template '{tmpl.name}': requirement '{req.name}' could be fulfilled by "
                    f"{', '.join(names[:-1])} or {names[-1]}{more}; the first was taken"
                )
                problems.append(
                    TopologyProblem(
                        kind="ambiguous",
                        source=tmpl.name,
                        requirement=req.name,
                        message=message,
                        diagnostic=_diagnostic(
                            doc,
                            "warning",
                            "ambiguous-requirement",
                            message,
                            parts,
                            hint="name the node template, or narrow the choice with a node_filter",
                            # The candidates (issue #28): the one taken, then the others.
                            related=_candidates(
                                doc, service, [req.target.name, *(c.candidate for c in fitting[:5])]
                            ),
                        ),
                        target=req.target.name,
                        candidates=candidates,
                    )
                )
        problems.extend(_missing(tmpl, by_path))
    return Topology(
        name=service.name,
        nodes=nodes,
        edges=edges,
        problems=problems,
        boundary=_boundary(doc),
        service=service,
    )


def _unchecked(registry: Registry, tmpl: NodeTemplate) -> str | None:
    """Why a node is only partly checked: its type derives from an unknown profile."""
    if not tmpl.type_known or not registry.derives_from_opaque(tmpl.type):
        return None
    parent = next(
        (
            t.definition.get("derived_from")
            for t in tmpl.type.chain
            if registry.is_opaque(t.definition.get("derived_from"))
        ),
        None,
    )
    return (
        f"unchecked: {tmpl.type.name} derives from {parent}, from a profile toskit does not "
        "have; what it inherits is taken on trust"
    )


def _candidates(
    doc: YamlDocument | None, service: ServiceTemplate, names: list[str]
) -> tuple[Related, ...]:
    """Where each candidate node template is written (its name), for ``related``."""
    out = []
    for i, name in enumerate(dict.fromkeys(names)):
        node = service.node_templates.get(name)
        parts = node.parts if node is not None else None
        if parts and doc is not None:
            label = f"candidate '{name}'" + (" (taken)" if i == 0 else "")
            out.append(doc.related(label, parts, at_key=True))
    return tuple(out)


def _diagnostic(
    doc: YamlDocument | None,
    severity: str,
    code: str,
    message: str,
    parts: tuple,
    hint: str | None = None,
    related: tuple[Related, ...] = (),
) -> Diagnostic:
    if doc is not None:
        try:
            return doc.diagnostic(
                severity, code, message, parts, hint=hint, at_key=True, related=related
            )
        except (KeyError, IndexError, TypeError, ValueError):
            pass  # the template was not built from this document (DSL)
    return Diagnostic(severity, code, message, path=format_path(parts), hint=hint)


def _unresolved(
    doc: YamlDocument | None,
    by_path: Mapping[str, list[Diagnostic]],
    tmpl: NodeTemplate,
    req: Requirement,
    parts: tuple,
    node_filter: Any,
    candidates: tuple[CandidateVerdict, ...],
) -> TopologyProblem:
    prefix = format_path(parts)
    # The loader's word on the target (not, say, a relationship property's type).
    found = next(
        (
            d
            for path, ds in by_path.items()
            if path == prefix or path.startswith(prefix + ".")
            for d in ds
            if d.code in _TARGET_CODES
        ),
        None,
    )
    if found is not None:
        message = found.message
    else:
        wanted = req.target_name or req.capability or "a target"
        message = (
            f"node template '{tmpl.name}': requirement '{req.name}' "
            f"found no node template for {wanted}"
        )
        excluded = [c for c in candidates if c.outcome == "excluded"]
        if excluded:
            message += f"; the node filter excluded {', '.join(c.candidate for c in excluded[:5])}"
        elif node_filter is None:
            message += " (an orchestrator may fulfil it at deployment)"
        found = _diagnostic(doc, "warning", "unresolved-requirement", message, parts)
    return TopologyProblem(
        kind="unresolved",
        source=tmpl.name,
        requirement=req.name,
        message=message,
        diagnostic=found,
        candidates=candidates,
    )


def _missing(tmpl: NodeTemplate, by_path: Mapping[str, list[Diagnostic]]) -> list[TopologyProblem]:
    """Occurrence diagnostics of a node (too few or too many assignments)."""
    out: list[TopologyProblem] = []
    node_path = format_path(tmpl.parts)
    for path in (node_path, f"{node_path}.requirements"):
        for d in by_path.get(path, ()):
            if d.code not in _COUNT_CODES:
                continue
            match = _REQ_NAME.search(d.message)
            rname = match.group(1) if match else "?"
            kind = "too-many" if "at most" in d.message else "missing"
            out.append(TopologyProblem(kind, tmpl.name, rname, d.message, d))
    return out


def _pairs(section: Any) -> list[tuple[str, Any]]:
    if isinstance(section, Mapping):
        return [(str(k), v) for k, v in section.items()]
    out: list[tuple[str, Any]] = []
    if isinstance(section, list):
        for entry in section:
            if isinstance(entry, Mapping) and len(entry) == 1:
                ((k, v),) = entry.items()
                out.append((str(k), v))
    return out


def _mapping_target(value: Any) -> tuple[str, str | None] | None:
    if isinstance(value, str):
        return value, None
    if isinstance(value, list) and value and isinstance(value[0], str):
        inner = value[1] if len(value) > 1 and isinstance(value[1], str) else None
        return value[0], inner
    return None


def _boundary(doc: YamlDocument | None) -> Boundary | None:
    root = doc.value if doc is not None else None
    if not isinstance(root, Mapping):
        return None
    topology = root.get("service_template")
    if not isinstance(topology, Mapping):
        topology = root.get("topology_template")
    mappings = topology.get("substitution_mappings") if isinstance(topology, Mapping) else None
    if not isinstance(mappings, Mapping):
        return None
    node_type = mappings.get("node_type")

    def mapped(section: str) -> tuple[tuple[str, str, str | None], ...]:
        out = []
        for outer, value in _pairs(mappings.get(section)):
            target = _mapping_target(value)
            if target is not None:
                out.append((outer, target[0], target[1]))
        return tuple(out)

    props = [k for k, _ in _pairs(mappings.get("properties"))]
    return Boundary(
        node_type=node_type if isinstance(node_type, str) else None,
        capabilities=mapped("capabilities"),
        requirements=mapped("requirements"),
        properties=tuple(props),
    )
