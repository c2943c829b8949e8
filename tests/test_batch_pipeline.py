"""toskit.batch's queued dispatch (issue #31 item 4): each worker has up to
PIPELINE tasks in flight, and a death is still pinned on exactly one task."""

from __future__ import annotations

import os

import pytest

from toskit import batch

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")


def _crash(task: int, why: str) -> tuple[str, int]:
    return ("crashed", task)


@pytest.mark.parametrize(
    "deadly",
    [
        {0},  # the first task of the first queue
        {3, 4, 5},  # consecutive: the next worker gets the rest of the queue and dies too
        {19},  # the last task
        set(range(0, 20, 2)),  # every other task
        set(range(20)),  # every task
    ],
)
def test_a_death_is_pinned_on_its_task_and_its_queue_is_handed_out_again(deadly: set[int]) -> None:
    def work(task: int) -> tuple[str, int]:
        if task in deadly:
            os._exit(3)
        return ("ok", task * task)

    results = list(batch.run(list(range(20)), 2, work, _crash))
    expected = [("crashed", t) if t in deadly else ("ok", t * t) for t in range(20)]
    assert results == expected


def test_workers_answer_queued_tasks_in_order_with_more_tasks_than_the_pipeline() -> None:
    tasks = list(range(batch.PIPELINE * 10 + 3))
    results = list(batch.run(tasks, 2, lambda t: (t, os.getpid()), _crash))
    assert [r[0] for r in results] == tasks
    assert os.getpid() not in {r[1] for r in results}


def test_a_large_task_reaches_its_worker_beside_small_ones() -> None:
    # A text read from stdin is a large message: sent only to a worker with nothing
    # in flight, never queued behind another task (the pipe must not fill up).
    big = "x" * (batch.PIPELINE_MAX_BYTES * 20)
    tasks = ["a", big, "b", big, "c", "d", "e"]
    results = list(batch.run(tasks, 2, len, lambda t, why: -1))
    assert results == [len(t) for t in tasks]


def test_large_answers_do_not_block_the_queue() -> None:
    # Each answer is far larger than a pipe's buffer while tasks are queued.
    results = list(batch.run(list(range(12)), 2, lambda t: "y" * 300_000 + str(t), _crash))
    assert [r[300_000:] for r in results] == [str(t) for t in range(12)]
