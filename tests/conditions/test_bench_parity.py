"""The benchmark's hand-written functions compute what RoleSet.check does
(otherwise the benchmark would compare different work)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from toskit.conditions import Cluster, load_roles

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_conditions.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_conditions", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("mode", ["multinode", "ha_compact", "ha_full"])
@pytest.mark.parametrize("count", [0, 2, 150, 700])
@pytest.mark.parametrize("take", [0, 1, 2, 100])
def test_hand_written_matches_toskit(bench, mode, count, take):
    roles = load_roles(bench.SEED_ROLES)
    nodes, selected = bench.build_nodes(count)
    if count:
        nodes[count // 2] = {
            "id": nodes[count // 2]["id"],
            "roles": ["controller"],
        }  # one unselected controller
    cluster = Cluster(mode, nodes=nodes, pool=[{"id": -1}])
    chosen = (selected + [-1])[:take]
    plain = [dict(n) for n in cluster._nodes]
    index = {n["id"]: n for n in plain}
    index[-1] = dict(cluster.node(-1))
    for role, hand in (("controller", bench.hand_seed), ("not-exists", bench.hand_not_exists)):
        out = roles.check(role, cluster, selected=chosen)
        assert (out.allowed, out.warnings) == hand(mode, plain, index, chosen)


def test_main_runs_small(bench, capsys):
    bench.main(["--nodes", "300", "--repeats", "1"])
    text = capsys.readouterr().out
    assert "ratio" in text and "MISMATCH" not in text
