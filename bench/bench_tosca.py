"""Benchmark B1: load, resolve and validate a large TOSCA 1.3 template.

spec/performance.md B1. For each N, generates the template of
``bench/gen_template.py`` into a temporary directory and times, side by
side in one process and alternating (median of ``--runs``):

* toskit: ``toskit.load(path)`` and reading every node template's
  ``properties`` (merged values with provenance, all diagnostics);
* OpenStack ``tosca-parser``: ``ToscaTemplate(path)`` (its parse and
  validate entry point), when it is installed.

toskit runs on both YAML parse paths (``toskit.source.fast``): ``fast``
(rapidyaml, the default when installed) and ``pyyaml`` (the reference),
selected per run with ``TOSKIT_YAML_PARSER``; the three are timed
alternating within each round. Prints one table (N, medians of wall and CPU
time, ratios, ms per node), the linearity figure t(largest)/t(1000), the
time of a 50-node template (what a notebook user waits for on each re-run
of a cell; goal < 20 ms), ``import toskit`` in a fresh interpreter, and the
load average (the machine may be shared: CPU-time ratios are the steadier
figure), CPU ratios pair by pair with their spread against tosca-parser
and against ``bench/floor.py`` (the least a B1 load must do, kept equal to
toskit's values by tests/test_bench_floor.py). Exits 1 when the first bar is missed: toskit (default path) at
least 2x faster than tosca-parser at N = 5,000, linear growth (user CPU
time of toskit's runs alone: see main), import < 0.15 s; the goals (10x at every N >= 1,000, wall and CPU;
within 2x of the floor; the 50-node time) are reported, not enforced.

    python bench/bench_tosca.py [--sizes 100 1000 5000] [--runs 9] [--big]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import resource
except ImportError:  # not on Unix: os.times() instead
    resource = None  # type: ignore[assignment]

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gen_template import generate  # noqa: E402

import toskit  # noqa: E402

FIRST_BAR = 2.0  # toskit at least this many times faster than tosca-parser at N = 5,000
GOAL = 10.0  # issue #31 (was 5x, issue #23): the goal at N >= 1,000, reported
FLOOR_GOAL = 2.0  # issue #31: toskit's CPU within this factor of bench/floor.py, reported
IMPORT_LIMIT = 0.15
SMALL_N, SMALL_LIMIT = 50, 0.020  # a notebook cell's re-run
PATHS = ("fast", "pyyaml")  # toskit's YAML parse paths (TOSKIT_YAML_PARSER)


def run_toskit(path: str, parse_path: str | None = None) -> tuple[float, float, float]:
    """Wall, CPU and user-CPU seconds of one load (on ``parse_path``, else the default)."""
    if parse_path is not None:
        os.environ["TOSKIT_YAML_PARSER"] = parse_path
    try:
        return _run_toskit(path)
    finally:
        os.environ.pop("TOSKIT_YAML_PARSER", None)


def _user_cpu() -> float:
    """User CPU seconds of this process, to the microsecond (``getrusage``):
    ``os.times()`` counts clock ticks (10 ms here), a quarter of a
    1,000-node load, which made the linearity figure jump between 5.2 and
    6.5 from one run to the next."""
    if resource is None:
        return os.times().user
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def _run_toskit(path: str) -> tuple[float, float, float]:
    started, cpu, user = time.perf_counter(), time.process_time(), _user_cpu()
    st = toskit.load(path)
    for node in st.node_templates.values():
        node.properties  # noqa: B018 - touching every node is the measured work
    elapsed = (
        time.perf_counter() - started,
        time.process_time() - cpu,
        _user_cpu() - user,
    )
    if not st.ok:
        raise SystemExit(f"toskit found errors in the generated template: {st.errors[:3]}")
    return elapsed


def tosca_parser() -> object | None:
    try:
        from toscaparser.tosca_template import ToscaTemplate
    except ImportError:
        return None
    logging.disable(logging.CRITICAL)  # it logs every template it reads
    return ToscaTemplate


def run_floor(path: str) -> float | None:
    """CPU seconds of bench/floor.py's load of ``path`` (None without rapidyaml)."""
    try:
        from floor import Floor
    except ImportError:
        return None
    cpu = time.process_time()
    Floor(Path(path).read_text(encoding="utf-8"))
    return time.process_time() - cpu


def spread(values: list[float]) -> str:
    """``median [min-max]``."""
    return f"{statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]"


def run_peer(cls: object, path: str) -> tuple[float, float]:
    started, cpu = time.perf_counter(), time.process_time()
    cls(path)  # type: ignore[operator]
    return time.perf_counter() - started, time.process_time() - cpu


PEAK_CODE = {
    "toskit": (
        "import resource, sys, toskit\n"
        "st = toskit.load(sys.argv[1])\n"
        "[n.properties for n in st.node_templates.values()]\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    ),
    "tosca-parser": (
        "import logging, resource, sys\n"
        "logging.disable(logging.CRITICAL)\n"
        "from toscaparser.tosca_template import ToscaTemplate\n"
        "ToscaTemplate(sys.argv[1])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    ),
}


def peak_memory_mb(tool: str, path: str) -> float | None:
    """Peak resident memory (MB) of a fresh interpreter loading ``path`` once."""
    proc = subprocess.run(
        [sys.executable, "-c", PEAK_CODE[tool], path], capture_output=True, text=True
    )
    if proc.returncode != 0:
        return None
    return round(int(proc.stdout.split()[-1]) / 1024, 1)


def import_time() -> float:
    """``import toskit`` in a fresh interpreter (best of 5)."""
    code = "import time; t = time.perf_counter(); import toskit; print(time.perf_counter() - t)"
    best = float("inf")
    for _ in range(5):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        best = min(best, float(out.strip()))
    return best


def _medians(times: list[tuple[float, ...]]) -> tuple[float, float]:
    """Median wall and CPU time."""
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def _row(
    n: int,
    ours: dict[str, list[tuple[float, float, float]]],
    theirs: list[tuple[float, float]],
    memory: dict[str, float | None],
) -> dict:
    """One table row: per parse path its medians and ratios; top level, the default path's."""
    t_theirs, c_theirs = _medians(theirs) if theirs else (None, None)
    per_path = {}
    for parse_path, times in ours.items():
        t_ours, c_ours = _medians(times)
        per_path[parse_path] = {
            "toskit_s": round(t_ours, 4),
            "toskit_cpu_s": round(c_ours, 4),
            "toskit_user_s": round(statistics.median(t[2] for t in times), 4),
            "toskit_ms_per_node": round(1000 * t_ours / n, 4),
            "ratio": round(t_theirs / t_ours, 2) if t_theirs else None,
            "cpu_ratio": round(c_theirs / c_ours, 2) if c_theirs else None,
        }
    default = per_path[next(iter(ours))]
    return {
        **memory,
        "n": n,
        **default,
        "tosca_parser_s": round(t_theirs, 4) if t_theirs else None,
        "tosca_parser_cpu_s": round(c_theirs, 4) if c_theirs else None,
        "paths": per_path,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--big", action="store_true", help="also N = 20,000")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args(argv)
    sizes = sorted(set(args.sizes + ([20_000] if args.big else [])))
    peer = tosca_parser()
    from toskit.source import fast

    # The default path first (its figures are the row's headline figures).
    paths = PATHS if fast.available() else ("pyyaml",)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        # Peak memory first, while this process is small: a child's ru_maxrss
        # starts from the size of the process that forked it.
        memory: dict[int, dict[str, float | None]] = {}
        if 5000 in sizes:
            path = os.path.join(tmp, "b5000.yaml")
            Path(path).write_text(generate(5000), encoding="utf-8")
            memory[5000] = {
                "toskit_peak_mb": peak_memory_mb("toskit", path),
                "tosca_parser_peak_mb": peak_memory_mb("tosca-parser", path) if peer else None,
            }
        # Warm up: the normative profile is parsed once per process.
        warm = os.path.join(tmp, "warm.yaml")
        Path(warm).write_text(generate(10), encoding="utf-8")
        run_toskit(warm)
        if peer is not None:
            run_peer(peer, warm)
        for n in sizes:
            path = os.path.join(tmp, f"b{n}.yaml")
            Path(path).write_text(generate(n), encoding="utf-8")
            ours: dict[str, list[tuple[float, float, float]]] = {p: [] for p in paths}
            theirs: list[tuple[float, float]] = []
            floors: list[float] = []
            for _ in range(args.runs):
                for parse_path in paths:
                    ours[parse_path].append(run_toskit(path, parse_path))
                if peer is not None:
                    theirs.append(run_peer(peer, path))
                floor_cpu = run_floor(path)
                if floor_cpu is not None:
                    floors.append(floor_cpu)
            row = _row(n, ours, theirs, memory.get(n, {}))
            # Pair by pair (one round each): CPU ratios and their spread.
            mine = [t[1] for t in ours[paths[0]]]
            if theirs:
                row["cpu_ratios"] = [round(t[1] / m, 2) for t, m in zip(theirs, mine)]
            if floors:
                row["floor_cpu_s"] = round(statistics.median(floors), 4)
                row["floor_ratios"] = [round(m / f, 2) for m, f in zip(mine, floors)]
            rows.append(row)
        small = os.path.join(tmp, f"b{SMALL_N}.yaml")
        Path(small).write_text(generate(SMALL_N), encoding="utf-8")
        small_times = {p: [run_toskit(small, p) for _ in range(21)] for p in paths}
        # Growth, measured on toskit alone (default path): interleaved with
        # the peer, whose large runs churn the heap and the caches, the
        # larger sizes also pay for the peer's runs.
        alone: dict[int, float] = {}
        if 1000 in sizes and max(sizes) > 1000:
            # The two sizes alternate run by run (a drift of the machine's
            # load then moves both alike, not one against the other).
            by_size: dict[int, list[float]] = {1000: [], max(sizes): []}
            for _ in range(args.runs):
                for n, times in by_size.items():
                    times.append(run_toskit(os.path.join(tmp, f"b{n}.yaml"), paths[0])[2])
            alone = {n: statistics.median(times) for n, times in by_size.items()}
    imported = import_time()
    load = os.getloadavg() if hasattr(os, "getloadavg") else None

    print(
        f"{'N':>7} {'path':>6} {'toskit s':>9} {'cpu s':>7} {'tosca-parser s':>15} {'cpu s':>7}"
        f" {'ratio':>6} {'cpu ratio':>9} {'ms/node':>8}"
    )
    for r in rows:
        peer_s = f"{r['tosca_parser_s']:.3f}" if r["tosca_parser_s"] else "n/a"
        peer_c = f"{r['tosca_parser_cpu_s']:.3f}" if r["tosca_parser_cpu_s"] else "n/a"
        for p in paths:
            q = r["paths"][p]
            ratio = f"{q['ratio']:.2f}x" if q["ratio"] else "n/a"
            cpu = f"{q['cpu_ratio']:.2f}x" if q["cpu_ratio"] else "n/a"
            print(
                f"{r['n']:>7} {p:>6} {q['toskit_s']:>9.3f} {q['toskit_cpu_s']:>7.3f} {peer_s:>15}"
                f" {peer_c:>7} {ratio:>6} {cpu:>9} {q['toskit_ms_per_node']:>8.3f}"
            )
    by_n = {r["n"]: r for r in rows}
    linear = linear_wall = linear_cpu = None
    if alone:
        largest = max(by_n)
        # Enforced on user CPU time of toskit's runs alone (``alone`` above).
        # The wall time of the larger sizes also measures the other
        # processes of a shared machine; the kernel time is mostly page
        # faults on fresh memory, which a 1,000-node run avoids by reusing
        # what the previous run freed and a 20,000-node run does not get
        # back (0.2 against 2.7 faults per node, ~3 us of system time per
        # node; a first load in a fresh process faults the same at every
        # size). The interleaved table's CPU and wall ratios are printed too.
        linear = alone[largest] / alone[1000]
        linear_cpu = by_n[largest]["toskit_cpu_s"] / by_n[1000]["toskit_cpu_s"]
        linear_wall = by_n[largest]["toskit_s"] / by_n[1000]["toskit_s"]
        print(
            f"linearity: t({largest})/t(1000) = {linear:.2f} (user cpu, toskit alone);"
            f" in the table {linear_cpu:.2f} cpu, {linear_wall:.2f} wall (ideal {largest / 1000:.0f})"
        )
    small_ms = {
        p: round(1000 * statistics.median(t[0] for t in ts), 2) for p, ts in small_times.items()
    }
    small_cpu_ms = {
        p: round(1000 * statistics.median(t[1] for t in ts), 2) for p, ts in small_times.items()
    }
    print(
        f"{SMALL_N}-node template: "
        + ", ".join(f"{p} {small_ms[p]} ms (cpu {small_cpu_ms[p]} ms)" for p in paths)
        + f" (goal < {SMALL_LIMIT * 1000:.0f} ms, median of 21)"
    )
    print(f"import toskit: {imported * 1000:.1f} ms (limit {IMPORT_LIMIT * 1000:.0f} ms)")
    if 5000 in by_n and by_n[5000].get("toskit_peak_mb"):
        ours_mb = by_n[5000]["toskit_peak_mb"]
        theirs_mb = by_n[5000].get("tosca_parser_peak_mb")
        print(f"peak memory at N=5000: toskit {ours_mb} MB, tosca-parser {theirs_mb or 'n/a'} MB")
    if load is not None:
        print(
            f"load average (1, 5, 15 min): {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
            f" on {os.cpu_count()} CPUs"
        )
    print(f"CPU ratios pair by pair ({args.runs} interleaved rounds), median [min-max]:")
    for n, r in sorted(by_n.items()):
        parts = []
        if r.get("cpu_ratios"):
            parts.append(f"tosca-parser/toskit {spread(r['cpu_ratios'])}x (goal >= {GOAL:.0f}x)")
        if r.get("floor_ratios"):
            parts.append(f"toskit/floor {spread(r['floor_ratios'])}x (goal <= {FLOOR_GOAL:.0f}x)")
        if parts:
            print(f"  N={n}: " + "; ".join(parts))
    for n, r in sorted(by_n.items()):
        if n >= 1000 and r["ratio"] is not None:
            verdict = "met" if min(r["ratio"], r["cpu_ratio"]) >= GOAL else "NOT met"
            print(
                f"goal {GOAL:.0f}x at N={n}: {verdict} ({r['ratio']}x wall, {r['cpu_ratio']}x cpu)"
            )
    small_verdict = "met" if small_ms[paths[0]] < SMALL_LIMIT * 1000 else "NOT met"
    print(f"goal < {SMALL_LIMIT * 1000:.0f} ms for {SMALL_N} nodes ({paths[0]}): {small_verdict}")

    failures = []
    if 5000 in by_n and by_n[5000]["ratio"] is not None and by_n[5000]["ratio"] < FIRST_BAR:
        failures.append(f"ratio at N=5000 is {by_n[5000]['ratio']}x, below {FIRST_BAR}x")
    if linear is not None and linear > 1.1 * max(by_n) / 1000:
        failures.append(f"growth is not linear ({linear:.2f})")
    if imported > IMPORT_LIMIT:
        failures.append(f"import toskit takes {imported:.3f} s")
    for failure in failures:
        print(f"FAIL: {failure}")

    data = {
        "rows": rows,
        "linearity": linear,
        "linearity_cpu": linear_cpu,
        "linearity_wall": linear_wall,
        "import_s": round(imported, 4),
        "small_n": SMALL_N,
        "small_ms": small_ms,
        "small_cpu_ms": small_cpu_ms,
        "load_average": list(load) if load is not None else None,
        "failures": failures,
    }
    out = os.environ.get("TOSKIT_BENCH_JSON")
    if out:
        Path(out).write_text(json.dumps(data, indent=2), encoding="utf-8")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
