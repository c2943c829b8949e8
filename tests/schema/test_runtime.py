"""toskit.runtime.deep_walk: the cyclic GC paused, shared and restored exactly;
the recursion limit is never touched (issue #15)."""

from __future__ import annotations

import gc
import sys
import threading

import pytest

from toskit.runtime import active_walks, deep_walk


@pytest.fixture(autouse=True)
def _clean_state(monkeypatch):
    """Checks that no block is left active, and records any change of the recursion limit."""
    enabled = gc.isenabled()
    assert active_walks() == 0
    raised: list[int] = []
    monkeypatch.setattr(sys, "setrecursionlimit", raised.append)
    yield
    assert raised == []  # no block changed the process-wide recursion limit
    assert active_walks() == 0
    gc.enable() if enabled else gc.disable()


def test_gc_paused_and_restored_exactly():
    limit = sys.getrecursionlimit()
    with deep_walk(0, pause_gc=True):
        assert not gc.isenabled()
        assert sys.getrecursionlimit() == limit
    assert gc.isenabled()


def test_restored_after_an_exception():
    with pytest.raises(KeyError), deep_walk(0, pause_gc=True):
        raise KeyError("x")
    assert gc.isenabled()


def test_a_disabled_gc_stays_disabled():
    gc.disable()
    with deep_walk(0, pause_gc=True):
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_without_pause_gc_the_collector_is_untouched():
    with deep_walk(0):
        assert gc.isenabled()
        assert active_walks() == 1


def test_nested_blocks_restore_when_the_outermost_ends():
    walk = deep_walk(0, pause_gc=True)
    with walk:
        with walk:  # one instance may be re-entered
            assert active_walks() == 2
        assert not gc.isenabled()  # still paused: the outer block is active
    assert gc.isenabled()


def test_overlapping_threads_do_not_resume_the_collector_early():
    """Thread A ends its block while B is still walking: the collector stays
    paused until B ends too."""
    a_inside, b_inside, a_done = threading.Event(), threading.Event(), threading.Event()
    results: dict[str, object] = {}

    def thread_a() -> None:
        with deep_walk(0, pause_gc=True):
            a_inside.set()
            b_inside.wait(5)
        a_done.set()

    def thread_b() -> None:
        a_inside.wait(5)
        with deep_walk(0, pause_gc=True):
            b_inside.set()
            a_done.wait(5)
            results["gc"] = gc.isenabled()

    threads = [threading.Thread(target=thread_a), threading.Thread(target=thread_b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert results == {"gc": False}
    assert gc.isenabled()


def test_recursion_room_is_refused():
    with pytest.raises(ValueError, match="frames must be 0"):
        deep_walk(3000)
    with pytest.raises(ValueError, match="frames must be 0"):
        deep_walk(-1)
