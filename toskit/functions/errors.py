"""Internal signals of evaluation and the construction of :class:`FunctionError`.

Built-in functions raise :class:`Failure` (a kind and a detail) without
knowing which call they serve; the evaluator turns it into a
``toskit.FunctionError`` named after the innermost failing call, with a
``Diagnostic`` whose message reads ``<function>: <Kind>: <detail>``.
:class:`Unevaluated` tells the evaluator to keep the call as it is (§5.3).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from toskit.diagnostics import Diagnostic, Subject, format_path, suggest
from toskit.errors import FunctionError

if TYPE_CHECKING:
    from toskit.functions.notation import Call

__all__ = ["KINDS", "Failure", "Unevaluated", "function_error"]

KINDS = frozenset(
    {
        "ArgCount",
        "ArgType",
        "TypeMismatch",
        "UnknownInput",
        "InputValueMissing",
        "PathError",
        "ContextError",
        "InvalidRegex",
        "DivisionByZero",
        "ValidationFailed",
        "ValidationNotBoolean",
        "NoMatchingSignature",
        "UnknownFunction",
        "LimitExceeded",
        "DuplicateKey",
    }
)
"""Error kinds of function evaluation (docs/functions.md), plus ``UnknownFunction``,
``LimitExceeded`` (nesting bound, code ``limit-exceeded``) and ``DuplicateKey`` (two keys of one map
that evaluate to the same value; code ``duplicate-key``)."""

_CODES = {
    "UnknownFunction": "unknown-function",
    "LimitExceeded": "limit-exceeded",
    "DuplicateKey": "duplicate-key",
}


class Failure(Exception):
    """A built-in failed: ``kind`` (§6.2) and a detail for people."""

    def __init__(
        self,
        kind: str,
        detail: str,
        hint: str | None = None,
        *,
        misspelt: str | None = None,
        candidates: Iterable[str] = (),
    ) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
        # A did-you-mean (issue #28): the unknown name and what it may be; the
        # hint names the one candidate or every tied one, and a located
        # diagnostic gets the rename as its fix.
        self.misspelt = misspelt
        self.candidates = tuple(candidates)
        if hint is None and misspelt:
            found = suggest(misspelt, self.candidates)
            hint = found.hint() if found is not None else None
        self.hint = hint


class Unevaluated(Exception):
    """The call cannot be evaluated statically and stays a ``Call`` (not an error)."""


def function_error(
    kind: str,
    detail: str,
    call: Call | None = None,
    hint: str | None = None,
    *,
    misspelt: str | None = None,
    candidates: Iterable[str] = (),
) -> FunctionError:
    """A ``FunctionError`` for ``call`` with its ``function-error`` diagnostic.

    The error also carries ``.call`` (the failing :class:`Call`, whose
    ``.path`` locates it) and ``.detail``; ``.misspelt`` and
    ``.candidates`` when the hint is a did-you-mean (a located diagnostic
    is then made with its fix). The unlocated diagnostic's subject is the
    value at the call's path.
    """
    name = call.qualified_name if call is not None else None
    message = f"{name}: {kind}: {detail}" if name else f"{kind}: {detail}"
    diagnostic = Diagnostic(
        "error",
        _CODES.get(kind, "function-error"),
        message,
        path=format_path(call.path) if call is not None else "",
        hint=hint,
        subject=Subject("value", None, tuple(call.path) if call is not None else ()),
    )
    error = FunctionError(message, kind=kind, function=name, diagnostic=diagnostic)
    error.call = call
    error.detail = detail
    error.misspelt = misspelt
    error.candidates = tuple(candidates)
    return error
