"""Every Fuel release file from 4.1 to the final master (issue #17).

``conformance/fuel/releases/`` holds fuel-web's ``openstack.yaml`` of each
version (SOURCES.txt names the commits; Apache 2.0, conformance/fuel/LICENSE).
Each release record must check clean with ``toskit check``, build its
default cluster, and evaluate every role's restrictions and limits — and the
setup wizard's conditions — in strict mode, as nailgun and fuel-ui did.
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from toskit.conditions import check_text, list_releases, load_release
from toskit.conditions.expression import make_env
from toskit.conditions.forms import ConditionCompiler
from toskit.conditions.fuel import CLUSTER_DEFAULTS, WIZARD_MODEL, Release
from toskit.conditions.restrictions import compile_depends, compile_restrictions

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ROOT / "conformance" / "fuel" / "releases"
FILES = sorted(RELEASES.glob("openstack-*.yaml"))
# Files with a real mistake, each listed in docs/conditions.md: none.
KNOWN_MISTAKES: dict[str, list[tuple[int, str]]] = {}


def test_the_release_files_are_all_there_with_their_sources_and_licence():
    names = {p.name for p in FILES}
    versions = ["4.1", "5.0", "5.0.1", "5.1", "5.1.1", "6.0", "6.1", "7.0", "8.0", "9.0", "9.2"]
    for version in versions:
        assert f"openstack-{version}.yaml" in names
    assert {"openstack-10.0.0.yaml", "openstack-11.0.0.yaml", "openstack-master_1.yaml"} <= names
    sources = (RELEASES / "SOURCES.txt").read_text()
    for name in names:
        assert name in sources
    assert "Apache License" in (ROOT / "conformance" / "fuel" / "LICENSE").read_text()


@cache
def _names(path: Path) -> list[str]:
    return [name for name, *_ in list_releases(path)]


@cache
def _release(path: Path, name: str) -> Release:
    return load_release(path, name)


RECORDS = [(path, name) for path in FILES for name in _names(path)]
IDS = [f"{path.stem}:{name}" for path, name in RECORDS]
# Versions 5.1 to 8.0 have a setup wizard in the release file.
WIZARD_FILES = [p for p in FILES if "wizard_metadata:" in p.read_text()]
WIZARD_RECORDS = [(path, name) for path, name in RECORDS if path in WIZARD_FILES]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_check_text_reports_no_error(path):
    diagnostics = check_text(path.read_text(), str(path))
    errors = [(d.line, d.message) for d in diagnostics if d.severity == "error"]
    assert errors == KNOWN_MISTAKES.get(path.name, [])


@pytest.mark.parametrize("path", [FILES[0], RELEASES / "openstack-5.1.yaml"], ids=["4.1", "5.1"])
def test_toskit_check_exits_0(path):
    # The command itself, on a file of the oldest format and one with `?`
    # and wizard conditions (the others go through check_text above).
    run = subprocess.run(
        [sys.executable, "-m", "toskit", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize(("path", "name"), RECORDS, ids=IDS)
def test_every_role_evaluates_strictly_on_the_default_cluster(path, name):
    release = _release(path, name)
    cluster = release.cluster()
    for key, value in CLUSTER_DEFAULTS.items():
        assert cluster.model[key] == value
    assert len(release.roles) > 0
    # Strict: an undefined value raises ConditionError instead of passing.
    outcomes = release.check_all(cluster, strict=True)
    assert set(outcomes) == set(release.roles)
    env = make_env(cluster, (), None, True)
    for role in release.roles.values():
        for restriction in role.restrictions:
            result = restriction.evaluate(env)
            assert result.active in (True, False)
            for value in result.reads.values():
                assert value is not None or result.text is not None
        if role.limits is not None:
            for piece in role.limits.explain(env):
                assert piece.value is not None


def test_the_wizard_versions_are_5_1_to_8_0():
    assert [p.stem for p in WIZARD_FILES] == [
        "openstack-5.1.1",
        "openstack-5.1",
        "openstack-6.0",
        "openstack-6.1",
        "openstack-7.0",
        "openstack-8.0",
    ]


@pytest.mark.parametrize(
    ("path", "name"), WIZARD_RECORDS, ids=[f"{p.stem}:{n}" for p, n in WIZARD_RECORDS]
)
def test_setup_wizard_conditions_evaluate_against_the_wizard_model(path, name):
    release = _release(path, name)
    meta = release.fields["wizard_metadata"]
    cluster = release.cluster()
    assert cluster.models[WIZARD_MODEL] == cluster.models["wizard"] == release.wizard
    env = make_env(cluster, (), None, True)
    found = 0
    for parts, value in _restriction_lists(meta, ("wizard_metadata",)):
        for restriction in compile_restrictions(value, parts, ConditionCompiler(), WIZARD_MODEL):
            assert restriction.active(env) in (True, False)
            found += 1
    assert found > 0


# 5.0's `depends`, and settings `conflicts` written as conditions.
DEPENDS = ("depends", "conflicts")


def _restriction_lists(value, parts, also=()):
    if isinstance(value, dict):
        for key, child in value.items():
            if key == "restrictions" or (
                key in also and isinstance(child, list) and all(isinstance(c, dict) for c in child)
            ):
                yield (*parts, key), child
            else:
                yield from _restriction_lists(child, (*parts, key), also)
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _restriction_lists(child, (*parts, i), also)


# Restrictions of the NIC, bond and VMware forms read models of those forms
# (`nic_attributes:`, `current_vcenter:`, `glance:`), not the cluster's.
OTHER_FORMS = ("nic_attributes", "bond_attributes", "vmware_attributes_metadata")


@pytest.mark.parametrize(("path", "name"), RECORDS, ids=IDS)
def test_every_settings_restriction_evaluates_strictly(path, name):
    """Beyond the roles: every restriction of the release's settings
    (`attributes_metadata`, networks, …) evaluates on the default cluster."""
    release = _release(path, name)
    env = make_env(release.cluster(), (), None, True)
    count = 0
    for key, value in release.fields.items():
        if key in ("roles_metadata", "wizard_metadata", *OTHER_FORMS):
            continue
        for parts, restrictions in _restriction_lists(value, (key,), DEPENDS):
            compile_list = compile_depends if parts[-1] in DEPENDS else compile_restrictions
            for restriction in compile_list(restrictions, parts, ConditionCompiler()):
                assert restriction.active(env) in (True, False)
                count += 1
    assert count > 0 or path.name == "openstack-4.1.yaml"  # 4.1's settings have none


@pytest.mark.parametrize(("path", "name"), RECORDS, ids=IDS)
def test_the_cluster_simulator_opens_on_every_release(path, name):
    pytest.importorskip("ipywidgets")
    from toskit.widgets import ClusterSimulator

    release = _release(path, name)
    simulator = ClusterSimulator(release)
    outcomes = simulator.outcomes
    assert set(outcomes) == set(release.roles)
    failed = {role: o.warnings for role, o in outcomes.items() if hasattr(o, "error")}
    assert failed == {}
    assert "check failed" not in simulator.html


def test_the_default_release_is_the_last_available_one():
    path = RELEASES / "openstack-9.2.yaml"
    assert list_releases(path)[-1][3] == "unavailable"
    release = load_release(path)
    assert release.name == "Mitaka on Ubuntu 14.04"
    assert release.state == "available"
    # 7.0: the CentOS record is unavailable, the last one is available.
    assert load_release(RELEASES / "openstack-7.0.yaml").name == "Kilo on Ubuntu 14.04"


def test_mongo_on_6_1_reads_the_cluster_status():
    release = _release(RELEASES / "openstack-6.1.yaml", "Juno on Ubuntu 14.04.1")
    new = release.check("mongo", release.cluster(), selected=[], strict=True)
    operational = release.check(
        "mongo", release.cluster(status="operational"), selected=[], strict=True
    )
    assert "check failed" not in " ".join(new.warnings).lower()
    # The restriction `cluster:status == 'operational'` applies only to the
    # deployed cluster.
    assert any("operational" in r.text for r in release.roles["mongo"].restrictions if r.text)
    assert not operational.allowed


def test_the_5_0_depends_format_is_interpreted():
    release = _release(RELEASES / "openstack-5.0.yaml", "Icehouse on Ubuntu 12.04.4")
    off = release.check("mongo", release.cluster(), selected=[], strict=True)
    on = release.check(
        "mongo",
        release.cluster(settings_overrides={"additional_components.ceilometer.value": True}),
        selected=[],
        strict=True,
    )
    assert not off.allowed
    assert "Ceilometer should be enabled" in off.warnings
    assert on.allowed and "Ceilometer should be enabled" not in on.warnings


def test_the_release_model_holds_what_nailguns_does():
    release = _release(RELEASES / "openstack-9.0.yaml", "Mitaka on Ubuntu 14.04")
    model = release.cluster().models["release"]
    assert set(model["roles_metadata"]) == set(release.roles)
    assert model["name"] == release.name and model["modes"] == list(release.modes)
    assert "attributes_metadata" in model


def test_the_wizard_model_is_built_from_the_wizards_fields():
    release = _release(RELEASES / "openstack-6.1.yaml", "Juno on Ubuntu 14.04.1")
    wizard = release.wizard
    assert wizard["Compute"]["vcenter"] is False  # a checkbox without a value
    assert wizard["Network"]["manager"] == "neutron-vlan"  # a radio: its first choice
    assert wizard["NameAndRelease"]["release"] == release.name
    assert wizard["Mode"] == {"mode": "ha_compact"}  # the pane's `metadata` is no field
    assert "ceph-osd" in wizard["NameAndRelease"]["release_roles"]


def test_the_release_view_shows_the_wizard_model():
    release = _release(RELEASES / "openstack-6.1.yaml", "Juno on Ubuntu 14.04.1")
    html = release._repr_html_()
    assert "Setup wizard model" in html
    assert "vcenter: false" in html and "release_roles: [" in html
    newest = _release(RELEASES / "openstack-9.0.yaml", "Mitaka on Ubuntu 14.04")
    assert "Setup wizard model" in newest._repr_html_()  # NameAndRelease only
