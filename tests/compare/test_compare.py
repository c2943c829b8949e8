"""toskit.compare: each kind of change of issue #21, one test per behaviour."""

from __future__ import annotations

import json
import pickle

import pytest
from compare_fixtures import BASE, load

import toskit
from toskit.compare import TemplateDiff, ValueChange
from toskit.plain import values_equal as same_value


def diff_of(new_text: str, old_text: str = BASE) -> TemplateDiff:
    return toskit.compare(load(old_text, "old.yaml"), load(new_text, "new.yaml"))


def test_identical_templates_have_no_changes():
    d = toskit.compare(load(BASE, "old.yaml"), load(BASE, "again.yaml"))
    assert d.is_same
    assert d.values == () and d.types == () and d.diagnostics == ()
    assert d.unchanged_templates == 2
    assert "no changes" in str(d)
    assert repr(d) == "<TemplateDiff old.yaml -> again.yaml: no changes>"


def test_value_changed_through_a_data_type_default_only():
    """No line of the topology changes: only the data type's default."""
    d = diff_of(BASE.replace("default: 5432", "default: 6543"))
    changes = {(v.entity, v.path): v for v in d.values}
    assert set(changes) == {("db", "endpoint.port"), ("cache", "endpoint.port")}
    v = changes[("db", "endpoint.port")]
    assert (v.change, v.old, v.new) == ("changed", 5432, 6543)
    assert v.old_source == v.new_source == "default: my.Endpoint"
    assert v.template_untouched
    (t,) = d.types
    assert (t.name, t.kind, t.change) == ("my.Endpoint", "data", "changed")
    (p,) = t.properties
    assert (p.property, p.aspect, p.old, p.new) == ("port", "default", 5432, 6543)


def test_value_changed_through_a_node_type_default_only():
    d = diff_of(
        BASE.replace(
            "replicas: {type: integer, default: 1}", "replicas: {type: integer, default: 3}"
        )
    )
    # cache writes replicas itself: only db follows the type default.
    (v,) = d.values
    assert (v.entity, v.path, v.old, v.new) == ("db", "replicas", 1, 3)
    assert v.old_source == v.new_source == "default: my.Db"


def test_value_moving_from_default_to_template_shows_both_sources():
    d = diff_of(BASE.replace("        name: main\n", "        name: main\n        replicas: 5\n"))
    (v,) = d.values
    assert (v.path, v.old, v.new, v.old_source, v.new_source) == (
        "replicas",
        1,
        5,
        "default: my.Db",
        "template",
    )
    assert not v.template_untouched


def test_same_value_from_another_layer_is_no_change():
    d = diff_of(BASE.replace("        name: main\n", "        name: main\n        replicas: 1\n"))
    assert d.values == ()


def test_template_value_change_and_kinds_kept_apart():
    d = diff_of(BASE.replace("replicas: 2", "replicas: 2.0"))
    assert d.values == ()  # 2 and 2.0 are one number
    assert same_value(1, 1.0) and not same_value(True, 1) and not same_value("1", 1)
    assert not same_value({"a": [1]}, {"a": [True]}) and same_value({"a": [1]}, {"a": [1.0]})


def test_get_input_whose_input_default_changed():
    """A 2.0 template: the property is `$get_input`; only the input's default changes."""
    text = """\
tosca_definitions_version: tosca_2_0
node_types:
  Web:
    properties:
      port: {type: integer}
      host: {type: string, default: web.local}
service_template:
  inputs:
    port:
      type: integer
      default: PORT
  node_templates:
    web:
      type: Web
      properties:
        port: {$get_input: port}
"""
    d = toskit.compare(load(text.replace("PORT", "80")), load(text.replace("PORT", "8080")))
    (v,) = d.values
    assert (v.entity, v.path, v.old, v.new) == ("web", "port", 80, 8080)
    assert v.old_source == v.new_source == "input: port"
    assert v.template_untouched
    assert d.inputs == (("port", 80, 8080),)
    assert d.types == () and d.diagnostics == ()


def test_templates_added_removed_retyped():
    new = (
        BASE.replace("    cache:\n      type: my.Db", "    cache:\n      type: my.Cache")
        .replace(
            "node_types:\n",
            "node_types:\n  my.Cache:\n    derived_from: my.Db\n",
        )
        .replace(
            "        name: main\n",
            "        name: main\n    web:\n      type: my.Db\n      properties: {name: web}\n",
        )
    )
    new = new.replace("    db:\n      type: my.Db\n      properties:\n        name: main\n", "")
    new = new.replace("      requirements:\n        - dependency: db\n", "")
    d = diff_of(new)
    kinds = {(c.name, c.change, c.old_type, c.new_type) for c in d.templates}
    assert kinds == {
        ("cache", "retyped", "my.Db", "my.Cache"),
        ("web", "added", None, "my.Db"),
        ("db", "removed", "my.Db", None),
    }
    added = [v for v in d.values if v.entity == "web"]
    assert {v.path for v in added} == {"endpoint.host", "endpoint.port", "replicas", "name"}
    assert all(v.change == "added" and v.old is None for v in added)
    removed = [v for v in d.values if v.entity == "db"]
    assert removed and all(v.change == "removed" and v.new is None for v in removed)
    assert [(t.name, t.change) for t in d.types] == [("my.Cache", "added")]


def test_type_property_definition_changes():
    old = BASE.replace(
        "      name: {type: string}\n",
        "      name: {type: string}\n      gone: {type: string, required: false}\n"
        "      size: {type: integer, default: 1, constraints: [{greater_than: 0}]}\n",
    )
    new = BASE.replace(
        "      name: {type: string}\n",
        "      name: {type: string, required: false}\n      fresh: {type: boolean, default: true}\n"
        "      size: {type: float, default: 2, constraints: [{greater_than: 1}]}\n",
    )
    d = toskit.compare(load(old), load(new))
    (t,) = [t for t in d.types if t.name == "my.Db"]
    aspects = {(p.property, p.aspect): (p.old, p.new) for p in t.properties}
    assert aspects[("gone", "removed")] == ("string", None)
    assert aspects[("fresh", "added")] == (None, "boolean")
    assert aspects[("name", "required")] == (True, False)
    assert aspects[("size", "type")] == ("integer", "float")
    assert aspects[("size", "default")] == (1, 2)
    old_c, new_c = aspects[("size", "constraints")]
    assert old_c != new_c and len(old_c) == len(new_c) == 1


def test_derived_from_changed():
    old = BASE + "  \n"
    new = BASE.replace(
        "  my.Db:\n    derived_from: tosca.nodes.Root",
        "  my.Db:\n    derived_from: tosca.nodes.SoftwareComponent",
    )
    d = toskit.compare(load(old), load(new))
    (t,) = [t for t in d.types if t.name == "my.Db"]
    assert t.derived_from == ("tosca.nodes.Root", "tosca.nodes.SoftwareComponent")


def test_requirement_target_changed():
    new = BASE.replace("        - dependency: db", "        - dependency: cache2").replace(
        "    cache:\n", "    cache2:\n      type: my.Db\n      properties: {name: c2}\n    cache:\n"
    )
    d = diff_of(new)
    (r,) = d.requirements
    assert (r.entity, r.requirement, r.index, r.old_target, r.new_target) == (
        "cache",
        "dependency",
        0,
        "db",
        "cache2",
    )
    assert "  ~ cache.dependency: db → cache2" in str(d)
    gone = diff_of(BASE.replace("      requirements:\n        - dependency: db\n", ""))
    assert "  ~ cache.dependency: db → (none)" in str(gone)


def test_diagnostic_introduced_and_fixed():
    broken = BASE.replace("replicas: 2", "replicas: two")
    d = diff_of(broken)
    (intro,) = d.introduced
    assert intro.code == "type-mismatch" and intro.path.endswith("cache.properties.replicas")
    assert d.new_errors == [intro] and d.fixed == []
    back = toskit.compare(load(broken), load(BASE))
    assert [x.code for x in back.fixed] == ["type-mismatch"] and back.introduced == []
    assert back.new_errors == []


def test_diagnostic_that_moved_lines_is_the_same():
    broken = BASE.replace("replicas: 2", "replicas: two")
    moved = broken.replace(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n",
        "tosca_definitions_version: tosca_simple_yaml_1_3\n\n\n# a comment\n",
    )
    a, b = load(broken), load(moved)
    assert a.diagnostics[0].line != b.diagnostics[0].line  # it did move
    d = toskit.compare(a, b)
    assert d.diagnostics == () and d.is_same


def test_diagnostics_match_as_a_multiset_by_code_and_path():
    from toskit import Diagnostic
    from toskit.compare.compute import compare_diagnostics

    a = Diagnostic(
        "error", "type-mismatch", "expected integer", path="x.y", file="old.yaml", line=3
    )
    a_moved = Diagnostic(
        "error", "type-mismatch", "expected integer, got 'q'", path="x.y", file="new.yaml", line=9
    )
    other = Diagnostic("warning", "dollar-literal", "kept", path="x.z", line=4)
    changes = compare_diagnostics([a, other], [a_moved, a_moved])
    assert [(c.change, c.diagnostic) for c in changes] == [
        ("introduced", a_moved),
        ("fixed", other),
    ]
    # No path: the message tells problems apart.
    p1 = Diagnostic("error", "yaml-syntax", "bad indent", path="", line=1)
    p2 = Diagnostic("error", "yaml-syntax", "unclosed quote", path="", line=1)
    assert [c.change for c in compare_diagnostics([p1], [p2])] == ["introduced", "fixed"]


def test_relationship_templates_compared():
    rel = """\
    rel:
      type: tosca.relationships.ConnectsTo
      properties:
        credential: {user: U, token: t}
"""
    text = BASE.replace(
        "topology_template:\n", "topology_template:\n  relationship_templates:\n" + rel
    )
    a, b = load(text.replace("U", "alice")), load(text.replace("U", "bob"))
    assert "rel" in a.relationship_templates
    d = toskit.compare(a, b)
    changed = [v for v in d.values if v.kind == "relationship"]
    assert changed and changed[0].entity == "rel" and changed[0].new == "bob"


def test_paths_and_bad_sides(tmp_path):
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(BASE)
    new.write_text(BASE.replace("replicas: 2", "replicas: 4"))
    d = toskit.compare(str(old), new)
    assert [(v.path, v.old, v.new) for v in d.values] == [("replicas", 2, 4)]
    with pytest.raises(toskit.ToskitError, match="ServiceTemplates or paths"):
        toskit.compare(5, new)
    with pytest.raises(toskit.ToskitError):
        toskit.compare(tmp_path / "missing.yaml", new)


def test_to_frame_one_row_per_changed_value():
    d = diff_of(
        BASE.replace("default: 5432", "default: 6543").replace("replicas: 2", "replicas: 3")
    )
    frame = d.to_frame()
    assert list(frame.columns) == [
        "entity",
        "kind",
        "path",
        "change",
        "old",
        "new",
        "old_source",
        "new_source",
        "type",
        "section",
        "old_entity",
        "new_path",
        "old_location",
        "new_location",
    ]
    # the three values, then the changes as written (the type's default, cache's replicas is a value)
    assert len(d.values) == 3 and list(frame.section[:3]) == ["values"] * 3
    assert list(frame.section[3:]) == ["data_types"]
    row = frame[(frame.entity == "cache") & (frame.path == "replicas")].iloc[0]
    assert (row.old, row.new, row.old_source, row.new_source) == (2, 3, "template", "template")


def test_json_layout_and_roundtrip():
    d = diff_of(
        BASE.replace("default: 5432", "default: 6543").replace("replicas: 2", "replicas: two")
    )
    data = json.loads(d.to_json())
    assert data["old"] == "old.yaml" and data["new"] == "new.yaml" and data["same"] is False
    assert data["summary"]["introduced"] == 1
    row = next(v for v in data["values"] if (v["entity"], v["path"]) == ("db", "endpoint.port"))
    assert row == {
        "entity": "db",
        "kind": "node",
        "path": "endpoint.port",
        "change": "changed",
        "old": 5432,
        "new": 6543,
        "old_source": "default: my.Endpoint",
        "new_source": "default: my.Endpoint",
        "type": "integer",
        "old_location": "old.yaml:7:38",
        "new_location": "new.yaml:7:38",
        "old_entity": None,
        "new_path": None,
    }
    assert data["generator"] == "toskit" and data["not_compared"] == []
    (field,) = data["fields"]
    assert (field["section"], field["entity"], field["path"]) == (
        "data_types",
        "my.Endpoint",
        "properties.port.default",
    )
    assert data["diagnostics"]["introduced"][0]["location"] == "new.yaml:25:19"
    assert data["diagnostics"]["introduced"][0]["code"] == "type-mismatch"
    assert data["types"][0]["properties"] == [
        {"property": "port", "aspect": "default", "old": 5432, "new": 6543}
    ]
    assert data["types"][0]["old_name"] is None


def test_json_of_values_json_cannot_hold():
    from toskit.compare.serialize import jsonable

    assert jsonable({"a": (1, float("inf")), 2: object}) == {"a": [1, "inf"], "2": str(object)}


def test_text_report():
    d = diff_of(
        BASE.replace("default: 5432", "default: 6543").replace("replicas: 2", "replicas: 3")
    )
    text = str(d)
    assert text.splitlines()[0] == "diff old.yaml → new.yaml"
    assert (
        "    ~ endpoint.port: 5432 → 6543  (default: my.Endpoint @ old.yaml:7:38 → default: my.Endpoint @ new.yaml:7:38)"
        in text
    )
    assert "    ~ replicas: 2 → 3  (template @ old.yaml:25:19 → template @ new.yaml:25:19)" in text
    assert "~ properties.port.default: 5432 → 6543 @ old.yaml:7:38 → new.yaml:7:38" in text
    assert "effective port.default: 5432 → 6543" in text


def test_diff_is_plain_data():
    d = diff_of(BASE.replace("replicas: 2", "replicas: 3"))
    assert pickle.loads(pickle.dumps(d)) == d
    assert isinstance(d.values[0], ValueChange)
    with pytest.raises(AttributeError):
        d.values = ()  # type: ignore[misc]


def test_values_of_and_summary():
    d = diff_of(BASE.replace("default: 5432", "default: 6543"))
    assert [v.path for v in d.values_of("db")] == ["endpoint.port"]
    assert d.summary()["values"] == 2


def test_toskit_compare_is_the_module_and_the_function():
    import toskit.compare as module

    assert callable(toskit.compare) and toskit.compare is module
    assert toskit.TemplateDiff is TemplateDiff
    assert module.compare(load(BASE), load(BASE)).is_same


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("8443", "'8443'"),
        ("true", "'true'"),
        ("", "''"),
        (" x", "' x'"),
        ("web", "web"),
        (8443, "8443"),
        (True, "true"),
        (None, "null"),
        ([1, "a"], "[1, 'a']"),
        ("x" * 100, "x" * 59 + "…"),
        ("a\nb", "'a\\nb'"),
    ],
    ids=[
        "numeric-text",
        "bool-text",
        "empty",
        "space",
        "plain",
        "int",
        "bool",
        "null",
        "list",
        "long",
        "newline",
    ],
)
def test_text_values_keep_their_kind(value, text):
    from toskit.compare.text import short

    assert short(value) == text


def test_types_of_every_kind_even_sharing_a_name():
    """`types` keeps the node type of a shared name; the diff reads each kind."""
    text = BASE.replace(
        "node_types:\n",
        "capability_types:\n  my.Db:\n    derived_from: tosca.capabilities.Root\n"
        "    properties:\n      level: {type: integer, default: LEVEL}\n"
        "node_types:\n",
    )
    d = toskit.compare(load(text.replace("LEVEL", "1")), load(text.replace("LEVEL", "2")))
    (t,) = d.types
    assert (t.kind, t.name) == ("capability", "my.Db")
    assert [(p.property, p.aspect, p.old, p.new) for p in t.properties] == [
        ("level", "default", 1, 2)
    ]


def test_compare_reads_every_kind_of_type_the_registry_has():
    """compare keeps its own copy of the kinds (importing it must not import
    the loader); it is the registry's list."""
    from toskit.compare.compute import KINDS
    from toskit.tosca.types.registry import KINDS as REGISTRY_KINDS

    assert KINDS == REGISTRY_KINDS
