"""The one place where toskit changes process-wide interpreter settings.

Internal to toskit (its packages share it; not part of API.md).

:class:`deep_walk` provides, for the duration of a ``with`` block:

* **Garbage collector paused** (``pause_gc=True``). Large loads and merges
  allocate hundreds of thousands of small acyclic containers, on which the
  cyclic collector's passes are pure overhead (merging 10,000 list items
  ran ~35% slower with it). Reference counting still frees everything at
  once; only cycle detection waits. Used by the TOSCA loader
  (``deep_walk(0, pause_gc=True)``) and by every schema merge/compare
  (``toskit.schema.values.guarded_walk``).
* **Recursion room** (``frames > 0``), which one walk still needs: the
  evaluation of *nested function calls* (``toskit.functions``). Each level
  of call nesting recurses through dispatch, the built-in and its
  arguments (about five Python frames), and ``evaluate(max_depth=200)``
  allows 200 levels, about 1,000 frames: more than CPython's default limit
  leaves. So calls nested deeper than 60 levels run inside
  ``toskit.functions._limits.deep_recursion`` (5,000 frames). Making that
  walk iterative would mean rewriting every built-in as a generator; it was
  not done. Every walk over *data* needs no room: schema validation, merge,
  merge_layers, compare, field sets, unions, and function parsing,
  unparsing and evaluation run on explicit stacks
  (:func:`toskit.plain.drive`) bounded by the one depth bound
  :data:`toskit.plain.MAX_DEPTH` (500, the YAML loader's), which their
  tests check at ``sys.getrecursionlimit() == 1000``.

The room: on entry the limit is raised (never lowered) so that at least
``frames`` more Python frames fit above the *caller's* actual depth (the
first block raises it by ``frames``; a nested or concurrent block counts the
caller's frames). Since Python 3.11, Python-to-Python calls do not use the C
stack, so a limit a few thousand frames higher is safe; a walk that still
recurses too deeply gets a ``RecursionError`` that its caller turns into a
toskit error.

Both settings are process-wide, so the state is shared and counted under a
lock: blocks may nest (re-entrant) and run in several threads at once. The
limit only ever goes up while any block is active, so a block in one thread
can never cut another thread's walk short, and the settings found before the
first block are restored exactly when the last block ends, unless someone
else changed them meanwhile (then theirs are kept). The garbage collector is
re-enabled only if it was enabled when the first pausing block began.

Use it instead of calling ``sys.setrecursionlimit`` or ``gc.disable``
anywhere else::

    from toskit.runtime import deep_walk

    with deep_walk(0, pause_gc=True):  # a large load or merge: the GC paused only
        ...
    with deep_walk(5000):  # deeply nested calls: room for 5,000 more frames
        ...
"""

from __future__ import annotations

import gc
import sys
import threading
from types import FrameType

__all__ = ["active_walks", "deep_walk"]

_LOCK = threading.Lock()


class _State:
    """The shared bookkeeping of all active :class:`deep_walk` blocks."""

    __slots__ = ("active", "saved_limit", "raised_to", "gc_pausers", "gc_was_enabled")

    def __init__(self) -> None:
        self.active = 0  # blocks currently inside, in all threads
        self.saved_limit = 0  # the recursion limit before the first block
        self.raised_to: int | None = None  # the limit we last set (None: never raised)
        self.gc_pausers = 0  # active blocks that asked for the collector to pause
        self.gc_was_enabled = False  # the collector's state before the first pausing block


_state = _State()


def _restore_pending() -> bool:
    """True when the limit is still the one we raised it to (not yet restored,
    and nobody else changed it since)."""
    return _state.raised_to is not None and sys.getrecursionlimit() == _state.raised_to


def _depth() -> int:
    """The number of Python frames on the calling thread's stack."""
    depth = 0
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


class deep_walk:  # noqa: N801 - used like a function: ``with deep_walk(2000):``
    """Room for ``frames`` more Python frames, and optionally the cyclic
    garbage collector paused, while the block runs (see the module doc).

    An instance holds only its settings, so one instance may be reused and
    even entered by several threads at once. It is a class rather than a
    generator-based context manager because it wraps every merge and
    compare and must cost next to nothing (a fraction of a microsecond for
    an outermost block, a few for a nested one).
    """

    __slots__ = ("frames", "pause_gc")

    def __init__(self, frames: int, *, pause_gc: bool = False) -> None:
        if frames < 0:
            raise ValueError(f"frames must be >= 0, got {frames}")
        self.frames = frames
        self.pause_gc = pause_gc

    def __enter__(self) -> None:
        with _LOCK:
            state = _state
            if state.active == 0:
                if not _restore_pending():
                    state.saved_limit = sys.getrecursionlimit()
                    state.raised_to = None
                # The caller runs, so it is less deep than the current limit:
                # the limit plus ``frames`` is enough, without counting frames.
                needed = sys.getrecursionlimit() + self.frames
            else:
                # Nested, or another thread's block is active (the limit may
                # already be raised far above this caller): count exactly.
                needed = _depth() + self.frames
            state.active += 1
            if needed > sys.getrecursionlimit():
                sys.setrecursionlimit(needed)
                state.raised_to = needed
            if self.pause_gc:
                if state.gc_pausers == 0:
                    state.gc_was_enabled = gc.isenabled()
                    gc.disable()
                state.gc_pausers += 1

    def __exit__(self, *exc: object) -> None:
        with _LOCK:
            state = _state
            state.active -= 1
            if state.active == 0 and _restore_pending():
                try:
                    sys.setrecursionlimit(state.saved_limit)
                    state.raised_to = None
                except RecursionError:
                    # This thread is itself deeper than the old limit (it got
                    # there while the limit was raised): keep the raised limit
                    # for now; the next block to end restores it.
                    pass
            if self.pause_gc:
                state.gc_pausers -= 1
                if state.gc_pausers == 0 and state.gc_was_enabled:
                    _promote_young()
                    gc.enable()

    def __repr__(self) -> str:
        return f"deep_walk({self.frames}, pause_gc={self.pause_gc})"


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


def active_walks() -> int:
    """How many :class:`deep_walk` blocks are active right now, in all threads
    (for tests and debugging)."""
    return _state.active
