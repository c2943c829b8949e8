"""``toskit check --fix`` and ``--fix --dry-run`` (issue #34 item 5).

The applier is tested with findings that carry fixes made here (the
``renaming`` checker: the real TOSCA checks, plus for each
``unknown-property`` whose message names one best candidate a ``Fix`` of
the key's span, checked against the text), on real files: the tutorial
example with its ``pasword`` typo, the README's web shop and conformance
corpus files with typos put in. ``test_end_to_end_with_the_checkers_own_fixes``
uses the checks' own fixes, without help.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from toskit import cli
from toskit.diagnostics import Diagnostic, Fix
from toskit.fix import apply_fixes, fix_file, unified_diff

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "notebooks" / "examples"
CORPUS = ROOT / "conformance" / "oasis-tosca-2.0"
MEANT = re.compile(r"unknown property '(?:[^']*\.)?([^'.]+)'.*?did you mean '([^']+)'", re.S)


def renaming(text: str, name: str) -> list[Diagnostic]:
    """The TOSCA checks, with a rename fix on each unknown property that has one best candidate."""
    lines = re.split("\r\n|[\r\n]", text)
    out = []
    for diag in cli.check_tosca(text, name, None, None):
        match = MEANT.search(f"{diag.message}\n{diag.hint or ''}")
        if diag.code == "unknown-property" and match and diag.line and diag.column:
            key, meant = match.groups()
            start = diag.column - 1
            if lines[diag.line - 1][start : start + len(key)] == key:
                fix = Fix(
                    f"rename '{key}' to '{meant}'",
                    meant,
                    name,
                    diag.line,
                    diag.column,
                    diag.line,
                    diag.column + len(key),
                )
                diag = replace(diag, fixes=(fix,))
        out.append(diag)
    return out


@pytest.fixture
def with_fixes(monkeypatch):
    monkeypatch.setattr(cli, "CHECKERS", dict(cli.CHECKERS))
    cli.register_checker("tosca", renaming)


def run(argv, capsys):
    status = cli.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def changed_lines(before: bytes, after: bytes) -> list[tuple[str, bytes, bytes]]:
    """The lines that differ (as bytes, line breaks included)."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            out.append((tag, b"".join(a[i1:i2]), b"".join(b[j1:j2])))
    return out


# ---- the applier ------------------------------------------------------------------


def F(line, col, end_line, end_col, text="X"):
    return Fix("t", text, None, line, col, end_line, end_col)


@pytest.mark.parametrize("nl", ["\n", "\r\n", "\r"])
def test_apply_keeps_every_other_character(nl):
    text = nl.join(["# a comment", "a: 'quoted'  # trailing", "b: {prot: 1}", ""])
    new, applied, skipped = apply_fixes(text, [Fix("r", "port", None, 3, 5, 3, 9)])
    assert new == text.replace("prot", "port") and len(applied) == 1 and not skipped


def test_apply_several_fixes_in_one_text():
    text = "ab: 1\ncd: 2\nef: 3"
    new, applied, _ = apply_fixes(text, [F(3, 1, 3, 3, "EF"), F(1, 1, 1, 3, "AB")])
    assert new == "AB: 1\ncd: 2\nEF: 3" and len(applied) == 2


def test_apply_insertion_deletion_and_multiline_range():
    text = "a: 1\nb: 2\nc: 3\n"
    assert apply_fixes(text, [F(1, 1, 1, 1, "# x\n")])[0] == "# x\na: 1\nb: 2\nc: 3\n"
    assert apply_fixes(text, [F(2, 1, 3, 1, "")])[0] == "a: 1\nc: 3\n"
    assert (
        apply_fixes(text, [F(1, 5, 1, 5, "0")])[0] == "a: 10\nb: 2\nc: 3\n"
    )  # just after the line


def test_apply_skips_what_cannot_be_placed():
    text = "a: 1\nb: 2\n"
    new, applied, skipped = apply_fixes(
        text,
        [
            F(9, 1, 9, 2),
            F(1, 7, 1, 8),
            F(2, 3, 2, 1),
            F(1, 1, 1, 2, "A"),
            F(1, 1, 1, 3, "B"),
            F(2, 1, 2, 2, "B"),
            F(2, 1, 2, 2, "B"),
        ],
    )
    assert new == "A: 1\nB: 2\n"
    reasons = sorted(why for _fix, why in skipped)
    assert reasons == ["it overlaps another fix"] + ["its range is not in the file"] * 3
    assert len(applied) == 2  # the same fix from two findings is applied once


def test_apply_counts_lines_as_yaml_does():
    # NEL and LS are line breaks to the YAML reader, so line 2 starts after them.
    text = "a: 1\x85b: 2\u2028c: 3"
    assert (
        apply_fixes(text, [F(2, 1, 2, 2, "B"), F(3, 1, 3, 2, "C")])[0] == "a: 1\x85B: 2\u2028C: 3"
    )


def test_unified_diff_names_both_sides():
    diff = unified_diff("x.yaml", "a: 1\nb: 2", "a: 1\nb: 3")
    assert diff.startswith("--- a/x.yaml\n+++ b/x.yaml\n@@")
    assert "-b: 2\n\\ No newline at end of file\n+b: 3\n\\ No newline at end of file\n" in diff


# ---- on real files --------------------------------------------------------------------


def test_fix_the_tutorial_example(with_fixes, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "service.yaml", "service.yaml")
    before = Path("service.yaml").read_bytes()
    inode = os.stat("service.yaml").st_ino
    status, out, err = run(["check", "-j", "1", "--fix", "service.yaml"], capsys)
    after = Path("service.yaml").read_bytes()
    assert changed_lines(before, after) == [
        ("replace", b"          auth: {pasword: secret}\n", b"          auth: {password: secret}\n")
    ]
    assert "fixed service.yaml: 1 fix applied" in err
    assert status == 0 and "0 errors" in out  # the report is of the fixed file
    assert os.stat("service.yaml").st_ino != inode  # written by rename
    assert sorted(os.listdir(".")) == ["service.yaml"]  # no temporary file left
    # A second run changes nothing.
    status, _, err = run(["check", "-j", "1", "--fix", "service.yaml"], capsys)
    assert Path("service.yaml").read_bytes() == after and "fixed" not in err and status == 0


@pytest.mark.parametrize("newline", [b"\r\n", b"\r"])
def test_fix_keeps_line_breaks_comments_and_quoting(
    with_fixes, tmp_path, capsys, monkeypatch, newline
):
    monkeypatch.chdir(tmp_path)
    text = (EXAMPLES / "web-shop.yaml").read_bytes()
    # Misspell the first 'port:' property assignment of a node template, keep every other byte.
    lines = text.split(b"\n")
    index = next(i for i, line in enumerate(lines) if re.match(rb"\s+port: \d", line))
    lines[index] = lines[index].replace(b"port:", b"prot:", 1) + b"  # 'quoted' \"kept\""
    lines.insert(0, b"# a comment at the top")
    Path("shop.yaml").write_bytes(newline.join(lines))
    before = Path("shop.yaml").read_bytes()
    status, _, err = run(["check", "-j", "1", "--fix", "shop.yaml"], capsys)
    after = Path("shop.yaml").read_bytes()
    assert "fixed shop.yaml: 1 fix applied" in err, err
    assert after == before.replace(b"prot:", b"port:", 1)
    assert after.count(newline) == before.count(newline)


def _corpus_cases():
    """Corpus files that load clean and assign properties: one property misspelt in each."""
    cases = []
    for path in sorted(CORPUS.glob("*/*.yaml")):
        text = path.read_text(encoding="utf-8")
        if "properties:" not in text or "node_templates:" not in text:
            continue
        cases.append(path)
    return cases


def test_fix_corpus_files_with_typos(with_fixes, tmp_path, capsys, monkeypatch):
    """A typo put into real corpus templates is fixed, and nothing else changes."""
    monkeypatch.chdir(tmp_path)
    fixed = 0
    for source in _corpus_cases():
        text = source.read_text(encoding="utf-8")
        clean = cli.check_tosca(text, source.name, None, None)
        if any(d.severity == "error" for d in clean):
            continue
        # The first property assignment under a node template: drop its second letter.
        match = re.search(
            r"\n( +)properties:\n\1  ([a-z_]{4,}): ", text[text.find("node_templates:") :]
        )
        if match is None:
            continue
        key = match.group(2)
        typo = key[0] + key[2:]
        start = text.find("node_templates:") + match.start(2)
        broken = text[:start] + typo + text[start + len(key) :]
        target = Path(source.name)
        target.write_text(broken, encoding="utf-8", newline="")
        outcome = fix_file(str(target), renaming, None)
        assert outcome.refused is None
        if outcome.applied:
            assert target.read_text(encoding="utf-8") == text, source
            fixed += 1
        else:
            assert target.read_text(encoding="utf-8") == broken  # left as it is
        target.unlink()
        if fixed >= 5:
            break
    assert fixed >= 3  # the corpus has node templates with properties to misspell


def test_dry_run_prints_a_diff_and_writes_nothing(with_fixes, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "service.yaml", "service.yaml")
    before = Path("service.yaml").read_bytes()
    status, out, err = run(["check", "-j", "1", "--fix", "--dry-run", "service.yaml"], capsys)
    assert Path("service.yaml").read_bytes() == before
    assert status == 1  # something would change
    assert out.splitlines()[:2] == ["--- a/service.yaml", "+++ b/service.yaml"]
    assert (
        "-          auth: {pasword: secret}" in out and "+          auth: {password: secret}" in out
    )
    assert "would fix service.yaml" in err
    status, _, err = run(["check", "-j", "1", "--dry-run", "service.yaml"], capsys)
    assert status == 2 and "--dry-run goes with --fix" in err


# ---- what is left alone ---------------------------------------------------------------


def _tied(text, name):
    # A finding whose candidates tie: no fix (as the checks report a tie).
    return [
        Diagnostic(
            "error",
            "unknown-property",
            "unknown property 'pot'",
            file=name,
            line=1,
            column=1,
            hint="did you mean 'port' or 'pit'?",
        )
    ]


def _alternatives(text, name):
    return [
        Diagnostic(
            "error",
            "unknown-property",
            "unknown property 'pot'",
            file=name,
            line=1,
            column=1,
            fixes=(Fix("a", "port", name, 1, 1, 1, 4), Fix("b", "pit", name, 1, 1, 1, 4)),
        )
    ]


@pytest.mark.parametrize("checker", [_tied, _alternatives])
def test_tied_candidates_leave_the_file_alone(tmp_path, capsys, monkeypatch, checker):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "CHECKERS", dict(cli.CHECKERS))
    cli.register_checker("yaml", checker)
    Path("a.yaml").write_bytes(b"pot: 1\n")
    mtime = os.stat("a.yaml").st_mtime_ns
    status, _, err = run(["check", "-j", "1", "--fix", "a.yaml"], capsys)
    assert Path("a.yaml").read_bytes() == b"pot: 1\n" and os.stat("a.yaml").st_mtime_ns == mtime
    assert (
        "a.yaml: left as it is: 1 finding without an unambiguous fix (unknown-property at 1:1"
        in err
    )
    assert status == 1


def test_no_write_through_a_symlink_or_outside_the_root(with_fixes, tmp_path, capsys, monkeypatch):
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    shutil.copy(EXAMPLES / "service.yaml", elsewhere / "service.yaml")
    (project / "link.yaml").symlink_to(elsewhere / "service.yaml")
    monkeypatch.chdir(project)
    original = (elsewhere / "service.yaml").read_bytes()
    status, _, err = run(["check", "-j", "1", "--fix", "link.yaml"], capsys)
    assert "link.yaml: not fixed: it is a symbolic link" in err and status == 2
    status, _, err = run(["check", "-j", "1", "--fix", elsewhere / "service.yaml"], capsys)
    assert "not fixed: it is outside the root" in err and status == 2
    # A linked folder is outside the root too (its real path is).
    (project / "sub").symlink_to(elsewhere, target_is_directory=True)
    status, _, err = run(["check", "-j", "1", "--fix", "sub/service.yaml"], capsys)
    assert "not fixed: it is outside the root" in err
    assert (elsewhere / "service.yaml").read_bytes() == original
    # --root widens it.
    status, _, err = run(
        ["check", "-j", "1", "--fix", "--root", tmp_path, elsewhere / "service.yaml"], capsys
    )
    assert "fixed" in err and b"password: secret" in (elsewhere / "service.yaml").read_bytes()


def test_no_write_to_a_hard_linked_file_or_stdin(with_fixes, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "service.yaml", "a.yaml")
    os.link("a.yaml", "b.yaml")
    status, _, err = run(["check", "-j", "1", "--fix", "a.yaml"], capsys)
    assert "has 2 hard links" in err and b"pasword" in Path("b.yaml").read_bytes()
    outcome = fix_file("-", renaming)
    assert outcome.refused == "standard input cannot be fixed in place"


def test_permissions_are_kept(with_fixes, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "service.yaml", "service.yaml")
    os.chmod("service.yaml", 0o640)
    run(["check", "-j", "1", "--fix", "service.yaml"], capsys)
    assert os.stat("service.yaml").st_mode & 0o777 == 0o640
    assert b"password: secret" in Path("service.yaml").read_bytes()


def test_a_file_changed_meanwhile_is_not_overwritten(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.yaml").write_text("prot: 1\n")

    def meddling(text, name):
        Path(name).write_text("someone else's edit\n")
        return [
            Diagnostic(
                "error",
                "unknown-property",
                "x",
                file=name,
                line=1,
                column=1,
                fixes=(Fix("r", "port", name, 1, 1, 1, 5),),
            )
        ]

    with pytest.raises(Exception, match="changed while it was being fixed"):
        fix_file("a.yaml", meddling)
    assert Path("a.yaml").read_text() == "someone else's edit\n"
    assert os.listdir(".") == ["a.yaml"]


def test_a_fix_aimed_at_another_file_is_not_applied(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.yaml").write_text("prot: 1\n")
    Path("other.yaml").write_text("prot: 1\n")

    def elsewhere(text, name):
        return [
            Diagnostic(
                "error",
                "unknown-property",
                "x",
                file="other.yaml",
                line=1,
                column=1,
                fixes=(Fix("r", "port", "other.yaml", 1, 1, 1, 5),),
            )
        ]

    outcome = fix_file("a.yaml", elsewhere)
    assert not outcome.changed and "another file" in outcome.left[0][1]
    assert Path("other.yaml").read_text() == "prot: 1\n"


def test_fixes_revealed_by_a_fix_are_applied_in_the_same_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.yaml").write_text("aa: 1\n")

    def stepwise(text, name):  # 'aa' -> 'ab' -> 'ac', one step a round
        step = {"aa": "ab", "ab": "ac"}.get(text[:2])
        if step is None:
            return []
        return [
            Diagnostic(
                "error",
                "unknown-property",
                "x",
                file=name,
                line=1,
                column=1,
                fixes=(Fix("r", step, name, 1, 1, 1, 3),),
            )
        ]

    outcome = fix_file("a.yaml", stepwise)
    assert Path("a.yaml").read_text() == "ac: 1\n" and len(outcome.applied) == 2
    assert not fix_file("a.yaml", stepwise).changed  # idempotent


def test_end_to_end_with_the_checkers_own_fixes(tmp_path, capsys, monkeypatch):
    """No help: the checks' own fixes (issue #28: a misspelt property, a misspelt type), applied by --fix."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "service.yaml", "service.yaml")
    before = Path("service.yaml").read_bytes()
    (typo,) = [
        d
        for d in cli.check_tosca(before.decode(), "service.yaml", None, None)
        if d.code == "unknown-property"
    ]
    assert len(typo.fixes) == 1
    status, _, err = run(["check", "-j", "1", "--fix", "service.yaml"], capsys)
    assert Path("service.yaml").read_bytes() == before.replace(b"pasword", b"password")
    assert status == 0 and "fixed service.yaml: 1 fix applied" in err
    # A misspelt property and a misspelt type in a 2.0 template, CRLF line breaks.
    Path("t.yaml").write_bytes(TYPOS_2_0.replace(b"\n", b"\r\n"))
    status, _, err = run(["check", "-j", "1", "--fix", "t.yaml"], capsys)
    assert "fixed t.yaml: 2 fixes applied" in err and status == 0
    assert Path("t.yaml").read_bytes() == TYPOS_2_0.replace(b"\n", b"\r\n").replace(
        b"'prot': 3", b"'port': 3"
    ).replace(b"type: Dbb", b"type: Db")  # quoting kept
    status, _, err = run(["check", "-j", "1", "--fix", "t.yaml"], capsys)
    assert "fixed" not in err and status == 0


TYPOS_2_0 = b"""\
tosca_definitions_version: tosca_2_0
# keep me
node_types:
  Db:
    properties:
      port: {type: integer}
service_template:
  node_templates:
    db:
      type: Dbb   # keep me too
      properties:
        'prot': 3
"""


def test_end_to_end_on_corpus_files_with_typos(tmp_path, capsys, monkeypatch):
    """The corpus typo case of test_fix_corpus_files_with_typos, with the checks' own fixes."""
    from toskit.cli import _fix_check

    monkeypatch.chdir(tmp_path)
    fixed = 0
    for source in _corpus_cases():
        text = source.read_text(encoding="utf-8")
        if any(d.severity == "error" for d in cli.check_tosca(text, source.name, None, None)):
            continue
        match = re.search(
            r"\n( +)properties:\n\1  ([a-z_]{5,}): ", text[text.find("node_templates:") :]
        )
        if match is None:
            continue
        key = match.group(2)
        start = text.find("node_templates:") + match.start(2)
        broken = text[:start] + key[0] + key[2:] + text[start + len(key) :]
        target = Path(source.name)
        target.write_text(broken, encoding="utf-8", newline="")
        fix_file(str(target), _fix_check(None))
        assert target.read_text(encoding="utf-8") in (text, broken), source
        fixed += target.read_text(encoding="utf-8") == text
        target.unlink()
        if fixed >= 5:
            break
    assert fixed >= 3


def test_a_bom_and_a_missing_final_newline_are_kept(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (EXAMPLES / "service.yaml").read_bytes().rstrip(b"\n")
    Path("service.yaml").write_bytes(b"\xef\xbb\xbf" + text)
    status, _, err = run(["check", "-j", "1", "--fix", "service.yaml"], capsys)
    assert "fixed service.yaml: 1 fix applied" in err and status == 0
    assert Path("service.yaml").read_bytes() == b"\xef\xbb\xbf" + text.replace(
        b"pasword", b"password"
    )


def test_fix_then_report_in_a_ci_format(tmp_path, capsys, monkeypatch):
    """--fix with --format sarif: the fixes are applied, the report is of what is left."""
    from ci_reports import sarif_rows

    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "service.yaml", "a.yaml")
    Path("b.yaml").write_text("a: 1\na: 2\n")  # a duplicate key: no fix
    status, out, err = run(
        ["check", "-j", "1", "--fix", "--format", "sarif", "a.yaml", "b.yaml"], capsys
    )
    assert status == 1 and "fixed a.yaml" in err and "b.yaml: left as it is" in err
    assert [(f, code) for f, _l, _c, code, _s in sarif_rows(out)] == [("b.yaml", "duplicate-key")]


def test_a_fix_that_cannot_be_placed_is_said(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.yaml").write_text("prot: 1\n")

    def misplaced(text, name):
        return [
            Diagnostic(
                "error",
                "unknown-property",
                "x",
                file=name,
                line=9,
                column=1,
                fixes=(Fix("r", "port", name, 9, 1, 9, 5),),
            )
        ]

    outcome = fix_file("a.yaml", misplaced)
    assert not outcome.changed and outcome.left[0][1] == "its range is not in the file"
    assert Path("a.yaml").read_text() == "prot: 1\n"


def test_rounds_are_bounded(tmp_path, monkeypatch):
    from toskit.fix import MAX_ROUNDS

    monkeypatch.chdir(tmp_path)
    Path("a.yaml").write_text("0\n")
    calls = []

    def forever(text, name):  # every fix reveals another: a checker that never settles
        calls.append(text)
        return [
            Diagnostic(
                "error",
                "x-y",
                "x",
                file=name,
                line=1,
                column=1,
                fixes=(Fix("r", str(len(calls)), name, 1, 1, 1, 2),),
            )
        ]

    outcome = fix_file("a.yaml", forever)
    assert len(outcome.applied) == MAX_ROUNDS and len(calls) == MAX_ROUNDS + 1
    assert Path("a.yaml").read_text() == f"{MAX_ROUNDS}\n"


def test_end_to_end_a_real_tie_is_left_alone(tmp_path, capsys, monkeypatch):
    """The checks' own tie ('pozt': 'port' and 'post' are equally close): no fix, the file untouched, said."""
    monkeypatch.chdir(tmp_path)
    text = (
        b"tosca_definitions_version: tosca_2_0\n"
        b"node_types:\n  Db:\n    properties:\n"
        b"      port: {type: integer, required: false}\n"
        b"      post: {type: integer, required: false}\n"
        b"service_template:\n  node_templates:\n    db:\n      type: Db\n      properties:\n        pozt: 3\n"
    )
    Path("tie.yaml").write_bytes(text)
    status, _, err = run(["check", "-j", "1", "--fix", "tie.yaml"], capsys)
    assert Path("tie.yaml").read_bytes() == text and status == 1
    assert (
        "tie.yaml: left as it is: 1 finding without an unambiguous fix (unknown-property at 12:9"
        in err
    )
    status, out, _ = run(["check", "-j", "1", "--fix", "--dry-run", "tie.yaml"], capsys)
    assert (status, out) == (0, "")
