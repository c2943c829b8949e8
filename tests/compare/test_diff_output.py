"""Issue #29 item 6: `toskit diff -o` never destroys a file; git:REV:PATH reads only blobs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from compare_fixtures import BASE

import toskit
from toskit import cli
from toskit.compare import cli as diff_cli

NEW = BASE.replace("replicas: 2", "replicas: 3")


@pytest.fixture
def sides(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.yaml").write_text(BASE)
    (tmp_path / "b.yaml").write_text(NEW)
    return tmp_path


def run(argv, capsys):
    status = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("output", ["a.yaml", "b.yaml", "./b.yaml", "../{dir}/a.yaml"])
def test_never_an_input(sides, capsys, output):
    output = output.format(dir=sides.name)
    status, out, err = run(["diff", "a.yaml", "b.yaml", "-o", output, "--force"], capsys)
    assert status == 2 and "is the input file" in err
    assert (sides / "a.yaml").read_text() == BASE and (sides / "b.yaml").read_text() == NEW


def test_never_through_a_symlink(sides, capsys):
    victim = sides / "victim.txt"
    victim.write_text("keep me")
    os.symlink(victim, sides / "out.txt")
    status, _, err = run(["diff", "a.yaml", "b.yaml", "-o", "out.txt", "--force"], capsys)
    assert status == 2 and "symbolic link" in err
    assert victim.read_text() == "keep me"


def test_foreign_file_needs_force(sides, capsys):
    (sides / "notes.txt").write_text("my notes")
    status, _, err = run(["diff", "a.yaml", "b.yaml", "-o", "notes.txt"], capsys)
    assert status == 2 and "--force" in err and (sides / "notes.txt").read_text() == "my notes"
    status, _, err = run(["diff", "a.yaml", "b.yaml", "-o", "notes.txt", "--force"], capsys)
    assert status == 0 and "replicas: 2 → 3" in (sides / "notes.txt").read_text()


@pytest.mark.parametrize("fmt", ["text", "json", "html", "github", "sarif"])
def test_own_report_is_replaced_atomically(sides, capsys, fmt):
    out = sides / f"report.{fmt}"
    assert run(["diff", "a.yaml", "b.yaml", "--format", fmt, "-o", out], capsys)[0] == 0
    first = out.read_text()
    (sides / "b.yaml").write_text(NEW.replace("replicas: 3", "replicas: 4"))
    status, stdout, err = run(["diff", "a.yaml", "b.yaml", "--format", fmt, "-o", out], capsys)
    assert status == 0, err
    assert stdout == "" and "wrote" in err
    second = out.read_text()
    if fmt not in ("github", "sarif"):  # those list what NEW introduces: nothing here
        assert second != first and ("4" in second)
    if fmt == "json":
        assert json.loads(second)["generator"] == "toskit"
    assert not [p for p in os.listdir(sides) if p.startswith(".toskit-")]  # no temporary left


def test_fail_on_still_applies_with_output(sides, capsys):
    status, _, _ = run(["diff", "a.yaml", "b.yaml", "-o", "r.txt", "--fail-on", "changes"], capsys)
    assert status == 1 and (sides / "r.txt").exists()


def test_show_output_still_refuses_its_input(sides, capsys):
    status, _, err = run(["show", "a.yaml", "-o", "a.yaml"], capsys)
    assert status == 2 and (sides / "a.yaml").read_text() == BASE


# -- git:REV:PATH --------------------------------------------------------------------

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture
def repo(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "svc").mkdir(parents=True)
    (root / "svc" / "main.yaml").write_text(BASE)
    # Things beside the template that the old `git archive` extraction tripped on.
    os.symlink("/etc/passwd", root / "svc" / "abs-link")
    os.symlink("../../outside", root / "svc" / "out-link")
    (root / "svc" / "big.bin").write_bytes(b"\0" * 300_000)
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run([*GIT, "-C", str(root), "add", "."], check=True)
    subprocess.run([*GIT, "-C", str(root), "commit", "-q", "-m", "v1"], check=True)
    monkeypatch.chdir(root)
    return root


@needs_git
def test_only_the_template_blob_is_read(repo, capsys):
    (repo / "svc" / "main.yaml").write_text(NEW)
    status, out, err = run(["diff", "git:main:svc/main.yaml", "svc/main.yaml"], capsys)
    assert status == 0, err
    assert "~ replicas: 2 → 3" in out and "git:main:svc/main.yaml:" in out


@needs_git
@pytest.mark.parametrize(
    "spec,message",
    [
        ("git:main:svc/nope.yaml", "svc/nope.yaml does not exist in main"),
        ("git:main:svc", "svc is a folder in main"),
        ("git:main:svc/abs-link", "is a symbolic link in main"),
        ("git:main:" + "x/" * 2_500 + "a.yaml", "not a usable path"),
        ("git:main:../x.yaml", "leaves the repository"),
        ("git:nosuch:svc/main.yaml", "unknown revision 'nosuch'"),
    ],
)
def test_git_refusals_are_messages(repo, capsys, spec, message):
    status, out, err = run(["diff", spec, "svc/main.yaml"], capsys)
    assert status == 2 and message in err and "Traceback" not in err
    assert len(err.splitlines()) == 1


@needs_git
def test_blob_size_is_bounded(repo, capsys, monkeypatch):
    from toskit.source import document

    monkeypatch.setitem(document.LIMIT_DEFAULTS, "max_size", 1_000)
    status, _, err = run(["diff", "git:main:svc/big.bin", "svc/main.yaml"], capsys)
    assert status == 2 and "over the loader's max_size of 1,000" in err


@needs_git
def test_imports_read_lazily_at_the_revision(repo, capsys):
    (repo / "svc" / "types.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n  my.T:\n    derived_from: tosca.nodes.Root\n"
        "    properties: {x: {type: integer, default: 1}}\n"
    )
    (repo / "svc" / "uses.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [types.yaml, abs-link, ../../../etc/passwd]\n"
        "topology_template:\n  node_templates:\n    n: {type: my.T}\n"
    )
    subprocess.run([*GIT, "-C", str(repo), "add", "."], check=True)
    subprocess.run([*GIT, "-C", str(repo), "commit", "-q", "-m", "v2"], check=True)
    (repo / "svc" / "types.yaml").write_text(
        (repo / "svc" / "types.yaml").read_text().replace("default: 1", "default: 2")
    )
    old = diff_cli.read_side("git:main:svc/uses.yaml")
    assert old.node_templates["n"].properties["x"] == 1
    errors = [d for d in old.diagnostics if d.code == "import-error"]
    assert (
        len(errors) == 2
    )  # the link and the path out of the repository: diagnostics, no traceback
    assert all(d.file == "git:main:svc/uses.yaml" for d in old.diagnostics)
    assert "symbolic link" in errors[0].message
    d = toskit.compare(old, toskit.load(repo / "svc" / "uses.yaml"))
    (v,) = d.values
    assert (v.old, v.new) == (1, 2) and v.old_location.startswith("git:main:svc/types.yaml:")


@needs_git
def test_dot_path_is_from_the_current_folder(repo, capsys, monkeypatch):
    monkeypatch.chdir(repo / "svc")
    assert diff_cli.read_side("git:main:./main.yaml").name == "git:main:./main.yaml"
    with pytest.raises(
        toskit.ToskitError,
        match="main.yaml does not exist in main .PATH is from the repository root",
    ):
        diff_cli.read_side("git:main:main.yaml")


def test_a_very_long_file_name_is_a_short_message(sides, capsys):
    status, _, err = run(["diff", "x" * 5_000 + ".yaml", "a.yaml"], capsys)
    assert status == 2 and len(err) < 500 and err.startswith("toskit diff: ")


@needs_git
def test_names_with_url_characters(repo, capsys):
    """'#', '?', '%' and spaces in the template's path and in an import's."""
    (repo / "svc" / "t #1%20?.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n  my.T:\n    derived_from: tosca.nodes.Root\n"
        "    properties: {x: {type: integer, default: 1}}\n"
    )
    (repo / "svc" / "main #?.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: ['t #1%20?.yaml']\n"
        "topology_template:\n  node_templates:\n    n: {type: my.T}\n"
    )
    subprocess.run([*GIT, "-C", str(repo), "add", "."], check=True)
    subprocess.run([*GIT, "-C", str(repo), "commit", "-q", "-m", "v2"], check=True)
    old = diff_cli.read_side("git:main:svc/main #?.yaml")
    assert old.diagnostics == [] and old.node_templates["n"].properties["x"] == 1
    (repo / "svc" / "t #1%20?.yaml").write_text(
        (repo / "svc" / "t #1%20?.yaml").read_text().replace("default: 1", "default: 2")
    )
    status, out, err = run(["diff", "git:main:svc/main #?.yaml", "svc/main #?.yaml"], capsys)
    assert status == 0, err
    assert "~ x: 1 → 2  (default: my.T @ git:main:svc/t #1%20?.yaml:5:46" in out
    assert "toskit-" not in out  # no placeholder reaches the report
