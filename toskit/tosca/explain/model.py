"""The explanation's data: :class:`Explanation` and its parts.

:class:`Source` (one layer that wrote a value), :class:`StackLayer`,
:class:`Hop` (one call behind a value), :class:`Check` (a clause checked at
the path), and :class:`ExplainError`. They hold data and say how they read
(``str()``, ``to_dict()``, the rich view); :mod:`.build` makes them.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.errors import ToskitError
from toskit.records import field, record
from toskit.tosca.explain.text import explanation_text, hop_lines, plain, short

__all__ = [
    "MAX_HOPS",
    "Check",
    "ExplainError",
    "Explanation",
    "Hop",
    "Source",
    "StackLayer",
    "explanation_json",
]

MAX_HOPS = 16  # function hops followed, one inside the other (a chain of get_property)
_NOT_YET = object()  # a Source's span before it is asked for


class ExplainError(ToskitError):
    """A path that names no value of the template (the message says what exists)."""


# slots, not frozen: one per written value (bench_explain); shared through the
# template's memo, so treat it as read-only.
@record(slots=True, eq=False)
class Source:
    """One layer that wrote a value: its kind, what it names, where it wrote.

    ``label`` is the string form the property table shows (``template``,
    ``default: <type>``, ``input: <name>``); ``file``/``line``/``column``
    (1-based) where the written value starts, and ``end_line``/
    ``end_column`` (end exclusive) where it ends, ``None`` when unknown (the
    end is scanned for only when asked); ``call`` the call's text for a
    ``function`` layer; ``copied_from`` the template a ``copy`` layer took
    the value from.
    """

    kind: str
    label: str
    type_name: str | None = None
    input_name: str | None = None
    file: str | None = None
    line: int | None = None
    column: int | None = None
    call: str | None = None
    copied_from: str | None = None
    _doc: Any = field(default=None, repr=False)
    _parts: tuple = field(default=(), repr=False)
    # The call the layer wrote at its origin (None: a plain value), read once per origin.
    _wrote_call: Any = field(default=None, repr=False)
    # The span once found (``_NOT_YET`` before): a plain default, no factory per Source.
    _span: Any = field(default=_NOT_YET, repr=False)

    @property
    def span(self) -> tuple[int, int, int, int] | None:
        """``(line, column, end_line, end_column)``, found on first use."""
        found = self._span
        if found is _NOT_YET:
            found = None
            if self._doc is not None and self.line is not None:
                found = self._doc.span(self._parts)
            self._span = found
        return found

    @property
    def end_line(self) -> int | None:
        span = self.span
        return span[2] if span else None

    @property
    def end_column(self) -> int | None:
        span = self.span
        return span[3] if span else None

    @property
    def where(self) -> str:
        """``file:line`` (``?`` when unknown)."""
        if self.line is None:
            return self.file or "?"
        return f"{self.file or '<unknown>'}:{self.line}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "label": self.label,
            "type": self.type_name,
            "input": self.input_name,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "call": self.call,
            "copied_from": self.copied_from,
        }


@record(slots=True)  # not frozen: made per leaf, frozen's setattr costs (bench)
class StackLayer:
    """A layer of the stack: its value and source; ``won`` for the effective one."""

    value: Any
    source: Source
    won: bool

    def to_dict(self) -> dict[str, Any]:
        return {"value": plain(self.value), "won": self.won, **self.source.to_dict()}


@record(slots=True)  # not frozen: made per leaf, frozen's setattr costs (bench)
class Check:
    """A constraint or validation clause checked at the path, with its result."""

    kind: str  # "constraint", "validation"
    text: str
    result: str  # "satisfied", "violated", "not checked"
    message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "clause": self.text,
            "result": self.result,
            "message": self.message,
        }


@record(slots=True)  # not frozen: made per leaf, frozen's setattr costs (bench)
class Hop:
    """One function call behind a value, and where it led.

    ``function`` is the call's name, ``call`` its text, ``value`` its value
    (``None`` with ``known=False`` when not known statically), ``target``
    what it read (``node db, property port``, ``input port``), ``source``
    where that was set, ``detail`` a note (the input's default, why a hop
    was not followed), ``hops`` the calls it went through in turn (a
    ``get_property`` of a value that is itself a call, the arguments of a
    ``concat``), ``explanation`` the read property's own explanation.
    """

    function: str
    call: str
    value: Any = None
    known: bool = True
    target: str | None = None
    source: Source | None = None
    detail: str | None = None
    hops: tuple[Hop, ...] = ()
    explanation: Explanation | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "function": self.function,
            "call": self.call,
            "value": plain(self.value) if self.known else None,
            "known": self.known,
            "target": self.target,
            "source": self.source.to_dict() if self.source else None,
            "detail": self.detail,
            "hops": [h.to_dict() for h in self.hops],
            "explanation": self.explanation.to_dict() if self.explanation else None,
        }

    def lines(self, indent: str) -> list[str]:
        """This hop as indented lines of text, nested hops below it."""
        return hop_lines(self, indent)


@record(slots=True)  # not frozen: made per leaf, frozen's setattr costs (bench)
class Explanation:
    """Everything behind one effective value (see the module documentation)."""

    entity_kind: str
    entity: str
    path: str
    parts: tuple[Hashable, ...]
    value: Any
    type: str | None
    stack: tuple[StackLayer, ...]
    hops: tuple[Hop, ...] = ()
    checks: tuple[Check, ...] = ()
    findings: tuple[Diagnostic, ...] = ()
    leaves: int = 1

    @property
    def source(self) -> Source:
        """The layer that won (the last of :attr:`stack`)."""
        return self.stack[-1].source

    @property
    def overridden(self) -> tuple[StackLayer, ...]:
        """The layers the effective value replaced, lowest first."""
        return self.stack[:-1]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready; values are plain, calls their text)."""
        return {
            "entity": {"kind": self.entity_kind, "name": self.entity},
            "path": self.path,
            "value": plain(self.value),
            "type": self.type,
            "source": self.source.to_dict(),
            "stack": [layer.to_dict() for layer in self.stack],
            "hops": [hop.to_dict() for hop in self.hops],
            "checks": [c.to_dict() for c in self.checks],
            "findings": [d.to_dict() for d in self.findings],
        }

    def __str__(self) -> str:
        return explanation_text(self)

    def __repr__(self) -> str:
        return (
            f"<Explanation {self.entity}.{self.path} = {short(self.value)} ({self.source.label})>"
        )

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def explanation_json(explanation: Explanation) -> str:
    """:meth:`Explanation.to_dict` as indented JSON."""
    return json.dumps(explanation.to_dict(), indent=2, default=str)
