"""One typo is one diagnostic (issue #18, "small things").

A misspelt property name (``pasword``) whose closest declared name is a
required property left without value at the same level (``password``) is
reported once: an ``unknown-property`` error, at the typo, whose message
names both. A name that is not close to the missing one stays two
diagnostics (an unknown property and a missing one).
"""

from __future__ import annotations

import pytest

import toskit

VERSIONS = ["tosca_simple_yaml_1_3", "tosca_2_0"]

TEMPLATE = """\
tosca_definitions_version: {version}
data_types:
  acme.datatypes.Endpoint:
{data_root}    properties:
      host: {{type: string}}
      secret_ref: {{type: string}}
node_types:
  acme.nodes.Web:
{node_root}    properties:
      password: {{type: string}}
      endpoint: {{type: acme.datatypes.Endpoint}}
      endpoints: {{type: list, entry_schema: {{type: acme.datatypes.Endpoint}}, required: false}}
{topology}:
  node_templates:
    db:
      type: acme.nodes.Web
      properties:
{properties}
"""

GOOD = {"password": "p", "endpoint": "{host: h, secret_ref: s}"}


def _load(version: str, **props: str):
    values = {**GOOD, **props}
    lines = "\n".join(f"        {k}: {v}" for k, v in values.items() if v is not None)
    topology = "service_template" if version == "tosca_2_0" else "topology_template"
    # 2.0 has no normative types without an imported profile: root types.
    roots = {"data_root": "", "node_root": ""} if version == "tosca_2_0" else {
        "data_root": "    derived_from: tosca.datatypes.Root\n",
        "node_root": "    derived_from: tosca.nodes.Root\n",
    }
    text = TEMPLATE.format(version=version, topology=topology, properties=lines, **roots)
    return toskit.loads(text, name="typo.yaml")


def _codes(st) -> list[str]:
    return sorted(d.code for d in st.diagnostics)


@pytest.mark.parametrize("version", VERSIONS)
def test_a_typo_of_a_missing_required_property_is_one_error(version):
    st = _load(version, password=None, pasword="secret")
    assert len(st.diagnostics) == 1, [str(d) for d in st.diagnostics]
    (d,) = st.diagnostics
    assert (d.severity, d.code) == ("error", "unknown-property")
    assert d.message == (
        "node template 'db': unknown property 'pasword' (not declared by acme.nodes.Web)"
        " -- did you mean 'password'? (required, has no value)"
    )
    assert d.hint == "rename 'pasword' to 'password'"
    assert d.parts[-4:] == ("node_templates", "db", "properties", "pasword")
    # At the typo itself: the caret under the misspelt key.
    assert d.source_line is not None and d.source_line[d.column - 1 :].startswith("pasword")


@pytest.mark.parametrize("version", VERSIONS)
def test_a_typo_inside_a_data_type_value_is_one_error(version):
    st = _load(version, endpoint="{host: h, secert_ref: s}")
    assert _codes(st) == ["unknown-property"], [str(d) for d in st.diagnostics]
    (d,) = st.diagnostics
    assert "unknown property 'endpoint.secert_ref'" in d.message
    assert d.message.endswith("-- did you mean 'secret_ref'? (required, has no value)")
    assert d.parts[-5:] == ("node_templates", "db", "properties", "endpoint", "secert_ref")


@pytest.mark.parametrize("version", VERSIONS)
def test_each_list_entry_groups_its_own_typo(version):
    st = _load(version, endpoints="[{host: a, secret_ref: s}, {host: b, secert_ref: s}]")
    assert _codes(st) == ["unknown-property"], [str(d) for d in st.diagnostics]
    assert st.diagnostics[0].parts[-6:] == ("node_templates", "db", "properties", "endpoints", 1, "secert_ref")
    assert "did you mean 'secret_ref'? (required, has no value)" in st.diagnostics[0].message


@pytest.mark.parametrize("version", VERSIONS)
def test_a_name_that_is_not_close_stays_two_diagnostics(version):
    st = _load(version, password=None, colour="red")
    assert _codes(st) == ["missing-property", "unknown-property"]
    unknown = next(d for d in st.diagnostics if d.code == "unknown-property")
    assert "did you mean" not in unknown.message and unknown.hint is None
    missing = next(d for d in st.diagnostics if d.code == "missing-property")
    assert missing.message == "node template 'db': required property 'password' has no value"


@pytest.mark.parametrize("version", VERSIONS)
def test_a_name_that_is_not_close_in_a_data_value_stays_two(version):
    st = _load(version, endpoint="{host: h, zone: z}")
    assert _codes(st) == ["missing-property", "unknown-property"]


def test_a_typo_of_a_property_that_has_a_value_keeps_its_hint():
    # password is given: nothing is missing, so the typo is an unknown name
    # with the usual did-you-mean hint.
    st = _load("tosca_simple_yaml_1_3", passwrd="x")
    (d,) = st.diagnostics
    assert d.code == "unknown-property"
    assert d.message == "node template 'db': unknown property 'passwrd' (not declared by acme.nodes.Web)"
    assert d.hint == "did you mean 'password'?"


def test_two_typos_of_one_missing_property_group_it_once():
    st = _load("tosca_simple_yaml_1_3", password=None, pasword="x", passwrd="y")
    assert _codes(st) == ["unknown-property", "unknown-property"]  # no missing-property
    grouped = [d for d in st.diagnostics if "(required, has no value)" in d.message]
    assert len(grouped) == 1
    other = next(d for d in st.diagnostics if d is not grouped[0])
    assert other.hint == "did you mean 'password'?"


def test_the_grouped_error_reads_well_as_text():
    st = _load("tosca_simple_yaml_1_3", password=None, pasword="secret")
    text = str(st.diagnostics[0])
    assert "error[unknown-property]" in text
    assert "did you mean 'password'? (required, has no value)" in text
    assert "hint: rename 'pasword' to 'password'" in text
    assert "        pasword: secret" in text
