"""The result of :func:`toskit.compare`: plain, immutable records.

A :class:`TemplateDiff` holds what changed between two versions of a
template, in five groups: types, templates, effective property values,
requirement targets and diagnostics. Every record is a frozen dataclass of
plain values (strings, numbers, lists, dicts), so a diff can be pickled,
turned into JSON or a DataFrame, and compared in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic

if TYPE_CHECKING:
    import pandas

__all__ = [
    "DiagnosticChange",
    "PropertyDefinitionChange",
    "RequirementChange",
    "TemplateChange",
    "TemplateDiff",
    "TypeChange",
    "ValueChange",
]


@dataclass(frozen=True)
class PropertyDefinitionChange:
    """One aspect of one property definition of a type that changed.

    ``aspect`` is ``"added"``, ``"removed"`` (the whole definition; ``old`` or
    ``new`` holds its type name), or one of ``"type"``, ``"default"``,
    ``"required"``, ``"constraints"`` with the old and new value of that aspect.
    """

    property: str
    aspect: str
    old: Any = None
    new: Any = None


@dataclass(frozen=True)
class TypeChange:
    """A type added, removed or changed (``change``) between the versions.

    For a changed type, ``derived_from`` is ``(old parent, new parent)`` when
    the parent changed (else ``None``) and ``properties`` lists the property
    definitions that changed, aspect by aspect (effective definitions, after
    inheritance: a default refined on a parent shows on every descendant).
    """

    name: str
    kind: str
    change: str
    derived_from: tuple[str | None, str | None] | None = None
    properties: tuple[PropertyDefinitionChange, ...] = ()


@dataclass(frozen=True)
class TemplateChange:
    """A node or relationship template added, removed or retyped."""

    name: str
    kind: str
    change: str
    old_type: str | None = None
    new_type: str | None = None


@dataclass(frozen=True)
class ValueChange:
    """One effective property value that differs between the versions.

    ``entity`` is the template's name, ``kind`` ``"node"`` or
    ``"relationship"``, ``path`` the dotted path of the leaf (as in
    ``PropertyTable``), ``change`` ``"changed"``, ``"added"`` or ``"removed"``.
    ``old_source``/``new_source`` name the layer that supplied each value
    (``"template"``, ``"default: <type>"``, ``"input: <name>"``); a side
    without the value has ``None`` there and in the value.
    """

    entity: str
    kind: str
    path: str
    change: str
    old: Any = None
    new: Any = None
    old_source: str | None = None
    new_source: str | None = None
    type: str | None = None

    @property
    def template_untouched(self) -> bool:
        """True when neither side's value was written in the template: the
        change came from a type default or an input."""
        return self.old_source != "template" and self.new_source != "template"


@dataclass(frozen=True)
class RequirementChange:
    """A requirement whose resolved target changed (``None``: unresolved/absent).

    ``index`` tells apart repeated assignments of one requirement name.
    """

    entity: str
    requirement: str
    index: int
    old_target: str | None
    new_target: str | None


@dataclass(frozen=True)
class DiagnosticChange:
    """A diagnostic the new version introduces (``change="introduced"``) or
    fixes (``"fixed"``), matched by severity, code and path, never by line."""

    change: str
    diagnostic: Diagnostic


@dataclass(frozen=True)
class TemplateDiff:
    """What changed between two versions of a template (``toskit.compare``).

    Groups: ``types``, ``templates``, ``values``, ``requirements``,
    ``diagnostics`` (each a tuple of records, sorted). ``old_name``/
    ``new_name`` name the two sides, ``old_version``/``new_version`` their
    ``tosca_definitions_version``; ``unchanged_templates`` counts the
    templates present on both sides with no value or requirement change.
    """

    old_name: str
    new_name: str
    old_version: str | None = None
    new_version: str | None = None
    types: tuple[TypeChange, ...] = ()
    templates: tuple[TemplateChange, ...] = ()
    values: tuple[ValueChange, ...] = ()
    requirements: tuple[RequirementChange, ...] = ()
    diagnostics: tuple[DiagnosticChange, ...] = ()
    unchanged_templates: int = 0
    inputs: tuple[tuple[str, Any, Any], ...] = field(default=())

    # -- summaries ---------------------------------------------------------------

    @property
    def is_same(self) -> bool:
        """True when nothing differs (diagnostics included)."""
        return not (
            self.types
            or self.templates
            or self.values
            or self.requirements
            or self.diagnostics
            or self.inputs
            or self.old_version != self.new_version
        )

    @property
    def introduced(self) -> list[Diagnostic]:
        """Diagnostics of the new version that the old one did not have."""
        return [c.diagnostic for c in self.diagnostics if c.change == "introduced"]

    @property
    def fixed(self) -> list[Diagnostic]:
        """Diagnostics of the old version that the new one no longer has."""
        return [c.diagnostic for c in self.diagnostics if c.change == "fixed"]

    @property
    def new_errors(self) -> list[Diagnostic]:
        """Introduced diagnostics whose severity is ``error`` (``--fail-on new-errors``)."""
        return [d for d in self.introduced if d.severity == "error"]

    def values_of(self, entity: str) -> list[ValueChange]:
        """The value changes of one template."""
        return [v for v in self.values if v.entity == entity]

    def summary(self) -> dict[str, int]:
        """Counts per group, for a one-line report."""
        return {
            "types": len(self.types),
            "templates": len(self.templates),
            "values": len(self.values),
            "requirements": len(self.requirements),
            "introduced": len(self.introduced),
            "fixed": len(self.fixed),
            "inputs": len(self.inputs),
        }

    # -- conversions -------------------------------------------------------------

    def to_frame(self) -> pandas.DataFrame:
        """One row per changed value: entity, kind, path, change, old, new,
        old_source, new_source, type (pandas is imported on first use)."""
        import pandas as pd

        columns = ["entity", "kind", "path", "change", "old", "new", "old_source", "new_source", "type"]
        rows = [[getattr(v, c) for c in columns] for v in self.values]
        return pd.DataFrame(rows, columns=columns)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (see :mod:`toskit.compare.serialize`)."""
        from toskit.compare.serialize import to_dict

        return to_dict(self)

    def to_json(self, *, indent: int | None = 2) -> str:
        """JSON text of :meth:`to_dict`."""
        import json

        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def __str__(self) -> str:
        from toskit.compare.text import render_text

        return render_text(self)

    def __repr__(self) -> str:
        if self.is_same:
            return f"<TemplateDiff {self.old_name} -> {self.new_name}: no changes>"
        counts = ", ".join(f"{n} {k}" for k, n in self.summary().items() if n)
        return f"<TemplateDiff {self.old_name} -> {self.new_name}: {counts}>"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)
