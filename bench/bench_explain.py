"""Benchmark of issue #32: ``st.explain`` over every leaf of a 1,000-node template.

Generates the B1 template (``bench/gen_template.py``, TOSCA 1.3, defaults
at every level of a data-type and node-type hierarchy) and times, median of
``--runs`` in one process (CPU time of this process, the steadier figure on
a shared machine; wall time too):

* the load: ``toskit.load(path)`` and reading every node's ``properties``
  (what bench B1 times);
* listing the leaves: every node template's ``property_table()`` (timed
  apart: a notebook has usually built it already);
* explaining every leaf: ``node.explain(row.parts)`` for every row, reading
  each winner's ``source.line`` -- the layer stack with each layer's file
  and line (the document's positions are composed on first use: the fast
  parser keeps none at load), hops, checks and findings.

Before each timed step the garbage of the one before is collected
(``gc.collect()``), so that neither the load nor the explanations pay a
collection the other caused: a full collection walks the whole loaded
template, and where it lands would otherwise decide the ratio.

The bar (issue #32): explaining every leaf costs under 2x the load (CPU).
Exits 1 when it is missed. The medians are printed with their spread
(lowest-highest) and the machine's load average.

    python bench/bench_explain.py [--nodes 1000] [--runs 5]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from gen_template import generate  # noqa: E402

import toskit  # noqa: E402


def _timed(fn) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def _load(path: Path) -> toskit.ServiceTemplate:
    st = toskit.load(path)
    for node in st.node_templates.values():
        node.properties  # noqa: B018 - what B1 reads
    return st


def _leaves(st: toskit.ServiceTemplate) -> list:
    return [
        (node, row.parts) for node in st.node_templates.values() for row in node.property_table()
    ]


def _explain_all(leaves: list) -> int:
    lines = 0
    for node, parts in leaves:
        lines += node.explain(parts).source.line is not None
    return lines


def _spread(values) -> str:
    ordered = sorted(values)
    return f"{ordered[0]:.3f}-{ordered[-1]:.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "b1.yaml"
        path.write_text(generate(args.nodes), encoding="utf-8")
        _explain_all(_leaves(_load(path)))  # warm up (imports, caches of the first run)
        loads, tables, explains = [], [], []
        located = leaves = 0
        for _ in range(args.runs):
            gc.collect()
            lw, lc, st = _timed(lambda: _load(path))
            gc.collect()
            tw, tc, found = _timed(lambda st=st: _leaves(st))
            gc.collect()
            ew, ec, located = _timed(lambda found=found: _explain_all(found))
            leaves = len(found)
            loads.append((lw, lc))
            tables.append((tw, tc))
            explains.append((ew, ec))
    load_wall = statistics.median(w for w, _ in loads)
    load_cpu = statistics.median(c for _, c in loads)
    ex_wall = statistics.median(w for w, _ in explains)
    ex_cpu = statistics.median(c for _, c in explains)
    ratio = ex_cpu / load_cpu
    table_cpu = statistics.median(c for _, c in tables)
    print(f"{args.nodes} nodes, {leaves} leaves ({located} located), median of {args.runs}")
    print(
        f"load:        wall {load_wall:.3f} s  cpu {load_cpu:.3f} s"
        f" ({_spread(c for _, c in loads)})"
    )
    print(
        f"tables:      cpu {table_cpu:.3f} s ({table_cpu / load_cpu:.2f}x the load; not in the ratio)"
    )
    print(
        f"explain all: wall {ex_wall:.3f} s  cpu {ex_cpu:.3f} s ({_spread(c for _, c in explains)};"
        f" {ex_cpu / leaves * 1e6:.1f} us CPU per leaf)"
    )
    ratios = sorted(e[1] / lo[1] for e, lo in zip(explains, loads))
    print(
        f"explain / load: {ratio:.2f}x cpu (run by run {ratios[0]:.2f}-{ratios[-1]:.2f}),"
        f" {ex_wall / load_wall:.2f}x wall (bar < 2x); load average {os.getloadavg()[0]:.1f}"
    )
    return 0 if ratio < 2 else 1


if __name__ == "__main__":
    sys.exit(main())
