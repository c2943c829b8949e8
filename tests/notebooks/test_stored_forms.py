"""Stored notebooks reopen well (issue 35 item 3), checked without a browser
(``tests/browser/test_reopen_lab.py`` checks the same in JupyterLab):

* every toskit output of a stored tutorial, and every widget snapshot, is in
  the form that reads without the stylesheet (an untrusted notebook's
  sanitizer drops ``<style>``): the view not hidden inline, the plain-text
  repr hidden inline; nbval's sanitizers map it and the usual form to one;
* toskit installs the JupyterLab default that saves widget state with a
  notebook, as a wheel ``shared-data`` file.
"""

from __future__ import annotations

import configparser
import importlib.util
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
import tomllib

import toskit
from toskit.display import to_html
from toskit.widgets import explore
from toskit.widgets.snapshot import unhidden_view

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "notebooks" / "examples" / "service.yaml"
OVERRIDES = "share/jupyter/lab/settings/overrides.d/toskit.json"
_VIEW_HIDDEN = re.compile(
    r'<div class="toskit-wrap(?! toskit-stored-drawing)[^"]*" style="display:none">'
)
_REPR_SHOWN = '<pre class="toskit-text-fallback">'


def _build():
    spec = importlib.util.spec_from_file_location("nb_build", ROOT / "notebooks" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sanitize(text: str) -> str:
    """``text`` through nbval.cfg's patterns, in order, as nbval applies them."""
    config = configparser.ConfigParser()
    config.read(ROOT / "nbval.cfg", encoding="utf-8")
    for section in config.sections():
        text = re.sub(config[section]["regex"], config[section]["replace"], text)
    return text


def visible(html: str) -> str:
    """The text a browser without the stylesheet shows (tags dropped, no
    space added where the markup has none)."""
    html = re.sub(r"<style>.*?</style>|<pre[^>]*>.*?</pre>", "", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def test_unhidden_view_shows_the_view_and_hides_the_repr():
    usual = to_html(toskit.load(SERVICE))
    assert _VIEW_HIDDEN.search(usual) and _REPR_SHOWN in usual  # the usual form
    stored = unhidden_view(usual)
    assert not _VIEW_HIDDEN.search(stored)
    assert _REPR_SHOWN not in stored
    assert '<pre class="toskit-text-fallback" style="display:none">' in stored
    assert unhidden_view(stored) == stored  # idempotent
    # Nothing else changes: the inline style moved from the view to the repr,
    # and the inline parts of a line are apart by a space.
    assert re.sub(r"\s|style=\"display:none\"", "", stored) == re.sub(
        r"\s|style=\"display:none\"", "", usual
    )
    words = visible(stored)
    assert re.search(
        r"service template \S*service\.yaml tosca_simple_yaml_1_3 1 node template", words
    )
    assert re.search(r"error missing-property \S*service\.yaml:\d+:\d+", words), words[:2000]


def test_widget_snapshots_are_in_the_stored_form():
    widget = explore(toskit.load(SERVICE))
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    html = data["text/html"]
    assert "a snapshot of the widget" in html
    assert not _VIEW_HIDDEN.search(html) and _REPR_SHOWN not in html


def test_build_stores_every_toskit_output_in_the_stored_form():
    build = _build()
    nb = nbformat.v4.new_notebook()
    view = to_html(toskit.load(SERVICE))
    cell = nbformat.v4.new_code_cell("st")
    cell.outputs = [
        nbformat.v4.new_output("execute_result", data={"text/html": view}, execution_count=1),
        nbformat.v4.new_output("display_data", data={"text/html": "<b>not toskit</b>"}),
    ]
    nb.cells = [cell]
    build.store_snapshots(nb)
    assert cell.outputs[0]["data"]["text/html"] == unhidden_view(view)
    assert cell.outputs[1]["data"]["text/html"] == "<b>not toskit</b>"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")), ids=lambda p: p.stem
)
def test_stored_tutorials_are_in_the_stored_form(path: Path):
    found = 0
    for cell in nbformat.read(path, as_version=4).cells:
        for output in cell.get("outputs", []):
            html = output.get("data", {}).get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            if "toskit-text-fallback" in html:
                found += 1
                assert not _VIEW_HIDDEN.search(html), cell.id
                assert _REPR_SHOWN not in html, cell.id
    # 05 (the DSL) and 08 (profiles) print text; every other tutorial shows views.
    assert found or path.stem in {"05-python-dsl", "08-profiles"}


def test_nbval_compares_the_stored_and_the_usual_form_as_one():
    usual = to_html(toskit.load(SERVICE))
    assert _sanitize(unhidden_view(usual)) == _sanitize(usual)
    # ... and still sees a real difference.
    other = usual.replace("service.yaml", "other.yaml")
    assert _sanitize(unhidden_view(other)) != _sanitize(usual)


def test_toskit_installs_the_jupyterlab_default_that_saves_widget_state():
    settings = json.loads((ROOT / OVERRIDES).read_text(encoding="utf-8"))
    assert settings == {"@jupyter-widgets/jupyterlab-manager:plugin": {"saveState": True}}
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shared = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    # Installed where JupyterLab reads package defaults: {sys.prefix}/<this>.
    assert shared[OVERRIDES] == OVERRIDES
    # The key is a setting JupyterLab's widget manager declares.
    schema = (
        Path(sys.prefix)
        / "share/jupyter/labextensions/@jupyter-widgets/jupyterlab-manager/schemas"
        / "@jupyter-widgets/jupyterlab-manager/plugin.json"
    )
    assert "saveState" in json.loads(schema.read_text(encoding="utf-8"))["properties"]


def test_a_stored_drawing_is_an_image_where_the_stylesheet_is_gone():
    import base64

    topology = toskit.load(ROOT / "notebooks" / "examples" / "web-shop.yaml").topology()
    usual = to_html(topology)
    stored = unhidden_view(usual)
    assert unhidden_view(stored) == stored  # idempotent
    # With the stylesheet: the inline drawing, in a wrap the stylesheet shows.
    inline = re.search(
        r'<div class="toskit-wrap toskit-stored-drawing" style="display:none">'
        r'<div class="toskit-topology-drawing">(<svg class="toskit-t-svg".*?</svg>)</div></div>',
        stored,
        re.S,
    )
    assert inline and inline.group(1) in usual
    # Without it (that wrap hidden inline): an image of the same drawing.
    image = re.search(
        r'<div class="toskit-text-fallback"><img alt="Topology of [^"]*" '
        r'src="data:image/svg\+xml;base64,([^"]+)"></div>',
        stored,
    )
    assert image
    svg = base64.b64decode(image.group(1)).decode("utf-8")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" class="toskit-t-svg"')
    assert "<style>" in svg and svg.replace('xmlns="http://www.w3.org/2000/svg" ', "").count(
        'data-node="'
    ) == inline.group(1).count('data-node="')
    assert "<script" not in svg and " on" not in re.sub(r"<style>.*?</style>", "", svg, flags=re.S)
