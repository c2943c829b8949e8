"""Words the views show: counts with the right noun, and readable names for
the structural-merge relationships of a schema.

Views say ``1 node`` / ``2 nodes`` (never ``1 nodes``), and a relationship
in the words of what it does (``merged key by key``) with the schema's own
keyword in the tooltip, where the reader can look it up.
"""

from __future__ import annotations

__all__ = ["agree", "count", "relationship_words"]

# Nouns whose plural is not the noun and an ``s``.
_PLURALS = {"entry": "entries", "property": "properties", "child": "children"}


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``1 node``, ``2 nodes``, ``1,000 nodes``; ``plural`` for an irregular noun.

    >>> count(1, "node"), count(0, "rule"), count(1200, "edge"), count(2, "entry")
    ('1 node', '0 rules', '1,200 edges', '2 entries')
    """
    word = noun if number == 1 else (plural or _PLURALS.get(noun) or noun + "s")
    return f"{number:,} {word}"


# Plural nouns of the views' phrases and their singular (for ``agree``).
_SINGULARS = {
    "templates": "template",
    "entries": "entry",
    "types": "type",
    "diagnostics": "diagnostic",
    "paths": "path",
    "capabilities": "capability",
    "rows": "row",
    "changes": "change",
    "nodes": "node",
    "roles": "role",
    "properties": "property",
    "items": "item",
    "lines": "line",
}


def agree(number: int, phrase: str) -> str:
    """``phrase`` (written for many: ``more node templates``) with its first
    plural noun made singular when ``number`` is 1, so a note built as
    ``… {n} {phrase}`` never reads ``1 more templates``.

    >>> agree(1, "more node templates not shown"), agree(2, "more types")
    ('more node template not shown', 'more types')
    """
    if number != 1:
        return phrase
    words = phrase.split(" ")
    for i, word in enumerate(words):
        if word in _SINGULARS:
            words[i] = _SINGULARS[word]
            break
    return " ".join(words)


# What each element relationship does to a value when two layers merge.
_RELATIONSHIPS = {
    ("map", "separable"): "merged key by key",
    ("map", "atomic"): "replaced whole",
    ("map", "associative"): "merged key by key",
    ("list", "atomic"): "replaced whole",
    ("list", "associative"): "a set: merged item by item",
    ("list", "separable"): "merged item by item",
}


# The same, said of a named type's reference (a map or a list: not known there).
_ANY_KIND = {
    "atomic": "replaced whole",
    "separable": "merged part by part",
    "associative": "merged item by item",
}


def relationship_words(kind: str, relationship: str, keys: tuple[str, ...] = ()) -> str:
    """How a ``map`` or ``list`` merges, in words.

    >>> relationship_words("map", "separable")
    'merged key by key'
    >>> relationship_words("list", "associative", ("id",))
    'merged by id'
    >>> relationship_words("", "atomic")  # a named type's reference
    'replaced whole'
    """
    if kind == "list" and relationship == "associative" and keys:
        return "merged by " + ", ".join(keys)
    words = _RELATIONSHIPS.get((kind, relationship))
    return words or _ANY_KIND.get(relationship, relationship)
