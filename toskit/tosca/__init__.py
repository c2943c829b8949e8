"""TOSCA types, templates and property resolution with provenance.

``load``/``loads`` turn a TOSCA 1.x or 2.0 document into a
:class:`ServiceTemplate` (see API.md, "Loading TOSCA", and
spec/tosca.md). ``check_text`` gives just the diagnostics (for the CLI).
"""

from __future__ import annotations

from toskit.tosca.definitions import PropertyDefinition, Type
from toskit.tosca.loader import check_text, load, loads
from toskit.tosca.service import ServiceTemplate
from toskit.tosca.template import (
    CapabilityTemplate,
    GroupTemplate,
    NodeTemplate,
    PolicyTemplate,
    PropertyRow,
    PropertyTable,
    RelationshipTemplate,
    Requirement,
)

__all__ = [
    "CapabilityTemplate",
    "GroupTemplate",
    "NodeTemplate",
    "PolicyTemplate",
    "PropertyDefinition",
    "PropertyRow",
    "PropertyTable",
    "RelationshipTemplate",
    "Requirement",
    "ServiceTemplate",
    "Type",
    "check_text",
    "load",
    "loads",
]
