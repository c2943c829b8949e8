"""A way out of the views (issue #35 item 4, #32 item 4): ``file:line`` is a
link that opens the file at that line, type links open the collapsed
section they point into, ``toskit show`` carries the template's
description and its unresolved requirements as problem rows, counts agree
with their nouns, and a property's dotted path selects whole."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from htmlcheck import assert_safe, body, parse, plain_links

import toskit
from toskit import cli
from toskit.compare import compare
from toskit.display import render_page, to_html
from toskit.display.html import SECTION_LINK_ONCLICK, css, esc, more_note
from toskit.display.links import (
    FILE_LINK_ONCLICK,
    file_href,
    file_link,
    links_from,
    location_link,
)
from toskit.display.words import agree

TEMPLATE = textwrap.dedent(
    """\
    tosca_definitions_version: tosca_simple_yaml_1_3
    description: A <b>shop</b> & its "database"
    data_types:
      acme.Endpoint:
        derived_from: tosca.datatypes.Root
        properties:
          port: {type: integer, default: 5432}
    node_types:
      acme.Db:
        derived_from: tosca.nodes.Root
        properties:
          endpoint: {type: acme.Endpoint}
          name: {type: string}
    topology_template:
      node_templates:
        db:
          type: acme.Db
          properties:
            name: 7
            nmae: orders
        app:
          type: tosca.nodes.SoftwareComponent
          requirements:
            - host: nosuch
            - dependency: {capability: tosca.capabilities.Storage}
    """
)
LINK = re.compile(
    r'<a class="toskit-file-link" href="([^"]*)" title="[^"]*" onclick="[^"]*">([^<]*)</a>'
)


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> toskit.ServiceTemplate:
    """The template written to ``models/shop.yaml`` under a notebook's folder (the cwd)."""
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "shop.yaml").write_text(TEMPLATE)
    monkeypatch.chdir(tmp_path)
    return toskit.load("models/shop.yaml")


def _line(text: str) -> int:
    """The 1-based line of the template that reads ``text`` (indentation aside)."""
    return [line.strip() for line in TEMPLATE.splitlines()].index(text.strip()) + 1


# ---------------------------------------------------------------- the helper


def test_a_file_under_the_working_directory_links_to_its_line(shop):
    # JupyterLab's file editor reads "#line=N" counted from 0 (RFC 5147)
    assert file_href("models/shop.yaml", 12) == "models/shop.yaml#line=11"
    assert file_href("models/shop.yaml") == "models/shop.yaml"
    html = file_link("models/shop.yaml", 12, 3)
    assert LINK.fullmatch(html).groups() == ("models/shop.yaml#line=11", "models/shop.yaml:12:3")
    assert 'title="open models/shop.yaml at line 12"' in html
    # an absolute name of a file under the folder is made relative
    assert file_href(str(Path("models/shop.yaml").resolve()), 1) == "models/shop.yaml#line=0"
    # "file:line:column" texts (Origin.where(), a comparison's locations)
    assert LINK.fullmatch(location_link("models/shop.yaml:5:2")).group(1) == (
        "models/shop.yaml#line=4"
    )
    assert LINK.fullmatch(location_link("models/shop.yaml:5")).group(2) == "models/shop.yaml:5"


def test_a_file_link_inside_a_live_widget_does_not_reload_jupyterlab(shop):
    """JupyterLab takes over a rendered output's links (href rewritten to its
    /files/ URL); a live widget's HTML is not one, and following the relative
    href there would reload the page: the constant handler stops that."""
    html = file_link("models/shop.yaml", 3)
    assert f'onclick="{esc(FILE_LINK_ONCLICK)}"' in html
    for part in ("document.querySelector('.jp-LabShell')", "indexOf('/files/')<0", "return false"):
        assert part in FILE_LINK_ONCLICK
    assert "onclick" not in file_link("models/missing.yaml", 3)  # text, no handler


def test_no_link_to_nothing_nor_out_of_the_folder_nor_a_scheme(shop, tmp_path):
    outside = tmp_path.parent / "elsewhere.yaml"
    outside.write_text("a: 1\n")
    for name in (
        "models/missing.yaml",  # does not exist
        str(outside),  # out of the notebook's folder: JupyterLab may not reach it
        "../elsewhere.yaml",
        "<string>",
        "zip:models/shop.csar!/x.yaml",
        "javascript:alert(1)",
        "https://example.org/x.yaml",
        "",
        None,
    ):
        assert file_href(name, 3) is None, name
        assert "<a " not in file_link(name, 3)
    assert file_link("<string>", 3) == "&lt;string&gt;:3"
    assert location_link("?") == "?" and location_link(None) == ""


def test_hostile_names_are_escaped_and_never_a_scheme(shop):
    # a file that exists but whose name reads as a scheme gets no link
    Path("javascript:alert(1).yaml").write_text("a: 1\n")
    assert file_href("javascript:alert(1).yaml", 2) is None
    # one letter is a drive, not a scheme: linked, and percent-encoded (a ':'
    # too), so the href never starts a scheme
    Path("x:alert(1).yaml").write_text("a: 1\n")
    assert file_href("x:alert(1).yaml", 2) == "x%3Aalert%281%29.yaml#line=1"
    Path("dir").mkdir()
    Path("dir/j:s.yaml").write_text("a: 1\n")
    assert file_href("dir/j:s.yaml", 2) == "dir/j%3As.yaml#line=1"
    name = 'it\'s "<b>".yaml'
    Path(name).write_text("a: 1\n")
    assert file_href(name, 2) == "it%27s%20%22%3Cb%3E%22.yaml#line=1"
    html = file_link(name, 2)
    doc = assert_safe(f'<div class="toskit-root"><style>{css()}</style>{html}</div>')
    assert "".join(doc.text) == f"{name}:2"
    assert "<b>" not in html


def test_a_page_links_relative_to_its_folder(shop, tmp_path):
    with links_from(tmp_path / "site" / "report"):
        assert file_href("models/shop.yaml", 2) == "../../models/shop.yaml#line=1"
        outside = tmp_path.parent / "elsewhere2.yaml"
        outside.write_text("a: 1\n")
        assert file_href(str(outside), 1) == "../../../elsewhere2.yaml#line=0"
    assert file_href(str(outside), 1) is None  # back to the notebook's rule


# ---------------------------------------------------------------- the views


def test_diagnostics_and_requirement_problems_link_their_lines(shop):
    html = to_html(shop)
    assert_safe(html)
    links = dict((text, href) for href, text in LINK.findall(html))
    line = _line("        name: 7")
    assert any(
        text.startswith(f"models/shop.yaml:{line}:") and href == f"models/shop.yaml#line={line - 1}"
        for text, href in links.items()
    ), links
    # the diagnostics list of the template: each location a link
    diags = to_html(shop.diagnostics)
    assert len(LINK.findall(diags)) == len(shop.diagnostics)


def test_a_property_rows_problem_links_its_location_beside_the_summary(shop):
    html = to_html(shop.node_templates["db"])
    problem = next(
        r
        for r in re.findall(r'<tr class="toskit-problem-row[^"]*">(.*?)</tr>', html, flags=re.S)
        if "expected string" in r
    )
    line = _line("        name: 7")
    link = f'href="models/shop.yaml#line={line - 1}"'
    # beside the <details>, not in its <summary> (no control inside a control)
    assert link in problem.split("</details>")[-1]
    for summary in re.findall(r"<summary>(.*?)</summary>", html, flags=re.S):
        assert "<a " not in summary


def test_explain_layers_link_where_each_value_was_written(shop):
    html = to_html(shop.explain("node_templates.db.properties.endpoint.port"))
    assert_safe(html)
    hrefs = [href for href, _ in LINK.findall(html)]
    line = _line("          port: {type: integer, default: 5432}")
    assert f"models/shop.yaml#line={line - 1}" in hrefs
    # the layer stack under an expanded property row of the explorer's table
    from toskit.display.explain_view import stack_cell

    row = next(
        r
        for r in shop.node_templates["db"].property_table(show_overridden=True).rows
        if r.path == "endpoint.port"
    )
    assert f'href="models/shop.yaml#line={line - 1}"' in stack_cell(row)


def test_user_types_say_where_they_are_written(shop):
    html = to_html(shop.types["acme.Db"])
    line = _line("  acme.Db:")
    expected = (f"models/shop.yaml#line={line - 1}", f"models/shop.yaml:{line}:3")
    assert expected in LINK.findall(html)
    assert "written at" in html
    # a normative type is defined by the profiles toskit ships: no location
    assert "written at" not in to_html(shop.types["tosca.nodes.Root"])


def test_compare_view_links_both_sides(shop):
    v2 = TEMPLATE.replace("default: 5432", "default: 6432").replace("name: 7", "name: x")
    Path("models/shop2.yaml").write_text(v2)
    diff = compare(shop, toskit.load("models/shop2.yaml"))
    html = to_html(diff)
    hrefs = {href.split("#")[0] for href, _ in LINK.findall(html)}
    assert {"models/shop.yaml", "models/shop2.yaml"} <= hrefs
    # the fixed finding's row: its location is a link to the old file's line
    fixed = next(r for r in re.findall(r"<tr>(.*?)</tr>", html) if "type-mismatch" in r)
    line = _line("        name: 7")
    assert f'href="models/shop.yaml#line={line - 1}"' in fixed


def test_show_links_relative_to_the_page_and_has_the_description(shop, tmp_path, capsys):
    out = tmp_path / "site" / "shop.html"
    out.parent.mkdir()
    assert cli.main(["show", "models/shop.yaml", "-o", str(out)]) == 0
    page = out.read_text()
    assert_safe(page)
    line = _line("        name: 7")
    assert f'href="../models/shop.yaml#line={line - 1}"' in page
    # the description, escaped, under the header
    assert (
        '<div class="toskit-desc">A &lt;b&gt;shop&lt;/b&gt; &amp; its &quot;database&quot;</div>'
        in page
    )
    head = page[: page.index("<summary>Diagnostics")]
    assert "toskit-desc" in head


def test_diff_page_links_relative_to_the_page(shop, tmp_path, capsys):
    v2 = TEMPLATE.replace("default: 5432", "default: 6432").replace("name: 7", "name: x")
    Path("models/shop2.yaml").write_text(v2)
    out = tmp_path / "site" / "review.html"
    out.parent.mkdir()
    argv = ["diff", "models/shop.yaml", "models/shop2.yaml", "--format", "html", "-o", str(out)]
    assert cli.main(argv) in (0, 1)
    page = out.read_text()
    assert_safe(page)
    hrefs = {href.split("#")[0] for href, _ in LINK.findall(page)}
    assert {"../models/shop.yaml", "../models/shop2.yaml"} <= hrefs
    # on stdout there is no page folder: links stay relative to the working directory
    assert cli.main(argv[:-2]) in (0, 1)
    assert 'href="models/shop2.yaml#line=' in capsys.readouterr().out


# ---------------------------------------------------------------- unresolved requirements


@pytest.mark.parametrize("view", ["notebook", "report"])
def test_an_unresolved_requirement_is_a_problem_row(shop, view):
    html = to_html(shop) if view == "notebook" else render_page(shop)
    at = html.index('<span class="toskit-node-name">app</span>')
    section = html[at : html.index("</details>", html.index("<summary>Requirements", at))]
    rows = re.findall(r'<tr class="([^"]*)">(.*?)</tr>', section, flags=re.S)
    problems = [(cls, cells) for cls, cells in rows if "toskit-problem-row" in cls]
    assert len(problems) == 2
    failed = [(cls, cells) for cls, cells in rows if cls == "toskit-row-invalid"]
    assert len(failed) == 2 and all("toskit-badge-error" in cells for _, cells in failed)
    host, dependency = (cells for _, cells in problems)
    assert "nosuch" in host and "neither a node template nor a node type" in host
    assert f'href="models/shop.yaml#line={_line("            - host: nosuch") - 1}"' in host
    assert "tosca.capabilities.Storage" in dependency and 'class="toskit-file-link"' in dependency


def test_the_topology_problems_link_their_findings(shop):
    html = to_html(shop.topology())
    table = html[html.index("<summary>Unresolved and ambiguous requirements") :]
    line = _line("- host: nosuch")
    assert f'href="models/shop.yaml#line={line - 1}"' in table
    assert (
        len(re.findall(r'class="toskit-file-link"', table.split("<summary>Requirements")[0])) >= 2
    )


def test_a_resolved_requirement_stays_a_plain_row(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("ok.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n"
        "  node_templates:\n    vm: {type: tosca.nodes.Compute}\n"
        "    app:\n      type: tosca.nodes.SoftwareComponent\n      requirements: [{host: vm}]\n"
    )
    html = body(to_html(toskit.load("ok.yaml")))
    assert "toskit-problem-row" not in html and "unresolved" not in html


# ---------------------------------------------------------------- type links


def test_type_links_open_the_collapsed_section_they_point_into(shop):
    html = to_html(shop)
    assert_safe(html)
    links = re.findall(r'<a class="toskit-type-link" href="#([^"]+)" onclick="([^"]*)">', html)
    assert links and all(handler == esc(SECTION_LINK_ONCLICK) for _, handler in links)
    # the definitions sit in a closed <details>: the reason for the handler
    assert '<details class="toskit-section"><summary>Type definitions' in html
    assert '<details class="toskit-section" open><summary>Type definitions' not in html
    ids = set(re.findall(r' id="([^"]+)"', html))
    assert {anchor for anchor, _ in links} <= ids
    # the handler is a constant: it opens <details> around the target found in
    # the link's own view, scrolls there, and keeps JupyterLab's handler out
    for part in (
        "closest('.toskit-wrap')",
        "d.tagName==='DETAILS')d.open=true",
        "scrollIntoView()",
        "stopImmediatePropagation()",
        # only where JupyterLab took the link over; elsewhere the browser
        # follows it (the address gets the fragment, Back returns)
        "if(this.target!=='_self')return true;",
    ):
        assert part in SECTION_LINK_ONCLICK
    # without the handler (a sanitizer strips it) the plain in-page link stays
    assert '<a class="toskit-type-link" href="#toskit-type-node-acme.Db">acme.Db</a>' in (
        plain_links(html)
    )


def test_hostile_type_names_keep_the_handler_constant():
    hostile = 'acme.x"onmouseover=alert(1)<b>'
    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n"
        f"  '{hostile}':\n    derived_from: tosca.nodes.Root\n"
        f"topology_template:\n  node_templates:\n    n: {{type: '{hostile}'}}\n"
    )
    html = to_html(st)
    doc = assert_safe(html)
    handlers = {v for t, k, v in doc.attributes if k == "onclick"}
    assert SECTION_LINK_ONCLICK in handlers
    assert handlers <= {SECTION_LINK_ONCLICK, FILE_LINK_ONCLICK}


# ---------------------------------------------------------------- words and copy


def test_counts_agree_with_their_nouns():
    assert (
        more_note(1, "more node templates")
        == '<div class="toskit-more">… 1 more node template</div>'
    )
    assert "… 2 more types" in more_note(2, "more types")
    assert agree(1, "more rows (1 of 2 shown)") == "more row (1 of 2 shown)"
    roles = toskit.conditions.load_roles(
        textwrap.dedent(
            """\
            roles_metadata:
              controller:
                name: Controller
            """
        )
    )
    html = to_html(roles)
    assert ">1 role<" in html and "1 roles" not in html


def test_a_property_path_selects_whole_for_copying(shop):
    html = to_html(shop.node_templates["db"])
    assert (
        '<span class="toskit-copy" title="click to select the whole path, then copy it">name</span>'
        in html
    )
    assert re.search(r"\.toskit-copy \{[^}]*user-select: all", css())
    # the misspelt property's row too, beside its suggestion
    assert '<span class="toskit-copy"' in html.split("nmae")[0][-200:]
    assert parse(html)


@pytest.mark.parametrize("view", ["notebook", "report", "diagnostics"])
def test_no_file_link_sits_inside_a_summary(shop, view):
    """A link inside a <summary> is a control inside a control (axe's
    nested-interactive): every file link of a view sits outside them."""
    html = {
        "notebook": lambda: to_html(shop),
        "report": lambda: render_page(shop),
        "diagnostics": lambda: to_html(shop.diagnostics),
    }[view]()
    assert 'class="toskit-file-link"' in html
    for summary in re.findall(r"<summary>(.*?)</summary>", html, flags=re.S):
        assert "<a " not in summary
