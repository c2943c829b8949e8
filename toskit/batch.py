"""The batch runner of ``toskit check -j N``: one bad file never sinks a batch.

:func:`run` applies ``work`` to every task and yields the results in input
order, in up to ``jobs`` forked worker processes. Each worker works through
a short queue of tasks (up to :data:`PIPELINE`) and answers them in order,
so when a worker dies while checking a file (``os._exit`` in a registered
checker, a segmentation fault, the kernel's out-of-memory killer, a
``SystemExit`` raised by a checker), exactly that file is known (its oldest
unanswered task): it gets ``on_crash(task, why)`` as its result
(``toskit check`` reports it, exit status 2), the rest of its queue goes
back to be handed out, a fresh worker takes the dead one's place, and every
other file is checked as usual. An *exception* in ``work`` is ``work``'s own
business (``toskit check`` turns it into a crashed result of that file).

The cost follows the work, not ``jobs``:

* ``jobs`` is capped at the CPUs this process may use (:func:`cpu_count`)
  and at the number of tasks: more workers than CPUs only add start-up
  and memory;
* the parent warms first (``warm()``: imports the checkers and loads the
  normative profiles once), then forks, so workers share what it loaded
  instead of each importing and loading it again (``gc.freeze()`` keeps
  the shared pages from being copied by the cyclic GC's bookkeeping);
* a worker's queue is kept filled, so it never waits between two files
  for the parent to be scheduled (with one task at a time, on a loaded
  machine, that wait made ``-j 2`` slower than ``-j 1``).

Where ``fork`` is not available (Windows, macOS' default), or with one job,
tasks run in this process, one after the other.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

__all__ = ["PIPELINE", "cpu_count", "run"]

T = TypeVar("T")
R = TypeVar("R")


def cpu_count() -> int:
    """The number of CPUs this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


# Tasks queued ahead in one worker (its pipe holds them): the worker goes on
# to its next file without waiting for the parent to be scheduled. On a
# loaded machine that wait, once per file, made -j 2 slower than -j 1.
PIPELINE = 4
# A task message larger than this (a text read from stdin) is only sent to a
# worker with nothing in flight: queued messages must fit in the pipe's
# buffer, or the parent could block on a worker that blocks on its answer.
PIPELINE_MAX_BYTES = 16_384


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
    # The submodules _Pool uses, imported before gc.freeze() below.
    import multiprocessing.connection
    import multiprocessing.reduction

    if "fork" not in multiprocessing.get_all_start_methods():
        yield from map(work, tasks)
        return
    if warm is not None:
        warm()
    # Objects made so far (modules, the warmed profiles) go to the permanent
    # generation: the GC of a worker never writes to their pages, so they
    # stay shared with the parent instead of being copied into every worker.
    gc.freeze()
    pool = _Pool(multiprocessing.get_context("fork"), tasks, work, on_crash)
    try:
        for _ in range(jobs):
            pool.start()
        next_out = 0
        while next_out < len(tasks):
            busy = pool.fill()
            if not busy:  # every worker was replaced while being handed tasks
                continue
            pool.collect(busy)
            while next_out in pool.done:
                yield pool.done.pop(next_out)
                next_out += 1
    finally:
        pool.close()
        gc.unfreeze()


class _Pool(Generic[T, R]):
    """The forked workers of :func:`run`, the tasks each holds and the
    results not yet yielded."""

    def __init__(
        self,
        context: Any,
        tasks: Sequence[T],
        work: Callable[[T], R],
        on_crash: Callable[[T, str], R],
    ) -> None:
        from multiprocessing.reduction import ForkingPickler

        self._context = context
        self._tasks = tasks
        self._work = work
        self._on_crash = on_crash
        self._dumps = ForkingPickler.dumps
        # connection -> (process, indexes in flight, oldest first)
        self.workers: dict[Any, tuple[Any, deque[int]]] = {}
        # not yet handed out (a dead worker's queue returns here)
        self.pending: deque[int] = deque(range(len(tasks)))
        self.done: dict[int, R] = {}
        self._messages: dict[int, bytes] = {}

    def start(self) -> None:
        """Fork a worker with an empty queue."""
        parent_end, child_end = self._context.Pipe()
        process = self._context.Process(target=_worker, args=(child_end, self._work), daemon=True)
        process.start()
        child_end.close()
        self.workers[parent_end] = (process, deque())

    def _message(self, index: int) -> bytes:
        if index not in self._messages:
            self._messages[index] = bytes(self._dumps((index, self._tasks[index])))
        return self._messages[index]

    def fill(self) -> list[Any]:
        """Hand out pending tasks; the connections with tasks in flight.

        Every worker's queue is kept filled: up to PIPELINE small tasks, so
        that a worker never waits for this process to be scheduled between
        two files; a large task (a text read from stdin) only goes to a
        worker with nothing in flight.
        """
        share = -(-len(self.pending) // max(1, len(self.workers)))  # no worker hoards the last
        for conn, (_process, queue) in list(self.workers.items()):
            self._feed(conn, queue, min(PIPELINE, max(1, share)))
        return [conn for conn, (_, queue) in self.workers.items() if queue]

    def _feed(self, conn: Any, queue: deque[int], size: int) -> None:
        """Send pending tasks to one worker until its queue holds ``size``."""
        pending = self.pending
        while pending and len(queue) < size:
            data = self._message(pending[0])
            if queue and len(data) > PIPELINE_MAX_BYTES:
                return
            try:
                conn.send_bytes(data)
            except (OSError, ValueError):
                if not queue:
                    # Died between tasks (nothing of ours in flight): replace it.
                    # (With tasks in flight, reading its answers finds which
                    # one it died on.)
                    self.workers.pop(conn)
                    conn.close()
                    self.start()
                return
            queue.append(pending.popleft())

    def collect(self, busy: list[Any]) -> None:
        """Read the answers of the workers ready among ``busy`` into ``done``."""
        from multiprocessing.connection import wait

        ready: list[Any] = wait(busy)
        for conn in ready:
            process, queue = self.workers[conn]
            try:
                got, result = conn.recv()
            except (EOFError, OSError):
                # The worker died on its oldest task (it answers in order):
                # that task is reported, the rest of its queue goes back,
                # and a new worker starts.
                crashed = queue.popleft()
                self.done[crashed] = self._on_crash(self._tasks[crashed], _death(process))
                self.pending.extendleft(reversed(queue))
                self.workers.pop(conn)
                conn.close()
                self.start()
                continue
            assert got == queue[0]
            queue.popleft()
            self._messages.pop(got, None)
            self.done[got] = result

    def close(self) -> None:
        """Tell every worker to stop, and end the ones that do not."""
        for conn in self.workers:
            with contextlib.suppress(OSError, ValueError):
                conn.send(None)
            conn.close()
        for process, _queue in self.workers.values():
            process.join(1.0)
            if process.is_alive():
                process.kill()
                process.join()
