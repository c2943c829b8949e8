"""Each profile sits on the normative types of its own version (issue #38 item 10).

The TOSCA Simple Profile for NFV 1.0 is written against the Simple Profile
1.0: a template declaring it sees the 1.0 normative types (BlockStorage has
no ``name`` and needs ``size``; ``Abstract.*``, ``tosca.datatypes.json`` do
not exist), as heat-translator's ``test_tosca_nfv_sample.yaml`` expects.
"""

from __future__ import annotations

import pytest

import toskit
from toskit.tosca.load.profile import NFV_VERSION, normative_registry, registry_for

NFV = f"tosca_definitions_version: {NFV_VERSION}\n"


def _codes(text: str) -> list[str]:
    return [d.code for d in toskit.loads(text).diagnostics]


def test_nfv_block_storage_needs_no_name() -> None:
    """heat-translator's NFV sample: a BlockStorage with only ``size``."""
    text = NFV + (
        "topology_template:\n  node_templates:\n"
        "    VB1:\n      type: tosca.nodes.BlockStorage\n      properties: {size: 10 GB}\n"
        "    VDU1:\n      type: tosca.nodes.nfv.VDU\n"
    )
    assert _codes(text) == []
    # 1.0's BlockStorage requires ``size`` (1.3's does not): the 1.0 rule applies
    assert _codes(text.replace("{size: 10 GB}", "{}")) == ["missing-property"]
    v13 = text.replace(NFV_VERSION, "tosca_simple_yaml_1_3").replace(
        "    VDU1:\n      type: tosca.nodes.nfv.VDU\n", ""
    )
    assert _codes(v13) == ["missing-property"]  # 1.3 requires ``name``


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        ("node", "tosca.nodes.Abstract.Compute"),
        ("data", "tosca.datatypes.json"),
        ("capability", "tosca.capabilities.Compute"),
    ],
)
def test_nfv_sees_no_type_its_version_lacks(kind: str, name: str) -> None:
    assert registry_for(NFV_VERSION, 1).lookup(kind, name) is None
    assert normative_registry(1).lookup(kind, name) is not None  # 1.3 has it
    assert registry_for(NFV_VERSION, 1).lookup("node", "tosca.nodes.nfv.VNF") is not None


def test_nfv_types_sit_on_the_1_0_types() -> None:
    nfv = registry_for(NFV_VERSION, 1)
    one_oh = registry_for("tosca_simple_yaml_1_0", 1)
    assert nfv.base is one_oh
    storage = nfv.lookup("node", "tosca.nodes.BlockStorage")
    assert storage is one_oh.lookup("node", "tosca.nodes.BlockStorage")
