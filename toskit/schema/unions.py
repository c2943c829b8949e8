"""Union normalization: the seed-era structured-merge-diff rules,
applied only when the caller asks for them.

Both functions walk every map whose type declares unions, at any depth
(the other value's maps are paired by path: map keys, associative-list
items by key, atomic-list items by index) and handle each union of a map
in order on the same result. Conflicts raise :class:`toskit.SchemaError`
(code ``union-conflict``) at the path of the map; field names in messages
are joined by ``", "`` in the union's declared order.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from toskit.plain import drive
from toskit.schema.compare import item_segment
from toskit.schema.compiled import Node
from toskit.schema.merge import container_kind, item_keys
from toskit.schema.model import Schema, Union, UnionField, schema_error_message
from toskit.schema.validate import validated_node
from toskit.schema.values import copy_value, guarded_walk

__all__ = ["normalize_union", "normalize_union_apply"]

CODE = "union-conflict"

_Rule = Callable[[Union, Any, Any, dict, str], None]


def normalize_union(schema: Schema, old: Any, new: Any, name: str) -> Any:
    """The update rules: a copy of ``new`` with unions normalized
    against ``old``."""
    node = validated_node(schema, name, [("old", old, False), ("new", new, False)])
    return _run(node, old, new, _update)


def normalize_union_apply(schema: Schema, applied: Any, merged: Any, name: str) -> Any:
    """The apply rules: a copy of ``merged`` with unions normalized
    after ``applied`` was merged into it."""
    node = validated_node(schema, name, [("applied", applied, False), ("merged", merged, False)])
    return _run(node, applied, merged, _apply)


def _run(node: Node, other: Any, value: Any, rule: _Rule) -> Any:
    with guarded_walk():
        return drive(_walk, node, other, value, "", rule)


def _walk(node: Node, other: Any, value: Any, path: str, rule: _Rule) -> Any:
    """A copy of ``value`` with ``rule`` applied to every map with unions;
    ``other`` is the paired node of the other value (or ``None``). A step of
    :func:`toskit.plain.drive`: a container gives the generator of its copy."""
    kind = container_kind(value)
    if kind == "map" and node.has_map or kind == "list" and node.has_list:
        return _walk_below(node, other, value, path, rule)
    return copy_value(value)


def _walk_below(
    node: Node, other: Any, value: Any, path: str, rule: _Rule
) -> Generator[tuple, Any, Any]:
    if isinstance(value, dict):
        other_map = other if isinstance(other, dict) else {}
        out = {}
        for k, v in value.items():
            out[k] = yield (node.child(k), other_map.get(k), v, f"{path}.{k}", rule)
        for union in node.unions:
            rule(union, other_map, value, out, path)
        return out
    elem = node.item_node()
    other_list = other if isinstance(other, (list, tuple)) else []
    items = []
    if node.list_kind == "atomic":
        for i, v in enumerate(value):
            paired = other_list[i] if i < len(other_list) else None
            items.append((yield (elem, paired, v, f"{path}[{i}]", rule)))
        return items
    by_key = dict(zip(item_keys(node, other_list), other_list))
    for k, v in zip(item_keys(node, value), value):
        items.append((yield (elem, by_key.get(k), v, path + item_segment(node, v), rule)))
    return items


def _is_set(value: dict, field: str | None) -> bool:
    return field is not None and value.get(field) is not None


def _disc(field: UnionField) -> str | None:
    """The discriminator value that selects ``field`` (its name by default)."""
    return field.discriminator_value if field.discriminator_value is not None else field.field_name


def _field_for(union: Union, discriminator: str) -> str:
    for f in union.fields:
        if _disc(f) == discriminator and f.field_name is not None:
            return f.field_name
    return discriminator


def _discriminator_of(union: Union, value: dict) -> str:
    if union.discriminator is None:
        return ""
    d = value.get(union.discriminator)
    return d if isinstance(d, str) and d else ""


def _names(fields: list[UnionField]) -> str:
    return ", ".join(str(f.field_name) for f in fields)


def _conflict(message: str, path: str) -> Exception:
    return schema_error_message(message, path=path, code=CODE)


def _keep_only(union: Union, out: dict, keep: str | None) -> None:
    for f in union.fields:
        if f.field_name != keep and _is_set(out, f.field_name):
            del out[f.field_name]


def _update(union: Union, old: dict, new: dict, out: dict, path: str) -> None:
    added = [
        f for f in union.fields if _is_set(new, f.field_name) and not _is_set(old, f.field_name)
    ]
    d_new = _discriminator_of(union, new)
    if d_new and d_new != _discriminator_of(union, old):
        if len(added) == 1 and _disc(added[0]) != d_new:
            raise _conflict(
                f"discriminator ({d_new}) and field changed ({added[0].field_name}) don't match",
                path,
            )
        if len(added) > 1:
            raise _conflict(f"multiple new fields added: {_names(added)}", path)
        _keep_only(union, out, _field_for(union, d_new))
        return
    set_fields = [f for f in union.fields if _is_set(new, f.field_name)]
    if len(set_fields) > 1:
        raise _conflict(
            f"multiple fields set without discriminator change: {_names(set_fields)}", path
        )
    if union.discriminator and union.deduce_invalid_discriminator and len(set_fields) == 1:
        out[union.discriminator] = _disc(set_fields[0])


def _apply(union: Union, applied: dict, merged: dict, out: dict, path: str) -> None:
    chosen = [f for f in union.fields if _is_set(applied, f.field_name)]
    if len(chosen) > 1:
        raise _conflict(f"more than one field of union applied: {_names(chosen)}", path)
    if not chosen:
        return
    field = chosen[0]
    d_applied = _discriminator_of(union, applied)
    if d_applied and d_applied != _disc(field):
        raise _conflict(
            f"applied discriminator ({d_applied}) doesn't match applied field ({field.field_name})",
            path,
        )
    if union.discriminator and union.deduce_invalid_discriminator:
        out[union.discriminator] = _disc(field)
    _keep_only(union, out, field.field_name)
