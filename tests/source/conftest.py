import pytest

from toskit.source import fast
from toskit.source.compose import C_PARSER_AVAILABLE

PARSERS = ["c", "python"] if C_PARSER_AVAILABLE else ["python"]
# The fast path (rapidyaml, falling back to PyYAML) must give the same results.
PARSERS += ["fast"] if fast.available() else []


@pytest.fixture(params=PARSERS)
def parser(request):
    """Each loader test runs with libyaml's and PyYAML's Python parser, and the fast path."""
    return request.param
