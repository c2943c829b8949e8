"""Declared functions are matched through a signature index (issue #30 item 4).

4,000 signatures x 400 calls took 26 s of CPU: every call was matched
against every signature. The index leaves only the signatures whose arity
and argument kinds fit, in declaration order, so the first match is the
same as a full scan's. Counted, not timed: full matches per call.
"""

from __future__ import annotations

import random

import pytest

import toskit
from toskit.functions import signatures
from toskit.functions.signatures import Schema, Signature, SignatureIndex, _kind

TYPES = ["string", "integer", "float", "boolean", "list", "map", "timestamp", "version", None]


@pytest.fixture
def counted(monkeypatch):
    """The number of full ``match_signature`` calls made."""
    count = [0]
    original = signatures.match_signature

    def counting(*args, **kwargs):
        count[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(signatures, "match_signature", counting)
    return count


def _template(n_signatures: int, n_calls: int) -> str:
    kinds = ["string", "integer", "float", "boolean", "list", "map", "timestamp", "version"]
    lines = [
        f"      - arguments: [{kinds[i % 8]}{', integer' * (i // 8 % 6)}]"
        for i in range(n_signatures)
    ]
    # The calls match only the last signature: a full scan tries them all.
    lines.append(
        "      - arguments: [string, integer, integer, integer, integer, integer, integer]"
    )
    props = "\n".join(f'        p{j}: {{$f: ["x", 1, 2, 3, 4, 5, 6]}}' for j in range(n_calls))
    declared = "\n".join(f"      p{j}: {{type: string, required: false}}" for j in range(n_calls))
    return (
        "tosca_definitions_version: tosca_2_0\nfunctions:\n  f:\n    signatures:\n"
        + "\n".join(lines)
        + "\nnode_types:\n  N:\n    properties:\n"
        + declared
        + "\nservice_template:\n  node_templates:\n    n:\n      type: N\n      properties:\n"
        + props
        + "\n"
    )


def test_4000_signatures_by_400_calls_match_each_call_once(counted) -> None:
    st = toskit.loads(_template(4000, 400))
    assert [d.code for d in st.diagnostics if d.severity == "error"] == []
    # One full match per call (the only candidate), not 4,001.
    assert counted[0] == 400


def test_a_call_that_matches_nothing_is_still_reported(counted) -> None:
    text = (
        _template(400, 3)
        .replace('[\\"x\\", 1, 2, 3, 4, 5, 6]', "[true, true]")
        .replace('["x", 1, 2, 3, 4, 5, 6]', "[true, true]")
    )
    st = toskit.loads(text)
    messages = [d.message for d in st.diagnostics if d.severity == "error"]
    assert len(messages) == 3 and all("match no signature" in m for m in messages), messages
    assert counted[0] == 0  # no signature takes (boolean, boolean): none matched in full


def _schema(kind: str | None) -> Schema:
    return Schema(kind)


@pytest.mark.parametrize("seed", range(30))
def test_the_index_keeps_every_signature_a_full_scan_could_match(seed) -> None:
    # Candidates in declaration order, and a superset of the signatures whose
    # arity and per-position types accept the arguments' kinds.
    rng = random.Random(seed)
    sigs = [
        Signature(
            tuple(_schema(rng.choice(TYPES)) for _ in range(rng.randint(0, 3))),
            tuple(_schema(rng.choice(TYPES)) for _ in range(rng.randint(0, 2))),
            variadic=rng.random() < 0.3,
        )
        for _ in range(60)
    ]
    index = SignatureIndex(sigs)
    values = ["s", 1, 1.5, True, None, [1], {"a": 1}, object()]
    for _ in range(50):
        args = [rng.choice(values) for _ in range(rng.randint(0, 10))]
        got = list(index.candidates(args))
        order = [next(i for i, x in enumerate(sigs) if x is s) for s in got]
        assert order == sorted(order)
        for position, sig in enumerate(sigs):
            declared = (*sig.arguments, *sig.optional_arguments)
            fits = SignatureIndex._accepts_arity(sig, len(args)) and all(
                (schema := SignatureIndex._schema_at(sig, i)) is None
                or schema.type is None
                or _kind(arg) is None
                or schema.type not in signatures._KINDS_ACCEPTED
                or _kind(arg) in signatures._KINDS_ACCEPTED[schema.type]
                for i, arg in enumerate(args)
            )
            if fits:
                assert sig in got, (position, sig, args, declared)
