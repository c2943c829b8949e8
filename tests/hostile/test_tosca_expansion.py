"""Templates that expand (issue #19) and memory per type (issue #24).

Every case runs in a bounded subprocess (500 MB counted, CPU a 10x hang guard; see
``bounded.py``) on generated text: a data type whose two fields are of the
previous one (2^n default or required leaves), ``copy`` loops and long
``copy`` chains, and a long ``derived_from`` chain of data types.
"""

from __future__ import annotations

import pytest

V2 = "tosca_definitions_version: tosca_2_0\n"


def _copy_chain(n: int) -> str:
    lines = [
        V2,
        "node_types:\n  N:\n    properties:\n      p: {type: integer, default: 1}\n",
        "service_template:\n  node_templates:\n    t0:\n      type: N\n      properties: {p: 7}\n",
    ]
    lines += [f"    t{i}:\n      copy: t{i - 1}\n" for i in range(1, n)]
    return "".join(lines)


def test_a_chain_of_3000_copies_resolves_in_linear_time(run_case) -> None:
    out = run_case(
        f"""
        def case():
            import toskit
            st = toskit.loads({_copy_chain(3000)!r})
            last = st.node_templates["t2999"]
            return [last.type.name, last.properties, [d.code for d in st.diagnostics]]
    """,
        max_calls=1_200_000,
    )  # ~570,000 counted: linear in the 3,000 copies
    assert out.raised is None, out.message
    assert out.returned == ["N", {"p": 7}, []]


def test_a_copy_cycle_is_copy_cycle_naming_the_templates(run_case) -> None:
    text = (
        V2 + "node_types:\n  N: {}\nservice_template:\n  node_templates:\n"
        "    a: {copy: b}\n    b: {copy: a, type: N}\n    c: {copy: a}\n"
    )
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
            st = toskit.loads({text!r}, max_per_code=None)  # every one, not 100 and a summary
            found = [d.message for d in st.diagnostics if d.code == "copy-cycle"]
            return [len(found), max(map(len, found)), found[0]]
    """)
    count, longest, first = out.returned
    assert count == 3000 and longest < 300
    assert (
        first.startswith("node template 't0': copy loops: 't0' -> 't1' -> ")
        and "(2992 more)" in first
    )


def test_copy_of_a_missing_template_is_invalid_copy_where_it_is_written() -> None:
    import toskit

    st = toskit.loads(
        V2 + "node_types:\n  N: {}\nservice_template:\n  node_templates:\n"
        "    one: {type: N}\n    two: {copy: onee}\n    three: {copy: two}\n"
    )
    found = [(d.code, d.message) for d in st.diagnostics if "copy" in d.code]
    assert found == [
        ("invalid-copy", "node template 'two': copy names 'onee', which does not exist")
    ]


def _fanout(depth: int, mode: str, leaf: str = "{type: string, default: x}") -> str:
    """Data types D1..Dn whose fields a and b are of the previous type."""
    field = "{type: D%d, default: {}}" if mode == "default" else "{type: D%d, required: true}"
    lines = [V2, f"data_types:\n  D0:\n    properties:\n      v: {leaf}\n"]
    for i in range(1, depth + 1):
        lines.append(
            f"  D{i}:\n    properties:\n      a: {field % (i - 1)}\n      b: {field % (i - 1)}\n"
        )
    lines.append(f"node_types:\n  N:\n    properties:\n      p: {field % depth}\n")
    lines.append("service_template:\n  node_templates:\n    n:\n      type: N\n")
    return "".join(lines)


@pytest.mark.parametrize("mode", ["default", "required"])
def test_data_type_fan_out_of_2_to_the_30_is_limit_exceeded_naming_the_type(run_case, mode) -> None:
    out = run_case(f"""
        def case():
            import toskit
            from toskit.display import to_html
            st = toskit.loads({_fanout(30, mode)!r})
            html = to_html(st)  # `toskit show` rendered this to a SystemError
            return [[[d.code, d.message, str(d.path)] for d in st.diagnostics],
                    st.node_templates["n"].properties, len(html)]
    """)
    assert out.raised is None, out.message
    diags, props, _ = out.returned
    limits = [d for d in diags if d[0] == "limit-exceeded"]
    assert limits == [
        [
            "limit-exceeded",
            "data type 'D16': a value made of its defaults would hold more than 100,000 values",
            "data_types.D16",
        ]
    ]
    # The default is kept as written (not filled in), or left absent when required.
    assert props == ({"p": {}} if mode == "default" else {})


def test_required_fields_without_defaults_2_to_the_30_paths_are_listed_boundedly(run_case) -> None:
    text = _fanout(30, "required", leaf="{type: string, required: true}")
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({text!r})
            return [[d.code, d.message] for d in st.diagnostics]
    """)
    # (limit-exceeded too: the count of what a fill-in could build is an upper estimate.)
    [message] = [d[1] for d in out.returned if d[0] == "missing-property"]
    assert message.startswith("node template 'n': required property 'p' has no value")
    assert "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.v" in message
    assert len(message) < 10_000


def test_list_defaults_that_multiply_entries_are_limit_exceeded_on_the_property(run_case) -> None:
    entries = ", ".join(["{}"] * 40)
    lines = [V2, "data_types:\n  E0:\n    properties:\n      v: {type: string, default: x}\n"]
    for i in range(1, 5):
        lines.append(
            f"  E{i}:\n    properties:\n      l: {{type: list, entry_schema: E{i - 1}, "
            f"default: [{entries}]}}\n"
        )
    lines.append(
        "node_types:\n  N:\n    properties:\n      p: {type: E4, default: {}}\n"
        "service_template:\n  node_templates:\n    n: {type: N}\n"
    )
    text = "".join(lines)
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({text!r})
            return [[d.code, d.message] for d in st.diagnostics]
    """)
    assert out.returned == [
        [
            "limit-exceeded",
            "data type 'E4': the default of property 'l' fills in more than 100,000 values",
        ]
    ]


def test_fan_out_within_the_bound_is_filled_in_as_before() -> None:
    import toskit

    st = toskit.loads(_fanout(3, "default"))
    assert not st.diagnostics
    leaf = {"v": "x"}
    d1 = {"a": leaf, "b": leaf}
    d2 = {"a": d1, "b": d1}
    assert st.node_templates["n"].properties == {"p": {"a": d2, "b": d2}}
    st = toskit.loads(_fanout(3, "required"))
    assert st.node_templates["n"].properties == {"p": {"a": d2, "b": d2}}


def _type_chain(n: int) -> str:
    lines = [V2, "data_types:\n  T0:\n    properties:\n      p0: {type: string, default: v0}\n"]
    lines += [
        f"  T{i}:\n    derived_from: T{i - 1}\n    properties:\n"
        f"      p{i}: {{type: string, default: v{i}}}\n"
        for i in range(1, n)
    ]
    lines.append(
        f"node_types:\n  N:\n    properties:\n      d: {{type: T{n - 1}, default: {{}}}}\n"
        "service_template:\n  node_templates:\n    n: {type: N}\n"
    )
    return "".join(lines)


def test_a_derivation_chain_of_10000_data_types_takes_linear_memory(run_case) -> None:
    # Each type used to copy its ancestors' table: 1.35 GB here (the child's
    # address space is capped at 1 GB); now about 100 MB with either YAML
    # parser (bound 300 MB). bench/bench_type_memory.py: 20,000.
    out = run_case(
        f"""
        def setup():
            return {_type_chain(10_000)!r}

        def case(text):
            import toskit
            st = toskit.loads(text)
            value = st.node_templates["n"].properties["d"]
            last = st.types["T9999"]
            return [len(value), value["p9999"], list(last.properties)[:3], len(last.properties),
                    list(last.own_properties), [d.code for d in st.diagnostics]]
    """,
        peak_mb=300,
    )
    assert out.raised is None, out.message
    assert out.returned == [10_000, "v9999", ["p0", "p1", "p2"], 10_000, ["p9999"], []]


def test_shared_tables_keep_inheritance_order_and_overrides() -> None:
    import toskit

    n = 200  # past the size up to which each type keeps its own table
    lines = [V2, "data_types:\n  T0:\n    properties:\n      p0: {type: string, default: v0}\n"]
    lines += [
        f"  T{i}:\n    derived_from: T{i - 1}\n    properties:\n"
        f"      p{i}: {{type: string, default: v{i}}}\n"
        for i in range(1, n)
    ]
    lines.append(
        f"  T{n}:\n    derived_from: T{n - 1}\n    properties:\n"
        "      p5: {type: string, default: over}\n      q: {type: integer, required: false}\n"
    )
    st = toskit.loads("".join(lines))
    top = st.types[f"T{n}"]
    assert list(top.properties) == [f"p{i}" for i in range(n)] + ["q"]
    assert top.properties["p5"].default == "over" and top.properties["p5"].defined_in == f"T{n}"
    assert top.replaced_properties["p5"] is st.types["T5"].properties["p5"]
    assert st.types["T150"].properties["p5"].default == "v5"
    assert len(st.types["T150"].properties) == 151


def _nesting(depth: int, mode: str) -> str:
    """Data types D1..Dn each with one field of the previous type (a deep, thin fill-in)."""
    field = "{type: D%d, default: {}}" if mode == "default" else "{type: D%d, required: true}"
    lines = [V2, "data_types:\n  D0:\n    properties:\n      v: {type: string, default: x}\n"]
    lines += [
        f"  D{i}:\n    properties:\n      a: {field % (i - 1)}\n" for i in range(1, depth + 1)
    ]
    lines.append(
        f"node_types:\n  N:\n    properties:\n      p: {field % depth}\n"
        "service_template:\n  node_templates:\n    n: {type: N}\n"
    )
    return "".join(lines)


@pytest.mark.parametrize("mode", ["default", "required"])
def test_defaults_nested_3000_types_deep_are_limit_exceeded_not_recursion_error(
    run_case, mode
) -> None:
    out = run_case(f"""
        def case():
            import toskit
            from toskit.display import to_html
            st = toskit.loads({_nesting(3000, mode)!r})
            to_html(st)
            return [[d.code, d.message] for d in st.diagnostics]
    """)
    assert out.raised is None, out.message
    assert out.returned[0] == [
        "limit-exceeded",
        "data type 'D101': a value made of its defaults would nest data types more than 100 deep",
    ]
    assert [d[0] for d in out.returned[1:]] == ([] if mode == "default" else ["missing-property"])


def test_defaults_nested_within_the_depth_bound_are_filled_in() -> None:
    import toskit

    st = toskit.loads(_nesting(90, "default"))
    assert not st.diagnostics
    value = st.node_templates["n"].properties["p"]
    for _ in range(90):
        value = value["a"]
    assert value == {"v": "x"}


def _node_type_chain(n: int) -> str:
    lines = [
        V2,
        "capability_types:\n  C: {}\nnode_types:\n  T0:\n    properties:\n"
        "      p0: {type: string, default: v0}\n",
    ]
    lines += [
        f"  T{i}:\n    derived_from: T{i - 1}\n    properties:\n      p{i}: {{type: string, default: v{i}}}\n"
        f"    capabilities:\n      c{i}: {{type: C}}\n"
        f"    requirements:\n      - r{i}: {{capability: C, count_range: [0, 1]}}\n"
        for i in range(1, n)
    ]
    return "".join(lines)


def test_a_derivation_chain_of_10000_node_types_shares_requirements_and_capabilities(
    run_case,
) -> None:
    out = run_case(
        f"""
        def setup():
            return {_node_type_chain(10_000)!r}

        def case(text):
            import toskit
            st = toskit.loads(text)
            last = st.types["T9999"]
            return [len(last.properties), len(last.capabilities), len(last.requirements),
                    last.requirements[-1][0], list(last.capabilities)[:2],
                    [d.code for d in st.diagnostics]]
    """,
        peak_mb=300,
    )
    assert out.raised is None, out.message
    assert out.returned == [10_000, 9_999, 9_999, "r9999", ["c1", "c2"], []]


def test_a_redefined_requirement_moves_to_the_end_and_capabilities_override() -> None:
    import toskit

    st = toskit.loads(
        V2 + "capability_types:\n  C: {}\n  D: {derived_from: C}\nnode_types:\n"
        "  A:\n    capabilities: {x: C, y: C}\n"
        "    requirements:\n      - r: {capability: C}\n      - s: {capability: C}\n"
        "  B:\n    derived_from: A\n    capabilities: {x: D}\n"
        "    requirements:\n      - r: {capability: D}\n"
        "  E:\n    derived_from: B\n"
    )
    e = st.types["E"]
    assert [name for name, _ in e.requirements] == ["s", "r"]
    assert dict(e.requirements)["r"] == {"capability": "D"}
    assert e.capabilities == {"x": "D", "y": "C"}
    assert [name for name, _ in st.types["A"].requirements] == ["r", "s"]


# --- the fill-in bounds are options of a load; the total is a budget per load ----------


def _templates(depth: int, count: int, written: str = "") -> str:
    """``_fanout(depth)`` with ``count`` node templates of ``N`` (``written``: their properties)."""
    text = _fanout(depth, "default").replace("    n:\n      type: N\n", "")
    props = f", properties: {written}" if written else ""
    return text + "".join(f"    n{i}: {{type: N{props}}}\n" for i in range(count))


@pytest.mark.parametrize("written", ["", "{p: {}}"], ids=["defaults", "partial-value"])
def test_fill_ins_under_the_per_fill_bound_add_up_to_one_budget_per_load(run_case, written) -> None:
    """20 templates filling about 65,000 values each (the per fill-in bound is 100,000):
    5 s and 350 MB before; now the load's budget (max_fill_total, 300,000) stops them.
    A template writing ``p: {}`` (its fields filled from defaults) is charged too."""
    text = _templates(15, 20, written)
    out = run_case(f"""
        def case():
            import toskit
            st = toskit.loads({text!r})
            sizes = [len(repr(n.properties)) for n in st.node_templates.values()]
            return [[[d.code, d.message] for d in st.diagnostics], sizes]
    """)
    assert out.raised is None, out.message
    diags, sizes = out.returned
    [(code, message)] = diags
    assert code == "limit-exceeded"
    assert "crosses the 300,000 values all fill-ins of this load may build" in message
    full = max(sizes)
    # The first templates are filled in, the last ones kept as written.
    assert sizes.count(full) >= 3
    assert sizes[-1] < 100 and sizes[0] == full


def test_the_budget_is_per_load() -> None:
    import toskit

    text = _templates(3, 5)  # 15 values per template
    for _ in range(3):  # each load starts with the whole budget
        st = toskit.loads(text, max_fill_total=200)
        assert st.diagnostics == []
    st = toskit.loads(text, max_fill_total=40)
    [diag] = st.diagnostics
    assert diag.code == "limit-exceeded" and "the 40 values all fill-ins" in diag.message
    assert diag.hint is not None and "max_fill_total=" in diag.hint
    filled = [bool(n.properties["p"]) for n in st.node_templates.values()]
    assert filled[:2] == [True, True] and filled[-1] is False


def test_the_fill_bounds_are_load_options(tmp_path) -> None:
    import toskit

    text = _fanout(4, "default")  # D3: 22 values, D4: 46
    [diag] = toskit.loads(text, max_expanded=20).diagnostics
    assert (
        diag.message
        == "data type 'D3': a value made of its defaults would hold more than 20 values"
    )
    assert "max_expanded=" in (diag.hint or "")
    assert toskit.loads(text, max_expanded=20).node_templates["n"].properties == {"p": {}}
    [diag] = toskit.loads(text, max_fill_depth=3).diagnostics
    assert "would nest data types more than 3 deep" in diag.message
    # The defaults (None) and the module settings outside these options: as before.
    assert toskit.loads(text, max_expanded=None, max_fill_total=None).diagnostics == []
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    assert [d.code for d in toskit.load(path, max_expanded=20).diagnostics] == ["limit-exceeded"]
    assert toskit.load(path).node_templates["n"].properties["p"]["a"]["a"]["a"]["a"] == {"v": "x"}


@pytest.mark.parametrize("value", [0, -1, "10", True, 2.5])
def test_a_bad_fill_bound_is_a_toskit_error(value) -> None:
    import toskit

    with pytest.raises(toskit.ToskitError, match="max_fill_total must be a positive integer"):
        toskit.loads(V2, max_fill_total=value)


def test_a_misspelt_fill_bound_names_the_right_one() -> None:
    import toskit

    with pytest.raises(toskit.ToskitError, match="did you mean 'max_fill_depth'"):
        toskit.loads(V2, max_fill_dept=3)
