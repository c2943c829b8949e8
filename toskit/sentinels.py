"""Sentinel values shared by every layer."""

from __future__ import annotations

__all__ = ["NO_DEFAULT", "NoDefault"]


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
