"""The bound on nested function calls.

Data is walked without Python recursion (parse, unparse and evaluation use
:func:`toskit.plain.drive`; the data bound is :data:`toskit.plain.MAX_DEPTH`).
Nested *calls* recurse when evaluated: each level goes through the call's
dispatch, the built-in and its arguments, measured at 6 Python frames per
level (``$concat`` in ``$concat``), 9 with a list between (``$join``), about
7.5 for a chain of ``$get_property`` through other properties of a loaded
template. :data:`MAX_CALL_DEPTH` levels therefore take at most ~500 frames,
which fit in CPython's default recursion limit of 1,000 even when the caller
is already 300 frames deep, so toskit never raises the limit.

The bound is checked twice: :func:`toskit.functions.parse` refuses a value
whose calls nest deeper (``FunctionSyntaxError``, code ``limit-exceeded``,
at the call past the bound), and evaluation refuses calls nested deeper than
``max_depth`` (at most this bound) counted across nested evaluations, such
as a ``$get_property`` that evaluates another property (``FunctionError`` of
kind ``LimitExceeded``). A ``RecursionError`` that still happens (a caller
already near the limit) is turned into that same ``LimitExceeded``.
"""

from __future__ import annotations

__all__ = ["MAX_CALL_DEPTH"]

#: Deepest nesting of function calls that is parsed and evaluated.
MAX_CALL_DEPTH = 50
