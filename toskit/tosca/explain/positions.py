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
(``<<``), scalar keys only, no duplicate key, nested within the default
bound. For anything else, or a text PyYAML refuses, it
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


_UNSEEN: Any = object()


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
        # The document loaded without a diagnostic under its own bounds: composing
        # it crosses none (the node count is not kept); the nesting stays bounded.
        return _compose(make_parser(doc.text, None), LIMIT_DEFAULTS["max_depth"])
    except (_Decline, yaml.YAMLError, ScalarError, ValueError):
        return None


def _compose(parser: Any, max_depth: int) -> Any:
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
    # The open collection in locals (the loop runs once an event): its shadow,
    # a map's entries or a list's items, and a map's pending key as
    # (value, line, column); the enclosing ones saved on ``stack``.
    stack: list[tuple[Any, Any, Any, Any]] = []
    shadow: Any = None
    root: Any = None
    entries: dict | None = None
    items: list | None = None
    key: Any = None
    documents = 0
    plain_keys: dict[str, Any] = {}  # a plain key's text -> its value
    while True:
        event = get_event()
        cls = event.__class__
        if cls is ScalarEvent:
            if event.tag is not None or event.anchor is not None:
                raise _Decline
            mark = event.start_mark
            node = (mark.line, mark.column)
            if entries is not None:
                if key is None:  # a key: (value, line, column); _key's work, inline
                    text = event.value
                    if event.implicit[0]:  # plain
                        # Keys repeat (``type``, ``properties``): each text resolved once.
                        value = plain_keys.get(text, _UNSEEN)
                        if value is _UNSEEN:
                            if text == "<<":
                                raise _Decline  # a merge key
                            value = plain_keys[text] = resolve_plain(text)
                    else:
                        value = text
                    if value in entries:
                        raise _Decline  # a duplicate key
                    key = (value, node[0], node[1])
                    continue
                entries[key[0]] = (key[1], key[2], node)
                key = None
            elif items is not None:
                items.append(node)
            else:
                root = node
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if (
                len(stack) >= max_depth  # nested past the bound
                or (entries is not None and key is None)  # a collection as a key
                or event.tag is not None
                or event.anchor is not None
            ):
                raise _Decline
            mark = event.start_mark
            stack.append((shadow, entries, items, key))
            if cls is MappingStartEvent:
                shadow = MapShadow(mark.line, mark.column)
                entries, items = shadow.entries, None
            else:
                shadow = SeqShadow(mark.line, mark.column)
                entries, items = None, shadow.items
            key = None
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            done = shadow
            shadow, entries, items, key = stack.pop()
            if entries is not None:
                entries[key[0]] = (key[1], key[2], done)
                key = None
            elif items is not None:
                items.append(done)
            else:
                root = done
        elif cls is AliasEvent or (cls is DocumentStartEvent and documents):
            raise _Decline  # an alias, a second document
        elif cls is DocumentStartEvent:
            documents = 1
        elif cls is StreamEndEvent:
            return root
