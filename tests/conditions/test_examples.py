"""toskit.conditions.examples: the seed's roles document, as written and fixed."""

from __future__ import annotations

import doctest

import pytest

from toskit.conditions import examples, load_roles
from toskit.errors import TemplateError


def test_as_written_is_the_seeds_yaml_error():
    with pytest.raises(TemplateError) as info:
        load_roles(examples.SEED_ROLES_AS_WRITTEN)
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.line, diag.column) == ("yaml-syntax", 7, 11)


def test_prose_comments_give_the_seeds_line_numbers():
    assert examples.SEED_PROSE_AS_COMMENTS.count("\n") == 4
    with pytest.raises(TemplateError) as info:
        load_roles(examples.SEED_PROSE_AS_COMMENTS + examples.SEED_ROLES_AS_WRITTEN)
    assert (info.value.diagnostics[0].line, info.value.diagnostics[0].column) == (11, 11)


def test_the_fix_moves_only_the_first_rules_then_and_else_two_spaces_left():
    written = examples.SEED_ROLES_AS_WRITTEN.splitlines()
    fixed = examples.SEED_ROLES_FIXED.splitlines()
    assert len(written) == len(fixed)
    moved = [n for n, (a, b) in enumerate(zip(written, fixed), 1) if a != b]
    assert moved == list(range(7, 21))  # `then:` (line 7) … `else: true` (line 20)
    assert all(written[n - 1] == "  " + fixed[n - 1] for n in moved)


def test_fixed_seed_has_the_controller_rules_only():
    roles = load_roles(examples.SEED_ROLES_FIXED)
    assert list(roles) == ["controller"]
    first = roles["controller"].conditions
    assert len(first) == 2


def test_spec_document_adds_compute_cinder_and_zabbix_server():
    roles = load_roles(examples.SEED_ROLES_YAML)
    assert list(roles) == ["controller", "compute", "cinder", "zabbix-server"]
    assert roles["zabbix-server"].conflicts == ("*",)
    assert roles["compute"].conditions == () and roles["cinder"].conflicts == ()


def test_module_example_runs():
    assert doctest.testmod(examples).failed == 0
