"""What a finding is about, derived from the structured path of a TOSCA document.

:func:`subject_of` is the one place that reads a document path as an entity
and a path inside it (issue #28): ``("topology_template", "node_templates",
"db", "properties", "connection", "port")`` is
``Subject("node_template", "db", ("connection", "port"))``. Producers whose
finding is about something the path does not say pass their own
:class:`~toskit.diagnostics.Subject` instead.

The rules, for TOSCA 1.x (``topology_template``) and 2.0
(``service_template``) alike:

* templates and other topology entries (``node_templates``,
  ``relationship_templates``, ``inputs``, ``outputs``, ``groups``,
  ``workflows``; ``policies``, a list of one-key maps, by the policy's name)
  are ``Subject(<singular kind>, name, ...)``;
* type definitions (``node_types``, ``data_types`` …) are
  ``Subject("node_type", name, ...)`` and so on; ``functions`` (2.0) and
  ``repositories`` entries likewise (``"function"``, ``"repository"``);
* ``imports`` entries are ``Subject("import", None, (index, ...))``;
* inside an entity, the ``properties`` section is implied (the path is the
  property path, ``section=None``); any other keyname becomes the
  ``section`` (``requirements``, ``capabilities``, ``attributes``,
  ``interfaces``, ``type`` …) and the path is what follows it;
* anything else is ``Subject("document", None, parts)``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from toskit.diagnostics import Subject

__all__ = ["subject_of"]

_TOPOLOGY = {
    "node_templates": "node_template",
    "relationship_templates": "relationship_template",
    "inputs": "input",
    "outputs": "output",
    "groups": "group",
    "workflows": "workflow",
}
_TOP = {
    "functions": "function",
    "repositories": "repository",
}


def subject_of(parts: Sequence[Hashable]) -> Subject:
    """The :class:`~toskit.diagnostics.Subject` of a finding at document path ``parts``."""
    parts = tuple(parts)
    if not parts:
        return Subject("document")
    head = parts[0]
    if head in ("topology_template", "service_template") and len(parts) >= 3:
        section = parts[1]
        kind = _TOPOLOGY.get(section)  # type: ignore[call-overload]
        if kind is not None:
            return _entity(kind, parts[2], parts[3:])
        if section == "policies" and isinstance(parts[2], int):
            if len(parts) >= 4:
                return _entity("policy", parts[3], parts[4:])
            return Subject("policy", None, (parts[2],))
        if section == "policies":
            return _entity("policy", parts[2], parts[3:])
    elif isinstance(head, str) and len(parts) >= 2:
        if head.endswith("_types") and head != "_types":
            return _entity(head[:-1], parts[1], parts[2:])
        if head in _TOP:
            return _entity(_TOP[head], parts[1], parts[2:])
        if head == "imports":
            return Subject("import", None, parts[1:])
    return Subject("document", None, parts)


def _entity(kind: str, name: Hashable, rest: tuple[Hashable, ...]) -> Subject:
    name_text = name if isinstance(name, str) else str(name)
    if not rest:
        return Subject(kind, name_text)
    section = rest[0]
    if section == "properties":
        return Subject(kind, name_text, rest[1:])
    return Subject(kind, name_text, rest[1:], section=str(section))
