"""spec/tosca.md §2 (versions, keynames) and the API.md surface of loading."""

from __future__ import annotations

import pathlib
from pathlib import Path

import pytest
from tosca_fixtures import FIXTURES, V13, codes, errors, loads

import toskit


@pytest.mark.parametrize(
    "version",
    [
        "tosca_simple_yaml_1_0",
        "tosca_simple_yaml_1_1",
        "tosca_simple_yaml_1_2",
        "tosca_simple_yaml_1_3",
        "tosca_simple_unfurl_1_0_0",
    ],
)
def test_1x_versions_use_topology_template(version: str) -> None:
    st = loads(
        f"tosca_definitions_version: {version}\ntopology_template:\n  node_templates: {{}}\n"
    )
    assert st.version == version
    assert st.diagnostics == []
    bad = loads(f"tosca_definitions_version: {version}\nservice_template: {{}}\n")
    assert codes(bad) == ["unknown-keyname"]
    assert bad.diagnostics[0].hint.startswith("did you mean 'topology_template'?")


def test_2_0_uses_service_template() -> None:
    st = loads("tosca_definitions_version: tosca_2_0\nservice_template:\n  node_templates: {}\n")
    assert (st.version, st.diagnostics) == ("tosca_2_0", [])
    bad = loads("tosca_definitions_version: tosca_2_0\ntopology_template: {}\n")
    assert codes(bad) == ["unknown-keyname"]
    assert bad.diagnostics[0].hint.startswith("did you mean 'service_template'?")


@pytest.mark.parametrize(
    ("text", "assumed"),
    [
        ("service_template:\n  node_templates: {}\n", "tosca_2_0"),
        ("topology_template:\n  node_templates: {}\n", "tosca_simple_yaml_1_3"),
        ("description: nothing else\n", "tosca_2_0"),
        ("", "tosca_2_0"),
    ],
    ids=["service_template", "topology_template", "neither", "empty"],
)
def test_missing_version_is_inferred(text: str, assumed: str) -> None:
    st = toskit.loads(text)
    assert st.version == assumed
    assert codes(st) == ["missing-version"]
    (diag,) = st.diagnostics
    assert diag.severity == "warning" and assumed in diag.message
    assert st.ok


def test_unknown_version() -> None:
    st = loads("tosca_definitions_version: tosca_simple_yaml_1_4\ntopology_template: {}\n")
    (diag,) = st.diagnostics
    assert diag.code == "unknown-version" and diag.severity == "error"
    assert diag.hint == "did you mean 'tosca_simple_yaml_1_3'?"
    assert (diag.line, diag.column) == (1, 28)
    # Read as if the version were missing: topology_template means 1.3, so no keyname error.
    assert not st.ok


@pytest.mark.parametrize(
    ("text", "path", "hint"),
    [
        ("node_type: {}\n", "node_type", "did you mean 'node_types'?"),
        (
            "topology_template:\n  node_template: {}\n",
            "topology_template.node_template",
            "did you mean 'node_templates'?",
        ),
        (
            "topology_template:\n  node_templates:\n    n:\n      type: tosca.nodes.Root\n      propertes: {}\n",
            "topology_template.node_templates.n.propertes",
            "did you mean 'properties'?",
        ),
        (
            "node_types:\n  N:\n    properties:\n      p: {type: string, defualt: x}\n",
            "node_types.N.properties.p.defualt",
            "did you mean 'default'?",
        ),
        (
            "data_types:\n  D:\n    derived_form: tosca.datatypes.Root\n",
            "data_types.D.derived_form",
            "did you mean 'derived_from'?",
        ),
        (
            "node_types:\n  N:\n    requirements:\n      - host: {capabilty: tosca.capabilities.Compute}\n",
            "node_types.N.requirements[0].host.capabilty",
            "did you mean 'capability'?",
        ),
        (
            "node_types:\n  N:\n    properties:\n      p: {type: list, entry_schema: {type: string, defualt: 1}}\n",
            "node_types.N.properties.p.entry_schema.defualt",
            None,
        ),
    ],
    ids=[
        "top",
        "topology",
        "node-template",
        "property-definition",
        "type",
        "requirement",
        "entry-schema",
    ],
)
def test_unknown_keyname_with_hint(text: str, path: str, hint: str | None) -> None:
    st = toskit.loads("tosca_definitions_version: tosca_simple_yaml_1_3\n" + text)
    errs = [d for d in st.diagnostics if d.code == "unknown-keyname"]
    assert [d.path for d in errs] == [path]
    assert errs[0].hint == hint
    assert errs[0].line is not None


def test_constraints_are_1x_and_validation_is_2_0() -> None:
    v1 = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          N: {properties: {p: {type: integer, validation: {$greater_than: [$value, 1]}}}}
        """
    )
    assert codes(v1) == ["unknown-keyname"]
    v2 = loads(
        """
        tosca_definitions_version: tosca_2_0
        node_types:
          N: {properties: {p: {type: integer, constraints: [{greater_than: 1}]}}}
        """
    )
    assert codes(v2) == ["unknown-keyname"]


@pytest.mark.parametrize("name", ["all_keynames_1_3.yaml", "all_keynames_2_0.yaml"])
def test_every_keyname_is_accepted(name: str) -> None:
    st = toskit.load(FIXTURES / name)
    assert [
        str(d) for d in st.diagnostics if d.code in ("unknown-keyname", "invalid-definition")
    ] == []


def test_document_that_is_not_a_map() -> None:
    st = toskit.loads("- just\n- a list\n")
    assert codes(st) == ["invalid-definition"]
    assert not st.ok


def test_raise_for_errors() -> None:
    st = toskit.load(FIXTURES / "missing_port.yaml")
    with pytest.raises(toskit.TemplateError) as info:
        st.raise_for_errors()
    assert isinstance(info.value, toskit.ToskitError)
    assert [d.code for d in info.value.diagnostics] == ["missing-property"]
    assert "missing-property" in str(info.value)
    toskit.load(FIXTURES / "basic.yaml").raise_for_errors()  # warnings only: no raise


def test_load_problems_outside_the_template_raise(tmp_path: Path) -> None:
    with pytest.raises(toskit.ToskitError, match="no such file"):
        toskit.load(tmp_path / "absent.yaml")
    (tmp_path / "latin1.yaml").write_bytes(b"description: caf\xe9\n")
    with pytest.raises(toskit.ToskitError, match="UTF-8"):
        toskit.load(tmp_path / "latin1.yaml")


def test_yaml_syntax_error_is_a_diagnostic() -> None:
    st = toskit.loads("a: [1, 2\n", name="bad.yaml")
    assert codes(st) == ["yaml-syntax"]
    assert st.diagnostics[0].file == "bad.yaml"


def test_service_template_repr_counts_in_singular_and_plural() -> None:
    one = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "topology_template:\n  node_templates:\n    a: {type: tosca.nodes.Compute, properties: {x: 1}}\n",
        name="one.yaml",
    )
    assert (
        repr(one) == "<ServiceTemplate one.yaml (tosca_simple_yaml_1_3): 1 node template, 1 error>"
    )
    two = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "topology_template:\n  node_templates:\n"
        "    a: {type: tosca.nodes.Compute, properties: {x: 1, y: 2}}\n"
        "    b: {type: tosca.nodes.SoftwareComponent}\n"
        "    c: {type: tosca.nodes.SoftwareComponent}\n",
        name="two.yaml",
    )
    assert repr(two) == (
        "<ServiceTemplate two.yaml (tosca_simple_yaml_1_3): 3 node templates, 2 errors, 2 warnings>"
    )
    none = toskit.loads("tosca_definitions_version: tosca_simple_yaml_1_3\n", name="none.yaml")
    assert repr(none) == "<ServiceTemplate none.yaml (tosca_simple_yaml_1_3): 0 node templates, ok>"


def test_check_text_and_reprs() -> None:
    from toskit.tosca import check_text

    diags = check_text((FIXTURES / "missing_port.yaml").read_text(), "m.yaml")
    assert [d.code for d in diags] == ["unfulfilled-requirement", "missing-property"]
    st = toskit.load(FIXTURES / "defaults.yaml")
    assert "1 node template, 1 error>" in repr(st)
    node = st.node_templates["my_db_service"]
    assert repr(node) == "<NodeTemplate my_db_service: DatabaseService (1 properties)>"
    table = node.property_table()
    assert "connection.auth.username" in repr(table) and "default: my.datatypes.Auth" in repr(table)
    assert "PropertyDefinition connection" in repr(
        st.types["DatabaseService"].properties["connection"]
    )


def test_html_seam_is_wired() -> None:
    st = toskit.load(FIXTURES / "defaults.yaml")
    node = st.node_templates["my_db_service"]
    for obj in (st, node, node.property_table(), node.type, node.type.properties["connection"]):
        html = obj._repr_html_()
        assert isinstance(html, str) and html


def test_diagnostics_in_source_order() -> None:
    st = toskit.load(FIXTURES / "unknown_field.yaml")
    positions = [(d.line, d.column) for d in st.diagnostics]
    assert positions == sorted(positions)


def test_inputs_mapping_and_unknown_input() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        topology_template:
          inputs:
            a: {type: integer, default: 1}
            b: {type: string}
        """,
        inputs={"c": 3},
    )
    assert st.inputs == {"a": 1, "b": toskit.NO_DEFAULT, "c": 3}
    # 'b' is required and the given mapping lacks it (lead's decision 1).
    assert sorted(codes(st)) == ["missing-input", "unknown-input"]
    assert st.diagnostics[0].severity == "warning"


@pytest.mark.parametrize(
    ("text", "code", "path"),
    [
        ("description: {complex: text}\n", "invalid-definition", "description"),
        ("node_types:\n  N: {version: 1..0.abc}\n", "invalid-definition", "node_types.N.version"),
        ("metadata:\n  template_name:\n", "invalid-definition", "metadata.template_name"),
        ("metadata:\n  template_name: 12345\n", "invalid-definition", "metadata.template_name"),
        ("node_types:\n", "invalid-definition", "node_types"),
        ("relationship_types:\n  1.0: {}\n", "invalid-definition", "relationship_types.1.0"),
        ("dsl_definitions: [a, b]\n", "invalid-definition", "dsl_definitions"),
        ("repositories:\n  r: {description: no url}\n", "missing-keyname", "repositories.r"),
        ("service_template:\n  inputs: {}\n", "missing-keyname", "service_template"),
    ],
    ids=[
        "description",
        "version",
        "metadata-null",
        "metadata-number",
        "empty-section",
        "name",
        "dsl-list",
        "repository-url",
        "node-templates",
    ],
)
def test_2_0_value_kinds_and_required_keynames(text: str, code: str, path: str) -> None:
    st = toskit.loads("tosca_definitions_version: tosca_2_0\n" + text)
    assert [(d.code, d.path) for d in st.diagnostics] == [(code, path)]
    assert st.diagnostics[0].line is not None


def test_1x_is_lenient_where_real_templates_are() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        metadata: {template_version: 1.0, count: 3}
        node_types:
        node_types_other: {}
        """
    )
    assert [d.code for d in st.diagnostics] == ["unknown-keyname"]
    ok = loads(
        """
        tosca_definitions_version: tosca_2_0
        metadata: {template_version: 1.0, tags: [a, b], author: {complex: x}}
        service_template:
          node_templates: {}
        """
    )
    assert ok.diagnostics == []


def test_loader_bounds_are_keyword_arguments() -> None:
    deep = (
        "tosca_definitions_version: tosca_2_0\ndsl_definitions: {a: &a "
        + "[" * 40
        + "]" * 40
        + "}\n"
    )
    assert toskit.loads(deep).diagnostics == []
    st = toskit.loads(deep, max_depth=10)
    assert "limit-exceeded" in codes(st)
    assert not st.ok


def test_inputs_must_be_a_mapping() -> None:
    with pytest.raises(toskit.ToskitError, match="inputs must be a mapping"):
        toskit.loads("tosca_definitions_version: tosca_2_0\n", inputs=["port"])  # type: ignore[arg-type]


def test_deep_values_load_without_raising_the_recursion_limit(monkeypatch) -> None:
    """Issue 15: the loader's walks are iterative or bounded, so a load (from a
    deep caller, values nested near the YAML depth bound) never needs a raised
    process-wide recursion limit."""
    import json
    import sys

    value: dict = {"leaf": "x"}
    for _ in range(480):
        value = {"child": value, "items": [[1]]}
    text = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "data_types:\n  Tree:\n    derived_from: tosca.datatypes.Root\n    properties:\n"
        "      child: {type: Tree, required: false}\n      leaf: {type: string, required: false}\n"
        "      items: {type: list, required: false}\n"
        "node_types:\n  T:\n    properties:\n      p: {type: Tree}\n"
        f"topology_template:\n  node_templates:\n    n:\n      type: T\n      properties:\n        p: {json.dumps(value)}\n"
    )
    raised: list[int] = []
    monkeypatch.setattr(sys, "setrecursionlimit", raised.append)

    def from_depth(frames: int) -> toskit.ServiceTemplate:
        return from_depth(frames - 1) if frames else toskit.loads(text)

    st = from_depth(300)
    assert st.ok, st.diagnostics
    assert st.node_templates["n"].properties["p"]["child"]["items"] == [[1]]
    assert raised == []


# ---- Misused entry points raise ToskitError ----


MISUSES = {
    "load(None)": (lambda: toskit.load(None), "expects a file path"),
    "load(5) is not a file descriptor": (lambda: toskit.load(5), "got int"),
    "load(bytes)": (lambda: toskit.load(b"a: 1"), "toskit.loads(text)"),
    "loads(None)": (lambda: toskit.loads(None), "expects YAML text"),
    "loads(Path)": (lambda: toskit.loads(pathlib.Path("x.yaml")), "toskit.load(path)"),
    "loads(bogus=1)": (lambda: toskit.loads("a: 1", bogus=1), "max_depth, max_size"),
    "loads(max_dept=1)": (lambda: toskit.loads("a: 1", max_dept=1), "did you mean 'max_depth'"),
    "loads(max_depth=-1)": (lambda: toskit.loads("a: 1", max_depth=-1), "positive integer"),
    "loads(max_nodes='10')": (lambda: toskit.loads("a: 1", max_nodes="10"), "positive integer"),
    "load(path, max_depth=0)": (lambda: toskit.load("x.yaml", max_depth=0), "positive integer"),
    "loads(resolver=5)": (lambda: toskit.loads("a: 1", resolver=5), "resolver must be"),
    "loads(name=5)": (lambda: toskit.loads("a: 1", name=5), "name"),
}


@pytest.mark.parametrize(("call", "message"), list(MISUSES.values()), ids=list(MISUSES))
def test_misused_entry_points_raise_toskit_error(call, message):
    with pytest.raises(toskit.ToskitError) as info:
        call()
    assert message in str(info.value)


def test_valid_limits_are_still_accepted():
    st = toskit.loads(V13, max_depth=50, max_nodes=None)
    assert st.ok


# ---- substitution_mappings.node_type ----


@pytest.mark.parametrize(
    ("written", "message", "line", "column"),
    [
        (
            "",
            "'substitution_mappings' has no value: a substitution mappings needs 'node_type'",
            4,
            3,
        ),
        # On the key that lacks it (issue #28), as the null case.
        ("{}", "a substitution mappings needs 'node_type'", 4, 3),
    ],
    ids=["null", "empty-map"],
)
def test_substitution_mappings_need_a_node_type(
    written: str, message: str, line: int, column: int
) -> None:
    st = toskit.loads(
        "tosca_definitions_version: tosca_2_0\nservice_template:\n  node_templates: {}\n"
        f"  substitution_mappings: {written}\n"
    )
    (diag,) = errors(st)
    assert (diag.code, diag.message) == ("missing-keyname", message)
    assert (diag.line, diag.column) == (line, column)
    assert diag.path == "service_template.substitution_mappings"


def test_substitution_mappings_with_a_node_type_pass_the_keyname_check() -> None:
    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n"
        "  substitution_mappings: {node_type: tosca.nodes.Root}\n"
    )
    assert errors(st) == []


@pytest.mark.parametrize(
    ("version", "node_type", "ok"),
    [
        ("tosca_2_0", "Service", True),
        ("tosca_2_0", "Servise", False),
        ("tosca_simple_yaml_1_3", "tosca.nodes.Root", True),
        ("tosca_simple_yaml_1_3", "tosca.nodes.Rot", False),
    ],
    ids=["2.0-known", "2.0-typo", "1.3-normative", "1.3-typo"],
)
def test_substitution_mappings_node_type_must_exist(version: str, node_type: str, ok: bool) -> None:
    topology = "service_template" if version == "tosca_2_0" else "topology_template"
    derived = "" if version == "tosca_2_0" else "derived_from: tosca.nodes.Root"
    st = toskit.loads(
        f"tosca_definitions_version: {version}\nnode_types:\n  Service: {{{derived}}}\n"
        f"{topology}:\n  node_templates:\n    s: {{type: Service}}\n"
        f"  substitution_mappings: {{node_type: {node_type}}}\n"
    )
    if ok:
        assert errors(st) == []
    else:
        (diag,) = errors(st)
        assert diag.code == "unknown-type"
        assert diag.message == f"substitution mappings: unknown node type '{node_type}'"
        assert diag.path == f"{topology}.substitution_mappings.node_type"
        assert diag.hint is not None and "did you mean" in diag.hint
