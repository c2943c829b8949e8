"""A real LSP client (pytest-lsp) driving ``python -m toskit lsp`` over stdio."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # lsp_helpers, as tests/conftest.py does for tests/
REPO = HERE.parents[1]


def _record(client: LanguageClient, params: lsp.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.history.append(params)  # type: ignore[attr-defined]


def make_client() -> LanguageClient:
    """pytest-lsp's client, keeping every publication in order (``client.history``).

    Its ``wait_for_notification`` resolves one future per call, so of two
    publications read together (a document and its importer) the second
    would be missed; the tests read this list instead.
    """
    client = LanguageClient(converter_factory=default_converter)
    client.history = []  # type: ignore[attr-defined]
    register_lsp_features(
        client, {**DEFAULT_CLIENT_FEATURES, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _record}
    )
    return client


def _initialize_params(root: Path | None = None) -> lsp.InitializeParams:
    return lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(),
        root_uri=root.as_uri() if root else None,
    )


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "toskit", "lsp"], client_factory=make_client
    )
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(_initialize_params(REPO))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, str(HERE / "fixing_server.py")], client_factory=make_client
    )
)
async def fixing_client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(_initialize_params(REPO))
    yield
    await lsp_client.shutdown_session()
