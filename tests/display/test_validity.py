"""Every property row says what is wrong with it, where it is (issue #18 item 1).

One template with every kind of mistake: a wrong type (``port: "eighty"``),
a value outside ``valid_values``, a typo in a data-type field and in a node
property (each also leaves a required property missing), a required
property that is simply missing, an invalid list entry, an unknown node
type.
"""

from __future__ import annotations

import re

import pytest
from htmlcheck import assert_safe, body, parse

import toskit
from toskit.diagnostics import Diagnostic, Fix, Subject
from toskit.display import render_page, to_html
from toskit.tosca.model.template import PropertyRow, PropertyTable
from toskit.tosca.model.validity import STATUSES, Scope, row_states, table_states

MISTAKES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  acme.datatypes.Base:
    derived_from: tosca.datatypes.Root
    properties:
      protocol:
        type: string
        default: tcp
        constraints:
          - valid_values: [tcp, udp]
  acme.datatypes.Endpoint:
    derived_from: acme.datatypes.Base
    properties:
      port: {type: integer, constraints: [{in_range: [1, 65535]}]}
      host: {type: string}
  acme.datatypes.TlsEndpoint:
    derived_from: acme.datatypes.Endpoint
    properties:
      secret_ref: {type: string}
node_types:
  acme.nodes.Web:
    derived_from: tosca.nodes.Root
    properties:
      endpoint: {type: acme.datatypes.TlsEndpoint}
      password: {type: string}
      token: {type: string}
      ports: {type: list, entry_schema: {type: integer}}
      name: {type: string, default: web}
topology_template:
  node_templates:
    db:
      type: acme.nodes.Web
      properties:
        endpoint:
          port: "eighty"
          protocol: http
          host: api.example.com
          secert_ref: x
        pasword: y
        ports: [1, "two"]
    worker:
      type: acme.nodes.Wbe
"""


@pytest.fixture(scope="module")
def st():
    return toskit.loads(MISTAKES, name="mistakes.yaml")


@pytest.fixture(scope="module")
def db(st):
    return st.node_templates["db"]


def _states(db):
    return {s.path: s for s in table_states(db.property_table())}


def test_every_row_has_its_state(db):
    states = _states(db)
    assert {p: s.status for p, s in states.items()} == {
        "endpoint.protocol": "invalid",  # not in valid_values
        "endpoint.port": "invalid",  # "eighty" for an integer
        "endpoint.host": "valid",
        "endpoint.secert_ref": "unknown",  # typo of secret_ref (missing)
        "pasword": "unknown",  # typo of password (missing)
        "ports": "invalid",  # ports[1] is not an integer
        "token": "missing",  # required, no value, no default
        "name": "valid",
        "password": "missing",  # the typo's twin: its own row (issue #28)
        "endpoint.secret_ref": "missing",
    }
    assert set(s.status for s in states.values()) <= set(STATUSES)


def test_a_typo_is_two_rows_that_name_each_other(db):
    states = _states(db)
    typo, twin = states["pasword"], states["password"]
    assert (typo.status, twin.status) == ("unknown", "missing")
    assert typo.suggestion == "password"  # the replacement of the finding's one fix
    assert [d.code for d in typo.diagnostics] == ["unknown-property"]
    assert [d.code for d in twin.diagnostics] == ["missing-property"]
    (unknown,), (missing,) = typo.diagnostics, twin.diagnostics
    assert [(r.line, r.column) for r in unknown.related] == [(missing.line, missing.column)]
    assert [(r.line, r.column) for r in missing.related][:1] == [(unknown.line, unknown.column)]
    assert states["endpoint.secert_ref"].suggestion == "secret_ref"
    assert states["endpoint.secret_ref"].status == "missing"
    assert states["endpoint.secret_ref"].type == "string"
    # The rows carry their tuple path and status, set when the table was built.
    row = db.property_table()["endpoint.port"]
    assert (row.parts, row.status) == (("endpoint", "port"), "invalid")


def test_row_states_read_subjects_not_messages():
    # Two findings whose messages say nothing the states could parse: the
    # structured subject and fix are what count.
    rows = [PropertyRow("pasword", "y", None, "template", parts=("pasword",))]
    unknown = Diagnostic(
        "error",
        "unknown-property",
        "something",
        subject=Subject("node_template", "db", ("pasword",)),
        fixes=(Fix("rename", "password", "f", 1, 1, 1, 8),),
    )
    missing = Diagnostic(
        "error",
        "missing-property",
        "else",
        subject=Subject("node_template", "db", ("password",)),
    )
    other = Diagnostic(
        "error", "type-mismatch", "x", subject=Subject("node_template", "web", ("pasword",))
    )
    scope = Scope("node_template", "db")
    findings = [(scope.property_path(d.subject), d) for d in (unknown, missing, other)]
    findings = [(p, d) for p, d in findings if p is not None]
    states = row_states(rows, findings)
    assert [(s.path, s.status, s.suggestion) for s in states] == [
        ("pasword", "unknown", "password"),
        ("password", "missing", None),
    ]
    # A requirement named like a property is not filed under the property.
    assert (
        Scope("node_template", "db").property_path(
            Subject("node_template", "db", ("pasword",), section="requirements")
        )
        is None
    )


def test_problem_and_location_point_at_the_source(db):
    states = _states(db)
    port = states["endpoint.port"]
    assert (
        port.problem
        == "node template 'db': property 'endpoint.port': expected integer, got string 'eighty'"
    )
    assert port.location == "mistakes.yaml:35"
    assert states["token"].type == "string"  # the declared type of a missing row
    assert states["endpoint.host"].problem is None


def test_missing_rows_sit_beside_their_siblings():
    text = MISTAKES.replace("        pasword: y\n", "        password: y\n").replace(
        "          secert_ref: x\n", ""
    )
    states = table_states(toskit.loads(text).node_templates["db"].property_table())
    paths = [s.path for s in states]
    # endpoint.secret_ref is missing now (no typo): it follows the other endpoint rows
    assert paths.index("endpoint.secret_ref") == paths.index("endpoint.host") + 1
    assert (
        states[paths.index("endpoint.secret_ref")].type == "string"
    )  # found through the data type


def test_to_frame_has_status_and_problem_columns(db):
    frame = db.property_table().to_frame()
    assert list(frame.columns) == ["path", "value", "type", "source", "status", "problem"]
    by_path = frame.set_index("path")
    assert by_path.loc["endpoint.port", "status"] == "invalid"
    assert "expected integer" in by_path.loc["endpoint.port", "problem"]
    assert by_path.loc["endpoint.host", "status"] == "valid"
    assert by_path.loc["endpoint.host", "problem"] is None
    assert by_path.loc["token", "status"] == "missing"
    assert by_path.loc["token", "value"] is None
    assert by_path.loc["pasword", "status"] == "unknown"
    assert "did you mean 'password'" in by_path.loc["pasword", "problem"]
    overridden = db.property_table(show_overridden=True).to_frame()
    assert "overridden" in overridden.columns and "status" in overridden.columns


def test_a_clean_table_is_all_valid():
    st = toskit.loads(
        MISTAKES.split("topology_template:")[0]
        + (
            "topology_template:\n  node_templates:\n    ok:\n      type: acme.nodes.Web\n"
            "      properties:\n        endpoint: {port: 80, host: h, secret_ref: s}\n"
            "        password: p\n        token: t\n        ports: [1]\n"
        )
    )
    frame = st.node_templates["ok"].property_table().to_frame()
    assert set(frame.status) == {"valid"} and frame.problem.isna().all()


def test_a_table_without_a_template_is_unchecked():
    table = PropertyTable("t", [PropertyRow("a", 1, "integer", "template")])
    assert [s.status for s in table_states(table)] == ["unchecked"]
    assert list(table.to_frame().status) == ["unchecked"]
    assert [s.status for s in row_states([{"path": "x"}], None)] == ["unchecked"]
    html = to_html(table)
    assert "<th>status</th>" not in html  # nothing known, no column


def _rows(html: str) -> list[list[str]]:
    out = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body(html), flags=re.S):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, flags=re.S)
        out.append(["".join(parse(c).text).strip() for c in cells])
    return out


def _check_rows_in(html: str) -> None:
    assert_safe(html)
    rows = _rows(html)
    assert ["endpoint.port", "eighty", "integer", "template", "invalid"] in rows
    assert ["endpoint.host", "api.example.com", "string", "template", "ok"] in rows
    assert ["token", "no value", "string", "", "missing"] in rows
    assert ["pasword did you mean password?", "y", "", "template", "unknown"] in rows
    # Under a problem row: its message and file:line, expandable to the diagnostics.
    at = rows.index(["endpoint.port", "eighty", "integer", "template", "invalid"])
    # the message (opening to its diagnostics), then its location beside it
    assert rows[at + 1][0].startswith(
        "node template 'db': property 'endpoint.port': expected integer, got string 'eighty'"
    )
    assert rows[at + 1][0].endswith("mistakes.yaml:35")
    view = body(html)
    assert re.search(
        r'<tr class="toskit-row-invalid">.*?title="node template &#x27;db&#x27;: property &#x27;endpoint.port&#x27;',
        view,
        flags=re.S,
    )
    assert '<tr class="toskit-problem-row toskit-row-missing"><td colspan="5">' in view
    assert '<tr class="toskit-row-unknown">' in view


def test_node_view_shows_states_in_place(db):
    _check_rows_in(to_html(db))


def test_template_view_and_report_show_states_in_place(st):
    _check_rows_in(st._repr_html_())
    _check_rows_in(render_page(st))


def test_explorer_shows_states_in_place(st):
    from toskit.widgets import PropertyExplorer

    _check_rows_in(PropertyExplorer(st, node="db").html)


def test_problem_text_is_escaped():
    text = MISTAKES.replace("pasword: y", "'<b>x</b>': y")
    html = to_html(toskit.loads(text).node_templates["db"])
    assert_safe(html)
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html


def test_unknown_type_is_labelled_as_written(st):
    html = st._repr_html_()
    assert (
        '<span class="toskit-node-name">worker</span><span class="toskit-node-note">acme.nodes.Wbe</span>'
        in html
    )
    assert "acme.nodes.Wbe" in to_html(st.node_templates["worker"])
