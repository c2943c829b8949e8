"""Values that grow without bound, and arithmetic on hostile numbers (issue #19).

Every case runs in a bounded subprocess (500 MB counted; CPU a 10x hang guard): a case that
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
    return (
        V2
        + "node_types:\n  N:\n    properties:\n"
        + props
        + "\nservice_template:\n  node_templates:\n    n:\n      type: N\n"
        "      properties:\n        p0: abcdefgh\n" + vals + "\n"
    )


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
    return (
        V2
        + f"big: &b '{'x' * size}'\n"
        + "node_types:\n  N:\n    properties:\n      p: {type: string}\n"
        + "service_template:\n  node_templates:\n    n:\n      type: N\n      properties:\n"
        + "        p: {$join: [["
        + ", ".join(["*b"] * count)
        + "], '-']}\n"
    )


def test_join_over_a_list_of_aliases_is_limit_exceeded(run_case) -> None:
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({_aliases(5000, 100_000)!r})
            return [[d.code, d.message] for d in st.diagnostics]
    """)
    assert [d[0] for d in out.returned if d[0] != "unknown-keyname"] == ["limit-exceeded"], (
        out.returned
    )


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
    text = (
        V2 + "node_types:\n  N:\n    properties:\n      p: {type: float}\n"
        "service_template:\n  node_templates:\n    n:\n      type: N\n      properties:\n"
        f"        p: {{{call}}}\n"
    )
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
    template = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    properties:\n"
        "      s: {type: scalar-unit.size, required: false}\n"
        "      t: {type: scalar-unit.time, required: false}\n"
        "topology_template:\n  node_templates:\n"
        f"    n: {{type: N, properties: {{{'t' if text.endswith(' s') else 's'}: '{text}'}}}}\n"
    )
    out = run_case(f"""
        def case():
            import toskit
            from toskit.values import parse_scalar_unit
            st = toskit.loads({template!r})
            return [parse_scalar_unit({text!r}) is None, [d.code for d in st.diagnostics]]
    """)
    refused, codes = out.returned
    assert refused and codes == ["type-mismatch"]


# ---- calls nested to the call bound (MAX_CALL_DEPTH, 50), issue #15 ----------------------


def _nested_join(levels: int) -> str:
    """A TOSCA 2.0 template whose property nests ``levels`` calls, a list between each two."""
    value = "{$concat: [x]}"
    for _ in range(levels - 1):
        value = "{$join: [[" + value + ", '.']]}"
    return (
        V2 + "node_types:\n  N:\n    properties:\n      p: {type: string}\n"
        "service_template:\n  node_templates:\n    n:\n      type: N\n"
        "      properties:\n        p: " + value + "\n"
    )


def _chain(length: int) -> str:
    """Properties p0 .. p<length>, each a $get_property of the next: calls nested through evaluation."""
    props = "".join(f"      p{i}: {{type: string}}\n" for i in range(length + 1))
    vals = "".join(f"        p{i}: {{$get_property: [SELF, p{i + 1}]}}\n" for i in range(length))
    return (
        V2
        + "node_types:\n  N:\n    properties:\n"
        + props
        + "service_template:\n  node_templates:\n    n:\n      type: N\n      properties:\n"
        + vals
        + f"        p{length}: end\n"
    )


def test_calls_nested_to_the_bound_load_at_the_default_recursion_limit(run_case) -> None:
    """From 300 frames down, at CPython's default limit (1000) with
    ``sys.setrecursionlimit`` replaced by a recorder: calls nested 50 deep
    (and a 50-long $get_property chain) load and evaluate; 51 deep is one
    located limit-exceeded; a 300-long chain is bounded too. Nothing raises
    the limit."""
    out = run_case(f"""
        import sys

        def case():
            import toskit
            sys.setrecursionlimit(1000)
            raised = []
            sys.setrecursionlimit = raised.append

            def from_depth(frames, work):
                return from_depth(frames - 1, work) if frames else work()

            def load(text, prop):
                st = toskit.loads(text)
                value = st.node_templates["n"].properties[prop]
                return [str(value)[:60], [[d.code, d.line, d.message] for d in st.diagnostics]]

            return from_depth(300, lambda: {{
                "bound": load({_nested_join(50)!r}, "p"),
                "past": load({_nested_join(51)!r}, "p"),
                "chain": load({_chain(50)!r}, "p0"),
                "long chain": load({_chain(300)!r}, "p0"),
                "raised": raised,
            }})
    """)
    assert out.raised is None, out.message
    got = out.returned
    assert got["raised"] == []
    assert got["bound"] == ["x" + "." * 49, []]
    # Refused while parsing, at the property's line (the unparsed map then
    # also fails the property's type check).
    assert [
        "limit-exceeded",
        11,
        "function calls nested more than 50 deep ('$concat' is call 51)",
    ] in got["past"][1]
    assert got["chain"] == ["end", []]
    value, diagnostics = got["long chain"]
    assert value.startswith("$get_property")  # left unevaluated
    assert diagnostics and {(code, message) for code, _, message in diagnostics} == {
        ("limit-exceeded", "get_property: LimitExceeded: calls nested deeper than 50")
    }
