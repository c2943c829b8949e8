"""Property tests: parsers and evaluation raise nothing but ConditionError
and never mutate the cluster."""

from __future__ import annotations

import copy

from fixtures.conditions import CLUSTERS, MODELS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toskit import ConditionError
from toskit.conditions import compile_expression, evaluate

FRAGMENTS = [
    "cluster:mode",
    "cluster:nodes",
    "selectedNodes",
    "settings:storage",
    "version:feature_groups",
    "foo:bar",
    "<node>",
    "<value>",
    "._length",
    "._pluck('id')",
    "._hasRole('controller')",
    "._withRole('x')",
    "._afterDeployment",
    "._pending_deletion",
    "._size",
    ".id",
    ".mode",
    " == ",
    " != ",
    " < ",
    " <= ",
    " >= ",
    " in ",
    " not in ",
    " and ",
    " or ",
    "not ",
    "(",
    ")",
    "'x'",
    '"y"',
    "1",
    "2.5",
    "-3",
    "true",
    "false",
    "null",
    ",",
    ".",
    "=",
    "!",
    ":",
    "<",
    ">",
    "'",
    " ",
    "?",
    "settings:storage.x?",
    "Compute.vcenter",
    "\x00",
    "\u200b",
]

expression_text = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(FRAGMENTS), max_size=12).map("".join),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression_text, st.booleans())
def test_random_expressions_raise_only_condition_error(text, strict):
    cluster = CLUSTERS["MN1"]
    before = copy.deepcopy([dict(n) for n in cluster.nodes])
    try:
        expr = compile_expression(text)
    except ConditionError as err:
        assert err.expression == text
        assert err.position is None or 0 <= err.position <= len(text)
        str(err)
        return
    try:
        expr.evaluate(
            cluster=cluster,
            selected=[11],
            variables={"node": dict(cluster.nodes[0])},
            models=MODELS,
            strict=strict,
        )
    except ConditionError as err:
        assert err.position is None or 0 <= err.position <= len(text)
    assert [dict(n) for n in cluster.nodes] == before


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expression_text, st.booleans())
def test_wizard_expressions_raise_only_condition_error(text, strict):
    """With a default model (fuel-ui's wizard) bare names are model paths;
    errors stay ConditionErrors, and a message never carries an invisible
    character raw (issue #24)."""
    try:
        expr = compile_expression(text, "default")
    except ConditionError as err:
        assert err.message.isprintable(), err.message
        assert err.diagnostic.message.isprintable()
        return
    try:
        expr.evaluate(models={"default": {"Compute": {"vcenter": True}}}, strict=strict)
    except ConditionError as err:
        assert err.position is None or 0 <= err.position <= len(text)


scalar = st.one_of(
    st.booleans(),
    st.none(),
    st.integers(-3, 3),
    st.sampled_from(FRAGMENTS),
    st.sampled_from(
        [
            "true",
            "cluster:mode == 'multinode'",
            "<n>._hasRole('compute')",
            "selectedNodes._length <= 1",
        ]
    ),
)
KEYS = [
    "condition",
    "then",
    "else",
    "warning",
    "all",
    "any",
    "not",
    "exists",
    "recommended",
    "where",
    "variable",
    "expression",
    "value",
    "bogus",
]


def trees():
    return st.recursive(
        scalar,
        lambda children: st.one_of(
            st.lists(children, max_size=3),
            st.dictionaries(st.sampled_from(KEYS), children, max_size=3),
            st.builds(
                lambda c, w: {
                    "exists": {"where": "cluster:nodes", "variable": "n", "condition": c},
                    "warning": w,
                },
                children,
                st.sampled_from(["W", 3]),
            ),
            st.builds(
                lambda e, v: {"recommended": {"expression": e, "value": v, "warning": "<value>!"}},
                st.sampled_from(
                    ["cluster:nodes._length >= <value>", "<value>", "x =", "<value>._length"]
                ),
                scalar,
            ),
        ),
        max_leaves=12,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(), st.sampled_from(sorted(CLUSTERS)), st.booleans())
def test_random_condition_trees_raise_only_condition_error(tree, cluster_name, strict):
    cluster = CLUSTERS[cluster_name]
    before = copy.deepcopy([dict(n) for n in cluster.nodes])
    snapshot = copy.deepcopy(tree)
    try:
        out = evaluate(tree, cluster, selected=[11], models=MODELS, strict=strict)
    except ConditionError as err:
        str(err)
    else:
        assert isinstance(out.value, bool)
        assert all(isinstance(w, str) for w in out.warnings)
        assert out.trace.value == out.value
    assert [dict(n) for n in cluster.nodes] == before
    assert tree == snapshot


@settings(max_examples=100, deadline=None)
@given(trees())
def test_run_and_trace_agree(tree):
    """The fast path (used by RoleSet.check) and the tracing path agree."""
    from toskit.conditions.evaluate import compile_for_evaluate
    from toskit.conditions.expression import make_env

    try:
        rules = compile_for_evaluate(tree)
    except ConditionError:
        return
    cluster = CLUSTERS["MN1"]
    try:
        value, warnings = rules.run(make_env(cluster, [11], MODELS))
    except ConditionError as err:
        try:
            rules.trace(make_env(cluster, [11], MODELS))
        except ConditionError as again:
            assert (again.kind, again.message) == (err.kind, err.message)
        else:
            raise AssertionError("trace did not raise") from None
        return
    trace = rules.trace(make_env(cluster, [11], MODELS))
    assert (trace.value, trace.warnings) == (value, warnings)
    assert rules.test(make_env(cluster, [11], MODELS)) == value


meta_value = st.recursive(
    st.one_of(scalar, st.sampled_from(["*", "compute", "settings:x.value", "a =", "true"])),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(
            st.sampled_from(
                [
                    "conflicts",
                    "conditions",
                    "restrictions",
                    "limits",
                    "min",
                    "max",
                    "recommended",
                    "overrides",
                    "condition",
                    "message",
                    "action",
                    "strict",
                    "name",
                    "true",
                    "depends",
                    "warning",
                    "settings:x.value",
                ]
            ),
            children,
            max_size=4,
        ),
    ),
    max_leaves=15,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["controller", "compute", "x"]), meta_value, max_size=3))
def test_random_role_documents_raise_only_toskit_errors(doc):
    from toskit import ToskitError
    from toskit.conditions import Cluster, load_roles

    try:
        roles = load_roles({"roles_metadata": doc})
    except ToskitError:
        return
    cluster = Cluster("ha_compact", nodes=[{"id": 1, "roles": ["controller"]}], pool=[{"id": 2}])
    for name in roles:
        try:
            out = roles.check(
                name, cluster, selected=[2], selected_roles=list(roles), models=MODELS
            )
        except ConditionError:
            continue
        assert isinstance(out.allowed, bool)
        out.trace  # noqa: B018


node_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=4)),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(
            st.sampled_from(
                ["id", "roles", "pending_roles", "pending_deletion", "pending_addition", "name"]
            ),
            children,
            max_size=4,
        ),
    ),
    max_leaves=10,
)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=3), node_value), node_value, node_value, node_value)
def test_random_cluster_arguments_raise_only_toskit_errors(mode, nodes, pool, selected):
    """Whatever a notebook passes to Cluster(...) and the selection, the answer
    is a Cluster and an outcome, or a ToskitError naming the problem."""
    from fixtures.conditions import ROLES

    from toskit import ToskitError
    from toskit.conditions import Cluster

    try:
        cluster = Cluster(mode, nodes=nodes, pool=pool)
    except ToskitError as err:
        assert str(err)
        return
    try:
        out = ROLES.check("controller", cluster, selected=selected)
    except ToskitError as err:  # ConditionError included
        assert str(err)
        return
    assert isinstance(out.allowed, bool)


release_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 3), st.sampled_from(["r", "true", "x", ""])
)
release_value = st.recursive(
    release_leaf,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(
            st.sampled_from(
                [
                    "model",
                    "pk",
                    "fields",
                    "extend",
                    "name",
                    "version",
                    "modes",
                    "modes_metadata",
                    "roles_metadata",
                    "attributes_metadata",
                    "editable",
                    "value",
                    "restrictions",
                    "limits",
                    "conditions",
                    "conflicts",
                    "condition",
                    "depends",
                    "wizard_metadata",
                    "state",
                ]
            ),
            children,
            max_size=4,
        ),
    ),
    max_leaves=15,
)
release_fields = st.fixed_dictionaries(
    {"name": st.sampled_from(["r", "s"])},
    optional={
        "roles_metadata": st.dictionaries(
            st.sampled_from(["controller", "x"]), meta_value, max_size=2
        ),
        "modes": release_value,
        "modes_metadata": release_value,
        "attributes_metadata": release_value,
        "version": release_value,
        "state": st.sampled_from(["available", "unavailable", None]),
        "wizard_metadata": release_value,
    },
)
release_record = st.fixed_dictionaries(
    {
        "model": st.sampled_from(["nailgun.release", "other"]),
        "fields": st.one_of(release_fields, release_value),
    },
    optional={"pk": st.integers(0, 3), "extend": release_value},
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(release_value, st.lists(release_record, max_size=3)))
def test_random_release_files_raise_only_toskit_errors(records):
    """load_release/list_releases on anything shaped like a Fuel fixture file:
    a Release, or a ToskitError that says what is wrong."""
    from toskit import ToskitError
    from toskit.conditions import list_releases, load_release

    for attempt in (lambda: list_releases(records), lambda: load_release(records)):
        try:
            result = attempt()
        except ToskitError as err:
            assert str(err)
            continue
        assert result is not None
        if not isinstance(result, list):  # a Release: its cluster and role checks
            try:
                result.check_all(result.cluster(), strict=False)
            except ToskitError as err:
                assert str(err)
    # `toskit check` on the same records as YAML: diagnostics, never an exception
    import yaml

    from toskit.conditions import check_text

    try:
        text = yaml.safe_dump(records)
    except yaml.YAMLError:
        return
    for diagnostic in check_text(text, "fuzz.yaml"):
        assert diagnostic.message
