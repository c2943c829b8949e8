"""``action.yml``, the composite GitHub Action, and the README's workflow that uses it (issue #34 item 6).

The action's own ``toskit check`` step is run here with bash, as the runner
runs it (its inputs in the environment, ``GITHUB_OUTPUT`` a file), with this
environment's ``toskit`` on the PATH.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from ci_reports import github_rows, sarif_rows

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "notebooks" / "examples"


def action() -> dict:
    return yaml.safe_load((ROOT / "action.yml").read_text())


def step(name: str) -> dict:
    return next(s for s in action()["runs"]["steps"] if s["name"] == name)


def test_action_is_composite_and_sets_up_installs_checks_uploads():
    spec = action()
    assert spec["runs"]["using"] == "composite"
    steps = spec["runs"]["steps"]
    assert steps[0]["uses"].startswith("actions/setup-python@")
    assert steps[0]["with"]["python-version"] == "${{ inputs.python-version }}"
    assert "pip install" in steps[1]["run"] and "$GITHUB_ACTION_PATH" in steps[1]["run"]
    assert "toskit check --format github" in steps[2]["run"]
    upload = steps[3]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert (
        "inputs.sarif != ''" in upload["if"]
        and upload["with"]["sarif_file"] == "${{ inputs.sarif }}"
    )
    assert set(spec["inputs"]) == {"files", "args", "sarif", "python-version", "package"}
    for s in steps:  # every run step names its shell (composite actions require it)
        assert "run" not in s or s["shell"] == "bash"
        # inputs reach scripts through env, never pasted into the script text
        assert "${{" not in s.get("run", "")


def _run_check_step(
    tmp_path: Path, files: str, sarif: str = "", args: str = ""
) -> tuple[int, str, Path]:
    output = tmp_path / "github_output"
    output.write_text("")
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        TOSKIT_FILES=files,
        TOSKIT_ARGS=args,
        TOSKIT_SARIF=sarif,
        GITHUB_OUTPUT=str(output),
    )
    done = subprocess.run(
        ["bash", "-e", "-c", step("toskit check")["run"]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.returncode, done.stdout, output


def test_check_step_annotates_and_writes_sarif(tmp_path):
    assert shutil.which("toskit", path=str(Path(sys.executable).parent))
    (tmp_path / "templates").mkdir()
    shutil.copy(EXAMPLES / "service.yaml", tmp_path / "templates" / "service.yaml")
    shutil.copy(EXAMPLES / "web-shop.yaml", tmp_path / "templates" / "web-shop.yaml")
    status, out, output = _run_check_step(tmp_path, "templates", sarif="toskit.sarif", args="-j 1")
    assert status == 1
    rows = github_rows(out)
    assert ("templates/service.yaml", 30, 18, "unknown-property", "error") in rows
    assert {f for f, *_ in rows} == {"templates/service.yaml"}  # the clean template has none
    assert sarif_rows((tmp_path / "toskit.sarif").read_text()) == rows
    assert output.read_text() == "status=1\n"
    # A clean run: status 0, no annotation, no SARIF file asked for.
    status, out, output = _run_check_step(tmp_path, "templates/web-shop.yaml")
    assert (status, out, output.read_text()) == (0, "", "status=0\n")
    assert json.loads((tmp_path / "toskit.sarif").read_text())["runs"][0]["results"]


def test_readme_workflow_uses_the_actions_inputs():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## In CI and pre-commit") :]
    blocks = re.findall(r"```yaml\n(.*?)```", section, re.S)
    workflow = next(yaml.safe_load(b) for b in blocks if "uses: toskit/toskit@" in b)
    steps = next(iter(workflow["jobs"].values()))["steps"]
    used = next(s for s in steps if s.get("uses", "").startswith("toskit/toskit@"))
    assert set(used.get("with", {})) <= set(action()["inputs"])
    assert workflow["permissions"]["security-events"] == "write"  # what the SARIF upload needs
    hooks = next(yaml.safe_load(b) for b in blocks if "rev:" in b and "toskit-check" in b)
    ids = {hook["id"] for repo in hooks["repos"] for hook in repo["hooks"]}
    manifest = {
        hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    assert ids <= manifest
