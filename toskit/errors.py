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

    ``kind`` is one of the error kinds of spec/functions.md §6.2 (or
    ``"UnknownFunction"``), ``function`` the qualified name of the innermost
    failing call, ``diagnostic`` a :class:`Diagnostic` describing it.
    """

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
    offending character.
    """

    def __init__(
        self,
        kind: str,
        message: str,
        *,
        expression: str | None = None,
        position: int | None = None,
        path: str | None = None,
    ) -> None:
        self.kind = kind
        self.message = message
        self.expression = expression
        self.position = position
        #: where the expression sits in its document (``controller.conditions[0]``), if known
        self.path = path
        super().__init__(self._render())

    def _render(self) -> str:
        text = f"{self.kind}: {self.message}"
        if self.expression is not None and self.position is not None:
            shown = self.expression.replace("\r", " ").replace("\n", " ")
            text += f"\n    {shown}\n    {' ' * self.position}^"
        return text

    def __str__(self) -> str:
        return self._render()
