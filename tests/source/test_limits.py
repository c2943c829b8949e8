"""Bounds: alias expansion, node count, depth, size — each limit-exceeded, fast.

Times are CPU times of this process (``time.process_time``), so a busy
machine does not make them fail.
"""

import time

import pytest

from toskit.source import LIMIT_DEFAULTS, load_yaml, load_yaml_file


def billion_laughs(levels: int = 9) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    previous = "a"
    for name in "bcdefghijklmnop"[:levels]:
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
        previous = name
    return "\n".join(lines) + "\n"


def assert_limit(doc, line=None):
    assert doc.value is None
    assert [d.code for d in doc.diagnostics] == ["limit-exceeded"]
    assert doc.diagnostics[0].severity == "error"
    assert doc.diagnostics[0].hint
    if line is not None:
        assert doc.diagnostics[0].line == line


def test_defaults_are_the_documented_ones():
    assert LIMIT_DEFAULTS == {
        "max_alias_nodes": 10_000,
        "max_nodes": 1_000_000,
        "max_depth": 500,
        "max_size": 50_000_000,
        "max_import_depth": 1_000,
    }


def test_billion_laughs_stops_fast(parser):
    start = time.process_time()
    doc = load_yaml(billion_laughs(), parser=parser)
    assert time.process_time() - start < 1.0
    assert_limit(doc, line=6)  # '*e' expands to 66,430 nodes > 10,000
    assert "'*e'" in doc.diagnostics[0].message


def test_alias_bound_is_a_keyword(parser):
    assert load_yaml(billion_laughs(3), parser=parser).diagnostics == []
    assert_limit(load_yaml(billion_laughs(3), parser=parser, max_alias_nodes=50), line=3)


def test_document_node_bound_counts_expanded_aliases(parser):
    # 30 uses of a 1,000-node anchor: each use is fine, the total is not.
    text = "a: &a [" + ",".join(["1"] * 999) + "]\nb: [" + ",".join(["*a"] * 30) + "]\n"
    assert load_yaml(text, parser=parser).diagnostics == []
    doc = load_yaml(text, parser=parser, max_nodes=20_000)
    assert_limit(doc, line=2)


def test_node_bound_without_aliases(parser):
    assert_limit(load_yaml("[" + ",".join(["1"] * 100) + "]", parser=parser, max_nodes=50))


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,
        "{a: " * 10_000 + "}" * 10_000,
        # 10,000 block levels need ~50 MB of indentation (over max_size): 1,000 here.
        "".join(" " * i + "k:\n" for i in range(1_000)),
        "- " * 10_000 + "x\n",
        "a: " + "[" * 10_000,
    ],
    ids=["flow-seq", "flow-map", "block-map-1000", "block-seq", "unclosed-flow"],
)
def test_ten_thousand_deep_is_limit_exceeded_fast(parser, text):
    start = time.process_time()
    doc = load_yaml(text, parser=parser)
    assert time.process_time() - start < 1.0
    assert_limit(doc)
    assert "500" in doc.diagnostics[0].message


def test_depth_bound_is_exact(parser):
    assert load_yaml("[" * 500 + "]" * 500, parser=parser).diagnostics == []
    assert_limit(load_yaml("[" * 501 + "]" * 501, parser=parser))
    assert load_yaml("[[[1]]]", parser=parser, max_depth=3).value == [[[1]]]
    doc = load_yaml("[[[[1]]]]", parser=parser, max_depth=3)
    assert_limit(doc)
    assert doc.diagnostics[0].column == 4


def _load_time(text: str, parser: str) -> float:
    start = time.process_time()
    doc = load_yaml(text, parser=parser)
    elapsed = time.process_time() - start
    assert doc.diagnostics == []
    return elapsed


def test_deep_flow_cost_per_character_does_not_grow_with_depth():
    # PyYAML's stock Python scanner does O(depth) work per token on `[[[…`
    # (about 4x slower per character at depth 400 than at depth 40); toskit's does not.
    shallow = "".join("- " + "[" * 40 + "]" * 40 + "\n" for _ in range(250))
    deep = "".join("- " + "[" * 400 + "]" * 400 + "\n" for _ in range(25))
    assert abs(len(shallow) - len(deep)) < 1000
    ratio = min(_load_time(deep, "python") for _ in range(3)) / min(
        _load_time(shallow, "python") for _ in range(3)
    )
    assert ratio < 2.5


def test_python_scanner_shortcuts_give_the_same_events():
    import yaml

    from toskit.source.compose import _PyParser

    text = "a: [b, {c: [d, e]}, [[f]]]\n? [g]\n: {h: i}\nj: 'k'\nl: " + "[" * 40 + "]" * 40
    ours = _PyParser(text)
    events = []
    while True:
        event = ours.get_event()
        events.append((type(event).__name__, getattr(event, "value", None), event.start_mark.index))
        if isinstance(event, yaml.StreamEndEvent):
            break
    stock = [
        (type(e).__name__, getattr(e, "value", None), e.start_mark.index)
        for e in yaml.parse(text, Loader=yaml.SafeLoader)
    ]
    assert events == stock


def test_size_bound(parser):
    assert_limit(load_yaml("a: 1\n" * 100, parser=parser, max_size=100))
    assert load_yaml("a: 1\n", parser=parser, max_size=100).diagnostics == []


def test_size_bound_counts_utf8_bytes():
    text = "a: " + "é" * 40  # 43 characters, 83 bytes
    assert load_yaml(text, max_size=90).diagnostics == []
    assert_limit(load_yaml(text, max_size=80))


def test_size_bound_checked_on_the_file_before_reading(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("a: 1\n" * 100)
    doc = load_yaml_file(path, max_size=100)
    assert_limit(doc)
    assert doc.diagnostics[0].file == str(path)
