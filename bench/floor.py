"""A floor for benchmark B1: the least a load of the B1 template must do.

Written for the benchmark (issue #31 item 2), not for users: rapidyaml's
tree walked into plain values, the types' property definitions flattened
along ``derived_from``, every node template's properties merged with the
defaults of its node type and, inside, of its data types, with the origin
of every value recorded (``template`` or ``default: <type that wrote
it>``), and each value checked against its type and its constraints
(``in_range``, ``valid_values``). Nothing else: no imports, no functions,
no requirements, no locations, no diagnostics beyond a list of strings. It
handles what ``bench/gen_template.py`` writes and little more.

``tests/test_bench_floor.py`` holds it honest: its values and origins equal
toskit's (``node.properties`` and the property table's ``source``) for
every node of generated templates. ``bench/bench_tosca.py`` prints
toskit's CPU time against it.

    python bench/floor.py FILE      # prints node count and problems
"""

from __future__ import annotations

import re
import sys
from typing import Any

import ryml  # type: ignore[import-untyped]

_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_WORDS = {
    "true": True,
    "True": True,
    "false": False,
    "False": False,
    "null": None,
    "~": None,
    "": None,
}


def parse(text: str) -> Any:
    """Plain values of ``text`` (rapidyaml's tree, walked through its C functions
    called on the tree's pointer, as toskit.source.fast does)."""
    tree = ryml.parse_in_arena(text.encode())
    low, this, none = ryml._ryml, tree.this, ryml.NONE
    is_map, is_seq, has_val = low.Tree_is_map, low.Tree_is_seq, low.Tree_has_val
    quoted, key_of, val_of = low.Tree_is_val_quoted, low.Tree_key, low.Tree_val
    first, after = low.Tree_first_child, low.Tree_next_sibling
    words, is_int, is_float = _WORDS, _INT.match, _FLOAT.match

    def value(node: int) -> Any:
        if is_map(this, node):
            out = {}
            child = first(this, node)
            while child != none:
                out[str(key_of(this, child), "utf-8")] = value(child)
                child = after(this, child)
            return out
        if is_seq(this, node):
            items = []
            child = first(this, node)
            while child != none:
                items.append(value(child))
                child = after(this, child)
            return items
        if not has_val(this, node):
            return None
        text = str(val_of(this, node), "utf-8")
        if quoted(this, node):
            return text
        if text in words:
            return words[text]
        if is_int(text):
            return int(text)
        if is_float(text):
            return float(text)
        return text

    return value(tree.root_id())


def _flatten(types: dict[str, Any]) -> dict[str, dict[str, tuple[dict, str]]]:
    """type name -> property name -> (definition, type that wrote it), parents first."""
    flat: dict[str, dict[str, tuple[dict, str]]] = {}

    def of(name: str) -> dict[str, tuple[dict, str]]:
        if name in flat:
            return flat[name]
        body = types.get(name)
        if body is None:  # a normative root type: no properties in B1
            flat[name] = {}
            return flat[name]
        merged = dict(of(body["derived_from"])) if body.get("derived_from") else {}
        for prop, definition in (body.get("properties") or {}).items():
            merged[prop] = (definition, name)
        flat[name] = merged
        return merged

    for name in types:
        of(name)
    return flat


_CHECKS = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "float": lambda v: isinstance(v, float),
    "list": lambda v: isinstance(v, list),
    "map": lambda v: isinstance(v, dict),
}


class Floor:
    """The load: ``values[node]``, ``origins[node][path]``, ``problems``."""

    def __init__(self, text: str) -> None:
        doc = parse(text)
        self.data = _flatten(doc.get("data_types") or {})
        nodes = _flatten(doc.get("node_types") or {})
        self.values: dict[str, dict[str, Any]] = {}
        self.origins: dict[str, dict[str, str]] = {}
        self.problems: list[str] = []
        templates = (doc.get("topology_template") or {}).get("node_templates") or {}
        for name, template in templates.items():
            origins: dict[str, str] = {}
            given = template.get("properties") or {}
            self.values[name] = self._merge(nodes[template["type"]], given, "", origins)
            self.origins[name] = origins

    def _merge(
        self, defs: dict[str, tuple[dict, str]], given: dict, prefix: str, origins: dict
    ) -> dict:
        out: dict[str, Any] = {}
        for prop, (definition, writer) in defs.items():
            path = prefix + prop
            ptype = definition.get("type")
            if prop in given:
                value, origin = given[prop], "template"
            elif "default" in definition:
                value, origin = definition["default"], f"default: {writer}"
            else:
                value, origin = None, None
            if ptype in self.data and (value is not None or definition.get("required", True)):
                if value is None:
                    value, origin = {}, None
                value = self._merge(self.data[ptype], value, path + ".", origins)
                out[prop] = value
                continue
            if origin is None:
                continue
            self._check(path, value, definition)
            out[prop] = value
            origins[path] = origin
        return out

    def _check(self, path: str, value: Any, definition: dict) -> None:
        check = _CHECKS.get(definition.get("type"))
        if check is not None and not check(value):
            self.problems.append(f"{path}: not a {definition['type']}")
            return
        entry = (definition.get("entry_schema") or {}).get("type")
        if entry in _CHECKS and isinstance(value, list):
            for item in value:
                if not _CHECKS[entry](item):
                    self.problems.append(f"{path}: an entry is not a {entry}")
        for constraint in definition.get("constraints") or ():
            for op, arg in constraint.items():
                if op == "in_range" and not arg[0] <= value <= arg[1]:
                    self.problems.append(f"{path}: {value} not in {arg}")
                elif op == "valid_values" and value not in arg:
                    self.problems.append(f"{path}: {value!r} not one of {arg}")


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as stream:
        floor = Floor(stream.read())
    print(f"{len(floor.values)} node templates, {len(floor.problems)} problems")
