"""yaml-syntax diagnostics: positions and hints, the same with both parsers."""

import pytest

from toskit.conditions.examples import (
    SEED_PROSE_AS_COMMENTS,
    SEED_ROLES_AS_WRITTEN,
    SEED_ROLES_FIXED,
)
from toskit.source import load_yaml

# The roles seed (004) as written: the first rule's `then:`/`else:` are
# indented two spaces deeper than `condition:` (spec/conditions.md §9).
ROLES_SEED = SEED_ROLES_AS_WRITTEN

# The TOSCA seed's (001) "Nested Merging and Inheritance" example as written.
NESTED_MERGING_SEED = """\
tosca_definitions_version: tosca_simple_unfurl_1_0_0
data_types:

  datatypes.Data1:
    properties:
      prop1:
        default: prop1_default
      prop2:
        default: prop2_default
      prop3:
        default: prop3_default

node_types:

  nodes.MyApp:
    properties:
      data2:
        type: datatypes.Data1
        default:
          prop2: prop2_override

  nodes.DerivedFromMyApp:
    derived_from: nodes.MyApp
    properties:
      data2:
        type: datatypes.Data1
        default:
          prop3: prop3_override

topology_template
  node_templates:

    my_app:
      type: nodes.DerivedFromMyApp
"""


def only(doc):
    assert doc.value is None
    (diag,) = doc.diagnostics
    assert (diag.code, diag.severity) == ("yaml-syntax", "error")
    return diag


def test_roles_seed_then_indented_deeper(parser):
    diag = only(load_yaml(ROLES_SEED, name="openstack.yaml", parser=parser))
    assert (diag.file, diag.line, diag.column) == ("openstack.yaml", 7, 11)
    assert diag.hint == (
        "'then:' is indented deeper than 'condition:' (line 6); "
        "keys of the same mapping must start in the same column"
    )
    assert diag.source_line == "          then:"


def test_roles_seed_with_the_seed_line_numbering(parser):
    text = SEED_PROSE_AS_COMMENTS + ROLES_SEED
    diag = only(load_yaml(text, parser=parser))
    assert (diag.line, diag.column) == (11, 11)
    assert "'condition:' (line 10)" in diag.hint


def test_roles_seed_fixed_loads(parser):
    doc = load_yaml(SEED_ROLES_FIXED, parser=parser)
    assert doc.diagnostics == []
    rule = doc.value["roles_metadata"]["controller"]["conditions"][0]
    assert set(rule) == {"condition", "then", "else"}


def test_hint_names_whatever_keys_are_involved(parser):
    diag = only(load_yaml("outer:\n  alpha: 1\n    beta: 2\n", parser=parser))
    assert (diag.line, diag.column) == (3, 9)  # PyYAML reads "1 beta" as alpha's value
    assert "'beta:' is indented deeper than 'alpha:' (line 2)" in diag.hint


def test_hint_for_a_key_indented_deeper_after_a_nested_mapping(parser):
    diag = only(load_yaml("a:\n  b: 1\n c: 2\n", parser=parser))
    assert (diag.line, diag.column) == (3, 2)
    assert "'c:' is indented deeper than 'a:' (line 1)" in diag.hint


def test_tosca_seed_topology_template_missing_colon(parser):
    diag = only(load_yaml(NESTED_MERGING_SEED, name="seed.yaml", parser=parser))
    assert (diag.line, diag.column) == (31, 17)  # the ':' of node_templates
    assert diag.hint == (
        "a key on the line above is missing its ':' — write 'topology_template:' (line 30)"
    )


def test_tosca_seed_with_the_colon_loads(parser):
    fixed = NESTED_MERGING_SEED.replace("topology_template\n", "topology_template:\n")
    doc = load_yaml(fixed, parser=parser)
    assert doc.diagnostics == []
    assert doc.value["topology_template"]["node_templates"]["my_app"] == {
        "type": "nodes.DerivedFromMyApp"
    }


def test_missing_colon_same_indentation(parser):
    diag = only(load_yaml("name\nport: 1\n", parser=parser))
    assert (diag.line, diag.column) == (2, 5)
    assert diag.hint == "a key on the line above is missing its ':' — write 'name:' (line 1)"


@pytest.mark.parametrize(
    ("text", "line", "column", "hint_fragment"),
    [
        ("a:\n\tb: 1\n", 2, 1, "spaces, not tabs"),
        ('a: "abc\nb: 2\n', 3, 1, "quoted at line 1, column 4 is never closed"),
        ("a: 'abc\n", 2, 1, "quoted at line 1, column 4 is never closed"),
        ("a: [1, 2\nb: 3\n", 2, 2, "'[' at line 1, column 4 is not closed"),
        ("a: {x: 1\nb: 3\n", 2, 2, "'{' at line 1, column 4 is not closed"),
    ],
    ids=["tab", "double-quote", "single-quote", "bracket", "brace"],
)
def test_common_mistake_hints(parser, text, line, column, hint_fragment):
    diag = only(load_yaml(text, parser=parser))
    assert (diag.line, diag.column) == (line, column)
    assert hint_fragment in diag.hint


@pytest.mark.parametrize(
    ("text", "line", "column", "hint"),
    [
        (
            "msg: Error: failed\n",
            1,
            11,
            "the value of 'msg' contains ': ', which YAML reads as another key; "
            'quote the value: msg: "Error: failed"',
        ),
        (
            "a:\n  - x\n  y: 1\n",
            3,
            3,
            "the list that starts at line 2 has its '- ' items in this column, and this "
            "line is not one: start it with '- ', or move it to the column of the key "
            "that holds the list",
        ),
        (
            "a: 1\n b: 2\n",
            2,
            3,
            "'b:' is indented deeper than 'a:' (line 1), which already has a value; "
            "keys of the same mapping must start in the same column",
        ),
    ],
    ids=["colon-in-value", "key-among-items", "key-under-scalar"],
)
def test_more_hints(parser, text, line, column, hint):
    diag = only(load_yaml(text, parser=parser))
    assert (diag.line, diag.column, diag.hint) == (line, column, hint)


def test_colon_in_value_with_double_quotes_suggests_single_quotes(parser):
    diag = only(load_yaml('k: say "x": y\n', parser=parser))
    assert diag.hint.endswith("""quote the value: k: 'say "x": y'""")


def test_list_item_among_keys(parser):
    diag = only(load_yaml("a: 1\n- b\n", parser=parser))
    assert (diag.line, diag.column) == (2, 1)
    assert diag.hint.startswith(
        "a '- ' list item cannot stand among the keys of the mapping that starts at line 1"
    )


def test_error_without_a_known_pattern_is_still_located(parser):
    diag = only(load_yaml("a: 1\n]\n", parser=parser))
    assert (diag.line, diag.column, diag.hint) == (2, 1, None)


def test_non_printable_character(parser):
    diag = only(load_yaml("a: ok\nb: x\x01y\n", parser=parser))
    assert (diag.line, diag.column) == (2, 5)
    assert "U+0001" in diag.message


def test_non_printable_character_after_other_line_breaks(parser):
    diag = only(load_yaml("a: 1\u2028b: 2\r\nc: x\x07\n", parser=parser))
    assert (diag.line, diag.column) == (3, 5)


def test_lone_surrogate_is_a_diagnostic_not_a_crash(parser):
    diag = only(load_yaml("a: \ud800\n", parser=parser))
    assert (diag.line, diag.column) == (1, 4)


def test_message_names_the_context_position(parser):
    diag = only(load_yaml(ROLES_SEED, parser=parser))
    assert "line 6, column 9" in diag.message


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("a: [1, 2", 1, 9),
        ("a: [1, 2\n", 2, 1),
        ('a: "x', 1, 6),
        ("é: [1\r\nb", 2, 2),
        ("[", 1, 2),
    ],
    ids=["no-final-break", "final-break", "quote", "crlf", "bracket-only"],
)
def test_end_of_text_errors_are_at_the_same_place_with_both_parsers(parser, text, line, column):
    diag = only(load_yaml(text, parser=parser))
    assert (diag.line, diag.column) == (line, column)
