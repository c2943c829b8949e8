"""bench/bench_compare.py runs and finds exactly the changes it makes (small size)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_bench_compare_small(tmp_path, capsys):
    sys.path.insert(0, str(BENCH))
    try:
        import bench_compare
    finally:
        sys.path.remove(str(BENCH))
    out = tmp_path / "r.json"
    # The run itself checks that the diff is exactly the changes made, each
    # located; the ratio is a machine's figure, not a test's (--no-bar).
    assert bench_compare.main(["--nodes", "60", "--runs", "1", "--no-bar", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["nodes"] == 60 and data["changes"] == round(data["leaves"] * 0.01)
    assert data["ratio"] > 0 and data["report_s"] > 0 and data["bar"] == 0.5
    assert "compare / load both" in capsys.readouterr().out
