"""The TypeTree ES module, run by Node against a minimal DOM: it draws every
type with textContent and a click selects the type through the model."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from fakes import sample_template
from htmlcheck import PAYLOAD

from toskit.widgets import TypeTree

NODE = shutil.which("node")
HERE = Path(__file__).parent


@pytest.mark.skipif(NODE is None, reason="needs the node executable to run the ES module")
def test_tree_module_draws_types_and_a_click_selects(tmp_path):
    tree = TypeTree(sample_template(PAYLOAD))
    module = tmp_path / "tree.mjs"
    module.write_text(tree._esm, encoding="utf-8")
    data = tmp_path / "state.json"
    target = f"my.Endpoint{PAYLOAD}"
    data.write_text(json.dumps({"tree": tree.tree, "selected": None, "click": target}), encoding="utf-8")
    proc = subprocess.run(
        [NODE, str(HERE / "tree_harness.mjs"), str(module), str(data)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert set(result["names"]) == set(tree.type_names)
    assert result["selected"] == target
    assert result["saves"] == 1
    assert result["selectedButtons"] == [target]
