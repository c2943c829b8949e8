"""A `toskit show` report is navigable without a kernel: every type name in
its tree and tables links to an anchor holding that type's property table
(issue #18 item 4). Notebook fragments keep no ids and no links."""

from __future__ import annotations

import re

from htmlcheck import assert_safe
from test_validity import MISTAKES

import toskit
from toskit.display import render_page, to_html


def test_every_link_has_its_anchor_and_every_user_type_has_one():
    st = toskit.loads(MISTAKES, name="mistakes.yaml")
    page = render_page(st)
    assert_safe(page)
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))  # unique
    hrefs = set(re.findall(r'href="#([^"]+)"', page))
    assert hrefs and hrefs <= set(ids)
    for name in ("acme.datatypes.TlsEndpoint", "acme.datatypes.Endpoint", "acme.datatypes.Base", "acme.nodes.Web"):
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
    assert '<td class="toskit-type"><a class="toskit-type-link" href="#toskit-type-data-acme.datatypes.TlsEndpoint">' in web


def test_links_are_never_inside_a_summary():
    page = render_page(toskit.loads(MISTAKES))
    for summary in re.findall(r"<summary>(.*?)</summary>", page, flags=re.S):
        assert "<a " not in summary  # a control inside a control (axe: nested-interactive)


def test_fragments_have_no_ids_or_links():
    st = toskit.loads(MISTAKES)
    for html in (st._repr_html_(), to_html(st.node_templates["db"]), to_html(st.types["acme.nodes.Web"])):
        assert " id=" not in html and "href=" not in html
