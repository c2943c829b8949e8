"""A TOSCA document (plain data) -> Python source using ``toskit.dsl``.

The output is what a person would write (the seed's Python blocks are the
model): ``from toskit import dsl``, one class per type with its docstring,
annotations for properties, defaults as class attribute values, the
description of a property as the string below it, node templates as calls
with keyword properties (data-typed values as calls of their data
classes), and ``__all__``. The output is deterministic: the same data
always gives the same text.

What plain annotations cannot say is still kept, so that the Python
loads back to a template with the same meaning:

* property details (constraints, status, metadata, validation, an
  explicit type the annotation cannot name) -> ``dsl.Property(...)``;
* type keys the DSL does not model (requirements, capabilities,
  interfaces, artifacts, ...) -> ``_tosca_extra = {...}``;
* a parent TOSCA does not define -> ``_derived_from = "..."`` (so the
  ``unknown-type`` diagnostic survives the round trip);
* template keys other than properties -> ``_extra={...}``;
* other document sections (inputs, outputs, imports, metadata, groups,
  policies, relationship templates, templates of unknown types) ->
  ``_tosca_document = {...}``.
"""

from __future__ import annotations

import functools
import json
import keyword
import math
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from toskit.dsl.entities import SPECIAL_TYPES
from toskit.dsl.normative import (
    KIND_NAMESPACES,
    KIND_PREFIXES,
    KIND_SECTIONS,
    normative_definitions,
    python_name_for,
)
from toskit.errors import ToskitError
from toskit.functions.context import PRIMITIVE_TYPES

__all__ = ["to_python_source"]

_LINE = 88
_ANNOTATION_OF = {
    "string": "str",
    "integer": "int",
    "float": "float",
    "boolean": "bool",
    "null": "None",
}
_PROPERTY_KEYS = {"type", "description", "required", "default", "entry_schema", "key_schema"}
_PROPERTY_EXTRAS = ("constraints", "validation", "status", "metadata")
_TYPE_KEYS_MODELLED = {
    "derived_from",
    "description",
    "properties",
    "attributes",
    "version",
    "metadata",
    "constraints",
    "validation",
}
_RESERVED = {"dsl", "Any", "FrozenMap", "__all__", "_tosca_document"}
_CLASS_ATTRS_TAKEN = {"mro"}


# --------------------------------------------------------------------------
# Literals


# Characters written as escapes: everything ``str.isprintable`` refuses but
# the plain space -- control characters, the bidi controls of "Trojan
# Source" (U+202A-U+202E, U+2066-U+2069, U+200E/F, U+061C), zero-width and
# other format characters, line/paragraph separators, unassigned code points,
# surrogates and private use -- so the generated source shows every character
# it holds, and its reader sees the text the interpreter sees.
def _unprintable_ranges() -> str:
    import sys

    ranges: list[str] = []
    start = None
    for code in range(sys.maxunicode + 2):
        bad = code <= sys.maxunicode and code != 0x20 and not chr(code).isprintable()
        if bad and start is None:
            start = code
        elif not bad and start is not None:
            end = code - 1
            ranges.append(
                re.escape(chr(start))
                if start == end
                else f"{re.escape(chr(start))}-{re.escape(chr(end))}"
            )
            start = None
    return "".join(ranges)


@functools.lru_cache(maxsize=1)
def _unprintable() -> re.Pattern[str]:
    """The character class, built on first use (~0.1 s: every code point is asked)."""
    return re.compile(f"[{_unprintable_ranges()}]")


# Values nested deeper than this are written on one line by an explicit-stack
# writer (no pretty block form): a 480-deep list default is valid TOSCA (the
# loader accepts 500 levels) and must not cost a Python frame per level.
_TREE_DEPTH = 24
# Python's parser refuses more than 200 nested brackets in one expression;
# a value that would nest deeper than this is written as YAML text read by
# ``dsl.value_from_yaml`` (toskit's bounded loader) instead.
_PY_NESTING = 150
# Names the generated module must import because a literal used them.
_USED: ContextVar[set[str] | None] = ContextVar("toskit_dsl_literal_uses", default=None)


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _string(value: str) -> str:
    return _unprintable().sub(_escape, json.dumps(value, ensure_ascii=False))


def _scalar(value: Any) -> str | None:
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return 'float("nan")'
        if math.isinf(value):
            return 'float("inf")' if value > 0 else 'float("-inf")'
        return repr(float(value))
    if isinstance(value, str):
        return _string(value)
    return None


class _Code:
    """A rendered expression: its one-line form and, when long, its block form."""

    def __init__(
        self,
        head: str,
        items: Sequence[tuple[str | None, _Code]] | None = None,
        tail: str = "",
        flat: str | None = None,
    ):
        self.head, self.items, self.tail, self._flat = head, items, tail, flat

    def flat(self) -> str:
        if self._flat is not None:
            return self._flat
        inner = ", ".join((f"{k}{c.flat()}" if k else c.flat()) for k, c in self.items or [])
        return f"{self.head}{inner}{self.tail}"

    def render(self, indent: int, lead: int = 0) -> str:
        """The code at ``indent``; ``lead`` characters precede it on its first line."""
        one = self.flat()
        if self.items is None or (len(one) + indent + lead <= _LINE and "\n" not in one):
            return one
        pad = " " * (indent + 4)
        lines = [self.head]
        for key, code in self.items:
            lines.append(f"{pad}{key or ''}{code.render(indent + 4)},")
        lines.append(" " * indent + self.tail)
        return "\n".join(lines)


def _flat(value: Any, *, key: bool = False) -> str:
    """``value`` as one line of Python, with an explicit stack (any depth).

    In key position (``key=True``) the value must be hashable, as the loader
    made it: mappings are ``FrozenMap({...})`` and sequences tuples, at every
    level below. Elsewhere mappings are dicts and sequences lists.
    """
    out: list[str] = []
    # Work items: a str is emitted as it is; (value, in_key) is rendered.
    stack: list[Any] = [(value, key)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        current, in_key = item
        scalar = _scalar(current)
        if scalar is not None:
            out.append(scalar)
            continue
        if isinstance(current, Mapping):
            if in_key:
                used = _USED.get()
                if used is not None:
                    used.add("FrozenMap")
            head, tail = ("FrozenMap({", "})") if in_key else ("{", "}")
            parts: list[Any] = [head]
            for n, (k, v) in enumerate(current.items()):
                if n:
                    parts.append(", ")
                parts += [(k, True), ": ", (v, in_key)]
            parts.append(tail)
        elif isinstance(current, (list, tuple)):
            as_tuple = in_key
            parts = ["(" if as_tuple else "["]
            for n, v in enumerate(current):
                if n:
                    parts.append(", ")
                parts.append((v, in_key))
            parts.append(("," if len(current) == 1 else "") + ")" if as_tuple else "]")
        else:
            out.append(_string(str(current)))
            continue
        stack.extend(reversed(parts))
    return "".join(out)


def _nesting(value: Any, bound: int) -> int:
    """Brackets ``value`` nests (keys included), counted up to ``bound``, explicit stack."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        current, level = stack.pop()
        if isinstance(current, Mapping):
            children: Any = [*current.keys(), *current.values()]
        elif isinstance(current, (list, tuple)):
            children = current
        else:
            continue
        # FrozenMap({...}) and data-class calls take two brackets per level.
        level += 2
        deepest = max(deepest, level)
        if deepest > bound:
            return deepest
        stack.extend((child, level) for child in children)
    return deepest


def _deep_literal(value: Any, depth: int) -> _Code:
    """``value`` below ``depth`` levels: one line, or YAML text when Python cannot nest it."""
    if depth + _nesting(value, _PY_NESTING) > _PY_NESTING:
        used = _USED.get()
        if used is not None:
            used.add("dsl")
        from toskit.dsl.yamltext import dump_yaml

        text = f"dsl.value_from_yaml({_string(dump_yaml(value))})"
    else:
        text = _flat(value)
    return _Code(text, flat=text)


def _literal(value: Any, depth: int = 0) -> _Code:
    scalar = _scalar(value)
    if scalar is not None:
        return _Code(scalar, flat=scalar)
    if depth >= _TREE_DEPTH:
        return _deep_literal(value, depth)
    if isinstance(value, Mapping):
        items = [(f"{_key(k)}: ", _literal(v, depth + 1)) for k, v in value.items()]
        return _Code("{", items, "}")
    if isinstance(value, (list, tuple)):
        return _Code("[", [(None, _literal(v, depth + 1)) for v in value], "]")
    return _Code(_string(str(value)), flat=_string(str(value)))


def _key(key: Any) -> str:
    """A mapping key: a scalar, or (a complex YAML key) a hashable tuple/FrozenMap."""
    return _flat(key, key=True)


def _identifier(name: str, taken: set[str]) -> str:
    ident = re.sub(r"\W", "_", str(name), flags=re.ASCII)
    if not ident or ident[0].isdigit():
        ident = f"_{ident}"
    if keyword.iskeyword(ident) or keyword.issoftkeyword(ident):
        ident = f"{ident}_"
    if ident.startswith("__"):
        # A class body would mangle '__x' into '_Class__x' (and '__init__'
        # would replace a method): keep such names plain fields (#24).
        ident = f"f{ident}"
    base, n = ident, 2
    while ident in taken:
        ident = f"{base}_{n}"
        n += 1
    taken.add(ident)
    return ident


def _is_field_name(name: Any) -> bool:
    # Python normalises identifiers (NFKC): 'ﬁle' written as an attribute *is*
    # 'file', so a name that NFKC changes is renamed, never merged (#24).
    return (
        isinstance(name, str)
        and name.isidentifier()
        and unicodedata.normalize("NFKC", name) == name
        and not keyword.iskeyword(name)
        and not name.startswith("_")
        and name not in _CLASS_ATTRS_TAKEN
    )


# --------------------------------------------------------------------------
# Type lookup over the document and the normative profile


class _Types:
    """Resolves type names (full, short, ``tosca:`` prefixed) of one kind."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.user: dict[str, dict[str, Any]] = {
            kind: dict(data.get(section) or {}) if isinstance(data.get(section), Mapping) else {}
            for kind, section in KIND_SECTIONS.items()
        }
        self.normative = normative_definitions()
        self.aliases: dict[str, dict[str, str]] = {}
        for kind, types in self.normative.items():
            table: dict[str, str] = {}
            prefix = KIND_PREFIXES[kind]
            for full in types:
                short = full[len(prefix) :]
                table[full] = full
                table.setdefault(short, full)
                table.setdefault(f"tosca:{short}", full)
            self.aliases[kind] = table

    def normative_name(self, kind: str, name: Any) -> str | None:
        if not isinstance(name, str):
            return None
        return self.aliases[kind].get(name)

    def definition(self, kind: str, name: Any) -> tuple[str, Mapping[str, Any]] | None:
        if isinstance(name, str) and name in self.user[kind]:
            body = self.user[kind][name]
            return name, body if isinstance(body, Mapping) else {}
        full = self.normative_name(kind, name)
        if full is not None:
            return full, self.normative[kind][full] or {}
        return None

    def chain(self, kind: str, name: Any) -> list[Mapping[str, Any]]:
        """The definitions of ``name`` and its ancestors, nearest first."""
        out: list[Mapping[str, Any]] = []
        seen: set[str] = set()
        current = name
        while len(out) < 100:
            found = self.definition(kind, current)
            if found is None or found[0] in seen:
                break
            seen.add(found[0])
            out.append(found[1])
            current = found[1].get("derived_from")
        return out

    def property(self, kind: str, type_name: Any, prop: str) -> Mapping[str, Any] | None:
        """The nearest definition of ``prop`` that gives a type (or the nearest at all)."""
        nearest = None
        for body in self.chain(kind, type_name):
            definition = (body.get("properties") or {}).get(prop)
            if isinstance(definition, Mapping):
                nearest = nearest or definition
                if definition.get("type"):
                    return definition
        return nearest

    def properties(self, kind: str, type_name: Any) -> set[str]:
        names: set[str] = set()
        for body in self.chain(kind, type_name):
            names.update((body.get("properties") or {}).keys())
        return names


# --------------------------------------------------------------------------
# The generator


class _Generator:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.types = _Types(data)
        self.taken: set[str] = set(_RESERVED)
        self.class_names: dict[tuple[str, str], str] = {}
        self.defined: set[tuple[str, str]] = set()
        self.needs_any = False
        self.document_extra: dict[str, Any] = {}
        self.exported: list[str] = []
        for kind, types in self.types.user.items():
            for name, body in list(types.items()):
                if body is not None and not isinstance(body, Mapping):
                    # Not a definition at all: kept verbatim so the loader reports it.
                    self.document_extra.setdefault(KIND_SECTIONS[kind], {})[name] = body
                    del types[name]
                    continue
                self.class_names[(kind, name)] = _identifier(name, self.taken)

    # -- names -------------------------------------------------------------

    def class_ref(self, kind: str, name: Any, *, forward_ok: bool = False) -> str | None:
        """The Python expression naming the class of a type, if there is one."""
        if isinstance(name, str) and (kind, name) in self.class_names:
            python = self.class_names[(kind, name)]
            if (kind, name) in self.defined or forward_ok:
                return python
            return None
        full = self.types.normative_name(kind, name)
        if full is None:
            return None
        if kind == "data" and full == "tosca.datatypes.Root":
            return "dsl.DataEntity"
        return f"dsl.{KIND_NAMESPACES[kind]}.{python_name_for(kind, full)}"

    # -- annotations -------------------------------------------------------

    def annotation(self, schema: Mapping[str, Any]) -> tuple[str, bool, str | None]:
        """(annotation text, is a forward reference string, the explicit type
        the annotation cannot say)."""
        type_name = schema.get("type")
        if type_name is None:
            return "Any", False, None
        if not isinstance(type_name, str):
            return "Any", False, None
        if type_name in _ANNOTATION_OF:
            return _ANNOTATION_OF[type_name], False, None
        if type_name in SPECIAL_TYPES:
            return f"dsl.{SPECIAL_TYPES[type_name].python_name}", False, None
        if type_name in ("list", "map"):
            entry = schema.get("entry_schema")
            entry = {"type": entry} if isinstance(entry, str) else entry
            inner, forward, explicit = ("", False, None)
            if isinstance(entry, Mapping) and entry.get("type"):
                inner, forward, explicit = self.annotation(entry)
                if explicit:
                    return ("list" if type_name == "list" else "dict"), False, None
            if type_name == "list":
                return (f"list[{inner}]" if inner else "list"), forward, None
            key = schema.get("key_schema")
            key = {"type": key} if isinstance(key, str) else key
            key_text = "str"
            if isinstance(key, Mapping) and key.get("type") not in (None, "string"):
                key_text, key_forward, key_explicit = self.annotation(key)
                forward = forward or key_forward
                if key_explicit:
                    return "dict", False, None
            return (
                (
                    f"dict[{key_text}, {inner}]"
                    if inner
                    else ("dict" if key_text == "str" else f"dict[{key_text}, Any]")
                ),
                forward,
                None,
            )
        ref = self.class_ref("data", type_name, forward_ok=True)
        if ref is not None:
            forward = (("data", type_name) not in self.defined) and not ref.startswith("dsl.")
            return ref, forward, None
        # An unknown type or a primitive the DSL has no marker for: keep the name.
        return "Any", False, type_name

    # -- classes -----------------------------------------------------------

    def order(self) -> list[tuple[str, str]]:
        """User types, kinds in document order of dependency, parents first."""
        out: list[tuple[str, str]] = []
        seen: set[tuple[str, str]] = set()

        def needs(kind: str, name: str) -> list[tuple[str, str]]:
            body = self.types.user[kind].get(name)
            body = body if isinstance(body, Mapping) else {}
            out: list[tuple[str, str]] = []
            parent = body.get("derived_from")
            if isinstance(parent, str) and parent in self.types.user[kind]:
                out.append((kind, parent))
            # Data classes used in defaults should exist before the default is built.
            properties = body.get("properties")
            for prop in properties.values() if isinstance(properties, Mapping) else ():
                if (
                    isinstance(prop, Mapping)
                    and "default" in prop
                    and isinstance(prop.get("type"), str)
                    and prop["type"] in self.types.user["data"]
                ):
                    out.append(("data", prop["type"]))
            return out

        # A depth-first post-order with an explicit stack: a 2,000-deep
        # derived_from chain written child first costs no Python frames.
        # A type on the current path (a cycle) is skipped, as before.
        on_path: set[tuple[str, str]] = set()
        for kind in KIND_SECTIONS:
            for name in self.types.user[kind]:
                root = (kind, name)
                if root in seen:
                    continue
                stack: list[tuple[tuple[str, str], Iterator[tuple[str, str]]]] = [
                    (root, iter(needs(*root)))
                ]
                on_path.add(root)
                while stack:
                    key, pending = stack[-1]
                    for child in pending:
                        if child not in seen and child not in on_path:
                            on_path.add(child)
                            stack.append((child, iter(needs(*child))))
                            break
                    else:
                        stack.pop()
                        on_path.discard(key)
                        seen.add(key)
                        out.append(key)
        return out

    def render_class(self, kind: str, name: str) -> str:
        body = self.types.user[kind].get(name)
        body = body if isinstance(body, Mapping) else {}
        python = self.class_names[(kind, name)]
        parent = body.get("derived_from")
        header: list[str] = []
        base = None
        if parent is None:
            base = self.class_ref(kind, f"{KIND_PREFIXES[kind]}Root")
        elif kind == "data" and parent in PRIMITIVE_TYPES:
            base = "dsl.DataEntity"
            header.append(f"_type = {_string(parent)}")
        else:
            base = self.class_ref(kind, parent)
            if base is None:
                base = self.class_ref(kind, f"{KIND_PREFIXES[kind]}Root")
                header.append(f"_derived_from = {_literal(parent).flat()}")
        lines = [f"class {python}({base}):"]
        description = body.get("description")
        if isinstance(description, str) and description.strip():
            lines.append(_docstring(description, 4))
            lines.append("")
        if python != name:
            header.insert(0, f"_type_name = {_string(name)}")
        for key in ("version", "metadata", "constraints", "validation"):
            if key in body:
                header.append(f"_{key} = {_literal(body[key]).render(4)}")
        extra = {k: v for k, v in body.items() if k not in _TYPE_KEYS_MODELLED}
        fields, renames, extra_attrs, extra_props = self.render_fields(kind, name, body)
        # Only now: inside its own body the class is not yet defined (self-references are quoted).
        self.defined.add((kind, name))
        if extra_attrs:
            extra["attributes"] = extra_attrs
        if extra_props:
            # Definitions the DSL cannot express (not maps): kept verbatim.
            extra["properties"] = extra_props
        if renames:
            header.append(f"_tosca_names = {_literal(renames).render(4)}")
        if extra:
            # Sorted: the same definition always gives the same text, whatever its key order.
            extra = dict(sorted(extra.items(), key=lambda item: str(item[0])))
            header.append(f"_tosca_extra = {_literal(extra).render(4)}")
        lines.extend(f"    {h}" for h in header)
        if header and fields:
            lines.append("")
        lines.extend(fields)
        if len(lines) == 1:
            lines.append("    pass")
        while lines and lines[-1] == "":
            lines.pop()
        self.exported.append(python)
        return "\n".join(lines)

    def render_fields(
        self, kind: str, type_name: str, body: Mapping[str, Any]
    ) -> tuple[list[str], dict, Any, Any]:
        lines: list[str] = []
        renames: dict[str, str] = {}
        taken: set[str] = set()
        parent = body.get("derived_from")
        inherited = self.types.properties(kind, parent) if parent is not None else set()
        properties = body.get("properties") or {}
        attributes = body.get("attributes") or {}
        extra_props: dict[str, Any] = {}
        if not isinstance(properties, Mapping):
            extra_props, properties = properties, {}
        if not isinstance(attributes, Mapping):
            extra_attrs_raw, attributes = attributes, {}
        else:
            extra_attrs_raw = None
        for prop_name, prop in properties.items():
            if not isinstance(prop, Mapping) and prop is not None:
                extra_props[prop_name] = prop
                continue
            prop = prop or {}
            attr = (
                prop_name
                if _is_field_name(prop_name) and prop_name not in taken
                else _identifier(prop_name, set(taken) | {"mro"})
            )
            taken.add(attr)
            if attr != prop_name:
                renames[attr] = prop_name
            lines.extend(
                self.render_field(kind, attr, prop, prop_name in inherited, attribute=False)
            )
        extra_attrs: Any = extra_attrs_raw if extra_attrs_raw is not None else {}
        for attr_name, definition in attributes.items():
            if (
                not _is_field_name(attr_name)
                or attr_name in taken
                or not isinstance(definition, Mapping)
            ):
                extra_attrs[attr_name] = definition
                continue
            taken.add(attr_name)
            lines.extend(self.render_field(kind, attr_name, definition, False, attribute=True))
        return lines, renames, extra_attrs, extra_props

    def render_field(
        self, kind: str, attr: str, prop: Mapping[str, Any], inherited: bool, *, attribute: bool
    ) -> list[str]:
        schema_keys = {"type": prop.get("type")}
        for key in ("entry_schema", "key_schema"):
            if key in prop:
                schema_keys[key] = prop[key]
        annotation, forward, explicit_type = self.annotation(schema_keys)
        required = prop.get("required", True) is not False
        extras: dict[str, Any] = {k: prop[k] for k in _PROPERTY_EXTRAS if k in prop}
        extras.update(
            {k: v for k, v in prop.items() if k not in _PROPERTY_KEYS and k not in _PROPERTY_EXTRAS}
        )
        if explicit_type:
            extras["type"] = explicit_type
        # entry/key schemas that say more than the annotation can go verbatim.
        for key in ("entry_schema", "key_schema"):
            item = prop.get(key)
            if item is None:
                continue
            simple = isinstance(item, str) or (
                isinstance(item, Mapping)
                and set(item) == {"type"}
                and isinstance(item["type"], str)
            )
            if (
                not simple
                or annotation.split("[")[0] in ("list", "dict", "Any")
                and "[" not in annotation
            ):
                extras[key] = item
        has_default = "default" in prop
        default = prop.get("default")
        default_code = self.value_code(default, prop) if has_default else None
        doc = self.field_doc(prop)
        uses_any = re.search(r"\bAny\b", annotation) is not None
        if attribute:
            self.needs_any = self.needs_any or uses_any
            args: list[tuple[str | None, _Code]] = (
                [("default=", default_code)] if default_code is not None else []
            )
            args += self.property_args(extras)
            lead = f"{attr}: {self.optional(annotation, forward, True)} = "
            text = lead + _Code("dsl.Attribute(", args, ")").render(4, len(lead))
            return [*self.wrap(text), *self.spaced(doc)]
        if (
            "type" not in prop
            and inherited
            and not extras
            and required
            and default_code is not None
            and default is not None
        ):
            # A refinement of an inherited property: only its default changes.
            lead = f"{attr} = "
            return [*self.wrap(lead + default_code.render(4, len(lead))), *self.spaced(doc)]
        self.needs_any = self.needs_any or uses_any
        ann = self.optional(annotation, forward, required)
        says_optional = "| None" in ann
        if extras or (has_default and default is None) or (not required and not says_optional):
            args = [("default=", default_code)] if default_code is not None else []
            if not required and not says_optional:
                args.append(("required=", _literal(False)))
            args += self.property_args(extras)
            lead = f"{attr}: {ann} = "
            text = lead + _Code("dsl.Property(", args, ")").render(4, len(lead))
        elif default_code is not None:
            lead = f"{attr}: {ann} = "
            text = lead + default_code.render(4, len(lead))
        else:
            text = f"{attr}: {ann}"
        return [*self.wrap(text), *self.spaced(doc)]

    @staticmethod
    def property_args(extras: Mapping[str, Any]) -> list[tuple[str, _Code]]:
        """Keyword arguments of ``dsl.Property``: known keys by name, the rest in one ``extra``."""
        known = (
            "type",
            "constraints",
            "validation",
            "status",
            "metadata",
            "entry_schema",
            "key_schema",
        )
        args = [(f"{key}=", _literal(extras[key])) for key in known if key in extras]
        rest = {key: value for key, value in extras.items() if key not in known}
        if rest:
            args.append(("extra=", _literal(rest)))
        return args

    def optional(self, annotation: str, forward: bool, required: bool) -> str:
        if required:
            return _string(annotation) if forward else annotation
        if annotation == "Any":
            return "Any"
        if annotation == "None":
            return "None"
        text = f"{annotation} | None"
        return _string(text) if forward else text

    @staticmethod
    def spaced(doc: list[str]) -> list[str]:
        """A field with a docstring is followed by a blank line; plain fields sit together."""
        return [*doc, ""] if doc else []

    @staticmethod
    def wrap(text: str) -> list[str]:
        return [f"    {line}" if line else line for line in text.split("\n")]

    @staticmethod
    def field_doc(prop: Mapping[str, Any]) -> list[str]:
        description = prop.get("description")
        if isinstance(description, str) and description.strip():
            return [_docstring(description, 4)]
        return []

    # -- values ------------------------------------------------------------

    def value_code(self, value: Any, schema: Mapping[str, Any] | None, depth: int = 0) -> _Code:
        if depth >= _TREE_DEPTH:
            # Deeper than any readable layout: plain literal, explicit stack.
            return _literal(value, depth)
        schema = schema if isinstance(schema, Mapping) else {}
        type_name = schema.get("type")
        if isinstance(value, Mapping) and isinstance(type_name, str):
            if type_name == "map":
                entry = schema.get("entry_schema")
                entry = {"type": entry} if isinstance(entry, str) else entry
                if isinstance(entry, Mapping) and all(isinstance(k, str) for k in value):
                    return _Code(
                        "{",
                        [
                            (f"{_key(k)}: ", self.value_code(v, entry, depth + 1))
                            for k, v in value.items()
                        ],
                        "}",
                    )
            else:
                ref = self.class_ref("data", type_name)
                if ref is not None and self.is_data_value(type_name, value):
                    return self.data_call(ref, type_name, value, depth)
        if isinstance(value, list) and type_name == "list":
            entry = schema.get("entry_schema")
            entry = {"type": entry} if isinstance(entry, str) else entry
            return _Code("[", [(None, self.value_code(v, entry, depth + 1)) for v in value], "]")
        return _literal(value, depth)

    def is_data_value(self, type_name: str, value: Mapping) -> bool:
        """A map that can be written as a data-class call (no function calls, string keys)."""
        if not all(isinstance(k, str) for k in value):
            return False
        chain = self.types.chain("data", type_name)
        # Data types derived from a primitive hold primitive values, not maps.
        return bool(chain) and not any(
            body.get("derived_from") in PRIMITIVE_TYPES for body in chain
        )

    def data_call(self, ref: str, type_name: str, value: Mapping, depth: int = 0) -> _Code:
        items: list[tuple[str | None, _Code]] = []
        splat: dict[str, Any] = {}
        renames = self.renames_of("data", type_name)
        for key, item in value.items():
            field_schema = self.types.property("data", type_name, key)
            attr = renames.get(key, key)
            code = self.value_code(item, field_schema, depth + 1)
            if _is_field_name(attr):
                items.append((f"{attr}=", code))
            else:
                splat[key] = item
        if splat:
            items.append(("**", _literal(splat, depth + 1)))
        return _Code(f"{ref}(", items, ")")

    def renames_of(self, kind: str, type_name: Any) -> dict[str, str]:
        """TOSCA property name -> Python attribute name, for names that are not identifiers."""
        out: dict[str, str] = {}
        for body in self.types.chain(kind, type_name):
            for prop in body.get("properties") or {}:
                if not _is_field_name(prop) and prop not in out:
                    out[prop] = _identifier(prop, {"mro"})
        return out

    # -- templates ---------------------------------------------------------

    def render_templates(self) -> list[str]:
        topology = self.data.get("topology_template")
        if not isinstance(topology, Mapping):
            if topology is not None:
                self.document_extra["topology_template"] = topology
            return []
        blocks: list[str] = []
        extra_topology: dict[str, Any] = {}
        for key, section in topology.items():
            if key != "node_templates" or not isinstance(section, Mapping):
                extra_topology[key] = section
                continue
            leftovers: dict[str, Any] = {}
            for name, template in section.items():
                code = self.render_node_template(name, template)
                if code is None:
                    leftovers[name] = template
                else:
                    blocks.append(code)
            if leftovers:
                extra_topology["node_templates"] = leftovers
        if extra_topology:
            self.document_extra["topology_template"] = extra_topology
        return blocks

    def render_node_template(self, name: Any, template: Any) -> str | None:
        if not isinstance(name, str) or not name or not isinstance(template, Mapping):
            # Not a name a DSL template can carry (a node named ""): kept verbatim
            # in _tosca_document, so the loader's diagnostic survives the round trip.
            return None
        type_name = template.get("type")
        ref = self.class_ref("node", type_name)
        if ref is None:
            return None
        variable = _identifier(name, self.taken)
        items: list[tuple[str | None, _Code]] = [(None, _literal(name))]
        splat: dict[str, Any] = {}
        properties = template.get("properties")
        if isinstance(properties, Mapping):
            renames = self.renames_of("node", type_name)
            for key, value in properties.items():
                schema = self.types.property("node", type_name, key)
                attr = renames.get(key, key) if isinstance(key, str) else key
                if isinstance(attr, str) and _is_field_name(attr):
                    items.append((f"{attr}=", self.value_code(value, schema)))
                else:
                    splat[key] = value
        elif properties is not None:
            return None
        extra = {k: v for k, v in template.items() if k not in ("type", "properties")}
        if extra:
            items.append(("_extra=", _literal(extra)))
        if splat:
            items.append(("**", _literal(splat)))
        call = _Code(f"{ref}(", items, ")")
        return f"{variable} = {call.render(0, len(variable) + 3)}"

    # -- the module --------------------------------------------------------

    def render(self) -> str:
        token = _USED.set(set())
        try:
            return self._render()
        finally:
            _USED.reset(token)

    def _render(self) -> str:
        classes = [self.render_class(kind, name) for kind, name in self.order()]
        templates = self.render_templates()
        for key, value in self.data.items():
            if key in ("tosca_definitions_version", "description", "topology_template"):
                continue
            if key in KIND_SECTIONS.values() and isinstance(value, Mapping):
                continue
            self.document_extra[key] = value
        parts: list[str] = []
        description = self.data.get("description")
        if isinstance(description, str) and description.strip():
            parts.append(_docstring(description, 0))
        imports = []
        if self.needs_any:
            imports.append("from typing import Any")
        if imports:
            parts.append("\n".join(imports))
        dsl_imports = ["from toskit import dsl"]
        body = [*classes, *templates]
        text_so_far = "\n".join(body)
        if self.document_extra:
            self.document_extra = _canonical(self.document_extra)
            body.append(f"_tosca_document = {_literal(self.document_extra).render(0)}")
        body.append(f"__all__ = {_literal(self.exported).render(0)}")
        # Known only now: any literal above (a class, a template, the document
        # extras) may have written a complex key as FrozenMap(...), or a deep
        # value as dsl.value_from_yaml(...).
        if "dsl." not in text_so_far and "dsl" not in (_USED.get() or ()):
            dsl_imports.remove("from toskit import dsl")
        if "FrozenMap" in (_USED.get() or ()):
            dsl_imports.append("from toskit.source import FrozenMap")
        if dsl_imports:
            parts.append("\n".join(dsl_imports))
        # Two blank lines before a class, one before other statements (isort's rule).
        gap = "\n\n\n" if classes else "\n\n"
        head = "\n\n".join(parts)
        return (head + gap if head else "") + "\n\n\n".join(body) + "\n"


_SECTION_ORDER = [
    "tosca_definitions_version",
    "description",
    "metadata",
    "dsl_definitions",
    "repositories",
    "imports",
    "functions",
    "inputs",
    "node_templates",
    "relationship_templates",
    "groups",
    "policies",
    "outputs",
    "substitution_mappings",
    "workflows",
]


def _canonical(extra: dict[str, Any]) -> dict[str, Any]:
    """Document sections in TOSCA's usual order, so Python -> YAML -> Python is a fixpoint."""

    def rank(key: Any) -> tuple[int, str]:
        return (
            _SECTION_ORDER.index(key) if key in _SECTION_ORDER else len(_SECTION_ORDER),
            str(key),
        )

    out = {key: extra[key] for key in sorted(extra, key=rank)}
    topology = out.get("topology_template")
    if isinstance(topology, Mapping):
        out["topology_template"] = {key: topology[key] for key in sorted(topology, key=rank)}
    return out


def _docstring(text: str, indent: int) -> str:
    """A triple-quoted docstring for ``text`` (quotes and backslashes escaped)."""
    # Every backslash and every quote escaped: no text can end the literal
    # early (a description ending in '"""' or a backslash, #24).
    cleaned = text.strip().replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r")
    # Newlines and tabs stay as they are (the docstring's own layout).
    cleaned = _unprintable().sub(
        lambda m: m.group() if m.group() in "\n\t" else _escape(m), cleaned
    )
    pad = " " * indent
    if "\n" not in cleaned:
        return f'{pad}"""{cleaned}"""'
    lines = cleaned.split("\n")
    body = "\n".join((pad + line) if line.strip() else "" for line in lines)
    return f'{pad}"""\n{body}\n{pad}"""'


def to_python_source(data: Mapping[str, Any]) -> str:
    """Python source (using ``toskit.dsl``) for a TOSCA document given as plain data.

    Loading the result with :func:`toskit.dsl.load_module` gives a template
    with the same types and the same resolved properties.
    """
    if not isinstance(data, Mapping):
        raise ToskitError(
            f"to_python_source needs a TOSCA document (a mapping), not {type(data).__name__}"
        )
    return _Generator(data).render()
