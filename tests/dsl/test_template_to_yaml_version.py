"""``dsl.template_to_yaml(version=...)`` writes a document other TOSCA tools
read (issue #18 item 8): tosca-parser parses the 1.3 form and refuses the
Unfurl dialect; the 2.0 form loads in toskit with the same meaning."""

from __future__ import annotations

import pytest
import yaml

import toskit
from toskit import dsl

SOURCE = """\
tosca_definitions_version: tosca_simple_unfurl_1_0_0
data_types:
  shop.Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      host: {type: string}
      port:
        type: integer
        default: 443
        constraints: [{in_range: [1, 65535]}]
      name: {type: string, required: false, constraints: [{min_length: 1}, {pattern: "[a-z]+"}]}
node_types:
  shop.Web:
    derived_from: tosca.nodes.Root
    properties:
      endpoint: {type: shop.Endpoint}
topology_template:
  node_templates:
    web:
      type: shop.Web
      properties:
        endpoint: {host: shop.example.com}
"""


@pytest.fixture(scope="module")
def st():
    return toskit.loads(SOURCE, name="shop.yaml")


def test_default_keeps_the_template_version(st):
    assert (
        yaml.safe_load(dsl.template_to_yaml(st))["tosca_definitions_version"]
        == "tosca_simple_unfurl_1_0_0"
    )


def _tosca_parser(tmp_path, text):
    from toscaparser.tosca_template import ToscaTemplate

    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    return ToscaTemplate(str(path))


def test_version_1_3_is_read_by_tosca_parser(st, tmp_path):
    text = dsl.template_to_yaml(st, version="1.3")
    assert text.startswith("tosca_definitions_version: tosca_simple_yaml_1_3\n")
    parsed = _tosca_parser(tmp_path, text)
    assert [n.name for n in parsed.nodetemplates] == ["web"]
    with pytest.raises(Exception, match="tosca_simple_unfurl_1_0_0"):
        _tosca_parser(tmp_path, dsl.template_to_yaml(st))  # the dialect is refused
    again = toskit.loads(text)
    assert (
        again.ok and again.node_templates["web"].properties == st.node_templates["web"].properties
    )


def test_version_2_0_uses_2_0_names_and_validation_clauses(st):
    text = dsl.template_to_yaml(st, version="2.0")
    data = yaml.safe_load(text)
    assert data["tosca_definitions_version"] == "tosca_2_0"
    assert "service_template" in data and "topology_template" not in data
    assert data["node_types"]["shop.Web"]["derived_from"] == "Root"
    port = data["data_types"]["shop.Endpoint"]["properties"]["port"]
    assert "constraints" not in port
    assert port["validation"] == {
        "$and": [{"$greater_or_equal": ["$value", 1]}, {"$less_or_equal": ["$value", 65535]}]
    }
    name = data["data_types"]["shop.Endpoint"]["properties"]["name"]
    assert name["validation"] == {
        "$and": [
            {"$greater_or_equal": [{"$length": ["$value"]}, 1]},
            {"$matches": ["$value", "^(?:[a-z]+)$"]},
        ]
    }
    again = toskit.loads(text)
    assert again.ok, [str(d) for d in again.diagnostics]
    assert again.node_templates["web"].properties == st.node_templates["web"].properties
    bad = toskit.loads(
        text.replace("host: shop.example.com", "host: shop.example.com\n          port: 0")
    )
    assert [d.code for d in bad.errors] == ["validation-failed"]  # the constraint still holds


def test_unknown_version_is_a_clear_error(st):
    with pytest.raises(
        toskit.ToskitError, match="unknown TOSCA version '3.0'.*'1.3', '2.0', 'unfurl'"
    ):
        dsl.template_to_yaml(st, version="3.0")
