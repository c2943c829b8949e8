"""Text or path: how the conditions package reads a ``str`` argument.

``load_roles`` and ``load_release`` take a path, YAML text or loaded data.
The decision is made by type first: a :class:`pathlib.Path` (any
``os.PathLike``) is always a path, a mapping or list is loaded data. A
``str`` is YAML text when it contains a line break, a YAML flow collection
start (``{`` or ``[``) or a ``": "`` key separator — ``"roles_metadata:
{controller: {}}"`` is text — and a path otherwise. To load a file whose
name contains one of those, pass a ``Path``.
"""

from __future__ import annotations

__all__ = ["is_yaml_text"]

_TEXT_MARKS = ("\n", "\r", "{", "[", ": ")


def is_yaml_text(source: str) -> bool:
    """True when the ``str`` ``source`` is YAML text rather than a path."""
    return any(mark in source for mark in _TEXT_MARKS) or source.rstrip().endswith(":")
