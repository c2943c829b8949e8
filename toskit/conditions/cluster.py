"""Simulated clusters: the ``cluster`` model and the node selection.

A :class:`Cluster` is immutable: its nodes are normalised and indexed by id
once, when it is built, and the ``with_*``/``without_*`` helpers return
modified copies (what an interactive simulator needs).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from toskit.errors import ToskitError

__all__ = [
    "Cluster",
    "DICT_TYPES",
    "normalize_node",
    "NODE_DEFAULTS",
    "STANDARD_MODELS",
]

# Fields every node has, with their defaults.
NODE_DEFAULTS: dict[str, Any] = {
    "roles": (),
    "pending_roles": (),
    "pending_deletion": False,
    "pending_addition": False,
}

_ID_TYPES = frozenset({int, str})

# Models that are always defined; one not supplied is an empty mapping.
STANDARD_MODELS = ("settings", "version", "release", "networking_parameters")


# The mapping type the evaluator's fast paths test for with `type(v) in …`.
# Normalised nodes are plain dicts: subscripting a dict subclass is several
# times slower in CPython.
DICT_TYPES = frozenset({dict})


def _id_text(node_id: Any) -> str:
    return repr(node_id)


def normalize_node(node: Any, where: str = "node") -> dict:
    """A plain-dict copy of ``node`` with the node defaults filled in.

    Raises ``ToskitError`` for a node that is not a mapping, has no ``id``,
    an id that is not an int or a string, or roles that are not lists.
    """
    if not isinstance(node, Mapping):
        raise ToskitError(
            f"{where}: a node must be a mapping with an 'id', got {type(node).__name__}"
        )
    if "id" not in node:
        raise ToskitError(f"{where}: a node needs an 'id' (got keys {sorted(map(str, node))})")
    node_id = node["id"]
    if isinstance(node_id, bool) or not isinstance(node_id, (int, str)):
        raise ToskitError(f"{where}: a node id must be an int or a string, got {node_id!r}")
    out = dict(node)
    for key in ("roles", "pending_roles"):
        value = out.get(key, ())
        if value is None:
            value = ()
        if isinstance(value, str) or not isinstance(value, Iterable):
            raise ToskitError(
                f"{where} {_id_text(node_id)}: {key!r} must be a list of role names, got {value!r}"
            )
        out[key] = list(value)
    for key in ("pending_deletion", "pending_addition"):
        out[key] = bool(out.get(key, False))
    return out


class Cluster:
    """A simulated cluster: ``mode``, ``nodes``, a ``pool`` of unallocated
    nodes, extra cluster ``attributes`` and extra ``models`` (such as the
    ``settings`` of a Fuel release).

    ``Cluster(mode, nodes=(), pool=(), *, models=None, **attributes)``.
    ``models`` is keyword-only and is therefore the one name that cannot be
    a cluster attribute. Node ids must be unique across ``nodes`` and
    ``pool``; a missing or duplicate id raises ``toskit.ToskitError``.
    """

    __slots__ = ("_mode", "_nodes", "_pool", "_attributes", "_models", "_index", "_model")

    def __init__(
        self,
        mode: str,
        nodes: Iterable[Mapping] = (),
        pool: Iterable[Mapping] = (),
        *,
        models: Mapping[str, Any] | None = None,
        **attributes: Any,
    ) -> None:
        if not isinstance(mode, str) or not mode:
            raise ToskitError(
                f"Cluster mode must be a non-empty string such as 'multinode', got {mode!r}"
            )
        for label, given in (("nodes", nodes), ("pool", pool)):
            if isinstance(given, (str, Mapping)) or not isinstance(given, Iterable):
                raise ToskitError(
                    "Cluster nodes and pool must be lists of node mappings; "
                    f"{label} is {type(given).__name__}"
                )
        self._mode = mode
        self._nodes = tuple(normalize_node(n, f"nodes[{i}]") for i, n in enumerate(nodes))
        self._pool = tuple(normalize_node(n, f"pool[{i}]") for i, n in enumerate(pool))
        index: dict[Any, dict] = {}
        for node in self._nodes + self._pool:
            if node["id"] in index:
                raise ToskitError(f"duplicate node id {_id_text(node['id'])} in the cluster")
            index[node["id"]] = node
        self._index = index
        self._attributes = dict(attributes)
        if models is not None and not isinstance(models, Mapping):
            raise ToskitError(
                f"Cluster models must be a mapping of model name to mapping, got {models!r}"
            )
        self._models = {k: v for k, v in (models or {}).items() if k != "cluster"}
        # The `cluster` model: {mode, nodes, **attributes}; never the pool.
        self._model = {**self._attributes, "mode": mode, "nodes": list(self._nodes)}

    # -- read-only views
    @property
    def mode(self) -> str:
        """The deployment mode (``multinode``, ``ha_compact``, ``ha_full``, …)."""
        return self._mode

    @property
    def nodes(self) -> tuple[Mapping, ...]:
        """The cluster's nodes (normalised; read-only copies)."""
        return tuple(_view(n) for n in self._nodes)

    @property
    def pool(self) -> tuple[Mapping, ...]:
        """Unallocated nodes that can be selected but are not cluster nodes."""
        return tuple(_view(n) for n in self._pool)

    @property
    def attributes(self) -> Mapping[str, Any]:
        """Extra cluster fields given as keywords (``status="new"``; a read-only copy)."""
        return MappingProxyType(copy.deepcopy(self._attributes))

    @property
    def models(self) -> Mapping[str, Any]:
        """Extra models this cluster carries (e.g. a release's ``settings``)."""
        return MappingProxyType(copy.deepcopy(self._models))

    @property
    def model(self) -> Mapping[str, Any]:
        """The ``cluster`` model seen by expressions: mode, nodes, attributes
        (a read-only view; the evaluator's own node list is not exposed)."""
        return MappingProxyType({**self._model, "nodes": self.nodes})

    def node(self, node_id: Any) -> Mapping:
        """The node (cluster or pool) with this id; ``ToskitError`` if none."""
        try:
            return _view(self._index[node_id])
        except (KeyError, TypeError):
            raise ToskitError(
                f"no node with id {_id_text(node_id)} in the cluster or its pool"
            ) from None

    def __contains__(self, node_id: object) -> bool:
        try:
            return node_id in self._index
        except TypeError:
            return False

    def __len__(self) -> int:
        return len(self._nodes)

    # -- evaluation support
    def select(self, selected: Iterable[Any]) -> list[dict]:
        """The nodes of ``selected`` ids, in order, each once.

        Ids are looked up among the nodes, then the pool; an unknown id raises
        ``ToskitError`` naming it.
        """
        if isinstance(selected, (str, bytes, Mapping)) or not isinstance(selected, Iterable):
            raise ToskitError(f"selected must be a list of node ids, got {selected!r}")
        index = self._index
        if not isinstance(selected, (list, tuple)):
            selected = list(selected)
        try:
            # dict.fromkeys keeps the first occurrence of each id, in order.
            unique = dict.fromkeys(selected)
            if set(map(type, unique)) <= _ID_TYPES:
                return [index[node_id] for node_id in unique]
        except (KeyError, TypeError):
            pass
        for node_id in selected:  # find the first culprit, to name it
            if type(node_id) not in _ID_TYPES or node_id not in index:
                raise ToskitError(
                    f"selected node {_id_text(node_id)} is neither in the cluster nor in its pool"
                )
        raise AssertionError("unreachable")  # pragma: no cover

    # -- modified copies
    def _copy(self, **changes: Any) -> Cluster:
        args: dict[str, Any] = {
            "mode": self._mode,
            "nodes": self._nodes,
            "pool": self._pool,
            "models": self._models,
            **self._attributes,
        }
        args.update(changes)
        return Cluster(**args)

    def with_mode(self, mode: str) -> Cluster:
        """A copy with another mode."""
        return self._copy(mode=mode)

    def with_node(self, node: Mapping, *, pool: bool = False) -> Cluster:
        """A copy with ``node`` added, or replacing the node with its id (which
        stays where it was, in the cluster or the pool). ``pool=True`` adds a
        new node to the pool instead of the cluster."""
        new = normalize_node(node)
        node_id = new["id"]
        nodes, pool_nodes = list(self._nodes), list(self._pool)
        for seq in (nodes, pool_nodes):
            for i, existing in enumerate(seq):
                if existing["id"] == node_id and type(existing["id"]) is type(node_id):
                    seq[i] = new
                    return self._copy(nodes=nodes, pool=pool_nodes)
        (pool_nodes if pool else nodes).append(new)
        return self._copy(nodes=nodes, pool=pool_nodes)

    def without_node(self, node_id: Any) -> Cluster:
        """A copy without the node of that id (cluster or pool)."""
        if node_id not in self:
            raise ToskitError(f"no node with id {_id_text(node_id)} in the cluster or its pool")
        return self._copy(
            nodes=[n for n in self._nodes if n["id"] != node_id],
            pool=[n for n in self._pool if n["id"] != node_id],
        )

    def with_attributes(self, **attributes: Any) -> Cluster:
        """A copy with cluster attributes added or replaced."""
        return self._copy(**attributes)

    def with_models(self, **models: Any) -> Cluster:
        """A copy with extra models added or replaced (``settings=…``)."""
        return self._copy(models={**self._models, **models})

    def with_settings(self, overrides: Mapping[str, Any] | None = None, **more: Any) -> Cluster:
        """A copy whose ``settings`` model has dotted-path overrides applied:
        ``with_settings({"storage.volumes_ceph.value": True})``."""
        settings = apply_overrides(self._models.get("settings", {}), {**(overrides or {}), **more})
        return self.with_models(settings=settings)

    # -- display
    def to_frame(self) -> Any:
        """A pandas DataFrame with one row per node (cluster nodes, then the
        pool), the column ``in_pool`` telling which."""
        import pandas as pd

        rows = [{**n, "in_pool": False} for n in self._nodes] + [
            {**n, "in_pool": True} for n in self._pool
        ]
        columns = [
            "id",
            "roles",
            "pending_roles",
            "pending_deletion",
            "pending_addition",
            "in_pool",
        ]
        extra = sorted({k for row in rows for k in row if k not in columns}, key=str)
        return pd.DataFrame(rows, columns=columns + extra)

    def __repr__(self) -> str:
        parts = [f"mode={self._mode!r}", f"nodes={len(self._nodes)}"]
        if self._pool:
            parts.append(f"pool={len(self._pool)}")
        parts.extend(f"{k}={v!r}" for k, v in self._attributes.items())
        if self._models:
            parts.append(f"models={sorted(self._models)}")
        return f"Cluster({', '.join(parts)})"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Cluster):
            return NotImplemented
        return (
            self._mode == other._mode
            and self._nodes == other._nodes
            and self._pool == other._pool
            and self._attributes == other._attributes
            and self._models == other._models
        )

    # Unhashable on purpose: defining __eq__ (without __hash__) sets __hash__ to None.


def _view(node: dict) -> Mapping:
    """A read-only copy of a node: the cluster's own data stays untouchable."""
    try:
        return MappingProxyType(copy.deepcopy(node))
    except RecursionError:  # pathologically deep user data: a shallow view
        return MappingProxyType(dict(node))


def apply_overrides(base: Any, overrides: Mapping[str, Any]) -> dict:
    """A deep copy of mapping ``base`` with each dotted path of ``overrides``
    set (``"storage.volumes_ceph.value": True``). Intermediate mappings are
    created as needed; a path through a non-mapping raises ``ToskitError``."""
    if base is None:
        base = {}
    if not isinstance(base, Mapping):
        raise ToskitError(f"settings must be a mapping, got {type(base).__name__}")
    try:
        result = copy.deepcopy(dict(base))
    except RecursionError:
        raise ToskitError("settings are nested too deeply to copy") from None
    for path, value in overrides.items():
        if not isinstance(path, str) or not path:
            raise ToskitError(f"a settings override path must be a dotted string, got {path!r}")
        keys = path.split(".")
        target = result
        for depth, key in enumerate(keys[:-1]):
            child = target.get(key)
            if child is None:
                child = target[key] = {}
            elif not isinstance(child, dict):
                if isinstance(child, Mapping):
                    child = target[key] = dict(child)
                else:
                    where = ".".join(keys[: depth + 1])
                    raise ToskitError(f"cannot override {path!r}: {where!r} is not a mapping")
            target = child
        target[keys[-1]] = copy.deepcopy(value)
    return result
