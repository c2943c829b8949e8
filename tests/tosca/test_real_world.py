"""Real-world TOSCA (issue 20): templates people write every day check right.

Each test loads the smallest template that shows one point of the issue
through ``toskit.load``/``toskit.loads``.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
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


def test_named_imports_of_tosca_1(tmp_path: Path) -> None:
    # Item 2: 1.0-1.3 named import definitions (OASIS 1.0 assertion 3.5.7-imports-01).
    (tmp_path / "types.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_0\n"
        "node_types:\n  my.T:\n    derived_from: tosca.nodes.Root\n"
    )
    main = tmp_path / "main.yaml"
    main.write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_0\n"
        "imports:\n  - my_types: types.yaml\n  - more: {file: types.yaml}\n"
        "topology_template:\n  node_templates:\n    a: {type: my.T}\n"
    )
    assert toskit.load(main).diagnostics == []
    # The named form's definition is still checked; a typo is not a name.
    main.write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_0\n"
        "imports:\n  - my: {fiel: types.yaml}\n  - {file: types.yaml, bogus: 1}\n"
    )
    found = [(d.code, d.message) for d in toskit.load(main).diagnostics]
    assert ("unknown-keyname", "unknown keyname 'fiel' in import definition") in found
    assert ("unknown-keyname", "unknown keyname 'bogus' in import definition") in found


def test_named_import_is_an_error_in_tosca_2(tmp_path: Path) -> None:
    (tmp_path / "types.yaml").write_text("tosca_definitions_version: tosca_2_0\n")
    main = tmp_path / "main.yaml"
    main.write_text("tosca_definitions_version: tosca_2_0\nimports:\n  - my_types: types.yaml\n")
    assert "unknown-keyname" in codes(toskit.load(main))


def test_namespace_uri_version() -> None:
    # Item 4: the namespace-URI form of the version selects the 1.x grammar.
    st = loads(
        """
        tosca_definitions_version: http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0
        topology_template:
          node_templates:
            a: {type: tosca.nodes.Compute}
        """
    )
    assert st.diagnostics == []
    assert "a" in st.node_templates


def test_namespace_uri_version_in_toskit_check(tmp_path: Path) -> None:
    from toskit.cli import main

    path = tmp_path / "t.yaml"
    path.write_text(
        "tosca_definitions_version: http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0\n"
        "topology_template:\n  node_templates:\n    a: {type: tosca.nodes.Root}\n"
    )
    assert main(["check", str(path)]) == 0


def test_extended_attribute_assignment() -> None:
    # Item 8: TOSCA 1.3 `{description: ..., value: ...}` for an attribute.
    text = """
        tosca_definitions_version: tosca_simple_yaml_1_3
        topology_template:
          node_templates:
            a:
              type: tosca.nodes.Compute
              attributes:
                private_address:
                  description: the address
                  value: VALUE
        """
    assert loads(text.replace("VALUE", "10.0.0.1")).diagnostics == []
    bad = loads(text.replace("VALUE", "[1]"))
    assert codes(bad) == ["type-mismatch"]
    # The problem is located at the value inside the extended notation.
    assert bad.diagnostics[0].line == 10


def test_vm_image_artifact_types() -> None:
    # Item 11: the Annex artifact types ISO and QCOW2 are VM images.
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        topology_template:
          node_templates:
            a:
              type: tosca.nodes.Compute
              artifacts:
                iso: {type: tosca.artifacts.Deployment.Image.VM.ISO, file: x.iso}
                disk: {type: tosca.artifacts.Deployment.Image.VM.QCOW2, file: x.qcow2}
        """
    )
    assert st.diagnostics == []
    for name in ("ISO", "QCOW2"):
        found = st.lookup_type("artifact", f"tosca.artifacts.Deployment.Image.VM.{name}")
        assert found is not None
        assert "tosca.artifacts.Deployment.Image.VM" in [t.name for t in found.chain]


def test_tosca_1_repository_needs_a_url() -> None:
    # Item 17: a 1.x repository definition without its required url.
    text = """
        tosca_definitions_version: tosca_simple_yaml_1_3
        repositories:
          r: REPO
        topology_template:
          node_templates:
            a: {type: tosca.nodes.Root}
        """
    bad = loads(text.replace("REPO", "{description: no url}"))
    assert [(d.code, d.message, d.line) for d in bad.diagnostics] == [
        ("missing-keyname", "a repository definition needs 'url'", 4)
    ]
    assert loads(text.replace("REPO", "{url: 'https://example.com/r'}")).diagnostics == []
    assert loads(text.replace("REPO", "https://example.com/r")).diagnostics == []


CAPABILITY_BY_NAME = """
    tosca_definitions_version: tosca_simple_yaml_1_3
    capability_types:
      my.Cap: {derived_from: tosca.capabilities.Root}
    node_types:
      my.Server:
        derived_from: tosca.nodes.Root
        capabilities:
          endpoint_cap: {type: my.Cap}
      my.Client:
        derived_from: tosca.nodes.Root
        requirements:
          - server: {capability: CAPABILITY, node: my.Server}
    topology_template:
      node_templates:
        s: {type: my.Server}
        c:
          type: my.Client
          requirements:
            - server: {node: my.Server}
    """


def test_requirement_names_a_capability_definition_of_its_node() -> None:
    # Item 9: `capability:` names the target node type's capability definition.
    st = loads(CAPABILITY_BY_NAME.replace("CAPABILITY", "endpoint_cap"))
    assert st.diagnostics == []
    (req,) = st.node_templates["c"].requirements
    assert req.target is st.node_templates["s"]
    # A name that is neither a capability type nor one of the node's capabilities.
    bad = loads(CAPABILITY_BY_NAME.replace("CAPABILITY", "endpoint_cab"))
    assert "unknown-type" in codes(bad)


def test_host_follows_any_hosted_on_requirement() -> None:
    # Item 10: HOST follows `runs_on` (a HostedOn relationship), not only `host`.
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          my.App:
            derived_from: tosca.nodes.Root
            properties:
              cpus: {type: integer}
            requirements:
              - runs_on:
                  capability: tosca.capabilities.Compute
                  relationship: tosca.relationships.HostedOn
        topology_template:
          node_templates:
            vm:
              type: tosca.nodes.Compute
              capabilities:
                host:
                  properties: {num_cpus: 2}
            app:
              type: my.App
              requirements:
                - runs_on: vm
              properties:
                cpus: {get_property: [HOST, host, num_cpus]}
        """
    )
    assert st.diagnostics == []
    assert st.node_templates["app"].properties["cpus"] == 2


FIXED = """
    tosca_definitions_version: tosca_2_0
    node_types:
      App:
        properties:
          mode: {type: string, value: fixed}
          size: {type: scalar-unit.size, value: 1 GB}
    service_template:
      node_templates:
        a:
          type: App
          properties: PROPERTIES
    """


def test_fixed_property_value() -> None:
    # Item 5: a 2.0 fixed `value:` is the property's value; overriding it is an error.
    st = loads(FIXED.replace("PROPERTIES", "{}"))
    assert st.diagnostics == []
    assert st.node_templates["a"].properties == {"mode": "fixed", "size": "1 GB"}
    # The same value, written the same or another way, is not a change.
    assert loads(FIXED.replace("PROPERTIES", "{mode: fixed, size: 1000 MB}")).diagnostics == []
    bad = loads(FIXED.replace("PROPERTIES", "{mode: other}"))
    assert [(d.code, d.line) for d in bad.diagnostics] == [("fixed-value", 12)]
    assert bad.diagnostics[0].hint


OWN_FUNCTION = """
    tosca_definitions_version: tosca_2_0
    functions:
      double:
        signatures:
          - arguments: [{type: integer}]
            result: {type: integer}
            implementation: double.py
    node_types:
      App:
        properties:
          n:
            type: integer
            validation: {$greater_than: [{$NAME: [$value]}, 2]}
    service_template:
      node_templates:
        a:
          type: App
          properties: {n: 3}
    """


def test_own_function_in_a_validation_clause() -> None:
    # Item 6: a function of the document's own `functions:` section is known there.
    assert loads(OWN_FUNCTION.replace("NAME", "double")).diagnostics == []
    bad = loads(OWN_FUNCTION.replace("NAME", "doubel"))
    assert codes(bad) == ["unknown-function"]
    assert bad.diagnostics[0].hint == "did you mean 'double'?"


def test_input_defaults_are_checked_in_tosca_1() -> None:
    # Item 12: a default must fit the input's type and constraints.
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        topology_template:
          inputs:
            port: {type: integer, default: eighty}
            cpus:
              type: integer
              constraints: [{in_range: [1, 4]}]
              default: 8
            fine: {type: integer, default: 2}
        """
    )
    assert [(d.code, d.line) for d in st.diagnostics] == [
        ("type-mismatch", 5),
        ("constraint-violation", 9),
    ]


def test_input_defaults_are_checked_in_tosca_2() -> None:
    text = """
        tosca_definitions_version: tosca_2_0
        service_template:
          inputs:
            cpus:
              type: integer
              validation: {$less_or_equal: [$value, 4]}
              default: DEFAULT
          node_templates:
            a: {type: Root}
        """
    bad = loads(text.replace("DEFAULT", "8"))
    assert [(d.code, d.line, d.message) for d in bad.diagnostics] == [
        (
            "validation-failed",
            8,
            "input 'cpus': value 8 fails the validation clause $less_or_equal: [$value, 4]",
        )
    ]
    assert loads(text.replace("DEFAULT", "4")).diagnostics == []
    # A value passed with inputs= runs the validation clause as well.
    passed = loads(text.replace("DEFAULT", "4"), inputs={"cpus": 9})
    assert codes(passed) == ["validation-failed"]


UNKNOWN_ATTRIBUTE = """
    tosca_definitions_version: tosca_simple_yaml_1_3
    topology_template:
      node_templates:
        vm: {type: tosca.nodes.Compute}
      outputs:
        ip: {value: {get_attribute: [vm, NAME]}}
    """


def test_get_attribute_of_an_undeclared_attribute() -> None:
    # Item 14: an attribute no type of the node declares is an error, with a hint.
    bad = loads(UNKNOWN_ATTRIBUTE.replace("NAME", "privat_address"))
    assert [(d.code, d.line) for d in bad.diagnostics] == [("function-error", 7)]
    assert "has no attribute 'privat_address'" in bad.diagnostics[0].message
    assert bad.diagnostics[0].hint == "did you mean 'private_address'?"
    # Declared attributes (and properties, which are attributes too) stay calls.
    for name in ("private_address", "state"):
        assert loads(UNKNOWN_ATTRIBUTE.replace("NAME", name)).diagnostics == []


def test_artifact_type_references() -> None:
    # Items 16 and 13 (implementation artifacts): in types, templates and implementations.
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          my.T:
            derived_from: tosca.nodes.Root
            artifacts:
              a: {type: tosca.artifacts.Bogus, file: x}
            interfaces:
              Standard:
                create:
                  implementation:
                    primary: {type: tosca.artifacts.Implementation.Bsh, file: x.sh}
        topology_template:
          node_templates:
            n:
              type: my.T
              artifacts:
                b: {type: tosca.artifacts.Deployment.Image.VM.QCOW3, file: y}
                c: {type: tosca.artifacts.Deployment.Image.VM.QCOW2, file: y}
              interfaces:
                Standard:
                  configure:
                    implementation:
                      primary: {type: tosca.artifacts.Implementation.Python, file: x.py}
                      dependencies:
                        - {type: Nope, file: d}
                        - plain.sh
        """
    )
    found = [(d.code, d.line, d.hint) for d in st.diagnostics]
    assert found == [
        ("unknown-type", 7, "did you mean 'tosca.artifacts.Root'?"),
        ("unknown-type", 12, "did you mean 'tosca.artifacts.Implementation.Bash'?"),
        ("unknown-type", 18, "did you mean 'tosca.artifacts.Deployment.Image.VM.QCOW2'?"),
        ("unknown-type", 26, None),
    ]


def test_artifact_types_in_tosca_2() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_2_0
        service_template:
          node_templates:
            n:
              type: Root
              artifacts:
                ok: {type: Implementation.Bash, file: a.sh}
                bad: {type: Implementation.Bsh, file: b.sh}
        """
    )
    assert [(d.code, d.line) for d in st.diagnostics] == [("unknown-type", 9)]


def test_interface_assignments_of_node_templates() -> None:
    # Item 13: unknown interface, unknown operation, get_input of an undeclared input.
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        topology_template:
          inputs:
            port: {type: integer, default: 1}
          node_templates:
            n:
              type: tosca.nodes.Root
              interfaces:
                Standard:
                  creat: x.sh
                  configure:
                    implementation: c.sh
                    inputs:
                      p: {get_input: prot}
                      q: {get_input: port}
                  start: s.sh
                Bogus:
                  start: s.sh
        """
    )
    found = [(d.code, d.line, d.hint) for d in st.diagnostics]
    assert found == [
        ("unknown-operation", 11, "did you mean 'create'?"),
        ("function-error", 15, "did you mean 'port'?"),
        ("unknown-interface", 18, None),
    ]


def test_interface_assignments_in_tosca_2() -> None:
    text = """
        tosca_definitions_version: tosca_2_0
        service_template:
          node_templates:
            n:
              type: Root
              interfaces:
                Standard:
                  operations:
                    OPERATION: {implementation: x.sh}
        """
    assert loads(text.replace("OPERATION", "create")).diagnostics == []
    bad = loads(text.replace("OPERATION", "crate"))
    assert [(d.code, d.line) for d in bad.diagnostics] == [("unknown-operation", 10)]


NODE_FILTER = """
    tosca_definitions_version: tosca_simple_yaml_1_3
    node_types:
      my.App:
        derived_from: tosca.nodes.Root
        requirements:
          - host: {capability: tosca.capabilities.Compute, node: tosca.nodes.Compute}
    topology_template:
      node_templates:
        vm: {type: tosca.nodes.Compute}
        app:
          type: my.App
          requirements:
            - host:
                node_filter:
                  FILTER
    """


def test_node_filter_structure() -> None:
    # Item 15: unknown keynames and names the target type does not have.
    filters = {
        "propertes: []": [("unknown-keyname", "did you mean 'properties'?")],
        "properties: [{num_cpus: {equal: 1}}]": [("unknown-property", None)],
        "capabilities: [{host: {properties: [{num_cpu: {equal: 1}}]}}]": [
            ("unknown-property", "did you mean 'num_cpus'?")
        ],
        "capabilities: [{hots: {properties: []}}]": [
            ("unknown-capability", "did you mean 'host'?")
        ],
        "capabilities: [{host: {properties: [{num_cpus: {in_range: [1, 4]}}]}}]": [],
        "capabilities: [{tosca.capabilities.OperatingSystem: {properties: [{type: {equal: linux}}]}}]": [],
    }
    for text, expected in filters.items():
        st = loads(NODE_FILTER.replace("FILTER", text))
        assert [(d.code, d.hint) for d in st.diagnostics] == expected, text


def test_types_deriving_from_an_unknown_profile() -> None:
    # Item 7 (in part): what an unknown profile defines is reported once, at the import.
    st = loads(
        """
        tosca_definitions_version: tosca_2_0
        imports:
          - profile: com.example.vendor
            namespace: v
        node_types:
          MyVM:
            derived_from: v:VM
            properties:
              hypervisor: kvm
              repository: https://apt.example.com/repo
        service_template:
          node_templates:
            a:
              type: MyVM
              properties:
                vendor_prop: 1
              attributes:
                vendor_attr: 2
            b:
              type: MyVM
              properties:
                hypervisor: {$v:pick: [1, 2]}
                other: {$w:pick: [1]}
        """
    )
    # The namespace's functions stay calls; another namespace is still unknown.
    assert codes(st) == ["unknown-profile", "unknown-function"]
    assert "'w:pick'" in st.diagnostics[1].message
    assert st.node_templates["a"].properties["hypervisor"] == "kvm"


BLOCK_STORAGE = """
    tosca_definitions_version: VERSION
    topology_template:
      node_templates:
        vol:
          type: tosca.nodes.BlockStorage
          properties: {size: 10 GB}
    """


def test_older_documents_see_their_own_normative_types() -> None:
    # Item 3: a 1.0/1.1 BlockStorage has no `name` (tests/tosca/test_profiles.py
    # has the other differences, version by version).
    for version in (
        "tosca_simple_yaml_1_0",
        "http://docs.oasis-open.org/tosca/ns/simple/yaml/1.1",
    ):
        st = loads(BLOCK_STORAGE.replace("VERSION", version))
        assert st.diagnostics == [], version
        assert "name" not in st.node_templates["vol"].type.properties
    # 1.2 introduced Abstract.Storage, whose name is required; 1.3 kept it.
    for version in ("tosca_simple_yaml_1_2", "tosca_simple_yaml_1_3"):
        assert codes(loads(BLOCK_STORAGE.replace("VERSION", version))) == ["missing-property"]


# --- item 7: nothing downstream of an unknown profile is a false error ---------------

UNKNOWN_PARENT = """
    tosca_definitions_version: tosca_2_0
    imports:
      - profile: com.example.vendor
        namespace: v
    capability_types:
      MyCap: {derived_from: PARENT}
    relationship_types:
      MyRel: {derived_from: PARENT}
    data_types:
      MyData: {derived_from: PARENT}
    group_types:
      MyGroup: {derived_from: PARENT}
    policy_types:
      MyPolicy: {derived_from: PARENT}
    node_types:
      VM:
        derived_from: PARENT
        properties:
          d: {type: MyData, required: false}
        capabilities:
          c: {type: MyCap}
        requirements:
          - link: {capability: Node, relationship: MyRel, count_range: [0, UNBOUNDED]}
        interfaces:
          Standard:
            type: Standard
            operations:
              create: {inputs: {a: {type: string, required: false}}}
    service_template:
      node_templates:
        vm:
          type: VM
          BODY
        peer: {type: VM}
      OUTER
    """

# what a template writes -> the error it draws when every parent is known
DOWNSTREAM = {
    "capability": ("capabilities: {console: {properties: {speed: 1}}}", "", "unknown-capability"),
    "requirement": ("requirements: [{network: peer}]", "", "unknown-requirement"),
    "capability-property": ("capabilities: {c: {properties: {z: 1}}}", "", "unknown-property"),
    "relationship-property": (
        "requirements: [{link: {node: peer, relationship: {type: MyRel, properties: {port: 1}}}}]",
        "",
        "unknown-property",
    ),
    "relationship-template": (
        "",
        "relationship_templates: {r: {type: MyRel, properties: {port: 1}}}",
        "unknown-property",
    ),
    "data-field": ("properties: {d: {anything: 1}}", "", "unknown-property"),
    "data-base": ("properties: {d: 5}", "", "type-mismatch"),
    "attribute": ("attributes: {vendor_attr: 1}", "", "unknown-attribute"),
    "get_property": (
        "",
        "outputs: {o: {value: {$get_property: [vm, vendor_prop]}}}",
        "function-error",
    ),
    "get_property-capability": (
        "",
        "outputs: {o: {value: {$get_property: [vm, CAPABILITY, console, speed]}}}",
        "function-error",
    ),
    "get_property-relationship": (
        "",
        "outputs: {o: {value: {$get_property: [vm, RELATIONSHIP, uplink, port]}}}",
        "function-error",
    ),
    "get_attribute": (
        "",
        "outputs: {o: {value: {$get_attribute: [vm, vendor_attr]}}}",
        "function-error",
    ),
    "workflow-input": (
        "",
        "workflows: {w: {steps: {s: {target: vm, activities: "
        "[{call_operation: {operation: Standard.create, inputs: {b: 1}}}]}}}}",
        "unknown-operation-input",
    ),
    "group-property": (
        "",
        "groups: {g: {type: MyGroup, members: [vm], properties: {gp: 1}}}",
        "unknown-property",
    ),
    "policy-property": (
        "",
        "policies: [{p: {type: MyPolicy, targets: [vm], properties: {pp: 1}}}]",
        "unknown-property",
    ),
}


def _downstream(tmp_path: Path, case: str, parent: str) -> toskit.ServiceTemplate:
    body, outer, _ = DOWNSTREAM[case]
    text = textwrap.dedent(UNKNOWN_PARENT).replace("PARENT", parent)
    text = text.replace("BODY", body).replace("OUTER", outer)
    path = tmp_path / f"{case}.yaml"
    path.write_text(text)
    return toskit.load(path)


@pytest.mark.parametrize("case", sorted(DOWNSTREAM))
def test_nothing_downstream_of_an_unknown_parent_is_a_false_error(
    tmp_path: Path, case: str
) -> None:
    # With known parents the check fires: it is a real check ...
    known = _downstream(tmp_path, case, "Root")
    assert DOWNSTREAM[case][2] in codes(known), [str(d) for d in known.diagnostics]
    # ... with the parents in a profile toskit does not have, what cannot be known
    # is reported once, at the import, and nothing else.
    st = _downstream(tmp_path, case, "v:Base")
    assert codes(st) == ["unknown-profile"], [str(d) for d in st.diagnostics]
    assert st.diagnostics[0].line == 4


def test_unknown_parent_paths_stay_unevaluated_and_the_topology_says_unchecked(
    tmp_path: Path,
) -> None:
    st = _downstream(tmp_path, "get_property-capability", "v:Base")
    # The call is kept as written (a Call), not an error and not a guessed value.
    from toskit.functions import Call

    out = st.outputs["o"]
    assert isinstance(out, Call) and out.name == "get_property", out
    topo = st.topology()
    assert topo.nodes["vm"].unchecked is not None
    assert "derives from v:Base" in topo.nodes["vm"].unchecked
    assert "unchecked:" in topo.to_svg() and 'style="rounded,dashed"' in topo.to_dot()
    known = _downstream(tmp_path, "get_property", "Root").topology()
    assert known.nodes["vm"].unchecked is None and 'dashed"' not in known.to_dot().split("->")[0]
