"""The layer stack's side of the document: an :class:`Origin` as a :class:`Source`.

The merge records, per value, the ``Origin`` that won (its label, document
and node path) and the ``(value, Origin)`` layers it replaced. This module
turns an origin into a structured :class:`~toskit.tosca.explain.Source`:
its kind (``default`` refined into ``type default``, ``data type default``
or ``profile``; a TOSCA 2.0 ``copy``), and its file and line, looked up in
the document's position tree. It also reads what a layer wrote (the raw
YAML at an origin, parsed as a call when it is one), which the hops and
``toskit blame`` follow.

What explanations of one template share is memoised per template
(:class:`_Memo`): a type's defaults are the same origin for every
template, so their ``Source`` is made once.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Mapping
from typing import Any

from toskit.errors import ToskitError
from toskit.functions import Call, dialect_of
from toskit.functions import parse as parse_calls
from toskit.plain import bounded_text
from toskit.source.locations import AliasShadow, MapShadow, SeqShadow, walk
from toskit.tosca.explain.model import Source
from toskit.tosca.explain.positions import position_tree
from toskit.tosca.explain.text import TEXT
from toskit.tosca.types.definitions import Type
from toskit.tosca.values.resolve import Origin


def _service_of(entity: Any) -> Any:
    ref = getattr(entity, "_service", None)
    if ref is None:
        node = getattr(entity, "node", None)
        ref = getattr(node, "_service", None) if node is not None else None
    return ref() if ref is not None else None


def _replace_kind(source: Source, kind: str, call: str | None) -> Source:
    return dataclasses.replace(source, kind=kind, call=call)


class _Memo:
    """What explanations of one template share: the :class:`Source` of each
    origin (the defaults of a type are the same origin for every template),
    types by name, and the text of each definition's clauses."""

    __slots__ = (
        "sources",
        "types",
        "clauses",
        "definitions",
        "findings",
        "parents",
        "breaks",
        "__weakref__",
    )

    def __init__(self) -> None:
        self.breaks: dict[Any, int] = {}
        # document -> (its path prefix -> (raw, shadow)): _node's memo.
        self.parents: dict[Any, dict[tuple, tuple[Any, Any]]] = {}
        self.findings: dict[int, tuple[Any, Any]] = {}
        self.definitions: dict[tuple, tuple] = {}
        self.sources: dict[Origin, Source] = {}
        self.types: dict[str | None, Type | None] = {}
        self.clauses: dict[int, tuple[Any, list[tuple[str, Any, str]], tuple]] = {}


_MEMOS: weakref.WeakKeyDictionary[Any, _Memo] = weakref.WeakKeyDictionary()


def _memo_of(owner: Any) -> _Memo:
    # An attribute of the template (or entity) when it takes one: a weak
    # dictionary's lookup makes a weak reference on every call.
    memo = getattr(owner, "_explain_memo", None)
    if memo is None:
        memo = _MEMOS.get(owner)
        if memo is None:
            memo = _Memo()
            try:
                owner._explain_memo = memo
            except AttributeError:
                _MEMOS[owner] = memo
    return memo


def _source(
    origin: Origin, value: Any, entity: Any, service: Any, memo: _Memo | None = None
) -> Source:
    """The structured form of ``origin`` (its start found now, in the document),
    made once per origin when given the template's ``memo``."""
    if memo is None:
        return _make_source(origin, service, None)
    try:
        found = memo.sources.get(origin)
    except TypeError:  # a path part that cannot be hashed: not memoised
        return _make_source(origin, service, memo)
    if found is None:
        found = memo.sources[origin] = _make_source(origin, service, memo)
    return found


def _make_source(origin: Origin, service: Any, memo: _Memo | None) -> Source:
    head, sep, rest = origin.source.partition(": ")  # Origin.kind and .detail, in one
    kind, detail = (head, rest) if sep else (origin.source, None)
    type_name = input_name = call = copied = None
    if kind == "default":
        type_name = detail
        if memo is None:
            t = _type_named(service, detail)
        elif detail in memo.types:  # a type's defaults: one lookup per type name
            t = memo.types[detail]
        else:
            t = memo.types[detail] = _type_named(service, detail)
        if t is not None and getattr(t, "normative", False):
            kind = "profile"
        elif t is not None and t.kind == "data":
            kind = "data type default"
        else:
            kind = "type default"
    elif kind == "input":
        input_name = detail
        call = _raw_call_text(origin)
    doc, parts = origin.doc, origin.parts
    parent = _parent(doc, parts, memo)
    raw = (
        _raw_at(origin) if parent is None else _walk_raw(parent[0], parts[-1:])
    )  # what the layer wrote
    # Only a one-key map (or a 2.0 "$name" string) can be a call: the rest is not parsed.
    if raw.__class__ is str:
        written = _parsed(raw, service) if raw.startswith("$") else None
    elif isinstance(raw, Mapping) and len(raw) == 1:
        written = _parsed(raw, service)
    else:
        written = None
    if (
        raw is _MISSING
        and kind == "template"
        and doc is not None
        and doc.value is not None
        and _version(service) == "2.0"  # copy: is TOSCA 2.0
    ):
        # A TOSCA 2.0 ``copy``: the value was written on the copied template.
        copy = _copy_origin(doc, parts)
        if copy is not None:
            kind, copied, parts = "copy", copy[0], copy[1]
    line, column = _where(doc, parts, parent if parts is origin.parts else None, memo)
    return Source(  # positional (the record's keywords cost twice as much: one per origin)
        kind,
        origin.source,
        type_name,
        input_name,
        doc.name if doc else None,
        line,
        column,
        call,
        copied,
        doc,
        parts,
        written if written.__class__ is Call else None,
    )


def _parent(doc: Any, parts: tuple, memo: _Memo | None) -> tuple[Any, Any] | None:
    """The raw value and the position-tree node at ``parts[:-1]``, kept per
    template (as is every node above it): leaves share their maps, so each is
    located with one step from a kept node instead of a walk from the
    document's root. ``None`` when not kept (no memo, no document, an
    unhashable part)."""
    if memo is None or doc is None or not parts or doc.value is None:
        return None
    kept = memo.parents.get(doc)
    if kept is None:
        kept = memo.parents[doc] = {}
    try:
        return _node(doc, parts[:-1], kept)
    except TypeError:  # a path part that cannot be hashed
        return None


def _node(doc: Any, prefix: tuple, kept: dict[tuple, tuple[Any, Any]]) -> tuple[Any, Any]:
    """``(raw, shadow)`` at ``prefix``: ``_MISSING`` / ``None`` where it does not
    exist in full (the caller then asks ``doc.locate``, which knows partial paths).
    ``kept``: the memo of ``doc``'s prefixes."""
    found = kept.get(prefix)
    if found is not None:
        return found
    if not prefix:  # positions without values when it can, else the document's own
        found = (doc.value, position_tree(doc) or doc.position_tree())
    else:
        raw, node = _node(doc, prefix[:-1], kept)
        part = prefix[-1]
        raw = _walk_raw(raw, (part,)) if raw is not _MISSING else _MISSING
        while node.__class__ is AliasShadow:
            node = node.target
        if node.__class__ is MapShadow:
            entry = node.entries.get(part)
            node = entry[2] if entry is not None else None
        elif node.__class__ is SeqShadow and part.__class__ is int and 0 <= part < len(node.items):
            node = node.items[part]
        else:
            node = None
        found = (raw, node)
    kept[prefix] = found
    return found


def _where(
    doc: Any, parts: tuple, parent: tuple[Any, Any] | None, memo: _Memo | None
) -> tuple[int | None, int | None]:
    """1-based ``(line, column)`` of the node at ``parts``, as ``doc.locate`` gives it:
    one step from the kept parent node when there is one."""
    if doc is None:
        return None, None
    if parent is not None and parent[1] is not None and memo is not None:
        node = parent[1]
        while node.__class__ is AliasShadow:
            node = node.target
        try:
            entry = node.entries.get(parts[-1]) if node.__class__ is MapShadow else None
        except TypeError:  # a part no key can be: walk says where
            entry = None
        if entry is not None:  # the common step, inline: a key of a map
            target = entry[2]
            line0, column0 = target if target.__class__ is tuple else (target.line, target.column)
        else:  # a list's item, a missing key, an alias: as locate walks it
            line0, column0 = walk(parent[1], parts[-1:])  # type: ignore[misc]  # a node
        breaks = memo.breaks.get(doc)
        if breaks is None:
            breaks = memo.breaks[doc] = doc.text.count("\n") if isinstance(doc.text, str) else -1
        # Below the count of "\n" the line exists (YAML knows more breaks, never fewer);
        # past the end, locate clamps it.
        if line0 <= breaks or doc.line_text(line0 + 1) is not None:
            return line0 + 1, column0 + 1
    where = doc.locate(parts)
    return (where.line, where.column) if where is not None else (None, None)


def _type_named(service: Any, name: str | None) -> Type | None:
    if service is None or not name:
        return None
    registry = getattr(service, "registry", None)
    for kind in (
        "data",
        "node",
        "capability",
        "relationship",
        "group",
        "policy",
        "artifact",
        "interface",
    ):
        try:
            t = service.lookup_type(kind, name) if registry is not None else None
        except Exception:  # a registry that does not know a kind
            t = None
        if t is not None:
            return t
    return None


_MISSING = object()


def _walk_raw(value: Any, parts: tuple) -> Any:
    for part in parts:
        if value.__class__ is dict:  # YAML maps: the ABC check is slow here
            if part not in value:
                return _MISSING
            value = value[part]
            continue
        in_map = isinstance(value, Mapping) and part in value
        if not in_map and not (
            isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value)
        ):
            return _MISSING
        value = value[part]
    return value


def _exists(root: Any, parts: tuple) -> bool:
    return _walk_raw(root, parts) is not _MISSING


def _copy_origin(doc: Any, parts: tuple) -> tuple[str, tuple] | None:
    """Where a ``copy`` chain wrote ``parts``: the copied template's name and path."""
    for i in range(len(parts) - 1, 0, -1):
        section = parts[:i]
        templates = _walk_raw(doc.value, section)
        if not isinstance(templates, Mapping) or parts[i] not in templates:
            continue
        name, rest = parts[i], parts[i + 1 :]
        seen = {name}
        for _ in range(len(templates)):
            raw = templates.get(name)
            other = raw.get("copy") if isinstance(raw, Mapping) else None
            if not isinstance(other, str) or other in seen or other not in templates:
                return None
            seen.add(other)
            if _exists(templates[other], rest):
                return other, (*section, other, *rest)
            name = other
        return None
    return None


def _raw_at(origin: Origin) -> Any:
    if origin.doc is None or origin.doc.value is None:
        return _MISSING
    return _walk_raw(origin.doc.value, origin.parts)


_VERSIONS: dict[Any, str] = {}


def _version(service: Any) -> str:
    """The function dialect of the template (``2.0`` when it cannot tell)."""
    version = getattr(service, "version", None)
    if not isinstance(version, str):
        return "2.0"
    found = _VERSIONS.get(version)
    if found is None:
        try:
            found = version if dialect_of(version) == "1.x" else "2.0"
        except ToskitError:
            found = "2.0"
        if len(_VERSIONS) < 64:
            _VERSIONS[version] = found
    return found


def _parsed(raw: Any, service: Any) -> Any:
    if raw is _MISSING:
        return raw
    cls = raw.__class__
    if cls is not dict and cls is not list and cls is not str:
        return raw  # a number, a boolean, null: never a call
    version = _version(service)
    if cls is str and (version != "2.0" or not raw.startswith("$")):
        return raw  # a string is a call only in 2.0, as "$name"
    try:
        return parse_calls(raw, version)
    except ToskitError:
        return raw


def _raw_call_text(origin: Origin) -> str | None:
    raw = _raw_at(origin)
    return None if raw is _MISSING else bounded_text(raw, TEXT, style="flow")
