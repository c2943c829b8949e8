"""Checks of the document's own type definitions, where they are written.

The definitions phase of the loading pipeline (:mod:`toskit.tosca.load.loader`),
:func:`check_definitions` over a
:class:`~toskit.tosca.load.context.DefinitionsContext`: defaults of a primitive
type are type-checked on the definition, TOSCA 2.0 scalar types
and attribute types are checked, the abstract ``scalar`` cannot be used
directly, and 2.0 validation clauses are parsed once where written.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from toskit.tosca.load.context import DefinitionsContext
from toskit.tosca.types.definitions import SchemaDef, Type
from toskit.tosca.types.registry import KINDS
from toskit.tosca.types.scalars import check_scalar_definition
from toskit.tosca.values.check import CheckContext, check_value
from toskit.tosca.values.evaluation import clause_tree, parse_value
from toskit.tosca.values.resolve import Origin

__all__ = ["check_definitions"]


def check_definitions(ctx: DefinitionsContext) -> None:
    """Defaults of the document's own definitions, and 2.0 attributes' types.

    A default of a primitive type (or a type derived from one) is checked
    where it is written; data-typed defaults may be partial (their type's
    defaults complete them), so they are checked in templates instead.
    """
    for kind in KINDS:
        for t in ctx.registry.by_kind[kind].values():
            if t.doc is None:
                continue
            label = f"{kind} type '{t.name}'"
            if kind == "data" and ctx.grammar.major == 2:
                ctx.diags.extend(check_scalar_definition(t, ctx.registry))
            if ctx.grammar.major == 2:
                _definition_clauses(ctx, t)
            for pname, pdef in t.own_properties.items():
                abstract = pdef.type == "scalar" or (
                    pdef.entry_schema is not None and pdef.entry_schema.type == "scalar"
                )
                if abstract and pdef.schema.doc is not None:
                    ctx.diags.append(
                        t.doc.diagnostic(
                            "error",
                            "invalid-definition",
                            f"{label}: property '{pname}' uses the abstract type 'scalar'; "
                            "define a type derived from it",
                            (*t.parts, "properties", pname),
                            at_key=True,
                        )
                    )
            for pname, pdef in t.own_properties.items():
                if pdef.default_layers and pdef.default_layers[-1].type_name == t.name:
                    layer = pdef.default_layers[-1]
                    _check_default(
                        ctx, label, t, pname, layer.value, pdef.schema, layer.parts, "properties"
                    )
            attributes = t.definition.get("attributes")
            if not isinstance(attributes, Mapping):
                continue
            for aname, araw in attributes.items():
                parts = (*t.parts, "attributes", aname)
                if not isinstance(araw, Mapping):
                    continue
                if ctx.grammar.major == 2 and araw.get("type") is None and t.parent is None:
                    ctx.diags.append(
                        t.doc.diagnostic(
                            "error",
                            "missing-type",
                            f"{label}: attribute '{aname}' has no type",
                            parts,
                            at_key=True,
                        )
                    )
                    continue
                if "default" in araw:
                    schema = ctx.registry.schema_def(araw, t.doc, parts, t.prefix, ctx.diags)
                    _check_default(
                        ctx,
                        label,
                        t,
                        str(aname),
                        araw["default"],
                        schema,
                        (*parts, "default"),
                        "attributes",
                    )


def _definition_clauses(ctx: DefinitionsContext, t: Type) -> None:
    """Parse the validation clauses a type writes (reports problems where written)."""
    schemas = [t.schema] if t.kind == "data" else []
    for pdef in t.own_properties.values():
        schema: SchemaDef | None = pdef.schema
        while schema is not None:
            schemas.append(schema)
            if schema.key_schema is not None:
                schemas.append(schema.key_schema)
                _check_key_schema(ctx, t, schema.key_schema)
            schema = schema.entry_schema
    for schema in schemas:
        if schema.validation is not None and schema.doc is t.doc:
            clause_tree(ctx, schema.validation, schema)


def _check_key_schema(ctx: DefinitionsContext, t: Type, key: Any) -> None:
    """A map's keys are strings: its ``key_schema`` must be ``string`` or derive from it."""
    if key.doc is not t.doc or key.doc is None:
        return  # reported where it is written (own types only)
    vt = ctx.value_type(key.type, t)
    if vt is None:
        return  # unknown-type is reported elsewhere
    primitive = vt if isinstance(vt, str) else vt.base_primitive
    if primitive == "string":
        return
    ctx.diags.append(
        key.doc.diagnostic(
            "error",
            "invalid-definition",
            f"a map's key_schema must be string or derive from it, not '{key.type}'",
            key.parts,
        )
    )


def _check_default(
    ctx: DefinitionsContext,
    label: str,
    t: Type,
    name: str,
    value: Any,
    schema: Any,
    parts: tuple[Hashable, ...],
    section: str,
) -> None:
    vt = ctx.value_type(schema.type, t)
    if vt is None or (isinstance(vt, Type) and vt.base_primitive is None):
        return
    assert t.doc is not None
    tree = parse_value(ctx, value, t.doc, parts)
    check = CheckContext(
        label=label,
        path_prefix=(*t.parts, section),
        doc=t.doc,
        anchor=parts,
        origins={(name,): Origin("default", t.doc, parts)},
        value_type=ctx.value_type,
        diagnostics=ctx.diags,
        reported=ctx.reported,
        scalars=ctx.scalars,
        rfc3339_timestamps=ctx.grammar.major == 2,
    )
    check_value(check, tree, schema, vt, (name,))
