"""A glossary-free reading of the widgets (issue 35 item 5): what a person
reads in each widget of the tutorials — its HTML's visible text and the
words of its controls (descriptions, labels, options, placeholders) — has
no internal name where the source document has words for it: no Python
repr, no ``NO_DEFAULT``, no merge keyword, and no setting key a Fuel
release labels (the key may sit in a ``title``)."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import ipywidgets
import pytest

import toskit
from toskit import conditions
from toskit.widgets import ClusterSimulator, PropertyExplorer, TypeTree, explore
from toskit.widgets.rendered import RenderedHTML

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "notebooks" / "examples" / "service.yaml"
RELEASE_FILE = ROOT / "conformance" / "fuel" / "openstack.yaml"
NEWTON = "Newton on Ubuntu 16.04"

# Internal names a reader must never meet (case-sensitive where it matters).
INTERNAL = [
    "<toskit.",
    "object at 0x",
    "NO_DEFAULT",
    "Traceback",
    "separable",
    "associative",
    "elementRelationship",
    "view failed",
]


def visible_text(html: str) -> str:
    """The text a browser shows: no style, no hidden repr, no attributes."""
    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)
    html = re.sub(r'<pre class="toskit-text-fallback"[^>]*>.*?</pre>', "", html, flags=re.S)
    return html_lib.unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def control_words(widget) -> list[str]:
    """Every word a widget's controls put on screen, recursively."""
    out, stack = [], [widget]
    while stack:
        w = stack.pop()
        stack.extend(getattr(w, "children", ()) or ())
        if isinstance(w, (ipywidgets.HTML, RenderedHTML)):  # a view, as a rendered output too
            out.append(visible_text(w.value))
            continue
        for attr in ("description", "placeholder", "tooltip"):
            value = getattr(w, attr, None)
            if isinstance(value, str) and value:
                out.append(value)
        if isinstance(w, ipywidgets.Label):
            out.append(w.value)
        labels = getattr(w, "_options_labels", None)
        if labels:
            out.extend(labels)
        html = getattr(w, "html", None)
        if isinstance(html, str) and w is not widget:
            out.append(visible_text(html))
    return out


def _release():
    return conditions.load_release(RELEASE_FILE, NEWTON)


def _fuel_simulator():
    release = _release()
    sim = ClusterSimulator(
        release, release.cluster(mode="ha_compact", pool=[{"id": 1}]), selected=[1]
    )
    sim.set_setting("storage.volumes_lvm", False)
    sim.set_setting("storage.volumes_ceph", True)
    return sim


WIDGETS = {
    "template explorer": lambda: explore(toskit.load(SERVICE)),
    "property explorer": lambda: PropertyExplorer(toskit.load(SERVICE)),
    "type tree": lambda: TypeTree(toskit.load(SERVICE)),
    "fuel simulator": _fuel_simulator,
}


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_a_widget_says_nothing_internal(name: str):
    widget = WIDGETS[name]()
    texts = control_words(widget)
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    texts.append(visible_text(data["text/html"]))  # the stored snapshot
    if hasattr(widget, "html"):
        texts.append(visible_text(widget.html))
    joined = "\n".join(texts)
    assert joined.strip()
    found = [word for word in INTERNAL if word in joined]
    assert not found, f"{name}: {found}"


def test_the_simulator_never_shows_a_labelled_setting_by_its_key():
    sim = _fuel_simulator()
    texts = "\n".join([*control_words(sim), visible_text(sim.html)])
    labelled = [f for f in sim.setting_fields if f.label and f.label != f.name]
    assert labelled
    for field in labelled:
        assert field.label in texts
        # The key only as the label's companion in the settings column
        # ("Label (key)"), never standing in for the label.
        bare = texts.replace(f"{field.label} ({field.name})", "")
        assert f"{field.name}:" not in bare and f"{field.path}" not in bare, field.name
