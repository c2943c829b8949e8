"""``lazy_pattern``: a module's regular expression, compiled on first use.

A module-level ``re.compile`` costs 0.03-0.16 ms at import; ``toskit check``
imported some 30 of them and a check of a plain template used six (#31:
~1.7 ms of a ~70 ms command). ``lazy_pattern(...)`` stands where
``re.compile(...)`` stood: the first use of any of its methods compiles the
expression and keeps the compiled pattern's bound methods on the instance,
so every later ``P.match(...)`` costs what it cost on the compiled pattern
(one attribute lookup, then the C method). ``re``'s own cache is not relied
on (it holds 512 entries, shared with every other ``re`` user).
"""

from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["lazy_pattern"]

# The methods copied onto the instance on first use (what toskit calls).
_METHODS = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer")


class _LazyPattern:
    """Stands for ``re.compile(pattern, flags)`` until first used."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        # Only reached for what the instance does not hold yet: the first
        # use (or an attribute no method copy covers: the compiled one's).
        compiled = vars(self).get("_compiled")
        if compiled is None:
            compiled = re.compile(*self._args)
            vars(self)["_compiled"] = compiled
            for method in _METHODS:
                vars(self)[method] = getattr(compiled, method)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_pattern({self._args[0]!r}, {self._args[1]!r})"


def lazy_pattern(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, compiled when first used.

    Typed as the compiled pattern it stands for: ``match``, ``fullmatch``,
    ``search``, ``sub``, ``subn``, ``split``, ``findall``, ``finditer`` and
    the attributes (``pattern``, ``flags``, ``groups``...) behave the same.
    """
    return cast("re.Pattern[str]", _LazyPattern(pattern, int(flags)))
