"""The tutorials: the percent-format converter, and each stored notebook in
step with its source, executed, with outputs and pinned teaching cells."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = sorted((NOTEBOOKS / "src").glob("*.py"))


def _load_build_module():
    spec = importlib.util.spec_from_file_location("toskit_notebook_build", NOTEBOOKS / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _load_build_module()


def _cells(text: str) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source) for cell in build.parse_percent(text)]


def _tagged(text: str) -> list[tuple[str, str, list[str]]]:
    return [(c.cell_type, c.source, c.metadata.get("tags", [])) for c in build.parse_percent(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "# %% [markdown]\n# # Title\n#\n# Prose.\n\n# %%\nx = 1\n",
            [("markdown", "# Title\n\nProse."), ("code", "x = 1")],
            id="markdown-then-code",
        ),
        pytest.param(
            "# %%\n# a comment\nprint(1)\n\n\n# %%\ny = 2\n",
            [("code", "# a comment\nprint(1)"), ("code", "y = 2")],
            id="code-comments-are-kept",
        ),
        pytest.param("# %%\n\n\n# %%\nz = 3\n", [("code", "z = 3")], id="empty-code-cell-dropped"),
        pytest.param(
            "x = 0\n# %%\nx = 1\n", [("code", "x = 1")], id="text-before-first-marker-ignored"
        ),
        pytest.param(
            "# %% [markdown]\n# | a | b |\n# |---|---|\n",
            [("markdown", "| a | b |\n|---|---|")],
            id="markdown-table",
        ),
    ],
)
def test_parse_percent(text: str, expected: list[tuple[str, str]]) -> None:
    assert _cells(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "# %%\n# NBVAL_CHECK_OUTPUT\nprint(1)\n",
            [("code", "print(1)", ["nbval-check-output"])],
            id="check-output",
        ),
        pytest.param(
            "# %%\n#NBVAL_SKIP\n# NBVAL_IGNORE_OUTPUT\n# why\nx\n",
            [("code", "# why\nx", ["nbval-skip", "nbval-ignore-output"])],
            id="several-markers-then-a-comment",
        ),
        pytest.param(
            "# %%\nx = 1\n# NBVAL_CHECK_OUTPUT\n",
            [("code", "x = 1\n# NBVAL_CHECK_OUTPUT", [])],
            id="only-leading-markers-are-tags",
        ),
        pytest.param("# %%\n# NBVAL_CHECK_OUTPUT\n\n", [], id="a-cell-of-markers-only-is-dropped"),
    ],
)
def test_nbval_markers_become_cell_tags(text: str, expected: list) -> None:
    """Learners never see a test marker: it is the cell's nbval tag."""
    assert _tagged(text) == expected


def test_every_tag_is_one_nbval_reads() -> None:
    from nbval.plugin import find_metadata_tags

    for tag in build.MARKER_TAGS.values():
        assert dict(find_metadata_tags({"tags": [tag]})), tag


def test_every_source_has_its_notebook_and_back() -> None:
    built = {p.stem for p in NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")}
    assert built == {p.stem for p in SOURCES}
    assert {"00-tour", "01-data-types", "02-functions", "03-schema", "04-role-conditions"} <= built


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_stored_notebook_matches_its_source_and_was_executed(source: Path) -> None:
    notebook = json.loads((NOTEBOOKS / f"{source.stem}.ipynb").read_text(encoding="utf-8"))
    stored = [(c["cell_type"], "".join(c["source"])) for c in notebook["cells"]]
    # Edit notebooks/src/*.py and run `make notebooks`; never the .ipynb by hand.
    assert stored == _cells(source.read_text(encoding="utf-8"))

    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert all(c["execution_count"] is not None for c in code), "stored without executing"
    assert not [o for c in code for o in c["outputs"] if o["output_type"] == "error"]
    pinned = [c for c in code if "nbval-check-output" in c["metadata"].get("tags", [])]
    assert pinned, "a tutorial pins at least one teaching cell"
    # Test markers live in the cells' metadata, never in what a learner reads.
    shown = "".join("".join(c["source"]) for c in code)
    assert "NBVAL_" not in shown and "# noqa" not in shown
    assert all(c["outputs"] for c in pinned), "a pinned cell without stored output checks nothing"
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"


# The schema's merge keywords, said in words in the prose (issue 35 item 5):
# the prose may name a keyword as the schema writes it (in `code`), never
# use it as the word for what happens.
_JARGON = ("separable", "atomic", "associative", "NBVAL", "noqa")


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_tutorial_prose_says_merges_in_words(source: Path) -> None:
    import re

    for kind, text in _cells(source.read_text(encoding="utf-8")):
        if kind != "markdown":
            continue
        prose = re.sub(r"`[^`]*`", "", text)  # code spans: the keywords as written
        found = [word for word in _JARGON if word.lower() in prose.lower()]
        assert not found, f"{source.name}: {found} in {text[:120]!r}"
