"""The loader benchmark script runs and compares like with like (tiny size)."""

import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_loader.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_loader", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_document_has_the_requested_size():
    text = load_bench().generate(50_000)
    assert 50_000 <= len(text) < 52_000
    assert text.startswith("tosca_definitions_version: tosca_simple_yaml_1_3\n")


def test_bench_runs_and_writes_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    results = load_bench().main(["--size-mb", "0.02", "--runs", "1", "--json", str(out)])
    assert json.loads(out.read_text()) == results
    assert results["ratio"] > 0
    assert "ratio toskit / PyYAML" in capsys.readouterr().out


def test_bench_reports_both_parse_paths(tmp_path):
    from toskit.source import fast

    results = load_bench().main(
        ["--size-mb", "0.02", "--runs", "1", "--json", str(tmp_path / "r.json")]
    )
    assert results["toskit_load_yaml_s"] > 0 and results["toskit_load_yaml_cpu_s"] >= 0
    if fast.available():
        assert results["toskit_fast_s"] > 0 and results["fast_ratio"] > 0


def test_tosca_bench_reports_both_parse_paths_and_the_small_template(tmp_path, monkeypatch, capsys):
    """bench/bench_tosca.py: per N a row per parse path, the 50-node figure, the load."""
    from toskit.source import fast

    spec = importlib.util.spec_from_file_location("bench_tosca", BENCH.parent / "bench_tosca.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "tosca_parser", lambda: None)  # the peer is not needed here
    monkeypatch.setattr(module, "import_time", lambda: 0.01)
    out = tmp_path / "b.json"
    monkeypatch.setenv("TOSKIT_BENCH_JSON", str(out))
    assert module.main(["--sizes", "20", "--runs", "1"]) == 0
    data = json.loads(out.read_text())
    (row,) = data["rows"]
    expected = {"fast", "pyyaml"} if fast.available() else {"pyyaml"}
    assert set(row["paths"]) == expected
    assert set(data["small_ms"]) == expected and data["small_n"] == 50
    text = capsys.readouterr().out
    assert "50-node template" in text and "load average" in text
    assert "goal < 20 ms for 50 nodes" in text
