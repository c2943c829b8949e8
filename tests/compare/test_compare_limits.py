"""Issue #29 item 5 and the output bounds of item 6: depth, size, names."""

from __future__ import annotations

import json
import sys

import pytest

import toskit
from toskit import cli
from toskit.compare.serialize import VALUE_CAP, capped, jsonable
from toskit.plain import MAX_DEPTH, TooDeep

HEAD = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  T:
    derived_from: tosca.nodes.Root
    properties:
      deep: {type: list, required: false}
      big: {type: string, required: false}
topology_template:
  node_templates:
"""


def nested(depth: int, leaf: str = "1") -> str:
    return "[" * depth + leaf + "]" * depth


def deep_template(depth: int, leaf: str = "1") -> str:
    return HEAD + f"    n:\n      type: T\n      properties:\n        deep: {nested(depth, leaf)}\n"


def deepest_accepted() -> int:
    """The deepest list the loader takes in this template (found, not assumed)."""
    depth = MAX_DEPTH
    while any(d.code == "limit-exceeded" for d in toskit.loads(deep_template(depth)).diagnostics):
        depth -= 1
    return depth


@pytest.mark.parametrize("depth", [380, "deepest"])
def test_a_value_as_deep_as_the_loader_accepts_compares_and_serialises(depth, tmp_path, capsys):
    depth = deepest_accepted() if depth == "deepest" else depth
    old = toskit.loads(deep_template(depth), name="old.yaml")
    assert not [d for d in old.diagnostics if d.code == "limit-exceeded"]
    new = toskit.loads(deep_template(depth, "2"), name="new.yaml")
    limit = sys.getrecursionlimit()
    d = toskit.compare(old, new)
    assert sys.getrecursionlimit() == limit  # nothing raised it
    assert toskit.compare(old, toskit.loads(deep_template(depth), name="again.yaml")).is_same
    (v,) = d.values
    assert v.path == "deep" and v.change == "changed"
    assert d.fields == ()  # the value change (a list is one row) covers the deep leaf
    assert (v.old_location or "").startswith("old.yaml:") and (v.new_location or "").startswith(
        "new.yaml:"
    )
    data = json.loads(d.to_json())
    assert data["same"] is False and data["values"][0]["path"] == "deep"
    assert str(d) and d._repr_html_()
    (tmp_path / "a.yaml").write_text(deep_template(depth))
    (tmp_path / "b.yaml").write_text(deep_template(depth, "2"))
    for fmt in ("json", "text", "html"):
        status = cli.main(
            [
                "diff",
                "--format",
                fmt,
                "--fail-on",
                "changes",
                str(tmp_path / "a.yaml"),
                str(tmp_path / "b.yaml"),
            ]
        )
        out, err = capsys.readouterr()
        assert status == 1 and out and "Traceback" not in err


def test_deep_value_in_json_is_whole_when_small():
    value: list = [1]
    for _ in range(MAX_DEPTH - 1):
        value = [value]
    out = jsonable(value)
    depth = 0
    while isinstance(out, list):
        out, depth = out[0], depth + 1
    assert depth == MAX_DEPTH and out == 1
    too_deep: list = [value]
    too_deep = [too_deep, too_deep]
    with pytest.raises(TooDeep):
        jsonable([too_deep])
    text, cut = capped([too_deep])
    assert cut and isinstance(text, str) and text.endswith("…")


def test_json_values_are_capped_with_the_full_value_in_python():
    big = "x" * 200_000
    nodes = "".join(f"    n{i}:\n      type: T\n" for i in range(200))
    old_text = (
        HEAD.replace("big: {type: string, required: false}", "big: {type: string, default: A}")
        + nodes
    )
    new_text = old_text.replace("default: A}", f"default: {big}}}")
    d = toskit.compare(toskit.loads(old_text, name="a.yaml"), toskit.loads(new_text, name="b.yaml"))
    assert len(d.values) == 200 and all(v.new == big for v in d.values)  # the API keeps it whole
    text = d.to_json()
    assert len(text) < 200 * (VALUE_CAP + 2_000)  # not 200 x 200 kB
    data = json.loads(text)
    row = data["values"][0]
    assert (
        row["new_truncated"] is True and len(row["new"]) <= VALUE_CAP and "old_truncated" not in row
    )
    assert data["types"][0]["properties"][0]["new_truncated"] is True
    # a big map is cut the same way, read no further than needed
    value, cut = capped({f"k{i}": i for i in range(100_000)})
    assert cut and isinstance(value, str) and len(value) <= 200


def test_names_cannot_forge_report_lines():
    evil = "n\\nOK: no changes\\n\\x1b[2J"
    text = HEAD + f'    "{evil}":\n      type: T\n      properties: {{big: a}}\n'
    new = text.replace("{big: a}", "{big: b}")
    d = toskit.compare(toskit.loads(text, name="a.yaml"), toskit.loads(new, name="b.yaml"))
    out = str(d)
    assert not any(line.startswith("OK") for line in out.splitlines())
    assert "\x1b" not in out and "␊OK: no changes" in out
    # keys, values and paths too
    text2 = HEAD + '    n:\n      type: T\n      properties: {big: "a\\nOK: no changes"}\n'
    d = toskit.compare(
        toskit.loads(text2, name="a.yaml"),
        toskit.loads(text2.replace("no changes", "none"), name="b.yaml"),
    )
    assert not any(line.startswith("OK") for line in str(d).splitlines())
