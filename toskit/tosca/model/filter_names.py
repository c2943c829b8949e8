"""Names in TOSCA 1.x node filters of requirement assignments (issue 20 item 15).

A 1.x ``node_filter`` names properties of the target node type and
capabilities (by name or type) with their properties. Each name is looked
up in the target type the requirement names (the assignment's ``node``, else
the requirement definition's): a property it does not have is
``unknown-property``, a capability it does not have ``unknown-capability``,
with did-you-mean hints. Keynames of the filter itself are checked by the
grammar (:mod:`.keynames`). Targets whose type is unknown, or derives from
an unknown profile, are not checked; 2.0 filters are conditions, evaluated
by :mod:`.node_filters`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.source import YamlDocument

__all__ = ["check_filter_names"]


def _complete(registry: Any, t: Any) -> bool:
    return not any(registry.is_opaque(a.definition.get("derived_from")) for a in t.chain)


def _requirement_node(ntype: Any, rname: str) -> Any:
    """The ``node`` a node type's requirement definition ``rname`` names."""
    for t in reversed(ntype.chain):
        reqs = t.definition.get("requirements")
        for entry in reqs if isinstance(reqs, list) else []:
            if isinstance(entry, Mapping) and rname in entry and isinstance(entry[rname], Mapping):
                return entry[rname].get("node")
    return None


def _target_type(registry: Any, templates: Mapping, ntype: Any, rname: str, assign: Any) -> Any:
    node = assign.get("node") if isinstance(assign, Mapping) else None
    if isinstance(node, str) and isinstance(templates.get(node), Mapping):
        node = templates[node].get("type")  # a template name: its type
    if node is None and ntype is not None:
        node = _requirement_node(ntype, rname)
    target = registry.lookup("node", node) if isinstance(node, str) else None
    return target if target is not None and _complete(registry, target) else None


def _single_keys(value: Any) -> Iterator[tuple[int, Any, Any]]:
    for index, entry in enumerate(value if isinstance(value, list) else []):
        if isinstance(entry, Mapping) and len(entry) == 1:
            ((key, item),) = entry.items()
            yield index, key, item


def _capability_type(registry: Any, target: Any, name: Any) -> Any:
    for t in reversed(target.chain):
        caps = t.definition.get("capabilities")
        if isinstance(caps, Mapping) and name in caps:
            cdef = caps[name]
            ctype = cdef.get("type") if isinstance(cdef, Mapping) else cdef
            return registry.lookup("capability", ctype, t.prefix)
    return registry.lookup("capability", name) if isinstance(name, str) else None


def check_filter_names(
    registry: Any, doc: YamlDocument, topology: Mapping, tparts: tuple[Hashable, ...]
) -> list[Diagnostic]:
    """Diagnostics for names in the node filters of the node templates' requirements."""
    out: list[Diagnostic] = []
    templates = topology.get("node_templates")
    if not isinstance(templates, Mapping):
        return out
    if doc.key_names is not None and "node_filter" not in doc.key_names:
        # The topology is this document's: none of its keys is a node
        # filter, so there is nothing to check (bench B1: 2 % of a load
        # went to looking up every template's type for no filter).
        return out
    for name, raw in templates.items():
        reqs = raw.get("requirements") if isinstance(raw, Mapping) else None
        ntype = registry.lookup("node", raw.get("type")) if isinstance(raw, Mapping) else None
        for index, rname, assign in _single_keys(reqs):
            nfilter = assign.get("node_filter") if isinstance(assign, Mapping) else None
            if not isinstance(nfilter, Mapping):
                continue
            target = _target_type(registry, templates, ntype, rname, assign)
            if target is None:
                continue
            parts = (*tparts, "node_templates", name, "requirements", index, rname, "node_filter")
            label = f"node template '{name}': requirement '{rname}'"
            out.extend(_properties(doc, nfilter.get("properties"), target, parts, label))
            for cindex, cname, cfilter in _single_keys(nfilter.get("capabilities")):
                cparts = (*parts, "capabilities", cindex, cname)
                ctype = _capability_type(registry, target, cname)
                if ctype is None:
                    out.append(
                        doc.diagnostic(
                            "error",
                            "unknown-capability",
                            f"{label}: node filter names capability '{cname}', which "
                            f"{target.name} does not have",
                            cparts,
                            misspelt=str(cname),
                            candidates=_capability_names(target),
                            at_key=True,
                        )
                    )
                    continue
                if _complete(registry, ctype) and isinstance(cfilter, Mapping):
                    out.extend(_properties(doc, cfilter.get("properties"), ctype, cparts, label))
    return out


def _capability_names(target: Any) -> list[str]:
    names: list[str] = []
    for t in target.chain:
        caps = t.definition.get("capabilities")
        if isinstance(caps, Mapping):
            names.extend(str(k) for k in caps)
    return names


def _properties(
    doc: YamlDocument, clauses: Any, owner: Any, parts: tuple[Hashable, ...], label: str
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for index, pname, _ in _single_keys(clauses):
        if pname in owner.properties:
            continue
        out.append(
            doc.diagnostic(
                "error",
                "unknown-property",
                f"{label}: node filter names property '{pname}', which {owner.name} does not have",
                (*parts, "properties", index, pname),
                misspelt=str(pname),
                candidates=list(owner.properties),
                at_key=True,
            )
        )
    return out
