"""A loaded ``ServiceTemplate`` -> YAML text or Python source.

``template_to_yaml(st)`` writes the template's *own* types and templates
(the normative profile is left out: every TOSCA processor has it).
It starts from the parsed main document when the template keeps one
(``st.document``), so every section survives; otherwise it rebuilds the
document from ``st.types`` (their raw ``definition``) and
``st.node_templates``. ``template_to_python(st)`` is
``to_python_source(template_to_yaml_data(st))``.

``ServiceTemplate.to_yaml()`` / ``.to_python()`` call these lazily.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toskit.dsl.normative import KIND_SECTIONS
from toskit.dsl.yamltext import dump_yaml
from toskit.plain import copy_value

__all__ = ["template_to_python", "template_to_yaml", "template_to_yaml_data"]


def _plain(value: Any) -> Any:
    """Plain dicts/lists (complex keys stay hashable FrozenMap/tuples), explicit stack."""
    return copy_value(value)


def _document_value(template: Any) -> Mapping | None:
    document = getattr(template, "document", None)
    value = getattr(document, "value", document)
    return value if isinstance(value, Mapping) else None


def _rebuilt(template: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"tosca_definitions_version": getattr(template, "version", None)}
    description = getattr(template, "description", None)
    if description:
        data["description"] = description
    registry_types = []
    types_of = getattr(template, "types_of", None)
    for kind, section in KIND_SECTIONS.items():
        if callable(types_of):
            registry_types = list(types_of(kind).values())
        else:
            registry_types = [t for t in template.types.values() if t.kind == kind]
        for type_ in registry_types:
            if getattr(type_, "normative", False) or type_.name.startswith("tosca."):
                continue
            definition = getattr(type_, "definition", None)
            data.setdefault(section, {})[type_.name] = (
                _plain(definition) if isinstance(definition, Mapping) else {}
            )
    templates: dict[str, Any] = {}
    for name, node in (getattr(template, "node_templates", None) or {}).items():
        definition = getattr(node, "definition", None)
        if isinstance(definition, Mapping):
            templates[name] = _plain(definition)
        else:
            body: dict[str, Any] = {"type": node.type.name}
            if node.properties:
                body["properties"] = _plain(node.properties)
            templates[name] = body
    if templates:
        data["topology_template"] = {"node_templates": templates}
    return data


def template_to_yaml_data(template: Any) -> dict[str, Any]:
    """The template's own document as plain data (``tosca_definitions_version`` first)."""
    value = _document_value(template)
    if value is None:
        return _rebuilt(template)
    data = _plain(value)
    if "tosca_definitions_version" not in data and getattr(template, "version", None):
        # A document that names no version: toskit read it as it assumed;
        # a 1.x one is written in the DSL's own dialect, which (like the
        # unversioned document) lets a property leave out its type -- an
        # error in a declared tosca_simple_yaml_1_3 document (issue 38).
        written = (
            "tosca_simple_unfurl_1_0_0"
            if template.version.startswith("tosca_simple")
            else template.version
        )
        data = {"tosca_definitions_version": written, **data}
    return data


def template_to_yaml(template: Any, *, version: str | None = None) -> str:
    """YAML text of a ``ServiceTemplate``'s own types and templates (deterministic).

    ``version`` rewrites it for another TOSCA version: ``"1.3"``
    (``tosca_simple_yaml_1_3``) or ``"2.0"`` (``tosca_2_0``), documents that
    other TOSCA tools read, or ``"unfurl"``; ``None`` keeps the template's
    own (the DSL writes Unfurl's dialect, ``tosca_simple_unfurl_1_0_0``).
    See :mod:`toskit.dsl.retarget`.
    """
    data = template_to_yaml_data(template)
    if version is not None:
        from toskit.dsl.retarget import retarget

        data = retarget(data, version)
    return dump_yaml(data)


def template_to_python(template: Any) -> str:
    """Python source (``toskit.dsl`` classes) for a ``ServiceTemplate`` (deterministic)."""
    from toskit.dsl.yaml2python import to_python_source

    return to_python_source(template_to_yaml_data(template))
