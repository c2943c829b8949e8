"""The structural schema engine (docs/schema.md): Kubernetes
structured-merge-diff's model of named types, scalar/list/map atoms and
element relationships, with validation, merge (and layered merge with
provenance), comparison, field sets and union normalization.

>>> from toskit import schema
>>> s = schema.load("types: [{name: point, map: {fields: [{name: x, type: {scalar: numeric}}]}}]")
>>> s.validate({"x": "one"}, "point")[0].message
"expected numeric (int or float), got string 'one'"
"""

from __future__ import annotations

from toskit.errors import SchemaError
from toskit.schema.compare import Comparison
from toskit.schema.layers import MergeResult
from toskit.schema.load import load
from toskit.schema.locate import locate_diagnostics
from toskit.schema.model import (
    SCALAR_TYPES,
    UNTYPED_ATOMIC,
    UNTYPED_DEDUCED,
    Atom,
    List,
    Map,
    Schema,
    StructField,
    TypeDef,
    TypeRef,
    Union,
    UnionField,
)
from toskit.schema.values import ABSENT, MAX_DEPTH

__all__ = [
    "ABSENT",
    "MAX_DEPTH",
    "SCALAR_TYPES",
    "UNTYPED_ATOMIC",
    "UNTYPED_DEDUCED",
    "Atom",
    "Comparison",
    "List",
    "Map",
    "MergeResult",
    "Schema",
    "SchemaError",
    "StructField",
    "TypeDef",
    "TypeRef",
    "Union",
    "UnionField",
    "load",
    "locate_diagnostics",
]
