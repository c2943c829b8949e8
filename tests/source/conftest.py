import pytest

from toskit.source.compose import C_PARSER_AVAILABLE

PARSERS = ["c", "python"] if C_PARSER_AVAILABLE else ["python"]


@pytest.fixture(params=PARSERS)
def parser(request):
    """Each loader test runs with libyaml's and with PyYAML's Python parser."""
    return request.param
