"""Property tests: the loader never crashes, and plain data round-trips with locations."""

import math

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toskit.diagnostics import Diagnostic
from toskit.source import YamlDocument, load_yaml
from toskit.source.compose import C_PARSER_AVAILABLE
from toskit.source.scalars import resolve_plain

PARSERS = ["c", "python"] if C_PARSER_AVAILABLE else ["python"]
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

YAMLISH = st.lists(
    st.sampled_from(
        list(" \n\t:-[]{},#&*!|>'\"%@`?~=.01aZé\r\x85\u2028")
        + ["<<", "  ", "\n  ", "- ", ": ", "&a ", "*a", "!!str ", "!!int ", "? ", "---\n"]
    ),
    max_size=40,
).map("".join)


def check_never_raises(text: str) -> None:
    for parser in PARSERS:
        doc = load_yaml(text, parser=parser)
        assert isinstance(doc, YamlDocument)
        assert all(isinstance(d, Diagnostic) for d in doc.diagnostics)
        for diag in doc.diagnostics:
            str(diag)  # renders, caret and all
            assert diag.code in {"yaml-syntax", "duplicate-key", "limit-exceeded"}
        if doc.value is None and doc.diagnostics:
            # A duplicate key alone keeps the value: no value means a real error.
            assert any(d.code != "duplicate-key" for d in doc.diagnostics)
        doc.locate(("a", 0, "b"))
        doc.locate_key(("a",))


@SETTINGS
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(text):
    check_never_raises(text)


@SETTINGS
@given(YAMLISH)
def test_yaml_like_text_never_raises(text):
    check_never_raises(text)


class PlainDumper(yaml.SafeDumper):
    """safe_dump, but quoting every string that toskit's YAML 1.2 reading would retype.

    PyYAML writes YAML 1.1: it leaves ``0o17`` or ``1e3`` unquoted, which
    YAML 1.2 reads as numbers.
    """


def _represent_str(dumper, data):
    style = None if resolve_plain(data) == data and isinstance(resolve_plain(data), str) else "'"
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


PlainDumper.add_representer(str, _represent_str)

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    # PyYAML's emitter folds these line breaks inside quoted scalars.
    | st.text(
        st.characters(blacklist_characters="\x85\u2028\u2029", blacklist_categories=("Cs",)),
        max_size=12,
    )
)
plain_data = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(
                st.characters(
                    blacklist_characters="\x85\u2028\u2029", blacklist_categories=("Cs",)
                ),
                max_size=8,
            )
            | st.integers(),
            inner,
            max_size=4,
        )
    ),
    max_leaves=25,
)


def all_paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from all_paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from all_paths(child, (*prefix, index))


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b and type(a) is type(b)


@SETTINGS
@given(plain_data, st.booleans())
def test_dumped_plain_data_loads_back_with_a_location_for_every_node(data, flow):
    text = yaml.dump(data, Dumper=PlainDumper, default_flow_style=flow, allow_unicode=True)
    results = []
    for parser in PARSERS:
        doc = load_yaml(text, parser=parser)
        assert doc.diagnostics == []
        assert doc.value == data
        paths = list(all_paths(data))
        for path in paths:
            node = data
            for part in path:
                node = node[part]
            got = doc.value
            for part in path:
                got = got[part]
            assert same(got, node)
        positions = [doc.locate(path) for path in paths]
        assert all(p is not None for p in positions)
        assert all(doc.line_text(p.line) is not None for p in positions)
        # distinct nodes start at distinct places: no path fell back to an ancestor
        assert len({(p.line, p.column) for p in positions}) == len(positions)
        results.append(positions)
    assert all(r == results[0] for r in results)


path_parts = st.lists(
    st.integers(-2, 5) | st.text(max_size=3) | st.booleans() | st.none() | st.just(("a",)),
    max_size=5,
)


@SETTINGS
@given(plain_data, path_parts)
def test_locate_any_path_gives_a_location_inside_the_text(data, path):
    text = yaml.dump(data, Dumper=PlainDumper, allow_unicode=True)
    doc = load_yaml(text)
    for found in (doc.locate(path), doc.locate_key(path)):
        assert found is not None
        assert doc.line_text(found.line) is not None
        assert 1 <= found.column <= len(doc.line_text(found.line)) + 1


@SETTINGS
@given(
    plain_data,
    st.integers(1, 6),
    st.integers(1, 40),
    st.sampled_from(PARSERS),
)
def test_small_bounds_give_limit_exceeded_or_the_full_value(data, depth, nodes, parser):
    text = yaml.dump(data, Dumper=PlainDumper, allow_unicode=True)
    doc = load_yaml(text, parser=parser, max_depth=depth, max_nodes=nodes)
    over = count_nodes(data) > nodes or nesting(data) > depth
    if over:
        assert [d.code for d in doc.diagnostics] == ["limit-exceeded"]
        assert doc.value is None
    else:
        assert doc.diagnostics == []
        assert doc.value == data


def count_nodes(value):
    """Nodes as the loader counts them: every key, value and item, collections included."""
    if isinstance(value, dict):
        return 1 + sum(1 + count_nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(count_nodes(v) for v in value)
    return 1


def nesting(value):
    """Collections nested inside each other (a scalar: 0, ``[1]``: 1, ``[[1]]``: 2)."""
    if isinstance(value, dict):
        return 1 + max((nesting(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((nesting(v) for v in value), default=0)
    return 0
