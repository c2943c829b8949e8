"""Room for deep (but bounded) trees.

The loader accepts documents nested up to 500 levels, and nested calls are
bounded by ``evaluate(max_depth=...)``; the recursive tree walks of this
package need a few Python frames per level, more than CPython's default
limit of 1000 allows. While a walk runs, :func:`deep_recursion` makes sure
the limit is at least :data:`MIN_RECURSION_LIMIT` (it only ever raises it and
restores it afterwards; since Python 3.11 Python-to-Python calls do not use
the C stack, so this is safe). A walk that still recurses too deeply is
turned into a toskit error by the caller, never leaked as ``RecursionError``.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["MIN_RECURSION_LIMIT", "deep_recursion"]

MIN_RECURSION_LIMIT = 6000

_LOCK = threading.Lock()
_ACTIVE = 0
_SAVED: int | None = None


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Raise the recursion limit to at least ``MIN_RECURSION_LIMIT`` for the duration."""
    global _ACTIVE, _SAVED
    with _LOCK:
        if _ACTIVE == 0 and sys.getrecursionlimit() < MIN_RECURSION_LIMIT:
            _SAVED = sys.getrecursionlimit()
            sys.setrecursionlimit(MIN_RECURSION_LIMIT)
        _ACTIVE += 1
    try:
        yield
    finally:
        with _LOCK:
            _ACTIVE -= 1
            if _ACTIVE == 0 and _SAVED is not None:
                sys.setrecursionlimit(_SAVED)
                _SAVED = None
