"""Explanations: the values an expression read, the trace of a whole role
check (Fuel restrictions and limits included), and the one-sentence reason
of an outcome.

The evaluator (:mod:`toskit.conditions.forms`) computes values and
:mod:`toskit.conditions.decision` decides a role's outcome, recording its
facts; this module only *describes* what they recorded:

* :func:`reads` lists the *references* an expression reads (``model:path``
  chains, placeholders and ``selectedNodes`` with their members, such as
  ``selectedNodes._length`` or ``<node>._hasRole('controller')``) with the
  value each had, so a trace shows ``settings:storage.volumes_ceph.value =
  false`` next to the expression that read it. The evaluator calls it while
  it records (with the bindings of that moment); nothing here calls it
  afterwards.
* :func:`role_trace` draws the trace of ``RoleSet.check`` from a recorded
  :class:`~toskit.conditions.decision.RoleDecision`: for a role with Fuel
  metadata, one ``restriction`` entry per restriction and one ``limits``
  entry before the rules; the root's value is the recorded verdict.
* :func:`mark_decisive` marks the entries that decided a false value or
  raised advice; :func:`reason` (and :func:`reason_parts`) turn them and
  the recorded facts into one sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from toskit.conditions.expression import Env, Expression, compile_node
from toskit.conditions.results import TraceEntry
from toskit.conditions.syntax import (
    Literal,
    Member,
    ModelRef,
    Node,
    Placeholder,
    Variable,
    children,
)
from toskit.conditions.values import value_text
from toskit.errors import ConditionError
from toskit.plain import flow_text

__all__ = [
    "describe_node",
    "describe_value",
    "mark_decisive",
    "reads",
    "reason",
    "reason_parts",
    "Reason",
    "role_trace",
]

# Values shown in a trace are abbreviated: a 1,000-node list is a count.
MAX_VALUE_TEXT = 80
MAX_NODES_NAMED = 5
_UNDEFINED = "undefined"

# text -> [(reference text, closure)]: compiled once per expression text.
_READ_CACHE: dict[str, list[tuple[str, Any]]] = {}
_READ_CACHE_MAX = 4096


def _is_reference(node: Node) -> bool:
    """A model/placeholder/variable base followed by members whose arguments
    are literals: something a person reads as *one value*."""
    while isinstance(node, Member):
        if node.args is not None and not all(isinstance(a, Literal) for a in node.args):
            return False
        node = node.obj
    return isinstance(node, (ModelRef, Placeholder, Variable))


def _references(node: Node) -> list[Node]:
    """The maximal reference chains of a syntax tree, in text order."""
    found: list[Node] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if _is_reference(current):
            found.append(current)
        else:
            stack.extend(reversed(children(current)))
    found.sort(key=lambda n: n.start)
    return found


def _compiled_reads(expr: Expression) -> list[tuple[str, Any]]:
    cached = _READ_CACHE.get(expr.text)
    if cached is None:
        cached = [
            (expr.text[ref.start : ref.end], compile_node(expr.text, ref))
            for ref in _references(expr.node)
        ]
        if len(_READ_CACHE) >= _READ_CACHE_MAX:
            _READ_CACHE.clear()
        _READ_CACHE[expr.text] = cached
    return cached


def reads(expr: Expression | bool | None, env: Env) -> list[tuple[str, Any]]:
    """``(reference text, value)`` for every reference ``expr`` reads, with the
    bindings of ``env`` as they are now. A reference that cannot be read
    (undefined, or an error that short-circuiting avoided) shows
    ``"undefined"`` or the error's message, never raises."""
    if not isinstance(expr, Expression):
        return []
    out: list[tuple[str, Any]] = []
    for text, fn in _compiled_reads(expr):
        try:
            out.append((text, fn(env)))
        except ConditionError as err:
            out.append((text, _Unreadable(err)))
    return out


class _Unreadable:
    """A reference whose value could not be read (shown as its error)."""

    __slots__ = ("error",)

    def __init__(self, error: ConditionError) -> None:
        self.error = error

    def __repr__(self) -> str:
        return _UNDEFINED if self.error.kind == "Undefined" else f"<{self.error.message}>"


def _is_node(value: Any) -> bool:
    return isinstance(value, Mapping) and "id" in value


def describe_node(node: Any) -> str:
    """``node 1 (node-1; roles: controller; pending: compute; deleting)``."""
    if not _is_node(node):
        return describe_value(node)
    bits = []
    name = node.get("name")
    if name:
        bits.append(str(name))
    roles = list(node.get("roles") or ())
    bits.append("roles: " + (", ".join(map(str, roles)) if roles else "none"))
    pending = list(node.get("pending_roles") or ())
    if pending:
        bits.append("pending: " + ", ".join(map(str, pending)))
    if node.get("pending_deletion"):
        bits.append("pending deletion")
    return f"node {value_text(node['id'])} ({'; '.join(bits)})"


def describe_value(value: Any) -> str:
    """A short text of a value: lists of nodes as a count and their ids."""
    if isinstance(value, _Unreadable):
        return repr(value)
    if isinstance(value, (list, tuple)) and value and all(_is_node(v) for v in value):
        ids = [value_text(v["id"]) for v in value[:MAX_NODES_NAMED]]
        more = ", …" if len(value) > MAX_NODES_NAMED else ""
        noun = "node" if len(value) == 1 else "nodes"
        return f"[{len(value)} {noun}: {', '.join(ids)}{more}]"
    if _is_node(value):
        return describe_node(value)
    # Bounded whatever the value's size or depth (it reads only what it shows).
    return flow_text(value, MAX_VALUE_TEXT)


def _tf(value: Any) -> str:
    return "TRUE" if value else "FALSE"


# --------------------------------------------------------------------------- Fuel entries
#
# Rendered from the facts the check recorded (toskit.conditions.decision):
# nothing here evaluates a restriction, a bound or a rule again.


def _restriction_entry(fact: Any) -> TraceEntry:
    action = fact.action
    if fact.active:
        effect = {"disable": "blocks the role", "hide": "hides the role", "none": "message only"}
        detail = f"condition {_tf(True)} → active ({action}): {effect.get(action, action)}"
    else:
        detail = f"condition {_tf(False)} → inactive"
    return TraceEntry(
        "restriction",
        not fact.blocks,
        [fact.message] if fact.active and fact.message else [],
        fact.source,
        [],
        fact.path,
        reads=list(fact.reads),
        detail=detail,
        facts={
            "action": action,
            "message": fact.message,
            "active": fact.active,
            # the condition in the user's words (settings by their labels)
            "words": fact.words,
        },
    )


def _limits_entry(fact: Any) -> TraceEntry:
    applied = [
        f"override {o.index + 1} ({o.text if o.text is not None else value_text(o.holds)}) "
        f"sets {', '.join(o.kinds)}"
        for o in fact.overrides
        if o.holds
    ]
    count, lo, hi, rec = fact.count, fact.min, fact.max, fact.recommended
    parts = [f"count {count}"]
    for name, bound in (("min", lo), ("max", hi), ("recommended", rec)):
        if bound is not None:
            parts.append(f"{name} {value_text(bound)}")
    verdicts = []
    if fact.below_min:
        verdicts.append("below min (warning)")
    if fact.above_max:
        verdicts.append("above max: blocks the role")
    if fact.below_recommended:
        verdicts.append("below recommended (advice)")
    verdict = "; ".join(verdicts) if verdicts else "within limits"
    detail = " / ".join(parts) + " → " + verdict
    if applied:
        detail += " [" + "; ".join(applied) + "]"
    return TraceEntry(
        "limits",
        not fact.above_max,
        list(fact.messages),
        None,
        [],
        fact.path,
        reads=list(fact.reads),
        detail=detail,
        facts={
            "count": count,
            "min": lo,
            "max": hi,
            "recommended": rec,
            "overrides": applied,
            "bounds": dict(fact.written),
        },
    )


def _conflicts_entry(fact: Any, warning: str) -> TraceEntry:
    names = ", ".join(fact.names)
    return TraceEntry(
        "conflicts",
        False,
        [warning],
        None,
        [],
        fact.path,
        detail=f"selected role{'s' if len(fact.names) > 1 else ''} {names} → blocks the role",
        facts={
            "conflicts": list(fact.names),
            "declared": list(fact.declared),
            "declared_by": dict(zip(fact.names, fact.declared_by)),
            "declared_at": dict(zip(fact.names, fact.declared_at)),
        },
    )


def role_trace(decision: Any) -> TraceEntry:
    """The trace of one role check, drawn from its recorded
    :class:`~toskit.conditions.decision.RoleDecision`: Fuel entries
    (restrictions, then limits), a ``conflicts`` entry when selected roles
    conflict, then the role's rules. The root's value is the recorded
    verdict (``allowed``); nothing is evaluated here."""
    from toskit.conditions.decision import CONFLICT_WARNING

    rules = decision.rules_trace
    if rules is None:
        raise ValueError("role_trace needs a recorded decision (decide(..., record=True))")
    fuel: list[TraceEntry] = [_restriction_entry(r) for r in decision.restrictions]
    if decision.limits is not None:
        fuel.append(_limits_entry(decision.limits))
    after: list[TraceEntry] = []
    if decision.conflicts is not None:
        # The order of the outcome's warnings: a Fuel role says the conflict
        # before its rules, a seed role after them (decision.py).
        entry = _conflicts_entry(decision.conflicts, CONFLICT_WARNING)
        (fuel if decision.fuel_order else after).append(entry)
    if fuel or after:
        children = fuel + rules.children + after
        blocking = list(dict.fromkeys(c.form for c in fuel + after if not c.value))
        if not decision.rules_value:
            blocking.append("rules")
        if blocking:
            detail = f"blocked by {', '.join(blocking)} → FALSE"
        else:
            detail = "no restriction, limit or rule blocks the role → TRUE"
        root = TraceEntry(
            "rules",
            decision.allowed,
            list(decision.warnings),
            None,
            children,
            rules.path,
            detail=detail,
        )
    else:
        root = rules
    mark_decisive(root)
    return root


# --------------------------------------------------------------------------- deciding entries


def _deciding_children(entry: TraceEntry) -> list[TraceEntry]:
    """The children whose value decided ``entry``'s value."""
    kids = entry.children
    if not kids:
        return []
    if entry.form in ("all", "any", "rules"):
        if entry.form == "rules":
            return [c for c in kids if not c.value or c.form == "recommended" and c.warnings]
        return [kids[-1]]
    return [kids[0]]


def _decides_root(child: TraceEntry) -> bool:
    """A root child that explains the outcome: it is false, raised advice,
    or is an active ``hide`` restriction."""
    if not child.value or child.warnings:
        return True
    return child.form == "restriction" and bool(child.facts.get("active"))


def mark_decisive(root: TraceEntry) -> None:
    """Mark the entries that decided a false value (down to the leaf) and
    every recommendation that raised advice (``decisive = True``)."""
    explain = not root.value or root.warnings or any(_decides_root(c) for c in root.children)
    stack: list[TraceEntry] = [root] if explain else []
    while stack:
        entry = stack.pop()
        entry.decisive = True
        if entry.form == "exists":
            continue  # the matched item (or the absence of one) is the fact
        if entry.form == "rules":
            stack.extend(c for c in entry.children if _decides_root(c))
            continue
        stack.extend(_deciding_children(entry))


def _leaves(entry: TraceEntry) -> list[TraceEntry]:
    """The deepest decisive entries under ``entry`` (itself if none)."""
    out: list[TraceEntry] = []
    stack = [entry]
    while stack:
        current = stack.pop()
        deeper = [c for c in current.children if c.decisive]
        if deeper:
            stack.extend(reversed(deeper))
        else:
            out.append(current)
    return out


def _exists_under(entry: TraceEntry) -> TraceEntry | None:
    """The first decisive ``exists`` on the way down from ``entry``."""
    stack = [entry]
    while stack:
        current = stack.pop()
        if current.form == "exists":
            return current
        stack.extend(reversed([c for c in current.children if c.decisive]))
    return None


def _fact(entry: TraceEntry) -> str:
    """What one deciding entry says, in words."""
    found = _exists_under(entry)
    if found is not None:
        words = found.facts.get("words")
        if isinstance(words, str):  # recorded in the user's words (conditions.words)
            return words
        if found.item is not None:
            return (
                f"{describe_node(found.item)} is an item of {found.source} that meets its condition"
            )
        return f"no item of {found.source} meets its condition ({found.detail})"
    leaf = _leaves(entry)[0]
    if leaf.form in ("expression", "condition") and leaf.source is not None:
        read = ", ".join(f"{t} = {describe_value(v)}" for t, v in leaf.reads if t != leaf.source)
        value = leaf.guard if leaf.form == "condition" and leaf.guard is not None else leaf.value
        text = f"{leaf.source} is {'true' if value else 'false'}"
        return f"{text} ({read})" if read else text
    if leaf.form == "literal":
        return "the condition is the literal false"
    return leaf.detail or f"{leaf.form} is false"


def _restriction_words(fact: Any) -> str:
    """A restriction that holds, in the user's words (recorded with the
    fact: :attr:`~toskit.conditions.decision.RestrictionFact.words`); a
    boolean restriction, or one recorded without words, is named by its
    place."""
    if fact.words:
        return fact.words
    if fact.text is None:
        return f"restriction {fact.index + 1} is {fact.source}"
    return f"`{fact.text}` holds"


def _rule_cause(index: int, entry: TraceEntry) -> str:
    if entry.warnings:
        return "; ".join(dict.fromkeys(entry.warnings))
    label = f"rule {index}"
    if entry.form == "condition" and entry.source is not None:
        label += f" ({entry.source})"
    return f"{label}: {_fact(entry)}"


class Reason(NamedTuple):
    """A reason in parts: ``head`` (``blocked``, ``allowed with advice``,
    ``hidden, blocked``, ``false``, …), the ``causes`` in trace order, and
    ``quotes``: the outcome's warnings that the causes quote word for word
    (a view that lists the warnings under the reason skips those)."""

    head: str
    causes: tuple[str, ...]
    quotes: tuple[str, ...]

    @property
    def text(self) -> str:
        """The one sentence: ``head: cause; cause``."""
        return f"{self.head}: " + "; ".join(self.causes)


def reason(outcome: Any) -> str:
    """One sentence: why a role is blocked, hidden or carries advice; empty
    for a role that is plainly allowed (no warning). For one condition
    (``evaluate``'s ``Outcome``) the sentence starts ``false:`` or
    ``true with advice:``."""
    found = reason_parts(outcome)
    return "" if found is None else found.text


def reason_parts(outcome: Any) -> Reason | None:
    """The :class:`Reason` of an outcome (``None`` for a plainly allowed
    one), from the facts its check recorded (a role outcome's
    ``decision``; an ``Outcome``'s trace)."""
    allowed = bool(getattr(outcome, "allowed", getattr(outcome, "value", False)))
    warnings = list(getattr(outcome, "warnings", []) or [])
    hidden = bool(getattr(outcome, "hidden", False))
    if allowed and not warnings and not hidden:
        return None
    decision = getattr(outcome, "recorded_decision", None)
    causes: list[str] = []
    quotes: list[str] = []
    if decision is not None:
        _role_causes(decision, allowed, causes, quotes)
    else:  # ``evaluate``'s Outcome, or an outcome built by hand: its trace
        trace = getattr(outcome, "trace", None)
        children = list(trace.children) if trace is not None else []
        _rule_causes(children, allowed, causes, quotes)
        conflicts = list(getattr(outcome, "conflicts", []) or [])
        if conflicts:
            many = "s" if len(conflicts) > 1 else ""
            causes.append(f"conflicts with the selected role{many} " + ", ".join(conflicts))
        if hidden:
            causes.append("hidden")
    if not causes:
        causes = list(dict.fromkeys(warnings)) or ["no reason recorded"]
        quotes.extend(causes if warnings else ())
    if hasattr(outcome, "allowed"):
        head = "blocked" if not allowed else ("allowed with advice" if warnings else "allowed")
    else:  # one condition (``evaluate``): true or false, not a role's verdict
        head = "false" if not allowed else "true with advice"
    if hidden:
        head = "hidden, " + head
    return Reason(head, tuple(causes), tuple(dict.fromkeys(quotes)))


def _rule_causes(
    children: list[TraceEntry], allowed: bool, causes: list[str], quotes: list[str]
) -> None:
    """The causes of the top-level rules: blocked, the rules that are false;
    allowed, the rules that gave advice."""
    for number, child in enumerate(children, 1):
        if child.value if not allowed else not child.warnings:
            continue
        causes.append(_rule_cause(number, child))
        if child.warnings:
            quotes.extend(child.warnings)


def _role_causes(decision: Any, allowed: bool, causes: list[str], quotes: list[str]) -> None:
    """The causes of a role check, in trace order: restrictions, limits,
    rules, conflicts, then what hides the role."""
    # Blocked: the facts that block. Allowed: the facts that gave advice.
    for fact in decision.restrictions:
        if fact.blocks if not allowed else (fact.active and fact.message):
            # The release's own message says it best; the recorded words stand in.
            causes.append(fact.message or _restriction_words(fact))
            if fact.message and fact.active:
                quotes.append(fact.message)
    limits = decision.limits
    if limits is not None and (limits.above_max if not allowed else limits.messages):
        causes.append("; ".join(limits.messages) or _limits_entry(limits).detail)
        quotes.extend(limits.messages)
    rules = decision.rules_trace
    _rule_causes(list(rules.children) if rules is not None else [], allowed, causes, quotes)
    conflicts = decision.conflicts
    if conflicts is not None:
        many = "s" if len(conflicts.names) > 1 else ""
        causes.append(f"conflicts with the selected role{many} " + ", ".join(conflicts.names))
    if decision.hidden:
        hiding = [f for f in decision.restrictions if f.hides]
        # A hiding restriction already quoted (its message was a warning) is not repeated.
        quoted = {f.index for f in hiding if f.message and allowed}
        unquoted = [f for f in hiding if f.index not in quoted]
        if unquoted or not hiding:
            causes.append(
                "hidden because " + "; ".join(_restriction_words(f) for f in unquoted)
                if unquoted
                else "hidden"
            )
