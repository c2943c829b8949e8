"""Template texts shared by the comparison tests (imported by name)."""

from __future__ import annotations

import toskit

BASE = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  my.Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      host: {type: string, default: localhost}
      port: {type: integer, default: 5432}
node_types:
  my.Db:
    derived_from: tosca.nodes.Root
    properties:
      endpoint: {type: my.Endpoint}
      replicas: {type: integer, default: 1}
      name: {type: string}
topology_template:
  node_templates:
    db:
      type: my.Db
      properties:
        name: main
    cache:
      type: my.Db
      properties:
        name: cache
        replicas: 2
      requirements:
        - dependency: db
"""


def load(text: str, name: str = "t.yaml") -> toskit.ServiceTemplate:
    return toskit.loads(text, name=name)
