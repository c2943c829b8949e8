"""`toskit diff OLD NEW`: formats, --fail-on, git:REV:PATH, errors (exit 2)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from compare_fixtures import BASE

import toskit
from toskit import cli


@pytest.fixture
def pair(tmp_path):
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(BASE)
    new.write_text(
        BASE.replace("default: 5432", "default: 6543").replace("replicas: 2", "replicas: two")
    )
    return old, new


def run(argv, capsys):
    status = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_text_is_the_default(pair, capsys):
    status, out, err = run(["diff", *pair], capsys)
    assert status == 0
    assert out.startswith(f"diff {pair[0]} → {pair[1]}")
    assert "~ endpoint.port: 5432 → 6543  (default: my.Endpoint @ " in out
    assert f"+ {pair[1]}:25:19: error[type-mismatch]" in out


def test_json_format(pair, capsys):
    status, out, _ = run(["diff", *pair, "--format", "json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert data["summary"]["introduced"] == 1
    assert any(v["path"] == "endpoint.port" for v in data["values"])


def test_html_format_is_a_standalone_page(pair, tmp_path, capsys):
    page = tmp_path / "diff.html"
    status, out, err = run(["diff", *pair, "--format", "html", "-o", page], capsys)
    assert status == 0 and out == "" and f"wrote {page}" in err
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "toskit diff" in text
    assert "<script" not in text.lower()
    assert "6543" in text


def test_fail_on_new_errors(pair, capsys):
    status, _, err = run(["diff", *pair, "--fail-on", "new-errors"], capsys)
    assert status == 1 and "introduces 1 error" in err
    # The other way round the error is fixed: nothing new, exit 0.
    status, _, _ = run(["diff", pair[1], pair[0], "--fail-on", "new-errors"], capsys)
    assert status == 0


def test_fail_on_changes(pair, capsys):
    assert run(["diff", pair[0], pair[0], "--fail-on", "changes"], capsys)[0] == 0
    assert run(["diff", *pair, "--fail-on", "changes"], capsys)[0] == 1


def test_missing_file_exits_2(pair, tmp_path, capsys):
    status, out, err = run(["diff", pair[0], tmp_path / "nope.yaml"], capsys)
    assert status == 2 and out == "" and err.startswith("toskit diff: ")


def test_usage_error_exits_2(capsys):
    assert cli.main(["diff", "only-one.yaml"]) == 2
    assert cli.main(["diff", "a", "b", "--format", "xml"]) == 2


# git with a throwaway identity, whatever the machine's configuration.
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]


def _commit_all(repo, message: str) -> None:
    """A new repository at ``repo`` with every file in it committed."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run([*GIT, "-C", str(repo), "add", "."], check=True)
    subprocess.run([*GIT, "-C", str(repo), "commit", "-q", "-m", message], check=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_revision_side(tmp_path, monkeypatch, capsys):
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    svc = repo / "sub" / "svc.yaml"
    svc.write_text(BASE)
    _commit_all(repo, "v1")
    svc.write_text(BASE.replace("replicas: 2", "replicas: 7"))
    monkeypatch.chdir(repo / "sub")  # ./PATH is relative to the current directory
    status, out, err = run(["diff", "git:main:./svc.yaml", "svc.yaml"], capsys)
    assert status == 0, err
    assert out.startswith("diff git:main:./svc.yaml → svc.yaml")
    assert (
        "~ replicas: 2 → 7  (template @ git:main:sub/svc.yaml:25:19 → template @ svc.yaml:25:19)"
        in out
    )
    status, out2, err = run(
        ["diff", "git:main:sub/svc.yaml", "svc.yaml"], capsys
    )  # PATH: from the root
    assert status == 0 and out2.splitlines()[1:] == out.splitlines()[1:]
    status, _, err = run(["diff", "git:main:svc.yaml", "svc.yaml"], capsys)
    assert (
        status == 2 and "svc.yaml does not exist in main (PATH is from the repository root" in err
    )
    status, _, err = run(["diff", "git:nosuchrev:svc.yaml", "svc.yaml"], capsys)
    assert status == 2 and "git:nosuchrev:svc.yaml" in err


@pytest.mark.parametrize("spec", ["git:main", "git::svc.yaml", "git:--output=x:svc.yaml"])
def test_bad_git_specs_exit_2(spec, pair, capsys):
    status, _, err = run(["diff", spec, pair[1]], capsys)
    assert status == 2 and "toskit diff:" in err


def test_python_dash_m(pair):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toskit",
            "diff",
            str(pair[0]),
            str(pair[1]),
            "--fail-on",
            "new-errors",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "endpoint.port" in done.stdout


TYPES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.T:
    derived_from: tosca.nodes.Root
    properties:
      x: {type: integer, default: DEFAULT}
"""
USES = """\
tosca_definitions_version: tosca_simple_yaml_1_3
imports:
  - types.yaml
topology_template:
  node_templates:
    n:
      type: my.T
      properties: {y: 1}
"""


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_side_reads_its_imports_at_the_same_revision(tmp_path, monkeypatch, capsys):
    repo = tmp_path / "repo"
    (repo / "svc").mkdir(parents=True)
    (repo / "svc" / "types.yaml").write_text(TYPES.replace("DEFAULT", "1"))
    (repo / "svc" / "main.yaml").write_text(USES)
    _commit_all(repo, "v1")
    # Only the imported file changes in the working tree.
    (repo / "svc" / "types.yaml").write_text(TYPES.replace("DEFAULT", "5"))
    monkeypatch.chdir(repo)
    status, out, err = run(
        ["diff", "git:main:svc/main.yaml", "svc/main.yaml", "--format", "json"], capsys
    )
    assert status == 0, err
    data = json.loads(out)
    assert data["old"] == "git:main:svc/main.yaml"
    (value,) = data["values"]
    assert (value["path"], value["old"], value["new"]) == ("x", 1, 5)
    assert value["old_source"] == value["new_source"] == "default: my.T"
    # The unknown property `y` is the same problem on both sides; no
    # temporary path leaks into the report.
    assert data["diagnostics"] == {"introduced": [], "fixed": []}
    from toskit.compare.cli import read_side

    old = read_side("git:main:/svc/main.yaml")  # "/PATH": from the repository root too
    assert old.name == "git:main:/svc/main.yaml"
    assert [d.file for d in old.diagnostics] == ["git:main:svc/main.yaml"]
    monkeypatch.chdir(repo / "svc")
    assert read_side("git:main:./main.yaml").node_templates["n"].properties["x"] == 1
    with pytest.raises(toskit.ToskitError, match="svc/nope.yaml does not exist in main"):
        read_side("git:main:./nope.yaml")
    with pytest.raises(toskit.ToskitError, match="leaves the repository"):
        read_side("git:main:../../x.yaml")
