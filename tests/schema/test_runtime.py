"""toskit.runtime.deep_walk: recursion room and a paused GC, shared and restored exactly."""

from __future__ import annotations

import gc
import sys
import threading

import pytest

from toskit.runtime import active_walks, deep_walk


@pytest.fixture(autouse=True)
def _clean_state():
    limit, enabled = sys.getrecursionlimit(), gc.isenabled()
    assert active_walks() == 0
    yield
    assert active_walks() == 0
    sys.setrecursionlimit(limit)
    gc.enable() if enabled else gc.disable()


def _recurse(n: int) -> int:
    return 0 if n == 0 else 1 + _recurse(n - 1)


def test_room_is_counted_from_the_callers_depth():
    def deep_caller(n: int) -> int:
        if n:
            return deep_caller(n - 1)
        with deep_walk(3000):
            return _recurse(2900)

    # The caller is already 800 frames deep: a fixed limit of 3000 would not do.
    assert deep_caller(800) == 2900


def test_limit_and_gc_restored_exactly():
    limit = sys.getrecursionlimit()
    with deep_walk(5000, pause_gc=True):
        assert sys.getrecursionlimit() > limit
        assert not gc.isenabled()
    assert sys.getrecursionlimit() == limit
    assert gc.isenabled()


def test_restored_after_an_exception():
    limit = sys.getrecursionlimit()
    with pytest.raises(RecursionError), deep_walk(100, pause_gc=True):
        _recurse(10**6)
    assert sys.getrecursionlimit() == limit
    assert gc.isenabled()


def test_never_lowers_the_limit():
    sys.setrecursionlimit(20_000)
    with deep_walk(10):
        assert sys.getrecursionlimit() >= 20_000
        with deep_walk(10):  # nested: the caller is shallow, no raise needed
            assert sys.getrecursionlimit() >= 20_000
    assert sys.getrecursionlimit() == 20_000


def test_nested_block_deep_in_an_outer_walk_gets_its_own_room():
    def walk(n: int) -> int:
        if n:
            return walk(n - 1)
        with deep_walk(2000):
            return _recurse(1900)

    with deep_walk(3000):
        assert walk(2500) == 1900  # the inner block starts 2,500 frames deep


def test_a_disabled_gc_stays_disabled():
    gc.disable()
    with deep_walk(10, pause_gc=True):
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_without_pause_gc_the_collector_is_untouched():
    with deep_walk(10):
        assert gc.isenabled()


def test_nested_blocks_restore_when_the_outermost_ends():
    limit = sys.getrecursionlimit()
    walk = deep_walk(2000, pause_gc=True)
    with walk:
        outer = sys.getrecursionlimit()
        with walk:  # one instance may be re-entered
            assert sys.getrecursionlimit() >= outer
            assert active_walks() == 2
        assert sys.getrecursionlimit() >= outer  # never lowered while active
        assert not gc.isenabled()
    assert sys.getrecursionlimit() == limit
    assert gc.isenabled()


def test_a_limit_set_by_someone_else_inside_is_kept():
    with deep_walk(2000):
        sys.setrecursionlimit(12_345)
    assert sys.getrecursionlimit() == 12_345


def test_overlapping_threads_do_not_cut_each_other_short():
    """Thread A ends its block while B is still walking: B keeps its room,
    and the old settings come back only when B ends too."""
    limit = sys.getrecursionlimit()
    a_inside, b_inside, a_done = threading.Event(), threading.Event(), threading.Event()
    results: dict[str, object] = {}

    def thread_a() -> None:
        with deep_walk(3000, pause_gc=True):
            a_inside.set()
            b_inside.wait(5)
        a_done.set()

    def thread_b() -> None:
        a_inside.wait(5)
        with deep_walk(3000, pause_gc=True):
            b_inside.set()
            a_done.wait(5)
            try:
                results["depth"] = _recurse(2800)
            except RecursionError as exc:  # pragma: no cover - the failure being tested
                results["depth"] = exc
            results["gc"] = gc.isenabled()

    threads = [threading.Thread(target=thread_a), threading.Thread(target=thread_b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert results == {"depth": 2800, "gc": False}
    assert sys.getrecursionlimit() == limit
    assert gc.isenabled()


def test_negative_room_is_refused():
    with pytest.raises(ValueError, match="frames"):
        deep_walk(-1)
