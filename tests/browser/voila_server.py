"""Start a Voila server on a folder of notebooks for the browser checks."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A Jupyter data folder of the repository holding the `toskit` Voila template.
JUPYTER_DATA = ROOT / "share" / "jupyter"
SERVER_START_TIMEOUT = 90.0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_serving(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise RuntimeError(
        f"the server did not answer at {url} within {SERVER_START_TIMEOUT} s:\n{log.read_text()}"
    )


@contextlib.contextmanager
def serve_voila(folder: Path, log: Path) -> Iterator[str]:
    """Base URL of Voila serving ``folder`` (tracebacks shown, theme switchable,
    the repository's offline `toskit` template); output goes to ``log``."""
    port = _free_port()
    command = [
        sys.executable, "-m", "voila", str(folder),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",
        "--VoilaConfiguration.show_tracebacks=True",
        "--VoilaConfiguration.allow_theme_override=YES",
        "--VoilaConfiguration.template=toskit",
    ]  # fmt: skip
    env = _server_env()
    env["JUPYTER_PATH"] = os.pathsep.join(
        filter(None, [str(JUPYTER_DATA), os.environ.get("JUPYTER_PATH")])
    )
    base = f"http://127.0.0.1:{port}"
    with _running(command, ROOT, env, log, base + "/"):
        yield base


def _server_env() -> dict[str, str]:
    """This environment, with the interpreter's scripts folder first on ``PATH``."""
    return dict(
        os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    )


@contextlib.contextmanager
def _running(
    command: list[str], cwd: Path, env: dict[str, str], log: Path, ready: str
) -> Iterator[None]:
    """``command`` running (output to ``log``) once ``ready`` answers; stopped on exit."""
    with log.open("w") as sink:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        _wait_until_serving(ready, process, log)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
