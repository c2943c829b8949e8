"""Benchmark B4: notebook views and the simulator's interactive latency.

Measures, on real objects built by toskit:

* ``_repr_html_`` of a 10,000-node template (target: < 0.5 s, < 1 MB);
* ``_repr_html_`` of one node template with 500 properties (same bounds);
* ``render_page`` of the 10,000-node template, bounded to 50 nodes and whole
  (a report lists every node: informational, no target);
* ``ClusterSimulator`` re-checking every role of the seed's roles document
  on a 1,000-node cluster after one change (target: median < 50 ms), for
  three kinds of change: selecting a node, editing a node's roles, and
  switching the mode;
* ``ClusterSimulator`` on the real Fuel release (Newton, ``openstack.yaml``)
  with 1,000 nodes, after selecting a node and after toggling a setting in
  the settings panel (same target).

Loading is outside the timed part. Each figure is the median of ``--runs``
runs; the script exits 1 when a target is missed.

    .venv/bin/python bench/bench_views.py [--runs 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import toskit
from toskit import conditions
from toskit.conditions.examples import SEED_ROLES_YAML
from toskit.display import render_page
from toskit.widgets import ClusterSimulator

RELEASE_FILE = Path(__file__).resolve().parents[1] / "conformance" / "fuel" / "openstack.yaml"
FUEL_ROLES = ("controller", "compute", "compute", "ceph-osd", "cinder")

# The seed's controller rules (indentation fixed) with compute, cinder, zabbix-server.
ROLES = SEED_ROLES_YAML


def many_nodes_template(count: int) -> str:
    """A 1.3 template with a 3-level data hierarchy and ``count`` node templates."""
    head = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  my.Endpoint:
    derived_from: tosca.datatypes.Root
    properties:
      ip: {type: string}
      port: {type: integer, default: 2233}
  my.SecureEndpoint:
    derived_from: my.Endpoint
    properties:
      tls: {type: boolean, default: true}
  my.Connection:
    derived_from: tosca.datatypes.Root
    properties:
      endpoint: {type: my.SecureEndpoint}
      user: {type: string, default: admin}
node_types:
  my.Base:
    derived_from: tosca.nodes.Root
    properties:
      connection: {type: my.Connection, default: {user: base}}
  my.Service:
    derived_from: my.Base
    properties:
      replicas: {type: integer, default: 1}
topology_template:
  node_templates:
"""
    body = "".join(
        f"    node{i}:\n      type: my.Service\n      properties:\n"
        f"        connection: {{endpoint: {{ip: 10.0.{i // 250}.{i % 250}}}}}\n"
        for i in range(count)
    )
    return head + body


def wide_node_template(count: int) -> str:
    """One node template whose type declares ``count`` properties."""
    props = "".join(f"      p{i}: {{type: string, default: value-{i}}}\n" for i in range(count))
    values = "".join(f"        p{i}: set-{i}\n" for i in range(0, count, 2))
    return (
        "tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types:\n  my.Wide:\n"
        f"    derived_from: tosca.nodes.Root\n    properties:\n{props}"
        f"topology_template:\n  node_templates:\n    wide:\n      type: my.Wide\n      properties:\n{values}"
    )


def median_seconds(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)

    results: dict[str, dict[str, float | bool]] = {}

    text = many_nodes_template(10_000)
    # Cold: the first render also builds (and caches) the listed nodes' tables.
    cold = toskit.loads(text, name="big.yaml")
    results["template_10k_repr_first"] = {
        "seconds": median_seconds(cold._repr_html_, 1),
        "limit_seconds": 0.5,
    }
    big = toskit.loads(text, name="big.yaml")
    html = big._repr_html_()
    results["template_10k_repr"] = {
        "seconds": median_seconds(big._repr_html_, args.runs),
        "bytes": len(html.encode()),
        "limit_seconds": 0.5,
        "limit_bytes": 1_000_000,
    }
    results["template_10k_report_50_nodes"] = {
        "seconds": median_seconds(lambda: render_page(big, max_nodes=50), args.runs),
        "bytes": len(render_page(big, max_nodes=50).encode()),
    }

    results["template_10k_report_all_nodes"] = {
        "seconds": median_seconds(lambda: render_page(big), 1),
        "bytes": len(render_page(big).encode()),
    }

    wide_text = wide_node_template(500)
    wide_cold = toskit.loads(wide_text, name="wide.yaml").node_templates["wide"]
    results["node_500_properties_repr_first"] = {
        "seconds": median_seconds(wide_cold._repr_html_, 1),
        "limit_seconds": 0.5,
    }
    wide = toskit.loads(wide_text, name="wide.yaml").node_templates["wide"]
    node_html = wide._repr_html_()
    results["node_500_properties_repr"] = {
        "seconds": median_seconds(wide._repr_html_, args.runs),
        "bytes": len(node_html.encode()),
        "limit_seconds": 0.5,
        "limit_bytes": 1_000_000,
    }

    roles = conditions.load_roles(ROLES)
    nodes = [
        {
            "id": i,
            "roles": ["controller"] if i % 50 == 0 else ["compute"],
            "pending_deletion": i % 97 == 0,
        }
        for i in range(1, 1001)
    ]
    sim = ClusterSimulator(roles, conditions.Cluster("multinode", nodes=nodes, pool=[{"id": 5000}]))
    toggle = iter(range(10**9))

    def select_change() -> None:
        sim.select([5000] if next(toggle) % 2 else [5000, 1])

    def edit_change() -> None:
        sim.set_roles(500, ["controller"] if next(toggle) % 2 else ["compute"])

    def mode_change() -> None:
        sim.set_mode("ha_compact" if next(toggle) % 2 else "multinode")

    # Traces are on in every figure (each outcome row draws its trace); this
    # one also has every role's trace open, as a user exploring them would.
    opened = ClusterSimulator(
        roles, conditions.Cluster("multinode", nodes=nodes, pool=[{"id": 5000}])
    )
    opened._view.open_keys = [f"trace:{name}" for name in opened.outcomes]

    def select_open_traces() -> None:
        opened.select([5000] if next(toggle) % 2 else [5000, 1])

    for name, action in (
        ("select", select_change),
        ("edit_roles", edit_change),
        ("mode", mode_change),
        ("select_traces_open", select_open_traces),
    ):
        results[f"simulator_1000_nodes_{name}"] = {
            "seconds": median_seconds(action, max(args.runs, 11)),
            "limit_seconds": 0.05,
        }

    release = conditions.load_release(RELEASE_FILE, "Newton on Ubuntu 16.04")
    fuel_nodes = [
        {"id": i, "roles": [FUEL_ROLES[i % len(FUEL_ROLES)]], "pending_deletion": i % 97 == 0}
        for i in range(1, 1001)
    ]
    fuel = ClusterSimulator(
        release, release.cluster(mode="ha_compact", nodes=fuel_nodes, pool=[{"id": 5000}])
    )

    def fuel_select() -> None:
        fuel.select([5000] if next(toggle) % 2 else [5000, 1])

    def fuel_setting() -> None:
        fuel.set_setting("storage.volumes_ceph", bool(next(toggle) % 2))

    for name, action in (("select", fuel_select), ("setting", fuel_setting)):
        results[f"fuel_simulator_1000_nodes_{name}"] = {
            "seconds": median_seconds(action, max(args.runs, 11)),
            "limit_seconds": 0.05,
        }

    failed = False
    print(f"{'measure':<36} {'median':>10} {'size':>12}  target")
    for name, figures in results.items():
        seconds = figures["seconds"]
        size = figures.get("bytes")
        ok = seconds <= figures.get("limit_seconds", float("inf")) and (
            size is None or size <= figures.get("limit_bytes", float("inf"))
        )
        figures["ok"] = ok
        failed |= not ok
        target = []
        if "limit_seconds" in figures:
            target.append(f"< {figures['limit_seconds'] * 1000:.0f} ms")
        if "limit_bytes" in figures:
            target.append(f"< {figures['limit_bytes'] / 1e6:.0f} MB")
        size_text = f"{size / 1000:,.0f} kB" if size is not None else ""
        print(
            f"{name:<36} {seconds * 1000:>8.1f}ms {size_text:>12}  {', '.join(target) or '-'}"
            f"{'' if ok else '  MISSED'}"
        )

    out = args.json or os.environ.get("TOSKIT_BENCH_JSON")
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
