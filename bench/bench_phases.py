"""Benchmark: where a B1 load's CPU goes, phase by phase, per node.

Wraps the load's phase functions (the names ``toskit.tosca.load.loader``
and ``toskit.source.document`` call) with ``time.process_time_ns`` and
loads the B1 template of ``bench/gen_template.py`` (``--nodes``, default
1,000) ``--runs`` times after a warm-up, touching every node's
properties as ``bench_tosca.py`` does. Prints, per node, the median CPU
of each phase with the spread [min-max], the whole load's, and the load
average: what is left to the rest (keynames, types, artifacts,
interfaces, the evaluation graph) is the total minus the phases.

Timers around whole phases, not a profile: no per-call overhead but the
wrappers' (five calls a load), unlike cProfile's, which favours functions
with few calls. docs/performance.md quotes it. Informational (exits 0);
the figures go to ``$TOSKIT_BENCH_JSON`` when it is set.

    .venv/bin/python bench/bench_phases.py [--nodes 1000] [--runs 15]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gen_template import generate  # noqa: E402  (a sibling script, not a package)

# (module, function, label): the phases, in the order a load runs them.
PHASES = (
    ("toskit.source.document", "load_fast", "YAML walk (rapidyaml + walk)"),
    ("toskit.tosca.load.loader", "build_entities", "entities (merge)"),
    ("toskit.tosca.load.loader", "build_capabilities", "capabilities"),
    ("toskit.tosca.load.loader", "resolve_requirements", "requirements"),
    ("toskit.tosca.load.loader", "check_pending", "value checks"),
)


def _wrap(spent: collections.Counter, label: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time_ns()
        try:
            return real(*args, **kwargs)
        finally:
            spent[label] += time.process_time_ns() - started

    return timed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)

    import importlib

    import toskit

    spent: collections.Counter = collections.Counter()
    for module_name, name, label in PHASES:
        module = importlib.import_module(module_name)
        setattr(module, name, _wrap(spent, label, getattr(module, name)))

    figures: dict[str, list[float]] = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "b1.yaml"
        path.write_text(generate(args.nodes), encoding="utf-8")

        def load() -> None:
            st = toskit.load(str(path))
            for node in st.node_templates.values():
                node.properties  # noqa: B018 - touching every node is the measured work

        load()  # the normative profile, parsed once per process
        for _ in range(args.runs):
            spent.clear()
            started = time.process_time_ns()
            load()
            spent["the whole load"] = time.process_time_ns() - started
            for label, ns in spent.items():
                figures[label].append(ns / 1000 / args.nodes)

    load_avg = os.getloadavg()[0]
    print(
        f"B1 load by phase, {args.nodes} nodes, CPU us per node, median of {args.runs} loads "
        f"[min-max]; load average {load_avg:.1f}:"
    )
    for label, values in figures.items():
        print(
            f"  {label:30} {statistics.median(values):7.2f} [{min(values):.2f}-{max(values):.2f}]"
        )
    out = os.environ.get("TOSKIT_BENCH_JSON")
    if out:
        record = {k: round(statistics.median(v), 3) for k, v in figures.items()}
        Path(out).write_text(json.dumps({"bench_phases": record}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
