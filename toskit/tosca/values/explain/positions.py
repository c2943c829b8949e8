"""Where each node of a clean document was written, found without building its values.

An explanation needs the line of every layer it shows, and a document loaded
by the fast parser keeps no positions: ``YamlDocument.position_tree()``
composes them on first use with PyYAML, building every value again beside
the position tree (about as long as the load itself on benchmark B1). The
values are already loaded, so :func:`position_tree` reads the same PyYAML
events and builds the position tree alone (about 40 % less), with the same
classes (:mod:`toskit.source.locations`) and the same positions.

It answers only for what it reproduces exactly: a document without
diagnostics, one document, untagged nodes, no anchor, alias or merge key
(``<<``), scalar keys only, no duplicate key, within the default bounds of
nesting and node count. For anything else, or a text PyYAML refuses, it
returns ``None`` and the caller uses the document's own tree
(``tests/explain/test_positions_and_blame.py`` holds the two equal over the
examples and the test data).
"""

from __future__ import annotations

import weakref
from typing import Any

from toskit.source.locations import MapShadow, SeqShadow
from toskit.source.scalars import ScalarError, resolve_plain

__all__ = ["position_tree"]


class _Decline(Exception):
    """Something only the full composer reproduces: use the document's tree."""


# One tree per document, kept as long as the document lives: explanations of
# entities whose template is gone (each then has a memo of its own) share it.
_TREES: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def position_tree(doc: Any) -> Any:
    """The root of ``doc``'s position tree, as ``doc.position_tree()`` would
    give it, or ``None`` when this document is not one this reads exactly.
    Read once per document."""
    if doc is None:
        return None
    try:
        return _TREES[doc]
    except KeyError:
        pass
    tree = _TREES[doc] = _read(doc)
    return tree


def _read(doc: Any) -> Any:
    if doc.value is None or doc.diagnostics or not isinstance(doc.text, str):
        return None
    import yaml  # on use: `toskit check` never needs positions

    from toskit.source.compose import make_parser
    from toskit.source.document import LIMIT_DEFAULTS

    try:
        return _compose(
            make_parser(doc.text, None), LIMIT_DEFAULTS["max_depth"], LIMIT_DEFAULTS["max_nodes"]
        )
    except (_Decline, yaml.YAMLError, ScalarError, ValueError):
        return None


def _compose(parser: Any, max_depth: int, max_nodes: int) -> Any:
    from yaml.events import (
        AliasEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    get_event = parser.get_event
    # One frame per open collection: [its shadow, is a map, the pending key].
    # A pending key is (value, line, column) while its value is being read.
    stack: list[list[Any]] = []
    root: Any = None
    documents = nodes = 0
    while True:
        event = get_event()
        cls = event.__class__
        if cls is ScalarEvent:
            nodes += 1
            if event.tag is not None or event.anchor is not None:
                raise _Decline
            mark = event.start_mark
            if stack:
                top = stack[-1]
                if top[1] and top[2] is None:  # a key
                    text = event.value
                    key = resolve_plain(text) if event.implicit[0] else text
                    if (text == "<<" and event.implicit[0]) or key in top[0].entries:
                        raise _Decline  # a merge key, a duplicate key
                    top[2] = (key, mark.line, mark.column)
                    continue
                _put(top, (mark.line, mark.column))
            else:
                root = (mark.line, mark.column)
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            nodes += 1
            if event.tag is not None or event.anchor is not None or len(stack) >= max_depth:
                raise _Decline
            if stack and stack[-1][1] and stack[-1][2] is None:
                raise _Decline  # a collection as a key
            mark = event.start_mark
            is_map = cls is MappingStartEvent
            shadow = (MapShadow if is_map else SeqShadow)(mark.line, mark.column)
            stack.append([shadow, is_map, None])
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            shadow = stack.pop()[0]
            if stack:
                _put(stack[-1], shadow)
            else:
                root = shadow
        elif cls is AliasEvent:
            raise _Decline
        elif cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _Decline
        elif cls is StreamEndEvent:
            if nodes > max_nodes:
                raise _Decline
            return root


def _put(frame: list[Any], shadow: Any) -> None:
    """A finished node into its open parent: a map's value under its key, or a list's item."""
    if frame[1]:
        key, line, column = frame[2]
        frame[2] = None
        frame[0].entries[key] = (line, column, shadow)
    else:
        frame[0].items.append(shadow)
