"""Compare two versions of a TOSCA template (issues #21, #29).

>>> import toskit
>>> diff = toskit.compare("old.yaml", "new.yaml")      # doctest: +SKIP
>>> diff.values[0]                                      # doctest: +SKIP
ValueChange(entity='db', kind='node', path='port', change='changed', old=5432, new=6543,
            old_source='default: my.Db', new_source='default: my.Db', type='integer',
            old_location='old.yaml:12:38', new_location='new.yaml:12:38', ...)
>>> diff.fields[0]                                      # doctest: +SKIP
FieldChange(section='node_templates', entity='app',
            path='interfaces.Standard.operations.create.implementation', ...)

Everything that carries meaning is compared: the documents as written,
unit by unit (``diff.fields``: capabilities, interfaces, artifacts,
groups, policies, workflows, imports, every type...), and the effective
values with the layer and ``file:line:column`` that set them
(``diff.values``); renames are one change. ``TemplateDiff`` renders as
HTML in a notebook, as text with ``str()``, as a DataFrame with
``to_frame()`` and as JSON with ``to_json()``. ``toskit diff OLD NEW`` is
the command line form (:func:`toskit.compare.cli.run_diff`). See
docs/compare.md.
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
