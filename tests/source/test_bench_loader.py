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
