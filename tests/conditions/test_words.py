"""Conditions in the user's words (issue #35 item 5): what an ``exists``
found and what a restriction tests, with settings named by the labels the
release gives them; the phrases are recorded with the facts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toskit.conditions import Cluster, compile_expression, evaluate, load_roles
from toskit.conditions.words import condition_words, expression_words, labelled

SETTINGS = {
    "common": {
        "use_vcenter": {"value": False, "label": "Use vCenter"},
        "debug": {"value": False},  # no label: the key is shown
        "libvirt_type": {
            "value": "qemu",
            "label": "Hypervisor type",
            "values": [{"data": "kvm", "label": "KVM"}, {"data": "qemu", "label": "QEMU"}],
        },
    },
    "storage": {"osd_pool_size": {"value": "2", "label": "Ceph object replication factor"}},
}

PHRASES = [
    # the tests of an exists on its placeholder
    ("<node>._hasRole('controller')", "has role controller"),
    ("not <node>._hasRole('mongo')", "does not have role mongo"),
    ("<node>._hasDeployedRole('controller')", "has role controller deployed"),
    ("<node>._pending_deletion", "is being deleted"),
    ("not <node>._pending_addition", "is not being added"),
    ("<node>.id in selectedNodes._pluck('id')", "is selected"),
    ("not (<node>.id in selectedNodes._pluck('id'))", "is not selected"),
    ("<node>.status == 'ready'", "has status 'ready'"),
    ("<node>.status != 'ready'", "does not have status 'ready'"),
    ("<node>.online == true", "has online true"),
    (
        "<node>._hasRole('controller') and not <node>._pending_deletion",
        "has role controller and is not being deleted",
    ),
    # not (a and b) is said as (not a) or (not b)
    (
        "not (<node>._hasRole('a') and <node>._hasRole('b'))",
        "does not have role a or does not have role b",
    ),
    (
        "<node>._hasRole('a') or <node>._hasRole('b') or <node>._hasRole('c')",
        "has role a, has role b or has role c",
    ),
    # settings by their labels, values in words
    ("settings:common.use_vcenter.value == true", "“Use vCenter” is on"),
    ("settings:common.use_vcenter.value == false", "“Use vCenter” is off"),
    ("settings:common.use_vcenter.value != true", "“Use vCenter” is off"),
    ("settings:common.use_vcenter.value", "“Use vCenter” is on"),
    ("not settings:common.use_vcenter.value", "“Use vCenter” is off"),
    ("settings:common.libvirt_type.value == 'kvm'", "“Hypervisor type” is “KVM”"),
    ("settings:common.libvirt_type.value != 'xen'", "“Hypervisor type” is not 'xen'"),
    ("settings:common.debug.value == true", "common.debug is on"),
    ("settings:storage.osd_pool_size.value >= 3", "“Ceph object replication factor” is at least 3"),
    (
        "not (settings:storage.osd_pool_size.value < 3)",
        "“Ceph object replication factor” is not less than 3",
    ),
    ("<node>.cpus > 4", "has cpus more than 4"),
    ("not (<node>.cpus <= 4)", "has cpus not at most 4"),
    ("'experimental' in version:feature_groups", "feature group 'experimental' is enabled"),
    (
        "not ('advanced' in version:feature_groups)",
        "feature group 'advanced' is not enabled",
    ),
    # shapes with no phrase: the caller shows the expression
    ("cluster:nodes._length > 3", None),
    ("<node>.roles._length == 1", None),
    ("settings:common.use_vcenter.value == settings:common.debug.value", None),
]


@pytest.mark.parametrize("text, said", PHRASES, ids=[t for t, _ in PHRASES])
def test_each_shape_in_words(text, said):
    expression = compile_expression(text)
    assert expression_words(expression.node, "node", SETTINGS) == said


def test_without_a_settings_model_the_keys_stand_in():
    node = compile_expression("settings:common.use_vcenter.value == true").node
    assert expression_words(node) == "common.use_vcenter is on"


def test_a_condition_without_a_phrase_is_quoted_with_its_settings_labelled():
    expression = compile_expression(
        "settings:common.use_vcenter.value == true or cluster:nodes._length > 3"
    )
    assert condition_words(expression, SETTINGS) == (
        "`settings:common.use_vcenter.value (“Use vCenter”) == true or "
        "cluster:nodes._length > 3` holds"
    )
    # a setting without a label is left as written
    plain = compile_expression("settings:common.debug.value and cluster:nodes._length > 3")
    assert labelled(plain.text, plain.node, SETTINGS) == plain.text


NO_OTHER_CONTROLLER = {
    "not": {
        "exists": {
            "where": "cluster:nodes",
            "variable": "node",
            "condition": {
                "all": [
                    "not (<node>.id in selectedNodes._pluck('id'))",
                    "<node>._hasRole('controller')",
                ]
            },
        }
    }
}
NODES = [{"id": 1, "roles": ["controller"]}, {"id": 2, "roles": ["compute"]}]


def test_a_matched_exists_says_what_the_node_is():
    out = evaluate(NO_OTHER_CONTROLLER, Cluster("multinode", nodes=NODES), selected=[2])
    assert out.reason == (
        "false: rule 1: node 1 (roles: controller) is a node of the cluster that is not "
        "selected and has role controller"
    )
    assert "exists over" not in out.reason and "matches the" not in out.reason


def test_an_exists_without_a_match_says_none_is():
    condition = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "n",
            "condition": "<n>._hasRole('mongo')",
        }
    }
    out = evaluate(condition, Cluster("multinode", nodes=NODES))
    assert out.reason == "false: rule 1: no node of the cluster has role mongo"


def test_an_exists_over_the_selection_and_over_another_list():
    over_selection = {
        "exists": {"where": "selectedNodes", "variable": "n", "condition": "<n>._pending_deletion"}
    }
    out = evaluate(over_selection, Cluster("multinode", nodes=NODES), selected=[1])
    assert out.reason == "false: rule 1: no selected node is being deleted"
    over_a_list = {
        "exists": {
            "where": "cluster:nodes._withRole('controller')",
            "variable": "n",
            "condition": "<n>.id == 9",
        }
    }
    out = evaluate(over_a_list, Cluster("multinode", nodes=NODES))
    assert out.reason == (
        "false: rule 1: no item of cluster:nodes._withRole('controller') has id 9"
    )


def test_an_exists_whose_condition_has_no_phrase_says_so_without_syntax():
    condition = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "n",
            "condition": "<n>.roles._length > 5",
        }
    }
    out = evaluate(condition, Cluster("multinode", nodes=NODES))
    assert out.reason == "false: rule 1: no node of the cluster meets its condition"


def test_the_exists_entry_records_its_words():
    """The widget reads the recorded phrases; it parses nothing."""
    out = evaluate(NO_OTHER_CONTROLLER, Cluster("multinode", nodes=NODES), selected=[2])
    entry = out.trace.children[0].children[0]
    assert entry.form == "exists"
    assert entry.facts["tests"] == "is not selected and has role controller"
    assert entry.facts["words"].startswith("node 1 (roles: controller) is a node of the cluster")


ROLES = """
roles_metadata:
  virt:
    restrictions:
      - condition: "not ('advanced' in version:feature_groups)"
        action: hide
  vmware:
    restrictions:
      - "settings:common.use_vcenter.value == false"
  tuned:
    restrictions:
      - condition: "settings:common.use_vcenter.value == true or cluster:nodes._length > 3"
        action: disable
"""


@pytest.fixture(scope="module")
def roleset():
    return load_roles(ROLES)


def _check(roleset, role, use_vcenter):
    models = {
        "settings": {"common": {"use_vcenter": {"value": use_vcenter, "label": "Use vCenter"}}},
        "version": {"feature_groups": []},
    }
    return roleset.check(role, Cluster("multinode", nodes=NODES), models=models, record=True)


def test_a_hidden_role_says_why_in_words(roleset):
    out = _check(roleset, "virt", False)
    assert out.hidden and out.reason == (
        "hidden, allowed: hidden because feature group 'advanced' is not enabled"
    )


def test_a_restriction_without_message_names_the_setting_by_its_label(roleset):
    out = _check(roleset, "vmware", False)
    assert out.allowed is False
    assert out.reason == "blocked: “Use vCenter” is off"
    fact = out.decision.restrictions[0]
    assert fact.words == "“Use vCenter” is off"
    entry = [e for e in out.trace.children if e.form == "restriction"][0]
    assert entry.facts["words"] == "“Use vCenter” is off"


def test_a_restriction_with_no_phrase_is_quoted_with_its_label(roleset):
    out = _check(roleset, "tuned", True)
    assert out.reason == (
        "blocked: `settings:common.use_vcenter.value (“Use vCenter”) == true or "
        "cluster:nodes._length > 3` holds"
    )


def test_fast_checks_record_no_words(roleset):
    models = {"settings": {"common": {"use_vcenter": {"value": False}}}}
    out = roleset.check("vmware", Cluster("multinode", nodes=NODES), models=models)
    assert out.decision.restrictions[0].words is None
    # ... and the reason, recorded on first reading, has them
    assert out.reason == "blocked: common.use_vcenter is off"


# Any expression over these pieces: a phrase or None, never an error.
PIECES = st.sampled_from(
    [
        "<node>._hasRole('a')",
        "<node>._pending_deletion",
        "<node>.id in selectedNodes._pluck('id')",
        "<node>.status == 'x'",
        "settings:common.use_vcenter.value",
        "settings:common.libvirt_type.value == 'kvm'",
        "settings:storage.osd_pool_size.value > 1",
        "'a' in version:feature_groups",
        "cluster:nodes._length",
        "true",
    ]
)


def _combine(children):
    return st.one_of(
        st.builds(lambda a: f"not ({a})", children),
        st.builds(lambda a, b: f"({a}) and ({b})", children, children),
        st.builds(lambda a, b: f"({a}) or ({b})", children, children),
    )


@settings(max_examples=150, deadline=None)
@given(text=st.recursive(PIECES, _combine, max_leaves=8))
def test_any_combination_has_a_phrase_or_none(text):
    expression = compile_expression(text)
    said = expression_words(expression.node, "node", SETTINGS)
    assert said is None or (said and "<node>" not in said and "settings:" not in said)
    shown = condition_words(expression, SETTINGS)
    assert shown is not None and (shown == said or shown.endswith("` holds"))
