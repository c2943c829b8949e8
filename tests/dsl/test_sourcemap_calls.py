"""``SourceIndex.call_at`` without a column (Python < 3.11 tracebacks) picks
the first call on the line; with two calls on one line it used to sort
``CallInfo`` objects, which have no order (``TypeError``), found by mypy
(issue #15 item 5)."""

from __future__ import annotations

from toskit.dsl.sourcemap import SourceIndex

TEXT = "x = 1\ny = f(a=1) + g(2, b=3)\n"


def test_call_at_without_a_column_is_the_first_call_on_the_line():
    index = SourceIndex("m.py", TEXT)
    call = index.call_at(2, None)
    assert call is not None
    assert (call.line, call.column) == (2, 5)
    assert call.keywords == {"a": (2, 7)}


def test_call_at_with_a_column_and_on_a_line_without_calls():
    index = SourceIndex("m.py", TEXT)
    call = index.call_at(2, 14)
    assert call is not None and call.positional == ((2, 16),) and set(call.keywords) == {"b"}
    assert index.call_at(1, None) is None
    assert index.call_at(None, None) is None
