"""A malformed function call is one mistake, reported once.

The raw map a call that did not parse leaves behind (``{$concat: [a], x: 1}``,
calls nested past :data:`toskit.functions._limits.MAX_CALL_DEPTH`) is not the
data its author meant: the value checks' findings at or under it ("expected
string, got map", unknown ``$concat`` fields) are cascades and are dropped
(``toskit.tosca.values.evaluation.without_cascades``); everything else stays.
"""

from __future__ import annotations

import pytest

import toskit


def _template(ptype: str, value: str, more: str = "") -> str:
    return f"""tosca_definitions_version: tosca_2_0
data_types:
  Endpoint:
    properties:
      host: {{type: string}}
      port: {{type: integer}}
node_types:
  N:
    properties:
      p: {{type: {ptype}}}
      q: {{type: integer, required: false}}
service_template:
  node_templates:
    n:
      type: N
      properties:
        p: {value}
{more}"""


def _nested(depth: int) -> str:
    value = '"x"'
    for _ in range(depth):
        value = "{$concat: [" + value + "]}"
    return value


@pytest.mark.parametrize(
    ("ptype", "value", "codes"),
    [
        ("string", "{$concat: [b], x: 1}", ["malformed-function"]),
        ("string", "{$concat: [a], $join: [b]}", ["malformed-function", "malformed-function"]),
        ("map, entry_schema: {type: string}", "{k: {$concat: [a], x: 1}}", ["malformed-function"]),
        ("list, entry_schema: {type: string}", "[a, {$concat: [a], x: 1}]", ["malformed-function"]),
        (
            "Endpoint",
            "{$concat: [a], x: 1}",
            ["malformed-function"],
        ),  # no unknown '$concat'/'x' field
        ("string", _nested(51), ["limit-exceeded"]),
    ],
)
def test_a_malformed_call_is_reported_once(ptype: str, value: str, codes: list[str]) -> None:
    st = toskit.loads(_template(ptype, value))
    assert sorted(d.code for d in st.diagnostics) == codes
    assert all(d.line == 17 for d in st.diagnostics)  # on the line of the call


def test_other_mistakes_beside_a_malformed_call_stay() -> None:
    # q's type mismatch is its own mistake; m's value is a plain wrong value.
    more = "        q: many\n    m:\n      type: N\n      properties:\n        p: {a: 1}\n"
    st = toskit.loads(_template("string", "{$concat: [b], x: 1}", more))
    found = sorted((d.code, d.parts[-3], d.parts[-1]) for d in st.diagnostics)
    assert found == [
        ("malformed-function", "properties", "$concat"),
        ("type-mismatch", "m", "p"),
        ("type-mismatch", "n", "q"),
    ]


def test_an_escaped_dollar_is_data_and_still_checked() -> None:
    st = toskit.loads(_template("string", "{$$concat: [a]}"))
    assert [d.code for d in st.diagnostics] == ["type-mismatch"]


def test_the_node_view_shows_the_call_not_a_type_mismatch() -> None:
    st = toskit.loads(_template("string", "{$concat: [b], x: 1}"))
    assert not st.ok
    html = st.node_templates["n"]._repr_html_()
    assert "malformed function" in html
    assert "expected string" not in html
