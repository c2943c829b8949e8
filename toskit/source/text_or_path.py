"""Text or path: how toskit reads a ``str`` argument that may be either.

``conditions.load_roles``, ``conditions.load_release`` and
``schema.load`` take a path, YAML text or loaded data; ``toskit.load`` and
``toskit.loads`` take paths and text through distinct functions. The
decision is made by type first: a :class:`pathlib.Path` (any
``os.PathLike``) is always a path, a mapping or list is loaded data. A
``str`` is YAML text when it contains a line break, a YAML flow collection
start (``{`` or ``[``) or a ``": "`` key separator, ends with ``:``, or is
empty or blank (an empty document) —
``"roles_metadata: {controller: {}}"`` is text — and a path otherwise. To
load a file whose name contains one of those, pass a ``Path``.

>>> is_yaml_text("roles_metadata: {controller: {}}")
True
>>> is_yaml_text("releases/openstack.yaml")
False
>>> is_yaml_text("")
True
"""

from __future__ import annotations

__all__ = ["is_yaml_text"]

_TEXT_MARKS = ("\n", "\r", "{", "[", ": ")


def is_yaml_text(source: str) -> bool:
    """True when the ``str`` ``source`` is YAML text rather than a path."""
    stripped = source.strip()
    return not stripped or stripped.endswith(":") or any(mark in source for mark in _TEXT_MARKS)
