"""Conditions whose work explodes (issue #19, "Conditions"): nested
``exists`` over a cluster's nodes. Each case runs in a bounded subprocess
(500 MB counted; CPU a 10x hang guard): either the answer (the inner loops' results are reused)
or a ``ConditionError`` of kind ``LimitExceeded`` (the step budget), never
minutes of CPU."""

from __future__ import annotations

NESTED = """
def nested(depth, innermost=None):
    if innermost is None:  # reads every loop's node: nothing to reuse
        innermost = " and ".join(f"<n{i}>.id == 0" for i in range(depth))
    condition = innermost
    for level in reversed(range(depth)):
        condition = {"exists": {"where": "cluster:nodes", "variable": f"n{level}", "condition": condition}}
    return condition
"""


def test_exists_nested_five_deep_over_100_nodes_stops_at_the_budget(run_case) -> None:
    out = run_case(
        NESTED
        + """
def case():
    from toskit import conditions
    cluster = conditions.Cluster("multinode", nodes=[{"id": i} for i in range(1, 101)])
    return conditions.evaluate(nested(5), cluster).value
"""
    )
    assert out.toskit_error and out.raised == "ConditionError", out
    assert out.message.startswith("LimitExceeded: the evaluation visited more than 2,000,000 items")


def test_exists_nested_five_deep_that_reads_no_outer_node_is_answered(run_case) -> None:
    out = run_case(
        NESTED
        + """
def case():
    from toskit import conditions
    cluster = conditions.Cluster("multinode", nodes=[{"id": i} for i in range(1, 101)])
    return conditions.evaluate(nested(5, innermost="false"), cluster).value
""",
        max_calls=80_000,
    )  # ~39,000 counted: inner results reused, not 100**5 visits
    assert out.raised is None and out.returned is False


def test_a_300_node_role_check_with_nested_exists_is_bounded(run_case) -> None:
    out = run_case(
        NESTED
        + """
def case():
    from toskit import conditions
    roles = conditions.load_roles({"r": {"conditions": [{"not": nested(3)}]}})
    cluster = conditions.Cluster("multinode", nodes=[{"id": i} for i in range(1, 301)], pool=[{"id": 1000}])
    return roles.check("r", cluster, selected=[1000]).allowed
"""
    )
    assert out.raised == "ConditionError" and "LimitExceeded" in out.message, out


def test_a_5000_digit_number_in_a_condition_is_a_syntax_error(run_case) -> None:
    out = run_case("""
def case():
    from toskit import conditions
    return conditions.compile_expression("1" * 5000 + " == 1").evaluate()
""")
    assert out.raised == "ConditionError" and out.message.startswith("SyntaxError: Number too long")
