"""The exceptions toskit raises.

Every error toskit raises on purpose derives from :class:`ToskitError`, so
``except toskit.ToskitError`` catches all of them. Problems *inside* a
template are not exceptions: loading collects them as
:class:`toskit.Diagnostic` objects (see :mod:`toskit.diagnostics`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toskit.diagnostics import Diagnostic

__all__ = [
    "ToskitError",
    "TemplateError",
    "SchemaError",
    "FunctionError",
    "FunctionSyntaxError",
    "ConditionError",
]


class ToskitError(Exception):
    """Base class of every error toskit raises."""


class _DiagnosticsError(ToskitError):
    """An error that carries the diagnostics that caused it."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.diagnostics: list[Diagnostic] = list(diagnostics or [])

    @classmethod
    def from_diagnostics(cls, diagnostics: list[Diagnostic], header: str | None = None) -> Any:
        """Build the error whose message lists ``diagnostics`` one per line."""
        lines = [header] if header else []
        lines.extend(str(d) for d in diagnostics)
        return cls("\n".join(lines), diagnostics)


class TemplateError(_DiagnosticsError):
    """A template (or any YAML document) has errors; ``.diagnostics`` lists them."""


class SchemaError(_DiagnosticsError):
    """A structural schema, or a value checked against one, is invalid."""


class FunctionError(ToskitError):
    """A function call failed when evaluated.

    ``kind`` is one of the error kinds of docs/functions.md (or
    ``"UnknownFunction"``), ``function`` the qualified name of the innermost
    failing call, ``diagnostic`` a :class:`Diagnostic` describing it.
    ``call`` (the failing ``toskit.functions.Call``, whose ``.path`` locates
    it) and ``detail`` (the message without the function's name) are set by
    ``toskit.functions`` when it raises one.
    """

    call: Any = None
    detail: str = ""
    # A did-you-mean's unknown name and candidates (issue #28: a located
    # diagnostic of the error gets the rename as its fix).
    misspelt: str | None = None
    candidates: tuple[str, ...] = ()

    def __init__(
        self,
        message: str,
        *,
        kind: str,
        function: str | None = None,
        diagnostic: Diagnostic | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.function = function
        self.diagnostic = diagnostic


class FunctionSyntaxError(_DiagnosticsError):
    """A malformed function call (code ``malformed-function``).

    ``.diagnostic`` is the first diagnostic, ``.diagnostics`` all of them.
    """

    @property
    def diagnostic(self) -> Diagnostic | None:
        return self.diagnostics[0] if self.diagnostics else None


class ConditionError(ToskitError):
    """An error in a role-condition expression or condition tree.

    ``kind`` is one of ``SyntaxError``, ``UnknownModel``, ``Undefined``,
    ``UnboundVariable``, ``TypeError``, ``UnknownSpecial``, ``SchemaError``,
    ``RoleConflict``; ``position`` a 0-based offset into ``expression`` (or
    ``None``). ``str(err)`` shows the expression with a caret under the
    offending character. ``diagnostic`` is the same error as a
    :class:`Diagnostic` (like :class:`FunctionError`'s): code
    ``condition-schema``, ``expression-syntax`` or ``expression-error``, the
    ``path``, and a hint that repeats the expression with the position.
    """

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        expression: str | None = None,
        position: int | None = None,
        path: str | None = None,
        diagnostic: Diagnostic | None = None,
    ) -> None:
        self.kind = kind
        self.message = message
        self.expression = expression
        self.position = position
        #: where the expression sits in its document (``controller.conditions[0]``), if known
        self.path = path
        self._diagnostic = diagnostic
        super().__init__(self._render())

    @property
    def diagnostic(self) -> Diagnostic:
        """This error as a :class:`Diagnostic` (built from the current
        ``kind``, ``message``, ``path`` and position unless one was given)."""
        if self._diagnostic is not None:
            return self._diagnostic
        from toskit.diagnostics import Diagnostic

        if self.kind == "SchemaError":
            code = "condition-schema"
        elif self.kind == "SyntaxError":
            code = "expression-syntax"
        else:
            code = "expression-error"
        hint = None
        if self.expression is not None and self.position is not None:
            shown = self.expression.replace("\r", " ").replace("\n", " ")
            hint = f"in the expression {shown!r} at position {self.position}"
            if self.position < len(self.expression):
                hint += f" ({self.expression[self.position]!r})"
        message = self.message if self.kind == "SchemaError" else f"{self.kind}: {self.message}"
        return Diagnostic("error", code, message, self.path or "", hint=hint)

    @diagnostic.setter
    def diagnostic(self, value: Diagnostic | None) -> None:
        self._diagnostic = value

    def _render(self) -> str:
        text = f"{self.kind}: {self.message}"
        if self.expression is not None and self.position is not None:
            shown = self.expression.replace("\r", " ").replace("\n", " ")
            text += f"\n    {shown}\n    {' ' * self.position}^"
        return text

    def __str__(self) -> str:
        return self._render()
