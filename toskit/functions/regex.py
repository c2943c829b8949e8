"""Regular expressions for ``$matches`` and the 1.x ``pattern`` constraint, with bounded cost.

Python's ``re`` backtracks, so a pattern that can match the same text in
exponentially many ways (``(a+)+$`` against ``"a" * 45 + "b"``) runs for
hours. Templates are untrusted input, so :func:`compile_bounded` compiles a
pattern only after two steps on its parse tree (``re._parser``, the tree
``re.compile`` itself builds):

1. **Simplify directly nested repeats.** ``$matches`` only asks *whether*
   the text matches, and a repeat of a repeat matches the same texts as a
   single repeat: ``(X{m,}){n,k}`` is ``X{m·n,}`` for ``n ≥ 1``, and for
   ``n = 0`` it is ``X*`` (``m ≤ 1``) or ``(?:X{m,})?``. So ``(a+)+`` runs
   as ``(a+)``, and the OASIS sample ``([\\/\\w \\.-]*)*`` as
   ``([\\/\\w \\.-]*)``. (Skipped when the pattern uses a backreference,
   whose captured text could change.)
2. **Reject what is still ambiguous** with ``InvalidRegex`` and a hint: a
   repeat (more than once) whose body holds an unbounded repeat while
   everything else in the body can match the empty string, e.g.
   ``(\\w+\\s?)*$`` or ``(?:x*y?)+``. A mandatory separator makes it safe
   again (``(\\w+\\.)*`` is accepted), as does a possessive quantifier
   (``a++``) or an atomic group (``(?>…)``), which never backtrack.

Known limits (documented in docs/functions.md): overlapping alternatives
under a repeat (``(a|aa)+$``) and polynomial patterns (``.*.*.*=``) are not
detected.
"""

from __future__ import annotations

import functools
import re
from typing import Any

try:  # Python 3.11+
    from re import _compiler as _sre_compile
    from re import _constants as _sre_constants
    from re import _parser as _sre_parse
except ImportError:  # pragma: no cover - older interpreters
    import sre_compile as _sre_compile  # type: ignore[no-redef]
    import sre_constants as _sre_constants  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

__all__ = ["RegexRejected", "compile_bounded"]

_c = _sre_constants
_MAXREPEAT = _c.MAXREPEAT
_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT}  # backtracking repeats
_POSSESSIVE = getattr(_c, "POSSESSIVE_REPEAT", None)
_ATOMIC = getattr(_c, "ATOMIC_GROUP", None)
_CONSUMING = {_c.LITERAL, _c.NOT_LITERAL, _c.ANY, _c.IN}


class RegexRejected(ValueError):
    """A pattern toskit will not run: ``str()`` says why, ``.hint`` how to fix it."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


@functools.lru_cache(maxsize=512)
def compile_bounded(pattern: str) -> re.Pattern[str]:
    """Compile ``pattern`` for a yes/no match, refusing catastrophic backtracking.

    Raises :class:`RegexRejected` for an invalid pattern or one whose cost
    could explode (see the module doc). The compiled pattern is only fit for
    asking *whether* a text matches: its groups may capture differently.
    """
    try:
        tree = _sre_parse.parse(pattern)
        if not _has(tree, {_c.GROUPREF, _c.GROUPREF_EXISTS}):
            _simplify(tree)
        if _ambiguous_repeat(tree):
            raise RegexRejected(
                f"'{pattern}' can backtrack catastrophically: it repeats a part that can "
                "itself match the same text in many ways (an unbounded repeat inside a "
                "repeat, with nothing else required between repetitions)",
                hint="rewrite it so each repetition must consume a separator (e.g. "
                r"'(\w+\.)*'), or make the inner repeat possessive ('a++') or "
                "atomic ('(?>...)')",
            )
        return _sre_compile.compile(tree, tree.state.flags)
    except re.error as exc:
        raise RegexRejected(f"'{pattern}' is not a valid regular expression: {exc}") from None
    except (RecursionError, OverflowError, ValueError) as exc:
        if isinstance(exc, RegexRejected):
            raise
        raise RegexRejected(f"'{pattern}' is not a valid regular expression: {exc}") from None


def _children(op: Any, av: Any) -> list[Any]:
    """The sub-sequences of one parse-tree item."""
    if op in _REPEATS or op == _POSSESSIVE:
        return [av[2]]
    if op == _c.SUBPATTERN:
        return [av[3]]
    if op == _c.BRANCH:
        return list(av[1])
    if op in (_c.ASSERT, _c.ASSERT_NOT):
        return [av[1]]
    if op == _ATOMIC:
        return [av]
    if op == _c.GROUPREF_EXISTS:
        return [p for p in av[1:] if p is not None]
    return []


def _has(seq: Any, ops: set[Any]) -> bool:
    return any(op in ops or any(_has(sub, ops) for sub in _children(op, av)) for op, av in seq)


def _single_unbounded_repeat(seq: Any) -> tuple[Any, Any] | None:
    """``(op, av)`` when ``seq`` is one unbounded backtracking repeat, maybe in a plain group."""
    if len(seq) != 1:
        return None
    op, av = seq[0]
    if op == _c.SUBPATTERN and not av[1] and not av[2]:  # a group that changes no flags
        return _single_unbounded_repeat(av[3])
    if op in _REPEATS and av[1] == _MAXREPEAT:
        return op, av
    return None


def _simplify(seq: Any) -> None:
    """Collapse directly nested repeats in place (module doc, step 1)."""
    for index, (op, av) in enumerate(seq.data if hasattr(seq, "data") else seq):
        for sub in _children(op, av):
            _simplify(sub)
        if op not in _REPEATS:
            continue
        low, high, body = av
        inner = _single_unbounded_repeat(body)
        if inner is None or high == 0:
            continue
        inner_op, (inner_low, _, inner_body) = inner
        if low >= 1:
            # (X{m,}){n,k} == X{m·n,}: keep the group (so numbering holds), drop the outer repeat.
            _replace_innermost(body, (inner_op, (inner_low * low, _MAXREPEAT, inner_body)))
            seq[index] = (_c.SUBPATTERN, (None, 0, 0, body)) if len(body) == 1 else (op, (1, 1, body))
        elif inner_low <= 1:
            _replace_innermost(body, (inner_op, (0, _MAXREPEAT, inner_body)))
            seq[index] = (op, (1, 1, body))
        else:
            seq[index] = (op, (0, 1, body))


def _replace_innermost(seq: Any, item: tuple[Any, Any]) -> None:
    op, av = seq[0]
    if op == _c.SUBPATTERN:
        _replace_innermost(av[3], item)
    else:
        seq[0] = item


def _nullable(seq: Any) -> bool:
    """Whether a sequence can match the empty string (conservatively: True when unsure)."""
    for op, av in seq:
        if op in _CONSUMING:
            return False
        if (op in _REPEATS or op == _POSSESSIVE) and av[0] >= 1 and not _nullable(av[2]):
            return False
        if op == _c.SUBPATTERN and not _nullable(av[3]):
            return False
        if op == _ATOMIC and not _nullable(av):
            return False
        if op == _c.BRANCH and not any(_nullable(alt) for alt in av[1]):
            return False
    return True


def _free_unbounded(seq: Any) -> bool:
    """Whether ``seq`` can be "just an unbounded backtracking repeat" plus empty matches."""
    for i, (op, av) in enumerate(seq):
        rest = [item for j, item in enumerate(seq) if j != i]
        if not _nullable(rest):
            continue
        if op in _REPEATS and av[1] == _MAXREPEAT and not _nullable(av[2]):
            return True
        if op == _c.SUBPATTERN and _free_unbounded(av[3]):
            return True
        if op == _c.BRANCH and any(_free_unbounded(alt) for alt in av[1]):
            return True
    return False


def _ambiguous_repeat(seq: Any) -> bool:
    """Whether some repeat's body is ambiguous (module doc, step 2)."""
    for op, av in seq:
        if op in (_ATOMIC, _POSSESSIVE):
            continue  # never backtracks into its body
        if op in _REPEATS and av[1] >= 2 and _free_unbounded(av[2]):
            return True
        if any(_ambiguous_repeat(sub) for sub in _children(op, av)):
            return True
    return False
