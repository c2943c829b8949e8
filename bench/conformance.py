"""Run the conformance corpora and report the pass rate.

Each entry of ``conformance/oasis-tosca-2.0/MANIFEST.tsv`` (in this repository) names a
template and the verdict its authors expect: ``valid`` (a conforming
processor exits 0) or ``invalid`` (exits 1). A test passes when
``toskit check FILE --profiles FOLDER`` (the catalog of profiles is the
test's own folder) gives that exit status. Entries marked
``needs_csar: yes`` are run as the suite's own test scripts mean them: the
test file's folder is packed into a CSAR (a ZIP in a temporary directory,
nothing written to the corpus) with ``TOSCA.meta`` at the root naming the
test file as ``Entry-Definitions``, the test file and the files of its folder
at their paths below it, and ``toskit check`` reads the archive. They are
reported separately, and so are entries whose file is not in the corpus
(upstream's manifest names one file inside a ``__pycache__`` folder, which
the copy does not carry; see ``conformance/README.md``): they count neither
way in the tracked figure.

Usage::

    python bench/conformance.py [--corpus DIR] [--report conformance-report.json]
                                [--floor FILE] [--verbose]

Prints the pass rate overall and per section (folder), lists every mismatch
and writes a JSON report. With ``--floor`` (default: ``conformance-floor.txt``
at this repository's root) it exits 1 when the pass rate of the non-CSAR
tests falls below the committed floor, a number that only ever goes up.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
import zipfile
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT / "conformance" / "oasis-tosca-2.0"
EXPECTED_STATUS = {"valid": 0, "invalid": 1}


@dataclass
class Result:
    """The outcome of one manifest entry."""

    file: str
    section: str
    expect: str
    needs_csar: bool
    status: int
    passed: bool
    first_error: str
    missing: bool = False


def run_check(path: Path, profiles: Path | None = None) -> tuple[int, str]:
    """Run ``toskit check`` in-process; return its exit status and first error line.

    ``profiles``: the folder given to ``--profiles`` (the profile catalog).
    """
    from toskit.cli import main

    out = io.StringIO()
    argv = ["check", str(path)] + (["--profiles", str(profiles)] if profiles is not None else [])
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse exits on usage errors
            status = int(exc.code or 0)
        except Exception as exc:  # a crash is a failure to run, like exit 2
            return 2, f"crash: {type(exc).__name__}: {exc}"
    first = next((line for line in out.getvalue().splitlines() if "error[" in line), "")
    return status, first


def pack_csar(corpus: Path, file: str, into: Path) -> Path:
    """The CSAR the suite's script for ``file`` builds, written under ``into``.

    Upstream's ``*_test.py`` for a CSAR test zips ``TOSCA.meta`` (CSAR-Version
    2.0, ``Entry-Definitions:`` the test file) at the archive's root, the test
    file at the root and the files it imports at their paths relative to it.
    The copy here carries no scripts, so the archive holds every file of the
    test's folder (a superset, never a different layout): a script that names
    ``base.yaml`` but stores it as ``types/base.yaml`` while the template
    imports ``/base.yaml`` (s29) is read as its template means it.
    """
    source = corpus / file
    folder = source.parent
    archive = into / (source.stem + ".csar")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        meta = f"CSAR-Version: 2.0\nCreated-By: toskit bench\nEntry-Definitions: {source.name}\n"
        zf.writestr("TOSCA.meta", meta)
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".zip":
                zf.write(path, arcname=path.relative_to(folder).as_posix())
    return archive


def check_csar(corpus: Path, file: str) -> tuple[int, str]:
    """``run_check`` on the CSAR the suite builds for ``file`` (see :func:`pack_csar`)."""
    with tempfile.TemporaryDirectory(prefix="toskit-conformance-") as tmp:
        archive = pack_csar(corpus, file, Path(tmp))
        status, first = run_check(archive)
    # Name the archive by the test, not by the temporary directory.
    return status, first.replace(str(archive), f"{Path(file).with_suffix('.csar')}")


def read_manifest(corpus: Path) -> list[tuple[str, str, bool]]:
    rows = []
    for line in (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        if not line.strip():
            continue
        file, expect, csar = line.split("\t")
        rows.append((file, expect, csar.strip() == "yes"))
    return rows


def run(corpus: Path, verbose: bool = False) -> list[Result]:
    results = []
    for file, expect, csar in read_manifest(corpus):
        if not (corpus / file).is_file():
            results.append(Result(file, file.split("/")[0], expect, csar, 2, False, "", True))
            if verbose:
                print(f"MISS {file} (named by the manifest, not in the corpus)")
            continue
        # The profile catalog points at the test's own folder: the suite's
        # profile tests (profile-versions/s20-s23) import profiles that
        # other files of their folder declare.
        folder = (corpus / file).parent
        status, first = check_csar(corpus, file) if csar else run_check(corpus / file, folder)
        passed = status == EXPECTED_STATUS[expect]
        results.append(
            Result(
                file, file.split("/")[0], expect, csar, status, passed, first if not passed else ""
            )
        )
        if verbose:
            print(f"{'ok  ' if passed else 'FAIL'} {file} (exit {status}, expected {expect})")
    return results


def summarise(results: list[Result]) -> dict:
    def rate(rows: list[Result]) -> dict:
        passed = sum(r.passed for r in rows)
        return {"passed": passed, "total": len(rows), "rate": passed / len(rows) if rows else 1.0}

    present = [r for r in results if not r.missing]
    main_rows = [r for r in present if not r.needs_csar]
    sections: dict[str, list[Result]] = defaultdict(list)
    for r in main_rows:
        sections[r.section].append(r)
    return {
        "overall": rate(main_rows),
        "csar": rate([r for r in present if r.needs_csar]),
        "sections": {name: rate(rows) for name, rows in sorted(sections.items())},
        "mismatches": [asdict(r) for r in present if not r.passed],
        "missing": [r.file for r in results if r.missing],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--report", type=Path, default=ROOT / "conformance-report.json")
    parser.add_argument("--floor", type=Path, default=ROOT / "conformance-floor.txt")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)

    if not (args.corpus / "MANIFEST.tsv").exists():
        print(f"conformance corpus not found at {args.corpus}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    results = run(args.corpus, args.verbose)
    summary = summarise(results)
    summary["seconds"] = round(time.perf_counter() - started, 2)
    args.report.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")

    print("section                                              passed / total")
    for name, s in summary["sections"].items():
        print(f"  {name:<50} {s['passed']:>4} / {s['total']:<4}")
    for m in summary["mismatches"]:
        tag = " [csar]" if m["needs_csar"] else ""
        print(
            f"MISMATCH {m['file']}{tag}: exit {m['status']}, expected {m['expect']}  {m['first_error']}"
        )
    for file in summary["missing"]:
        print(f"MISSING {file}: named by MANIFEST.tsv, not in the corpus (not counted)")
    overall, csar = summary["overall"], summary["csar"]
    print(
        f"conformance: {overall['passed']} / {overall['total']} non-CSAR tests pass "
        f"({overall['rate']:.1%}); CSAR tests {csar['passed']} / {csar['total']}; "
        f"{summary['seconds']} s; report in {args.report.name}"
    )
    if args.floor.exists():
        floor = float(args.floor.read_text().split()[0])
        if overall["rate"] * 100 + 1e-9 < floor:
            print(f"conformance: pass rate {overall['rate']:.1%} is below the floor {floor}%")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
