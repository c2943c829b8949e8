"""ClusterSimulator on a real Fuel release (spec/fuel-release.md §4, issue 11),
driven from Python: the release's modes, the settings panel, hidden roles,
limit counts."""

from __future__ import annotations

import sys
from pathlib import Path

# The HTML checks live beside the display tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "display"))

import html as html_lib
import re
from pathlib import Path

import ipywidgets
import pytest
import yaml
from htmlcheck import HOSTILE, PAYLOAD, assert_payload_is_text, body  # noqa: E402
from hypothesis import given, settings
from hypothesis import strategies as st
from simulator_html import assert_view_safe  # noqa: E402

import toskit
from toskit import conditions
from toskit.conditions.settings import (
    expression_feature_groups,
    expression_settings,
    referenced_settings,
)
from toskit.errors import ToskitError
from toskit.widgets import ClusterSimulator, explore

RELEASE_FILE = Path(__file__).resolve().parents[2] / "conformance" / "fuel" / "openstack.yaml"
NEWTON = "Newton on Ubuntu 16.04"
CEPH_MESSAGE = "Ceph should be enabled in the environment settings."

_ROW = re.compile(
    r'<tr class="toskit-role-(allowed|blocked)"><td class="toskit-path">(.*?)</td>(.*?)</tr>', re.S
)


def shown_rows(page: str) -> dict[str, tuple[str, str]]:
    """Role name → (allowed|blocked, the rest of its row) as the widget shows them."""
    return {
        html_lib.unescape(name): (status, rest) for status, name, rest in _ROW.findall(body(page))
    }


@pytest.fixture(scope="module")
def release():
    return conditions.load_release(RELEASE_FILE, NEWTON)


def simulator(release, **overrides):
    """§4's setting: ha_compact, an empty cluster, one selected node."""
    cluster = release.cluster(
        mode="ha_compact", pool=[{"id": 1}], settings_overrides=overrides or None
    )
    return ClusterSimulator(release, cluster, selected=[1])


# ---------------------------------------------------------------- §4 table

SECTION_4 = [
    # role, allowed, hidden, first warning (None: no warning)
    (
        "controller",
        True,
        False,
        "It is recommended to have at least 3 Controller nodes (1 selected currently).",
    ),
    ("compute", True, False, None),
    ("cinder", True, False, None),
    (
        "cinder-block-device",
        False,
        False,
        "Cinder Block Device driver should be enabled in the environment settings.",
    ),
    ("mongo", False, True, "Ceilometer should be enabled in the environment settings."),
]


@pytest.mark.parametrize(
    ("role", "allowed", "hidden", "warning"), SECTION_4, ids=[row[0] for row in SECTION_4]
)
def test_section_4_outcomes_show_in_the_simulator(release, role, allowed, hidden, warning):
    sim = simulator(release)
    out = sim.outcome(role)
    assert (out.allowed, out.hidden) == (allowed, hidden)
    if warning is None:
        assert out.warnings == []
    else:
        assert out.warnings[0] == warning
    rows = shown_rows(sim.html)
    if hidden:
        assert role not in rows
        assert role in sim.hidden_roles
        assert role not in sim.shown_outcomes
    else:
        status, rest = rows[role]
        assert status == ("allowed" if allowed else "blocked")
        if warning is not None:
            assert html_lib.escape(warning) in rest


def test_hidden_roles_are_counted_in_a_note(release):
    sim = simulator(release)
    hidden = [
        name for name, out in release.check_all(sim.cluster, selected=[1]).items() if out.hidden
    ]
    assert hidden and sim.hidden_roles == hidden
    view = body(sim.html)
    assert f"{len(hidden)} hidden" in view
    assert set(shown_rows(sim.html)) == set(release.roles) - set(hidden)


def test_limit_counts_are_shown(release):
    sim = simulator(release)
    limits = sim.outcome("controller").limits
    assert (limits.count, limits.min, limits.max, limits.recommended) == (1, 1, None, 3)
    assert "1 / min 1 / rec 3" in shown_rows(sim.html)["controller"][1]
    frame = sim.to_frame().set_index("role")
    assert frame.loc["controller", "count"] == 1 and frame.loc["controller", "recommended"] == 3
    assert bool(frame.loc["mongo", "hidden"]) is True


# ---------------------------------------------------------------- settings


def test_enabling_ceph_unblocks_ceph_osd_and_disabling_blocks_it_again(release):
    sim = simulator(release)
    out = sim.outcome("ceph-osd")
    assert out.allowed is False and out.warnings[0] == CEPH_MESSAGE
    assert shown_rows(sim.html)["ceph-osd"][0] == "blocked"

    sim.set_setting("storage.volumes_ceph", True)
    out = sim.outcome("ceph-osd")
    assert out.allowed is True and CEPH_MESSAGE not in out.warnings
    assert sim.cluster.models["settings"]["storage"]["volumes_ceph"]["value"] is True
    status, rest = shown_rows(sim.html)["ceph-osd"]
    assert status == "allowed" and html_lib.escape(CEPH_MESSAGE) not in rest

    sim.set_setting("storage.volumes_ceph.value", False)  # the full path works too
    assert sim.outcome("ceph-osd").allowed is False
    assert shown_rows(sim.html)["ceph-osd"][0] == "blocked"
    assert sim.settings_overrides == {}


def test_the_checkbox_drives_the_same_logic(release):
    sim = simulator(release)
    box = sim._setting_boxes["storage.volumes_ceph.value"]
    assert isinstance(box, ipywidgets.Checkbox) and box.value is False
    box.value = True  # what ticking it in the browser does
    assert sim.setting("storage.volumes_ceph") is True
    assert sim.outcome("ceph-osd").allowed is True
    # Ceph for volumes excludes Cinder LVM and the block device (their restrictions).
    assert sim.outcome("cinder").allowed is False
    assert "Ceph RBD cannot be used with Cinder" in sim.outcome("cinder").warnings
    sim.set_setting("storage.volumes_ceph", False)
    assert box.value is False  # the control follows a change made from Python


@pytest.mark.parametrize(
    "setting", ["storage.images_ceph", "storage.ephemeral_ceph", "storage.objects_ceph"]
)
def test_any_ceph_backend_unblocks_ceph_osd(release, setting):
    sim = simulator(release)
    sim.set_setting(setting, True)
    assert sim.outcome("ceph-osd").allowed is True


def test_simulator_agrees_with_release_cluster_overrides(release):
    sim = simulator(release)
    sim.set_setting("additional_components.ceilometer", True)
    sim.set_setting("storage.osd_pool_size", 2)  # a text setting: kept as text, like Fuel
    assert sim.setting("storage.osd_pool_size") == "2"
    expected = release.check_all(
        release.cluster(
            mode="ha_compact", pool=[{"id": 1}], settings_overrides=sim.settings_overrides
        ),
        selected=[1],
    )
    assert {n: (o.allowed, o.hidden, o.warnings) for n, o in sim.outcomes.items()} == {
        n: (o.allowed, o.hidden, o.warnings) for n, o in expected.items()
    }
    assert sim.outcome("ceph-osd").limits.min == 2
    assert (
        "Ceilometer should be enabled in the environment settings."
        not in sim.outcome("mongo").warnings
    )


def _regex_settings(release) -> set[str]:
    """An independent reading: every `settings:group.attr` in the role
    metadata's restrictions and limits, found in the raw text."""
    texts: list[str] = []

    def strings(value):
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                strings(k)
                strings(v)
        elif isinstance(value, list):
            for v in value:
                strings(v)

    for meta in release.fields["roles_metadata"].values():
        strings((meta or {}).get("restrictions"))
        strings((meta or {}).get("limits"))
    return {m for t in texts for m in re.findall(r"settings:([\w-]+\.[\w-]+)", t)}


def test_the_panel_lists_exactly_the_settings_the_roles_read(release):
    sim = simulator(release)
    names = [f.name for f in sim.setting_fields]
    assert len(names) == len(set(names))
    assert set(names) == _regex_settings(release)
    assert "storage.volumes_ceph" in names and "common.libvirt_type" not in names
    assert set(sim._setting_boxes) == {f.path for f in sim.setting_fields}


def test_controls_start_from_the_release_defaults(release):
    sim = simulator(release)
    for field in sim.setting_fields:
        group, attr, leaf = field.path.split(".")
        default = release.settings[group][attr][leaf]
        assert field.default == default
        assert sim._setting_boxes[field.path].value == default
    assert isinstance(sim._setting_boxes["storage.osd_pool_size.value"], ipywidgets.Text)
    assert sim.setting("storage.volumes_lvm") is True


def test_a_cluster_with_overrides_starts_the_panel_there(release):
    sim = simulator(release, **{"storage.volumes_ceph.value": True})
    assert sim.setting("storage.volumes_ceph") is True
    assert sim.outcome("ceph-osd").allowed is True


@pytest.mark.parametrize(
    ("path", "value", "fragment"),
    [
        ("storage.volumes_cepf", True, "did you mean 'storage.volumes_ceph'"),
        ("common.libvirt_type", "kvm", "is read by the roles"),
        ("storage.volumes_ceph", "yes", "takes true or false"),
        ("storage.volumes_ceph", 1, "takes true or false"),
        ("storage.osd_pool_size", ["3"], "takes a string"),
        (None, True, "dotted path"),
    ],
    ids=["typo", "unreferenced", "string-for-bool", "int-for-bool", "list-for-text", "not-a-path"],
)
def test_bad_setting_edits_raise_clear_errors(release, path, value, fragment):
    sim = simulator(release)
    with pytest.raises(ToskitError, match=re.escape(fragment)):
        sim.set_setting(path, value)
    assert sim.settings_overrides == {}


def test_a_roles_document_simulator_has_no_settings():
    sim = ClusterSimulator(conditions.load_roles("roles_metadata:\n  compute: {}\n"))
    assert sim.setting_fields == [] and sim.release is None
    with pytest.raises(ToskitError, match="no settings"):
        sim.set_setting("storage.volumes_ceph", True)


# ---------------------------------------------------------------- modes, explore


def test_the_mode_list_equals_the_release_modes(release):
    sim = simulator(release)
    assert list(sim._mode_box.options) == list(release.modes) == list(sim.modes)
    with pytest.raises(ToskitError, match="not a mode of release"):
        sim.set_mode("multinode")
    assert sim.mode == "ha_compact"


def test_explore_opens_the_simulator_on_a_release(release):
    sim = toskit.explore(release)
    assert isinstance(sim, ClusterSimulator) and sim.release is release
    assert sim.mode == release.modes[0] and sim.setting_fields
    given = release.cluster(pool=[{"id": 7}])
    assert explore(release, given).cluster.pool[0]["id"] == 7


# ---------------------------------------------------------------- small releases

RADIO_RELEASE = """\
- pk: 1
  model: nailgun.release
  fields:
    name: Radio
    modes: [ha_compact, multinode]
    roles_metadata:
      compute:
        restrictions:
          - condition: "settings:common.libvirt_type.value == 'kvm'"
            message: "KVM only on bare metal"
      storage:
        limits:
          max: "settings:common.max_storage.value"
      ghost:
        restrictions: ["settings:nowhere.flag.value == true"]
    attributes_metadata:
      editable:
        common:
          libvirt_type:
            value: qemu
            label: Hypervisor
            type: radio
            values: [{data: kvm, label: KVM}, {data: qemu, label: QEMU}]
          max_storage: {value: 2, label: Max storage nodes, type: number}
"""


@pytest.fixture()
def radio():
    return conditions.load_release(RADIO_RELEASE)


def test_choice_number_and_undefined_settings(radio):
    sim = ClusterSimulator(
        radio, radio.cluster(pool=[{"id": 1}, {"id": 2}, {"id": 3}]), selected=[1, 2, 3]
    )
    kinds = {f.name: f.kind for f in sim.setting_fields}
    assert kinds == {
        "common.libvirt_type": "choice",
        "common.max_storage": "int",
        "nowhere.flag": "other",
    }
    dropdown = sim._setting_boxes["common.libvirt_type.value"]
    assert isinstance(dropdown, ipywidgets.Dropdown) and [v for _, v in dropdown.options] == [
        "kvm",
        "qemu",
    ]
    assert sim.outcome("compute").allowed is True
    dropdown.value = "kvm"
    assert sim.outcome("compute").allowed is False
    with pytest.raises(ToskitError, match="one of 'kvm', 'qemu'"):
        sim.set_setting("common.libvirt_type", "xen")

    number = sim._setting_boxes["common.max_storage.value"]
    assert isinstance(number, ipywidgets.IntText)
    assert sim.outcome("storage").allowed is False  # 3 selected, at most 2
    number.value = 3
    assert sim.outcome("storage").allowed is True and sim.outcome("storage").limits.max == 3

    # A setting the model lacks: the check fails for that role only, visibly.
    ghost = sim.outcome("ghost")
    assert ghost.allowed is False and "check failed" in ghost.warnings[0]
    assert shown_rows(sim.html)["ghost"][0] == "blocked"
    sim.set_setting("nowhere.flag", False)
    assert sim.outcome("ghost").allowed is True


def test_hostile_strings_are_escaped():
    data = yaml.safe_load(RADIO_RELEASE)
    fields = data[0]["fields"]
    fields["name"] = PAYLOAD
    roles = fields["roles_metadata"]
    roles[PAYLOAD] = {"restrictions": [{"condition": "true", "message": PAYLOAD}]}
    roles["compute"]["restrictions"][0]["message"] = PAYLOAD
    fields["attributes_metadata"]["editable"]["common"]["libvirt_type"]["label"] = PAYLOAD
    fields["attributes_metadata"]["editable"]["common"]["text"] = {"value": "x", "label": PAYLOAD}
    roles["storage"]["restrictions"] = ["settings:common.text.value == 'y'"]
    release = conditions.load_release(data)
    sim = ClusterSimulator(
        release, release.cluster(pool=[{"id": 1}, {"id": PAYLOAD}]), selected=[1, PAYLOAD]
    )
    sim.set_setting("common.libvirt_type", "kvm")
    sim.set_setting("common.text", PAYLOAD)
    sim.open_trace("compute")
    page = assert_view_safe(sim.html)  # checkboxes and keys in their one exact shape
    assert_payload_is_text(page)
    assert PAYLOAD in shown_rows(page)
    for box in sim._setting_boxes.values():  # labels reach the browser as text, never HTML
        assert box.description_allow_html is False
    assert all(piece in repr(sim) for piece in HOSTILE)


# ---------------------------------------------------------------- the walk


@pytest.mark.parametrize(
    ("text", "paths"),
    [
        ("settings:storage.volumes_ceph.value == true", ["storage.volumes_ceph.value"]),
        ("settings:a.b.value == settings:c.d.value", ["a.b.value", "c.d.value"]),
        ("not (settings:a.b.value and cluster:mode == 'x')", ["a.b.value"]),
        ("'settings:a.b.value' == 'x'", []),  # inside a string: not a reference
        ("settings:a.b._length > 0", ["a.b"]),  # a chain stops at a special member
        ("settings:storage == 1", []),  # a whole group is not one setting
        ("version:feature_groups", []),
        ("'x' in settings:a.b.value or settings:c.d.value", ["a.b.value", "c.d.value"]),
    ],
    ids=["one", "two", "nested", "in-string", "special", "group", "other-model", "membership"],
)
def test_expression_settings(text, paths):
    assert expression_settings(conditions.compile_expression(text)) == paths


def test_referenced_settings_covers_limit_overrides(release):
    found = referenced_settings(release.roles)
    assert "neutron_advanced_configuration.neutron_l3_ha.value" in found  # an override condition
    assert "storage.osd_pool_size.value" in found  # a bound


# ---------------------------------------------------------------- property

_NEWTON = conditions.load_release(RELEASE_FILE, NEWTON)
_BOOLEAN_SETTINGS = [f.name for f in simulator(_NEWTON).setting_fields if f.kind == "bool"]
_edits = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(_BOOLEAN_SETTINGS), st.booleans()),
        st.tuples(st.just("storage.osd_pool_size"), st.integers(min_value=1, max_value=5).map(str)),
    ),
    max_size=8,
)


@settings(max_examples=100, deadline=None)
@given(
    edits=_edits,
    selected=st.lists(st.sampled_from([1, 2, 3]), min_size=1, unique=True),
    groups=st.lists(st.sampled_from(["experimental", "advanced"]), unique=True),
)
def test_any_settings_edits_agree_with_a_fresh_cluster(edits, selected, groups):
    """After any edits, the simulator's outcomes are the engine's on
    ``release.cluster(settings_overrides=<the edits>)``, and the widget lists
    every role that is not hidden."""
    sim = ClusterSimulator(
        _NEWTON, _NEWTON.cluster(mode="ha_compact", pool=[{"id": i} for i in (1, 2, 3)])
    )
    sim.select(selected)
    for name, value in edits:
        sim.set_setting(name, value)
    sim.set_feature_groups(groups)
    final = {f"{name}.value": value for name, value in edits}
    cluster = _NEWTON.cluster(
        mode="ha_compact",
        pool=[{"id": i} for i in (1, 2, 3)],
        settings_overrides=final,
        models={"version": {"feature_groups": groups}},
    )
    expected = _NEWTON.check_all(cluster, selected=selected)
    assert {n: (o.allowed, o.hidden, o.warnings) for n, o in sim.outcomes.items()} == {
        n: (o.allowed, o.hidden, o.warnings) for n, o in expected.items()
    }
    assert set(shown_rows(sim.html)) == {n for n, o in expected.items() if not o.hidden}
    for name, value in final.items():
        assert sim.setting(name) == value
        assert sim._setting_boxes[name].value == value


def test_feature_groups_reveal_hidden_roles(release):
    sim = simulator(release)
    assert sim.feature_groups == [] and set(sim.feature_group_names) == {"experimental", "advanced"}
    assert "mongo" in sim.hidden_roles
    sim._feature_boxes["experimental"].value = True  # the checkbox in the settings panel
    assert sim.feature_groups == ["experimental"]
    assert sim.cluster.models["version"]["feature_groups"] == ["experimental"]
    assert "mongo" not in sim.hidden_roles and "mongo" in shown_rows(sim.html)
    assert "virt" in sim.hidden_roles  # it needs 'advanced'
    sim.set_feature_groups(["experimental", "advanced"])
    assert sim.hidden_roles == [] and sim._feature_boxes["advanced"].value is True
    sim.set_feature_groups([])
    assert "mongo" in sim.hidden_roles and sim._feature_boxes["experimental"].value is False
    with pytest.raises(ToskitError, match="list of names"):
        sim.set_feature_groups("experimental")


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("not ('experimental' in version:feature_groups)", ["experimental"]),
        ("'a' in version:feature_groups and 'b' not in version:feature_groups", ["a", "b"]),
        ("'a' in settings:x.y.value", []),
        ("'a' in version:other", []),
    ],
    ids=["not-in", "two", "settings", "other-key"],
)
def test_expression_feature_groups(text, groups):
    assert expression_feature_groups(conditions.compile_expression(text)) == groups


@pytest.mark.parametrize(
    ("first", "second", "fragment"),
    [
        ("roles_metadata:\n  a: {}\n", None, "load the text first"),
        (None, None, "needs a RoleSet"),
        ({"a": {}}, None, "needs a RoleSet"),
        ("release", "not a cluster", "needs a conditions.Cluster"),
    ],
    ids=["yaml-text", "none", "plain-dict", "bad-cluster"],
)
def test_misused_constructor_raises_toskit_error(release, first, second, fragment):
    first = release if first == "release" else first
    with pytest.raises(ToskitError, match=re.escape(fragment)):
        ClusterSimulator(first, second)


def test_a_choice_whose_default_is_not_among_its_values_can_go_back(radio):
    data = yaml.safe_load(RADIO_RELEASE)
    data[0]["fields"]["attributes_metadata"]["editable"]["common"]["libvirt_type"]["value"] = "lxc"
    release = conditions.load_release(data)
    sim = ClusterSimulator(release)
    box = sim._setting_boxes["common.libvirt_type.value"]
    assert [v for _, v in box.options] == ["kvm", "qemu", "lxc"] and box.value == "lxc"
    sim.set_setting("common.libvirt_type", "kvm")
    sim.set_setting("common.libvirt_type", "lxc")
    assert sim.settings_overrides == {} and box.value == "lxc"


# ---------------------------------------------------------------- issue 16: settings inputs, hidden roles


def test_a_setting_typed_wrong_shows_its_own_error_and_changes_nothing(release):
    sim = simulator(release)
    box = sim._setting_boxes["storage.osd_pool_size.value"]
    before = {n: (o.allowed, list(o.warnings)) for n, o in sim.outcomes.items()}
    box.value = "abc"  # typing into the replication factor
    assert sim.setting_errors == {
        "storage.osd_pool_size": "setting 'storage.osd_pool_size' (Ceph object replication factor): "
        "Invalid number (got 'abc')"
    }
    assert "Invalid number" in sim._setting_notes["storage.osd_pool_size.value"].value
    assert box.value == "abc"  # left for the user to fix
    assert {n: (o.allowed, list(o.warnings)) for n, o in sim.outcomes.items()} == before
    assert all("TypeError" not in w for o in sim.outcomes.values() for w in o.warnings)
    assert sim._reset_button.disabled is False
    box.value = "2"
    assert sim.setting_errors == {} and sim.setting("storage.osd_pool_size") == "2"
    assert sim._setting_notes["storage.osd_pool_size.value"].value == ""
    sim._reset_button.click()
    assert sim.settings_overrides == {} and box.value == "3"
    assert sim._reset_button.disabled is True


def test_hidden_roles_are_not_offered_for_assignment(release):
    sim = simulator(release)
    assert "mongo" in sim.hidden_roles
    offered = [value for _, value in sim._roles_box.options]
    assert "mongo" not in offered and "controller" in offered
    sim.set_feature_groups(["experimental"])
    assert "mongo" in [value for _, value in sim._roles_box.options]


def test_setting_inputs_are_full_width_with_their_label_above(release):
    sim = simulator(release)
    box = sim._setting_boxes["storage.osd_pool_size.value"]
    assert box.layout.width == "100%"
    assert box.toskit_label == "Ceph object replication factor (storage.osd_pool_size)"
    assert sim._settings_panel.get_title(0) == "settings"
