"""``toskit lsp`` over stdio, driven by pytest-lsp's client (issue #33, item 5)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from lsp_helpers import EXAMPLE, SERVICE, SERVICE_URI, open_document, pos, published, replace_all
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="function")


async def test_diagnostics_on_open_then_gone_after_the_typo_is_fixed(client: LanguageClient):
    open_document(client, SERVICE_URI, SERVICE)
    found = await published(client, SERVICE_URI, 1)
    # What `toskit check` reports: the missing 'password' and the unknown 'pasword', naming each other.
    assert [(d.code, d.severity) for d in found] == [
        ("missing-property", lsp.DiagnosticSeverity.Error),
        ("unknown-property", lsp.DiagnosticSeverity.Error),
    ]
    missing, typo = found
    # The range is the key 'pasword' (line 30, 0-based 29), as `toskit check` places it.
    assert typo.range == lsp.Range(pos(SERVICE, "pasword"), pos(SERVICE, "pasword", 7))
    assert missing.range == lsp.Range(pos(SERVICE, "auth: {pas"), pos(SERVICE, "auth: {pas", 4))
    assert "did you mean 'password'?" in typo.message
    assert typo.source == "toskit"
    (related,) = typo.related_information
    assert related.location.uri == SERVICE_URI and related.location.range == missing.range
    # An incremental edit: the one-letter fix.
    at = pos(SERVICE, "pasword", 3)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=SERVICE_URI, version=2),
            [lsp.TextDocumentContentChangePartial(range=lsp.Range(at, at), text="s")],
        )
    )
    assert await published(client, SERVICE_URI, 2) == []
    # A new mistake, from unsaved text only (the file on disk is untouched).
    replace_all(
        client, SERVICE_URI, SERVICE.replace("type: DatabaseService", "type: DatabaseServise"), 3
    )
    found = await published(client, SERVICE_URI, 3)
    assert [d.code for d in found] == ["unknown-type"]
    assert EXAMPLE.read_text() == SERVICE


async def test_diagnostics_for_the_other_kinds_check_detects(
    client: LanguageClient, tmp_path: Path
):
    cases = {
        "broken.yaml": ("a: [1, 2\n", "yaml-syntax"),
        "dup.yaml": ("a: 1\na: 2\n", "duplicate-key"),
        "roles.yaml": ("roles_metadata:\n  controller:\n    conflicts: [compute\n", "yaml-syntax"),
        "roles2.yaml": (
            "roles_metadata:\n  controller:\n    name: C\n    restrictions:\n"
            '      - condition: "settings:x.y == true and"\n',
            "expression-syntax",
        ),
        "schema.yaml": (
            "types:\n- name: a\n  map:\n    fields:\n    - name: x\n      type: {namedType: nope}\n",
            "schema-error",
        ),
    }
    for name, (text, code) in cases.items():
        uri = (tmp_path / name).as_uri()
        open_document(client, uri, text)
        found = await published(client, uri, 1)
        assert code in [d.code for d in found], name


async def test_hover_shows_effective_value_layer_and_definition(client: LanguageClient):
    open_document(client, SERVICE_URI, SERVICE)
    await published(client, SERVICE_URI, 1)
    # On the ip value: the effective value, the layer (template) and the definition.
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(SERVICE_URI), pos(SERVICE, "192.168"))
    )
    text = result.contents.value
    assert "connection.endpoint.ip" in text and "192.168.15.85" in text
    assert "set by **template**" in text and "`string`" in text
    # On 'endpoint': its fields, the port coming from the data type's default, with file:line.
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(SERVICE_URI), pos(SERVICE, "endpoint: {ip"))
    )
    text = result.contents.value
    assert "`port` = `2233`" in text
    assert "set by **default: Endpoint** (notebooks/examples/service.yaml:7)" in text
    # On a type name: the derivation chain.
    result = await client.text_document_hover_async(
        lsp.HoverParams(
            lsp.TextDocumentIdentifier(SERVICE_URI), pos(SERVICE, "type: DatabaseService", 8)
        )
    )
    assert "`DatabaseService` → `tosca.nodes.Root`" in result.contents.value
    # On the typo: why it is wrong.
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(SERVICE_URI), pos(SERVICE, "pasword", 2))
    )
    assert "did you mean 'password'?" in result.contents.value


FUNCTIONS = """\
tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    port:
      type: integer
      default: 8080
  node_templates:
    app:
      type: tosca.nodes.WebServer
      properties:
        component_version: {get_input: port}
      attributes:
        x: 1
    other:
      type: tosca.nodes.SoftwareComponent
      properties:
        component_version: {get_property: [app, component_version]}
      requirements:
        - host: app
"""


async def test_hover_on_function_calls_and_inputs(client: LanguageClient, tmp_path: Path):
    uri = (tmp_path / "f.yaml").as_uri()
    open_document(client, uri, FUNCTIONS)
    await published(client, uri, 1)
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), pos(FUNCTIONS, "get_input: port}", 11))
    )
    assert "**input** `port`" in result.contents.value and "8080" in result.contents.value
    result = await client.text_document_hover_async(
        lsp.HoverParams(
            lsp.TextDocumentIdentifier(uri), pos(FUNCTIONS, "component_version: {get_input")
        )
    )
    assert "`8080`" in result.contents.value and "input: port" in result.contents.value


async def test_definition_local_input_node_property_and_imported(
    client: LanguageClient, tmp_path: Path
):
    (tmp_path / "types.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n"
        "  my.Server:\n"
        "    derived_from: tosca.nodes.Root\n"
        "    properties:\n"
        "      size: {type: integer, default: 1}\n"
    )
    text = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "imports:\n  - types.yaml\n"
        "topology_template:\n"
        "  inputs:\n    n: {type: integer, default: 3}\n"
        "  node_templates:\n"
        "    s:\n      type: my.Server\n      properties:\n        size: {get_input: n}\n"
        "    t:\n      type: my.Server\n      properties:\n        size: {get_property: [s, size]}\n"
        "      requirements:\n        - dependency: s\n"
    )
    uri = (tmp_path / "main.yaml").as_uri()
    types_uri = (tmp_path / "types.yaml").as_uri()
    open_document(client, uri, text)
    assert await published(client, uri, 1) == []

    async def target(needle: str, offset: int = 0) -> tuple[str, int, int]:
        found = await client.text_document_definition_async(
            lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), pos(text, needle, offset))
        )
        assert found, needle
        return found[0].uri, found[0].range.start.line, found[0].range.start.character

    # An imported type: the file that defines it, at its name.
    assert await target("type: my.Server", 8) == (types_uri, 2, 2)
    # The import entry itself: the file.
    assert (await target("types.yaml"))[0] == types_uri
    # get_input -> the input; a requirement target -> the node template.
    assert await target("{get_input: n}", 12) == (uri, 5, 4)
    assert await target("dependency: s", 12) == (uri, 7, 4)
    # get_property path -> the property definition on the (imported) type.
    assert await target("[s, size]", 4) == (types_uri, 5, 6)
    # A document that is not open gets no answer (the server reads only what the client opened).
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(types_uri), lsp.Position(3, 20))
    )
    assert found == []
    # Opened: a normative type goes to the profile shipped with toskit.
    open_document(client, types_uri, (tmp_path / "types.yaml").read_text())
    await published(client, types_uri, 1)
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(types_uri), lsp.Position(3, 22))
    )
    assert len(found) == 1 and found[0].uri.endswith("/toskit/tosca/profiles/tosca-simple-1.3.yaml")


def _csar(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(
            "TOSCA-Metadata/TOSCA.meta",
            "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: t\nEntry-Definitions: Definitions/main.yaml\n",
        )
        z.writestr(
            "Definitions/main.yaml",
            "tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - lib/types.yaml\n"
            "topology_template:\n  node_templates:\n    a:\n      type: lib.Thing\n",
        )
        z.writestr(
            "Definitions/lib/types.yaml",
            "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  lib.Thing:\n    derived_from: tosca.nodes.Root\n",
        )


async def test_definition_inside_a_csar_opens_the_archive_member(
    client: LanguageClient, tmp_path: Path
):
    archive = tmp_path / "app.csar"
    _csar(archive)
    uri = f"zip:{archive.as_uri()}!/Definitions/main.yaml"
    text = zipfile.ZipFile(archive).read("Definitions/main.yaml").decode()
    open_document(client, uri, text)
    assert await published(client, uri, 1) == []
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(lsp.TextDocumentIdentifier(uri), pos(text, "lib.Thing", 2))
    )
    assert [(f.uri, f.range.start.line, f.range.start.character) for f in found] == [
        (f"zip:{archive.as_uri()}!/Definitions/lib/types.yaml", 2, 2)
    ]
    # An unsaved typo in the member is checked against the archive's other members.
    replace_all(client, uri, text.replace("type: lib.Thing", "type: lib.Thinx"), 2)
    assert [d.code for d in await published(client, uri, 2)] == ["unknown-type"]


async def test_completion_properties_types_templates_keynames(
    client: LanguageClient, tmp_path: Path
):
    text = SERVICE.replace("          auth: {pasword: secret}\n", "          auth:\n            \n")
    uri = (tmp_path / "service.yaml").as_uri()
    open_document(client, uri, text)
    await published(client, uri, 1)

    async def labels(position: lsp.Position) -> list[lsp.CompletionItem]:
        result = await client.text_document_completion_async(
            lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), position)
        )
        return result.items

    # Under auth: the fields of Auth, required (and without default) first, with type and default.
    items = await labels(pos(text, "auth:\n            ", 18))
    assert sorted(items, key=lambda i: i.sort_text)[0].label == "password"
    assert {i.label: i.detail for i in items} == {
        "password": "string (required)",
        "username": "string (required) = admin",
    }
    # After type: in a node template: node types in scope, local ones first.
    items = await labels(pos(text, "type: DatabaseService", 6))
    ranked = sorted(items, key=lambda i: i.sort_text)
    assert ranked[0].label == "DatabaseService" and "tosca.nodes.Compute" in [
        i.label for i in items
    ]
    assert "Endpoint" not in [i.label for i in items]  # a data type is not a node type
    # After derived_from: under data_types: data types and primitives.
    text2 = text.replace("  Endpoint:\n", "  Endpoint:\n    derived_from: \n")
    replace_all(client, uri, text2, 2)
    await published(client, uri, 2)
    items = await labels(pos(text2, "derived_from: \n", 14))
    assert {"Auth", "string", "tosca.datatypes.Root"} <= {i.label for i in items}
    # A node template's keynames (1.3 grammar) where a key is typed, without those present.
    items = await labels(pos(text2, "      type: DatabaseService", 6))
    names = {i.label for i in items}
    assert {"requirements", "capabilities", "interfaces"} <= names and "type" not in names


async def test_completion_of_requirement_targets(client: LanguageClient, tmp_path: Path):
    text = FUNCTIONS.replace("- host: app", "- host: ")
    uri = (tmp_path / "req.yaml").as_uri()
    open_document(client, uri, text)
    await published(client, uri, 1)
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier(uri), pos(text, "- host: ", 8))
    )
    assert {i.label for i in result.items} == {"app", "other"}


async def test_code_action_applied_then_rechecked(fixing_client: LanguageClient, tmp_path: Path):
    client = fixing_client
    text = "paint:\n  colour: red\n  size: 3\n"
    uri = (tmp_path / "paint.yaml").as_uri()
    open_document(client, uri, text)
    found = await published(client, uri, 1)
    assert [d.code for d in found] == ["spelling"]
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            found[0].range,
            lsp.CodeActionContext(diagnostics=found),
        )
    )
    assert [a.title for a in actions] == ["rename 'colour' to 'color'"]
    assert actions[0].kind == lsp.CodeActionKind.QuickFix
    (edit,) = actions[0].edit.changes[uri]
    assert (
        edit.range == lsp.Range(lsp.Position(1, 2), lsp.Position(1, 8)) and edit.new_text == "color"
    )
    # The client applies it (an incremental change) and the finding is gone.
    await apply_and_recheck(client, uri, edit, 2)


async def apply_and_recheck(
    client: LanguageClient, uri: str, edit: lsp.TextEdit, version: int
) -> None:
    """Apply ``edit`` as the client would, then expect no finding left."""
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [lsp.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)],
        )
    )
    assert await published(client, uri, version) == []


async def test_no_code_action_where_nothing_is_fixable(
    fixing_client: LanguageClient, tmp_path: Path
):
    client = fixing_client
    uri = (tmp_path / "plain.yaml").as_uri()
    open_document(client, uri, "paint:\n  color: red\n")
    assert await published(client, uri, 1) == []
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)),
            lsp.CodeActionContext(diagnostics=[]),
        )
    )
    assert not actions


async def test_symbols_and_references(client: LanguageClient):
    open_document(client, SERVICE_URI, SERVICE)
    await published(client, SERVICE_URI, 1)
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(lsp.TextDocumentIdentifier(SERVICE_URI))
    )
    assert [(s.name, s.detail) for s in symbols] == [
        ("Endpoint", "data type"),
        ("Auth", "data type"),
        ("Connection", "data type"),
        ("DatabaseService", "node type"),
        ("db", "node template: DatabaseService"),
    ]
    refs = await client.text_document_references_async(
        lsp.ReferenceParams(
            text_document=lsp.TextDocumentIdentifier(SERVICE_URI),
            position=pos(SERVICE, "  Endpoint:", 3),
            context=lsp.ReferenceContext(include_declaration=True),
        )
    )
    assert sorted((r.range.start.line, r.range.start.character) for r in refs) == [(3, 2), (13, 23)]


async def test_a_change_to_an_open_import_rechecks_its_importer(
    client: LanguageClient, tmp_path: Path
):
    types = tmp_path / "types.yaml"
    types.write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.T:\n    derived_from: tosca.nodes.Root\n"
    )
    main = "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [types.yaml]\ntopology_template:\n  node_templates:\n    a: {type: my.T}\n"
    main_uri, types_uri = (tmp_path / "main.yaml").as_uri(), types.as_uri()
    open_document(client, main_uri, main)
    assert await published(client, main_uri, 1) == []
    open_document(client, types_uri, types.read_text())
    await published(client, types_uri, 1)
    assert await published(client, main_uri, 1) == []  # re-checked: it reads the open text now
    # Rename the type in the (unsaved) imported file: the importer now fails...
    replace_all(client, types_uri, types.read_text().replace("my.T:", "my.U:"), 2)
    found = await published(client, main_uri, 1)
    assert [d.code for d in found] == ["unknown-type"]
    assert "my.U" in found[0].message  # the hint names the type of the unsaved text
    # ... and passes again when the unsaved text is put back.
    replace_all(client, types_uri, types.read_text(), 3)
    assert await published(client, main_uri, 1) == []
    # Closing the import: the importer reads the file from disk again.
    types.write_text(types.read_text().replace("my.T:", "my.V:"))
    client.text_document_did_close(
        lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(types_uri))
    )
    found = await published(client, main_uri, 1)
    assert [d.code for d in found] == ["unknown-type"] and "my.V" in found[0].message


async def test_tosca_quick_fix_renames_the_typo_and_both_findings_go(
    client: LanguageClient, tmp_path: Path
):
    uri = (tmp_path / "service.yaml").as_uri()
    open_document(client, uri, SERVICE)
    found = await published(client, uri, 1)
    # Asked on the missing-property finding's range too: the fix is the typo's (one, not two).
    for asked in found:
        actions = await client.text_document_code_action_async(
            lsp.CodeActionParams(
                lsp.TextDocumentIdentifier(uri),
                asked.range,
                lsp.CodeActionContext(diagnostics=[asked]),
            )
        )
        titles = [a.title for a in actions]
        assert titles == (
            ["rename 'pasword' to 'password'"] if asked.code == "unknown-property" else []
        )
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            found[1].range,
            lsp.CodeActionContext(diagnostics=found),
        )
    )
    (edit,) = actions[0].edit.changes[uri]
    assert edit.new_text == "password" and edit.range == found[1].range
    await apply_and_recheck(client, uri, edit, 2)
