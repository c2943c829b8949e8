"""Renderers abbreviate while they walk (#37 item 2).

A value or call that aliases one huge string thousands of times is small in
memory and enormous as text: every renderer (the page, the notebook view,
the property table's text, ``str()``/``repr()`` of calls, the flow and
JSON texts of values) must cost what it shows, not what the expansion
would be. Memory is counted with tracemalloc (bytes, not seconds).
"""

import tracemalloc

import pytest

import toskit
from toskit import cli
from toskit.display.html import text_value
from toskit.functions import Call
from toskit.functions.notation import TEXT_MAX_CHARS
from toskit.plain import bounded_text, flow_text

MB = 1_000_000
BIG = "x" * MB


def _peak(fn, *args, **kwargs):
    tracemalloc.start()
    try:
        result = fn(*args, **kwargs)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _call_template(aliases: int) -> str:
    lines = [
        "tosca_definitions_version: tosca_2_0",
        "node_types:",
        "  T:",
        "    properties:",
        "      p: {type: string, required: false}",
        "    attributes:",
        "      a: {type: string}",
        "service_template:",
        "  node_templates:",
        "    n:",
        "      type: T",
        "      metadata:",
        f"        big: &s {BIG}",
        "      properties:",
        "        p:",
        "          $concat:",
        "            - $get_attribute: [SELF, a]",
    ]
    lines += ["            - *s"] * aliases
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("aliases", [300, 3000])
def test_show_of_a_call_aliasing_a_huge_string_stays_under_100_mb(aliases, tmp_path, capsys):
    path = tmp_path / "call.yaml"
    path.write_text(_call_template(aliases))
    status, peak = _peak(cli.main, ["show", str(path), "-o", str(tmp_path / "r.html")])
    assert status == 0, capsys.readouterr().err
    # the expansion is 300 MB / 3 GB of text; the page shows a cut of it
    assert peak < 100 * MB, f"peak {peak / MB:.0f} MB"
    page = (tmp_path / "r.html").read_text()
    assert "$concat" in page and "…" in page
    assert len(page) < 2 * MB


def test_notebook_view_of_metadata_call_is_bounded(tmp_path):
    lines = [
        "tosca_definitions_version: tosca_2_0",
        "metadata:",
        f"  big: &s {BIG}",
        "  joined:",
        "    $concat:",
    ]
    lines += ["      - *s"] * 2000
    lines += ["service_template:", "  node_templates:", "    n:", "      type: Root"]
    path = tmp_path / "meta.yaml"
    path.write_text("\n".join(lines) + "\n")
    st = toskit.load(str(path))
    html, peak = _peak(st._repr_html_)
    assert peak < 50 * MB, f"peak {peak / MB:.0f} MB"
    assert len(html) < 2 * MB
    (text, rep), peak = _peak(lambda: (str(st), repr(st)))
    assert peak < 10 * MB and len(text) < 10_000 and len(rep) < 10_000


def test_str_and_repr_of_a_call_are_built_within_their_budget():
    call = Call("concat", [Call("get_attribute", ["SELF", "a"]), *([BIG] * 3000)])
    (text, rep), peak = _peak(lambda: (str(call), repr(call)))
    assert peak < 5 * MB, f"peak {peak / MB:.1f} MB"
    assert text.startswith("$concat: [{$get_attribute: [SELF, a]}, xxx") and text.endswith("…")
    assert len(text) <= TEXT_MAX_CHARS + 20
    assert rep.startswith(
        "Call('concat', [Call('get_attribute', ['SELF', 'a']), 'xxx"
    ) and rep.endswith("…")
    assert len(rep) <= TEXT_MAX_CHARS
    # a nested call deep inside another: still bounded
    nested = Call("join", [[call] * 1000])
    (text, rep), peak = _peak(lambda: (str(nested), repr(nested)))
    assert peak < 5 * MB and len(text) <= TEXT_MAX_CHARS + 20 and len(rep) <= TEXT_MAX_CHARS


def test_small_calls_read_as_before():
    call = Call("concat", ["a b", "c: d", 1, None, True, {"k": [1.5]}], namespace="ns")
    assert str(call) == '$ns:concat: [a b, "c: d", 1, null, true, {k: [1.5]}]'
    assert (
        repr(call) == "Call('concat', ['a b', 'c: d', 1, None, True, {'k': [1.5]}], namespace='ns')"
    )
    assert str(Call("concat", ['say "hi"\n'])) == '$concat: ["say \\"hi\\"\\n"]'
    # a long string that needs quotes stays quoted when cut
    assert str(Call("concat", ["a: b" * 50_000])).startswith('$concat: ["a: ba: b')


@pytest.mark.parametrize("style", ["flow", "json", "repr"])
def test_bounded_text_reads_only_what_it_shows(style):
    value = {"k": [BIG] * 3000, "deep": [[[[BIG]]]] * 3000}
    text, peak = _peak(bounded_text, value, 500, style=style)
    assert len(text) == 500 and text.endswith("…")
    assert peak < 2 * MB


def test_bounded_text_styles_of_small_values():
    value = {"a": [1, 2.5, None, True, "s"], "t": (1,)}
    assert bounded_text(value, 100) == "{'a': [1, 2.5, null, true, 's'], 't': [1]}"
    assert bounded_text(value, 100, style="json") == '{"a": [1, 2.5, null, true, "s"], "t": [1]}'
    assert bounded_text(value, 100, style="repr") == repr(value)
    call = Call("get_input", ["x"])
    assert bounded_text([call], 100, style="json") == '["$get_input: [x]"]'
    assert bounded_text([call], 100, style="repr") == "[Call('get_input', ['x'])]"
    assert flow_text([BIG] * 10, 30) == "['" + "x" * 27 + "…"


def test_table_cell_text_is_built_within_its_budget():
    call = Call("concat", [BIG] * 3000)
    for value in ([BIG] * 3000, {"a": [BIG] * 3000}, call, [call] * 3000):
        text, peak = _peak(text_value, value)
        assert text.endswith("…") and len(text) < 1_000
        assert peak < 3 * MB, (type(value), peak)


def test_property_table_text_and_topology_labels_are_bounded(tmp_path):
    path = tmp_path / "call.yaml"
    path.write_text(_call_template(3000))
    st = toskit.load(str(path))
    table = st.node_templates["n"].property_table()
    text, peak = _peak(str, table)
    assert "$concat" in text and peak < 10 * MB
    from toskit.tosca.topology.model import _short

    text, peak = _peak(_short, [BIG] * 3000)
    assert len(text) <= 32 and peak < MB


def test_constraint_messages_are_built_within_a_bound(tmp_path):
    lines = [
        "tosca_definitions_version: tosca_simple_yaml_1_3",
        "node_types:",
        "  T:",
        "    derived_from: tosca.nodes.Root",
        "    properties:",
        "      l: {type: list, entry_schema: {type: string}, constraints: [{max_length: 1}]}",
        "      s: {type: string, constraints: [{max_length: 3}]}",
        "topology_template:",
        "  node_templates:",
        "    n:",
        "      type: T",
        "      metadata:",
        f"        big: &s {BIG}",
        "      properties:",
        "        s: *s",
        "        l:",
    ]
    lines += ["          - *s"] * 3000
    path = tmp_path / "c.yaml"
    path.write_text("\n".join(lines) + "\n")
    st, peak = _peak(toskit.load, str(path))
    found = [d for d in st.diagnostics if "max_length" in d.message]
    assert len(found) == 2, st.diagnostics
    assert all(len(d.message) < 3_000 for d in found)
    # the load keeps the value (3,000 references to one string), not its text
    assert peak < 60 * MB, f"peak {peak / MB:.0f} MB"
