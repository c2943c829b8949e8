"""Moved to :mod:`toskit.conditions.settings` (the model lives with its
domain, testable without ipywidgets); this module keeps the old import path."""

from __future__ import annotations

from toskit.conditions.settings import (
    SettingError,
    SettingField,
    expression_feature_groups,
    expression_settings,
    referenced_feature_groups,
    referenced_settings,
    setting_fields,
    short_path,
    validate_setting,
)

__all__ = [
    "SettingError",
    "SettingField",
    "expression_feature_groups",
    "expression_settings",
    "referenced_feature_groups",
    "referenced_settings",
    "setting_fields",
    "short_path",
    "validate_setting",
]
