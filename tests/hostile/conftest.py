"""Fixtures of the hostile-input suite: ``run_case`` (see ``bounded.py``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "hostile_bounded", Path(__file__).with_name("bounded.py")
)
assert _spec is not None and _spec.loader is not None
bounded = importlib.util.module_from_spec(_spec)
sys.modules["hostile_bounded"] = bounded
_spec.loader.exec_module(bounded)


@pytest.fixture
def run_case():
    """``run_case(source, cpu=2, peak_mb=500, max_calls=None, cwd=None) -> Outcome`` (``bounded.py``)."""
    return bounded.run_case


@pytest.fixture
def counted_load():
    """``counted_load(folder, path, **options) -> source`` of a case counting parses (``bounded.py``)."""
    return bounded.counted_load
