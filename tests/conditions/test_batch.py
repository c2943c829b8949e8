"""The batch path of `exists` (toskit.conditions.batch) gives exactly the
item-by-item value and errors, on large and on unusual lists."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toskit import ConditionError
from toskit.conditions import Cluster, evaluate
from toskit.conditions import forms as forms_module

BODIES = [
    "<n>.id in selectedNodes._pluck('id')",
    "<n>.id not in selectedNodes._pluck('id')",
    "not (<n>.id in extra:ids)",
    "<n>.name in extra:names",
    "<n> in extra:ids",
    "<n>._hasRole('controller')",
    "<n>._hasDeployedRole('controller')",
    "not <n>._pending_deletion",
    "<n>._pending_addition",
    "<n>.id in extra:text",
    {
        "all": [
            {"not": "<n>.id in selectedNodes._pluck('id')"},
            "<n>._hasRole('controller')",
            {"not": "<n>._pending_deletion"},
        ]
    },
    {"not": {"all": ["<n>._hasRole('compute')", "<n>.id in extra:ids"]}},
    {"condition": "<n>._hasRole('cinder')"},
    {"all": [True, "<n>.id in foo:bar"]},
]
WHERES = ["cluster:nodes", "cluster:nodes._afterDeployment", "extra:items", "selectedNodes"]

node = st.fixed_dictionaries(
    {"id": st.integers(1, 60)},
    optional={
        "roles": st.lists(st.sampled_from(["controller", "compute", "cinder"]), max_size=2),
        "pending_roles": st.lists(st.sampled_from(["controller", "cinder"]), max_size=1),
        "pending_deletion": st.booleans(),
        "pending_addition": st.booleans(),
        "name": st.sampled_from(["a", "b", 1, True, 1.0]),
    },
)
odd_item = st.one_of(
    node,
    st.integers(0, 5),
    st.booleans(),
    st.sampled_from(["a", "b", 1.0]),
    st.fixed_dictionaries({"id": st.sampled_from([True, 1.0, "3", 2])}),
)


def sequential(monkeypatch_value):
    old = forms_module._BATCH_MIN
    forms_module._BATCH_MIN = monkeypatch_value
    return old


def outcome(cond, cluster, selected, models, strict):
    try:
        out = evaluate(cond, cluster, selected=selected, models=models, strict=strict)
        return ("ok", out.value, out.warnings, str(out.trace))
    except ConditionError as err:
        return ("error", err.kind, err.message, err.expression, err.position)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(node, min_size=0, max_size=200, unique_by=lambda n: n["id"]),
    st.lists(odd_item, min_size=0, max_size=120),
    st.sampled_from(BODIES),
    st.sampled_from(WHERES),
    st.booleans(),
    st.data(),
)
def test_batch_equals_sequential(nodes, items, body, where, strict, data):
    cluster = Cluster("multinode", nodes=nodes)
    ids = [n["id"] for n in nodes]
    selected = data.draw(st.lists(st.sampled_from(ids), max_size=10)) if ids else []
    models = {
        "extra": {
            "ids": data.draw(
                st.lists(st.one_of(st.integers(1, 60), st.booleans(), st.just(1.0)), max_size=30)
            ),
            "names": ["a", 1],
            "items": items,
            "text": "abc",
        }
    }
    cond = {"exists": {"where": where, "variable": "n", "condition": body}, "warning": "none"}
    batched = outcome(cond, cluster, selected, models, strict)
    old = sequential(10**9)
    try:
        plain = outcome(cond, cluster, selected, models, strict)
    finally:
        forms_module._BATCH_MIN = old
    assert batched == plain


def big_cluster():
    nodes = [{"id": i, "roles": ["compute"]} for i in range(1, 5001)]
    nodes[4000] = {"id": 4001, "roles": ["controller"]}
    return Cluster("multinode", nodes=nodes)


def test_match_late_in_a_big_list_is_found_with_its_trace():
    cond = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "n",
            "condition": "<n>._hasRole('controller')",
        }
    }
    out = evaluate(cond, big_cluster())
    assert out.value is True
    assert out.trace.children[0].children[0].source == "<n>._hasRole('controller')"


def test_error_after_the_first_match_is_not_raised():
    nodes = [{"id": i} for i in range(1, 3001)]
    nodes[40] = {"id": 41, "name": "x"}
    cluster = Cluster("multinode", nodes=nodes)
    # nodes 1-40 have no `name`: strict evaluation raises at node 1 ...
    cond = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "n",
            "condition": "<n>.name in extra:names",
        }
    }
    models = {"extra": {"names": ["x"]}}
    with pytest.raises(ConditionError):
        evaluate(cond, cluster, models=models)
    # ... but a match before every missing name stops the walk first.
    nodes[0] = {"id": 1, "name": "x"}
    assert evaluate(cond, Cluster("multinode", nodes=nodes), models=models).value is True


def test_error_before_any_match_is_raised_at_the_right_item():
    nodes = [{"id": i, "name": "n"} for i in range(1, 3001)]
    nodes[2500] = {"id": 2501}
    cluster = Cluster("multinode", nodes=nodes)
    cond = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "n",
            "condition": "<n>.name in extra:names",
        }
    }
    with pytest.raises(ConditionError) as info:
        evaluate(cond, cluster, models={"extra": {"names": ["zzz"]}})
    assert info.value.kind == "Undefined" and info.value.message == "Value of <n>.name is undefined"
    assert (
        evaluate(cond, cluster, models={"extra": {"names": ["zzz"]}}, strict=False).value is False
    )
