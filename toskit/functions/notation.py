"""Function notation: :class:`Call`, :func:`parse` and :func:`unparse`.

2.0 files use the ``$`` notation: a single-key map
whose key starts with ``$`` is a call, ``$$`` escapes, a ``$`` key beside
other keys is ``malformed-function``, and a bare ``$name`` string is a call
only when ``name`` is a known function. 1.x files recognise single-key maps
named after an intrinsic or a registered function (§4) and have no escape.

Locations: ``parse`` takes ``path`` (the parts leading to ``value`` in its
document) and ``make_diagnostic`` (a callable with the signature of
``toskit.source.YamlDocument.diagnostic``), so every diagnostic it makes
(``malformed-function``, ``dollar-literal``) carries the full path of the
offending map or string and, through ``make_diagnostic``, its file, line and
column. Each ``Call`` records the parts where it was written in ``.path``
(not part of equality), so evaluation errors can be located the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Hashable, Iterable, Mapping, Sequence
from types import GeneratorType
from typing import Any

from toskit.diagnostics import Diagnostic, Subject, format_path
from toskit.errors import FunctionSyntaxError, ToskitError
from toskit.functions import registry
from toskit.functions._limits import MAX_CALL_DEPTH
from toskit.patterns import lazy_pattern
from toskit.plain import drive

__all__ = [
    "Call",
    "DiagnosticFactory",
    "contains_call",
    "dialect_of",
    "freeze",
    "parse",
    "unparse",
]

DiagnosticFactory = Callable[..., Diagnostic]
"""``(severity, code, message, parts, *, hint=None, at_key=False) -> Diagnostic``."""

_V1_VERSION = lazy_pattern(r"^tosca_simple_yaml_1_\d+$")


def dialect_of(version: str) -> str:
    """``"2.0"`` or ``"1.x"`` for a version string (§2); ``ToskitError`` otherwise."""
    if version in ("2.0", "tosca_2_0"):
        return "2.0"
    if version in ("1.0", "1.1", "1.2", "1.3", "tosca_simple_unfurl_1_0_0") or (
        isinstance(version, str) and _V1_VERSION.match(version)
    ):
        return "1.x"
    raise ToskitError(
        f"unknown function dialect {version!r}: use '2.0', 'tosca_2_0', '1.0'…'1.3', "
        "a 'tosca_simple_yaml_1_*' version or 'tosca_simple_unfurl_1_0_0'"
    )


def freeze(value: Any) -> Hashable:
    """A hashable copy of plain data (maps become frozensets of pairs, lists tuples)."""
    if isinstance(value, Call):
        return value
    if isinstance(value, Mapping):
        return ("__map__", frozenset((freeze(k), freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return frozenset(freeze(v) for v in value)
    try:
        hash(value)
    except TypeError:
        return ("__unhashable__", repr(value))
    return value


class Call:
    """A function call in a value tree.

    Equality compares ``name``, ``namespace``, ``args`` and ``key_variant``
    (not ``form`` and not the source ``path``). Hashable; treat as immutable.
    """

    __slots__ = ("name", "args", "namespace", "key_variant", "form", "path", "_hash")

    def __init__(
        self,
        name: str,
        args: Iterable[Any] = (),
        namespace: str | None = None,
        *,
        key_variant: str | None = None,
        form: str = "map",
        path: Sequence[Hashable] = (),
    ) -> None:
        if not isinstance(name, str) or not name:
            raise ToskitError(f"a Call's name must be a non-empty string, not {name!r}")
        if namespace is not None and (not isinstance(namespace, str) or not namespace):
            raise ToskitError(
                f"a Call's namespace must be None or a non-empty string, not {namespace!r}"
            )
        if key_variant is not None and not isinstance(key_variant, str):
            raise ToskitError(f"a Call's key_variant must be None or a string, not {key_variant!r}")
        if form not in ("map", "bare"):
            raise ToskitError(f"Call form must be 'map' or 'bare', not {form!r}")
        if isinstance(args, (str, bytes, Mapping)) or not isinstance(args, Iterable):
            raise ToskitError(
                f"Call args must be a list of arguments, not {type(args).__name__} "
                f"(write Call({name!r}, [{args!r}]) for a single argument)"
            )
        self.name = name
        self.args = list(args)
        self.namespace = namespace
        self.key_variant = key_variant
        self.form = form
        self.path = tuple(path)
        self._hash: int | None = None

    @property
    def qualified_name(self) -> str:
        """``"ns:name"`` or ``"name"``."""
        return f"{self.namespace}:{self.name}" if self.namespace else self.name

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Call):
            return NotImplemented
        return _trees_equal(self, other)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = _tree_hash(self)
        return self._hash

    def __repr__(self) -> str:
        # Bounded while it is built (#37): the arguments may hold thousands of
        # aliases of one huge string, expanded only in text.
        return self._bounded_text(TEXT_MAX_CHARS, "repr")

    def __str__(self) -> str:
        """The 2.0 notation (``$concat: [a, b]``), cut at :data:`TEXT_MAX_CHARS` with ``…``."""
        return _call_text(self, max_chars=TEXT_MAX_CHARS)

    def _bounded_text(self, limit: int, style: str = "flow") -> str:
        """This call's text within ``limit`` characters (``repr`` style, or
        ``str`` for the others), for :func:`toskit.plain.bounded_text`."""
        if style != "repr":
            return _call_text(self, max_chars=limit)
        from toskit.plain import bounded_text

        extra = ""
        if self.namespace is not None:
            extra += f", namespace={self.namespace!r}"
        if self.key_variant is not None:
            extra += f", key_variant={self.key_variant!r}"
        if self.form != "map":
            extra += f", form={self.form!r}"
        head = f"Call({bounded_text(self.name, limit, style='repr')}, "
        args = bounded_text(self.args, max(limit - len(head), 1), style="repr")
        text = f"{head}{args}{extra})"
        return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def contains_call(value: Any) -> bool:
    """Whether a tree holds a :class:`Call` anywhere (keys included).

    Walks with an explicit stack, so trees of any depth are fine.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Call):
            return True
        if isinstance(item, Mapping):
            for key, sub in item.items():
                stack.append(key)
                stack.append(sub)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


# ------------------------------------------------- equality and hash of call trees
# Both walk with an explicit stack: a parsed tree may nest calls a thousand
# levels deep, and Python's own recursive list/dict comparison would raise
# RecursionError there.


def _trees_equal(a: Any, b: Any) -> bool:
    """Structural equality of two trees, as ``==`` on the containers would give."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        if isinstance(x, Call) or isinstance(y, Call):
            if not (isinstance(x, Call) and isinstance(y, Call)):
                return False
            if (
                x.name != y.name
                or x.namespace != y.namespace
                or x.key_variant != y.key_variant
                or len(x.args) != len(y.args)
                or (x._hash is not None and y._hash is not None and x._hash != y._hash)
            ):
                return False
            stack.extend(zip(x.args, y.args))
        elif (isinstance(x, list) and isinstance(y, list)) or (
            isinstance(x, tuple) and isinstance(y, tuple)
        ):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif isinstance(x, Mapping) and isinstance(y, Mapping):
            if len(x) != len(y):
                return False
            for key, sub in x.items():
                if key not in y:
                    return False
                stack.append((sub, y[key]))
        elif x != y:
            return False
    return True


_OPEN = object()  # marks, on the hash stack, where a container's children start


def _tree_hash(root: Any) -> int:
    """A hash consistent with :func:`_trees_equal` (equal trees, equal hashes)."""
    results: list[Any] = []
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        item, done = stack.pop()
        if not done:
            if isinstance(item, Call) and item._hash is not None:
                results.append(item._hash)
            elif isinstance(item, (Call, Mapping, list, tuple)):
                stack.append((item, True))
                results.append(_OPEN)
                if isinstance(item, Call):
                    stack.extend((arg, False) for arg in reversed(item.args))
                elif isinstance(item, Mapping):
                    for key, sub in item.items():
                        stack.append((sub, False))
                        stack.append((key, False))
                else:
                    stack.extend((sub, False) for sub in reversed(item))
            else:
                results.append(_scalar_hash(item))
            continue
        start = len(results) - 1
        while results[start] is not _OPEN:
            start -= 1
        children = results[start + 1 :]
        del results[start:]
        if isinstance(item, Call):
            value = hash(("Call", item.name, item.namespace, item.key_variant, tuple(children)))
            item._hash = value
        elif isinstance(item, Mapping):
            value = hash(("__map__", frozenset(zip(children[::2], children[1::2]))))
        else:
            value = hash(tuple(children))
        results.append(value)
    return results[0]


def _scalar_hash(value: Any) -> int:
    try:
        return hash(value)
    except TypeError:
        if isinstance(value, (set, frozenset)):
            return hash(frozenset(_tree_hash(v) for v in value))
        return hash(("__unhashable__", repr(value)))


# ------------------------------------------------------------------------------ parse


def _split_name_part(part: str) -> tuple[str | None, str, str | None] | None:
    """``"ns:fn$v"`` → ``("ns", "fn", "v")``; ``None`` when a segment is empty."""
    base, dollar, variant = part.partition("$")
    if dollar and not variant:
        return None
    segments = base.split(":")
    if any(not s for s in segments):
        return None
    namespace = ":".join(segments[:-1]) or None
    return namespace, segments[-1], (variant if dollar else None)


def _is_function_key(key: Any) -> bool:
    return isinstance(key, str) and len(key) > 1 and key[0] == "$" and key[1] != "$"


_Parsing = Generator[Any, Any, Any]  # yields step arguments or a step's generator


class _Parser:
    def __init__(
        self,
        dialect: str,
        known: frozenset[str],
        diagnostics: list[Diagnostic] | None,
        make_diagnostic: DiagnosticFactory | None,
    ) -> None:
        self.dialect = dialect
        self.known = known | registry.registered_names()
        self.diagnostics = diagnostics
        self.make_diagnostic = make_diagnostic
        # Calls around the one being parsed (the walk is depth-first, so one
        # counter serves all of it): past MAX_CALL_DEPTH is refused here.
        self.calls = 0

    def diagnostic(
        self,
        severity: str,
        code: str,
        message: str,
        parts: tuple,
        hint: str | None = None,
        at_key: bool = False,
    ) -> Diagnostic:
        if self.make_diagnostic is not None:
            return self.make_diagnostic(severity, code, message, parts, hint=hint, at_key=at_key)
        # No document: the subject is the value at ``parts`` (no range to give).
        return Diagnostic(
            severity,
            code,
            message,
            path=format_path(parts),
            hint=hint,
            subject=Subject("value", None, parts),
        )

    def is_known(self, qualified: str) -> bool:
        if qualified in self.known:
            return True
        builtins = registry.BUILTINS_2_0 if self.dialect == "2.0" else registry.INTRINSICS_1_X
        return qualified in builtins

    # -- 2.0 ------------------------------------------------------------------------

    def parse(self, value: Any, parts: tuple) -> Any:
        """The parsed tree of ``value``, walked without Python recursion
        (:func:`toskit.plain.drive`: a container's parse is a generator that
        yields each child's ``(value, parts)`` and is sent the child's tree)."""
        return drive(self.step, value, parts)

    def step(self, value: Any, parts: tuple) -> Any:
        if isinstance(value, str):
            return self.parse_string(value, parts)
        if isinstance(value, Mapping):
            return (
                self.parse_map(value, parts)
                if self.dialect == "2.0"
                else self.parse_map_1x(value, parts)
            )
        if isinstance(value, (list, tuple)):
            return self.parse_list(value, parts)
        return value

    def parse_list(self, value: list | tuple, parts: tuple) -> _Parsing:
        out = []
        for i, item in enumerate(value):
            tree = self.step(item, (*parts, i))
            if type(tree) is GeneratorType:  # only containers wait on the driver
                tree = yield tree
            out.append(tree)
        return out

    def parse_string(self, text: str, parts: tuple) -> Any:
        if self.dialect != "2.0" or not text.startswith("$"):
            return text
        if text.startswith("$$"):
            return text[1:]
        if text == "$":
            return text
        split = _split_name_part(text[1:])
        if split is not None:
            namespace, name, variant = split
            qualified = f"{namespace}:{name}" if namespace else name
            if self.is_known(qualified):
                return Call(name, [], namespace, key_variant=variant, form="bare", path=parts)
        if self.diagnostics is not None:
            self.diagnostics.append(
                self.diagnostic(
                    "warning",
                    "dollar-literal",
                    f"'{text}' is kept as literal text: no function '{text[1:]}' is known",
                    parts,
                    hint=f"write '${text}' for a literal '{text}'",
                )
            )
        return text

    def parse_map(self, value: Mapping, parts: tuple) -> _Parsing:
        function_keys = [k for k in value if _is_function_key(k)]
        if function_keys and len(value) > 1:
            self.malformed_beside(function_keys, parts)
        if function_keys:
            (key,) = function_keys
            split = _split_name_part(key[1:])
            if split is None:
                diag = self.diagnostic(
                    "error",
                    "malformed-function",
                    f"malformed function name '{key}': a namespace, name or key-variant "
                    "segment is empty",
                    (*parts, key),
                    hint=f"write '${key}' for a literal key '{key}'",
                    at_key=True,
                )
                raise FunctionSyntaxError(diag.message, [diag])
            namespace, name, variant = split
            self.enter_call(key, parts)
            args = yield from self.arguments(value[key], (*parts, key))
            self.calls -= 1
            return Call(name, args, namespace, key_variant=variant, path=parts)
        out: dict[Any, Any] = {}
        for key, item in value.items():
            new_key = self.parse_key(key, parts)
            if new_key in out:  # '$$' and '$' are both '$' once unescaped
                diag = self.diagnostic(
                    "error",
                    "duplicate-key",
                    f"the key '{key}' is '{new_key}' once unescaped, like another key of this map",
                    (*parts, key),
                    at_key=True,
                )
                raise FunctionSyntaxError(diag.message, [diag])
            # Paths use the keys as written, so the loader can locate them.
            tree = self.step(item, (*parts, key))
            if type(tree) is GeneratorType:  # only containers wait on the driver
                tree = yield tree
            out[new_key] = tree
        return out

    def parse_key(self, key: Any, parts: tuple) -> Any:
        if isinstance(key, str):
            return key[1:] if key.startswith("$$") else key
        if isinstance(key, (Mapping, list, tuple)):
            parsed = self.parse(key, parts)
            return _hashable(parsed)
        return key

    def enter_call(self, key: str, parts: tuple) -> None:
        """Count one more call around the arguments about to be parsed;
        past :data:`MAX_CALL_DEPTH` it is a ``limit-exceeded`` error here,
        before evaluation could recurse that deep."""
        self.calls += 1
        if self.calls > MAX_CALL_DEPTH:
            diag = self.diagnostic(
                "error",
                "limit-exceeded",
                f"function calls nested more than {MAX_CALL_DEPTH} deep "
                f"('{key}' is call {self.calls})",
                (*parts, key),
                hint=f"toskit evaluates calls nested at most {MAX_CALL_DEPTH} deep "
                "(toskit.functions MAX_CALL_DEPTH, docs/limits.md)",
                at_key=True,
            )
            raise FunctionSyntaxError(diag.message, [diag])

    def malformed_beside(self, function_keys: list[str], parts: tuple) -> None:
        others = len(function_keys) > 1
        diags = [
            self.diagnostic(
                "error",
                "malformed-function",
                f"malformed function: '{key}' is beside other keys in one map "
                + (
                    "(a function call is a map with one key)"
                    if others
                    else "(a function call must be the only key of its map)"
                ),
                (*parts, key),
                hint=f"write '${key}' for a literal key '{key}'",
                at_key=True,
            )
            for key in function_keys
        ]
        names = ", ".join(f"'{k}'" for k in function_keys)
        raise FunctionSyntaxError(
            f"malformed function: {names} beside other keys in one map"
            + (f" at {format_path(parts)}" if parts else ""),
            diags,
        )

    def arguments(self, raw: Any, parts: tuple) -> _Parsing:
        # Delegated to with ``yield from``: one extra frame while an argument
        # is parsed, not one per level of nesting.
        if raw is None:
            return []
        if isinstance(raw, (list, tuple)):
            args = []
            for i, item in enumerate(raw):
                tree = self.step(item, (*parts, i))
                if type(tree) is GeneratorType:  # only containers wait on the driver
                    tree = yield tree
                args.append(tree)
            return args
        return [(yield (raw, parts))]

    # -- 1.x ------------------------------------------------------------------------

    def parse_map_1x(self, value: Mapping, parts: tuple) -> _Parsing:
        if len(value) == 1:
            ((key, raw),) = value.items()
            if isinstance(key, str) and self.is_known(key):
                namespace, name = registry.split_qualified(key)
                self.enter_call(key, parts)
                args = yield from self.arguments(raw, (*parts, key))
                self.calls -= 1
                return Call(name, args, namespace, path=parts)
        out: dict[Any, Any] = {}
        for key, item in value.items():
            new_key = (
                _hashable(self.parse(key, parts))
                if isinstance(key, (Mapping, list, tuple))
                else key
            )
            tree = self.step(item, (*parts, key))
            if type(tree) is GeneratorType:  # only containers wait on the driver
                tree = yield tree
            out[new_key] = tree
        return out


def _hashable(value: Any) -> Any:
    """Turn a parsed complex key back into a hashable value (FrozenMap / tuple)."""
    if isinstance(value, Call):
        return value
    if isinstance(value, Mapping):
        from toskit.source import FrozenMap

        return FrozenMap({k: _hashable(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


def parse(
    value: Any,
    version: str = "2.0",
    *,
    known: Iterable[str] = (),
    diagnostics: list[Diagnostic] | None = None,
    path: Sequence[Hashable] = (),
    make_diagnostic: DiagnosticFactory | None = None,
) -> Any:
    """Parse plain data into a tree whose function calls are :class:`Call` objects.

    ``version`` selects the dialect (§2). ``known`` adds qualified names that
    count as functions (the template's ``functions:`` sections). Non-fatal
    findings (``dollar-literal``) are appended to ``diagnostics`` when given.
    ``path`` is the location of ``value`` in its document and
    ``make_diagnostic`` builds located diagnostics (see the module doc).
    A malformed call raises :class:`toskit.FunctionSyntaxError`, and so do
    calls nested more than ``MAX_CALL_DEPTH`` (50) deep (code
    ``limit-exceeded``, located at the first call past the bound;
    ``toskit.functions._limits``). The input is never modified.
    """
    dialect = dialect_of(version)
    if not isinstance(value, (str, Mapping, list, tuple)) or (
        isinstance(value, str) and (dialect != "2.0" or not value.startswith("$"))
    ):
        return value  # a scalar that cannot hold a call: nothing to do
    parser = _Parser(dialect, frozenset(known), diagnostics, make_diagnostic)
    try:
        return parser.parse(value, tuple(path))
    except RecursionError:  # toskit.plain.TooDeep: deeper than MAX_DEPTH
        diag = parser.diagnostic(
            "error", "limit-exceeded", "the value is nested too deeply to parse", tuple(path)
        )
        raise FunctionSyntaxError(diag.message, [diag]) from None


# ---------------------------------------------------------------------------- unparse


def unparse(tree: Any, version: str = "2.0") -> Any:
    """Turn a tree back into plain data; ``parse(unparse(t)) == t`` for parsed trees (2.0).

    A call becomes a single-key map (``{"$ns:fn$variant": args}``; a bare call
    without arguments the string ``"$fn"``). Literal strings and keys that
    ``parse`` would read otherwise are escaped with an extra ``$``. In 1.x,
    calls are written with bare names and nothing can be escaped.
    """
    dialect = dialect_of(version)
    try:
        return drive(_unparse, tree, dialect, False)
    except RecursionError:  # toskit.plain.TooDeep: deeper than MAX_DEPTH
        raise ToskitError("the tree is nested too deeply to unparse") from None


_Unparsing = Generator[tuple[Any, str, bool], Any, Any]


def _unparse(tree: Any, dialect: str, as_key: bool) -> Any:
    """One step of :func:`unparse` (driven by :func:`toskit.plain.drive`): a
    scalar's text, or the generator that unparses a call or container."""
    if isinstance(tree, Call):
        if dialect != "1.x" and tree.form == "bare" and not tree.args:
            variant = f"${tree.key_variant}" if tree.key_variant is not None else ""
            return f"${tree.qualified_name}{variant}"
        return _unparse_call(tree, dialect, as_key)
    if isinstance(tree, str):
        if dialect == "2.0" and tree.startswith("$") and tree != "$":
            return "$" + tree
        return tree
    if isinstance(tree, Mapping):
        return _unparse_map(tree, dialect, as_key)
    if isinstance(tree, (list, tuple)):
        return _unparse_list(tree, dialect, as_key)
    return tree


def _unparse_call(tree: Call, dialect: str, as_key: bool) -> _Unparsing:
    args = []
    for a in tree.args:
        args.append((yield (a, dialect, False)))
    if dialect == "1.x":
        key = tree.qualified_name
    else:
        variant = f"${tree.key_variant}" if tree.key_variant is not None else ""
        key = f"${tree.qualified_name}{variant}"
    plain = {key: args}
    return _hashable(plain) if as_key else plain


def _unparse_map(tree: Mapping, dialect: str, as_key: bool) -> _Unparsing:
    out = {}
    for k, v in tree.items():
        new_key = yield (k, dialect, True)
        out[new_key] = yield (v, dialect, False)
    return _hashable(out) if as_key else out


def _unparse_list(tree: list | tuple, dialect: str, as_key: bool) -> _Unparsing:
    items = []
    for v in tree:
        items.append((yield (v, dialect, False)))
    return tuple(_hashable(i) for i in items) if as_key or isinstance(tree, tuple) else items


# ------------------------------------------------------------------- flow rendering

_PLAIN = lazy_pattern(r"^[A-Za-z_/$][A-Za-z0-9_ ./$@+:-]*$")
_RESERVED = {"true", "false", "null", "~", "yes", "no", "on", "off", "y", "n"}


def _flow(value: Any, *, max_chars: int | None = None) -> str:
    """Render plain data in YAML flow style (what ``str(Call)`` shows).

    ``max_chars`` cuts the text there with ``…`` (error messages use it, so a
    huge or very deep value cannot make a message unreadable).
    """
    return _render(value, tree=False, max_chars=max_chars)


#: ``str()`` and ``repr()`` of a :class:`Call` stop at this many characters
#: (then ``…``): the text of a call whose arguments alias a huge value many
#: times is never built whole. Views cut further; ``unparse`` gives the tree.
TEXT_MAX_CHARS = 100_000


def _call_key(call: Call) -> str:
    """The 2.0 key of a call (``$ns:fn$variant``), as ``unparse`` writes it."""
    variant = f"${call.key_variant}" if call.key_variant is not None else ""
    return f"${call.qualified_name}{variant}"


def _call_text(call: Call, max_chars: int | None = None) -> str:
    """``str(call)``: ``$f: [args]`` (``$f`` for a bare call without arguments).

    Rendered iteratively (see :func:`_render`), so any depth works.
    """
    if call.form == "bare" and not call.args:
        return _call_key(call)
    return f"{_flow(_call_key(call))}: {_render(call.args, tree=True, max_chars=max_chars)}"


def _render(root: Any, *, tree: bool, max_chars: int | None = None) -> str:
    """YAML flow text of ``root``, built with an explicit stack (any depth).

    ``tree=True`` renders a parsed tree the way ``_flow(unparse(tree))``
    would: calls in 2.0 notation, literal ``$`` strings escaped.
    """
    out: list[str] = []
    size = 0
    # Stack entries: a str is text to emit as is; a 1-tuple holds a value to render.
    stack: list[Any] = [(root,)]
    while stack:
        entry = stack.pop()
        if isinstance(entry, str):
            out.append(entry)
            size += len(entry)
        else:
            (value,) = entry
            if tree and isinstance(value, Call):
                if value.form == "bare" and not value.args:
                    stack.append(_call_key(value))
                else:
                    stack.extend(("}", (value.args,), ": ", _flow(_call_key(value)), "{"))
            elif tree and isinstance(value, str) and value.startswith("$") and value != "$":
                stack.append(_scalar_flow("$" + value))
            elif isinstance(value, Mapping):
                pieces: list[Any] = ["{"]
                for i, (key, sub) in enumerate(value.items()):
                    pieces.extend(((key,), ": ", (sub,), ", " if i < len(value) - 1 else "}"))
                if len(pieces) == 1:
                    pieces.append("}")
                stack.extend(reversed(pieces))
            elif isinstance(value, (list, tuple)):
                pieces = ["["]
                for i, sub in enumerate(value):
                    pieces.extend(((sub,), ", " if i < len(value) - 1 else "]"))
                if len(pieces) == 1:
                    pieces.append("]")
                stack.extend(reversed(pieces))
            elif max_chars is not None and isinstance(value, str) and len(value) > max_chars - size:
                # Cut before quoting: a 1 MB string (or 3,000 aliases of it) costs
                # what the budget left shows, not its whole text (#37).
                cut = value[: max(max_chars - size, 0) + 1]
                stack.append(cut if _is_plain(value) else _quote(cut))
            else:
                stack.append(_scalar_flow(value))
        if max_chars is not None and size > max_chars:
            return "".join(out)[:max_chars] + "…"
    return "".join(out)


def _is_plain(value: str) -> bool:
    """``value`` may be written as a plain (unquoted) flow scalar."""
    return bool(
        _PLAIN.match(value)
        and value == value.strip()
        and value.lower() not in _RESERVED
        and ": " not in value
        and not value.endswith(":")
        and " #" not in value
    )


def _scalar_flow(value: Any) -> str:
    if isinstance(value, str):
        return value if _is_plain(value) else _quote(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    if isinstance(value, float):
        text = repr(value)
        mantissa, e, exponent = text.partition("e")
        # YAML 1.1 readers (PyYAML) need a '.' in a float with an exponent
        return f"{mantissa}.0e{exponent}" if e and "." not in mantissa else text
    if isinstance(value, int):
        return repr(value)
    return _quote(str(value))


def _quote(text: str) -> str:
    """A YAML double-quoted scalar; readable characters stay, the rest is escaped."""
    import json  # imported on use, not at the top: `toskit check` of a clean file needs no json (#31)

    out = []
    for char in json.dumps(text, ensure_ascii=False)[1:-1]:
        code = ord(char)
        if char.isprintable():
            out.append(char)
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return '"' + "".join(out) + '"'
