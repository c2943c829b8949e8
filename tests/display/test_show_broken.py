"""``toskit show`` of a file that does not parse writes the page ``toskit.load`` would show (#37 item 1)."""

import re

import pytest

import toskit
from toskit import cli
from toskit.display import render_page
from toskit.display.links import links_from

BROKEN = {
    # an unclosed flow mapping in a TOSCA template
    "flow": "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates: [a, {b\n",
    # a bad indentation in what would be a roles document
    "indent": "roles_metadata:\n  controller:\n    name: x\n   bad: y\n",
    # a tab where YAML wants spaces, in a schema-looking file
    "tab": "types:\n\t- name: root\n",
    # an unclosed quote on a long line
    "quote": 'metadata:\n  note: "' + "x" * 5000 + "\n",
    # a duplicate anchor use of an undefined alias
    "alias": "a: *nowhere\n",
}


def _body(page: str) -> str:
    """The page without its stylesheet and generator line (made with the same version)."""
    return re.sub(r"<style>.*?</style>", "", page, flags=re.S)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_show_writes_the_parse_errors_page_and_exits_1(name, tmp_path, capsys):
    path = tmp_path / f"{name}.yaml"
    path.write_text(BROKEN[name])
    status = cli.main(["show", str(path), "-o", str(tmp_path / "r.html")])
    err = capsys.readouterr().err
    assert status == 1, err
    assert "wrote" in err and "does not parse" in err
    page = (tmp_path / "r.html").read_text()
    # the same page as the notebook's template view of toskit.load(...) gives
    with links_from(tmp_path):  # show's links are relative to the page's folder
        expected = render_page(toskit.load(str(path)))
    assert _body(page) == _body(expected)
    assert f'href="{name}.yaml#line=' in page  # its location opens the file
    # the parse error is listed, with its code and its location
    assert "yaml-syntax" in page or "yaml-" in page
    assert f"{path}:" in page
    # with a source window (the line-number gutter of the excerpt)
    assert "│" in page


def test_show_of_a_broken_file_api_status(tmp_path):
    path = tmp_path / "b.yaml"
    path.write_text("a: [1,\n")
    page, status = cli.render_document_status(str(path))
    assert status == 1 and "yaml-syntax" in page
    # render_document (the older name) still gives the page
    assert cli.render_document(str(path)) == page


def test_show_of_a_valid_file_still_exits_0(tmp_path, capsys):
    path = tmp_path / "ok.yaml"
    path.write_text("tosca_definitions_version: tosca_simple_yaml_1_3\n")
    status = cli.main(["show", str(path)])
    assert status == 0, capsys.readouterr().err
    assert (tmp_path / "ok.html").exists()
