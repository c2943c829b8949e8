"""One rule, every package: a ``str`` argument is YAML text or a path (issue #24)."""

from __future__ import annotations

from pathlib import Path

import pytest

import toskit
from toskit import conditions, schema
from toskit.source.text_or_path import is_yaml_text


@pytest.mark.parametrize(
    "text",
    ["roles_metadata: {controller: {}}", "a:\n  b: 1", "{}", "[1]", "types: []", "key:", "", "  "],
)
def test_yaml_text_is_text(text: str) -> None:
    assert is_yaml_text(text)


@pytest.mark.parametrize("path", ["roles.yaml", "dir/openstack.yaml", "C:\\x\\y.yaml", "a b.yml"])
def test_a_one_line_name_is_a_path(path: str) -> None:
    assert not is_yaml_text(path)


def test_load_roles_takes_one_line_yaml_text() -> None:
    roles = conditions.load_roles("roles_metadata: {controller: {}}")
    assert "controller" in roles


def test_roles_read_a_str_path_and_a_path_object(tmp_path: Path) -> None:
    roles_file = tmp_path / "r.yaml"
    roles_file.write_text("roles_metadata: {controller: {}}\n")
    for source in (roles_file, str(roles_file)):
        assert "controller" in conditions.load_roles(source)


def test_schema_load_decides_by_type_as_its_spec_says(tmp_path: Path) -> None:
    """spec/schema.md §1.2: a ``str`` is schema text; a file is a ``Path``."""
    schema_file = tmp_path / "s.yaml"
    schema_file.write_text("types: [{name: t, scalar: string}]\n")
    assert [t.name for t in schema.load(schema_file).types] == ["t"]
    with pytest.raises(toskit.SchemaError):
        schema.load(str(schema_file))  # read as (invalid) schema text, not opened


def test_a_missing_roles_file_named_by_a_str_is_a_toskit_error_saying_so() -> None:
    with pytest.raises(toskit.ToskitError, match="no such file"):
        conditions.load_roles("no-such-file.yaml")
