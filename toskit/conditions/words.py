"""Conditions in the user's words: what an ``exists`` found and what a
restriction tests, said the way the release says it.

A reason such as "node 1 matches the exists over cluster:nodes" or
"hidden by restriction settings:common.use_vcenter.value == true" makes
a person read the condition language. The phrases here say the same
facts in words, from the expression's syntax tree (never from its text):

* the tests of an ``exists`` on its placeholder: ``<node>._hasRole('x')``
  is "has role x", ``<node>._hasDeployedRole('x')`` "has role x
  deployed", ``<node>._pending_deletion`` "is being deleted",
  ``<node>._pending_addition`` "is being added", ``<node>.id in
  selectedNodes._pluck('id')`` "is selected", ``<node>.status ==
  'ready'`` "has status 'ready'"; ``not``, ``and`` and ``or`` combine
  them (a negated ``and`` becomes an ``or`` of negations);
* a setting: ``settings:common.use_vcenter.value`` is the setting's own
  ``label`` from the settings model (“Use vCenter”; its key when the
  model has no label), ``== true`` is "is on", ``== false`` "is off",
  and a choice's value is named by the choice's label (“KVM”);
* ``'experimental' in version:feature_groups`` is "feature group
  'experimental' is enabled";
* the list of an ``exists``: ``cluster:nodes`` is "node of the
  cluster", ``selectedNodes`` "selected node", anything else "item of
  <the list as written>".

Choices toskit made: a shape not listed here has no phrase (``None``);
the caller then shows the expression itself, named as an expression
("the restriction `…`"), never half a sentence. Role names stay the
names the document uses (the roles' keys), as the simulator lists them.

The phrases are recorded with the facts (``TraceEntry.facts["words"]``
of an ``exists``; :attr:`RestrictionFact.words
<toskit.conditions.decision.RestrictionFact.words>`), so a view shows
them as they are and parses nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toskit.conditions.settings import feature_group_test, settings_chain
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
    children,
)
from toskit.conditions.values import value_text

__all__ = [
    "condition_words",
    "exists_words",
    "expression_words",
    "form_words",
    "labelled",
    "list_noun",
    "setting_label",
]

# A phrase is built from a syntax tree at most this deep (a deeper tree,
# which no release writes, gets no phrase instead of a long recursion).
MAX_DEPTH = 32

# An order test negated is said as such, never turned round: ``not (a <
# 3)`` is not ``a >= 3`` for values that do not compare (a string, null).
_ORDER_WORDS = {
    "<": "is less than",
    "<=": "is at most",
    ">": "is more than",
    ">=": "is at least",
    "not <": "is not less than",
    "not <=": "is not at most",
    "not >": "is not more than",
    "not >=": "is not at least",
}
_MEMBER_WORDS = {
    "_pending_deletion": ("is being deleted", "is not being deleted"),
    "_pending_addition": ("is being added", "is not being added"),
}


def _shown(value: Any) -> str:
    """A literal as a reader sees it: strings quoted, the rest as written."""
    return f"'{value}'" if isinstance(value, str) else value_text(value)


def _join(parts: list[str], op: str) -> str:
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + f" {op} " + parts[-1]


def _owner(settings: Any, keys: list[str]) -> Mapping | None:
    """The setting's record (``{value, label, values…}``) in the model."""
    if len(keys) < 3 or keys[-1] != "value":
        return None
    current = settings
    for key in keys[:-1]:
        if not isinstance(current, Mapping):
            return None
        current = current.get(key)
    return current if isinstance(current, Mapping) else None


def setting_label(settings: Any, keys: list[str]) -> str:
    """The setting's own label (“Use vCenter”) from the settings model, or
    its key (``common.use_vcenter``) when the model gives none."""
    owner = _owner(settings, keys)
    label = owner.get("label") if owner is not None else None
    if isinstance(label, str) and label.strip():
        return f"“{label.strip()}”"
    shown = keys[:-1] if keys[-1] == "value" and len(keys) > 1 else keys
    return ".".join(shown)


def _setting_value(settings: Any, keys: list[str], value: Any) -> str:
    """A value of a setting in words: on/off for booleans, a choice's label."""
    if value is True:
        return "on"
    if value is False:
        return "off"
    owner = _owner(settings, keys)
    choices = owner.get("values") if owner is not None else None
    if isinstance(choices, list):
        for choice in choices:
            if isinstance(choice, Mapping) and choice.get("data") == value:
                label = choice.get("label")
                if isinstance(label, str) and label.strip():
                    return f"“{label.strip()}”"
    return _shown(value)


def _on_placeholder(node: Node, variable: str | None) -> Member | None:
    """``node`` when it is ``<variable>.name`` (one member on the placeholder)."""
    if (
        isinstance(node, Member)
        and isinstance(node.obj, Placeholder)
        and (variable is None or node.obj.name == variable)
    ):
        return node
    return None


def _is_selected_ids(node: Node) -> bool:
    """``selectedNodes._pluck('id')``."""
    return (
        isinstance(node, Member)
        and node.name == "_pluck"
        and isinstance(node.obj, Variable)
        and node.obj.name == "selectedNodes"
        and node.args is not None
        and len(node.args) == 1
        and isinstance(node.args[0], Literal)
        and node.args[0].value == "id"
    )


def _member_words(member: Member, negate: bool) -> str | None:
    name, args = member.name, member.args
    if name in _MEMBER_WORDS and args is None:
        return _MEMBER_WORDS[name][negate]
    if (
        name in ("_hasRole", "_hasDeployedRole")
        and args is not None
        and len(args) == 1
        and isinstance(args[0], Literal)
        and isinstance(args[0].value, str)
    ):
        role = args[0].value
        deployed = " deployed" if name == "_hasDeployedRole" else ""
        return f"does not have role {role}{deployed}" if negate else f"has role {role}{deployed}"
    return None


def _compare_words(node: Compare, variable: str | None, settings: Any, negate: bool) -> str | None:
    op = node.op
    if negate:
        op = {"==": "!=", "!=": "==", "in": "not in", "not in": "in"}.get(op, f"not {op}")
    left, right = node.left, node.right
    member = _on_placeholder(left, variable)
    if member is not None and member.args is None and not member.name.startswith("_"):
        if member.name == "id" and op in ("in", "not in") and _is_selected_ids(right):
            return "is selected" if op == "in" else "is not selected"
        if isinstance(right, Literal) and op in ("==", "!="):
            shown = _shown(right.value)
            have = "has" if op == "==" else "does not have"
            return f"{have} {member.name} {shown}"
        if isinstance(right, Literal) and op in _ORDER_WORDS:
            return f"has {member.name} {_ORDER_WORDS[op].removeprefix('is ')} {_shown(right.value)}"
        return None
    group = feature_group_test(node)
    if group is not None:
        name, enabled = group
        state = "enabled" if enabled != negate else "not enabled"
        return f"feature group {_shown(name)} is {state}"
    keys = settings_chain(left)
    if keys is not None and isinstance(right, Literal):
        label = setting_label(settings, keys)
        if op in ("==", "!="):
            value = right.value
            if isinstance(value, bool) and op == "!=":
                op, value = "==", not value
            said = _setting_value(settings, keys, value)
            return f"{label} is {said}" if op == "==" else f"{label} is not {said}"
        if op in _ORDER_WORDS:
            return f"{label} {_ORDER_WORDS[op]} {_shown(right.value)}"
    return None


def expression_words(
    node: Node, variable: str | None = None, settings: Any = None, negate: bool = False
) -> str | None:
    """One boolean test in words (see the module doc), or ``None`` when its
    shape has no phrase. ``variable``: the placeholder an ``exists`` binds
    (``node`` for ``<node>``); ``settings``: the settings model, for labels."""
    return _words(node, variable, settings, negate, 0)


def _words(node: Node, variable: str | None, settings: Any, negate: bool, depth: int) -> str | None:
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, Not):
        return _words(node.operand, variable, settings, not negate, depth + 1)
    if isinstance(node, BoolOp):
        op = node.op if not negate else ("or" if node.op == "and" else "and")
        parts = []
        for operand in node.operands:
            said = _words(operand, variable, settings, negate, depth + 1)
            if said is None:
                return None
            parts.append(said)
        return _join(parts, op)
    if isinstance(node, Compare):
        return _compare_words(node, variable, settings, negate)
    member = _on_placeholder(node, variable)
    if member is not None:
        return _member_words(member, negate)
    keys = settings_chain(node)
    if keys is not None:
        return f"{setting_label(settings, keys)} is {'off' if negate else 'on'}"
    return None


def form_words(form: Any, variable: str | None = None, settings: Any = None) -> str | None:
    """A compiled condition (:mod:`toskit.conditions.forms`) in words: its
    expressions, ``all``, ``any`` and ``not`` combined; ``None`` when any
    part has no phrase (a guard with ``then``, advice, a nested ``exists``)."""
    return _form_words(form, variable, settings, False, 0)


def _form_words(
    form: Any, variable: str | None, settings: Any, negate: bool, depth: int
) -> str | None:
    if depth > MAX_DEPTH:
        return None
    kind = getattr(form, "form", None)
    if kind == "expression":
        return _words(form.expr.node, variable, settings, negate, depth + 1)
    if kind == "not":
        return _form_words(form.operand, variable, settings, not negate, depth + 1)
    if kind in ("all", "any"):
        parts = []
        for item in form.items:
            said = _form_words(item, variable, settings, negate, depth + 1)
            if said is None:
                return None
            parts.append(said)
        if not parts:
            return None
        op = "and" if (kind == "all") != negate else "or"
        return _join(parts, op)
    if kind == "condition" and form.then is None and form.guard_expr is not None:
        guard = form.guard_expr
        if isinstance(guard, bool):
            return None
        return _words(guard.node, variable, settings, negate, depth + 1)
    return None


def list_noun(where: Node) -> tuple[str, str]:
    """``(noun, place)`` of an ``exists`` list: ``("node", "of the
    cluster")`` for ``cluster:nodes``, ``("selected node", "")`` for
    ``selectedNodes``; ``("item", "of <text>")`` is the caller's fallback
    (``("", "")`` here)."""
    if isinstance(where, ModelRef) and where.model == "cluster" and where.key == "nodes":
        return "node", "of the cluster"
    if isinstance(where, Variable) and where.name == "selectedNodes":
        return "selected node", ""
    return "", ""


def exists_words(
    where: Node,
    where_text: str,
    tests: str | None,
    item_text: str | None,
) -> str:
    """The sentence for an ``exists``: with a match, ``node 1 (roles:
    controller) is a node of the cluster that has role controller and is
    not being deleted``; without one, ``no node of the cluster has role
    controller``. ``tests``: :func:`form_words` of its condition (``None``:
    the condition is named as written: ``for which its condition holds``)."""
    noun, place = list_noun(where)
    if not noun:
        noun, place = "item", f"of {where_text}"
    whom = f"{noun} {place}".strip()
    if item_text is not None:
        if tests is None:
            return f"{item_text} is a {whom} for which its condition holds"
        return f"{item_text} is a {whom} that {tests}"
    if tests is None:
        return f"no {whom} meets its condition"
    return f"no {whom} {tests}"


def _chains(node: Node, depth: int = 0) -> list[tuple[Node, list[str]]]:
    """Every ``settings:`` chain in ``node``, outermost first, in text order."""
    keys = settings_chain(node)
    if keys is not None:
        return [(node, keys)]
    if depth > MAX_DEPTH:
        return []
    out: list[tuple[Node, list[str]]] = []
    for child in children(node):
        out.extend(_chains(child, depth + 1))
    return out


def labelled(text: str, node: Node, settings: Any) -> str:
    """The expression as written, each setting the model labels followed
    by its label: ``settings:common.use_vcenter.value (“Use vCenter”) ==
    true`` (what a reason shows when the test has no phrase)."""
    out, last = [], 0
    for chain, keys in sorted(_chains(node), key=lambda found: found[0].start):
        label = setting_label(settings, keys)
        if not label.startswith("“"):
            continue  # no label in the model: the key says it already
        out.append(text[last : chain.end])
        out.append(f" ({label})")
        last = chain.end
    out.append(text[last:])
    return "".join(out)


def condition_words(expression: Any, settings: Any = None) -> str | None:
    """A restriction's (or any condition's) expression in words: its
    phrase, else the expression as written with its settings labelled
    (:func:`labelled`) and quoted; ``None`` for a boolean condition."""
    node = getattr(expression, "node", None)
    text = getattr(expression, "text", None)
    if node is None or not isinstance(text, str):
        return None
    said = expression_words(node, None, settings)
    if said is not None:
        return said
    return f"`{labelled(text, node, settings)}` holds"
