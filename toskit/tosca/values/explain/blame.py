"""``toskit blame``: every node's effective properties as YAML, each leaf with its layer.

Each leaf line ends with a comment naming the layer that set it and its
``file:line``, and ``was …`` for the values it replaced, nearest first
(docs/explain.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toskit.tosca.values.explain.layers import _came_from_call, _replace_kind, _source
from toskit.tosca.values.explain.model import ExplainError
from toskit.tosca.values.explain.paths import _hint
from toskit.tosca.values.explain.text import label, yaml_flow
from toskit.tosca.values.resolve import Origin

if TYPE_CHECKING:
    from toskit.tosca.model.service import ServiceTemplate

__all__ = ["blame"]


def blame(template: ServiceTemplate, node: str | None = None) -> str:
    """Each node template's effective properties as YAML, with a trailing
    comment on every leaf naming its layer and ``file:line``, and ``# was …``
    for each value it replaced (``toskit blame``; docs/explain.md).

    ``node`` limits it to one node template (an unknown name raises
    :class:`ExplainError` with a did-you-mean). A leaf is what the property
    table calls one: a data-type value expands into its fields; a list, a map
    or a call is one line, in YAML flow style.
    """
    nodes = template.node_templates
    if node is not None:
        if node not in nodes:
            raise ExplainError(f"blame: no node template {node!r}" + _hint(node, nodes))
        names = [node]
    else:
        names = list(nodes)
    out: list[str] = []
    for name in names:
        entity = nodes[name]
        out.append(f"# node template {name} ({entity.type.name})")
        out.append(f"{_yaml_scalar(name)}:")
        rows = entity.property_table(show_overridden=True).rows
        if not rows:
            out.append("  {}  # no properties")
        written: list[tuple] = []
        for row in rows:
            parts = row.parts or (row.path,)
            common = 0
            prev = written[-1] if written else ()
            while common < min(len(prev), len(parts) - 1) and prev[common] == parts[common]:
                common += 1
            for depth in range(common, len(parts) - 1):
                out.append("  " * (depth + 1) + f"{_yaml_scalar(parts[depth])}:")
            value = row.value
            origin = row.origin or Origin(row.source, None, ())
            comment = _blame_layer(origin, value, entity, template)
            was = [
                f"{yaml_flow(v)} ({_blame_layer(o, v, entity, template)})"
                for v, o in row.stack[:-1]
            ]
            if was:
                comment += "; was " + ", ".join(reversed(was))
            out.append(
                "  " * len(parts) + f"{_yaml_scalar(parts[-1])}: {yaml_flow(value)}  # {comment}"
            )
            written.append(parts[:-1])
    return "\n".join(out) + "\n"


def _blame_layer(origin: Origin, value: Any, entity: Any, template: Any) -> str:
    """``label [(kind)] file:line`` of one layer, as :class:`Source` reads it."""
    source = _source(origin, value, entity, template)
    if source.kind == "template" and _came_from_call(origin, entity):
        source = _replace_kind(source, "function", None)
    text = label(source)
    if source.copied_from:
        text += f" of {source.copied_from}"
    return f"{text} {source.where}"


def _yaml_scalar(key: Any) -> str:
    return yaml_flow(key if isinstance(key, (str, int)) else str(key))
