"""Random Fuel releases through ClusterSimulator: whatever the settings'
types and whatever the restrictions read, the simulator builds, every panel
setting can be set back and forth, and the view stays safe HTML."""

from __future__ import annotations

import sys
from pathlib import Path

# The HTML checks live beside the display tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "display"))

from hypothesis import given, settings
from hypothesis import strategies as st
from simulator_html import assert_view_safe  # noqa: E402

from toskit import conditions
from toskit.widgets import ClusterSimulator

KEYS = st.sampled_from(["a", "b", "c"])
SCALARS = st.one_of(
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=8),
    st.none(),
    st.lists(st.integers(), max_size=2),
)


@st.composite
def releases(draw):
    editable = {}
    for group in draw(st.lists(KEYS, unique=True, max_size=3)):
        attrs = {}
        for attr in draw(st.lists(KEYS, unique=True, max_size=3)):
            field = {"value": draw(SCALARS), "label": draw(st.text(max_size=6))}
            if draw(st.booleans()):
                field["values"] = [
                    {"data": d} for d in draw(st.lists(st.text(max_size=3), max_size=3))
                ]
            attrs[attr] = field
        editable[group] = attrs
    roles = {}
    for i, (group, attr) in enumerate(
        draw(st.lists(st.tuples(KEYS, KEYS), min_size=1, max_size=4))
    ):
        restriction = {
            "condition": f"settings:{group}.{attr}.value == true",
            "action": draw(st.sampled_from(["disable", "hide", "none"])),
            "message": f"m{i}",
        }
        role = {"restrictions": [restriction]}
        if draw(st.booleans()):
            role["limits"] = {"max": f"settings:{group}.{attr}.value"}
        roles[f"r{i}"] = role
    fields = {
        "name": "R",
        "modes": ["ha_compact"],
        "roles_metadata": roles,
        "attributes_metadata": {"editable": editable},
    }
    return [{"pk": 1, "model": "nailgun.release", "fields": fields}]


def _other_value(field):
    if field.kind == "bool":
        return not field.default
    if field.kind == "int":
        return field.default + 1
    if field.kind == "float":
        return field.default / 2
    if field.kind == "choice":
        return field.choices[-1]
    if field.kind == "text":
        return field.default + "x"
    return True


@settings(max_examples=60, deadline=None)
@given(data=releases())
def test_random_releases_simulate_safely(data):
    release = conditions.load_release(data)
    sim = ClusterSimulator(release, release.cluster(pool=[{"id": 1}, {"id": 2}]), selected=[1, 2])
    assert set(sim.outcomes) == set(release.roles)
    for field in sim.setting_fields:
        sim.set_setting(field.name, _other_value(field))
        sim.set_setting(field.path, field.default if field.defined else True)
    assert_view_safe(sim.html)
    shown = set(sim.shown_outcomes)
    assert shown | set(sim.hidden_roles) == set(release.roles) and not shown & set(sim.hidden_roles)
