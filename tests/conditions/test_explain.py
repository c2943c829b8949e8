"""Issue 16: traces state facts (guard values, branch taken, the node an
``exists`` matched, filled placeholders, the values an expression read),
Fuel restrictions and limits are trace entries, and every outcome that is
not plainly allowed carries a one-sentence reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fixtures.conditions import CLUSTERS, CONF, POOL, ROLES, WHA, WMN
from hypothesis import given, settings
from hypothesis import strategies as st

from toskit.conditions import Cluster, evaluate, load_release, load_roles

FUEL = Path(__file__).resolve().parents[2] / "conformance" / "fuel" / "openstack.yaml"
NEWTON = "Newton on Ubuntu 16.04"


def check(cluster: str, selected: list, role: str = "controller", **kw):
    return ROLES.check(role, CLUSTERS[cluster], selected=selected, **kw)


def facts(entry):
    """The facts of one entry, as a tuple that reads well in a failure."""
    return (entry.form, entry.value, entry.guard, entry.branch, entry.applies, entry.detail)


# ---------------------------------------------------------------- the seed's forms, each branch


def test_rule_guard_true_then_branch_false_names_the_node_that_exists():
    out = check("MN1", [11])
    rule1, rule2 = out.trace.children
    assert facts(rule1) == ("condition", False, True, "then", True, "guard TRUE → then: FALSE")
    assert rule1.reads == [("cluster:mode", "multinode")]
    all_entry = rule1.children[0]
    assert all_entry.detail == "item 2 of 2 is FALSE → FALSE (stopped)"
    length, not_entry = all_entry.children
    assert (length.guard, length.value, length.reads) == (
        None,
        True,
        [("selectedNodes._length", 1)],
    )
    assert not_entry.detail == "operand TRUE → FALSE"
    exists = not_entry.children[0]
    assert exists.form == "exists" and exists.value is True
    assert exists.item["id"] == 1 and exists.item["roles"] == ["controller"]
    assert exists.detail == "<node> = node 1 (roles: controller) matched (item 1 of 2) → TRUE"
    # The deciding path is marked, down to the exists that decided it.
    assert [rule1.decisive, all_entry.decisive, not_entry.decisive, exists.decisive] == [True] * 4
    assert length.decisive is False
    # The guard of rule 2 is false and it has no else: it does not apply.
    assert facts(rule2) == (
        "condition",
        True,
        False,
        None,
        False,
        "guard FALSE → rule does not apply (no else)",
    )
    assert rule2.reads == [("cluster:mode", "multinode")] and rule2.decisive is False


def test_reason_of_a_rule_without_warning_names_rule_guard_and_node():
    out = check("MN1", [11])
    assert out.allowed is False and out.warnings == []
    assert out.reason == (
        "blocked: rule 1 (cluster:mode == 'multinode'): node 1 (roles: controller) "
        "is a node of the cluster that is not selected, has role controller and is not being "
        "deleted"
    )


def test_pending_role_is_named_in_the_reason():
    out = check("MN1P", [11])
    assert "node 1 (roles: none; pending: controller)" in out.reason


def test_condition_with_warning_shows_the_value_read_and_the_warning_is_the_reason():
    out = check("MN0", [11, 12])
    rule1 = out.trace.children[0]
    length = rule1.children[0].children[0]
    assert facts(length) == ("condition", False, None, None, True, "FALSE")
    assert length.reads == [("selectedNodes._length", 2)] and length.warnings == [WMN]
    assert length.decisive
    assert out.reason == f"blocked: {WMN}"


def test_guard_false_else_branch_and_recommended_with_filled_placeholder():
    out = check("HA1", [11])
    rule1, rule2 = out.trace.children
    assert facts(rule1) == ("condition", True, False, "else", True, "guard FALSE → else: TRUE")
    assert rule1.children[0].form == "literal" and rule1.children[0].value is True
    assert facts(rule2) == ("condition", True, True, "then", True, "guard TRUE → then: TRUE")
    rec = rule2.children[0]
    assert rec.form == "recommended" and rec.fired is True and rec.warnings == [WHA]
    assert rec.detail == "cluster:nodes._length >= 3 is FALSE → advice raised"
    assert rec.reads == [("cluster:nodes._length", 2), ("<value>", 3)]
    assert rec.decisive and rule2.decisive and not rule1.decisive
    assert out.allowed and out.reason == f"allowed with advice: {WHA}"


def test_recommended_not_fired():
    out = check("HA3", [11])
    rec = out.trace.children[1].children[0]
    assert (
        rec.fired is False and rec.detail == "cluster:nodes._length >= 3 is TRUE → no advice needed"
    )
    assert out.reason == "" and not any(e.decisive for e in out.trace.walk())


def test_exists_without_match_says_how_many_items_it_saw():
    out = check("MN1", [1])
    exists = out.trace.children[0].children[0].children[1].children[0]
    assert (exists.item, exists.detail) == (None, "no match among 2 items → FALSE")
    assert out.allowed and out.reason == ""


def test_nested_rule_without_else_is_false_and_says_so():
    out = evaluate(
        {"all": [{"condition": "cluster:mode == 'ha_compact'", "then": True}]}, CLUSTERS["MN1"]
    )
    inner = out.trace.children[0].children[0]
    assert facts(inner) == ("condition", False, False, None, True, "guard FALSE → no else: FALSE")
    assert out.reason == (
        "false: rule 1: cluster:mode == 'ha_compact' is false (cluster:mode = 'multinode')"
    )


def test_any_and_not_details():
    out = evaluate(
        {"any": [{"condition": "false", "warning": "A"}, {"not": "cluster:mode == 'x'"}]},
        CLUSTERS["MN1"],
    )
    any_entry = out.trace.children[0]
    assert any_entry.detail == "item 2 of 2 is TRUE → TRUE (stopped)"
    assert any_entry.children[1].detail == "operand FALSE → TRUE"


def test_conflict_is_in_the_reason_and_the_trace():
    out = ROLES.check("controller", CLUSTERS["MN0"], selected=[11], selected_roles=["compute"])
    assert out.warnings == [CONF]
    assert out.reason == "blocked: conflicts with the selected role compute"
    # The trace never says TRUE for a blocked role: the conflict is an entry.
    assert out.trace.value is False
    entry = out.trace.children[-1]
    assert (entry.form, entry.value, entry.detail, entry.decisive) == (
        "conflicts",
        False,
        "selected role compute → blocks the role",
        True,
    )
    assert entry.facts == {
        "conflicts": ["compute"],
        "declared": ["compute"],
        "declared_by": {"compute": "role"},
        "declared_at": {"compute": "controller.conflicts"},
    }
    assert [c.form for c in out.trace.children] == ["condition", "condition", "conflicts"]
    assert out.trace.detail == "blocked by conflicts → FALSE"


def test_str_gives_verdict_reason_and_deciding_entries():
    text = str(check("MN1", [11]))
    lines = text.splitlines()
    assert lines[0] == "controller: blocked"
    assert lines[1].startswith("reason: blocked: rule 1 (cluster:mode == 'multinode')")
    assert lines[2] == "deciding entries:"
    assert any("▶ exists cluster:nodes: <node> = node 1" in line for line in lines)
    # The full trace prints every entry with its facts; ▶ marks the deciding ones.
    trace = str(check("MN1", [11]).trace)
    assert "condition cluster:mode == 'ha_compact': guard FALSE → rule does not apply" in trace
    assert "▶ condition cluster:mode == 'multinode': guard TRUE → then: FALSE" in trace


def test_to_frame_has_a_reason_column():
    frame = check("MN1", [11]).to_frame()
    assert list(frame.columns) == ["role", "allowed", "status", "reason", "warnings", "conflicts"]
    assert frame.loc[0, "reason"].startswith("blocked: rule 1")
    assert frame.loc[0, "status"] == "blocked"


def test_trace_html_states_facts_and_marks_the_deciding_entry():
    html = check("MN1", [11])._repr_html_()
    assert (
        'guard <span class="toskit-t">TRUE</span> → then: <span class="toskit-f">FALSE</span>'
        in html
    )
    assert "node 1 (roles: controller) matched" in html
    assert 'class="toskit-reason"' in html and "is a node of the cluster that" in html
    assert 'class="toskit-decisive"' in html
    assert "cluster:mode = &#x27;multinode&#x27;" in html


# ---------------------------------------------------------------- Fuel: restrictions and limits


@pytest.fixture(scope="module")
def release():
    return load_release(FUEL, NEWTON)


def test_fuel_role_blocked_by_a_restriction(release):
    cluster = release.cluster(mode="ha_compact", pool=[{"id": 11}])
    out = release.check("cinder-block-device", cluster, selected=[11])
    assert out.allowed is False
    root = out.trace
    assert root.value is False and root.detail == "blocked by restriction → FALSE"
    first, second = root.children[:2]
    assert (first.form, first.value, first.source) == (
        "restriction",
        False,
        "settings:storage.volumes_block_device.value == false",
    )
    assert first.reads == [("settings:storage.volumes_block_device.value", False)]
    assert first.facts == {
        "action": "disable",
        "message": "Cinder Block Device driver should be enabled in the environment settings.",
        "active": True,
        # the condition in words, the setting by its label in the release
        "words": "“Cinder Block device driver” is off",
    }
    assert first.detail == "condition TRUE → active (disable): blocks the role" and first.decisive
    assert (second.value, second.facts["active"], second.detail) == (
        True,
        False,
        "condition FALSE → inactive",
    )
    assert out.reason == (
        "blocked: Cinder Block Device driver should be enabled in the environment settings."
    )
    # The settings change: the same entry reads the new value.
    enabled = cluster.with_settings({"storage.volumes_block_device.value": True})
    again = release.check("cinder-block-device", enabled, selected=[11])
    assert again.allowed and again.reason == ""
    assert again.trace.children[0].reads == [("settings:storage.volumes_block_device.value", True)]


def test_fuel_hidden_role_says_which_restriction_hides_it(release):
    cluster = release.cluster(
        mode="ha_compact",
        pool=[{"id": 11}],
        settings_overrides={"additional_components.ceilometer.value": True},
    )
    out = release.check("mongo", cluster, selected=[11])
    assert out.hidden
    assert out.reason == (
        "hidden, allowed with advice: At least 3 MongoDB nodes are recommended for HA deployment.; "
        "hidden because feature group 'experimental' is not enabled"
    )
    hide = [e for e in out.trace.children if e.facts.get("action") == "hide"][0]
    assert hide.reads == [("version:feature_groups", [])] and hide.decisive


def test_fuel_limits_entry_compares_count_with_bounds(release):
    cluster = release.cluster(mode="ha_compact", pool=[{"id": 11}])
    out = release.check("controller", cluster, selected=[11])
    limits = [e for e in out.trace.children if e.form == "limits"][0]
    assert (
        limits.facts["count"],
        limits.facts["min"],
        limits.facts["max"],
        limits.facts["recommended"],
    ) == (1, 1, None, 3)
    assert limits.detail.startswith("count 1 / min 1 / recommended 3 → below recommended (advice)")
    assert out.reason == (
        "allowed with advice: It is recommended to have at least 3 Controller nodes (1 selected currently)."
    )


LIMITED = """
roles_metadata:
  controller:
    name: Controller
    limits:
      min: 1
      max: "settings:ha.max_controllers.value"
      overrides:
        - condition: "cluster:mode == 'multinode'"
          max: 1
          message: "Multi-node environment can have one controller only."
"""


def test_role_blocked_by_a_limit_names_count_and_bound():
    roles = load_roles(LIMITED)
    cluster = Cluster(
        "multinode",
        nodes=[{"id": 1, "roles": ["controller"]}],
        pool=POOL,
        models={"settings": {"ha": {"max_controllers": {"value": 3}}}},
    )
    out = roles.check("controller", cluster, selected=[11])
    assert out.allowed is False
    (limits,) = out.trace.children
    assert limits.form == "limits" and limits.value is False and limits.decisive
    assert (limits.facts["count"], limits.facts["max"]) == (2, 1)
    assert limits.facts["overrides"] == ["override 1 (cluster:mode == 'multinode') sets max"]
    assert ("settings:ha.max_controllers.value", 3) in limits.reads
    assert ("cluster:mode", "multinode") in limits.reads
    assert limits.detail.startswith("count 2 / min 1 / max 1 → above max: blocks the role")
    assert out.reason == "blocked: Multi-node environment can have one controller only."
    # Without the override the bound comes from the setting: allowed.
    ha = Cluster(
        "ha_compact",
        nodes=[{"id": 1, "roles": ["controller"]}],
        pool=POOL,
        models={"settings": {"ha": {"max_controllers": {"value": 3}}}},
    )
    assert roles.check("controller", ha, selected=[11]).reason == ""


# ---------------------------------------------------------------- no blocked role without a reason

NODE = st.fixed_dictionaries(
    {
        "roles": st.lists(
            st.sampled_from(["controller", "compute", "cinder", "ceph-osd", "mongo"]), max_size=2
        ),
        "pending_roles": st.lists(st.sampled_from(["controller", "compute"]), max_size=1),
        "pending_deletion": st.booleans(),
    }
)


@settings(max_examples=60, deadline=None)
@given(
    mode=st.sampled_from(["multinode", "ha_compact", "ha_full"]),
    nodes=st.lists(NODE, max_size=6),
    picks=st.lists(st.integers(0, 7), max_size=3),
    assign=st.lists(
        st.sampled_from(["controller", "compute", "zabbix-server", "cinder"]), max_size=2
    ),
)
def test_no_seed_role_is_blocked_without_a_reason(mode, nodes, picks, assign):
    cluster = Cluster(mode, nodes=[{"id": i + 1, **n} for i, n in enumerate(nodes)], pool=POOL)
    ids = [n["id"] for n in cluster.nodes] + [11, 12]
    selected = [ids[p % len(ids)] for p in picks]
    for name, out in ROLES.check_all(cluster, selected=selected, selected_roles=assign).items():
        if not out.allowed:
            assert out.reason.startswith("blocked: ") and "no reason recorded" not in out.reason, (
                name
            )
        elif out.warnings:
            assert out.reason.startswith("allowed with advice: ")
        else:
            assert out.reason == ""


@settings(max_examples=30, deadline=None)
@given(
    mode=st.sampled_from(["ha_compact", "multinode"]),
    nodes=st.lists(NODE, max_size=5),
    toggles=st.lists(st.booleans(), min_size=6, max_size=6),
    groups=st.lists(st.sampled_from(["experimental", "advanced"]), max_size=2),
)
def test_no_fuel_role_is_blocked_without_a_reason(release, mode, nodes, toggles, groups):
    paths = [
        "storage.volumes_block_device.value",
        "storage.volumes_ceph.value",
        "storage.images_ceph.value",
        "additional_components.ceilometer.value",
        "additional_components.mongo.value",
        "storage.volumes_lvm.value",
    ]
    cluster = release.cluster(
        mode=mode,
        nodes=[{"id": i + 1, **n} for i, n in enumerate(nodes)],
        pool=[{"id": 11}],
        settings_overrides=dict(zip(paths, toggles)),
        models={"version": {"feature_groups": groups}},
    )
    for name, out in release.check_all(cluster, selected=[11]).items():
        if not out.allowed or out.hidden:
            assert out.reason and "no reason recorded" not in out.reason, name
        assert out.trace.value == out.allowed, name  # no conflicts here: the root is the verdict


# ---------------------------------------------------------------- the tutorials: every blocked role says why

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("[0-9][0-9]-*.ipynb"))
_BLOCKED_ROW = re.compile(r'<tr class="toskit-role-blocked">(.*?)</tr>', re.S)
_REASON = re.compile(r'<div class="toskit-reason">blocked: [^<]+</div>')


def _stored_html(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    out = []
    for cell in cells:
        for output in cell.get("outputs", []):
            html = output.get("data", {}).get("text/html")
            if html:
                out.append("".join(html) if isinstance(html, list) else html)
    return out


def test_the_tutorials_show_outcomes():
    assert [p.name for p in NOTEBOOKS][:1] == ["00-tour.ipynb"]
    shown = [h for p in NOTEBOOKS for h in _stored_html(p) if "toskit-role-blocked" in h]
    assert shown, "no tutorial shows a blocked role any more: this scan checks nothing"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_role_in_a_tutorial_is_blocked_without_a_reason(notebook):
    for html in _stored_html(notebook):
        for row in _BLOCKED_ROW.findall(html):
            assert _REASON.search(row), (
                f"{notebook.name}: a blocked role without a reason: {row[:300]}"
            )
        if (
            'class="toskit-badge toskit-badge-blocked">blocked</span></div>' in html
        ):  # one outcome's view
            assert _REASON.search(html), f"{notebook.name}: a blocked outcome without a reason"


def test_static_views_explain_every_role_on_an_empty_cluster(release):
    """What ``toskit show`` writes for a roles document or a release: the
    roles, then every role's outcome with its reason and trace."""
    html = ROLES._repr_html_()
    assert "Outcomes on an empty cluster (0 blocked" in html
    assert "mode multinode, no nodes, pool node 1 selected" in html
    assert "blocked: conflicts with the selected role" not in html  # nothing assigned beside
    text = release._repr_html_()
    assert "mode ha_compact, no nodes, pool node 1 selected" in text
    assert (
        "blocked: Cinder Block Device driver should be enabled in the environment settings." in text
    )
    assert "hidden: mongo, virt" in text


# ---------------------------------------------------------------- issue 19: the work of one evaluation is bounded


def _nested_exists(depth: int, innermost: str | None = None) -> dict:
    """``exists`` nested ``depth`` deep over the cluster's nodes. By default
    the innermost condition reads *every* loop's node (nothing to reuse:
    the budget must stop it)."""
    if innermost is None:
        innermost = " and ".join(f"<n{i}>.id == 0" for i in range(depth))
    condition: object = innermost
    for level in reversed(range(depth)):
        condition = {
            "exists": {"where": "cluster:nodes", "variable": f"n{level}", "condition": condition}
        }
    return condition  # type: ignore[return-value]


def test_the_default_step_budget():
    from toskit.conditions import forms

    assert forms.STEP_BUDGET == 2_000_000  # about 1.3 s of nested 'exists' on an idle core


@pytest.mark.parametrize("budget", [100_000, 400_000])
def test_nested_exists_stops_at_the_step_budget_with_a_clear_error(budget, monkeypatch):
    import resource
    import time

    from toskit import ConditionError
    from toskit.conditions import forms

    # A smaller budget than the default keeps the CPU bound far from a loaded
    # machine's noise (the default costs ~1.3 s unloaded); the work must stop
    # at the budget, whatever it is, and say so.
    monkeypatch.setattr(forms, "STEP_BUDGET", budget)
    cluster = Cluster("multinode", nodes=[{"id": i} for i in range(1, 101)])
    start = time.process_time()
    with pytest.raises(ConditionError) as info:
        evaluate(_nested_exists(5), cluster)  # 10^10 items without a bound
    assert time.process_time() - start < 2.0 * budget / 400_000  # ~4x margin
    err = info.value
    assert err.kind == "LimitExceeded" and err.expression == "cluster:nodes"
    assert f"visited more than {budget:,} items in 'exists' loops" in err.message
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss < 2_000_000  # kB: no blow-up


def test_a_role_check_with_nested_exists_is_bounded_too(monkeypatch):
    import time

    from toskit import ConditionError
    from toskit.conditions import forms

    monkeypatch.setattr(forms, "STEP_BUDGET", 400_000)  # a fifth of the default: see above
    roles = load_roles({"r": {"conditions": [_nested_exists(4)]}})
    cluster = Cluster("multinode", nodes=[{"id": i} for i in range(100, 400)], pool=POOL)
    start = time.process_time()
    with pytest.raises(ConditionError, match="visited more than 400,000 items"):
        roles.check("r", cluster, selected=[11])
    assert time.process_time() - start < 2.0


def test_nested_exists_over_the_same_list_is_cheap_when_inner_loops_reuse():
    """Each level reads only its parent's node: the inner loop's result is
    reused per binding, so five levels over 100 nodes take a few hundred
    inner evaluations, not 10^10, and give the sequential answer."""
    import time

    cluster = Cluster("multinode", nodes=[{"id": i, "roles": ["compute"]} for i in range(1, 101)])
    chain = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "n4",
            "condition": "<n4>.id == 100 and <n3>.id == 100",
        }
    }
    for level in (3, 2, 1):
        chain = {
            "exists": {
                "where": "cluster:nodes",
                "variable": f"n{level}",
                "condition": {"all": [f"<n{level}>.id >= <n{level - 1}>.id", chain]},
            }
        }
    cond = {"exists": {"where": "cluster:nodes", "variable": "n0", "condition": chain}}
    start = time.process_time()
    out = evaluate(cond, cluster)
    assert time.process_time() - start < 2.0
    assert out.value is True
    # No match anywhere: the whole space is "searched", through the memo.
    never = _nested_exists(5, innermost="false")
    start = time.process_time()
    assert evaluate(never, cluster).value is False
    assert time.process_time() - start < 2.0


def test_only_nested_exists_are_memoised_and_keyed_on_what_they_read():
    from toskit.conditions.evaluate import compile_for_evaluate

    pair = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "a",
            "condition": {
                "exists": {
                    "where": "cluster:nodes",
                    "variable": "b",
                    "condition": "<a>.id == <b>.id",
                }
            },
        }
    }
    outer = compile_for_evaluate(pair).rules[0]
    assert outer._free is None  # top level: evaluated once anyway
    assert outer.condition._free == ("a",)
    shadow = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "a",
            "condition": {
                "exists": {"where": "cluster:nodes", "variable": "a", "condition": "true"}
            },
        }
    }
    assert compile_for_evaluate(shadow).rules[0].condition._free is None  # shadowing: no memo


def test_the_memo_gives_the_sequential_answer():
    # A two-level pair query: some node other than the first has role cinder.
    cluster = Cluster(
        "multinode",
        nodes=[
            {"id": 1, "roles": ["controller"]},
            {"id": 2, "roles": ["cinder"]},
            {"id": 3, "roles": ["compute"]},
        ],
    )
    pair = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "a",
            "condition": {
                "exists": {
                    "where": "cluster:nodes",
                    "variable": "b",
                    "condition": "<b>.id != <a>.id and <b>._hasRole('cinder') and <a>._hasRole('controller')",
                }
            },
        }
    }
    out = evaluate(pair, cluster)
    assert out.value is True
    outer = out.trace.children[0]
    assert outer.item["id"] == 1 and outer.children[0].item["id"] == 2
    lone = Cluster("multinode", nodes=[{"id": 2, "roles": ["cinder", "controller"]}])
    assert evaluate(pair, lone).value is False


def test_work_below_the_budget_is_untouched():
    cluster = Cluster("multinode", nodes=[{"id": i} for i in range(1, 301)])
    out = evaluate(_nested_exists(2), cluster)  # 90,000 items: fine
    assert out.value is False
    one_level = {
        "exists": {"where": "cluster:nodes", "variable": "n", "condition": "<n>.id == 300"}
    }
    assert evaluate(one_level, cluster).value is True


def test_toskit_show_writes_the_reasons_of_a_release(tmp_path):
    from toskit.cli import main

    out = tmp_path / "fuel.html"
    assert main(["show", str(FUEL), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert 'class="toskit-reason">blocked: Cinder Block Device driver should be enabled' in page
    assert "blocked by restriction → " in page  # the trace, in the same page


def test_a_real_release_role_blocked_by_a_limit(release):
    """Newton's mongo: at most one node outside HA (an override of its limits)."""
    cluster = release.cluster(
        mode="multinode",
        pool=[{"id": 11}, {"id": 12}],
        settings_overrides={"additional_components.ceilometer.value": True},
        models={"version": {"feature_groups": ["experimental"]}},
    )
    out = release.check("mongo", cluster, selected=[11, 12])
    assert (out.allowed, out.hidden) == (False, False)
    limits = [e for e in out.trace.children if e.form == "limits"][0]
    assert (limits.value, limits.decisive) == (False, True)
    assert (limits.facts["count"], limits.facts["min"], limits.facts["max"]) == (2, 1, 1)
    assert limits.facts["overrides"] == ["override 1 (cluster:mode != 'ha_compact') sets max"]
    assert ("cluster:mode", "multinode") in limits.reads
    assert out.trace.detail == "blocked by limits → FALSE"
    assert out.reason == "blocked: At most 1 MongoDB node can be added for non-HA deployment"
    # Every restriction is an entry too, inactive here, each with the value it read.
    restrictions = [e for e in out.trace.children if e.form == "restriction"]
    assert [e.facts["active"] for e in restrictions] == [False, False, False]
    assert restrictions[0].reads == [("settings:additional_components.ceilometer.value", True)]


_EXPRS = [
    "<a>.id == <b>.id",
    "<a>.id != <b>.id",
    "<b>._hasRole('controller')",
    "<a>._pending_deletion",
    "<b>.id in selectedNodes._pluck('id')",
    "<c>.id > <a>.id",
    "<c>._hasRole('compute')",
    "true",
    "false",
]


def _body(draw, depth: int, bound: list[str]):
    names = ["a", "b", "c"]
    if depth == 0 or draw(st.booleans()):
        usable = [e for e in _EXPRS if all(f"<{v}>" not in e or v in bound for v in names)]
        return draw(st.sampled_from(usable))
    var = names[len(bound)]
    inner = _body(draw, depth - 1, [*bound, var])
    exists = {"exists": {"where": "cluster:nodes", "variable": var, "condition": inner}}
    if draw(st.booleans()):
        return exists
    return {
        draw(st.sampled_from(["all", "any"])): [exists, draw(st.sampled_from(["true", "false"]))]
    }


@st.composite
def nested_trees(draw):
    return _body(draw, 3, [])


def _without_memo(form) -> None:
    from toskit.conditions.forms import ExistsForm

    stack = [form]
    while stack:
        current = stack.pop()
        if isinstance(current, ExistsForm):
            current._free = None
        for attr in ("rules", "items", "operand", "condition", "then", "else_"):
            child = getattr(current, attr, None)
            if isinstance(child, list):
                stack.extend(child)
            elif child is not None and hasattr(child, "run"):
                stack.append(child)


@settings(max_examples=80, deadline=None)
@given(tree=nested_trees(), size=st.integers(0, 6), pick=st.integers(0, 6))
def test_memoised_nested_exists_equals_plain_evaluation(tree, size, pick):
    from toskit.conditions.evaluate import compile_for_evaluate
    from toskit.conditions.expression import make_env

    roles = ["controller", "compute"]
    nodes = [
        {"id": i, "roles": [roles[i % 2]], "pending_deletion": i % 3 == 0}
        for i in range(1, size + 1)
    ]
    cluster = Cluster("multinode", nodes=nodes, pool=POOL)
    selected = [11] if pick % 2 else [11, 12]
    memo_rules = compile_for_evaluate(tree)
    plain_rules = compile_for_evaluate(tree)
    _without_memo(plain_rules)
    fast = memo_rules.run(make_env(cluster, selected))
    slow = plain_rules.run(make_env(cluster, selected))
    assert fast == slow
    assert memo_rules.trace(make_env(cluster, selected)) == plain_rules.trace(
        make_env(cluster, selected)
    )
