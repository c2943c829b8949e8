"""Sentinel values shared by every layer.

* :data:`NO_DEFAULT` (public API): a property definition without a
  default, an input without a value.
* :data:`ABSENT`: "no value at all here", different from ``None`` (an
  explicit null): one side of a merge or comparison that provides nothing
  (``toskit.schema``), an optional TOSCA property with neither value nor
  default (``toskit.tosca.values.resolve``), no ``value=`` given to an evaluation
  (``toskit.functions``). One object for the one meaning; ``toskit.schema.ABSENT``
  and ``toskit.functions.ABSENT`` are this object.
"""

from __future__ import annotations

__all__ = ["ABSENT", "NO_DEFAULT", "Absent", "NoDefault"]


class NoDefault:
    """The type of :data:`NO_DEFAULT`: "no default / no value was given"."""

    _instance: NoDefault | None = None

    def __new__(cls) -> NoDefault:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NO_DEFAULT"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT = NoDefault()
"""Marks a property definition without a default, or an input without a value."""


class Absent:
    """The type of :data:`ABSENT`: "no value at all here" (a singleton, falsy)."""

    _instance: Absent | None = None

    def __new__(cls) -> Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "ABSENT"


ABSENT = Absent()
"""A value that is not there at all (different from ``None``, an explicit null)."""
