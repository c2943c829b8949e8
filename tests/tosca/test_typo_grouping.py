"""A typo of a missing required property: two findings that name each other (issue #28).

A misspelt property name (``pasword``) whose closest declared name is a
required property left without value at the same level (``password``) is
two findings (issue #28 replaced issue #18's single grouped one, whose
"(required, has no value)" read as if it described the typo): an
``unknown-property`` at the typo, with a fix renaming it, and a
``missing-property`` at the key that lacks the property; each names the
other in ``related``. A name that is not close stays two plain findings.
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
    roots = (
        {"data_root": "", "node_root": ""}
        if version == "tosca_2_0"
        else {
            "data_root": "    derived_from: tosca.datatypes.Root\n",
            "node_root": "    derived_from: tosca.nodes.Root\n",
        }
    )
    text = TEMPLATE.format(version=version, topology=topology, properties=lines, **roots)
    return toskit.loads(text, name="typo.yaml")


def _codes(st) -> list[str]:
    return sorted(d.code for d in st.diagnostics)


@pytest.mark.parametrize("version", VERSIONS)
def test_a_typo_of_a_missing_required_property_is_two_findings_naming_each_other(version):
    st = _load(version, password=None, pasword="x")
    assert _codes(st) == ["missing-property", "unknown-property"], [str(d) for d in st.diagnostics]
    unknown = next(d for d in st.diagnostics if d.code == "unknown-property")
    missing = next(d for d in st.diagnostics if d.code == "missing-property")
    assert (
        unknown.message
        == "node template 'db': unknown property 'pasword' (not declared by acme.nodes.Web)"
    )
    assert unknown.hint == "did you mean 'password'? ('password' is required and has no value)"
    assert unknown.parts[-4:] == ("node_templates", "db", "properties", "pasword")
    assert unknown.source_line is not None and unknown.source_line[unknown.column - 1 :].startswith(
        "pasword"
    )
    (fix,) = unknown.fixes
    assert (fix.replacement, fix.line, fix.column, fix.end_column) == (
        "password",
        unknown.line,
        unknown.column,
        unknown.column + len("pasword"),
    )
    assert missing.message == "node template 'db': required property 'password' has no value"
    assert missing.subject.path == ("password",) and unknown.subject.path == ("pasword",)
    # The missing one sits on the key that lacks it: ``properties:``.
    assert missing.source_line.strip() == "properties:"
    assert (missing.end_column - missing.column) == len("properties")
    assert [(r.line, r.column) for r in unknown.related] == [(missing.line, missing.column)]
    assert [(r.line, r.column) for r in missing.related][:1] == [(unknown.line, unknown.column)]
    # and where 'password' is declared (its name in acme.nodes.Web)
    assert [r.label for r in missing.related][1:] == [
        "'password' is declared here in acme.nodes.Web"
    ]


@pytest.mark.parametrize("version", VERSIONS)
def test_a_typo_inside_a_data_type_value_is_two_findings(version):
    st = _load(version, endpoint="\n          host: h\n          secert_ref: x")
    assert _codes(st) == ["missing-property", "unknown-property"], [str(d) for d in st.diagnostics]
    unknown = next(d for d in st.diagnostics if d.code == "unknown-property")
    missing = next(d for d in st.diagnostics if d.code == "missing-property")
    assert "unknown property 'endpoint.secert_ref'" in unknown.message
    assert unknown.parts[-5:] == ("node_templates", "db", "properties", "endpoint", "secert_ref")
    assert [f.replacement for f in unknown.fixes] == ["secret_ref"]
    assert missing.subject.path == ("endpoint", "secret_ref")
    assert missing.source_line.strip() == "endpoint:"  # the caret on the parent key


@pytest.mark.parametrize("version", VERSIONS)
def test_each_list_entry_names_its_own_typo(version):
    st = _load(
        version,
        endpoints="\n          - {host: a, secret_ref: s}\n          - {host: b, secert_ref: t}",
    )
    assert _codes(st) == ["missing-property", "unknown-property"], [str(d) for d in st.diagnostics]
    unknown = next(d for d in st.diagnostics if d.code == "unknown-property")
    assert unknown.parts[-6:] == (
        "node_templates",
        "db",
        "properties",
        "endpoints",
        1,
        "secert_ref",
    )
    missing = next(d for d in st.diagnostics if d.code == "missing-property")
    assert missing.subject.path == ("endpoints", 1, "secret_ref")


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
    assert (
        d.message
        == "node template 'db': unknown property 'passwrd' (not declared by acme.nodes.Web)"
    )
    assert d.hint == "did you mean 'password'?"


def test_two_typos_of_one_missing_property_name_it_once():
    st = _load("tosca_simple_yaml_1_3", password=None, pasword="x", passwrd="y")
    assert _codes(st) == ["missing-property", "unknown-property", "unknown-property"]
    assert all(len(d.fixes) == 1 for d in st.diagnostics if d.code == "unknown-property")


def test_the_typo_reads_well_as_text():
    st = _load("tosca_simple_yaml_1_3", password=None, pasword="secret")
    text = str(next(d for d in st.diagnostics if d.code == "unknown-property"))
    assert "error[unknown-property]" in text
    assert "hint: did you mean 'password'? ('password' is required and has no value)" in text
    assert "        pasword: secret" in text
    assert "^^^^^^^" in text  # the whole key underlined
