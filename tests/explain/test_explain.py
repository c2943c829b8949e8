"""Issue #32: every value explains itself (st.explain, node.explain, the stack on rows)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toskit
from toskit.tosca.explain import MAX_HOPS, ExplainError, Explanation, explain_entity

DATA = Path(__file__).parent / "data"
EXAMPLES = Path(__file__).parents[2] / "notebooks" / "examples"


@pytest.fixture(scope="module")
def st2() -> toskit.ServiceTemplate:
    return toskit.load(DATA / "service2.yaml", inputs={"region": "eu"})


@pytest.fixture(scope="module")
def st13() -> toskit.ServiceTemplate:
    return toskit.load(DATA / "service13.yaml", inputs={"replicas": 7})


def layers(e: Explanation) -> list[tuple]:
    """(value, label, file name, line) of every layer, lowest first."""
    return [
        (layer.value, layer.source.label, Path(layer.source.file or "").name, layer.source.line)
        for layer in e.stack
    ]


# -- the layer stack --------------------------------------------------------


def test_data_type_default_through_inheritance(st2):
    e = st2.explain("node_templates.db.properties.endpoint.tls")
    assert e.value is True
    assert layers(e) == [(True, "default: SecureEndpoint", "types2.yaml", 12)]
    assert e.source.kind == "data type default" and e.source.type_name == "SecureEndpoint"


def test_nested_merge_across_node_type_derivation(st2):
    e = st2.explain("node_templates.db.properties.endpoint.port")
    assert e.value == 8443
    assert layers(e) == [
        (80, "default: Endpoint", "types2.yaml", 7),
        (443, "default: SecureEndpoint", "types2.yaml", 11),
        (8443, "default: Derived", "service2.yaml", 40),
    ]
    assert [layer.won for layer in e.stack] == [False, False, True]
    assert e.source.kind == "type default"
    assert [layer.value for layer in e.overridden] == [80, 443]


def test_template_over_type_default_over_data_type_default(st2):
    e = st2.explain("node_templates.db.properties.endpoint.host")
    assert layers(e) == [
        ("localhost", "default: Endpoint", "types2.yaml", 6),
        ("base.example", "default: Base", "service2.yaml", 20),
        ("db.local", "template", "service2.yaml", 59),
    ]
    # the range of the written value: `db.local` on line 59
    line = (DATA / "service2.yaml").read_text().splitlines()[58]
    assert e.source.end_line == 59
    assert line[e.source.column - 1 : e.source.end_column - 1] == "db.local"


def test_value_set_in_an_imported_file_is_located_there(st2):
    e = st2.explain("node_templates.proxy.properties.endpoint.tls")
    assert e.source.file is not None and Path(e.source.file).name == "types2.yaml"
    assert e.source.line == 12


def test_list_entry_defaults(st2):
    host = st2.explain("node_templates.db.properties.ports[1].host")
    assert layers(host) == [("localhost", "default: Endpoint", "types2.yaml", 6)]
    port = st2.explain("node_templates.db.properties.ports[1].port")
    assert layers(port) == [
        (80, "default: Endpoint", "types2.yaml", 7),
        (1, "template", "service2.yaml", 60),
    ]
    assert port.path == "ports[1].port"


def test_map_entry_defaults(st2):
    e = st2.explain("node_templates.db.properties.named.main.port")
    assert layers(e) == [(80, "default: Endpoint", "types2.yaml", 7)]
    written = st2.explain("node_templates.db.properties.named.main.host")
    assert layers(written) == [
        ("localhost", "default: Endpoint", "types2.yaml", 6),
        ("m", "template", "service2.yaml", 61),
    ]


def test_node_explain_takes_a_property_path(st2):
    node = st2.node_templates["db"]
    assert (
        node.explain("endpoint.port").to_dict()
        == st2.explain("node_templates.db.properties.endpoint.port").to_dict()
    )
    assert node.explain(("endpoint", "port")).value == 8443


def test_capability_property(st2):
    e = st2.explain("node_templates.web.capabilities.listen.properties.port")
    assert e.entity_kind == "capability"
    assert layers(e) == [(8080, "default: Listener", "service2.yaml", 9)]


def test_property_row_carries_structured_origin_and_stack(st2):
    table = st2.node_templates["db"].property_table(show_overridden=True)
    row = table["endpoint.port"]
    assert row.source == "default: Derived"  # the string form is unchanged (API.md)
    assert row.overridden == ((80, "default: Endpoint"), (443, "default: SecureEndpoint"))
    assert (
        row.origin is not None and row.origin.kind == "default" and row.origin.detail == "Derived"
    )
    assert row.origin.span()[1] == 40
    assert [(v, o.source) for v, o in row.stack] == [
        (80, "default: Endpoint"),
        (443, "default: SecureEndpoint"),
        (8443, "default: Derived"),
    ]
    plain = st2.node_templates["db"].property_table()
    assert plain["endpoint.port"].overridden == () and plain["endpoint.port"].origin is not None


# -- inputs -----------------------------------------------------------------


def test_input_with_default(st2):
    e = st2.explain("node_templates.web.properties.from_input")
    assert e.value == 9000 and e.source.kind == "input" and e.source.input_name == "app_port"
    assert e.source.line == 70  # where get_input was written
    (hop,) = e.hops
    assert hop.function == "get_input" and hop.value == 9000
    assert hop.source.line == 51 and "default 9000" in hop.detail and "(the default)" in hop.detail


def test_input_with_given_value(st2):
    (hop,) = st2.explain("node_templates.web.properties.given").hops
    assert hop.value == "eu" and "value given eu" in hop.detail and "default none" in hop.detail


def test_input_without_value_is_not_known():
    st = toskit.load(DATA / "service2.yaml")  # region has no default and no value
    e = st.explain("node_templates.web.properties.given")
    (hop,) = e.hops
    assert "supplied at deployment" in hop.detail


# -- functions --------------------------------------------------------------


def test_get_property_chain_across_nodes(st2):
    e = st2.explain("node_templates.web.properties.endpoint.port")
    assert e.value == 9000 and e.source.kind == "function"
    chain = []
    hop = e.hops[0]
    while True:
        chain.append((hop.function, hop.target, hop.value))
        inner = hop.explanation.hops if hop.explanation is not None else ()
        if not inner:
            break
        hop = inner[0]
    assert chain == [
        ("get_property", "node proxy, property copy_of_port", 9000),
        ("get_property", "node web, property from_input", 9000),
        ("get_input", "input app_port", 9000),
    ]
    # the replaced defaults stay in the stack under the function's value
    assert [layer.value for layer in e.stack] == [80, 443, 8443, 9000]


def test_get_property_of_a_capability(st2):
    (hop,) = st2.explain("node_templates.web.properties.copy_of_port").hops
    assert hop.target == "node web, capability listen, property port"
    assert hop.value == 8080 and hop.source.label == "default: Listener"


def test_concat_arguments_with_their_values(st13):
    e = st13.node_templates["app"].explain("greeting")
    assert e.value == "hello shop"
    (hop,) = e.hops
    assert hop.function == "concat" and hop.call.startswith("{concat:")  # 1.x as written
    assert [(h.function, h.value) for h in hop.hops] == [
        ("argument", "hello"),
        ("argument", " "),
        ("get_property", "shop"),
    ]
    assert hop.hops[2].explanation.source.kind == "input"  # name came from get_input


def test_join_of_a_defaulted_value(st2):
    (hop,) = st2.explain("node_templates.web.properties.label").hops
    assert hop.function == "join" and hop.value == "db.local-x"
    inner = hop.hops[0].hops[0]  # argument 1 is a list holding a call
    assert inner.function == "get_property" and inner.value == "db.local"
    assert inner.explanation.overridden[0].source.label == "default: Endpoint"


def test_unevaluated_call_gives_no_value_but_says_where_it_reads(st13):
    e = st13.node_templates["app"].explain("db_port")
    (hop,) = e.hops
    assert not hop.known and hop.value is None
    assert "unevaluated" in hop.detail
    assert [d.code for d in e.findings] == ["function-error"]


def test_unevaluated_concat_is_not_known(st2):
    e = st2.explain("node_templates.web.properties.url")
    assert not e.hops[0].known
    assert any(h.function == "get_property" and h.value == "db.local" for h in e.hops[0].hops)


def test_one_x_get_input_hop(st13):
    e = st13.node_templates["app"].explain("name")
    assert e.source.label == "input: app_name"
    assert e.hops[0].call == "{get_input: [app_name]}"  # 1.x names, no $


def test_a_reference_loop_is_cut():
    text = """tosca_definitions_version: tosca_2_0
node_types:
  N:
    properties:
      a: {type: integer, required: false}
      b: {type: integer, required: false}
service_template:
  node_templates:
    n:
      type: N
      properties:
        a: {$get_property: [SELF, b]}
        b: {$get_property: [SELF, a]}
"""
    st = toskit.loads(text)
    e = st.explain("node_templates.n.properties.a")
    hop = e.hops[0].explanation.hops[0]
    assert "loop" in hop.detail


def test_a_long_chain_stops_after_max_hops():
    n = MAX_HOPS + 5
    props = "\n".join(f"      p{i}: {{type: integer, required: false}}" for i in range(n + 1))
    values = (
        "\n".join(f"        p{i}: {{$get_property: [SELF, p{i + 1}]}}" for i in range(n))
        + f"\n        p{n}: 1"
    )
    text = f"""tosca_definitions_version: tosca_2_0
node_types:
  N:
    properties:
{props}
service_template:
  node_templates:
    n:
      type: N
      properties:
{values}
"""
    st = toskit.loads(text)
    e = st.explain("node_templates.n.properties.p0")
    depth, hops = 0, e.hops
    while hops and hops[0].explanation is not None:
        depth += 1
        hops = hops[0].explanation.hops
    assert depth <= MAX_HOPS + 1


# -- copy, checks, findings -------------------------------------------------


def test_copy_template_names_the_copied_template(st2):
    e = st2.explain("node_templates.web3.properties.endpoint.host")
    assert e.source.kind == "copy" and e.source.copied_from == "db" and e.source.line == 59
    assert e.value == "db.local"


def test_constraints_checked_with_their_result(st13):
    e = st13.node_templates["app"].explain("limits.cpu")
    assert [(c.kind, c.result) for c in e.checks] == [("constraint", "violated")]
    assert [d.code for d in e.findings] == ["constraint-violation"]
    ok = st13.node_templates["app"].explain("name")
    assert [(c.kind, c.text, c.result) for c in ok.checks] == [
        ("constraint", "{'min_length': 2}", "satisfied")
    ]


def test_validation_clause_checked_with_its_result(st2):
    bad = st2.explain("node_templates.db.properties.size")
    assert [(c.kind, c.result) for c in bad.checks] == [("validation", "violated")]
    good = st2.explain("node_templates.web.properties.size")
    assert [(c.kind, c.result) for c in good.checks] == [("validation", "satisfied")]
    assert good.findings == ()


def test_findings_below_an_inner_path(st13):
    e = st13.node_templates["app"].explain("limits")
    assert [d.code for d in e.findings] == ["constraint-violation"]


# -- bad paths --------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("node_template.db.properties.size", ["node_templates", "did you mean"]),
        ("node_templates.dbb.properties.size", ["'dbb'", "did you mean 'db'"]),
        ("node_templates.db.properties.endpont.port", ["'endpont'", "did you mean 'endpoint'"]),
        ("node_templates.db.properties.size.x", ["single value"]),
        ("node_templates.db.properties.ports[7]", ["out of range"]),
        ("node_templates.db", ["properties"]),
        ("node_templates.db.capabilities.lissen.properties.port", ["did you mean 'listen'"]),
        ("node_templates.db.properties", ["name a property"]),
        ("", ["a path starts with"]),
    ],
)
def test_bad_paths_raise_a_toskit_error_with_a_hint(st2, path, words):
    with pytest.raises(ExplainError) as info:
        st2.explain(path)
    assert isinstance(info.value, toskit.ToskitError)
    for word in words:
        assert word in str(info.value)


# -- renderings -------------------------------------------------------------


def test_str_to_dict_and_json(st2):
    e = st2.explain("node_templates.db.properties.endpoint.host")
    text = str(e)
    assert "db.local" in text and "types2.yaml:6" in text and "* db.local" in text
    data = e.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["source"]["kind"] == "template" and [s["won"] for s in data["stack"]] == [
        False,
        False,
        True,
    ]


def test_rich_view_escapes_user_text():
    text = """tosca_definitions_version: tosca_2_0
node_types:
  N:
    properties:
      a: {type: string, default: "<script>alert(1)</script>"}
service_template:
  node_templates:
    "<b>n</b>":
      type: N
"""
    st = toskit.loads(text)
    html = st.explain(["node_templates", "<b>n</b>", "properties", "a"])._repr_html_()
    assert "<script>alert" not in html and "&lt;script&gt;" in html and "<b>n</b>" not in html


def test_explain_outside_a_loaded_template_has_no_cross_template_hops(st2):
    node = st2.node_templates["web"]
    e = explain_entity(node, "from_input", None)
    assert e.value == 9000


def test_language_server_hover_reads_the_explanation():
    pytest.importorskip("pygls")  # the lsp extra (installed by make test)
    from toskit.lsp import features
    from toskit.lsp.workspace import Workspace

    text = (DATA / "service13.yaml").read_text(encoding="utf-8")
    uri = "file:///nowhere/service13.yaml"
    ws = Workspace()
    ws.open(uri, text, 1)
    analysis = ws.analysis(uri)
    lines = text.splitlines()
    line = next(i for i, t in enumerate(lines) if "limits: {cpu: 12}" in t)
    hover, _ = features.hover(analysis, line, lines[line].index("12"))
    assert "set by **template** (/nowhere/service13.yaml:39)" in hover
    assert "overrides `1` from default: Limits (/nowhere/service13.yaml:6)" in hover  # located
    assert "constraint `{'less_or_equal': 8}`: violated" in hover
    line = next(i for i, t in enumerate(lines) if "greeting: {concat" in t)
    hover, _ = features.hover(analysis, line, lines[line].index("hello"))
    assert "via `{concat: [hello, ' ', {get_property: [SELF, name]}]}`" in hover


def test_a_default_of_a_profile_type_is_a_profile_layer(st13):
    e = st13.explain("node_templates.db.capabilities.database_endpoint.properties.secure")
    assert e.value is False
    assert e.source.kind == "profile" and e.source.type_name == "tosca.capabilities.Endpoint"
    assert e.source.file.endswith("tosca-simple-1.3.yaml") and e.source.line is not None


def test_end_of_range_is_found_on_use(monkeypatch):
    st = toskit.load(DATA / "service2.yaml")
    spans = []
    real = type(st.document).span
    monkeypatch.setattr(
        type(st.document), "span", lambda doc, *a, **k: spans.append(a) or real(doc, *a, **k)
    )
    e = st.explain("node_templates.db.properties.size")
    source = e.source
    assert source.line == 62 and spans == []  # the start is known, the end not scanned yet
    assert (source.line, source.end_line) == (62, 62)
    assert source.end_column - source.column == 2  # "12"
    assert len(spans) == 1  # scanned once, then kept


@pytest.mark.parametrize("path", [[["a"]], ("endpoint", {"x": 1}), 42])
def test_a_path_that_is_not_keys_is_a_toskit_error(st2, path):
    with pytest.raises(ExplainError, match="a path is a dotted string"):
        st2.node_templates["db"].explain(path)
    with pytest.raises(ExplainError):
        st2.explain(path)


def test_any_path_text_explains_or_raises_an_explain_error(st2):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as hs

    words = hs.sampled_from(
        [
            "node_templates",
            "db",
            "web",
            "properties",
            "capabilities",
            "listen",
            "endpoint",
            "port",
            "ports",
            "[0]",
            "[9]",
            "named",
            "main",
            "size",
            "x",
            "",
            ".",
            "[",
            "]",
            "$concat",
        ]
    )

    @settings(
        max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(hs.lists(words, max_size=8).map(".".join) | hs.text(max_size=40))
    def check(path: str) -> None:
        try:
            e = st2.explain(path)
        except ExplainError:
            return
        assert e.stack and e.stack[-1].won
        str(e)
        e.to_dict()

    check()


def test_checks_of_one_schema_by_value_finding_and_call():
    """The clauses of one definition, explained on several templates (the
    answer for a clean value is kept per schema): satisfied, violated where a
    finding says so, not checked for a value known only at deployment."""
    text = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  t.N:
    derived_from: tosca.nodes.Root
    properties:
      port: {type: integer, required: false, constraints: [{in_range: [1, 9]}, {greater_than: 0}]}
    attributes:
      p: {type: integer}
topology_template:
  node_templates:
    ok1: {type: t.N, properties: {port: 3}}
    bad: {type: t.N, properties: {port: 12}}
    called: {type: t.N, properties: {port: {get_attribute: [SELF, p]}}}
    ok2: {type: t.N, properties: {port: 4}}
"""
    st = toskit.loads(text, name="t.yaml")
    results = {
        name: [(c.text, c.result) for c in st.node_templates[name].explain("port").checks]
        for name in ("ok1", "bad", "called", "ok2")
    }
    clauses = [text for text, _ in results["ok1"]]
    assert len(clauses) == 2 and "in_range" in clauses[0]
    assert results["ok1"] == results["ok2"] == [(t, "satisfied") for t in clauses]
    assert results["bad"] == [(clauses[0], "violated"), (clauses[1], "satisfied")]
    assert results["called"] == [(t, "not checked") for t in clauses]
