"""The default import root is the enclosing project (issue #38 item 9).

``- ../lib/types.yaml`` loads when the template sits in a project (a folder
holding ``.git`` or an unpacked CSAR's ``TOSCA-Metadata/TOSCA.meta``); with
no project the root stays the template's folder; ``root=`` / ``--root``
override; ``$HOME/.ssh`` and ``/proc/self/environ`` stay out of reach; no
diagnostic shows an absolute path of the machine.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import toskit
from toskit.cli import main
from toskit.source.imports import project_root

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"
V2 = "tosca_definitions_version: tosca_2_0\n"
LIB = {
    V13: "node_types:\n  lib.Server:\n    derived_from: tosca.nodes.Compute\n",
    V2: "node_types:\n  Server:\n    derived_from: Compute\n",
}
SECRET = "SECRET_TOKEN_12345"


def _layout(top: Path, version: str, marker: str | None) -> Path:
    """top/{marker}, top/lib/types.yaml, top/app/svc/t.yaml importing ../../lib/types.yaml."""
    if marker == ".git":
        (top / ".git").mkdir(parents=True)
    elif marker == ".git-file":  # worktrees and submodules: .git is a file
        top.mkdir(parents=True, exist_ok=True)
        (top / ".git").write_text("gitdir: /elsewhere\n")
    elif marker == "csar":
        (top / "TOSCA-Metadata").mkdir(parents=True)
        (top / "TOSCA-Metadata" / "TOSCA.meta").write_text("TOSCA-Meta-File-Version: 1.0\n")
    (top / "lib").mkdir(parents=True, exist_ok=True)
    (top / "lib" / "types.yaml").write_text(version + LIB[version])
    svc = top / "app" / "svc"
    svc.mkdir(parents=True)
    node = "lib.Server" if version == V13 else "Server"
    template = svc / "t.yaml"
    topology = "topology_template" if version == V13 else "service_template"
    template.write_text(
        version
        + "imports:\n  - ../../lib/types.yaml\n"
        + f"{topology}:\n  node_templates:\n    s:\n      type: {node}\n"
    )
    return template


@pytest.fixture(autouse=True)
def _home_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder beside the projects, so the tests do not depend on the real one."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.mark.parametrize("version", [V13, V2], ids=["1.3", "2.0"])
@pytest.mark.parametrize("marker", [".git", ".git-file", "csar"])
def test_parent_imports_load_inside_a_project(tmp_path: Path, version: str, marker: str) -> None:
    template = _layout(tmp_path / "proj", version, marker)
    st = toskit.load(template)
    assert st.diagnostics == [], [str(d) for d in st.diagnostics]
    assert st.ok and "s" in st.node_templates


@pytest.mark.parametrize("version", [V13, V2], ids=["1.3", "2.0"])
def test_without_a_project_the_root_is_the_templates_folder(tmp_path: Path, version: str) -> None:
    template = _layout(tmp_path / "loose", version, None)
    st = toskit.load(template)
    errors = [d for d in st.diagnostics if d.code == "import-error"]
    assert len(errors) == 1
    assert "outside the import root" in errors[0].message
    assert "no enclosing project" in errors[0].message
    assert "--root" in (errors[0].hint or "")
    # root= still overrides, wider and narrower
    wide = toskit.load(template, root=tmp_path / "loose")
    assert wide.diagnostics == [], [str(d) for d in wide.diagnostics]


def test_root_narrows_inside_a_project(tmp_path: Path) -> None:
    template = _layout(tmp_path / "proj", V2, ".git")
    st = toskit.load(template, root=template.parent)
    assert [d.code for d in st.diagnostics if d.severity == "error"][:1] == ["import-error"]
    assert "(the root given)" in st.diagnostics[0].message


def test_no_diagnostic_shows_an_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    template = _layout(tmp_path / "loose", V2, None)
    monkeypatch.chdir(tmp_path)
    st = toskit.load(os.path.relpath(template))
    [error] = [d for d in st.diagnostics if d.code == "import-error"]
    assert str(tmp_path) not in str(error) + (error.hint or "")
    assert "'loose/app/svc'" in error.message
    # also when the template is named by an absolute path: the root is shown relative
    st = toskit.load(template)
    [error] = [d for d in st.diagnostics if d.code == "import-error"]
    assert str(tmp_path) not in error.message + (error.hint or "")


def test_home_under_git_does_not_open_ssh(tmp_path: Path, _home_elsewhere: Path) -> None:
    """A dotfiles repository at $HOME (a fake one) is never the default root: $HOME/.ssh stays out."""
    home = _home_elsewhere
    (home / ".git").mkdir()
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id.yaml").write_text(f"node_types: {{{SECRET}: {{derived_from: [x}}}}\n")
    project = home / "work"
    project.mkdir()
    for reference in ("../.ssh/id.yaml", str(home / ".ssh" / "id.yaml"), "link/id.yaml"):
        if reference.startswith("link") and not (project / "link").exists():
            (project / "link").symlink_to(home / ".ssh")
        (project / "t.yaml").write_text(V2 + f"imports:\n  - {reference}\n")
        st = toskit.load(project / "t.yaml")
        [error] = [d for d in st.diagnostics if d.code == "import-error"]
        assert "outside the import root" in error.message
        assert SECRET not in repr([str(d) for d in st.diagnostics])
    assert project_root(str(project)) is None
    assert project_root(str(home)) is None


def test_a_project_never_opens_proc_or_ssh(tmp_path: Path, _home_elsewhere: Path) -> None:
    """Inside a project: /proc/self/environ and $HOME/.ssh (a fake one) are outside the root."""
    (_home_elsewhere / ".ssh").mkdir()
    (_home_elsewhere / ".ssh" / "id.yaml").write_text(f"{SECRET}: 1\n")
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    refs = [
        "/proc/self/environ",
        "file:///proc/self/environ",
        str(_home_elsewhere / ".ssh" / "id.yaml"),
        "../home/.ssh/id.yaml",
    ]
    (project / "t.yaml").write_text(V2 + "imports:\n" + "".join(f"  - {r}\n" for r in refs))
    st = toskit.load(project / "t.yaml")
    errors = [d for d in st.diagnostics if d.code == "import-error"]
    assert len(errors) == len(refs)
    assert all("outside the import root" in d.message for d in errors)
    text = repr([str(d) for d in st.diagnostics])
    assert SECRET not in text and "PATH=" not in text


def test_project_root_is_the_nearest_marker(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    inner = outer / "vendor" / "inner"
    (inner / "deep").mkdir(parents=True)
    (outer / ".git").mkdir()
    (inner / ".git").write_text("gitdir: x\n")
    assert project_root(str(inner / "deep")) == str(inner)
    assert project_root(str(outer / "vendor")) == str(outer)
    assert project_root(str(tmp_path)) is None


def test_loads_text_uses_the_current_directorys_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    template = _layout(tmp_path / "proj", V2, ".git")
    monkeypatch.chdir(template.parent)
    st = toskit.loads(template.read_text())
    assert st.diagnostics == [], [str(d) for d in st.diagnostics]


def test_cli_check_inside_a_project_and_the_refusal_names_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    inside = _layout(tmp_path / "proj", V13, ".git")
    assert main(["check", str(inside.relative_to(tmp_path))]) == 0
    loose = _layout(tmp_path / "loose", V13, None)
    capsys.readouterr()
    assert main(["check", str(loose.relative_to(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert "outside the import root" in out and "--root" in out
    assert str(tmp_path) not in out
    assert main(["check", "--root", "loose", str(loose.relative_to(tmp_path))]) == 0
