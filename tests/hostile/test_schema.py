"""toskit.schema on hostile input (issue #19), in bounded subprocesses."""

from __future__ import annotations

import pytest

SCHEMA = """types:
- name: t
  map:
    fields:
    - name: a
      type: {list: {elementType: {scalar: numeric}, elementRelationship: associative}}
"""


@pytest.mark.parametrize("operation", ["remove", "extract"])
def test_a_field_path_index_of_5000_digits_is_a_schema_error(run_case, operation) -> None:
    out = run_case(f"""
        def case():
            from toskit import schema
            s = schema.load({SCHEMA!r})
            getattr(s, {operation!r})({{"a": [1]}}, [".a[" + "1" * 5000 + "]"], "t")
    """)
    assert (
        out.raised == "SchemaError"
        and out.toskit_error
        and "list index of 5000 digits" in out.message
    )
    assert len(out.message) < 400


def test_a_set_list_of_hash_colliding_integers_is_linear(run_case) -> None:
    out = run_case(
        f"""
        def setup():
            modulus = (1 << 61) - 1
            return [i * modulus for i in range(1, 100_001)]

        def case(values):
            from toskit import schema
            s = schema.load({SCHEMA!r})
            s.merge({{"a": values}}, {{"a": values[:5]}}, "t")
            return [len(s.validate({{"a": values}}, "t")), len(s.to_fieldset({{"a": values}}, "t"))]
    """,
        max_calls=13_000_000,
    )  # ~6.7 M counted (100,000 values): linear
    assert out.returned[0] == 0 and out.returned[1] >= 100_000
