"""Template regular expressions cannot hang a load (issue #19), and their fuzz.

The patterns of the issue ran for minutes on a 40-character value with
Python's backtracking ``re``; through RE2 each must finish within the
bounds of ``bounded.py`` (500 MB counted; CPU a 10x hang guard), on values much longer than 40
characters, through every entry point: ``$matches``, the 1.x ``pattern``
constraint and a 2.0 validation clause.
"""

from __future__ import annotations

import pytest

HOSTILE = [
    pytest.param(r"(a|aa)+$", "a" * 5000 + "!", id="overlapping-alternatives"),
    pytest.param(r"^(a|a?)+$", "a" * 5000 + "!", id="optional-alternative"),
    pytest.param(r"\d*\d*\d*\d*\d*\d*x", "1" * 5000, id="polynomial-digits"),
    pytest.param(r".*=.*=.*=.*;", "=" * 5000, id="polynomial-dots"),
    pytest.param(r"^((a{1,10}){1,10}){1,10}$", "a" * 5000 + "!", id="nested-counted"),
    pytest.param(r"^(ab|abc|abcd)*(ab|abc|abcd)*$", "abc" * 2000 + "!", id="shared-prefix"),
    pytest.param(r"^(a?){30}a{30}$", "a" * 30, id="optional-chain"),
    pytest.param(r"^(\w+\s?)*$", "word " * 2000 + "!", id="optional-separator"),
    pytest.param(r"(a+)+$", "a" * 5000 + "b", id="nested-plus"),
]


@pytest.mark.parametrize(("pattern", "text"), HOSTILE)
def test_matches_runs_in_linear_time(run_case, pattern, text) -> None:
    out = run_case(f"""
        def case():
            from toskit.functions import evaluate, parse
            return evaluate(parse({{"$matches": [{text!r}, {pattern!r}]}}))
    """)
    assert isinstance(out.returned, bool)


V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"
V2 = "tosca_definitions_version: tosca_2_0\n"


def _y(text: str) -> str:
    """A YAML single-quoted scalar (backslashes stay as written)."""
    return "'" + text.replace("'", "''") + "'"


def _constraint_template(pattern: str, text: str) -> str:
    return (
        V13 + "node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n"
        f"      s: {{type: string, constraints: [{{pattern: {_y(pattern)}}}]}}\n"
        "topology_template:\n  node_templates:\n"
        f"    a: {{type: N, properties: {{s: {_y(text)}}}}}\n"
    )


def _validation_template(pattern: str, text: str) -> str:
    return (
        V2 + "node_types:\n  N:\n    properties:\n"
        f"      s: {{type: string, validation: {{$matches: [$value, {_y(pattern)}]}}}}\n"
        "service_template:\n  node_templates:\n"
        f"    a: {{type: N, properties: {{s: {_y(text)}}}}}\n"
    )


@pytest.mark.parametrize(
    "build",
    [_constraint_template, _validation_template],
    ids=["pattern-constraint", "validation-clause"],
)
@pytest.mark.parametrize(("pattern", "text"), HOSTILE[:4])
def test_templates_with_hostile_patterns_load_in_bounds(run_case, build, pattern, text) -> None:
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({build(pattern, text)!r})
            return [d.code for d in st.diagnostics]
    """)
    assert set(out.returned) <= {"constraint-violation", "validation-failed"}


@pytest.mark.parametrize(
    ("pattern", "construct"),
    [
        pytest.param(r"(a)\1", "back-reference", id="backreference"),
        pytest.param(r"a(?=b)", "lookahead", id="lookahead"),
        pytest.param(r"(?<!a)b", "negative lookbehind", id="lookbehind"),
    ],
)
@pytest.mark.parametrize(
    "build",
    [_constraint_template, _validation_template],
    ids=["pattern-constraint", "validation-clause"],
)
def test_patterns_re2_cannot_express_are_diagnostics(run_case, build, pattern, construct) -> None:
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({build(pattern, "aa")!r})
            return [[d.code, d.message] for d in st.diagnostics]
    """)
    [(code, message)] = out.returned
    assert code in ("invalid-constraint", "function-error")
    assert construct in message and "RE2" in message


FUZZ_REGEX = """
    def case():
        import time
        from hypothesis import given, settings, strategies as st, HealthCheck
        from toskit.errors import FunctionError
        from toskit.functions import evaluate, parse

        pieces = st.sampled_from([
            "a", "b", "=", ".", "\\\\d", "\\\\w", "\\\\s", "(", ")", "(?:", "|", "*", "+", "?",
            "{2,}", "{1,10}", "[ab]", "[^a]", "^", "$", "\\\\1", "(?=", "(?!", "(?<=", "++",
            "(?>", "\\\\Z", "\\\\b", "(?P<n>", "(?P=n)", "{1000}", "{1001}",
        ])
        patterns = st.lists(pieces, max_size=16).map("".join)
        texts = st.builds(lambda unit, n, tail: unit * n + tail,
                          st.sampled_from(["a", "ab", "1", "=", "a ", "=;"]),
                          st.integers(0, 3000), st.sampled_from(["", "!", "b", ";", "x"]))
        worst = [0.0]

        @settings(max_examples=150, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(patterns, texts)
        def run(pattern, text):
            start = time.process_time()
            try:
                result = evaluate(parse({"$matches": [text, pattern]}))
                assert isinstance(result, bool)
            except FunctionError as exc:
                assert exc.kind == "InvalidRegex", exc
            worst[0] = max(worst[0], time.process_time() - start)

        run()
        return worst[0]
"""


def test_fuzz_regex_patterns_and_long_subjects(run_case) -> None:
    out = run_case(FUZZ_REGEX, cpu=30)
    assert out.raised is None, out.message
    assert (
        out.returned < 5.0
    )  # the slowest single match, CPU seconds: a hang guard (10x a quiet 0.5 s)
