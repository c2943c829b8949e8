"""The upgrade-impact check (issue #36 item 3): the acme library v1 -> v2
(``fixtures/lib-v1``, ``fixtures/lib-v2``: one change of each kind) against
``fixtures/app.yaml``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from toskit.cli import main
from toskit.compare.model import TemplateDiff
from toskit.compare.upgrade import upgrade_check

FIXTURES = Path(__file__).parent / "fixtures"
OLD, NEW, APP = FIXTURES / "lib-v1", FIXTURES / "lib-v2", FIXTURES / "app.yaml"


def test_each_kind_of_change_is_found_and_located_in_the_template() -> None:
    impact = upgrade_check(OLD, NEW, [APP])
    assert impact.retargeted == {"org.acme:1.0": "org.acme:2.0"}
    (t,) = impact.templates
    assert isinstance(t.diff, TemplateDiff)  # the compare model of toskit diff
    breaking = {(d.code, d.line) for d in t.breaking}
    assert breaking == {
        ("missing-property", 12),  # a new required property without a default (zone)
        ("validation-failed", 13),  # a narrowed constraint (cpus <= 16)
        ("validation-failed", 14),  # narrowed valid values (tier)
        ("type-mismatch", 15),  # a property whose type changed (memory)
        ("invalid-requirement-target", 19),  # the requirement's capability changed
        ("unknown-type", 23),  # a removed type (Cache)
    }
    assert all(d.file == str(APP) for d in t.breaking)
    orphans = {(o.diagnostic.line, o.renamed_to) for o in t.orphaned}
    assert orphans == {(16, None), (17, "host_name")}  # debug removed, hostname renamed
    (default,) = t.defaults
    assert (default.entity, default.path, default.old, default.new) == ("web", "port", 80, 8080)
    assert default.old_location.startswith(str(OLD / "acme.yaml"))
    assert default.new_location.startswith(str(NEW / "acme.yaml"))
    assert not t.ok and impact.fails(["breaking"]) and not impact.fails([])


def test_the_same_library_has_no_impact() -> None:
    impact = upgrade_check(OLD, OLD, [APP])
    (t,) = impact.templates
    assert t.ok and not t.defaults and not impact.retargeted
    assert not impact.fails(["breaking"])
    assert "no impact" in str(impact)


def test_renderings_escape_and_serialise() -> None:
    impact = upgrade_check(OLD, NEW, [APP])
    data = json.loads(impact.to_json())
    (t,) = data["templates"]
    assert len(t["breaking"]) == 6 and len(t["orphaned"]) == 2 and len(t["defaults"]) == 1
    assert t["defaults"][0]["old_source"] == "default: acme:Server"
    page = impact._repr_html_()
    assert "toskit-upgrade-breaking" in page and "<script" not in page
    assert "$less_or_equal: [$value, 16]" in page
    assert "6 breaking, 2 orphaned, 1 default changes" in str(impact)


def test_a_hostile_value_is_escaped_in_html(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES, tmp_path / "f")
    app = tmp_path / "f" / "app.yaml"
    app.write_text(app.read_text().replace("tier: bronze", "tier: '<script>x</script>'"))
    lib = tmp_path / "f" / "lib-v1" / "acme.yaml"  # valid in v1, refused by v2
    lib.write_text(lib.read_text().replace("silver, bronze]", "silver, '<script>x</script>']"))
    page = upgrade_check(tmp_path / "f" / "lib-v1", tmp_path / "f" / "lib-v2", [app])._repr_html_()
    assert "<script>x" not in page and "&lt;script&gt;x" in page


@pytest.mark.parametrize("command", [["upgrade-check"], ["diff", "--types"]])
def test_command_line_fail_on_breaking(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*command, str(OLD), str(NEW), str(APP)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "breaking" in out and "orphaned" in out and "web.port: 80" in out
    assert main([*argv, "--fail-on", "breaking"]) == 1
    assert "breaks 8 things" in capsys.readouterr().err
    assert main([*command, str(OLD), str(OLD), str(APP), "--fail-on", "breaking"]) == 0
    capsys.readouterr()
    assert main([*command, str(OLD), str(FIXTURES / "nope"), str(APP)]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_diff_without_types_still_needs_two_templates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(APP)]) == 2
    assert "expected two versions" in capsys.readouterr().err
    assert main(["diff", str(APP), str(APP), "--fail-on", "breaking"]) == 2


def test_git_revisions_of_one_library(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None:
        pytest.fail("git is needed for toskit diff's git sides")
    repo = tmp_path / "repo"
    (repo / "lib").mkdir(parents=True)
    shutil.copy(OLD / "acme.yaml", repo / "lib" / "acme.yaml")
    shutil.copy(APP, repo / "app.yaml")

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=repo,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "v1")
    shutil.copy(NEW / "acme.yaml", repo / "lib" / "acme.yaml")
    git("commit", "-q", "-am", "v2")
    monkeypatch.chdir(repo)
    status = main(
        ["upgrade-check", "git:HEAD~1:lib", "git:HEAD:lib", "app.yaml", "--format", "json"]
    )
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["old"] == ["git:HEAD~1:lib"]
    (t,) = data["templates"]
    assert len(t["breaking"]) == 6 and t["defaults"][0]["new_location"].startswith(
        "git:HEAD:lib/acme.yaml"
    )
    assert main(["upgrade-check", "git:nope:lib", "git:HEAD:lib", "app.yaml"]) == 2
    assert "git:nope:lib" in capsys.readouterr().err


def test_an_old_version_is_read_as_the_newest_of_its_name(tmp_path: Path) -> None:
    from toskit.tosca.load.catalog import ProfileCatalog

    head = "tosca_definitions_version: tosca_2_0\nprofile: "
    for folder, versions in (
        ("old", ["org.acme:1.0", "org.other:1"]),
        ("new", ["org.acme:2.9", "org.acme:2.10", "org.other:1"]),
    ):
        for i, version in enumerate(versions):
            (tmp_path / folder).mkdir(exist_ok=True)
            (tmp_path / folder / f"p{i}.yaml").write_text(head + version + "\n")
    old, new = ProfileCatalog([tmp_path / "old"]), ProfileCatalog([tmp_path / "new"])
    from toskit.compare.upgrade import retargets

    # 2.10 is newer than 2.9; a profile the new library has as it is stays.
    assert retargets(old, new) == {"org.acme:1.0": "org.acme:2.10"}
