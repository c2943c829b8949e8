"""Benchmark: frames of B1's properties: one per node (``to_frame``) and one for the template.

Issue #31 item 3 asks for <= 0.1 ms per node. For ``--nodes`` node
templates (``bench/gen_template.py``, default 1,000), each round drops every
node's cached tables and times, in CPU time per node:

* ``to_frame``: the whole ``node.property_table().to_frame()`` (the figure;
  B1 has no findings, so the frame is read from each node's resolution: no
  row objects, no row states);
* ``rows``: ``node.property_table().rows``, the row objects (made on first
  use: for ``.rows``, a view, or the states of a table a finding names);
* ``states``: the rows' states from the findings (``table.states``);
* ``frame from rows``: ``table.to_frame()`` on tables whose rows are made;
* ``bare DataFrame``: ``pandas.DataFrame`` of the same six columns given as
  plain lists, no toskit code at all: what one frame per node costs here.

Then, for each of ``--sizes`` (default 1,000 and 5,000 nodes), one
template-wide frame, ``st.property_frame()`` (every node's rows, a ``node``
column first), its CPU time divided by the node count, on a fresh load (no
table built before; ``property_frame`` builds none for a node without
findings), and with ``show_overridden=True``.

Prints medians of ``--runs`` rounds with the spread [min-max] and the load
average; informational (exits 0), the figures go to ``$TOSKIT_BENCH_JSON``.

    .venv/bin/python bench/bench_frame.py [--nodes 1000] [--sizes 1000 5000] [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_template import generate  # noqa: E402  (a sibling script, not a package)

GOAL_MS = 0.1


def _per_node(nodes: list[Any], step: Any) -> float:
    started = time.process_time()
    for node in nodes:
        step(node)
    return (time.process_time() - started) / len(nodes) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1000)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 5000])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)

    import pandas as pd

    st = _load(args.nodes)
    nodes = list(st.node_templates.values())
    nodes[0].property_table().to_frame()  # pandas' own first-call costs out of the way

    def clear() -> None:
        for node in nodes:
            node._tables.clear()

    figures: dict[str, list[float]] = {
        "to_frame": [],
        "rows": [],
        "states": [],
        "frame from rows": [],
        "bare DataFrame": [],
    }
    columns = ("path", "value", "type", "source", "status", "problem")
    for _ in range(args.runs):
        clear()
        figures["to_frame"].append(_per_node(nodes, lambda n: n.property_table().to_frame()))
        clear()
        figures["rows"].append(_per_node(nodes, lambda n: n.property_table().rows))
        figures["states"].append(_per_node(nodes, lambda n: n.property_table().states))
        figures["frame from rows"].append(_per_node(nodes, lambda n: n.property_table().to_frame()))
        lists = [
            {
                "path": [r.path for r in t.rows],
                "value": [r.value for r in t.rows],
                "type": [r.type for r in t.rows],
                "source": [r.source for r in t.rows],
                "status": ["valid"] * len(t.rows),
                "problem": [None] * len(t.rows),
            }
            for t in (n.property_table() for n in nodes)
        ]
        started = time.process_time()
        for data in lists:
            pd.DataFrame(data, columns=list(columns))
        figures["bare DataFrame"].append((time.process_time() - started) / len(nodes) * 1000)

    load = os.getloadavg()
    print(
        f"to_frame() of every node, {args.nodes} nodes, CPU ms per node, median of "
        f"{args.runs} rounds [min-max]; load average {load[0]:.1f} on {os.cpu_count()} CPUs:"
    )
    for name, values in figures.items():
        print(f"  {name:16} {statistics.median(values):.3f} [{min(values):.3f}-{max(values):.3f}]")
    whole = statistics.median(figures["to_frame"])
    verdict = "met" if whole <= GOAL_MS else "NOT met"
    print(f"goal <= {GOAL_MS} ms per node, one frame per node: {verdict} ({whole:.3f} ms)")

    wide = _template_wide(args.sizes, args.runs)
    if wide:
        load = os.getloadavg()
        print(
            f"st.property_frame(): one frame of every node, CPU ms per node, median of "
            f"{args.runs} rounds [min-max]; load average {load[0]:.1f}:"
        )
        for name, values in wide.items():
            low, high = min(values), max(values)
            print(f"  {name:40} {statistics.median(values):.4f} [{low:.4f}-{high:.4f}]")
        worst = max(statistics.median(v) for v in wide.values())
        verdict = "met" if worst <= GOAL_MS else "NOT met"
        print(
            f"goal <= {GOAL_MS} ms per node, one frame of the template: {verdict} ({worst:.4f} ms)"
        )
    out = os.environ.get("TOSKIT_BENCH_JSON")
    if out:
        record = {k: round(statistics.median(v), 4) for k, v in {**figures, **wide}.items()}
        Path(out).write_text(json.dumps({"bench_frame": record}, indent=2), encoding="utf-8")
    return 0


def _load(count: int) -> Any:
    import toskit

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "b1.yaml"
        path.write_text(generate(count), encoding="utf-8")
        return toskit.load(str(path))


def _template_wide(sizes: list[int], runs: int) -> dict[str, list[float]]:
    """``st.property_frame()`` per node, each round on a template no frame was
    built from (its nodes' cached tables dropped, though it builds none)."""
    figures: dict[str, list[float]] = {}
    for count in sizes:
        st = _load(count)
        nodes = list(st.node_templates.values())
        st.property_frame()  # pandas' own first-call costs out of the way
        for shown in (False, True):
            name = f"property_frame, {count} nodes" + (", overridden" if shown else "")
            times = figures[name] = []
            for _ in range(runs):
                for node in nodes:
                    node._tables.clear()
                started = time.process_time()
                st.property_frame(show_overridden=shown)
                times.append((time.process_time() - started) / count * 1000)
    return figures


if __name__ == "__main__":
    sys.exit(main())
