"""Views of real loaded templates (toskit.tosca)."""

from __future__ import annotations

import re

import pytest
from htmlcheck import (
    HOSTILE,
    PAYLOAD,
    assert_payload_is_text,
    assert_safe,
    body,
    parse,
    plain_links,
)

import toskit
from toskit.display import render_page, to_html
from toskit.widgets import PropertyExplorer, TypeTree

TEMPLATE = """\
tosca_definitions_version: tosca_simple_yaml_1_3
description: Nested merging demo
data_types:
  my.datatypes.Endpoint:
    derived_from: tosca.datatypes.Root
    description: Where to reach a service.
    properties:
      ip: {type: string}
      port: {type: integer, default: 2233}
  my.datatypes.Auth:
    derived_from: tosca.datatypes.Root
    properties:
      username: {type: string, default: admin}
      password: {type: string, required: false}
  my.datatypes.Connection:
    derived_from: tosca.datatypes.Root
    properties:
      endpoint: {type: my.datatypes.Endpoint}
      auth: {type: my.datatypes.Auth}
node_types:
  DatabaseService:
    derived_from: tosca.nodes.DBMS
    properties:
      connection:
        type: my.datatypes.Connection
        default: {endpoint: {port: 5432}}
  BigDatabase:
    derived_from: DatabaseService
    properties:
      connection:
        type: my.datatypes.Connection
        default: {auth: {username: root}}
topology_template:
  inputs:
    db_ip: {type: string, default: 10.0.0.5}
  node_templates:
    my_db_service:
      type: BigDatabase
      properties:
        connection:
          endpoint:
            ip: {get_input: db_ip}
            port: 2244
          auth: {password: secret, trait: 1}
    other:
      type: DatabaseService
      properties:
        connection: {endpoint: {ip: 1.1.1.1}}
"""


@pytest.fixture(scope="module")
def st():
    return toskit.loads(TEMPLATE, name="seed.yaml")


def _rows(html: str) -> list[list[str]]:
    """Visible cell texts of every table row of a fragment."""
    out = []
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body(html), flags=re.S):
        cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, flags=re.S)
        out.append(["".join(parse(c).text).strip() for c in cells])
    return out


def test_service_template_view(st):
    html = st._repr_html_()
    assert_safe(html)
    view = plain_links(body(html))
    assert "tosca_simple_yaml_1_3" in view and "2 node templates" in view
    # Diagnostics: errors first, each with file:line:column and the source line.
    error_at = view.index("unknown-property")
    assert error_at < view.index("unfulfilled-requirement")
    line = TEMPLATE.splitlines().index("          auth: {password: secret, trait: 1}") + 1
    assert f"seed.yaml:{line}:36" in view
    assert "auth: {password: secret, trait: 1}" in view
    assert '<span class="toskit-caret">^</span>' in view
    # User types highlighted in the tree, normative dimmed; names link to
    # their definitions in the view's "Type definitions" section.
    assert (
        '<li class="toskit-user"><div class="toskit-leaf"><span class="toskit-node-name">'
        '<a class="toskit-type-link" href="#toskit-type-node-BigDatabase">BigDatabase</a><'
    ) in view
    assert (
        '<li class="toskit-normative"><div class="toskit-leaf"><span class="toskit-node-name">tosca.nodes.WebServer<'
        in view
    )
    for name in ("my_db_service", "other", "db_ip"):
        assert name in view


def test_a_source_keeps_its_colour_across_node_tables(st):
    def colour(html: str, source: str) -> set[str]:
        pattern = r'<span class="toskit-src (toskit-src-[\w-]+)">' + re.escape(source) + "</span>"
        return set(re.findall(pattern, body(html)))

    # Alone, 'other' gives its first default the first palette colour; inside
    # the template view that colour already went to my_db_service's default.
    assert colour(to_html(st.node_templates["other"]), "default: DatabaseService") == {
        "toskit-src-0"
    }
    assert colour(st._repr_html_(), "default: BigDatabase") == {"toskit-src-0"}
    assert colour(st._repr_html_(), "default: DatabaseService") == {"toskit-src-1"}


def test_type_view_has_breadcrumb_and_defined_in(st):
    html = to_html(st.types["BigDatabase"])
    assert_safe(html)
    crumbs = re.search(r'<div class="toskit-crumbs">(.*?)</div>', html).group(1)
    assert (
        "".join(parse(crumbs).text)
        == "tosca.nodes.Root→tosca.nodes.SoftwareComponent→tosca.nodes.DBMS→DatabaseService→BigDatabase"
    )
    # A property's description is under its name, in the same cell: key by the name.
    described = {p: d.description or "" for p, d in st.types["BigDatabase"].properties.items()}
    rows = {}
    for r in _rows(html)[1:]:
        name = next(n for n in described if r[0] in (n + described[n], n + "●" + described[n]))
        rows[name + ("●" if r[0].startswith(name + "●") else "")] = [
            r[0].removesuffix(described[name]),
            *r[1:],
        ]
    assert rows["connection●"][5] == "BigDatabase"  # own property, marked
    assert rows["port"][5] == "tosca.nodes.DBMS"
    assert rows["port"][2] == "optional"
    assert "●" not in rows["port"][0]


def test_node_template_table_shows_value_type_and_exact_source(st):
    rows = _rows(to_html(st.node_templates["my_db_service"]))
    assert rows[0] == ["path", "value", "type", "source", "status"]
    assert ["connection.endpoint.ip", "10.0.0.5", "string", "input: db_ip", "ok"] in rows
    assert ["connection.endpoint.port", "2244", "integer", "template", "ok"] in rows
    assert ["connection.auth.username", "root", "string", "default: BigDatabase", "ok"] in rows


def test_overridden_values_are_struck_through_nearest_first(st):
    table = st.node_templates["my_db_service"].property_table(show_overridden=True)
    html = to_html(table)
    rows = _rows(html)
    at = rows.index(["connection.endpoint.port", "2244", "integer", "template", "ok"])
    assert rows[at + 1] == ["connection.endpoint.port", "5432", "", "default: DatabaseService", ""]
    assert rows[at + 2] == [
        "connection.endpoint.port",
        "2233",
        "",
        "default: my.datatypes.Endpoint",
        "",
    ]
    assert body(html).count('<tr class="toskit-overridden">') == 3
    legend = re.search(r'<div class="toskit-legend">(.*?)</div>', html).group(1)
    assert "".join(parse(legend).text).startswith(
        "sources:input: db_iptemplatedefault: DatabaseService"
    )


def test_property_definition_view(st):
    html = to_html(st.types["my.datatypes.Endpoint"].properties["port"])
    assert_safe(html)
    assert ["default", "2233"] in _rows(html)


def test_report_page_lists_every_node_in_full(st):
    page = render_page(st)
    assert_safe(page)
    listed = [
        n
        for n in ("my_db_service", "other")
        if f'<span class="toskit-node-name">{n}</span>' in page
    ]
    assert listed == ["my_db_service", "other"]
    assert page.count('<span class="toskit-kind">node template</span>') == 0  # summaries name them
    assert "connection.auth.password" in page and "1.1.1.1" in page
    with toskit.options.context(display_max_rows=1):
        assert "more rows" not in render_page(st)
    assert 'class="toskit-page toskit-page-dark"' in render_page(st, theme="dark")
    with pytest.raises(toskit.ToskitError, match="theme"):
        render_page(st, theme="blue")


def test_report_page_can_be_bounded(st):
    page = render_page(st, max_nodes=1, max_rows=2)
    assert '<span class="toskit-node-name">my_db_service</span>' in page
    assert '<span class="toskit-node-name">other</span>' not in page
    assert "… 1 more node template" in page
    assert "more rows" in page


def test_widgets_on_a_real_template(st):
    tree = TypeTree(st)
    explorer = PropertyExplorer(st).link(tree)
    assert explorer.node == "my_db_service"
    tree.select("DatabaseService")  # both nodes derive from it: keep the current one
    assert explorer.node == "my_db_service"
    assert "2 node templates" in explorer.html
    explorer._dropdown.value = "other"
    assert "1.1.1.1" in body(explorer.html)
    tree.select("my.datatypes.Auth")
    html = explorer.html
    assert "0 node templates" in html and "username" in body(html)
    assert_safe(html)


HOSTILE_TEMPLATE = """\
tosca_definitions_version: tosca_simple_yaml_1_3
description: {p}
data_types:
  {p}:
    derived_from: tosca.datatypes.Root
    description: {p}
    properties:
      {p}: {{type: string, default: {p}, description: {p}}}
node_types:
  {p_node}:
    derived_from: tosca.nodes.Root
    description: {p}
    properties:
      data: {{type: {p}}}
      free: {{type: map, required: false}}
topology_template:
  inputs:
    {p_in}: {{type: string, default: {p}}}
  node_templates:
    {p_n}:
      type: {p_node}
      properties:
        free: {{{p_k}: {p}}}
        {p_bad}: {p}
"""


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


@pytest.fixture(scope="module")
def hostile():
    names = {
        f"p{suffix}": _quoted(PAYLOAD + suffix.lstrip("_"))
        for suffix in ("", "_node", "_in", "_n", "_k", "_bad")
    }
    return toskit.loads(HOSTILE_TEMPLATE.format(**names), name=PAYLOAD)


def test_hostile_template_renders_as_text(hostile):
    node = next(iter(hostile.node_templates.values()))
    assert_payload_is_text(hostile._repr_html_())
    assert_payload_is_text(to_html(node))
    assert_payload_is_text(to_html(node.property_table()))
    assert_payload_is_text(to_html(hostile.types[PAYLOAD]))
    assert_payload_is_text(to_html(hostile.diagnostics))
    page = render_page(hostile)
    doc = assert_safe(page)
    for piece in HOSTILE:
        assert piece in "".join(doc.text)
    tree = TypeTree(hostile)
    tree.select(PAYLOAD)
    assert_payload_is_text(PropertyExplorer(hostile).link(tree).html)


ENTITIES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: {num_cpus: 2, mem_size: 2 GB}
    db:
      type: tosca.nodes.DBMS
      properties: {port: 3306}
      requirements:
        - host: server
  groups:
    g: {type: tosca.groups.Root, members: [server, db]}
"""


def _text(html: str) -> str:
    return " ".join(t.strip() for t in parse(body(html)).text if t.strip())


@pytest.fixture(scope="module")
def entities():
    return toskit.loads(ENTITIES, name="entities.yaml")


def test_node_view_lists_requirements_with_their_targets(entities):
    text = _text(to_html(entities.node_templates["db"]))
    assert "Requirements 1 requirement target capability relationship host server" in text


def test_node_view_lists_capabilities_with_their_properties(entities):
    html = to_html(entities.node_templates["server"])
    assert_safe(html)
    text = _text(html)
    assert "Capabilities" in text
    assert (
        "host tosca.capabilities.Compute path value type source status num_cpus 2 integer template ok"
        in text
    )


def test_group_view_uses_the_entity_view_with_members(entities):
    text = _text(to_html(entities.groups["g"]))
    assert text.startswith("group template g tosca.groups.Root members server db")


def test_node_diagnostics_find_dotted_node_names():
    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "topology_template:\n  node_templates:\n"
        "    web.frontend:\n      type: tosca.nodes.Root\n      properties: {nope: 1}\n"
        "    web:\n      type: tosca.nodes.Root\n",
        name="dots.yaml",
    )
    assert any(d.code == "unknown-property" for d in st.diagnostics)
    from toskit.display.tosca_views import node_diagnostics

    grouped = node_diagnostics(st)
    assert [d.code for d in grouped["web.frontend"]] == ["unknown-property"]
    assert "web" not in grouped
