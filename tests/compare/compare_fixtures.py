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


# Issue #29: one template with every section a diff must compare.
FULL = """\
tosca_definitions_version: tosca_simple_yaml_1_3
metadata:
  template_name: shop
  release: "1.0"
repositories:
  docker_hub: {url: "https://registry.example.com/"}
artifact_types:
  my.Script:
    derived_from: tosca.artifacts.Root
    file_ext: [sh]
interface_types:
  my.Ops:
    derived_from: tosca.interfaces.Root
    operations:
      backup:
        description: take a backup
capability_types:
  my.Cap:
    derived_from: tosca.capabilities.Root
    properties:
      level: {type: integer, default: 1}
relationship_types:
  my.Rel:
    derived_from: tosca.relationships.HostedOn
    properties:
      credential: {type: map, required: false}
group_types:
  my.Group:
    derived_from: tosca.groups.Root
policy_types:
  my.Policy:
    derived_from: tosca.policies.Root
    properties:
      limit: {type: integer, default: 3}
data_types:
  my.Data:
    derived_from: tosca.datatypes.Root
    properties:
      x: {type: integer, default: 0}
node_types:
  my.App:
    derived_from: tosca.nodes.SoftwareComponent
    properties:
      relase: {type: string, required: false}
    capabilities:
      extra: {type: my.Cap}
    interfaces:
      Ops: {type: my.Ops}
topology_template:
  description: the shop
  inputs:
    cpus:
      type: integer
      default: 2
  node_templates:
    db_host:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties:
            num_cpus: 1
            mem_size: 1 GB
    app:
      type: my.App
      directives: []
      metadata: {owner: team-a}
      properties:
        relase: "1.0"
      capabilities:
        extra:
          properties: {level: 2}
      requirements:
        - host:
            node: db_host
            relationship: my_rel
      interfaces:
        Standard:
          operations:
            create:
              implementation:
                primary: scripts/create.sh
                dependencies: [scripts/lib.sh]
              inputs:
                port: 8080
        Ops:
          operations:
            backup: scripts/backup.sh
      artifacts:
        installer:
          type: my.Script
          file: scripts/install.sh
          repository: docker_hub
          deploy_path: /opt/install.sh
  relationship_templates:
    my_rel:
      type: my.Rel
      properties:
        credential: {user: admin, token: abc}
  groups:
    servers:
      type: my.Group
      members: [db_host, app]
  policies:
    - limits:
        type: my.Policy
        targets: [servers]
        properties: {limit: 5}
  workflows:
    deploy:
      steps:
        step1:
          target: app
          activities:
            - call_operation: Standard.create
  outputs:
    url:
      value: {get_attribute: [db_host, private_address]}
  substitution_mappings:
    node_type: my.App
    capabilities:
      extra: [app, extra]
"""


def load(text: str, name: str = "t.yaml") -> toskit.ServiceTemplate:
    return toskit.loads(text, name=name)
