"""Values that grow without bound, and arithmetic on hostile numbers (issue #19).

Every case runs in a bounded subprocess (2 s CPU, 500 MB): a case that
regressed to building a 4 GB string would be killed, not take the run down.
"""

from __future__ import annotations

import pytest

V2 = "tosca_definitions_version: tosca_2_0\n"


def _doubling(n: int) -> str:
    props = "\n".join(f"      p{i}: {{type: string}}" for i in range(n + 1))
    vals = "\n".join(
        f"        p{i}: {{$concat: [{{$get_property: [SELF, p{i - 1}]}}, "
        f"{{$get_property: [SELF, p{i - 1}]}}]}}"
        for i in range(1, n + 1)
    )
    return (V2 + "node_types:\n  N:\n    properties:\n" + props
            + "\nservice_template:\n  node_templates:\n    n:\n      type: N\n"
            "      properties:\n        p0: abcdefgh\n" + vals + "\n")


def test_concat_doubling_through_get_property_is_limit_exceeded(run_case) -> None:
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({_doubling(40)!r})
            return [[d.code, d.message, d.hint] for d in st.diagnostics]
    """)
    [(code, message, hint)] = out.returned
    assert code == "limit-exceeded"
    assert "larger than 10000000" in message and "max_value_size" in hint


def _aliases(count: int, size: int) -> str:
    return (V2 + f"big: &b '{'x' * size}'\n"
            + "node_types:\n  N:\n    properties:\n      p: {type: string}\n"
            + "service_template:\n  node_templates:\n    n:\n      type: N\n      properties:\n"
            + "        p: {$join: [[" + ", ".join(["*b"] * count) + "], '-']}\n")


def test_join_over_a_list_of_aliases_is_limit_exceeded(run_case) -> None:
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({_aliases(5000, 100_000)!r})
            return [[d.code, d.message] for d in st.diagnostics]
    """)
    assert [d[0] for d in out.returned if d[0] != "unknown-keyname"] == ["limit-exceeded"], out.returned


@pytest.mark.parametrize(
    "expression",
    [
        pytest.param('{"$concat": [["x"] * 100] * 2_000}', id="concat-lists"),
        pytest.param('{"$union": [[["x"] * 100] * 2_000]}', id="union-nested"),
        pytest.param('{"$concat": ["y" * 100_000] * 2}', id="concat-strings"),
        pytest.param('{"$join": [["abc"] * 1_000, "-" * 1000]}', id="join-delimiter"),
    ],
)
def test_builders_are_bounded(run_case, expression) -> None:
    out = run_case(f"""
        def setup():
            from toskit.functions import parse
            return parse({expression})  # shared lists: small to build, huge to expand

        def case(tree):
            from toskit.functions import evaluate
            evaluate(tree, max_value_size=150_000)
    """)
    assert out.raised == "FunctionError" and "LimitExceeded" in out.message


def test_max_value_size_is_an_option(run_case) -> None:
    out = run_case("""
        def case():
            from toskit.functions import evaluate, parse
            from toskit.errors import FunctionError
            tree = parse({"$concat": ["abc", "def"]})
            try:
                evaluate(tree, max_value_size=5)
            except FunctionError as exc:
                small = exc.kind
            return [small, evaluate(tree, max_value_size=6)]
    """)
    assert out.returned == ["LimitExceeded", "abcdef"]


HUGE = "0x" + "f" * 5000  # a YAML integer of ~6,000 decimal digits (hex escapes the digit limit)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        pytest.param("$sum: [" + HUGE + ", 1.5]", "beyond the float range", id="sum-float"),
        pytest.param("$product: [" + HUGE + ", 1.5]", "beyond the", id="product-float"),
        pytest.param("$difference: [" + HUGE + ", 0.5]", "beyond the float range", id="difference"),
        pytest.param("$product: ['1 GB', " + HUGE + "]", "beyond the float range", id="scalar"),
        pytest.param("$sum: [" + HUGE + ", " + HUGE + "]", "about 6021 digits", id="sum-ints"),
        pytest.param("$quotient: [" + HUGE + ", 3]", "beyond the float range", id="quotient"),
    ],
)
def test_arithmetic_on_huge_numbers_is_a_function_error(run_case, call, fragment) -> None:
    text = (V2 + "node_types:\n  N:\n    properties:\n      p: {type: float}\n"
            "service_template:\n  node_templates:\n    n:\n      type: N\n      properties:\n"
            f"        p: {{{call}}}\n")
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({text!r})
            return [[d.code, d.message] for d in st.diagnostics]
    """)
    [(code, message)] = out.returned
    assert code == "function-error" and fragment in message
    assert len(message) < 400  # the value is abbreviated, not printed whole


def test_a_5000_digit_condition_literal_is_a_condition_error(run_case) -> None:
    out = run_case("""
        def case():
            from toskit import conditions
            conditions.compile_expression("cluster:x == " + "1" * 5000)
    """)
    assert out.raised == "ConditionError" and "Number too long" in out.message


@pytest.mark.parametrize("text", ["１２ GB", "١٢ MB", "12 ＧB", "1２ s", "1.5\u00a0GB"])
def test_scalar_units_with_non_ascii_digits_are_refused(run_case, text) -> None:
    template = ("tosca_definitions_version: tosca_simple_yaml_1_3\n"
                "node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n"
                "      s: {type: scalar-unit.size, required: false}\n"
                "      t: {type: scalar-unit.time, required: false}\n"
                "topology_template:\n  node_templates:\n"
                f"    n: {{type: N, properties: {{{'t' if text.endswith(' s') else 's'}: '{text}'}}}}\n")
    out = run_case(f"""
        def case():
            import toskit
            from toskit.values import parse_scalar_unit
            st = toskit.loads({template!r})
            return [parse_scalar_unit({text!r}) is None, [d.code for d in st.diagnostics]]
    """)
    refused, codes = out.returned
    assert refused and codes == ["type-mismatch"]
