"""The batch runner of ``toskit check -j N``: one bad file never sinks a batch.

:func:`run` applies ``work`` to every task and yields the results in input
order, in up to ``jobs`` forked worker processes. Each worker is handed one
task at a time, so when a worker dies while checking a file (``os._exit``
in a registered checker, a segmentation fault, the kernel's out-of-memory
killer, a ``SystemExit`` raised by a checker), exactly that file is known:
it gets ``on_crash(task, why)`` as its result (``toskit check`` reports it,
exit status 2), a fresh worker takes the dead one's place, and every other
file is checked as usual. An *exception* in ``work`` is ``work``'s own
business (``toskit check`` turns it into a crashed result of that file).

The cost follows the work, not ``jobs``:

* ``jobs`` is capped at the CPUs this process may use (:func:`cpu_count`)
  and at the number of tasks: more workers than CPUs only add start-up
  and memory;
* the parent warms first (``warm()``: imports the checkers and loads the
  normative profiles once), then forks, so workers share what it loaded
  instead of each importing and loading it again (``gc.freeze()`` keeps
  the shared pages from being copied by the cyclic GC's bookkeeping).

Where ``fork`` is not available (Windows, macOS' default), or with one job,
tasks run in this process, one after the other.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

__all__ = ["cpu_count", "run"]

T = TypeVar("T")
R = TypeVar("R")


def cpu_count() -> int:
    """The number of CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _worker(conn: Any, work: Callable[[Any], Any]) -> None:
    """A worker: receive ``(index, task)``, send ``(index, result)``, until ``None``."""
    try:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                break
            if message is None:
                break
            index, task = message
            conn.send((index, work(task)))
    finally:
        conn.close()
        # No atexit handlers, no finalizers of the parent's objects: they belong to it.
        os._exit(0)


def _death(process: Any) -> str:
    """How a worker process ended, in words."""
    process.join(1.0)
    code = process.exitcode
    if code is None:
        return "its worker process stopped answering"
    if code < 0:
        import signal

        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"its worker process was killed by {name}"
    return f"its worker process ended with exit code {code}"


def run(
    tasks: Sequence[T],
    jobs: int,
    work: Callable[[T], R],
    on_crash: Callable[[T, str], R],
    *,
    warm: Callable[[], None] | None = None,
) -> Iterator[R]:
    """``work(task)`` for every task, yielded in order; see the module docstring.

    ``jobs`` is capped at :func:`cpu_count` and ``len(tasks)``. ``warm`` runs
    in this process before the workers are forked (only when there are
    workers). ``on_crash(task, why)`` is the result of a task whose worker
    died while on it.
    """
    jobs = min(jobs, cpu_count(), len(tasks))
    if jobs <= 1:
        # multiprocessing (~10 ms of imports) only when there are workers.
        yield from map(work, tasks)
        return
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        yield from map(work, tasks)
        return
    if warm is not None:
        warm()
    context = multiprocessing.get_context("fork")
    from multiprocessing.connection import wait

    # Objects made so far (modules, the warmed profiles) go to the permanent
    # generation: the GC of a worker never writes to their pages, so they
    # stay shared with the parent instead of being copied into every worker.
    gc.freeze()
    workers: dict[Any, tuple[Any, int | None]] = {}  # connection -> (process, index in flight)

    def start() -> Any:
        parent_end, child_end = context.Pipe()
        process = context.Process(target=_worker, args=(child_end, work), daemon=True)
        process.start()
        child_end.close()
        workers[parent_end] = (process, None)
        return parent_end

    done: dict[int, R] = {}
    next_task = 0
    next_out = 0
    try:
        idle = [start() for _ in range(jobs)]
        while next_out < len(tasks):
            # Hand a task to every idle worker.
            while idle and next_task < len(tasks):
                conn = idle.pop()
                process, _ = workers[conn]
                try:
                    conn.send((next_task, tasks[next_task]))
                except (OSError, ValueError):
                    # Died between tasks (nothing of ours in flight): replace it, retry.
                    workers.pop(conn)
                    conn.close()
                    idle.append(start())
                    continue
                workers[conn] = (process, next_task)
                next_task += 1
            busy = [conn for conn, (_, index) in workers.items() if index is not None]
            ready: list[Any] = wait(busy)
            for conn in ready:
                process, index = workers[conn]
                assert index is not None
                try:
                    got, result_ = conn.recv()
                except (EOFError, OSError):
                    # The worker died on this task: the task is reported, a new worker starts.
                    done[index] = on_crash(tasks[index], _death(process))
                    workers.pop(conn)
                    conn.close()
                    idle.append(start())
                    continue
                done[got] = result_
                workers[conn] = (process, None)
                idle.append(conn)
            while next_out in done:
                yield done.pop(next_out)
                next_out += 1
    finally:
        for conn in workers:
            with contextlib.suppress(OSError, ValueError):
                conn.send(None)
            conn.close()
        for process, _ in workers.values():
            process.join(1.0)
            if process.is_alive():
                process.kill()
                process.join()
        gc.unfreeze()
