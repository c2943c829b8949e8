"""Compare two versions of a TOSCA template, value by value (issue #21).

>>> import toskit
>>> diff = toskit.compare("old.yaml", "new.yaml")      # doctest: +SKIP
>>> diff.values[0]                                      # doctest: +SKIP
ValueChange(entity='db', kind='node', path='port', change='changed', old=5432, new=6543,
            old_source='default: my.Db', new_source='default: my.Db', type='integer')

``TemplateDiff`` renders as HTML in a notebook, as text with ``str()``, as a
DataFrame with ``to_frame()`` (one row per changed value) and as JSON with
``to_json()``. ``toskit diff OLD NEW`` is the command line form
(:func:`toskit.compare.cli.run_diff`).
"""

from __future__ import annotations

import sys
import types
from typing import Any

from toskit.compare.compute import compare
from toskit.compare.model import (
    DiagnosticChange,
    FieldChange,
    PropertyDefinitionChange,
    RequirementChange,
    TemplateChange,
    TemplateDiff,
    TypeChange,
    ValueChange,
)

__all__ = [
    "DiagnosticChange",
    "FieldChange",
    "PropertyDefinitionChange",
    "RequirementChange",
    "TemplateChange",
    "TemplateDiff",
    "TypeChange",
    "ValueChange",
    "compare",
]


class _CallableModule(types.ModuleType):
    """``toskit.compare`` is both this package and the function: importing the
    package makes ``toskit.compare`` the module (Python sets the attribute), so
    the module itself forwards a call to :func:`compare`."""

    def __call__(self, old: Any, new: Any, **kwargs: Any) -> TemplateDiff:
        return compare(old, new, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
