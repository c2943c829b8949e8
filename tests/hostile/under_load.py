"""The test of the hostile suite's bounds: run it beside two CPU burners.

``make hostile-under-load`` (or ``python tests/hostile/under_load.py
[pytest args]``) starts two processes that spin on the CPU, runs
``pytest tests/hostile`` beside them, and stops the burners. Each burner
also stops by itself after ``--burn-seconds`` (default 1,800) and is capped
by ``RLIMIT_CPU``, so nothing outlives an interrupted run. The suite holds
when its bounds are counted (steps, ``limit-exceeded``, peak memory) and
CPU time is only a generous hang guard (``bounded.py``): on two cores, two
burners at least halve what the suite gets, which a 2 s CPU bound did not
survive (issue #30 item 6).

The exit status is pytest's; the last line says the load the suite ran under.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_BURNER = """
import sys, time
end = time.monotonic() + float(sys.argv[1])
n = 0
while time.monotonic() < end:
    for _ in range(100_000):
        n += 1
"""


def _burner_limits(seconds: float) -> None:
    limit = int(seconds) + 5
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burners", type=int, default=2)
    parser.add_argument("--burn-seconds", type=float, default=1800.0)
    args, pytest_args = parser.parse_known_args(argv)
    burners = [
        subprocess.Popen(  # noqa: S603 - our own interpreter and our own code
            [sys.executable, "-c", _BURNER, str(args.burn_seconds)],
            preexec_fn=lambda: _burner_limits(args.burn_seconds),
        )
        for _ in range(args.burners)
    ]
    start = time.monotonic()
    loads: list[float] = []
    try:
        time.sleep(1.0)  # let the burners reach the CPU before the suite starts
        command = [
            sys.executable,
            "-m",
            "pytest",
            "tests/hostile",
            "-q",
            "-p",
            "no:cacheprovider",
            *pytest_args,
        ]
        suite = subprocess.Popen(command, cwd=ROOT)  # noqa: S603
        while suite.poll() is None:
            loads.append(os.getloadavg()[0])
            time.sleep(2.0)
        status = suite.returncode
    finally:
        for burner in burners:
            burner.kill()
        for burner in burners:
            burner.wait()
    alive = sum(burner.poll() is None for burner in burners)
    peak = max(loads, default=0.0)
    mean = sum(loads) / len(loads) if loads else 0.0
    print(
        f"hostile-under-load: pytest exit {status} beside {args.burners} CPU burners, "
        f"{time.monotonic() - start:.0f} s wall, load average {mean:.1f} mean / {peak:.1f} peak "
        f"on {os.cpu_count()} CPUs; burners left running: {alive}"
    )
    return status


if __name__ == "__main__":
    sys.exit(main())
