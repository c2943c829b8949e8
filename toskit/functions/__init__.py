"""TOSCA functions: ``$`` notation, built-in functions, validation clauses.

docs/functions.md states the rules and records toskit's
choices. Layout:

* :mod:`.notation` — :class:`Call`, :func:`parse`, :func:`unparse`, dialects.
* :mod:`.registry` — built-in names, :func:`register` / :func:`unregister`.
* :mod:`.evaluate` — :func:`evaluate` (the tree walk); :mod:`.builtins` the
  built-in functions; :mod:`.compare` equality and ordering; :mod:`.paths`
  the TOSCA path walker.
* :mod:`.context` — the protocol a loaded template offers evaluation;
  :mod:`.memory` a plain in-memory implementation.
* :mod:`.signatures` — ``functions:`` sections and signature matching.
* :mod:`.validation` — :func:`validate`, 1.x constraints, :func:`check_value`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from toskit.errors import FunctionError, FunctionSyntaxError
from toskit.functions.context import (
    CapabilityView,
    NodeView,
    RelationshipView,
    TemplateContext,
)
from toskit.functions.errors import KINDS
from toskit.functions.evaluate import ABSENT, evaluate, evaluate_calls
from toskit.functions.notation import Call, contains_call, dialect_of, parse, unparse
from toskit.functions.registry import (
    BUILTINS_2_0,
    INTRINSICS_1_X,
    register,
    registered_names,
    unregister,
)

if TYPE_CHECKING:
    from toskit.functions.signatures import FunctionDefinition, load_function_definitions, refine
    from toskit.functions.validation import check_value, constraint_clause, validate

# Imported on first access (PEP 562): ``functions:`` sections and validation
# clauses (with toskit.values and the comparisons they bring) are not needed
# to load a template without them, and `toskit check` pays their import at
# every start (#31). ``evaluate`` stays eager: it names both a submodule and
# the function, and the package attribute must stay the function.
_LAZY = {
    "FunctionDefinition": "toskit.functions.signatures",
    "load_function_definitions": "toskit.functions.signatures",
    "refine": "toskit.functions.signatures",
    "check_value": "toskit.functions.validation",
    "constraint_clause": "toskit.functions.validation",
    "validate": "toskit.functions.validation",
}

__all__ = [
    "ABSENT",
    "BUILTINS_2_0",
    "INTRINSICS_1_X",
    "KINDS",
    "Call",
    "CapabilityView",
    "FunctionDefinition",
    "FunctionError",
    "FunctionSyntaxError",
    "NodeView",
    "RelationshipView",
    "TemplateContext",
    "check_value",
    "constraint_clause",
    "contains_call",
    "dialect_of",
    "evaluate",
    "evaluate_calls",
    "load_function_definitions",
    "parse",
    "refine",
    "register",
    "registered_names",
    "unparse",
    "unregister",
    "validate",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'toskit.functions' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
