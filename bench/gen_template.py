"""Generate the TOSCA 1.3 template of benchmark B1 (spec/performance.md).

    python bench/gen_template.py N [-o out.yaml]

A 3-type data hierarchy (``bench.Endpoint``, a derived
``bench.ExtendedEndpoint``, and a ``bench.Connection`` composing it with
``bench.Auth``), defaults at every level; a 4-level node type chain
(``bench.Base`` → ``bench.Service`` → ``bench.Database`` →
``bench.ManagedDatabase``, each adding a property with a default and
refining a default of its parent); and N node templates, each setting some
nested fields and leaving the others to the defaults. The same file loads
in toskit and in OpenStack ``tosca-parser``.
"""

from __future__ import annotations

import argparse
import sys

HEADER = """\
tosca_definitions_version: tosca_simple_yaml_1_3
description: Generated benchmark template (bench/gen_template.py)

data_types:
  bench.Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      host:
        type: string
        default: localhost
      port:
        type: integer
        default: 5432
        constraints:
          - in_range: [1, 65535]
  bench.ExtendedEndpoint:
    derived_from: bench.Endpoint
    properties:
      protocol:
        type: string
        default: tcp
        constraints:
          - valid_values: [tcp, udp, http, https]
      timeout:
        type: integer
        default: 30
  bench.Auth:
    derived_from: tosca.datatypes.Root
    properties:
      username:
        type: string
        default: admin
      password:
        type: string
        required: false
  bench.Connection:
    derived_from: tosca.datatypes.Root
    properties:
      endpoint:
        type: bench.ExtendedEndpoint
      auth:
        type: bench.Auth
      retries:
        type: integer
        default: 3

node_types:
  bench.Base:
    derived_from: tosca.nodes.Root
    properties:
      label:
        type: string
        default: base
      replicas:
        type: integer
        default: 1
  bench.Service:
    derived_from: bench.Base
    properties:
      replicas:
        type: integer
        default: 2
      connection:
        type: bench.Connection
        required: false
  bench.Database:
    derived_from: bench.Service
    properties:
      engine:
        type: string
        default: postgres
      tags:
        type: list
        required: false
        entry_schema:
          type: string
  bench.ManagedDatabase:
    derived_from: bench.Database
    properties:
      engine:
        type: string
        default: postgres15
      backup:
        type: boolean
        default: true

topology_template:
  node_templates:
"""

NODE = """\
    db_{i}:
      type: bench.ManagedDatabase
      properties:
        label: database {i}
        connection:
          endpoint:
            host: db{i}.example.com
            port: {port}
          auth:
            password: secret{i}
        tags: [tier{tier}, bench]
"""

NODE_PLAIN = """\
    db_{i}:
      type: bench.ManagedDatabase
      properties:
        replicas: {replicas}
        connection:
          endpoint:
            protocol: https
          auth:
            username: ops{i}
"""


def generate(n: int) -> str:
    """The template text with ``n`` node templates."""
    parts = [HEADER]
    for i in range(n):
        if i % 3 == 2:
            parts.append(NODE_PLAIN.format(i=i, replicas=1 + i % 5))
        else:
            parts.append(NODE.format(i=i, port=1024 + i % 60000, tier=i % 4))
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, help="number of node templates")
    parser.add_argument("-o", "--output", help="write here instead of stdout")
    args = parser.parse_args(argv)
    text = generate(args.n)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
