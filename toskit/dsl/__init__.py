"""Python classes for TOSCA types and templates (docs/dsl.md).

::

    from toskit import dsl

    class Endpoint(dsl.DataEntity):
        \"\"\"Socket endpoint details\"\"\"
        _type_name = "my.datatypes.Endpoint"
        ip: str
        \"\"\"the endpoint IP\"\"\"
        port: int = 2233

    class DatabaseService(dsl.nodes.DBMS):
        endpoint: Endpoint

    my_db = DatabaseService("my_db", endpoint=Endpoint(ip="10.0.0.1"))

A subclass is a type, its annotations are properties, class attribute
values are defaults, a node class called with a name is a node template.
``dsl.load_module(path)`` turns such a module into a ``ServiceTemplate``
(the same object and diagnostics as ``toskit.load``), and modules written
for Unfurl's ``tosca`` package (``import tosca``, ``from tosca import
DataEntity``, ``import unfurl``) load unchanged.

The base classes of the normative types (``dsl.nodes.DBMS``,
``dsl.datatypes.Root`` which is ``dsl.DataEntity``, ...) are generated from
the shipped TOSCA 1.3 profile when this module is imported.

Conversions: ``to_yaml_data`` (Python -> TOSCA data), ``to_python_source``
(TOSCA data -> Python source), ``template_to_yaml(st)`` /
``template_to_python(st)`` (a loaded ``ServiceTemplate`` -> text).
"""

from __future__ import annotations

from toskit.dsl.convert import template_to_python, template_to_yaml, template_to_yaml_data
from toskit.dsl.entities import (
    MISSING,
    UNITS,
    ArtifactType,
    Attribute,
    Bitrate,
    CapabilityType,
    DataEntity,
    DataType,
    Frequency,
    GroupType,
    InterfaceType,
    Namespace,
    NodeType,
    PolicyType,
    Property,
    RelationshipType,
    Size,
    Time,
    ToscaTemplate,
    ToscaType,
    Unit,
    tosca_bytes,
    tosca_range,
    tosca_timestamp,
    tosca_version,
)
from toskit.dsl.loader import load_module
from toskit.dsl.normative import build_namespaces
from toskit.dsl.python2yaml import DSL_VERSION, to_yaml_data
from toskit.dsl.yaml2python import to_python_source
from toskit.dsl.yamltext import dump_yaml, value_from_yaml

# Scalar units as module attributes: ``2 * dsl.GB`` (``from tosca import GB``).
globals().update(UNITS)

_NAMESPACES = build_namespaces()
datatypes = _NAMESPACES["datatypes"]
nodes = _NAMESPACES["nodes"]
capabilities = _NAMESPACES["capabilities"]
relationships = _NAMESPACES["relationships"]
interfaces = _NAMESPACES["interfaces"]
artifacts = _NAMESPACES["artifacts"]
groups = _NAMESPACES["groups"]
policies = _NAMESPACES["policies"]

__all__ = [
    "DSL_VERSION",
    "MISSING",
    "ArtifactType",
    "Attribute",
    "Bitrate",
    "CapabilityType",
    "DataEntity",
    "DataType",
    "Frequency",
    "GroupType",
    "InterfaceType",
    "Namespace",
    "NodeType",
    "PolicyType",
    "Property",
    "RelationshipType",
    "Size",
    "Time",
    "ToscaTemplate",
    "ToscaType",
    "UNITS",
    "Unit",
    *UNITS,
    "artifacts",
    "capabilities",
    "datatypes",
    "dump_yaml",
    "groups",
    "interfaces",
    "load_module",
    "nodes",
    "policies",
    "relationships",
    "template_to_python",
    "template_to_yaml",
    "template_to_yaml_data",
    "to_python_source",
    "to_yaml_data",
    "tosca_bytes",
    "tosca_range",
    "tosca_timestamp",
    "tosca_version",
    "value_from_yaml",
]
