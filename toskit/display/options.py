"""Display options: the bounds every HTML view respects.

``toskit.options`` is this module. Read an option as an attribute, set it by
assignment (the value is checked), or change several for a block::

    import toskit
    toskit.options.display_max_rows = 100
    with toskit.options.context(display_max_rows=10, display_expand_depth=1):
        html = st._repr_html_()

Every option is a positive integer (``display_expand_depth`` may be 0):

``display_max_rows`` (50)
    Rows of any table (properties, nodes, diagnostics, roles…) before the view
    shows the first ones and "… N more".
``display_max_tree_nodes`` (300)
    Entries of a tree (type inheritance, evaluation trace) shown in total.
``display_max_depth`` (12)
    Levels of a tree rendered at all; deeper levels become "… N more below".
``display_expand_depth`` (4)
    Levels of an evaluation trace open by default; deeper ones are collapsed
    ``<details>`` (type trees open the branches that lead to user types).
``display_max_nodes`` (50)
    Node templates listed (each with its collapsed property table) in the view
    of a service template.
``display_max_value_chars`` (200)
    Characters of one rendered value; longer ones end with "…".
``display_max_fallback_chars`` (4000)
    Characters of the plain-text ``<pre>`` fallback carried by every fragment.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator
from typing import Any

__all__ = ["DEFAULTS", "context", "reset", "snapshot"]

DEFAULTS: dict[str, int] = {
    "display_max_rows": 50,
    "display_max_tree_nodes": 300,
    "display_max_depth": 12,
    "display_expand_depth": 4,
    "display_max_nodes": 50,
    "display_max_value_chars": 200,
    "display_max_fallback_chars": 4000,
}

# Options that may be 0 (everything else must be at least 1).
_MAY_BE_ZERO = frozenset({"display_expand_depth"})

_values: dict[str, int] = dict(DEFAULTS)


def _checked(name: str, value: Any) -> int:
    from toskit.errors import ToskitError

    if name not in DEFAULTS:
        from toskit.diagnostics import did_you_mean

        hint = did_you_mean(name, DEFAULTS)
        raise ToskitError(f"unknown display option {name!r}" + (f"; {hint}" if hint else ""))
    if isinstance(value, bool) or not isinstance(value, int):
        raise ToskitError(f"option {name} must be an integer, got {type(value).__name__}")
    lowest = 0 if name in _MAY_BE_ZERO else 1
    if value < lowest:
        raise ToskitError(f"option {name} must be at least {lowest}, got {value}")
    return value


def snapshot() -> dict[str, int]:
    """The current value of every option."""
    return dict(_values)


def reset() -> None:
    """Restore every option to its default."""
    _values.clear()
    _values.update(DEFAULTS)


@contextlib.contextmanager
def context(**changes: int) -> Iterator[None]:
    """Set options for the duration of a ``with`` block, then restore them."""
    checked = {name: _checked(name, value) for name, value in changes.items()}
    saved = dict(_values)
    _values.update(checked)
    try:
        yield
    finally:
        _values.clear()
        _values.update(saved)


class _OptionsModule(types.ModuleType):
    """Routes option attributes to the checked store."""

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails, i.e. for option names.
        try:
            return _values[name]
        except KeyError:
            raise AttributeError(f"toskit.options has no option {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        if name in DEFAULTS or name.startswith("display_"):
            _values[name] = _checked(name, value)
        else:
            super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(DEFAULTS))


sys.modules[__name__].__class__ = _OptionsModule


def get(name: str) -> int:
    """The current value of option ``name`` (render code reads through this)."""
    return _values[name]
