"""``compare(old, new)``: the difference between two versions of a template.

Two comparisons, both generic:

* **As written** (``TemplateDiff.fields``): every document is cut into
  *units* — each named entry of a section (a node template, a node type, an
  input, a workflow, a policy, ...) and each other top-level part (imports,
  repositories, metadata, substitution mappings, ...) — and each pair of
  units is compared by the one structural walk of
  :mod:`toskit.compare.walk`. Nothing is picked field by field, so no part
  of a document can be missed: a capability property, an interface
  operation's implementation, an artifact's file, a workflow step or a
  key nobody has thought of yet all show up. The types come from the
  loaded registry (the template's own types, imported files included),
  each with the file it was written in.
* **Effective** (``values``, ``requirements``, ``inputs``, ``types``'
  property definitions): the resolved property values of every node,
  relationship, group and policy template and of every node's
  capabilities, with the layer that set each value (``template``,
  ``default: <type>``, ``input: <name>``) and its ``file:line:column``;
  requirement targets; the resolved inputs; effective property definitions
  after inheritance. A change made by a type default or an input shows up
  here although no line of the template changed.

A change under a template's ``properties`` that the effective comparison
already reports (the same path) is not repeated among the fields; one
whose effective value did not change (``{$get_input: a}`` →
``{$get_input: b}`` with equal inputs, the default now written out) is.

Renames: an entry that disappeared and one that appeared with an equal
body are one ``renamed`` change (a map key: :class:`FieldChange`; a
template: :class:`TemplateChange`; a type: :class:`TypeChange`); a
template whose body moved *and* changed is paired when both have the same
type and at least half of their leaves are equal (see :func:`_similar`),
and then compared field by field under its new name.

Equality everywhere is :func:`toskit.plain.values_equal`, walks are
iterative and bounded by :data:`toskit.plain.MAX_DEPTH`; a part that
cannot be compared is named in ``TemplateDiff.not_compared``.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from toskit.compare.model import (
    DiagnosticChange,
    FieldChange,
    LazyLocation,
    PropertyDefinitionChange,
    RequirementChange,
    TemplateChange,
    TemplateDiff,
    TypeChange,
    ValueChange,
)
from toskit.compare.walk import RawChange, diff_tree, quick_equal, same_tree
from toskit.diagnostics import Diagnostic, format_path
from toskit.errors import ToskitError
from toskit.plain import MAX_DEPTH, TooDeep, canonical, values_equal
from toskit.runtime import gc_paused
from toskit.sentinels import NO_DEFAULT

__all__ = ["as_template", "compare", "compare_diagnostics", "diagnostic_key"]


def as_template(side: Any, *, inputs: Mapping[str, Any] | None = None) -> Any:
    """A loaded ``ServiceTemplate`` for ``side``: one already loaded, or a
    path (``str`` or ``os.PathLike``) that is loaded with ``toskit.load``."""
    if hasattr(side, "node_templates") and hasattr(side, "diagnostics"):
        return side
    if isinstance(side, (str, os.PathLike)):
        from toskit.tosca import load

        return load(side, inputs=dict(inputs) if inputs else None)
    raise ToskitError(
        f"compare() takes two ServiceTemplates or paths to template files, "
        f"got {type(side).__name__}"
    )


# The TOSCA entity kinds with a type namespace (the kinds `ServiceTemplate.types_of(kind)`
# takes): toskit.tosca.types.registry.KINDS, written again so that importing compare does
# not import the loader (tests/compare/test_compare.py holds the two equal).
KINDS = ("data", "node", "capability", "relationship", "interface", "artifact", "group", "policy")
_TYPE_SECTIONS = {f"{kind}_types": kind for kind in KINDS}
_TOPOLOGY_KEYS = ("topology_template", "service_template")
# Sections of the topology whose entries are named entities (a map of
# name -> body, or 1.x's list of one-key maps for policies).
_ENTITY_SECTIONS = (
    "node_templates",
    "relationship_templates",
    "groups",
    "policies",
    "workflows",
    "inputs",
    "outputs",
)
_TEMPLATE_KINDS = {
    "node_templates": "node",
    "relationship_templates": "relationship",
    "groups": "group",
    "policies": "policy",
}
_SECTION_OF_KIND = {kind: section for section, kind in _TEMPLATE_KINDS.items()}
_LEAF_CAP = 2_000  # leaves read per template for the similarity of a changed rename


# The collector paused: the first compare after two large loads ran a full
# collection over both (1.5 s instead of 0.76 s CPU at 20,000 nodes, issue #31).
@gc_paused
def compare(old: Any, new: Any, *, inputs: Mapping[str, Any] | None = None) -> TemplateDiff:
    """What changed from ``old`` to ``new`` (``ServiceTemplate``\\ s or paths).

    ``inputs`` are used for both sides when they are loaded from paths.
    Returns a :class:`~toskit.compare.model.TemplateDiff`.
    """
    old_st = as_template(old, inputs=inputs)
    new_st = as_template(new, inputs=inputs)
    return _Comparison(old_st, new_st).run()


# -- units: the parts of a document, each compared as a whole ---------------------------


class _Unit:
    """One entry of one section of one side: its body, where it is, in which file."""

    __slots__ = ("body", "doc", "origin", "parts")

    def __init__(self, body: Any, parts: tuple[Hashable, ...], doc: Any, origin: str = "") -> None:
        self.body = body
        self.parts = parts
        self.doc = doc
        self.origin = origin  # "" in the template's own document, else the imported file


def _origin(doc: Any, main: Any) -> str:
    """The file a unit was written in, as a path from the template's folder
    (``git:REV:`` names compare by their path part), so that a type moved
    between files is a change although its text did not change."""

    def path_of(name: str) -> str:
        if name.startswith("git:"):
            name = name.split(":", 2)[-1]
        return name

    name = path_of(str(getattr(doc, "name", "") or ""))
    base = path_of(str(getattr(main, "name", "") or ""))
    try:
        return os.path.relpath(name, os.path.dirname(base) or ".")
    except ValueError:
        return name


UnitKey = tuple[str, str | None]


def _named_entries(value: Any) -> dict[str, tuple[Any, Hashable]] | None:
    """``name -> (body, part)`` of a section of named entries, or ``None``
    when it is neither a map nor a list of one-key maps with distinct names."""
    if isinstance(value, Mapping):
        return {str(k): (v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        out: dict[str, tuple[Any, Hashable]] = {}
        for i, item in enumerate(value):
            if not isinstance(item, Mapping) or len(item) != 1:
                return None
            ((k, v),) = item.items()
            if str(k) in out:
                return None
            out[str(k)] = (v, i)  # the item's index: its body is one key further
        return out
    return None


def _units(st: Any, notes: list[str], side: str) -> dict[UnitKey, _Unit]:
    """Every unit of one side, keyed by (section, entity name)."""
    units: dict[UnitKey, _Unit] = {}
    doc = getattr(st, "document", None)
    root = getattr(doc, "value", None)
    if not isinstance(root, Mapping):
        notes.append(
            f"the {side} version has no document to compare (it did not load as a map): "
            "only its types and diagnostics are compared"
        )
        root = {}
    for key, value in root.items():
        skey = str(key)
        if skey in _TYPE_SECTIONS and isinstance(value, Mapping) and value:
            for name, body in value.items():
                units[(skey, str(name))] = _Unit(body, (key, name), doc)
        elif skey in _TOPOLOGY_KEYS and isinstance(value, Mapping):
            rest: dict[Any, Any] = {}
            for tkey, tvalue in value.items():
                entries = _named_entries(tvalue) if str(tkey) in _ENTITY_SECTIONS else None
                # An empty section stays in the rest, so that writing or
                # removing it is still a change.
                if not entries:
                    rest[tkey] = tvalue
                    continue
                for name, (body, part) in entries.items():
                    parts = (
                        (key, tkey, part) if not isinstance(part, int) else (key, tkey, part, name)
                    )
                    units[(str(tkey), name)] = _Unit(body, parts, doc)
            if rest:
                units[(skey, None)] = _Unit(rest, (key,), doc)
        else:
            units[(skey, None)] = _Unit(value, (key,), doc)
    # The template's own types written in other files (imports): from the
    # registry, each with its own document for locations.
    for (kind, name), t in own_types(st).items():
        if t.doc is doc:
            continue
        key2 = (f"{kind}_types", str(name))
        if key2 not in units:
            units[key2] = _Unit(t.definition, tuple(t.parts), t.doc, _origin(t.doc, doc))
    return units


def _location(doc: Any, parts: tuple[Hashable, ...] | None) -> Any:
    """The ``file:line:column`` of ``parts`` in ``doc``, found when first read
    (a :class:`LazyLocation`; ``None`` when there is no document)."""
    if doc is None or parts is None or not hasattr(doc, "locate"):
        return None
    return LazyLocation(doc, tuple(parts))


# -- the comparison -------------------------------------------------------------------


class _Comparison:
    def __init__(self, old_st: Any, new_st: Any) -> None:
        self.old_st = old_st
        self.new_st = new_st
        self.notes: list[str] = []
        self.fields: list[FieldChange] = []
        self.values: list[ValueChange] = []
        self.requirements: list[RequirementChange] = []
        self.templates: list[TemplateChange] = []
        self.type_renames: dict[tuple[str, str], str] = {}  # (kind, new name) -> old name

    def run(self) -> TemplateDiff:
        old_units = _units(self.old_st, self.notes, "old")
        new_units = _units(self.new_st, self.notes, "new")
        pairs, renamed = self._pair(old_units, new_units)
        # Effective values first: the fields then leave out what they cover.
        self._settled = self._settled_templates(old_units, new_units)
        covered, unchanged = self._effective(pairs, old_units, new_units)
        changed_templates: set[tuple[str, str | None]] = set()
        for section, old_name, new_name in pairs:
            ou, nu = old_units[(section, old_name)], new_units[(section, new_name)]
            raw: list[RawChange] = []
            try:
                diff_tree(ou.body, nu.body, ou.parts, nu.parts, raw)
            except TooDeep:
                self.notes.append(
                    f"{section} {new_name or ''}: nested deeper than {MAX_DEPTH} levels (or "
                    "cyclic); "
                    "not compared below it".replace("  ", " ")
                )
                continue
            cover = covered.get((section, new_name), ())
            before = len(self.fields)
            if ou.origin != nu.origin:
                self.fields.append(
                    FieldChange(
                        section,
                        new_name,
                        "",
                        "moved",
                        ou.origin or "(this template)",
                        nu.origin or "(this template)",
                        _location(ou.doc, ou.parts),
                        _location(nu.doc, nu.parts),
                        None,
                        old_name if old_name != new_name else None,
                    )
                )
            self._add_fields(section, old_name, new_name, ou, nu, raw, cover)
            if len(self.fields) > before:
                changed_templates.add((section, new_name))
        unchanged -= sum(
            1
            for key in changed_templates
            if key[0] in _TEMPLATE_KINDS and key not in self._effective_changed
        )
        diagnostics = compare_diagnostics(
            self.old_st.diagnostics,
            self.new_st.diagnostics,
            self._renamed_paths(old_units, new_units),
        )
        return TemplateDiff(
            old_name=str(getattr(self.old_st, "name", "old")),
            new_name=str(getattr(self.new_st, "name", "new")),
            old_version=getattr(self.old_st, "version", None),
            new_version=getattr(self.new_st, "version", None),
            types=tuple(self._compare_types()),
            templates=tuple(self.templates),
            values=tuple(self.values),
            requirements=tuple(self.requirements),
            diagnostics=tuple(diagnostics),
            unchanged_templates=max(unchanged, 0),
            inputs=tuple(_compare_inputs(self.old_st, self.new_st)),
            fields=tuple(self.fields),
            not_compared=tuple(self.notes),
        )

    # -- pairing -------------------------------------------------------------------

    def _pair(
        self, old_units: dict[UnitKey, _Unit], new_units: dict[UnitKey, _Unit]
    ) -> tuple[list[tuple[str, str | None, str | None]], dict[UnitKey, str]]:
        """Pairs (section, old name, new name) to compare; entries on one side
        only become added/removed/renamed changes. Returns the pairs and, for
        each renamed new unit, its old name."""
        pairs: list[tuple[str, str | None, str | None]] = []
        renamed: dict[UnitKey, str] = {}
        sections: dict[str, tuple[list[str | None], list[str | None]]] = {}
        for key in old_units:
            if key not in new_units:
                sections.setdefault(key[0], ([], []))[0].append(key[1])
            else:
                pairs.append((key[0], key[1], key[1]))
        for key in new_units:
            if key not in old_units:
                sections.setdefault(key[0], ([], []))[1].append(key[1])
        for section, (gone, came) in sections.items():
            matches = self._renames(section, gone, came, old_units, new_units)
            for old_name, new_name in matches:
                renamed[(section, new_name)] = str(old_name)
                pairs.append((section, old_name, new_name))
                self._renamed(section, old_name, new_name, old_units, new_units)
            matched_old = {m[0] for m in matches}
            matched_new = {m[1] for m in matches}
            for name in gone:
                if name not in matched_old:
                    self._one_side(section, name, old_units[(section, name)], "removed")
            for name in came:
                if name not in matched_new:
                    self._one_side(section, name, new_units[(section, name)], "added")
        return pairs, renamed

    def _renames(
        self,
        section: str,
        gone: list[str | None],
        came: list[str | None],
        old_units: dict[UnitKey, _Unit],
        new_units: dict[UnitKey, _Unit],
    ) -> list[tuple[str | None, str | None]]:
        """Removed and added entries of one section that are one entry renamed."""
        if not gone or not came or None in gone or None in came:
            return []
        matches: list[tuple[str | None, str | None]] = []
        by_body: dict[Hashable, list[str | None]] = {}
        for name in came:
            key = _safe_key(new_units[(section, name)].body)
            if key is not None:
                by_body.setdefault(key, []).append(name)
        rest_gone = []
        for name in gone:
            key = _safe_key(old_units[(section, name)].body)
            candidates = by_body.get(key) if key is not None else None
            if candidates:
                matches.append((name, candidates.pop(0)))
            else:
                rest_gone.append(name)
        rest_came = [n for n in came if n not in {m[1] for m in matches}]
        # A body that moved and changed: only for templates and types, and
        # only while the candidates are few (each pair costs two leaf sets).
        if (
            rest_gone
            and rest_came
            and len(rest_gone) * len(rest_came) <= 400
            and (section in _TEMPLATE_KINDS or section in _TYPE_SECTIONS)
        ):
            leaves_new = {n: _leaves(new_units[(section, n)].body) for n in rest_came}
            scored = []
            for o in rest_gone:
                ob = old_units[(section, o)].body
                lo = _leaves(ob)
                for n in rest_came:
                    nb = new_units[(section, n)].body
                    if _type_of(ob) != _type_of(nb):
                        continue
                    score = _similar(lo, leaves_new[n])
                    if score > 0.5:
                        scored.append((-score, gone.index(o), came.index(n), o, n))
            used_o: set[str | None] = set()
            used_n: set[str | None] = set()
            for _, _, _, o, n in sorted(scored):
                if o not in used_o and n not in used_n:
                    used_o.add(o)
                    used_n.add(n)
                    matches.append((o, n))
        return matches

    def _renamed(
        self,
        section: str,
        old_name: Any,
        new_name: Any,
        old_units: dict[UnitKey, _Unit],
        new_units: dict[UnitKey, _Unit],
    ) -> None:
        ou, nu = old_units[(section, old_name)], new_units[(section, new_name)]
        if section in _TEMPLATE_KINDS:
            kind = _TEMPLATE_KINDS[section]
            old_e = _entity(self.old_st, kind, old_name)
            new_e = _entity(self.new_st, kind, new_name)
            self.templates.append(
                TemplateChange(
                    str(new_name),
                    kind,
                    "renamed",
                    _type_name(old_e),
                    _type_name(new_e),
                    str(old_name),
                )
            )
        elif section in _TYPE_SECTIONS:
            self.type_renames[(_TYPE_SECTIONS[section], str(new_name))] = str(old_name)
        else:
            self.fields.append(
                FieldChange(
                    section,
                    str(new_name),
                    "",
                    "renamed",
                    old_name,
                    new_name,
                    _location(ou.doc, ou.parts),
                    _location(nu.doc, nu.parts),
                    None,
                    str(old_name),
                )
            )

    def _one_side(self, section: str, name: str | None, unit: _Unit, change: str) -> None:
        """An entry present on one side only."""
        if section in _TEMPLATE_KINDS and name is not None:
            kind = _TEMPLATE_KINDS[section]
            st = self.new_st if change == "added" else self.old_st
            entity = _entity(st, kind, name)
            type_name = _type_name(entity) or _type_of(unit.body)
            self.templates.append(
                TemplateChange(
                    name,
                    kind,
                    change,
                    None if change == "added" else type_name,
                    type_name if change == "added" else None,
                )
            )
            if entity is not None:
                self.values.extend(_rows_as_changes(name, kind, entity, change, st))
            return
        if section in _TYPE_SECTIONS:
            return  # a TypeChange (added/removed) says it
        loc = _location(unit.doc, unit.parts)
        if change == "added":
            self.fields.append(FieldChange(section, name, "", "added", None, unit.body, None, loc))
        else:
            self.fields.append(
                FieldChange(section, name, "", "removed", unit.body, None, loc, None)
            )

    # -- fields as written -----------------------------------------------------------

    def _add_fields(
        self,
        section: str,
        old_name: str | None,
        new_name: str | None,
        ou: _Unit,
        nu: _Unit,
        raw: list[RawChange],
        cover: Iterable[str],
    ) -> None:
        cover = tuple(cover)
        renamed_from = old_name if old_name != new_name else None
        for c in raw:
            old_rel = _relative(c.old_parts, ou.parts)
            new_rel = _relative(c.new_parts, nu.parts)
            path = format_path(old_rel if old_rel is not None else new_rel or ())
            if cover and _covered(path, cover):
                continue
            self.fields.append(
                FieldChange(
                    section,
                    new_name,
                    path,
                    c.change,
                    c.old,
                    c.new,
                    _location(ou.doc, c.old_parts),
                    _location(nu.doc, c.new_parts),
                    format_path(new_rel) if c.change == "renamed" and new_rel is not None else None,
                    renamed_from,
                )
            )

    # -- effective values ------------------------------------------------------------

    def _settled_templates(
        self, old_units: dict[UnitKey, _Unit], new_units: dict[UnitKey, _Unit]
    ) -> set[UnitKey]:
        """Template units whose effective values cannot differ, so that their
        resolved properties need not be compared (the cost of comparing two
        large templates that differ in a few places).

        A template's values come from its body, its types, the inputs, and,
        through functions or ``copy``, other templates. So: when no part of
        the documents but templates differs (no type, input, import,
        repository, function definition, version...) and the inputs resolve
        alike, a template whose body is equal and names no function and no
        ``copy`` is settled. Anything else is compared value by value.
        """
        if getattr(self.old_st, "version", None) != getattr(self.new_st, "version", None):
            return set()
        for key in old_units.keys() | new_units.keys():
            if key[0] in _TEMPLATE_KINDS:
                continue
            ou, nu = old_units.get(key), new_units.get(key)
            if (
                ou is None
                or nu is None
                or ou.origin != nu.origin
                or not quick_equal(ou.body, nu.body)
            ):
                return set()
        if any(True for _ in _compare_inputs(self.old_st, self.new_st)):
            return set()
        pattern = _dependency_pattern()
        settled: set[UnitKey] = set()
        for key, nu in new_units.items():
            ou = old_units.get(key)
            if key[0] in _TEMPLATE_KINDS and ou is not None and quick_equal(ou.body, nu.body):
                text = _text_of(nu.body)
                if text is not None and not pattern.search(text):
                    settled.add(key)
        return settled

    def _effective(
        self,
        pairs: list[tuple[str, str | None, str | None]],
        old_units: dict[UnitKey, _Unit],
        new_units: dict[UnitKey, _Unit],
    ) -> tuple[dict[UnitKey, tuple[str, ...]], int]:
        """Effective values and requirement targets of every template pair.

        Returns, per template unit, the field paths the value changes cover,
        and the number of template pairs with no effective change."""
        covered: dict[UnitKey, tuple[str, ...]] = {}
        unchanged = 0
        self._effective_changed: set[UnitKey] = set()
        for section, kind in _TEMPLATE_KINDS.items():
            old_map = _entities(self.old_st, kind)
            new_map = _entities(self.new_st, kind)
            todo: list[tuple[str, str]] = []
            for s, o, n in pairs:
                if (
                    s == section
                    and o is not None
                    and n is not None
                    and o in old_map
                    and n in new_map
                ):
                    todo.append((o, n))
            # Templates the loader has but no unit names (e.g. a section the
            # document did not hold as a map): compared by name.
            for name in new_map:
                if (
                    name in old_map
                    and (section, name) not in new_units
                    and (section, name) not in old_units
                ):
                    todo.append((name, name))
            for o, n in todo:
                old_e, new_e = old_map[o], new_map[n]
                if o == n and (section, n) in self._settled:
                    if kind == "node":
                        changes = _requirement_changes(n, old_e, new_e)
                        if changes:  # a target renamed or gone: the body alone cannot say
                            self.requirements.extend(changes)
                            self._effective_changed.add((section, n))
                            continue
                    unchanged += 1
                    continue
                before_v, before_r = len(self.values), len(self.requirements)
                renamed_from = o if o != n else None
                self.values.extend(
                    _value_changes(n, kind, old_e, new_e, self.old_st, self.new_st, renamed_from)
                )
                if kind == "node":
                    self.values.extend(
                        _capability_changes(n, old_e, new_e, self.old_st, self.new_st, renamed_from)
                    )
                    self.requirements.extend(_requirement_changes(n, old_e, new_e))
                old_type, new_type = _type_name(old_e), _type_name(new_e)
                if old_type != new_type and o == n:
                    self.templates.append(TemplateChange(n, kind, "retyped", old_type, new_type))
                new_values = self.values[before_v:]
                if (
                    new_values
                    or len(self.requirements) > before_r
                    or old_type != new_type
                    or o != n
                ):
                    self._effective_changed.add((section, n))
                else:
                    unchanged += 1
                covered[(section, n)] = tuple(
                    _field_path_of(p) for v in new_values for p in (v.path, v.new_path) if p
                )
        return covered, unchanged

    # -- types -----------------------------------------------------------------------

    def _compare_types(self) -> Iterable[TypeChange]:
        old_types, new_types = own_types(self.old_st), own_types(self.new_st)
        renamed_old = {(kind, old): new for (kind, new), old in self.type_renames.items()}
        for key, t in new_types.items():
            if key not in old_types and key not in self.type_renames:
                yield TypeChange(t.name, t.kind, "added")
        for key, t in old_types.items():
            if key not in new_types and key not in renamed_old:
                yield TypeChange(t.name, t.kind, "removed")
        for key, new_t in new_types.items():
            old_key = key if key in old_types else (key[0], self.type_renames.get(key, ""))
            old_t = old_types.get(old_key)
            if old_t is None:
                continue
            old_parent = old_t.parent.name if old_t.parent is not None else None
            new_parent = new_t.parent.name if new_t.parent is not None else None
            derived = (old_parent, new_parent) if old_parent != new_parent else None
            props = tuple(_compare_definitions(old_t.properties, new_t.properties))
            if old_key != key:
                yield TypeChange(new_t.name, new_t.kind, "renamed", derived, props, old_t.name)
            elif derived or props or self._has_fields(f"{key[0]}_types", key[1]):
                yield TypeChange(new_t.name, new_t.kind, "changed", derived, props)

    def _renamed_paths(
        self, old_units: dict[UnitKey, _Unit], new_units: dict[UnitKey, _Unit]
    ) -> dict[str, str]:
        """Old diagnostic path prefix -> new one, for every renamed entry of
        the template's own document (diagnostic paths are document paths)."""
        renames: list[tuple[str, str, str]] = [
            (_SECTION_OF_KIND[t.kind], t.old_name, t.name)
            for t in self.templates
            if t.change == "renamed" and t.old_name
        ]
        renames += [(f"{kind}_types", old, new) for (kind, new), old in self.type_renames.items()]
        renames += [
            (f.section, f.old_entity, f.entity)
            for f in self.fields
            if f.change == "renamed" and not f.path and f.old_entity and f.entity
        ]
        out: dict[str, str] = {}
        for section, old, new in renames:
            ou, nu = old_units.get((section, old)), new_units.get((section, new))
            if ou is not None and nu is not None and not ou.origin and not nu.origin:
                out[format_path(ou.parts)] = format_path(nu.parts)
        return out

    def _has_fields(self, section: str, name: str) -> bool:
        return any(f.section == section and f.entity == name for f in self.fields)


def _text_of(value: Any) -> str | None:
    try:
        return repr(value)
    except Exception:  # noqa: BLE001 - then the template is compared value by value
        return None


def _dependency_pattern() -> re.Pattern[str]:
    """Quoted names of every function (1.x intrinsics, 2.0 ``$`` calls,
    registered ones) and ``copy``, as they appear in a body's ``repr``."""
    from toskit.functions import registry

    names = (
        set(registry.INTRINSICS_1_X) | set(registry.BUILTINS_2_0) | set(registry.registered_names())
    )
    names |= {"copy", "substitute"}
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"""['"](?:\$|(?:{alternatives})['"])""")


def _safe_key(value: Any) -> Hashable:
    try:
        return canonical(value)
    except TooDeep:
        return None


def _type_of(body: Any) -> Any:
    return body.get("type") if isinstance(body, Mapping) else None


def _leaves(body: Any) -> Counter[Hashable]:
    """A multiset of (path, leaf) of ``body``, at most ``_LEAF_CAP`` of them."""
    out: Counter[Hashable] = Counter()
    stack: list[tuple[Any, tuple[Hashable, ...]]] = [(body, ())]
    while stack and len(out) < _LEAF_CAP:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            continue
        if isinstance(value, Mapping):
            stack.extend((v, (*path, str(k))) for k, v in value.items())
        elif isinstance(value, (list, tuple)):
            stack.extend((v, (*path, i)) for i, v in enumerate(value))
        else:
            key = _safe_key(value)
            out[(path, key if key is not None else id(value))] += 1
    return out


def _similar(a: Counter[Hashable], b: Counter[Hashable]) -> float:
    """The share of leaves two bodies have in common (0 … 1)."""
    total = max(sum(a.values()), sum(b.values()))
    return sum((a & b).values()) / total if total else 1.0


def _relative(
    parts: tuple[Hashable, ...] | None, base: tuple[Hashable, ...]
) -> tuple[Hashable, ...] | None:
    if parts is None:
        return None
    return parts[len(base) :]


_PROPERTIES_PREFIX = "properties"


def _field_path_of(value_path: str) -> str:
    """The field path (inside the template body) of a value change's path."""
    if value_path.startswith("capabilities."):
        return value_path
    return (
        f"{_PROPERTIES_PREFIX}.{value_path}"
        if not value_path.startswith("[")
        else _PROPERTIES_PREFIX + value_path
    )


def _covered(path: str, cover: tuple[str, ...]) -> bool:
    """True when a value change at one of ``cover`` already reports ``path``."""
    for p in cover:
        if p == path:
            return True
        for a, b in ((p, path), (path, p)):
            if a.startswith(b) and a[len(b)] in ".[":
                return True
    return False


# -- templates, capabilities, requirements ------------------------------------------


def _entities(st: Any, kind: str) -> Mapping[str, Any]:
    attr = {
        "node": "node_templates",
        "relationship": "relationship_templates",
        "group": "groups",
        "policy": "policies",
    }[kind]
    value = getattr(st, attr, None)
    return value if isinstance(value, Mapping) else {}


def _entity(st: Any, kind: str, name: Any) -> Any:
    return _entities(st, kind).get(str(name)) if name is not None else None


def _type_name(entity: Any) -> str | None:
    t = getattr(entity, "type", None)
    return getattr(t, "name", None) if t is not None else None


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _value_parts(path: str) -> tuple[Hashable, ...]:
    return tuple(int(i) if i else k for k, i in _PATH_PART.findall(path))


def _source_location(
    st: Any, entity: Any, row_path: str, source: str | None, prefix: tuple[Hashable, ...]
) -> Any:
    """``file:line:column`` of the layer that set a value (see the module doc)."""
    if not source:
        return None
    doc = getattr(st, "document", None)
    rel = _value_parts(row_path)
    if source == "template":
        parts = getattr(entity, "parts", None)
        if parts is None:
            return None
        return _location(doc, (*parts, *prefix, "properties", *rel))
    if source.startswith("default: "):
        type_name = source[len("default: ") :]
        for kind in ("data", "node", "capability", "relationship", "group", "policy"):
            try:
                t = st.types_of(kind).get(type_name)
            except (ToskitError, AttributeError):
                t = None
            if t is not None and getattr(t, "doc", None) is not None:
                field = rel[-1] if rel and isinstance(rel[-1], str) else (rel[0] if rel else None)
                base = tuple(getattr(t, "parts", ()))
                definition = getattr(t, "definition", {})
                props = definition.get("properties") if isinstance(definition, Mapping) else None
                if isinstance(props, Mapping) and field in props:
                    return _location(t.doc, (*base, "properties", field, "default"))
                return _location(t.doc, base)
        return None
    if source.startswith("input: "):
        name = source[len("input: ") :]
        root = getattr(doc, "value", None)
        if isinstance(root, Mapping):
            for key in _TOPOLOGY_KEYS:
                topo = root.get(key)
                if (
                    isinstance(topo, Mapping)
                    and isinstance(topo.get("inputs"), Mapping)
                    and name in topo["inputs"]
                ):
                    return _location(doc, (key, "inputs", name))
        return None
    return None


def _rows(entity: Any) -> dict[str, Any]:
    """The property rows of ``entity`` by path: those of ``property_table()``
    (path, value, type, source), built without the table's row states
    (validity, which a diff does not show and which cost more than the rows)."""
    try:
        from toskit.tosca.model.template import build_rows

        rows = build_rows(
            entity._resolution, entity._definitions, entity._value_type, entity.type, False
        )
    except (AttributeError, TypeError):
        rows = list(entity.property_table())
    return {row.path: row for row in rows}


def _rows_as_changes(
    name: str,
    kind: str,
    entity: Any,
    change: str,
    st: Any,
    prefix: tuple[Hashable, ...] = (),
    label: str = "",
) -> list[ValueChange]:
    out = []
    for row in _rows(entity).values():
        loc = _source_location(st, entity, row.path, row.source, prefix)
        path = label + row.path
        if change == "added":
            out.append(
                ValueChange(
                    name, kind, path, change, None, row.value, None, row.source, row.type, None, loc
                )
            )
        else:
            out.append(
                ValueChange(
                    name, kind, path, change, row.value, None, row.source, None, row.type, loc, None
                )
            )
    return out


def _value_changes(
    name: str,
    kind: str,
    old_e: Any,
    new_e: Any,
    old_st: Any,
    new_st: Any,
    renamed_from: str | None,
    prefix: tuple[Hashable, ...] = (),
    label: str = "",
    owner_old: Any = None,
    owner_new: Any = None,
) -> list[ValueChange]:
    """The effective values of one entity that differ (tables only when the
    resolved properties differ at all: one equality walk otherwise)."""
    try:
        if same_tree(old_e.properties, new_e.properties):
            return []
    except TooDeep:
        pass  # the rows say what differs

    owner_old = owner_old if owner_old is not None else old_e
    owner_new = owner_new if owner_new is not None else new_e
    old_rows, new_rows = _rows(old_e), _rows(new_e)
    out: list[ValueChange] = []

    def where(st: Any, owner: Any, row: Any) -> str | None:
        return _source_location(st, owner, row.path, row.source, prefix)

    for path, n in new_rows.items():
        o = old_rows.get(path)
        if o is None:
            out.append(
                ValueChange(
                    name,
                    kind,
                    label + path,
                    "added",
                    None,
                    n.value,
                    None,
                    n.source,
                    n.type,
                    None,
                    where(new_st, owner_new, n),
                    renamed_from,
                )
            )
        elif not values_equal(o.value, n.value) and not _both_nan(o.value, n.value):
            out.append(
                ValueChange(
                    name,
                    kind,
                    label + path,
                    "changed",
                    o.value,
                    n.value,
                    o.source,
                    n.source,
                    n.type,
                    where(old_st, owner_old, o),
                    where(new_st, owner_new, n),
                    renamed_from,
                )
            )
    for path, o in old_rows.items():
        if path not in new_rows:
            out.append(
                ValueChange(
                    name,
                    kind,
                    label + path,
                    "removed",
                    o.value,
                    None,
                    o.source,
                    None,
                    o.type,
                    where(old_st, owner_old, o),
                    None,
                    renamed_from,
                )
            )
    return _value_renames(out)


def _value_renames(changes: list[ValueChange]) -> list[ValueChange]:
    """A removed leaf whose value reappears, equal and from the same kind of
    layer, at an added leaf is one ``renamed`` change (a typo fixed)."""
    removed = [v for v in changes if v.change == "removed"]
    added = [v for v in changes if v.change == "added"]
    if not removed or not added:
        return changes
    pairs: dict[int, ValueChange] = {}
    taken: set[int] = set()
    for r in removed:
        for a in added:
            if id(a) in taken or r.old_source != a.new_source:
                continue
            try:
                equal = same_tree(r.old, a.new)
            except TooDeep:
                equal = False
            if equal:
                pairs[id(r)] = a
                taken.add(id(a))
                break
    if not pairs:
        return changes
    out = []
    for v in changes:
        if id(v) in taken:
            continue
        moved = pairs.get(id(v))
        if moved is None:
            out.append(v)
            continue
        out.append(
            ValueChange(
                v.entity,
                v.kind,
                v.path,
                "renamed",
                v.old,
                moved.new,
                v.old_source,
                moved.new_source,
                moved.type,
                v.old_location,
                moved.new_location,
                v.old_entity,
                moved.path,
            )
        )
    return out


def _both_nan(a: Any, b: Any) -> bool:
    return isinstance(a, float) and isinstance(b, float) and a != a and b != b


def _capability_changes(
    name: str, old_e: Any, new_e: Any, old_st: Any, new_st: Any, renamed_from: str | None
) -> list[ValueChange]:
    """The effective capability property values of one node that differ
    (path ``capabilities.<name>.properties.<leaf>``)."""
    old_caps = getattr(old_e, "capabilities", None) or {}
    new_caps = getattr(new_e, "capabilities", None) or {}
    out: list[ValueChange] = []
    for cap in [*new_caps, *(c for c in old_caps if c not in new_caps)]:
        label = f"capabilities.{cap}.properties."
        prefix = ("capabilities", cap)
        oc, nc = old_caps.get(cap), new_caps.get(cap)
        if oc is not None and nc is not None:
            out.extend(
                _value_changes(
                    name, "node", oc, nc, old_st, new_st, renamed_from, prefix, label, old_e, new_e
                )
            )
        elif nc is not None:
            for v in _rows_as_changes(name, "node", nc, "added", new_st, prefix, label):
                out.append(_with_owner_location(v, new_st, new_e, prefix, renamed_from))
        elif oc is not None:
            for v in _rows_as_changes(name, "node", oc, "removed", old_st, prefix, label):
                out.append(_with_owner_location(v, old_st, old_e, prefix, renamed_from))
    return out


def _with_owner_location(
    v: ValueChange, st: Any, owner: Any, prefix: tuple[Hashable, ...], renamed_from: str | None
) -> ValueChange:
    from toskit.records import replace

    path = v.path.split(".properties.", 1)[1]
    if v.change == "added":
        return replace(
            v,
            new_location=_source_location(st, owner, path, v.new_source, prefix),
            old_entity=renamed_from,
        )
    return replace(
        v,
        old_location=_source_location(st, owner, path, v.old_source, prefix),
        old_entity=renamed_from,
    )


def _targets(entity: Any) -> dict[str, list[str | None]]:
    out: dict[str, list[str | None]] = {}
    for req in getattr(entity, "requirements", None) or ():
        target = getattr(req, "target", None)
        out.setdefault(req.name, []).append(
            getattr(target, "name", None) if target is not None else None
        )
    return out


def _requirement_changes(name: str, old_e: Any, new_e: Any) -> list[RequirementChange]:
    old_t, new_t = _targets(old_e), _targets(new_e)
    out: list[RequirementChange] = []
    for req in [*new_t, *(r for r in old_t if r not in new_t)]:
        olds, news = old_t.get(req, []), new_t.get(req, [])
        for i in range(max(len(olds), len(news))):
            o = olds[i] if i < len(olds) else None
            n = news[i] if i < len(news) else None
            if o != n:
                out.append(RequirementChange(name, req, i, o, n))
    return out


# -- types: effective property definitions -------------------------------------------


def own_types(st: Any) -> dict[tuple[str, str], Any]:
    """The template's own types (not the normative profile), by (kind, name).

    Read kind by kind: ``types`` keeps one type per name (the node type when
    two kinds share a name), and a diff must not miss the other one.
    """
    out: dict[tuple[str, str], Any] = {}
    for kind in KINDS:
        try:
            namespace = st.types_of(kind)
        except (ToskitError, AttributeError):
            continue
        for name, t in namespace.items():
            if not t.normative:
                out[(kind, name)] = t
    return out


def _plain_default(pdef: Any) -> Any:
    return None if pdef.default is NO_DEFAULT else pdef.default


def _constraints(pdef: Any) -> list[str]:
    return [str(c) for c in getattr(pdef, "constraints", ()) or ()]


def _compare_definitions(
    old: Mapping[str, Any], new: Mapping[str, Any]
) -> Iterable[PropertyDefinitionChange]:
    for name, pdef in new.items():
        if name not in old:
            yield PropertyDefinitionChange(name, "added", None, pdef.type)
    for name, pdef in old.items():
        if name not in new:
            yield PropertyDefinitionChange(name, "removed", pdef.type, None)
    for name, n in new.items():
        o = old.get(name)
        if o is None:
            continue
        if o.type != n.type:
            yield PropertyDefinitionChange(name, "type", o.type, n.type)
        if (o.default is NO_DEFAULT) != (n.default is NO_DEFAULT) or not _same(
            _plain_default(o), _plain_default(n)
        ):
            yield PropertyDefinitionChange(name, "default", _plain_default(o), _plain_default(n))
        if bool(o.required) != bool(n.required):
            yield PropertyDefinitionChange(name, "required", bool(o.required), bool(n.required))
        oc, nc = _constraints(o), _constraints(n)
        if oc != nc:
            yield PropertyDefinitionChange(name, "constraints", oc, nc)


def _same(a: Any, b: Any) -> bool:
    try:
        return values_equal(a, b) or _both_nan(a, b)
    except TooDeep:
        return a is b


# -- inputs and diagnostics ----------------------------------------------------------


def _compare_inputs(old_st: Any, new_st: Any) -> Iterable[tuple[str, Any, Any]]:
    old_in = old_st.inputs if isinstance(old_st.inputs, Mapping) else {}
    new_in = new_st.inputs if isinstance(new_st.inputs, Mapping) else {}
    for name in [*new_in, *(k for k in old_in if k not in new_in)]:
        o, n = old_in.get(name), new_in.get(name)
        if name not in old_in or name not in new_in or not _same(o, n):
            yield (name, o, n)


def diagnostic_key(
    d: Diagnostic, renames: Mapping[str, str] | None = None
) -> tuple[str, str, str, str]:
    """What identifies a diagnostic across versions: severity, code and path
    (the message too when there is no path), never file, line or column.

    ``renames`` maps old path prefixes to new ones (a renamed template,
    type or input): an old diagnostic under a renamed entry is keyed as if
    written under its new name, so a rename neither fixes nor introduces
    the problems the entry carries."""
    path = d.path or ""
    if renames and path:
        for old, new in renames.items():
            if path == old or (path.startswith(old) and path[len(old)] in ".["):
                path = new + path[len(old) :]
                break
    return (d.severity, d.code, path, "" if d.path else d.message)


def compare_diagnostics(
    old: Iterable[Diagnostic], new: Iterable[Diagnostic], renames: Mapping[str, str] | None = None
) -> list[DiagnosticChange]:
    """Diagnostics introduced (in ``new`` order) then fixed (in ``old`` order).

    Matching is by :func:`diagnostic_key` (old paths through ``renames``),
    as a multiset: a second copy of one problem is introduced even when
    the first was already there.
    """
    old_list, new_list = list(old), list(new)
    old_keys = [diagnostic_key(d, renames) for d in old_list]
    new_keys = [diagnostic_key(d) for d in new_list]
    old_count = Counter(old_keys)
    new_count = Counter(new_keys)
    out: list[DiagnosticChange] = []
    seen: Counter[tuple[str, str, str, str]] = Counter()
    for d, key in zip(new_list, new_keys):
        seen[key] += 1
        if seen[key] > old_count[key]:
            out.append(DiagnosticChange("introduced", d))
    seen.clear()
    for d, key in zip(old_list, old_keys):
        seen[key] += 1
        if seen[key] > new_count[key]:
            out.append(DiagnosticChange("fixed", d))
    return out
