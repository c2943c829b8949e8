import pytest
from fixtures.recursion import default_limit_and_no_raise  # noqa: F401 (a fixture, shared)
from fixtures.schemas import SCHEMA_YAML

from toskit import schema


@pytest.fixture(scope="session")
def schemas() -> dict:
    """S1–S4 of the example schemas, loaded once."""
    return {name: schema.load(text) for name, text in SCHEMA_YAML.items()}
