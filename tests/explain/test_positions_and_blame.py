"""Issue #32: each layer's line is found as the document locates it (the kept
nodes of the explain memo change nothing), and ``toskit blame`` abbreviates
long values in a documented way."""

from __future__ import annotations

import gc
import textwrap
from pathlib import Path

import pytest
import yaml
from fixtures.position_trees import same_tree

import toskit
from toskit.cli import main
from toskit.source.document import load_yaml, load_yaml_file
from toskit.tosca.explain import blame_yaml as blame_module
from toskit.tosca.explain.blame_yaml import VALUE_LIMIT, WAS_LIMIT, blame
from toskit.tosca.explain.positions import position_tree

EXAMPLES = Path(__file__).parents[2] / "notebooks" / "examples"
DATA = Path(__file__).parent / "data"

# Anchors, an alias, a merge key, a list of maps, a value on the last line
# without a line break (libyaml places its end past the text: locate clamps).
TRICKY = """\
tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Ep:
    derived_from: tosca.datatypes.Root
    properties:
      host: {type: string, default: localhost}
      port: {type: integer, default: 80}
node_types:
  T:
    derived_from: tosca.nodes.Root
    properties:
      ep: {type: Ep, required: false}
      eps: {type: list, entry_schema: {type: Ep}, required: false}
      tags: {type: list, entry_schema: {type: string}, required: false}
      note: {type: string, required: false}
topology_template:
  node_templates:
    a:
      type: T
      properties: &props
        ep: &ep {host: a.example}
        eps:
          - {host: x}
          - port: 2
        tags: [one, two]
    b:
      type: T
      properties:
        <<: *props
        ep: *ep
    c:
      type: T
      properties:
        note: last"""


def _layers(st: toskit.ServiceTemplate):
    for node in st.node_templates.values():
        for entity in (node, *node.capabilities.values()):
            for row in entity.property_table():
                yield from entity.explain(row.parts).stack


def _files() -> list[Path]:
    return sorted(EXAMPLES.rglob("*.yaml")) + sorted(DATA.glob("service*.yaml"))


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_layer_is_located_as_the_document_locates_it(path):
    st = toskit.load(path)
    checked = 0
    for layer in _layers(st):
        source = layer.source
        if source._doc is None:
            continue
        where = source._doc.locate(source._parts)
        assert (source.line, source.column) == (where.line, where.column), source
        checked += 1
    assert checked > 0 or not st.node_templates


def test_anchors_aliases_merges_and_the_last_line(tmp_path):
    path = tmp_path / "tricky.yaml"
    path.write_text(TRICKY, encoding="utf-8")
    st = toskit.load(path)
    seen = set()
    for layer in _layers(st):
        source = layer.source
        where = source._doc.locate(source._parts)
        assert (source.line, source.column) == (where.line, where.column), source
        seen.add((source.file, source.line))
    lines = TRICKY.splitlines()
    # the merged and aliased values of b are located where a wrote them
    b_host = st.explain("node_templates.b.properties.ep.host").source
    assert "host: a.example" in lines[b_host.line - 1] or "*ep" in lines[b_host.line - 1]
    last = st.explain("node_templates.c.properties.note").source
    assert last.line == len(lines) and lines[last.line - 1].endswith("note: last")
    assert len(seen) > 5


# -- blame: long values -------------------------------------------------------

LONG = "x" * 5000


def _long_template(tmp_path: Path) -> Path:
    items = ", ".join(str(i) for i in range(1000))
    keys = ", ".join(f"k{i}: {i}" for i in range(300))
    text = textwrap.dedent(
        f"""\
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          T:
            derived_from: tosca.nodes.Root
            properties:
              text: {{type: string, default: {"y" * 3000}}}
              items: {{type: list, entry_schema: {{type: integer}}, required: false}}
              table: {{type: map, entry_schema: {{type: integer}}, required: false}}
              short: {{type: string, default: fine}}
        topology_template:
          node_templates:
            n:
              type: T
              properties:
                text: {LONG}
                items: [{items}]
                table: {{{keys}}}
        """
    )
    path = tmp_path / "long.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _line(out: str, key: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith(f"{key}:"))


def test_blame_abbreviates_long_values(tmp_path, capsys):
    assert main(["blame", str(_long_template(tmp_path))]) == 0
    out = capsys.readouterr().out
    text, items, table, short = (_line(out, k) for k in ("text", "items", "table", "short"))
    # every line stays short: the value, its layer and what it replaced (file names aside)
    for line in (text, items, table):
        assert len(line.replace(str(tmp_path), "")) < VALUE_LIMIT + WAS_LIMIT + 150, line
    assert "# template " in text and "(a string of 5,000 characters, abbreviated)" in text
    assert "(a list of 1,000 items, abbreviated)" in items
    assert "(a map of 300 keys, abbreviated)" in table
    # what it replaced is cut too, after the note
    assert "; was yyyy" in text and "… (default: T " in text
    assert text.index("abbreviated") < text.index("; was")
    assert short.split("#")[0].strip() == "short: fine" and "abbreviated" not in short
    # still YAML: an abbreviated value reads back as the start of its text, cut with …
    data = yaml.safe_load(out)["n"]
    assert data["text"] == "x" * (len(data["text"]) - 1) + "…"
    assert len(data["text"]) <= VALUE_LIMIT
    assert data["items"].startswith("[0, 1, 2, ") and data["items"].endswith("…")
    assert data["table"].startswith("{'k0': 0, 'k1': 1") and data["short"] == "fine"


def test_blame_full_prints_values_whole(tmp_path, capsys):
    path = _long_template(tmp_path)
    assert main(["blame", str(path), "--full"]) == 0
    out = capsys.readouterr().out
    assert "abbreviated" not in out
    data = yaml.safe_load(out)["n"]
    assert data["text"] == LONG and data["items"] == list(range(1000))
    assert data["table"] == {f"k{i}": i for i in range(300)}
    assert "; was " + "y" * 3000 + " (default: T " in _line(out, "text")


def test_blame_never_dumps_a_long_value_whole(tmp_path, monkeypatch):
    # the length is probed with a bounded walk: YAML is written only for short texts
    dumped = []
    real = blame_module.yaml_flow
    monkeypatch.setattr(blame_module, "yaml_flow", lambda v: dumped.append(v) or real(v))
    st = toskit.load(_long_template(tmp_path))
    blame(st)
    assert dumped and max(len(str(v)) for v in dumped) <= VALUE_LIMIT


def test_blame_abbreviates_a_long_key(tmp_path):
    name = "n" * 400  # a node template's name is a key of the YAML
    path = tmp_path / "key.yaml"
    path.write_text(
        textwrap.dedent(
            f"""\
            tosca_definitions_version: tosca_simple_yaml_1_3
            node_types:
              T:
                derived_from: tosca.nodes.Root
                properties:
                  size: {{type: integer, default: 1}}
            topology_template:
              node_templates:
                {name}:
                  type: T
            """
        ),
        encoding="utf-8",
    )
    out = blame(toskit.load(path))
    assert max(len(line.replace(str(tmp_path), "")) for line in out.splitlines()) < 400
    assert name not in out
    assert "  # the key: a string of 400 characters, abbreviated" in out
    data = yaml.safe_load(out)
    assert list(data) == ["n" * (VALUE_LIMIT - 3) + "…"] and data["n" * 197 + "…"] == {"size": 1}


def test_blame_limits_are_parameters():
    st = toskit.load(DATA / "service2.yaml")
    tiny = blame(st, "db", value_limit=5, was_limit=5)
    assert "(a string of 8 characters, abbreviated)" in tiny  # db.local
    assert blame(st, "db", value_limit=None, was_limit=None) == blame(st, "db")


# -- the position tree read without values -------------------------------------


def _yaml_files() -> list[Path]:
    """The examples, every YAML file of the tests and the profiles toskit ships."""
    root = Path(__file__).parents[2]
    return sorted(
        {
            *EXAMPLES.rglob("*.yaml"),
            *(root / "tests").rglob("*.yaml"),
            *(root / "toskit").rglob("*.yaml"),
        }
    )


def test_positions_without_values_equal_the_documents_own():
    read = declined = 0
    for path in _yaml_files():
        doc = load_yaml_file(path)
        mine = position_tree(doc)
        if mine is None:
            declined += 1
            continue
        assert same_tree(mine, doc.position_tree()), path
        read += 1
    assert read > 20  # most documents are clean; the others are declined, never guessed


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # an anchor and an alias
        "base: &b {p: 1}\nuse:\n  <<: *b\n  q: 2\n",  # a merge key
        "a: !!str 1\n",  # a tag
        "a: 1\na: 2\n",  # a duplicate key (a diagnostic)
        "? [x, y]\n: 1\n",  # a collection as a key
        "a: 1\n---\nb: 2\n",  # two documents
        "a: [1, 2\n",  # not YAML
        "use:\n  <<: {p: 1}\n  q: 2\n",  # a merge key without an alias
        "a: !!map {b: 1}\n",  # a tagged map
        "a: &s [1]\n",  # an anchored list, no alias
        "- !!seq [1]\n",  # a tagged list in a list
    ],
)
def test_positions_decline_what_only_the_full_composer_reads(text):
    doc = load_yaml(text, name="t.yaml")
    assert position_tree(doc) is None


def test_positions_of_plain_quoted_and_numeric_keys():
    text = 'a: 1\n"b": [x, {c: d}]\n3: three\n1.5: f\nnull: n\ntrue: t\n"": e\n'
    doc = load_yaml(text, name="t.yaml")
    mine = position_tree(doc)
    assert mine is not None and same_tree(mine, doc.position_tree())
    assert list(mine.entries) == list(doc.value)


def test_positions_are_read_once_per_document_even_without_the_template(monkeypatch):
    # nodes kept, their template dropped: each node then has a memo of its own,
    # and the positions must still be read once (not once a node)
    from toskit.tosca.explain import positions

    reads = []
    real = positions._read
    monkeypatch.setattr(positions, "_read", lambda doc: reads.append(doc) or real(doc))
    nodes = list(toskit.load(DATA / "service2.yaml").node_templates.values())
    gc.collect()
    lines = [node.explain(row.parts).source.line for node in nodes for row in node.property_table()]
    assert len(lines) > 10 and all(line is not None for line in lines)
    assert len(reads) == len({id(doc) for doc in reads}) <= 2  # service2.yaml, types2.yaml
