"""Where every node of a loaded YAML document was written.

The loader records a light *shadow tree* beside the plain values: one
small object per mapping/sequence and a ``(line, column)`` pair per scalar
(0-based, as PyYAML's marks). :func:`walk` follows a path of keys and
indices through it, through aliases (an alias keeps its own position and
leads into its anchor's node) and merge keys (a merged key points at the
mapping it was merged from).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from toskit.records import record

__all__ = [
    "Location",
    "MapShadow",
    "SeqShadow",
    "AliasShadow",
    "find",
    "key_paths",
    "walk",
    "position_of",
]


@record(frozen=True)
class Location:
    """A 1-based position in a named file."""

    file: str | None
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file or '<unknown>'}:{self.line}:{self.column}"


class MapShadow:
    """A mapping's position and, per key, ``(key_line, key_column, value_shadow)``."""

    __slots__ = ("line", "column", "entries")

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column
        self.entries: dict = {}


class SeqShadow:
    """A sequence's position and its items' shadows."""

    __slots__ = ("line", "column", "items")

    def __init__(self, line: int, column: int) -> None:
        self.line = line
        self.column = column
        self.items: list = []


class AliasShadow:
    """An alias (``*name``): where it is written, and its anchor's shadow."""

    __slots__ = ("line", "column", "target")

    def __init__(self, line: int, column: int, target: object) -> None:
        self.line = line
        self.column = column
        self.target = target


def position_of(shadow: object) -> tuple[int, int]:
    """0-based ``(line, column)`` of any shadow (scalars are bare tuples)."""
    if isinstance(shadow, tuple):
        return shadow
    # A Map/Seq/AliasShadow: all have both.
    return shadow.line, shadow.column  # type: ignore[attr-defined]


def _deref(shadow: object) -> object:
    while isinstance(shadow, AliasShadow):
        shadow = shadow.target
    return shadow


def walk(root: object, parts: Sequence[Hashable], *, key: bool = False) -> tuple[int, int] | None:
    """0-based position of the node at ``parts`` (or of its key, with ``key``).

    A path that does not fully exist gives the deepest existing ancestor. With
    ``key``, the last part's key position in its mapping (a sequence item's
    own position); if that key does not exist, the same as without ``key``.
    """
    if root is None:
        return None
    current = root
    last = len(parts) - 1
    for i, part in enumerate(parts):
        container = _deref(current)
        if isinstance(container, MapShadow):
            try:
                entry = container.entries.get(part)
            except TypeError:  # an unhashable path part names nothing
                entry = None
            if entry is None:
                break
            if key and i == last:
                return entry[0], entry[1]
            current = entry[2]
        elif isinstance(container, SeqShadow):
            if not isinstance(part, int) or isinstance(part, bool):
                break
            if not 0 <= part < len(container.items):
                break
            current = container.items[part]
        else:
            break
    return position_of(current)


def find(
    root: object, parts: Sequence[Hashable], *, key: bool = False
) -> tuple[tuple[int, int], str, int] | None:
    """Like :func:`walk`, with what starts there and how much of the path exists.

    Returns ``(position, kind, found)``: ``kind`` is ``"key"`` (the key of
    the last part, with ``key``), ``"map"``, ``"seq"``, ``"alias"`` or
    ``"scalar"``; ``found`` is how many leading parts exist (less than
    ``len(parts)`` when only an ancestor does: the position and kind are
    then the ancestor's, its value, not its key). ``None`` without a tree.
    For the range of a finding (:mod:`toskit.source.spans`), computed only
    when a diagnostic is made.
    """
    if root is None:
        return None
    current = root
    last = len(parts) - 1
    found = 0
    for i, part in enumerate(parts):
        container = _deref(current)
        entry = None
        if isinstance(container, MapShadow):
            try:
                entry = container.entries.get(part)
            except TypeError:
                entry = None
            if entry is not None:
                if key and i == last:
                    return (entry[0], entry[1]), "key", i + 1
                current = entry[2]
                found = i + 1
                continue
        elif (
            isinstance(container, SeqShadow)
            and isinstance(part, int)
            and not isinstance(part, bool)
            and 0 <= part < len(container.items)
        ):
            current = container.items[part]
            found = i + 1
            continue
        break
    return position_of(current), _kind(current), found


def _kind(shadow: object) -> str:
    if isinstance(shadow, MapShadow):
        return "map"
    if isinstance(shadow, SeqShadow):
        return "seq"
    if isinstance(shadow, AliasShadow):
        return "alias"
    return "scalar"


def key_paths(root: object, positions: set[tuple[int, int]]) -> dict[tuple[int, int], tuple]:
    """The path of each mapping key written at one of ``positions`` (0-based).

    A walk of the whole tree (aliases not followed: a key is found where it
    is written), for the few findings that know a key's position but not
    its path (a duplicate key's first occurrence); stops when all are found.
    """
    out: dict[tuple[int, int], tuple] = {}
    stack: list[tuple[object, tuple]] = [(root, ())]
    while stack and len(out) < len(positions):
        node, parts = stack.pop()
        if isinstance(node, MapShadow):
            for key, (line, column, value) in node.entries.items():
                if (line, column) in positions:
                    out[(line, column)] = (*parts, key)
                stack.append((value, (*parts, key)))
        elif isinstance(node, SeqShadow):
            stack.extend((item, (*parts, i)) for i, item in enumerate(node.items))
    return out
