"""``toskit blame``: every node's effective properties as YAML, each leaf with its layer.

Each leaf line ends with a comment naming the layer that set it and its
``file:line``, and ``was …`` for the values it replaced, nearest first
(docs/explain.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toskit.functions import Call
from toskit.plain import bounded_text, kind_of
from toskit.tosca.explain.layers import _memo_of, _replace_kind, _source
from toskit.tosca.explain.model import ExplainError
from toskit.tosca.explain.paths import _hint
from toskit.tosca.explain.text import label, yaml_flow
from toskit.tosca.values.resolve import Origin

if TYPE_CHECKING:
    from toskit.tosca.model.service import ServiceTemplate

__all__ = ["VALUE_LIMIT", "WAS_LIMIT", "blame"]

VALUE_LIMIT = 200  # characters of a value (or key) on its line before it is abbreviated
WAS_LIMIT = 60  # characters of each replaced value in "was …"


def blame(
    template: ServiceTemplate,
    node: str | None = None,
    *,
    value_limit: int | None = VALUE_LIMIT,
    was_limit: int | None = WAS_LIMIT,
) -> str:
    """Each node template's effective properties as YAML, with a trailing
    comment on every leaf naming its layer and ``file:line``, and ``# was …``
    for each value it replaced (``toskit blame``; docs/explain.md).

    ``node`` limits it to one node template (an unknown name raises
    :class:`ExplainError` with a did-you-mean). A leaf is what the property
    table calls one: a data-type value expands into its fields; a list, a map
    or a call is one line, in YAML flow style.

    A value (or key) whose line would be longer than ``value_limit``
    characters is abbreviated: written as a quoted string of its first
    characters ending in ``…``, and the comment says what it was (``a list
    of 1,000 items, abbreviated``); a replaced value in ``was …`` is cut to
    ``was_limit`` characters the same way. ``None`` writes them whole
    (``toskit blame --full``).
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
        shown = (
            name if value_limit is None or len(name) <= value_limit else name[:value_limit] + "…"
        )
        out.append(f"# node template {shown} ({entity.type.name})")
        out.append(_key_line(name, value_limit, ""))
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
                out.append(_key_line(parts[depth], value_limit, "  " * (depth + 1)))
            value = row.value
            origin = row.origin or Origin(row.source, None, ())
            comment = _blame_layer(origin, value, entity, template)
            text, note = _bounded_yaml(value, value_limit)
            key, key_note = _bounded_yaml(_key(parts[-1]), value_limit)
            notes = [f"the key: {key_note}" if key_note else "", note or ""]
            if any(notes):
                comment += f" ({'; '.join(n for n in notes if n)})"
            was = [
                f"{_bounded_yaml(v, was_limit)[0]} ({_blame_layer(o, v, entity, template)})"
                for v, o in row.stack[:-1]
            ]
            if was:
                comment += "; was " + ", ".join(reversed(was))
            out.append("  " * len(parts) + f"{key}: {text}  # {comment}")
            written.append(parts[:-1])
    return "\n".join(out) + "\n"


def _blame_layer(origin: Origin, value: Any, entity: Any, template: Any) -> str:
    """``label [(kind)] file:line`` of one layer, as :class:`Source` reads it."""
    source = _source(origin, value, entity, template, _memo_of(template))
    if source.kind == "template" and source._wrote_call is not None:
        source = _replace_kind(source, "function", None)
    text = label(source)
    if source.copied_from:
        text += f" of {source.copied_from}"
    return f"{text} {source.where}"


def _key(key: Any) -> Any:
    return key if isinstance(key, (str, int)) else str(key)


def _key_line(key: Any, limit: int | None, indent: str) -> str:
    """``key:`` opening a map, a long key abbreviated as a value is (and said)."""
    text, note = _bounded_yaml(_key(key), limit)
    return f"{indent}{text}:" + (f"  # the key: {note}" if note else "")


def _bounded_yaml(value: Any, limit: int | None) -> tuple[str, str | None]:
    """``value`` as one line of YAML flow style, and ``None``; or, when that
    line would be longer than ``limit``, a quoted string of the value's first
    characters ending in ``…`` and a note saying what was abbreviated.

    The length is first probed with :func:`toskit.plain.bounded_text`, which
    reads only about ``limit`` characters of the value, so a 20 MB string or a
    list of a million items costs what a short one does.
    """
    if limit is None:
        return yaml_flow(value), None
    if isinstance(value, str):  # its own characters, cut (room left for the quotes)
        cut: str | None = value[: max(limit - 3, 1)] + "…" if len(value) > limit else None
    else:
        cut = bounded_text(value, limit, style="flow")  # a call writes its own text
        cut = cut if cut.endswith("…") else None
    if cut is None:
        text = yaml_flow(value)  # short: written whole (quotes and escapes may lengthen it)
        if len(text) <= limit:
            return text, None
        cut = (value if isinstance(value, str) else text)[: max(limit - 3, 1)] + "…"
    return yaml_flow(cut), f"{_size(value)}, abbreviated"


def _size(value: Any) -> str:
    """``a string of 5,000 characters``, ``a list of 1,000 items``, ``a map of 3 keys``."""
    if isinstance(value, str):
        return f"a string of {_count(len(value), 'character')}"
    if isinstance(value, Mapping):
        return f"a map of {_count(len(value), 'key')}"
    if isinstance(value, (list, tuple)):
        return f"a list of {_count(len(value), 'item')}"
    if isinstance(value, Call):
        return f"a call to {value.name}"
    return f"a {kind_of(value)} value"


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")
