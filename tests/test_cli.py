"""`toskit check` / `toskit show` and `python -m toskit`."""

import io
import json
import subprocess
import sys

import pytest

from toskit import cli
from toskit.diagnostics import Diagnostic

GOOD_TOSCA = "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types: {}\n"
BAD_ROLES = 'roles_metadata:\n  c:\n    conditions:\n      - condition: "x"\n          then: true\n'


@pytest.fixture
def files(tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD_TOSCA)
    (tmp_path / "roles.yaml").write_text(BAD_ROLES)
    (tmp_path / "dup.yaml").write_text("a: 1\na: 2\n")
    (tmp_path / "latin1.yaml").write_bytes("a: caf\xe9\n".encode("latin-1"))
    return tmp_path


def run(argv, capsys):
    status = cli.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_clean_file_exits_0(files, capsys):
    status, out, err = run(["check", files / "good.yaml"], capsys)
    assert status == 0
    assert out == ""
    assert "1 file checked: 0 errors, 0 warnings" in err


def test_errors_exit_1_and_print_every_diagnostic(files, capsys):
    status, out, _ = run(["check", files / "roles.yaml", files / "dup.yaml"], capsys)
    assert status == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{files / 'roles.yaml'}:5:11: error[yaml-syntax]: ")
    assert lines[1].startswith("  hint: 'then:' is indented deeper than 'condition:'")
    assert f"{files / 'dup.yaml'}:2:1: error[duplicate-key]: duplicate key 'a'" in out


def test_missing_file_exits_2_and_other_files_are_still_checked(files, capsys):
    status, out, err = run(["check", files / "nope.yaml", files / "dup.yaml"], capsys)
    assert status == 2
    assert "no such file" in err
    assert "duplicate-key" in out


def test_not_utf8_exits_2(files, capsys):
    status, _, err = run(["check", files / "latin1.yaml"], capsys)
    assert status == 2
    assert "not UTF-8" in err


def test_directory_checks_its_yaml_files(files, capsys):
    sub = files / "sub"
    sub.mkdir()
    (sub / "x.yml").write_text("k: 1\nk: 2\n")
    (sub / "notes.txt").write_text("not yaml: [")
    (files / "latin1.yaml").unlink()
    status, out, err = run(["check", files], capsys)
    assert status == 1
    assert f"{sub / 'x.yml'}:2:1: error[duplicate-key]" in out
    assert f"{files / 'dup.yaml'}:2:1: error[duplicate-key]" in out
    assert "notes.txt" not in out
    assert "4 files checked: 3 errors, 0 warnings" in err


def test_empty_directory_exits_2(tmp_path, capsys):
    status, _, err = run(["check", tmp_path], capsys)
    assert status == 2
    assert "directory" in err


def test_quiet_has_no_summary(files, capsys):
    status, _, err = run(["check", "-q", files / "good.yaml"], capsys)
    assert (status, err) == (0, "")


def test_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("x: [1,\n"))
    status, out, _ = run(["check", "-"], capsys)
    assert status == 1
    assert out.startswith("<stdin>:2:1: error[yaml-syntax]")


@pytest.mark.parametrize("argv", [[], ["check"], ["frobnicate"], ["check", "--nope", "x"]], ids=str)
def test_usage_errors_exit_2(argv, capsys):
    assert cli.main(argv) == 2


def test_version_exits_0(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("toskit ")


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ({"tosca_definitions_version": "tosca_2_0"}, "tosca"),
        ({"topology_template": {}}, "tosca"),
        ({"service_template": {}}, "tosca"),
        ({"node_types": {}}, "tosca"),
        ({"roles_metadata": {}}, "roles"),
        ([{"pk": 1, "model": "nailgun.release", "fields": {}}], "fuel-release"),
        ({"types": [{"name": "x"}]}, "schema"),
        ({"types": "not a list"}, "yaml"),
        ({"anything": 1}, "yaml"),
        ([1, 2], "yaml"),
        ("text", "yaml"),
        ({1: "non-string key"}, "yaml"),
    ],
    ids=lambda v: None if isinstance(v, str) and v.isalpha() else repr(v)[:30],
)
def test_detect_kind(value, kind):
    assert cli.detect_kind(value) == kind


def test_registered_checker_is_used_for_its_kind(files, capsys, monkeypatch):
    monkeypatch.setattr(cli, "CHECKERS", dict(cli.CHECKERS))
    seen = []

    def tosca_checker(text, name):
        seen.append(name)
        return [Diagnostic("warning", "missing-version", "no version", file=name, line=1)]

    cli.register_checker("tosca", tosca_checker)
    status, out, err = run(["check", files / "good.yaml", files / "dup.yaml"], capsys)
    assert seen == [str(files / "good.yaml")]  # dup.yaml is plain YAML
    assert status == 1  # the duplicate key is an error; the warning alone would be 0
    assert "warning[missing-version]" in out
    assert "1 error, 1 warning" in err


def test_register_unknown_kind():
    with pytest.raises(ValueError, match="unknown document kind"):
        cli.register_checker("xml", lambda text, name: [])


def test_show_writes_a_standalone_page(files, capsys):
    out_file = files / "out.html"
    status, _, err = run(["show", files / "good.yaml", "-o", out_file], capsys)
    assert status == 0
    assert out_file.read_text().lstrip().lower().startswith("<!doctype html")
    assert f"wrote {out_file}" in err


def test_show_default_output_name(files, capsys):
    status, _, _ = run(["show", files / "good.yaml"], capsys)
    assert status == 0
    assert (files / "good.html").exists()


def test_show_missing_file_exits_2(files, capsys):
    status, _, err = run(["show", files / "nope.yaml", "-o", files / "x.html"], capsys)
    assert status == 2
    assert err.startswith("toskit show:")


def test_python_dash_m_toskit(files):
    proc = subprocess.run(
        [sys.executable, "-m", "toskit", "check", str(files / "dup.yaml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "error[duplicate-key]" in proc.stdout


def test_json_format(files, capsys):
    status, out, _ = run(
        [
            "check",
            "--format",
            "json",
            "-q",
            files / "dup.yaml",
            files / "good.yaml",
            files / "nope",
        ],
        capsys,
    )
    assert status == 2
    report = json.loads(out)
    assert [entry["file"] for entry in report] == [
        str(files / "dup.yaml"),
        str(files / "good.yaml"),
        str(files / "nope"),
    ]
    assert report[0]["kind"] == "yaml"
    assert report[0]["diagnostics"] == [
        {
            "severity": "error",
            "code": "duplicate-key",
            "message": "duplicate key 'a' (first written at line 1)",
            "path": "a",
            "file": str(files / "dup.yaml"),
            "line": 2,
            "column": 1,
            "hint": "a key may appear only once in a mapping; the first value is kept",
        }
    ]
    assert report[1] == {"file": str(files / "good.yaml"), "kind": "tosca", "diagnostics": []}
    assert "no such file" in report[2]["error"]


# Each kind of document reaches its own system's checker.
KIND_CASES = {
    "tosca-missing-property": (
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n  App:\n    derived_from: tosca.nodes.Root\n"
        "    properties:\n      port: {type: integer}\n"
        "topology_template:\n  node_templates:\n    app: {type: App}\n",
        "missing-property",
    ),
    "roles-bad-expression": (
        "roles_metadata:\n  controller:\n    conditions:\n      - \"cluster:mode = 'x'\"\n",
        "SyntaxError",
    ),
    "schema-typo": (
        "types:\n- name: root\n  map:\n    fields:\n    - {name: a, type: {sclar: string}}\n",
        "field not declared in schema",
    ),
}


@pytest.mark.parametrize("case", sorted(KIND_CASES))
def test_each_kind_is_checked_by_its_system(case, tmp_path, capsys):
    text, expected = KIND_CASES[case]
    path = tmp_path / f"{case}.yaml"
    path.write_text(text)
    status, out, _ = run(["check", path], capsys)
    assert status == 1
    assert expected in out
    assert f"{path}:" in out  # every diagnostic is located in the file


def test_the_real_fuel_release_checks_clean(capsys):
    from pathlib import Path

    release = Path(__file__).resolve().parents[1] / "conformance" / "fuel" / "openstack.yaml"
    status, out, _ = run(["check", release], capsys)
    assert (status, out) == (0, "")


def test_checkers_are_imported_only_for_their_kind():
    code = (
        "import sys, io, contextlib\n"
        "from toskit import cli\n"
        "with contextlib.redirect_stderr(io.StringIO()):\n"
        "    cli.check_text('a: 1\\n', 'x.yaml')\n"
        "print(','.join(m for m in ('toskit.tosca', 'toskit.conditions', 'toskit.schema')"
        " if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
