"""Hypothesis strategies shared by the test folders (``from strategies
import plain_data``; ``tests/`` is on ``sys.path``, see ``tests/conftest.py``).

Many property tests draw *plain data*: YAML-like scalars nested in lists and
mappings. They differ in which scalars, which keys and how big, so the two
builders here take those as arguments; each test keeps its own choice,
written in one line, instead of a pasted ``st.recursive`` block.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

__all__ = ["plain_data", "plain_scalars"]

#: The integers that overflow 64 bits both ways (YAML has no bound).
BIG_INTEGERS = st.integers(min_value=-(2**70), max_value=2**70)


def plain_scalars(
    integers: SearchStrategy, floats: SearchStrategy, *more: SearchStrategy
) -> SearchStrategy:
    """``None``, booleans, ``integers``, ``floats`` and then ``more`` (texts,
    names, numbers written as text …), in that order."""
    return st.one_of(st.none(), st.booleans(), integers, floats, *more)


def plain_data(
    leaves: SearchStrategy,
    keys: SearchStrategy | Callable[[SearchStrategy], SearchStrategy],
    *,
    max_leaves: int = 10,
    list_size: int = 3,
    map_size: int = 3,
) -> SearchStrategy:
    """``leaves`` nested in lists (at most ``list_size`` items) and mappings
    (at most ``map_size`` keys drawn from ``keys``; a function of the
    children strategy when keys may be data too), ``max_leaves`` leaves at
    most."""

    def extend(children: SearchStrategy) -> SearchStrategy:
        drawn = keys if isinstance(keys, SearchStrategy) else keys(children)
        return st.one_of(
            st.lists(children, max_size=list_size),
            st.dictionaries(drawn, children, max_size=map_size),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)
