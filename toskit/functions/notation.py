"""Function notation: :class:`Call`, :func:`parse` and :func:`unparse`.

2.0 files use the ``$`` notation (spec/functions.md §3): a single-key map
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

import json
import math
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

from toskit.diagnostics import Diagnostic, format_path
from toskit.errors import FunctionSyntaxError, ToskitError
from toskit.functions import registry
from toskit.functions._limits import deep_recursion

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

_V1_VERSION = re.compile(r"^tosca_simple_yaml_1_\d+$")


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
    """A function call in a value tree (spec/functions.md §1.1).

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
        if form not in ("map", "bare"):
            raise ToskitError(f"Call form must be 'map' or 'bare', not {form!r}")
        if isinstance(args, (str, bytes, Mapping)):
            raise ToskitError(f"Call args must be a list of arguments, not {type(args).__name__}")
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
        return (
            self.name == other.name
            and self.namespace == other.namespace
            and self.key_variant == other.key_variant
            and self.args == other.args
        )

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(
                ("Call", self.name, self.namespace, self.key_variant, freeze(self.args))
            )
        return self._hash

    def __repr__(self) -> str:
        extra = ""
        if self.namespace is not None:
            extra += f", namespace={self.namespace!r}"
        if self.key_variant is not None:
            extra += f", key_variant={self.key_variant!r}"
        if self.form != "map":
            extra += f", form={self.form!r}"
        return f"Call({self.name!r}, {self.args!r}{extra})"

    def __str__(self) -> str:
        plain = unparse(self)
        if isinstance(plain, str):
            return plain
        ((key, args),) = plain.items()
        return f"{_flow(key)}: {_flow(args)}"

    def _repr_html_(self) -> str:
        from toskit.display import to_html

        return to_html(self)


def contains_call(value: Any) -> bool:
    """Whether a tree holds a :class:`Call` anywhere (keys included)."""
    if isinstance(value, Call):
        return True
    if isinstance(value, Mapping):
        return any(contains_call(k) or contains_call(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(contains_call(v) for v in value)
    return False


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
        return Diagnostic(severity, code, message, path=format_path(parts), hint=hint)

    def is_known(self, qualified: str) -> bool:
        if qualified in self.known:
            return True
        builtins = registry.BUILTINS_2_0 if self.dialect == "2.0" else registry.INTRINSICS_1_X
        return qualified in builtins

    # -- 2.0 ------------------------------------------------------------------------

    def parse(self, value: Any, parts: tuple) -> Any:
        if isinstance(value, str):
            return self.parse_string(value, parts)
        if isinstance(value, Mapping):
            return self.parse_map(value, parts)
        if isinstance(value, (list, tuple)):
            return [self.parse(item, (*parts, i)) for i, item in enumerate(value)]
        return value

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
                    f"'{text}' is kept as literal text: no function "
                    f"'{text[1:]}' is known",
                    parts,
                    hint=f"write '${text}' for a literal '{text}'",
                )
            )
        return text

    def parse_map(self, value: Mapping, parts: tuple) -> Any:
        if self.dialect != "2.0":
            return self.parse_map_1x(value, parts)
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
            args = self.arguments(value[key], (*parts, key))
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
            out[new_key] = self.parse(item, (*parts, key))
        return out

    def parse_key(self, key: Any, parts: tuple) -> Any:
        if isinstance(key, str):
            return key[1:] if key.startswith("$$") else key
        if isinstance(key, (Mapping, list, tuple)):
            parsed = self.parse(key, parts)
            return _hashable(parsed)
        return key

    def malformed_beside(self, function_keys: list[str], parts: tuple) -> None:
        others = len(function_keys) > 1
        diags = [
            self.diagnostic(
                "error",
                "malformed-function",
                f"malformed function: '{key}' is beside other keys in one map "
                + ("(a function call is a map with one key)" if others else
                   "(a function call must be the only key of its map)"),
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

    def arguments(self, raw: Any, parts: tuple) -> list[Any]:
        if raw is None:
            return []
        if isinstance(raw, (list, tuple)):
            return [self.parse(item, (*parts, i)) for i, item in enumerate(raw)]
        return [self.parse(raw, parts)]

    # -- 1.x ------------------------------------------------------------------------

    def parse_map_1x(self, value: Mapping, parts: tuple) -> Any:
        if len(value) == 1:
            ((key, raw),) = value.items()
            if isinstance(key, str) and self.is_known(key):
                namespace, name = registry.split_qualified(key)
                return Call(name, self.arguments(raw, (*parts, key)), namespace, path=parts)
        out: dict[Any, Any] = {}
        for key, item in value.items():
            new_key = _hashable(self.parse(key, parts)) if isinstance(key, (Mapping, list, tuple)) else key
            out[new_key] = self.parse(item, (*parts, key))
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
    A malformed call raises :class:`toskit.FunctionSyntaxError`. The input is
    never modified.
    """
    dialect = dialect_of(version)
    if not isinstance(value, (str, Mapping, list, tuple)) or (
        isinstance(value, str) and (dialect != "2.0" or not value.startswith("$"))
    ):
        return value  # a scalar that cannot hold a call: nothing to do
    parser = _Parser(dialect, frozenset(known), diagnostics, make_diagnostic)
    try:
        with deep_recursion():
            return parser.parse(value, tuple(path))
    except RecursionError:
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
        with deep_recursion():
            return _unparse(tree, dialect, as_key=False)
    except RecursionError:
        raise ToskitError("the tree is nested too deeply to unparse") from None


def _unparse(tree: Any, dialect: str, as_key: bool) -> Any:
    if isinstance(tree, Call):
        qualified = tree.qualified_name
        if dialect == "1.x":
            plain: Any = {qualified: [_unparse(a, dialect, False) for a in tree.args]}
        else:
            variant = f"${tree.key_variant}" if tree.key_variant is not None else ""
            if tree.form == "bare" and not tree.args:
                return f"${qualified}{variant}"
            plain = {f"${qualified}{variant}": [_unparse(a, dialect, False) for a in tree.args]}
        return _hashable(plain) if as_key else plain
    if isinstance(tree, str):
        if dialect == "2.0" and tree.startswith("$") and tree != "$":
            return "$" + tree
        return tree
    if isinstance(tree, Mapping):
        out = {_unparse(k, dialect, True): _unparse(v, dialect, False) for k, v in tree.items()}
        return _hashable(out) if as_key else out
    if isinstance(tree, (list, tuple)):
        items = [_unparse(v, dialect, False) for v in tree]
        return tuple(_hashable(i) for i in items) if as_key or isinstance(tree, tuple) else items
    return tree


# ------------------------------------------------------------------- flow rendering

_PLAIN = re.compile(r"^[A-Za-z_/$][A-Za-z0-9_ ./$@+:-]*$")
_RESERVED = {"true", "false", "null", "~", "yes", "no", "on", "off", "y", "n"}


def _flow(value: Any) -> str:
    """Render plain data in YAML flow style (what ``str(Call)`` shows)."""
    if isinstance(value, str):
        if (
            _PLAIN.match(value)
            and value == value.strip()
            and value.lower() not in _RESERVED
            and ": " not in value
            and not value.endswith(":")
            and " #" not in value
        ):
            return value
        return _quote(value)
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
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _quote(str(value))


def _quote(text: str) -> str:
    """A YAML double-quoted scalar; readable characters stay, the rest is escaped."""
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
