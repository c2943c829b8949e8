"""``check_text``: every problem of a roles document or a Fuel release file
as located diagnostics (for ``toskit check``).

Unlike :func:`load_roles`, which raises at the first error, this collects
every error it can (one per broken condition node) and places each at the
offending YAML node. For an expression error inside a one-line scalar, the
column points at the offending character itself (for a short-form
restriction, inside its key); the hint repeats the expression with the
position.

In a Fuel release file the setup wizard's conditions (``wizard_metadata``)
are compiled with its default model, so bare paths (``Compute.vcenter``)
are model paths there; 5.0's ``depends`` lists and settings ``conflicts``
written as conditions are checked as well.

Codes: ``yaml-syntax`` and the loader's other codes; ``condition-schema``
(a malformed condition tree, restriction or limit); ``expression-syntax``
(an expression that does not parse); ``expression-error`` (another static
expression error: unknown special member or variable, a property called, a
method not called); ``fuel-release`` (a Fuel file whose records cannot be
read as releases); ``unknown-document`` (neither kind).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toskit.conditions.forms import ConditionCompiler
from toskit.conditions.fuel import WIZARD_MODEL
from toskit.conditions.restrictions import compile_depends, compile_restrictions
from toskit.conditions.roles import build_roleset
from toskit.diagnostics import Diagnostic, format_path, has_errors, sort_diagnostics
from toskit.errors import ConditionError, ToskitError

__all__ = ["check_text", "document_kind"]


def document_kind(value: Any) -> str | None:
    """``roles`` (a mapping with ``roles_metadata``), ``fuel-release`` (a
    list of fixture records), or ``None``."""
    if isinstance(value, Mapping) and "roles_metadata" in value:
        return "roles"
    if isinstance(value, list) and any(
        isinstance(r, Mapping) and "model" in r and ("fields" in r or "extend" in r) for r in value
    ):
        return "fuel-release"
    return None


def check_text(text: str, name: str = "<string>") -> list[Diagnostic]:
    """Diagnostics for a roles document or a Fuel release file, in source order."""
    from toskit.source import load_yaml

    doc = load_yaml(text, name=name)
    diagnostics = list(doc.diagnostics)
    if has_errors(diagnostics) and doc.value is None:
        return sort_diagnostics(diagnostics)
    kind = document_kind(doc.value)
    compiler = ConditionCompiler(collect=True)
    if kind == "roles":
        compiler.skip = 1
        _run(
            lambda: build_roleset(doc.value["roles_metadata"], ("roles_metadata",), compiler),
            compiler,
        )
    elif kind == "fuel-release":
        _check_fuel(doc, compiler, diagnostics)
    else:
        diagnostics.append(
            doc.diagnostic(
                "error",
                "unknown-document",
                "not a roles document (a mapping with 'roles_metadata') nor a Fuel release file "
                "(a list of fixture records)",
                (),
            )
        )
    seen: set = set()
    for err, parts in compiler.errors:
        diag = _diagnostic(doc, err, parts)
        key = (diag.line, diag.column, diag.message)
        if key not in seen:
            seen.add(key)
            diagnostics.append(diag)
    return sort_diagnostics(diagnostics)


def _run(action: Any, compiler: ConditionCompiler) -> None:
    compiler.attempt(action)


def _check_fuel(doc: Any, compiler: ConditionCompiler, diagnostics: list[Diagnostic]) -> None:
    """Each record's own ``fields`` (so that inherited parts are reported
    once, where they are written): its roles and every ``restrictions``
    list anywhere below them; then the merged releases must be readable."""
    from toskit.conditions.fuel import release_records

    for index, record in enumerate(doc.value):
        if not isinstance(record, Mapping):
            continue
        fields = record.get("fields")
        if not isinstance(fields, Mapping):
            continue
        base = (index, "fields")
        roles = fields.get("roles_metadata")
        if roles is not None:
            _run(
                lambda r=roles, b=base: build_roleset(r, (*b, "roles_metadata"), compiler), compiler
            )
        for key, parts, value in _restriction_lists(fields, base, depth=0):
            if key == "restrictions":
                if parts[2:3] == ("roles_metadata",):
                    continue  # checked with the roles
                # The setup wizard's bare paths (`Compute.vcenter`) belong
                # to its own model, as in fuel-ui.
                default = WIZARD_MODEL if parts[2:3] == ("wizard_metadata",) else None
                _run(
                    lambda v=value, p=parts, d=default: compile_restrictions(v, p, compiler, d),
                    compiler,
                )
            elif key == "depends" or _is_condition_list(value):
                # 5.0's `depends`, and `conflicts` written as conditions
                # (`- "settings:common.libvirt_type.value": "vcenter"`).
                _run(lambda v=value, p=parts: compile_depends(v, p, compiler), compiler)
    try:
        release_records(doc.value)
    except ToskitError as err:
        diagnostics.append(doc.diagnostic("error", "fuel-release", str(err), ()))


def _is_condition_list(value: Any) -> bool:
    """A ``conflicts`` list of conditions (mappings), not of role names."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _restriction_lists(value: Any, parts: tuple, depth: int):
    """``(key, parts, value)`` of every ``restrictions`` and ``depends``
    key below ``value``, and of every ``conflicts`` key that holds
    conditions."""
    if depth > 60:
        return
    if isinstance(value, Mapping):
        for key, child in value.items():
            here = (*parts, key)
            if (
                key in ("restrictions", "depends")
                or key == "conflicts"
                and _is_condition_list(child)
            ):
                yield key, here, child
            else:
                yield from _restriction_lists(child, here, depth + 1)
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _restriction_lists(child, (*parts, i), depth + 1)


def _diagnostic(doc: Any, err: ConditionError, parts: tuple) -> Diagnostic:
    """``err`` placed in the document: at the YAML node of ``parts`` and, for
    an expression written on one line, at its offending character. A
    short-form restriction (``- "<condition>": "<message>"``) has its
    condition as the mapping key, so its errors are placed at the key, not
    at the message."""
    base = err.diagnostic
    at_key = (
        err.kind != "SchemaError"
        and err.expression is not None
        and bool(parts)
        and parts[-1] == err.expression
    )
    diag = doc.diagnostic(
        "error",
        base.code,
        base.message,
        parts,
        hint=base.hint,
        path=format_path(parts),
        at_key=at_key,
    )
    if err.kind == "SchemaError":
        return diag
    return _point_into_scalar(doc, diag, err.expression, err.position)


def _point_into_scalar(
    doc: Any, diag: Diagnostic, expression: str | None, position: int | None
) -> Diagnostic:
    """Move the column onto the offending character when the expression is
    written on one line, plain or quoted without escapes."""
    if diag.line is None or diag.column is None or expression is None or position is None:
        return diag
    if "\n" in expression:
        return diag
    line = doc.line_text(diag.line)
    if line is None:
        return diag
    rest = line[diag.column - 1 :]
    offset = None
    if rest[:1] in ("'", '"') and rest[1 : 1 + len(expression)] == expression:
        offset = 1
    elif rest.startswith(expression):
        offset = 0
    if offset is None:
        return diag
    return diag.with_location(diag.file, diag.line, diag.column + offset + position, line)
