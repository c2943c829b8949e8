"""A hidden role's reason in the simulator says why in the user's words: the
release's message, else the condition's recorded words, and the raw
restriction only when neither exists."""

from __future__ import annotations

import pytest

from toskit.conditions import Cluster, load_roles
from toskit.display.conditions_views import hidden_reason_html

ROLES = """
roles_metadata:
  virt:
    restrictions:
      - condition: "not ('advanced' in version:feature_groups)"
        action: hide
  lab:
    restrictions:
      - condition: "not ('experimental' in version:feature_groups)"
        action: hide
        message: "Lab roles need the <experimental> feature group"
"""
MODELS = {"settings": {}, "version": {"feature_groups": []}}
NODES = [{"id": 1, "roles": ["controller"]}]


@pytest.fixture(scope="module")
def roleset():
    return load_roles(ROLES)


def _reason(roleset, role: str) -> str:
    out = roleset.check(role, Cluster("multinode", nodes=NODES), models=MODELS, record=True)
    assert out.hidden
    return hidden_reason_html(out)


def test_a_hidden_role_without_message_says_why_in_words(roleset):
    html = _reason(roleset, "virt")
    assert "feature group" in html and "advanced" in html and "is not enabled" in html
    assert "restriction" not in html and "version:feature_groups" not in html


def test_the_releases_message_comes_first_and_is_escaped(roleset):
    html = _reason(roleset, "lab")
    assert "Lab roles need the &lt;experimental&gt; feature group" in html
    assert "<experimental>" not in html
