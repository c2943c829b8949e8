"""Room for deeply nested calls.

Data is walked without Python recursion (parse, unparse and evaluation use
:func:`toskit.plain.drive`; the one depth bound is
:data:`toskit.plain.MAX_DEPTH`). Nested *calls* still recurse: each level
goes through dispatch, the built-in and its arguments (about five frames),
and ``evaluate(max_depth=...)`` allows 200 levels by default, more than
CPython's default limit of 1000 frames leaves. So a call nested deeper than
a few dozen levels (``evaluate._CALLS_WITHOUT_ROOM``) runs inside
:func:`deep_recursion`, which gives it :data:`WALK_FRAMES` frames of room
through :class:`toskit.runtime.deep_walk`, the one place where toskit changes
the interpreter's recursion limit (shared, counted and restored exactly, safe
across threads). A walk that still recurses too deeply is turned into a
toskit error by the caller, never leaked as ``RecursionError``.
"""

from __future__ import annotations

from toskit.runtime import deep_walk

__all__ = ["WALK_FRAMES", "deep_recursion"]

# max_depth levels of calls × about five frames each (max_depth up to ~900), with margin.
WALK_FRAMES = 5000


def deep_recursion() -> deep_walk:
    """A ``with`` block in which :data:`WALK_FRAMES` more frames fit above the caller."""
    return deep_walk(WALK_FRAMES)
