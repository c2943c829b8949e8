"""Artifact type references: in artifact definitions and operation implementations.

An artifact definition (``artifacts:`` of a node type or node template) and
an operation's implementation (``primary``, ``dependencies``, 2.0
``artifact``) may name an artifact type; an unknown one is ``unknown-type``
with a did-you-mean hint (issue 20 items 13 and 16). A plain file name
(``implementation: create.sh``) names no type: nothing to check.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.source import YamlDocument

__all__ = ["artifact_type_refs", "check_artifact_types", "check_template_artifacts"]

# Keynames of an interface definition that are not operations (TOSCA 1.x
# writes operations as plain keys of the interface).
_INTERFACE_KEYS = frozenset({"type", "description", "inputs", "metadata", "notifications"})


def artifact_type_refs(entity: Any) -> Iterator[tuple[str, tuple[Hashable, ...]]]:
    """Every artifact type name ``entity`` (a raw node type or template) writes, with its path."""
    if not isinstance(entity, Mapping):
        return
    artifacts = entity.get("artifacts")
    if isinstance(artifacts, Mapping):
        for name, adef in artifacts.items():
            if isinstance(adef, Mapping) and isinstance(adef.get("type"), str):
                yield adef["type"], ("artifacts", name, "type")
    interfaces = entity.get("interfaces")
    if not isinstance(interfaces, Mapping):
        return
    for iname, idef in interfaces.items():
        if not isinstance(idef, Mapping):
            continue
        for parts, op in _operations(idef):
            impl = op.get("implementation") if isinstance(op, Mapping) else None
            if isinstance(impl, Mapping):
                yield from _implementation_refs(
                    impl, ("interfaces", iname, *parts, "implementation")
                )


def _operations(idef: Mapping) -> Iterator[tuple[tuple[Hashable, ...], Any]]:
    for section in ("operations", "notifications"):
        ops = idef.get(section)
        if isinstance(ops, Mapping):
            for name, op in ops.items():
                yield (section, name), op
    for name, op in idef.items():
        if name not in _INTERFACE_KEYS and name != "operations":
            yield (name,), op


def _implementation_refs(
    impl: Mapping, parts: tuple[Hashable, ...]
) -> Iterator[tuple[str, tuple[Hashable, ...]]]:
    for key in ("primary", "artifact"):
        adef = impl.get(key)
        if isinstance(adef, Mapping) and isinstance(adef.get("type"), str):
            yield adef["type"], (*parts, key, "type")
    deps = impl.get("dependencies")
    if isinstance(deps, list):
        for index, adef in enumerate(deps):
            if isinstance(adef, Mapping) and isinstance(adef.get("type"), str):
                yield adef["type"], (*parts, "dependencies", index, "type")


def check_artifact_types(
    registry: Any,
    doc: YamlDocument,
    entity: Any,
    parts: tuple[Hashable, ...],
    label: str,
    prefix: str | None = None,
) -> list[Diagnostic]:
    """``unknown-type`` for each artifact type ``entity`` names that ``registry`` lacks."""
    out: list[Diagnostic] = []
    for name, rel in artifact_type_refs(entity):
        if registry.lookup("artifact", name, prefix) is not None or registry.is_opaque(name):
            continue
        out.append(
            doc.diagnostic(
                "error",
                "unknown-type",
                f"{label}: unknown artifact type '{name}'",
                (*parts, *rel),
                misspelt=name,
                candidates=registry.names("artifact"),
            )
        )
    return out


def check_template_artifacts(
    registry: Any, doc: YamlDocument, topology: Mapping, tparts: tuple[Hashable, ...]
) -> list[Diagnostic]:
    """Artifact types named by the node and relationship templates of a topology."""
    out: list[Diagnostic] = []
    for section, noun in (
        ("node_templates", "node template"),
        ("relationship_templates", "relationship template"),
    ):
        templates = topology.get(section)
        if not isinstance(templates, Mapping):
            continue
        for name, raw in templates.items():
            if raw.__class__ is dict and "artifacts" not in raw and "interfaces" not in raw:
                continue  # names no artifact type (most templates: bench B1)
            parts = (*tparts, section, name)
            out.extend(check_artifact_types(registry, doc, raw, parts, f"{noun} '{name}'"))
    return out
