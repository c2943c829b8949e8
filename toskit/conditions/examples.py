"""The seed's roles document, in one place for tests, benchmarks and notebooks.

Seed 004 (the ``openstack.yaml`` proposal) writes the ``controller`` role's
first rule with ``then:`` and ``else:`` two spaces deeper than
``condition:``, which is a YAML error. This module
holds that text exactly as written, the fixed text, and the roles document
that the tests use.

Plain strings, no imports: loading this module costs nothing.

>>> from toskit.conditions import load_roles
>>> from toskit.conditions.examples import SEED_ROLES_YAML
>>> list(load_roles(SEED_ROLES_YAML))
['controller', 'compute', 'cinder', 'zabbix-server']
"""

from __future__ import annotations

__all__ = [
    "SEED_PROSE_AS_COMMENTS",
    "SEED_ROLES_AS_WRITTEN",
    "SEED_ROLES_FIXED",
    "SEED_ROLES_YAML",
]

SEED_ROLES_AS_WRITTEN = """\
roles_metadata:
  controller:
    conflicts:
      - compute
    conditions:
      - condition: "cluster:mode == 'multinode'"
          then:
            all:
              - condition: "selectedNodes._length <= 1"
                warning: "Multi-node environment cannot have more than one controller node."
              - not:
                  exists:
                    where: "cluster:nodes"
                    variable: node
                    condition:
                      all:
                        - not: "<node>.id in selectedNodes._pluck('id')"
                        - condition: "<node>._hasRole('controller')"
                        - not: "<node>._pending_deletion"
          else: true
      - condition: "cluster:mode == 'ha_compact'"
        then:
          recommended:
            expression: "cluster:nodes._length >= <value>"
            value: 3
            warning: "At least <value> controller nodes are recommended for HA deployment."
"""
"""The roles document of seed 004 exactly as written (a YAML error at line 7,
column 11: ``then:`` is indented deeper than ``condition:``)."""

SEED_PROSE_AS_COMMENTS = "# openstack.yaml proposal\n\n# openstack.yaml\n\n"
"""The seed's four lines above ``roles_metadata:``, as YAML comments: put in
front of :data:`SEED_ROLES_AS_WRITTEN`, diagnostics carry the seed's own line
numbers (the error is then at line 11)."""


def _dedent_first_rule(text: str) -> str:
    """The seed's fix: the first rule's ``then:`` block and ``else:`` move two
    spaces left, to the column of ``condition:``."""
    out = []
    inside = False
    for line in text.splitlines(keepends=True):
        if line.startswith("          then:"):
            inside = True
        out.append(line[2:] if inside else line)
        if line.startswith("          else:"):
            inside = False
    return "".join(out)


SEED_ROLES_FIXED = _dedent_first_rule(SEED_ROLES_AS_WRITTEN)
"""The seed's roles document with the indentation fixed: only ``controller``."""

SEED_ROLES_YAML = (
    SEED_ROLES_FIXED + "  compute: {}\n  cinder: {}\n  zabbix-server: {conflicts: '*'}\n"
)
"""The tests' roles document: the fixed seed plus
``compute: {}``, ``cinder: {}`` and ``zabbix-server: {conflicts: '*'}``."""
