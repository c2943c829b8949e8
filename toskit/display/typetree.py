"""The type inheritance forest of a template, as plain data.

Both the static HTML view and the ``TypeTree`` widget are drawn from this,
so they always agree. A type is *normative* when it comes from the TOSCA
profile shipped with toskit: its ``normative`` attribute says so when the
type has one, otherwise its name starting with ``tosca.`` or ``tosca:`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from toskit.records import field, record

__all__ = [
    "TypeNode",
    "build_forest",
    "filter_forest",
    "is_normative",
    "kinds_in_order",
    "own_property_names",
    "template_types",
    "type_usage",
    "user_forest",
]

# Kinds in the order a reader expects them.
_KIND_ORDER = (
    "node",
    "data",
    "capability",
    "relationship",
    "interface",
    "artifact",
    "group",
    "policy",
)


@record
class TypeNode:
    """One type in the forest with the types derived from it."""

    name: str
    kind: str
    normative: bool
    children: list[TypeNode] = field(default_factory=list)
    cycle: bool = False  # its derivation loops (drawn as an extra root)
    type: Any = None  # the core Type object
    match: bool = False  # its name matched a filter (see filter_forest)

    @property
    def has_user(self) -> bool:
        """True when this node or one below it is a user-defined type."""
        stack = [self]
        while stack:
            node = stack.pop()
            if not node.normative:
                return True
            stack.extend(node.children)
        return False

    def size(self) -> int:
        """Number of nodes in this subtree."""
        count, stack = 0, [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children)
        return count

    def to_dict(self) -> dict[str, Any]:
        """JSON data for the widget (no recursion limit issues: iterative)."""
        root: dict[str, Any] = {}
        stack: list[tuple[TypeNode, dict[str, Any]]] = [(self, root)]
        while stack:
            node, out = stack.pop()
            out.update(name=node.name, kind=node.kind, normative=node.normative, children=[])
            if node.cycle:
                out["cycle"] = True
            if node.match:
                out["match"] = True
            for child in node.children:
                child_out: dict[str, Any] = {}
                out["children"].append(child_out)
                stack.append((child, child_out))
        return root


def is_normative(t: Any) -> bool:
    """Whether a core ``Type`` belongs to the shipped TOSCA profile."""
    flag = getattr(t, "normative", None)
    if isinstance(flag, bool):
        return flag
    name = str(getattr(t, "name", ""))
    return name.startswith(("tosca.", "tosca:"))


def template_types(st: Any) -> list[Any]:
    """Every type visible to a template, all kinds, without duplicates.

    ``ServiceTemplate.types`` keeps only the node type when two kinds share a
    name, so each kind's own namespace is read too when ``types_of`` exists.
    """
    seen: set[tuple[str, str]] = set()
    out: list[Any] = []

    def add(types: Iterable[Any]) -> None:
        for t in types:
            key = (str(getattr(t, "kind", "")), str(getattr(t, "name", "")))
            if key not in seen:
                seen.add(key)
                out.append(t)

    types = getattr(st, "types", {}) or {}
    add(types.values() if hasattr(types, "values") else types)
    types_of = getattr(st, "types_of", None)
    if callable(types_of):
        for kind in kinds_in_order({str(getattr(t, "kind", "")) for t in out}):
            try:
                add(types_of(kind).values())
            except Exception:  # noqa: BLE001 - an unknown kind just adds nothing
                continue
    return out


def kinds_in_order(kinds: Iterable[str]) -> list[str]:
    """Known kinds in reading order, then any others alphabetically."""
    kinds = set(kinds)
    known = [k for k in _KIND_ORDER if k in kinds]
    return known + sorted(kinds - set(known))


def build_forest(types: Iterable[Any]) -> list[TypeNode]:
    """Roots of the inheritance forest of ``types`` (one kind or several).

    Children keep the order of ``types`` (declaration order). A type whose
    parent is not among ``types`` is a root; types caught in a derivation
    cycle, unreachable from any root, become extra roots marked ``cycle``.
    """
    nodes: dict[tuple[str, str], TypeNode] = {}
    order: list[tuple[str, str]] = []
    parents: dict[tuple[str, str], tuple[str, str] | None] = {}
    for t in types:
        kind = str(getattr(t, "kind", ""))
        key = (kind, str(getattr(t, "name", "")))
        if key in nodes:
            continue
        nodes[key] = TypeNode(name=key[1], kind=kind, normative=is_normative(t), type=t)
        order.append(key)
        parent = getattr(t, "parent", None)
        parents[key] = (
            (str(getattr(parent, "kind", kind)), str(getattr(parent, "name", "")))
            if parent is not None
            else None
        )
    roots: list[TypeNode] = []
    for key in order:
        parent_key = parents[key]
        if parent_key is not None and parent_key in nodes and parent_key != key:
            nodes[parent_key].children.append(nodes[key])
        else:
            roots.append(nodes[key])
    # Anything not reachable from a root sits on a derivation cycle.
    reached: set[int] = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if id(node) in reached:
            continue
        reached.add(id(node))
        stack.extend(node.children)
    for key in order:
        node = nodes[key]
        if id(node) not in reached:
            cycle_root = TypeNode(
                node.name, node.kind, node.normative, [], cycle=True, type=node.type
            )
            roots.append(cycle_root)
            reached.add(id(node))
    return roots


def own_property_names(t: Any) -> list[str]:
    """Names of the properties a type writes itself (``own_properties``)."""
    own = getattr(t, "own_properties", None)
    return [str(k) for k in own] if isinstance(own, Mapping) else []


def _matches(node: TypeNode, needle: str) -> bool:
    """A type matches a filter by its name or by a property it defines."""
    if needle in node.name.lower():
        return True
    return any(needle in name.lower() for name in own_property_names(node.type))


#: Levels of a derivation chain that the pruned forests keep (a view draws
#: fewer: ``display_max_depth``); below it a branch is cut.
MAX_FOREST_DEPTH = 400


def _pruned(
    roots: list[TypeNode], wanted: Callable[[TypeNode], bool], *, mark: bool
) -> list[TypeNode]:
    """A new forest of the nodes ``wanted`` and their ancestors.

    Walked post-order with an explicit stack (a 10,000-deep chain needs no
    Python frames), each node visited once: a node is kept when it is
    wanted or one of its children was. ``mark`` sets ``match`` to whether
    the node itself was wanted (else it is copied). Nodes deeper than
    :data:`MAX_FOREST_DEPTH` are left out.
    """
    out: list[TypeNode] = []
    # (node, depth, where its copy goes, its kept children or None before they are walked)
    stack: list[tuple[TypeNode, int, list[TypeNode], list[TypeNode] | None]] = [
        (r, 0, out, None) for r in reversed(roots)
    ]
    while stack:
        node, depth, into, kids = stack.pop()
        if kids is None:
            kids = []
            stack.append((node, depth, into, kids))
            if depth < MAX_FOREST_DEPTH:
                stack.extend((c, depth + 1, kids, None) for c in reversed(node.children))
            continue
        wanted_here = wanted(node)
        if wanted_here or kids:
            match = wanted_here if mark else node.match
            into.append(
                TypeNode(node.name, node.kind, node.normative, kids, node.cycle, node.type, match)
            )
    return out


def user_forest(roots: list[TypeNode]) -> list[TypeNode]:
    """Only the branches that lead to user types (their normative ancestors
    kept as context); a forest of normative types only is empty."""
    return _pruned(roots, lambda node: not node.normative, mark=False)


def filter_forest(roots: list[TypeNode], text: str) -> list[TypeNode]:
    """The part of a forest whose names contain ``text`` (case-insensitive),
    or which define a property whose name contains it, with the ancestors
    that lead to them; matching nodes are marked ``match``.

    An empty ``text`` keeps everything. The result is a new forest (the
    input is not modified).
    """
    needle = text.strip().lower()
    if not needle:
        return roots
    return _pruned(roots, lambda node: _matches(node, needle), mark=True)


def type_usage(st: Any, *, max_depth: int = 12) -> dict[str, list[tuple[str, str]]]:
    """Where each data type is used: type name → ``(node template, property
    path)`` pairs, for every data type that a node template's property
    definitions reach, directly or nested (a data type's fields, list and
    map entries): ``Endpoint`` used by ``db`` through
    ``connection.endpoint``. Walked once per node *type* (templates of one
    type share the result), bounded in depth, cycles cut."""
    data_types = {
        str(getattr(t, "name", "")): t
        for t in template_types(st)
        if str(getattr(t, "kind", "")) == "data"
    }
    per_type: dict[str, list[tuple[str, str]]] = {}

    def uses(node_type: Any) -> list[tuple[str, str]]:
        key = str(getattr(node_type, "name", ""))
        if key in per_type:
            return per_type[key]
        found: list[tuple[str, str]] = []
        stack: list[tuple[Any, str, tuple[str, ...]]] = []
        props = getattr(node_type, "properties", None)
        if isinstance(props, Mapping):
            stack.extend((defn, str(name), ()) for name, defn in reversed(list(props.items())))
        while stack:
            defn, path, seen = stack.pop()
            names = [getattr(defn, "type", None)]
            schema = getattr(defn, "schema", None)
            for part in ("entry_schema", "key_schema"):
                sub = getattr(schema, part, None)
                if sub is not None:
                    names.append(getattr(sub, "type", None))
            for name in names:
                if (
                    not isinstance(name, str)
                    or name not in data_types
                    or name in seen
                    or len(seen) >= max_depth
                ):
                    continue
                found.append((name, path))
                fields = getattr(data_types[name], "properties", None)
                if isinstance(fields, Mapping):
                    stack.extend(
                        (fdef, f"{path}.{fname}", (*seen, name))
                        for fname, fdef in reversed(list(fields.items()))
                    )
        per_type[key] = found
        return found

    out: dict[str, list[tuple[str, str]]] = {}
    nodes = getattr(st, "node_templates", {}) or {}
    for node_name, node in nodes.items():
        for type_name, path in uses(getattr(node, "type", None)):
            out.setdefault(type_name, []).append((str(node_name), path))
    return out
