"""Benchmark: toskit's YAML loader against PyYAML's ``CSafeLoader``.

Generates a ~5 MB TOSCA-like YAML document and loads it, alternating,
with ``yaml.load(text, Loader=yaml.CSafeLoader)`` and with
``toskit.source.load_yaml`` (which also records every node's location and
checks duplicate keys and bounds) on both of its parse paths:
``parser="c"`` (PyYAML's events, locations recorded while loading) and
``parser="fast"`` (rapidyaml, locations computed on first use; see
``toskit.source.fast``). Prints the median of 5 runs of each (wall and CPU
time) and the ratios (target: toskit ≤ 1.5× PyYAML).

    .venv/bin/python bench/bench_loader.py [--size-mb 5] [--runs 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import yaml

from toskit.source import fast, load_yaml
from toskit.source.document import LIMIT_DEFAULTS


def generate(target_bytes: int) -> str:
    """A TOSCA-like document: node templates with nested, mixed-type properties."""
    header = (
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n"
    )
    chunks = [header]
    size = len(header)
    i = 0
    while size < target_bytes:
        chunk = (
            f"    node_{i}:\n"
            f"      type: my.nodes.Service{i % 7}\n"
            f"      properties:\n"
            f"        name: service-{i}\n"
            f"        port: {8000 + i % 1000}\n"
            f"        ratio: {i / 7:.4f}\n"
            f"        enabled: {'true' if i % 2 else 'false'}\n"
            f'        description: "Service number {i}, generated for the benchmark"\n'
            f"        connection:\n"
            f"          endpoint:\n"
            f"            ip: 10.0.{i % 256}.{(i * 7) % 256}\n"
            f"            port: {9000 + i % 100}\n"
            f"          auth: {{user: u{i}, password: p{i}}}\n"
            f"        tags: [a{i % 10}, b{i % 13}, c, ~]\n"
            f"      requirements:\n"
            f"        - host: server_{i % 50}\n"
            f"        - database: db_{i % 20}\n"
        )
        chunks.append(chunk)
        size += len(chunk)
        i += 1
    return "".join(chunks)


def time_once(fn) -> tuple[float, float]:
    """Wall and CPU seconds of one call."""
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - cpu


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)

    text = generate(int(args.size_mb * 1_000_000))
    reference = yaml.load(text, Loader=yaml.CSafeLoader)
    paths = ["c"] + (["fast"] if fast.available() else [])
    for parser in paths:
        doc = load_yaml(text, parser=parser)
        if doc.diagnostics or doc.value != reference:
            raise SystemExit(f"toskit ({parser}) and PyYAML disagree on the benchmark document")
    if "fast" in paths and fast.load_fast(text, dict(LIMIT_DEFAULTS)) is fast.FALLBACK:
        raise SystemExit("the fast path fell back on the benchmark document")

    times: dict[str, list[tuple[float, float]]] = {"pyyaml": [], **{p: [] for p in paths}}
    for _ in range(args.runs):
        times["pyyaml"].append(time_once(lambda: yaml.load(text, Loader=yaml.CSafeLoader)))
        for parser in paths:
            times[parser].append(time_once(lambda: load_yaml(text, parser=parser)))  # noqa: B023

    def median(key: str, cpu: bool = False) -> float:
        return statistics.median(t[1] if cpu else t[0] for t in times[key])

    results = {
        "size_bytes": len(text.encode()),
        "runs": args.runs,
        "pyyaml_csafeloader_s": median("pyyaml"),
        "toskit_load_yaml_s": median("c"),
        "pyyaml_csafeloader_cpu_s": median("pyyaml", True),
        "toskit_load_yaml_cpu_s": median("c", True),
    }
    results["ratio"] = results["toskit_load_yaml_s"] / results["pyyaml_csafeloader_s"]
    if "fast" in paths:
        results["toskit_fast_s"] = median("fast")
        results["toskit_fast_cpu_s"] = median("fast", True)
        results["fast_ratio"] = results["toskit_fast_s"] / results["pyyaml_csafeloader_s"]
    print(f"document: {results['size_bytes'] / 1e6:.1f} MB, median of {args.runs} runs")
    print(
        f"  yaml.load(CSafeLoader)   {results['pyyaml_csafeloader_s']:.3f} s"
        f"  (cpu {results['pyyaml_csafeloader_cpu_s']:.3f} s)"
    )
    print(
        f"  toskit load_yaml (c)     {results['toskit_load_yaml_s']:.3f} s"
        f"  (cpu {results['toskit_load_yaml_cpu_s']:.3f} s, with locations)"
    )
    if "fast" in paths:
        print(
            f"  toskit load_yaml (fast)  {results['toskit_fast_s']:.3f} s"
            f"  (cpu {results['toskit_fast_cpu_s']:.3f} s, locations on first use)"
        )
    print(f"  ratio toskit / PyYAML    {results['ratio']:.2f}x  (target <= 1.5x)")
    if "fast" in paths:
        print(f"  ratio fast / PyYAML      {results['fast_ratio']:.2f}x")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)
    return results


if __name__ == "__main__":
    main()
