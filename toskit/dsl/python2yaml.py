"""Python DSL classes and templates -> a TOSCA document (plain data).

:func:`to_yaml_data` reads a module's namespace (its classes and the
templates it made) and returns an :class:`Emitted`: the TOSCA document as
plain data, a side table from YAML paths to the Python positions that
wrote them (so diagnostics found in the YAML can be put back on the
Python lines), and the diagnostics found while reading the Python.

Rules: a class is a type; its annotations are
properties; class attribute values are defaults (``Property(...)`` /
``Attribute(...)`` carry more); the string below an attribute is its
description; the class docstring is the type's description; ``_type_name``
sets the TOSCA name. A plain class attribute without an annotation that
names an inherited property refines that property's default. A
``DataEntity`` instance becomes a map of the fields it was given, so a
partial default merges like YAML.
"""

from __future__ import annotations

import inspect
import sys
from collections import ChainMap
from collections.abc import Generator, Mapping
from typing import Any, TypeGuard

from toskit.diagnostics import Diagnostic, did_you_mean, format_path
from toskit.dsl.annotations import AnnotationError, interpret
from toskit.dsl.entities import (
    MISSING,
    DataEntity,
    Property,
    SourcePosition,
    ToscaTemplate,
    ToscaType,
    _ValueEntity,
)
from toskit.dsl.normative import KIND_PREFIXES, KIND_SECTIONS
from toskit.dsl.sourcemap import clean_docstring, index_for
from toskit.plain import MAX_DEPTH, TooDeep, describe, drive
from toskit.records import field, record
from toskit.source import FrozenMap

__all__ = ["DSL_VERSION", "Emitted", "to_yaml_data"]

DSL_VERSION = "tosca_simple_unfurl_1_0_0"

_TEMPLATE_SECTIONS = {
    "node": "node_templates",
    "relationship": "relationship_templates",
    "group": "groups",
    "policy": "policies",
}
_PYTHON_TYPES = {"string": (str,), "integer": (int,), "float": (int, float), "boolean": (bool,)}


@record
class Emitted:
    """The TOSCA document written from Python, plus where each part came from."""

    data: dict[str, Any]
    locations: dict[str, SourcePosition] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    default_file: str | None = None

    def locate(self, path: str) -> SourcePosition | None:
        """The Python position of a YAML path, or of its nearest located ancestor."""
        candidate = path
        while candidate:
            if candidate in self.locations:
                return self.locations[candidate]
            cut = max(candidate.rfind("."), candidate.rfind("["))
            if cut <= 0:
                break
            candidate = candidate[:cut]
        return None


def _tosca_classes(value: Any) -> TypeGuard[type[ToscaType]]:
    return isinstance(value, type) and issubclass(value, ToscaType)


def _tosca_parent(cls: type[ToscaType]) -> type[ToscaType] | None:
    """The first base of the same kind (the TOSCA parent), or ``None``."""
    for base in cls.__bases__:
        if _tosca_classes(base) and base._tosca_kind == cls._tosca_kind:
            return base
    return None


def _describe_value(value: Any) -> str:
    if isinstance(value, _ValueEntity):
        return f"{type(value).__name__} value"
    return describe(value)


class _Writer:
    """One conversion: the queue of classes to write and what was found."""

    def __init__(self, namespace: Mapping[str, Any], default_file: str | None) -> None:
        self.namespace = namespace
        self.default_file = default_file
        self.data: dict[str, Any] = {"tosca_definitions_version": DSL_VERSION}
        self.emitted = Emitted(self.data, default_file=default_file)
        self.written: dict[type, str] = {}
        self.names: dict[tuple[str, str], type] = {}
        self.queue: list[type[ToscaType]] = []
        # Set while writing a template's _extra: id(template) -> name.
        self.template_names: dict[int, str] | None = None
        # Class -> property names it and its ancestors define (ancestor_properties).
        self._property_names: dict[type, set[str]] = {}

    # -- diagnostics -------------------------------------------------------

    def diag(
        self,
        severity: str,
        code: str,
        message: str,
        parts: tuple,
        position: SourcePosition | None,
        hint: str | None = None,
    ) -> None:
        file = position.file if position else self.default_file
        line = position.line if position else None
        index = index_for(file) if position else None
        self.emitted.diagnostics.append(
            Diagnostic(
                severity,
                code,
                message,
                path=format_path(parts),
                file=file,
                line=line,
                column=position.column if position else None,
                hint=hint,
                source_line=index.line_text(line) if index else None,
            )
        )

    def locate(self, parts: tuple, position: SourcePosition | None) -> None:
        if position is not None:
            self.emitted.locations.setdefault(format_path(parts), position)

    # -- positions ---------------------------------------------------------

    @staticmethod
    def class_file(cls: type) -> str | None:
        file = cls.__dict__.get("_tosca_file")
        if file:
            return file
        try:
            return inspect.getsourcefile(cls) or inspect.getfile(cls)
        except (TypeError, OSError):
            return None

    def class_position(self, cls: type, attribute: str | None = None) -> SourcePosition | None:
        file = self.class_file(cls)
        index = index_for(file)
        info = index.classes.get(cls.__qualname__) if index else None
        if info is None:
            return SourcePosition(file, None, None) if file else None
        if attribute is not None and attribute in info.attributes:
            attr = info.attributes[attribute]
            return SourcePosition(file, attr.line, attr.column)
        return SourcePosition(file, info.line, info.column)

    def attribute_docstring(self, cls: type, attribute: str) -> str | None:
        index = index_for(self.class_file(cls))
        info = index.classes.get(cls.__qualname__) if index else None
        attr = info.attributes.get(attribute) if info else None
        return attr.docstring if attr else None

    @staticmethod
    def keyword_position(instance: Any, keyword: str) -> SourcePosition | None:
        position: SourcePosition | None = instance.__dict__.get("_position")
        if position is None:
            return None
        index = index_for(position.file)
        call = index.call_at(position.line, position.column) if index else None
        if call is not None and keyword in call.keywords:
            line, column = call.keywords[keyword]
            return SourcePosition(position.file, line, column)
        return position

    # -- values ------------------------------------------------------------

    def plain(
        self, value: Any, parts: tuple, position: SourcePosition | None, stack: tuple = ()
    ) -> Any:
        """``value`` as plain YAML data; records positions; reports what cannot be written.

        Walked with :func:`toskit.plain.drive` (an explicit stack): a default
        nested as deep as the loader accepts (500 levels) takes a few Python
        frames, not two per level.
        """
        try:
            return drive(self._plain_step, value, parts, position, stack)
        except TooDeep:
            self.diag(
                "error",
                "limit-exceeded",
                f"{format_path(parts)}: the value is nested deeper than {MAX_DEPTH} levels",
                parts,
                position,
                hint="TOSCA documents nest at most that deep (the loader's max_depth)",
            )
            return None

    def _plain_step(
        self, value: Any, parts: tuple, position: SourcePosition | None, stack: tuple
    ) -> Any:
        """One level of :meth:`plain`: a result, or a generator for a container."""
        if id(value) in stack:
            self.diag(
                "error",
                "value-cycle",
                f"{format_path(parts)}: the value contains itself",
                parts,
                position,
            )
            return None
        if value is None or type(value) in (str, bool, int, float):
            return value
        # Subclasses (``2 * GB`` is a ``Size``, an ``IntEnum``...) are written as their base value.
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, str):
            return str(value)
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            return float(value)
        stack = (*stack, id(value))
        if isinstance(value, ToscaTemplate) and self.template_names is not None:
            # Inside a template's _extra (requirements...), a template stands for its name.
            name = value._name if value._name is not None else self.template_names.get(id(value))
            if name is not None:
                return name
        if isinstance(value, ToscaTemplate):
            self.diag(
                "error",
                "type-mismatch",
                f"{format_path(parts)}: a {value._tosca_kind} template cannot be a property value",
                parts,
                position,
            )
            return None
        if isinstance(value, _ValueEntity):
            self.enqueue(type(value))
            own = value.__dict__.get("_position") or position
            self.locate(parts, own)
            return self._fill_entity(value, parts, own, stack)
        if isinstance(value, Mapping):
            return self._fill_map(value, parts, position, stack)
        if isinstance(value, (list, tuple)):
            return self._fill_list(value, parts, position, stack)
        if isinstance(value, (set, frozenset)):
            return self._fill_list(sorted(value, key=repr), parts, position, stack)
        self.diag(
            "error",
            "type-mismatch",
            f"{format_path(parts)}: a Python {type(value).__name__} cannot be written as a TOSCA "
            "value",
            parts,
            position,
            hint="use str, int, float, bool, None, lists, dicts or DataEntity values",
        )
        return None

    def _fill_entity(
        self, value: Any, parts: tuple, own: Any, stack: tuple
    ) -> Generator[Any, Any, Any]:
        out: dict[str, Any] = {}
        names = getattr(type(value), "_tosca_names", {}) or {}
        for key, item in value._values.items():
            tosca_key = names.get(key, key)
            where = self.keyword_position(value, key) or own
            self.locate((*parts, tosca_key), where)
            out[tosca_key] = yield (item, (*parts, tosca_key), where, stack)
        return out

    def _fill_map(
        self, value: Mapping, parts: tuple, position: Any, stack: tuple
    ) -> Generator[Any, Any, Any]:
        plain_map: dict[Any, Any] = {}  # keys are any YAML scalar or complex key, not only strings
        for key, item in value.items():
            if not _is_yaml_key(key):
                self.diag(
                    "error",
                    "type-mismatch",
                    f"{format_path(parts)}: map key {key!r} is not a scalar",
                    parts,
                    position,
                )
                continue
            plain_map[key] = yield (item, (*parts, key), position, stack)
        return plain_map

    def _fill_list(
        self, value: Any, parts: tuple, position: Any, stack: tuple
    ) -> Generator[Any, Any, Any]:
        out = []
        for i, item in enumerate(value):
            out.append((yield (item, (*parts, i), position, stack)))
        return out

    # -- types -------------------------------------------------------------

    def enqueue(self, cls: type[ToscaType]) -> None:
        if cls._tosca_normative or cls._tosca_abstract or cls in self.written or cls in self.queue:
            return
        self.queue.append(cls)

    def ancestor_properties(self, cls: type[ToscaType]) -> set[str]:
        """Property names the ancestors of ``cls`` define (memoised per class).

        Each class's set is built from its direct bases' (all earlier in the
        reversed MRO), so a 2,000-deep chain costs one pass, not 2,000 walks
        of the chain.
        """
        names: set[str] = set()
        for base in cls.__bases__:
            names |= self._names_through(base)
        return names

    def _names_through(self, cls: type) -> set[str]:
        """Property names ``cls`` and its ancestors define."""
        memo = self._property_names
        if cls in memo:
            return memo[cls]
        for klass in reversed(cls.__mro__):
            if klass in memo:
                continue
            names: set[str] = set()
            for base in klass.__bases__:
                names |= memo.get(base, set())
            if _tosca_classes(klass):
                definition = klass.__dict__.get("_tosca_definition")
                if isinstance(definition, Mapping):
                    names.update((definition.get("properties") or {}).keys())
                names.update(klass.__dict__.get("__annotations__", {}).keys())
            memo[klass] = names
        return memo[cls]

    def write_type(self, cls: type[ToscaType]) -> None:
        kind = cls._tosca_kind
        name = cls._type_name
        section = KIND_SECTIONS[kind]
        self.written[cls] = name
        parts = (section, name)
        position = self.class_position(cls)
        self.locate(parts, position)
        if not isinstance(name, str) or not name:
            self.diag(
                "error",
                "invalid-type-name",
                f"class {cls.__qualname__}: _type_name must be a non-empty string",
                parts,
                position,
            )
            return
        other = self.names.get((kind, name))
        if other is not None and other is not cls:
            self.diag(
                "error",
                "duplicate-type",
                f"{kind} type '{name}' is defined by two classes: {other.__qualname__} and "
                f"{cls.__qualname__}",
                parts,
                position,
                hint="give one of them another _type_name",
            )
            return
        self.names[(kind, name)] = cls
        definition: dict[str, Any] = {}
        parent = _tosca_parent(cls)
        explicit_parent = cls.__dict__.get("_derived_from")
        primitive = cls.__dict__.get("_type") if kind == "data" else None
        if explicit_parent:
            definition["derived_from"] = explicit_parent
        elif primitive:
            definition["derived_from"] = primitive
        elif parent is not None and not parent._tosca_abstract:
            self.enqueue(parent)
            if parent._type_name != f"{KIND_PREFIXES[kind]}Root":
                definition["derived_from"] = parent._type_name
        doc = cls.__dict__.get("__doc__")
        if isinstance(doc, str) and doc.strip():
            definition["description"] = clean_docstring(doc)
        for key in ("version", "metadata", "constraints", "validation"):
            value = cls.__dict__.get(f"_{key}")
            if value is not None:
                definition[key] = self.plain(value, (*parts, key), position)
        self.write_fields(cls, definition, parts)
        extra = cls.__dict__.get("_tosca_extra")
        if isinstance(extra, Mapping):
            for key, value in extra.items():
                value = self.plain(value, (*parts, key), position)
                if isinstance(value, dict) and isinstance(definition.get(key), dict):
                    # e.g. properties the annotations wrote plus verbatim ones
                    definition[key] = {
                        **definition[key],
                        **{k: v for k, v in value.items() if k not in definition[key]},
                    }
                else:
                    definition.setdefault(key, value)
        self.data.setdefault(section, {})[name] = definition

    def module_namespace(self, cls: type) -> Mapping[str, Any]:
        """The globals string annotations of ``cls`` are read in."""
        recorded = cls.__dict__.get("_tosca_globals")
        if not (isinstance(recorded, Mapping) and recorded):
            module = sys.modules.get(cls.__module__)
            recorded = vars(module) if module is not None and cls.__module__ != "toskit.dsl" else {}
        # The namespace being converted comes second: it also sees classes
        # made inside a function, which are not module globals.
        return ChainMap(dict(recorded), dict(self.namespace))

    def write_fields(self, cls: type[ToscaType], definition: dict[str, Any], parts: tuple) -> None:
        annotations = dict(cls.__dict__.get("__annotations__", {}))
        rename = cls.__dict__.get("_tosca_names") or {}
        names = self.field_names(cls, annotations, parts)
        namespace = self.module_namespace(cls)
        for attr in names:
            value = cls.__dict__.get(attr, MISSING)
            spec = value if isinstance(value, Property) else None
            default = spec.default if spec is not None else value
            tosca_name = (spec.name if spec and spec.name else None) or rename.get(attr, attr)
            is_attribute = bool(spec and spec._attribute)
            section = "attributes" if is_attribute else "properties"
            field_parts = (*parts, section, tosca_name)
            position = self.class_position(cls, attr)
            self.locate(field_parts, position)
            prop: dict[str, Any] = {}
            required = True
            schema_type: str | None = None
            expected_class: type[ToscaType] | None = None
            if attr in annotations:
                meaning = self.annotation_meaning(
                    cls, attr, annotations[attr], namespace, field_parts, position
                )
                if meaning is None:
                    # Already reported: keep the rest of the template free of follow-on errors.
                    required = False
                else:
                    for used in meaning.classes:
                        self.enqueue(used)
                    if meaning.target is not None:
                        self.write_relation(definition, tosca_name, meaning, parts, position)
                        continue
                    prop.update(meaning.schema)
                    required = meaning.required
                    schema_type = meaning.schema.get("type")
                    data_classes = [c for c in meaning.classes if issubclass(c, DataEntity)]
                    if schema_type and data_classes and data_classes[0]._type_name == schema_type:
                        expected_class = data_classes[0]
            if spec is not None:
                self.write_spec(spec, prop, field_parts, position)
                schema_type = spec.type or schema_type
                required = spec.required if spec.required is not None else required
            description = (spec.description if spec else None) or self.attribute_docstring(
                cls, attr
            )
            if description:
                prop["description"] = description
            if default is None and spec is None and attr in annotations:
                # ``x: int = None`` reads as "optional, no default" (Unfurl's convention).
                required = False
                default = MISSING
            if not required and not is_attribute:
                prop["required"] = False
            if default is not MISSING:
                default_parts = (*field_parts, "default")
                self.locate(default_parts, position)
                self.check_default(
                    cls, tosca_name, default, schema_type, expected_class, field_parts, position
                )
                prop["default"] = self.plain(default, default_parts, position)
            definition.setdefault(section, {})[tosca_name] = prop

    def write_spec(
        self, spec: Property, prop: dict[str, Any], field_parts: tuple, position: Any
    ) -> None:
        """What a ``Property(...)`` says beyond the annotation, into ``prop``."""
        if spec.type:
            prop["type"] = spec.type
        for key in (
            "constraints",
            "validation",
            "status",
            "metadata",
            "entry_schema",
            "key_schema",
        ):
            item = getattr(spec, key)
            if item is not None:
                prop[key] = self.plain(item, (*field_parts, key), position)
        for key, item in spec.extra.items():
            prop[key] = self.plain(item, (*field_parts, key), position)

    def field_names(self, cls: type[ToscaType], annotations: dict, parts: tuple) -> list[str]:
        """The class's TOSCA fields: its annotations, then its ``Property``
        values and plain values of inherited properties; another plain
        value (an unannotated attribute) is a warning."""
        kind = cls._tosca_kind
        inherited = self.ancestor_properties(cls)
        names = list(annotations)
        for attr, value in cls.__dict__.items():
            if attr in annotations or attr.startswith("_"):
                continue
            if isinstance(value, Property) or (attr in inherited and _is_plain_value(value)):
                names.append(attr)
            elif _is_plain_value(value) and kind in ("data", "node"):
                self.diag(
                    "warning",
                    "unannotated-attribute",
                    f"class {cls.__qualname__}: attribute '{attr}' has no annotation and is not an "
                    f"inherited property, so it is not a TOSCA property",
                    parts,
                    self.class_position(cls, attr),
                    hint=f"annotate it (e.g. '{attr}: {type(value).__name__} = ...') "
                    "to make it a property",
                )
        return names

    def annotation_meaning(
        self,
        cls: type[ToscaType],
        attr: str,
        annotation: Any,
        namespace: Mapping[str, Any],
        field_parts: tuple,
        position: Any,
    ) -> Any:
        """What the annotation of ``attr`` means (:func:`interpret`); ``None``
        after reporting an unknown type (with a did-you-mean among the
        module's TOSCA classes) or an annotation it cannot read."""
        try:
            return interpret(annotation, namespace, cls._tosca_kind)
        except AnnotationError as exc:
            code = (
                "unknown-type" if exc.message.startswith("unknown name") else "invalid-annotation"
            )
            hint = exc.hint
            if code == "unknown-type":
                word = exc.message.split("'")[1]
                tosca = [k for k, v in namespace.items() if _tosca_classes(v)]
                hint = did_you_mean(word, tosca) or hint
            self.diag(
                "error",
                code,
                f"class {cls.__qualname__}: {exc.message} for '{attr}'",
                field_parts,
                position,
                hint=hint,
            )
            return None

    def write_relation(
        self, definition: dict, name: str, meaning: Any, parts: tuple, position: Any
    ) -> None:
        target = meaning.target
        if target._tosca_kind == "capability":
            definition.setdefault("capabilities", {})[name] = {"type": target._type_name}
            return
        requirement: dict[str, Any] = {"node": target._type_name}
        if not meaning.required:
            requirement["occurrences"] = [0, 1]
        definition.setdefault("requirements", []).append({name: requirement})
        self.locate((*parts, "requirements", name), position)

    def check_default(
        self,
        cls: type[ToscaType],
        name: str,
        default: Any,
        schema_type: str | None,
        expected_class: type[ToscaType] | None,
        parts: tuple,
        position: SourcePosition | None,
    ) -> None:
        """A default whose Python type cannot be the declared type: ``type-mismatch`` here.

        Only the cases Python can decide on its own (primitives and data
        classes); everything else is validated by the TOSCA loader.
        """
        problem = None
        primitive = getattr(expected_class, "_type", None) if expected_class is not None else None
        if primitive:
            # A data type derived from a primitive holds that primitive's values.
            schema_type, expected_class = primitive, None
        if schema_type in _PYTHON_TYPES and isinstance(
            default, (str, int, float, bool, list, dict, _ValueEntity)
        ):
            allowed = _PYTHON_TYPES[schema_type]
            ok = isinstance(default, allowed) and not (
                isinstance(default, bool) and bool not in allowed
            )
            if not ok:
                problem = f"expected {schema_type}, got {_describe_value(default)}"
        elif expected_class is not None and isinstance(default, _ValueEntity):
            if not isinstance(default, expected_class):
                problem = (
                    f"expected {expected_class._type_name}, got {type(default)._type_name} value"
                )
        elif expected_class is not None and isinstance(default, (str, int, float, bool, list)):
            problem = f"expected {expected_class._type_name}, got {_describe_value(default)}"
        if problem:
            self.diag(
                "error",
                "type-mismatch",
                f"{cls._tosca_kind} type '{cls._type_name}': default of property '{name}': "
                f"{problem}",
                (*parts, "default"),
                position,
            )

    # -- templates ---------------------------------------------------------

    def write_templates(self, templates: list[ToscaTemplate]) -> None:
        names = {id(v): k for k, v in self.namespace.items() if isinstance(v, ToscaTemplate)}
        seen_ids: set[int] = set()
        for template in templates:
            if id(template) in seen_ids:
                continue
            seen_ids.add(id(template))
            cls = type(template)
            kind = cls._tosca_kind
            position = template.__dict__.get("_position")
            name = template._name if template._name is not None else names.get(id(template))
            if not isinstance(name, str) or not name:
                self.diag(
                    "error",
                    "missing-template-name",
                    f"a {cls.__name__} template has no name",
                    ("topology_template",),
                    position,
                    hint=f'pass the name first: {cls.__name__}("my_name", ...), '
                    "or bind it to a module variable",
                )
                continue
            section = _TEMPLATE_SECTIONS[kind]
            topology = self.data.setdefault("topology_template", {})
            parts = ("topology_template", section, name)
            existing = topology.get(section, {})
            if name in existing:
                self.diag(
                    "error",
                    "duplicate-template",
                    f"{kind} template '{name}' is defined twice",
                    parts,
                    position,
                )
                continue
            self.enqueue(cls)
            self.locate(parts, position)
            body: dict[str, Any] = {"type": cls._type_name}
            rename = getattr(cls, "_tosca_names", {}) or {}
            properties: dict[str, Any] = {}
            requirements: list[dict[str, Any]] = []
            for key, value in template._values.items():
                tosca_key = rename.get(key, key)
                where = self.keyword_position(template, key) or position
                if isinstance(value, ToscaTemplate) and value._tosca_kind == "node":
                    # Unfurl style: a node template passed for a requirement.
                    target = value._name if value._name is not None else names.get(id(value))
                    requirements.append({tosca_key: target})
                    self.locate((*parts, "requirements"), where)
                    continue
                self.locate((*parts, "properties", tosca_key), where)
                properties[tosca_key] = self.plain(value, (*parts, "properties", tosca_key), where)
            if properties:
                body["properties"] = properties
                self.locate((*parts, "properties"), position)
            if requirements:
                body["requirements"] = requirements
            self.template_names = names
            try:
                for key, value in template._extra.items():
                    body.setdefault(key, self.plain(value, (*parts, key), position))
            finally:
                self.template_names = None
            topology.setdefault(section, {})[name] = body

    def drain(self) -> None:
        while self.queue:
            self.write_type(self.queue.pop(0))


def _is_yaml_key(key: Any) -> bool:
    """A scalar, or a complex YAML key as toskit's loader makes it (FrozenMap/tuple of such)."""
    stack = [key]
    while stack:
        current = stack.pop()
        if current is None or type(current) in (str, int, float, bool):
            continue
        if isinstance(current, FrozenMap):
            stack.extend(current.keys())
            stack.extend(current.values())
        elif type(current) is tuple:
            stack.extend(current)
        else:
            return False
    return True


def _is_plain_value(value: Any) -> bool:
    if isinstance(value, (staticmethod, classmethod, property, type)) or callable(value):
        return isinstance(value, _ValueEntity)
    return not inspect.isdatadescriptor(value) and not inspect.ismodule(value)


def _deep_merge(target: dict, extra: Mapping) -> None:
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(target.get(key), dict):
            _deep_merge(target[key], value)
        else:
            target[key] = value


def to_yaml_data(
    source: Any,
    *,
    templates: list[ToscaTemplate] | None = None,
    filename: str | None = None,
) -> Emitted:
    """The TOSCA document for the DSL classes and templates in ``source``.

    ``source`` is a module or a namespace mapping (a module's globals).
    ``templates`` lists templates in creation order (``load_module`` collects
    them while the module runs); templates bound to names in ``source`` are
    always included.
    """
    namespace: Mapping[str, Any] = vars(source) if not isinstance(source, Mapping) else source
    filename = filename or namespace.get("__file__")
    writer = _Writer(namespace, filename)
    doc = namespace.get("__doc__")
    if isinstance(doc, str) and doc.strip():
        writer.data["description"] = clean_docstring(doc)
    for value in list(namespace.values()):
        if _tosca_classes(value):
            writer.enqueue(value)
    writer.drain()
    found = list(templates or [])
    found += [v for v in namespace.values() if isinstance(v, ToscaTemplate)]
    writer.write_templates(found)
    writer.drain()
    # Order the sections as TOSCA documents usually are.
    ordered: dict[str, Any] = {"tosca_definitions_version": DSL_VERSION}
    if "description" in writer.data:
        ordered["description"] = writer.data["description"]
    for section in KIND_SECTIONS.values():
        if section in writer.data:
            ordered[section] = writer.data[section]
    if "topology_template" in writer.data:
        ordered["topology_template"] = writer.data["topology_template"]
    extra = namespace.get("_tosca_document")
    if isinstance(extra, Mapping):
        _deep_merge(ordered, writer.plain(extra, (), None))
    writer.emitted.data = ordered
    return writer.emitted
