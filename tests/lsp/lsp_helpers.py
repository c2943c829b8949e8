"""What the tests of ``toskit lsp`` share: documents, positions, waiting for diagnostics."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from toskit.lsp.workspace import name_to_uri

# A generous hang guard only: nothing here is a timing assertion.
HANG = 120


async def published(
    client: LanguageClient, uri: str, version: int | None = None
) -> list[lsp.Diagnostic]:
    """The next diagnostics published for ``uri`` (for ``version``, when given)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + HANG
    history = client.history  # type: ignore[attr-defined]
    while loop.time() < deadline:
        for i, params in enumerate(history):
            if params.uri == uri:
                del history[i]
                if version is None or params.version == version:
                    return list(params.diagnostics)
                break
        else:
            await asyncio.sleep(0.01)
    raise AssertionError(f"no diagnostics published for {uri} (version {version})")


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)
        )
    )


def replace_all(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    """The position of the first ``needle`` in ``text`` (plus ``offset`` characters)."""
    index = text.index(needle) + offset
    line = text.count("\n", 0, index)
    return lsp.Position(line, index - (text.rfind("\n", 0, index) + 1))


EXAMPLE = Path(__file__).parents[2] / "notebooks" / "examples" / "service.yaml"
SERVICE = EXAMPLE.read_text()
SERVICE_URI = name_to_uri(str(EXAMPLE))
