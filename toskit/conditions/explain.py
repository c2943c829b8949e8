"""Explanations: the values an expression read, the trace of a whole role
check (Fuel restrictions and limits included), and the one-sentence reason
of an outcome.

The evaluator (:mod:`toskit.conditions.forms`) computes values; this module
only *describes* them, and runs only when someone reads a trace or a reason
(traces are lazy), so the hot path of a role check never pays for it.

* :func:`reads` lists the *references* an expression reads (``model:path``
  chains, placeholders and ``selectedNodes`` with their members, such as
  ``selectedNodes._length`` or ``<node>._hasRole('controller')``) with the
  value each had, so a trace shows ``settings:storage.volumes_ceph.value =
  false`` next to the expression that read it.
* :func:`role_trace` is the trace of ``RoleSet.check``: for a role with Fuel
  metadata, one ``restriction`` entry per restriction and one ``limits``
  entry before the rules; the root's value is the role's own verdict
  (conflicts aside, which the outcome lists).
* :func:`mark_decisive` marks the entries that decided a false value or
  raised advice; :func:`reason` turns them into one sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toskit.conditions.expression import Env, Expression, compile_node
from toskit.conditions.results import TraceEntry
from toskit.conditions.syntax import (
    BoolOp,
    Compare,
    Literal,
    Member,
    ModelRef,
    Node,
    Not,
    Placeholder,
    Variable,
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
        elif isinstance(current, Member):
            stack.extend(reversed(current.args or ()))
            stack.append(current.obj)
        elif isinstance(current, Not):
            stack.append(current.operand)
        elif isinstance(current, BoolOp):
            stack.extend(reversed(current.operands))
        elif isinstance(current, Compare):
            stack.extend((current.right, current.left))
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


def _restriction_entry(restriction: Any, env: Env) -> TraceEntry:
    condition = restriction.condition
    active = restriction.active(env)
    action = restriction.action
    blocks = active and action == "disable"
    message = restriction.message
    source = condition.text if isinstance(condition, Expression) else value_text(condition)
    if active:
        effect = {"disable": "blocks the role", "hide": "hides the role", "none": "message only"}
        detail = f"condition {_tf(True)} → active ({action}): {effect.get(action, action)}"
    else:
        detail = f"condition {_tf(False)} → inactive"
    return TraceEntry(
        "restriction",
        not blocks,
        [message] if active and message else [],
        source,
        [],
        restriction.path,
        reads=reads(condition, env),
        detail=detail,
        facts={"action": action, "message": message, "active": active},
    )


def _limits_entry(role: Any, env: Env, outcome_limits: Any) -> TraceEntry:
    limits = role.limits
    facts: dict[str, Any] = {}
    read: list[tuple[str, Any]] = []
    for kind, bound in limits.bounds.items():
        expression = getattr(bound, "expression", None)
        read.extend(reads(expression, env))
        facts[kind] = expression.text if expression is not None else bound.value
    applied = []
    for i, override in enumerate(limits.overrides):
        cond = override.condition
        read.extend(reads(cond, env))
        holds = cond if isinstance(cond, bool) else bool(cond.function()(env))
        if holds:
            kinds = ", ".join(override.bounds)
            text = cond.text if isinstance(cond, Expression) else value_text(cond)
            applied.append(f"override {i + 1} ({text}) sets {kinds}")
    count = outcome_limits.count
    lo, hi, rec = outcome_limits.min, outcome_limits.max, outcome_limits.recommended
    parts = [f"count {count}"]
    for name, bound in (("min", lo), ("max", hi), ("recommended", rec)):
        if bound is not None:
            parts.append(f"{name} {value_text(bound)}")
    verdicts = []
    if lo is not None and count < lo:
        verdicts.append("below min (warning)")
    exceeded = hi is not None and count > hi
    if exceeded:
        verdicts.append("above max: blocks the role")
    if rec is not None and count < rec:
        verdicts.append("below recommended (advice)")
    detail = " / ".join(parts) + (" → " + "; ".join(verdicts) if verdicts else " → within limits")
    if applied:
        detail += " [" + "; ".join(applied) + "]"
    messages = _limit_messages(role, env, count)
    return TraceEntry(
        "limits",
        not exceeded,
        messages,
        None,
        [],
        limits.path,
        reads=list(dict.fromkeys(read)) if _hashable(read) else read,
        detail=detail,
        facts={
            "count": count,
            "min": lo,
            "max": hi,
            "recommended": rec,
            "overrides": applied,
            "bounds": facts,
        },
    )


def _hashable(items: list[tuple[str, Any]]) -> bool:
    try:
        hash(tuple(items))
    except TypeError:
        return False
    return True


def _limit_messages(role: Any, env: Env, count: int) -> list[str]:
    _outcome, messages, _exceeded = role.limits.evaluate(env, count, role.label)
    return messages


def _conflicts_entry(role: Any, conflicts: list[str]) -> TraceEntry:
    names = ", ".join(conflicts)
    return TraceEntry(
        "conflicts",
        False,
        [CONFLICT_TEXT],
        None,
        [],
        f"{role.name}.conflicts",
        detail=f"selected role{'s' if len(conflicts) > 1 else ''} {names} → blocks the role",
        facts={"conflicts": list(conflicts), "declared": list(role.conflicts)},
    )


CONFLICT_TEXT = "This role cannot be combined with the selected roles."


def role_trace(
    role: Any, env: Env, limits_outcome: Any = None, conflicts: list[str] | None = None
) -> TraceEntry:
    """The trace of one role check: Fuel entries (restrictions, then limits),
    a ``conflicts`` entry when selected roles conflict, then the role's
    rules. The root's value is the role's verdict (``allowed``)."""
    rules = role.rules.trace(env)
    fuel: list[TraceEntry] = [_restriction_entry(r, env) for r in role.restrictions]
    if role.limits is not None and limits_outcome is not None:
        fuel.append(_limits_entry(role, env, limits_outcome))
    after: list[TraceEntry] = []
    if conflicts:
        # The order of the outcome's warnings: a Fuel role says the conflict
        # before its rules, a seed role after them (roles.py).
        (fuel if fuel else after).append(_conflicts_entry(role, conflicts))
    if fuel or after:
        children = fuel + rules.children + after
        value = all(c.value for c in children)
        warnings = [w for c in children for w in c.warnings]
        blocking = list(dict.fromkeys(c.form for c in fuel + after if not c.value))
        if not rules.value:
            blocking.append("rules")
        if blocking:
            detail = f"blocked by {', '.join(blocking)} → FALSE"
        else:
            detail = "no restriction, limit or rule blocks the role → TRUE"
        root = TraceEntry("rules", value, warnings, None, children, rules.path, detail=detail)
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
        if found.item is not None:
            return f"{describe_node(found.item)} matches the exists over {found.source}"
        return f"no item of {found.source} matches ({found.detail})"
    leaf = _leaves(entry)[0]
    if leaf.form in ("expression", "condition") and leaf.source is not None:
        read = ", ".join(f"{t} = {describe_value(v)}" for t, v in leaf.reads if t != leaf.source)
        value = leaf.guard if leaf.form == "condition" and leaf.guard is not None else leaf.value
        text = f"{leaf.source} is {'true' if value else 'false'}"
        return f"{text} ({read})" if read else text
    if leaf.form == "literal":
        return "the condition is the literal false"
    return leaf.detail or f"{leaf.form} is false"


def _rule_cause(index: int, entry: TraceEntry) -> str:
    if entry.warnings:
        return "; ".join(dict.fromkeys(entry.warnings))
    label = f"rule {index}"
    if entry.form == "condition" and entry.source is not None:
        label += f" ({entry.source})"
    return f"{label}: {_fact(entry)}"


def reason(outcome: Any) -> str:
    """One sentence: why a role is blocked, hidden or carries advice; empty
    for a role that is plainly allowed (no warning). For one condition
    (``evaluate``'s ``Outcome``) the sentence starts ``false:`` or
    ``true with advice:``."""
    allowed = bool(getattr(outcome, "allowed", getattr(outcome, "value", False)))
    warnings = list(getattr(outcome, "warnings", []) or [])
    conflicts = list(getattr(outcome, "conflicts", []) or [])
    hidden = bool(getattr(outcome, "hidden", False))
    if allowed and not warnings and not hidden:
        return ""
    trace = getattr(outcome, "trace", None)
    causes: list[str] = []
    rule_number = 0
    children: list[TraceEntry] = list(trace.children) if trace is not None else []
    for child in children:
        if child.form not in ("restriction", "limits", "conflicts"):
            rule_number += 1
        if child.form == "conflicts":
            continue  # said once, below, with the names
        # Blocked: the entries that block. Allowed: the entries with advice.
        if (child.value if not allowed else not child.warnings):
            continue
        if child.form == "restriction":
            # The release's own message says it best; the expression (in the
            # trace) stands in when there is none.
            message = child.facts.get("message")
            causes.append(message or f"restriction {child.source} is active ({child.facts.get('action')})")
        elif child.form == "limits":
            causes.append("; ".join(child.warnings) or child.detail)
        else:
            causes.append(_rule_cause(rule_number, child))
    if conflicts:
        causes.append(f"conflicts with the selected role{'s' if len(conflicts) > 1 else ''} "
                      + ", ".join(conflicts))
    if hidden:
        hiding = [
            c.source
            for c in children
            if c.form == "restriction" and c.facts.get("active") and c.facts.get("action") == "hide"
        ]
        # A hiding restriction already quoted (its message was a warning) is not repeated.
        quoted = {
            c.source
            for c in children
            if c.form == "restriction" and c.facts.get("active") and c.warnings and allowed
        }
        unquoted = [h for h in hiding if h not in quoted]
        if unquoted or not hiding:
            causes.append(
                "hidden by restriction " + ", ".join(map(str, unquoted)) if unquoted else "hidden"
            )
    if not causes:
        causes = list(dict.fromkeys(warnings)) or ["no reason recorded"]
    if hasattr(outcome, "allowed"):
        head = "blocked" if not allowed else ("allowed with advice" if warnings else "allowed")
    else:  # one condition (``evaluate``): true or false, not a role's verdict
        head = "false" if not allowed else "true with advice"
    if hidden:
        head = "hidden, " + head
    return f"{head}: " + "; ".join(causes)
