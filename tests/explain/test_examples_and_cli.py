"""Issue #32: every leaf of every tutorial example carries a location; toskit explain / blame."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toskit
from toskit.cli import main

EXAMPLES = Path(__file__).parents[2] / "notebooks" / "examples"
DATA = Path(__file__).parent / "data"


def _leaves(st: toskit.ServiceTemplate):
    for node in st.node_templates.values():
        for entity in (node, *node.capabilities.values()):
            for row in entity.property_table():
                yield entity, row


@pytest.mark.parametrize(
    "path", sorted(EXAMPLES.rglob("*.yaml")), ids=lambda p: str(p.relative_to(EXAMPLES))
)
def test_every_leaf_of_every_tutorial_example_carries_a_location(path):
    st = toskit.load(path)
    count = 0
    for entity, row in _leaves(st):
        e = entity.explain(row.parts)
        for layer in e.stack:
            assert layer.source.file is not None and layer.source.line is not None, (
                entity.name,
                row.path,
            )
            assert Path(layer.source.file).exists()
        assert e.source.label == row.source
        count += 1
    # a profile file (types only) has no leaves; every template has some
    assert count > 0 or not st.node_templates


def test_the_tutorial_examples_have_leaves_to_explain():
    total = sum(len(list(_leaves(toskit.load(p)))) for p in EXAMPLES.rglob("*.yaml"))
    assert total >= 20


def test_explain_command_text(capsys):
    status = main(
        ["explain", str(DATA / "service2.yaml"), "node_templates.db.properties.endpoint.port"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "endpoint.port = 8443" in out and "types2.yaml:7" in out and "* 8443" in out


def test_explain_command_json(capsys):
    status = main(
        [
            "explain",
            str(DATA / "service2.yaml"),
            "node_templates.db.properties.endpoint.port",
            "--format",
            "json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["value"] == 8443 and [s["value"] for s in data["stack"]] == [80, 443, 8443]


def test_explain_command_bad_path_exits_2_with_a_hint(capsys):
    status = main(["explain", str(DATA / "service2.yaml"), "node_templates.db.properties.sise"])
    err = capsys.readouterr().err
    assert status == 2 and "did you mean 'size'" in err


def test_explain_command_missing_file(capsys, tmp_path):
    assert main(["explain", str(tmp_path / "none.yaml"), "node_templates.a.properties.b"]) == 2
    assert "none.yaml" in capsys.readouterr().err


def test_blame_command(capsys):
    status = main(["blame", str(DATA / "service2.yaml"), "--node", "db"])
    out = capsys.readouterr().out
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "# node template db (Derived)"
    port = next(line for line in lines if line.strip().startswith("port:"))
    assert port.startswith("    port: 8443  # default: Derived ")
    assert (
        "service2.yaml:40" in port
        and "was 443 (default: SecureEndpoint" in port
        and "types2.yaml:7" in port
    )
    host = next(line for line in lines if line.strip().startswith("host:"))
    assert "# template " in host and "service2.yaml:59" in host


def test_blame_output_is_yaml_of_the_effective_properties(capsys):
    import yaml

    assert main(["blame", str(DATA / "service2.yaml")]) == 0
    data = yaml.safe_load(capsys.readouterr().out)
    st = toskit.load(DATA / "service2.yaml")
    for name, node in st.node_templates.items():
        for row in node.property_table():
            value = data[name]
            for part in row.parts:
                value = value[part]
            assert value == (
                row.value if not isinstance(row.value, toskit.functions.Call) else str(row.value)
            )


def test_blame_names_copies_and_functions(capsys):
    assert main(["blame", str(DATA / "service2.yaml")]) == 0
    out = capsys.readouterr().out
    web3 = out.split("# node template web3")[1]
    assert "template (copy) of db" in web3
    web = out.split("# node template web ")[1].split("# node template")[0]
    assert "label: db.local-x  # template (function)" in web


def test_blame_unknown_node(capsys):
    assert main(["blame", str(DATA / "service2.yaml"), "--node", "wbe"]) == 2
    assert "did you mean 'web'" in capsys.readouterr().err


def test_check_does_not_import_explain():
    import subprocess
    import sys

    target = str(DATA / "service2.yaml")
    code = (
        f"import sys; from toskit.cli import main; main(['check', {target!r}]); "
        "print('toskit.tosca.explain' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    ).stdout
    assert out.strip().splitlines()[-1] == "False"
