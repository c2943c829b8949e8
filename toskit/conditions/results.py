"""Result objects of condition evaluation: traces and outcomes.

They are plain, read-only value objects with a readable ``__repr__`` and the
``_repr_html_`` display seam (the HTML lives in :mod:`toskit.display`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["TraceEntry", "Outcome", "RoleOutcome", "LimitsOutcome"]


class _Displayable:
    __slots__ = ()

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


class TraceEntry(_Displayable):
    """One evaluated condition: ``form`` (``rules``, ``literal``,
    ``expression``, ``condition``, ``all``, ``any``, ``not``, ``exists``,
    ``recommended``), ``value``, ``warnings`` (this node's outcome),
    ``source`` (expression text or ``None``), ``children`` (the
    sub-conditions actually evaluated) and ``path`` (where the condition
    sits in its document, e.g. ``conditions[0].then``)."""

    __slots__ = ("form", "value", "warnings", "source", "children", "path")

    def __init__(
        self,
        form: str,
        value: bool,
        warnings: list[str],
        source: str | None = None,
        children: list[TraceEntry] | None = None,
        path: str = "",
    ) -> None:
        self.form = form
        self.value = value
        self.warnings = list(warnings)
        self.source = source
        self.children = list(children or [])
        self.path = path

    def walk(self):
        """This entry and every descendant, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()

    def lines(self, indent: int = 0) -> list[str]:
        """A plain-text tree, one line per entry."""
        head = f"{'  ' * indent}{self.form}"
        if self.source is not None:
            head += f" {self.source!r}"
        head += f" -> {'true' if self.value else 'false'}"
        if self.warnings:
            head += f" {self.warnings!r}"
        out = [head]
        for child in self.children:
            out.extend(child.lines(indent + 1))
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def __repr__(self) -> str:
        src = f", source={self.source!r}" if self.source is not None else ""
        kids = f", children={len(self.children)}" if self.children else ""
        warn = f", warnings={self.warnings!r}" if self.warnings else ""
        return f"TraceEntry({self.form!r}, value={self.value}{warn}{src}{kids})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TraceEntry):
            return NotImplemented
        return (self.form, self.value, self.warnings, self.source, self.children) == (
            other.form,
            other.value,
            other.warnings,
            other.source,
            other.children,
        )

    __hash__ = None  # type: ignore[assignment]


class _LazyTrace:
    """Computes the trace on first access: evaluation is pure and the cluster
    immutable, so re-running in tracing mode gives the same tree; checking
    many roles (a simulator, the benchmark) then never pays for traces that
    nobody reads."""

    __slots__ = ()

    _trace_value: TraceEntry | None
    _trace_thunk: Callable[[], TraceEntry] | None

    @property
    def trace(self) -> TraceEntry:
        if self._trace_value is None:
            assert self._trace_thunk is not None
            self._trace_value = self._trace_thunk()
            self._trace_thunk = None
        return self._trace_value


class Outcome(_LazyTrace, _Displayable):
    """The result of :func:`toskit.conditions.evaluate`: ``value`` (bool),
    ``warnings`` (list of str) and ``trace`` (a :class:`TraceEntry`)."""

    __slots__ = ("value", "warnings", "_trace_value", "_trace_thunk")

    def __init__(
        self,
        value: bool,
        warnings: list[str],
        trace: TraceEntry | Callable[[], TraceEntry],
    ) -> None:
        self.value = bool(value)
        self.warnings = list(warnings)
        if isinstance(trace, TraceEntry):
            self._trace_value, self._trace_thunk = trace, None
        else:
            self._trace_value, self._trace_thunk = None, trace

    def __bool__(self) -> bool:
        return self.value

    def __repr__(self) -> str:
        return f"Outcome(value={self.value}, warnings={self.warnings!r})"


class LimitsOutcome(_Displayable):
    """Evaluated Fuel ``limits`` of a role: ``count`` (nodes that will have the
    role), ``min``, ``max``, ``recommended`` (``None`` where absent)."""

    __slots__ = ("count", "min", "max", "recommended")

    def __init__(
        self, count: int, min: Any = None, max: Any = None, recommended: Any = None
    ) -> None:  # noqa: A002
        self.count = count
        self.min = min
        self.max = max
        self.recommended = recommended

    def __repr__(self) -> str:
        return (
            f"LimitsOutcome(count={self.count}, min={self.min!r}, max={self.max!r}, "
            f"recommended={self.recommended!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LimitsOutcome):
            return NotImplemented
        return (self.count, self.min, self.max, self.recommended) == (
            other.count,
            other.min,
            other.max,
            other.recommended,
        )

    __hash__ = None  # type: ignore[assignment]


class RoleOutcome(_LazyTrace, _Displayable):
    """The result of ``RoleSet.check``: ``role``, ``allowed``, ``warnings``,
    ``conflicts``, ``trace`` (the role's rules), and for Fuel roles
    ``hidden`` (a ``hide`` restriction is active), ``limits`` (a
    :class:`LimitsOutcome`, or ``None`` when the role declares none) and
    ``restrictions`` (the messages of the active restrictions)."""

    __slots__ = (
        "role",
        "allowed",
        "warnings",
        "conflicts",
        "hidden",
        "limits",
        "restrictions",
        "_trace_value",
        "_trace_thunk",
    )

    def __init__(
        self,
        role: str,
        allowed: bool,
        warnings: list[str],
        conflicts: list[str],
        trace: TraceEntry | Callable[[], TraceEntry],
        *,
        hidden: bool = False,
        limits: LimitsOutcome | None = None,
        restrictions: list[str] | None = None,
    ) -> None:
        self.role = role
        self.allowed = bool(allowed)
        self.warnings = list(warnings)
        self.conflicts = list(conflicts)
        self.hidden = bool(hidden)
        self.limits = limits
        self.restrictions = list(restrictions or [])
        if isinstance(trace, TraceEntry):
            self._trace_value, self._trace_thunk = trace, None
        else:
            self._trace_value, self._trace_thunk = None, trace

    def __repr__(self) -> str:
        parts = [repr(self.role), f"allowed={self.allowed}"]
        if self.hidden:
            parts.append("hidden=True")
        parts.append(f"warnings={self.warnings!r}")
        if self.conflicts:
            parts.append(f"conflicts={self.conflicts!r}")
        if self.limits is not None:
            parts.append(f"limits={self.limits!r}")
        return f"RoleOutcome({', '.join(parts)})"
