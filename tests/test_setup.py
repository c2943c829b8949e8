"""The setup tells the truth: `make lab`, `make test`, `make demo`, Binder.

The Makefile's ``lab`` recipe is run for real against a stand-in
``jupyter`` (a script that prints what it was given), so what is checked is
what a user gets: the URL printed, the token handed over, a browser only
with a display, the news and update check off.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make")
needs_make = pytest.mark.skipif(MAKE is None, reason="GNU make is not installed")

ANNOUNCEMENTS = "@jupyterlab/apputils-extension:announcements"
# tosca-parser is not here: tutorial 05 compares toskit with it, so the lab
# extra holds it (#35 item 3; tests/notebooks/test_lab_extra.py checks that
# every import of notebooks/src/ comes with the lab extra).
NOT_FOR_THE_LAB = {
    "pytest", "nbval", "hypothesis", "ruff", "playwright", "voila",
    "jsonschema", "fastjsonschema",
}  # fmt: skip


def _extras() -> dict[str, list[str]]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return {
        name: re.findall(r'"([^"]+)"', items)
        for name, items in re.findall(r"^(\w+)\s*=\s*\[(.*?)\]\s*$", block, re.M)
    }


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~\[ ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_lab_extra_holds_what_the_tutorials_need_and_nothing_else() -> None:
    extras = _extras()
    assert {"jupyterlab", "ipykernel"} <= _names(extras["lab"])
    assert _names(extras["lab"]) & NOT_FOR_THE_LAB == set()
    assert "toskit[lab,test,browser,bench]" in extras["dev"]  # make test: everything


def _make(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [MAKE, "--no-print-directory", "-C", str(ROOT), *args],
        capture_output=True, text=True, timeout=timeout, env=env,
    )  # fmt: skip


@needs_make
def test_make_lab_installs_the_lab_extra_and_make_test_the_dev_extra() -> None:
    lab = _make("-n", "-B", "lab").stdout
    assert "-e '.[lab]'" in lab and ".[dev]" not in lab
    assert f'labextension disable --level=sys_prefix "{ANNOUNCEMENTS}"' in lab
    assert ".toskit-lab-installed" in lab
    test = _make("-n", "-B", "test").stdout
    assert "-e '.[dev]'" in test and ".toskit-lab-installed" not in test


@pytest.fixture
def fake_venv(tmp_path: Path) -> Path:
    """A .venv whose `jupyter` prints its arguments and token instead of serving."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(sys.executable)
    jupyter = venv / "bin" / "jupyter"
    jupyter.write_text('#!/bin/sh\necho "ARGS: $*"\necho "TOKEN: $JUPYTER_TOKEN"\n')
    jupyter.chmod(0o755)
    (venv / ".toskit-lab-installed").touch()  # newer than pyproject.toml: no install
    return venv


def _lab(venv: Path, **display: str) -> tuple[str, str, str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(display)
    proc = _make("lab", f"VENV={venv}", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    url = re.search(
        r"^toskit: JupyterLab on notebooks/ at (http://127\.0\.0\.1:(\d+)/lab\?token=(\w+))$",
        proc.stdout,
        re.M,
    )
    assert url, proc.stdout
    args = re.search(r"^ARGS: (.*)$", proc.stdout, re.M).group(1)
    token = re.search(r"^TOKEN: (.*)$", proc.stdout, re.M).group(1)
    assert token == url.group(3) and len(token) >= 32  # the URL printed is the one served
    assert f"--ServerApp.port={url.group(2)}" in args and "--ServerApp.port_retries=0" in args
    assert token not in args  # not on the command line, where `ps` shows it
    return url.group(1), args, url.group(2), token


@needs_make
def test_make_lab_prints_the_url_and_opens_no_browser_without_a_display(fake_venv: Path) -> None:
    _, args, _, _ = _lab(fake_venv)
    assert args.startswith("lab ")
    assert "--ServerApp.open_browser=False" in args
    assert "--ServerApp.ip=127.0.0.1" in args and "--ServerApp.root_dir=notebooks" in args
    assert "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate" in args


@needs_make
@pytest.mark.parametrize(
    "display", [{"DISPLAY": ":0"}, {"WAYLAND_DISPLAY": "wayland-0"}], ids=["x11", "wayland"]
)
def test_make_lab_opens_a_browser_when_there_is_a_display(
    fake_venv: Path, display: dict[str, str]
) -> None:
    _, args, _, _ = _lab(fake_venv, **display)
    assert "--ServerApp.open_browser=True" in args


@needs_make
def test_make_lab_takes_a_fixed_port_and_a_new_token_each_time(fake_venv: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = _make("lab", f"VENV={fake_venv}", "LAB_PORT=8999", env=env)
    assert "http://127.0.0.1:8999/lab?token=" in proc.stdout
    assert _lab(fake_venv)[3] != _lab(fake_venv)[3]


@needs_make
def test_make_demo_serves_the_offline_voila_template() -> None:
    demo = _make("-n", "demo").stdout
    assert f"JUPYTER_PATH={ROOT}/share/jupyter" in demo and "--template=toskit" in demo
    template = ROOT / "share/jupyter/voila/templates/toskit"
    assert '"base_template": "lab"' in (template / "conf.json").read_text()
    assert not re.search(r"(href|src)=[\"']?https?:", (template / "index.html.j2").read_text())


# ---- Binder ----


def _badge_module():
    spec = importlib.util.spec_from_file_location(
        "toskit_binder_badge", ROOT / "binder" / "badge.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_binder_installs_the_lab_extra() -> None:
    lines = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    assert [line for line in lines if line.strip() and not line.startswith("#")] == ["-e .[lab]"]
    post_build = ROOT / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK)
    assert f'labextension disable "{ANNOUNCEMENTS}"' in post_build.read_text()


def test_the_readme_badge_is_derived_from_the_repository_setting() -> None:
    badge = _badge_module()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert badge.badge(pyproject) in readme.splitlines()
    owner, name = badge.repository(pyproject)
    assert f"mybinder.org/v2/gh/{owner}/{name}/HEAD" in readme
    assert "binder/badge.py" in readme and "[project.urls]" in readme  # documented


def test_the_badge_follows_the_setting() -> None:
    badge = _badge_module()
    text = 'Repository = "https://github.com/someone/else.git"\n'
    assert badge.repository(text) == ("someone", "else")
    assert "mybinder.org/v2/gh/someone/else/HEAD?labpath=notebooks%2F00-tour.ipynb" in badge.badge(
        text
    )
    with pytest.raises(SystemExit, match="Repository"):
        badge.repository("[project.urls]\n")
