"""Issue #29 item 4: the invariant of `toskit.compare`, tested by property.

Real templates — the tutorials' examples and every valid file of
`conformance/oasis-tosca-2.0` (MANIFEST.tsv, not packed as a CSAR) — get one
random edit anywhere in the document:

* a **meaning-changing** edit (change a scalar, add or remove a map key or a
  list item, retarget a requirement, rename a template) must give a diff
  that is not "no changes", that names the edited spot, and whose
  `--fail-on changes` exit status is 1;
* a **meaning-preserving** edit (map key order, comments, quoting style,
  indentation, a flow map written as a block map) must give "no changes".

Both sides are written by PyYAML from the document's plain data (the edit
is made on that data, then written in the chosen style), and loaded with the
file's own name, so relative imports still resolve. Budget (issue #29): a
few thousand examples per run, derandomized so CI is deterministic
(`PROFILE` below), well under a minute of CPU.
"""

from __future__ import annotations

import functools
import io
import random
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import toskit
from toskit.compare import TemplateDiff
from toskit.compare.cli import run_diff
from toskit.diagnostics import format_path
from toskit.plain import copy_value, values_equal
from toskit.tosca.types.registry import KINDS

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "conformance" / "oasis-tosca-2.0"

# derandomize: the same examples on every run and machine (CI is deterministic).
PROFILE = settings(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)


def corpus() -> list[Path]:
    files = sorted((ROOT / "notebooks" / "examples").rglob("*.yaml"))
    lines = (CONFORMANCE / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    for line in lines:
        name, expect, *rest = line.split("\t")
        if (
            expect == "valid"
            and (not rest or rest[0].strip() != "yes")
            and (CONFORMANCE / name).is_file()
        ):
            files.append(CONFORMANCE / name)
    return files


FILES = corpus()


def test_the_corpus_is_the_tutorials_and_the_valid_conformance_files():
    assert len([f for f in FILES if "notebooks" in f.parts]) >= 4
    assert len([f for f in FILES if "conformance" in f.parts]) >= 200


@functools.cache
def document(path: Path) -> Any:
    """The file's plain data as toskit reads it (``None``: unusable here)."""
    value = toskit.load(path).document.value
    if not isinstance(value, Mapping):
        return None
    try:
        text = dump(value)
    except yaml.YAMLError:
        return None  # a key PyYAML cannot write (a map as a key)
    again = toskit.loads(text, name=str(path)).document.value
    return value if values_equal(again, value) else None  # PyYAML must write it faithfully


@functools.cache
def baseline(path: Path) -> tuple[str, Any]:
    text = dump(document(path))
    return text, toskit.loads(text, name=str(path))


def plain(value: Any) -> Any:
    """Maps as ``dict`` for PyYAML (keys kept)."""
    return copy_value(value)


def dump(value: Any, **style: Any) -> str:
    return yaml.safe_dump(plain(value), sort_keys=False, allow_unicode=True, width=10_000, **style)


# -- where an edit can go --------------------------------------------------------------


def spots(value: Any) -> list[tuple[Hashable, ...]]:
    """Every path in ``value`` (maps and lists included), root excluded."""
    out: list[tuple[Hashable, ...]] = []
    stack: list[tuple[Any, tuple[Hashable, ...]]] = [(value, ())]
    while stack:
        v, parts = stack.pop()
        if parts:
            out.append(parts)
        if isinstance(v, Mapping):
            stack.extend((item, (*parts, k)) for k, item in v.items())
        elif isinstance(v, list):
            stack.extend((item, (*parts, i)) for i, item in enumerate(v))
    return sorted(out, key=repr)


def get(value: Any, parts: tuple[Hashable, ...]) -> Any:
    for p in parts:
        value = value[p]
    return value


def other_scalar(v: Any) -> Any:
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1
    if isinstance(v, float):
        return v + 1.5 if v == v and abs(v) < 1e300 else 0.5
    if isinstance(v, str):
        return v + "-edited"
    if v is None:
        return "was-null"
    return "edited"


def topology(doc: Mapping) -> tuple[str, Mapping] | None:
    for key in ("service_template", "topology_template"):
        if isinstance(doc.get(key), Mapping):
            return key, doc[key]
    return None


def apply_edit(
    doc: Any, kind: str, parts: tuple[Hashable, ...], rnd: random.Random
) -> tuple[Any, tuple[Hashable, ...]] | None:
    """``(edited copy, the edited spot)`` or ``None`` when the edit does not apply."""
    doc = copy_value(doc)
    if kind == "retarget":
        topo = topology(doc)
        nodes = topo[1].get("node_templates") if topo else None
        if not isinstance(nodes, dict) or len(nodes) < 2:
            return None
        reqs = [
            (name, i, item)
            for name, body in nodes.items()
            if isinstance(body, dict) and isinstance(body.get("requirements"), list)
            for i, item in enumerate(body["requirements"])
            if isinstance(item, dict) and len(item) == 1
        ]
        if not reqs:
            return None
        name, i, item = rnd.choice(reqs)
        ((req, target),) = item.items()
        current = (
            target
            if isinstance(target, str)
            else target.get("node")
            if isinstance(target, dict)
            else None
        )
        others = [n for n in nodes if n != current]
        if not others or not isinstance(current, str):
            return None
        new_target = rnd.choice(others)
        if isinstance(target, str):
            item[req] = new_target
            spot: tuple[Hashable, ...] = (topo[0], "node_templates", name, "requirements", i, req)
        else:
            target["node"] = new_target
            spot = (topo[0], "node_templates", name, "requirements", i, req, "node")
        return doc, spot
    if kind == "rename":
        topo = topology(doc)
        section = rnd.choice(
            ["node_templates", "relationship_templates", "groups", "inputs", "outputs"]
        )
        entries = topo[1].get(section) if topo else None
        if not isinstance(entries, dict) or not entries:
            return None
        old = rnd.choice(sorted(entries, key=str))
        topo[1][section] = {(f"{k}_renamed" if k == old else k): v for k, v in entries.items()}
        return doc, (topo[0], section, old)
    if not parts:
        return None
    parent, last = get(doc, parts[:-1]), parts[-1]
    target = parent[last]
    if kind == "scalar":
        if isinstance(target, (dict, list)):
            return None
        parent[last] = other_scalar(target)
        return doc, parts
    if kind == "add":
        if isinstance(target, dict):
            target[f"added_{rnd.randrange(1000)}"] = rnd.choice([1, "x", True, None, [1], {"k": 1}])
            return doc, parts
        if isinstance(target, list):
            target.insert(rnd.randrange(len(target) + 1), rnd.choice([1, "x", {"k": 1}]))
            return doc, parts
        return None
    if kind == "remove":
        if isinstance(parent, dict):
            del parent[last]
        else:
            parent.pop(last)
        return doc, parts
    raise AssertionError(kind)


# -- what "names the spot" means ----------------------------------------------------------

_TYPE_SECTIONS = {f"{k}_types" for k in KINDS}
_ENTITY_SECTIONS = {
    "node_templates",
    "relationship_templates",
    "groups",
    "policies",
    "workflows",
    "inputs",
    "outputs",
}
_KIND_SECTION = {
    "node": "node_templates",
    "relationship": "relationship_templates",
    "group": "groups",
    "policy": "policies",
}


def unit_of(
    doc: Mapping, parts: tuple[Hashable, ...]
) -> tuple[str, str | None, tuple[Hashable, ...]]:
    """(section, entity, path inside it) of an absolute path, as compare cuts documents."""
    top = str(parts[0])
    if top in _TYPE_SECTIONS and len(parts) > 1 and isinstance(doc.get(parts[0]), Mapping):
        return top, str(parts[1]), parts[2:]
    if top in ("service_template", "topology_template") and len(parts) > 1:
        section = str(parts[1])
        value = doc[parts[0]].get(parts[1]) if isinstance(doc[parts[0]], Mapping) else None
        if section in _ENTITY_SECTIONS and len(parts) > 2:
            if isinstance(value, Mapping):
                return section, str(parts[2]), parts[3:]
            if (
                isinstance(value, list)
                and len(parts) > 3
                and all(isinstance(i, Mapping) and len(i) == 1 for i in value)
            ):
                return section, str(parts[3]), parts[4:]
        return top, None, parts[1:]
    return top, None, parts[1:]


def related(a: str, b: str) -> bool:
    """One path is the other or lies under it; an item of a list also
    relates to the other items of that list (equal items align either way)."""
    if a == b or not a or not b:
        return True
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    if long_.startswith(short) and long_[len(short)] in ".[":
        return True
    if b.endswith("]"):
        parent = b[: b.rindex("[")]
        return a.startswith(parent + "[") or a == parent
    return False


def names_whole_section(diff: TemplateDiff, section: str) -> bool:
    """A whole section of named entries (or of types) edited: any change in it."""
    kind = section[: -len("_types")] if section in _TYPE_SECTIONS else None
    return (
        any(f.section == section for f in diff.fields)
        or any(_KIND_SECTION.get(t.kind) == section for t in diff.templates)
        or any(_KIND_SECTION[v.kind] == section for v in diff.values)
        or (kind is not None and any(t.kind == kind for t in diff.types))
    )


def names_spot(
    diff: TemplateDiff, section: str, entity: str | None, rel: tuple[Hashable, ...]
) -> bool:
    if entity is None and section in _TYPE_SECTIONS and not rel:
        return names_whole_section(diff, section)
    if entity is None and section in ("service_template", "topology_template") and not rel:
        return any(f.section == section for f in diff.fields) or any(
            names_whole_section(diff, s) for s in _ENTITY_SECTIONS
        )
    if (
        entity is None
        and len(rel) == 1
        and rel[0] in _ENTITY_SECTIONS
        and names_whole_section(diff, str(rel[0]))
    ):
        return True
    path = format_path(rel)
    for f in diff.fields:
        if (f.section == section and entity in (f.entity, f.old_entity)) and (
            related(f.path, path) or (f.new_path and related(f.new_path, path))
        ):
            return True
    if section in _KIND_SECTION.values():
        for v in diff.values:
            if _KIND_SECTION[v.kind] == section and entity in (v.entity, v.old_entity):
                field = v.path if v.path.startswith("capabilities.") else f"properties.{v.path}"
                if related(field, path):
                    return True
        if any(entity in (t.name, t.old_name) for t in diff.templates):
            return True
        if rel[:1] == ("requirements",) and any(r.entity == entity for r in diff.requirements):
            return True
    return section in _TYPE_SECTIONS and any(
        t.change in ("added", "removed", "renamed") and entity in (t.name, t.old_name)
        for t in diff.types
    )


def cli_status(path: Path, old_text: str, new_text: str, tmp: Path) -> int:
    import argparse

    a, b = tmp / f"old-{path.name}", tmp / f"new-{path.name}"
    a.write_text(old_text, encoding="utf-8")
    b.write_text(new_text, encoding="utf-8")
    args = argparse.Namespace(
        old=str(a), new=str(b), format="text", output=None, fail_on=["changes"], force=False
    )
    return run_diff(args, io.StringIO(), io.StringIO())


# -- the properties ------------------------------------------------------------------


EDIT_KINDS = ["scalar", "add", "remove", "retarget", "rename"]


@settings(PROFILE, max_examples=2000)
@given(st.sampled_from(FILES), st.sampled_from(EDIT_KINDS), st.randoms(use_true_random=False))
def test_a_meaning_changing_edit_is_seen_where_it_was_made(path, kind, rnd):
    doc = document(path)
    assume(doc is not None)
    places = spots(doc)
    parts = rnd.choice(places) if places else ()
    result = apply_edit(doc, kind, parts, rnd)
    assume(result is not None)
    edited, spot = result
    old_text, old = baseline(path)
    new_text = dump(edited)
    new = toskit.loads(new_text, name=str(path))
    diff = toskit.compare(old, new)
    assert not diff.is_same, (path, kind, spot)
    assert "no changes" not in str(diff)
    section, entity, rel = unit_of(doc if kind != "add" or spot else edited, spot)
    assert names_spot(diff, section, entity, rel), (path, kind, spot, str(diff))


@settings(PROFILE, max_examples=60)
@given(
    path=st.sampled_from(FILES),
    kind=st.sampled_from(EDIT_KINDS),
    rnd=st.randoms(use_true_random=False),
)
def test_fail_on_changes_exits_1_after_an_edit(path, kind, rnd, tmp_path_factory):
    doc = document(path)
    assume(doc is not None)
    places = spots(doc)
    result = apply_edit(doc, kind, rnd.choice(places) if places else (), rnd)
    assume(result is not None)
    tmp = tmp_path_factory.mktemp("fail-on")
    old_text, _ = baseline(path)
    assert cli_status(path, old_text, dump(result[0]), tmp) == 1
    assert cli_status(path, old_text, old_text, tmp) == 0


def shuffled(value: Any, rnd: random.Random) -> Any:
    """``value`` with the keys of every map in a random order."""
    if isinstance(value, Mapping):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: shuffled(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [shuffled(v, rnd) for v in value]
    return value


def with_comments(text: str, rnd: random.Random) -> str:
    """Comments on their own line before top-level keys (never inside a block scalar) and at the end."""
    lines = text.splitlines()
    out = ["# a comment before everything"]
    for line in lines:
        if line and not line[0].isspace() and rnd.random() < 0.7:
            out.append(f"# note {rnd.randrange(100)}: {line[:20]}")
        out.append(line)
    out.append("# the end")
    return "\n".join(out) + "\n"


STYLES = [
    "key-order",
    "comments",
    "double-quotes",
    "single-quotes",
    "flow",
    "indent",
    "flow-to-block",
]


def preserving(doc: Any, style: str, rnd: random.Random) -> str:
    if style == "key-order":
        # tosca_definitions_version stays first: TOSCA 2.0 gives that order meaning
        mixed = shuffled(plain(doc), rnd)
        first = {k: mixed.pop(k) for k in ["tosca_definitions_version"] if k in mixed}
        return dump({**first, **mixed})
    if style == "comments":
        return with_comments(dump(doc), rnd)
    if style == "double-quotes":
        return dump(doc, default_style='"')
    if style == "single-quotes":
        return dump(doc, default_style="'")
    if style == "flow":
        return dump(doc, default_flow_style=True)
    if style == "indent":
        return dump(doc, indent=rnd.choice([3, 4, 6])) + "\n\n"
    if style == "flow-to-block":
        # the baseline is block; this writes the maps below the top level as flow maps
        return yaml.safe_dump(
            plain(doc), sort_keys=False, allow_unicode=True, width=10_000, default_flow_style=None
        )
    raise AssertionError(style)


@settings(PROFILE, max_examples=900)
@given(st.sampled_from(FILES), st.sampled_from(STYLES), st.randoms(use_true_random=False))
def test_a_meaning_preserving_edit_is_no_change(path, style, rnd):
    doc = document(path)
    assume(doc is not None)
    _, old = baseline(path)
    text = preserving(doc, style, rnd)
    # The oracle: the edit really kept the data (PyYAML may quote a scalar
    # in a way that changes its kind; such an example says nothing).
    new = toskit.loads(text, name=str(path))
    assume(new.document.value is not None and values_equal(new.document.value, old.document.value))
    diff = toskit.compare(old, new)
    assert diff.is_same, (path, style, str(diff))
    assert "no changes" in str(diff)


def test_the_edits_exercise_every_kind():
    """The helpers themselves: each edit kind applies somewhere in the corpus."""
    rnd = random.Random(0)
    applied = set()
    for path in FILES[:60]:
        doc = document(path)
        if doc is None:
            continue
        for kind in EDIT_KINDS:
            places = spots(doc)
            if apply_edit(doc, kind, rnd.choice(places) if places else (), rnd) is not None:
                applied.add(kind)
    assert applied == set(EDIT_KINDS)


@pytest.mark.parametrize("style", STYLES)
def test_each_preserving_style_changes_the_text(style):
    path = next(f for f in FILES if f.name == "web-shop.yaml")
    doc = document(path)
    assert doc is not None
    assert preserving(doc, style, random.Random(1)) != baseline(path)[0]
