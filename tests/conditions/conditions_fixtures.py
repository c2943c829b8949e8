"""Fixtures of spec/conditions.md §12: clusters, models, the roles document."""

from __future__ import annotations

from pathlib import Path

from toskit.conditions import Cluster, load_roles
from toskit.conditions.examples import (
    SEED_PROSE_AS_COMMENTS,
    SEED_ROLES_AS_WRITTEN,
    SEED_ROLES_FIXED,
    SEED_ROLES_YAML,
)

DATA = Path(__file__).parent / "data"

# The seed's roles document with the seed's own line numbering (error at line 11).
SEED_AS_WRITTEN = SEED_PROSE_AS_COMMENTS + SEED_ROLES_AS_WRITTEN
SEED_FIXED = SEED_ROLES_FIXED
ROLES_TEXT = SEED_ROLES_YAML

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
