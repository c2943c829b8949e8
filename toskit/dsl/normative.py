"""DSL base classes for every normative type, generated from the shipped profile.

Nothing here is written by hand per type: :func:`build_namespaces` reads
``toskit/tosca/profiles/tosca-simple-1.3.yaml`` and makes one class per
type definition, in namespaces named as Unfurl's ``tosca`` package names
them (``nodes``, ``datatypes``, ``capabilities``, ``relationships``,
``interfaces``, ``artifacts``, ``groups``, ``policies``).

Python names follow Unfurl's convention so that modules written for it
load unchanged: the kind prefix is dropped and the remaining dotted parts
are joined, each capitalised (``tosca.datatypes.network.PortDef`` ->
``datatypes.NetworkPortDef``, ``tosca.capabilities.Endpoint.Admin`` ->
``capabilities.EndpointAdmin``, ``tosca.datatypes.json`` ->
``datatypes.Json``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from toskit.dsl.entities import KIND_BASES, DataEntity, Namespace, ToscaType
from toskit.functions.context import PRIMITIVE_TYPES

__all__ = [
    "KIND_NAMESPACES",
    "KIND_PREFIXES",
    "build_namespaces",
    "normative_classes",
    "normative_definitions",
    "profile_file",
    "python_name_for",
]

#: Kind -> the DSL namespace attribute holding its classes.
KIND_NAMESPACES: dict[str, str] = {
    "data": "datatypes",
    "artifact": "artifacts",
    "capability": "capabilities",
    "interface": "interfaces",
    "relationship": "relationships",
    "node": "nodes",
    "group": "groups",
    "policy": "policies",
}
#: Kind -> the ``*_types`` section of a TOSCA document.
KIND_SECTIONS: dict[str, str] = {kind: f"{kind}_types" for kind in KIND_NAMESPACES}
#: Kind -> the prefix of its normative names.
KIND_PREFIXES: dict[str, str] = {kind: f"tosca.{ns}." for kind, ns in KIND_NAMESPACES.items()}

_PYTHON_OF_PRIMITIVE: dict[Any, type] = {
    "string": str,
    "integer": int,
    "float": float,
    "boolean": bool,
    "list": list,
    "map": dict,
}


def python_name_for(kind: str, tosca_name: str) -> str:
    """The Unfurl-style class name of a normative type within its namespace."""
    prefix = KIND_PREFIXES[kind]
    rest = tosca_name[len(prefix) :] if tosca_name.startswith(prefix) else tosca_name
    return "".join(part[:1].upper() + part[1:] for part in rest.split(".") if part)


def profile_file() -> Path:
    """The 1.3 profile, located without importing ``toskit.tosca``.

    Importing that package pulls in the whole TOSCA loader, which the DSL
    classes do not need until ``load_module`` runs. This is the same file
    as ``toskit.tosca.profiles.profile_path("1.3")`` (a test checks it).
    """
    return Path(__file__).resolve().parent.parent / "tosca" / "profiles" / "tosca-simple-1.3.yaml"


@functools.cache
def normative_definitions() -> dict[str, dict[str, Any]]:
    """Kind -> {TOSCA name -> raw definition} of the 1.3 profile (parsed once)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data = yaml.load(profile_file().read_text(encoding="utf-8"), Loader=loader)
    return {kind: dict(data.get(section) or {}) for kind, section in KIND_SECTIONS.items()}


def _ordered(definitions: Mapping[str, Any]) -> list[str]:
    """Type names with every parent before its children."""
    out: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        parent = (definitions[name] or {}).get("derived_from")
        if isinstance(parent, str) and parent in definitions:
            visit(parent)
        out.append(name)

    for name in definitions:
        visit(name)
    return out


def _make_class(kind: str, name: str, definition: Mapping[str, Any], parent: type) -> type:
    python_name = python_name_for(kind, name)
    namespace: dict[str, Any] = {
        "_type_name": name,
        "_tosca_normative": True,
        "_tosca_abstract": False,
        "_tosca_definition": definition,
        "__doc__": definition.get("description"),
        "__module__": "toskit.dsl",
        "__qualname__": f"{KIND_NAMESPACES[kind]}.{python_name}",
    }
    base = definition.get("derived_from")
    if kind == "data" and base in PRIMITIVE_TYPES:
        namespace["_type"] = base
        if "constraints" in definition:
            namespace["_constraints"] = definition["constraints"]
    annotations: dict[str, Any] = {}
    for prop_name, prop in (definition.get("properties") or {}).items():
        prop = prop or {}
        annotations[prop_name] = _PYTHON_OF_PRIMITIVE.get(prop.get("type"), prop.get("type"))
        if "default" in prop and prop_name.isidentifier() and not prop_name.startswith("_"):
            namespace[prop_name] = prop["default"]
    namespace["__annotations__"] = annotations
    return type(python_name, (parent,), namespace)


def build_namespaces() -> dict[str, Namespace]:
    """Namespace attribute name -> ``Namespace`` of generated classes."""
    definitions = normative_definitions()
    namespaces = {ns: Namespace(ns) for ns in KIND_NAMESPACES.values()}
    for kind, types in definitions.items():
        by_name: dict[str, type] = {}
        root_name = f"{KIND_PREFIXES[kind]}Root"
        for name in _ordered(types):
            definition = types[name] or {}
            if kind == "data" and name == root_name:
                cls: type = DataEntity
                DataEntity._tosca_definition = definition
            else:
                derived_from = definition.get("derived_from")
                parent = (
                    by_name.get(derived_from, KIND_BASES[kind])
                    if isinstance(derived_from, str)
                    else KIND_BASES[kind]
                )
                if kind == "data" and parent is KIND_BASES[kind]:
                    parent = DataEntity
                cls = _make_class(kind, name, definition, parent)
            by_name[name] = cls
            setattr(namespaces[KIND_NAMESPACES[kind]], python_name_for(kind, name), cls)
    return namespaces


def normative_classes(namespaces: Mapping[str, Namespace]) -> dict[str, type[ToscaType]]:
    """TOSCA name -> class, over every namespace (kinds never share a full name)."""
    out: dict[str, type[ToscaType]] = {}
    for namespace in namespaces.values():
        for value in vars(namespace).values():
            if isinstance(value, type) and issubclass(value, ToscaType):
                out[value._type_name] = value
    return out
