"""Write a template's YAML for another TOSCA version (``template_to_yaml(version=...)``).

The DSL writes Unfurl's dialect, ``tosca_simple_unfurl_1_0_0``: TOSCA 1.3
plus Unfurl's extensions. toskit reads it, but other TOSCA tools
(tosca-parser, Puccini …) refuse the version string. :func:`retarget`
rewrites the document data as a standard TOSCA document:

* ``"1.3"`` (``tosca_simple_yaml_1_3``): the version line changes; the DSL
  writes nothing 1.3 lacks.
* ``"2.0"`` (``tosca_2_0``): also ``topology_template`` becomes
  ``service_template``, the 1.x normative type names become the 2.0 simple
  profile's (``tosca.nodes.WebApplication`` → ``WebApplication``, where the
  profile has that name), and 1.x ``constraints`` become a 2.0
  ``validation`` clause (``greater_than: 0`` → ``$greater_than: [$value,
  0]``; ``in_range: [1, 65535]`` → both bounds; ``pattern`` → an anchored
  ``$matches``; lengths on ``$length``; several are joined with ``$and``).

Anything else is refused with a ``ToskitError`` naming the choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from toskit.errors import ToskitError

__all__ = ["VERSIONS", "retarget"]

VERSIONS = {
    "1.3": "tosca_simple_yaml_1_3",
    "tosca_simple_yaml_1_3": "tosca_simple_yaml_1_3",
    "2.0": "tosca_2_0",
    "tosca_2_0": "tosca_2_0",
    "unfurl": "tosca_simple_unfurl_1_0_0",
    "tosca_simple_unfurl_1_0_0": "tosca_simple_unfurl_1_0_0",
}

# 1.x constraint operator -> a 2.0 validation clause on $value.
_COMPARISONS = {
    "equal": "$equal",
    "greater_than": "$greater_than",
    "greater_or_equal": "$greater_or_equal",
    "less_than": "$less_than",
    "less_or_equal": "$less_or_equal",
    "valid_values": "$valid_values",
}
_LENGTHS = {"length": "$equal", "min_length": "$greater_or_equal", "max_length": "$less_or_equal"}


def retarget(data: Mapping[str, Any], version: str) -> dict[str, Any]:
    """``data`` (a TOSCA document as plain data) written for ``version``
    (``"1.3"``, ``"2.0"``, ``"unfurl"`` or a full version string)."""
    target = VERSIONS.get(str(version))
    if target is None:
        choices = ", ".join(repr(v) for v in ("1.3", "2.0", "unfurl"))
        raise ToskitError(
            f"unknown TOSCA version {version!r} for template_to_yaml: use one of {choices}"
        )
    out = dict(data)
    out["tosca_definitions_version"] = target
    if target != "tosca_2_0":
        return out
    names = _names_2_0()
    result: dict[str, Any] = {}
    for key, value in out.items():
        if key == "topology_template":
            key = "service_template"
        result[key] = _to_2_0(value, names, key, 0)
    return result


@lru_cache(maxsize=1)
def _names_2_0() -> dict[str, str]:
    """1.x normative name -> the 2.0 simple profile's name, by kind-free
    suffix (``tosca.nodes.Compute`` -> ``Compute``)."""
    from toskit.tosca import loads
    from toskit.tosca.types.registry import KINDS

    st = loads("tosca_definitions_version: tosca_2_0\n", name="<profile 2.0>")
    st1 = loads("tosca_definitions_version: tosca_simple_yaml_1_3\n", name="<profile 1.3>")
    mapping: dict[str, str] = {}
    for kind in KINDS:
        try:
            new = set(st.types_of(kind))
            old = set(st1.types_of(kind))
        except Exception:  # noqa: BLE001 - a kind one profile lacks maps nothing
            continue
        for name in old:
            parts = name.split(".")
            if len(parts) >= 3 and parts[0] == "tosca":
                short = ".".join(parts[2:])
                if short in new:
                    mapping[name] = short
    return mapping


def _to_2_0(value: Any, names: Mapping[str, str], key: str, depth: int) -> Any:
    if depth > 60:  # documents are depth-bounded by the loader; so is this
        return value
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            if k == "constraints" and isinstance(v, list):
                clause = _validation(v)
                if clause is not None:
                    out["validation"] = clause
                    continue
            out[k] = _to_2_0(v, names, str(k), depth + 1)
        return out
    if isinstance(value, list):
        return [_to_2_0(v, names, key, depth + 1) for v in value]
    if isinstance(value, str) and key in (
        "type",
        "derived_from",
        "node",
        "capability",
        "relationship",
    ):
        return names.get(value, value)
    return value


def _validation(constraints: list[Any]) -> Any:
    clauses = []
    for constraint in constraints:
        if not (isinstance(constraint, Mapping) and len(constraint) == 1):
            return None  # not a 1.x constraint list: leave it as written
        ((op, arg),) = constraint.items()
        if op in _COMPARISONS:
            clauses.append({_COMPARISONS[op]: ["$value", arg]})
        elif op == "in_range" and isinstance(arg, list) and len(arg) == 2:
            # 2.0 has no $in_range: both bounds, inclusive.
            clauses.append({"$greater_or_equal": ["$value", arg[0]]})
            clauses.append({"$less_or_equal": ["$value", arg[1]]})
        elif op == "pattern" and isinstance(arg, str):
            # 1.x patterns match the whole value; $matches searches: anchor it.
            clauses.append({"$matches": ["$value", f"^(?:{arg})$"]})
        elif op in _LENGTHS:
            clauses.append({_LENGTHS[op]: [{"$length": ["$value"]}, arg]})
        else:
            return None
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}
