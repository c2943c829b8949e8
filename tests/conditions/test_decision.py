"""A role's outcome is decided once (issue #28): the facts the check
records, and that explanations, traces and views only render them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixtures.conditions import CLUSTERS, ROLES_TEXT

from toskit.conditions import load_release, load_roles
from toskit.conditions.decision import RoleDecision
from toskit.conditions.forms import Rules
from toskit.conditions.restrictions import Limits, Restriction
from toskit.conditions.simulator import Simulation
from toskit.display import to_html
from toskit.display.conditions_views import outcomes_table

ROOT = Path(__file__).resolve().parents[2]
FUEL = ROOT / "conformance" / "fuel" / "openstack.yaml"
NEWTON = "Newton on Ubuntu 16.04"
GOLDEN = Path(__file__).parent / "data" / "explain_spec_examples.json"
MODELS = {
    "version": {"feature_groups": ["experimental"]},
    "settings": {"storage": {"osd_pool_size": {"value": 2}}},
}
NO_GROUPS = {"version": {"feature_groups": []}}


@pytest.fixture(scope="module")
def roles():
    return load_roles(ROLES_TEXT)


@pytest.fixture(scope="module")
def release():
    return load_release(FUEL, NEWTON)


class Counter:
    """Counts the calls of the evaluator's entry points (class attributes)."""

    POINTS = ((Rules, "run"), (Rules, "trace"), (Restriction, "active"), (Limits, "decide"))

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: dict[str, int] = {}
        for cls, name in self.POINTS:
            monkeypatch.setattr(cls, name, self._wrap(cls, name))

    def _wrap(self, cls: type, name: str):
        original = getattr(cls, name)
        key = f"{cls.__name__}.{name}"

        def counted(*args, **kwargs):
            self.calls[key] = self.calls.get(key, 0) + 1
            return original(*args, **kwargs)

        return counted

    def __getitem__(self, key: str) -> int:
        return self.calls.get(key, 0)


def _read_everything(outcome) -> None:
    """What a person (or a view) reads of an outcome, twice."""
    for _ in range(2):
        str(outcome)
        str(outcome.trace)
        assert isinstance(outcome.reason, str)
        assert isinstance(outcome.reason_quotes, tuple)
        outcome.row()
        to_html(outcome)


# --------------------------------------------------------------------------- evaluated once


def test_a_recorded_check_evaluates_the_rules_once_whatever_is_read(roles, monkeypatch):
    count = Counter(monkeypatch)
    out = roles.check("controller", CLUSTERS["MN1"], selected=[11], models=MODELS, record=True)
    _read_everything(out)
    assert (count["Rules.trace"], count["Rules.run"]) == (1, 0)


def test_a_fast_check_records_once_on_first_reading_and_never_again(roles, monkeypatch):
    count = Counter(monkeypatch)
    out = roles.check("controller", CLUSTERS["MN1"], selected=[11], models=MODELS)
    assert (count["Rules.run"], count["Rules.trace"]) == (1, 0)
    assert out.decision.recorded is False
    _read_everything(out)
    assert (count["Rules.run"], count["Rules.trace"]) == (1, 1)
    assert out.decision.recorded is True


def test_a_fuel_check_evaluates_each_restriction_and_the_limits_once(release, monkeypatch):
    cluster = release.cluster(mode="ha_compact", pool=[{"id": 11}])
    count = Counter(monkeypatch)
    outcomes = release.check_all(cluster, selected=[11], models=NO_GROUPS, record=True)
    for out in outcomes.values():
        _read_everything(out)
    outcomes_table(outcomes)
    roles = release.roles.values()
    assert count["Restriction.active"] == sum(len(r.restrictions) for r in roles)
    assert count["Limits.decide"] == sum(r.limits is not None for r in roles)
    assert (count["Rules.trace"], count["Rules.run"]) == (len(outcomes), 0)


def test_explanations_and_views_never_call_the_evaluator(release, monkeypatch):
    cluster = release.cluster(mode="ha_compact", pool=[{"id": 11}])
    outcomes = release.check_all(cluster, selected=[11], models=NO_GROUPS, record=True)

    def forbidden(*args, **kwargs):
        raise AssertionError("evaluated again after the decision")

    for cls, name in Counter.POINTS:
        monkeypatch.setattr(cls, name, forbidden)
    for out in outcomes.values():
        _read_everything(out)
    assert "Ceilometer should be enabled" in outcomes_table(outcomes)


def test_the_simulator_evaluates_each_role_once_per_change(release, monkeypatch):
    sim = Simulation(release, release.cluster(mode="ha_compact", pool=[{"id": 11}]))
    assert sim.outcomes
    count = Counter(monkeypatch)
    sim.select([11])  # one change
    outcomes = sim.outcomes
    for out in outcomes.values():
        _read_everything(out)
    outcomes_table(outcomes)
    assert (count["Rules.trace"], count["Rules.run"]) == (len(outcomes), 0)


# --------------------------------------------------------------------------- the recorded facts


def test_a_role_blocked_by_its_rules_records_the_rule_and_the_matched_node(roles):
    out = roles.check("controller", CLUSTERS["MN1"], selected=[11], record=True)
    d = out.decision
    assert isinstance(d, RoleDecision)
    assert (d.allowed, d.rules_value, d.blocked_by, d.warnings) == (False, False, ("rules",), ())
    assert (d.restrictions, d.limits, d.conflicts) == ((), None, None)
    first = d.rules_trace.children[0]
    assert (first.guard, first.branch, first.reads) == (
        True,
        "then",
        [("cluster:mode", "multinode")],
    )
    exists = next(e for e in first.walk() if e.form == "exists")
    assert exists.decisive and exists.item["id"] == 1


def test_an_allowed_role_with_advice_records_the_rule_that_gave_it(roles):
    out = roles.check("controller", CLUSTERS["HA0"], selected=[11], record=True)
    d = out.decision
    assert (d.allowed, d.rules_value, d.blocked_by) == (True, True, ())
    advice = [e for e in d.rules_trace.walk() if e.form == "recommended"]
    assert [(e.fired, e.facts["value"], e.decisive) for e in advice] == [(True, 3, True)]
    assert out.reason_quotes == (d.warnings[0],)


@pytest.mark.parametrize(
    ("role", "selected_roles", "declared_by", "declared_at"),
    [
        pytest.param(
            "controller",
            ["compute"],
            ("role",),
            ("controller.conflicts",),
            id="the-role-declares-it",
        ),
        pytest.param(
            "compute",
            ["controller"],
            ("selected",),
            ("controller.conflicts",),
            id="the-selected-role-declares-it",
        ),
        pytest.param(
            "zabbix-server",
            ["compute", "cinder"],
            ("role", "role"),
            ("zabbix-server.conflicts",) * 2,
            id="star",
        ),
        pytest.param(
            "compute",
            ["zabbix-server"],
            ("selected",),
            ("zabbix-server.conflicts",),
            id="star-on-the-other-side",
        ),
    ],
)
def test_a_conflict_records_who_declares_it(roles, role, selected_roles, declared_by, declared_at):
    d = roles.check(role, CLUSTERS["MN0"], selected=[11], selected_roles=selected_roles).decision
    assert d.conflicts is not None
    assert d.conflicts.names == tuple(selected_roles)
    assert d.conflicts.declared_by == declared_by
    assert d.conflicts.declared_at == declared_at
    assert "conflicts" in d.blocked_by and d.allowed is False


def test_a_fuel_role_records_its_restrictions_with_the_release_messages(release):
    cluster = release.cluster(mode="ha_compact", pool=[{"id": 11}])
    d = release.check("mongo", cluster, selected=[11], models=NO_GROUPS, record=True).decision
    active = [r for r in d.restrictions if r.active]
    assert [(r.action, r.blocks, r.hides) for r in active] == [
        ("disable", True, False),
        ("hide", False, True),
    ]
    assert active[0].message == "Ceilometer should be enabled in the environment settings."
    assert active[0].reads == (("settings:additional_components.ceilometer.value", False),)
    assert active[1].reads == (("version:feature_groups", []),)
    assert active[0].path == "roles_metadata.mongo.restrictions[0]"
    assert (d.hidden, d.allowed, d.blocked_by) == (True, False, ("restriction",))


def test_a_fuel_role_records_its_limits_and_the_override_that_held(release):
    cluster = release.cluster(mode="ha_compact", pool=[{"id": 11}])
    d = release.check("mongo", cluster, selected=[11], models=NO_GROUPS, record=True).decision
    limits = d.limits
    assert limits is not None
    assert (limits.count, limits.min, limits.recommended) == (1, 1, 3)
    assert (limits.below_min, limits.above_max, limits.below_recommended) == (False, False, True)
    held = [(o.index, o.text, o.kinds) for o in limits.overrides if o.holds]
    assert held == [(1, "cluster:mode == 'ha_compact'", ("recommended",))]
    assert limits.messages == ("At least 3 MongoDB nodes are recommended for HA deployment.",)
    assert limits.messages[0] in d.warnings
    assert ("cluster:mode", "ha_compact") in limits.reads


MAX_ROLES = """\
roles_metadata:
  controller:
    name: Controller
    limits:
      max: 1
      overrides:
        - condition: "cluster:mode == 'ha_compact'"
          max: 3
          message: "HA: at most 3 controllers."
"""


@pytest.mark.parametrize(
    ("mode", "held", "message"),
    [
        pytest.param("multinode", False, "At most 1 Controller nodes are allowed.", id="default"),
        pytest.param("ha_compact", True, "HA: at most 3 controllers.", id="override-message"),
    ],
)
def test_a_limit_above_max_blocks_and_is_recorded(mode, held, message):
    from toskit.conditions import Cluster

    roles = load_roles(MAX_ROLES)
    pool = [{"id": i} for i in range(1, 5)]
    out = roles.check("controller", Cluster(mode, pool=pool), selected=[1, 2, 3, 4], record=True)
    d = out.decision
    assert d.limits is not None
    assert (d.limits.count, d.limits.above_max, d.limits.overrides[0].holds) == (4, True, held)
    assert d.limits.messages == (message,) == d.warnings
    assert (d.blocked_by, d.allowed) == (("limits",), False)
    assert out.reason == f"blocked: {message}"


# --------------------------------------------------------------------------- output unchanged


def test_explanations_of_the_spec_examples_are_unchanged(roles, release):
    """``str(outcome)`` and ``str(outcome.trace)`` of spec §12.3/§12.4 and
    of the Fuel release table (spec/fuel-release.md §4), as the code before
    issue #28 wrote them (tests/conditions/data/explain_spec_examples.json)."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    cases = {
        "S01": ("controller", "MN0", [11], []),
        "S02": ("controller", "MN0", [11, 12], []),
        "S03": ("controller", "MN1", [11], []),
        "S04": ("controller", "MN1", [1], []),
        "S06": ("controller", "MN1P", [11], []),
        "S09": ("controller", "HA0", [11], []),
        "S12": ("controller", "HA3", [11], []),
        "S13": ("controller", "HA1C2", [11], []),
        "S16": ("controller", "HAF", [11, 12], []),
        "K01": ("controller", "MN0", [11], ["compute"]),
        "K02": ("compute", "MN0", [11], ["controller"]),
    }
    seen = {}
    for case, (role, cluster, selected, selected_roles) in cases.items():
        for record in (False, True):
            out = roles.check(
                role,
                CLUSTERS[cluster],
                selected=selected,
                selected_roles=selected_roles,
                models=MODELS,
                record=record,
            )
            seen[case] = {"str": str(out), "trace": str(out.trace)}
            assert seen[case] == golden[case], (case, record)
    cluster = release.cluster(mode="ha_compact", pool=[{"id": 11}])
    for name in ("controller", "compute", "cinder", "cinder-block-device", "mongo"):
        out = release.check(name, cluster, selected=[11], models=NO_GROUPS)
        seen[f"F4:{name}"] = {"str": str(out), "trace": str(out.trace)}
    assert seen == golden


def test_the_outcome_table_lists_only_the_warnings_the_reason_does_not_quote(roles):
    from toskit.conditions.simulator import FailedOutcome

    advice = roles.check("controller", CLUSTERS["HA0"], selected=[11], models=MODELS)
    conflict = roles.check("controller", CLUSTERS["MN0"], selected=[11], selected_roles=["compute"])
    failed = FailedOutcome("ghost", ValueError("boom"))
    html = outcomes_table({"a": advice, "b": conflict, "ghost": failed}, with_traces=False)
    # The advice is the reason itself; the conflict text is not quoted by
    # the reason ("conflicts with the selected role compute"), so it is listed.
    assert html.count(advice.warnings[0]) == 1
    assert conflict.reason_quotes == ()
    assert html.count("This role cannot be combined with the selected roles.") == 1
    assert html.count("check failed: boom") == 1
