# The depth tests' recursion-limit fixture, shared with tests/schema.
from fixtures.recursion import default_limit_and_no_raise  # noqa: F401 (a fixture)
