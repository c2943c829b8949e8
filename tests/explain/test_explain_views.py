"""Issue #32 in the views: the explorer's rows expand to their layer stack; the Explanation's view."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import toskit
from toskit.display import to_html
from toskit.display.tosca_views import property_table_body

# The display tests' structural checks (one stylesheet, no script, known tags).
sys.path.insert(0, str(Path(__file__).parent.parent / "display"))
from htmlcheck import assert_safe, parse  # noqa: E402

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def st() -> toskit.ServiceTemplate:
    return toskit.load(DATA / "service2.yaml", inputs={"region": "eu"})


def _stack_texts(html: str) -> list[str]:
    return [
        "".join(parse(m).text)
        for m in re.findall(r'<tr class="toskit-stack-row">(.*?)</tr>', html, flags=re.S)
    ]


def test_property_rows_expand_to_their_layer_stack(st):
    table = st.node_templates["db"].property_table(show_overridden=True)
    html = property_table_body(table, stacks=True)
    stacks = _stack_texts(html)
    assert len(stacks) == len(table.rows)  # one expandable line per value row
    port = next(t for t in stacks if "8443" in t and "default: Derived" in t)
    assert "3 layers" in port
    assert re.search(r"80\s*default: Endpoint\s*\S*types2\.yaml:7", port)
    assert re.search(r"8443\s*default: Derived\s*\S*service2\.yaml:40", port)
    # without show_overridden: the winner alone, still located
    plain = _stack_texts(property_table_body(st.node_templates["db"].property_table(), stacks=True))
    assert any("1 layer:" in t and "service2.yaml:59" in t for t in plain)
    # off by default: the other views are unchanged
    assert "toskit-stack-row" not in property_table_body(table)


def test_explorer_shows_the_stacks(st):
    widgets = pytest.importorskip("toskit.widgets")
    html = widgets.PropertyExplorer(st, node="db").html
    assert_safe(html)
    assert any("types2.yaml:12" in t for t in _stack_texts(html))


def test_explanation_view_is_safe_and_complete(st):
    e = st.explain("node_templates.web.properties.endpoint.port")
    html = to_html(e)
    doc = assert_safe(html)
    text = "".join(doc.text)
    assert "web.endpoint.port" in text and "function hops" in text
    assert "node proxy, property copy_of_port" in text and "input app_port" in text
    assert "types2.yaml:7" in text and "won" in text
    checks = to_html(st.explain("node_templates.db.properties.size"))
    assert "violated" in "".join(assert_safe(checks).text)


def test_explanation_view_locations_are_links(st, monkeypatch):
    # run from the files' folder (a notebook's working directory): each layer's
    # and each hop's file:line opens the file at that line (#35 item 4's helper)
    monkeypatch.chdir(DATA)
    e = st.explain("node_templates.web.properties.endpoint.port")
    html = to_html(e)
    assert_safe(html)
    links = re.findall(r'<a class="toskit-file-link" href="([^"]+)"[^>]*>([^<]+)</a>', html)
    texts = {text for _, text in links}
    for layer in e.stack:  # every layer of the stack
        assert layer.source.where in texts
    assert {f"{DATA / 'service2.yaml'}:{n}" for n in (70, 76)} <= texts  # the hops' targets
    for href, text in links:
        name, line = text.rsplit(":", 1)
        # relative to the working directory; JupyterLab counts lines from 0
        assert href == f"{Path(name).relative_to(DATA)}#line={int(line) - 1}"
