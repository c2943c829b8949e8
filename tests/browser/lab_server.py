"""Start a JupyterLab server on a folder of notebooks for the browser checks.

The server is as closed as the Voila one: 127.0.0.1, a random token (given
through the environment, not the command line), and every Jupyter folder it
would write to or read user settings from (config, data, runtime, Lab
settings and workspaces, IPython) is a fresh folder under ``home``, so the
check sees the repository's environment only. Nothing reaches the internet:
no update check, no news feed (the announcements plugin is disabled in the
page config), and the extensions the check does not need (language server,
terminals, Voila) are off.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path

from voila_server import _free_port, _running, _server_env

_PAGE_CONFIG = {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}
_SERVER_CONFIG = {
    "ServerApp": {
        "jpserver_extensions": {
            "jupyter_lsp": False,
            "jupyter_server_terminals": False,
            "voila.server_extension": False,
        }
    }
}


@contextlib.contextmanager
def serve_lab(
    folder: Path, home: Path, log: Path, *, app_settings: Path | None = None
) -> Iterator[tuple[str, str]]:
    """``(base_url, token)`` of JupyterLab serving ``folder``; its user folders
    live in ``home`` and its output goes to ``log``. ``app_settings``: the
    folder JupyterLab reads its installed defaults from (``overrides.d``), in
    place of the environment's ``share/jupyter/lab/settings``."""
    config = home / "config"
    (config / "labconfig").mkdir(parents=True, exist_ok=True)
    (config / "labconfig" / "page_config.json").write_text(json.dumps(_PAGE_CONFIG))
    (config / "jupyter_server_config.json").write_text(json.dumps(_SERVER_CONFIG))
    port = _free_port()
    token = secrets.token_hex(16)
    command = [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={folder}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.news_url=",
        "--LabApp.expose_app_in_browser=True",
    ]  # fmt: skip
    if app_settings is not None:
        command.append(f"--LabApp.app_settings_dir={app_settings}")
    if os.getuid() == 0:  # CI machines and containers run as root
        command.append("--allow-root")
    env = _server_env()
    env.update(
        JUPYTER_TOKEN=token,
        JUPYTER_CONFIG_DIR=str(config),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "lab-settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "lab-workspaces"),
        IPYTHONDIR=str(home / "ipython"),
    )
    base = f"http://127.0.0.1:{port}"
    with _running(command, folder, env, log, f"{base}/api/status?token={token}"):
        yield base, token
