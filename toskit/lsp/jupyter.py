"""JupyterLab: ``toskit lsp`` as a language server for YAML files (jupyter-lsp).

jupyter-lsp (the server half of ``jupyterlab-lsp``) finds language servers
through the ``jupyter_lsp_spec_v1`` entry point group; toskit registers
:func:`spec` there (``pyproject.toml``), so installing ``toskit[lab]`` is
all it takes: every YAML file opened in JupyterLab's editor is checked as
``toskit check`` would, with hover, completion and the rest
(docs/lsp.md). The command is this interpreter running ``-m toskit lsp``,
so it works whether or not the environment's ``bin`` is on ``PATH``.

This module imports neither jupyter-lsp nor pygls: jupyter-lsp calls
:func:`spec` with its manager and reads the plain dict it returns.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["spec"]


def spec(manager: Any = None) -> dict[str, dict[str, Any]]:
    """The jupyter-lsp language server spec of ``toskit lsp`` (key ``toskit``)."""
    return {
        "toskit": {
            "argv": [sys.executable, "-m", "toskit", "lsp"],
            "languages": ["yaml"],
            "version": 2,
            "display_name": "toskit (TOSCA)",
            "mime_types": ["text/x-yaml", "text/yaml"],
            "env": {"PYTHONUNBUFFERED": "1"},
        }
    }
