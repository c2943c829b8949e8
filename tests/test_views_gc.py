"""Heavy view builders run with the cyclic collector paused (issue #31 item 3):
a view of a large template must not trigger full collections over it."""

from __future__ import annotations

import gc
from typing import Any

import pytest

import toskit
from toskit import display, runtime
from toskit.display import topology_svg
from toskit.tosca.model import template as template_module
from toskit.tosca.topology import model as topology_module

TEXT = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Web:
    derived_from: tosca.nodes.WebServer
    properties:
      port: {type: integer, default: 80}
topology_template:
  node_templates:
    web:
      type: my.Web
      requirements:
        - host: box
    box:
      type: tosca.nodes.Compute
"""


def _spy(seen: list[bool], real: Any) -> Any:
    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    return spy


@pytest.fixture
def st() -> toskit.ServiceTemplate:
    assert gc.isenabled()
    return toskit.loads(TEXT, name="t.yaml")


def test_to_html_builds_with_the_collector_paused(st, monkeypatch) -> None:
    seen: list[bool] = []
    real = display._view_for
    monkeypatch.setattr(display, "_view_for", lambda obj: _spy(seen, real(obj)))
    assert "web" in st._repr_html_()
    assert seen == [False]
    assert gc.isenabled()


def test_render_page_builds_with_the_collector_paused(st, monkeypatch) -> None:
    from toskit.display import report

    seen: list[bool] = []
    monkeypatch.setattr(report, "render_page", _spy(seen, report.render_page))
    assert "<html" in display.render_page(st).lower()
    assert seen == [False]
    assert gc.isenabled()


def test_to_frame_topology_and_svg_build_with_the_collector_paused(st, monkeypatch) -> None:
    pytest.importorskip("pandas")
    seen: list[bool] = []
    # Every frame (a node's, with or without findings, and the template's)
    # is assembled by _Columns.frame.
    columns = template_module._Columns
    monkeypatch.setattr(columns, "frame", _spy(seen, columns.frame))
    monkeypatch.setattr(
        topology_module, "build_topology", _spy(seen, topology_module.build_topology)
    )
    monkeypatch.setattr(topology_svg, "render_svg", _spy(seen, topology_svg.render_svg))
    assert list(st.node_templates["web"].property_table().to_frame()["value"]) == [80]
    assert list(st.property_frame()["node"]) == ["web"]
    with_finding = toskit.loads(TEXT.replace("box:", "box:\n      properties: {nope: 1}"))
    assert "nope" in list(with_finding.node_templates["box"].property_table().to_frame()["path"])
    topology = st.topology()
    assert "<svg" in topology.to_svg()
    assert seen == [False] * 5
    assert gc.isenabled()


def test_a_view_that_fails_still_resumes_the_collector() -> None:
    @runtime.gc_paused
    def broken() -> None:
        assert not gc.isenabled()
        raise ValueError("x")

    with pytest.raises(ValueError):
        broken()
    assert gc.isenabled()
    assert runtime.active_walks() == 0


def test_a_paused_view_keeps_a_collector_the_process_disabled() -> None:
    gc.disable()
    try:
        runtime.gc_paused(lambda: None)()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_gc_paused_keeps_the_function_name_and_doc() -> None:
    assert display.to_html.__name__ == "to_html"
    assert "self-contained HTML" in (display.to_html.__doc__ or "")


def test_compare_runs_with_the_collector_paused(st, monkeypatch) -> None:
    from toskit.compare import compute

    seen: list[bool] = []
    monkeypatch.setattr(compute, "as_template", _spy(seen, compute.as_template))
    diff = toskit.compare(
        st, toskit.loads(TEXT.replace("default: 80", "default: 81"), name="t.yaml")
    )
    assert not diff.is_same
    assert seen == [False, False]
    assert gc.isenabled()
