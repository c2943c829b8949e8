"""The text-or-path rule, kept importable here; it lives in :mod:`toskit.source.text_or_path`."""

from toskit.source.text_or_path import is_yaml_text

__all__ = ["is_yaml_text"]
