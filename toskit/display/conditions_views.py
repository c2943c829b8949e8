"""Views of role-condition results: roles documents, outcomes with their
evaluation trace, and simulated clusters (duck-typed over
``toskit.conditions``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toskit.display.html import (
    badge,
    chip,
    code,
    details,
    esc,
    fallback_repr,
    fragment,
    header,
    more_note,
    table,
    text_value,
)
from toskit.display.options import get as option
from toskit.display.words import count

__all__ = [
    "cluster_body",
    "cluster_html",
    "outcome_badge",
    "outcome_body",
    "outcome_html",
    "outcomes_table",
    "role_html",
    "role_set_html",
    "trace_html",
]


def outcome_badge(allowed: bool, warnings: Sequence[str] = ()) -> str:
    """``allowed`` / ``allowed, advice`` / ``blocked``."""
    if not allowed:
        return badge("blocked", "blocked")
    if warnings:
        return badge("allowed", "allowed") + " " + badge("advice", "advice", small=True)
    return badge("allowed", "allowed")


def _warnings_list(warnings: Sequence[Any]) -> str:
    if not warnings:
        return ""
    items = "".join(f"<li>{esc(w)}</li>" for w in warnings)
    return f'<ul class="toskit-warnings">{items}</ul>'


# ---------------------------------------------------------------- trace


def _truth_words(text: str) -> str:
    """Escape ``text`` and colour its TRUE / FALSE words."""
    out = esc(text)
    out = out.replace("TRUE", '<span class="toskit-t">TRUE</span>')
    return out.replace("FALSE", '<span class="toskit-f">FALSE</span>')


def _reads_html(entry: Any) -> str:
    from toskit.conditions.explain import describe_value

    source = getattr(entry, "source", None)
    shown = [(t, v) for t, v in (getattr(entry, "reads", None) or []) if t != source]
    if not shown:
        return ""
    items = "".join(
        f'<span class="toskit-read">{expr_code(f"{t} = {describe_value(v)}")}</span>'
        for t, v in shown
    )
    return f'<span class="toskit-reads">{items}</span>'


# A long token of an expression (a dotted path such as
# settings:additional_components.ceilometer.value) gets a line-break
# opportunity (<wbr>) after each '.', ':' and ',' and before each '(' or
# '[': a narrow column wraps the path between its names, never inside one
# (the stylesheet turns breaking anywhere off for traces). Short tokens are
# left as they are.
_LONG_TOKEN = 24
_BREAK = re.compile(r"(?<=[.:,])(?=[^\s.:,])|(?<=\w)(?=[(\[])")


def breakable(text: Any) -> str:
    """``text`` escaped, its long tokens breakable between their names
    (``<wbr>`` after ``.``, ``:`` and ``,``, before ``(`` and ``[``)."""
    out = []
    for token in re.split(r"(\s+)", str(text)):
        if len(token) > _LONG_TOKEN and not token.isspace():
            out.append("<wbr>".join(esc(part) for part in _BREAK.split(token)))
        else:
            out.append(esc(token))
    return "".join(out)


def expr_code(text: Any) -> str:
    """Inline code for an expression or a reference in a trace (see :func:`breakable`)."""
    return f'<span class="toskit-code">{breakable(text)}</span>'


# The entries of a role's trace root that are not its rules.
_NOT_RULES = frozenset({"restriction", "limits", "conflicts"})


def _trace_label(entry: Any, number: int | None = None) -> str:
    value = bool(getattr(entry, "value", False))
    form = str(getattr(entry, "form", "") or "")
    source = getattr(entry, "source", None)
    detail = getattr(entry, "detail", "") or ""
    parts = []
    if getattr(entry, "decisive", False):
        parts.append(
            '<span class="toskit-decisive" title="this entry decided the outcome">▶</span>'
        )
    if number is not None:
        # Every rule of the role numbered, as the reason names them ("rule 2").
        parts.append(f'<span class="toskit-rule-number">rule {number}</span>')
    if not detail:
        parts.append(badge("true" if value else "false", "true" if value else "false", small=True))
    parts.append(f'<span class="toskit-trace-form">{esc(form)}</span>')
    if source is not None:
        parts.append(expr_code(source))
    if detail:
        parts.append(f'<span class="toskit-trace-detail">{_truth_words(detail)}</span>')
    parts.append(_reads_html(entry))
    # Each warning is shown where it is raised: a warning that a child
    # already carries (and this entry merely passes up) is not repeated.
    passed_up = {
        w
        for child in getattr(entry, "children", []) or []
        for w in getattr(child, "warnings", []) or []
    }
    for w in getattr(entry, "warnings", []) or []:
        if w not in passed_up:
            parts.append(f'<span class="toskit-trace-warning">{esc(w)}</span>')
    path = getattr(entry, "path", None)
    cls = "toskit-trace-label" + (
        " toskit-trace-decisive" if getattr(entry, "decisive", False) else ""
    )
    title = f' title="{esc(path)}"' if path else ""
    # Where the condition sits in its document, on hover.
    return f'<span class="{cls}"{title}>{"".join(parts)}</span>'


def _trace_items(
    entries: Sequence[Any],
    depth: int,
    budget: list[int],
    key: str | None,
    open_keys: frozenset[str],
    rules: bool = False,
) -> str:
    """``rules``: the entries are the children of a ``rules`` root, whose
    rules are numbered (restrictions, limits and conflicts are not rules)."""
    items: list[str] = []
    number = 0
    for index, entry in enumerate(entries):
        if budget[0] <= 0:
            items.append(f"<li>{more_note(len(entries) - index, 'more entries')}</li>")
            break
        budget[0] -= 1
        is_rule = rules and str(getattr(entry, "form", "")) not in _NOT_RULES
        number += is_rule
        label = _trace_label(entry, number if is_rule else None)
        children = list(getattr(entry, "children", []) or [])
        here = None if key is None else f"{key}/{index}"
        if not children:
            items.append(f'<li><div class="toskit-leaf">{label}</div></li>')
        elif depth + 1 >= option("display_max_depth"):
            items.append(
                f'<li><div class="toskit-leaf">{label}</div>'
                f"{more_note(len(children), 'more below')}</li>"
            )
        else:
            is_open = depth < option("display_expand_depth") or (
                here is not None and here in open_keys
            )
            state = " open" if is_open else ""
            attr = f' data-toskit-key="{esc(here)}"' if here is not None else ""
            inner = _trace_items(
                children,
                depth + 1,
                budget,
                here,
                open_keys,
                rules=getattr(entry, "form", "") == "rules",
            )
            items.append(
                f"<li><details{attr}{state}><summary>{label}</summary>"
                f"<ul>{inner}</ul></details></li>"
            )
    return "".join(items)


def trace_html(trace: Any, *, key: str | None = None, open_keys: Iterable[str] = ()) -> str:
    """The evaluation trace as a nested tree: each entry states its facts
    (guard value and branch taken, the node an ``exists`` matched, the
    values its expression read, filled placeholders), ``▶`` marking the
    entries that decided the outcome.

    The root (form ``rules``) is drawn open; trees deeper than
    ``display_max_depth`` or larger than ``display_max_tree_nodes`` are cut.
    ``key`` gives every collapsible entry a stable ``data-toskit-key``
    (``key/0/1``) and ``open_keys`` lists those drawn open (the simulator
    keeps what the user opened across redraws).
    """
    if trace is None:
        return '<div class="toskit-empty">no trace</div>'
    budget = [option("display_max_tree_nodes")]
    items = _trace_items([trace], 0, budget, key, frozenset(open_keys))
    return f'<ul class="toskit-tree toskit-trace">{items}</ul>'


def trace_entry_html(entry: Any) -> str:
    """The view of one ``TraceEntry``."""
    body = header("trace", getattr(entry, "form", "")) + trace_html(entry)
    return fragment(body, fallback_repr(entry), "trace")


# ---------------------------------------------------------------- outcomes


def _reason_html(outcome: Any) -> str:
    """The reason, one cause per line: ``blocked: <first cause>`` and every
    further cause on a line of its own (never joined as ``a.; b``). The
    causes are the recorded ones (:func:`toskit.conditions.explain.reason_parts`);
    an outcome without them (a stand-in) shows its ``reason`` text as is."""
    from toskit.conditions.explain import reason_parts

    try:
        parts = reason_parts(outcome) if hasattr(outcome, "allowed") else None
        text = "" if parts is not None else getattr(outcome, "reason", "")
    except Exception as error:  # noqa: BLE001 - a view never fails on a broken outcome
        parts, text = None, f"(no reason: {error})"
    if parts is None:
        return f'<div class="toskit-reason">{esc(text)}</div>' if text else ""
    causes = list(parts.causes)
    # The limits' messages make one cause ("a; b" in the sentence form):
    # here each is a line of its own, taken from the recorded limits.
    try:
        limits = getattr(getattr(outcome, "recorded_decision", None), "limits", None)
    except Exception:  # noqa: BLE001 - a view never fails on a broken outcome
        limits = None
    messages = tuple(getattr(limits, "messages", ()) or ())
    if len(messages) > 1 and "; ".join(messages) in causes:
        at = causes.index("; ".join(messages))
        causes[at : at + 1] = messages
    first, *more = causes or [""]
    rest = "".join(f'<span class="toskit-cause">{esc(c)}</span>' for c in more)
    return f'<div class="toskit-reason">{esc(parts.head)}: {esc(first)}{rest}</div>'


def hidden_reason_html(outcome: Any) -> str:
    """Why a role is hidden, from the recorded facts: the hiding
    restrictions' own messages where the release has one, else the
    condition in the user's words (settings by their labels), else the
    restriction's expression (as code, so it wraps between tokens)."""
    try:
        decision = getattr(outcome, "recorded_decision", None)
    except Exception:  # noqa: BLE001 - a view never fails on a broken outcome
        decision = None
    facts = [f for f in getattr(decision, "restrictions", ()) if f.hides]
    if not facts:
        return '<span class="toskit-faint">hidden (no hiding restriction recorded)</span>'
    said = [
        esc(f.message)
        if f.message
        else esc(f.words)
        if f.words
        else f"restriction {expr_code(f.source)} holds"
        for f in facts
    ]
    return '<span class="toskit-muted">— ' + "; ".join(said) + "</span>"


def _advice_html(outcome: Any, allowed: bool) -> str:
    """The warnings the reason does not quote. While the role is blocked they
    are advice for later (a limit's "at least 3 … nodes" says nothing about
    why the role cannot be assigned now): muted, under "once allowed"."""
    warnings = list(getattr(outcome, "warnings", []) or [])
    quoted = set(getattr(outcome, "reason_quotes", ()) or ())
    listed = [w for w in warnings if w not in quoted]
    if not listed:
        return ""
    if allowed:
        return _warnings_list(listed)
    items = "".join(f"<li>{esc(w)}</li>" for w in listed)
    return (
        '<div class="toskit-later"><span class="toskit-muted">once allowed</span>'
        f'<ul class="toskit-later-list">{items}</ul></div>'
    )


def outcome_body(outcome: Any, *, title: str | None = None) -> str:
    """An outcome: badge, reason, warnings, conflicts, and the trace."""
    is_role = hasattr(outcome, "allowed")
    value = bool(getattr(outcome, "allowed" if is_role else "value", False))
    warnings = list(getattr(outcome, "warnings", []) or [])
    conflicts = list(getattr(outcome, "conflicts", []) or [])
    role = title or getattr(outcome, "role", None)
    kind = "role check" if is_role else "condition"
    head_badge = (
        outcome_badge(value, warnings) if is_role else badge(str(value).lower(), str(value).lower())
    )
    parts = [header(kind, role or ("outcome" if is_role else "evaluation"), head_badge)]
    reason = _reason_html(outcome)
    parts.append(reason)
    if is_role and not value:
        # One outcome's page lists the warnings the reason quotes too; the
        # rest, while the role is blocked, is muted advice for later.
        quoted = set(getattr(outcome, "reason_quotes", ()) or ())
        parts.append(
            _warnings_list([w for w in warnings if w in quoted]) + _advice_html(outcome, value)
        )
    else:
        parts.append(_warnings_list(warnings))
    parts.append(_fuel_extras(outcome, restrictions=not reason))
    if conflicts:
        names = "".join(chip(c) for c in conflicts)
        parts.append(
            '<div class="toskit-summary-line"><span class="toskit-muted">conflicts with</span>'
            f"{names}</div>"
        )
    trace = getattr(outcome, "trace", None)
    if trace is not None:
        parts.append(details("Why: evaluation trace", trace_html(trace), open_=True))
    return "".join(parts)


def limits_gauge(limits: Any) -> str:
    """The count against its limits at a glance: ``2 / min 1 / rec 3`` with a
    small bar (filled to the count, marks at min and recommended, red above max)."""
    count = getattr(limits, "count", None)
    if not isinstance(count, int):
        return ""
    lo, hi, rec = (getattr(limits, n, None) for n in ("min", "max", "recommended"))
    words = [str(count)]
    for name, bound in (("min", lo), ("max", hi), ("rec", rec)):
        if isinstance(bound, (int, float)) and not isinstance(bound, bool):
            words.append(f"{name} {text_value(bound)}")
    numbers = [
        b for b in (lo, hi, rec, count) if isinstance(b, (int, float)) and not isinstance(b, bool)
    ]
    scale = max([*numbers, 1])
    state = "ok"
    if isinstance(hi, (int, float)) and count > hi:
        state = "over"
    elif (isinstance(lo, (int, float)) and count < lo) or (
        isinstance(rec, (int, float)) and count < rec
    ):
        state = "under"
    # Positions in tenths, as classes: views carry no inline style.
    width = min(10, round(10 * count / scale))
    marks = "".join(
        f'<span class="toskit-gauge-mark toskit-at{min(10, round(10 * b / scale))}"'
        f' title="{name} {esc(text_value(b))}"></span>'
        for name, b in (("min", lo), ("recommended", rec), ("max", hi))
        if isinstance(b, (int, float)) and not isinstance(b, bool)
    )
    bar = (
        f'<span class="toskit-gauge toskit-gauge-{state}">'
        f'<span class="toskit-gauge-fill toskit-w{width}"></span>{marks}</span>'
    )
    return (
        '<span class="toskit-limits" title="nodes with the role after the assignment">'
        f"{bar}{esc(' / '.join(words))}</span>"
    )


def _fuel_extras(outcome: Any, *, restrictions: bool = True) -> str:
    """Hidden flag, active restrictions (unless the reason already says
    them: ``restrictions=False``) and limits of a Fuel role outcome."""
    parts = []
    if getattr(outcome, "hidden", False):
        parts.append(badge("hidden", "info", small=True))
    active = list(getattr(outcome, "restrictions", []) or []) if restrictions else []
    if active:
        parts.append(
            '<span class="toskit-muted">restrictions</span>'
            + "".join(f'<span class="toskit-code">{esc(r)}</span>' for r in active)
        )
    limits = getattr(outcome, "limits", None)
    if limits is not None:
        parts.append(limits_gauge(limits))
    if not parts:
        return ""
    return f'<div class="toskit-summary-line">{"".join(parts)}</div>'


def outcome_html(outcome: Any) -> str:
    """The view of a ``RoleOutcome`` or an ``Outcome``."""
    kind = "role-outcome" if hasattr(outcome, "allowed") else "outcome"
    return fragment(outcome_body(outcome), fallback_repr(outcome), kind)


def outcomes_table(
    outcomes: Mapping[str, Any],
    *,
    with_traces: bool = True,
    keyed: bool = False,
    open_keys: Iterable[str] = (),
) -> str:
    """One row per role: status, reason and warnings (with the limits gauge
    and the trace, collapsed), conflicts. ``keyed`` gives every trace a
    stable ``data-toskit-key`` (``trace:<role>``) and ``open_keys`` lists
    the ones drawn open (see :func:`trace_html`)."""
    opened = frozenset(open_keys)

    def rows() -> Iterable[Any]:
        for name, out in outcomes.items():
            allowed = bool(getattr(out, "allowed", False))
            warnings = list(getattr(out, "warnings", []) or [])
            conflicts = list(getattr(out, "conflicts", []) or [])
            reason = _reason_html(out)
            # A warning the reason quotes (recorded, not searched for in
            # its text) is not listed twice; advice of a blocked role is muted.
            why = reason + _advice_html(out, allowed) + _fuel_extras(out, restrictions=not reason)
            trace = getattr(out, "trace", None)
            if with_traces and trace is not None:
                key = f"trace:{name}" if keyed else None
                tree = trace_html(trace, key=key, open_keys=opened)
                state = " open" if key is not None and key in opened else ""
                attr = f' data-toskit-key="{esc(key)}"' if key is not None else ""
                why += (
                    f'<details class="toskit-section toskit-trace-section"{attr}{state}>'
                    f'<summary><span class="toskit-muted">trace</span></summary>'
                    f'<div class="toskit-section-body">{tree}</div></details>'
                )
            # The status, the conflicts and the why in ONE cell: a narrow
            # output area (JupyterLab's sidebar open, 900 px) still shows
            # the why beside the role, never in a column scrolled away.
            status = outcome_badge(allowed, warnings)
            if conflicts:
                status += '<span class="toskit-muted"> conflicts with </span>' + "".join(
                    chip(c) for c in conflicts
                )
            yield (
                "toskit-role-allowed" if allowed else "toskit-role-blocked",
                [
                    ("toskit-path", esc(name)),
                    ("toskit-outcome", f'<div class="toskit-outcome-status">{status}</div>{why}'),
                ],
            )

    return table(("role", "outcome and why"), rows(), total=len(outcomes), empty="no roles")


# ---------------------------------------------------------------- roles


def _role_conflicts(role: Any) -> list[str]:
    # `'*'` (every other role) reads as words in a table.
    return [
        "* (every other role)" if str(c) == "*" else str(c)
        for c in (getattr(role, "conflicts", ()) or ())
    ]


def _role_description(role: Any) -> str:
    meta = getattr(role, "metadata", {}) or {}
    if isinstance(meta, Mapping):
        for key in ("description", "name"):
            if meta.get(key):
                return str(meta[key])
    return ""


def role_set_body(roles: Any) -> str:
    """One row per role: conflicts, rules, and Fuel restrictions/limits when
    any role has them."""
    items = list(roles.items()) if hasattr(roles, "items") else []
    fuel = any(getattr(r, "restrictions", None) or getattr(r, "limits", None) for _, r in items)

    def rows() -> Iterable[Any]:
        for name, role in items:
            conflicts = _role_conflicts(role)
            rules = len(getattr(role, "conditions", ()) or ())
            cells = [
                ("toskit-path", esc(name)),
                (
                    "",
                    "".join(chip(c) for c in conflicts) or '<span class="toskit-faint">—</span>',
                ),
                ("toskit-mono", esc(rules)),
            ]
            if fuel:
                cells.append(("toskit-mono", esc(len(getattr(role, "restrictions", ()) or ()))))
                cells.append(("", _limits_text(getattr(role, "limits", None))))
            cells.append(("toskit-muted", esc(_role_description(role))))
            yield cells

    columns = ["role", "conflicts", "rules"]
    if fuel:
        columns += ["restrictions", "limits"]
    columns.append("description")
    return table(columns, rows(), total=len(items), empty="no roles")


def _limits_text(limits: Any) -> str:
    bounds = getattr(limits, "bounds", None)
    if not bounds:
        return '<span class="toskit-faint">—</span>'
    return esc(", ".join(f"{k} {_bound_text(v)}" for k, v in dict(bounds).items()))


def _bound_text(bound: Any) -> str:
    expression = getattr(bound, "expression", None)
    if expression is not None:
        return str(getattr(expression, "text", expression))
    for attr in ("text", "source", "value"):
        value = getattr(bound, attr, None)
        if value is not None:
            return text_value(value)
    return text_value(bound)


# The cluster on which a static view (and ``toskit show``) explains every
# role: empty, one pool node selected (a new cluster's first assignment).
SAMPLE_NODE = 1


def sample_outcomes(roles: Any, cluster: Any = None) -> tuple[str, dict[str, Any]] | None:
    """Every role's outcome on an empty cluster with one pool node selected
    (``cluster`` builds it for a release: ``release.cluster``), and a line
    saying which cluster that is; ``None`` when the roles cannot be checked."""
    check_all = getattr(roles, "check_all", None)
    if not callable(check_all):
        return None
    try:
        if cluster is not None:
            sample = cluster(pool=[{"id": SAMPLE_NODE}])
        else:
            from toskit.conditions import Cluster

            sample = Cluster("multinode", pool=[{"id": SAMPLE_NODE}])
        from toskit.conditions.roles import RoleSet

        # A RoleSet records every trace (drawn below) in its one evaluation.
        extra = {"record": True} if isinstance(roles, RoleSet) else {}
        outcomes = dict(check_all(sample, selected=[SAMPLE_NODE], **extra))
    except Exception:  # noqa: BLE001 - a view shows what it can; the roles table stays
        return None
    return f"mode {sample.mode}, no nodes, pool node {SAMPLE_NODE} selected", outcomes


def _sample_section(roles: Any, cluster: Any = None) -> str:
    found = sample_outcomes(roles, cluster)
    if found is None:
        return ""
    where, outcomes = found
    shown = {n: o for n, o in outcomes.items() if not getattr(o, "hidden", False)}
    hidden = [n for n in outcomes if n not in shown]
    note = f'<div class="toskit-summary-line"><span class="toskit-muted">{esc(where)}</span>'
    if hidden:
        note += f'<span class="toskit-faint">hidden: {esc(", ".join(hidden))}</span>'
    note += "</div>"
    blocked = sum(1 for o in shown.values() if not getattr(o, "allowed", False))
    return details(
        f"Outcomes on an empty cluster ({blocked} blocked, each with its reason and trace)",
        note + outcomes_table(shown),
        count=len(shown),
    )


def role_set_html(roles: Any) -> str:
    """The view of a ``RoleSet``: one row per role, then (collapsed) every
    role's outcome on an empty multinode cluster with one node selected,
    with its reason and trace."""
    n = len(list(roles.keys())) if hasattr(roles, "keys") else 0
    body = header("roles", count(n, "role")) + role_set_body(roles) + _sample_section(roles)
    return fragment(body, fallback_repr(roles), "roles")


def release_html(release: Any) -> str:
    """The view of a Fuel ``Release``: its facts, modes and roles."""
    chips = [
        chip(f"{label}: {value}")
        for label, value in (
            ("version", getattr(release, "version", None)),
            ("os", getattr(release, "operating_system", None)),
            ("state", getattr(release, "state", None)),
        )
        if value
    ]
    modes = list(getattr(release, "modes", ()) or ())
    parts = [header("Fuel release", getattr(release, "name", ""), *chips)]
    description = getattr(release, "description", None)
    if isinstance(description, str) and description:
        parts.append(f'<div class="toskit-desc">{esc(description)}</div>')
    if modes:
        names = "".join(chip(m) for m in modes)
        parts.append(
            f'<div class="toskit-summary-line"><span class="toskit-muted">modes</span>{names}</div>'
        )
    roles = getattr(release, "roles", None)
    if roles is not None:
        count = len(list(roles.keys())) if hasattr(roles, "keys") else 0
        parts.append(details("Roles", role_set_body(roles), open_=True, count=count))
        parts.append(_sample_section(roles, getattr(release, "cluster", None)))
    wizard = getattr(release, "wizard", None)  # the setup wizard's model (fuel.wizard_model)
    if isinstance(wizard, Mapping) and wizard:  # one line per pane: `Compute vcenter: false …`
        lines = [
            f'<div class="toskit-summary-line"><span class="toskit-muted">{esc(pane)}</span>'
            + "".join(chip(f"{name}: {text_value(value)}") for name, value in fields.items())
            + "</div>"
            for pane, fields in wizard.items() if isinstance(fields, Mapping)
        ]  # fmt: skip
        parts.append(details("Setup wizard model", "".join(lines), count=len(lines)))
    return fragment("".join(parts), fallback_repr(release), "release")


def limits_outcome_html(limits: Any) -> str:
    """The view of a ``LimitsOutcome``: the count against its bounds."""
    body = header("limits", f"count {getattr(limits, 'count', '?')}") + table(
        ("bound", "value"),
        (
            [
                ("toskit-muted", esc(name)),
                ("toskit-value", esc(text_value(getattr(limits, name, None)))),
            ]
            for name in ("min", "max", "recommended")
            if getattr(limits, name, None) is not None
        ),
        empty="no bounds",
    )
    return fragment(body, fallback_repr(limits), "limits")


def role_html(role: Any) -> str:
    """The view of one ``Role``."""
    conflicts = _role_conflicts(role)
    rules = list(getattr(role, "conditions", ()) or ())
    parts = [header("role", getattr(role, "name", ""), chip(count(len(rules), "rule")))]
    description = _role_description(role)
    if description:
        parts.append(f'<div class="toskit-desc">{esc(description)}</div>')
    names = "".join(chip(c) for c in conflicts) or '<span class="toskit-faint">none</span>'
    parts.append(
        f'<div class="toskit-summary-line"><span class="toskit-muted">conflicts</span>{names}</div>'
    )
    if rules:
        items = "".join(f"<li>{_rule_html(r)}</li>" for r in rules[: option("display_max_rows")])
        parts.append(
            details("Rules", f'<ol class="toskit-rules">{items}</ol>', open_=True, count=len(rules))
        )
    restrictions = list(getattr(role, "restrictions", ()) or ())
    if restrictions:
        items = "".join(
            f"<li>{_restriction_html(r)}</li>" for r in restrictions[: option("display_max_rows")]
        )
        parts.append(
            details(
                "Restrictions",
                f'<ol class="toskit-rules">{items}</ol>',
                open_=True,
                count=len(restrictions),
            )
        )
    limits = getattr(role, "limits", None)
    if getattr(limits, "bounds", None):
        parts.append(
            '<div class="toskit-summary-line"><span class="toskit-muted">limits</span>'
            f"{_limits_text(limits)}</div>"
        )
    return fragment("".join(parts), fallback_repr(role), "role")


def _restriction_html(restriction: Any) -> str:
    condition = getattr(restriction, "condition", None)
    text = getattr(condition, "text", condition)
    parts = [
        f'<span class="toskit-trace-form">{esc(getattr(restriction, "action", "") or "")}</span>',
        code(text_value(text)),
    ]
    message = getattr(restriction, "message", None)
    if message:
        parts.append(f'<span class="toskit-trace-warning">{esc(message)}</span>')
    return "".join(parts)


def _rule_html(rule: Any) -> str:
    """A compiled top-level rule: its form, guard expression and warning."""
    form = getattr(rule, "form", None)
    text = next(
        (
            v
            for a in ("guard_text", "source", "text")
            if isinstance(v := getattr(rule, a, None), str)
        ),
        None,
    )
    parts = []
    if form:
        parts.append(f'<span class="toskit-trace-form">{esc(form)}</span>')
    if text is not None:
        parts.append(code(text))
    elif not form:
        parts.append(code(text_value(rule)))
    warning = getattr(rule, "warning", None)
    if isinstance(warning, str) and warning:
        parts.append(f'<span class="toskit-trace-warning">{esc(warning)}</span>')
    return "".join(parts)


# ---------------------------------------------------------------- clusters


def _node_field(node: Any, name: str, default: Any = None) -> Any:
    if isinstance(node, Mapping):
        return node.get(name, default)
    return getattr(node, name, default)


def _node_check(node_id: Any, chosen: bool) -> str:
    """A selection checkbox (simulator only): the id as JSON, escaped."""
    import json

    state = " checked" if chosen else ""
    label = esc(f"select node {node_id}")
    return (
        '<input type="checkbox" class="toskit-node-check"'
        f' data-node-id="{esc(json.dumps(node_id))}"'
        f' aria-label="{label}"{state}>'
    )


def _nodes_table(
    nodes: Sequence[Any],
    selected: Iterable[Any] = (),
    *,
    checkboxes: bool = False,
    limit: int | None = None,
) -> str:
    chosen = set(selected)

    def rows() -> Iterable[Any]:
        for node in nodes:
            node_id = _node_field(node, "id")
            roles = _node_field(node, "roles", []) or []
            pending = _node_field(node, "pending_roles", []) or []
            flags = []
            if _node_field(node, "pending_deletion", False):
                flags.append(badge("pending deletion", "blocked", small=True))
            if _node_field(node, "pending_addition", False):
                flags.append(badge("pending addition", "info", small=True))
            if node_id in chosen:
                flags.append(badge("selected", "ok", small=True))
            cells = [
                ("toskit-mono", esc(node_id)),
                ("", esc(_node_field(node, "name", "") or "")),
                ("", "".join(chip(r) for r in roles) or '<span class="toskit-faint">—</span>'),
                ("", "".join(chip(r) for r in pending) or '<span class="toskit-faint">—</span>'),
                ("", " ".join(flags)),
            ]
            if checkboxes:
                cells.insert(0, ("", _node_check(node_id, node_id in chosen)))
            yield ("toskit-node-selected" if node_id in chosen else "", cells)

    columns = ["id", "name", "roles", "pending roles", "state"]
    if checkboxes:
        columns.insert(0, "select")
    return table(columns, rows(), total=len(nodes), empty="no nodes", limit=limit)


def cluster_body(
    cluster: Any,
    *,
    selected: Iterable[Any] = (),
    nodes: Sequence[Any] | None = None,
    pool: Sequence[Any] | None = None,
    checkboxes: bool = False,
    limit: int | None = None,
) -> str:
    """A cluster: mode, attributes, nodes (bounded) and the pool.

    ``nodes``/``pool`` may be given when the caller already holds them as
    mappings (the simulator does), which spares reading ``cluster.nodes``
    (a fresh copy of every node) on each redraw. ``checkboxes`` adds a
    selection checkbox per node (the simulator's view wires them up);
    ``limit`` bounds the rows of each table (default ``display_max_rows``).
    """
    nodes = list(getattr(cluster, "nodes", []) or []) if nodes is None else nodes
    pool = list(getattr(cluster, "pool", []) or []) if pool is None else pool
    mode = getattr(cluster, "mode", "")
    attributes = getattr(cluster, "attributes", {}) or {}
    chips = [chip(count(len(nodes), "node"))]
    if pool:
        chips.append(chip(f"{len(pool)} in pool"))
    if isinstance(attributes, Mapping):
        chips.extend(chip(f"{k}: {text_value(v)}") for k, v in attributes.items())
    selected = list(selected)
    table_html = _nodes_table(nodes, selected, checkboxes=checkboxes, limit=limit)
    parts = [header("cluster", mode, *chips), table_html]
    if pool:
        # Open the pool when part of the selection sits there (always in the simulator).
        in_pool = checkboxes or any(_node_field(n, "id") in selected for n in pool)
        pool_html = _nodes_table(pool, selected, checkboxes=checkboxes, limit=limit)
        parts.append(details("Pool", pool_html, count=len(pool), open_=in_pool))
    return "".join(parts)


def cluster_html(cluster: Any) -> str:
    """The view of a ``Cluster``."""
    return fragment(cluster_body(cluster), fallback_repr(cluster), "cluster")


def expression_html(expr: Any) -> str:
    """The view of a compiled ``Expression``."""
    body = header("expression", "") + code(getattr(expr, "text", expr))
    return fragment(body, fallback_repr(expr), "expression")
