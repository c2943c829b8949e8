"""Checks for the simulator view's HTML: the static views' rules (no
script, known tags and attributes only) plus the two things only the
simulator draws, each in one exact shape: node checkboxes and the keys of
collapsible entries."""

from __future__ import annotations

import re

from htmlcheck import assert_safe

from toskit.conditions.examples import SEED_ROLES_YAML

# The seed's roles document and texts the simulator and outcome views are
# tested with (spec/conditions.md §12).
SEED_ROLES = SEED_ROLES_YAML
WMN = "Multi-node environment cannot have more than one controller node."
WHA = "At least 3 controller nodes are recommended for HA deployment."
POOL = [{"id": 11}, {"id": 12}]

CHECKBOX = re.compile(
    r'<input type="checkbox" class="toskit-node-check" data-node-id="[^"<>]*"'
    r' aria-label="[^"<>]*"(?: checked)?>'
)
KEY = re.compile(r' data-toskit-key="[^"<>]*"')


def assert_view_safe(html: str) -> str:
    """``assert_safe`` after removing the simulator's checkboxes and keys;
    returns the HTML so stripped."""
    stripped = KEY.sub("", CHECKBOX.sub("", html))
    markup = re.sub(r"<style>.*?</style>", "", stripped, flags=re.S)
    assert "<input" not in markup.lower() and not re.search(r"<[^>]*\sdata-", markup)
    assert_safe(stripped)
    return stripped
