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
    tree.filter = "endpoint"  # Python filters; the module draws what it is sent
    module = tmp_path / "tree.mjs"
    module.write_text(tree._esm, encoding="utf-8")
    data = tmp_path / "state.json"
    target = f"my.Endpoint{PAYLOAD}"
    state = {"tree": tree.tree, "selected": None, "click": target, "filter": "endpoint", "type": "root"}
    data.write_text(json.dumps(state), encoding="utf-8")
    proc = subprocess.run(
        [NODE, str(HERE / "tree_harness.mjs"), str(module), str(data)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["names"] == ["tosca.datatypes.Root", target]  # the filtered tree
    assert result["matches"] == 1
    assert result["selected"] == target
    assert result["selectedButtons"] == [target]
    assert result["filter"] == "root"  # typing in the box sets the trait
    assert result["saves"] == 2
