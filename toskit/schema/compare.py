"""Compare, field sets, remove and extract.

All four walk a value the way merge does: separable maps key by key,
associative lists item by item (identified by their item path), everything
else (scalars, atomic containers, lists with unset relationship) as a leaf.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping
from typing import Any

from toskit.plain import drive
from toskit.records import field, record
from toskit.schema.compiled import Node
from toskit.schema.fieldpath import (
    FIELD,
    PathSyntaxError,
    field_element,
    key_element,
    parse_path,
    render_key,
    render_set,
    set_element,
)
from toskit.schema.merge import container_kind, item_keys
from toskit.schema.model import Schema, schema_error_message
from toskit.schema.validate import item_key, validated_node
from toskit.schema.values import ABSENT, canonical, copy_value, guarded_walk

__all__ = ["Comparison", "compare", "extract", "remove", "to_fieldset"]


@record(frozen=True)
class Comparison:
    """What changed between two values: sets of field paths."""

    added: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()
    modified: frozenset[str] = frozenset()
    # path -> (old, new): the value on each side of every changed path, ABSENT
    # for a side without it. Not part of equality: two comparisons with the
    # same paths are equal, as before values were recorded.
    values: Mapping[str, tuple[Any, Any]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_same(self) -> bool:
        """True when nothing was added, removed or modified."""
        return not (self.added or self.removed or self.modified)

    def old_new(self, path: str) -> tuple[Any, Any]:
        """``(old, new)`` at a changed ``path``; :data:`ABSENT` for a side
        without a value there (an added or removed path)."""
        return self.values.get(path, (ABSENT, ABSENT))

    def rows(self, *, values: bool = False) -> list[dict[str, Any]]:
        """One row per changed path, sorted: ``{"path": ..., "change": ...}``,
        plus ``"old"`` and ``"new"`` with ``values=True`` (``None`` for a
        side without a value)."""
        rows: list[dict[str, Any]] = [{"path": p, "change": "added"} for p in self.added]
        rows += [{"path": p, "change": "removed"} for p in self.removed]
        rows += [{"path": p, "change": "modified"} for p in self.modified]
        rows.sort(key=lambda r: (r["path"], r["change"]))
        if values:
            for row in rows:
                old, new = self.old_new(row["path"])
                row["old"] = None if old is ABSENT else old
                row["new"] = None if new is ABSENT else new
        return rows

    def to_frame(self) -> Any:
        """The rows (with old and new values) as a pandas DataFrame (pandas is
        imported on first use)."""
        import pandas as pd

        return pd.DataFrame(self.rows(values=True), columns=["path", "change", "old", "new"])

    def __repr__(self) -> str:
        if self.is_same:
            return "<Comparison: no changes>"
        parts = []
        for label, paths in (
            ("added", self.added),
            ("removed", self.removed),
            ("modified", self.modified),
        ):
            if paths:
                shown = sorted(paths)
                text = ", ".join(shown[:5]) + (
                    f", … {len(shown) - 5} more" if len(shown) > 5 else ""
                )
                parts.append(f"{label}: {text}")
        return "<Comparison " + "; ".join(parts) + ">"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def _separable_map(node: Node, value: Any) -> bool:
    return isinstance(value, dict) and node.has_map and not node.map_atomic


def _associative_list(node: Node, value: Any) -> bool:
    return isinstance(value, (list, tuple)) and node.has_list and node.list_kind != "atomic"


def item_segment(node: Node, item: Any) -> str:
    """The path element of an associative-list item: ``[k=v]`` or ``[=v]``."""
    if node.list_kind == "keyed":
        return render_key(item_key(node, item))
    return render_set(item)


# -- compare ------------------------------------------------------------------------


def compare(
    schema: Schema, lhs: Any, rhs: Any, name: str, *, allow_duplicates: bool = False
) -> Comparison:
    """Compare two values of type ``name`` (validated as for merge)."""
    node = validated_node(
        schema, name, [("lhs", lhs, allow_duplicates), ("rhs", rhs, allow_duplicates)]
    )
    walker = _Comparer()
    with guarded_walk("value nested too deeply to compare"):
        walker.run(node, lhs, rhs)
    if (
        container_kind(lhs) is not None
        or container_kind(rhs) is not None
        or (lhs is None and rhs is None)
    ):
        # The root of a map or list value is never a path of its own, as in
        # structured-merge-diff (`compare(None, {"a": "x"})` adds only `.a`,
        # `compare(None, {})` reports nothing). A scalar root keeps `''`, or
        # `compare(1, 2)` on a scalar type would claim nothing changed.
        for paths in (walker.added, walker.removed, walker.modified):
            paths.discard("")
    changed = walker.added | walker.removed | walker.modified
    values = {p: (walker.old.get(p, ABSENT), walker.new.get(p, ABSENT)) for p in changed}
    return Comparison(
        frozenset(walker.added), frozenset(walker.removed), frozenset(walker.modified), values
    )


class _Comparer:
    """The comparison walk. It records sets of paths (and the values at
    them), so the order it visits nodes in does not matter: children wait on
    an explicit stack (``later``) instead of Python recursion."""

    def __init__(self) -> None:
        self.todo: list[tuple[Callable[..., None], tuple]] = []
        self.added: set[str] = set()
        self.removed: set[str] = set()
        self.modified: set[str] = set()
        # The value on each side of each changed path (for the old -> new view).
        self.old: dict[str, Any] = {}
        self.new: dict[str, Any] = {}

    def run(self, node: Node, lhs: Any, rhs: Any) -> None:
        todo = self.todo
        self.walk(node, lhs, rhs, "")
        while todo:
            step, args = todo.pop()
            step(*args)

    def later(self, step: Callable[..., None], *args: Any) -> None:
        self.todo.append((step, args))

    def modify(self, path: str, lhs: Any, rhs: Any) -> None:
        self.modified.add(path)
        self.old[path] = lhs
        self.new[path] = rhs

    def note(self, into: set[str], path: str, value: Any) -> None:
        into.add(path)
        (self.new if into is self.added else self.old)[path] = value

    def walk(self, node: Node, lhs: Any, rhs: Any, path: str) -> None:
        if lhs is ABSENT:
            if rhs is not ABSENT:
                self.everything(node, rhs, path, self.added)
            return
        if rhs is ABSENT:
            self.everything(node, lhs, path, self.removed)
            return
        lk, rk = container_kind(lhs), container_kind(rhs)
        if lk is None and rk is None:
            if canonical(lhs) != canonical(rhs):
                self.modify(path, lhs, rhs)
            return
        if (
            (lk is None and lhs is not None)
            or (rk is None and rhs is not None)
            or (lk is not None and rk is not None and lk != rk)
        ):
            # A kind change: the node is modified; what hung below it is gone or new.
            self.modify(path, lhs, rhs)
            self.below(node, lhs, path, self.removed)
            self.below(node, rhs, path, self.added)
            return
        # Containers of one kind, or a container against None.
        if not lhs and not rhs:
            if canonical(lhs) != canonical(rhs):
                self.modify(path, lhs, rhs)
            return
        value = lhs if lk is not None else rhs
        if not (_separable_map(node, value) or _associative_list(node, value)):
            if canonical(lhs) != canonical(rhs):
                self.modify(path, lhs, rhs)
            return
        if lhs is None:
            self.everything(node, rhs, path, self.added)
            return
        if rhs is None:
            self.everything(node, lhs, path, self.removed)
            return
        if isinstance(value, dict):
            self.walk_map(node, lhs, rhs, path)
        else:
            self.walk_list(node, lhs, rhs, path)

    def walk_map(self, node: Node, lhs: dict, rhs: dict, path: str) -> None:
        for k, lv in lhs.items():
            self.later(self.walk, node.child(k), lv, rhs.get(k, ABSENT), f"{path}.{k}")
        for k, rv in rhs.items():
            if k not in lhs:
                self.later(self.walk, node.child(k), ABSENT, rv, f"{path}.{k}")

    def walk_list(self, node: Node, lhs: Any, rhs: Any, path: str) -> None:
        elem = node.item_node()
        lgroups = _groups(node, lhs)
        rgroups = _groups(node, rhs)
        for key, litems in lgroups.items():
            ritems = rgroups.get(key)
            segment = path + item_segment(node, litems[0])
            if ritems is None:
                if len(litems) > 1:
                    self.note(self.removed, segment, litems)
                else:
                    self.later(self.everything, elem, litems[0], segment, self.removed)
            elif len(litems) > 1 and len(ritems) > 1:
                # A repeated item is one atomic entry.
                if canonical(litems) != canonical(ritems):
                    self.modify(segment, litems, ritems)
            elif len(litems) > 1:
                # Repeated on the left only: the atomic entry is removed and the
                # single item added with all below it (structured-merge-diff's
                # symdiff table, "associative list" with AllowDuplicates).
                self.note(self.removed, segment, litems)
                self.later(self.everything, elem, ritems[0], segment, self.added)
            elif len(ritems) > 1:
                self.later(self.everything, elem, litems[0], segment, self.removed)
                self.note(self.added, segment, ritems)
            elif node.list_kind == "keyed":
                self.later(self.walk, elem, litems[0], ritems[0], segment)
        for key, ritems in rgroups.items():
            if key not in lgroups:
                segment = path + item_segment(node, ritems[0])
                if len(ritems) > 1:
                    self.note(self.added, segment, ritems)
                else:
                    self.later(self.everything, elem, ritems[0], segment, self.added)

    def everything(self, node: Node, value: Any, path: str, into: set[str]) -> None:
        """``path`` and every node below it."""
        self.note(into, path, value)
        self.below(node, value, path, into)

    def below(self, node: Node, value: Any, path: str, into: set[str]) -> None:
        if _separable_map(node, value):
            for k, v in value.items():
                self.later(self.everything, node.child(k), v, f"{path}.{k}", into)
        elif _associative_list(node, value):
            elem = node.item_node()
            for items in _groups(node, value).values():
                segment = path + item_segment(node, items[0])
                if len(items) > 1 or node.list_kind != "keyed":
                    # A repeated item is one atomic entry: nothing below it.
                    self.note(into, segment, items if len(items) > 1 else items[0])
                else:
                    self.later(self.everything, elem, items[0], segment, into)


def _groups(node: Node, items: Any) -> dict[Any, list[Any]]:
    groups: dict[Any, list[Any]] = {}
    for key, item in zip(item_keys(node, items), items):
        groups.setdefault(key, []).append(item)
    return groups


# -- field sets ---------------------------------------------------------------------


def to_fieldset(
    schema: Schema, value: Any, name: str, *, allow_duplicates: bool = False
) -> set[str]:
    """The field paths a value sets; the root ``''`` is never included."""
    node = validated_node(schema, name, [("value", value, allow_duplicates)])
    out: set[str] = set()
    todo = [(node, value, "")]  # a set of paths: any visiting order will do
    with guarded_walk():
        while todo:
            _fieldset(*todo.pop(), out, todo)
    out.discard("")
    return out


def _fieldset(
    node: Node, value: Any, path: str, out: set[str], todo: list[tuple[Node, Any, str]]
) -> None:
    if value is None:
        out.add(path)
        return
    if _separable_map(node, value):
        if not value:
            out.add(path)
            return
        fields = node.fields
        for k, v in value.items():
            child = fields.get(k)
            p = f"{path}.{k}"
            if child is None:
                out.add(p)  # an elementType entry is owned as a whole key
                child = node.child(k)
            todo.append((child, v, p))
        return
    if _associative_list(node, value):
        elem = node.item_node()
        keys = item_keys(node, value)
        counts: dict[Any, int] = {}
        for k in keys:
            counts[k] = counts.get(k, 0) + 1
        for key, item in zip(keys, value):
            p = path + item_segment(node, item)
            out.add(p)
            if counts[key] == 1 and node.list_kind == "keyed":
                todo.append((elem, item, p))
        return
    out.add(path)


# -- remove and extract -------------------------------------------------------------


class _Trie:
    __slots__ = ("terminal", "children")

    def __init__(self) -> None:
        self.terminal = False
        self.children: dict[tuple, _Trie] = {}


def _trie(paths: Iterable[str]) -> _Trie:
    if isinstance(paths, str):
        paths = [paths]
    root = _Trie()
    try:
        for text in paths:
            node = root
            for element in parse_path(text):
                node = node.children.setdefault(element, _Trie())
            node.terminal = True
    except PathSyntaxError as exc:
        raise schema_error_message(str(exc)) from None
    except TypeError:
        raise schema_error_message(
            f"paths must be an iterable of path strings, got {type(paths).__name__}"
        ) from None
    return root


def _element(node: Node, item: Any) -> tuple:
    if node.list_kind == "keyed":
        return key_element(item_key(node, item))
    return set_element(item)


def remove(
    schema: Schema, value: Any, paths: Iterable[str], name: str, *, allow_duplicates: bool = False
) -> Any:
    """``value`` without the nodes at ``paths``.

    A separable map or associative list that loses all its entries becomes
    ``None``; paths inside atomic values remove nothing. With
    ``allow_duplicates`` a repeated item is one atomic entry: its item path
    removes every copy, paths below it remove nothing.
    """
    node = validated_node(schema, name, [("value", value, allow_duplicates)])
    trie = _trie(paths)
    if trie.terminal:
        return None
    with guarded_walk():
        return drive(_remove, node, value, trie)


def _repeated(node: Node, items: Any) -> tuple[list[Any], set[Any]]:
    """The identity of each item and the identities that occur more than once."""
    keys = item_keys(node, items)
    seen: set[Any] = set()
    repeated: set[Any] = set()
    for key in keys:
        (repeated if key in seen else seen).add(key)
    return keys, repeated


def _remove(node: Node, value: Any, trie: _Trie) -> Any:
    """A step of :func:`remove` (:func:`toskit.plain.drive`): the result for
    a leaf, or the generator for a container."""
    if not trie.children or not value:
        return copy_value(value)
    if _separable_map(node, value) or _associative_list(node, value):
        return _remove_below(node, value, trie)
    return copy_value(value)


def _remove_below(node: Node, value: Any, trie: _Trie) -> Generator[tuple, Any, Any]:
    if _separable_map(node, value):
        out = {}
        for k, v in value.items():
            sub = trie.children.get(field_element(k))
            if sub is None:
                out[k] = copy_value(v)
            elif not sub.terminal:
                out[k] = yield (node.child(k), v, sub)
        return out or None
    if _associative_list(node, value):
        elem = node.item_node()
        items = []
        keys, repeated = _repeated(node, value)
        for key, item in zip(keys, value):
            sub = trie.children.get(_element(node, item))
            if sub is None or (not sub.terminal and key in repeated):
                items.append(copy_value(item))  # a repeated item is atomic
            elif not sub.terminal:
                items.append((yield (elem, item, sub)))
        return items or None
    return copy_value(value)  # not reached: _remove calls this for containers only


_NOTHING = object()


def extract(
    schema: Schema,
    value: Any,
    paths: Iterable[str],
    name: str,
    *,
    append_key_fields: bool = False,
    allow_duplicates: bool = False,
) -> Any:
    """Only the nodes of ``value`` at ``paths`` and on the way to them.

    A node selected by a path is kept whole. A container reached only on the
    way to paths that select nothing in it is dropped; when nothing at all is
    selected the result is ``None``. Paths inside an atomic value keep that
    value whole. With ``allow_duplicates`` a repeated item is one atomic
    entry: a path at or below it keeps every copy whole.
    """
    node = validated_node(schema, name, [("value", value, allow_duplicates)])
    trie = _trie(paths)
    if trie.terminal:
        return copy_value(value)
    with guarded_walk():
        out = drive(_extract, node, value, trie, append_key_fields)
    return None if out is _NOTHING else out


def _extract(node: Node, value: Any, trie: _Trie, append_keys: bool) -> Any:
    """A step of :func:`extract` (:func:`toskit.plain.drive`): the result for
    a leaf, or the generator for a container."""
    if _separable_map(node, value) or _associative_list(node, value):
        return _extract_below(node, value, trie, append_keys)
    if isinstance(value, (dict, list, tuple)) and value:
        return copy_value(value)  # inside an atomic value: kept whole
    return _NOTHING


def _extract_below(
    node: Node, value: Any, trie: _Trie, append_keys: bool
) -> Generator[tuple, Any, Any]:
    if _separable_map(node, value):
        out = {}
        for k, v in value.items():
            sub = trie.children.get((FIELD, k))
            if sub is None:
                continue
            if sub.terminal:
                out[k] = copy_value(v)
            else:
                kept = yield (node.child(k), v, sub, append_keys)
                if kept is not _NOTHING:
                    out[k] = kept
        return out if out else _NOTHING
    if _associative_list(node, value):
        elem = node.item_node()
        items = []
        keys, repeated = _repeated(node, value)
        for key, item in zip(keys, value):
            sub = trie.children.get(_element(node, item))
            if sub is None:
                continue
            if sub.terminal or key in repeated:
                items.append(copy_value(item))
                continue
            kept = yield (elem, item, sub, append_keys)
            if kept is _NOTHING:
                continue
            if append_keys and node.list_kind == "keyed" and isinstance(kept, dict):
                keyed = {k: copy_value(item[k]) for k in node.keys if k in item}
                keyed.update(kept)
                kept = keyed
            items.append(kept)
        return items if items else _NOTHING
    return _NOTHING  # not reached: _extract calls this for containers only
