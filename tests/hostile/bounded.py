"""Run one hostile case in a subprocess under CPU and memory limits.

A case is Python source defining ``case()``; it runs in a fresh interpreter
whose address space (``RLIMIT_AS``) and CPU time (``RLIMIT_CPU``) are capped,
so a case that would hang or explode is killed by the kernel instead of
taking the test run down. The child reports, as JSON, what ``case()``
returned (or the exception it raised), the CPU time the call took, the
process's peak resident memory and, when asked, the number of function
calls the case made.

**Bounds are counted, not timed** (issue #30 item 6). What a hostile test
asserts is the *budget*: ``limit-exceeded`` raised, steps counted (the
library's own counters, or ``max_calls``: Python and C function calls
counted by :mod:`cProfile`, the same on every machine), and peak memory.
CPU time is only a hang guard: ``cpu`` is the case's figure on a quiet
machine, and :func:`run_case` fails only past :data:`HANG_FACTOR` times it,
so a test holds on a machine under load (``make hostile-under-load`` runs
the suite beside two CPU burners) and still fails on a hang or an
exponential blow-up.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from typing import Any

CPU_SECONDS = 2.0  # the quiet-machine CPU figure of case() (not interpreter start-up)
HANG_FACTOR = 10  # the hang guard: a case fails past HANG_FACTOR x its quiet-machine figure
PEAK_MB = 500  # peak resident memory of the whole child process (counted, asserted)
_AS_LIMIT = 1024 << 20  # hard address-space cap: a runaway case gets MemoryError, not the box
_CPU_KILL_MARGIN = 10  # CPU seconds past the hang guard before the kernel kills the child
# Wall-clock safety net: only a case that *sleeps* forever needs it (CPU is
# RLIMIT_CPU's job), so it is very generous: at a load average of 36 on two
# cores (measured by make hostile-under-load) a case gets ~1/18 of a CPU, and
# a 5 s case (start-up, setup, the call) takes 90 s of wall time.
_WALL = 300
_WALL_PER_CPU = 10  # plus this many x the hang guard

_CHILD = r"""
import json, resource, sys, time
source = sys.stdin.read()
namespace = {"__name__": "hostile_case"}
exec(compile(source, "<hostile case>", "exec"), namespace)  # the test's own code
setup = namespace.get("setup")
arg = setup() if setup else None
profiler = None
if sys.argv[1:] == ["--count-calls"]:
    import cProfile
    profiler = cProfile.Profile()
start = time.process_time()
try:
    if profiler is not None:
        profiler.enable()
    try:
        out = {"returned": namespace["case"](*([] if setup is None else [arg]))}
    finally:
        if profiler is not None:
            profiler.disable()
except BaseException as exc:  # report everything, KeyboardInterrupt included
    out = {"raised": type(exc).__name__,
           "bases": [c.__module__ + "." + c.__qualname__ for c in type(exc).__mro__],
           "message": str(exc)[:4000]}
out["cpu"] = time.process_time() - start
if profiler is not None:
    # Every call of a Python or C function, recursive ones included: a count
    # that is the same on a busy machine as on a quiet one.
    out["calls"] = sum(entry.callcount for entry in profiler.getstats())
# VmHWM belongs to this process image: unlike ru_maxrss, which Linux carries
# over exec from the forking parent, it does not start at pytest's own size.
try:
    with open("/proc/self/status") as status:
        hwm = next(line for line in status if line.startswith("VmHWM:"))
    out["peak_mb"] = int(hwm.split()[1]) / 1024
except (OSError, StopIteration):
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
sys.stdout.write("\n@@RESULT@@" + json.dumps(out, default=repr))
"""


@dataclass
class Outcome:
    """What ``case()`` did in the child: ``returned`` or ``raised`` (+ ``message``)."""

    returned: Any = None
    raised: str | None = None
    bases: tuple[str, ...] = ()
    message: str = ""
    cpu: float = 0.0
    peak_mb: float = 0.0
    stderr: str = ""
    calls: int | None = None  # function calls of case(), with max_calls= only

    @property
    def toskit_error(self) -> bool:
        """Whether ``case()`` raised a ``toskit.ToskitError`` (subclass)."""
        return "toskit.errors.ToskitError" in self.bases


def hang_guard(cpu: float) -> float:
    """CPU seconds past which a case whose quiet-machine figure is ``cpu`` counts as hung."""
    return HANG_FACTOR * cpu


def _limits(kill_after: int) -> Any:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (_AS_LIMIT, _AS_LIMIT))
        resource.setrlimit(resource.RLIMIT_CPU, (kill_after, kill_after + 1))

    return apply


def run_case(
    source: str,
    *,
    cpu: float = CPU_SECONDS,
    peak_mb: float = PEAK_MB,
    max_calls: int | None = None,
    cwd: str | None = None,
    stdin_file: str | None = None,
) -> Outcome:
    """Run ``source`` (defines ``case()``, maybe ``setup()``) bounded; assert the bounds.

    ``setup()`` runs before the clock starts (to build a large input) and its
    result is passed to ``case``. Fails the calling test when the child is
    killed, prints no result, peaks over ``peak_mb`` MB, makes more than
    ``max_calls`` function calls (counted, when given), or -- the hang guard
    only -- takes more than :func:`hang_guard` of ``cpu`` (the case's CPU
    seconds on a quiet machine) CPU seconds.
    """
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1")
    guard = hang_guard(cpu)
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, *(["--count-calls"] if max_calls is not None else [])],
        input=textwrap.dedent(source),
        capture_output=True,
        text=True,
        timeout=_WALL + _WALL_PER_CPU * guard,
        preexec_fn=_limits(int(guard) + _CPU_KILL_MARGIN),
        cwd=cwd,
        env=env,
        check=False,
    )
    marker = proc.stdout.rfind("\n@@RESULT@@")
    assert marker >= 0, (
        f"the case died (exit {proc.returncode}) without a result:\n{proc.stderr[-3000:]}"
    )
    data = json.loads(proc.stdout[marker + len("\n@@RESULT@@") :])
    outcome = Outcome(
        returned=data.get("returned"),
        raised=data.get("raised"),
        bases=tuple(data.get("bases", ())),
        message=data.get("message", ""),
        cpu=data["cpu"],
        peak_mb=data["peak_mb"],
        stderr=proc.stderr,
        calls=data.get("calls"),
    )
    # The budgets: counted, the same on any machine.
    assert outcome.peak_mb < peak_mb, f"case peaked at {outcome.peak_mb:.0f} MB (bound {peak_mb})"
    if max_calls is not None:
        assert outcome.calls is not None and outcome.calls <= max_calls, (
            f"case made {outcome.calls:,} function calls (budget {max_calls:,})"
        )
    # The hang guard: generous, so that load on the machine never trips it.
    assert outcome.cpu < guard, (
        f"case took {outcome.cpu:.2f} s of CPU: a hang? (guard {guard:g} s, "
        f"{HANG_FACTOR}x the quiet-machine {cpu:g} s)"
    )
    return outcome


# The child's side of ``counted_load``: ``load_yaml`` is wrapped to record the
# name of every document parsed, so a case can count parses per file.
_COUNTED = """
def counted(folder, path, **options):
    import toskit
    from toskit.source import document
    parsed = []
    original = document.load_yaml
    def counting(text, **kw):
        parsed.append(kw.get("name"))
        return original(text, **kw)
    document.load_yaml = counting
    st = toskit.load(path, **options)
    mine = [p for p in parsed if str(p).startswith(folder)]
    own = [n for n, t in st.types.items() if not t.normative]
    return {"parsed": len(mine), "distinct": len(set(mine)), "own_types": len(own),
            "diagnostics": [[d.code, d.file, d.line, d.message] for d in st.diagnostics]}
"""


def counted_load(folder: object, path: object, **options: Any) -> str:
    """A case that loads ``path`` with ``options`` and returns what the load did.

    ``case()`` returns ``{"parsed", "distinct", "own_types", "diagnostics"}``:
    the documents under ``folder`` parsed (in all, and distinct), the types
    that are not normative, and ``[code, file, line, message]`` per diagnostic.
    """
    return (
        _COUNTED
        + f"\ndef case():\n    return counted({str(folder)!r}, {str(path)!r}, **{options!r})\n"
    )
