"""Real OpenStack Fuel releases (docs/conditions.md, Fuel releases).

A Fuel release file is a list of fixture records. A record whose ``model``
is ``nailgun.release`` (or that ``extend``s such a record) is a release;
``extend: <record>`` (usually a YAML alias) starts from that record's
``fields`` and merges the record's own ``fields`` over them recursively.
Records without a ``name`` after merging are templates (the file's
``&base_release``), not releases.

What the release gives an evaluation is what nailgun's restriction context
had: a ``cluster`` model with nailgun's cluster fields and defaults
(:data:`CLUSTER_DEFAULTS`), the release's ``settings``, the whole
``release`` record, ``version`` (the master node's feature groups) and
``networking_parameters``. The setup wizard's conditions (bare paths such
as ``Compute.vcenter``) are read against :attr:`Release.wizard`, a model
built from the wizard's own fields, as fuel-ui did.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping
from typing import Any

from toskit.conditions.cluster import Cluster, apply_overrides
from toskit.conditions.forms import ConditionCompiler
from toskit.conditions.roles import RoleSet, build_roleset, read_source
from toskit.conditions.values import type_name
from toskit.errors import ConditionError, ToskitError

__all__ = [
    "CLUSTER_DEFAULTS",
    "Release",
    "WIZARD_MODEL",
    "default_net_provider",
    "default_release",
    "depends_as_restrictions",
    "fuel_version",
    "list_releases",
    "load_release",
    "merge_fields",
    "release_records",
    "wizard_model",
]

RELEASE_MODEL = "nailgun.release"
_MAX_EXTEND = 50

#: nailgun's ``Cluster`` columns that restrictions read, with their defaults
#: (``nailgun/db/sqlalchemy/models/cluster.py``): a new cluster's status is
#: ``new``, nodes grouped by roles, no components. ``net_provider`` is
#: added per release (:func:`default_net_provider`) and ``fuel_version``
#: from the release's version.
CLUSTER_DEFAULTS: dict[str, Any] = {
    "id": 1,
    "name": "cluster",
    "status": "new",
    "grouping": "roles",
    "is_customized": False,
    "is_locked": False,
    "components": [],
}
_FUEL_VERSION = re.compile(r"-(\d+)\.(\d+)(?:\.\d+)*\Z")


def fuel_version(release_version: Any) -> tuple[int, int] | None:
    """The Fuel version of a release's ``version`` (``"2014.2.2-6.1"`` and
    ``"mitaka-9.0"`` give ``(6, 1)`` and ``(9, 0)``); ``None`` when it does
    not say (4.1's ``"2013.2.2"``)."""
    if not isinstance(release_version, str):
        return None
    m = _FUEL_VERSION.search(release_version)
    return (int(m.group(1)), int(m.group(2))) if m else None


def default_net_provider(release_version: Any) -> str:
    """nailgun's default network provider for a new cluster of a release:
    ``nova_network`` before Fuel 7.0 (nailgun's first column default),
    ``neutron`` from 7.0 on (nova-network was then offered only with
    vCenter, and nailgun's default became ``neutron``)."""
    version = fuel_version(release_version)
    return "neutron" if version is not None and version >= (7, 0) else "nova_network"


#: nailgun's ``networking_parameters`` defaults, per network provider.
NETWORKING_DEFAULTS: dict[str, dict[str, Any]] = {
    "nova_network": {"net_manager": "FlatDHCPManager"},
    "neutron": {"segmentation_type": "vlan", "net_l23_provider": "ovs"},
}

#: The model name of bare paths in setup-wizard conditions (fuel-ui's
#: ``default``); the wizard model is also reachable as ``wizard:``.
WIZARD_MODEL = "default"


def merge_fields(base: Any, over: Any) -> Any:
    """``over`` merged onto ``base``: mappings key by key, recursively;
    anything else is replaced. Neither input is modified."""
    if isinstance(base, Mapping) and isinstance(over, Mapping):
        out = {k: copy.deepcopy(v) for k, v in base.items()}
        for key, value in over.items():
            out[key] = merge_fields(out[key], value) if key in out else copy.deepcopy(value)
        return out
    return copy.deepcopy(over)


def _is_release(record: Any, depth: int = 0) -> bool:
    if not isinstance(record, Mapping) or depth > _MAX_EXTEND:
        return False
    if record.get("model") == RELEASE_MODEL:
        return True
    return _is_release(record.get("extend"), depth + 1)


def _fields(record: Mapping, where: str, depth: int = 0) -> dict:
    if depth > _MAX_EXTEND:
        raise ToskitError(f"{where}: 'extend' chain is longer than {_MAX_EXTEND} records")
    base: Any = {}
    parent = record.get("extend")
    if parent is not None:
        if not isinstance(parent, Mapping):
            raise ToskitError(
                f"{where}.extend: expected a record (a mapping), got {type_name(parent)}"
            )
        base = _fields(parent, f"{where}.extend", depth + 1)
    own = record.get("fields") or {}
    if not isinstance(own, Mapping):
        raise ToskitError(f"{where}.fields: expected a mapping, got {type_name(own)}")
    return merge_fields(base, own)


def release_records(value: Any) -> list[tuple[int, dict]]:
    """``(record index, merged fields)`` of every named release in a file."""
    try:
        return _release_records(value)
    except RecursionError:
        raise ToskitError("the release records are nested too deeply to merge") from None


def _release_records(value: Any) -> list[tuple[int, dict]]:
    if not isinstance(value, list):
        raise ToskitError(
            f"a Fuel release file is a list of fixture records, got {type_name(value)}"
        )
    out = []
    for i, record in enumerate(value):
        if _is_release(record):
            fields = _fields(record, f"[{i}]")
            if isinstance(fields.get("name"), str):
                out.append((i, fields))
    return out


def _modes(fields: Mapping) -> tuple[str, ...]:
    modes = fields.get("modes")
    if isinstance(modes, list) and all(isinstance(m, str) for m in modes):
        return tuple(modes)
    meta = fields.get("modes_metadata")
    if isinstance(meta, Mapping):
        return tuple(str(m) for m in meta)
    return ()


def _settings(fields: Mapping) -> dict:
    """The ``settings`` model: every group of ``attributes_metadata.editable``
    with every attribute's fields (so ``storage.volumes_lvm.value`` is the
    default value)."""
    attributes = fields.get("attributes_metadata") or {}
    editable = attributes.get("editable") if isinstance(attributes, Mapping) else None
    if editable is None:
        return {}
    if not isinstance(editable, Mapping):
        raise ToskitError(
            f"attributes_metadata.editable must be a mapping, got {type_name(editable)}"
        )
    return copy.deepcopy(dict(editable))


def _field_default(field: Any) -> Any:
    """A wizard field's initial value: its ``value``; else ``false`` for a
    checkbox, the first choice's ``data`` for a radio or select, ``""`` for
    text, and null for anything else."""
    if not isinstance(field, Mapping):
        return None
    if "value" in field:
        return copy.deepcopy(field["value"])
    kind = field.get("type")
    if kind == "checkbox":
        return False
    if kind in ("radio", "select"):
        values = field.get("values")
        if isinstance(values, list) and values and isinstance(values[0], Mapping):
            return values[0].get("data")
        return None
    if kind in ("text", "password", "textarea"):
        return ""
    return None


def wizard_model(fields: Mapping[str, Any], roles: Iterable[str] = ()) -> dict:
    """fuel-ui's setup-wizard model: for each pane of ``wizard_metadata``
    every field's initial value (a pane's ``metadata`` entry is not a
    field), plus the pane fuel-ui adds itself,
    ``NameAndRelease`` (``name``, ``release``, ``release_name``,
    ``release_operating_system``, ``release_roles``)."""
    meta = fields.get("wizard_metadata")
    model: dict[str, Any] = {
        "NameAndRelease": {
            "name": "",
            "release": fields.get("name"),
            "release_name": fields.get("name"),
            "release_operating_system": fields.get("operating_system"),
            "release_roles": list(roles),
        }
    }
    if isinstance(meta, Mapping):
        for pane, pane_fields in meta.items():
            if isinstance(pane_fields, Mapping):
                # `metadata` describes the pane itself (label, weight), not a field
                model[str(pane)] = {
                    str(name): _field_default(field)
                    for name, field in pane_fields.items()
                    if name != "metadata"
                }
    return model


def depends_as_restrictions(roles_meta: Any) -> Any:
    """A copy of ``roles_metadata`` where each role's pre-5.1 ``depends`` list
    (Fuel 5.0) is also written as restrictions of the opposite polarity, so
    the role check applies it; ``depends`` itself is kept as written."""
    if not isinstance(roles_meta, Mapping):
        return roles_meta
    out = dict(roles_meta)
    for name, meta in roles_meta.items():
        if not isinstance(meta, Mapping) or not isinstance(meta.get("depends"), list):
            continue
        extra = []
        for i, item in enumerate(meta["depends"]):
            converted = _depends_item(item)
            if converted is None:
                where = f"roles_metadata.{name}.depends[{i}]"
                raise ConditionError(
                    "SchemaError",
                    f"{where}: a 'depends' item is {{'<path>': <value>}} or "
                    "{condition: <expression or {path: value}>, warning: <message>}",
                    path=where,
                )
            extra.append(converted)
        restrictions = meta.get("restrictions") or []
        if not isinstance(restrictions, list):
            continue  # build_roleset reports the malformed restrictions
        out[name] = {**meta, "restrictions": [*restrictions, *extra]}
    return out


def _depends_item(item: Any) -> dict | None:
    from toskit.conditions.restrictions import depends_condition_text

    if not isinstance(item, Mapping):
        return None
    full = "condition" in item
    text = depends_condition_text(item["condition"] if full else item)
    if text is None:
        return None
    restriction: dict[str, Any] = {
        "condition": f"not ({text})",
        "action": item.get("action", "disable") if full else "disable",
    }
    message = item.get("warning", item.get("message")) if full else None
    if message is not None:
        restriction["message"] = message
    return restriction


class Release:
    """One Fuel release: ``name``, ``version``, ``operating_system``,
    ``state``, ``modes``, ``roles`` (a :class:`RoleSet` with Fuel's
    restrictions and limits), ``settings`` (the default settings model) and
    ``fields`` (every merged field, as written)."""

    def __init__(self, fields: Mapping[str, Any], roles: RoleSet) -> None:
        self.fields = dict(fields)
        self.name: str = fields["name"]
        self.version = fields.get("version")
        self.operating_system = fields.get("operating_system")
        self.state = fields.get("state")
        self.description = fields.get("description")
        self.modes = _modes(fields)
        self.roles = roles
        self.settings = _settings(fields)
        #: the setup wizard's model (see :func:`wizard_model`)
        self.wizard = wizard_model(fields, list(roles))
        self._release_model: dict | None = None

    @property
    def release_model(self) -> dict:
        """The ``release`` model, as nailgun's: every field of the release
        record (``roles_metadata``, ``attributes_metadata``, …) with
        ``modes`` as a list. Built once and shared by the clusters of this
        release (the evaluator never changes a model)."""
        if self._release_model is None:
            try:
                model = copy.deepcopy(self.fields)
            except RecursionError:
                raise ToskitError(
                    f"{self.name}: the release is nested too deeply to copy"
                ) from None
            model.update(
                name=self.name,
                version=self.version,
                operating_system=self.operating_system,
                state=self.state,
                modes=list(self.modes),
            )
            self._release_model = model
        return self._release_model

    def cluster(
        self,
        mode: str | None = None,
        nodes: Iterable[Mapping] = (),
        settings_overrides: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> Cluster:
        """A :class:`Cluster` whose ``settings`` model is this release's
        defaults with dotted-path overrides (``{"storage.volumes_ceph.value":
        True}``); ``mode`` defaults to the release's first mode; the cluster
        attributes default to nailgun's (:data:`CLUSTER_DEFAULTS`: ``status``
        ``new``, …; ``net_provider`` by :func:`default_net_provider`;
        ``fuel_version``; pass ``status=…`` to change one); a ``release``
        model, a ``version`` model without feature groups, a
        ``networking_parameters`` model with nailgun's defaults for the
        network provider and the setup ``wizard`` model are added unless
        given in ``models``. Other arguments (``pool``)
        go to Cluster."""
        if mode is None:
            mode = self.modes[0] if self.modes else "ha_compact"
        for key, value in CLUSTER_DEFAULTS.items():
            kwargs.setdefault(key, copy.deepcopy(value))
        kwargs.setdefault("net_provider", default_net_provider(self.version))
        version = fuel_version(self.version)
        kwargs.setdefault("fuel_version", f"{version[0]}.{version[1]}" if version else None)
        models = dict(kwargs.pop("models", None) or {})
        models.setdefault("release", self.release_model)
        provider = kwargs.get("net_provider")
        models.setdefault(
            "networking_parameters",
            copy.deepcopy(NETWORKING_DEFAULTS.get(provider, {}))
            if isinstance(provider, str)
            else {},
        )
        # fuel-ui's wizard model, under both its names: `wizard:Network.manager`
        # and the bare paths of compile_expression(text, WIZARD_MODEL).
        models.setdefault("wizard", self.wizard)
        models.setdefault(WIZARD_MODEL, models["wizard"])
        # The master node's feature groups: none unless given, so that the
        # file's `'experimental' in version:feature_groups` restrictions
        # evaluate instead of failing as undefined.
        models.setdefault("version", {"feature_groups": []})
        base = models.get("settings", self.settings)  # explicit settings replace the defaults
        models["settings"] = apply_overrides(base, settings_overrides or {})
        return Cluster(mode, nodes=nodes, models=models, **kwargs)

    def check(self, role: str, cluster: Cluster, **kwargs: Any) -> Any:
        """Shorthand for ``release.roles.check(role, cluster, …)``."""
        return self.roles.check(role, cluster, **kwargs)

    def check_all(self, cluster: Cluster, **kwargs: Any) -> Any:
        """Shorthand for ``release.roles.check_all(cluster, …)``."""
        return self.roles.check_all(cluster, **kwargs)

    def __repr__(self) -> str:
        return (
            f"Release({self.name!r}, version={self.version!r}, "
            f"operating_system={self.operating_system!r}, roles={len(self.roles)})"
        )

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def default_release(records: list[tuple[int, dict]]) -> tuple[int, dict]:
    """The release a file opens on: the last whose ``state`` is
    ``available``, or the last one when none is."""
    for index, fields in reversed(records):
        if fields.get("state") == "available":
            return index, fields
    return records[-1]


def _choose(
    records: list[tuple[int, dict]], release: str | None, source_name: str
) -> tuple[int, dict]:
    if not records:
        raise ToskitError(
            f"{source_name}: no Fuel release (a record with model '{RELEASE_MODEL}' and a name)"
        )
    if release is None:
        return default_release(records)
    for index, fields in records:
        if fields["name"] == release:
            return index, fields
    names = ", ".join(repr(f["name"]) for _, f in records)
    raise ToskitError(f"{source_name}: no release named {release!r} (releases: {names})")


def load_release(source: Any, release: str | None = None) -> Release:
    """Load one release of a Fuel release file (a path, YAML text or loaded
    data): the one named ``release``, or by default the last whose state is
    ``available`` (the last one if none is). Malformed role metadata raises
    ``ConditionError`` naming its path."""
    value, name = read_source(source, "Fuel release file")
    index, fields = _choose(release_records(value), release, name)
    compiler = ConditionCompiler(skip=0)
    try:
        roles_meta = depends_as_restrictions(fields.get("roles_metadata"))
        roles = build_roleset(roles_meta, ("roles_metadata",), compiler, fields["name"])
    except ConditionError as err:
        err.message = (
            f"{fields['name']}: {err.message}" if err.kind == "SchemaError" else err.message
        )
        raise
    try:
        return Release(fields, roles)
    except RecursionError:
        raise ToskitError(f"{fields['name']}: the settings are nested too deeply to copy") from None


def list_releases(source: Any) -> list[tuple[str, Any, Any, Any]]:
    """``(name, version, operating_system, state)`` of every release in the file."""
    value, _name = read_source(source, "Fuel release file")
    return [
        (f["name"], f.get("version"), f.get("operating_system"), f.get("state"))
        for _i, f in release_records(value)
    ]
