"""``toskit lsp``: the Language Server Protocol server over stdio (pygls).

The server is a thin layer: :mod:`toskit.lsp.workspace` keeps documents and
analyses, :mod:`toskit.lsp.features` answers; this module converts to and
from ``lsprotocol`` types and keeps the server alive.

**Never dies.** Every handler runs inside :func:`_guarded`: an exception
from toskit (a bug, or a bound it did not foresee) becomes a log message and
an empty answer (a request) or a diagnostic on the document (an analysis),
and the server goes on serving the other documents. Text that is not JSON,
or JSON that is not a JSON-RPC message, gets a JSON-RPC error response
(``-32700`` parse error / ``-32600`` invalid request, ``id: null``) and
nothing else. A document over the loader's ``max_size`` (50 MB) is the
``limit-exceeded`` diagnostic that ``check`` gives.

**Latency.** A ``didChange`` schedules the analysis on the event loop
instead of running it in the handler, so a burst of changes is analysed
once, for the last text; a request (hover, completion…) on a document whose
analysis is stale runs it first. Diagnostics are published for the version
they were computed from.

**No network, no foreign files.** The server reads what ``check`` would
read (imports inside the import root) and the unsaved text the client
sends; it opens no socket (stdio only).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from toskit.lsp import features
from toskit.lsp.workspace import Analysis, Workspace, uri_to_name

__all__ = ["ToskitLanguageServer", "make_server", "serve"]

log = logging.getLogger("toskit.lsp")

F = TypeVar("F", bound=Callable[..., Any])


def _range(r: features.Range) -> lsp.Range:
    return lsp.Range(lsp.Position(*r[0]), lsp.Position(*r[1]))


def _location(loc: features.Location) -> lsp.Location:
    return lsp.Location(loc.uri, _range(loc.range))


class _Refused:
    """A request whose params do not have the method's shape: answered with an error."""

    def __init__(self, msg_id: Any, error: Exception) -> None:
        self.id = msg_id
        self.error = error


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, answering JSON-RPC that does not parse instead of only logging it."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except Exception as exc:
            # pygls raises out of json.loads, so the request id would be lost and
            # the client would wait forever: answer that id instead.
            if (
                isinstance(data, dict)
                and "method" in data
                and isinstance(data.get("id"), int | str)
            ):
                return _Refused(data["id"], exc)
            raise

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Refused):
            self._send_data(
                {
                    "jsonrpc": "2.0",
                    "id": message.id,
                    "error": {
                        "code": -32602,
                        "message": f"Invalid params: {type(message.error).__name__}",
                    },
                }
            )
            return
        if not hasattr(message, "jsonrpc"):
            # JSON, but not a JSON-RPC message (a list, a number, a map without "jsonrpc").
            self._send_error_null(-32600, "Invalid Request: not a JSON-RPC 2.0 message")
            return
        super().handle_message(message)

    def _send_error_null(self, code: int, message: str) -> None:
        self._send_data({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}})


class ToskitLanguageServer(LanguageServer):
    """The toskit language server: one :class:`~toskit.lsp.workspace.Workspace` and its features."""

    def __init__(self) -> None:
        from toskit import __version__

        super().__init__(
            "toskit",
            __version__,
            protocol_cls=_Protocol,
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
        )
        self.state = Workspace()
        self._pending: set[str] = set()
        self._first: set[str] = set()  # the documents edited since the last run: analysed first
        self._scheduled = False

    # -- errors ----------------------------------------------------------------

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A message that did not parse gets a JSON-RPC parse error; everything is logged."""
        if isinstance(error, json.JSONDecodeError | UnicodeDecodeError):
            send = self.protocol._send_error_null  # type: ignore[attr-defined]
            send(-32700, f"Parse error: {error}")
        log.error("toskit lsp: %s: %s", type(error).__name__, error)

    @property
    def encoding(self) -> str:
        """The position encoding agreed with the client (``utf-16`` unless it offered another)."""
        try:
            agreed: Any = self.workspace.position_encoding
        except Exception:  # before initialize: no workspace yet
            return "utf-16"
        return str(getattr(agreed, "value", agreed) or "utf-16")

    # -- analyses --------------------------------------------------------------

    def schedule(self, uris: list[str]) -> None:
        """Analyse ``uris`` (and publish) once the messages already read are handled."""
        self._pending.update(uris)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_event_loop().call_soon(self._run_pending)

    def _run_pending(self) -> None:
        self._scheduled = False
        pending, self._pending = self._pending, set()
        # The edited documents first, then their importers.
        for uri in sorted(pending, key=lambda u: u not in self._first):
            self.publish(uri)
        self._first = set()

    def publish(self, uri: str) -> None:
        """Analyse the open document ``uri`` and publish its diagnostics."""
        if uri not in self.state.documents:
            return
        doc = self.state.documents[uri]
        try:
            analysis = self.state.analysis(uri)
            published = (
                features.diagnostics(analysis, self.encoding) if analysis is not None else []
            )
            items = [self._diagnostic(p, i) for i, p in enumerate(published)]
        except Exception as exc:  # a toskit bug must not take the server down
            log.exception("analysis of %s failed", uri)
            items = [
                lsp.Diagnostic(
                    lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
                    f"toskit could not check this document: {type(exc).__name__}: {exc}",
                    severity=lsp.DiagnosticSeverity.Error,
                    code="internal-error",
                    source="toskit",
                )
            ]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=doc.version)
        )

    def _diagnostic(self, p: features.Published, index: int) -> lsp.Diagnostic:
        return lsp.Diagnostic(
            range=_range(p.range),
            message=p.message,
            severity=lsp.DiagnosticSeverity(p.severity),
            code=p.code,
            source="toskit",
            related_information=[
                lsp.DiagnosticRelatedInformation(_location(loc), label) for loc, label in p.related
            ]
            or None,
            data={"index": index, "fixes": len(p.finding.fixes)},
        )

    def current(self, uri: str) -> Analysis | None:
        """The up-to-date analysis of an open document (``None`` when it is not open)."""
        return self.state.analysis(uri)


def _guarded(default: Callable[[], Any]) -> Callable[[F], F]:
    """A handler that logs an exception and answers ``default()`` instead of failing."""

    def wrap(handler: F) -> F:
        def guarded(ls: ToskitLanguageServer, params: Any) -> Any:
            try:
                return handler(ls, params)
            except Exception:
                log.exception("%s failed", handler.__name__)
                return default()

        guarded.__name__ = handler.__name__
        guarded.__doc__ = handler.__doc__
        return cast(F, guarded)

    return wrap


def make_server() -> ToskitLanguageServer:
    """A server with every feature registered (not started)."""
    server = ToskitLanguageServer()
    _register_document_sync(server)
    _register_language_features(server)
    return server


def _register_document_sync(server: ToskitLanguageServer) -> None:
    """initialize, and the notifications that keep the workspace in step with
    the editor (open, change, save, close, watched files)."""

    @server.feature(lsp.INITIALIZE)
    @_guarded(lambda: None)
    def initialize(ls: ToskitLanguageServer, params: lsp.InitializeParams) -> None:
        root = None
        if params.workspace_folders:
            root = uri_to_name(params.workspace_folders[0].uri)
        elif params.root_uri:
            root = uri_to_name(params.root_uri)
        elif params.root_path:
            root = params.root_path
        ls.state = Workspace(root if root and os.path.isdir(root) else None)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @_guarded(lambda: None)
    def did_open(ls: ToskitLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        ls.state.open(item.uri, item.text, item.version)
        ls._first = ls._first | {item.uri}
        ls.schedule(ls.state.affected(item.uri))

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    @_guarded(lambda: None)
    def did_change(ls: ToskitLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        # pygls applied the change to its copy (full or incremental); it is the text.
        text = ls.workspace.get_text_document(uri).source
        ls.state.change(uri, text, params.text_document.version)
        ls._first = ls._first | {uri}
        ls.schedule(ls.state.affected(uri))

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    @_guarded(lambda: None)
    def did_save(ls: ToskitLanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.state.forget(uri_to_name(uri))
        ls.schedule(
            [u for u in ls.state.affected(uri) if u != uri]
        )  # closed importers read the disk

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    @_guarded(lambda: None)
    def did_close(ls: ToskitLanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        importers = [u for u in ls.state.affected(uri) if u != uri]
        ls.state.close(uri)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        ls.schedule(importers)  # they now read the file from disk

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @_guarded(lambda: None)
    def watched(ls: ToskitLanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        uris: list[str] = []
        for change in params.changes:
            ls.state.forget(uri_to_name(change.uri))
            uris.extend(u for u in ls.state.affected(change.uri) if u != change.uri)
        ls.schedule(uris)


def _register_language_features(server: ToskitLanguageServer) -> None:
    """Hover, definition, references, completion, code actions, symbols."""

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @_guarded(lambda: None)
    def hover(ls: ToskitLanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return None
        found = features.hover(
            analysis, params.position.line, params.position.character, ls.encoding
        )
        if found is None:
            return None
        text, rng = found
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text), _range(rng))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @_guarded(lambda: [])
    def definition(ls: ToskitLanguageServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return []
        found = features.definition(
            analysis, params.position.line, params.position.character, ls.encoding
        )
        return [_location(loc) for loc in found]

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    @_guarded(lambda: [])
    def references(ls: ToskitLanguageServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return []
        others = [
            a for u in ls.state.documents if u != analysis.uri and (a := ls.current(u)) is not None
        ]
        found = features.references(
            analysis,
            others,
            params.position.line,
            params.position.character,
            params.context.include_declaration,
            ls.encoding,
        )
        return [_location(loc) for loc in found]

    @server.feature(
        lsp.TEXT_DOCUMENT_COMPLETION,
        lsp.CompletionOptions(trigger_characters=[":", " ", "\n"]),
    )
    @_guarded(lambda: lsp.CompletionList(is_incomplete=False, items=[]))
    def completion(ls: ToskitLanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return lsp.CompletionList(is_incomplete=False, items=[])
        found = features.completions(
            analysis, params.position.line, params.position.character, ls.encoding
        )
        items = [
            lsp.CompletionItem(
                label=c.label,
                kind=lsp.CompletionItemKind(c.kind),
                detail=c.detail or None,
                sort_text=c.sort or None,
                documentation=c.documentation or None,
            )
            for c in found
        ]
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]),
    )
    @_guarded(lambda: [])
    def code_action(ls: ToskitLanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return []
        r = params.range
        rng = ((r.start.line, r.start.character), (r.end.line, r.end.character))
        out = []
        for action in features.code_actions(analysis, rng, ls.encoding):
            changes = {
                uri: [lsp.TextEdit(_range(er), text) for er, text in edits]
                for uri, edits in action.edits.items()
            }
            out.append(
                lsp.CodeAction(
                    title=action.title,
                    kind=lsp.CodeActionKind.QuickFix,
                    is_preferred=True,
                    edit=lsp.WorkspaceEdit(changes=changes),
                    diagnostics=[
                        d
                        for d in (params.context.diagnostics or [])
                        if d.code == action.finding.code
                    ]
                    or None,
                )
            )
        return out

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_guarded(lambda: [])
    def document_symbol(
        ls: ToskitLanguageServer, params: lsp.DocumentSymbolParams
    ) -> list[lsp.DocumentSymbol]:
        analysis = ls.current(params.text_document.uri)
        if analysis is None:
            return []
        return [
            lsp.DocumentSymbol(
                name=s.name,
                kind=lsp.SymbolKind(s.kind),
                range=_range(s.range),
                selection_range=_range(s.range),
                detail=s.detail,
            )
            for s in features.symbols(analysis)
        ]


def serve() -> int:
    """Run the server on stdin/stdout until the client exits; returns the exit status."""
    logging.basicConfig(level=logging.WARNING, format="toskit lsp: %(message)s")
    server = make_server()
    server.start_io()
    return 0
