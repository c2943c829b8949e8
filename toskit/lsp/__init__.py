"""``toskit lsp``: a TOSCA language server (issue #33); docs/lsp.md.

* :mod:`toskit.lsp.text`: positions (LSP <-> toskit, in one place) and the
  YAML structure around a cursor, from the text as typed;
* :mod:`toskit.lsp.workspace`: open documents, their analyses (what
  ``toskit check`` finds, from the unsaved text; open files are what
  imports read), the parsed-import cache, who imports whom;
* :mod:`toskit.lsp.features`: diagnostics, hover, definition, completion,
  code actions, symbols, references, as plain data;
* :mod:`toskit.lsp.server`: the pygls server over stdio.

Only :mod:`toskit.lsp.server` imports pygls (the ``lsp`` extra:
``pip install 'toskit[lsp]'``); :func:`main` imports it when called, so
``toskit check`` never pays for it.
"""

from __future__ import annotations

__all__ = ["main"]


def main() -> int:
    """Serve the Language Server Protocol on stdin/stdout (``toskit lsp``)."""
    try:
        from toskit.lsp.server import serve
    except ImportError as exc:
        from toskit.errors import ToskitError

        raise ToskitError(f"toskit lsp needs pygls ({exc}): pip install 'toskit[lsp]'") from None
    status = serve()
    # pygls closed stdout on exit; the command line's final flush must find an open stream.
    import os
    import sys

    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (lives until the process ends)
    return status
