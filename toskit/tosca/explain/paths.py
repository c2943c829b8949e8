"""Paths: what ``st.explain(path)`` and ``node.explain(path)`` name, found or refused.

A template-wide path starts with a section (``node_templates``,
``relationship_templates``, ``groups``, ``policies``; a leading
``topology_template.``/``service_template.`` is accepted), then the
entity's name, optionally ``capabilities.<name>``, then ``properties.`` and
the property path, written as the property table writes it (``eps[0].port``)
or as a tuple of keys and indices. A path that names nothing raises
:class:`~toskit.tosca.explain.ExplainError` saying what exists there,
with a did-you-mean.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import did_you_mean, format_path
from toskit.tosca.explain.model import ExplainError
from toskit.tosca.explain.text import short
from toskit.tosca.model.template import _parse_path

if TYPE_CHECKING:
    from toskit.tosca.model.service import ServiceTemplate

__all__ = ["entity_and_path", "value_at"]


def entity_and_path(template: ServiceTemplate, path: str | tuple) -> tuple[Any, tuple]:
    """The entity and the property path a template-wide ``path`` names.

    ``path`` starts with a section (``node_templates``, ``relationship_templates``,
    ``groups``, ``policies``), optionally under ``topology_template.`` /
    ``service_template.``, then the entity's name, optionally
    ``capabilities.<name>``, then ``properties.`` and the property path:
    ``node_templates.db.properties.connection.endpoint.port``.
    """
    parts = list(_parse_path(path) if isinstance(path, str) else _parts_of(path))
    if parts and parts[0] in ("topology_template", "service_template"):
        parts = parts[1:]
    sections: dict[str, Mapping[str, Any]] = {
        "node_templates": template.node_templates,
        "relationship_templates": template.relationship_templates,
        "groups": template.groups,
        "policies": template.policies,
    }
    if not parts or parts[0] not in sections:
        word = str(parts[0]) if parts else ""
        raise ExplainError(
            f"explain: a path starts with one of {', '.join(sections)} (got {word!r})"
            + _hint(word, sections)
        )
    entities = sections[str(parts[0])]
    if len(parts) < 2 or parts[1] not in entities:
        word = str(parts[1]) if len(parts) > 1 else ""
        raise ExplainError(f"explain: no {parts[0]} entry {word!r}" + _hint(word, entities))
    entity: Any = entities[parts[1]]
    rest = parts[2:]
    if rest[:1] == ["capabilities"]:
        caps = getattr(entity, "capabilities", {})
        if len(rest) < 2 or rest[1] not in caps:
            word = str(rest[1]) if len(rest) > 1 else ""
            raise ExplainError(
                f"explain: node template {entity.name!r} has no capability {word!r}"
                + _hint(word, caps)
            )
        entity = caps[rest[1]]
        rest = rest[2:]
    if rest[:1] != ["properties"]:
        raise ExplainError(
            f"explain: after {format_path(parts[: len(parts) - len(rest)])} "
            "comes 'properties.<name>'"
            + (
                " or 'capabilities.<name>.properties.<name>'"
                if parts[0] == "node_templates"
                else ""
            )
            + (f" (got {rest[0]!r})" if rest else "")
        )
    return entity, tuple(rest[1:])


def value_at(entity: Any, path: str | tuple) -> tuple[tuple, Any]:
    """``(rel, value)``: the property path of ``entity`` as parts, and the value there.

    Found as the user wrote it; a path that names nothing raises
    :class:`ExplainError` saying what exists there, with a did-you-mean.
    """
    if path.__class__ is tuple:
        rel: tuple = path  # checked by the lookups below
    else:
        rel = _parse_path(path) if isinstance(path, str) else _parts_of(path)
    values = entity.properties
    if rel:
        # The common case first (plain dicts and lists): one lookup a part.
        value: Any = values
        try:
            for part in rel:
                cls = value.__class__
                if cls is dict or (cls is list and part.__class__ is int and part >= 0):
                    value = value[part]
                else:
                    break
            else:
                return rel, value
        except (LookupError, TypeError):
            pass
        if path.__class__ is tuple:
            rel = _parts_of(path)  # an unhashable part says so
    else:
        raise ExplainError(
            f"explain: name a property of {entity.kind} {entity.name!r}"
            + (
                f" (it has {', '.join(map(repr, list(values)[:10]))})"
                if values
                else " (it has none)"
            )
        )
    value = values
    for i, part in enumerate(rel):  # found as the user wrote it, else a ToskitError
        cls = value.__class__
        ok = ((cls is dict or isinstance(value, Mapping)) and part in value) or (
            cls is list and part.__class__ is int and 0 <= part < len(value)
        )
        if not ok:
            where = format_path(rel[:i]) or f"{entity.kind} {entity.name!r}"
            if isinstance(value, Mapping):
                known = [str(k) for k in value]
                raise ExplainError(
                    f"explain: {where} has no property {part!r}"
                    + (
                        _hint(str(part), known)
                        or (f" (it has {', '.join(map(repr, known[:10]))})" if known else "")
                    )
                )
            if isinstance(value, list):
                raise ExplainError(
                    f"explain: {where} is a list of {len(value)}: index {part!r} is out of range"
                )
            raise ExplainError(
                f"explain: {where} is a single value ({short(value)}), it has no {part!r}"
            )
        value = value[part]
    return rel, value


def _parts_of(path: Any) -> tuple:
    """A tuple path as given, checked: each part a key a YAML map can hold."""
    try:
        rel = tuple(path)
        hash(rel)
    except TypeError:
        raise ExplainError(
            "explain: a path is a dotted string or a sequence of keys and indices, "
            f"not {path!r:.80}"
        ) from None
    return rel


def _hint(word: str, candidates: Any) -> str:
    hint = did_you_mean(word, [str(c) for c in candidates])
    return f"; {hint}" if hint else ""
