"""The repository carries everything its tests, benchmarks and tutorials read.

A fresh clone with nothing beside it must pass ``make test``: no file under
``tests/``, ``bench/``, ``notebooks/`` and no line of the ``Makefile`` may
refer to a path outside the repository. What counts as such a reference:

* a path on the development machine (``/work/``, ``/home/``, ``/root/``,
  ``/Users/``, ``~/``);
* a folder called ``shared`` beside the repository (``../shared``, or the
  string ``"shared"`` used as a path part);
* ``Path(__file__).parents[N]`` or a chain of ``.parent`` that climbs above
  the repository root from where the file is, and ``ROOT.parent``;
* in notebooks, benchmarks and the Makefile: a relative ``../`` path that
  leaves the repository from the folder it runs in (a notebook runs in its
  folder, ``notebooks/``, the Makefile at the root). Tests may hold such strings as
  hostile input for the import-root rule, so they are not scanned for it.

Absolute paths such as ``/data/db.zip`` or ``/proc/self/environ`` are
template data or hostile input, not files the suite reads, and are allowed.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

MACHINE_PATH = re.compile(r"(?<![\w.])(/work/|/home/|/root/|/Users/|~/)")
SHARED_FOLDER = re.compile(r"\.\./+shared\b|[\"']shared[\"']\s*/|/\s*[\"']shared[\"']")
PARENTS_INDEX = re.compile(r"__file__\)(?:\.resolve\(\)|\.absolute\(\))?\.parents\[(\d+)\]")
PARENT_CHAIN = re.compile(r"__file__\)(?:\.resolve\(\)|\.absolute\(\))?((?:\.parent\b)+)")
ROOT_PARENT = re.compile(r"\bROOT\.parent\b|\bROOT\s*/\s*[\"']\.\.[\"'/]")
RELATIVE_UP = re.compile(r"(?<![\w./])((?:\.\./)+[\w.\-/]*)")


def outside_references(text: str, relpath: str) -> list[str]:
    """Every reference in ``text`` (a file at ``relpath`` in the repo) to a path outside it."""
    found: list[str] = []
    depth = len(Path(relpath).parts)  # parents[depth - 1] is the repository root
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{relpath}:{number}"
        for match in MACHINE_PATH.finditer(line):
            found.append(f"{where}: a path on one machine ({match.group(1)}…)")
        if SHARED_FOLDER.search(line):
            found.append(f"{where}: a 'shared' folder beside the repository")
        for match in PARENTS_INDEX.finditer(line):
            if int(match.group(1)) >= depth:
                found.append(f"{where}: parents[{match.group(1)}] climbs above the repository")
        for match in PARENT_CHAIN.finditer(line):
            if match.group(1).count(".parent") > depth:
                found.append(f"{where}: {match.group(1)} climbs above the repository")
        if ROOT_PARENT.search(line):
            found.append(f"{where}: the folder above the repository root")
        if not relpath.startswith("tests/"):
            # A tutorial runs in notebooks/ (also when built from notebooks/src/);
            # a script or the Makefile from the root.
            base = "notebooks" if relpath.startswith("notebooks/") else "."
            for match in RELATIVE_UP.finditer(line):
                target = posixpath.normpath(posixpath.join(base, match.group(1)))
                if target == ".." or target.startswith("../"):
                    found.append(f"{where}: {match.group(1)} leaves the repository")
    return found


def _notebook_code(path: Path) -> str:
    """The code cells of a stored notebook (outputs may quote any path; they are not read)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def _scanned_files() -> list[tuple[str, str]]:
    files: list[tuple[str, str]] = [("Makefile", (ROOT / "Makefile").read_text(encoding="utf-8"))]
    for folder in ("tests", "bench", "notebooks"):
        for path in sorted((ROOT / folder).rglob("*")):
            relpath = path.relative_to(ROOT).as_posix()
            if (
                "__pycache__" in path.parts
                or not path.is_file()
                or path == Path(__file__).resolve()
            ):
                continue
            if path.suffix == ".ipynb":
                files.append((relpath, _notebook_code(path)))
            elif path.suffix in (".py", ".cfg", ".txt", ".toml", ".sh", ".md"):
                files.append((relpath, path.read_text(encoding="utf-8")))
    return files


def test_nothing_refers_to_a_path_outside_the_repository() -> None:
    files = _scanned_files()
    assert len(files) > 50  # the scan really sees the suite
    found = [ref for relpath, text in files for ref in outside_references(text, relpath)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    ("relpath", "text"),
    [
        ("tests/tosca/test_x.py", 'CORPUS = Path(__file__).resolve().parents[3] / "corpus"'),
        ("tests/test_x.py", "ROOT = Path(__file__).parent.parent.parent"),
        ("bench/x.py", 'DEFAULT = ROOT.parent / "data"'),
        ("tests/test_x.py", 'p = HERE / ".." / ".." / "shared" / "conformance"'),
        ("tests/test_x.py", 'p = "../shared/conformance/oasis-tosca-2.0"'),
        ("tests/test_x.py", 'docs = "/work/shared/spec/tosca.md"'),
        ("notebooks/src/01-x.py", 'RELEASE = "../../fuel/openstack.yaml"'),
        ("Makefile", "\tpython bench/conformance.py --corpus ../corpus"),
    ],
)
def test_the_scan_catches_each_kind_of_outside_reference(relpath: str, text: str) -> None:
    assert outside_references(text, relpath), text


@pytest.mark.parametrize(
    ("relpath", "text"),
    [
        ("tests/tosca/test_x.py", 'CORPUS = Path(__file__).resolve().parents[2] / "conformance"'),
        ("tests/test_x.py", "ROOT = Path(__file__).parent.parent"),
        ("notebooks/src/04-x.py", 'RELEASE_FILE = "../conformance/fuel/openstack.yaml"'),
        ("tests/tosca/test_x.py", 'imports = ["../../outside.yaml", "/proc/self/environ"]'),
        ("tests/functions/test_x.py", 'assert path == "/data/db.zip"'),
    ],
)
def test_the_scan_allows_paths_inside_the_repository_and_data(relpath: str, text: str) -> None:
    assert outside_references(text, relpath) == []
