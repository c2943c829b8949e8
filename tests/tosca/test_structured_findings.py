"""Findings carry their structure (issue #28): ranges, subjects, related locations, fixes.

The three cases a new user met, each as one of a class:

* a did-you-mean with a tie (``host: cache_host`` beside ``lb_host``,
  ``db_host`` and ``web_host``) names every tied candidate and offers no
  fix, for node names, property names, keynames and type names alike;
* a typo beside a missing required property (``relase``/``release``) is two
  findings that name each other, and two rows of the property table;
* a missing property is located at the key that lacks it (``config:``), at
  the top level and inside data values.
"""

from __future__ import annotations

import textwrap

import pytest

import toskit
from toskit.diagnostics import Subject, suggest
from toskit.source import load_yaml
from toskit.source.subjects import subject_of

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"


def loads(text: str) -> toskit.ServiceTemplate:
    return toskit.loads(V13 + textwrap.dedent(text), name="t.yaml")


def underlined(d) -> str:
    """The text the finding's range covers (one line)."""
    assert d.line == d.end_line, d
    return d.source_line[d.column - 1 : d.end_column - 1]


# -- ties: no fix, every candidate named ---------------------------------------------


HOSTS = """
topology_template:
  node_templates:
    lb_host: {type: tosca.nodes.Compute}
    db_host: {type: tosca.nodes.Compute}
    web_host: {type: tosca.nodes.Compute}
    worker:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: TARGET
"""


def test_a_tied_requirement_target_names_every_candidate_and_offers_no_fix():
    st = loads(HOSTS.replace("TARGET", "cache_host"))
    (d,) = [d for d in st.diagnostics if d.code == "unknown-node"]
    assert d.hint == (
        "did you mean 'lb_host', 'db_host' or 'web_host'? "
        "('lb_host', 'db_host' and 'web_host' are equally close)"
    )
    assert d.fixes == ()
    assert underlined(d) == "cache_host"
    assert d.subject == Subject("node_template", "worker", (0, "host"), section="requirements")
    # The tie is not silently resolved anywhere: the requirement has no target.
    assert st.node_templates["worker"].requirement("host").target is None


def test_a_single_best_requirement_target_has_one_fix_on_the_name():
    st = loads(HOSTS.replace("TARGET", "web_hots"))
    (d,) = [d for d in st.diagnostics if d.code == "unknown-node"]
    assert d.hint == "did you mean 'web_host'?"
    (fix,) = d.fixes
    assert (fix.replacement, fix.line, fix.column, fix.end_line, fix.end_column) == (
        "web_host",
        d.line,
        d.column,
        d.end_line,
        d.end_column,
    )
    assert fix.title == "rename 'web_hots' to 'web_host'"


@pytest.mark.parametrize(
    ("word", "candidates", "expected"),
    [
        ("cache_host", ["lb_host", "db_host", "web_host"], ("lb_host", "db_host", "web_host")),
        ("prot", ["port", "host"], ("port",)),
        ("Port", ["port", "PORT"], ("port", "PORT")),  # two spellings, equally close
        ("hots", ["host", "hots2"], ("host", "hots2")),  # one swap, one insertion: a tie
        ("relase", ["release", "realm"], ("release",)),
    ],
)
def test_suggest_keeps_ties(word, candidates, expected):
    assert suggest(word, candidates).candidates == expected


def test_a_tied_unknown_property_offers_no_fix():
    st = loads(
        """
        node_types:
          W:
            derived_from: tosca.nodes.Root
            properties:
              port_a: {type: integer, required: false}
              port_b: {type: integer, required: false}
        topology_template:
          node_templates:
            w:
              type: W
              properties: {port_c: 1}
        """
    )
    (d,) = st.diagnostics
    assert d.code == "unknown-property" and d.fixes == ()
    assert "'port_a' and 'port_b' are equally close" in d.hint
    assert underlined(d) == "port_c"


def test_unknown_keyname_and_type_get_their_rename():
    st = loads(
        """
        topology_template:
          node_templates:
            n:
              type: tosca.nodes.Compte
              propertys: {}
        """
    )
    by_code = {d.code: d for d in st.diagnostics}
    keyname, type_ = by_code["unknown-keyname"], by_code["unknown-type"]
    assert [f.replacement for f in keyname.fixes] == ["properties"] and underlined(
        keyname
    ) == "propertys"
    assert [f.replacement for f in type_.fixes] == ["tosca.nodes.Compute"]
    assert underlined(type_) == "tosca.nodes.Compte"


# -- a typo beside a missing required property: two findings, two rows ---------------


RELEASE = """
node_types:
  App:
    derived_from: tosca.nodes.Root
    properties:
      release: {type: string}
      name: {type: string, default: app}
topology_template:
  node_templates:
    app:
      type: App
      properties:
        relase: "1.2"
"""


def test_a_typo_and_the_missing_property_are_two_findings_naming_each_other():
    st = loads(RELEASE)
    unknown = next(d for d in st.diagnostics if d.code == "unknown-property")
    missing = next(d for d in st.diagnostics if d.code == "missing-property")
    assert underlined(unknown) == "relase" and underlined(missing) == "properties"
    assert [f.replacement for f in unknown.fixes] == ["release"]
    assert missing.fixes == ()  # the rename is the typo's fix, not the missing one's
    assert unknown.related[0].line == missing.line and missing.related[0].line == unknown.line
    assert unknown.subject == Subject("node_template", "app", ("relase",))
    assert missing.subject == Subject("node_template", "app", ("release",))
    # The missing one's message describes the missing one only.
    assert "relase" not in missing.message and "required" not in unknown.message


def test_the_property_table_shows_both_rows():
    st = loads(RELEASE)
    table = st.node_templates["app"].property_table()
    states = {s.path: s for s in table.states}
    assert (states["relase"].status, states["release"].status) == ("unknown", "missing")
    assert states["relase"].suggestion == "release"
    assert states["release"].row is None and states["release"].type == "string"
    frame = table.to_frame().set_index("path")
    assert (
        frame.loc["relase", "status"] == "unknown" and frame.loc["release", "status"] == "missing"
    )
    # The rows carry their status and tuple path as declared fields.
    assert [(r.parts, r.status) for r in table.rows] == [
        (("name",), "valid"),
        (("relase",), "unknown"),
    ]


# -- a missing property sits on the key that lacks it --------------------------------


CONFIG = """
data_types:
  Config:
    derived_from: tosca.datatypes.Root
    properties:
      admin_user: {type: string}
      max_connections: {type: integer}
node_types:
  Db:
    derived_from: tosca.nodes.Root
    properties:
      config: {type: Config}
topology_template:
  node_templates:
    db:
      type: Db
      properties:
        config:
          max_connections: 10
"""


def test_a_missing_field_has_its_caret_on_the_parent_key():
    st = loads(CONFIG)
    (d,) = st.diagnostics
    assert d.code == "missing-property"
    assert d.subject == Subject("node_template", "db", ("config", "admin_user"))
    assert underlined(d) == "config"  # not `max_connections`, the next key
    assert str(d).splitlines()[-1].endswith("|         ^^^^^^")


def test_a_missing_property_without_properties_sits_on_the_template_key():
    st = loads(
        CONFIG.replace("      properties:\n        config:\n          max_connections: 10\n", "")
    )
    (d,) = st.diagnostics
    assert underlined(d) == "db"


# -- ranges and subjects ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("parts", "subject"),
    [
        (
            ("topology_template", "node_templates", "db", "properties", "connection", "port"),
            Subject("node_template", "db", ("connection", "port")),
        ),
        (
            ("service_template", "node_templates", "db", "requirements", 0, "host"),
            Subject("node_template", "db", (0, "host"), section="requirements"),
        ),
        (
            (
                "topology_template",
                "node_templates",
                "db",
                "capabilities",
                "host",
                "properties",
                "num_cpus",
            ),
            Subject(
                "node_template", "db", ("host", "properties", "num_cpus"), section="capabilities"
            ),
        ),
        (
            ("node_types", "my.T", "properties", "port", "default"),
            Subject("node_type", "my.T", ("port", "default")),
        ),
        (("data_types", "D"), Subject("data_type", "D")),
        (
            ("topology_template", "inputs", "x", "default"),
            Subject("input", "x", (), section="default"),
        ),
        (
            ("topology_template", "outputs", "o", "value"),
            Subject("output", "o", (), section="value"),
        ),
        (
            ("topology_template", "policies", 0, "p", "targets"),
            Subject("policy", "p", (), section="targets"),
        ),
        (
            ("topology_template", "groups", "g", "members"),
            Subject("group", "g", (), section="members"),
        ),
        (
            ("topology_template", "workflows", "w", "steps"),
            Subject("workflow", "w", (), section="steps"),
        ),
        (("imports", 1, "file"), Subject("import", None, (1, "file"))),
        (("description",), Subject("document", None, ("description",))),
        ((), Subject("document")),
    ],
)
def test_subject_of_reads_the_structured_path(parts, subject):
    assert subject_of(parts) == subject


@pytest.mark.parametrize(
    ("text", "parts", "at_key", "covered"),
    [
        ("a: plain text # c\n", ("a",), False, "plain text"),
        ("a: 'it''s'\n", ("a",), False, "'it''s'"),
        ('a: "x\\"y"\n', ("a",), False, '"x\\"y"'),
        ("a: [1, [2, 3]]\n", ("a",), False, "[1, [2, 3]]"),
        ("a: {b: 1, c: [x, y]}\n", ("a", "c"), False, "[x, y]"),
        ("a: {b: 1, c: [x, y]}\n", ("a", "c", 1), False, "y"),
        ("a: {b: 1, 'c d': 2}\n", ("a", "c d"), True, "'c d'"),
        ("a: *x\n" if False else "x: &x 1\na: *x\n", ("a",), False, "*x"),
        ("a: !!str 5\n", ("a",), False, "!!str 5"),
    ],
)
def test_one_line_spans(text, parts, at_key, covered):
    doc = load_yaml(text, name="s.yaml")
    d = doc.diagnostic("error", "type-mismatch", "x", parts, at_key=at_key)
    assert underlined(d) == covered


def test_block_spans_end_with_their_last_line():
    text = "a:\n  b: 1\n  c:\n    - x\n    - y  # note\nd: |\n  text\n  more\ne: 1\n"
    doc = load_yaml(text, name="s.yaml")
    block = doc.diagnostic("error", "type-mismatch", "x", ("a",))
    assert (block.line, block.column, block.end_line, block.end_column) == (
        2,
        3,
        5,
        8,
    )  # not the comment
    scalar = doc.diagnostic("error", "type-mismatch", "x", ("d",))
    assert (scalar.line, scalar.end_line, scalar.end_column) == (6, 8, 7)
    # str() underlines the first line to its end when the span goes on.
    assert str(block).splitlines()[-1] == "      |   ^^^^"


def test_a_duplicate_key_names_the_first_one():
    doc = load_yaml("a:\n  x: 1\n  y: 2\n  x: 3\n", name="d.yaml")
    (d,) = doc.diagnostics
    assert (d.line, d.column, d.end_column) == (4, 3, 4)
    (first,) = d.related
    assert (first.line, first.column, first.end_column) == (2, 3, 4)
    assert d.subject == Subject("document", None, ("a", "x")) and d.parts == ("a", "x")
    st = loads(
        "topology_template:\n  node_templates:\n    n:\n      type: tosca.nodes.Compute\n"
        "      type: tosca.nodes.Root\n"
    )
    (dup,) = [d for d in st.diagnostics if d.code == "duplicate-key"]
    assert dup.subject == Subject("node_template", "n", (), section="type")


def test_json_record_and_to_dict_carry_the_structure():
    from toskit.cli import diagnostic_record

    st = loads(RELEASE)
    unknown = next(d for d in st.diagnostics if d.code == "unknown-property")
    record = diagnostic_record(unknown)
    assert record["subject"] == {
        "kind": "node_template",
        "name": "app",
        "path": ["relase"],
        "section": None,
    }
    assert record["fixes"][0]["replacement"] == "release"
    assert (record["end_line"], record["end_column"]) == (unknown.end_line, unknown.end_column)
    assert (
        record["related"][0]["line"]
        == next(d for d in st.diagnostics if d.code == "missing-property").line
    )


def test_a_missing_property_names_where_it_is_declared():
    st = loads(CONFIG)
    (d,) = st.diagnostics
    (declared,) = d.related
    assert declared.label == "'admin_user' is declared here in Config"
    text = (V13 + textwrap.dedent(CONFIG)).splitlines()
    assert text[declared.line - 1][declared.column - 1 : declared.end_column - 1] == "admin_user"


def test_an_ambiguous_requirement_names_its_candidates():
    st = loads(
        """
        topology_template:
          node_templates:
            app:
              type: tosca.nodes.SoftwareComponent
              requirements:
                - host: tosca.nodes.Compute
            vm1: { type: tosca.nodes.Compute }
            vm2: { type: tosca.nodes.Compute }
        """
    )
    (problem,) = st.topology().ambiguous
    assert [r.label for r in problem.diagnostic.related] == [
        "candidate 'vm1' (taken)",
        "candidate 'vm2'",
    ]
    assert [(r.line, r.column, r.end_column) for r in problem.diagnostic.related] == [
        (9, 5, 8),
        (10, 5, 8),
    ]


def test_a_load_without_findings_computes_no_range_or_subject(monkeypatch):
    """Ranges and subjects cost nothing on the hot path: only a finding asks for them."""
    import toskit.source.document as document
    import toskit.tosca.values.check as check

    asked: list[str] = []

    def counting(name, real):
        def wrapper(*args, **kwargs):
            asked.append(name)
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(document, "span_end", counting("span_end", document.span_end))
    monkeypatch.setattr(document, "subject_of", counting("subject_of", document.subject_of))
    monkeypatch.setattr(check, "subject_of", counting("subject_of", check.subject_of))
    nodes = "".join(
        f"    n{i}:\n      type: App\n      properties: {{release: r{i}}}\n" for i in range(200)
    )
    st = loads(
        RELEASE.split("topology_template:")[0] + "topology_template:\n  node_templates:\n" + nodes
    )
    assert st.diagnostics == [] and len(st.node_templates) == 200
    for node in st.node_templates.values():
        node.property_table()
    assert asked == []
    # ...and a finding does ask.
    loads(RELEASE)
    assert "span_end" in asked and "subject_of" in asked


def test_a_value_taken_from_a_type_default_names_the_template_that_took_it():
    st = loads(
        """
        node_types:
          W:
            derived_from: tosca.nodes.Root
            properties:
              port: {type: integer, default: 99, constraints: [{in_range: [1, 10]}]}
        topology_template:
          node_templates:
            w:
              type: W
              properties: {}
        """
    )
    on_template = next(d for d in st.diagnostics if d.subject.kind == "node_template")
    assert underlined(on_template) == "99"  # located where the value is written
    (took,) = on_template.related
    assert took.label == "node template 'w' takes this value from default: W"
    on_type = next(d for d in st.diagnostics if d.subject.kind == "node_type")
    assert on_type.related == ()  # the default's own check: nothing elsewhere
