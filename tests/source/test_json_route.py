"""The fast path's JSON route reads what the walk reads (issue #31 item 2).

For a large text of plain scalars and block collections, ``load_fast`` has
rapidyaml write its tree as JSON and ``json.loads`` build the values, with
the walk's rules applied in the hooks. Whenever the route answers, its value
(types included) and key table must be the walk's for the same tree; what it
cannot read the same way it must leave to the walk (or to PyYAML).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toskit.source import fast, load_yaml, shadow
from toskit.source.document import LIMIT_DEFAULTS

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from gen_template import generate  # noqa: E402

pytestmark = pytest.mark.skipif(not fast.available(), reason="rapidyaml is not installed")


def _strict(value):
    """``value`` with every scalar's type beside it (1 and True and 1.0 differ)."""
    if isinstance(value, dict):
        return ("map", [(_strict(k), _strict(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_strict(v) for v in value])
    return (type(value).__name__, repr(value))


def _outcome(fn):
    try:
        return fn()
    except (fast._Fallback, fast.ScalarError):
        return fast._Fallback


def _routes(text: str, limits=None):
    """(JSON route's outcome, walk's outcome) for ``text``, or None when
    rapidyaml refuses it or the route does not apply."""
    limits = limits or LIMIT_DEFAULTS
    ryml = fast._ryml
    try:
        tree = ryml.parse_in_arena(text.encode("utf-8"))
    except Exception:
        return None
    if not fast._json_ready(text, limits):
        return None
    jkeys: list = []
    wkeys: list = []
    by_json = _outcome(lambda: fast._from_json(ryml, tree, jkeys))
    if by_json is fast._NOT_JSON:
        return None
    by_walk = _outcome(lambda: fast._walk(ryml, tree, limits, wkeys))
    return (by_json, jkeys), (by_walk, wkeys)


def _check(text: str, limits=None) -> bool:
    """The route agrees with the walk; True when it answered with a value."""
    found = _routes(text, limits)
    if found is None:
        return False
    (by_json, jkeys), (by_walk, wkeys) = found
    if by_json is fast._Fallback:
        return False  # safe: PyYAML answers
    assert by_walk is not fast._Fallback, text  # the route must not read what the walk refuses
    assert _strict(by_json) == _strict(by_walk), text
    assert jkeys == wkeys, text
    return True


def test_the_benchmark_template_takes_the_route_and_reads_alike():
    text = generate(300)
    assert len(text) >= fast.JSON_MIN_SIZE
    assert _check(text)
    # and load_yaml goes that way: the walk is not reached
    original = fast._walk
    try:
        fast._walk = None  # type: ignore[assignment]
        doc = load_yaml(text, name="b1.yaml")
    finally:
        fast._walk = original
    assert not doc.diagnostics
    assert shadow.canon(doc.value) == shadow.canon(load_yaml(text, parser="c").value)


def test_small_texts_and_the_switch_keep_the_walk(monkeypatch):
    text = generate(3)
    assert len(text) < fast.JSON_MIN_SIZE
    monkeypatch.setattr(fast, "_from_json", None)  # never reached
    assert load_yaml(text).value["topology_template"]
    monkeypatch.setattr(fast, "JSON_ROUTE", False)
    assert load_yaml(generate(300)).value["topology_template"]


_NUMBERISH = "0123456789.eE+-_xo:"


def test_number_like_scalars_read_alike():
    """Every rewrite rapidyaml makes of a number (``.5``, ``1.``) is kept off the
    route; the rest reads as the walk reads it, as values, list items and keys."""
    rng = random.Random(31)
    tokens = sorted(
        {"".join(rng.choice(_NUMBERISH) for _ in range(n)) for n in range(1, 7) for _ in range(700)}
        | {".5", "-.5", "1.", "-1.", "1.e3", "1e3", "1E+3", "0o17", "017", "08", "-0", "1_000"}
        | {"0x1F", ".inf", "-.inf", ".nan", "NaN", "Infinity", "null", "Null", "~", "true", "True"}
        | {"yes", "No", "on", "OFF", "12:30", "1:20:30", "2001-01-01", "190:20:30.15"}
    )
    answered = 0
    for token in tokens:
        answered += _check(f"k: {token}\n")
        answered += _check(f"k: [{token}, x]\n")
        answered += _check(f"{token}: v\n")
        answered += _check(f"- {token}\n- a: {token}\n")
    assert answered > 1000  # most go the route, and agree


_WORDS = st.sampled_from(
    ["a", "b", "key", "x y", "db0.example.com", "v1.2", "-x", "1", "-3", "2.5", "1e3", "0x1F"]
    + ["true", "no", "~", "null", "", "12:30", "a:b", "tier0", "é", "1.", ".5", "a #b", "-"]
)


@st.composite
def _block(draw, depth: int = 0, indent: int = 0) -> str:
    pad = " " * indent
    kind = draw(st.sampled_from(["map", "list"] if depth < 4 else ["scalar"]))
    if kind == "scalar":
        return draw(_WORDS)
    rows = []
    keys = draw(st.lists(_WORDS, min_size=1, max_size=4))
    for key in keys:
        head = f"{pad}{key}:" if kind == "map" else f"{pad}-"
        form = draw(st.sampled_from(["scalar", "empty", "flow", "nested", "comment"]))
        if form == "scalar" or depth >= 3:
            rows.append(f"{head} {draw(_WORDS)}")
        elif form == "empty":
            rows.append(head)
        elif form == "flow":
            rows.append(f"{head} [{', '.join(draw(st.lists(_WORDS, max_size=3)))}]")
        elif form == "comment":
            rows.append(f"{head} {draw(_WORDS)}  # note")
        else:
            step = draw(st.sampled_from([0, 1, 2, 4])) if kind == "map" else 2
            rows.append(head)
            rows.append(draw(_block(depth + 1, indent + step)))
    return "\n".join(rows)


@settings(
    max_examples=600,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(_block())
def test_drawn_block_documents_read_alike(text):
    _DRAWN[0] += 1
    _DRAWN[1] += _check(text + "\n")


_DRAWN = [0, 0]


def test_drawn_block_documents_reach_the_route():
    # (runs after the test above, in file order): the strategy is not vacuous
    assert _DRAWN[0] >= 500 and _DRAWN[1] >= _DRAWN[0] // 10, _DRAWN


def test_the_route_against_pyyaml_on_the_grammar(monkeypatch):
    """The differential fuzzer's grammar with the size bound off: the fast path
    (taking the route where it can) against PyYAML, as shadow mode compares."""
    from tests.source.test_differential import Doc, compare_paths

    monkeypatch.setattr(fast, "JSON_MIN_SIZE", 0)
    taken = 0
    for seed in range(400):
        text = Doc(random.Random(seed)).document()
        compare_paths(text)
        taken += _check(text)
    assert taken >= 5


def test_depth_bound_keeps_deep_texts_off_the_route():
    deep = "".join(" " * d + f"k{d}:\n" for d in range(60)) + " " * 60 + "v: 1\n"
    assert not fast._json_ready(deep, LIMIT_DEFAULTS)
    nested = "".join(" " * d + f"k{d}:\n" for d in range(20))
    assert fast._json_ready(nested + " " * 20 + "v: 1\n", LIMIT_DEFAULTS)
    assert not fast._json_ready(nested, {**LIMIT_DEFAULTS, "max_depth": 10})
    # large enough for the route: a lower max_depth still gives its finding
    text = nested + "".join(f"{' ' * 20}v{i}: {i}\n" for i in range(4000))
    assert len(text) >= fast.JSON_MIN_SIZE
    assert not load_yaml(text).diagnostics
    assert _check(text)
    bounded = load_yaml(text, max_depth=10)
    assert [d.code for d in bounded.diagnostics] == ["limit-exceeded"]
