"""Relationship templates, groups and policies get the node templates' checks (issue 20 items 13-14).

(a) interface assignments of relationship templates, of a requirement's
inline relationship and of 1.x groups (policies have no interfaces in any
version's grammar); (b) ``get_attribute`` of an attribute no type declares,
evaluated with a relationship as ``SELF`` (``SOURCE``/``TARGET`` are nodes);
(c) a requirement's target that does not suit its relationship type's
``valid_target_types`` (1.x) / ``valid_capability_types`` and
``valid_target_node_types`` (2.0). Each point: the smallest template that
shows it, through ``toskit.load``, the same shape written correctly (no
diagnostic), and a type from an unknown profile (nothing but the import's
warning).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import toskit


def _load(tmp_path: Path, text: str) -> toskit.ServiceTemplate:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return toskit.load(path)


def _found(st: toskit.ServiceTemplate) -> list[tuple[str, int, str | None]]:
    return [(d.code, d.line, d.hint) for d in st.diagnostics]


# -- (a) interface assignments -----------------------------------------------------

INTERFACES_1_3 = """
    tosca_definitions_version: tosca_simple_yaml_1_3
    topology_template:
      node_templates:
        a: {type: tosca.nodes.Root}
        b:
          type: tosca.nodes.Root
          requirements:
            - dependency:
                node: a
                relationship:
                  type: tosca.relationships.DependsOn
                  interfaces:
                    Configure:
                      INLINE_OP: x.sh
      relationship_templates:
        r:
          type: tosca.relationships.DependsOn
          interfaces:
            IFACE:
              REL_OP: x.sh
      groups:
        g:
          type: tosca.groups.Root
          members: [a]
          interfaces:
            Standard:
              GROUP_OP: x.sh
    """

GOOD_1_3 = {
    "INLINE_OP": "add_target",
    "IFACE": "Configure",
    "REL_OP": "pre_configure_source",
    "GROUP_OP": "create",
}


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace(key, value)
    return text


def test_interface_assignments_of_relationships_and_groups_in_tosca_1(tmp_path: Path) -> None:
    assert _load(tmp_path, _fill(INTERFACES_1_3, GOOD_1_3)).diagnostics == []
    bad = _fill(INTERFACES_1_3, {**GOOD_1_3, "INLINE_OP": "add_targt", "GROUP_OP": "creat"})
    st = _load(tmp_path, bad)
    assert _found(st) == [
        ("unknown-operation", 14, "did you mean 'add_target'?"),
        ("unknown-operation", 27, "did you mean 'create'?"),
    ]
    assert st.diagnostics[0].message == (
        "node template 'b' requirement 'dependency': interface 'Configure' has no operation "
        "'add_targt'"
    )
    assert st.diagnostics[1].message.startswith("group 'g': interface 'Standard'")
    st = _load(tmp_path, _fill(INTERFACES_1_3, {**GOOD_1_3, "REL_OP": "pre_configure_sourc"}))
    assert _found(st) == [("unknown-operation", 20, "did you mean 'pre_configure_source'?")]
    assert st.diagnostics[0].message.startswith("relationship template 'r': ")
    st = _load(tmp_path, _fill(INTERFACES_1_3, {**GOOD_1_3, "IFACE": "Configur"}))
    assert _found(st) == [("unknown-interface", 19, "did you mean 'Configure'?")]
    assert "(not declared by tosca.relationships.DependsOn)" in st.diagnostics[0].message


INTERFACES_2_0 = """
    tosca_definitions_version: tosca_2_0
    service_template:
      node_templates:
        a: {type: Root}
        b:
          type: Root
          requirements:
            - dependency:
                node: a
                relationship:
                  type: DependsOn
                  interfaces:
                    Configure:
                      operations:
                        INLINE_OP: {implementation: x.sh}
      relationship_templates:
        r:
          type: DependsOn
          interfaces:
            IFACE:
              operations:
                REL_OP: {implementation: x.sh}
    """


def test_interface_assignments_of_relationships_in_tosca_2(tmp_path: Path) -> None:
    good = {"INLINE_OP": "add_target", "IFACE": "Configure", "REL_OP": "post_configure_target"}
    assert _load(tmp_path, _fill(INTERFACES_2_0, good)).diagnostics == []
    st = _load(tmp_path, _fill(INTERFACES_2_0, {**good, "INLINE_OP": "add_targt"}))
    assert _found(st) == [("unknown-operation", 15, "did you mean 'add_target'?")]
    st = _load(tmp_path, _fill(INTERFACES_2_0, {**good, "IFACE": "Bogus"}))
    assert [(d.code, d.line) for d in st.diagnostics] == [("unknown-interface", 20)]
    assert st.diagnostics[0].message == (
        "relationship template 'r': unknown interface 'Bogus' (not declared by DependsOn)"
    )


def test_get_input_in_a_relationship_operation_is_checked(tmp_path: Path) -> None:
    text = _fill(INTERFACES_1_3, GOOD_1_3).replace(
        "REL_OP: x.sh".replace("REL_OP", GOOD_1_3["REL_OP"]),
        "pre_configure_source: {implementation: x.sh, inputs: {i: {get_input: nope}}}",
    )
    st = _load(tmp_path, text)
    assert [(d.code, d.line) for d in st.diagnostics] == [("function-error", 20)]
    assert "relationship template 'r': get_input: UnknownInput" in st.diagnostics[0].message


def test_interfaces_a_requirement_definition_adds_to_its_relationship(tmp_path: Path) -> None:
    text = """
        tosca_definitions_version: tosca_simple_yaml_1_3
        interface_types:
          my.Extra: {derived_from: tosca.interfaces.Root, go: {}}
        node_types:
          my.App:
            derived_from: tosca.nodes.Root
            requirements:
              - uses:
                  capability: tosca.capabilities.Node
                  relationship:
                    type: tosca.relationships.DependsOn
                    interfaces: {Extra: {type: my.Extra}}
        topology_template:
          node_templates:
            a: {type: tosca.nodes.Root}
            b:
              type: my.App
              requirements:
                - uses:
                    node: a
                    relationship: {interfaces: {Extra: {OP: x.sh}}}
        """
    assert _load(tmp_path, text.replace("OP", "go")).diagnostics == []
    st = _load(tmp_path, text.replace("OP", "goo"))
    assert _found(st) == [("unknown-operation", 21, "did you mean 'go'?")]


# -- (b) get_attribute in a relationship's context -------------------------------

ATTRIBUTES_1_3 = """
    tosca_definitions_version: tosca_simple_yaml_1_3
    relationship_types:
      my.Rel:
        derived_from: tosca.relationships.DependsOn
        properties:
          p: {type: string, required: false}
          q: {type: string, required: false}
        attributes:
          ra: {type: string}
    topology_template:
      node_templates:
        a: {type: tosca.nodes.Root}
        b:
          type: tosca.nodes.Root
          requirements:
            - dependency:
                node: a
                relationship:
                  type: my.Rel
                  properties:
                    p: {get_attribute: [INLINE]}
      relationship_templates:
        r:
          type: my.Rel
          properties:
            p: {get_attribute: [SELF, REL]}
    """


@pytest.mark.parametrize(
    ("inline", "rel", "line", "message", "hint"),
    [
        ("SELF, rax", "ra", 21, "has no attribute 'rax'", "did you mean 'ra'?"),
        ("SOURCE, stat", "ra", 21, "node 'b' has no attribute 'stat'", "did you mean 'state'?"),
        ("TARGET, stat", "ra", 21, "node 'a' has no attribute 'stat'", "did you mean 'state'?"),
        (
            "SELF, ra",
            "rax",
            26,
            "relationship template 'r' has no attribute 'rax'",
            "did you mean 'ra'?",
        ),
    ],
)
def test_get_attribute_in_a_relationship_context_in_tosca_1(
    tmp_path: Path, inline: str, rel: str, line: int, message: str, hint: str
) -> None:
    st = _load(tmp_path, ATTRIBUTES_1_3.replace("INLINE", inline).replace("REL", rel))
    assert _found(st) == [("function-error", line, hint)]
    assert "get_attribute: PathError" in st.diagnostics[0].message
    assert message in st.diagnostics[0].message


@pytest.mark.parametrize(
    ("inline", "rel"),
    # Declared attributes, inherited ones, and properties (attributes too) stay calls.
    [
        ("SELF, ra", "tosca_id"),
        ("SELF, q", "q"),
        ("SOURCE, state", "state"),
        ("TARGET, tosca_name", "ra"),
    ],
)
def test_declared_attributes_in_a_relationship_context_stay_calls(
    tmp_path: Path, inline: str, rel: str
) -> None:
    st = _load(tmp_path, ATTRIBUTES_1_3.replace("INLINE", inline).replace("REL", rel))
    assert st.diagnostics == []
    value = st.node_templates["b"].requirement("dependency").properties["p"]
    assert isinstance(value, toskit.functions.Call) and value.name == "get_attribute"


def test_get_attribute_in_a_relationship_context_in_tosca_2(tmp_path: Path) -> None:
    text = """
        tosca_definitions_version: tosca_2_0
        relationship_types:
          MyRel:
            derived_from: DependsOn
            properties:
              p: {type: string, required: false}
            attributes:
              ra: {type: string}
        service_template:
          node_templates:
            a: {type: Root}
            b:
              type: Root
              requirements:
                - dependency:
                    node: a
                    relationship: {type: MyRel, properties: {p: {$get_attribute: [SELF, INLINE]}}}
          relationship_templates:
            r: {type: MyRel, properties: {p: {$get_attribute: [SELF, REL]}}}
        """
    assert _load(tmp_path, text.replace("INLINE", "ra").replace("REL", "state")).diagnostics == []
    st = _load(tmp_path, text.replace("INLINE", "rax").replace("REL", "stat"))
    assert _found(st) == [
        ("function-error", 17, "did you mean 'ra'?"),
        ("function-error", 19, "did you mean 'state'?"),
    ]


# -- (c) valid target types ---------------------------------------------------------

TARGETS_1_3 = """
    tosca_definitions_version: tosca_simple_yaml_1_3
    topology_template:
      node_templates:
        server: {type: tosca.nodes.Compute}
        app:
          type: tosca.nodes.SoftwareComponent
          requirements:
            - host: {node: server, relationship: REL}
      relationship_templates:
        link: {type: tosca.relationships.ConnectsTo}
        hosting: {type: tosca.relationships.HostedOn}
    """


def test_relationship_target_types_in_tosca_1(tmp_path: Path) -> None:
    for good in ("tosca.relationships.HostedOn", "hosting"):
        assert _load(tmp_path, TARGETS_1_3.replace("REL", good)).diagnostics == [], good
    for bad in ("tosca.relationships.ConnectsTo", "link"):
        st = _load(tmp_path, TARGETS_1_3.replace("REL", bad))
        assert [(d.code, d.severity, d.line) for d in st.diagnostics] == [
            ("invalid-relationship-target", "error", 8)
        ], bad
        assert st.diagnostics[0].message == (
            "node template 'app': requirement 'host': relationship type "
            "tosca.relationships.ConnectsTo cannot target node 'server': no capability it offers "
            "here (host (tosca.capabilities.Compute)) is of the relationship's valid_target_types "
            "[tosca.capabilities.Endpoint]"
        )
        assert "valid_target_types [tosca.capabilities.Endpoint]" in st.diagnostics[0].message
        assert st.diagnostics[0].hint


def test_relationship_target_types_in_tosca_2(tmp_path: Path) -> None:
    text = """
        tosca_definitions_version: tosca_2_0
        relationship_types:
          OnCompute:
            derived_from: DependsOn
            valid_target_node_types: [Compute]
        service_template:
          node_templates:
            server: {type: Compute}
            a: {type: Root}
            app:
              type: SoftwareComponent
              requirements:
                - host: {node: server, relationship: HOST_REL}
                - dependency: {node: TARGET, relationship: OnCompute}
        """
    good = text.replace("HOST_REL", "HostedOn").replace("TARGET", "server")
    assert _load(tmp_path, good).diagnostics == []
    st = _load(tmp_path, text.replace("HOST_REL", "ConnectsTo").replace("TARGET", "a"))
    assert [(d.code, d.line) for d in st.diagnostics] == [
        ("invalid-relationship-target", 13),
        ("invalid-relationship-target", 14),
    ]
    assert "valid_capability_types [Endpoint]" in st.diagnostics[0].message
    assert (
        "node 'a': its type Root is not among the relationship's valid_target_node_types [Compute]"
        in (st.diagnostics[1].message)
    )


# -- an unknown profile: nothing downstream is a false error ------------------------


def test_relationship_types_from_an_unknown_profile_stay_quiet(tmp_path: Path) -> None:
    text = """
        tosca_definitions_version: tosca_2_0
        imports:
          - profile: com.example.vendor
            namespace: v
        relationship_types:
          MyRel:
            derived_from: PARENT
            valid_capability_types: [Endpoint]
        node_types:
          VM: {derived_from: v:VM}
        service_template:
          node_templates:
            a: {type: Root}
            vm: {type: VM}
            b:
              type: Root
              requirements:
                - dependency:
                    node: a
                    relationship:
                      type: MyRel
                      interfaces: {Vendor: {operations: {go: {implementation: x.sh}}}}
                      properties: {p: {$get_attribute: [SELF, vendor_attr]}}
                - dependency: {node: vm, relationship: ConnectsTo}
          relationship_templates:
            r:
              type: MyRel
              interfaces: {Vendor: {operations: {go: {implementation: x.sh}}}}
              attributes: {vendor_attr: 1}
        """
    # With a known parent each check fires ...
    known = _load(tmp_path, text.replace("PARENT", "Root"))
    assert sorted({d.code for d in known.diagnostics}) == [
        "function-error",
        "invalid-relationship-target",
        "unknown-attribute",
        "unknown-interface",
        "unknown-profile",
        "unknown-property",
    ], [str(d) for d in known.diagnostics]
    # (not the dependency on 'vm': its type derives from the unknown profile)
    targets = [d.line for d in known.diagnostics if d.code == "invalid-relationship-target"]
    assert targets == [21]
    # ... with the parent in a profile toskit does not have, only the import speaks
    # (the target 'vm' derives from that profile too: its capabilities are unknown).
    st = _load(tmp_path, text.replace("PARENT", "v:Base"))
    assert [d.code for d in st.diagnostics] == ["unknown-profile"], [str(d) for d in st.diagnostics]
    assert st.diagnostics[0].line == 3
