"""Function names: the built-ins of each dialect and the process-wide Python registry.

``register("ns:fn", func)`` makes a Python callable available to every
template. A registered name is *known*: a bare
``$fn`` string becomes a call, and in 1.x files ``{fn: …}`` is a call.
"""

from __future__ import annotations

import _thread
from collections.abc import Callable
from typing import Any

from toskit.errors import ToskitError
from toskit.patterns import lazy_pattern

__all__ = [
    "BUILTINS_2_0",
    "CONSTRAINT_OPERATORS",
    "INTRINSICS_1_X",
    "is_builtin",
    "lookup",
    "register",
    "registered_names",
    "split_qualified",
    "unregister",
]

# Defined here, a table of names like the built-ins, rather than in
# .validation (which re-exports it): the TOSCA value checks need the names,
# not the clause evaluator, and a `toskit check` of a template without
# functions then imports neither .validation nor .signatures (#31).
CONSTRAINT_OPERATORS = (
    "equal",
    "greater_than",
    "greater_or_equal",
    "less_than",
    "less_or_equal",
    "in_range",
    "valid_values",
    "length",
    "min_length",
    "max_length",
    "pattern",
)
"""The 1.x constraint operators toskit checks (§4.4)."""

BUILTINS_2_0 = frozenset(
    {
        # graph and context
        "get_input", "get_property", "get_attribute", "get_artifact", "value",
        "node_index", "relationship_index", "available_allocation",
        # boolean
        "and", "or", "not", "xor", "equal", "greater_than", "greater_or_equal",
        "less_than", "less_or_equal", "valid_values", "matches", "has_prefix",
        "has_suffix", "contains", "has_entry", "has_key", "has_all_entries",
        "has_any_entry", "has_all_keys", "has_any_key",
        # strings, lists, sets, arithmetic
        "length", "concat", "join", "token", "union", "intersection", "sum",
        "difference", "product", "quotient", "remainder", "round", "floor", "ceil",
    }
)  # fmt: skip
"""Names of the TOSCA 2.0 built-in functions."""

INTRINSICS_1_X = frozenset(
    {
        "concat", "join", "token", "get_input", "get_property", "get_attribute",
        "get_operation_output", "get_nodes_of_type", "get_artifact",
    }
)  # fmt: skip
"""Names recognised as calls in 1.x files (intrinsic functions)."""

_SEGMENT = lazy_pattern(r"^[^\s$:]+$")
# threading.Lock is _thread.allocate_lock; threading itself costs ~0.5 ms of
# `toskit check`'s start-up (#31).
_LOCK = _thread.allocate_lock()
_REGISTRY: dict[str, Callable[..., Any]] = {}


def split_qualified(name: str) -> tuple[str | None, str]:
    """``"a:b:fn"`` → ``("a:b", "fn")``; ``"fn"`` → ``(None, "fn")``."""
    namespace, sep, base = name.rpartition(":")
    return (namespace if sep else None), base


def is_builtin(name: str) -> bool:
    """Whether an unqualified name is a 2.0 built-in or a 1.x intrinsic."""
    return name in BUILTINS_2_0 or name in INTRINSICS_1_X


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not name:
        raise ToskitError(f"a function name must be a non-empty string, not {name!r}")
    segments = name.split(":")
    bad = [s for s in segments if not _SEGMENT.match(s)]
    if bad:
        raise ToskitError(
            f"bad function name {name!r}: write 'fn' or 'ns:fn' with non-empty segments "
            "and no '$' or spaces"
        )
    if len(segments) == 1 and is_builtin(name):
        raise ToskitError(
            f"{name!r} is a built-in function; register it under a namespace, e.g. 'my:{name}'"
        )
    return name


def register(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """Register ``func`` as the function ``name`` (``"fn"`` or ``"ns:fn"``); returns ``func``.

    ``func`` receives the evaluated arguments as positional parameters. A
    ``FunctionError`` it raises passes through; any other exception becomes a
    ``FunctionError`` of kind ``ArgType``. Registering a name again replaces
    the earlier callable.
    """
    name = _check_name(name)
    if not callable(func):
        raise ToskitError(f"register({name!r}, ...): {func!r} is not callable")
    with _LOCK:
        _REGISTRY[name] = func
    return func


def unregister(name: str) -> None:
    """Remove a registered function; ``ToskitError`` when it is not registered."""
    with _LOCK:
        if name not in _REGISTRY:
            raise ToskitError(f"no function {name!r} is registered")
        del _REGISTRY[name]


def lookup(qualified_name: str) -> Callable[..., Any] | None:
    """The callable registered under ``qualified_name``, or ``None``."""
    return _REGISTRY.get(qualified_name)


def registered_names() -> frozenset[str]:
    """Every registered qualified name."""
    return frozenset(_REGISTRY)
