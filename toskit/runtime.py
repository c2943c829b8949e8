"""The one place where toskit changes a process-wide interpreter setting:
the cyclic garbage collector, paused while a large load or merge runs.

Internal to toskit (its packages share it; not public API).

:class:`deep_walk` pauses the collector (``pause_gc=True``) for the
duration of a ``with`` block. Large loads and merges allocate hundreds of
thousands of small acyclic containers, on which the cyclic collector's
passes are pure overhead (merging 10,000 list items ran ~35% slower with
it). Reference counting still frees everything at once; only cycle
detection waits. Used by the TOSCA loader (``deep_walk(0, pause_gc=True)``),
``toskit check`` and every schema merge/compare
(``toskit.schema.values.guarded_walk``). When a large block ends, what it
built is promoted to the oldest generation unscanned (:func:`_promote_young`).

toskit never raises the recursion limit. Every walk over *data* (schema
validation, merge, merge_layers, compare, field sets, unions, and function
parsing, unparsing and evaluation) runs on an explicit stack
(:func:`toskit.plain.drive`) bounded by :data:`toskit.plain.MAX_DEPTH`
(500); nested function *calls*, which do recurse (about six to ten Python
frames per level), are bounded by
:data:`toskit.functions._limits.MAX_CALL_DEPTH` (50), checked when a value
is parsed and again when it is evaluated, so the deepest call fits in
CPython's default limit of 1,000 frames even from a caller 300 frames deep
(tests/functions/test_robustness.py checks both at that limit, with
``sys.setrecursionlimit`` patched to record any call).

The collector's state is process-wide, so it is shared and counted under a
lock: blocks may nest (re-entrant) and run in several threads at once. The
collector is re-enabled when the last pausing block ends, and only if it was
enabled when the first one began.

:func:`gc_paused` wraps a heavy view builder the same way (a notebook view
of a large template no longer stalls on full collections over it).

Use it instead of calling ``gc.disable`` anywhere else::

    from toskit.runtime import deep_walk

    with deep_walk(0, pause_gc=True):  # a large load or merge: the GC paused
        ...
"""

from __future__ import annotations

import _thread
import functools
import gc
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["active_walks", "deep_walk", "gc_paused"]

# threading.Lock is _thread.allocate_lock; threading itself costs ~0.5 ms of
# `toskit check`'s start-up (#31).
_LOCK = _thread.allocate_lock()


class _State:
    """The shared bookkeeping of all active :class:`deep_walk` blocks."""

    __slots__ = ("active", "gc_pausers", "gc_was_enabled")

    def __init__(self) -> None:
        self.active = 0  # blocks currently inside, in all threads
        self.gc_pausers = 0  # active blocks that asked for the collector to pause
        self.gc_was_enabled = False  # the collector's state before the first pausing block


_state = _State()


class deep_walk:  # noqa: N801 - used like a function: ``with deep_walk(0, pause_gc=True):``
    """The cyclic garbage collector optionally paused while the block runs
    (see the module doc).

    ``frames`` is what the block once reserved in recursion room; toskit no
    longer raises the recursion limit, so it must be 0 (kept so that the
    callers' ``deep_walk(0, pause_gc=True)`` reads as before).

    An instance holds only its settings, so one instance may be reused and
    even entered by several threads at once. It is a class rather than a
    generator-based context manager because it wraps every merge and
    compare and must cost next to nothing.
    """

    __slots__ = ("pause_gc",)

    def __init__(self, frames: int = 0, *, pause_gc: bool = False) -> None:
        if frames != 0:
            raise ValueError(
                f"frames must be 0 (toskit does not raise the recursion limit), got {frames}"
            )
        self.pause_gc = pause_gc

    def __enter__(self) -> None:
        with _LOCK:
            state = _state
            state.active += 1
            if self.pause_gc:
                if state.gc_pausers == 0:
                    state.gc_was_enabled = gc.isenabled()
                    gc.disable()
                state.gc_pausers += 1

    def __exit__(self, *exc: object) -> None:
        with _LOCK:
            state = _state
            state.active -= 1
            if self.pause_gc:
                state.gc_pausers -= 1
                if state.gc_pausers == 0 and state.gc_was_enabled:
                    _promote_young()
                    gc.enable()

    def __repr__(self) -> str:
        return f"deep_walk(0, pause_gc={self.pause_gc})"


# A paused block that left this many young objects (a large load: ~380,000
# at 5,000 node templates) hands them to the oldest generation unscanned.
PROMOTE_AFTER = 50_000


def _promote_young() -> None:
    """Move the objects allocated while the collector was paused to the
    oldest generation without scanning them (``gc.freeze()`` then
    ``gc.unfreeze()``; both only splice lists).

    Otherwise the first allocation after ``gc.enable()`` runs a young
    collection over everything the block built (~100 ms at 5,000 node
    templates, bench B1), and a second one when they reach the middle
    generation; what a load returns lives on, and holds no reference cycles.
    The next full collection still scans them. Only after a large block
    (``PROMOTE_AFTER``), so that small merges in a loop leave the young
    collections as they are; never when the process froze objects itself
    (``gc.unfreeze()`` would release them).
    """
    if gc.get_count()[0] >= PROMOTE_AFTER and gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


_VIEW_PAUSE = deep_walk(0, pause_gc=True)

F = TypeVar("F", bound=Callable[..., Any])


def gc_paused(function: F) -> F:
    """``function`` run with the cyclic collector paused: a heavy view builder
    (``to_html``, ``to_frame``, a topology and its SVG, ``render_page``).

    A view of a large template allocates many objects after the template's
    (~45 tracked objects per node, in the oldest generation after its load):
    enough to trigger full collections over all of it, each ~0.26 s at
    10,000 nodes and ~0.64 s at 20,000 (issue #31), for objects that are
    mostly strings freed by reference counting. Paused, the builder runs
    2-2.7x faster; what it leaves is promoted unscanned when it is large
    (:func:`_promote_young`), as after a load.
    """

    @functools.wraps(function)
    def paused(*args: Any, **kwargs: Any) -> Any:
        with _VIEW_PAUSE:
            return function(*args, **kwargs)

    return cast(F, paused)


def active_walks() -> int:
    """How many :class:`deep_walk` blocks are active right now, in all threads
    (for tests and debugging)."""
    return _state.active
