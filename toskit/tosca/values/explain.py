"""Why a property has its value: ``st.explain(path)`` / ``node.explain(path)`` (issue #32).

An :class:`Explanation` is built on demand from what the load kept: the
merge records, per value, the :class:`~toskit.tosca.values.resolve.Origin` that
won (its label, document and node path) and the ``(value, Origin)`` layers
it replaced. Nothing here runs while loading; ``file:line`` of each layer is
looked up in the document's position tree only when an explanation is made.

An explanation holds:

* the effective value and its type;
* the layer stack, lowest first, the winner last: every layer that wrote the
  path, with its :class:`Source` (kind, the type of a default, the input,
  the file and range where that layer wrote it) and its value;
* the function hops behind a value that came from a call: a ``get_input``
  leads to the input's definition, default and given value; a
  ``get_property``/``get_attribute`` to the explanation of the property it
  read (on another node, a capability, a requirement's target, …);
  ``concat``/``join`` and other calls list their arguments with values;
* the constraints and the validation clause checked at the path, with the
  result the load's findings give (``satisfied``, ``violated``, or ``not
  checked`` for a value only known at deployment);
* the findings filed on the path (issue #28's subjects).

Kinds of a :class:`Source`: ``template`` (the template wrote it),
``type default`` (a default on a node, capability, relationship … type),
``data type default`` (a field default of a data type), ``profile`` (a
default of a normative/profile type), ``input`` (a ``get_input`` resolved
during the merge), ``function`` (a value computed by another call), and
``copy`` (a TOSCA 2.0 template that took the value from the template it
``copy``-ies).

Choices the issue leaves open (docs/explain.md): a path names a leaf or an
inner value (a map is explained as a whole: its own stack, its findings
below it); function hops are followed at most :data:`MAX_HOPS` deep and a
loop is cut where it comes back; a path that does not exist raises
:class:`ExplainError` (a ``ToskitError``) with a did-you-mean.
"""

from __future__ import annotations

import dataclasses
import json
import weakref
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic, did_you_mean, format_path
from toskit.errors import ToskitError
from toskit.functions import Call, dialect_of
from toskit.functions import parse as parse_calls
from toskit.plain import bounded_text
from toskit.sentinels import NO_DEFAULT
from toskit.tosca.model.template import _parse_path, origin_at
from toskit.tosca.model.validity import entity_findings
from toskit.tosca.types.definitions import PropertyDefinition, Type
from toskit.tosca.values.resolve import Origin

if TYPE_CHECKING:
    from toskit.tosca.model.service import ServiceTemplate
    from toskit.tosca.model.template import EntityTemplate

__all__ = [
    "MAX_HOPS",
    "Check",
    "ExplainError",
    "Explanation",
    "Hop",
    "Source",
    "StackLayer",
    "explain",
    "explain_entity",
]

MAX_HOPS = 16  # function hops followed, one inside the other (a chain of get_property)
_TEXT = 80  # characters of a value in str() and the rich view


class ExplainError(ToskitError):
    """A path that names no value of the template (the message says what exists)."""


# slots, not frozen: one per written value (bench_explain); shared through the
# template's memo, so treat it as read-only.
@dataclass(slots=True, eq=False)
class Source:
    """One layer that wrote a value: its kind, what it names, where it wrote.

    ``label`` is the string form the property table shows (``template``,
    ``default: <type>``, ``input: <name>``); ``file``/``line``/``column``
    (1-based) where the written value starts, and ``end_line``/
    ``end_column`` (end exclusive) where it ends, ``None`` when unknown (the
    end is scanned for only when asked); ``call`` the call's text for a
    ``function`` layer; ``copied_from`` the template a ``copy`` layer took
    the value from.
    """

    kind: str
    label: str
    type_name: str | None = None
    input_name: str | None = None
    file: str | None = None
    line: int | None = None
    column: int | None = None
    call: str | None = None
    copied_from: str | None = None
    _doc: Any = field(default=None, repr=False)
    _parts: tuple = field(default=(), repr=False)
    _end: list = field(default_factory=list, repr=False)

    @property
    def span(self) -> tuple[int, int, int, int] | None:
        """``(line, column, end_line, end_column)``, found on first use."""
        if not self._end:
            found = None
            if self._doc is not None and self.line is not None:
                found = self._doc.span(self._parts)
            self._end.append(found)
        return self._end[0]

    @property
    def end_line(self) -> int | None:
        span = self.span
        return span[2] if span else None

    @property
    def end_column(self) -> int | None:
        span = self.span
        return span[3] if span else None

    @property
    def where(self) -> str:
        """``file:line`` (``?`` when unknown)."""
        if self.line is None:
            return self.file or "?"
        return f"{self.file or '<unknown>'}:{self.line}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "label": self.label,
            "type": self.type_name,
            "input": self.input_name,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "call": self.call,
            "copied_from": self.copied_from,
        }


@dataclass(slots=True)  # not frozen: made per leaf, frozen's setattr costs (bench)
class StackLayer:
    """A layer of the stack: its value and source; ``won`` for the effective one."""

    value: Any
    source: Source
    won: bool

    def to_dict(self) -> dict[str, Any]:
        return {"value": _plain(self.value), "won": self.won, **self.source.to_dict()}


@dataclass(slots=True)  # not frozen: made per leaf, frozen's setattr costs (bench)
class Check:
    """A constraint or validation clause checked at the path, with its result."""

    kind: str  # "constraint", "validation"
    text: str
    result: str  # "satisfied", "violated", "not checked"
    message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "clause": self.text,
            "result": self.result,
            "message": self.message,
        }


@dataclass(slots=True)  # not frozen: made per leaf, frozen's setattr costs (bench)
class Hop:
    """One function call behind a value, and where it led.

    ``function`` is the call's name, ``call`` its text, ``value`` its value
    (``None`` with ``known=False`` when not known statically), ``target``
    what it read (``node db, property port``, ``input port``), ``source``
    where that was set, ``detail`` a note (the input's default, why a hop
    was not followed), ``hops`` the calls it went through in turn (a
    ``get_property`` of a value that is itself a call, the arguments of a
    ``concat``), ``explanation`` the read property's own explanation.
    """

    function: str
    call: str
    value: Any = None
    known: bool = True
    target: str | None = None
    source: Source | None = None
    detail: str | None = None
    hops: tuple[Hop, ...] = ()
    explanation: Explanation | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "function": self.function,
            "call": self.call,
            "value": _plain(self.value) if self.known else None,
            "known": self.known,
            "target": self.target,
            "source": self.source.to_dict() if self.source else None,
            "detail": self.detail,
            "hops": [h.to_dict() for h in self.hops],
            "explanation": self.explanation.to_dict() if self.explanation else None,
        }

    def lines(self, indent: str) -> list[str]:
        value = _short(self.value) if self.known else "(not known statically)"
        head = f"{indent}{self.call} = {value}"
        if self.target:
            head += f"  -> {self.target}"
        if self.source is not None:
            head += f"  [{self.source.kind} {self.source.where}]"
        out = [head]
        if self.detail:
            out.append(f"{indent}  {self.detail}")
        for hop in self.hops:
            out.extend(hop.lines(indent + "  "))
        if self.explanation is not None:
            for layer in self.explanation.stack:
                out.append(
                    f"{indent}  {'*' if layer.won else ' '} {_short(layer.value)}  "
                    f"{_label(layer.source)}  {layer.source.where}"
                )
            for hop in self.explanation.hops:
                out.extend(hop.lines(indent + "    "))
        return out


@dataclass(slots=True)  # not frozen: made per leaf, frozen's setattr costs (bench)
class Explanation:
    """Everything behind one effective value (see the module documentation)."""

    entity_kind: str
    entity: str
    path: str
    parts: tuple[Hashable, ...]
    value: Any
    type: str | None
    stack: tuple[StackLayer, ...]
    hops: tuple[Hop, ...] = ()
    checks: tuple[Check, ...] = ()
    findings: tuple[Diagnostic, ...] = ()
    leaves: int = 1

    @property
    def source(self) -> Source:
        """The layer that won (the last of :attr:`stack`)."""
        return self.stack[-1].source

    @property
    def overridden(self) -> tuple[StackLayer, ...]:
        """The layers the effective value replaced, lowest first."""
        return self.stack[:-1]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready; values are plain, calls their text)."""
        return {
            "entity": {"kind": self.entity_kind, "name": self.entity},
            "path": self.path,
            "value": _plain(self.value),
            "type": self.type,
            "source": self.source.to_dict(),
            "stack": [layer.to_dict() for layer in self.stack],
            "hops": [hop.to_dict() for hop in self.hops],
            "checks": [c.to_dict() for c in self.checks],
            "findings": [d.to_dict() for d in self.findings],
        }

    def __str__(self) -> str:
        out = [
            f"{self.entity_kind} {self.entity}: {self.path} = {_short(self.value)}"
            + (f"  ({self.type})" if self.type else "")
        ]
        out.append("layers (lowest first, * won):")
        for layer in self.stack:
            out.append(
                f"  {'*' if layer.won else ' '} {_short(layer.value):<24} {_label(layer.source):<24} "
                f"{layer.source.where}"
                + (
                    f"  (copied from {layer.source.copied_from})"
                    if layer.source.copied_from
                    else ""
                )
            )
        if self.hops:
            out.append("functions:")
            for hop in self.hops:
                out.extend(hop.lines("  "))
        if self.checks:
            out.append("checks:")
            for c in self.checks:
                out.append(
                    f"  {c.kind} {c.text}: {c.result}" + (f" ({c.message})" if c.message else "")
                )
        if self.findings:
            out.append("findings:")
            for d in self.findings:
                out.append(f"  {d}")
        return "\n".join(out)

    def __repr__(self) -> str:
        return (
            f"<Explanation {self.entity}.{self.path} = {_short(self.value)} ({self.source.label})>"
        )

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


# -- building ---------------------------------------------------------------


def explain(template: ServiceTemplate, path: str | tuple) -> Explanation:
    """The :class:`Explanation` of the value at a template-wide ``path``.

    ``path`` starts with a section (``node_templates``, ``relationship_templates``,
    ``groups``, ``policies``), optionally under ``topology_template.`` /
    ``service_template.``, then the entity's name, optionally
    ``capabilities.<name>``, then ``properties.`` and the property path:
    ``node_templates.db.properties.connection.endpoint.port``.
    """
    parts = list(_parse_path(path) if isinstance(path, str) else _parts_of(path))
    if parts and parts[0] in ("topology_template", "service_template"):
        parts = parts[1:]
    sections: dict[str, Mapping[str, Any]] = {
        "node_templates": template.node_templates,
        "relationship_templates": template.relationship_templates,
        "groups": template.groups,
        "policies": template.policies,
    }
    if not parts or parts[0] not in sections:
        word = str(parts[0]) if parts else ""
        raise ExplainError(
            f"explain: a path starts with one of {', '.join(sections)} (got {word!r})"
            + _hint(word, sections)
        )
    entities = sections[str(parts[0])]
    if len(parts) < 2 or parts[1] not in entities:
        word = str(parts[1]) if len(parts) > 1 else ""
        raise ExplainError(f"explain: no {parts[0]} entry {word!r}" + _hint(word, entities))
    entity: Any = entities[parts[1]]
    rest = parts[2:]
    if rest[:1] == ["capabilities"]:
        caps = getattr(entity, "capabilities", {})
        if len(rest) < 2 or rest[1] not in caps:
            word = str(rest[1]) if len(rest) > 1 else ""
            raise ExplainError(
                f"explain: node template {entity.name!r} has no capability {word!r}"
                + _hint(word, caps)
            )
        entity = caps[rest[1]]
        rest = rest[2:]
    if rest[:1] != ["properties"]:
        raise ExplainError(
            f"explain: after {format_path(parts[: len(parts) - len(rest)])} comes 'properties.<name>'"
            + (
                " or 'capabilities.<name>.properties.<name>'"
                if parts[0] == "node_templates"
                else ""
            )
            + (f" (got {rest[0]!r})" if rest else "")
        )
    return explain_entity(entity, tuple(rest[1:]), template)


def explain_entity(
    entity: EntityTemplate,
    path: str | tuple,
    template: ServiceTemplate | None = None,
    _seen: frozenset[tuple[int, tuple]] = frozenset(),
) -> Explanation:
    """The :class:`Explanation` of ``entity``'s property at ``path``
    (``"connection.endpoint.port"`` or a tuple; ``"eps[0].port"`` for a list entry)."""
    rel = _parse_path(path) if isinstance(path, str) else _parts_of(path)
    values = entity.properties
    if not rel:
        raise ExplainError(
            f"explain: name a property of {entity.kind} {entity.name!r}"
            + (
                f" (it has {', '.join(map(repr, list(values)[:10]))})"
                if values
                else " (it has none)"
            )
        )
    value: Any = values
    for i, part in enumerate(rel):  # found as the user wrote it, else a ToskitError
        cls = value.__class__
        ok = ((cls is dict or isinstance(value, Mapping)) and part in value) or (
            cls is list and part.__class__ is int and 0 <= part < len(value)
        )
        if not ok:
            where = format_path(rel[:i]) or f"{entity.kind} {entity.name!r}"
            if isinstance(value, Mapping):
                known = [str(k) for k in value]
                raise ExplainError(
                    f"explain: {where} has no property {part!r}"
                    + (
                        _hint(str(part), known)
                        or (f" (it has {', '.join(map(repr, known[:10]))})" if known else "")
                    )
                )
            if isinstance(value, list):
                raise ExplainError(
                    f"explain: {where} is a list of {len(value)}: index {part!r} is out of range"
                )
            raise ExplainError(
                f"explain: {where} is a single value ({_short(value)}), it has no {part!r}"
            )
        value = value[part]
    resolution = entity._resolution
    top = origin_at(resolution, rel)
    service = template if template is not None else _service_of(entity)
    memo = _memo_of(service if service is not None else entity)
    below = resolution.overridden.get(rel, ())
    sources = memo.sources
    layers = []
    for v, o in (*below, (value, top)):
        # The Source of an origin is made once per template (_Memo).
        src = sources.get(o) if o.parts.__class__ is tuple else None
        if src is None:
            src = _source(o, v, entity, service, memo)
        layers.append(StackLayer(v, src, False))
    layers[-1].won = True
    stack = tuple(layers)
    raw = _raw_at(top)
    written = raw if raw.__class__ in _PLAIN_LEAVES else _parsed(raw, service)
    hops = (
        _hops_of(written, value, entity, service, _seen | {(id(entity), rel)})
        if written.__class__ is Call or value.__class__ is Call
        else ()
    )
    key = (id(entity._definitions), id(entity.type), rel)
    cached = memo.definitions.get(key)
    if cached is None:
        # Kept with the definitions and type, so their ids stay unique.
        cached = memo.definitions[key] = (
            *_definition(entity, rel),
            format_path(rel),
            entity.property_definitions,
            entity.type,
        )
    pdef, type_name = cached[0], cached[1]
    index = entity.findings
    found: Any = None
    if index is not None and index.any:
        # The entity's findings, filed once per template and entity.
        entry = memo.findings.get(id(entity))
        if entry is None or entry[0] is not entity:
            entry = memo.findings[id(entity)] = (entity, entity_findings(entity))
        found = entry[1]
    n = len(rel)
    findings = tuple(d for p, d in found if tuple(p[:n]) == rel) if found else ()
    checks = _checks(pdef, value, findings, memo) if pdef is not None else ()
    if hops and stack[-1].source.kind == "template" and isinstance(written, Call):
        # The written value was a call: the value is what the call gave.
        last = stack[-1]
        stack = (
            *stack[:-1],
            StackLayer(last.value, _replace_kind(last.source, "function", hops[0].call), True),
        )
    return Explanation(  # positional: one per leaf (bench_explain)
        entity.kind,
        entity.name,
        cached[2],
        rel,
        str(value) if value.__class__ is Call else value,
        type_name,
        stack,
        hops,
        checks,
        findings,
    )


def _parts_of(path: Any) -> tuple:
    """A tuple path as given, checked: each part a key a YAML map can hold."""
    try:
        rel = tuple(path)
        hash(rel)
    except TypeError:
        raise ExplainError(
            f"explain: a path is a dotted string or a sequence of keys and indices, not {path!r:.80}"
        ) from None
    return rel


def _label(source: Source) -> str:
    """The table's label, with the refined kind when it says more (``template (function)``)."""
    if source.kind in ("function", "copy"):
        return f"{source.label} ({source.kind})"
    return source.label


def _hint(word: str, candidates: Any) -> str:
    hint = did_you_mean(word, [str(c) for c in candidates])
    return f"; {hint}" if hint else ""


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

    __slots__ = ("sources", "types", "clauses", "definitions", "findings", "__weakref__")

    def __init__(self) -> None:
        self.findings: dict[int, tuple[Any, Any]] = {}
        self.definitions: dict[tuple, tuple] = {}
        self.sources: dict[Origin, Source] = {}
        self.types: dict[str, Type | None] = {}
        self.clauses: dict[int, tuple[Any, list[tuple[str, Any, str]]]] = {}


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


_PLAIN_LEAVES = frozenset({int, float, bool, type(None)})


def _source(
    origin: Origin, value: Any, entity: Any, service: Any, memo: _Memo | None = None
) -> Source:
    """The structured form of ``origin`` (its range found now, in the document)."""
    if memo is not None:
        try:
            found = memo.sources.get(origin)
        except TypeError:  # a path part that cannot be hashed: not memoised
            return _source(origin, value, entity, service)
        if found is None:
            found = memo.sources[origin] = _source(origin, value, entity, service)
        return found
    kind, detail = origin.kind, origin.detail
    type_name = input_name = call = copied = None
    if kind == "default":
        type_name = detail
        t = _type_named(service, detail)
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
    if (
        kind == "template"
        and _version(service) == "2.0"  # copy: is TOSCA 2.0
        and doc is not None
        and doc.value is not None
        and not _exists(doc.value, parts)
    ):
        # A TOSCA 2.0 ``copy``: the value was written on the copied template.
        copy = _copy_origin(doc, parts)
        if copy is not None:
            kind, copied, parts = "copy", copy[0], copy[1]
    where = doc.locate(parts) if doc is not None else None
    return Source(
        kind,
        origin.source,
        type_name,
        input_name,
        doc.name if doc else None,
        where.line if where is not None else None,
        where.column if where is not None else None,
        call=call,
        copied_from=copied,
        _doc=doc,
        _parts=parts,
    )


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
    return None if raw is _MISSING else bounded_text(raw, _TEXT, style="flow")


def _came_from_call(origin: Origin, entity: Any) -> bool:
    return isinstance(_parsed(_raw_at(origin), _service_of(entity)), Call)


def _hops_of(
    written: Any, value: Any, entity: Any, service: Any, seen: frozenset
) -> tuple[Hop, ...]:
    """The calls behind ``value``: the one ``written`` where its origin points, or ``value`` itself."""
    # An unevaluated call at the top stays unknown: the hops say where it
    # would read, never a value the load's own evaluation did not find.
    depth = len(seen) - 1  # explanations nested so far: hops are bounded across them
    if isinstance(written, Call):
        known = not isinstance(value, Call)
        return (
            _hop(written, value if known else None, known, entity, service, seen, depth, known),
        )
    if isinstance(value, Call):
        return (_hop(value, None, False, entity, service, seen, depth, False),)
    return ()


def _hop(
    call: Call,
    value: Any,
    known: bool,
    entity: Any,
    service: Any,
    seen: frozenset,
    depth: int,
    fill: bool = True,
) -> Hop:
    """One call and where it leads; ``fill``: an unknown value may be taken from
    where the call reads (not for a call the load left unevaluated)."""
    text = _call_text(call, service)
    name = call.name
    if depth >= MAX_HOPS:
        return Hop(name, text, value, known, detail=f"not followed: more than {MAX_HOPS} hops")
    if not fill:
        hop = _hop(call, value, known, entity, service, seen, depth, fill=True)
        if not hop.known or hop.value is value:
            return hop
        note = "the load left this call unevaluated (see the findings)"
        return Hop(
            hop.function,
            hop.call,
            value,
            False,
            hop.target,
            hop.source,
            f"{hop.detail}; {note}" if hop.detail else note,
            hop.hops,
            hop.explanation,
        )
    if name == "get_input":
        return _input_hop(call, text, value, known, service)
    if name in ("get_property", "get_attribute"):
        return _property_hop(call, text, value, known, entity, service, seen, depth)
    hops = tuple(
        _argument(arg, f"argument {i + 1}", entity, service, seen, depth)
        for i, arg in enumerate(call.args)
    )
    return Hop(name, text, value, known, hops=hops)


def _call_text(call: Call, service: Any) -> str:
    """The call as the template's dialect writes it (1.x: bare names), one line."""
    from toskit.functions import unparse

    version = _version(service)
    if version == "2.0":
        return _short(call)
    try:
        text = _yaml_flow(unparse(call, version))
        return text if len(text) <= _TEXT else text[: _TEXT - 3] + "..."
    except ToskitError:
        return _short(call)


def _argument(arg: Any, label: str, entity: Any, service: Any, seen: frozenset, depth: int) -> Hop:
    """A call's argument: a literal, a call followed in turn, or a list/map holding calls."""
    from toskit.functions import contains_call

    if isinstance(arg, Call):
        return _with_found_value(_hop(arg, None, False, entity, service, seen, depth + 1))
    if isinstance(arg, (list, Mapping)) and contains_call(arg):
        items = arg.items() if isinstance(arg, Mapping) else enumerate(arg)
        inner = tuple(
            _argument(item, f"{label}[{key}]", entity, service, seen, depth) for key, item in items
        )
        return Hop("argument", label, arg, False, hops=inner)
    return Hop("argument", label, arg, True)


def _with_found_value(hop: Hop) -> Hop:
    if hop.explanation is not None:
        return Hop(
            hop.function,
            hop.call,
            hop.explanation.value,
            True,
            hop.target,
            hop.source,
            hop.detail,
            hop.hops,
            hop.explanation,
        )
    return hop


def _input_hop(call: Call, text: str, value: Any, known: bool, service: Any) -> Hop:
    args = call.args
    name = args[0] if args and isinstance(args[0], str) else None
    if name is None or service is None:
        return Hop("get_input", text, value, known, detail="input not known")
    definitions, doc, parts = _input_definitions(service)
    definition = definitions.get(name) if definitions is not None else None
    given = service.inputs.get(name, NO_DEFAULT)
    if definition is None:
        return Hop(
            "get_input",
            text,
            value,
            known,
            target=f"input {name}",
            detail="no such input is declared",
        )
    default = (
        definition.get("default", definition.get("value", NO_DEFAULT))
        if isinstance(definition, Mapping)
        else NO_DEFAULT
    )
    where = doc.locate((*parts, name)) if doc is not None else None
    source = Source(
        "input",
        f"input: {name}",
        input_name=name,
        file=doc.name if doc else None,
        line=where.line if where is not None else None,
        column=where.column if where is not None else None,
        _doc=doc,
        _parts=(*parts, name),
    )
    notes = []
    if isinstance(definition, Mapping) and definition.get("type"):
        notes.append(f"type {definition.get('type')}")
    notes.append("default " + (_short(default) if default is not NO_DEFAULT else "none"))
    if given is NO_DEFAULT:
        notes.append("no value given (supplied at deployment)")
    elif default is not NO_DEFAULT and given == default:
        notes.append(f"value {_short(given)} (the default)")
    else:
        notes.append(f"value given {_short(given)}")
    if not known and given is not NO_DEFAULT:
        value, known = given, True
    return Hop(
        "get_input",
        text,
        value,
        known,
        target=f"input {name}",
        source=source,
        detail=", ".join(notes),
    )


def _input_definitions(service: Any) -> tuple[Mapping | None, Any, tuple]:
    doc = getattr(service, "document", None)
    root = getattr(doc, "value", None)
    if not isinstance(root, Mapping):
        return None, None, ()
    for section in ("topology_template", "service_template"):
        inputs = _walk_raw(root, (section, "inputs"))
        if isinstance(inputs, Mapping):
            return inputs, doc, (section, "inputs")
    return None, doc, ()


_ENTITY_WORDS = {"SELF", "SOURCE", "TARGET", "HOST"}


def _property_hop(
    call: Call,
    text: str,
    value: Any,
    known: bool,
    entity: Any,
    service: Any,
    seen: frozenset,
    depth: int,
) -> Hop:
    args = list(call.args)
    if not args or not all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in args):
        return Hop(
            call.name, text, value, known, detail="arguments computed at run time: not followed"
        )
    node = (
        entity if getattr(entity, "kind", "") == "node" else getattr(entity, "node", None) or entity
    )
    first = args[0]
    if first == "SELF":
        target: Any = node
    elif first == "HOST":
        target = _host_of(node)
    elif first in ("SOURCE", "TARGET"):
        return Hop(
            call.name,
            text,
            value,
            known,
            detail=f"{first} is known only in a relationship: not followed",
        )
    else:
        target = service.node_templates.get(first) if service is not None else None
    rest = args[1:]
    if target is None:
        return Hop(call.name, text, value, known, detail=f"no node template {first!r}")
    if rest[:1] == ["CAPABILITY"]:
        rest = rest[1:]
        target = getattr(target, "capabilities", {}).get(rest[0]) if rest else None
        rest = rest[1:]
    elif rest[:1] == ["RELATIONSHIP"] or rest[:1] == ["REQUIREMENT"]:
        return Hop(call.name, text, value, known, detail="relationship paths are not followed")
    elif _version(service) == "2.0":
        pass  # 2.0 names a capability or requirement only after CAPABILITY / RELATIONSHIP
    elif (
        len(rest) > 1
        and rest[0] in getattr(target, "capabilities", {})
        and rest[0] not in target.properties
    ):
        target, rest = target.capabilities[rest[0]], rest[1:]
    elif (
        len(rest) > 1 and getattr(target, "requirement", None) and rest[0] not in target.properties
    ):
        req = target.requirement(rest[0])
        if req is not None and req.target is not None:
            target, rest = req.target, rest[1:]
    if target is None or not rest:
        return Hop(call.name, text, value, known, detail="the path names no property: not followed")
    label = (
        _entity_label(target)
        + f", {'attribute' if call.name == 'get_attribute' else 'property'} {format_path(rest)}"
    )
    key = (id(target), tuple(rest))
    if key in seen:
        return Hop(
            call.name,
            text,
            value,
            known,
            target=label,
            detail="a loop: this value is being explained already",
        )
    if call.name == "get_attribute" and (not rest or rest[0] not in target.properties):
        return Hop(
            call.name,
            text,
            value,
            known,
            target=label,
            detail="an attribute: its value is known only at run time",
        )
    try:
        inner = explain_entity(target, tuple(rest), service, seen)
    except ExplainError as exc:
        return Hop(call.name, text, value, known, target=label, detail=str(exc))
    if not known:
        value, known = inner.value, not isinstance(inner.value, Call)
    return Hop(call.name, text, value, known, target=label, source=inner.source, explanation=inner)


def _host_of(node: Any) -> Any:
    req = node.requirement("host") if hasattr(node, "requirement") else None
    return req.target if req is not None else None


def _entity_label(entity: Any) -> str:
    owner = getattr(entity, "node", None)
    if entity.kind == "capability" and owner is not None:
        return f"node {owner.name}, capability {entity.name}"
    return f"{entity.kind} {entity.name}"


def _definition(entity: Any, rel: tuple) -> tuple[PropertyDefinition | None, str | None]:
    """The definition in effect at ``rel`` (a data type's field, an entry schema), and its type name."""
    definitions = entity.property_definitions
    pdef = definitions.get(rel[0]) if isinstance(rel[0], str) else None
    type_name = pdef.type if pdef else None
    schema = pdef.schema if pdef else None
    owner = entity.type
    value_type = entity._value_type
    for part in rel[1:]:
        if schema is None:
            return None, None
        vt = value_type(schema.type, owner) if schema.type else None
        if isinstance(vt, Type) and vt.base_primitive is None and isinstance(part, str):
            pdef = vt.properties.get(part)
            owner = vt
            schema = pdef.schema if pdef else None
            type_name = pdef.type if pdef else None
        elif schema.entry_schema is not None:
            schema = schema.entry_schema
            pdef = None
            type_name = schema.type
        else:
            return None, None
    if pdef is None and schema is not None:
        return PropertyDefinition(name=str(rel[-1]), type=schema.type, schema=schema), type_name
    return pdef, type_name


_CHECK_CODES = {"constraint": "constraint-violation", "validation": "validation-failed"}


def _checks(
    pdef: PropertyDefinition | None,
    value: Any,
    findings: tuple[Diagnostic, ...],
    memo: _Memo | None = None,
) -> tuple[Check, ...]:
    if pdef is None:
        return ()
    schema = pdef.schema
    if not schema.constraints and schema.validation is None:
        return ()
    cached = memo.clauses.get(id(schema)) if memo is not None else None
    if cached is None:
        raw: list[tuple[str, Any]] = [("constraint", c) for c in schema.constraints]
        if schema.validation is not None:
            raw.append(("validation", schema.validation))
        # The schema is kept with its texts, so its id stays unique.
        cached = (schema, [(k, c, bounded_text(c, _TEXT, style="flow")) for k, c in raw])
        if memo is not None:
            memo.clauses[id(schema)] = cached
    clauses = cached[1]
    out = []
    for kind, clause, text in clauses:
        failed = [d for d in findings if d.code == _CHECK_CODES[kind]]
        if isinstance(value, Call):
            out.append(Check(kind, text, "not checked", "the value is known only at deployment"))
        elif failed:
            # Several clauses share a code: a failure is matched to its clause by text when it can be.
            own = [d for d in failed if _clause_named(d.message, clause)] or (
                failed if len(clauses) == 1 else []
            )
            out.append(
                Check(
                    kind, text, "violated" if own else "satisfied", own[0].message if own else None
                )
            )
        else:
            out.append(Check(kind, text, "satisfied"))
    return tuple(out)


def _clause_named(message: str, clause: Any) -> bool:
    if isinstance(clause, Mapping):
        return any(str(k) in message for k in clause)
    return False


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else bounded_text(value, _TEXT, style="flow")
    return text if len(text) <= _TEXT else text[: _TEXT - 3] + "..."


def _plain(value: Any) -> Any:
    """JSON-ready data: calls as text, other odd leaves as their text."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def explanation_json(explanation: Explanation) -> str:
    """:meth:`Explanation.to_dict` as indented JSON."""
    return json.dumps(explanation.to_dict(), indent=2, default=str)


# -- toskit blame -----------------------------------------------------------


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
                f"{_yaml_flow(v)} ({_blame_layer(o, v, entity, template)})"
                for v, o in row.stack[:-1]
            ]
            if was:
                comment += "; was " + ", ".join(reversed(was))
            out.append(
                "  " * len(parts) + f"{_yaml_scalar(parts[-1])}: {_yaml_flow(value)}  # {comment}"
            )
            written.append(parts[:-1])
    return "\n".join(out) + "\n"


def _blame_layer(origin: Origin, value: Any, entity: Any, template: Any) -> str:
    """``label [(kind)] file:line`` of one layer, as :class:`Source` reads it."""
    source = _source(origin, value, entity, template)
    if source.kind == "template" and _came_from_call(origin, entity):
        source = _replace_kind(source, "function", None)
    text = _label(source)
    if source.copied_from:
        text += f" of {source.copied_from}"
    return f"{text} {source.where}"


def _yaml_scalar(key: Any) -> str:
    return _yaml_flow(key if isinstance(key, (str, int)) else str(key))


def _yaml_flow(value: Any) -> str:
    """``value`` as one line of YAML flow style (a call as its text, quoted)."""
    import yaml

    text = yaml.safe_dump(_plain(value), default_flow_style=True, width=1 << 30, allow_unicode=True)
    text = text.strip()
    if text.endswith("\n..."):
        text = text[: -len("\n...")]
    elif text.endswith("..."):
        text = text[:-3].rstrip()
    return text.replace("\n", " ")


# -- the command line (toskit explain / toskit blame; toskit.cli imports this on use) --


def _load_for_cli(path: str, err: Any, command: str) -> Any:
    from toskit.tosca import load

    try:
        return load(path)
    except ToskitError as exc:
        err.write(f"toskit {command}: {exc}\n")
        return None


def run_explain(args: Any, out: Any, err: Any) -> int:
    """``toskit explain FILE PATH [--format text|json]``: 0, or 2 when it cannot run."""
    template = _load_for_cli(args.file, err, "explain")
    if template is None:
        return 2
    try:
        explanation = explain(template, args.path)
    except ExplainError as exc:
        err.write(f"toskit {exc}\n")
        return 2
    if args.format == "json":
        out.write(explanation_json(explanation) + "\n")
    else:
        out.write(str(explanation) + "\n")
    return 0


def run_blame(args: Any, out: Any, err: Any) -> int:
    """``toskit blame FILE [--node NAME]``: 0, or 2 when it cannot run."""
    template = _load_for_cli(args.file, err, "blame")
    if template is None:
        return 2
    try:
        text = blame(template, args.node)
    except ExplainError as exc:
        err.write(f"toskit {exc}\n")
        return 2
    out.write(text)
    return 0
