"""Diagnostic rendering and the helpers of toskit.diagnostics."""

import pytest

from toskit.diagnostics import (
    Diagnostic,
    closest,
    did_you_mean,
    format_path,
    has_errors,
    sort_diagnostics,
)


def test_str_with_hint_and_caret():
    diag = Diagnostic(
        "error",
        "unknown-property",
        "node template 'db': unknown property 'trait'",
        path="topology_template.node_templates.db.properties.trait",
        file="service.yaml",
        line=12,
        column=9,
        hint="did you mean 'traits'?",
        source_line="        trait: x",
    )
    assert str(diag) == (
        "service.yaml:12:9: error[unknown-property]: node template 'db': unknown property 'trait'\n"
        "  hint: did you mean 'traits'?\n"
        "   12 |         trait: x\n"
        "      |         ^"
    )


def test_str_without_location_or_hint_is_one_line():
    diag = Diagnostic("warning", "missing-version", "no tosca_definitions_version")
    assert str(diag) == "<unknown>: warning[missing-version]: no tosca_definitions_version"


def test_str_with_line_but_no_column_has_no_caret():
    diag = Diagnostic("info", "x", "m", file="f.yaml", line=3, source_line="a: 1")
    assert str(diag).splitlines() == ["f.yaml:3: info[x]: m", "    3 | a: 1"]


def test_caret_keeps_tabs_so_it_lines_up():
    diag = Diagnostic(
        "error", "yaml-syntax", "m", file="f", line=2, column=3, source_line="\t\tb: 1"
    )
    assert str(diag).splitlines()[-1] == "      | \t\t^"


def test_caret_under_wide_line_numbers():
    diag = Diagnostic("error", "c", "m", file="f", line=123456, column=2, source_line="ab")
    lines = str(diag).splitlines()
    assert lines[1] == "123456 | ab"
    assert lines[2].index("^") == lines[1].index("b")


def test_source_line_is_not_part_of_equality():
    a = Diagnostic("error", "c", "m", file="f", line=1, column=1, source_line="x")
    b = Diagnostic("error", "c", "m", file="f", line=1, column=1, source_line="y")
    assert a == b


def test_severity_is_checked():
    with pytest.raises(ValueError, match="severity"):
        Diagnostic("fatal", "c", "m")


def test_location_and_headline():
    diag = Diagnostic("error", "c", "m", file="f.yaml", line=4, column=2)
    assert diag.location == "f.yaml:4:2"
    assert diag.headline() == "f.yaml:4:2: error[c]: m"
    assert diag.is_error


def test_with_location_copies():
    diag = Diagnostic("error", "c", "m", hint="h")
    moved = diag.with_location("g.yaml", 7, 3, "text")
    assert (moved.file, moved.line, moved.column, moved.hint) == ("g.yaml", 7, 3, "h")
    assert moved.source_line == "text"
    assert diag.file is None


def test_has_errors():
    assert not has_errors([Diagnostic("warning", "c", "m")])
    assert has_errors([Diagnostic("warning", "c", "m"), Diagnostic("error", "c", "m")])


def test_sort_by_file_line_column_unknown_last():
    a = Diagnostic("error", "a", "m", file="x", line=2, column=1)
    b = Diagnostic("error", "b", "m", file="x", line=1, column=5)
    c = Diagnostic("error", "c", "m", file="x")
    d = Diagnostic("error", "d", "m", file="w", line=9)
    assert [x.code for x in sort_diagnostics([a, b, c, d])] == ["d", "b", "a", "c"]


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ((), ""),
        (("a",), "a"),
        (("a", "ports", 1, "x"), "a.ports[1].x"),
        ((0, "b"), "[0].b"),
        (("a", True), "a.True"),
    ],
    ids=["empty", "one", "mixed", "leading-index", "bool-is-a-key"],
)
def test_format_path(parts, expected):
    assert format_path(parts) == expected


@pytest.mark.parametrize(
    ("word", "candidates", "expected"),
    [
        ("trait", ["traits", "name"], "traits"),
        ("PORT", ["port", "host"], "port"),
        ("nodes.DBMS", ["tosca.nodes.DBMS", "tosca.nodes.Root"], "tosca.nodes.DBMS"),
        ("cloudify.nodes.DBMS", ["tosca.nodes.DBMS"], "tosca.nodes.DBMS"),
        ("zzz", ["port", "host"], None),
        ("", ["a"], None),
        ("port", ["port"], None),
    ],
    ids=["spelling", "case", "tail", "foreign-prefix", "nothing-close", "empty", "self"],
)
def test_closest(word, candidates, expected):
    assert closest(word, candidates) == expected


def test_did_you_mean():
    assert did_you_mean("trait", ["traits"]) == "did you mean 'traits'?"
    assert did_you_mean("zzz", ["traits"]) is None


# -- structured paths (issue 15): the tuple is kept, the string derived ------------


def test_a_tuple_path_is_kept_as_parts_and_the_string_derived():
    diag = Diagnostic("error", "x", "m", ("node_templates", "db", "properties", "ports", 1))
    assert diag.parts == ("node_templates", "db", "properties", "ports", 1)
    assert diag.path == "node_templates.db.properties.ports[1]"
    by_keyword = Diagnostic("error", "x", "m", parts=["a", 0, "b"])
    assert (by_keyword.parts, by_keyword.path) == (("a", 0, "b"), "a[0].b")


def test_a_string_path_is_kept_as_written_and_parts_do_not_change_equality():
    schema_style = Diagnostic("error", "x", "m", ".ports[0].port")
    assert schema_style.path == ".ports[0].port" and schema_style.parts is None
    assert Diagnostic("error", "x", "m", ("a", 1)) == Diagnostic("error", "x", "m", "a[1]")


def test_a_path_of_another_type_is_refused():
    with pytest.raises(TypeError, match="path must be a str or a tuple"):
        Diagnostic("error", "x", "m", 3)  # type: ignore[arg-type]


def test_replace_keeps_the_structured_path():
    from dataclasses import replace

    diag = replace(Diagnostic("error", "x", "m", ("a", "b")), message="n")
    assert (diag.parts, diag.path, diag.message) == (("a", "b"), "a.b", "n")


def test_loaded_template_diagnostics_carry_parts():
    import toskit

    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n  T:\n    properties:\n      ports: {type: list, entry_schema: integer}\n"
        "topology_template:\n  node_templates:\n"
        "    n: {type: T, properties: {ports: [1, x], bogus: 2}}\n"
    )
    found = {d.code: d for d in st.diagnostics}
    mismatch = found["type-mismatch"]
    assert mismatch.parts == ("topology_template", "node_templates", "n", "properties", "ports", 1)
    assert mismatch.path == format_path(mismatch.parts)
    assert found["unknown-property"].parts[-1] == "bogus"


# ---- cap_per_code (#19: 20,000 copies of one mistake) -------------------------


def _at(line: int, code: str = "x", severity: str = "error") -> Diagnostic:
    return Diagnostic(severity, code, f"{code} at {line}", file="f", line=line, column=1)


def test_cap_per_code_lists_the_first_and_one_summary_where_the_rest_began():
    from toskit.diagnostics import cap_per_code

    diags = [_at(i, "x" if i % 2 else "y") for i in range(1, 301)]
    out = cap_per_code(diags, 10)
    assert [d.line for d in out if not d.omitted] == list(range(1, 21))
    summaries = [d for d in out if d.omitted]
    assert [(d.code, d.omitted, d.line) for d in summaries] == [("x", 140, 21), ("y", 140, 22)]
    assert summaries[0].message == (
        "140 more 'x' diagnostics not shown (only the first 10 of each code in a file are listed)"
    )
    assert "max_per_code=None" in summaries[0].hint and summaries[0].stands_for == 140
    assert sort_diagnostics(out) == out  # source order kept
    assert cap_per_code(diags, None) == diags and cap_per_code(diags, 150) == diags


def test_cap_per_code_counts_each_file_on_its_own():
    """Issue #19: repeated diagnostics of one kind are capped per file."""
    from toskit.diagnostics import cap_per_code

    def at(file: str, line: int) -> Diagnostic:
        return Diagnostic("error", "x", f"x at {line}", file=file, line=line, column=1)

    diags = [at("a.yaml", i) for i in range(1, 9)] + [at("b.yaml", i) for i in range(1, 9)]
    assert cap_per_code(diags, 8) == diags  # 16 of one code, but 8 in each file
    out = cap_per_code(diags, 5)
    assert [(d.file, d.omitted) for d in out if d.omitted] == [("a.yaml", 3), ("b.yaml", 3)]
    assert [(d.file, d.line) for d in out if not d.omitted] == [
        *[("a.yaml", i) for i in range(1, 6)],
        *[("b.yaml", i) for i in range(1, 6)],
    ]


def test_cap_per_code_keeps_counts_and_severities_truthful():
    from toskit.diagnostics import cap_per_code, count_by_severity

    diags = [_at(i, "x", "warning") for i in range(1, 151)] + [_at(200, "x", "error")]
    out = cap_per_code(diags, 100)
    assert (
        count_by_severity(out)
        == count_by_severity(diags)
        == {"error": 1, "warning": 150, "info": 0}
    )
    # one summary per severity among the hidden ones: the error stays an error
    assert [(d.severity, d.omitted) for d in out if d.omitted] == [("warning", 50), ("error", 1)]
    assert has_errors(out)
    only_warnings = cap_per_code(diags[:150], 100)
    assert not has_errors(only_warnings) and only_warnings[-1].severity == "warning"


def test_capping_again_folds_the_earlier_summaries():
    from toskit.diagnostics import cap_per_code, count_by_severity

    diags = [_at(i) for i in range(1, 1001)]
    once = cap_per_code(diags, 100)
    assert cap_per_code(once, 100) == once  # idempotent
    twice = cap_per_code(once, 10)
    assert twice == cap_per_code(diags, 10)
    assert [d.omitted for d in twice] == [0] * 10 + [990]
    assert count_by_severity(twice)["error"] == 1000


def test_a_summary_is_a_diagnostic_that_says_what_it_stands_for():
    d = Diagnostic("error", "x", "m", omitted=5)
    assert d.stands_for == 5 and Diagnostic("error", "x", "m").stands_for == 1
    assert d != Diagnostic("error", "x", "m")
    assert "omitted" not in repr(Diagnostic("error", "x", "m"))


def test_check_max_per_code():
    from toskit.diagnostics import check_max_per_code
    from toskit.errors import ToskitError

    assert check_max_per_code(None) is None and check_max_per_code(3) == 3
    for bad in (0, -2, False, "3", 1.0):
        with pytest.raises(ToskitError, match="max_per_code"):
            check_max_per_code(bad)


# ---- structured findings (issue #28) ----


def test_suggestion_hint_names_every_tie_and_why():
    from toskit.diagnostics import Suggestion, suggest

    single = suggest("pasword", ["password", "passphrase"])
    assert (single.best, single.is_tie, single.hint()) == (
        "password",
        False,
        "did you mean 'password'?",
    )
    tie = suggest("cache_host", ["lb_host", "db_host", "web_host", "unrelated_thing"])
    assert tie.best is None and tie.is_tie
    assert tie.candidates == ("lb_host", "db_host", "web_host")
    many = Suggestion(tuple(f"n{i}" for i in range(9)))
    assert many.hint().endswith("'n5' and 3 more are equally close)")
    assert suggest("zzzz", ["port", "host"]) is None
    # A very long word keeps closest()'s one answer (no quadratic tie check).
    long_word = "x" * 65 + "a"
    candidates = ["x" * 65 + "b", "x" * 65 + "c"]
    assert suggest(long_word, candidates).candidates == (closest(long_word, candidates),)


def test_did_you_mean_never_picks_one_of_a_tie():
    assert did_you_mean("cache_host", ["lb_host", "db_host", "web_host"]) == (
        "did you mean 'lb_host', 'db_host' or 'web_host'? "
        "('lb_host', 'db_host' and 'web_host' are equally close)"
    )


def test_edit_distance_counts_a_swap_as_one():
    from toskit.diagnostics import _edits

    assert _edits("prot", "port", 10) == 1
    assert _edits("cache", "web", 10) == 5
    assert _edits("abc", "abcdefgh", 2) == 3  # past the bound: bound + 1


def test_to_dict_has_every_field_and_str_underlines_the_span():
    from toskit.diagnostics import Fix, Related, Subject

    d = Diagnostic(
        "error",
        "unknown-property",
        "unknown property 'prot'",
        ("a", "prot"),
        file="f.yaml",
        line=2,
        column=3,
        end_line=2,
        end_column=7,
        source_line="  prot: 1",
        subject=Subject("node_template", "db", ("prot",)),
        related=[Related("declared", "f.yaml", 1, 1, 1, 2)],
        fixes=[Fix("rename 'prot' to 'port'", "port", "f.yaml", 2, 3, 2, 7)],
    )
    record = d.to_dict()
    assert list(record) == [
        "severity",
        "code",
        "message",
        "path",
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "hint",
        "subject",
        "related",
        "fixes",
    ]
    assert record["subject"] == {
        "kind": "node_template",
        "name": "db",
        "path": ["prot"],
        "section": None,
    }
    assert record["fixes"][0]["replacement"] == "port" and isinstance(d.related, tuple)
    assert str(d).splitlines()[-1] == "      |   ^^^^"


def test_yaml_text_quotes_what_yaml_would_misread():
    from toskit.source.spans import yaml_text

    assert yaml_text("port") == "port"
    assert yaml_text("port", like="'prot'") == "'port'"
    assert yaml_text("port", like='"prot"') == '"port"'
    assert yaml_text("a: b") == '"a: b"'
    assert yaml_text("true") == '"true"'
