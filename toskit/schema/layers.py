"""Layered merge with provenance: :meth:`Schema.merge_layers`.

A merge of several layers of one schema type (lowest first) in which every
leaf of the result can say which layer supplied it and which lower values
it replaced: what a compiled TOSCA schema (``ServiceTemplate.schema``) or
any user schema offers for "defaults ← type chain ← template".

The TOSCA loader does not call this function: its own merge
(:func:`toskit.tosca.values.resolve.merge_layers`) applies the same rules on
parsed value trees that may still hold function calls, and records a
document location per node (an ``Origin``), not a label per leaf path.
``tests/tosca/test_compile.py`` checks that both give the same values and
sources for the same layers; docs/tosca.md ("Compiling onto toskit.schema")
records the decision.

Semantics: ``layers`` is a sequence of ``(value, label)``, lowest first; a
label is any object (a string, or the caller's own origin record) and is
only ever stored, never hashed or compared.
Layers whose value is :data:`~toskit.schema.values.ABSENT` are skipped;
each other layer is validated (``SchemaError`` naming the label when it is
invalid) and merged over the result so far with exactly the rules of
:meth:`Schema.merge`.

Provenance is tracked per *leaf* of the result: a scalar, an atomic list or
map (including lists with unset relationship), ``None``, or an empty
container. Paths are tuples of map keys and list positions **in the result
value** (``("ports", 1, "port")``); the items of associative lists are
addressed by their position in the merged list.

* ``sources[path]`` is the label of the layer that supplied the leaf;
* ``overridden[path]`` lists ``(label, value)`` for each lower layer whose
  value at that leaf was replaced, lowest first (only leaves that replaced
  something appear). When a whole subtree was replaced (a kind change under
  a multi-kind type, such as a map replaced by a scalar), the entry holds
  the whole replaced subtree, labelled with the highest layer that had
  contributed to it (when the new value is itself a non-empty container,
  say a map replaced by a list, there is no leaf at that path to hold it).

A layer that gives ``None`` (or ``{}``/``[]``) for a non-empty separable
map or associative list replaces nothing, as in ``merge``. Each step costs
time linear in the size of the layer plus the parts of the result it
touches; the final provenance walk is linear in the result.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from types import GeneratorType
from typing import Any

from toskit.diagnostics import format_path
from toskit.plain import drive
from toskit.records import field, record
from toskit.schema.compiled import Node
from toskit.schema.merge import _SCALARS, container_kind, item_keys, merge_order
from toskit.schema.model import Schema, schema_error, schema_error_message
from toskit.schema.validate import check_value
from toskit.schema.values import ABSENT, copy_value, guarded_walk

__all__ = ["MergeResult", "merge_layers"]

Path = tuple  # of str keys and int positions


@record(frozen=True)
class MergeResult:
    """The result of :meth:`Schema.merge_layers`: ``value``, ``sources`` and
    ``overridden`` (see the module documentation)."""

    value: Any
    sources: dict[Path, str] = field(default_factory=dict)
    overridden: dict[Path, list[tuple[str, Any]]] = field(default_factory=dict)

    def rows(self) -> list[dict[str, Any]]:
        """One row per leaf: ``path`` (text), ``value``, ``source``, ``overridden``."""
        out = []
        for path, label in self.sources.items():
            out.append(
                {
                    "path": format_path(path),
                    "value": _get(self.value, path),
                    "source": label,
                    "overridden": list(self.overridden.get(path, [])),
                }
            )
        return out

    def to_frame(self) -> Any:
        """The rows as a pandas DataFrame (pandas is imported on first use)."""
        import pandas as pd

        return pd.DataFrame(self.rows(), columns=["path", "value", "source", "overridden"])

    def __repr__(self) -> str:
        return (
            f"<MergeResult {len(self.sources)} leaves, "
            f"{len(self.overridden)} overridden: {_short(self.value)}>"
        )

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def _safe_repr(label: Any) -> str:
    """``repr(label)``, or its type name when its ``__repr__`` fails (labels
    are the caller's objects)."""
    try:
        return repr(label)
    except Exception:  # noqa: BLE001 - any failure of a foreign __repr__
        return f"<{type(label).__name__}>"


def _described(entry: Any) -> str:
    if isinstance(entry, (tuple, list)):
        return f"{type(entry).__name__} of {len(entry)}"
    return type(entry).__name__


def _short(value: Any, limit: int = 80) -> str:
    text = _safe_repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _get(value: Any, path: Path) -> Any:
    for part in path:
        value = value[part]
    return value


class _Leaf:
    __slots__ = ("label", "overridden")

    def __init__(self, label: str, overridden: list[tuple[str, Any]]) -> None:
        self.label = label
        self.overridden = overridden


class _Tree:
    """Provenance of a merged container: ``children`` is a dict (map keys)
    or a list (parallel to the items of an associative list)."""

    __slots__ = ("label", "children")

    def __init__(self, label: str, children: dict | list) -> None:
        self.label = label
        self.children = children


def merge_layers(
    schema: Schema, layers: Iterable[tuple[Any, str]], name: str, *, check: bool = True
) -> MergeResult:
    """Merge ``(value, label)`` layers, lowest first, recording provenance.

    With ``check=False`` the layers are not validated first: for callers
    that have just validated them (merging invalid values gives unspecified
    results, never a crash).
    """
    node = schema.node(name)
    if isinstance(layers, (str, bytes, dict)) or not isinstance(layers, Iterable):
        raise schema_error_message(
            f"layers must be a list of (value, label) pairs, got {type(layers).__name__}"
        )
    present = []
    for entry in layers:
        # A tuple or list of two, not any iterable: "ab" would unpack into a
        # value "a" labelled "b".
        if not isinstance(entry, (tuple, list)) or len(entry) != 2:
            raise schema_error_message(
                f"each layer must be a (value, label) pair, got {_described(entry)}"
            )
        value, label = entry
        if value is ABSENT:
            continue
        diagnostics = check_value(node, value) if check else None
        if diagnostics:
            raise schema_error(
                diagnostics, header=f"layer {_safe_repr(label)} is not a valid {name}:"
            )
        present.append((value, label))
    if not present:
        return MergeResult(ABSENT, {}, {})
    with guarded_walk("value nested too deeply to merge"):
        first, first_label = present[0]
        acc = copy_value(first)
        prov = drive(_call, _fresh, node, acc, first_label)
        for value, label in present[1:]:
            acc, prov = drive(_call, _merge, node, acc, prov, value, label)
        sources: dict[Path, str] = {}
        overridden: dict[Path, list[tuple[str, Any]]] = {}
        _emit(acc, prov, (), sources, overridden)
    return MergeResult(acc, sources, overridden)


# The walks below run without Python recursion (toskit.plain.drive): a step
# returns its result, or for a container a generator that yields the steps
# it needs, ``(_fresh, node, value, label)`` or ``(_merge, …)``, and is sent
# their results.
_Steps = Generator[Any, Any, Any]  # yields step arguments (a tuple) or a step's generator


def _call(step: Callable[..., Any], *args: Any) -> Any:
    return step(*args)


def _fresh(node: Node, value: Any, label: str) -> _Leaf | _Tree | _Steps:
    """Provenance of a value supplied whole by one layer."""
    if value is None or type(value) in _SCALARS:
        return _Leaf(label, [])
    if isinstance(value, dict) and value and node.has_map and not node.map_atomic:
        if all(v is None or type(v) in _SCALARS for v in value.values()):
            return _Tree(label, {k: _Leaf(label, []) for k in value})  # flat: no generator
        return _fresh_map(node, value, label)
    if isinstance(value, list) and value and node.has_list and node.list_kind != "atomic":
        return _fresh_list(node, value, label)
    return _Leaf(label, [])


def _fresh_map(node: Node, value: dict, label: str) -> _Steps:
    children = {}
    for k, v in value.items():
        fresh = _fresh(node.child(k), v, label)
        if type(fresh) is GeneratorType:  # only containers wait on the driver
            fresh = yield fresh
        children[k] = fresh
    return _Tree(label, children)


def _fresh_list(node: Node, value: list, label: str) -> _Steps:
    elem = node.item_node()
    children = []
    for v in value:
        fresh = _fresh(elem, v, label)
        if type(fresh) is GeneratorType:  # only containers wait on the driver
            fresh = yield fresh
        children.append(fresh)
    return _Tree(label, children)


def _history(prov: _Leaf | _Tree, old: Any) -> list[tuple[str, Any]]:
    if isinstance(prov, _Leaf):
        return [*prov.overridden, (prov.label, old)]
    return [(prov.label, old)]


def _merge(
    node: Node, lhs: Any, lprov: _Leaf | _Tree, rhs: Any, label: str
) -> tuple[Any, _Leaf | _Tree] | _Steps:
    """Merge ``rhs`` (a layer's value) over ``lhs`` (the result so far, owned)."""
    rk = container_kind(rhs)
    lk = container_kind(lhs)
    if rk is None:
        if rhs is not None or lk is None:
            return rhs, _Leaf(label, _history(lprov, lhs))
        kind = lk
    elif lk is None and lhs is not None or lk is not None and lk != rk:
        return _replaced(node, copy_value(rhs), label, _history(lprov, lhs))
    else:
        kind = rk
    if not lhs and not rhs:
        return copy_value(rhs), _Leaf(label, _history(lprov, lhs))
    if kind == "map":
        if node.map_atomic or not node.has_map:
            return copy_value(rhs), _Leaf(label, _history(lprov, lhs))
        return _merge_map(node, lhs or {}, lprov, rhs or {}, label)
    if node.list_kind == "atomic" or not node.has_list:
        return copy_value(rhs), _Leaf(label, _history(lprov, lhs))
    return _merge_list(node, lhs or [], lprov, rhs or [], label)


def _replaced(node: Node, value: Any, label: str, history: list) -> _Steps:
    fresh = _fresh(node, value, label)
    if type(fresh) is GeneratorType:  # only containers wait on the driver
        fresh = yield fresh
    prov = fresh
    if isinstance(prov, _Leaf):
        prov.overridden = history
    return value, prov


def _merge_map(
    node: Node, lhs: dict, lprov: _Leaf | _Tree, rhs: dict, label: str
) -> tuple[dict, _Leaf | _Tree] | _Steps:
    if not rhs:
        return lhs, lprov  # None or {} over a non-empty separable map keeps it
    if all(type(rv) in _SCALARS for rv in rhs.values()):
        return _merge_flat_map(lhs, lprov, rhs, label)
    return _merge_map_items(node, lhs, lprov, rhs, label)


def _merge_flat_map(
    lhs: dict, lprov: _Leaf | _Tree, rhs: dict, label: str
) -> tuple[dict, _Leaf | _Tree]:
    """:func:`_merge_map_items` when every rhs value is a scalar (most list
    items): the same result without a generator."""
    lchildren = lprov.children if isinstance(lprov, _Tree) else {}
    out: dict = {}
    children: dict = {}
    for k, lv in lhs.items():
        if k in rhs:
            out[k] = rhs[k]
            children[k] = _Leaf(label, _history(lchildren[k], lv))
        else:
            out[k] = lv
            children[k] = lchildren[k]
    for k, rv in rhs.items():
        if k not in lhs:
            out[k] = rv
            children[k] = _Leaf(label, [])
    return out, _Tree(label, children)


def _merge_map_items(node: Node, lhs: dict, lprov: _Leaf | _Tree, rhs: dict, label: str) -> _Steps:
    lchildren = lprov.children if isinstance(lprov, _Tree) else {}
    out: dict = {}
    children: dict = {}
    for k, lv in lhs.items():
        if k in rhs:
            rv = rhs[k]
            if type(rv) in _SCALARS:  # a scalar rhs always wins
                out[k] = rv
                children[k] = _Leaf(label, _history(lchildren[k], lv))
                continue
            merged = _merge(node.child(k), lv, lchildren[k], rv, label)
            if type(merged) is GeneratorType:  # only containers wait on the driver
                merged = yield merged
            out[k], children[k] = merged
        else:
            out[k] = lv
            children[k] = lchildren[k]
    for k, rv in rhs.items():
        if k not in lhs:
            value = copy_value(rv)
            out[k] = value
            fresh = _fresh(node.child(k), value, label)
            if type(fresh) is GeneratorType:  # only containers wait on the driver
                fresh = yield fresh
            children[k] = fresh
    return out, _Tree(label, children)


def _merge_list(
    node: Node, lhs: list, lprov: _Leaf | _Tree, rhs: list | tuple, label: str
) -> tuple[list, _Leaf | _Tree] | _Steps:
    if not rhs:
        return lhs, lprov
    return _merge_list_items(node, lhs, lprov, rhs, label)


def _merge_list_items(
    node: Node, lhs: list, lprov: _Leaf | _Tree, rhs: list | tuple, label: str
) -> _Steps:
    lchildren = lprov.children if isinstance(lprov, _Tree) else []
    elem = node.item_node()
    out: list = []
    children: list = []
    for li, ri in merge_order(item_keys(node, lhs), item_keys(node, rhs)):
        if ri is None:
            if li is not None:  # always: a pair has at least one side
                out.append(lhs[li])
                children.append(lchildren[li])
        elif li is None:
            value = copy_value(rhs[ri])
            out.append(value)
            fresh = _fresh(elem, value, label)
            if type(fresh) is GeneratorType:  # only containers wait on the driver
                fresh = yield fresh
            children.append(fresh)
        else:
            merged = _merge(elem, lhs[li], lchildren[li], rhs[ri], label)
            if type(merged) is GeneratorType:  # only containers wait on the driver
                merged = yield merged
            value, child = merged
            out.append(value)
            children.append(child)
    return out, _Tree(label, children)


def _emit(
    value: Any,
    prov: _Leaf | _Tree,
    path: Path,
    sources: dict[Path, str],
    overridden: dict[Path, list[tuple[str, Any]]],
) -> None:
    # Pre-order (document order, as a recursive walk gives it) with an
    # explicit stack of iterators over each open tree's children: leaves are
    # emitted in the loop, a tree child is opened and its parent resumed later.
    if isinstance(prov, _Leaf):
        sources[path] = prov.label
        if prov.overridden:
            overridden[path] = list(prov.overridden)
        return
    stack = [_children(value, prov, path)]
    while stack:
        for v, child, p in stack[-1]:
            if isinstance(child, _Leaf):
                sources[p] = child.label
                if child.overridden:
                    overridden[p] = list(child.overridden)
            else:
                stack.append(_children(v, child, p))
                break
        else:
            stack.pop()


def _children(value: Any, prov: _Tree, path: Path) -> Iterator[tuple[Any, _Leaf | _Tree, Path]]:
    children = prov.children
    if isinstance(children, dict):
        return ((v, children[k], (*path, k)) for k, v in value.items())
    return ((v, children[i], (*path, i)) for i, v in enumerate(value))
