"""spec/fuel-release.md: real Fuel releases, restrictions, limits, the combined check."""

from __future__ import annotations

import pytest
from fixtures.conditions import DATA

from toskit import ConditionError, ToskitError
from toskit.conditions import (
    Cluster,
    LimitsOutcome,
    Release,
    check_text,
    list_releases,
    load_release,
    load_roles,
)

FUEL = DATA.parents[2] / "conformance" / "fuel" / "openstack.yaml"  # the one copy, with its LICENSE
NEWTON = "Newton on Ubuntu 16.04"
NO_FEATURES = {"version": {"feature_groups": []}}


@pytest.fixture(scope="module")
def release() -> Release:
    return load_release(FUEL, NEWTON)


def check(
    release,
    role,
    *,
    mode="ha_compact",
    nodes=(),
    selected=(100,),
    overrides=None,
    models=None,
    selected_roles=(),
):
    cluster = release.cluster(
        mode=mode,
        nodes=list(nodes),
        pool=[{"id": 100}, {"id": 101}, {"id": 102}],
        settings_overrides=overrides,
    )
    return release.roles.check(
        role,
        cluster,
        selected=list(selected),
        selected_roles=list(selected_roles),
        models=NO_FEATURES if models is None else models,
    )


# §4: (role, allowed, hidden, warnings, first-only)
TABLE = [
    (
        "controller",
        True,
        False,
        ["It is recommended to have at least 3 Controller nodes (1 selected currently)."],
        False,
    ),
    ("compute", True, False, [], False),
    ("cinder", True, False, [], False),
    (
        "cinder-block-device",
        False,
        False,
        ["Cinder Block Device driver should be enabled in the environment settings."],
        False,
    ),
    ("mongo", False, True, ["Ceilometer should be enabled in the environment settings."], True),
]


@pytest.mark.parametrize(
    "role,allowed,hidden,warnings,first_only", TABLE, ids=[t[0] for t in TABLE]
)
def test_spec_table(release, role, allowed, hidden, warnings, first_only):
    out = check(release, role)
    assert (out.allowed, out.hidden) == (allowed, hidden)
    if first_only:
        assert out.warnings[: len(warnings)] == warnings
    else:
        assert out.warnings == warnings


def test_list_releases():
    assert list_releases(FUEL) == [
        ("Newton on CentOS 6.5", "newton-10.0", "CentOS", "unavailable"),
        ("Newton on Ubuntu 16.04", "newton-10.0", "Ubuntu", "available"),
        ("Newton on Ubuntu+UCA 16.04", "newton-10.0", "Ubuntu", "available"),
    ]


def test_release_fields_and_default_choice(release):
    assert (release.name, release.version, release.operating_system) == (
        NEWTON,
        "newton-10.0",
        "Ubuntu",
    )
    assert release.modes == ("ha_compact",)
    assert list(release.roles)[:3] == ["controller", "compute", "cinder"]
    assert release.roles["controller"].label == "Controller"
    assert release.roles["controller"].metadata["weight"] == 10  # unknown keys kept
    assert release.roles["controller"].conflicts == ("compute",)
    last = load_release(FUEL)
    assert last.name == "Newton on Ubuntu+UCA 16.04"
    # extend: the UCA release extends the Ubuntu one, which extends the base
    assert last.roles.keys() == release.roles.keys()
    with pytest.raises(ToskitError, match="no release named"):
        load_release(FUEL, "Newton on Windows")


def test_settings_model(release):
    assert release.settings["storage"]["volumes_lvm"]["value"] is True
    assert release.settings["storage"]["volumes_ceph"]["value"] is False
    cluster = release.cluster(settings_overrides={"storage.volumes_ceph.value": True})
    assert cluster.mode == "ha_compact"
    assert cluster.models["settings"]["storage"]["volumes_ceph"]["value"] is True
    assert release.settings["storage"]["volumes_ceph"]["value"] is False  # defaults untouched


# (id, role, overrides, mode, allowed, hidden, warnings)
SETTINGS_CASES = [
    (
        "block-device-enabled",
        "cinder-block-device",
        {"storage.volumes_block_device.value": True},
        "ha_compact",
        True,
        False,
        [],
    ),
    (
        "ceph-blocks-cinder",
        "cinder",
        {"storage.volumes_ceph.value": True},
        "ha_compact",
        False,
        False,
        ["Ceph RBD cannot be used with Cinder"],
    ),
    (
        "lvm-off-blocks-cinder",
        "cinder",
        {"storage.volumes_lvm.value": False},
        "ha_compact",
        False,
        False,
        ["Cinder LVM should be enabled in the environment settings."],
    ),
    (
        "ironic-disabled",
        "ironic",
        {},
        "ha_compact",
        False,
        False,
        [
            "Ironic should be enabled in the environment settings.",
            "It is recommended to have at least 3 Ironic nodes (1 selected currently).",
        ],
    ),
    (
        "mongo-ceilometer-on",
        "mongo",
        {"additional_components.ceilometer.value": True},
        "ha_compact",
        True,
        True,
        ["At least 3 MongoDB nodes are recommended for HA deployment."],
    ),
    (
        "l3-ha-override-min",
        "controller",
        {"neutron_advanced_configuration.neutron_l3_ha.value": True},
        "ha_compact",
        True,
        False,
        [
            "Neutron L3 HA requires at least 2 Controller nodes to function properly.",
            "It is recommended to have at least 3 Controller nodes (1 selected currently).",
        ],
    ),
]


@pytest.mark.parametrize(
    "sid,role,overrides,mode,allowed,hidden,warnings",
    SETTINGS_CASES,
    ids=[s[0] for s in SETTINGS_CASES],
)
def test_settings_change_outcomes(release, sid, role, overrides, mode, allowed, hidden, warnings):
    out = check(release, role, overrides=overrides, mode=mode)
    assert (out.allowed, out.hidden, out.warnings) == (allowed, hidden, warnings)


def test_ceph_min_from_settings_expression(release):
    out = check(release, "ceph-osd", overrides={"storage.volumes_ceph.value": True})
    pool = release.settings["storage"]["osd_pool_size"]["value"]
    assert out.limits == LimitsOutcome(count=1, min=int(pool), max=None, recommended=None)
    assert out.warnings == [
        f"At least {int(pool)} Ceph OSD nodes are required (1 selected currently)."
    ]
    assert out.allowed  # min only warns


def test_mongo_max_in_non_ha_mode(release):
    feats = {"version": {"feature_groups": ["experimental"]}}
    overrides = {"additional_components.ceilometer.value": True}
    one = check(release, "mongo", mode="multinode", overrides=overrides, models=feats)
    assert (one.allowed, one.hidden, one.warnings) == (True, False, [])
    two = check(
        release, "mongo", mode="multinode", overrides=overrides, models=feats, selected=(100, 101)
    )
    assert not two.allowed
    assert two.warnings == ["At most 1 MongoDB node can be added for non-HA deployment"]
    assert two.limits.max == 1 and two.limits.count == 2


def test_limit_count_rules(release):
    nodes = [
        {"id": 1, "roles": ["controller"]},
        {"id": 2, "pending_roles": ["controller"]},
        {"id": 3, "roles": ["controller"], "pending_deletion": True},
        {"id": 4, "roles": ["compute"]},
    ]
    out = check(release, "controller", nodes=nodes, selected=(100, 1))
    # selected 100 and 1, plus 2 (pending role); 3 is pending deletion
    assert out.limits.count == 3
    assert out.warnings == []


def test_combined_order_restrictions_limits_conflicts_conditions():
    roles = load_roles(
        """
r:
  name: Role R
  conflicts: [other]
  restrictions:
    - "true": "restricted"
  limits: {max: 0, recommended: 5}
  conditions:
    - {condition: "false", warning: "seed warning"}
other: {}
"""
    )
    cluster = Cluster("ha_compact", pool=[{"id": 1}])
    out = roles.check("r", cluster, selected=[1], selected_roles=["other"])
    assert out.warnings == [
        "restricted",
        "At most 0 Role R nodes are allowed.",
        "It is recommended to have at least 5 Role R nodes (1 selected currently).",
        "This role cannot be combined with the selected roles.",
        "seed warning",
    ]
    assert not out.allowed and out.conflicts == ["other"]
    assert out.restrictions == ["restricted"]


@pytest.mark.parametrize(
    "restrictions,allowed,hidden,warnings",
    [
        (["true"], False, False, []),
        ([{"true": "short form"}], False, False, ["short form"]),
        ([{"condition": "true", "action": "hide"}], True, True, []),
        ([{"condition": "true", "action": "none", "message": "note"}], True, False, ["note"]),
        ([{"condition": "false", "message": "inactive"}], True, False, []),
        ([{"condition": "cluster:missing == 1", "strict": False, "message": "m"}], True, False, []),
        ([{"condition": True, "message": "bool"}], False, False, ["bool"]),
    ],
    ids=["string", "short-mapping", "hide", "none", "inactive", "non-strict", "boolean"],
)
def test_restriction_forms(restrictions, allowed, hidden, warnings):
    roles = load_roles({"r": {"restrictions": restrictions}})
    out = roles.check("r", Cluster("multinode"))
    assert (out.allowed, out.hidden, out.warnings) == (allowed, hidden, warnings)


def test_limits_none_without_limits():
    roles = load_roles({"r": {}})
    assert roles.check("r", Cluster("multinode")).limits is None


@pytest.mark.parametrize(
    "meta,fragment",
    [
        ({"restrictions": "x"}, "r.restrictions: 'restrictions' must be a list"),
        ({"restrictions": [3]}, "r.restrictions[0]: a restriction is a string or a mapping"),
        (
            {"restrictions": [{"condition": "true", "action": "explode"}]},
            "r.restrictions[0].action",
        ),
        ({"restrictions": [{"a": "b", "c": "d"}]}, "r.restrictions[0]"),
        ({"restrictions": [{"condition": "true", "colour": 1}]}, "r.restrictions[0].colour"),
        ({"limits": 3}, "r.limits: 'limits' must be a mapping"),
        ({"limits": {"min": True}}, "r.limits.min"),
        ({"limits": {"minimum": 1}}, "r.limits.minimum"),
        (
            {"limits": {"overrides": [{"max": 1}]}},
            "r.limits.overrides[0]: a limits override needs 'condition'",
        ),
        ({"limits": {"overrides": {"condition": "true"}}}, "r.limits.overrides"),
    ],
    ids=[
        "restrictions-string",
        "restriction-number",
        "bad-action",
        "short-two-keys",
        "unknown-key",
        "limits-number",
        "min-bool",
        "unknown-bound",
        "override-no-condition",
        "overrides-mapping",
    ],
)
def test_bad_role_metadata_has_its_path(meta, fragment):
    with pytest.raises(ConditionError) as info:
        load_roles({"r": meta})
    assert info.value.kind == "SchemaError"
    assert fragment in info.value.message


def test_bad_expression_in_restriction_has_its_path():
    with pytest.raises(ConditionError) as info:
        load_roles({"r": {"restrictions": [{"condition": "settings:a.b = 1"}]}})
    assert (info.value.kind, info.value.path) == ("SyntaxError", "r.restrictions[0].condition")


def test_limit_expression_must_give_a_number():
    roles = load_roles({"r": {"limits": {"min": "settings:x.value"}}})
    cluster = Cluster("multinode", models={"settings": {"x": {"value": "many"}}})
    with pytest.raises(ConditionError) as info:
        roles.check("r", cluster)
    assert info.value.kind == "TypeError"


def test_every_expression_of_the_real_file_compiles_and_checks_clean():
    text = FUEL.read_text(encoding="utf-8")
    assert check_text(text, "openstack.yaml") == []
    for name, *_ in list_releases(FUEL):
        load_release(FUEL, name)


def test_check_text_locates_problems_in_a_fuel_file():
    text = FUEL.read_text(encoding="utf-8").replace(
        'condition: "settings:storage.volumes_lvm.value == false"',
        'condition: "settings:storage.volumes_lvm.value = false"',
        1,
    )
    diags = check_text(text, "openstack.yaml")
    assert len(diags) == 1
    d = diags[0]
    assert (d.code, d.line) == ("expression-syntax", 55)
    assert d.column == text.splitlines()[54].index("= false") + 1
    assert d.path == "[0].fields.roles_metadata.cinder.restrictions[0].condition"


def test_bad_fuel_files():
    with pytest.raises(ToskitError, match="list of fixture records"):
        load_release({"a": 1})
    with pytest.raises(ToskitError, match="no Fuel release"):
        load_release([{"model": "nailgun.other", "fields": {"name": "x"}}])
    with pytest.raises(ToskitError, match="extend"):
        load_release([{"model": "nailgun.release", "extend": 3, "fields": {"name": "x"}}])


def test_extend_merges_recursively():
    base = {
        "model": "nailgun.release",
        "fields": {"roles_metadata": {"a": {"name": "A", "weight": 1}}, "state": "s"},
    }
    child = {
        "extend": base,
        "fields": {"name": "child", "roles_metadata": {"a": {"weight": 2}, "b": {}}},
    }
    release = load_release([base, child])
    assert release.name == "child" and release.state == "s"
    assert release.roles["a"].metadata == {"name": "A", "weight": 2}
    assert list(release.roles) == ["a", "b"]
    assert base["fields"]["roles_metadata"]["a"]["weight"] == 1  # inputs untouched


def test_repr(release):
    assert (
        repr(release)
        == "Release('Newton on Ubuntu 16.04', version='newton-10.0', operating_system='Ubuntu', roles=9)"
    )
    assert release._repr_html_()


def test_release_cluster_has_version_and_release_models(release):
    cluster = release.cluster(pool=[{"id": 1}])
    assert cluster.models["version"] == {"feature_groups": []}
    assert cluster.models["release"]["name"] == NEWTON
    out = release.roles.check("mongo", cluster, selected=[1])
    assert out.hidden  # 'experimental' is not among the (empty) feature groups
    shown = release.roles.check(
        "mongo", cluster, selected=[1], models={"version": {"feature_groups": ["experimental"]}}
    )
    assert not shown.hidden
    custom = release.cluster(models={"version": {"feature_groups": ["advanced"]}})
    assert not release.roles.check("virt", custom).hidden


def test_release_check_all(release):
    cluster = release.cluster(pool=[{"id": 1}])
    every = release.check_all(cluster, selected=[1])
    assert list(every) == list(release.roles)
    assert every["cinder-block-device"].allowed is False
    assert release.check("compute", cluster, selected=[1]).allowed is True


def test_load_roles_on_a_release_file_points_to_load_release():
    with pytest.raises(ConditionError, match="load_release"):
        load_roles(FUEL)


def test_roleset_frame(release):
    frame = release.roles.to_frame()
    assert list(frame["role"])[:2] == ["controller", "compute"]
    assert frame.loc[0, "label"] == "Controller"
    assert bool(frame.loc[0, "limits"]) is True


def test_deeply_nested_release_is_a_toskit_error():
    deep: object = 1
    for _ in range(5000):
        deep = {"a": deep}
    base = {"model": "nailgun.release", "fields": {"name": "r", "x": deep}}
    with pytest.raises(ToskitError):
        load_release([base, {"extend": base, "fields": {"name": "s", "x": {"a": 2}}}])


# --------------------------------------------------------------------------- what nailgun accepts (#17)


@pytest.mark.parametrize(
    "restrictions,allowed,hidden,warnings",
    [
        ([{"condition": "true", "action": "enable", "message": "on"}], True, False, ["on"]),
        ([{"true": True}], False, False, []),
        ([{"true": False}], False, False, []),
        ([{"false": None}], True, False, []),
    ],
    ids=["action-enable", "short-true-message", "short-false-message", "short-null-message"],
)
def test_data_nailgun_accepts(restrictions, allowed, hidden, warnings):
    roles = load_roles({"r": {"restrictions": restrictions}})
    out = roles.check("r", Cluster("multinode"))
    assert (out.allowed, out.hidden, out.warnings) == (allowed, hidden, warnings)


def test_short_form_message_of_another_type_is_still_refused():
    with pytest.raises(ConditionError) as info:
        load_roles({"r": {"restrictions": [{"true": [1]}]}})
    assert "a restriction message must be a string, got list" in info.value.message


def test_limits_top_level_message_replaces_the_default_texts():
    roles = load_roles(
        {
            "r": {
                "name": "R",
                "limits": {
                    "min": 2,
                    "message": "R needs two nodes",
                    "overrides": [
                        {"condition": "cluster:mode == 'x'", "min": 5, "message": "five"}
                    ],
                },
            }
        }
    )
    out = roles.check("r", Cluster("multinode", pool=[{"id": 1}]), selected=[1])
    assert out.warnings == ["R needs two nodes"]
    out = roles.check("r", Cluster("x", pool=[{"id": 1}]), selected=[1])
    assert out.warnings == ["five"]
    with pytest.raises(ConditionError) as info:
        load_roles({"r": {"limits": {"message": 3}}})
    assert "r.limits.message" in info.value.message


def test_max_zero_is_enforced_as_fuel_ui_did():
    roles = load_roles({"r": {"name": "R", "limits": {"max": 0}}})
    cluster = Cluster("multinode", pool=[{"id": 1}])
    assert roles.check("r", cluster, selected=[]).allowed
    out = roles.check("r", cluster, selected=[1])
    assert not out.allowed and out.warnings == ["At most 0 R nodes are allowed."]
    assert out.limits.max == 0


def test_restriction_evaluation_reports_text_reads_and_outcome(release):
    from toskit.conditions.expression import make_env

    cluster = release.cluster()
    env = make_env(cluster, (), NO_FEATURES, True)
    block = release.roles["cinder-block-device"]
    results = [r.evaluate(env) for r in block.restrictions]
    active = [r for r in results if r.active]
    assert active and active[0].action == "disable"
    assert active[0].reads == {"settings:storage.volumes_block_device.value": False}
    assert active[0].text == "settings:storage.volumes_block_device.value == false"
    assert "Cinder Block Device" in active[0].message
    (piece,) = release.roles["ceph-osd"].limits.explain(env)
    assert (piece.kind, piece.text, piece.value) == (
        "min",
        "settings:storage.osd_pool_size.value",
        3,
    )
    assert piece.reads == {"settings:storage.osd_pool_size.value": "3"}
    pieces = release.roles["controller"].limits.explain(env)
    assert [(p.kind, p.value) for p in pieces] == [
        ("min", 1),
        ("recommended", 3),
        ("override", False),
    ]
    assert pieces[2].reads == {"settings:neutron_advanced_configuration.neutron_l3_ha.value": False}


def test_cluster_has_nailguns_fields_settable(release):
    cluster = release.cluster()
    model = cluster.model
    assert (model["status"], model["grouping"], model["fuel_version"]) == ("new", "roles", "10.0")
    # Newton (Fuel 10.0): neutron is nailgun's default provider
    assert model["net_provider"] == "neutron"
    assert cluster.models["networking_parameters"] == {
        "segmentation_type": "vlan",
        "net_l23_provider": "ovs",
    }
    nova = release.cluster(status="operational", net_provider="nova_network")
    assert (nova.model["status"], nova.model["net_provider"]) == ("operational", "nova_network")
    assert nova.models["networking_parameters"] == {"net_manager": "FlatDHCPManager"}
    assert cluster.models["release"]["roles_metadata"].keys() == release.roles.keys()


@pytest.mark.parametrize(
    ("version", "fuel", "provider"),
    [
        ("2013.2.2", None, "nova_network"),
        ("2014.1.1-5.0.1", (5, 0), "nova_network"),
        ("2014.2.2-6.1", (6, 1), "nova_network"),
        ("2015.1.0-7.0", (7, 0), "neutron"),
        ("mitaka-9.0", (9, 0), "neutron"),
        (None, None, "nova_network"),
    ],
)
def test_default_net_provider_follows_the_fuel_version(version, fuel, provider):
    from toskit.conditions.fuel import default_net_provider, fuel_version

    assert fuel_version(version) == fuel
    assert default_net_provider(version) == provider


# --------------------------------------------------------------------------- text or path (#24)


def test_load_roles_tells_text_from_path_by_type_and_content(tmp_path):
    one_line = load_roles("roles_metadata: {controller: {}}")
    assert list(one_line) == ["controller"]
    assert list(load_roles("{controller: {}}")) == ["controller"]
    assert list(load_roles("controller: {}")) == ["controller"]
    path = tmp_path / "roles.yaml"
    path.write_text("roles_metadata:\n  compute: {}\n")
    assert list(load_roles(path)) == ["compute"]  # a Path is a path
    assert list(load_roles(str(path))) == ["compute"]  # a plain str without YAML marks too
    with pytest.raises(ToskitError) as info:
        load_roles(str(tmp_path / "missing.yaml"))
    assert "no such file" in str(info.value)


def test_a_malformed_depends_item_is_a_schema_error_with_its_path():
    record = {
        "model": "nailgun.release",
        "fields": {"name": "r", "roles_metadata": {"mongo": {"depends": [{"x:y": [1]}]}}},
    }
    with pytest.raises(ConditionError) as info:
        load_release([record])
    assert info.value.kind == "SchemaError"
    assert info.value.message.startswith("r: roles_metadata.mongo.depends[0]: a 'depends' item")
    record["fields"]["roles_metadata"]["mongo"]["depends"] = [
        {"settings:a.b": True},
        {"condition": "settings:c.d == 1", "warning": "needs d", "action": "hide"},
    ]
    (release,) = [load_release([record])]
    texts = [(r.text, r.action, r.message) for r in release.roles["mongo"].restrictions]
    assert texts == [
        ("not (settings:a.b == true)", "disable", None),
        ("not (settings:c.d == 1)", "hide", "needs d"),
    ]
