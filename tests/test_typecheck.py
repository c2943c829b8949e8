"""The type checker is part of ``make lint`` (issue #15 item 5).

mypy over ``toskit/`` is clean at its default strictness; ``make lint``
(hence ``make test``) runs it after ruff, so a new type error fails the
build. This test keeps it there.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _recipe(target: str) -> list[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(rf"^{target}:[^\n]*\n((?:\t[^\n]*\n)+)", text, flags=re.M)
    assert match, f"no '{target}' target in the Makefile"
    return [line.strip() for line in match.group(1).splitlines()]


def test_make_lint_runs_ruff_and_mypy():
    recipe = _recipe("lint")
    assert any("ruff check" in line for line in recipe)
    assert "$(BIN)/python -m mypy" in recipe


def test_mypy_checks_the_whole_package():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = pyproject.split("[tool.mypy]", 1)[1].split("\n[", 1)[0]
    assert re.search(r'^files = \["toskit"\]', section, flags=re.M)
    assert "ignore_errors" not in pyproject  # no module is exempted wholesale
