"""Bad input never takes ``toskit lsp`` down (issue #33, item 6).

Each case gets a diagnostic or a JSON-RPC error response, and the server
goes on answering for another document. Most cases go through pytest-lsp's
client; text that is not JSON-RPC at all needs a client that can send it,
so those use a raw one (:class:`Raw`).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from lsp_helpers import SERVICE, open_document, published
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from toskit.source.document import LIMIT_DEFAULTS

asyncio = pytest.mark.asyncio(loop_scope="function")


async def still_serving(client: LanguageClient, tmp_path: Path, version_tag: str) -> None:
    """Another document is checked and hovered as usual."""
    uri = (tmp_path / f"ok-{version_tag}.yaml").as_uri()
    open_document(client, uri, SERVICE)
    assert [d.code for d in await published(client, uri, 1)] == [
        "missing-property",
        "unknown-property",
    ]
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(28, 22))
    )
    assert "connection.endpoint.ip" in result.contents.value


BAD_DOCUMENTS = {
    "not-yaml": ("\x00\x01 binary: [unclosed\n\t- {", {"yaml-syntax"}),
    "tabs-and-colons": ("a: b: c: d\n", {"yaml-syntax"}),
    "alias-bomb": (
        "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
            for i in range(8)
        )
        + "tosca_definitions_version: tosca_simple_yaml_1_3\n",
        {"limit-exceeded"},
    ),
    "deep": (
        "tosca_definitions_version: tosca_2_0\nmetadata: " + "[" * 5000 + "]" * 5000 + "\n",
        {"limit-exceeded"},
    ),
    "wrong-shapes": (
        "tosca_definitions_version: tosca_2_0\nservice_template: [1, 2]\nnode_types: 7\n",
        None,
    ),
}


@asyncio
@pytest.mark.parametrize("case", sorted(BAD_DOCUMENTS))
async def test_bad_documents_get_diagnostics(client: LanguageClient, tmp_path: Path, case: str):
    text, codes = BAD_DOCUMENTS[case]
    uri = (tmp_path / f"{case}.yaml").as_uri()
    open_document(client, uri, text)
    found = {d.code for d in await published(client, uri, 1)}
    assert found and "internal-error" not in found
    if codes is not None:
        assert codes <= found
    await still_serving(client, tmp_path, case)


@asyncio
async def test_a_document_over_50_mb_is_one_finding(client: LanguageClient, tmp_path: Path):
    bound = LIMIT_DEFAULTS["max_size"]
    text = "tosca_definitions_version: tosca_2_0\n" + "#" * (bound - 20) + "\n"
    assert len(text.encode()) > bound
    uri = (tmp_path / "huge.yaml").as_uri()
    open_document(client, uri, text)
    found = await published(client, uri, 1)
    assert [d.code for d in found] == ["limit-exceeded"]
    # Requests on it answer (nothing), and the server goes on.
    result = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(1, 5))
    )
    assert result is None
    await still_serving(client, tmp_path, "huge")


@asyncio
async def test_positions_past_the_end_and_unknown_documents(client: LanguageClient, tmp_path: Path):
    uri = (tmp_path / "s.yaml").as_uri()
    open_document(client, uri, SERVICE)
    await published(client, uri, 1)
    far = lsp.Position(10_000, 10_000)
    doc = lsp.TextDocumentIdentifier(uri)
    assert await client.text_document_hover_async(lsp.HoverParams(doc, far)) is None
    assert await client.text_document_definition_async(lsp.DefinitionParams(doc, far)) == []
    completion = await client.text_document_completion_async(lsp.CompletionParams(doc, far))
    assert completion.items is not None
    # Past the end of a line (not of the document): the line's end.
    past_line = await client.text_document_hover_async(lsp.HoverParams(doc, lsp.Position(29, 500)))
    assert past_line is None or "auth" in past_line.contents.value  # clamped to the line's end
    unknown = lsp.TextDocumentIdentifier((tmp_path / "never-opened.yaml").as_uri())
    assert (
        await client.text_document_hover_async(lsp.HoverParams(unknown, lsp.Position(0, 0))) is None
    )
    assert await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(unknown)) == []
    await still_serving(client, tmp_path, "far")


@asyncio
async def test_no_file_outside_the_import_root_and_no_network(
    client: LanguageClient, tmp_path: Path
):
    project = tmp_path / "project"
    project.mkdir()
    secret = tmp_path / "outside.yaml"
    secret.write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  Secret.Type: {}\n"
    )
    text = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "imports:\n  - ../outside.yaml\n  - /etc/passwd\n  - https://example.invalid/types.yaml\n"
        "topology_template:\n  node_templates:\n    a: {type: Secret.Type}\n"
    )
    uri = (project / "main.yaml").as_uri()
    open_document(client, uri, text)
    found = await published(client, uri, 1)
    messages = [d.message for d in found if d.code == "import-error"]
    assert len(messages) == 3
    assert any("outside the import root" in m for m in messages)
    assert any("remote imports are disabled" in m for m in messages)
    # Nothing of the file outside was read: its type stays unknown, no content shown.
    assert "unknown-type" in [d.code for d in found]
    assert not any("root:" in d.message for d in found)  # /etc/passwd's text never shown


class Raw:
    """An LSP client that can send anything (for text that is not JSON-RPC)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "toskit", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.messages: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(out.read(length)))

    def raw(self, body: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.raw(json.dumps({"jsonrpc": "2.0", **message}).encode())

    def next(self, match: Any) -> dict:
        while True:
            message = self.messages.get(timeout=120)  # a hang guard only
            if match(message):
                return message


def test_garbage_json_rpc_gets_error_responses_and_the_server_goes_on(tmp_path: Path):
    raw = Raw()
    try:
        raw.send(
            {"id": 1, "method": "initialize", "params": {"capabilities": {}, "processId": None}}
        )
        raw.next(lambda m: m.get("id") == 1)
        raw.send({"method": "initialized", "params": {}})
        # Not JSON: a parse error, id null.
        raw.raw(b"this is {not json")
        error = raw.next(lambda m: "error" in m)
        assert error["id"] is None and error["error"]["code"] == -32700
        # JSON, not a JSON-RPC message.
        for body in (b"[1, 2, 3]", b"42", b'{"hello": "world"}'):
            raw.raw(body)
            error = raw.next(lambda m: "error" in m)
            assert error["id"] is None and error["error"]["code"] == -32600
        # A request whose params have the wrong shape: an error response for that id.
        raw.send({"id": 2, "method": "textDocument/hover", "params": {"textDocument": 5}})
        answer = raw.next(lambda m: m.get("id") == 2)
        assert "error" in answer
        # An unknown method: method not found.
        raw.send({"id": 3, "method": "toskit/nothing", "params": {}})
        assert raw.next(lambda m: m.get("id") == 3)["error"]["code"] == -32601
        # A header without a body length, then a good message: still served.
        raw.proc.stdin.write(b"X-Nonsense: 1\r\n\r\n")
        uri = (tmp_path / "s.yaml").as_uri()
        raw.send(
            {
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": uri,
                        "languageId": "yaml",
                        "version": 1,
                        "text": SERVICE,
                    }
                },
            }
        )
        published_ = raw.next(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        assert [d["code"] for d in published_["params"]["diagnostics"]] == [
            "missing-property",
            "unknown-property",
        ]
        raw.send(
            {
                "id": 4,
                "method": "textDocument/hover",
                "params": {"textDocument": {"uri": uri}, "position": {"line": 28, "character": 22}},
            }
        )
        assert (
            "connection.endpoint.ip"
            in raw.next(lambda m: m.get("id") == 4)["result"]["contents"]["value"]
        )
        raw.send({"id": 5, "method": "shutdown", "params": None})
        raw.next(lambda m: m.get("id") == 5)
        raw.send({"method": "exit", "params": None})
        assert raw.proc.wait(timeout=60) == 0
    finally:
        if raw.proc.poll() is None:
            raw.proc.kill()
