"""Real-world TOSCA (issue 20): templates people write every day check right.

Each test loads the smallest template that shows one point of the issue
through ``toskit.load``/``toskit.loads``.
"""

from __future__ import annotations

from pathlib import Path

from tosca_fixtures import codes, errors, loads

import toskit


def test_unquoted_leading_zero_version_is_a_version() -> None:
    # Item 1: `14.04` is a YAML float whose text has a leading-zero component.
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          Soft:
            derived_from: tosca.nodes.Root
            properties:
              v: {type: version}
        topology_template:
          node_templates:
            s:
              type: Soft
              properties:
                v: 14.04
            t:
              type: Soft
              properties:
                v: "16.04.1"
        """
    )
    assert errors(st) == []
    bad = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          Soft:
            derived_from: tosca.nodes.Root
            properties:
              v: {type: version}
        topology_template:
          node_templates:
            s:
              type: Soft
              properties:
                v: 14.x
        """
    )
    assert codes(bad) == ["type-mismatch"]
