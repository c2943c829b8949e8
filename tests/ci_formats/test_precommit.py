"""The pre-commit hooks (``.pre-commit-hooks.yaml``) through ``pre-commit try-repo`` (issue #34 item 6).

pre-commit installs the hook repository with pip into an environment of its
own: here a clone of this repository's HEAD (the committed hooks, as a user
gets them; uncommitted edits are not part of it), installed once for the
module (about a minute and a half: toskit and its dependencies from the
package index or pip's cache). Marked ``slow``; ``make test`` runs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "notebooks" / "examples"
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]
HANG_GUARD = 1200  # seconds: a generous bound on an install, not a performance target

pytestmark = pytest.mark.slow


def test_hooks_manifest():
    hooks = {
        hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    assert set(hooks) == {"toskit-check", "toskit-check-fix"}
    for hook in hooks.values():
        assert hook["types"] == ["yaml"] and hook["language"] == "python"
        assert hook["entry"].startswith("toskit check")
    assert "--fix" in hooks["toskit-check-fix"]["entry"].split()
    assert "--fix" not in hooks["toskit-check"]["entry"].split()


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """Environment for pre-commit: its own home (one install for the module), no CI variables."""
    home = tmp_path_factory.mktemp("pre-commit-home")
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "PRE_COMMIT_HOME")}
    env.update(
        PRE_COMMIT_HOME=str(home),
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
    )
    return env


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory, env):
    """A clone of this repository's HEAD: the hooks as committed."""
    clone = tmp_path_factory.mktemp("hook-repo") / "toskit"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True, env=env, timeout=300)
    return clone


@pytest.fixture
def project(tmp_path, env):
    """A small repository to run the hooks on: a good template, one with a typo, a text file."""
    repo = tmp_path / "project"
    repo.mkdir()
    _git("init", "-q", cwd=repo)
    shutil.copy(EXAMPLES / "web-shop.yaml", repo / "good.yaml")
    shutil.copy(EXAMPLES / "service.yaml", repo / "bad.yaml")
    (repo / "notes.txt").write_text("not YAML: [\n")
    _git("add", ".", cwd=repo)
    return repo


def try_repo(hook_repo: Path, project: Path, env: dict) -> tuple[int, str]:
    """Both hooks of the repository on every file of ``project``, in one ``try-repo``.

    ``try-repo`` installs the hook repository into a temporary store each
    time (about a minute and a half), so the test runs it once: both hooks,
    in the manifest's order (``toskit-check``, then ``toskit-check-fix``).
    """
    done = subprocess.run(
        [*PRE_COMMIT, "try-repo", str(hook_repo), "--all-files", "--color", "never", "--verbose"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


def _hook_output(output: str, name: str) -> str:
    """The part of pre-commit's output that belongs to the hook called ``name``."""
    start = output.index(name + ".")
    following = output.find("toskit check", start + len(name) + 1)
    return output[start : following if following != -1 else None]


def test_hooks_through_try_repo(hook_repo, project, env):
    before = (project / "bad.yaml").read_bytes()
    status, output = try_repo(hook_repo, project, env)
    assert status == 1, output  # a finding, and a file changed by the fix hook
    check = _hook_output(output, "toskit check")
    assert "Failed" in check.splitlines()[0], check
    assert "bad.yaml:30:18: error[unknown-property]" in check
    assert "checked good.yaml as TOSCA 1.3 template: 0 errors" in check
    assert "notes.txt" not in output  # types: [yaml]
    fix = _hook_output(output, "toskit check --fix")
    assert "files were modified by this hook" in fix and "fixed bad.yaml: 1 fix applied" in fix, fix
    # The fix and nothing else: the finding's key, every other byte kept.
    assert (project / "bad.yaml").read_bytes() == before.replace(b"pasword", b"password")
    assert (project / "good.yaml").read_bytes() == (EXAMPLES / "web-shop.yaml").read_bytes()
