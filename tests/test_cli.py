"""`toskit check` / `toskit show` and `python -m toskit`."""

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

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
    assert out == f"checked {files / 'good.yaml'} as TOSCA 1.3 template: 0 errors, 0 warnings\n"
    assert "1 file checked: 0 errors, 0 warnings" in err


def test_errors_exit_1_and_print_every_diagnostic(files, capsys):
    status, out, _ = run(["check", files / "roles.yaml", files / "dup.yaml"], capsys)
    assert status == 1
    lines = out.splitlines()
    assert (
        lines[0]
        == f"checked {files / 'roles.yaml'} as YAML that does not parse: 1 error, 0 warnings"
    )
    assert lines[1].startswith(f"{files / 'roles.yaml'}:5:11: error[yaml-syntax]: ")
    assert lines[2].startswith("  hint: 'then:' is indented deeper than 'condition:'")
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
    assert out.splitlines()[1].startswith("<stdin>:2:1: error[yaml-syntax]")
    assert out.startswith("checked <stdin> as YAML that does not parse: 1 error")


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
    status, out, err = run(["check", "-j", "1", files / "good.yaml", files / "dup.yaml"], capsys)
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
            # The structure of the finding (issue #28): its range, subject, related, fixes.
            "end_line": 2,
            "end_column": 2,
            "hint": "a key may appear only once in a mapping; the first value is kept",
            "subject": {"kind": "document", "name": None, "path": ["a"], "section": None},
            "related": [
                {
                    "label": "the first occurrence (its value is kept)",
                    "file": str(files / "dup.yaml"),
                    "line": 1,
                    "column": 1,
                    "end_line": 1,
                    "end_column": 2,
                }
            ],
            "fixes": [],
        }
    ]
    assert report[1] == {
        "file": str(files / "good.yaml"),
        "kind": "tosca",
        "label": "TOSCA 1.3 template",
        "tosca_version": "1.3",
        "counts": {"error": 0, "warning": 0, "info": 0},
        "omitted": {},
        "diagnostics": [],
    }
    assert report[0]["counts"] == {"error": 1, "warning": 0, "info": 0}
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
    assert (status, out) == (0, f"checked {release} as Fuel release file: 0 errors, 0 warnings\n")


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


# ---- the kind of each file, in text and JSON ----

FUEL_RELEASE = Path(__file__).resolve().parents[1] / "conformance" / "fuel" / "openstack.yaml"

KIND_LABELS = {
    "v20.yaml": ("tosca_definitions_version: tosca_2_0\n", "tosca", "TOSCA 2.0 template", "2.0"),
    "v13.yaml": (GOOD_TOSCA, "tosca", "TOSCA 1.3 template", "1.3"),
    "v10.yaml": (
        "tosca_definitions_version: tosca_simple_yaml_1_0\n",
        "tosca",
        "TOSCA 1.0 template",
        "1.0",
    ),
    "noversion.yaml": ("node_types: {}\n", "tosca", "TOSCA template (no version)", None),
    "roles.yaml": (
        "roles_metadata:\n  controller:\n    name: Controller\n",
        "roles",
        "roles document",
        None,
    ),
    "schema.yaml": ("types:\n- name: r\n  scalar: numeric\n", "schema", "structural schema", None),
    "plain.yaml": ("a: 1\n", "yaml", "plain YAML", None),
    "empty.yaml": ("", "yaml", "empty YAML document", None),
    "broken.yaml": ("a: [1,\n", "yaml", "YAML that does not parse", None),
}


@pytest.mark.parametrize("name", sorted(KIND_LABELS))
def test_check_names_the_kind_it_detected(name, tmp_path, capsys):
    text, kind, label, version = KIND_LABELS[name]
    path = tmp_path / name
    path.write_text(text)
    status, out, _ = run(["check", path], capsys)
    assert out.splitlines()[0].startswith(f"checked {path} as {label}: ")
    status, out, _ = run(["check", "--format", "json", path], capsys)
    (entry,) = json.loads(out)
    assert (entry["kind"], entry["label"], entry["tosca_version"]) == (kind, label, version)


def test_check_names_a_fuel_release(capsys):
    status, out, _ = run(["check", "--format", "json", FUEL_RELEASE], capsys)
    (entry,) = json.loads(out)
    assert (status, entry["kind"], entry["label"]) == (0, "fuel-release", "Fuel release file")


def test_quiet_prints_only_the_diagnostics(files, capsys):
    status, out, err = run(["check", "-q", files / "good.yaml", files / "dup.yaml"], capsys)
    assert status == 1 and err == ""
    assert out.startswith(f"{files / 'dup.yaml'}:2:1: error[duplicate-key]")
    assert "checked" not in out


def test_an_unreadable_file_is_reported_and_not_counted(files, capsys):
    status, out, err = run(
        ["check", files / "good.yaml", files / "nope.yaml", files / "latin1.yaml"], capsys
    )
    assert status == 2
    assert f"toskit check: {files / 'nope.yaml'}: no such file" in err
    assert "not UTF-8" in err
    assert "1 file checked: 0 errors, 0 warnings; 2 files could not be read" in err
    assert out.count("checked ") == 1


# ---- -j N: processes, input order ----


def _many_files(folder, n=24):
    paths = []
    for i in range(n):
        path = folder / f"f{i:03}.yaml"
        # Every third file has an error, so the output differs from file to file.
        path.write_text(f"k{i}: 1\nk{i}: 2\n" if i % 3 == 0 else f"{GOOD_TOSCA}description: n{i}\n")
        paths.append(path)
    return paths


def test_jobs_output_is_in_input_order_and_identical(tmp_path, capsys):
    paths = _many_files(tmp_path)
    shuffled = paths[1::2] + paths[::2]  # an order that is not the sorted one
    one = run(["check", "-j", "1", *shuffled], capsys)
    two = run(["check", "-j", "2", *shuffled], capsys)
    assert one == two
    checked = [
        line.split(" as ")[0].removeprefix("checked ")
        for line in one[1].splitlines()
        if line.startswith("checked ")
    ]
    assert checked == [str(p) for p in shuffled]
    assert one[0] == 1 and "24 files checked: 8 errors, 0 warnings" in one[2]


def test_jobs_really_use_other_processes(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "CHECKERS", dict(cli.CHECKERS))
    cli.register_checker(
        "yaml", lambda text, name: [Diagnostic("info", "pid", str(os.getpid()), file=name, line=1)]
    )
    paths = []
    for i in range(16):
        paths.append(tmp_path / f"p{i:02}.yaml")
        paths[-1].write_text(f"a: {i}\n")
    status, out, _ = run(["check", "-j", "2", "--format", "json", *paths], capsys)
    pids = {entry["diagnostics"][0]["message"] for entry in json.loads(out)}
    assert status == 0
    assert str(os.getpid()) not in pids  # checked in forked workers, which see the registration
    assert [entry["file"] for entry in json.loads(out)] == [str(p) for p in paths]


def test_jobs_default_is_the_number_of_cpus():
    args = cli._parser().parse_args(["check", "x.yaml"])
    assert args.jobs == len(os.sched_getaffinity(0)) >= 1


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_jobs_must_be_a_positive_number(value, capsys):
    assert cli.main(["check", "-j", value, "x.yaml"]) == 2
    assert "-j/--jobs" in capsys.readouterr().err


# ---- show: every kind check understands, or a one-line refusal ----


def test_show_renders_a_roles_document_as_its_roles_view(tmp_path, capsys):
    path = tmp_path / "roles.yaml"
    path.write_text(KIND_LABELS["roles.yaml"][0])
    status, _, err = run(["show", path], capsys)
    assert status == 0, err
    page = (tmp_path / "roles.html").read_text()
    assert page.lower().startswith("<!doctype html")
    assert "Controller" in page and "SERVICE TEMPLATE" not in page.upper()
    assert "<script" not in page.lower()


def test_show_renders_a_fuel_release_as_its_releases(tmp_path, capsys):
    out_file = tmp_path / "fuel.html"
    status, _, err = run(["show", FUEL_RELEASE, "-o", out_file], capsys)
    assert status == 0, err
    page = out_file.read_text()
    assert "Fuel release" in page and "Newton on Ubuntu 16.04" in page
    assert "must be a map" not in page and "SERVICE TEMPLATE" not in page.upper()


def test_show_renders_a_schema_as_its_type_view(tmp_path, capsys):
    path = tmp_path / "schema.yaml"
    path.write_text(
        "types:\n- name: root\n  map:\n    fields:\n    - {name: size, type: {scalar: numeric}}\n"
    )
    status, _, err = run(["show", path], capsys)
    assert status == 0, err
    page = (tmp_path / "schema.html").read_text()
    assert "root" in page and "size" in page and "numeric" in page


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "a: 1\nb: [2]\n",
            "plain YAML (no TOSCA, roles, Fuel release or schema keys), nothing to show",
        ),
        ("", "nothing to show, it is empty"),
        (
            "roles_metadata:\n  c:\n    conditions:\n      - \"cluster:mode = 'x'\"\n",
            "cannot show this roles document",
        ),
    ],
    ids=["plain", "empty", "bad-roles"],
)
def test_show_refuses_what_it_cannot_render_in_one_line(text, reason, tmp_path, capsys):
    path = tmp_path / "doc.yaml"
    path.write_text(text)
    status, out, err = run(["show", path], capsys)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("toskit show: ") and reason in err
    assert not (tmp_path / "doc.html").exists()


# ---- show never destroys a file ----


def test_show_never_writes_onto_its_input(files, capsys):
    before = (files / "good.yaml").read_text()
    status, _, err = run(["show", files / "good.yaml", "-o", files / "good.yaml"], capsys)
    assert status == 2 and "is the input file" in err
    status, _, err = run(
        ["show", files / "good.yaml", "-o", files / "good.yaml", "--force"], capsys
    )
    assert status == 2
    assert (files / "good.yaml").read_text() == before


def test_show_of_an_html_named_input_does_not_overwrite_it(tmp_path, capsys):
    path = tmp_path / "t.html"
    path.write_text(GOOD_TOSCA)
    status, _, err = run(["show", path], capsys)
    assert status == 2 and "is the input file" in err
    assert path.read_text() == GOOD_TOSCA


def test_show_of_a_hard_link_to_the_input_is_refused(files, capsys):
    os.link(files / "good.yaml", files / "alias.html")
    status, _, err = run(
        ["show", files / "good.yaml", "-o", files / "alias.html", "--force"], capsys
    )
    assert status == 2 and "is the input file" in err
    assert (files / "good.yaml").read_text() == GOOD_TOSCA


def test_show_refuses_an_existing_file_it_did_not_write_unless_forced(tmp_path, capsys):
    readme = tmp_path / "README"
    readme.write_text(GOOD_TOSCA)
    (tmp_path / "README.html").write_text("<p>my own page</p>\n")
    status, _, err = run(["show", readme], capsys)
    assert status == 2 and "was not written by toskit (use --force" in err
    assert (tmp_path / "README.html").read_text() == "<p>my own page</p>\n"
    status, _, _ = run(["show", readme, "--force"], capsys)
    assert status == 0
    assert "made with toskit" in (tmp_path / "README.html").read_text()


def test_show_replaces_its_own_page_without_force(files, capsys):
    assert run(["show", files / "good.yaml"], capsys)[0] == 0
    assert run(["show", files / "good.yaml"], capsys)[0] == 0
    pages = [files / "roles.html", files / "schema.html"]
    (files / "r.yaml").write_text(KIND_LABELS["roles.yaml"][0])
    assert run(["show", files / "r.yaml", "-o", pages[0]], capsys)[0] == 0
    assert run(["show", files / "r.yaml", "-o", pages[0]], capsys)[0] == 0  # a non-TOSCA page too


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_show_never_writes_through_a_symlink(force, tmp_path, capsys):
    (tmp_path / "t.yaml").write_text(GOOD_TOSCA)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    victim = elsewhere / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / "link.html").symlink_to(victim)
    (tmp_path / "t.html").symlink_to(victim)  # a pre-existing default output
    status, _, err = run(
        ["show", tmp_path / "t.yaml", "-o", tmp_path / "link.html", *force], capsys
    )
    assert status == 2 and "symbolic link" in err
    status, _, err = run(["show", tmp_path / "t.yaml", *force], capsys)
    assert status == 2 and "symbolic link" in err
    assert victim.read_text() == "precious\n"


def test_show_empty_output_name_is_refused(files, capsys, monkeypatch):
    monkeypatch.chdir(files)
    status, _, err = run(["show", "good.yaml", "-o", ""], capsys)
    assert status == 2 and "output file name is empty" in err
    assert not (files / "good.html").exists()


def test_show_refuses_a_directory_or_device_as_output(files, capsys):
    (files / "dir.html").mkdir()
    assert run(["show", files / "good.yaml", "-o", files / "dir.html", "--force"], capsys)[0] == 2
    status, _, err = run(["show", files / "good.yaml", "-o", os.devnull, "--force"], capsys)
    assert status == 2 and "not a regular file" in err


def test_show_writes_through_a_temporary_file(files, capsys, monkeypatch):
    page = files / "good.html"
    assert run(["show", files / "good.yaml"], capsys)[0] == 0
    before = page.read_text()
    old_umask = os.umask(0o022)
    try:
        assert run(["show", files / "good.yaml"], capsys)[0] == 0
        assert stat.S_IMODE(page.stat().st_mode) == 0o644  # the umask, not mkstemp's 0600

        def broken_replace(src, dst):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "replace", broken_replace)
        status, _, err = run(["show", files / "good.yaml"], capsys)
    finally:
        os.umask(old_umask)
    assert status == 2 and "No space left on device" in err
    assert page.read_text() == before  # the old page is intact
    assert [p.name for p in files.iterdir() if p.name.startswith(".toskit-")] == []


# ---- terminal injection ----

ESCAPES = "\x1b]0;pwned\x07\x1b[2K\x1b[1A\r\x9b31m\u202e"


def _printable(text: str) -> bool:
    return not any(
        (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0 or c == "\u202e" for c in text
    )


def test_check_never_prints_control_characters_from_a_template(tmp_path, capsys):
    # A raw ESC in the file (echoed in the source line), escapes in a quoted key
    # (echoed in a message), and a key that tries to forge a summary line.
    quoted = tmp_path / "quoted.yaml"
    quoted.write_text(
        '"\\e]0;pwned\\a\\e[2K\\e[1A\\rk": 1\n"\\e]0;pwned\\a\\e[2K\\e[1A\\rk": 2\n'
        '"x\\n0 files checked: 0 errors": 1\n"x\\n0 files checked: 0 errors": 2\n'
    )
    raw = tmp_path / "raw.yaml"
    raw.write_text("raw: a\x1b]0;pwned\x07b\n")
    status, out, err = run(["check", quoted, raw], capsys)
    assert status == 1
    assert out.count("error[duplicate-key]") == 2 and "error[yaml-syntax]" in out
    assert _printable(out) and _printable(err)
    assert out.count("\u241b]0;pwned\u2407") == 2  # key and raw source line, shown as ␛]0;pwned␇
    assert not any(line.startswith("0 files checked") for line in out.splitlines())
    assert "x\u240a0 files checked: 0 errors" in out  # the line feed is shown, not obeyed
    status, out, _ = run(["check", "--format", "json", quoted, raw], capsys)
    assert _printable(out) and len(json.loads(out)[0]["diagnostics"]) == 2


def test_error_messages_escape_a_hostile_file_name(tmp_path, capsys):
    name = tmp_path / f"evil{ESCAPES}.yaml"
    status, out, err = run(["check", name], capsys)
    assert status == 2 and _printable(err) and "\u241b]0;pwned" in err
    status, out, err = run(["show", name, "-o", tmp_path / "x.html"], capsys)
    assert status == 2 and _printable(err)


def test_every_subcommand_output_is_escaped_diff_too(tmp_path, capsys):
    """Subcommands print through a stream that shows control characters (not line feeds)."""
    template = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n  A:\n    derived_from: tosca.nodes.Root\n    properties:\n      p: {type: string}\n"
        'topology_template:\n  node_templates:\n    n:\n      type: A\n      properties: {p: "v\\e]0;pwned\\aVALUE"}\n'
    )
    (tmp_path / "a.yaml").write_text(template.replace("VALUE", "1"))
    (tmp_path / "b.yaml").write_text(template.replace("VALUE", "2"))
    status, out, err = run(["diff", tmp_path / "a.yaml", tmp_path / "b.yaml"], capsys)
    assert status == 0
    assert "\u241b]0;pwned\u2407" in out and _printable(out) and _printable(err)
    assert out.count("\n") >= 2  # its own lines are kept


def test_the_terminal_stream_keeps_line_feeds_and_tabs_only():
    from toskit.terminal import TerminalStream

    target = io.StringIO()
    stream = TerminalStream(target)
    stream.write("a\tb\nc\x1b[2J\rd\x9b\n")
    assert target.getvalue() == "a\tb\nc\u241b[2J\u240dd\\x9b\n"


def test_a_terminal_that_is_not_utf8_gets_escapes(tmp_path):
    path = tmp_path / "k.yaml"
    path.write_text('"caf\\u00e9\\e[2J": 1\n"caf\\u00e9\\e[2J": 2\n')
    proc = subprocess.run(
        [sys.executable, "-m", "toskit", "check", str(path)],
        capture_output=True,
        env=dict(os.environ, PYTHONIOENCODING="ascii"),
        timeout=60,
    )
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert b"caf\\xe9\\u241b[2J" in proc.stdout and b"\x1b" not in proc.stdout


def test_the_caret_still_points_at_the_column(tmp_path, capsys):
    path = tmp_path / "ctl.yaml"
    path.write_bytes(b"key: a\x1bb\n")
    status, out, _ = run(["check", "-q", path], capsys)
    lines = out.splitlines()
    source = next(line for line in lines if line.startswith("    1 | "))
    caret = lines[lines.index(source) + 1]
    assert source[caret.index("^")] == "\u241b"  # under the stand-in of the ESC


def test_terminal_safe_maps_every_control_character():
    from toskit.terminal import terminal_safe

    every = (
        "".join(chr(c) for c in range(0x20)) + "\x7f" + "".join(chr(c) for c in range(0x80, 0xA0))
    )
    shown = terminal_safe(every + "\u2066é\t")
    assert _printable(shown) and shown.endswith("\\u2066é\t")
    assert len(terminal_safe("a\x1bb\nc")) == 5  # one stand-in per C0 character


# ---- a closed pipe ----


def test_check_into_a_closed_pipe_ends_quietly(tmp_path):
    for i in range(300):
        (tmp_path / f"d{i:03}.yaml").write_text("".join(f"k: {j}\n" for j in range(6)))
    proc = subprocess.Popen(
        [sys.executable, "-m", "toskit", "check", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = proc.stdout.readline()  # what `| head -1` reads, then it goes away
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert first.startswith(b"checked ")
    assert proc.returncode == cli.BROKEN_PIPE_STATUS
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert "Exception ignored" not in stderr


def test_the_readme_check_example_is_real_output(capsys, monkeypatch):
    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    shown = readme.split("(`toskit check notebooks/examples/service.yaml`):", 1)[1]
    shown = shown.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    monkeypatch.chdir(root)
    _, out, _ = run(["check", "notebooks/examples/service.yaml"], capsys)
    assert shown[-1] == "..."
    assert out.splitlines()[: len(shown) - 1] == shown[:-1]


# ---- --root: the folder local imports must stay inside ----


def _project_importing_its_parent(tmp_path):
    (tmp_path / "lib.yaml").write_text(
        "tosca_definitions_version: tosca_2_0\ndata_types:\n  Shared: {derived_from: string}\n"
    )
    project = tmp_path / "project"
    project.mkdir()
    template = project / "t.yaml"
    template.write_text("tosca_definitions_version: tosca_2_0\nimports:\n  - ../lib.yaml\n")
    return template


def test_check_root_widens_the_import_root(tmp_path, capsys):
    template = _project_importing_its_parent(tmp_path)
    status, out, _ = run(["check", template], capsys)
    assert status == 1 and "outside the import root" in out
    for jobs in ("1", "2"):
        status, out, _ = run(["check", "-j", jobs, "--root", tmp_path, template, template], capsys)
        assert status == 0 and "import-error" not in out


def test_show_root_widens_the_import_root(tmp_path, capsys):
    template = _project_importing_its_parent(tmp_path)
    assert run(["show", template], capsys)[0] == 0
    assert "outside the import root" in (tmp_path / "project" / "t.html").read_text()
    assert run(["show", template, "--root", tmp_path], capsys)[0] == 0
    assert "outside the import root" not in (tmp_path / "project" / "t.html").read_text()


def test_unreadable_stdin_is_reported_and_never_read_from_a_file_named_dash(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_text("a: 1\na: 2\n")  # must not be read instead of stdin
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a: caf\xe9\n")))
    status, out, err = run(["check", "-j", "2", "-", "-"], capsys)
    assert status == 2 and "duplicate-key" not in out
    assert err.count("toskit check: <stdin>: not UTF-8 text") == 2
    assert "0 files checked: 0 errors, 0 warnings; 2 files could not be read" in err
