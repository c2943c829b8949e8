"""Benchmark: comparing two large templates costs little beside loading them.

Issue #29's bar: comparing two 5,000-node templates (``bench/gen_template.py``)
that differ in 1 % of their effective values takes under half the time of
loading them both (issue #21's was 1.5x). Side by side in one process,
alternating, median of ``--runs``:

* load: ``toskit.loads`` of both texts, touching every node's
  ``properties`` (what ``toskit.compare`` of two paths does first);
* compare: ``toskit.compare(old, new)`` of the two loaded templates (the
  structural walk of both documents and the effective values);
* report: ``str(diff)`` after it, which reads each change's
  ``file:line:column`` — the loader keeps no positions, so the first
  location asked of a document parses its text once more (printed apart:
  it grows with the documents, not with the changes).

The new text changes one value (a node's ``label`` or its endpoint ``port``)
in as many node templates as make 1 % of all the leaf values of the old
template; the run checks that the diff finds exactly those changes.
Prints the medians and their ratio; exits 1 when the ratio is above the bar.

    python bench/bench_compare.py [--nodes 5000] [--runs 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gen_template import NODE, NODE_PLAIN, generate  # noqa: E402

import toskit  # noqa: E402

BAR = 0.5  # compare under this share of the time of loading both


def changed_text(n: int, changes: int) -> str:
    """The template of ``generate(n)`` with one value changed in ``changes`` nodes."""
    text = generate(n)
    step = max(n // changes, 1)
    for i in list(range(0, n, step))[:changes]:
        if i % 3 == 2:
            old = NODE_PLAIN.format(i=i, replicas=1 + i % 5)
            new = old.replace(f"username: ops{i}", f"username: admin{i}")
        else:
            old = NODE.format(i=i, port=1024 + i % 60000, tier=i % 4)
            new = old.replace(f"label: database {i}", f"label: database {i} (renamed)")
        assert old in text and old != new
        text = text.replace(old, new, 1)
    return text


def load_both(old_text: str, new_text: str) -> tuple[float, object, object]:
    started = time.perf_counter()
    pair = []
    for text, name in ((old_text, "old.yaml"), (new_text, "new.yaml")):
        st = toskit.loads(text, name=name)
        for node in st.node_templates.values():
            node.properties  # noqa: B018 - the measured work
        pair.append(st)
    return time.perf_counter() - started, pair[0], pair[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    parser.add_argument(
        "--no-bar",
        action="store_true",
        help="exit 0 whatever the ratio (tests: counts, never seconds)",
    )
    args = parser.parse_args(argv)

    old_text = generate(args.nodes)
    probe = toskit.loads(old_text)
    leaves = sum(len(node.property_table()) for node in probe.node_templates.values())
    changes = max(round(leaves * 0.01), 1)
    new_text = changed_text(args.nodes, changes)

    loads, compares, reports = [], [], []
    diff = None
    for _ in range(args.runs):
        t_load, old, new = load_both(old_text, new_text)
        started = time.perf_counter()
        diff = toskit.compare(old, new)
        compares.append(time.perf_counter() - started)
        started = time.perf_counter()
        str(diff)
        reports.append(time.perf_counter() - started)
        loads.append(t_load)
    assert diff is not None
    if (
        len(diff.values) != changes
        or diff.types
        or diff.templates
        or diff.diagnostics
        or diff.fields
        or diff.not_compared
        or any(v.old_location is None or v.new_location is None for v in diff.values)
    ):
        raise SystemExit(
            f"unexpected diff: {diff!r} (expected {changes} value changes, each located)"
        )

    t_load, t_cmp = statistics.median(loads), statistics.median(compares)
    t_report = statistics.median(reports)
    ratio = t_cmp / t_load
    print(f"templates: 2 x {args.nodes:,} node templates, {leaves:,} leaf values each")
    print(f"changed values: {changes:,} (1 %)")
    print(f"load both (median of {args.runs}): {t_load * 1000:8.1f} ms")
    print(f"compare   (median of {args.runs}): {t_cmp * 1000:8.1f} ms")
    print(
        f"report    (median of {args.runs}): {t_report * 1000:8.1f} ms  (str(diff): locations read)"
    )
    print(f"compare / load both: {ratio:.3f}  (bar: under {BAR})")
    print(f"(compare + report) / load both: {(t_cmp + t_report) / t_load:.3f}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "nodes": args.nodes,
                    "leaves": leaves,
                    "changes": changes,
                    "load_both_s": t_load,
                    "compare_s": t_cmp,
                    "report_s": t_report,
                    "ratio": ratio,
                    "bar": BAR,
                },
                indent=2,
            )
            + "\n"
        )
    return 0 if ratio < BAR or args.no_bar else 1


if __name__ == "__main__":
    raise SystemExit(main())
