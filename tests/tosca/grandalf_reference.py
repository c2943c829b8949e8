"""grandalf's ``SugiyamaLayout`` run as it comes: the reference that toskit's
own layout code (``toskit.tosca.topology.layout`` and ``.sugiyama``) is
compared with, float for float, in the topology tests."""

from __future__ import annotations

from typing import Any

from toskit.tosca.topology.layout import XSPACE, YSPACE, _EdgeView, _Link, _View


def grandalf_run(keys: list[Any], links: list[_Link], views: dict[Any, _View]) -> Any:
    """grandalf's layout of one component after ``init_all()`` (its own cycle
    search and ranking), its boxes sized as ``views``; ``vertices`` (by key)
    and ``edge_list`` (in link order) are set on it for the caller to read
    after ``draw()``."""
    from grandalf.graphs import Edge, Vertex, graph_core
    from grandalf.layouts import SugiyamaLayout

    vertices = {}
    for k in keys:
        vertices[k] = Vertex(k)
        vertices[k].view = _View(views[k].w, views[k].h)
    edges = []
    for link in links:
        edges.append(Edge(vertices[link.source], vertices[link.target]))
        edges[-1].view = _EdgeView()
    sug = SugiyamaLayout(graph_core(list(vertices.values()), edges))
    sug.xspace, sug.yspace = XSPACE, YSPACE
    sug.init_all()
    sug.vertices, sug.edge_list = vertices, edges
    return sug
