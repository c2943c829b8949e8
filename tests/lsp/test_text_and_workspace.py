"""The pygls-free parts of ``toskit lsp``: positions, the cursor's place, the workspace."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toskit.cli import check_file
from toskit.lsp import features
from toskit.lsp.text import cursor_at, from_lsp, split_lines, to_lsp
from toskit.lsp.workspace import Workspace, name_to_uri, uri_to_name

REPO = Path(__file__).parents[2]
EXAMPLE = REPO / "notebooks" / "examples" / "service.yaml"


@pytest.mark.parametrize(
    ("encoding", "character"),
    [("utf-16", 7), ("utf-8", 10), ("utf-32", 6)],  # 'x: "😀é' before the cursor
)
def test_positions_round_trip_in_each_encoding(encoding: str, character: int):
    lines = split_lines('x: "😀éa"\n')
    # toskit's column 7 (1-based, code points) is just after 'é'.
    assert to_lsp(lines, 1, 7, encoding) == (0, character)
    assert from_lsp(lines, 0, character, encoding) == (0, 6)


def test_positions_are_clamped_never_an_error():
    lines = split_lines("ab\ncd")
    assert to_lsp(lines, 99, 99) == (1, 2)
    assert to_lsp(lines, None, None) == (0, 0)
    assert from_lsp(lines, 99, 99) == (1, 2)
    assert from_lsp(lines, -5, -5) == (0, 0)
    assert to_lsp([], 3, 3) == (0, 0)


CURSOR_TEXT = """\
topology_template:
  node_templates:
    web:
      requirements:
        - host: db
        - database:
            node: db
      other:
      - a: 1
      - b: {c: {d: 2}}
    db:
      \n"""


@pytest.mark.parametrize(
    ("line", "column", "path", "key", "on_key"),
    [
        (4, 17, ("topology_template", "node_templates", "web", "requirements", 0), "host", False),
        (4, 11, ("topology_template", "node_templates", "web", "requirements", 0), "host", True),
        (
            6,
            18,
            ("topology_template", "node_templates", "web", "requirements", 1, "database"),
            "node",
            False,
        ),
        (
            9,
            9,
            ("topology_template", "node_templates", "web", "other", 1),
            "b",
            True,
        ),  # indentless list
        (9, 16, ("topology_template", "node_templates", "web", "other", 1, "b", "c"), "d", True),
        (9, 19, ("topology_template", "node_templates", "web", "other", 1, "b", "c"), "d", False),
        (11, 6, ("topology_template", "node_templates", "db"), None, False),  # a blank line
        (0, 3, (), "topology_template", True),
    ],
)
def test_cursor_place(line, column, path, key, on_key):
    cursor = cursor_at(CURSOR_TEXT, line, column)
    assert (cursor.path, cursor.key, cursor.on_key) == (path, key, on_key)


def test_uris_and_names():
    assert uri_to_name(name_to_uri("/a b/x.yaml")) == "/a b/x.yaml"
    member = "/w/app.csar!/Definitions/x y.yaml"
    assert name_to_uri(member) == "zip:file:///w/app.csar!/Definitions/x%20y.yaml"
    assert uri_to_name(name_to_uri(member)) == member


def test_same_findings_as_check_and_imports_parsed_once(tmp_path: Path):
    (tmp_path / "types.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.T:\n"
        "    derived_from: tosca.nodes.Root\n    properties: {size: {type: integer}}\n"
    )
    main = tmp_path / "main.yaml"
    text = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [types.yaml]\n"
        "topology_template:\n  node_templates:\n    a: {type: my.T, properties: {size: big, colour: red}}\n"
    )
    main.write_text(text)
    ws = Workspace()
    uri = main.as_uri()
    ws.open(uri, text, 1)
    first = ws.analysis(uri)
    _, expected = check_file(str(main))
    assert [(d.code, d.message, d.line, d.column) for d in first.diagnostics] == [
        (d.code, d.message, d.line, d.column) for d in expected
    ]
    for version in range(2, 12):
        ws.change(uri, text.replace("big", f"big{version}"), version)
        assert [d.code for d in ws.analysis(uri).diagnostics] == [d.code for d in expected]
    assert ws.loads == 11
    assert ws.parses == 1  # types.yaml, parsed once for the eleven analyses
    # The file changes on disk: parsed again, once.
    (tmp_path / "types.yaml").write_text(
        (tmp_path / "types.yaml").read_text() + "# edited, longer\n"
    )
    ws.change(uri, text, 12)
    ws.analysis(uri)
    ws.change(uri, text, 13)
    ws.analysis(uri)
    assert ws.parses == 2
    # Asking again for the same version does not analyse again.
    ws.analysis(uri)
    assert ws.loads == 13


def test_the_open_text_of_an_import_is_what_is_read(tmp_path: Path):
    types = tmp_path / "types.yaml"
    types.write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.T: {derived_from: tosca.nodes.Root}\n"
    )
    text = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [types.yaml]\ntopology_template:\n  node_templates:\n    a: {type: my.U}\n"
    ws = Workspace()
    uri = (tmp_path / "main.yaml").as_uri()
    ws.open(uri, text, 1)
    assert [d.code for d in ws.analysis(uri).diagnostics] == ["unknown-type"]
    # Not saved: only open in the editor, with my.U defined.
    ws.open(types.as_uri(), types.read_text().replace("my.T", "my.U"), 1)
    assert ws.affected(types.as_uri()) == [types.as_uri(), uri]
    assert ws.analysis(uri).diagnostics == []
    ws.close(types.as_uri())
    assert [d.code for d in ws.analysis(uri).diagnostics] == ["unknown-type"]


def test_features_on_text_that_does_not_parse():
    ws = Workspace()
    uri = name_to_uri(str(EXAMPLE))
    ws.open(
        uri, EXAMPLE.read_text().replace("auth: {pasword: secret}", "auth: {pasword: secret"), 1
    )
    analysis = ws.analysis(uri)
    assert [d.code for d in analysis.diagnostics] == ["yaml-syntax"]
    assert features.hover(analysis, 28, 22) is None
    assert features.completions(analysis, 28, 10) == []
    assert features.symbols(analysis) == []
    assert features.definition(analysis, 25, 14) == []


def test_the_server_module_is_not_loaded_by_check():
    import subprocess

    code = "import sys, toskit.cli; toskit.cli.main(['check', '-q', sys.argv[1]]); print('pygls' in sys.modules, 'toskit.lsp.server' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code, str(EXAMPLE)], capture_output=True, text=True, check=False
    )
    assert out.stdout.strip().splitlines()[-1] == "False False"


def test_without_pygls_the_command_says_which_extra_to_install():
    import subprocess

    code = "import sys; sys.modules['pygls'] = None; from toskit.cli import main; sys.exit(main(['lsp']))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 2
    assert "pip install 'toskit[lsp]'" in out.stderr


CALLS = """\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.WebServer
      attributes:
        # a new attribute here
    other:
      type: tosca.nodes.SoftwareComponent
      properties:
        component_version: {get_attribute: [app, state]}
      requirements:
        - \n"""


def test_hover_on_a_call_that_stays_unevaluated_and_requirement_names():
    ws = Workspace()
    ws.open("file:///nowhere/calls.yaml", CALLS, 1)
    analysis = ws.analysis("file:///nowhere/calls.yaml")
    text, _ = features.hover(analysis, 10, 12)
    assert "stays unevaluated: it reads runtime state" in text
    assert "get_attribute" in text and "set by **template**" in text
    # A new item under requirements: the type's requirement names.
    assert {c.label for c in features.completions(analysis, 12, 10)} == {"dependency", "host"}
    # Under attributes: the type chain's attribute names (tosca.nodes.Root's).
    assert {c.label for c in features.completions(analysis, 6, 8)} >= {
        "state",
        "tosca_id",
        "tosca_name",
    }
