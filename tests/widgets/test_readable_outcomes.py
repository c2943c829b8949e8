"""Issue #35 item 1: the simulator's outcomes read in a narrow output area.

The why sits in the status's cell (no column to scroll to), one cause per
line, the rules of a trace numbered, hidden roles with their reason, and a
blocked role's advice about limits muted; the panels wrap instead of
squeezing the outcomes into a 235 px column."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "display"))

from htmlcheck import body  # noqa: E402
from simulator_html import assert_view_safe  # noqa: E402

from toskit import conditions  # noqa: E402
from toskit.display.conditions_views import outcomes_table  # noqa: E402
from toskit.widgets import ClusterSimulator  # noqa: E402

RELEASE_FILE = Path(__file__).resolve().parents[2] / "conformance" / "fuel" / "openstack.yaml"
ROLES = """\
roles_metadata:
  controller:
    conditions:
      - condition: "cluster:mode == 'multinode'"
        then:
          condition: "selectedNodes._length <= 1"
          warning: "Multi-node environment cannot have more than one controller node."
        else: true
      - condition: "cluster:mode == 'multinode'"
        then:
          condition: "selectedNodes._length <= 0"
          warning: "No controller at all."
        else: true
  compute: {}
"""


@pytest.fixture(scope="module")
def release():
    return conditions.load_release(RELEASE_FILE, "Newton on Ubuntu 16.04")


def mongo_simulator(release, **overrides):
    cluster = release.cluster(
        mode="ha_compact", pool=[{"id": 1}], settings_overrides=overrides or None
    )
    sim = ClusterSimulator(release, cluster, selected=[1])
    return sim


def row_of(page: str, role: str) -> str:
    found = re.search(
        rf'<tr class="toskit-role-\w+"><td class="toskit-path">{re.escape(role)}</td>(.*?)</tr>',
        page,
        re.S,
    )
    assert found, f"no row for {role}"
    return found.group(1)


def test_the_why_shares_the_status_cell(release):
    sim = mongo_simulator(release)
    page = body(sim.html)
    assert "<th>role</th><th>outcome and why</th></tr>" in page
    row = row_of(page, "ceph-osd")
    assert row.count("<td") == 1, "status and why in one cell, not columns the output area may hide"
    assert (
        "toskit-badge-blocked" in row
        and 'class="toskit-reason">blocked: Ceph should be enabled' in row
    )


def test_every_cause_on_its_own_line_and_advice_muted_while_blocked(release):
    sim = mongo_simulator(release, **{"additional_components.mongo.value": True})
    sim.set_feature_groups(["experimental"])
    out = sim.outcome("mongo")
    assert not out.allowed and not out.hidden
    row = row_of(body(sim.html), "mongo")
    reason = re.search(r'<div class="toskit-reason">(.*?)</div>', row, re.S).group(1)
    # Two blocking restrictions: the first after "blocked: ", the second on a line of its own.
    assert reason.startswith(
        "blocked: Ceilometer should be enabled in the environment settings.<span"
    )
    causes = re.findall(r'<span class="toskit-cause">(.*?)</span>', reason)
    assert len(causes) == 1 and "MongoDB" in causes[0]
    assert ".; " not in reason and "settings.;" not in reason
    # "At least 1 MongoDB node is required" says nothing about why it is blocked now.
    later = re.search(r'<div class="toskit-later">(.*?)</div>', row, re.S)
    assert later and "MongoDB node" in later.group(1) and "once allowed" in later.group(1)
    assert '<ul class="toskit-warnings">' not in row


def test_an_allowed_roles_advice_is_a_warning_not_muted(release):
    row = row_of(body(mongo_simulator(release).html), "controller")
    assert "toskit-later" not in row
    assert 'class="toskit-reason">allowed with advice: It is recommended' in row


def test_hidden_roles_say_why(release):
    sim = mongo_simulator(release)
    assert set(sim.hidden_roles) >= {"mongo", "virt"}
    page = body(sim.html)
    hidden = re.search(r'<ul class="toskit-hidden-list">(.*?)</ul>', page, re.S).group(1)
    items = re.findall(r"<li>(.*?)</li>", hidden, re.S)
    assert len(items) == len(sim.hidden_roles)
    for item in items:
        assert "—" in item and "no hiding restriction" not in item, item
    # The release's own message where it has one, the condition in words otherwise.
    virt = next(i for i in items if ">virt<" in i)
    assert "Advanced feature should be enabled in feature groups" in virt
    mongo = next(i for i in items if ">mongo<" in i)
    assert "feature group &#x27;experimental&#x27; is not enabled" in mongo
    assert "version:feature_groups" not in mongo
    assert_view_safe(sim.html)


def test_every_rule_of_a_trace_is_numbered():
    roles = conditions.load_roles(ROLES)
    cluster = conditions.Cluster(
        "multinode", nodes=[{"id": 1, "roles": ["controller"]}], pool=[{"id": 2}]
    )
    out = roles.check_all(cluster, selected=[1, 2], record=True)
    page = outcomes_table(out)
    assert page.count('<span class="toskit-rule-number">rule 1</span>') == 1
    assert page.count('<span class="toskit-rule-number">rule 2</span>') == 1
    # The two false rules' warnings, one per line (never "node.; No").
    assert (
        '<div class="toskit-reason">blocked: Multi-node environment cannot have more than one'
        ' controller node.<span class="toskit-cause">No controller at all.</span></div>'
    ) in page


def test_a_fuel_trace_numbers_rules_not_restrictions(release):
    sim = mongo_simulator(release)
    sim.open_trace("ceph-osd")
    row = row_of(body(sim.html), "ceph-osd")
    assert "toskit-trace" in row and "toskit-rule-number" not in row  # restrictions and limits only


def test_the_panels_wrap_instead_of_squeezing_the_outcomes(release):
    sim = mongo_simulator(release)
    row = sim.children[0]
    assert row.layout.flex_flow == "row wrap"
    outcomes = row.children[1]  # the export link above the outcomes' view
    assert sim._view in outcomes.children and sim._export in outcomes.children
    assert outcomes.layout.min_width == "min(100%, 420px)"
    assert sim._settings_panel.layout.max_width == "100%"


def test_buttons_are_as_wide_as_their_words(release):
    sim = mongo_simulator(release)
    for button in (
        sim._assign_button,
        sim._unassign_button,
        sim._add_button,
        sim._remove_button,
        sim._reset_button,
    ):
        assert button.layout.width == "auto", button.description


def test_each_limit_message_is_a_line_of_its_own(release):
    cluster = release.cluster(
        mode="ha_compact", nodes=[{"id": i} for i in range(1, 4)], pool=[{"id": 11}]
    )
    sim = ClusterSimulator(release, cluster)
    messages = sim.outcome("controller").recorded_decision.limits.messages
    assert len(messages) == 2
    reason = re.search(
        r'<div class="toskit-reason">(.*?)</div>', row_of(body(sim.html), "controller"), re.S
    ).group(1)
    assert ".; " not in reason
    assert (
        reason
        == f'allowed with advice: {messages[0]}<span class="toskit-cause">{messages[1]}</span>'
    )


def test_a_long_path_in_a_trace_breaks_between_its_names_only():
    from toskit.display.conditions_views import breakable as _breakable

    long = "settings:additional_components.ceilometer.value == false"
    assert _breakable(long) == (
        "settings:<wbr>additional_components.<wbr>ceilometer.<wbr>value == false"
    )
    assert _breakable("<node>._hasRole('controller-of-the-cluster')") == (
        "&lt;node&gt;.<wbr>_hasRole<wbr>(&#x27;controller-of-the-cluster&#x27;)"
    )
    # Short tokens are left alone, and no break is ever inside a name.
    assert _breakable("cluster:mode == 'multinode'") == "cluster:mode == &#x27;multinode&#x27;"
    for text in (long, "a.b.c_d_e_f_g_h_i_j_k_l_m_n_o.p(q, r)[s]"):
        html = _breakable(text)
        for before, after in re.findall(r"(.)<wbr>(.)", html):
            assert before in ".:," or after in "([", (before, after)
        joined = _breakable(text).replace("<wbr>", "")
        assert joined.replace("&#x27;", "'") == text
