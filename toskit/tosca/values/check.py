"""Validate merged property values against their TOSCA definitions.

Runs after merging: ``missing-property``,
``unknown-property`` (with did-you-mean), ``type-mismatch`` (naming the
TOSCA type and the actual value), ``constraint-violation`` (1.x
constraints), with entry paths for ``entry_schema``/``key_schema``. Every
problem is reported in one pass.

A :class:`CheckContext` knows the entity (for messages such as
``node template 'db': …``), the document path prefix of its properties
(for ``Diagnostic.path``) and the origins recorded by the merge (for
locations). Rules: docs/tosca.md ("Validation").

>>> describe("abc"), describe(5), describe(True), describe({})
("string 'abc'", 'integer 5', 'boolean true', 'map {}')
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from typing import Any

from toskit.diagnostics import Diagnostic, Related, format_path, suggest
from toskit.functions import contains_call
from toskit.functions.regex import BoundedPattern, RegexRejected, compile_bounded
from toskit.functions.registry import CONSTRAINT_OPERATORS  # not .validation: #31 start-up
from toskit.plain import bounded_text, describe  # describe re-exported: one for all packages
from toskit.records import field, record, replace
from toskit.sentinels import NO_DEFAULT
from toskit.source import YamlDocument
from toskit.source.subjects import subject_of
from toskit.tosca.types.definitions import PropertyDefinition, SchemaDef, Type
from toskit.tosca.types.scalars import ScalarTypes
from toskit.tosca.values.resolve import Origin, Resolution, ValueType

__all__ = [
    "CheckContext",
    "check_value",
    "compare_constraint",
    "declared_here",
    "describe",
    "quick_clean",
    "report_unknown",
]

_YAML11_BOOLEANS = {"yes", "no", "on", "off", "y", "n"}
NULL_TYPES = frozenset({"null", "nil"})
_SCALAR = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(\S+)\s*\Z", re.ASCII)


@record(slots=True)  # one per entity: no instance dict
class CheckContext:
    """What the checker needs to word and place a diagnostic."""

    label: str  # "node template 'db'"
    path_prefix: tuple[Hashable, ...]  # document path of the properties map
    doc: YamlDocument | None  # the document of the entity
    anchor: tuple[Hashable, ...]  # parts of the properties map (or the entity)
    origins: Mapping[tuple, Origin]
    value_type: Callable[[str | None, Type | None], ValueType]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    reported: set = field(default_factory=set)
    # Runs 2.0 validation clauses: (ctx, value, [(clause, where written)], rel, primitive).
    validator: Callable[..., None] | None = None
    owner: Any = None  # the entity whose properties these are (for $get_property: [SELF, …])
    # False for a template an orchestrator selects or substitutes (directives
    # ``select``/``substitute``): its required values need not be written.
    require_values: bool = True
    # What the checked values are called in messages ("property", "attribute");
    # "" when the label already names the value (an input).
    noun: str = "property"
    # The load's TOSCA 2.0 scalar types (toskit.tosca.types.scalars.ScalarTypes).
    scalars: ScalarTypes | None = None
    # TOSCA 2.0 timestamps are RFC 3339 strings (no space separator).
    rfc3339_timestamps: bool = False
    # While a check_value walk runs (``walking``), the inner values (fields,
    # entries, keys) of the value being checked wait in ``queued``: the
    # checks append them there instead of recursing.
    walking: bool = field(default=False, repr=False, compare=False)
    queued: list[tuple[Any, Any, Any, tuple, bool]] = field(
        default_factory=list, repr=False, compare=False
    )
    # Per data type, by its id, its fields' checks (_field_checks: value
    # types, schemas), shared by the checks of one load (``None``: built on
    # each use).
    field_types: dict[int, Any] | None = field(default=None, repr=False, compare=False)
    # Plain leaves that satisfied a definition's 1.x constraints, by
    # (id(constraints), primitive, class, value) -> constraints (kept alive,
    # so the id stays unique), shared by the checks of one load (``None``:
    # no memo). The same leaf under the same clauses passes again.
    clean_constraints: dict[tuple, Any] | None = field(default=None, repr=False, compare=False)
    # Per data type, by its id, the plan of :func:`_clean_data` (the quick
    # "nothing to report" check of a whole data value), shared by the checks
    # of one load (``None``: no quick check, the walk decides).
    data_plans: dict[int, Any] | None = field(default=None, repr=False, compare=False)
    # The load's values merged by shape (id -> (value, shape): the merge's
    # resolve.merge_written_map), for quick_clean_shaped.
    shaped: dict[int, tuple] | None = field(default=None, repr=False, compare=False)

    def where(self, rel: tuple) -> tuple[YamlDocument | None, tuple[Hashable, ...]]:
        """The document and node parts best describing relative path ``rel``."""
        for i in range(len(rel), -1, -1):
            origin = self.origins.get(rel[:i])
            if origin is not None:
                return origin.doc, (*origin.parts, *rel[i:])
        return self.doc, self.anchor

    def report(
        self,
        code: str,
        rel: tuple,
        message: str,
        *,
        hint: str | None = None,
        at: tuple | None = None,
        at_key: bool = False,
        severity: str = "error",
        related: tuple[Related, ...] = (),
        misspelt: str | None = None,
        candidates: Iterable[str] = (),
    ) -> Diagnostic:
        """Add (and return) a finding about the value at ``rel``.

        It is located where the value is written (``at`` instead of ``rel``
        for a finding about a child the value lacks: ``at=rel[:-1]`` with
        ``at_key``, the parent's key); its subject is the value's place in
        the entity (``Subject(kind, name, rel)``), wherever it is written.
        ``misspelt``/``candidates``: a did-you-mean with its fix
        (:meth:`~toskit.source.YamlDocument.diagnostic`).
        """
        doc, parts = self.where(rel if at is None else at)
        # The value's path in the entity (the structured Diagnostic.parts), which
        # may differ from where it is written (``parts``: a default in a type).
        full = (*self.path_prefix, *rel)
        text = f"{self.label}: {message}"
        subject = subject_of(full)
        related = (*related, *self._taken_from_elsewhere(rel if at is None else at, doc, parts))
        if code in _ABOUT_THE_VALUE:
            related = (*related, *self.overridden_default(rel))
        if doc is None:
            if hint is None and misspelt:
                found_hint = suggest(misspelt, candidates)
                hint = found_hint.hint() if found_hint is not None else None
            made = Diagnostic(
                severity, code, text, hint=hint, parts=full, subject=subject, related=related
            )
        else:
            made = doc.diagnostic(
                severity,
                code,
                text,
                parts,
                hint=hint,
                at_key=at_key,
                path=format_path(full),
                subject=subject,
                related=related,
                misspelt=misspelt,
                candidates=candidates,
            )
            made = replace(made, parts=full)
        self.diagnostics.append(made)
        return made

    def _taken_from_elsewhere(
        self, rel: tuple, doc: YamlDocument | None, parts: tuple[Hashable, ...]
    ) -> tuple[Related, ...]:
        """A value written elsewhere (a type's default, an input) is located
        there; the entity that took it is then a related location."""
        if self.doc is None or (doc is self.doc and parts[: len(self.anchor)] == self.anchor):
            return ()
        source = next(
            (
                o.source
                for i in range(len(rel), -1, -1)
                if (o := self.origins.get(rel[:i])) is not None
            ),
            None,
        )
        if source is None or source == "template":
            return ()
        return (
            self.doc.related(
                f"{self.label} takes this value from {source}", self.anchor, at_key=True
            ),
        )

    def overridden_default(self, rel: tuple) -> tuple[Related, ...]:
        """The type default that the template's value at ``rel`` overrides, as
        a related location of a finding about that value (none otherwise)."""
        if not isinstance(self.owner, Resolution):
            return ()
        return _default_overridden(self.owner, rel)

    def related_at(self, label: str, rel: tuple, *, at_key: bool = False) -> Related:
        """A :class:`~toskit.diagnostics.Related` location: where ``rel`` is written."""
        doc, parts = self.where(rel)
        if doc is None:
            return Related(label, None, None, None)
        return doc.related(label, parts, at_key=at_key)


# Findings about a value itself (its type, constraints, validation clause):
# when a template's value overrides a type default, the default is related.
_ABOUT_THE_VALUE = frozenset({"type-mismatch", "constraint-violation", "validation-failed"})


def _default_overridden(res: Resolution, rel: tuple) -> tuple[Related, ...]:
    """The type default that the template's value at ``rel`` (or the written
    value holding it) overrides, as a related location; none when the value
    is not the template's or overrides no default written in a document."""
    for i in range(len(rel), 0, -1):
        below = res.overridden.get(rel[:i])
        if below is None:
            continue
        # The value's origin, or the written map or list holding it.
        origin = next((o for j in range(i, -1, -1) if (o := res.origins.get(rel[:j]))), None)
        if origin is None or origin.source != "template":
            return ()
        for _, layer in reversed(below):
            if layer.source.startswith("default") and layer.doc is not None:
                label = f"type default overridden here ({layer.source})"
                return (layer.doc.related(label, layer.parts),)
        return ()
    return ()


def _dotted(rel: tuple) -> str:
    return format_path(rel)


def _subject(ctx: CheckContext, rel: tuple) -> str:
    """``property 'a.b': `` (or the context's noun), the start of a message."""
    if ctx.noun:
        return f"{ctx.noun} '{_dotted(rel)}': "
    return f"field '{_dotted(rel[1:])}': " if len(rel) > 1 else ""


def check_value(
    ctx: CheckContext,
    value: Any,
    schema: SchemaDef | None,
    vt: ValueType,
    rel: tuple,
    may_call: bool = True,
) -> None:
    """Check ``value`` at relative path ``rel``, and everything inside it.

    A value that still holds a function call is skipped (it could not be
    evaluated statically). ``may_call=False`` says the caller knows there is
    none, which saves searching every level.

    The walk is iterative: the checks of one level queue the inner values
    (fields, entries, keys) in ``ctx.queued`` instead of recursing, and the
    outer call checks them depth first in written order (a call made while
    a walk runs queues its value too). Values nested to the loader's depth bound therefore need
    no raised recursion limit.
    """
    if _plainly_valid(ctx, value, schema, vt):
        return  # a plain leaf with nothing more to check (no walk to set up)
    if not may_call and _quick_pass(ctx, value, schema, vt):
        return  # a value with nothing to report, decided in one pass (bench B1)
    if ctx.walking:
        ctx.queued.append((value, schema, vt, rel, may_call))
        return
    ctx.walking = True
    queued = ctx.queued = []
    try:
        # Neither this value nor a queued one is plainly valid (every
        # queueing site asks _plainly_valid first): no second asking.
        _check_level(ctx, value, schema, vt, rel, may_call)
        if queued:  # a map or list: its inner values, depth first in written order
            stack = queued[::-1]
            while stack:
                queued = ctx.queued = []
                _check_level(ctx, *stack.pop())
                if queued:
                    stack.extend(reversed(queued))
    finally:
        ctx.walking = False
        ctx.queued = []


def quick_clean(ctx: CheckContext, value: Any, schema: SchemaDef | None, vt: ValueType) -> bool:
    """Whether :func:`check_value` would report nothing about ``value`` (which
    holds no call), decided without its walk: a plain leaf that is plainly
    valid, or (with ``ctx.data_plans``, no validator) a data value or a list
    of plain leaves that the quick pass clears (bench B1). ``False`` means
    "check it", not "invalid". Reads only what is the same for every entity
    of a load (the memos, ``value_type``, ``require_values``, ``validator``),
    so one context serves them all.
    """
    return _plainly_valid(ctx, value, schema, vt) or _quick_pass(ctx, value, schema, vt)


def _quick_pass(ctx: CheckContext, value: Any, schema: SchemaDef | None, vt: ValueType) -> bool:
    """The data value and list part of :func:`quick_clean`."""
    return (
        ctx.data_plans is not None
        and ctx.validator is None
        and (schema is None or (not schema.constraints and schema.fixed is NO_DEFAULT))
        and (
            _clean_data(ctx, value, vt, 0)
            if value.__class__ is dict and vt.__class__ is Type
            else value.__class__ is list and vt == "list" and _clean_list(ctx, value, schema)
        )
    )


_PLAIN_LEAVES = frozenset({str, int, float, bool})
# What _matches answers for a plain leaf's class in the common primitive
# types, read in one lookup (bench B1: ~11,000 leaves per 1,000 nodes).
_LEAF_MATCHES: dict[tuple[type, Any], bool] = {
    (cls, prim): (
        cls is str
        if prim == "string"
        else cls is int
        if prim == "integer"
        else cls in (int, float)
        if prim == "float"
        else cls is bool
    )
    for cls in (str, int, float, bool)
    for prim in ("string", "integer", "float", "boolean")
}
MAX_CLEAN_CONSTRAINTS = 10_000  # entries of CheckContext.clean_constraints per load
# Read by the merge (toskit.tosca.model.entities) with plain_leaf_type.
LEAF_MATCHES = _LEAF_MATCHES


def plain_leaf_type(schema: SchemaDef | None, vt: ValueType) -> str | None:
    """The primitive ``vt`` when, under ``schema``, a leaf ``v`` with
    ``LEAF_MATCHES.get((v.__class__, vt))`` true is plainly valid for a
    context without validator (:func:`_plainly_valid`: no constraint, no
    fixed value, no validation clause, a common primitive); else ``None``."""
    if vt.__class__ is not str or vt not in _QUICK_PRIMITIVES:
        return None
    if schema is not None and (
        schema.constraints or schema.fixed is not NO_DEFAULT or schema.validation is not None
    ):
        return None
    return vt


def _plainly_valid(ctx: CheckContext, value: Any, schema: SchemaDef | None, vt: ValueType) -> bool:
    """A leaf of a primitive type that has it, under a definition with nothing
    more to check (no constraint, no fixed value, no validation clause): the
    common case, decided without the general walk (bench B1). ``False``
    means "check it fully", not "invalid"."""
    if vt.__class__ is not str or ctx.validator is not None:
        return False
    cls = value.__class__
    matched = _LEAF_MATCHES.get((cls, vt))
    if matched is None:
        matched = cls in _PLAIN_LEAVES and _matches(value, vt, ctx.rfc3339_timestamps)
    if not matched:
        return False
    if schema is None:
        return True
    if schema.fixed is not NO_DEFAULT:
        return False
    constraints = schema.constraints
    return not constraints or (
        ctx.clean_constraints is not None
        and (id(constraints), vt, value.__class__, value) in ctx.clean_constraints
    )


_QUICK_PRIMITIVES = frozenset({"string", "integer", "float", "boolean"})
# Data values nested deeper than this are left to the walk (no deep recursion).
_MAX_QUICK_DEPTH = 16


class _DataPlan:
    """What :func:`_clean_data` asks of a value of one data type, its fields
    grouped by how a present, non-null value is decided (the order of the
    tests does not matter: the answer is one boolean, and a field that fails
    sends the whole value to the walk)."""

    __slots__ = ("vt", "keys", "needed", "bare", "constrained", "data", "lists", "others", "quick")

    def __init__(self, ctx: CheckContext, vt: Type) -> None:
        self.vt = vt  # kept alive with its entry: its id stays unique
        self.keys = frozenset(vt.properties)
        self.needed: list[str] = []  # _lacks_value but for require_values
        self.bare: list[tuple[str, str]] = []  # (name, primitive)
        self.constrained: list[tuple[str, str, tuple]] = []  # (name, primitive, clauses)
        self.data: list[tuple[str, Type]] = []  # nested data values
        self.lists: list[tuple[str, SchemaDef]] = []  # primitive lists
        self.others: list[str] = []  # fields this pass does not decide (when written)
        self.quick = vt.base_primitive is None
        for name, fdef, schema, fvt, bare in _field_checks(ctx, vt):
            if fdef.required and not fdef.default_layers and fdef.type not in NULL_TYPES:
                self.needed.append(name)
            plain = schema.fixed is NO_DEFAULT and schema.validation is None
            if fvt is None:
                continue  # untyped or unknown (reported elsewhere): not checked
            if bare and fvt in _QUICK_PRIMITIVES:
                self.bare.append((name, fvt))
            elif (
                fvt.__class__ is str
                and fvt in _QUICK_PRIMITIVES
                and plain
                and all(
                    clause.__class__ is dict
                    and len(clause) == 1
                    and next(iter(clause)) in _QUICK_CONSTRAINTS
                    for clause in schema.constraints
                )
            ):
                self.constrained.append((name, fvt, schema.constraints))
            elif fvt.__class__ is Type and fvt.base_primitive is None and plain:
                if schema.constraints:
                    self.others.append(name)
                else:
                    self.data.append((name, fvt))
            elif fvt == "list" and plain and not schema.constraints:
                self.lists.append((name, schema))
            else:
                self.others.append(name)


def _data_plan(ctx: CheckContext, vt: Type) -> _DataPlan:
    """The :class:`_DataPlan` of ``vt``, made once per check context (kept in
    ``ctx.data_plans`` when the context keeps plans)."""
    plans = ctx.data_plans
    plan = plans.get(id(vt)) if plans is not None else None
    if plan is None:
        plan = _DataPlan(ctx, vt)
        if plans is not None:
            plans[id(vt)] = plan
    return plan


def _clean_data(ctx: CheckContext, value: dict, vt: Type, depth: int) -> bool:
    """Whether :func:`_check_level` would report nothing about data value
    ``value`` of type ``vt`` nor about anything inside it (no call in it, no
    validator): a quick pass for the common shapes (primitive leaves, their
    1.x constraints, nested data values, lists of plain leaves), in which
    each field costs a lookup and a test. ``False`` means "walk it" (a
    finding, or a shape this pass does not decide), never "invalid"; the
    walk then makes the findings, in its order.
    """
    plan = _data_plan(ctx, vt)
    if not plan.quick or depth > _MAX_QUICK_DEPTH or not value.keys() <= plan.keys:
        return False  # e.g. a key no field declares: reported by the walk
    get = value.get
    if ctx.require_values:
        for name in plan.needed:
            if get(name) is None:
                return False  # missing-property
    leaf_matches = _LEAF_MATCHES
    for name, prim in plan.bare:
        item = get(name)
        if item is not None and not leaf_matches.get((item.__class__, prim)):
            return False
    for name, prim, clauses in plan.constrained:
        item = get(name)
        if item is not None and (
            not leaf_matches.get((item.__class__, prim))
            or not _clauses_hold(ctx, item, prim, clauses)
        ):
            return False
    for name, ftype in plan.data:
        item = get(name)
        if item is not None and (
            item.__class__ is not dict or not _clean_data(ctx, item, ftype, depth + 1)
        ):
            return False
    for name, schema in plan.lists:
        item = get(name)
        if item is not None and (item.__class__ is not list or not _clean_list(ctx, item, schema)):
            return False
    for name in plan.others:  # noqa: SIM110 - a loop: all() over a generator is slower here
        if get(name) is not None:
            return False
    return True


def quick_clean_shaped(
    ctx: CheckContext, value: dict, schema: SchemaDef | None, vt: Type, shape: Any
) -> bool:
    """:func:`quick_clean` of data value ``value`` that
    :func:`~toskit.tosca.values.resolve.merge_written_map` merged by
    ``shape``: the fields the shape fills from defaults (the same values for
    every template of the shape) are tested once per shape, then only the
    written leaves, each as :func:`_clean_data` tests it. ``True`` only where
    :func:`quick_clean` answers ``True`` (bench B1's ``connection``);
    ``False`` means "ask it"."""
    if (
        ctx.data_plans is None
        or ctx.validator is not None
        or (schema is not None and (schema.constraints or schema.fixed is not NO_DEFAULT))
        or shape.vt is not vt
    ):
        return False
    program = shape.checks.get(ctx.require_values, _UNMADE)
    if program is _UNMADE:
        program = shape.checks[ctx.require_values] = _shaped_program(ctx, vt, shape, 0)
    if program is None:
        return False
    leaf_matches = _LEAF_MATCHES
    for parents, tests in program:
        level = value
        for name in parents:
            level = level[name]
        for name, prim, clauses, needed in tests:
            item = level[name]
            if item is None:
                if needed:
                    return False  # missing-property
                continue
            if not leaf_matches.get((item.__class__, prim)):
                return False
            if clauses is not None and not _clauses_hold(ctx, item, prim, clauses):
                return False
    return True


_UNMADE: Any = object()


def _shaped_program(
    ctx: CheckContext, vt: Type, shape: Any, depth: int, parents: tuple = ()
) -> list[tuple[tuple, list[tuple]]] | None:
    """The tests :func:`_clean_data` runs on the written leaves of a value
    merged by ``shape``, grouped by the map that holds them:
    ``[(names from the value to that map, [(leaf, primitive, clauses or
    None, needed)])]``; ``None`` when :func:`_clean_data` answers ``False``
    for every value of the shape (a field filled from defaults fails, a
    needed field is not written, a written map is not a data value) or the
    shape is past its depth."""
    plan = _data_plan(ctx, vt)
    if not plan.quick or depth > _MAX_QUICK_DEPTH:
        return None
    bare = dict(plan.bare)
    constrained = {name: (prim, clauses) for name, prim, clauses in plan.constrained}
    data = dict(plan.data)
    lists = dict(plan.lists)
    others = set(plan.others)
    needed = set(plan.needed) if ctx.require_values else set()
    written = {*shape.leaves, *(name for name, _, _ in shape.maps)}
    # The fields filled from defaults: the same for every value of the shape.
    for name, item in shape.template.items():
        if name in written:
            continue
        if item is None:
            if name in needed:
                return None
            continue
        if name in bare:
            if not _LEAF_MATCHES.get((item.__class__, bare[name])):
                return None
        elif name in constrained:
            prim, clauses = constrained[name]
            if not _LEAF_MATCHES.get((item.__class__, prim)) or not _clauses_hold(
                ctx, item, prim, clauses
            ):
                return None
        elif name in data or name in lists or name in others:
            return None  # a default leaf where a map or a list goes, or undecided
    if any(name not in shape.template for name in needed):
        return None  # a needed field no value gives
    tests: list[tuple] = []
    for name in shape.leaves:
        if name in bare:
            tests.append((name, bare[name], None, name in needed))
        elif name in constrained:
            tests.append((name, *constrained[name], name in needed))
        elif name in data or name in lists or name in others or name in needed:
            # Not a leaf's place (or a needed field the pass does not type):
            # only null passes here (_LEAF_MATCHES has no None primitive).
            tests.append((name, None, None, name in needed))
    program: list[tuple[tuple, list[tuple]]] = [(parents, tests)] if tests else []
    for name, _, sub in shape.maps:
        ftype = data.get(name)
        if ftype is None or sub.vt is not ftype:
            return None  # a written map where no data value goes (or another type)
        inner = _shaped_program(ctx, ftype, sub, depth + 1, (*parents, name))
        if inner is None:
            return None
        program.extend(inner)
    return program


def _clean_list(ctx: CheckContext, value: list, schema: SchemaDef | None) -> bool:
    """Whether :func:`_check_level` would report nothing about ``value``, of
    primitive type ``list`` under ``schema`` (no constraints, no fixed
    value): no entry schema, or one of a plain primitive type, unconstrained,
    that every entry has."""
    entry = schema.entry_schema if schema is not None else None
    if entry is None:
        return True
    plans = ctx.data_plans
    found = plans.get(id(entry)) if plans is not None else None
    if found is None:
        evt = ctx.value_type(entry.type, None)
        quick = (
            evt in _QUICK_PRIMITIVES
            and not entry.constraints
            and entry.fixed is NO_DEFAULT
            and entry.validation is None
        )
        found = (entry, evt if quick else None)
        if plans is not None:
            plans[id(entry)] = found  # kept alive with its entry: its id stays unique
    prim = found[1]
    if prim is None:
        return False
    leaf_matches = _LEAF_MATCHES
    for item in value:  # noqa: SIM110 - a loop: all() over a generator is slower here
        if not leaf_matches.get((item.__class__, prim)):
            return False
    return True


def _clauses_hold(ctx: CheckContext, item: Any, prim: str, constraints: tuple) -> bool:
    """Whether every 1.x clause of ``constraints`` (single-key maps of
    operators in _QUICK_CONSTRAINTS, checked when the plan was made) holds
    for plain leaf ``item`` of primitive ``prim``: what
    :func:`_check_constraints` reports nothing for (``None``, a clause that
    cannot apply, is left to it)."""
    memo = ctx.clean_constraints
    if memo is not None and (id(constraints), prim, item.__class__, item) in memo:
        return True
    for clause in constraints:
        ((op, arg),) = clause.items()
        if op == "in_range" and arg.__class__ is list and len(arg) == 2:
            # compare_constraint's in_range, where _comparable is the value itself.
            low, high = arg
            try:
                if not (item >= low and (high == "UNBOUNDED" or item <= high)):
                    return False
            except TypeError:
                return False
        elif compare_constraint(op, item, arg, prim) is not True:
            return False
    if memo is not None and len(memo) < MAX_CLEAN_CONSTRAINTS:
        memo[(id(constraints), prim, item.__class__, item)] = constraints
    return True


def _check_level(
    ctx: CheckContext,
    value: Any,
    schema: SchemaDef | None,
    vt: ValueType,
    rel: tuple,
    may_call: bool,
) -> None:
    """One level of :func:`check_value` for a value that is not plainly
    valid (inner values that are not are queued by it)."""
    if may_call:
        if not contains_call(value):
            may_call = False
        elif not isinstance(value, (dict, list)) or not _is_data_value(value, vt):
            return
    if vt is None or value is None:
        # Untyped, an unknown type (already reported), or null: a null value
        # is "no value" (callers report it when the property is required).
        return
    prim = vt if isinstance(vt, str) else vt.base_primitive
    if isinstance(vt, Type):
        if vt.base_primitive == "scalar":
            if not _check_scalar(ctx, value, vt, rel):
                return
        elif vt.base_primitive is not None:
            # A list or map type's own entry_schema/key_schema apply unless the
            # property definition writes its own.
            entries = _with_type_schemas(schema, vt)
            if not _check_primitive(ctx, value, vt.base_primitive, entries, rel, type_name=vt.name):
                return
            for t in vt.chain:
                _check_constraints(
                    ctx, value, t.schema.constraints, vt.base_primitive, rel, t.schema
                )
        elif not _check_data(ctx, value, vt, rel, may_call) or may_call:
            return  # a data value holding a call: its fields were checked, not the whole
    elif not _check_primitive(ctx, value, vt, schema, rel):
        return
    if schema is not None and schema.constraints:
        _check_constraints(ctx, value, schema.constraints, prim, rel, schema)
    if (
        schema is not None
        and schema.fixed is not NO_DEFAULT
        and not contains_call(schema.fixed)
        and compare_constraint("equal", value, schema.fixed, prim) is False
    ):
        ctx.report(
            "fixed-value",
            rel,
            f"{_subject(ctx, rel)}value {_show(value)} changes the fixed value "
            f"{_show(schema.fixed)} of its definition",
            hint="leave the property out: its definition fixes its value",
        )
    if ctx.validator is not None:
        clauses = []
        if schema is not None and schema.validation is not None:
            clauses.append((schema.validation, schema))
        if isinstance(vt, Type):
            # The type's own clause, then every ancestor's, nearest ancestor last.
            chain = vt.chain
            for t in [chain[-1], *chain[:-1]]:
                if t.schema.validation is not None:
                    clauses.append((t.schema.validation, t.schema))
        if clauses:
            # A 2.0 scalar value is read in its own type (its units), by name:
            # the evaluation asks the template's ``scalar_class`` hook.
            scalar = vt.name if isinstance(vt, Type) and vt.base_primitive == "scalar" else None
            ctx.validator(ctx, value, clauses, rel, scalar or prim)


def _with_type_schemas(schema: SchemaDef | None, vt: Type) -> SchemaDef | None:
    entry = schema.entry_schema if schema is not None else None
    key = schema.key_schema if schema is not None else None
    for t in reversed(vt.chain):
        entry = entry or t.schema.entry_schema
        key = key or t.schema.key_schema
    if schema is not None and entry is schema.entry_schema and key is schema.key_schema:
        return schema
    return SchemaDef(schema.type if schema else vt.name, entry_schema=entry, key_schema=key)


def _is_data_value(value: Any, vt: ValueType) -> bool:
    """A data-typed map (not itself a call): its call-free fields are still checked."""
    return isinstance(value, dict) and isinstance(vt, Type) and vt.base_primitive is None


def _check_scalar(ctx: CheckContext, value: Any, vt: Type, rel: tuple) -> bool:
    """A TOSCA 2.0 scalar type: ``<number> <unit>``, a unit it declares, its number type."""
    match = _SCALAR.match(value) if isinstance(value, str) else None
    if match is None:
        ctx.report(
            "type-mismatch",
            rel,
            f"{_subject(ctx, rel)}expected {vt.name} ('<number> <unit>'), got {describe(value)}",
        )
        return False
    number, unit = match.group(1), match.group(2)
    if ctx.scalars is None:
        return True
    info = ctx.scalars.scalar_class(vt)
    if info.units and unit not in info.units:
        ctx.report(
            "type-mismatch",
            rel,
            f"{_subject(ctx, rel)}unknown unit '{unit}' for {vt.name}",
            misspelt=unit,
            candidates=sorted(info.units),
        )
        return False
    if info.data_type == "integer" and not re.fullmatch(r"[-+]?[0-9]+", number):
        ctx.report(
            "type-mismatch",
            rel,
            f"{_subject(ctx, rel)}{vt.name} takes whole numbers, got {value!r}",
        )
        return False
    number_type = ctx.scalars.number_data_type(vt)
    if number_type is not None:
        # The number must also be a valid value of the declared number type.
        amount: Any = int(number) if info.data_type == "integer" else float(number)
        if not _plainly_valid(ctx, amount, None, number_type):
            ctx.queued.append((amount, None, number_type, rel, False))
    return True


def _check_data(ctx: CheckContext, value: Any, vt: Type, rel: tuple, may_call: bool = True) -> bool:
    """Fields of a data value; ``False`` when it is not a map at all."""
    if not isinstance(value, dict):
        ctx.report(
            "type-mismatch",
            rel,
            f"{_subject(ctx, rel)}expected {vt.name}, got {describe(value)}",
        )
        return False
    fields = vt.properties
    folded: set[str] = set()  # missing fields already reported with their typo
    for key in value if not value.keys() <= fields.keys() else ():
        if key in fields or _complex_key(ctx, key, rel):
            continue
        missing = [name for name, fdef in fields.items() if _lacks_value(ctx, value, name, fdef)]
        typo_of = report_unknown(
            ctx,
            (*rel, key),
            f"unknown property '{_dotted((*rel, key))}' (not declared by {vt.name})",
            fields,
            missing,
        )
        if typo_of is not None:
            folded.add(typo_of)
    plan = ctx.field_types.get(id(vt)) if ctx.field_types is not None else None
    if plan is None:
        plan = _field_checks(ctx, vt)
        if ctx.field_types is not None:
            ctx.field_types[id(vt)] = plan
            ctx.field_types[~id(vt)] = vt  # kept alive: its id stays unique
    bare_ok = ctx.validator is None
    for name, fdef, schema, fvt, bare in plan:
        if name in value and (value[name] is not None or not fdef.required):
            item = value[name]
            if bare and bare_ok and _LEAF_MATCHES.get((item.__class__, fvt)):
                continue  # what _plainly_valid answers, without the call
            if not _plainly_valid(ctx, item, schema, fvt):
                ctx.queued.append((item, schema, fvt, (*rel, name), may_call))
        elif _lacks_value(ctx, value, name, fdef) and name not in folded:
            # At the key of the value that lacks it (issue #28), not its first field.
            ctx.report(
                "missing-property",
                (*rel, name),
                f"required property '{_dotted((*rel, name))}' has no value",
                at=rel,
                at_key=True,
                related=declared_here(fdef),
            )
    return True


def _field_checks(
    ctx: CheckContext, vt: Type
) -> list[tuple[str, PropertyDefinition, SchemaDef, ValueType, bool]]:
    """Per field of data type ``vt``: its definition, schema, value type, and
    whether it is *bare* (a primitive type with no constraint or fixed value:
    a plain leaf that has the type is plainly valid). Once per type and load
    (``CheckContext.field_types``)."""
    plan = []
    for name, fdef in vt.properties.items():
        schema, fvt = fdef.schema, ctx.value_type(fdef.type, vt)
        bare = fvt.__class__ is str and schema.fixed is NO_DEFAULT and not schema.constraints
        plan.append((name, fdef, schema, fvt, bare))
    return plan


def _lacks_value(ctx: CheckContext, value: Mapping, name: str, fdef: PropertyDefinition) -> bool:
    """A required field of a data value with no value and no default (``missing-property``)."""
    return (
        (name not in value or (value[name] is None and fdef.required))
        and fdef.required
        and not fdef.default_layers
        and fdef.type not in NULL_TYPES
        and ctx.require_values
    )


def declared_here(pdef: PropertyDefinition) -> tuple[Related, ...]:
    """Where ``pdef`` is declared (its name, in the type that declares it), for
    ``related``; none when it was not written in a document."""
    schema = pdef.schema
    if schema.doc is None or not schema.parts:
        return ()
    where = f" in {pdef.defined_in}" if pdef.defined_in else ""
    return (
        schema.doc.related(f"'{pdef.name}' is declared here{where}", schema.parts, at_key=True),
    )


def report_unknown(
    ctx: CheckContext,
    rel: tuple,
    message: str,
    declared: Iterable[str],
    missing: Collection[str],
) -> str | None:
    """Report the unknown property at ``rel`` (its key is ``rel[-1]``).

    When its closest declared name is a required property that has no value
    at the same level (``missing``), the two are one typo (``pasword`` for
    ``password``): one ``unknown-property`` names both, and the name is
    returned so that the caller does not also report it as
    ``missing-property``. Otherwise the did-you-mean is the hint.
    """
    key = str(rel[-1])
    names = tuple(declared)
    found = suggest(key, names)
    suggestion = found.best if found is not None else None
    if suggestion is not None and suggestion in missing:
        # Two findings that name each other (issue #28): the unknown key, with
        # the rename as its fix, and the required property that has no value,
        # at the key that lacks it. A property table shows both rows.
        twin = (*rel[:-1], suggestion)
        unknown_at = ctx.related_at(
            f"'{key}', not declared: '{suggestion}' misspelt?", rel, at_key=True
        )
        missing_at = ctx.related_at(
            f"where the required '{suggestion}' is missing", rel[:-1], at_key=True
        )
        ctx.report(
            "unknown-property",
            rel,
            message,
            hint=f"did you mean '{suggestion}'? ('{suggestion}' is required and has no value)",
            at_key=True,
            related=(missing_at,),
            misspelt=key,
            candidates=(suggestion,),
        )
        pdef = declared.get(suggestion) if isinstance(declared, Mapping) else None
        ctx.report(
            "missing-property",
            twin,
            f"required {ctx.noun or 'property'} '{_dotted(twin)}' has no value",
            hint=f"'{key}' is written instead (not declared: '{suggestion}' misspelt?)",
            at=rel[:-1],
            at_key=True,
            related=(
                unknown_at,
                *(declared_here(pdef) if isinstance(pdef, PropertyDefinition) else ()),
            ),
        )
        return suggestion
    ctx.report(
        "unknown-property",
        rel,
        message,
        at_key=True,
        misspelt=key,
        candidates=names,
    )
    return None


def _complex_key(ctx: CheckContext, key: Any, rel: tuple) -> bool:
    """A map or list used as a key (not a call): ``type-mismatch`` at the key."""
    if not isinstance(key, (Mapping, tuple)):
        return False
    ctx.report(
        "type-mismatch",
        (*rel, key),
        f"{_subject(ctx, rel)}a key must be a string, number or boolean, "
        f"got {'map' if isinstance(key, Mapping) else 'list'} {key!r}",
        at_key=True,
    )
    return True


def _check_primitive(
    ctx: CheckContext,
    value: Any,
    prim: str,
    schema: SchemaDef | None,
    rel: tuple,
    *,
    type_name: str | None = None,
) -> bool:
    """Report a mismatch; returns whether the value has the right type."""
    ok = _matches(value, prim, ctx.rfc3339_timestamps)
    if not ok:
        hint = None
        if prim == "boolean" and isinstance(value, str) and value.lower() in _YAML11_BOOLEANS:
            hint = (
                f"TOSCA reads YAML 1.2, where {value!r} is a string, not a boolean; "
                "write true or false"
            )
        ctx.report(
            "type-mismatch",
            rel,
            f"{_subject(ctx, rel)}expected {type_name or prim}, got {describe(value)}",
            hint=hint,
        )
        return False
    if prim == "list" and isinstance(value, list) and schema is not None and schema.entry_schema:
        entry = schema.entry_schema
        evt = ctx.value_type(entry.type, None)
        for index, item in enumerate(value):
            if not _plainly_valid(ctx, item, entry, evt):
                ctx.queued.append((item, entry, evt, (*rel, index), False))
    elif prim == "map" and isinstance(value, dict) and schema is not None:
        for k in value:
            _complex_key(ctx, k, rel)
        if schema.key_schema is not None:
            key = schema.key_schema
            kvt = ctx.value_type(key.type, None)
            for k in value:
                if not _plainly_valid(ctx, k, key, kvt):
                    ctx.queued.append((k, key, kvt, (*rel, k), False))
        if schema.entry_schema is not None:
            entry = schema.entry_schema
            evt = ctx.value_type(entry.type, None)
            for k, item in value.items():
                if not _plainly_valid(ctx, item, entry, evt):
                    ctx.queued.append((item, entry, evt, (*rel, k), False))
    return True


def _matches(value: Any, prim: str, rfc3339: bool = False) -> bool:
    if prim == "string":
        return isinstance(value, str)
    if prim == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if prim == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if prim == "boolean":
        return isinstance(value, bool)
    if prim in NULL_TYPES:
        return value is None
    if prim == "scalar":
        return isinstance(value, str) and _SCALAR.match(value) is not None
    if prim == "list":
        return isinstance(value, list)
    if prim == "map":
        return isinstance(value, dict)
    # toskit.values parses the kinds below: imported on the first such value,
    # not at start-up (a check without them never needs it, #31).
    import toskit.values as special

    if prim == "timestamp":
        return special.parse_timestamp(value, rfc3339=rfc3339) is not None
    if prim == "version":
        return not isinstance(value, bool) and special.parse_version(value) is not None
    if prim == "range":
        return special.parse_range(value) is not None
    if prim.startswith("scalar-unit."):
        return isinstance(value, str) and special.parse_scalar_unit(value, prim) is not None
    if prim == "bytes":
        return special.parse_bytes(value) is not None
    return True


# -- 1.x constraints ---------------------------------------------------------


def _comparable(value: Any, prim: str | None) -> Any:
    """``value`` read in the primitive type, for ordering comparisons."""
    if (
        prim is not None
        and prim not in ("version", "timestamp")
        and not prim.startswith("scalar-unit.")
    ):
        return value  # integers, floats, strings...: compared as they are
    # toskit.values imported on use, not at start-up (#31).
    import toskit.values as special

    if prim and prim.startswith("scalar-unit."):
        return special.parse_scalar_unit(value, prim)
    if prim == "version":
        return special.parse_version(value)
    if prim == "timestamp":
        return special.parse_timestamp(value)
    if prim is None and isinstance(value, str):
        # An untyped string may still be a scalar-unit (``0 MB``).
        scalar = special.parse_scalar_unit(value)
        if scalar is not None:
            return scalar
    return value


def _length(value: Any) -> int | None:
    return len(value) if isinstance(value, (str, list, Mapping)) else None


def compare_constraint(op: str, value: Any, arg: Any, prim: str | None) -> bool | None:
    """Evaluate one clause; ``None`` when the clause cannot apply to the value."""
    try:
        if op in ("equal",):
            return _comparable(value, prim) == _comparable(arg, prim)
        if op in ("greater_than", "greater_or_equal", "less_than", "less_or_equal"):
            a, b = _comparable(value, prim), _comparable(arg, prim)
            if a is None or b is None or isinstance(a, bool) or isinstance(b, bool):
                return None
            return {
                "greater_than": a > b,
                "greater_or_equal": a >= b,
                "less_than": a < b,
                "less_or_equal": a <= b,
            }[op]
        if op == "in_range":
            if not isinstance(arg, list) or len(arg) != 2:
                return None
            a = _comparable(value, prim)
            lo = _comparable(arg[0], prim)
            hi = arg[1]
            above = a >= lo
            below = True if hi == "UNBOUNDED" else a <= _comparable(hi, prim)
            return bool(above and below)
        if op == "valid_values":
            if not isinstance(arg, list):
                return None
            return any(_comparable(value, prim) == _comparable(v, prim) for v in arg)
        if op in ("length", "min_length", "max_length"):
            n = _length(value)
            if n is None or not isinstance(arg, int):
                return None
            return {"length": n == arg, "min_length": n >= arg, "max_length": n <= arg}[op]
        if op == "pattern":
            if not isinstance(value, str) or not isinstance(arg, str):
                return None
            compiled = _bounded_pattern(arg)
            if isinstance(compiled, RegexRejected):
                return None  # reported where the constraint is checked
            return compiled.fullmatch(value) is not None
    except (TypeError, ValueError, re.error, OverflowError):
        return None
    return None


# The 1.x constraint operators: the one list lives in toskit.functions
# (CONSTRAINT_OPERATORS); ``schema`` (1.3, a constraint on a value's schema)
# is checked here only.
KNOWN_CONSTRAINTS = frozenset({*CONSTRAINT_OPERATORS, "schema"})
# The operators _clauses_hold decides (``pattern`` and ``schema`` are left to the walk).
_QUICK_CONSTRAINTS = KNOWN_CONSTRAINTS - {"pattern", "schema"}


def _check_constraints(
    ctx: CheckContext,
    value: Any,
    constraints: tuple,
    prim: str | None,
    rel: tuple,
    schema: SchemaDef,
) -> None:
    before = len(ctx.diagnostics)
    for index, clause in enumerate(constraints):
        if not (clause.__class__ is dict or isinstance(clause, Mapping)) or len(clause) != 1:
            _bad_constraint(
                ctx, schema, index, "a constraint must be a single-key map (operator: argument)"
            )
            continue
        ((op, arg),) = clause.items()
        if op not in KNOWN_CONSTRAINTS:
            _bad_constraint(
                ctx,
                schema,
                index,
                f"unknown constraint operator '{op}'",
                misspelt=str(op),
            )
            continue
        if op == "schema":
            continue  # an external JSON/XML schema: not checked (no network, no extra dependency)
        result = compare_constraint(op, value, arg, prim)
        if result is None:
            if op == "pattern" and isinstance(arg, str):
                problem = _bounded_pattern(arg)
                if isinstance(problem, RegexRejected):
                    _bad_constraint(ctx, schema, index, f"pattern: {problem}", hint=problem.hint)
            continue
        if not result:
            ctx.report(
                "constraint-violation",
                rel,
                f"{_subject(ctx, rel)}value {_show(value)} does not satisfy {op}: {_show(arg)}",
            )
    memo = ctx.clean_constraints
    if (
        memo is not None
        and len(ctx.diagnostics) == before
        and value.__class__ in _PLAIN_LEAVES
        and len(memo) < MAX_CLEAN_CONSTRAINTS
    ):
        memo[(id(constraints), prim, value.__class__, value)] = constraints


@functools.lru_cache(maxsize=256)
def _bounded_pattern(text: str) -> BoundedPattern | RegexRejected:
    """``text`` compiled for matching, or why it is refused.

    Through ``toskit.functions.regex.compile_bounded``: a template's pattern
    is untrusted, and Python's backtracking ``re`` would run for hours on
    ``(a+)+$``. A refused pattern is an ``invalid-constraint`` (with the
    rewrite hint), never a hang. Cached: a pattern is checked once per
    process, not once per value.
    """
    try:
        return compile_bounded(text)
    except RegexRejected as exc:
        return exc


def _bad_constraint(
    ctx: CheckContext,
    schema: SchemaDef,
    index: int,
    message: str,
    hint: str | None = None,
    misspelt: str | None = None,
) -> None:
    key = (id(schema), index)
    if key in ctx.reported or schema.doc is None:
        return
    ctx.reported.add(key)
    ctx.diagnostics.append(
        schema.doc.diagnostic(
            "error",
            "invalid-constraint",
            message,
            (*schema.parts, "constraints", index),
            hint=hint,
            misspelt=misspelt,
            candidates=KNOWN_CONSTRAINTS,
        )
    )


def _show(value: Any) -> str:
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, list, Mapping)):
        # Built within a bound (#37): a list aliasing a huge string 3,000 times
        # would be gigabytes of text, cut only later by the message's abbreviation.
        return bounded_text(value, _SHOWN_MAX, style="repr")
    return repr(value)


_SHOWN_MAX = 2_000
