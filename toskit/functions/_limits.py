"""Room for deep (but bounded) trees.

The loader accepts documents nested up to 500 levels, and nested calls are
bounded by ``evaluate(max_depth=...)``; the recursive tree walks of this
package need a few Python frames per level, more than CPython's default
limit of 1000 allows. While a walk runs, :func:`deep_recursion` gives it
:data:`WALK_FRAMES` frames of room through :class:`toskit.runtime.deep_walk`,
the one place where toskit changes the interpreter's recursion limit (shared,
counted and restored exactly, safe across threads). A walk that still
recurses too deeply is turned into a toskit error by the caller, never
leaked as ``RecursionError``.
"""

from __future__ import annotations

from toskit.runtime import deep_walk

__all__ = ["WALK_FRAMES", "deep_recursion"]

# 500 levels of data × a few frames per level, plus nested calls, with margin.
WALK_FRAMES = 5000


def deep_recursion() -> deep_walk:
    """A ``with`` block in which :data:`WALK_FRAMES` more frames fit above the caller."""
    return deep_walk(WALK_FRAMES)
