"""spec/conditions.md §6 and §12.2: condition forms, schema rules, traces."""

from __future__ import annotations

import pytest
from fixtures.conditions import CLUSTERS, MODELS, WHA

from toskit import ConditionError, TemplateError
from toskit.conditions import Outcome, TraceEntry, evaluate

EXISTS_COMPUTE = {
    "exists": {"where": "cluster:nodes", "variable": "n", "condition": "<n>._hasRole('compute')"}
}

# (id, cluster, selection, condition, value, warnings)
FORMS = [
    ("C01", "MN1", [], True, True, []),
    (
        "C03",
        "MN1",
        [],
        {"condition": "cluster:mode == 'ha_compact'", "warning": "HA only"},
        False,
        ["HA only"],
    ),
    (
        "C05",
        "MN1",
        [],
        {"all": [{"condition": "cluster:mode == 'ha_compact'", "then": True}]},
        False,
        [],
    ),
    (
        "C07",
        "MN1",
        [],
        {
            "condition": "true",
            "then": {"condition": "false", "warning": "inner"},
            "warning": "outer",
        },
        False,
        ["inner", "outer"],
    ),
    (
        "C08",
        "MN1",
        [],
        {"all": [{"condition": "false", "warning": "A"}, {"condition": "false", "warning": "B"}]},
        False,
        ["A"],
    ),
    (
        "C11",
        "MN1",
        [11, 12],
        {
            "not": {"condition": "selectedNodes._length <= 1", "warning": "inner"},
            "warning": "outer",
        },
        True,
        [],
    ),
    ("C13", "MN1", [], EXISTS_COMPUTE, True, []),
    (
        "C14",
        "MN0",
        [],
        {
            "exists": {"where": "cluster:nodes", "variable": "n", "condition": "true"},
            "warning": "no nodes",
        },
        False,
        ["no nodes"],
    ),
    (
        "C16",
        "MN1P",
        [],
        {
            "exists": {
                "where": "cluster:nodes",
                "variable": "n",
                "condition": "<n>._hasDeployedRole('controller')",
            }
        },
        False,
        [],
    ),
    (
        "C19",
        "HA1",
        [],
        {
            "recommended": {
                "expression": "cluster:nodes._length >= <value>",
                "value": 3,
                "warning": "At least <value> controller nodes are recommended for HA deployment.",
            }
        },
        True,
        [WHA],
    ),
    (
        "C26",
        "MN1",
        [],
        {
            "any": [
                {"condition": "false", "warning": "A"},
                {"condition": "cluster:mode == 'multinode'"},
            ]
        },
        True,
        [],
    ),
    (
        "S18",
        "HA1C2",
        [11],
        {
            "recommended": {
                "expression": "cluster:nodes._afterDeployment._withRole('controller')._length >= <value>",
                "value": 3,
                "warning": "At least <value> controller nodes are recommended for HA deployment.",
            }
        },
        True,
        [WHA],
    ),
    # more of §6.1
    ("literal-false", "MN1", [], False, False, []),
    ("expression-string", "MN1", [], "cluster:mode == 'multinode'", True, []),
    ("one-line-not-yaml", "MN1", [], "'a' == cluster:mode", False, []),
    ("yaml-text-mapping", "MN1", [], "{condition: 'false', warning: W}", False, ["W"]),
    ("yaml-text-list", "MN1", [], "- 'true'\n- {condition: 'false', warning: W}\n", False, ["W"]),
    ("condition-bool-guard", "MN1", [], {"condition": False, "warning": "W"}, False, ["W"]),
    ("condition-true-no-warning", "MN1", [], {"condition": "true", "warning": "W"}, True, []),
    (
        "else-taken",
        "MN1",
        [],
        {"condition": "false", "then": False, "else": {"condition": "false", "warning": "E"}},
        False,
        ["E"],
    ),
    (
        "top-level-not-applicable",
        "MN1",
        [],
        {"condition": "false", "then": False, "warning": "W"},
        True,
        [],
    ),
    (
        "nested-no-else-warning",
        "MN1",
        [],
        {"all": [{"condition": "false", "then": True, "warning": "W"}]},
        False,
        ["W"],
    ),
    ("all-warning", "MN1", [], {"all": [True, False], "warning": "W"}, False, ["W"]),
    (
        "all-true-keeps-advice",
        "HA1",
        [],
        {
            "all": [
                {"recommended": {"expression": "false", "value": 1, "warning": "R <value>"}},
                True,
            ]
        },
        True,
        ["R 1"],
    ),
    (
        "any-false-all-warnings",
        "MN1",
        [],
        {
            "any": [{"condition": "false", "warning": "A"}, {"condition": "false", "warning": "B"}],
            "warning": "W",
        },
        False,
        ["A", "B", "W"],
    ),
    ("any-empty", "MN1", [], {"any": [], "warning": "W"}, False, ["W"]),
    ("all-empty", "MN1", [], {"all": []}, True, []),
    ("not-warning", "MN1", [], {"not": True, "warning": "W"}, False, ["W"]),
    (
        "exists-match-drops-items-warnings",
        "MN1",
        [],
        {
            "exists": {
                "where": "cluster:nodes",
                "variable": "n",
                "condition": {"condition": "<n>.id == 2", "warning": "no"},
            }
        },
        True,
        [],
    ),
    (
        "exists-shadowing",
        "MN1",
        [],
        {
            "exists": {
                "where": "cluster:nodes",
                "variable": "n",
                "condition": {
                    "exists": {
                        "where": "cluster:nodes",
                        "variable": "n",
                        "condition": "<n>.id == 2",
                    }
                },
            }
        },
        True,
        [],
    ),
    (
        "exists-nested-outer-var",
        "MN1",
        [],
        {
            "exists": {
                "where": "cluster:nodes",
                "variable": "a",
                "condition": {
                    "exists": {
                        "where": "cluster:nodes",
                        "variable": "b",
                        "condition": "<a>.id != <b>.id and <b>._hasRole('controller')",
                    }
                },
            }
        },
        True,
        [],
    ),
    (
        "exists-over-selection",
        "MN1",
        [11, 12],
        {"exists": {"where": "selectedNodes", "variable": "s", "condition": "<s>.id == 12"}},
        True,
        [],
    ),
    (
        "exists-strings",
        "MN1",
        [],
        {
            "exists": {
                "where": "version:feature_groups",
                "variable": "g",
                "condition": "<g> == 'experimental'",
            }
        },
        True,
        [],
    ),
    (
        "recommended-value-expression",
        "HA1",
        [],
        {
            "recommended": {
                "expression": "false",
                "value": "settings:storage.osd_pool_size.value",
                "warning": "pool <value>",
            }
        },
        True,
        ["pool 2"],
    ),
    (
        "recommended-value-text-bool",
        "HA1",
        [],
        {"recommended": {"expression": "<value> == false", "value": True, "warning": "v=<value>"}},
        True,
        ["v=true"],
    ),
    (
        "recommended-value-text-null",
        "HA1",
        [],
        {"recommended": {"expression": "<value> == 1", "value": None, "warning": "v=<value>"}},
        True,
        ["v=null"],
    ),
    (
        "recommended-value-text-float",
        "HA1",
        [],
        {"recommended": {"expression": "false", "value": 2.5, "warning": "<value>/<value>"}},
        True,
        ["2.5/2.5"],
    ),
    (
        "recommended-in-then",
        "HA1",
        [],
        {
            "condition": "true",
            "then": {"recommended": {"expression": "false", "value": 1, "warning": "R"}},
        },
        True,
        ["R"],
    ),
    (
        "warnings-not-substituted",
        "MN1",
        [],
        {"condition": "false", "warning": "<value> <node>"},
        False,
        ["<value> <node>"],
    ),
    (
        "rules-all-evaluated",
        "MN1",
        [],
        [{"condition": "false", "warning": "A"}, {"condition": "false", "warning": "B"}],
        False,
        ["A", "B"],
    ),
    (
        "rules-wrapped-in-all-literal",
        "MN1",
        [],
        {"all": [{"condition": "cluster:mode == 'ha_compact'", "then": True}]},
        False,
        [],
    ),
]


@pytest.mark.parametrize(
    "sid,cluster,selected,condition,value,warnings", FORMS, ids=[f[0] for f in FORMS]
)
def test_forms(sid, cluster, selected, condition, value, warnings):
    out = evaluate(condition, CLUSTERS[cluster], selected=selected, models=MODELS)
    assert isinstance(out, Outcome)
    assert (out.value, out.warnings) == (value, warnings)
    assert out.trace.form == "rules"
    assert out.trace.value == value and out.trace.warnings == warnings


# (id, condition, message fragment)
SCHEMA = [
    (
        "C23",
        {"not": {"recommended": {"expression": "true", "value": 1, "warning": "R"}}},
        "inside 'not'",
    ),
    ("C24", {"condition": "true", "else": False}, "'else' requires 'then'"),
    ("number", 3, "got number"),
    ("null", None, "got null"),
    ("nested-list", {"all": [[True]]}, "got a list"),
    ("no-form-key", {"conditon": "true"}, "did you mean 'condition'?"),
    ("two-form-keys", {"all": [], "not": True}, "'all' and 'not'"),
    ("unknown-sibling", {"condition": "true", "when": "x"}, "unknown key 'when'"),
    ("then-beside-all", {"all": [], "then": True}, "unknown key 'then'"),
    (
        "recommended-siblings",
        {"recommended": {"expression": "true", "value": 1, "warning": "R"}, "warning": "W"},
        "no sibling",
    ),
    ("warning-not-string", {"condition": "true", "warning": 3}, "'warning' must be a string"),
    ("all-not-list", {"all": True}, "takes a list"),
    ("exists-missing-where", {"exists": {"variable": "n", "condition": True}}, "needs 'where'"),
    (
        "exists-extra-key",
        {"exists": {"where": "cluster:nodes", "variable": "n", "condition": True, "limit": 1}},
        "unknown key 'limit'",
    ),
    (
        "exists-bad-variable",
        {"exists": {"where": "cluster:nodes", "variable": "<n>", "condition": True}},
        "bare name",
    ),
    (
        "exists-where-not-string",
        {"exists": {"where": [1], "variable": "n", "condition": True}},
        "expected an expression",
    ),
    (
        "recommended-missing-value",
        {"recommended": {"expression": "true", "warning": "R"}},
        "needs 'value'",
    ),
    (
        "recommended-warning-not-string",
        {"recommended": {"expression": "true", "value": 1, "warning": 1}},
        "'warning' must be a string",
    ),
    (
        "recommended-in-any",
        {"any": [{"recommended": {"expression": "true", "value": 1, "warning": "R"}}]},
        "inside 'any'",
    ),
    (
        "recommended-in-exists",
        {
            "exists": {
                "where": "cluster:nodes",
                "variable": "n",
                "condition": {
                    "all": [{"recommended": {"expression": "true", "value": 1, "warning": "R"}}]
                },
            }
        },
        "inside 'exists'",
    ),
    (
        "recommended-deep-in-not",
        {
            "not": {
                "all": [
                    {
                        "condition": "true",
                        "then": {"recommended": {"expression": "true", "value": 1, "warning": "R"}},
                    }
                ]
            }
        },
        "inside 'not'",
    ),
    ("non-string-key", {1: "x"}, "keys must be strings"),
]


@pytest.mark.parametrize("sid,condition,fragment", SCHEMA, ids=[s[0] for s in SCHEMA])
def test_schema_errors(sid, condition, fragment):
    with pytest.raises(ConditionError) as info:
        evaluate(condition, CLUSTERS["MN1"])
    assert info.value.kind == "SchemaError"
    assert info.value.position is None
    assert fragment in info.value.message


def test_schema_error_names_the_place():
    with pytest.raises(ConditionError) as info:
        evaluate([True, {"condition": "true", "else": False}], CLUSTERS["MN1"])
    assert info.value.message == "conditions[1].else: 'else' requires 'then'"


@pytest.mark.parametrize(
    "condition",
    [
        {"condition": "false", "then": "cluster:mode = 'x'"},
        {"condition": "false", "then": {"all": ["cluster:nodes._size"]}},
        {"condition": "true", "else": True, "then": True},
        {"all": [False, {"not": "foo.bar"}]},
    ],
    ids=[
        "syntax-in-untaken-branch",
        "unknown-special-untaken",
        "valid-control",
        "unbound-variable-after-false",
    ],
)
def test_static_errors_before_evaluation(condition):
    if condition == {"condition": "true", "else": True, "then": True}:
        assert evaluate(condition).value is True
        return
    with pytest.raises(ConditionError) as info:
        evaluate(condition, CLUSTERS["MN1"])
    assert info.value.kind in ("SyntaxError", "UnknownSpecial", "UnboundVariable")


def test_expression_error_position_is_relative_to_its_expression():
    with pytest.raises(ConditionError) as info:
        evaluate({"all": [True, {"condition": "true", "then": "cluster:mode = 'x'"}]})
    err = info.value
    assert (err.expression, err.position) == ("cluster:mode = 'x'", 13)
    assert err.path == "condition.all[1].then"


def test_dynamic_errors_respect_short_circuit():
    assert evaluate({"all": [False, "foo:bar == 1"]}).value is False
    with pytest.raises(ConditionError) as info:
        evaluate({"all": [True, "foo:bar == 1"]})
    assert info.value.kind == "UnknownModel"


def test_exists_where_not_a_list():
    with pytest.raises(ConditionError) as info:
        evaluate(
            {"exists": {"where": "cluster:mode", "variable": "n", "condition": True}},
            CLUSTERS["MN1"],
        )
    err = info.value
    assert (err.kind, err.position, err.expression) == ("TypeError", 0, "cluster:mode")
    assert err.message == "'exists' expects a list, got string"


def test_exists_over_empty_list_never_evaluates_invariant():
    # The invariant `foo:bar` would raise UnknownModel if it were evaluated.
    cond = {"exists": {"where": "cluster:nodes", "variable": "n", "condition": "<n>.id in foo:bar"}}
    assert evaluate(cond, CLUSTERS["MN0"]).value is False
    with pytest.raises(ConditionError) as info:
        evaluate(cond, CLUSTERS["MN1"])
    assert info.value.kind == "UnknownModel"


def test_hashed_membership_keeps_strict_equality():
    nodes = [{"id": 1, "flag": True}, {"id": 2, "flag": 1.0}]
    from toskit.conditions import Cluster

    cluster = Cluster("multinode", nodes=nodes)
    # the invariant list [1, 2] and the item values true / 1.0
    cond = {
        "exists": {
            "where": "cluster:nodes",
            "variable": "n",
            "condition": "<n>.flag in cluster:nodes._pluck('id')",
        }
    }
    out = evaluate(cond, cluster)
    assert out.value is True
    assert out.trace.children[0].children[0].source == "<n>.flag in cluster:nodes._pluck('id')"
    only_bool = Cluster("multinode", nodes=[{"id": 1, "flag": True}, {"id": 2, "flag": False}])
    assert evaluate(cond, only_bool).value is False


def test_multiline_invalid_yaml_is_template_error():
    with pytest.raises(TemplateError) as info:
        evaluate("condition: 'true'\n  then: true\n")
    assert any(d.code == "yaml-syntax" for d in info.value.diagnostics)


def test_trace_shape():
    cond = {
        "all": [
            {"condition": "cluster:mode == 'multinode'", "then": True, "else": False},
            {
                "not": {
                    "exists": {
                        "where": "cluster:nodes",
                        "variable": "n",
                        "condition": "<n>._hasRole('compute')",
                    }
                }
            },
            True,
        ]
    }
    out = evaluate(cond, CLUSTERS["MN1"])
    root = out.trace
    assert isinstance(root, TraceEntry) and root.form == "rules" and len(root.children) == 1
    all_entry = root.children[0]
    assert all_entry.form == "all" and all_entry.value is False
    # `all` stops at the false `not`: two children, not three
    assert [c.form for c in all_entry.children] == ["condition", "not"]
    cond_entry, not_entry = all_entry.children
    assert cond_entry.source == "cluster:mode == 'multinode'"
    assert [c.form for c in cond_entry.children] == ["literal"]
    exists_entry = not_entry.children[0]
    assert exists_entry.form == "exists" and exists_entry.source == "cluster:nodes"
    # only the matching item's condition, never one entry per item
    assert len(exists_entry.children) == 1 and exists_entry.children[0].form == "expression"
    assert exists_entry.children[0].source == "<n>._hasRole('compute')"


def test_trace_of_exists_without_match_has_no_children():
    out = evaluate(
        {"exists": {"where": "cluster:nodes", "variable": "n", "condition": "false"}},
        CLUSTERS["MN1"],
    )
    assert out.trace.children[0].children == []


def test_trace_any_and_recommended():
    out = evaluate(
        [
            {"any": [False, "true", "foo:bar"]},
            {"recommended": {"expression": "false", "value": 1, "warning": "R"}},
        ]
    )
    any_entry, rec_entry = out.trace.children
    assert [c.form for c in any_entry.children] == ["literal", "expression"]
    assert (
        rec_entry.form == "recommended" and rec_entry.value is True and rec_entry.warnings == ["R"]
    )


def test_outcome_repr_and_html_seam():
    out = evaluate({"condition": "false", "warning": "W"})
    assert repr(out) == "Outcome(value=False, warnings=['W'])"
    assert "Outcome" in out._repr_html_() or "toskit" in out._repr_html_()
    assert "TraceEntry('rules'" in repr(out.trace)
