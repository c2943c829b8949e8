"""A `toskit show` report is navigable without a kernel: every type name in
its tree and tables links to an anchor holding that type's property table
(issue #18 item 4). So is a service template's notebook view (its own
"Type definitions" section), and a type's view carries the same anchor."""

from __future__ import annotations

import re

from htmlcheck import assert_safe, plain_links
from test_validity import MISTAKES

import toskit
from toskit.display import render_page, to_html


def test_every_link_has_its_anchor_and_every_user_type_has_one():
    st = toskit.loads(MISTAKES, name="mistakes.yaml")
    page = render_page(st)
    assert_safe(page)
    page = plain_links(page)
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # unique
    hrefs = set(re.findall(r'href="#([^"]+)"', page))
    assert hrefs and hrefs <= set(ids)
    for name in (
        "acme.datatypes.TlsEndpoint",
        "acme.datatypes.Endpoint",
        "acme.datatypes.Base",
        "acme.nodes.Web",
    ):
        anchor = f"toskit-type-{'data' if 'datatypes' in name else 'node'}-{name}"
        assert anchor in ids
        assert f'<a class="toskit-type-link" href="#{anchor}">{name}</a>' in page
    # A data type's definition (its properties, with constraints) is on the page.
    at = page.index('id="toskit-type-data-acme.datatypes.Endpoint"')
    section = page[at : page.index('<div class="toskit-type-def"', at + 10)]
    assert "in_range [1, 65535]" in section and "secret_ref" not in section
    # The node type's table links the data type of its property, so the data
    # type's fields are one click away from the node template.
    at = page.index('id="toskit-type-node-acme.nodes.Web"')
    web = page[at : page.index('<div class="toskit-type-def"', at + 10)]
    assert (
        '<td class="toskit-type"><a class="toskit-type-link" href="#toskit-type-data-acme.datatypes.TlsEndpoint">'
        in web
    )


def test_links_are_never_inside_a_summary():
    page = render_page(toskit.loads(MISTAKES))
    for summary in re.findall(r"<summary>(.*?)</summary>", page, flags=re.S):
        assert "<a " not in summary  # a control inside a control (axe: nested-interactive)


def test_service_template_view_links_to_its_own_type_definitions():
    """In a notebook, with no kernel and no JavaScript: every type name in the
    view's tree and node tables that has a definition in the view is a link
    to it, every link lands in the same output, no link sits in a summary."""
    st = toskit.loads(MISTAKES, name="mistakes.yaml")
    html = st._repr_html_()
    assert_safe(html)
    html = plain_links(html)
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    hrefs = re.findall(r'href="#([^"]+)"', html)
    assert hrefs and set(hrefs) <= set(ids)  # never a link to nothing
    for summary in re.findall(r"<summary>(.*?)</summary>", html, flags=re.S):
        assert "<a " not in summary
    endpoint = '<a class="toskit-type-link" href="#toskit-type-data-acme.datatypes.TlsEndpoint">acme.datatypes.TlsEndpoint</a>'
    tree = html[html.index("<summary>Types") : html.index("<summary>Node templates")]
    assert endpoint in tree
    nodes = html[html.index("<summary>Node templates") : html.index("<summary>Type definitions")]
    assert (
        '<a class="toskit-type-link" href="#toskit-type-node-acme.nodes.Web">acme.nodes.Web</a>'
        in nodes
    )
    definitions = html[html.index("<summary>Type definitions") :]
    web = definitions[definitions.index('id="toskit-type-node-acme.nodes.Web"') :]
    assert f'<td class="toskit-type">{endpoint}</td>' in web  # its endpoint property, one click on
    at = definitions.index('id="toskit-type-data-acme.datatypes.Endpoint"')
    assert "in_range [1, 65535]" in definitions[at:]
    # The unknown type of node 'worker' is text: it has no definition to go to.
    assert "acme.nodes.Wbe" in html and 'href="#toskit-type-node-acme.nodes.Wbe"' not in html


def test_a_type_view_carries_the_anchor_links_point_to():
    st = toskit.loads(MISTAKES)
    html = to_html(st.types["acme.datatypes.Endpoint"])
    assert 'id="toskit-type-data-acme.datatypes.Endpoint"' in html
    assert "href=" not in html  # its section is the only one in it: no link to nothing
    assert "href=" not in to_html(st.node_templates["db"])
