"""The README's Binder badge, derived from ONE setting: the repository URL.

The repository's address is ``Repository`` under ``[project.urls]`` in
``pyproject.toml`` (a GitHub URL, ``https://github.com/OWNER/NAME``). The
badge opens ``notebooks/00-tour.ipynb`` of that repository on mybinder.org.

    python binder/badge.py           # print the badge's Markdown
    python binder/badge.py --write   # rewrite the badge line of README.md

``tests/test_setup.py`` fails when README.md's badge is not the one this
script derives, so changing the URL in pyproject.toml is the only edit.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BADGE_IMAGE = "https://mybinder.org/badge_logo.svg"
FIRST_PAGE = "notebooks%2F00-tour.ipynb"
_REPOSITORY = re.compile(
    r'^Repository\s*=\s*"https://github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?"\s*$', re.M
)
_BADGE_LINE = re.compile(r"^\[!\[Binder\]\(.*\)\]\(.*\)$", re.M)


def repository(pyproject_text: str) -> tuple[str, str]:
    """``(owner, name)`` from ``[project.urls] Repository`` of pyproject.toml."""
    match = _REPOSITORY.search(pyproject_text)
    if not match:
        raise SystemExit(
            'pyproject.toml: [project.urls] needs Repository = "https://github.com/OWNER/NAME"'
        )
    return match.group(1), match.group(2)


def badge(pyproject_text: str) -> str:
    """The Markdown line of the badge."""
    owner, name = repository(pyproject_text)
    url = f"https://mybinder.org/v2/gh/{owner}/{name}/HEAD?labpath={FIRST_PAGE}"
    return f"[![Binder]({BADGE_IMAGE})]({url})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the badge line of README.md")
    args = parser.parse_args(argv)
    line = badge((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    if not args.write:
        print(line)
        return 0
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    if not _BADGE_LINE.search(text):
        print("README.md has no Binder badge line to rewrite", file=sys.stderr)
        return 1
    readme.write_text(_BADGE_LINE.sub(lambda _: line, text, count=1), encoding="utf-8")
    print(f"README.md: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
