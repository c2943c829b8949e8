"""Shadow mode (toskit.source.shadow): both parse paths on every document, loudly."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from toskit.source import document, fast, load_yaml, shadow

pytestmark = pytest.mark.skipif(not fast.available(), reason="rapidyaml is not installed")

ROOT = Path(__file__).resolve().parents[2]
TEXT = "a: 1\nb: [x, {c: 2.5}]\n"


@pytest.fixture
def shadowed(monkeypatch):
    monkeypatch.setenv(shadow.ENV_VAR, "1")


def _wrong(change):
    """A load_fast that answers, with its value changed by ``change``."""
    real = fast.load_fast

    def load_fast(text, limits, keys=None):
        value = real(text, limits, keys)
        return value if value is fast.FALLBACK else change(value)

    return load_fast


def test_agreeing_paths_load_as_usual(shadowed):
    for parser in ("fast", "c", None):
        doc = load_yaml(TEXT, parser=parser)
        assert doc.value == {"a": 1, "b": ["x", {"c": 2.5}]}
        assert doc.locate(("b", 1, "c")).line == 2


def test_a_different_value_on_the_fast_path_fails_loudly(shadowed, monkeypatch):
    monkeypatch.setattr(document, "load_fast", _wrong(lambda v: {**v, "a": True}))
    with pytest.raises(shadow.ShadowMismatch, match=r"different values \(at \['a'\]: fast bool"):
        load_yaml(TEXT, name="t.yaml", parser="fast")


def test_a_type_difference_alone_is_a_difference(shadowed, monkeypatch):
    # 1 == 1.0 in Python; the two paths must still give the same type.
    monkeypatch.setattr(document, "load_fast", _wrong(lambda v: {**v, "a": 1.0}))
    with pytest.raises(shadow.ShadowMismatch, match="fast float 1.0, PyYAML int 1"):
        load_yaml(TEXT, parser="fast")


def test_a_pyyaml_load_is_checked_against_the_fast_path_too(shadowed, monkeypatch):
    # The suite's documents loaded with parser="c" still meet rapidyaml.
    monkeypatch.setattr(fast, "load_fast", _wrong(lambda v: {**v, "b": ["x"]}))
    with pytest.raises(shadow.ShadowMismatch, match=r"at \['b'\]"):
        load_yaml(TEXT, parser="c")


def test_different_diagnostics_fail_loudly(shadowed, monkeypatch):
    # The fast path answering for a document PyYAML reports (a duplicate key).
    text = "a: 1\na: 1\n"
    monkeypatch.setattr(document, "load_fast", lambda t, limits, keys=None: {"a": 1})
    with pytest.raises(shadow.ShadowMismatch, match="different diagnostics.*duplicate-key"):
        load_yaml(text, parser="fast")


def test_different_locations_fail_loudly(shadowed, monkeypatch):
    marked = []  # the fast document under comparison, whose lines the patch shifts
    real_locate, real_same = document.YamlDocument.locate, shadow._same

    def locate(self, path):
        found = real_locate(self, path)
        if any(self is doc for doc in marked) and found is not None:
            return dataclasses.replace(found, line=found.line + 1)
        return found

    def same(quick, reference, name):
        marked.append(quick)
        return real_same(quick, reference, name)

    monkeypatch.setattr(document.YamlDocument, "locate", locate)
    monkeypatch.setattr(shadow, "_same", same)
    with pytest.raises(
        shadow.ShadowMismatch, match=r"locate the node at \[\] differently: fast <string>:2:1"
    ):
        load_yaml(TEXT, parser="fast")


def test_without_the_variable_nothing_is_compared(monkeypatch):
    monkeypatch.delenv(shadow.ENV_VAR, raising=False)
    monkeypatch.setattr(document, "load_fast", _wrong(lambda v: {**v, "a": True}))
    assert load_yaml(TEXT, parser="fast").value["a"] is True


def _run_probes(tmp_path, *options):
    """Run two probe tests (in a/ and b/) under tests/conftest.py with ``options``."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"test_{folder}.py").write_text(
            "import os\n"
            "def test_probe():\n"
            f"    print('{folder}', os.environ.get('TOSKIT_YAML_SHADOW'))\n"
        )
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    env = {k: v for k, v in os.environ.items() if k != shadow.ENV_VAR}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:randomly", *options, "a", "b"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_the_pytest_option_turns_it_on_for_the_whole_run(tmp_path):
    out = _run_probes(tmp_path, "--yaml-shadow")
    assert "a 1" in out and "b 1" in out


def test_the_pytest_option_for_some_folders(tmp_path):
    # What `make test` does: --yaml-shadow-in for the YAML-heavy folders.
    out = _run_probes(tmp_path, "--yaml-shadow-in", "a")
    assert "a 1" in out and "b None" in out
