"""TOSCA types, templates and property resolution with provenance.

``load``/``loads`` turn a TOSCA 1.x or 2.0 document into a
:class:`ServiceTemplate`. ``check_text`` gives just the diagnostics (for the CLI).
How the loader is built and the choices it makes: docs/tosca.md.

>>> import toskit
>>> st = toskit.loads('''
... tosca_definitions_version: tosca_simple_yaml_1_3
... node_types:
...   Server:
...     properties:
...       port: {type: integer, default: 80}
... topology_template:
...   node_templates:
...     web: {type: Server}
... ''')
>>> st.ok, st.node_templates["web"].properties
(True, {'port': 80})
>>> st.node_templates["web"].property_table()["port"].source
'default: Server'
"""

from __future__ import annotations

from toskit.tosca.load.loader import check_text, load, loads
from toskit.tosca.model.service import ServiceTemplate
from toskit.tosca.model.template import (
    CapabilityTemplate,
    GroupTemplate,
    NodeTemplate,
    PolicyTemplate,
    PropertyRow,
    PropertyTable,
    RelationshipTemplate,
    Requirement,
)
from toskit.tosca.types.definitions import PropertyDefinition, Type

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
