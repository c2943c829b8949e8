"""The TypeTree ES module parses (Node's syntax check): a syntax error would
leave every tree blank in the browser while the Python tests pass."""

from __future__ import annotations

import shutil
import subprocess

from toskit.widgets.type_tree import _esm


def test_type_tree_module_is_valid_javascript(tmp_path):
    node = shutil.which("node")
    assert node, "node (Node.js) is needed to check the widget's ES module"
    module = tmp_path / "type_tree.mjs"
    module.write_text(_esm(), encoding="utf-8")
    result = subprocess.run(
        [node, "--check", str(module)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "innerHTML" not in _esm()  # user text only through textContent
