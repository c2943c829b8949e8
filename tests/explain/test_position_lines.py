"""Explain's positions read from the document's lines (``positions._scan``).

For a document written in YAML's plain block forms, the position tree is read
from the text's lines, led by the values already loaded, instead of PyYAML's
events (issue #32's bar with the faster load of issue #31). It must give the
very tree the document's own composer gives, and decline (the event reader
then answers) whatever it does not read plainly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml
from fixtures.position_trees import same_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toskit.source.document import load_yaml
from toskit.source.locations import MapShadow, SeqShadow
from toskit.tosca.explain import positions
from toskit.tosca.explain.positions import position_tree

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from gen_template import generate  # noqa: E402


def _scanned(text: str):
    doc = load_yaml(text, name="t.yaml")
    assert not doc.diagnostics, text
    return doc, positions._scan(doc.text, doc.value, 500)


def test_the_benchmark_template_is_read_from_its_lines():
    doc, mine = _scanned(generate(40))
    assert mine is not None  # B1 is read without PyYAML's events
    assert same_tree(mine, doc.position_tree())
    # and that is the tree explain uses
    assert same_tree(position_tree(doc), doc.position_tree())


@pytest.mark.parametrize(
    "text",
    [
        "a:\nb: 1\n",  # an empty value: its mark just after the colon
        "a:   \nb:\n",  # trailing spaces, the last one empty too
        "-\n- x\n-\n",  # empty items: the mark after the dash
        "a:\n- 1\n- b: 2\n  c: [x, -3, q]\nd: e\n",  # an indentless list of a map
        "- - x\n  - y\n- -   - z\n",  # lists starting on a dash's row
        "-   a: 1\n    b:\n      - {}\n      - []\n",  # a map on a dash's row, wide
        "---\n# a comment\n\nk:    v\n  # inside\nl: 'it is'\nm: \"q\"\n",
        "a : 1\n-x: 2\n3: three\ntrue: t\nnull: n\n1.5: f\n",  # keys of other types
        "  a: 1\n  b:\n    c: d\n",  # a root indented
        "a: [ x ,y,  z ]\nb: [ ]\n",  # spaces in a flow list
        "k: v:w\nx:y: z\n",  # colons without a space
    ],
)
def test_plain_block_forms_read_alike(text):
    doc, mine = _scanned(text)
    assert mine is not None, text
    assert same_tree(mine, doc.position_tree()), text


@pytest.mark.parametrize(
    "text",
    [
        "a: 1 # note\n",  # a comment after content
        "a: x\n  y\n",  # a plain scalar on two rows
        "a: |\n  x\n",  # a block scalar
        "a: >-\n  x\n",
        'a: "x\n  y"\n',  # a quoted scalar on two rows
        'a: "x\\"y"\n',  # an escape
        "a: 'x''y'\n",  # a doubled quote
        "a: {b: 1}\n",  # a flow map
        "a: [x,\n  y]\n",  # a flow list on two rows
        "a: [[x]]\n",  # nested flow
        "a:\n  ~\n",  # a scalar on the row below its key
        '"a": 1\n',  # a quoted key
        "? a\n: 1\n",  # an explicit key
        "a: &x 1\nb: *x\n",  # an anchor, an alias
        "a: !!str 1\n",  # a tag
        "a: 1\n...\n",  # a document end
        "%YAML 1.1\n---\na: 1\n",  # a directive
        "a:\tb\n",  # a tab (a diagnostic or a decline, never a guess)
        "a: 1\r\nb: 2\r\n",  # CRLF
        "x\n",  # a scalar document
    ],
)
def test_what_the_lines_do_not_read_goes_to_the_events(text):
    doc = load_yaml(text, name="t.yaml")
    if doc.diagnostics or doc.value is None:
        assert position_tree(doc) is None
        return
    assert positions._scan(doc.text, doc.value, 500) is None, text
    mine = position_tree(doc)  # the event reader answers instead
    if mine is not None:
        assert same_tree(mine, doc.position_tree()), text


def test_too_deep_is_declined():
    text = "".join("  " * d + f"k{d}:\n" for d in range(12)) + "  " * 12 + "v: 1\n"
    doc = load_yaml(text, name="t.yaml")
    assert positions._scan(doc.text, doc.value, 500) is not None
    assert positions._scan(doc.text, doc.value, 5) is None


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet="ab -:#'\"[]{},.!&*|>?%@`1 éx\\", max_size=8),
)
_KEYS = st.one_of(st.text(alphabet="abk-:_ .1'\"#", max_size=6), st.integers(0, 5), st.booleans())
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=25,
)
_READ = [0, 0]


@settings(
    max_examples=400,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(
    st.one_of(
        st.lists(_VALUES, min_size=1, max_size=3),
        st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=4),
    ),
    st.sampled_from([False, None]),
    st.sampled_from([2, 4]),
    st.booleans(),
    st.integers(0, 30),
    st.booleans(),
)
def test_dumped_documents_read_alike(value, flow, indent, start, at, blank):
    """Random values dumped in block and mixed styles, with comment rows, blank
    rows and empty values put in: whatever the lines read equals the events'."""
    text = yaml.safe_dump(
        value,
        default_flow_style=flow,
        indent=indent,
        width=10**6,
        allow_unicode=True,
        explicit_start=start,
    )
    if blank:
        text = text.replace(": null\n", ":\n").replace("- null\n", "-\n")
    rows = text.split("\n")
    if at < len(rows):
        rows.insert(at, "   # a note" if blank else "")
    text = "\n".join(rows)
    doc = load_yaml(text, name="t.yaml")
    if doc.diagnostics or doc.value is None:
        return
    _READ[0] += 1
    mine = positions._scan(doc.text, doc.value, 500)
    if mine is None:
        return
    _READ[1] += 1
    assert isinstance(mine, (MapShadow, SeqShadow))
    assert same_tree(mine, doc.position_tree()), text


def test_the_dumped_documents_reached_the_line_reader():
    # (runs after the test above, in file order): a good share was read, not declined
    assert _READ[0] > 200 and _READ[1] > _READ[0] // 4, _READ
