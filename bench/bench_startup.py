"""Benchmark: ``toskit check small.yaml`` as a whole process, against tosca-parser's CLI.

What a user of the command feels first is start-up (issue #31 item 1):
pre-commit hooks, CI and editors run ``toskit check`` on one small file at a
time. This runs, as separate processes, interleaved (one of each per round,
so both see the same machine load):

    python -m toskit check small.yaml
    tosca-parser --template-file=small.yaml          (when installed)

``--runs`` rounds (default 20) on a generated 50-node TOSCA 1.3 template
(``bench/gen_template.py``), and prints the median CPU time (user + system
of the child, from ``getrusage``) of each with its spread (min-max), and the
ratio of the medians. CPU time rather than wall time: on a shared machine
the wall clock measures the other processes too. Targets (issue #31):
toskit ≤ 0.12 s CPU, ≥ 2.5x faster than tosca-parser's CLI. The figures are
reported, not asserted (``--strict`` exits 1 when a target is missed); they go
to ``$TOSKIT_BENCH_JSON`` when set.

Whether toskit's bytecode is compiled matters (~60 ms): the Makefile's
installs compile it; ``--no-bytecode`` measures without it (a copy of the
package without ``__pycache__``, imported instead of the installed one,
with ``PYTHONDONTWRITEBYTECODE``; the standard library keeps its bytecode).

``--parts`` also prints where the time goes: the interpreter alone, importing
the CLI, the TOSCA loader's modules, the check of an empty file (the
normative profile) and of the template, each a process of its own.

``--against DIR`` compares two trees side by side: ``DIR`` holds an older
``toskit/`` package (``git archive OLD toskit | tar -x -C DIR``), run
interleaved with a copy of the current one, as the working tree holds it (both with their bytecode
compiled), and the ratio of each pair is printed with its spread.

    .venv/bin/python bench/bench_startup.py [--runs 20] [--nodes 50] [--no-bytecode] [--parts]
    .venv/bin/python bench/bench_startup.py --against /tmp/old [--runs 20]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_template import generate  # noqa: E402  (a sibling script, not a package)

# `toskit check` run from a copy of the package: an editable install's
# finder (in sys.meta_path) would import the installed one whatever
# PYTHONPATH says, so it is dropped first.
FROM_COPY = (
    "import sys\n"
    "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]\n"
    "sys.path.insert(0, sys.argv.pop(1))\n"
    "import toskit\n"
    "assert toskit.__file__.startswith(sys.path[0]), toskit.__file__\n"
    "from toskit.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
TARGET_CPU = 0.12  # seconds of CPU for the whole `toskit check` process
TARGET_RATIO = 2.5  # times faster than tosca-parser's CLI


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """CPU seconds (user + system) and exit status of one process."""
    before = _children_cpu()
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    return _children_cpu() - before, done.returncode


def tosca_parser_cli() -> str | None:
    """tosca-parser's command, beside this Python or on PATH."""
    beside = Path(sys.executable).with_name("tosca-parser")
    return str(beside) if beside.exists() else shutil.which("tosca-parser")


# --parts: what `toskit check small.yaml` pays, stage by stage (each a whole
# process, so each includes the ones above it).
STAGES = (
    ("the interpreter (python -c pass)", ["-c", "pass"]),
    ("import toskit.cli", ["-c", "import toskit.cli"]),
    ("+ the TOSCA loader's modules", ["-c", "import toskit.cli, toskit.tosca.load.loader"]),
    ("check of an empty TOSCA 1.3 file", ["-m", "toskit", "check", "{empty}"]),
    ("check of the template", ["-m", "toskit", "check", "{path}"]),
)


def _stages(path: Path, env: dict[str, str], runs: int) -> dict[str, list[float]]:
    empty = path.with_name("empty.yaml")
    empty.write_text("tosca_definitions_version: tosca_simple_yaml_1_3\n", encoding="utf-8")
    found: dict[str, list[float]] = {label: [] for label, _ in STAGES}
    for _ in range(runs):
        for label, args in STAGES:
            argv = [a.format(path=path, empty=empty) for a in args]
            found[label].append(cpu_of([sys.executable, *argv], env)[0])
    return found


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} s [{min(values):.3f}-{max(values):.3f}]"


def _side_by_side(
    against: Path, path: Path, tmp: Path, env: dict[str, str], runs: int
) -> dict[str, list[float]]:
    """``toskit check`` from the older tree in ``against`` and from a copy of this
    one, alternating which goes first, both with their bytecode compiled."""
    import compileall

    import toskit

    if not (against / "toskit" / "__init__.py").is_file():
        raise SystemExit(f"--against {against}: no toskit/ package there")
    current = tmp / "current"
    shutil.copytree(
        Path(toskit.__file__).parent,
        current / "toskit",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    for tree in (against, current):
        compileall.compile_dir(str(tree / "toskit"), quiet=1)
    trees = {"older": against, "current": current}
    found: dict[str, list[float]] = {name: [] for name in trees}
    for round_ in range(runs):
        order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
        for name in order:
            argv = [sys.executable, "-c", FROM_COPY, str(trees[name]), "check", str(path)]
            cpu, status = cpu_of(argv, env)
            if status != 0:
                done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
                raise SystemExit(
                    f"toskit check from {trees[name]} exited {status}:\n{done.stderr[-2000:]}"
                )
            found[name].append(cpu)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=50)
    parser.add_argument(
        "--no-bytecode", action="store_true", help="ignore toskit's compiled .pyc files"
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--parts", action="store_true", help="also where the time goes (see STAGES)"
    )
    parser.add_argument(
        "--against",
        type=Path,
        metavar="DIR",
        help="only compare with the older toskit/ package in DIR, side by side",
    )
    args = parser.parse_args(argv)
    if args.against is not None:
        env = {key: value for key, value in os.environ.items() if key != "TOSKIT_YAML_SHADOW"}
        with tempfile.TemporaryDirectory(prefix="toskit-bench-startup-") as tmp:
            path = Path(tmp) / "small.yaml"
            path.write_text(generate(args.nodes), encoding="utf-8")
            found = _side_by_side(args.against.resolve(), path, Path(tmp), env, args.runs)
        ratios = [o / n for o, n in zip(found["older"], found["current"], strict=True)]
        print(
            f"toskit check of a {args.nodes}-node template, two trees side by side, "
            f"{args.runs} interleaved pairs, CPU; load average {os.getloadavg()[0]:.1f}:"
        )
        print(f"  {args.against}: {spread(found['older'])}")
        print(f"  this tree:  {spread(found['current'])}")
        print(
            f"  older / this, per pair: {statistics.median(ratios):.2f}x "
            f"[{min(ratios):.2f}-{max(ratios):.2f}]"
        )
        return 0

    peer = tosca_parser_cli()
    with tempfile.TemporaryDirectory(prefix="toskit-bench-startup-") as tmp:
        path = Path(tmp) / "small.yaml"
        path.write_text(generate(args.nodes), encoding="utf-8")
        env = dict(os.environ)
        command = [sys.executable, "-m", "toskit", "check", str(path)]
        if args.no_bytecode:
            # A copy of the package without __pycache__, imported instead of
            # the installed one; the standard library and tosca-parser keep
            # their bytecode.
            import toskit

            shutil.copytree(
                Path(toskit.__file__).parent,
                Path(tmp) / "src" / "toskit",
                ignore=shutil.ignore_patterns("__pycache__"),
            )
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            command = [sys.executable, "-c", FROM_COPY, str(Path(tmp) / "src"), "check", str(path)]
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(args.runs):
            cpu, status = cpu_of(command, env)
            if status != 0:
                print(f"toskit check exited {status}", file=sys.stderr)
                return 1
            ours.append(cpu)
            if peer is not None:
                theirs.append(cpu_of([peer, f"--template-file={path}"], env)[0])

        parts = _stages(path, env, args.runs) if args.parts else None

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0]
    bytecode = "without toskit's bytecode" if args.no_bytecode else "bytecode compiled"
    print(
        f"whole-process CPU, {args.nodes}-node template, median of {args.runs} interleaved rounds "
        f"[min-max], {bytecode}; load average {load:.1f} on {cpus} CPUs:"
    )
    print(f"  toskit check        {spread(ours)}   (target <= {TARGET_CPU} s)")
    ratio = None
    if theirs:
        ratio = statistics.median(theirs) / statistics.median(ours)
        print(f"  tosca-parser CLI    {spread(theirs)}")
        print(f"  ratio of medians    {ratio:.2f}x   (target >= {TARGET_RATIO}x)")
    else:
        print("  tosca-parser CLI    not installed (pip install tosca-parser)")
    if parts is not None:
        print("  where the time goes (each stage a process of its own, interleaved; CPU):")
        for label, values in parts.items():
            print(f"    {label:40} {spread(values)}")
    out_path = os.environ.get("TOSKIT_BENCH_JSON")
    if out_path:
        data = {
            "nodes": args.nodes,
            "runs": args.runs,
            "bytecode": not args.no_bytecode,
            "load_average": round(load, 1),
            "toskit_cpu": [round(x, 4) for x in ours],
            "tosca_parser_cpu": [round(x, 4) for x in theirs],
            "ratio": None if ratio is None else round(ratio, 2),
        }
        Path(out_path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    missed = statistics.median(ours) > TARGET_CPU or (ratio is not None and ratio < TARGET_RATIO)
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
