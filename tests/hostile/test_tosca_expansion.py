"""Templates that expand (issue #19) and memory per type (issue #24).

Every case runs in a bounded subprocess (2 s CPU, 500 MB; see
``bounded.py``) on generated text: a data type whose two fields are of the
previous one (2^n default or required leaves), ``copy`` loops and long
``copy`` chains, and a long ``derived_from`` chain of data types.
"""

from __future__ import annotations

import pytest

V2 = "tosca_definitions_version: tosca_2_0\n"


def _copy_chain(n: int) -> str:
    lines = [V2, "node_types:\n  N:\n    properties:\n      p: {type: integer, default: 1}\n",
             "service_template:\n  node_templates:\n    t0:\n      type: N\n      properties: {p: 7}\n"]
    lines += [f"    t{i}:\n      copy: t{i - 1}\n" for i in range(1, n)]
    return "".join(lines)


def test_a_chain_of_3000_copies_resolves_in_linear_time(run_case) -> None:
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({_copy_chain(3000)!r})
            last = st.node_templates["t2999"]
            return [last.type.name, last.properties, [d.code for d in st.diagnostics]]
    """)
    assert out.raised is None, out.message
    assert out.returned == ["N", {"p": 7}, []]


def test_a_copy_cycle_is_copy_cycle_naming_the_templates(run_case) -> None:
    text = (V2 + "node_types:\n  N: {}\nservice_template:\n  node_templates:\n"
            "    a: {copy: b}\n    b: {copy: a, type: N}\n    c: {copy: a}\n")
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({text!r})
            return [[d.code, d.message, str(d.path)] for d in st.diagnostics if d.code == "copy-cycle"]
    """)
    assert [d[0] for d in out.returned] == ["copy-cycle", "copy-cycle"]
    assert out.returned[0][1] == "node template 'a': copy loops: 'a' -> 'b' -> 'a'"
    assert out.returned[1][1] == "node template 'b': copy loops: 'b' -> 'a' -> 'b'"
    assert all(d[2].endswith(".copy") for d in out.returned)


def test_a_long_copy_cycle_is_reported_with_bounded_messages(run_case) -> None:
    n = 3000
    lines = [V2, "service_template:\n  node_templates:\n"]
    lines += [f"    t{i}: {{copy: t{(i + 1) % n}}}\n" for i in range(n)]
    text = "".join(lines)
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({text!r})
            found = [d.message for d in st.diagnostics if d.code == "copy-cycle"]
            return [len(found), max(map(len, found)), found[0]]
    """)
    count, longest, first = out.returned
    assert count == 3000 and longest < 300
    assert first.startswith("node template 't0': copy loops: 't0' -> 't1' -> ") and "(2992 more)" in first


def test_copy_of_a_missing_template_is_invalid_copy_where_it_is_written() -> None:
    import toskit

    st = toskit.loads(V2 + "node_types:\n  N: {}\nservice_template:\n  node_templates:\n"
                      "    one: {type: N}\n    two: {copy: onee}\n    three: {copy: two}\n")
    found = [(d.code, d.message) for d in st.diagnostics if "copy" in d.code]
    assert found == [("invalid-copy", "node template 'two': copy names 'onee', which does not exist")]
