"""Issue #29 items 1-3: every section is compared, renames, locations."""

from __future__ import annotations

import json

import pytest
from compare_fixtures import FULL

import toskit
from toskit.compare import TemplateDiff


def diff_of(new_text: str, old_text: str = FULL) -> TemplateDiff:
    old = toskit.loads(old_text, name="old.yaml")
    new = toskit.loads(new_text, name="new.yaml")
    return toskit.compare(old, new)


def at(text: str, needle: str, offset: int = 0) -> str:
    """``line:column`` (1-based) of ``needle`` (plus ``offset`` columns) in ``text``."""
    index = text.index(needle)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1 + offset
    return f"{line}:{column}"


def spots(d: TemplateDiff) -> set[tuple[str, str | None, str]]:
    """Every (section, entity, path) the diff names: fields as written and
    effective values (a node's property ``x`` is ``properties.x``)."""
    out = {(f.section, f.entity, f.path) for f in d.fields}
    sections = {
        "node": "node_templates",
        "relationship": "relationship_templates",
        "group": "groups",
        "policy": "policies",
    }
    for v in d.values:
        path = v.path if v.path.startswith("capabilities.") else f"properties.{v.path}"
        out.add((sections[v.kind], v.entity, path))
    return out


def names_spot(d: TemplateDiff, section: str, entity: str | None, path: str) -> bool:
    """The diff names ``path`` or a leaf above it (a map value is one row)."""
    for s, e, p in spots(d):
        if (s, e) == (section, entity) and (
            p == path or (path.startswith(p) and path[len(p)] in ".[")
        ):
            return True
    return False


def edited(old: str, new: str, text: str = FULL, count: int = 1) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, count)


def test_the_fixture_is_clean_and_equal_to_itself():
    assert toskit.loads(FULL).diagnostics == []
    d = diff_of(FULL)
    assert d.is_same and d.fields == () and d.not_compared == ()
    assert "no changes" in str(d)


def test_capability_property_alone_is_a_change():
    """The issue's first example: only `host: mem_size` changes."""
    d = diff_of(edited("mem_size: 1 GB", "mem_size: 2 GB"))
    assert not d.is_same
    (v,) = d.values
    assert (v.entity, v.path, v.old, v.new) == (
        "db_host",
        "capabilities.host.properties.mem_size",
        "1 GB",
        "2 GB",
    )
    assert v.old_source == v.new_source == "template"
    assert (
        v.old_location == f"old.yaml:{at(FULL, '1 GB')}"
        and v.new_location == f"new.yaml:{at(FULL, '1 GB')}"
    )
    assert d.fields == ()  # the value change says it; not repeated as written
    assert json.loads(d.to_json())["same"] is False
    assert "~ capabilities.host.properties.mem_size: 1 GB → 2 GB" in str(d)


@pytest.mark.parametrize(
    "old,new",
    [
        ("mem_size: 1 GB", "mem_size: 2 GB"),
        ("primary: scripts/create.sh", "primary: scripts/c.sh"),
        ("file: scripts/install.sh", "file: scripts/i.sh"),
    ],
    ids=["capability", "interface", "artifact"],
)
def test_fail_on_changes_exits_1_for_the_issue_examples(tmp_path, capsys, old, new):
    from toskit import cli

    (tmp_path / "a.yaml").write_text(FULL)
    (tmp_path / "b.yaml").write_text(edited(old, new))
    assert (
        cli.main(
            ["diff", str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml"), "--fail-on", "changes"]
        )
        == 1
    )
    assert "no changes" not in capsys.readouterr().out
    assert (
        cli.main(
            ["diff", str(tmp_path / "a.yaml"), str(tmp_path / "a.yaml"), "--fail-on", "changes"]
        )
        == 0
    )


def test_mixed_change_counts_the_changed_node():
    d = diff_of(edited("num_cpus: 1", "num_cpus: 4").replace('relase: "1.0"', 'relase: "1.1"'))
    assert {(v.entity, v.path, v.old, v.new) for v in d.values} == {
        ("db_host", "capabilities.host.properties.num_cpus", 1, 4),
        ("app", "relase", "1.0", "1.1"),
    }
    assert d.unchanged_templates == 3  # my_rel, servers, limits; db_host and app changed
    assert "db_host" in str(d) and json.loads(d.to_json())["summary"]["values"] == 2


def test_unchanged_count_is_every_template_pair_without_a_change():
    d = diff_of(edited("mem_size: 1 GB", "mem_size: 2 GB"))
    # app, my_rel, servers (group), limits (policy) unchanged; db_host changed
    assert d.unchanged_templates == 4


EDITS = [
    # (what, old text, new text, section, entity, path)
    (
        "interface implementation",
        "primary: scripts/create.sh",
        "primary: scripts/create2.sh",
        "node_templates",
        "app",
        "interfaces.Standard.operations.create.implementation.primary",
    ),
    (
        "implementation dependency",
        "dependencies: [scripts/lib.sh]",
        "dependencies: [scripts/lib2.sh]",
        "node_templates",
        "app",
        "interfaces.Standard.operations.create.implementation.dependencies[0]",
    ),
    (
        "operation input",
        "port: 8080",
        "port: 8081",
        "node_templates",
        "app",
        "interfaces.Standard.operations.create.inputs.port",
    ),
    (
        "short operation",
        "backup: scripts/backup.sh",
        "backup: scripts/backup2.sh",
        "node_templates",
        "app",
        "interfaces.Ops.operations.backup",
    ),
    (
        "artifact file",
        "file: scripts/install.sh",
        "file: scripts/setup.sh",
        "node_templates",
        "app",
        "artifacts.installer.file",
    ),
    (
        "artifact deploy path",
        "deploy_path: /opt/install.sh",
        "deploy_path: /opt/i.sh",
        "node_templates",
        "app",
        "artifacts.installer.deploy_path",
    ),
    (
        "artifact repository",
        "repository: docker_hub",
        "repository: other",
        "node_templates",
        "app",
        "artifacts.installer.repository",
    ),
    (
        "directives",
        "directives: []",
        "directives: [select]",
        "node_templates",
        "app",
        "directives[0]",
    ),
    (
        "template metadata",
        "owner: team-a",
        "owner: team-b",
        "node_templates",
        "app",
        "metadata.owner",
    ),
    (
        "requirement relationship",
        "relationship: my_rel",
        "relationship: tosca.relationships.HostedOn",
        "node_templates",
        "app",
        "requirements[0].host.relationship",
    ),
    (
        "relationship property",
        "token: abc",
        "token: xyz",
        "relationship_templates",
        "my_rel",
        "properties.credential.token",
    ),
    (
        "group members",
        "members: [db_host, app]",
        "members: [db_host]",
        "groups",
        "servers",
        "members[1]",
    ),
    (
        "policy targets",
        "targets: [servers]",
        "targets: [db_host]",
        "policies",
        "limits",
        "targets[0]",
    ),
    (
        "workflow step",
        "target: app",
        "target: db_host",
        "workflows",
        "deploy",
        "steps.step1.target",
    ),
    (
        "input default",
        "default: 2\n  node_templates",
        "default: 3\n  node_templates",
        "inputs",
        "cpus",
        "default",
    ),
    (
        "input definition",
        "type: integer\n      default: 2",
        "type: float\n      default: 2",
        "inputs",
        "cpus",
        "type",
    ),
    (
        "output value",
        "value: {get_attribute: [db_host, private_address]}",
        "value: {get_attribute: [db_host, public_address]}",
        "outputs",
        "url",
        "value.get_attribute[1]",
    ),
    (
        "substitution mappings",
        "extra: [app, extra]",
        "extra: [app, feature]",
        "topology_template",
        None,
        "substitution_mappings.capabilities.extra[1]",
    ),
    (
        "topology description",
        "description: the shop",
        "description: the new shop",
        "topology_template",
        None,
        "description",
    ),
    (
        "repository url",
        'url: "https://registry.example.com/"',
        'url: "https://other.example.com/"',
        "repositories",
        None,
        "docker_hub.url",
    ),
    (
        "document metadata",
        "template_name: shop",
        "template_name: store",
        "metadata",
        None,
        "template_name",
    ),
    (
        "artifact type",
        "file_ext: [sh]",
        "file_ext: [bash]",
        "artifact_types",
        "my.Script",
        "file_ext[0]",
    ),
    (
        "interface type",
        "description: take a backup",
        "description: take two backups",
        "interface_types",
        "my.Ops",
        "operations.backup.description",
    ),
    (
        "group type",
        "derived_from: tosca.groups.Root",
        "derived_from: tosca.groups.Root\n    description: g",
        "group_types",
        "my.Group",
        "description",
    ),
    (
        "node type capability",
        "extra: {type: my.Cap}",
        "extra: {type: my.Cap, occurrences: [0, 1]}",
        "node_types",
        "my.App",
        "capabilities.extra.occurrences",
    ),
]


@pytest.mark.parametrize("what,old,new,section,entity,path", EDITS, ids=[e[0] for e in EDITS])
def test_every_section_is_compared(what, old, new, section, entity, path):
    d = diff_of(edited(old, new))
    assert not d.is_same, what
    assert names_spot(d, section, entity, path), (what, spots(d))
    for f in d.fields:
        assert (f.old_location or "old.yaml:").startswith("old.yaml:")
        assert (f.new_location or "new.yaml:").startswith("new.yaml:")
        assert f.old_location or f.new_location
    text = str(d)
    assert "no changes" not in text
    assert json.loads(d.to_json())["same"] is False


def test_type_defaults_of_capability_and_policy_types_reach_the_values():
    d = diff_of(edited("level: {type: integer, default: 1}", "level: {type: integer, default: 5}"))
    # app writes level: 2 itself; the type's field change is listed under types
    assert [(t.kind, t.name, t.change) for t in d.types] == [("capability", "my.Cap", "changed")]
    assert any(
        f.section == "capability_types" and f.path == "properties.level.default" for f in d.fields
    )
    d = diff_of(edited("limit: {type: integer, default: 3}", "limit: {type: integer, default: 4}"))
    assert [t.name for t in d.types] == ["my.Policy"]


def test_imported_types_are_compared_with_their_file(tmp_path):
    (tmp_path / "types.yaml").write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n  my.T:\n    derived_from: tosca.nodes.Root\n"
        "    interfaces:\n      Standard:\n        operations:\n          create: a.sh\n"
    )
    main = tmp_path / "main.yaml"
    main.write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\nimports: [types.yaml]\n"
        "topology_template:\n  node_templates:\n    n: {type: my.T}\n"
    )
    old = toskit.load(main)
    (tmp_path / "types.yaml").write_text(
        (tmp_path / "types.yaml").read_text().replace("a.sh", "b.sh")
    )
    d = toskit.compare(old, toskit.load(main))
    (f,) = d.fields
    assert (f.section, f.entity, f.path, f.old, f.new) == (
        "node_types",
        "my.T",
        "interfaces.Standard.operations.create",
        "a.sh",
        "b.sh",
    )
    assert f.new_location == f"{tmp_path / 'types.yaml'}:8:19"


# -- renames -----------------------------------------------------------------------


def test_key_renamed_is_one_rename_everywhere():
    """A typo fixed: `relase` → `release` in the type and the template."""
    new = FULL.replace("relase", "release")
    d = diff_of(new)
    renames = {(f.section, f.entity, f.path, f.new_path) for f in d.fields if f.change == "renamed"}
    assert renames == {("node_types", "my.App", "properties.relase", "properties.release")}
    (v,) = d.values  # the template's value: one renamed row, not + release and - relase
    assert (v.entity, v.change, v.path, v.new_path, v.old, v.new) == (
        "app",
        "renamed",
        "relase",
        "release",
        "1.0",
        "1.0",
    )
    assert not [f for f in d.fields if f.change in ("added", "removed")]
    text = str(d)
    assert "> renamed properties.relase → properties.release" in text
    assert "> renamed relase → release: '1.0'" in text
    assert "+ release" not in text and "- relase" not in text
    data = json.loads(d.to_json())
    assert {(f["path"], f["new_path"]) for f in data["fields"] if f["change"] == "renamed"} == {
        ("properties.relase", "properties.release")
    }
    assert [(r["path"], r["new_path"]) for r in data["values"]] == [("relase", "release")]
    frame = d.to_frame()
    assert set(frame[frame.change == "renamed"].new_path) == {"properties.release", "release"}
    html = d._repr_html_()
    assert "renamed" in html and "properties.release" in html


def test_template_renamed_with_its_references():
    new = FULL.replace("db_host", "database_host")
    d = diff_of(new)
    (t,) = d.templates
    assert (t.change, t.old_name, t.name, t.kind) == ("renamed", "db_host", "database_host", "node")
    # what else changed: the references to it
    assert ("node_templates", "app", "requirements[0].host.node") in {
        (f.section, f.entity, f.path) for f in d.fields
    }
    assert ("groups", "servers", "members[0]") in {(f.section, f.entity, f.path) for f in d.fields}
    assert d.values == ()  # the body moved unchanged
    text = str(d)
    assert "> node renamed db_host → database_host" in text
    assert "+ node database_host" not in text and "- node db_host" not in text
    data = json.loads(d.to_json())
    assert data["templates"][0]["old_name"] == "db_host" and data["summary"]["renamed"] >= 1
    frame = d.to_frame()
    row = frame[(frame.section == "templates") & (frame.change == "renamed")].iloc[0]
    assert (row.old_entity, row.entity) == ("db_host", "database_host")
    assert "database_host" in d._repr_html_() and "db_host" in d._repr_html_()


def test_template_renamed_and_changed_lists_what_else_changed():
    new = FULL.replace("db_host", "database_host").replace("mem_size: 1 GB", "mem_size: 4 GB")
    d = diff_of(new)
    assert [(t.change, t.old_name, t.name) for t in d.templates] == [
        ("renamed", "db_host", "database_host")
    ]
    (v,) = d.values
    assert (v.entity, v.old_entity, v.path, v.old, v.new) == (
        "database_host",
        "db_host",
        "capabilities.host.properties.mem_size",
        "1 GB",
        "4 GB",
    )
    html = d._repr_html_()
    assert "renamed from" in html and "database_host" in html


def test_unrelated_templates_are_not_renames():
    new = FULL.replace(
        "    db_host:\n      type: tosca.nodes.Compute\n",
        "    web:\n      type: tosca.nodes.WebServer\n",
    )
    d = diff_of(new)
    assert {(t.change, t.name) for t in d.templates} >= {("added", "web"), ("removed", "db_host")}


def test_type_renamed():
    d = diff_of(FULL.replace("my.Data", "my.Datum"))
    assert [(t.change, t.old_name, t.name) for t in d.types] == [("renamed", "my.Data", "my.Datum")]
    assert "> data type renamed my.Data → my.Datum" in str(d)


def test_input_renamed():
    d = diff_of(FULL.replace("    cpus:\n      type: integer", "    cores:\n      type: integer"))
    (f,) = [f for f in d.fields if f.change == "renamed"]
    assert (f.section, f.old_entity, f.entity, f.path) == ("inputs", "cpus", "cores", "")


# -- locations ---------------------------------------------------------------------


def test_diagnostics_carry_file_line_column_of_their_side():
    new = edited("mem_size: 1 GB", "mem_size: lots")
    old = FULL.replace("        credential: {", "        bogus: 1\n        credential: {")
    d = diff_of(new, old)
    (introduced,) = d.introduced
    (fixed,) = d.fixed
    here, there = f"new.yaml:{at(new, 'lots')}", f"old.yaml:{at(old, 'bogus')}"
    assert f"{introduced.file}:{introduced.line}:{introduced.column}" == here
    assert f"{fixed.file}:{fixed.line}:{fixed.column}" == there
    text = str(d)
    assert f"+ {here}: error[" in text and f"- {there}: error[unknown-property]" in text
    data = json.loads(d.to_json())
    assert data["diagnostics"]["introduced"][0]["location"] == here
    assert data["diagnostics"]["fixed"][0]["location"] == there
    html = d._repr_html_()
    assert here in html and there in html


def test_values_carry_the_location_of_each_layer():
    text = FULL.replace(
        "x: {type: integer, default: 0}",
        "x: {type: integer, default: 0}\n      y: {type: integer, default: 7}",
    )
    text = text.replace(
        "relase: {type: string, required: false}",
        "relase: {type: string, required: false}\n      data: {type: my.Data, required: false}",
    )
    new = text.replace('relase: "1.0"', 'relase: "1.0"\n        data: {x: 1}')
    d = diff_of(new, text)
    rows = {v.path: v for v in d.values}
    assert rows["data.x"].new_source == "template" and rows["data.x"].new_location.startswith(
        "new.yaml:"
    )
    assert rows["data.y"].new_source == "default: my.Data"
    y_default = (
        f"new.yaml:{at(new, 'y: {type: integer, default: 7}', len('y: {type: integer, default: '))}"
    )
    assert rows["data.y"].new_location == y_default  # y's default, written in my.Data
    assert rows["data.x"].new_location == f"new.yaml:{at(new, 'data: {x: 1}', len('data: {x: '))}"
    frame = d.to_frame()
    assert set(frame[frame.section == "values"].new_location) == {
        rows["data.x"].new_location,
        y_default,
    }


def test_a_side_that_does_not_parse_is_named_not_compared():
    d = diff_of("tosca_definitions_version: [", FULL)
    assert d.not_compared and "old" in d.not_compared[0] or "new" in d.not_compared[0]
    assert not d.is_same
    assert "not compared:" in str(d)
    assert json.loads(d.to_json())["not_compared"]
    assert "not compared" in d._repr_html_()


DEPENDS = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  T:
    derived_from: tosca.nodes.Root
    properties:
      x: {type: integer, required: false}
      y: {type: integer, required: false}
topology_template:
  node_templates:
    a:
      type: T
      properties: {x: 1}
    b:
      type: T
      properties: {y: {get_property: [a, x]}}
    c:
      type: T
      properties: {y: 5}
"""


def test_a_template_whose_body_is_unchanged_still_shows_values_it_reads_elsewhere():
    """Bodies that are equal are skipped only when nothing they read can differ."""
    d = diff_of(DEPENDS.replace("{x: 1}", "{x: 2}"), DEPENDS)
    assert {(v.entity, v.path, v.old, v.new) for v in d.values} == {
        ("a", "x", 1, 2),
        ("b", "y", 1, 2),
    }
    assert d.unchanged_templates == 1  # c
    # a type default changes the values of templates whose body did not change
    typed = DEPENDS.replace("y: {type: integer, required: false}", "y: {type: integer, default: 3}")
    d = diff_of(typed.replace("default: 3", "default: 4"), typed)
    assert {(v.entity, v.path) for v in d.values} == {("a", "y")}
    # a target renamed away: the requirement of an unchanged body loses it
    req = DEPENDS.replace(
        "properties: {y: 5}", "properties: {y: 5}\n      requirements: [{dependency: a}]"
    )
    d = diff_of(req.replace("    a:\n", "    a2:\n").replace("[a, x]", "[a2, x]"), req)
    assert [(r.entity, r.old_target, r.new_target) for r in d.requirements] == [("c", "a", None)]


def test_counting_reads_no_location_and_reading_resolves_them_once():
    from toskit.compare.model import LazyLocation

    d = diff_of(edited("mem_size: 1 GB", "mem_size: 2 GB"))
    assert not d.is_same and d.summary()["values"] == 1 and repr(d)
    raw = object.__getattribute__(d, "values")
    assert isinstance(raw[0].new_location, LazyLocation)  # counting left them lazy
    assert d.values[0].new_location.startswith("new.yaml:")  # reading resolves them
    assert isinstance(object.__getattribute__(d, "values")[0].new_location, str)


def test_calls_compare_by_their_parts_not_their_text():
    """A call's arguments in another key order are the same call (#29 item 4 found it)."""
    text = """\
tosca_definitions_version: tosca_2_0
functions:
  ctx:
    signatures:
      - arguments: [{type: map}]
        result: {type: string}
node_types:
  T:
    properties:
      c: {type: string}
service_template:
  node_templates:
    n:
      type: T
      properties:
        c: {$ctx: [{env: staging, role: admin}]}
"""
    same = text.replace("{env: staging, role: admin}", "{role: admin, env: staging}")
    assert diff_of(same, text).is_same
    d = diff_of(text.replace("role: admin", "role: user"), text)
    assert [(v.path, v.change) for v in d.values] == [("c", "changed")]


def test_a_rename_neither_fixes_nor_introduces_the_problems_it_carries():
    broken = FULL.replace("mem_size: 1 GB", "mem_size: lots")
    assert any(d.code for d in toskit.loads(broken).diagnostics)
    d = diff_of(broken.replace("db_host", "database_host"), broken)
    assert [(t.change, t.old_name, t.name) for t in d.templates] == [
        ("renamed", "db_host", "database_host")
    ]
    assert d.diagnostics == ()
    # a rename with a problem of its own still shows it
    d = diff_of(
        FULL.replace("db_host", "database_host").replace("mem_size: 1 GB", "mem_size: lots")
    )
    assert [c.change for c in d.diagnostics] == ["introduced"]
