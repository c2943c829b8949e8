"""Any value of any shape at any place of a valid template loads to findings.

The class of bug this guards: code that reads a keyname's value and uses it
as a set member or dict key (``version in KNOWN``) raises ``TypeError:
unhashable type`` when the document writes a map or a list there, e.g.
``tosca_definitions_version: {version}`` (an unformatted template string that
YAML reads as a flow map). Every mapping value of a few varied, valid
templates is replaced in turn by a map, a list and one scalar; each variant
must load (findings, never an exception) and its property tables must build.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

import toskit

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "conformance" / "oasis-tosca-2.0"
BASES = [
    ROOT / "notebooks" / "examples" / "web-shop.yaml",
    ROOT / "notebooks" / "examples" / "service.yaml",
    CORPUS / "policy-type" / "policies-and-groups.yaml",
    CORPUS / "requirement-assignment-grammar" / "requirement-assignment-filter.yaml",
    CORPUS / "representation-graph-query-functions" / "s101.yaml",
    CORPUS / "node-template" / "node-template-copy.yaml",
]
# Maps and lists are what set and dict lookups choke on; the scalars cycle so
# that every kind meets some place without multiplying the cases.
UNHASHABLE: list[Any] = [{"version": None}, [1, "a"]]
SCALARS: list[Any] = [7, True, None, "x", 2.5, ""]


def _paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every path to a mapping value or list item, outermost first."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*prefix, index)
            yield from _paths(item, (*prefix, index))


def _replaced(document: Any, path: tuple, new: Any) -> Any:
    out = copy.deepcopy(document)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new
    return out


def _variants() -> list[tuple[str, tuple, Any]]:
    cases = []
    scalars = itertools.cycle(SCALARS)
    for base in BASES:
        document = yaml.safe_load(base.read_text(encoding="utf-8"))
        for path in _paths(document):
            for shape in [*UNHASHABLE, next(scalars)]:
                cases.append((base.name, path, shape))
    return cases


VARIANTS = _variants()
DOCUMENTS = {b.name: yaml.safe_load(b.read_text(encoding="utf-8")) for b in BASES}


def test_the_variants_reach_deep_places():
    # Not only the top-level keynames: properties inside node templates too.
    assert len(VARIANTS) > 1400
    assert max(len(path) for _, path, _ in VARIANTS) >= 6
    assert ("web-shop.yaml", ("tosca_definitions_version",), {"version": None}) in VARIANTS


@pytest.mark.parametrize("chunk", range(8))
def test_any_shape_anywhere_loads_to_findings(chunk: int):
    failures = []
    for name, path, shape in VARIANTS[chunk::8]:
        text = yaml.safe_dump(_replaced(DOCUMENTS[name], path, shape), sort_keys=False)
        try:
            st = toskit.loads(text)
            for node in st.node_templates.values():
                node.property_table()
            for diagnostic in st.diagnostics:
                str(diagnostic)
        except Exception as exc:  # noqa: BLE001 - the test reports every kind
            failures.append(f"{name} {path} = {shape!r}: {type(exc).__name__}: {exc}")
    assert failures == []


def test_an_unformatted_version_placeholder_is_a_finding():
    text = (ROOT / "notebooks" / "examples" / "web-shop.yaml").read_text(encoding="utf-8")
    first, rest = text.split("\n", 1)
    assert first.startswith("tosca_definitions_version:")
    st = toskit.loads("tosca_definitions_version: {version}\n" + rest)
    codes = {d.code for d in st.diagnostics}
    assert "unknown-version" in codes
