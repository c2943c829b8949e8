"""The clauses checked at a path: the definition in effect there and each clause's result.

The definition in effect is the property's, or, below it, a data type's
field or an entry schema's. Each 1.x constraint and 2.0 validation clause
is reported ``satisfied``, ``violated`` (with the finding's message) or
``not checked`` (a value known only at deployment); the result is read
from the load's findings, never checked again here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic
from toskit.functions import Call
from toskit.plain import bounded_text
from toskit.tosca.explain.model import Check
from toskit.tosca.explain.text import TEXT
from toskit.tosca.types.definitions import PropertyDefinition, Type

if TYPE_CHECKING:
    from toskit.tosca.explain.layers import _Memo


def _definition(entity: Any, rel: tuple) -> tuple[PropertyDefinition | None, str | None]:
    """The definition in effect at ``rel`` (a data type's field, an entry
    schema), and its type name."""
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
        texts = [(k, c, bounded_text(c, TEXT, style="flow")) for k, c in raw]
        # With them, the answer for a value with no finding: every clause
        # satisfied (shared like the memo's Sources: read-only).
        cached = (schema, texts, tuple(Check(k, text, "satisfied") for k, _, text in texts))
        if memo is not None:
            memo.clauses[id(schema)] = cached
    if not findings and not isinstance(value, Call):
        return cached[2]
    clauses = cached[1]
    out = []
    for kind, clause, text in clauses:
        failed = [d for d in findings if d.code == _CHECK_CODES[kind]]
        if isinstance(value, Call):
            out.append(Check(kind, text, "not checked", "the value is known only at deployment"))
        elif failed:
            # Several clauses share a code: a failure is matched to its clause by
            # text when it can be.
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
