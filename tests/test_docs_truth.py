"""The docs tell the truth about the code they document (issue #28 item 5).

* Every ``.py`` module of a package is named on that package's page in
  ``docs/`` (``docs/README.md`` says which page documents which package),
  so a new module cannot appear without its one-line job.
* No page, the README, nor any docstring or comment under ``toskit/`` cites
  ``API.md``, ``spec/`` or a section of it (``spec §4.1``): those are the project's internal contract files,
  which users do not have. A page states the rule itself instead.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "toskit"
DOCS = ROOT / "docs"

# Package (folder under toskit/) -> the page that lists its modules.
PAGES = {
    "source": "source.md",
    "tosca": "tosca.md",
    "functions": "functions.md",
    "schema": "schema.md",
    "conditions": "conditions.md",
    "compare": "compare.md",
    "display": "display.md",
    "widgets": "display.md",
    "dsl": "dsl.md",
    "lsp": "lsp.md",
    "report": "ci.md",
}


def modules_of(package: str) -> list[str]:
    """The ``.py`` files of a package, relative to it (``profiles/__init__.py``),
    without the package's own ``__init__.py`` (the page's title names it)."""
    base = PACKAGE / package
    return sorted(
        p.relative_to(base).as_posix()
        for p in base.rglob("*.py")
        if "__pycache__" not in p.parts and p != base / "__init__.py"
    )


def named_on(page_text: str, package: str, module: str) -> bool:
    """A module is named as ``pkg/module.py`` (any prefix such as
    ``toskit/``), as ``toskit.pkg.module``, or as `` `module.py` `` in
    backticks (the module tables of a package's own page)."""
    dotted = "toskit." + package + "." + module[: -len(".py")].replace("/", ".")
    dotted = dotted.removesuffix(".__init__")
    return (
        f"{package}/{module}" in page_text
        or re.search(re.escape(dotted) + r"(?![\w.])", page_text) is not None
        or f"`{module}`" in page_text
    )


def test_every_package_has_a_page() -> None:
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages - set(PAGES) == set(), "packages without a doc page in PAGES"
    for page in set(PAGES.values()):
        assert (DOCS / page).is_file(), page


@pytest.mark.parametrize("package", sorted(PAGES))
def test_page_names_every_module(package: str) -> None:
    page = PAGES[package]
    text = (DOCS / page).read_text(encoding="utf-8")
    modules = modules_of(package)
    assert modules, f"toskit/{package} has no modules?"
    missing = [m for m in modules if not named_on(text, package, m)]
    assert missing == [], (
        f"docs/{page} does not name these modules of toskit/{package}/ "
        f"(add a row with each one's job): {missing}"
    )


def test_named_on_rejects_an_absent_module() -> None:
    # The check itself fails when a module is not on the page.
    text = "| `loader.py` | the pipeline |\n`toskit/source/spans.py`"
    assert named_on(text, "tosca", "loader.py")
    assert named_on(text, "source", "spans.py")
    assert not named_on(text, "tosca", "check.py")
    assert not named_on(text, "source", "fast.py")
    assert not named_on("toskit.tosca.checks", "tosca", "check.py")


# `API.md` anywhere; `spec/` as a path start (not e.g. `podspec/`); a
# section of the internal spec ("spec §4.1").
CITATION = re.compile(r"API\.md|(?<![\w./-])spec/|\bspec §")


def citations(path: Path) -> list[str]:
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if CITATION.search(line):
            found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_citation_pattern() -> None:
    assert CITATION.search("see API.md")
    assert CITATION.search("(spec/tosca.md §4)")
    assert not CITATION.search("podspec/containers")
    assert CITATION.search("See spec §4.3.")
    assert not CITATION.search("the spec says")
    assert not CITATION.search("parse_git_spec(spec)")


def test_no_doc_or_docstring_cites_internal_contracts() -> None:
    files = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    files += sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    found = [hit for path in files for hit in citations(path)]
    assert found == [], (
        "users do not have API.md or spec/: state the rule instead of citing "
        "it:\n" + "\n".join(found)
    )


# A file of the repository named in the docs: toskit/…, tests/…, bench/….
REPO_PATH = re.compile(r"(?<![\w./-])((?:toskit|tests|bench)/[\w/.-]+\.(?:py|css|js))\b")


def test_files_the_docs_name_exist() -> None:
    stale = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        for path in sorted(set(REPO_PATH.findall(page.read_text(encoding="utf-8")))):
            if not (ROOT / path).exists():
                stale.append(f"{page.relative_to(ROOT)}: {path}")
    assert stale == [], "the docs name files that do not exist:\n" + "\n".join(stale)


def test_tests_named_in_api_coverage_exist() -> None:
    # docs/api-coverage.md names the test that checks each public promise.
    names = set(re.findall(r"`(test_\w+)`", (DOCS / "api-coverage.md").read_text("utf-8")))
    assert len(names) > 50
    defined = {
        match
        for path in (ROOT / "tests").rglob("*.py")
        for match in re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8"))
    }
    assert sorted(names - defined) == [], "docs/api-coverage.md names tests that do not exist"


def _limit_claims() -> list[tuple[str, str, object, object]]:
    """(page, text the page states, the value in the code, the value stated)."""
    from toskit.compare import serialize
    from toskit.conditions import forms, syntax
    from toskit.diagnostics import HINT_MAX_COMPARED, HINT_MAX_WORD, SOURCE_WINDOW
    from toskit.display import topology_view
    from toskit.display.options import DEFAULTS as VIEW
    from toskit.dsl.loader import MAX_RELAYED_OUTPUT
    from toskit.functions import _limits, regex
    from toskit.functions.evaluate import DEFAULT_MAX_VALUE_SIZE
    from toskit.functions.notation import TEXT_MAX_CHARS
    from toskit.plain import MAX_DEPTH
    from toskit.source import compose
    from toskit.source.csar import CSAR_LIMITS
    from toskit.source.document import LIMIT_DEFAULTS as LOAD
    from toskit.tosca import explain
    from toskit.tosca.model import copies
    from toskit.tosca.topology import layout as topology_layout
    from toskit.tosca.types import expansion
    from toskit.tosca.values import resolve

    mib = 1024 * 1024
    return [
        ("limits.md", "| `max_size` | 50,000,000 |", LOAD["max_size"], 50_000_000),
        ("limits.md", "| `max_depth` | 500 |", LOAD["max_depth"], 500),
        ("limits.md", "| `max_nodes` | 1,000,000 |", LOAD["max_nodes"], 1_000_000),
        ("limits.md", "| `max_alias_nodes` | 10,000 |", LOAD["max_alias_nodes"], 10_000),
        ("limits.md", "| `max_import_depth` | 1,000 |", LOAD["max_import_depth"], 1_000),
        ("limits.md", "`toskit.plain.MAX_DEPTH`, 500 levels", MAX_DEPTH, 500),
        ("limits.md", "| `MAX_PER_KIND` | 100 ", compose.MAX_PER_KIND, 100),
        ("limits.md", "| `MAX_HUGE_INT_KEYS` | 1,000 ", compose.MAX_HUGE_INT_KEYS, 1_000),
        ("limits.md", "| `max_directory` | 16 MiB |", CSAR_LIMITS["max_directory"], 16 * mib),
        ("limits.md", "| `max_entries` | 10,000 |", CSAR_LIMITS["max_entries"], 10_000),
        ("limits.md", "| `max_total` | 512 MiB |", CSAR_LIMITS["max_total"], 512 * mib),
        ("limits.md", "| `max_ratio` | 200 |", CSAR_LIMITS["max_ratio"], 200),
        ("limits.md", "| `max_inflated` | 128 MiB |", CSAR_LIMITS["max_inflated"], 128 * mib),
        ("limits.md", "| 100,000 | `max_expanded=` |", expansion.MAX_EXPANDED, 100_000),
        ("limits.md", "| 100 | `max_fill_depth=` |", expansion.MAX_FILL_DEPTH, 100),
        ("limits.md", "| 300,000 | `max_fill_total=` |", expansion.MAX_FILL_TOTAL, 300_000),
        (
            "limits.md",
            "| 100 dotted paths | `toskit.tosca.values.resolve.MAX_MISSING` |",
            resolve.MAX_MISSING,
            100,
        ),
        ("limits.md", "naming at most 8 of them", copies.MAX_NAMED, 8),
        (
            "limits.md",
            "| 50 (`toskit.functions._limits.MAX_CALL_DEPTH`) |",
            _limits.MAX_CALL_DEPTH,
            50,
        ),
        ("limits.md", "| 10,000,000 characters, or items", DEFAULT_MAX_VALUE_SIZE, 10_000_000),
        (
            "limits.md",
            "| `MAX_PATTERN_LENGTH` | 10,000 characters |",
            regex.MAX_PATTERN_LENGTH,
            10_000,
        ),
        ("limits.md", "| `MAX_PROGRAM_BYTES` | 8 MB ", regex.MAX_PROGRAM_BYTES, 8 * mib),
        (
            "limits.md",
            "100,000 characters, `toskit.functions.notation.TEXT_MAX_CHARS`",
            TEXT_MAX_CHARS,
            100_000,
        ),
        (
            "limits.md",
            "120 characters around the column (`toskit.diagnostics.SOURCE_WINDOW`)",
            SOURCE_WINDOW,
            120,
        ),
        ("limits.md", "200 characters (`HINT_MAX_WORD`)", HINT_MAX_WORD, 200),
        ("limits.md", "at most 300 of the word's first letter", HINT_MAX_COMPARED, 300),
        (
            "limits.md",
            "100,000 characters (`toskit.conditions.syntax.MAX_EXPRESSION_CHARS`",
            syntax.MAX_EXPRESSION_CHARS,
            100_000,
        ),
        ("limits.md", "64 KiB of its output relayed", MAX_RELAYED_OUTPUT, 64 * 1024),
        (
            "conditions.md",
            "`toskit.conditions.forms.STEP_BUDGET` items\n(2,000,000)",
            forms.STEP_BUDGET,
            2_000_000,
        ),
        ("conditions.md", "deeper than 200 path elements", forms.MAX_TREE_DEPTH, 200),
        ("conditions.md", "100 levels: deeper text is a SyntaxError", syntax.MAX_DEPTH, 100),
        ("explain.md", "at most `MAX_HOPS` (16) deep", explain.MAX_HOPS, 16),
        ("topology.md", "over 200 (`MAX_DEPTH`", topology_layout.MAX_DEPTH, 200),
        (
            "topology.md",
            "at most 1,000 vertices\n  (`MAX_ORDER`)",
            topology_layout.MAX_ORDER,
            1_000,
        ),
        ("topology.md", "above 600 (`DRAW_LIMIT`)", topology_view.DRAW_LIMIT, 600),
        ("compare.md", "would pass\n  4,000 characters", serialize.VALUE_CAP, 4_000),
        *[
            ("display.md", f"| `{name}` | {value} |", VIEW[name], value)
            for name, value in [
                ("display_max_rows", 50),
                ("display_max_tree_nodes", 300),
                ("display_max_depth", 12),
                ("display_expand_depth", 4),
                ("display_max_nodes", 50),
                ("display_max_value_chars", 200),
                ("display_max_fallback_chars", 4000),
            ]
        ],
    ]


def test_stated_limits_match_the_code() -> None:
    # Each row: the page states the value, and the code's constant is it.
    wrong = []
    for page, stated, actual, expected in _limit_claims():
        if stated not in (DOCS / page).read_text(encoding="utf-8"):
            wrong.append(f"docs/{page} no longer says {stated!r}")
        if actual != expected:
            wrong.append(f"docs/{page} says {stated!r}, the code has {actual!r}")
    assert wrong == [], "\n".join(wrong)
