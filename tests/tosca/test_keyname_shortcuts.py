"""The keyname walk's shortcuts (issue #31 item 2) report what the full walk reports.

``_walk_keys`` skips a string written where any string does (a template's
``type``, a ``description``) and a keyname whose value TOSCA leaves free;
``_walk_named_map`` goes straight to a template's keynames and only looks at
the names of a map of free values (property assignments). Every finding the
full walk gives around those shortcuts must still come, at the same path.
"""

from __future__ import annotations

import pytest

import toskit

HEAD = (
    "tosca_definitions_version: tosca_simple_yaml_1_3\n"
    "node_types:\n  N:\n    derived_from: tosca.nodes.Root\n"
    "topology_template:\n  node_templates:\n"
)
NODE = "    n:\n      type: N\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (NODE, []),
        (NODE + "      description: a node\n      properties: {a: 1, b: [x]}\n", []),
        ("    n:\n", []),  # a template with no value: as the full walk
        (
            "    n: 5\n",
            [("invalid-definition", "a node template must be a map, got integer 5", ("n",))],
        ),
        (
            "    n:\n      type: 5\n",
            [("invalid-definition", "'type' must be a type name, got integer 5", ("n", "type"))],
        ),
        (
            "    n:\n      type: [N]\n",
            [("invalid-definition", "'type' must be a type name, got list ['N']", ("n", "type"))],
        ),
        (
            "    1:\n      type: N\n",
            [("invalid-definition", "a name must be a non-empty string, got integer 1", (1,))],
        ),
        (
            "    '':\n      type: N\n",
            [("invalid-definition", "a name must be a non-empty string, got string ''", ("",))],
        ),
        (
            NODE + "      description: [x]\n",
            [
                (
                    "invalid-definition",
                    "'description' must be a string, got list ['x']",
                    ("n", "description"),
                )
            ],
        ),
        (
            NODE + "      typo: 1\n",
            [("unknown-keyname", "unknown keyname 'typo' in node template", ("n", "typo"))],
        ),
        (
            NODE + "      properties:\n        1: x\n        '': y\n",
            [
                (
                    "invalid-definition",
                    "a name must be a non-empty string, got integer 1",
                    ("n", "properties", 1),
                ),
                (
                    "invalid-definition",
                    "a name must be a non-empty string, got string ''",
                    ("n", "properties", ""),
                ),
            ],
        ),
    ],
)
def test_findings_around_the_shortcuts(body, expected):
    st = toskit.loads(HEAD + body)
    got = [
        (d.code, d.message, tuple(d.parts[2:]))
        for d in st.diagnostics
        if d.code in ("invalid-definition", "unknown-keyname")
        and tuple(d.parts[:2]) == ("topology_template", "node_templates")
    ]
    assert sorted(got, key=repr) == sorted(expected, key=repr)
