import sys
from pathlib import Path

import pytest

# The helper module of this folder (schema_fixtures) imports by name.
sys.path.insert(0, str(Path(__file__).parent))

from schema_fixtures import SCHEMA_YAML  # noqa: E402

from toskit import schema  # noqa: E402


@pytest.fixture(scope="session")
def schemas() -> dict:
    """S1–S4 of spec §7, loaded once."""
    return {name: schema.load(text) for name, text in SCHEMA_YAML.items()}
