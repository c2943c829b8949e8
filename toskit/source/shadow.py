"""Shadow mode: every document parsed by both paths, any difference raised.

A check for toskit's own test suite (issue 23: "every existing test passes
on both parse paths"), not for users. When the environment variable
``TOSKIT_YAML_SHADOW`` is ``1`` (``make test`` runs the suite once so, and
``pytest --yaml-shadow`` sets it), :func:`toskit.source.load_yaml` hands
every text it parsed to :func:`compare`: the text is parsed again by the
path that did not answer (rapidyaml's :func:`toskit.source.fast.load_fast`
and PyYAML's composer), and the two documents must agree on

* the value, types included (``1``, ``1.0`` and ``True`` differ; a NaN
  equals a NaN);
* the diagnostics (the fast path answers only for a document without any,
  so PyYAML must find none);
* the location of every node and every key (at most
  :data:`MAX_PATHS` paths per document, breadth first), and that a path
  missing from the value is missing from both.

A difference raises :class:`ShadowMismatch` naming the document and the
first difference. When the fast path does not answer (it falls back to
PyYAML for that text), both paths *are* PyYAML and there is nothing to
compare. Without rapidyaml, shadow mode does nothing.
"""

from __future__ import annotations

import math
import os
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from toskit.source import fast

if TYPE_CHECKING:
    from toskit.source.document import YamlDocument

__all__ = ["ENV_VAR", "MAX_PATHS", "ShadowMismatch", "compare", "enabled"]

#: ``1`` turns shadow mode on.
ENV_VAR = "TOSKIT_YAML_SHADOW"
#: Node paths whose locations are compared, per document.
MAX_PATHS = 2_000


class ShadowMismatch(AssertionError):
    """The two parse paths disagree on a document (a toskit bug; shadow mode only)."""


def enabled() -> bool:
    """Whether shadow mode is on (read on every call: tests may set it)."""
    return os.environ.get(ENV_VAR, "") == "1"


def compare(
    doc: YamlDocument, text: str, name: str, limits: dict[str, int], parser: str | None
) -> None:
    """Parse ``text`` on the other path than ``doc`` did; raise on any difference.

    ``doc`` is what :func:`~toskit.source.load_yaml` returns (on the fast
    path when ``doc`` has no shadow tree yet); ``parser`` is the PyYAML
    parser it chose.
    """
    if not fast.available():
        return
    from toskit.source.document import YamlDocument, _compose_text

    if doc._shadow_pending:  # the fast path answered: PyYAML is the other one
        # A twin of ``doc`` is located, so that ``doc`` keeps its locations
        # lazy (computed on the first ``locate``, as without shadow mode).
        quick = YamlDocument(name, text, None, [], limits=limits, parser=parser)
        quick.value, quick._shadow_pending = doc.value, True
        reference = YamlDocument(name, text, None, [], limits=limits, parser=parser)
        composed = _compose_text(text, name, limits, parser, reference)
        reference.value = composed.value
        reference.diagnostics.extend(composed.diagnostics)
        reference._shadow = composed.shadow
    else:  # PyYAML answered: does the fast path answer, and the same?
        value = fast.load_fast(text, limits)
        if value is fast.FALLBACK:
            return
        reference = doc
        quick = YamlDocument(name, text, None, [], limits=limits, parser=parser)
        quick.value, quick._shadow_pending = value, True
    _same(quick, reference, name)


def _same(quick: YamlDocument, reference: YamlDocument, name: str) -> None:
    if canon(quick.value) != canon(reference.value):
        raise ShadowMismatch(
            f"{name}: the fast and PyYAML parse paths give different values "
            f"({_first_difference(quick.value, reference.value)})"
        )
    if quick.diagnostics != reference.diagnostics:
        raise ShadowMismatch(
            f"{name}: the parse paths give different diagnostics: fast "
            f"{quick.diagnostics!r}, PyYAML {reference.diagnostics!r}"
        )
    for path in node_paths(reference.value):
        for what, ours, theirs in (
            ("node", quick.locate(path), reference.locate(path)),
            ("key", quick.locate_key(path), reference.locate_key(path)),
        ):
            if ours != theirs:
                raise ShadowMismatch(
                    f"{name}: the parse paths locate the {what} at {list(path)!r} "
                    f"differently: fast {ours}, PyYAML {theirs}"
                )


def canon(value: Any) -> Any:
    """A typed, comparable form of a value: ``1``, ``1.0`` and ``True`` differ; NaN equals NaN."""
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    if isinstance(value, dict):
        return ("dict", tuple((canon(k), canon(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(canon(v) for v in value))
    if isinstance(value, tuple):
        return ("tuple", tuple(canon(v) for v in value))
    return (type(value).__name__, value)


def node_paths(value: Any, limit: int = MAX_PATHS) -> list[tuple[Hashable, ...]]:
    """Paths of the nodes of ``value`` (breadth first, at most ``limit``), and of
    one missing key or index per collection (both paths must miss it)."""
    out: list[tuple[Hashable, ...]] = []
    queue: list[tuple[tuple[Hashable, ...], Any]] = [((), value)]
    at = 0
    while at < len(queue) and len(out) < limit:
        path, node = queue[at]
        at += 1
        out.append(path)
        if isinstance(node, dict):
            queue.extend(((*path, k), v) for k, v in node.items())
            out.append((*path, "<no such key>"))
        elif isinstance(node, list):
            queue.extend(((*path, i), v) for i, v in enumerate(node))
            out.append((*path, len(node)))
    return out


def _first_difference(ours: Any, theirs: Any, path: tuple = ()) -> str:
    """Where two values first differ, and how (for the message)."""
    if canon(ours) == canon(theirs):
        return "none"
    if isinstance(ours, dict) and isinstance(theirs, dict):
        if list(map(canon, ours)) != list(map(canon, theirs)):
            return f"at {list(path)!r}: keys {list(ours)!r} against {list(theirs)!r}"
        for key in ours:
            if canon(ours[key]) != canon(theirs[key]):
                return _first_difference(ours[key], theirs[key], (*path, key))
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        for index, (a, b) in enumerate(zip(ours, theirs)):
            if canon(a) != canon(b):
                return _first_difference(a, b, (*path, index))
    return f"at {list(path)!r}: fast {_short(ours)}, PyYAML {_short(theirs)}"


def _short(value: Any) -> str:
    text = f"{type(value).__name__} {value!r}"
    return text if len(text) <= 80 else text[:77] + "..."
