"""Benchmark: does every step a user feels grow linearly with the template?

Issue #31 item 5. On the B1 template (``bench/gen_template.py``) at each
``--sizes`` N (default 1,000, 5,000 and 20,000 node templates), measures the
CPU time (``time.process_time``; the machine may be shared, the wall clock
measures the other processes too) of:

* ``load``: ``toskit.loads`` and every node's ``properties``;
* ``repr_html``: ``ServiceTemplate._repr_html_()`` (the notebook view);
* ``show``: ``toskit.display.render_page`` (what ``toskit show`` writes);
* ``compare``: ``toskit.compare`` of the template and a copy with one
  value changed on every tenth node (both loaded outside the timing);
* ``to_frame``: every node's ``property_table().to_frame()`` (pandas);
* ``topology``: ``topology()`` then ``to_svg()``.

The operations run interleaved within each of ``--runs`` rounds; each
figure is the median with its spread. The growth exponent of each is the
least-squares slope of log(time) against log(N) (1.0: linear); the script
prints them and exits 1 when one is above 1.15. Figures go to
``$TOSKIT_BENCH_JSON`` when set.

    .venv/bin/python bench/bench_growth.py [--sizes 1000 5000 20000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_template import generate  # noqa: E402

import toskit  # noqa: E402
from toskit.display import render_page  # noqa: E402

LIMIT = 1.15  # the largest growth exponent allowed


def _changed(text: str) -> str:
    """Every tenth node template's label changed."""
    out = []
    for line in text.splitlines(keepends=True):
        if line.startswith("        label: database ") and line.rstrip().endswith("0"):
            line = line.replace("database", "changed database", 1)
        out.append(line)
    return "".join(out)


def operations(n: int) -> dict[str, Callable[[], Any]]:
    """The timed operations on an N-node template (loaded here, untimed but for ``load``)."""
    text = generate(n)
    st = toskit.loads(text, name="b1.yaml")
    new = toskit.loads(_changed(text), name="b1.yaml")
    nodes = list(st.node_templates.values())

    def load() -> None:
        loaded = toskit.loads(text, name="b1.yaml")
        for node in loaded.node_templates.values():
            node.properties  # noqa: B018 - touching every node is the measured work

    def frames() -> None:
        for node in nodes:
            node.property_table().to_frame()

    def topology() -> None:
        st.topology().to_svg()

    return {
        "load": load,
        "repr_html": st._repr_html_,
        "show": lambda: render_page(st),
        "compare": lambda: toskit.compare(st, new),
        "to_frame": frames,
        "topology": topology,
    }


def exponent(sizes: list[int], times: list[float]) -> float:
    """The least-squares slope of log(time) against log(size)."""
    xs = [math.log(n) for n in sizes]
    ys = [math.log(max(t, 1e-9)) for t in times]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    sizes = sorted(set(args.sizes))
    figures: dict[str, dict[int, list[float]]] = {}
    for op in operations(20).values():  # imports (pandas, the layout) and profiles, untimed
        op()
    for n in sizes:
        ops = operations(n)
        for name in ops:
            figures.setdefault(name, {})[n] = []
        for _ in range(args.runs):
            for name, op in ops.items():
                started = time.process_time()
                op()
                figures[name][n].append(time.process_time() - started)
        del ops

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0]
    print(
        f"CPU seconds, median [min-max] of {args.runs} interleaved runs; "
        f"load average {load:.1f} on {cpus} CPUs"
    )
    print(
        f"{'operation':<10} "
        + " ".join(f"{'N=' + str(n):>22}" for n in sizes)
        + f" {'exponent':>9}"
    )
    exponents: dict[str, float] = {}
    for name, by_n in figures.items():
        medians = [statistics.median(by_n[n]) for n in sizes]
        cells = [f"{m:.3f} [{min(by_n[n]):.3f}-{max(by_n[n]):.3f}]" for m, n in zip(medians, sizes)]
        exponents[name] = exponent(sizes, medians) if len(sizes) > 1 else float("nan")
        print(f"{name:<10} " + " ".join(f"{c:>22}" for c in cells) + f" {exponents[name]:>9.2f}")
    failed = [name for name, e in exponents.items() if e > LIMIT]
    for name in failed:
        print(f"FAIL: {name} grows with exponent {exponents[name]:.2f} (limit {LIMIT})")
    if not failed:
        print(f"every exponent <= {LIMIT}")
    out = os.environ.get("TOSKIT_BENCH_JSON")
    if out:
        data = {
            "sizes": sizes,
            "runs": args.runs,
            "load_average": round(load, 1),
            "cpu_seconds": {
                name: {str(n): ts for n, ts in by_n.items()} for name, by_n in figures.items()
            },
            "exponents": {name: round(e, 3) for name, e in exponents.items()},
            "failed": failed,
        }
        Path(out).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
