"""The TOSCA Simple Profile for NFV 1.0 (issue 20 item 19), shipped as YAML."""

from __future__ import annotations

from tosca_fixtures import codes, errors, loads

from toskit.tosca.load.profile import profile_diagnostics
from toskit.tosca.profiles import profile_path

NFV = """
    tosca_definitions_version: tosca_simple_profile_for_nfv_1_0_0
    topology_template:
      node_templates:
        VNF1:
          type: tosca.nodes.nfv.VNF
          properties: {id: vnf1, vendor: ACME, version: 1.0}
          requirements:
            - virtualLink: VL1
        VDU1:
          type: tosca.nodes.nfv.VDU
          capabilities:
            host:
              properties: {num_cpus: 2}
        CP1:
          type: tosca.nodes.nfv.CP
          properties: {type: vPort}
          requirements:
            - virtualLink: {node: VL1}
            - virtualBinding: {node: VDU1}
        VL1:
          type: tosca.nodes.nfv.VL
          properties: {network_name: net0, vendor: VENDOR}
        FP1:
          type: tosca.nodes.nfv.FP
          properties: {policy: p}
          requirements:
            - forwarder: CP1
    """


def test_nfv_templates_check() -> None:
    st = loads(NFV.replace("VENDOR", "ACME"))
    assert errors(st) == []
    assert st.node_templates["VDU1"].type.name == "tosca.nodes.nfv.VDU"
    assert [t.name for t in st.node_templates["VL1"].type.chain][-2:] == [
        "tosca.nodes.network.Network",
        "tosca.nodes.nfv.VL",
    ]
    (link,) = st.node_templates["CP1"].requirements[:1]
    assert link.target is st.node_templates["VL1"]
    assert link.relationship_type is not None
    assert link.relationship_type.name == "tosca.relationships.nfv.VirtualLinksTo"


def test_nfv_types_are_checked() -> None:
    # VL's vendor is required by the profile.
    st = loads(NFV.replace(", vendor: VENDOR", ""))
    assert [d.code for d in errors(st)] == ["missing-property"]
    assert "'vendor'" in errors(st)[0].message


def test_nfv_types_only_for_the_nfv_version() -> None:
    st = loads(NFV.replace("tosca_simple_profile_for_nfv_1_0_0", "tosca_simple_yaml_1_3"))
    assert "unknown-type" in codes(st)


def test_the_shipped_profile_is_clean() -> None:
    assert profile_path("nfv-1.0").is_file()
    assert profile_diagnostics(10) == []
