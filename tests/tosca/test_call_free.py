"""The entities phase skips the scan for function calls in a document that
cannot hold one (issue #31): decided once per document from its keys
(``YamlDocument.key_names``, known on the fast parse path) and, for TOSCA
2.0, its text (no ``$``, not even as an escape). The values and findings
are those of the scan (the PyYAML path always scans)."""

from __future__ import annotations

import pytest

import toskit
from toskit.source import fast, load_yaml
from toskit.tosca.model import entities

pytestmark = pytest.mark.skipif(not fast.available(), reason="the fast parse path is rapidyaml's")

V1 = """\
tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  t.N:
    derived_from: tosca.nodes.Root
    properties:
      p: {type: string, required: false}
      q: {type: map, required: false}
topology_template:
  inputs:
    who: {type: string, default: me}
  node_templates:
    a:
      type: t.N
      metadata: {"quoted key": x}
      properties: {p: plain, q: {k: v}}
    b:
      type: t.N
"""

V2 = """\
tosca_definitions_version: tosca_2_0
node_types:
  N:
    properties:
      p: {type: string, required: false}
      q: {type: map, required: false}
service_template:
  inputs:
    who: {type: string, default: me}
  node_templates:
    a:
      type: N
      properties: {p: plain, q: {k: v}}
    b:
      type: N
"""


def _scans(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    seen: list[object] = []
    real = entities.may_hold_calls
    monkeypatch.setattr(entities, "may_hold_calls", lambda v, *a: seen.append(v) or real(v, *a))
    return seen


def _summary(st: toskit.ServiceTemplate) -> tuple:
    values = {n: repr(node.properties) for n, node in st.node_templates.items()}
    return values, sorted((d.code, d.message) for d in st.diagnostics)


def _both_paths(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple, tuple]:
    got = []
    for parser in ("fast", "pyyaml"):
        monkeypatch.setenv("TOSKIT_YAML_PARSER", parser)
        got.append(_summary(toskit.loads(text, name="t.yaml")))
    monkeypatch.delenv("TOSKIT_YAML_PARSER")
    return got[0], got[1]


def test_key_names_are_every_key_on_the_fast_path_only() -> None:
    text = "a: {b: 1, 'c d': [ {e: x} ]}\n"
    assert load_yaml(text, parser="fast").key_names == {"a", "b", "c d", "e"}
    assert load_yaml(text, parser="python").key_names is None
    # A key that is not a string (an integer, a boolean, null): not known.
    for odd in ("1: x\n", "true: x\n", "~: x\n", "a: {2: x}\n"):
        assert load_yaml(odd, parser="fast").key_names is None, odd
    assert load_yaml("", parser="fast").key_names is None


@pytest.mark.parametrize("text", [V1, V2])
def test_a_document_without_calls_is_not_scanned(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _scans(monkeypatch)
    st = toskit.loads(text, name="t.yaml")
    assert st.ok, st.diagnostics
    assert st.node_templates["a"].properties == {"p": "plain", "q": {"k": "v"}}
    assert seen == []
    # The PyYAML path does not know the keys: it scans (and reads the same).
    monkeypatch.setenv("TOSKIT_YAML_PARSER", "pyyaml")
    assert toskit.loads(text, name="t.yaml").node_templates["a"].properties == {
        "p": "plain",
        "q": {"k": "v"},
    }
    assert seen


B_IS = "    b:\n      type: {t}\n"
B_WRITES = "    b:\n      type: {t}\n      properties: {{p: {v}}}\n"


def _b(text: str, t: str, value: str) -> str:
    return text.replace(B_IS.format(t=t), B_WRITES.format(t=t, v=value))


CALLS = [
    # 1.x: a call on one template: every template is scanned, the call parsed.
    _b(V1, "t.N", "{get_input: who}"),
    # 2.0: a call, an escape, and a "$" spelt as an escape in a quoted scalar.
    _b(V2, "N", "{$get_input: who}"),
    _b(V2, "N", "$$literal"),
    _b(V2, "N", '{"\\x24get_input": who}'),
    _b(V2, "N", '"\\u0024get_input"'),
    # An integer key anywhere: the keys are not all strings.
    _b(V1, "t.N", "{2: two}"),
]


@pytest.mark.parametrize("text", CALLS)
def test_a_document_that_may_hold_calls_is_scanned_as_before(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _scans(monkeypatch)
    fast_path, pyyaml_path = _both_paths(text, monkeypatch)
    assert seen  # the scan ran on the fast path too
    assert fast_path == pyyaml_path


def test_the_calls_are_still_calls() -> None:
    for text in CALLS[:2] + CALLS[3:4]:
        st = toskit.loads(text, name="t.yaml")
        assert st.node_templates["b"].properties["p"] == "me", text
    assert toskit.loads(CALLS[2], name="t.yaml").node_templates["b"].properties["p"] == "$literal"
