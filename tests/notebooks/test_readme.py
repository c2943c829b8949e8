"""The README's example is real: running it prints exactly the output shown."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_example() -> tuple[str, str]:
    """The first ```python block of the README and the ```text block after it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```python\n(.*?)```.*?```text\n(.*?)```", text, re.DOTALL)
    assert match, "README.md has no ```python example followed by its ```text output"
    return match.group(1), match.group(2)


def test_readme_example_prints_what_the_readme_shows() -> None:
    code, expected = readme_example()
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    # If toskit's output changed on purpose, paste the new output into README.md.
    assert run.stdout.rstrip("\n") == expected.rstrip("\n"), run.stdout


def test_readme_starts_with_the_two_commands() -> None:
    head = (ROOT / "README.md").read_text(encoding="utf-8").split("```", 2)[1]
    commands = [line.split("#")[0].strip() for line in head.splitlines()[1:] if line.strip()]
    assert commands == ["make lab", "make test"]
