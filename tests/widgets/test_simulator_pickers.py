"""The simulator's role picker says what is wrong with each role and can list
only the roles with a problem (issue 35 item 4), as the property explorer's
node picker does: "roles to assign" entries carry ``— blocked`` and the
count of warnings, and "problems only (N)" keeps the blocked or
warned-about roles (and the roles already chosen)."""

from __future__ import annotations

from pathlib import Path

import pytest

from toskit import conditions
from toskit.widgets import ClusterSimulator
from toskit.widgets.cluster_simulator import role_label

RELEASE_FILE = Path(__file__).resolve().parents[2] / "conformance" / "fuel" / "openstack.yaml"
NEWTON = "Newton on Ubuntu 16.04"


@pytest.fixture(scope="module")
def release():
    return conditions.load_release(RELEASE_FILE, NEWTON)


def simulator(release):
    cluster = release.cluster(mode="ha_compact", pool=[{"id": 1}])
    return ClusterSimulator(release, cluster, selected=[1])


def _labels(box) -> dict[str, str]:
    return {value: label for label, value in box.options}


def test_each_role_entry_says_what_is_wrong(release):
    sim = simulator(release)
    labels = _labels(sim._roles_box)
    for role, outcome in sim.shown_outcomes.items():
        found = len(outcome.warnings) + len(outcome.conflicts)
        label = labels[role]
        assert label.startswith(role)
        assert ("blocked" in label) is (not outcome.allowed)
        if found:
            assert f"{found} warning" in label
        if outcome.allowed and not found:
            assert label == role  # nothing wrong: the bare name
    # The Newton release has both kinds in an empty cluster.
    assert any("blocked" in label for label in labels.values())
    assert any(label == role for role, label in labels.items())
    # "select by role" picks nodes: plain names, every role.
    assert list(sim._by_role.options) == sim.model.role_names


def test_labels_follow_the_outcomes(release):
    sim = simulator(release)
    before = _labels(sim._roles_box)["ceph-osd"]
    assert "blocked" in before
    sim.set_setting("storage.volumes_ceph", True)
    sim.set_setting("storage.images_ceph", True)
    after = _labels(sim._roles_box)["ceph-osd"]
    assert sim.outcome("ceph-osd").allowed
    assert "blocked" not in after


def test_problems_only_lists_the_roles_with_a_problem(release):
    sim = simulator(release)
    problems = sim.problem_roles
    assert problems and set(problems) < set(sim.assignable_roles)
    assert sim._problems.description == f"problems only ({len(problems)})"
    assert sim.problems_only is False
    sim.set_problems_only()
    assert sim.problems_only is True and sim._problems.value is True
    assert [v for _, v in sim._roles_box.options] == problems
    assert list(sim._by_role.options) == sim.model.role_names  # not a role picker to fix
    # A role already chosen stays listed (a choice never vanishes from view).
    fine = next(r for r in sim.assignable_roles if r not in problems)
    sim.set_selected_roles([fine])
    assert fine in [v for _, v in sim._roles_box.options]
    assert sim._roles_box.value == (fine,)
    # Off again: every assignable role.
    sim._problems.value = False
    assert [v for _, v in sim._roles_box.options] == sim.assignable_roles


def test_role_label_words():
    class Outcome:
        def __init__(self, allowed, warnings=(), conflicts=()):
            self.allowed, self.warnings, self.conflicts = allowed, list(warnings), list(conflicts)

    assert role_label("a", Outcome(True)) == "a"
    assert role_label("a", None) == "a"
    assert role_label("a", Outcome(False)) == "a — blocked"
    assert role_label("a", Outcome(True, ["w"])) == "a — 1 warning"
    assert role_label("a", Outcome(False, ["w"], ["c"])) == "a — blocked, 2 warnings"


# -- words and export ------------------------------------------------------------


def test_changed_settings_chips_say_the_release_label_with_the_key_as_title(release):
    import html as html_lib
    import re

    sim = simulator(release)
    sim.set_setting("storage.volumes_lvm", False)
    sim.set_setting("storage.volumes_ceph", True)
    chips = re.findall(r'<span class="toskit-chip" title="([^"]*)">([^<]*)</span>', sim.html)
    assert [(key, html_lib.unescape(text)) for key, text in chips] == [
        ("storage.volumes_lvm", "Cinder LVM over iSCSI for volumes: false"),
        ("storage.volumes_ceph", "Ceph RBD for volumes (Cinder): true"),
    ]
    # The visible text never shows a key whose setting has a label.
    visible = re.sub(r"<[^>]+>", " ", re.sub(r'title="[^"]*"', "", sim.html))
    for field in sim.setting_fields:
        if field.label != field.name and field.path in sim.settings_overrides:
            assert f"{field.name}:" not in visible


def test_export_csv_downloads_the_outcomes_and_follows_them(release):
    import base64
    import csv
    import io
    import re

    sim = simulator(release)
    link = re.search(
        r'download="role-outcomes.csv" href="data:text/csv;base64,([^"]+)"', sim._export.value
    )
    assert link
    text = base64.b64decode(link.group(1)).decode("utf-8")
    assert text == sim.to_csv()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["role"] for r in rows] == list(sim.outcomes)
    ceph = next(r for r in rows if r["role"] == "ceph-osd")
    assert ceph["allowed"] == "False" and ceph["status"] == "blocked"
    # Several warnings: one per line in one cell, not a Python list.
    assert not ceph["warnings"].startswith("[")
    assert ceph["warnings"].split("\n") == list(sim.outcome("ceph-osd").warnings)
    # An edit that changes an outcome changes the download.
    sim.set_setting("storage.volumes_ceph", True)
    sim.set_setting("storage.images_ceph", True)
    after = re.search(r"base64,([^\"]+)", sim._export.value).group(1)
    rows = list(csv.DictReader(io.StringIO(base64.b64decode(after).decode("utf-8"))))
    assert next(r for r in rows if r["role"] == "ceph-osd")["allowed"] == "True"
