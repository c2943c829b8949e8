"""Benchmark B6: drawing the topology of a 500-node template.

The template (made here, seeded, no file read) is 72 "stacks" of seven
node templates: a machine with an attached block storage volume, a web
server and a DBMS on it, two web applications on the web server and a
database on the DBMS; each web application also depends on the database
of another, randomly chosen, stack (so the graph is one tangle, not 72
separate pictures). 504 node templates, 576 requirements.

Timed (loading is not):

* ``st.topology()`` — the model: edges, candidates, problems;
* ``topology.to_svg()`` — grandalf's layered layout and the SVG;
* ``to_html(topology)`` — the notebook view (drawing plus tables);
* ``grouped().to_svg()`` and ``collapse_hosting().to_svg()`` — the
  readable views of a large template.

Target: ``topology()`` + ``to_svg()`` under 2 s (the figure printed is
the median of ``--runs`` runs, in CPU seconds of this process); the script
exits 1 when it is missed. ``--stacks 2857`` is the dense 20,000-node case
(22,856 requirements; the stacks, tangled by their dependencies into one
component too big to lay out whole, are laid out by their hosting
backbones, the dependencies drawn straight). ``--fresh-layouts`` lays out
every component anew (no reuse of a shape laid out before: what a template
whose stacks all differ costs); ``--varied`` gives each stack's boxes
other widths (longer names and values), the same structure: a layout is
then reused only as far as its structure goes. ``--grandalf`` gives every
component to grandalf itself (not toskit's run of its algorithm for
acyclic components, which computes the same floats). ``--b1 20000`` times ``topology()`` +
``to_svg()`` of B1 (``bench/gen_template.py``: nodes without requirements)
instead.

    .venv/bin/python bench/bench_topology.py [--runs 3] [--stacks 72] [--fresh-layouts]
        [--varied] [--grandalf] [--b1 NODES] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import toskit
from toskit.display import to_html
from toskit.tosca.topology import layout

TARGET_S = 2.0


def generate(stacks: int = 72, seed: int = 7, varied: bool = False) -> str:
    """A TOSCA 1.3 template of ``stacks`` × 7 node templates (see the module
    docstring). ``varied``: the machines', web servers', databases' and web
    applications' names or property values get a random length per stack,
    so the stacks keep their structure but their boxes' widths differ (the
    layout cannot reuse one stack's layout for the next as it is)."""
    rng = random.Random(seed)
    pad = random.Random(seed + 1)  # its own: the dependencies stay those of `seed`

    def more(limit: int) -> str:
        return "-" + "x" * pad.randrange(limit) if varied else ""

    lines = [
        "tosca_definitions_version: tosca_simple_yaml_1_3",
        "topology_template:",
        "  node_templates:",
    ]
    vms = [f"vm{i}{more(16)}" for i in range(stacks)]
    webs = [f"web{i}{more(16)}" for i in range(stacks)]
    for i in range(stacks):
        other = rng.randrange(stacks)
        lines += [
            f"    {vms[i]}:",
            "      type: tosca.nodes.Compute",
            "      capabilities:",
            f"        host: {{ properties: {{ num_cpus: {2 + i % 8}, mem_size: {4 + i % 4} GB }} }}",
            "      requirements:",
            f"        - local_storage: {{ node: vol{i}, relationship: tosca.relationships.AttachesTo }}",
            f"    vol{i}:",
            "      type: tosca.nodes.Storage.BlockStorage",
            f"      properties: {{ name: vol{i}, size: {10 + i % 5} GB }}",
            f"    {webs[i]}:",
            "      type: tosca.nodes.WebServer",
            f"      requirements: [ {{ host: {vms[i]} }} ]",
            f"    dbms{i}:",
            "      type: tosca.nodes.DBMS",
            f"      properties: {{ port: {5432 + i % 3} }}",
            f"      requirements: [ {{ host: {vms[i]} }} ]",
            f"    db{i}:",
            "      type: tosca.nodes.Database",
            f"      properties: {{ name: orders{i}{more(18)} }}",
            f"      requirements: [ {{ host: dbms{i} }} ]",
        ]
        for app in ("a", "b"):
            lines += [
                f"    app{i}{app}:",
                "      type: tosca.nodes.WebApplication",
                f"      properties: {{ context_root: /app{i}{app}{more(12)} }}",
                f"      requirements: [ {{ host: {webs[i]} }}, {{ dependency: db{other} }} ]",
            ]
    return "\n".join(lines) + "\n"


def _median(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.process_time()  # CPU: other processes share the machine
        result = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def measure(stacks: int = 72, runs: int = 3, varied: bool = False) -> dict[str, float | int]:
    """The figures (seconds, sizes) for a template of ``stacks`` stacks."""
    st = toskit.loads(generate(stacks, varied=varied), name=f"bench-{stacks * 7}-nodes.yaml")
    if not st.ok:
        raise SystemExit(f"the generated template has errors: {st.errors[:3]}")
    model_s, topology = _median(st.topology, runs)
    svg_s, svg = _median(topology.to_svg, runs)  # type: ignore[attr-defined]
    html_s, html = _median(lambda: to_html(topology), runs)
    grouped_s, _ = _median(lambda: topology.grouped().to_svg(), runs)  # type: ignore[attr-defined]
    collapsed_s, collapsed = _median(lambda: topology.collapse_hosting().to_svg(), runs)  # type: ignore[attr-defined]
    return {
        "nodes": len(topology.nodes),  # type: ignore[attr-defined]
        "edges": len(topology.edges),  # type: ignore[attr-defined]
        "topology_s": round(model_s, 3),
        "to_svg_s": round(svg_s, 3),
        "draw_total_s": round(model_s + svg_s, 3),
        "to_html_s": round(html_s, 3),
        "grouped_svg_s": round(grouped_s, 3),
        "collapsed_svg_s": round(collapsed_s, 3),
        "svg_kb": round(len(str(svg)) / 1024),
        "html_kb": round(len(str(html)) / 1024),
        "collapsed_svg_kb": round(len(str(collapsed)) / 1024),
    }


def measure_b1(nodes: int, runs: int = 3) -> dict[str, float | int]:
    """``topology()`` + ``to_svg()`` of B1 at ``nodes`` node templates."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from gen_template import generate as generate_b1

    st = toskit.loads(generate_b1(nodes), name=f"b1-{nodes}.yaml")
    model_s, topology = _median(st.topology, runs)
    svg_s, svg = _median(topology.to_svg, runs)  # type: ignore[attr-defined]
    return {
        "nodes": len(topology.nodes),  # type: ignore[attr-defined]
        "edges": len(topology.edges),  # type: ignore[attr-defined]
        "topology_s": round(model_s, 3),
        "to_svg_s": round(svg_s, 3),
        "draw_total_s": round(model_s + svg_s, 3),
        "svg_kb": round(len(str(svg)) / 1024),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stacks", type=int, default=72)
    parser.add_argument(
        "--fresh-layouts", action="store_true", help="no reuse of a component's layout"
    )
    parser.add_argument("--varied", action="store_true", help="stacks whose boxes differ in width")
    parser.add_argument(
        "--grandalf", action="store_true", help="every component to grandalf itself"
    )
    parser.add_argument("--b1", type=int, metavar="NODES", help="time B1 of NODES nodes instead")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    layout.REUSE_SHAPES = not args.fresh_layouts
    layout.OWN_LAYERED = not args.grandalf
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if args.b1:
        figures = measure_b1(args.b1, args.runs)
    else:
        figures = measure(args.stacks, args.runs, args.varied)
    figures["load_average_after"] = round(os.getloadavg()[0], 2)
    for key, value in figures.items():
        print(f"{key:18} {value}")
    ok = figures["draw_total_s"] < TARGET_S
    print(f"target: topology() + to_svg() < {TARGET_S} s: {'met' if ok else 'MISSED'}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
