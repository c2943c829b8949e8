"""Benchmark: ``toskit check`` on a repository of templates, in 1 and in 2 processes.

Writes ``--files`` generated TOSCA 1.3 templates (``bench/gen_template.py``,
``--nodes`` node templates each; every tenth file carries a typo so that
diagnostics are printed too) into a temporary folder, then runs

    toskit check -q -j 1 FOLDER
    toskit check -q -j 2 FOLDER

as separate processes (the real command, process start-up included), each
``--runs`` times, and prints the median files per second of each and the
speed-up. It also checks that both print the same output, in the same
order. Informational: no target (the speed-up depends on the cores that are
free; the CPU seconds of all processes show what the parallel run costs
beyond the single one); the figures go to ``$TOSKIT_BENCH_JSON`` when set.

    .venv/bin/python bench/bench_check.py [--files 2000] [--nodes 3] [--runs 3]
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
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="toskit-bench-check-") as tmp:
        folder = Path(tmp)
        write_corpus(folder, args.files, args.nodes)
        figures: dict[str, dict[str, float]] = {}
        outputs: dict[int, str] = {}
        for jobs in (1, 2):
            times, cpus = [], []
            for _ in range(args.runs):
                seconds, cpu, out, status = run_check(folder, jobs)
                if status not in (0, 1):
                    print(f"toskit check -j {jobs} exited {status}", file=sys.stderr)
                    return 1
                times.append(seconds)
                cpus.append(cpu)
                outputs[jobs] = out
            median = statistics.median(times)
            figures[f"j{jobs}"] = {
                "seconds": round(median, 3),
                "files_per_second": round(args.files / median, 1),
                "cpu_seconds": round(statistics.median(cpus), 3),
            }
    same = outputs[1] == outputs[2]
    speedup = figures["j1"]["seconds"] / figures["j2"]["seconds"]
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"toskit check on {args.files} templates ({args.nodes} node templates each), median of {args.runs}:")
    for jobs in (1, 2):
        f = figures[f"j{jobs}"]
        print(
            f"  -j {jobs}: {f['files_per_second']:>8.1f} files/s  ({f['seconds']:.2f} s wall, "
            f"{f['cpu_seconds']:.2f} s CPU in all processes)"
        )
    print(f"  speed-up -j 2 / -j 1: {speedup:.2f}x on {cpus} CPUs; same output in the same order: {same}")
    print(f"  (load average {os.getloadavg()[0]:.1f} on {cpus} CPUs: a busy machine leaves -j 2 little to gain)")
    out_path = os.environ.get("TOSKIT_BENCH_JSON")
    if out_path:
        data = {"files": args.files, "nodes": args.nodes, "cpus": cpus, **figures}
        data.update(speedup=round(speedup, 2), same_output=same)
        Path(out_path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
