"""Readable, deterministic YAML text for plain TOSCA data.

Keys keep their order (documents read top-down the way they were
written), block style throughout, long strings folded only by the
dumper's own rules, unicode kept as is. Complex keys that
``toskit.source`` keeps as ``FrozenMap``/tuples are written back as maps
and sequences.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml

from toskit.source import FrozenMap

__all__ = ["dump_yaml", "value_from_yaml"]


# The C emitter (libyaml) when PyYAML has it: same output, several times faster.
if TYPE_CHECKING:
    from yaml import SafeDumper as _BaseDumper  # the C dumper has the same interface
else:
    _BaseDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_BaseDumper):
    """SafeDumper that never writes anchors/aliases for shared values.

    Its nodes are built with an explicit stack (PyYAML's representer
    recurses three Python frames per level, so a 480-deep list default, a
    depth the loader accepts, would end in ``RecursionError``); with libyaml
    the serializer and emitter are C and do not recurse in Python either.
    """

    def ignore_aliases(self, data: Any) -> bool:
        return True

    def represent(self, data: Any) -> None:
        node = self._represent_iteratively(data)
        self.serialize(node)

    def _represent_iteratively(self, data: Any) -> yaml.Node:
        def container(value: Any) -> yaml.Node | None:
            if isinstance(value, (dict, FrozenMap)):
                return yaml.MappingNode("tag:yaml.org,2002:map", [], flow_style=False)
            if isinstance(value, (list, tuple)):
                return yaml.SequenceNode("tag:yaml.org,2002:seq", [], flow_style=False)
            return None

        root = container(data)
        if root is None:
            return self.represent_data(data)
        # (value, its node): the node's children are filled in from the value.
        stack: list[tuple[Any, yaml.Node]] = [(data, root)]
        while stack:
            value, node = stack.pop()
            items = value.items() if isinstance(value, (dict, FrozenMap)) else value
            for item in items:
                parts = item if isinstance(node, yaml.MappingNode) else (item,)
                made = []
                for part in parts:
                    child = container(part)
                    if child is None:
                        child = self.represent_data(part)
                    else:
                        stack.append((part, child))
                    made.append(child)
                node.value.append(tuple(made) if isinstance(node, yaml.MappingNode) else made[0])
        return root


def _represent_frozen_map(dumper: Any, value: FrozenMap) -> yaml.Node:
    return dumper.represent_dict(dict(value))


def _represent_tuple(dumper: Any, value: tuple) -> yaml.Node:
    return dumper.represent_list(list(value))


# Plain scalars that a YAML 1.2 (core schema) reader resolves to something
# other than a string; PyYAML's 1.1 rules would leave some unquoted (0o17, 1e3).
_NOT_A_STRING_IN_1_2 = re.compile(
    r"""^(?:
        [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+
      | [-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?
      | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)
      | ~ | null | Null | NULL
      | true | True | TRUE | false | False | FALSE
    )$""",
    re.VERBOSE,
)


def _represent_str(dumper: Any, value: str) -> yaml.Node:
    if _NOT_A_STRING_IN_1_2.match(value):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="'")
    # Multi-line strings read best as literal blocks.
    style = "|" if "\n" in value.strip("\n") and value == value.rstrip(" ") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(FrozenMap, _represent_frozen_map)
_Dumper.add_representer(tuple, _represent_tuple)
_Dumper.add_representer(str, _represent_str)


def dump_yaml(data: Any) -> str:
    """``data`` (plain YAML values) as TOSCA-friendly YAML text."""
    return yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=100,
    )


def value_from_yaml(text: str) -> Any:
    """The value of one YAML document, read by toskit's own (bounded) loader.

    Generated modules (:func:`toskit.dsl.to_python_source`) use it for values
    nested deeper than Python's parser accepts in a literal (about 200
    brackets): a 480-deep list default is valid TOSCA. Raises
    ``toskit.ToskitError`` when the text is not one valid YAML document.
    """
    from toskit.errors import ToskitError
    from toskit.source import load_yaml

    doc = load_yaml(text, name="<value_from_yaml>")
    errors = [d for d in doc.diagnostics if d.severity == "error"]
    if errors:
        raise ToskitError(f"value_from_yaml: {errors[0].message}")
    return doc.value
