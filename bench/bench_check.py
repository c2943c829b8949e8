"""Benchmark: ``toskit check`` on a repository of templates, in 1, 2 and 4 processes.

Writes ``--files`` generated TOSCA 1.3 templates (``bench/gen_template.py``,
``--nodes`` node templates each; every tenth file carries a typo so that
diagnostics are printed too) into a temporary folder, then runs

    toskit check -q -j N FOLDER      for each N of --jobs (default 1, 2, 4)

as separate processes (the real command, process start-up included),
interleaved (one run of each N per round, ``--runs`` rounds), and prints the
median files per second of each N with the spread of its wall time, the CPU
of all its processes, and the speed-up of -j 2 over -j 1. -j above the CPU
count is capped (``toskit.batch``), so -j 4 on two CPUs runs as -j 2. It
also checks that every N prints the same output, in the same order.
Informational: no target (the speed-up depends on the cores that are
free; the CPU seconds of all processes show what the parallel run costs
beyond the single one); the figures go to ``$TOSKIT_BENCH_JSON`` when set.

    .venv/bin/python bench/bench_check.py [--files 2000] [--nodes 3] [--runs 3] [--jobs 1,2,4]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_template import generate  # noqa: E402  (a sibling script, not a package)


def write_corpus(folder: Path, files: int, nodes: int) -> None:
    """``files`` templates; every tenth has an unknown property (one diagnostic)."""
    text = generate(nodes)
    typo = text.replace("        label: database", "        lable: database", 1)
    for i in range(files):
        (folder / f"t{i:05}.yaml").write_text(typo if i % 10 == 0 else text, encoding="utf-8")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_check(folder: Path, jobs: int) -> tuple[float, float, str, int]:
    """Wall seconds, CPU seconds (all processes), stdout and exit status of one
    ``toskit check -q -j JOBS FOLDER``."""
    started, cpu = time.perf_counter(), _children_cpu()
    proc = subprocess.run(
        [sys.executable, "-m", "toskit", "check", "-q", "-j", str(jobs), str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    return time.perf_counter() - started, _children_cpu() - cpu, proc.stdout, proc.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--nodes", type=int, default=3, help="node templates per file")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--jobs",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[1, 2, 4],
        help="the values of -j, comma-separated (default 1,2,4: above the CPU count -j is capped)",
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="toskit-bench-check-") as tmp:
        folder = Path(tmp)
        write_corpus(folder, args.files, args.nodes)
        walls: dict[int, list[float]] = {jobs: [] for jobs in args.jobs}
        cpus_used: dict[int, list[float]] = {jobs: [] for jobs in args.jobs}
        outputs: dict[int, str] = {}
        # Interleaved: each round runs every -j once, so all see the same load.
        for _ in range(args.runs):
            for jobs in args.jobs:
                seconds, cpu, out, status = run_check(folder, jobs)
                if status not in (0, 1):
                    print(f"toskit check -j {jobs} exited {status}", file=sys.stderr)
                    return 1
                walls[jobs].append(seconds)
                cpus_used[jobs].append(cpu)
                outputs[jobs] = out
        figures: dict[str, dict[str, float]] = {}
        for jobs in args.jobs:
            median = statistics.median(walls[jobs])
            figures[f"j{jobs}"] = {
                "seconds": round(median, 3),
                "seconds_min": round(min(walls[jobs]), 3),
                "seconds_max": round(max(walls[jobs]), 3),
                "files_per_second": round(args.files / median, 1),
                "cpu_seconds": round(statistics.median(cpus_used[jobs]), 3),
            }
    first = args.jobs[0]
    same = all(outputs[jobs] == outputs[first] for jobs in args.jobs)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0]
    print(
        f"toskit check on {args.files} templates ({args.nodes} node templates each), "
        f"median of {args.runs} interleaved rounds [min-max wall]; load average {load:.1f} on {cpus} CPUs:"
    )
    for jobs in args.jobs:
        f = figures[f"j{jobs}"]
        print(
            f"  -j {jobs}: {f['files_per_second']:>8.1f} files/s  ({f['seconds']:.2f} s wall "
            f"[{f['seconds_min']:.2f}-{f['seconds_max']:.2f}], {f['cpu_seconds']:.2f} s CPU in all processes)"
        )
    speedup = None
    if 1 in args.jobs and 2 in args.jobs:
        speedup = figures["j1"]["seconds"] / figures["j2"]["seconds"]
        print(f"  speed-up -j 2 / -j 1: {speedup:.2f}x on {cpus} CPUs")
    print(f"  same output in the same order for every -j: {same}")
    print("  (-j above the CPU count is capped; on a busy machine -j 2 has little to gain)")
    out_path = os.environ.get("TOSKIT_BENCH_JSON")
    if out_path:
        data: dict[str, object] = {
            "files": args.files,
            "nodes": args.nodes,
            "cpus": cpus,
            **figures,
        }
        data.update(
            speedup=None if speedup is None else round(speedup, 2),
            same_output=same,
            load_average=round(load, 1),
        )
        Path(out_path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
