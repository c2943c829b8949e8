"""Fixtures of spec/conditions.md §12: clusters, models, the roles document."""

from __future__ import annotations

from pathlib import Path

from toskit.conditions import Cluster, load_roles

DATA = Path(__file__).parent / "data"
SEED_AS_WRITTEN = (DATA / "seed_roles_as_written.yaml").read_text(encoding="utf-8")


def _fix_indentation(text: str) -> str:
    """The seed's fix: dedent the first rule's `then:` block and `else:` by two."""
    lines = text.splitlines()
    out = []
    inside = False
    for line in lines:
        if line.startswith("          then:"):
            inside = True
        if inside and line.startswith("          else: true"):
            out.append(line[2:])
            inside = False
            continue
        out.append(line[2:] if inside else line)
    return "\n".join(out) + "\n"


SEED_FIXED = _fix_indentation(SEED_AS_WRITTEN)
ROLES_TEXT = SEED_FIXED + "  compute: {}\n  cinder: {}\n  zabbix-server: {conflicts: '*'}\n"

WMN = "Multi-node environment cannot have more than one controller node."
WHA = "At least 3 controller nodes are recommended for HA deployment."
CONF = "This role cannot be combined with the selected roles."

POOL = [{"id": 11}, {"id": 12}]


def _cluster(mode: str, *nodes: dict) -> Cluster:
    return Cluster(mode=mode, nodes=list(nodes), pool=POOL)


CLUSTERS = {
    "MN0": _cluster("multinode"),
    "MN1": _cluster(
        "multinode", {"id": 1, "roles": ["controller"]}, {"id": 2, "roles": ["compute"]}
    ),
    "MN1D": _cluster(
        "multinode",
        {"id": 1, "roles": ["controller"], "pending_deletion": True},
        {"id": 2, "roles": ["compute"]},
    ),
    "MN1P": _cluster(
        "multinode",
        {"id": 1, "roles": [], "pending_roles": ["controller"], "pending_addition": True},
        {"id": 2, "roles": ["compute"]},
    ),
    "HA0": _cluster("ha_compact"),
    "HA1": _cluster(
        "ha_compact", {"id": 1, "roles": ["controller"]}, {"id": 2, "roles": ["compute"]}
    ),
    "HA1C2": _cluster(
        "ha_compact",
        {"id": 1, "roles": ["controller"]},
        {"id": 2, "roles": ["compute"]},
        {"id": 3, "roles": ["compute"]},
    ),
    "HA3": _cluster("ha_compact", *({"id": i, "roles": ["controller"]} for i in (1, 2, 3))),
    "HAF": _cluster("ha_full"),
}

MODELS = {
    "version": {"feature_groups": ["experimental"]},
    "settings": {"storage": {"osd_pool_size": {"value": 2}}},
}

ROLES = load_roles(ROLES_TEXT)
