"""Hashable stand-ins for mappings and sequences used as YAML keys."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

__all__ = ["FrozenMap", "freeze"]


class FrozenMap(Mapping):
    """A hashable, immutable mapping (used for YAML keys that are mappings).

    Equal to any mapping with the same items (``FrozenMap({"a": 1}) ==
    {"a": 1}``); its values are hashable too (nested mappings are
    ``FrozenMap``, nested sequences tuples).
    """

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping | Sequence = ()) -> None:
        self._data = dict(data)
        self._hash: int | None = None

    def __getitem__(self, key: Hashable) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


def freeze(value: Any) -> Any:
    """``value`` with every dict made a :class:`FrozenMap` and every list a tuple.

    Iterative (no recursion, whatever the depth); shared sub-values stay shared.
    """
    if not isinstance(value, (dict, list)):
        return value
    done: dict[int, Any] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in done:
            continue
        children = node.values() if isinstance(node, dict) else node
        if not children_done:
            stack.append((node, True))
            stack.extend(
                (child, False)
                for child in children
                if isinstance(child, (dict, list)) and id(child) not in done
            )
            continue

        def fix(child: Any) -> Any:
            return done[id(child)] if isinstance(child, (dict, list)) else child

        if isinstance(node, dict):
            done[id(node)] = FrozenMap({k: fix(v) for k, v in node.items()})
        else:
            done[id(node)] = tuple(fix(child) for child in node)
    return done[id(value)]
