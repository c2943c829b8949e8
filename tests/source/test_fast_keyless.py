"""The fast path and a key with no text (found by the mutation fuzzer of
test_fast_path: ``- [?`` + a line break): rapidyaml reads an unclosed flow
sequence ending in an explicit ``?`` as a map with an empty key, where
PyYAML reports a syntax error. A key without any text goes to PyYAML; a
quoted empty key (``''``, ``""``) keeps the fast path."""

from __future__ import annotations

import pytest

from toskit.source import fast, load_yaml

pytestmark = pytest.mark.skipif(not fast.available(), reason="rapidyaml is not installed")

LIMITS = {"max_nodes": 10**6, "max_depth": 100}


@pytest.mark.parametrize(
    "text", ["- [?\n", "[?\n", "a: [?\n", "a: [ ?\n", "- - [?\n", "x:\n  - [?\n"]
)
def test_an_unclosed_flow_sequence_ending_in_a_question_mark_is_pyyamls(text: str) -> None:
    assert fast.load_fast(text, LIMITS) is fast.FALLBACK
    quick, reference = load_yaml(text, parser="fast"), load_yaml(text, parser="c")
    assert (quick.value, quick.diagnostics) == (reference.value, reference.diagnostics)
    assert [d.code for d in quick.diagnostics] == ["yaml-syntax"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('"": x\n', {"": "x"}),
        ("'': x\n", {"": "x"}),
        ('{"": 1}\n', {"": 1}),
        ("- [? a]\n", [[{"a": None}]]),
        ("? a\n: b\n", {"a": "b"}),
    ],
)
def test_quoted_empty_and_explicit_keys_stay_on_the_fast_path(text: str, value: object) -> None:
    assert fast.load_fast(text, LIMITS) == value
    assert load_yaml(text, parser="c").value == value
