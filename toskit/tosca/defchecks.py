"""Checks of the document's own type definitions, where they are written.

Part of the loading pipeline (:mod:`toskit.tosca.loader`): defaults of a
primitive type are type-checked on the definition, TOSCA 2.0 scalar types
and attribute types are checked, the abstract ``scalar`` cannot be used
directly, and 2.0 validation clauses are parsed once where written.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from toskit.tosca.check import CheckContext, check_value
from toskit.tosca.definitions import Type
from toskit.tosca.registry import KINDS
from toskit.tosca.resolve import Origin
from toskit.tosca.scalars import check_scalar_definition


class DefinitionChecksMixin:
    """Methods of the loader's ``_Build`` (see the module docstring).

    The state they use (``registry``, ``diags``, ``grammar``, ``doc``…) is
    set up by ``toskit.tosca.loader._Build``.
    """

    def _check_definitions(self) -> None:
        """Defaults of the document's own definitions, and 2.0 attributes' types.

        A default of a primitive type (or a type derived from one) is checked
        where it is written; data-typed defaults may be partial (their type's
        defaults complete them), so they are checked in templates instead.
        """
        for kind in KINDS:
            for t in self.registry.by_kind[kind].values():
                if t.doc is None:
                    continue
                label = f"{kind} type '{t.name}'"
                if kind == "data" and self.grammar.major == 2:
                    self.diags.extend(check_scalar_definition(t, self.registry))
                if self.grammar.major == 2:
                    self._definition_clauses(t)
                for pname, pdef in t.own_properties.items():
                    abstract = pdef.type == "scalar" or (
                        pdef.entry_schema is not None and pdef.entry_schema.type == "scalar"
                    )
                    if abstract and pdef.schema.doc is not None:
                        self.diags.append(
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
                        self._check_default(
                            label, t, pname, layer.value, pdef.schema, layer.parts, "properties"
                        )
                attributes = t.definition.get("attributes")
                if not isinstance(attributes, Mapping):
                    continue
                for aname, araw in attributes.items():
                    parts = (*t.parts, "attributes", aname)
                    if not isinstance(araw, Mapping):
                        continue
                    if self.grammar.major == 2 and araw.get("type") is None and t.parent is None:
                        self.diags.append(
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
                        schema = self.registry.schema_def(araw, t.doc, parts, t.prefix, self.diags)
                        self._check_default(
                            label,
                            t,
                            str(aname),
                            araw["default"],
                            schema,
                            (*parts, "default"),
                            "attributes",
                        )

    def _definition_clauses(self, t: Type) -> None:
        """Parse the validation clauses a type writes (reports problems where written)."""
        schemas = [t.schema] if t.kind == "data" else []
        for pdef in t.own_properties.values():
            schema = pdef.schema
            while schema is not None:
                schemas.append(schema)
                if schema.key_schema is not None:
                    schemas.append(schema.key_schema)
                    self._check_key_schema(t, schema.key_schema)
                schema = schema.entry_schema
        for schema in schemas:
            if schema.validation is not None and schema.doc is t.doc:
                self.clause_tree(schema.validation, schema)

    def _check_key_schema(self, t: Type, key: Any) -> None:
        """A map's keys are strings: its ``key_schema`` must be ``string`` or derive from it."""
        if key.doc is not t.doc or key.doc is None:
            return  # reported where it is written (own types only)
        vt = self.value_type(key.type, t)
        if vt is None:
            return  # unknown-type is reported elsewhere
        primitive = vt if isinstance(vt, str) else vt.base_primitive
        if primitive == "string":
            return
        self.diags.append(
            key.doc.diagnostic(
                "error",
                "invalid-definition",
                f"a map's key_schema must be string or derive from it, not '{key.type}'",
                key.parts,
            )
        )

    def _check_default(
        self,
        label: str,
        t: Type,
        name: str,
        value: Any,
        schema: Any,
        parts: tuple[Hashable, ...],
        section: str,
    ) -> None:
        vt = self.value_type(schema.type, t)
        if vt is None or (isinstance(vt, Type) and vt.base_primitive is None):
            return
        assert t.doc is not None
        tree = self.parse_value(value, t.doc, parts)
        ctx = CheckContext(
            label=label,
            path_prefix=(*t.parts, section),
            doc=t.doc,
            anchor=parts,
            origins={(name,): Origin("default", t.doc, parts)},
            value_type=self.value_type,
            diagnostics=self.diags,
            reported=self.reported,
            scalars=self.scalars,
            rfc3339_timestamps=self.grammar.major == 2,
        )
        check_value(ctx, tree, schema, vt, (name,))
