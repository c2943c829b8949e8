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

__all__ = ["dump_yaml"]


# The C emitter (libyaml) when PyYAML has it: same output, several times faster.
if TYPE_CHECKING:
    from yaml import SafeDumper as _BaseDumper  # the C dumper has the same interface
else:
    _BaseDumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_BaseDumper):
    """SafeDumper that never writes anchors/aliases for shared values."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


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
