"""The one place where a role's outcome is decided, and the facts it records.

:func:`decide` evaluates a role once — Fuel restrictions, limits, the
conflicts with the selected roles, then the role's rules — and returns a
:class:`RoleDecision`: the verdict (``allowed``, ``hidden``, ``warnings``)
*and* the facts it was decided from, each as a small frozen record:

* :class:`RestrictionFact` per restriction: its place in the document, its
  expression, ``action``, ``message`` (the release's own text), whether it
  was ``active``, and (recorded) the values its expression read;
* :class:`LimitsFact`: the count, the bounds in force, the bounds as
  written, the overrides and whether each held, the limit messages, and
  whether the count is below min / above max / below recommended;
* :class:`ConflictFact`: the selected roles that conflict and, for each,
  which side declares the conflict;
* the rules: their value and warnings and, recorded, their trace
  (:class:`~toskit.conditions.results.TraceEntry`: which rule and which
  sub-expression decided, the node an ``exists`` matched, every
  ``model:path`` read with its value).

Two modes, one function. ``record=False`` (``RoleSet.check``'s default,
the fast path that benchmark B2 times) records the verdict's facts but not
the values read nor the rules' trace. ``record=True`` (``check(...,
record=True)``, ``check_all(..., record=True)``: the simulator and the
static views) records everything during the same evaluation. A fast
outcome whose ``trace`` (or ``reason``) is read is recorded once, on first
access, by :func:`decide` in recording mode, and must reach the same
verdict (:func:`same_verdict`); nothing else ever evaluates a role again.
:mod:`toskit.conditions.explain` and the views only *render* these facts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from toskit.conditions.explain import reads as recorded_reads
from toskit.conditions.expression import Env, Expression
from toskit.conditions.restrictions import count_for_limits
from toskit.conditions.results import LimitsOutcome, TraceEntry
from toskit.conditions.values import value_text
from toskit.conditions.words import condition_words
from toskit.errors import ToskitError
from toskit.records import record

if TYPE_CHECKING:
    from toskit.conditions.roles import Role

__all__ = [
    "CONFLICT_WARNING",
    "ConflictFact",
    "LimitsFact",
    "OverrideFact",
    "RestrictionFact",
    "RoleDecision",
    "decide",
    "same_verdict",
]

CONFLICT_WARNING = "This role cannot be combined with the selected roles."

Reads = tuple[tuple[str, Any], ...]


@record(frozen=True)
class RestrictionFact:
    """One Fuel restriction as the check evaluated it.

    ``index`` (0-based) and ``path`` (``mongo.restrictions[1]``) place it;
    ``text`` is its expression (``None`` for a boolean condition) and
    ``source`` what a trace shows for it (the text, or ``true``/``false``);
    ``action`` is ``disable``, ``hide``, ``none`` or ``enable``;
    ``message`` the release's own text (or ``None``); ``active`` whether its
    condition held; ``reads`` (recorded mode) every reference the
    expression read with its value; ``words`` (recorded mode) the
    condition in the user's words, settings named by their labels
    (:func:`toskit.conditions.words.condition_words`: “Use vCenter” is
    on), what a reason shows when the release gives no message.
    """

    index: int
    path: str
    text: str | None
    source: str | None
    action: str
    message: str | None
    active: bool
    reads: Reads = ()
    words: str | None = None

    @property
    def blocks(self) -> bool:
        """An active ``disable`` restriction blocks the role."""
        return self.active and self.action == "disable"

    @property
    def hides(self) -> bool:
        """An active ``hide`` restriction hides the role."""
        return self.active and self.action == "hide"


@record(frozen=True)
class OverrideFact:
    """One ``limits.overrides`` item: its ``index`` (0-based), condition
    ``text`` (``None`` for a boolean), whether it ``holds``, the bound
    ``kinds`` it sets and its own ``message``."""

    index: int
    text: str | None
    holds: bool
    kinds: tuple[str, ...]
    message: str | None


@record(frozen=True)
class LimitsFact:
    """A role's Fuel ``limits`` as the check evaluated them.

    ``count`` is the number of nodes that will have the role; ``min``,
    ``max``, ``recommended`` the bounds in force (``None`` where absent);
    ``written`` the top-level bounds as written (expression text or
    number); ``overrides`` every override with whether it held;
    ``messages`` the limit messages (min, max, recommended, in that order);
    ``below_min``, ``above_max``, ``below_recommended`` the comparisons;
    ``reads`` (recorded mode) what the bound and override expressions read.
    """

    path: str
    count: int
    min: Any
    max: Any
    recommended: Any
    written: dict[str, Any]
    overrides: tuple[OverrideFact, ...]
    messages: tuple[str, ...]
    below_min: bool
    above_max: bool
    below_recommended: bool
    reads: Reads = ()

    @property
    def outcome(self) -> LimitsOutcome:
        """The bounds as a :class:`LimitsOutcome` (``RoleOutcome.limits``)."""
        return LimitsOutcome(self.count, self.min, self.max, self.recommended)


@record(frozen=True)
class ConflictFact:
    """The selected roles that conflict with the role: ``names`` in the order
    given, ``declared`` (the role's own ``conflicts``), ``path``
    (``controller.conflicts``), ``declared_by``: for each name, who
    declares the conflict — ``"role"`` (this role lists it or ``'*'``),
    ``"selected"`` (the selected role lists this one or ``'*'``) or
    ``"both"`` — and ``declared_at``: for each name, the ``conflicts`` list
    that declares it (``compute.conflicts`` when only the other side does:
    the other side of the conflict)."""

    path: str
    names: tuple[str, ...]
    declared: tuple[str, ...]
    declared_by: tuple[str, ...]
    declared_at: tuple[str, ...] = ()


class RoleDecision(NamedTuple):
    """A role's outcome and the facts it was decided from (see the module doc).

    ``allowed``, ``hidden`` and ``warnings`` are the verdict (in the order
    of the system that applies: ``fuel_order`` for a role with restrictions
    or limits). ``rules_value`` and ``rules_warnings`` are the rules'
    outcome; ``rules_trace`` their recorded trace (``None`` unless
    ``recorded``). ``blocked_by`` names what blocks the role, in trace
    order (``restriction``, ``limits``, ``conflicts``, ``rules``).
    A named tuple: read-only, and cheap to make (one per role check).
    """

    role: str
    label: str
    allowed: bool
    hidden: bool
    warnings: tuple[str, ...]
    restrictions: tuple[RestrictionFact, ...]
    limits: LimitsFact | None
    conflicts: ConflictFact | None
    rules_value: bool
    rules_warnings: tuple[str, ...]
    fuel_order: bool
    rules_path: str
    recorded: bool = False
    rules_trace: TraceEntry | None = None

    @property
    def blocked_by(self) -> tuple[str, ...]:
        out: list[str] = []
        if any(r.blocks for r in self.restrictions):
            out.append("restriction")
        if self.limits is not None and self.limits.above_max:
            out.append("limits")
        if self.conflicts is not None and self.fuel_order:
            out.append("conflicts")
        if not self.rules_value:
            out.append("rules")
        if self.conflicts is not None and not self.fuel_order:
            out.append("conflicts")
        return tuple(out)

    @property
    def active_messages(self) -> tuple[str, ...]:
        """The messages of the active restrictions (``RoleOutcome.restrictions``)."""
        return tuple(r.message for r in self.restrictions if r.active and r.message)


def same_verdict(a: RoleDecision, b: RoleDecision) -> bool:
    """Whether two decisions of one role reached the same verdict."""
    return (a.allowed, a.hidden, a.warnings) == (b.allowed, b.hidden, b.warnings)


def _restriction(index: int, restriction: Any, env: Env, record: bool) -> RestrictionFact:
    condition = restriction.condition
    active = restriction.active(env)
    text = condition.text if isinstance(condition, Expression) else None
    return RestrictionFact(
        index,
        restriction.path,
        text,
        text if text is not None else value_text(condition),
        restriction.action,
        restriction.message,
        active,
        tuple(recorded_reads(condition, env)) if record else (),
        condition_words(condition, env.models.get("settings")) if record else None,
    )


def _limits(role: Role, env: Env, nodes: Sequence[Any], record: bool) -> LimitsFact:
    limits = role.limits
    assert limits is not None
    count = count_for_limits(role.name, nodes, env.selected)
    found = limits.decide(env, count, role.label)
    overrides = tuple(
        OverrideFact(
            i,
            override.condition.text if isinstance(override.condition, Expression) else None,
            holds,
            tuple(override.bounds),
            override.message,
        )
        for i, (override, holds) in enumerate(zip(limits.overrides, found.held))
    )
    read: Reads = ()
    if record:
        seen: list[tuple[str, Any]] = []
        for bound in limits.bounds.values():
            seen.extend(recorded_reads(bound.expression, env))
        for override in limits.overrides:
            seen.extend(recorded_reads(override.condition, env))
        read = tuple(_distinct(seen))
    return LimitsFact(
        limits.path,
        count,
        found.min,
        found.max,
        found.recommended,
        {
            kind: bound.expression.text if bound.expression is not None else bound.value
            for kind, bound in limits.bounds.items()
        },
        overrides,
        found.messages,
        found.below_min,
        found.above_max,
        found.below_recommended,
        read,
    )


def _distinct(items: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """``items`` without repeats when they can be compared by hash (values
    that cannot — a list read twice — are all kept, as before)."""
    try:
        return list(dict.fromkeys(items))
    except TypeError:
        return items


def decide(
    role: Role,
    env: Env,
    selected_roles: Sequence[str],
    conflicts_between: Callable[[str, str], bool],
    declares: Callable[[str, str], bool],
    nodes: Sequence[Any],
    *,
    record: bool = False,
) -> RoleDecision:
    """Evaluate ``role`` once and record what decided it (see the module doc).

    ``conflicts_between(a, b)`` is the symmetric conflict of the check,
    ``declares(a, b)`` whether role ``a`` itself lists ``b`` (or ``'*'``);
    ``nodes`` are the cluster's nodes (for the limits count).
    """
    # Written for speed: this is the whole of a fast role check (benchmark B2).
    restrictions: tuple[RestrictionFact, ...] = ()
    warnings: list[str] = []
    blocked = hidden = False
    if role.restrictions:
        restrictions = tuple(
            [_restriction(i, r, env, record) for i, r in enumerate(role.restrictions)]
        )
        for fact in restrictions:
            if fact.active:
                if fact.message:
                    warnings.append(fact.message)
                if fact.action == "disable":
                    blocked = True
                elif fact.action == "hide":
                    hidden = True
    limits = None
    if role.limits is not None:
        limits = _limits(role, env, nodes, record)
        warnings.extend(limits.messages)
        blocked = blocked or limits.above_max
    conflicts = None
    if selected_roles:
        name = role.name
        names = [s for s in selected_roles if conflicts_between(name, s)]
        if names:
            sides, places = [], []
            for other in names:
                mine, theirs = declares(name, other), declares(other, name)
                sides.append("both" if mine and theirs else ("role" if mine else "selected"))
                places.append(f"{name if mine else other}.conflicts")
            conflicts = ConflictFact(
                f"{name}.conflicts",
                tuple(names),
                tuple(role.conflicts),
                tuple(sides),
                tuple(places),
            )
    rules_trace: TraceEntry | None = None
    if record:
        rules_trace = role.rules.trace(env)
        value, more = rules_trace.value, rules_trace.warnings
    else:
        value, more = role.rules.run(env)
    # The two systems order the conflict text differently: a seed role
    # gives its rules' warnings, then the conflict text; a role with Fuel
    # metadata gives restrictions, limits, the conflict text, then the
    # rules' (docs/conditions.md, Fuel releases).
    fuel_order = bool(role.restrictions) or role.limits is not None
    if conflicts is not None and fuel_order:
        warnings.append(CONFLICT_WARNING)
    warnings.extend(more)
    if conflicts is not None and not fuel_order:
        warnings.append(CONFLICT_WARNING)
    value = bool(value)
    return RoleDecision(
        role.name,
        role.label,
        value and conflicts is None and not blocked,
        hidden,
        tuple(warnings),
        restrictions,
        limits,
        conflicts,
        value,
        tuple(more),
        fuel_order,
        role.rules.path,
        record,
        rules_trace,
    )


def check_same(fast: RoleDecision, recorded: RoleDecision) -> RoleDecision:
    """``recorded`` if it reached ``fast``'s verdict; evaluation is pure, so
    anything else is a bug in toskit, reported as such."""
    if not same_verdict(fast, recorded):
        raise ToskitError(
            f"internal error: recording the check of role {fast.role!r} reached another verdict "
            f"({recorded.allowed}, {recorded.warnings!r}) than the check "
            f"({fast.allowed}, {fast.warnings!r}); please report it"
        )
    return recorded
