"""Result objects of condition evaluation: traces and outcomes.

They are plain, read-only value objects with a readable ``__repr__`` and the
``_repr_html_`` display seam (the HTML lives in :mod:`toskit.display`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
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
    ``recommended``; for Fuel roles also ``restriction`` and ``limits``),
    ``value``, ``warnings`` (this node's outcome), ``source`` (expression
    text or ``None``), ``children`` (the sub-conditions actually evaluated)
    and ``path`` (where the condition sits in its document, e.g.
    ``conditions[0].then``).

    The facts that explain the value, each with its own value:

    * ``guard`` (``condition`` with ``then``): the guard's value, and
      ``branch``: ``"then"``, ``"else"`` or ``None`` (no branch ran);
      ``applies`` is False for a top-level rule whose guard is false and
      that has no ``else`` (it does not apply);
    * ``fired`` (``recommended``): whether the advice was raised;
    * ``item`` (``exists``): the item (node) that matched, or ``None``;
    * ``reads``: ``(reference text, value)`` for every reference the
      expression read (``selectedNodes._length``, ``<value>``,
      ``settings:storage.volumes_ceph.value``);
    * ``detail``: those facts in one line (``guard TRUE → then: FALSE``);
    * ``facts``: form-specific data (a restriction's ``action``,
      ``message``, ``active``; limits' ``count``, ``min``, ``max``,
      ``recommended``, ``overrides``);
    * ``decisive``: this entry decided a false value or raised advice.

    For ``restriction`` and ``limits`` entries ``value`` is True unless the
    entry blocks the role (an active ``disable`` restriction, a count above
    ``max``).
    """

    __slots__ = (
        "form",
        "value",
        "warnings",
        "source",
        "children",
        "path",
        "guard",
        "branch",
        "applies",
        "fired",
        "item",
        "reads",
        "detail",
        "facts",
        "decisive",
    )

    def __init__(
        self,
        form: str,
        value: bool,
        warnings: list[str],
        source: str | None = None,
        children: list[TraceEntry] | None = None,
        path: str = "",
        *,
        guard: bool | None = None,
        branch: str | None = None,
        applies: bool = True,
        fired: bool | None = None,
        item: Any = None,
        reads: list[tuple[str, Any]] | None = None,
        detail: str = "",
        facts: dict[str, Any] | None = None,
        decisive: bool = False,
    ) -> None:
        self.form = form
        self.value = value
        self.warnings = list(warnings)
        self.source = source
        self.children = list(children or [])
        self.path = path
        self.guard = guard
        self.branch = branch
        self.applies = applies
        self.fired = fired
        self.item = item
        self.reads = list(reads or [])
        self.detail = detail
        self.facts = dict(facts or {})
        self.decisive = decisive

    def walk(self) -> Iterator[TraceEntry]:
        """This entry and every descendant, depth first."""
        stack = [self]
        while stack:
            entry = stack.pop()
            yield entry
            stack.extend(reversed(entry.children))

    def line(self) -> str:
        """This entry alone, in one line of text (its facts, not its children)."""
        from toskit.conditions.explain import describe_value

        head = ("▶ " if self.decisive else "") + self.form
        if self.source is not None:
            head += f" {self.source}"
        head += ": " + (self.detail or ("TRUE" if self.value else "FALSE"))
        shown = [(t, v) for t, v in self.reads if t != self.source]
        if shown:
            head += " [" + ", ".join(f"{t} = {describe_value(v)}" for t, v in shown) + "]"
        if self.warnings:
            head += f" {self.warnings!r}"
        return head

    def lines(self, indent: int = 0) -> list[str]:
        """A plain-text tree, one line per entry (``▶`` marks deciding entries)."""
        out: list[str] = []
        stack: list[tuple[TraceEntry, int]] = [(self, indent)]
        while stack:
            entry, depth = stack.pop()
            out.append("  " * depth + entry.line())
            stack.extend((child, depth + 1) for child in reversed(entry.children))
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

    # Unhashable on purpose: defining __eq__ (without __hash__) sets __hash__ to None.


class _LazyTrace:
    """Computes the trace on first access: evaluation is pure and the cluster
    immutable, so re-running in tracing mode gives the same tree; checking
    many roles (a simulator, the benchmark) then never pays for traces that
    nobody reads."""

    __slots__ = ("_trace_value", "_trace_thunk")

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

    __slots__ = ("value", "warnings")

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

    @property
    def reason(self) -> str:
        """One sentence saying why the value is false or carries advice
        (empty when it is plainly true); see :func:`toskit.conditions.explain.reason`."""
        from toskit.conditions.explain import reason

        return reason(self)

    @property
    def reason_quotes(self) -> tuple[str, ...]:
        """The warnings that :attr:`reason` quotes word for word."""
        from toskit.conditions.explain import reason_parts

        found = reason_parts(self)
        return () if found is None else found.quotes

    def __repr__(self) -> str:
        return f"Outcome(value={self.value}, warnings={self.warnings!r})"

    def __str__(self) -> str:
        return _text(repr(self), self.reason, self.trace)


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

    # Unhashable on purpose: defining __eq__ (without __hash__) sets __hash__ to None.


class RoleOutcome(_LazyTrace, _Displayable):
    """The result of ``RoleSet.check``: ``role``, ``allowed``, ``warnings``,
    ``conflicts``, ``trace`` (the role's rules), and for Fuel roles
    ``hidden`` (a ``hide`` restriction is active), ``limits`` (a
    :class:`LimitsOutcome`, or ``None`` when the role declares none) and
    ``restrictions`` (the messages of the active restrictions).

    ``decision`` is the :class:`~toskit.conditions.decision.RoleDecision`
    the check recorded (the facts behind the verdict); ``trace``,
    ``reason`` and the views are drawn from it. A check made without
    ``record=True`` records the values read and the rules' trace once, on
    the first reading of ``trace`` or ``reason``."""

    __slots__ = (
        "role",
        "allowed",
        "warnings",
        "conflicts",
        "hidden",
        "limits",
        "restrictions",
        "_decision",
        "_recorder",
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
        self._decision: Any = None
        self._recorder: Callable[[], Any] | None = None
        if isinstance(trace, TraceEntry):
            self._trace_value, self._trace_thunk = trace, None
        else:
            self._trace_value, self._trace_thunk = None, trace

    @classmethod
    def from_decision(cls, decision: Any, recorder: Callable[[], Any] | None = None) -> RoleOutcome:
        """The outcome of a :class:`~toskit.conditions.decision.RoleDecision`.
        ``recorder`` (for a decision made without recording) records the
        same check once, when the trace or the reason is first read."""
        # Attribute by attribute, not through __init__: one outcome per role
        # check, on the fast path that benchmark B2 times.
        out = cls.__new__(cls)
        out.role = decision.role
        out.allowed = decision.allowed
        out.warnings = list(decision.warnings)
        conflicts = decision.conflicts
        out.conflicts = list(conflicts.names) if conflicts is not None else []
        out.hidden = decision.hidden
        limits = decision.limits
        out.limits = limits.outcome if limits is not None else None
        out.restrictions = list(decision.active_messages) if decision.restrictions else []
        out._decision = decision
        out._recorder = recorder
        out._trace_value = None
        out._trace_thunk = out._draw_trace
        return out

    def _draw_trace(self) -> TraceEntry:
        from toskit.conditions.explain import role_trace

        return role_trace(self.recorded_decision)

    @property
    def decision(self) -> Any:
        """The facts the check recorded (a ``RoleDecision``; ``None`` for an
        outcome built by hand)."""
        return self._decision

    @property
    def recorded_decision(self) -> Any:
        """The decision with everything recorded (values read, the rules'
        trace); recorded now, once, for a check made without ``record=True``."""
        decision = self._decision
        if decision is None or decision.recorded:
            return decision
        if self._recorder is None:
            raise ValueError(f"the check of role {self.role!r} was not recorded")
        from toskit.conditions.decision import check_same

        self._decision = check_same(decision, self._recorder())
        self._recorder = None
        return self._decision

    @property
    def reason_quotes(self) -> tuple[str, ...]:
        """The warnings that :attr:`reason` quotes word for word."""
        from toskit.conditions.explain import reason_parts

        found = reason_parts(self)
        return () if found is None else found.quotes

    @property
    def reason(self) -> str:
        """One sentence for a role that is not plainly allowed (blocked,
        hidden, or allowed with advice), built from the deciding trace
        entries when the rule has no warning text, e.g. ``blocked: rule 1
        (cluster:mode == 'multinode'): node 1 (roles: controller) matches
        the exists over cluster:nodes``; empty for a plainly allowed role."""
        from toskit.conditions.explain import reason

        return reason(self)

    @property
    def status(self) -> str:
        """``allowed``, ``advice`` (allowed with warnings), ``blocked`` or ``hidden``."""
        if self.hidden:
            return "hidden"
        if not self.allowed:
            return "blocked"
        return "advice" if self.warnings else "allowed"

    def to_frame(self) -> Any:
        """A one-row pandas DataFrame: role, allowed, status, reason,
        warnings, conflicts (pandas is imported on first use)."""
        import pandas as pd

        return pd.DataFrame([self.row()])

    def row(self) -> dict[str, Any]:
        """This outcome as one table row (what ``to_frame`` shows)."""
        row: dict[str, Any] = {
            "role": self.role,
            "allowed": self.allowed,
            "status": self.status,
            "reason": self.reason,
            "warnings": list(self.warnings),
            "conflicts": list(self.conflicts),
        }
        if self.limits is not None:
            for bound in ("count", "min", "max", "recommended"):
                row[bound] = getattr(self.limits, bound)
        return row

    def __str__(self) -> str:
        return _text(f"{self.role}: {self.status}", self.reason, self.trace)

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


def _text(head: str, reason: str, trace: TraceEntry | None) -> str:
    """The plain-text form of an outcome: the verdict, the reason, and the
    trace entries that decided it (``▶``), each with its facts."""
    lines = [head]
    if reason:
        lines.append(f"reason: {reason}")
    if trace is not None:
        decisive = [e for e in trace.walk() if e.decisive and e is not trace]
        if decisive:
            lines.append("deciding entries:")
            lines.extend(f"  {e.line()}" for e in decisive)
    return "\n".join(lines)
