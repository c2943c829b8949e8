"""Mappings, sequences, keys, aliases, merge keys, tags and documents."""

import pytest

from toskit.source import FrozenMap, load_yaml


def codes(doc):
    return [d.code for d in doc.diagnostics]


def test_plain_structure(parser):
    doc = load_yaml("a:\n  - 1\n  - {b: [x, y]}\nc: text\n", parser=parser)
    assert doc.value == {"a": [1, {"b": ["x", "y"]}], "c": "text"}
    assert doc.diagnostics == []


def test_empty_document_is_none_without_diagnostics(parser):
    for text in ("", "# only a comment\n", "---\n"):
        doc = load_yaml(text, parser=parser)
        assert doc.value is None
        assert doc.diagnostics == []


def test_duplicate_key_is_reported_at_the_second_key_and_first_wins(parser):
    doc = load_yaml("name: a\nport: 1\nname: b\n", parser=parser)
    assert doc.value == {"name": "a", "port": 1}
    (diag,) = doc.diagnostics
    assert (diag.code, diag.severity, diag.line, diag.column) == ("duplicate-key", "error", 3, 1)
    assert "'name'" in diag.message and "line 1" in diag.message


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        ("1: a\ntrue: b\n", "1", "true"),
        ("1: a\n1.0: b\n", "1", "1.0"),
        ("0x1F: a\n31: b\n", "31", "31"),
        ("false: a\n0: b\n", "false", "0"),
        ("~: a\nnull: b\n", "null", "null"),
    ],
    ids=["1-vs-true", "1-vs-1.0", "hex-vs-decimal", "false-vs-0", "tilde-vs-null"],
)
def test_keys_equal_as_python_values_are_duplicates(parser, text, first, second):
    doc = load_yaml(text, parser=parser)
    assert codes(doc) == ["duplicate-key"]
    assert doc.diagnostics[0].line == 2
    assert f"'{second}'" in doc.diagnostics[0].message
    assert len(doc.value) == 1


def test_duplicate_does_not_stop_loading_and_all_are_reported(parser):
    doc = load_yaml("a: 1\na: 2\nb: {x: 1, x: 2}\n", parser=parser)
    assert codes(doc) == ["duplicate-key", "duplicate-key"]
    assert [d.path for d in doc.diagnostics] == ["a", "b.x"]
    assert doc.value == {"a": 1, "b": {"x": 1}}


def test_complex_keys_are_frozen_and_equal_to_their_plain_counterparts(parser):
    doc = load_yaml("? {k: v, n: [1, 2]}\n: map\n? [a, [b]]\n: seq\n", parser=parser)
    keys = list(doc.value)
    assert isinstance(keys[0], FrozenMap)
    assert keys[0] == {"k": "v", "n": (1, 2)}
    assert {"k": "v", "n": (1, 2)} == keys[0]  # noqa: SIM300 - the reflected comparison
    assert keys[0] != {"k": "other", "n": (1, 2)}
    assert keys[1] == ("a", ("b",))
    assert doc.value[FrozenMap({"k": "v", "n": (1, 2)})] == "map"
    assert hash(keys[0]) == hash(FrozenMap({"n": (1, 2), "k": "v"}))


def test_alias_to_collection_used_as_key_is_frozen(parser):
    doc = load_yaml("a: &k {x: [1]}\n*k : value\n", parser=parser)
    assert doc.value[FrozenMap({"x": (1,)})] == "value"
    assert doc.value["a"] == {"x": [1]}  # the anchored value itself stays plain


def test_aliases_share_the_anchored_value(parser):
    doc = load_yaml("a: &x {k: [1, 2]}\nb: *x\nc: &s text\nd: *s\n", parser=parser)
    assert doc.value["b"] == {"k": [1, 2]}
    assert doc.value["d"] == "text"


def test_merge_keys(parser):
    text = (
        "base: &base {a: 1, b: 2}\n"
        "other: &other {b: 20, c: 30}\n"
        "one:\n  <<: *base\n  b: 3\n"
        "list:\n  <<: [*base, *other]\n"
        "inline:\n  <<: {z: 9}\n  y: 8\n"
    )
    doc = load_yaml(text, parser=parser)
    assert doc.diagnostics == []
    assert doc.value["one"] == {"a": 1, "b": 3}
    assert doc.value["list"] == {"a": 1, "b": 2, "c": 30}  # earlier sources win
    assert doc.value["inline"] == {"z": 9, "y": 8}


def test_merged_keys_are_never_duplicates_but_explicit_ones_are(parser):
    doc = load_yaml("b: &b {x: 1}\nm:\n  <<: *b\n  x: 2\n  y: 1\n  y: 2\n", parser=parser)
    assert doc.value["m"] == {"x": 2, "y": 1}
    assert codes(doc) == ["duplicate-key"]
    assert doc.diagnostics[0].line == 6


def test_quoted_merge_key_is_an_ordinary_key(parser):
    doc = load_yaml("'<<': {a: 1}\n", parser=parser)
    assert doc.value == {"<<": {"a": 1}}


def test_plain_double_angle_value_is_a_string(parser):
    assert load_yaml("a: <<\nb: [<<]\n", parser=parser).value == {"a": "<<", "b": ["<<"]}


def test_merge_of_a_scalar_is_an_error(parser):
    doc = load_yaml("m:\n  <<: 1\n", parser=parser)
    assert doc.value is None
    (diag,) = doc.diagnostics
    assert (diag.code, diag.line, diag.column) == ("yaml-syntax", 2, 7)
    assert diag.hint


@pytest.mark.parametrize(
    "text",
    [
        "a: !!python/object/apply:os.system ['echo hi']\n",
        "a: !!python/name:os.system\n",
        "a: !!python/object:collections.OrderedDict {}\n",
        "a: !custom 1\n",
        "a: !!set {x: null}\n",
        "a: !!binary aGVsbG8=\n",
        "a: !!seq {x: 1}\n",
        "a: !!map [1]\n",
        "a: !<tag:example.com,2000:thing> x\n",
    ],
    ids=[
        "python-apply", "python-name", "python-object", "local-tag", "set", "binary",
        "seq-tag-on-map", "map-tag-on-seq", "verbatim-tag",
    ],
)  # fmt: skip
def test_tags_are_refused_and_nothing_is_constructed(parser, text):
    doc = load_yaml(text, parser=parser)
    assert doc.value is None
    (diag,) = doc.diagnostics
    assert (diag.code, diag.line, diag.column) == ("yaml-syntax", 1, 4)
    assert "not allowed" in diag.message


def test_all_tag_errors_are_reported(parser):
    doc = load_yaml("a: !x 1\nb: !y 2\n", parser=parser)
    assert [(d.code, d.line) for d in doc.diagnostics] == [("yaml-syntax", 1), ("yaml-syntax", 2)]


def test_core_collection_tags_are_allowed(parser):
    doc = load_yaml("a: !!map {x: 1}\nb: !!seq [1]\nc: ! {y: 2}\n", parser=parser)
    assert doc.diagnostics == []
    assert doc.value == {"a": {"x": 1}, "b": [1], "c": {"y": 2}}


def test_second_document_is_an_error(parser):
    doc = load_yaml("a: 1\n---\nb: 2\n", parser=parser)
    assert doc.value is None
    (diag,) = doc.diagnostics
    assert (diag.code, diag.line, diag.column) == ("yaml-syntax", 2, 1)


def test_explicit_document_markers_are_fine(parser):
    assert load_yaml("---\na: 1\n...\n", parser=parser).value == {"a": 1}


def test_undefined_alias(parser):
    doc = load_yaml("a: *nowhere\n", parser=parser)
    assert doc.value is None
    (diag,) = doc.diagnostics
    assert (diag.code, diag.line, diag.column) == ("yaml-syntax", 1, 4)
    assert "nowhere" in diag.message


def test_recursive_alias_is_refused(parser):
    doc = load_yaml("a: &r\n  b: *r\n", parser=parser)
    assert doc.value is None
    assert codes(doc) == ["yaml-syntax"]
    assert (doc.diagnostics[0].line, doc.diagnostics[0].column) == (2, 6)


def test_anchor_may_be_redefined(parser):
    doc = load_yaml("a: &x 1\nb: &x 2\nc: *x\n", parser=parser)
    assert doc.value == {"a": 1, "b": 2, "c": 2}


def test_non_string_input_is_a_toskit_error():
    from toskit import ToskitError

    with pytest.raises(ToskitError, match="expected YAML text"):
        load_yaml(b"a: 1")  # type: ignore[arg-type]


def test_unknown_limit_keyword_says_what_was_meant():
    with pytest.raises(TypeError, match="did you mean 'max_depth'"):
        load_yaml("a: 1", max_dept=3)


def test_bad_limit_value():
    with pytest.raises(ValueError, match="positive integer"):
        load_yaml("a: 1", max_depth=0)


def test_unknown_parser_name():
    with pytest.raises(ValueError, match="parser must be"):
        load_yaml("a: 1", parser="turbo")  # "fast" is rapidyaml (toskit.source.fast)


def test_pairs_and_omap_stay_lists_of_one_key_mappings(parser):
    # Fuel's release file writes `bind: !!pairs` this way.
    text = 'bind: !!pairs\n  - "cluster:net_provider": neutron\n  - "cluster:x": 1\no: !!omap [a: 1, b: 2]\n'
    doc = load_yaml(text, parser=parser)
    assert doc.diagnostics == []
    assert doc.value == {
        "bind": [{"cluster:net_provider": "neutron"}, {"cluster:x": 1}],
        "o": [{"a": 1}, {"b": 2}],
    }


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("p: !!pairs [1, 2]\n", "yaml-syntax"),
        ("p: !!pairs [{a: 1, b: 2}]\n", "yaml-syntax"),
        ("p: !!omap [a: 1, a: 2]\n", "duplicate-key"),
    ],
    ids=["scalars", "two-keys", "omap-duplicate"],
)
def test_malformed_pairs(parser, text, code):
    doc = load_yaml(text, parser=parser)
    assert [(d.code, d.line, d.column) for d in doc.diagnostics] == [(code, 1, 4)]


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("a:\n  b: [1, {x: 1, x: 2}]\n", "a.b[1].x"),
        ("l: [1, !foo 2]\n", "l[1]"),
        ("m:\n  <<: 1\n", "m.<<"),
        ("? {a: !x 1}\n: v\n", ""),  # inside a complex key: no path to name
    ],
    ids=["duplicate", "tag", "merge", "in-complex-key"],
)
def test_loader_diagnostics_carry_the_path(parser, text, path):
    (diag,) = load_yaml(text, parser=parser).diagnostics
    assert diag.path == path
