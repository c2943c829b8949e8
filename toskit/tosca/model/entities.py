"""Templates of a topology: node templates, capabilities, relationship
templates, groups and policies, with merged and checked properties.

The entities phase of the loading pipeline (:mod:`toskit.tosca.load.loader`),
functions over a :class:`~toskit.tosca.load.context.EntitiesContext`:
:func:`build_entities` resolves each template's type (``unknown-type``
recovers against the kind's root), applies ``copy``, merges its properties
through the layers (:mod:`toskit.tosca.values.resolve`) and queues the checks
(:mod:`toskit.tosca.values.check`) that :func:`check_pending` runs once calls are
evaluated; :func:`build_capabilities` does the same for a node's
capabilities. The phase's per-load state (parsed defaults, plans, the
queue of pending checks) is one :class:`MergeCaches`, which the loader
creates when the phase starts and drops when the load ends.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Mapping
from typing import Any, TypeGuard, TypeVar

from toskit import functions
from toskit.functions import Call
from toskit.source import YamlDocument
from toskit.tosca.load.context import EntitiesContext
from toskit.tosca.model.copies import resolve_copies
from toskit.tosca.model.template import (
    CapabilityTemplate,
    EntityTemplate,
    GroupTemplate,
    NodeTemplate,
    PolicyTemplate,
)
from toskit.tosca.types.definitions import PropertyDefinition, Type
from toskit.tosca.values.check import (
    LEAF_MATCHES,
    NULL_TYPES,
    CheckContext,
    check_value,
    declared_here,
    describe,
    plain_leaf_type,
    quick_clean,
    quick_clean_shaped,
    report_unknown,
)
from toskit.tosca.values.evaluation import may_hold_calls, parse_value, validate_clauses
from toskit.tosca.values.resolve import (
    ABSENT,
    FieldPlan,
    Layer,
    Origin,
    Resolution,
    ValueType,
    copy_data,
    entry_data_type,
    field_plan,
    merge_layers,
    merge_property,
    merge_written_map,
    missing_default_fields,
    note_call,
)

E = TypeVar("E", bound=EntityTemplate)

# ``_tuple_new(Origin, (a, b, c))`` is ``Origin(a, b, c)`` without the named
# tuple's Python-level ``__new__`` (~2x cheaper; a few per template: #31).
_tuple_new = tuple.__new__

__all__ = [
    "build_capabilities",
    "build_entities",
    "capability_definitions",
    "check_pending",
    "MergeCaches",
    "is_abstract",
    "resolve_properties",
]


def build_entities(
    ctx: EntitiesContext,
    topology: Mapping,
    tparts: tuple[Hashable, ...],
    section: str,
    kind: str,
    cls: type[E],
    label: str,
) -> dict[str, E]:
    """The templates of one topology section (``node_templates``…), by name."""
    raw = topology.get(section)
    out: dict[str, E] = {}
    items: list[tuple[Any, Any, tuple[Hashable, ...]]] = []
    if isinstance(raw, Mapping):
        items = [(name, value, (*tparts, section, name)) for name, value in raw.items()]
    elif isinstance(raw, list):  # 1.x policies: a list of single-key maps
        for index, entry in enumerate(raw):
            if isinstance(entry, Mapping) and len(entry) == 1:
                ((name, value),) = entry.items()
                items.append((name, value, (*tparts, section, index, name)))
    copied = resolve_copies(ctx, [(str(name), value, parts) for name, value, parts in items], label)
    for name, value, parts in items:
        if not _is_map(value):
            continue  # reported by the keyname check
        value = copied.get(str(name), value)
        out[str(name)] = _entity(ctx, str(name), value, parts, kind, cls, f"{label} '{name}'")
    return out


def _resolve_type(
    ctx: EntitiesContext, kind: str, raw: Mapping, parts: tuple[Hashable, ...], label: str
) -> tuple[Type, bool]:
    type_name = raw.get("type")
    found = ctx.registry.lookup(kind, type_name) if type_name is not None else None
    if found is not None:
        return found, True
    if ctx.registry.is_opaque(type_name):
        pass  # a type from a profile toskit does not have: no error, nothing to check
    elif type_name is None and "type" not in raw:
        ctx.diags.append(
            ctx.doc.diagnostic("error", "missing-type", f"{label} has no type", parts, at_key=True)
        )
    elif not isinstance(type_name, str):
        pass  # ``type:`` empty or not a name: reported by the keyname checks
    else:
        ctx.diags.append(
            ctx.doc.diagnostic(
                "error",
                "unknown-type",
                f"{label}: unknown {kind} type '{type_name}'",
                (*parts, "type"),
                hint=ctx.registry.unknown_hint(kind, type_name),
                misspelt=str(type_name),
                candidates=ctx.registry.fix_candidates(kind, type_name),
            )
        )
    root = ctx.registry.roots.get(kind)
    return (root if root is not None else Type(str(type_name), kind)), False


def _entity(
    ctx: EntitiesContext,
    name: str,
    raw: Mapping,
    parts: tuple[Hashable, ...],
    kind: str,
    cls: type[E],
    label: str,
) -> E:
    # The known types, with whether they are checked, once per kind and name
    # and load (bench B1: 5,000 templates of one type).
    type_name, memo = raw.get("type"), ctx.merge.entity_types
    hit = memo.get((kind, type_name)) if type_name.__class__ is str else None
    if hit is not None:
        etype, checked = hit
        known = True
    else:
        etype, known = _resolve_type(ctx, kind, raw, parts, label)
        # Inherited from a profile toskit does not have: not "unknown".
        checked = known and not ctx.registry.derives_from_opaque(etype)
        if known and type_name.__class__ is str:
            memo[(kind, type_name)] = (etype, checked)
    definitions = etype.properties if known else {}
    directives = raw.get("directives")
    resolution = resolve_properties(
        ctx,
        label,
        etype,
        definitions,
        raw.get("properties"),
        parts,
        check_unknown=checked,
        # Not is_abstract(raw): the directives are read once (bench B1).
        require_values=not (
            isinstance(directives, list) and any(d in _ABSTRACT for d in directives)
        ),
    )
    kwargs: dict[str, Any] = {}
    if cls is GroupTemplate:
        members = raw.get("members")
        kwargs["members"] = (
            [m for m in members if isinstance(m, str)] if isinstance(members, list) else []
        )
    if cls is PolicyTemplate:
        targets = raw.get("targets")
        kwargs["targets"] = (
            [t for t in targets if isinstance(t, str)] if isinstance(targets, list) else []
        )
    attributes = raw.get("attributes")
    if checked and attributes is not None:  # (None: _check_attributes has nothing to do)
        _check_attributes(ctx, label, etype, attributes, (*parts, "attributes"))
    desc = raw.get("description")
    entity = cls(
        name,
        etype,
        definitions=definitions,
        resolution=resolution,
        value_type=ctx.value_type,
        description=desc if isinstance(desc, str) else None,
        metadata=raw.get("metadata"),
        parts=parts,
        type_known=known,
        **kwargs,
    )
    if isinstance(entity, NodeTemplate):
        entity.directives = (
            [d for d in directives if isinstance(d, str)] if isinstance(directives, list) else []
        )
        count = raw.get("count", 1)
        entity.count = (
            count if isinstance(count, int) and not isinstance(count, bool) and count >= 0 else 1
        )
        entity.raw = raw
    return entity


def _check_attributes(
    ctx: EntitiesContext, label: str, etype: Type, raw: Any, parts: tuple[Hashable, ...]
) -> None:
    """Attribute assignments: declared names, and values of the declared type.

    Properties count as attributes too (TOSCA reflects every property as
    an attribute). A value that is a function call is not checked.
    """
    if not _is_map(raw):
        return
    declared: dict[str, Any] = {}
    for t in etype.chain:
        section = t.definition.get("attributes")
        if isinstance(section, Mapping):
            for aname, adef in section.items():
                declared[str(aname)] = (t, adef)
    for key, value in raw.items():
        if key in declared:
            t, adef = declared[key]
            if not isinstance(adef, Mapping) or adef.get("type") is None:
                continue
            at: tuple[Hashable, ...] = (*parts, key)
            if _extended(ctx, value):
                # TOSCA 1.3 extended notation: {description: ..., value: ...}.
                value, at = value["value"], (*at, "value")
            tree = parse_value(ctx, value, ctx.doc, at)
            if functions.contains_call(tree):
                continue
            schema = ctx.registry.schema_def(
                adef, t.doc, (*t.parts, "attributes", key), t.prefix, []
            )
            check = CheckContext(
                label=label,
                path_prefix=parts,
                doc=ctx.doc,
                anchor=parts,
                origins={(key,): Origin("template", ctx.doc, at)},
                value_type=ctx.value_type,
                diagnostics=ctx.diags,
                reported=ctx.reported,
                scalars=ctx.scalars,
                rfc3339_timestamps=ctx.grammar.major == 2,
                noun="attribute",
            )
            check_value(check, tree, schema, ctx.value_type(schema.type, t), (key,), False)
        elif key not in etype.properties:
            ctx.diags.append(
                ctx.doc.diagnostic(
                    "error",
                    "unknown-attribute",
                    f"{label}: unknown attribute '{key}' (not declared by {etype.name})",
                    (*parts, key),
                    misspelt=str(key),
                    candidates=[*declared, *etype.properties],
                    at_key=True,
                )
            )


def _extended(ctx: EntitiesContext, value: Any) -> bool:
    """A TOSCA 1.x attribute assignment in extended notation (``{description, value}``)."""
    return (
        ctx.grammar.major == 1
        and isinstance(value, Mapping)
        and "value" in value
        and set(value) <= {"description", "value"}
    )


def resolve_properties(
    ctx: EntitiesContext,
    label: str,
    owner: Type | None,
    definitions: Mapping[str, PropertyDefinition],
    raw_props: Any,
    entity_parts: tuple[Hashable, ...],
    *,
    check_unknown: bool = True,
    doc: YamlDocument | None = None,
    props_parts: tuple[Hashable, ...] | None = None,
    require_values: bool = True,
) -> Resolution:
    """Merge and check one entity's properties (see :mod:`.resolve`, :mod:`.check`).

    ``entity_parts`` locate the entity (where a missing property is
    reported when nothing else fits); ``props_parts`` is the document
    path of its properties (default: ``entity_parts`` + ``properties``).
    """
    doc = doc or ctx.doc
    merge = ctx.merge
    res = Resolution()
    if raw_props is None and not definitions:
        # Nothing declared, nothing written (a capability without
        # properties): nothing to merge, check or report.
        res.origins[()] = Origin("template", doc, entity_parts)
        return res
    if props_parts is None:
        props_parts = (*entity_parts, "properties")
    has_props = _is_map(raw_props)
    anchor = props_parts if raw_props is not None else entity_parts
    res.origins[()] = _tuple_new(Origin, ("template", doc, anchor))
    v2 = ctx.grammar.major == 2
    # The entity's CheckContext is made when a finding or a check needs it:
    # a queued check takes ``spec`` (what makes it) and check_pending makes
    # it only for a value the quick pass does not clear (bench B1: none).
    check: CheckContext | None = None
    spec: CheckContext | tuple | None = None
    template_values: Mapping = raw_props if has_props else {}
    if raw_props is not None and not has_props:
        check = _check_context(ctx, label, doc, props_parts, anchor, res, require_values)
        check.report("type-mismatch", (), f"properties must be a map, got {describe(raw_props)}")
    names_1x = ctx.parsing.call_names_1x
    free = merge.call_free.get(id(doc))  # _call_free's memo, read here (once per template)
    parsed = (
        # No key or string of the document can start a call: nothing to parse.
        template_values
        if (free[1] if free is not None else _call_free(ctx, doc, v2, names_1x))
        else {
            # parse_value scans the same way first: plain data skips the call.
            key: parse_value(ctx, item, doc, (*props_parts, key))
            if may_hold_calls(item, v2, names_1x)
            else item
            for key, item in template_values.items()
        }
    )
    hooks = merge.hooks
    inputs_have_calls = ctx.inputs.has_calls
    entry = merge.property_plans.get((id(definitions), id(owner)))
    plans = entry[2] if entry is not None else _plans(ctx, definitions, owner, hooks)
    values, calls = res.values, res.calls
    origins, overridden = res.origins, res.overridden
    pending = merge.pending
    # Reported after the unknown names, which may be their typos.
    missing: dict[str, tuple[PropertyDefinition, ValueType]] = {}
    for pname, plan in plans:
        pdef, vt = plan.pdef, plan.vt
        item = parsed.get(pname, _NO_LEAF)
        written = item is not _NO_LEAF
        if written:
            value = _merge_written(
                plan,
                item,
                _tuple_new(Origin, ("template", doc, (*props_parts, pname))),
                res,
                hooks,
                owner,
            )
            if (
                (item is not template_values[pname] and functions.contains_call(item))
                or plan.defaults_call
                or inputs_have_calls
            ):
                calls = note_call(res, pname)
        else:
            value = plan.leaf
            if value is not _NO_LEAF:  # _merge_defaults' first case, inline (bench B1)
                origins[plan.key] = plan.leaf_origin
                if plan.below:
                    overridden[plan.key] = plan.below
                if (
                    plan.clean is True
                    and value is not None
                    and not plan.defaults_call
                    and not inputs_have_calls
                ):
                    # A default leaf checked clean for its type, no call: what
                    # the tests below decide for it (no call noted, nothing
                    # missing, no check queued), in one.
                    values[pname] = value
                    continue
            else:
                value = _merge_defaults(plan, res, hooks, owner)
            if plan.defaults_call or inputs_have_calls:
                calls = note_call(res, pname)
        if value is ABSENT or (value is None and pdef.required and pdef.type not in NULL_TYPES):
            if value is None:
                values[pname] = None
            if pdef.required and require_values:
                missing[pname] = (pdef, vt)
            continue
        values[pname] = value
        if written:
            if (
                plan.bare is not None
                and LEAF_MATCHES.get((value.__class__, plan.bare))
                and pname not in calls
            ):
                # A leaf of a plain primitive, nothing more to check: what
                # check_pending's quick pass would clear (no queued check).
                continue
        elif (
            plan.leaf is not _NO_LEAF
            and pname not in calls
            # leaf_is_clean's memo read here (a method call less per default).
            and (
                plan.clean
                if plan.clean is not None
                else plan.leaf_is_clean(
                    # What leaf_is_clean reads (the validator, the value types...).
                    check
                    or (
                        _check_context(ctx, label, doc, props_parts, anchor, res, True)
                        if v2
                        else merge.quick_context(ctx, True)
                    )
                )
            )
        ):
            # A default nobody overrides, checked once for its type (it is
            # the same value, definition and type for every template).
            continue
        if spec is None:
            spec = check or (
                (ctx, label, doc, props_parts, anchor, res, require_values)
                # The quick pass's shared context (TOSCA 1.x), for check_pending.
                + (None if v2 else merge.quick_context(ctx, require_values),)
            )
        # Checked after evaluation (calls first become values): see _check_all.
        pending.append((spec, res, pdef, vt))
    if missing or not parsed.keys() <= definitions.keys():
        if check is None:
            check = _check_context(ctx, label, doc, props_parts, anchor, res, require_values)
        if not parsed.keys() <= definitions.keys():
            _undeclared(ctx, check, res, parsed, definitions, missing, owner, check_unknown)
        for pdef, vt in missing.values():
            _report_missing(ctx, check, pdef, vt)
    return res


def _check_context(
    ctx: EntitiesContext,
    label: str,
    doc: YamlDocument,
    props_parts: tuple[Hashable, ...],
    anchor: tuple[Hashable, ...],
    res: Resolution,
    require_values: bool,
) -> CheckContext:
    """The CheckContext of one entity's properties (see :func:`resolve_properties`)."""
    merge = ctx.merge
    v2 = ctx.grammar.major == 2
    return CheckContext(
        label=label,
        path_prefix=props_parts,
        doc=doc,
        anchor=anchor,
        origins=res.origins,
        value_type=ctx.value_type,
        diagnostics=ctx.diags,
        reported=ctx.reported,
        validator=functools.partial(validate_clauses, ctx) if v2 else None,
        owner=res,
        require_values=require_values,
        scalars=ctx.scalars,
        rfc3339_timestamps=v2,
        field_types=merge.field_types,
        clean_constraints=merge.clean_constraints,
        data_plans=merge.data_plans,
    )


# A "$" written as an escape in a double-quoted scalar (YAML: \x, \u, \U).
_DOLLAR_ESCAPE = re.compile(r"\\(?:x|u00|U000000)24", re.IGNORECASE)


def _call_free(ctx: EntitiesContext, doc: YamlDocument, v2: bool, names_1x: frozenset[str]) -> bool:
    """Whether ``may_hold_calls`` is false for every value of ``doc`` (decided
    once per document and load, instead of scanning each template's values).

    It needs the document's keys (``YamlDocument.key_names``: all strings,
    known on the fast parse path; otherwise the answer is "maybe"). In TOSCA
    1.x a call is a one-key map whose key is a function name: none of the
    keys is one. In 2.0 a call, an escape (``$$``) and a call's key all
    start with ``$``: the text has none, not even as an escape.
    """
    memo = ctx.merge.call_free
    cached = memo.get(id(doc))
    if cached is None:
        keys = doc.key_names
        free = keys is not None and (
            ("$" not in doc.text and not _DOLLAR_ESCAPE.search(doc.text))
            if v2
            else names_1x.isdisjoint(keys)
        )
        # The document is kept with its entry, so its id stays unique in this load.
        cached = memo[id(doc)] = (doc, free)
    return cached[1]


def _merge_defaults(plan: _Plan, res: Resolution, hooks: _MergeHooks, owner: Type | None) -> Any:
    """The merged value of a property the template leaves out (its defaults)."""
    if plan.leaf is not _NO_LEAF:
        # Defaults alone with a scalar on top: the same for every template.
        res.origins[plan.key] = plan.leaf_origin
        if plan.below:
            res.overridden[plan.key] = plan.below
        return plan.leaf
    return merge_property(plan.pdef, None, plan.vt, res, hooks, owner)


def _merge_written(
    plan: _Plan,
    item: Any,
    origin: Origin,
    res: Resolution,
    hooks: _MergeHooks,
    owner: Type | None,
) -> Any:
    """The merged value of a property the template writes (``item``, at ``origin``)."""
    layer = (item, origin)
    cls = item.__class__
    if not plan.fixed_defaults or cls is Call:
        return merge_property(plan.pdef, layer, plan.vt, res, hooks, owner)
    if (
        not isinstance(item, (dict, list))
        or plan.entry is None
        and (cls is list or (cls is dict and not plan.data))
    ):
        # A scalar, or a list or map replaced whole, written over call-free
        # defaults: what merge_property gives (the template's value, copied;
        # the defaults overridden).
        res.origins[plan.key] = origin
        if plan.all_defaults:
            res.overridden[plan.key] = plan.all_defaults
        # copy_data's answer for a leaf, without the call (bench B1: most written values).
        return item if cls is not dict and cls is not list else copy_data(item)
    if (
        cls is dict
        and plan.data
        and not plan.defaults
        and isinstance(item, dict)
        and isinstance(plan.vt, Type)
    ):
        # A data value written as one map (bench B1's connection): by its shape.
        merged = merge_written_map(
            item, plan.vt, plan.key, origin, res, hooks, plan.shapes, hooks.shaped
        )
        if merged is not None:
            return merged
    # merge_property's own path for a written value, its lookups done.
    return merge_layers([*plan.defaults, layer], plan.vt, plan.key, res, hooks, entry=plan.entry)


def _undeclared(
    ctx: EntitiesContext,
    check: CheckContext,
    res: Resolution,
    parsed: Mapping[str, Any],
    definitions: Mapping[str, PropertyDefinition],
    missing: dict[str, tuple[PropertyDefinition, ValueType]],
    owner: Type | None,
    check_unknown: bool,
) -> None:
    """The written properties no definition declares: reported (``unknown-property``,
    which takes a missing required name it is a typo of out of ``missing``)
    and kept as written, inputs substituted."""
    doc, props_parts = check.doc, check.path_prefix
    for key, item in parsed.items():
        if key in definitions:
            continue
        if check_unknown:
            # A typo of a missing required name is one diagnostic, not two.
            typo_of = report_unknown(
                check,
                (key,),
                f"unknown property '{key}' (not declared by {owner.name if owner else 'its type'})",
                definitions,
                missing,
            )
            if typo_of is not None:
                del missing[typo_of]
        value, origin = ctx.inputs.resolve(item, Origin("template", doc, (*props_parts, key)))
        if functions.contains_call(value):
            note_call(res, str(key))
        res.values[key] = copy_data(value)
        res.origins[(key,)] = origin


def _report_missing(
    ctx: EntitiesContext, check: CheckContext, pdef: PropertyDefinition, vt: ValueType
) -> None:
    detail = ""
    if isinstance(vt, Type) and vt.base_primitive is None:
        missing = missing_default_fields(vt, ctx.value_type)
        if missing:
            detail = f" (no default for {', '.join(repr(m) for m in missing)} in {vt.name})"
    check.report(
        "missing-property",
        (pdef.name,),
        f"required property '{pdef.name}' has no value{detail}",
        at=(),
        at_key=True,  # the caret on the key that lacks it (issue #28)
        related=declared_here(pdef),  # and where the property is declared
    )


_NO_LEAF: Any = object()  # a plan's defaults do not give a plain leaf


class _Probe:
    """A validator stand-in that records whether it was asked to run."""

    __slots__ = ("called",)

    def __init__(self) -> None:
        self.called = False

    def __call__(self, *args: Any) -> None:
        self.called = True


class _Plan:
    """What every template with one property definition (and owner type) shares.

    Built once per load for each (definitions, owner) pair (bench B1: 5,000
    templates of one type): the value type, whether the defaults hold a
    call, and, when the defaults alone give a plain leaf (no map, list or
    call), that leaf with its origin and the defaults it overrides, so that
    a template leaving the property out costs a few dictionary stores. The
    leaf is checked once (:meth:`leaf_is_clean`); only a default that draws
    a diagnostic (or a 2.0 validation clause) is checked per template.
    """

    __slots__ = (
        "name",
        "key",
        "pdef",
        "vt",
        "defaults_call",
        "defaults",
        "data",
        "entry",
        "fixed_defaults",
        "all_defaults",
        "leaf",
        "leaf_origin",
        "below",
        "clean",
        "bare",
        "shapes",
    )

    def __init__(
        self,
        ctx: EntitiesContext,
        name: str,
        pdef: PropertyDefinition,
        vt: ValueType,
        owner: Type | None,
        hooks: _MergeHooks,
    ) -> None:
        self.name = name
        self.key = (pdef.name,)  # the merge's path of the property (merge_property's)
        self.pdef = pdef
        self.vt = vt
        self.leaf: Any = _NO_LEAF
        self.leaf_origin = Origin("", None, ())  # set with ``leaf``
        # ``(value, Origin)`` layers (resolve.Resolution.overridden).
        self.below: tuple[Layer, ...] = ()
        self.all_defaults: tuple[Layer, ...] = ()
        self.clean: bool | None = None
        # Shapes of written maps compiled for this property (resolve.merge_written_map).
        self.shapes: dict[tuple, Any] = {}
        # TOSCA 1.x (no validator): the primitive of a written leaf that
        # needs no check when its class matches it (check.plain_leaf_type).
        self.bare = plain_leaf_type(pdef.schema, vt) if ctx.grammar.major == 1 else None
        defaults = hooks.default_layers(pdef) if pdef.default_layers else []
        self.defaults = defaults
        # Whether a written map merges field by field, and the data type of
        # a list's or map's entries (resolve.entry_data_type).
        self.data = vt.__class__ is Type and vt.base_primitive is None
        self.entry = entry_data_type(pdef.schema, vt, owner, hooks)
        self.defaults_call = bool(defaults) and defaults_have_calls(ctx, pdef)
        # No default is itself a call (merge_layers would substitute it first).
        self.fixed_defaults = not any(v.__class__ is Call for v, _ in defaults)
        if not self.fixed_defaults:
            return
        self.all_defaults = tuple(defaults)
        if defaults:
            top, origin = defaults[-1]
            cls = top.__class__
            if cls is not dict and cls is not list:
                self.leaf, self.leaf_origin = top, origin
                self.below = self.all_defaults[:-1]

    def leaf_is_clean(self, check: CheckContext) -> bool:
        """Whether the default leaf passes its checks with no diagnostic (checked once)."""
        if self.clean is None:
            probe = CheckContext(
                label="",
                path_prefix=(),
                doc=None,
                anchor=(),
                origins={},
                value_type=check.value_type,
                diagnostics=[],
                reported=set(),
                validator=_Probe() if check.validator is not None else None,
                scalars=check.scalars,
                rfc3339_timestamps=check.rfc3339_timestamps,
            )
            check_value(probe, self.leaf, self.pdef.schema, self.vt, self.key, False)
            # A 2.0 validation clause may read the template ($get_property: SELF).
            asked = isinstance(probe.validator, _Probe) and probe.validator.called
            self.clean = not probe.diagnostics and not asked
        return self.clean


def _plans(
    ctx: EntitiesContext,
    definitions: Mapping[str, PropertyDefinition],
    owner: Type | None,
    hooks: _MergeHooks,
) -> list[tuple[str, _Plan]]:
    """The plans of ``definitions`` as seen from ``owner``, by name (once per load)."""
    value_type = ctx.value_type
    plans = [
        (pname, _Plan(ctx, pname, pdef, value_type(pdef.type, owner), owner, hooks))
        for pname, pdef in definitions.items()
    ]
    # The definitions and owner are kept with their entry, so the ids stay unique.
    ctx.merge.property_plans[(id(definitions), id(owner))] = (definitions, owner, plans)
    return plans


# -- capabilities ----------------------------------------------------------


def capability_definitions(
    ctx: EntitiesContext, node_type: Type, cap_name: str
) -> tuple[Type | None, dict[str, PropertyDefinition]]:
    """The capability type and effective property definitions of one capability of a node type."""
    key = (node_type.name, cap_name)
    cached = ctx.merge.cap_defs.get(key)
    if cached is not None:
        return cached
    cap_type: Type | None = None
    written: list[tuple[Type, Mapping]] = []  # (node type, capability definition), root first
    for t in node_type.chain:
        caps = t.definition.get("capabilities")
        cdef = caps.get(cap_name) if isinstance(caps, Mapping) else None
        if isinstance(cdef, str):
            cdef = {"type": cdef}
        if not isinstance(cdef, Mapping):
            continue
        written.append((t, cdef))
        if cdef.get("type") is not None:
            # The nearest written type is the one in effect (a refinement narrows it).
            cap_type = ctx.registry.lookup("capability", cdef["type"], t.prefix) or cap_type
    defs: dict[str, PropertyDefinition] = dict(cap_type.properties) if cap_type else {}
    for t, cdef in written:
        refinements = cdef.get("properties")
        if not isinstance(refinements, Mapping):
            continue
        for pname, praw in refinements.items():
            if isinstance(pname, str):
                parts = (*t.parts, "capabilities", cap_name, "properties", pname)
                defs[pname] = ctx.registry.property_definition(
                    t, pname, praw, defs.get(pname), parts, []
                )
    result = (cap_type, defs)
    ctx.merge.cap_defs[key] = result
    return result


def build_capabilities(ctx: EntitiesContext, node: NodeTemplate) -> None:
    raw = node.raw
    assigned = raw.get("capabilities") if _is_map(raw) else None
    if not _is_map(assigned):
        assigned = {}
    known = node.type_known
    node_type, node_parts, cap_defs = node.type, node.parts, ctx.merge.cap_defs
    capabilities, value_type = node.capabilities, ctx.value_type
    for cap_name in node_type.capabilities:
        # capability_definitions' cache read here (bench B1: every node).
        cached = cap_defs.get((node_type.name, cap_name))
        cap_type, defs = (
            cached if cached is not None else capability_definitions(ctx, node_type, cap_name)
        )
        araw = assigned.get(cap_name)
        cparts = (*node_parts, "capabilities", cap_name)
        if araw is None and not defs:
            # Nothing declared, nothing written (tosca.capabilities.Node on
            # every node): what resolve_properties returns for it, directly.
            res = Resolution()
            res.origins[()] = _tuple_new(Origin, ("template", ctx.doc, node_parts))
        else:
            abstract = is_abstract(raw)
            label = f"node template '{node.name}' capability '{cap_name}'"
            # Assigned or not, a capability's required properties need values
            # (TOSCA 2.0 conformance: an unassigned required property is an error).
            written = _is_map(araw)
            props = araw.get("properties") if _is_map(araw) else None
            anchor = cparts if written else node.parts
            res = resolve_properties(
                ctx,
                label,
                cap_type,
                defs,
                props,
                anchor,
                props_parts=(*cparts, "properties"),
                require_values=not abstract,
                # A capability type deriving from an unknown profile may declare more.
                check_unknown=cap_type is None or not ctx.registry.derives_from_opaque(cap_type),
            )
        capabilities[cap_name] = CapabilityTemplate(
            cap_name,
            cap_type or Type(cap_name, "capability"),
            definitions=defs,
            resolution=res,
            value_type=value_type,
            parts=cparts,
            node=node,
        )
    if not assigned:
        return
    # A type deriving from a profile toskit does not have may inherit the
    # capability: not "unknown" (the import's ``unknown-profile`` says so).
    opaque = known and ctx.registry.derives_from_opaque(node.type)
    for cap_name in assigned:
        if cap_name not in node.type.capabilities and known and not opaque:
            ctx.diags.append(
                ctx.doc.diagnostic(
                    "error",
                    "unknown-capability",
                    f"node template '{node.name}': unknown capability '{cap_name}' "
                    f"(not declared by {node.type.name})",
                    (*node.parts, "capabilities", cap_name),
                    misspelt=str(cap_name),
                    candidates=node.type.capabilities,
                    at_key=True,
                )
            )


def check_pending(
    pending: list[tuple[CheckContext | tuple, Resolution, PropertyDefinition, ValueType]],
) -> None:
    """Type checks and validation of every merged, evaluated property
    (:attr:`MergeCaches.pending`, emptied once run).

    An entry holds its entity's CheckContext, or what makes it (the
    arguments of :func:`_check_context`, then the quick pass's context or
    ``None``): a TOSCA 1.x value that the quick pass clears
    (:func:`~toskit.tosca.values.check.quick_clean`, with a context shared
    by the load) needs none; the others make it, once per entity (the
    entries of one entity are consecutive).
    """
    made: CheckContext | None = None
    made_for: tuple | None = None
    shaped: dict[int, tuple] | None = None
    for spec, res, pdef, vt in pending:
        name = pdef.name
        value, may_call = res.values[name], name in res.calls
        if isinstance(spec, tuple):
            quick = spec[7]
            if quick is not None and not may_call:
                shaped = quick.shaped
                # Merged by shape: its written leaves are tested, not the rest.
                hit = shaped.get(id(value)) if shaped else None
                if (
                    hit is not None
                    and hit[0] is value
                    and vt.__class__ is Type
                    and quick_clean_shaped(quick, value, pdef.schema, vt, hit[1])
                ):
                    continue
                if quick_clean(quick, value, pdef.schema, vt):
                    continue
            if made is None or made_for is not spec:
                made, made_for = _check_context(*spec[:7]), spec
            check_value(made, value, pdef.schema, vt, (name,), may_call)
        else:
            check_value(spec, value, pdef.schema, vt, (name,), may_call)
    pending.clear()
    if shaped:
        shaped.clear()


class MergeCaches:
    """The entities phase's state for one load (``LoadContext.merge``).

    The phase fills it and only the phase reads it (requirements merge a
    relationship's properties through it too): the parsed defaults of each
    property definition, the shared plans, the capability definitions of
    each node type, the value checks' memos, and the checks queued until
    calls are evaluated (:func:`check_pending`). Caches are keyed by object
    id; the object is kept with its entry, so the id stays unique during
    the load. Created once the inputs are resolved (the merge substitutes
    them), dropped when the load ends.
    """

    __slots__ = (
        "default_layers",
        "property_plans",
        "field_plans",
        "cap_defs",
        "field_types",
        "clean_constraints",
        "data_plans",
        "quick",
        "entity_types",
        "pending",
        "hooks",
        "call_free",
        "shaped",
    )

    def __init__(self, ctx: EntitiesContext) -> None:
        # id(pdef) -> (pdef, its parsed default layers, whether one holds a call).
        self.default_layers: dict[int, tuple[PropertyDefinition, list[Layer], bool]] = {}
        # (id(definitions), id(owner)) -> (definitions, owner, [(name, _Plan)]).
        self.property_plans: dict[tuple[int, int], Any] = {}
        # id(data type) -> (data type, its field plans).
        self.field_plans: dict[int, tuple[Type, list[FieldPlan]]] = {}
        # (node type, capability) -> (capability type, effective definitions).
        self.cap_defs: dict[tuple[str, str], tuple[Type | None, dict[str, PropertyDefinition]]] = {}
        # CheckContext.field_types and .clean_constraints of this phase's checks.
        self.field_types: dict[int, Any] = {}
        self.clean_constraints: dict[tuple, Any] = {}
        # CheckContext.data_plans (each plan keeps its data type alive).
        self.data_plans: dict[int, Any] = {}
        # require_values -> the CheckContext of the quick pass (check_pending).
        self.quick: dict[bool, CheckContext] = {}
        # (kind, type name) -> (its known type, whether its templates are checked).
        self.entity_types: dict[tuple[str, str], tuple[Type, bool]] = {}
        self.pending: list[
            tuple[CheckContext | tuple, Resolution, PropertyDefinition, ValueType]
        ] = []
        # id -> (value, shape) of each value merged by shape until it is checked
        # (check.quick_clean_shaped; emptied by check_pending).
        self.shaped: dict[int, tuple[dict, Any]] = {}
        self.hooks = _MergeHooks(ctx, self)
        # id(document) -> (document, whether no value of it may hold a call): _call_free.
        self.call_free: dict[int, tuple[YamlDocument, bool]] = {}

    def quick_context(self, ctx: EntitiesContext, require_values: bool) -> CheckContext:
        """The context :func:`~toskit.tosca.values.check.quick_clean` reads for
        a TOSCA 1.x value (shared by the load: it holds nothing of an entity,
        and the quick pass never reports)."""
        found = self.quick.get(require_values)
        if found is None:
            found = self.quick[require_values] = CheckContext(
                label="",
                path_prefix=(),
                doc=None,
                anchor=(),
                origins={},
                value_type=ctx.value_type,
                require_values=require_values,
                scalars=ctx.scalars,
                field_types=self.field_types,
                clean_constraints=self.clean_constraints,
                data_plans=self.data_plans,
                shaped=self.shaped,
            )
        return found


class _MergeHooks:
    """``toskit.tosca.values.resolve.Hooks`` over one load (inputs and parsed defaults)."""

    __slots__ = ("ctx", "value_type", "_resolve", "_parsed", "_plans", "shaped")

    def __init__(self, ctx: EntitiesContext, merge: MergeCaches) -> None:
        self.ctx = ctx
        self.shaped = merge.shaped  # values merged by shape, for check_pending
        self.value_type = ctx.value_type
        self._resolve = ctx.inputs.resolve
        self._parsed = merge.default_layers
        self._plans = merge.field_plans

    def substitute(self, value: Any, origin: Origin) -> Layer:
        return self._resolve(value, origin)

    def default_layers(self, pdef: PropertyDefinition) -> list[Layer]:
        # The cache is read here directly: this runs once per property of
        # every template (a call less matters at 5,000 templates, bench B1).
        cached = self._parsed.get(id(pdef))
        return cached[1] if cached is not None else default_layers(self.ctx, pdef)

    def field_plan(self, vt: Type) -> list[FieldPlan]:
        # Once per data type and load (the type is kept with its entry).
        entry = self._plans.get(id(vt))
        if entry is None:
            entry = self._plans[id(vt)] = (vt, field_plan(vt, self))
        return entry[1]


def default_layers(ctx: EntitiesContext, pdef: PropertyDefinition) -> list[Layer]:
    """``pdef``'s defaults down its type chain, parsed, with origins (once per load)."""
    key = id(pdef)
    cache = ctx.merge.default_layers
    cached = cache.get(key)
    if cached is None:
        layers = []
        for layer in pdef.default_layers:
            doc = layer.doc or ctx.doc
            value = parse_value(ctx, layer.value, doc, layer.parts)
            layers.append((value, Origin(f"default: {layer.type_name}", layer.doc, layer.parts)))
        has_call = any(functions.contains_call(v) for v, _ in layers)
        # Keep pdef alive with its entry, so the id stays unique during this load.
        cached = cache[key] = (pdef, layers, has_call)
    return cached[1]


def defaults_have_calls(ctx: EntitiesContext, pdef: PropertyDefinition) -> bool:
    """Whether a default of ``pdef`` (down its type chain) holds a function call."""
    cache = ctx.merge.default_layers
    cached = cache.get(id(pdef))
    if cached is None:
        default_layers(ctx, pdef)
        cached = cache[id(pdef)]
    return cached[2]


def _is_map(value: Any) -> TypeGuard[Mapping]:
    """``isinstance(value, Mapping)``, without the ABC check for the common ``dict`` and ``None``
    (a few per template: bench B1)."""
    return value.__class__ is dict or (value is not None and isinstance(value, Mapping))


def is_abstract(raw: Any) -> bool:
    """A template the orchestrator selects or substitutes (its values may be incomplete)."""
    directives = raw.get("directives") if _is_map(raw) else None
    return isinstance(directives, list) and any(d in _ABSTRACT for d in directives)


_ABSTRACT = ("select", "substitute")  # the directives of is_abstract
