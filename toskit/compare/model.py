"""The result of :func:`toskit.compare`: plain, immutable records.

A :class:`TemplateDiff` holds what changed between two versions of a
template: types, templates, every field as written (``fields``: the
generic structural comparison of the documents, capabilities, interfaces,
artifacts, workflows, imports, ... included), effective property values
with their sources, requirement targets, inputs and diagnostics. Every
record is a frozen dataclass of plain values (strings, numbers, lists,
dicts), so a diff can be pickled, turned into JSON or a DataFrame, and
compared in tests.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic
from toskit.records import field, fields, record, replace

if TYPE_CHECKING:
    import pandas

__all__ = [
    "DiagnosticChange",
    "FieldChange",
    "PropertyDefinitionChange",
    "RequirementChange",
    "TemplateChange",
    "TemplateDiff",
    "TypeChange",
    "ValueChange",
]


class LazyLocation:
    """A ``file:line:column`` found when first read.

    Positions are not kept by the loader (it is faster without them): the
    first location asked of a document parses its text once more for
    positions (``YamlDocument.locate``). :func:`~toskit.compare.compare`
    puts these in the records it builds and :class:`TemplateDiff` turns them
    into plain strings the first time its records are read, so comparing
    costs that second parse only when a location is actually wanted (a
    render, ``to_json()``, ``diff.values``), once per document.
    """

    __slots__ = ("doc", "parts")

    def __init__(self, doc: Any, parts: tuple[Hashable, ...]) -> None:
        self.doc = doc
        self.parts = parts

    def resolve(self) -> str | None:
        """The location as text (``None`` when the document has none)."""
        try:
            found = self.doc.locate(self.parts)
        except (LookupError, TypeError, ValueError, RecursionError):
            return None
        return str(found) if found is not None else None

    def __str__(self) -> str:
        return self.resolve() or ""


def _resolved(record: Any) -> Any:
    changes = {
        f.name: getattr(record, f.name).resolve()
        for f in fields(record)
        if isinstance(getattr(record, f.name), LazyLocation)
    }
    return replace(record, **changes) if changes else record


FRAME_COLUMNS = [
    "entity",
    "kind",
    "path",
    "change",
    "old",
    "new",
    "old_source",
    "new_source",
    "type",
    "section",
    "old_entity",
    "new_path",
    "old_location",
    "new_location",
]


@record(frozen=True)
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


@record(frozen=True)
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
    old_name: str | None = None
    """For ``change="renamed"``: the type's name in the old version."""


@record(frozen=True)
class TemplateChange:
    """A node, relationship, group or policy template added, removed,
    retyped or ``renamed`` (its body moved to a new name: ``old_name`` →
    ``name``; what else changed in it is listed in the other groups under
    the new name)."""

    name: str
    kind: str
    change: str
    old_type: str | None = None
    new_type: str | None = None
    old_name: str | None = None


@record(frozen=True)
class FieldChange:
    """One difference between the two documents as written.

    ``section`` names where it is (``node_templates``, ``node_types``,
    ``workflows``, ``imports``, ...), ``entity`` the template, type, input,
    ... of that section (``None`` for a section without named entries, such
    as ``imports``), ``path`` the dotted path inside it
    (``capabilities.host.properties.mem_size``; ``""``: the entity itself).
    ``change`` is ``"changed"``, ``"added"``, ``"removed"``, ``"renamed"``:
    a map key whose value moved unchanged to ``new_path`` (a typo fixed), or,
    with an empty ``path``, a whole entity now called ``entity`` that was
    ``old_entity``; or ``"moved"``: a type now written in another file
    (``old``/``new`` name the files, from the template's folder).
    ``old_location``/``new_location`` are ``file:line:column`` on each side
    (``None`` on a side without it).
    """

    section: str
    entity: str | None
    path: str
    change: str
    old: Any = None
    new: Any = None
    old_location: str | None = None
    new_location: str | None = None
    new_path: str | None = None
    old_entity: str | None = None


@record(frozen=True)
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
    old_location: str | None = None
    """``file:line:column`` of the layer that set the old value (the
    template's line, the type's default, the input's default)."""
    new_location: str | None = None
    old_entity: str | None = None
    """The template's old name when it was renamed (else ``None``)."""
    new_path: str | None = None
    """For ``change="renamed"``: the leaf's new path (``path`` is the old
    one): a value that moved, equal, to a new key (a typo fixed)."""

    @property
    def template_untouched(self) -> bool:
        """True when neither side's value was written in the template: the
        change came from a type default or an input."""
        return self.old_source != "template" and self.new_source != "template"


@record(frozen=True)
class RequirementChange:
    """A requirement whose resolved target changed (``None``: unresolved/absent).

    ``index`` tells apart repeated assignments of one requirement name.
    """

    entity: str
    requirement: str
    index: int
    old_target: str | None
    new_target: str | None


@record(frozen=True)
class DiagnosticChange:
    """A diagnostic the new version introduces (``change="introduced"``) or
    fixes (``"fixed"``), matched by severity, code and path, never by line."""

    change: str
    diagnostic: Diagnostic


_LAZY_GROUPS = ("values", "fields")


@record(frozen=True)
class TemplateDiff:
    """What changed between two versions of a template (``toskit.compare``).

    Groups: ``types``, ``templates``, ``values``, ``requirements``,
    ``diagnostics``, ``fields`` (each a tuple of records, sorted). ``old_name``/
    ``new_name`` name the two sides, ``old_version``/``new_version`` their
    ``tosca_definitions_version``; ``unchanged_templates`` counts the
    templates present on both sides with no change at all.
    ``not_compared`` names each part that could not be compared (a side
    that did not parse, a value too deep); when it is not empty the diff
    never claims "no changes".
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
    fields: tuple[FieldChange, ...] = ()
    not_compared: tuple[str, ...] = ()

    # -- locations resolved on first read (see LazyLocation) ---------------------------

    def __post_init__(self) -> None:
        lazy = any(
            isinstance(r.old_location, LazyLocation) or isinstance(r.new_location, LazyLocation)
            for group in (self.values, self.fields)
            for r in group
        )
        object.__setattr__(self, "_lazy", lazy)

    def __getattribute__(self, name: str) -> Any:
        if name in _LAZY_GROUPS and object.__getattribute__(self, "__dict__").get("_lazy"):
            object.__setattr__(self, "_lazy", False)
            for group in _LAZY_GROUPS:
                records = object.__getattribute__(self, group)
                object.__setattr__(self, group, tuple(_resolved(r) for r in records))
        return object.__getattribute__(self, name)

    def _peek(self, name: str) -> Any:
        """A group of records without resolving its locations (for counts)."""
        return object.__getattribute__(self, name)

    def __getstate__(self) -> dict[str, Any]:
        self.values  # noqa: B018 - resolves the locations: a pickle holds plain data only
        return {k: v for k, v in self.__dict__.items() if k != "_lazy"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        object.__setattr__(self, "_lazy", False)

    # -- summaries ---------------------------------------------------------------

    @property
    def is_same(self) -> bool:
        """True when nothing differs (diagnostics included) and every part was compared."""
        # The records as they are: counting needs no location (see LazyLocation).
        return not (
            self._peek("fields")
            or self.not_compared
            or self.types
            or self.templates
            or self._peek("values")
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
            "values": len(self._peek("values")),
            "requirements": len(self.requirements),
            "introduced": len(self.introduced),
            "fixed": len(self.fixed),
            "inputs": len(self.inputs),
            "fields": len(self._peek("fields")),
            "renamed": sum(1 for f in self._peek("fields") if f.change == "renamed")
            + sum(1 for t in self.templates if t.change == "renamed")
            + sum(1 for t in self.types if t.change == "renamed"),
            "not_compared": len(self.not_compared),
        }

    # -- conversions -------------------------------------------------------------

    def to_frame(self) -> pandas.DataFrame:
        """One row per change: first each effective value (``section``
        ``"values"``), then each template or type renamed and each field
        changed as written (``section`` as in :class:`FieldChange`).
        Columns: entity, kind, path, change, old, new, old_source,
        new_source, type, section, old_entity, new_path, old_location,
        new_location (pandas is imported on first use)."""
        import pandas as pd

        rows = [
            [
                v.entity,
                v.kind,
                v.path,
                v.change,
                v.old,
                v.new,
                v.old_source,
                v.new_source,
                v.type,
                "values",
                v.old_entity,
                v.new_path,
                v.old_location,
                v.new_location,
            ]
            for v in self.values
        ]
        for t in self.templates:
            if t.change == "renamed":
                rows.append(
                    [
                        t.name,
                        t.kind,
                        "",
                        "renamed",
                        t.old_name,
                        t.name,
                        None,
                        None,
                        t.new_type,
                        "templates",
                        t.old_name,
                        None,
                        None,
                        None,
                    ]
                )
        for ty in self.types:
            if ty.change == "renamed":
                rows.append(
                    [
                        ty.name,
                        ty.kind,
                        "",
                        "renamed",
                        ty.old_name,
                        ty.name,
                        None,
                        None,
                        None,
                        "types",
                        ty.old_name,
                        None,
                        None,
                        None,
                    ]
                )
        for f in self.fields:
            rows.append(
                [
                    f.entity,
                    f.section,
                    f.path,
                    f.change,
                    f.old,
                    f.new,
                    None,
                    None,
                    None,
                    f.section,
                    f.old_entity,
                    f.new_path,
                    f.old_location,
                    f.new_location,
                ]
            )
        return pd.DataFrame(rows, columns=FRAME_COLUMNS)

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
