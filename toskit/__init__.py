"""toskit: explore, validate and teach typed configuration templates.

The public surface is the names of ``__all__`` (docs/api-coverage.md). Heavy parts (the TOSCA
resolver, pandas, ipywidgets) load lazily on first use so that
``import toskit`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.errors import (
    ConditionError,
    FunctionError,
    FunctionSyntaxError,
    SchemaError,
    TemplateError,
    ToskitError,
)
from toskit.sentinels import NO_DEFAULT

__version__ = "0.1.0"

# Attribute name -> module that defines it (imported on first access).
_LAZY_ATTRIBUTES: dict[str, str] = {
    "load": "toskit.tosca",
    "loads": "toskit.tosca",
    "ServiceTemplate": "toskit.tosca",
    "NodeTemplate": "toskit.tosca",
    "Type": "toskit.tosca",
    "PropertyDefinition": "toskit.tosca",
    "PropertyTable": "toskit.tosca",
    "options": "toskit.display.options",
    "explore": "toskit.widgets",
    "TemplateDiff": "toskit.compare",
}
_LAZY_SUBMODULES = {
    "functions",
    "schema",
    "conditions",
    "dsl",
    "widgets",
    "display",
    "tosca",
    "source",
    "compare",
}

__all__ = [
    "NO_DEFAULT",
    "ConditionError",
    "Diagnostic",
    "FunctionError",
    "FunctionSyntaxError",
    "SchemaError",
    "TemplateError",
    "ToskitError",
    *sorted(_LAZY_ATTRIBUTES),
    *sorted(_LAZY_SUBMODULES),
]


def __getattr__(name: str) -> Any:
    if name in _LAZY_SUBMODULES:
        module = importlib.import_module(f"toskit.{name}")
        globals()[name] = module
        return module
    if name in _LAZY_ATTRIBUTES:
        module = importlib.import_module(_LAZY_ATTRIBUTES[name])
        value = module if name == "options" else getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'toskit' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
