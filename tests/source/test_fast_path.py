"""The fast parse path (rapidyaml, toskit.source.fast) against PyYAML, the reference.

Every YAML text the repository holds (YAML files: tests, tutorials, the
OASIS corpus, the Fuel releases; YAML-like string constants of the tests,
notebook sources and library) and a hypothesis-generated corpus (valid
documents in every scalar and collection style, then mutated into broken
ones) load to identical values (types included: ``1``, ``1.0`` and
``True`` are told apart), identical diagnostics and identical locations of
every node and key on both paths.
"""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toskit.source import FrozenMap, fast, load_yaml
from toskit.source.document import LIMIT_DEFAULTS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not fast.available(), reason="rapidyaml is not installed")


# -- comparing the two paths ----------------------------------------------------


def canon(value):
    """A typed, comparable form: 1, 1.0 and True differ; NaN equals NaN."""
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    if isinstance(value, dict):
        return ("dict", tuple((canon(k), canon(v)) for k, v in value.items()))
    if isinstance(value, FrozenMap):
        return ("frozen", tuple((canon(k), canon(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(canon(v) for v in value))
    if isinstance(value, tuple):
        return ("tuple", tuple(canon(v) for v in value))
    return (type(value).__name__, value)


def all_paths(value, limit=2_000):
    """Paths of every node (breadth first, at most ``limit``), plus missing ones."""
    out, queue = [], [((), value)]
    while queue and len(out) < limit:
        path, node = queue.pop(0)
        out.append(path)
        if isinstance(node, dict):
            queue.extend((path + (k,), v) for k, v in node.items())
            out.append(path + ("<no such key>",))
        elif isinstance(node, list):
            queue.extend((path + (i,), v) for i, v in enumerate(node))
            out.append(path + (len(node),))
    return out


def assert_same(text, name="<t>", **limits):
    """Both paths agree on ``text``; True when the fast path answered itself."""
    reference = load_yaml(text, name=name, parser="c", **limits)
    quick = load_yaml(text, name=name, parser="fast", **limits)
    answered = fast.load_fast(text, {**LIMIT_DEFAULTS, **limits}) is not fast.FALLBACK
    assert canon(quick.value) == canon(reference.value), text
    assert quick.diagnostics == reference.diagnostics, text
    for path in all_paths(reference.value):
        assert quick.locate(path) == reference.locate(path), (text, path)
        assert quick.locate_key(path) == reference.locate_key(path), (text, path)
    return answered


# -- the repository's YAML ------------------------------------------------------


def _git_files(*patterns):
    out = subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [ROOT / line for line in out.split()]


def repository_yaml_files():
    return [p for p in _git_files("*.yaml", "*.yml") if p.is_file()]


def repository_yaml_strings():
    """String constants of the tests, notebook sources and library that look like YAML."""
    found = []
    for path in _git_files("tests/*.py", "notebooks/src/*.py", "toskit/*.py"):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, OSError):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and 3 < len(node.value) < 200_000
                and any(mark in node.value for mark in (":", "- ", "["))
            ):
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.value))
    return found


def test_every_yaml_file_of_the_repository_loads_the_same():
    files = repository_yaml_files()
    names = {p.relative_to(ROOT).parts[0] for p in files}
    assert {"conformance", "tests"} <= names
    assert any("fuel/releases" in str(p) for p in files)
    answered = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        answered += assert_same(text, name=str(path))
    # The fast path must actually run: most of these files are plain data.
    assert answered >= 0.8 * len(files), (answered, len(files))


def test_every_yaml_string_of_the_repository_loads_the_same():
    strings = repository_yaml_strings()
    assert len(strings) > 1_000
    answered = sum(assert_same(text, name=name) for name, text in strings)
    assert answered >= 0.5 * len(strings), (answered, len(strings))


def test_the_node_estimate_bounds_rapidyaml_trees():
    """``_could_exceed`` keeps rapidyaml's tree within max_nodes: never an underestimate."""
    import ryml

    texts = [p.read_text(encoding="utf-8") for p in repository_yaml_files()]
    texts += ["[[[[]]]]", "{a, b, c}", "[a, b, [c, d]]", "- - - x", "a", "", "? a\n: b\n"]
    for text in texts:
        try:
            tree = ryml.parse_in_arena(text.encode("utf-8"))
        except Exception:
            continue
        size = tree.size()
        estimate = sum(text.count(c) for c in fast._STRUCTURAL) + 3
        assert estimate >= size, text[:200]


# -- generated documents ----------------------------------------------------------

# Scalars that test the core schema, quoting and escapes.
PLAIN_WORDS = [
    "a", "name", "x y", "0", "-12", "+3", "017", "0o17", "0x1F", "1_000", "1:20", "1.5", ".5",
    "1.", "1e3", "-2.5E-3", ".inf", "-.Inf", ".nan", "nan", "inf", "true", "False", "TRUE",
    "yes", "no", "on", "~", "null", "Null", "NULL", "2001-12-14", "é", "日本", "a#b", "a:b",
    "-a", "?a", ":a", "<<", "12345678901234567890", "0b101", "1e", "--", "a b  c", "x.",
]  # fmt: skip
QUOTED = [
    "", "a", "1", "true", "it's", 'say "hi"', "a\\b", "tab\there", "line\nbreak", "é", "\\u00e9",
    " lead", "trail ", "#", ": ", "- x", "%", "@", "`", "\u2028",
]  # fmt: skip


def _double(s):
    out = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return '"' + out.replace("\u2028", "\\L") + '"'


def _single(s):
    return "'" + s.replace("'", "''").replace("\n", "\n\n") + "'"


# Double-quoted escapes, written as they appear in the YAML text.
ESCAPES = [
    r"\x41", r"\x80", r"\xff", r"\u00e9", r"\ud800", r"\U0001F600", r"\0", r"\a", r"\b", r"\e",
    r"\f", r"\v", r"\N", r"\_", r"\L", r"\P", r"\/", r"\ ", r"\t", r"\\", r'\"', r"\q", r"\x4",
    "\\\n  x", "a\n\n  b",
]  # fmt: skip

scalar_text = st.one_of(
    st.sampled_from(PLAIN_WORDS),
    st.lists(st.sampled_from(ESCAPES + ["a", " "]), min_size=1, max_size=3).map(
        lambda parts: '"' + "".join(parts) + '"'
    ),
    st.sampled_from(QUOTED).map(_double),
    st.sampled_from(QUOTED).filter(lambda s: "\t" not in s and "\u2028" not in s).map(_single),
    st.text(alphabet="ab \\\"'n:#-", min_size=1, max_size=6).map(lambda s: '"' + s.replace('"', '\\"').replace("\\", "\\\\") + '"'),
)  # fmt: skip
key_text = st.one_of(st.sampled_from(["a", "b", "c", "1", "1.0", "true", "~", "'a'", '"b"', "x y"]),
                     scalar_text)  # fmt: skip


def _render(tree, indent=0):
    """Block YAML lines for a generated tree (str = scalar text, list, dict as list of pairs)."""
    pad = " " * indent
    kind, body = tree
    lines = []
    if kind == "seq":
        for item in body:
            if item[0] == "scalar" or item[0] == "flow":
                lines.append(f"{pad}- {item[1]}")
            elif item[0] == "block":
                lines.append(f"{pad}- {item[1][0]}")
                lines.extend(pad + "  " + line if line else "" for line in item[1][1])
            else:
                sub = _render(item, indent + 2)
                lines.append(f"{pad}-" + (" " + sub[0].lstrip() if sub else " []"))
                lines.extend(sub[1:])
    else:
        for key, item in body:
            if item[0] in ("scalar", "flow"):
                lines.append(f"{pad}{key}: {item[1]}")
            elif item[0] == "block":
                lines.append(f"{pad}{key}: {item[1][0]}")
                lines.extend(pad + "  " + line if line else "" for line in item[1][1])
            else:
                sub = _render(item, indent + 2)
                if sub:
                    lines.append(f"{pad}{key}:")
                    lines.extend(sub)
                else:
                    lines.append(f"{pad}{key}: {{}}")
    return lines


block_scalar = st.tuples(
    st.sampled_from(["|", ">", "|-", ">-", "|+", ">+", "|2", ">1"]),
    st.lists(
        st.sampled_from(["text", "more text", "", "  indented", "a: b", "# no comment"]),
        min_size=1,
        max_size=4,
    ),  # fmt: skip
)
flow = st.recursive(
    scalar_text,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(key_text, inner), max_size=3).map(
            lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"
        ),
    ),
    max_leaves=6,
)
leaf = st.one_of(
    scalar_text.map(lambda s: ("scalar", s)),
    flow.map(lambda s: ("flow", s)),
    block_scalar.map(lambda b: ("block", b)),
)
tree = st.recursive(
    leaf,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=4).map(lambda xs: ("seq", xs)),
        st.lists(st.tuples(key_text, inner), min_size=1, max_size=4).map(lambda kv: ("map", kv)),
    ),
    max_leaves=12,
).filter(lambda t: t[0] in ("seq", "map"))


@st.composite
def documents(draw):
    lines = _render(draw(tree))
    if draw(st.booleans()):
        lines.insert(0, draw(st.sampled_from(["---", "# a comment", "--- # c", ""])))
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["...", "# end", "", "---", "--- x"])))
    text = "\n".join(lines)
    return text + draw(st.sampled_from(["\n", "", "\n\n", "  \n"]))


# Edits that break (or bend) a document in the ways people and fuzzers do.
FRAGMENTS = [
    ":", ": ", "- ", "-", "?", "? ", "[", "]", "{", "}", ",", "'", '"', "#", " #", "&a ", "*a",
    "!!str ", "!x ", "|", ">", "\n", "\n  ", "  ", " ", "---", "...", "%YAML 1.2\n", "<<: ",
    "\\", "@", "`", "a: b: c", "\t", "\r\n", "~", "\ufeff",
]  # fmt: skip


@st.composite
def mutated(draw):
    text = draw(documents())
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:at] + draw(st.sampled_from(FRAGMENTS)) + text[at:]
        else:
            text = text[:at] + text[at + draw(st.integers(1, 4)) :]
    return text


FUZZ = settings(
    max_examples=int(os.environ.get("TOSKIT_FAST_FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@FUZZ
@given(documents())
def test_generated_documents_load_the_same(text):
    assert_same(text)


@FUZZ
@given(mutated())
def test_mutated_documents_load_the_same(text):
    assert_same(text)


@settings(max_examples=50, deadline=None)
@given(documents(), st.integers(1, 40), st.integers(1, 6))
def test_bounds_are_the_same_on_both_paths(text, max_nodes, max_depth):
    assert_same(text, max_nodes=max_nodes, max_depth=max_depth)


def test_the_fast_path_answers_for_generated_documents():
    """Not a test that passes by always falling back: plain documents stay fast."""
    text = "a: 1\nb: [x, 'y', \"z\\n\"]\nc:\n  - {d: .5, e: ~}\n  - |\n    block\n"
    assert fast.load_fast(text, dict(LIMIT_DEFAULTS)) == {
        "a": 1, "b": ["x", "y", "z\n"], "c": [{"d": 0.5, "e": None}, "block\n"],
    }  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2\n",  # duplicate key
        "a: &x 1\nb: *x\n",  # anchor and alias
        "base: &b {x: 1}\nc:\n  <<: *b\n",  # merge key
        "a: !!str 1\n",  # tag
        "? [a]\n: b\n",  # complex key
        "a: 1\n---\nb: 2\n",  # two documents
        "a: [b\n",  # syntax error
        "@x: 1\n",  # reserved indicator
        ": x\n",  # empty key
        "a:\tb\n",  # a tab
        "a: |\n  x",  # block scalar at the end without a line break
        "%YAML 1.2\n---\na: 1\n",  # a directive
        "a: 1" + "0" * 5000 + "\n",  # an integer too long for Python
        "[" * 150 + "]" * 150,  # deeper than MAX_NESTING
        # Where rapidyaml is more lenient than PyYAML (found by the fuzz tests):
        "- 'x' - a\n",  # text after a quoted scalar
        "'a\n  b': 1\n",  # a multi-line implicit key
        # ... behind another quote's run to the line end (found by the shadow mode):
        "- {a: '', \"\\\n  x\": a}\n",
        "a>: | -\n  x\n",  # junk after a block indicator behind another '>' run
        "a: | -\n  x\n",  # junk after a block scalar's indicators
        "[a:]\n",  # ':' before a flow indicator
        "a:\n  - x\n  ...\n",  # an indented document end marker
        "@media (x: y)\n",  # a reserved indicator
        '"\\ud800": 1\n',  # an escape rapidyaml writes as invalid UTF-8
    ],
)
def test_what_the_fast_path_leaves_to_pyyaml(text):
    assert fast.load_fast(text, dict(LIMIT_DEFAULTS)) is fast.FALLBACK
    assert_same(text)


def test_bounds_fall_back_and_report_as_pyyaml(monkeypatch):
    text = "a: [1, 2, 3]\nb: {c: {d: {e: 1}}}\n"
    assert fast.load_fast(text, {**LIMIT_DEFAULTS, "max_nodes": 5}) is fast.FALLBACK
    assert fast.load_fast(text, {**LIMIT_DEFAULTS, "max_depth": 3}) is fast.FALLBACK
    assert fast.load_fast(text, {**LIMIT_DEFAULTS, "max_depth": 4}) is not fast.FALLBACK
    for limits in ({"max_nodes": 5}, {"max_depth": 3}, {"max_nodes": 13}, {"max_nodes": 14}):
        assert_same(text, **limits)
    # The node count is PyYAML's: 5 collections, 5 keys, 4 scalar values
    # (checked after the walk, once the estimate before parsing lets it run).
    monkeypatch.setattr(fast, "_could_exceed", lambda text, max_nodes: False)
    assert fast.load_fast(text, {**LIMIT_DEFAULTS, "max_nodes": 14}) is not fast.FALLBACK
    assert fast.load_fast(text, {**LIMIT_DEFAULTS, "max_nodes": 13}) is fast.FALLBACK
    assert load_yaml(text, parser="fast", max_nodes=13).value is None


def test_a_huge_text_is_not_given_to_rapidyaml():
    """A text that could hold more nodes than max_nodes never builds a rapidyaml tree."""
    text = "[" + "a," * 600 + "]"
    assert fast._could_exceed(text, 500)
    assert fast.load_fast(text, {**LIMIT_DEFAULTS, "max_nodes": 500}) is fast.FALLBACK
    assert not fast._could_exceed("a: 1\n", 500)


# -- selecting the path -----------------------------------------------------------


def test_parser_option_and_environment(monkeypatch):
    monkeypatch.delenv(fast.ENV_VAR, raising=False)
    assert fast.default_parser() == "fast"
    assert fast.select(None) == (True, None)
    assert fast.select("c") == (False, "c")
    assert fast.select("python") == (False, "python")
    monkeypatch.setenv(fast.ENV_VAR, "pyyaml")
    assert fast.select(None) == (False, None)
    doc = load_yaml("a: 1\n")
    assert doc.value == {"a": 1} and doc._shadow is not None  # PyYAML built it, locations too
    monkeypatch.setenv(fast.ENV_VAR, "fast")
    doc = load_yaml("a: 1\n")
    assert doc.value == {"a": 1} and doc._shadow is None and doc._shadow_pending
    assert str(doc.locate(["a"])) == "<string>:1:4"  # computed now, by PyYAML
    monkeypatch.setenv(fast.ENV_VAR, "turbo")
    with pytest.raises(ValueError, match="TOSKIT_YAML_PARSER"):
        load_yaml("a: 1\n")
    with pytest.raises(ValueError, match="parser must be"):
        load_yaml("a: 1\n", parser="turbo")


def test_rapidyaml_errors_do_not_reach_stderr():
    """rapidyaml prints parse errors on C's stderr; the fast path keeps them off."""
    code = (
        "from toskit.source import load_yaml\n"
        "d = load_yaml('a: [b\\n', parser='fast')\n"
        "print(d.diagnostics[0].code)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.stdout.strip() == "yaml-syntax"
    assert proc.stderr == ""


def test_toskit_load_uses_the_fast_path(tmp_path, monkeypatch):
    import toskit

    monkeypatch.delenv(fast.ENV_VAR, raising=False)
    path = tmp_path / "t.yaml"
    path.write_text(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "topology_template:\n  node_templates:\n    a:\n      type: tosca.nodes.Compute\n"
        "    b:\n      type: Nope\n",
        encoding="utf-8",
    )
    calls = []
    real = fast.load_fast
    monkeypatch.setattr(fast, "load_fast", lambda *a: calls.append(1) or real(*a))
    import toskit.source.document as document

    monkeypatch.setattr(document, "load_fast", fast.load_fast)
    st_ = toskit.load(path)
    assert calls
    # The diagnostic about 'Nope' is located exactly (PyYAML computed the locations).
    (d,) = [d for d in st_.diagnostics if "Nope" in d.message]
    assert (d.line, d.column) == (7, 13)


def test_threads_share_the_fast_path_and_stderr_comes_back():
    """Concurrent loads give their own results; fd 2 is the same file afterwards."""
    import threading

    before = os.fstat(2)
    texts = ["a: [b\n", "a: 1\nb: [x, y]\n", "- 'x' - y\n", "k: {a: 1}\n"] * 10
    expected = [canon(load_yaml(t, parser="c").value) for t in texts]
    results: dict[int, list] = {}

    def work(n):
        results[n] = [canon(load_yaml(t, parser="fast").value) for t in texts]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == expected for r in results.values()) and len(results) == 4
    after = os.fstat(2)
    assert (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)


def test_the_walk_falls_back_to_the_tree_methods():
    # A rapidyaml build without its low-level Tree_* functions: the walk uses
    # the tree's methods (slower), with the same result.
    import types

    ryml = fast._ryml
    without_low = types.SimpleNamespace(**{k: getattr(ryml, k) for k in dir(ryml) if k.isupper()})
    text = "a: 1\nb: [x, 'y', {c: 2.5}]\nd: ~\n"
    tree = ryml.parse_in_arena(text.encode())
    assert fast._accessors(without_low, tree)[0] is None  # the fallback is taken
    limits = dict(LIMIT_DEFAULTS)
    value = fast._walk(without_low, tree, limits)
    assert (
        canon(value)
        == canon(fast._walk(ryml, tree, limits))
        == canon(load_yaml(text, parser="c").value)
    )
