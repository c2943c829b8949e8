"""spec/conditions.md §7, §9, §12.3–§12.5: roles, conflicts, loading."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures.conditions import (
    CLUSTERS,
    CONF,
    MODELS,
    ROLES,
    ROLES_TEXT,
    SEED_AS_WRITTEN,
    SEED_FIXED,
    WHA,
    WMN,
)

from toskit import ConditionError, TemplateError, ToskitError
from toskit.conditions import Role, RoleOutcome, RoleSet, load_roles

# (id, cluster, selection, allowed, warnings)
SEED = [
    ("S01", "MN0", [11], True, []),
    ("S02", "MN0", [11, 12], False, [WMN]),
    ("S03", "MN1", [11], False, []),
    ("S04", "MN1", [1], True, []),
    ("S06", "MN1P", [11], False, []),
    ("S09", "HA0", [11], True, [WHA]),
    ("S12", "HA3", [11], True, []),
    ("S13", "HA1C2", [11], True, []),
    ("S16", "HAF", [11, 12], True, []),
    # more clusters of §12
    ("MN1D-deleted-controller", "MN1D", [11], True, []),
    ("HA1-advice", "HA1", [11], True, [WHA]),
    ("MN1-two-selected", "MN1", [1, 11], False, [WMN]),
    ("MN0-repeated-id-counts-once", "MN0", [11, 11], True, []),
]


@pytest.mark.parametrize("sid,cluster,selected,allowed,warnings", SEED, ids=[s[0] for s in SEED])
def test_seed_controller(sid, cluster, selected, allowed, warnings):
    out = ROLES.check("controller", CLUSTERS[cluster], selected=selected, models=MODELS)
    assert isinstance(out, RoleOutcome)
    assert (out.allowed, out.warnings, out.conflicts) == (allowed, warnings, [])
    assert out.trace.form == "rules" and len(out.trace.children) == 2
    assert out.trace.value == allowed


# (id, role, cluster, selection, selected roles, allowed, warnings, conflicts)
CONFLICTS = [
    ("K01", "controller", "MN0", [11], ["compute"], False, [CONF], ["compute"]),
    ("K02", "compute", "MN0", [11], ["controller"], False, [CONF], ["controller"]),
    (
        "star-declared",
        "zabbix-server",
        "MN0",
        [11],
        ["compute", "cinder"],
        False,
        [CONF],
        ["compute", "cinder"],
    ),
    ("star-symmetric", "cinder", "MN0", [11], ["zabbix-server"], False, [CONF], ["zabbix-server"]),
    ("never-itself", "zabbix-server", "MN0", [11], ["zabbix-server"], True, [], []),
    ("no-conflict", "compute", "MN0", [11], ["cinder"], True, [], []),
    ("unknown-role-allowed", "compute", "MN0", [11], ["not-a-role"], True, [], []),
    (
        "conflict-once-plus-rules",
        "controller",
        "MN0",
        [11, 12],
        ["compute", "zabbix-server"],
        False,
        [WMN, CONF],
        ["compute", "zabbix-server"],
    ),
]


@pytest.mark.parametrize(
    "sid,role,cluster,selected,selected_roles,allowed,warnings,conflicts",
    CONFLICTS,
    ids=[c[0] for c in CONFLICTS],
)
def test_conflicts(sid, role, cluster, selected, selected_roles, allowed, warnings, conflicts):
    out = ROLES.check(role, CLUSTERS[cluster], selected=selected, selected_roles=selected_roles)
    assert (out.allowed, out.conflicts) == (allowed, conflicts)
    assert out.warnings == warnings
    if conflicts:
        assert out.warnings.count(CONF) == 1


def test_conflict_warning_comes_after_rule_warnings():
    out = ROLES.check("controller", CLUSTERS["MN0"], selected=[11, 12], selected_roles=["compute"])
    assert out.warnings == [WMN, CONF]


ASSIGNMENTS = [
    ("K06", ["controller", "compute"], "Role 'controller' in conflict with role 'compute'."),
    (
        "star",
        ["zabbix-server", "compute", "cinder"],
        "Role 'zabbix-server' in conflict with role 'compute, cinder'.",
    ),
    (
        "declared-only",
        ["compute", "controller"],
        "Role 'controller' in conflict with role 'compute'.",
    ),
    ("ok", ["compute", "cinder"], None),
    ("single", ["controller"], None),
]


@pytest.mark.parametrize("sid,node_roles,message", ASSIGNMENTS, ids=[a[0] for a in ASSIGNMENTS])
def test_check_assignment(sid, node_roles, message):
    if message is None:
        assert ROLES.check_assignment(node_roles) is None
        return
    with pytest.raises(ConditionError) as info:
        ROLES.check_assignment(node_roles)
    err = info.value
    assert (err.kind, err.position, err.message) == ("RoleConflict", None, message)


def test_unknown_role_is_toskit_error():
    with pytest.raises(ToskitError, match="controler"):
        ROLES.check("controler", CLUSTERS["MN0"])
    with pytest.raises(ToskitError):
        ROLES.check_assignment(["nope"])


# ----------------------------------------------------------------- loading (§12.5, §9)


def test_fixed_seed_loads():
    roles = load_roles(SEED_FIXED)
    assert isinstance(roles, RoleSet) and list(roles) == ["controller"]
    controller = roles["controller"]
    assert isinstance(controller, Role)
    assert controller.conflicts == ("compute",)
    assert len(controller.conditions) == 2


def test_roleset_is_read_only_mapping_in_document_order():
    assert list(ROLES) == ["controller", "compute", "cinder", "zabbix-server"]
    assert ROLES["zabbix-server"].conflicts == ("*",)
    assert ROLES["compute"].conflicts == () and ROLES["compute"].conditions == ()
    with pytest.raises(TypeError):
        ROLES["x"] = None  # type: ignore[index]


def test_seed_as_written_reports_the_indentation_error():
    with pytest.raises(TemplateError) as info:
        load_roles(SEED_AS_WRITTEN)
    err = info.value
    diag = next(d for d in err.diagnostics if d.code == "yaml-syntax")
    assert diag.severity == "error"
    assert (diag.line, diag.column) == (11, 11)
    assert "11" in str(err)
    assert diag.hint is not None
    assert "'then:' is indented deeper than 'condition:' (line 10)" in diag.hint


def test_seed_as_written_without_the_prose_lines():
    text = SEED_AS_WRITTEN.split("roles_metadata:", 1)[1]
    with pytest.raises(TemplateError) as info:
        load_roles("roles_metadata:" + text)
    diag = next(d for d in info.value.diagnostics if d.code == "yaml-syntax")
    assert (diag.line, diag.column) == (7, 11)


def test_seed_as_written_is_template_error_in_any_case():
    with pytest.raises(TemplateError) as info:
        load_roles(SEED_AS_WRITTEN)
    assert [d.code for d in info.value.diagnostics] == ["yaml-syntax"]


@pytest.mark.parametrize(
    "bad",
    [
        "then: cluster:mode = 'x'",
        "then: {all: ['cluster:nodes._size']}",
        "then: {not: {recommended: {expression: 'true', value: 1, warning: R}}}",
        "else: true",
    ],
    ids=["syntax", "unknown-special", "schema", "else-without-then"],
)
def test_load_raises_even_in_untaken_branches(bad):
    text = f"roles_metadata:\n  r:\n    conditions:\n      - condition: 'false'\n        {bad}\n"
    with pytest.raises(ConditionError) as info:
        load_roles(text)
    assert info.value.path is not None and info.value.path.startswith("r.conditions[0]")


def test_load_from_path_and_mapping(tmp_path: Path):
    path = tmp_path / "roles.yaml"
    path.write_text(ROLES_TEXT, encoding="utf-8")
    for source in (path, str(path)):
        assert list(load_roles(source)) == list(ROLES)
    assert list(load_roles({"a": {}, "b": {"conflicts": "*"}})) == ["a", "b"]


def test_missing_file_is_toskit_error(tmp_path: Path):
    with pytest.raises(ToskitError):
        load_roles(str(tmp_path / "missing.yaml"))


def test_document_without_roles_metadata_key_is_the_role_map():
    roles = load_roles("controller:\n  conflicts: [compute]\ncompute: {}\n")
    assert list(roles) == ["controller", "compute"]


@pytest.mark.parametrize(
    "doc,fragment",
    [
        ("- a\n- b\n", "must be a mapping"),
        ("r:\n  conflicts: 3\n", "'conflicts'"),
        ("r:\n  conflicts: compute\n", "'conflicts'"),
        ("r:\n  conflicts: [1]\n", "must be a string"),
        ("r: [1]\n", "must be a mapping"),
        ("r:\n  conditions: 3\n", "got number"),
    ],
    ids=[
        "list-document",
        "conflicts-number",
        "conflicts-bare-string",
        "conflicts-non-string",
        "role-not-mapping",
        "conditions-number",
    ],
)
def test_bad_documents(doc, fragment):
    with pytest.raises(ConditionError) as info:
        load_roles(doc)
    assert info.value.kind == "SchemaError"
    assert fragment in info.value.message


def test_single_condition_counts_as_one_rule_and_metadata_is_kept():
    roles = load_roles(
        "r:\n  name: Role R\n  description: d\n  limits: {min: 1}\n  weight: 3\n"
        "  conditions: {condition: 'false', warning: W}\n"
    )
    role = roles["r"]
    assert len(role.conditions) == 1
    assert role.metadata == {
        "name": "Role R",
        "description": "d",
        "limits": {"min": 1},
        "weight": 3,
    }
    assert role.label == "Role R"


def test_role_without_conditions_is_allowed():
    out = ROLES.check("compute", CLUSTERS["MN1"], selected=[11])
    assert (out.allowed, out.warnings, out.conflicts) == (True, [], [])


def test_reprs_and_html_seam():
    out = ROLES.check("controller", CLUSTERS["MN0"], selected=[11, 12])
    assert repr(out).startswith("RoleOutcome('controller', allowed=False")
    assert repr(ROLES) == "RoleSet(['controller', 'compute', 'cinder', 'zabbix-server'])"
    assert repr(ROLES["controller"]) == "Role('controller', conflicts=('compute',), conditions=2)"
    for obj in (out, ROLES, ROLES["controller"], out.trace, CLUSTERS["MN1"]):
        html = obj._repr_html_()
        assert isinstance(html, str) and html


def test_check_all_matches_check():
    every = ROLES.check_all(CLUSTERS["MN1"], selected=[11], selected_roles=["compute"])
    assert list(every) == list(ROLES)
    for name, out in every.items():
        single = ROLES.check(name, CLUSTERS["MN1"], selected=[11], selected_roles=["compute"])
        assert (out.allowed, out.warnings, out.conflicts) == (
            single.allowed,
            single.warnings,
            single.conflicts,
        )


def test_check_never_mutates_cluster():
    import copy

    cluster = CLUSTERS["MN1"]
    before = copy.deepcopy([dict(n) for n in cluster.nodes])
    ROLES.check("controller", cluster, selected=[11])
    ROLES.check("controller", cluster, selected=[1]).trace  # noqa: B018
    assert [dict(n) for n in cluster.nodes] == before


def test_bad_selected_roles():
    with pytest.raises(ToskitError):
        ROLES.check("controller", CLUSTERS["MN0"], selected=[11], selected_roles="compute")


def test_unknown_role_by_subscript_is_a_toskit_error_and_a_key_error():
    with pytest.raises(ToskitError, match="did you mean 'controller'"):
        ROLES["controler"]
    with pytest.raises(KeyError):
        ROLES["nope"]
    assert "nope" not in ROLES and ROLES.get("nope") is None
    assert ROLES.get(["unhashable"]) is None
