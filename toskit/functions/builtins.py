"""The built-in functions of TOSCA 2.0 and 1.x, each with its argument checks.

Every built-in is ``fn(ev, call) -> result``: it evaluates its own arguments
through ``ev.args(call)`` (so ``$and``/``$or`` can stop early), raises
:class:`~toskit.functions.errors.Failure` with one of the kinds of §6.2, or
:class:`~toskit.functions.errors.Unevaluated` to stay a call (§5.3).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from toskit.functions import paths
from toskit.functions.compare import (
    canonical,
    deep_equal,
    describe,
    equal_operands,
    ordered_pair,
)
from toskit.functions.errors import Failure, Unevaluated
from toskit.functions.evaluate import ABSENT, Evaluation, Typed, value_size
from toskit.functions.notation import Call
from toskit.functions.regex import RegexRejected, compile_bounded
from toskit.functions.registry import BUILTINS_2_0, INTRINSICS_1_X
from toskit.sentinels import NO_DEFAULT
from toskit.values import (
    ScalarClass,
    ScalarUnit,
    format_scalar,
    is_number,
    parse_scalar_unit,
    scalar_units,
)

__all__ = ["BUILTINS", "lookup"]

Builtin = Callable[[Evaluation, Call], Any]
BUILTINS: dict[str, Builtin] = {}
_ONLY_1X: dict[str, Builtin] = {}

_INT64 = 2**63


def _builtin(name: str, *, only_1x: bool = False) -> Callable[[Builtin], Builtin]:
    def decorate(fn: Builtin) -> Builtin:
        (_ONLY_1X if only_1x else BUILTINS)[name] = fn
        return fn

    return decorate


def lookup(name: str, dialect: str) -> Builtin | None:
    """The built-in called ``name`` in a dialect (1.x adds its runtime-only intrinsics)."""
    found = BUILTINS.get(name)
    if found is None and dialect == "1.x":
        found = _ONLY_1X.get(name)
    return found


# ------------------------------------------------------------------------ arg checks


def _count(args: list, low: int, high: int | None = None, what: str = "") -> None:
    n = len(args)
    if n < low or (high is not None and n > high):
        if high == low:
            expected = f"exactly {low}"
        elif high is None:
            expected = f"at least {low}"
        else:
            expected = f"{low} to {high}"
        plural = "" if (high == low == 1) else "s"
        raise Failure("ArgCount", f"expected {expected} argument{plural}{what}, got {n}")


def _check_int(value: int) -> int:
    if abs(value) >= _INT64:
        raise Failure(
            "ArgType", f"the integer result {_abbreviated(value)} is beyond the 64-bit range"
        )
    return value


def _abbreviated(value: int) -> str:
    """An integer for a message: in full when short, else its sign and digit count."""
    if abs(value) < 10**30:
        return str(value)
    digits = int(value.bit_length() * 0.30103) + 1  # log10(2): no str() of a huge int
    return f"{'-' if value < 0 else ''}(an integer of about {digits} digits)"


def _boolean(value: Any, position: int) -> bool:
    if not isinstance(value, bool):
        raise Failure(
            "ArgType", f"argument {position + 1} must be a boolean, got {describe(value)}"
        )
    return value


def _string(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise Failure("ArgType", f"{what} must be a string, got {describe(value)}")
    return value


def _list(value: Any, what: str) -> list | tuple:
    if not isinstance(value, (list, tuple)):
        raise Failure("ArgType", f"{what} must be a list, got {describe(value)}")
    return value


def _primitive(ev: Evaluation, types: list[str | None], i: int) -> Any:
    """How operand ``i`` is read: a primitive type name, a ``ScalarClass``, or ``None``."""
    return ev.type_reader(types[i]) if i < len(types) else None


# ---------------------------------------------------------------- graph and context


@_builtin("get_input")
def _get_input(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 1, None)
    name = _string(args[0], "the input name")
    if ev.inputs is None or name not in ev.inputs:
        known = sorted(ev.inputs) if ev.inputs else []
        raise Failure(
            "UnknownInput", f"no input '{name}' is declared", misspelt=name, candidates=known
        )
    value = ev.inputs[name]
    if value is NO_DEFAULT:
        if ev.defer_missing_inputs:
            raise Unevaluated  # a template check: supplied at deployment
        raise Failure("InputValueMissing", f"input '{name}' has no value and no default")
    steps = args[1:]
    result = paths.index_value(value, steps, f"input '{name}'")
    return Typed(result, None if steps else ev.input_type(name))


@_builtin("get_property")
def _get_property(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    return paths.get_property(ev, args, attribute=False)


@_builtin("get_attribute")
def _get_attribute(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    return paths.get_property(ev, args, attribute=True)


@_builtin("get_artifact")
def _get_artifact(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    return paths.get_artifact(ev, args)


@_builtin("available_allocation")
def _available_allocation(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    paths.check_allocation_path(ev, args)
    raise Unevaluated


@_builtin("value")
def _value(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    if ev.value is ABSENT:
        raise Failure("ContextError", "$value is only defined inside a validation clause")
    result = paths.index_value(ev.value, args, "$value")
    return Typed(result, None if args else ev.value_type)


@_builtin("node_index")
def _node_index(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 0, 0)
    if ev.self_entity is None or not paths.is_node(ev.self_entity):
        raise Failure("ContextError", "$node_index is only defined inside a node template")
    return 0


@_builtin("relationship_index")
def _relationship_index(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 0, 0)
    if ev.self_entity is None or not paths.is_relationship(ev.self_entity):
        raise Failure("ContextError", "$relationship_index is only defined inside a relationship")
    raise Unevaluated


@_builtin("get_operation_output", only_1x=True)
def _get_operation_output(ev: Evaluation, call: Call) -> Any:
    raise Unevaluated


@_builtin("get_nodes_of_type", only_1x=True)
def _get_nodes_of_type(ev: Evaluation, call: Call) -> Any:
    raise Unevaluated


# -------------------------------------------------------------------------- boolean


def _short_circuit(ev: Evaluation, call: Call, stop_on: bool) -> Any:
    _count(call.args, 2, None)
    pending = False
    for i, arg in enumerate(call.args):
        value = ev.eval(arg)
        if isinstance(value, Call):
            pending = True  # cannot decide yet; a later argument might
            continue
        if _boolean(value, i) is stop_on:
            return stop_on
    if pending:
        raise Unevaluated
    return not stop_on


@_builtin("and")
def _and(ev: Evaluation, call: Call) -> Any:
    return _short_circuit(ev, call, False)


@_builtin("or")
def _or(ev: Evaluation, call: Call) -> Any:
    return _short_circuit(ev, call, True)


@_builtin("not")
def _not(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 1, 1)
    return not _boolean(args[0], 0)


@_builtin("xor")
def _xor(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    return _boolean(args[0], 0) != _boolean(args[1], 1)


@_builtin("equal")
def _equal(ev: Evaluation, call: Call) -> Any:
    args, types = ev.args(call)
    _count(args, 2, 2)
    return equal_operands(args[0], args[1], _primitive(ev, types, 0), _primitive(ev, types, 1))


def _comparison(op: Callable[[Any, Any], bool]) -> Builtin:
    def compare(ev: Evaluation, call: Call) -> Any:
        args, types = ev.args(call)
        _count(args, 2, 2)
        a, b = ordered_pair(args[0], args[1], _primitive(ev, types, 0), _primitive(ev, types, 1))
        try:
            return op(a, b)
        except TypeError:
            raise Failure(
                "TypeMismatch", f"cannot compare {describe(args[0])} with {describe(args[1])}"
            ) from None

    return compare


_builtin("greater_than")(_comparison(lambda a, b: a > b))
_builtin("greater_or_equal")(_comparison(lambda a, b: a >= b))
_builtin("less_than")(_comparison(lambda a, b: a < b))
_builtin("less_or_equal")(_comparison(lambda a, b: a <= b))


@_builtin("valid_values")
def _valid_values(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    choices = _list(args[1], "the second argument")
    return any(deep_equal(args[0], choice) for choice in choices)


@_builtin("matches")
def _matches(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    text = _string(args[0], "the first argument")
    pattern = _string(args[1], "the regular expression")
    try:
        # RE2 (toskit.functions.regex): linear-time matching, so neither the
        # pattern nor the text of a template can hang the loader.
        compiled = compile_bounded(pattern)
    except RegexRejected as exc:
        raise Failure("InvalidRegex", str(exc), exc.hint) from None
    return compiled.search(text) is not None


def _same_sequences(args: list, what: str) -> tuple[Any, Any]:
    a, b = args
    if isinstance(a, str) and isinstance(b, str):
        return a, b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a), list(b)
    raise Failure(
        "ArgType", f"{what} takes two strings or two lists, got {describe(a)} and {describe(b)}"
    )


def _list_starts_with(items: list, prefix: list) -> bool:
    return len(prefix) <= len(items) and all(deep_equal(x, y) for x, y in zip(items, prefix))


@_builtin("has_prefix")
def _has_prefix(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    a, b = _same_sequences(args, "$has_prefix")
    return a.startswith(b) if isinstance(a, str) else _list_starts_with(a, b)


@_builtin("has_suffix")
def _has_suffix(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    a, b = _same_sequences(args, "$has_suffix")
    if isinstance(a, str):
        return a.endswith(b)
    return len(b) <= len(a) and _list_starts_with(a[len(a) - len(b) :], b)


@_builtin("contains")
def _contains(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    a, b = _same_sequences(args, "$contains")
    if isinstance(a, str):
        return b in a
    return any(_list_starts_with(a[i:], b) for i in range(len(a) - len(b) + 1))


def _entries(value: Any, what: str) -> list:
    if isinstance(value, Mapping):
        return list(value.values())
    if isinstance(value, (list, tuple)):
        return list(value)
    raise Failure("ArgType", f"{what} must be a list or a map, got {describe(value)}")


def _map(value: Any, what: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise Failure("ArgType", f"{what} must be a map, got {describe(value)}")
    return value


def _has_key_in(mapping: Mapping, key: Any) -> bool:
    return any(deep_equal(k, key) for k in mapping)


@_builtin("has_entry")
def _has_entry(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    return any(deep_equal(e, args[1]) for e in _entries(args[0], "the first argument"))


@_builtin("has_key")
def _has_key(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    return _has_key_in(_map(args[0], "the first argument"), args[1])


@_builtin("has_all_entries")
def _has_all_entries(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    entries = {canonical(e) for e in _entries(args[0], "the first argument")}
    return all(canonical(w) in entries for w in _list(args[1], "the second argument"))


@_builtin("has_any_entry")
def _has_any_entry(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    entries = {canonical(e) for e in _entries(args[0], "the first argument")}
    return any(canonical(w) in entries for w in _list(args[1], "the second argument"))


@_builtin("has_all_keys")
def _has_all_keys(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    mapping = _map(args[0], "the first argument")
    return all(_has_key_in(mapping, k) for k in _list(args[1], "the second argument"))


@_builtin("has_any_key")
def _has_any_key(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 2, 2)
    mapping = _map(args[0], "the first argument")
    return any(_has_key_in(mapping, k) for k in _list(args[1], "the second argument"))


# ------------------------------------------------------------ strings, lists, sets


@_builtin("length")
def _length(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 1, 1)
    value = args[0]
    if isinstance(value, (str, list, tuple, Mapping)):
        return len(value)
    raise Failure("ArgType", f"$length takes a string, list or map, got {describe(value)}")


def _lenient_text(ev: Evaluation, value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    if ev.lenient and isinstance(value, bool):
        return "true" if value else "false"
    if ev.lenient and is_number(value):
        return str(value)
    allowed = "a string, number or boolean" if ev.lenient else "a string"
    raise Failure("ArgType", f"{what} must be {allowed}, got {describe(value)}")


@_builtin("concat")
def _concat(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 1, None)
    if all(isinstance(a, (list, tuple)) for a in args):
        # Items are shared, not copied: their nested size counts (aliases included).
        ev.check_size(_sizes(ev, args), "the concatenated list")
        return [item for a in args for item in a]
    if any(isinstance(a, (list, tuple)) for a in args):
        raise Failure("ArgType", "$concat takes all strings or all lists, not a mixture")
    texts = [_lenient_text(ev, a, f"argument {i + 1}") for i, a in enumerate(args)]
    ev.check_size(sum(map(len, texts)), "the concatenated string")
    return "".join(texts)


def _sizes(ev: Evaluation, values: list) -> int:
    """Total :func:`value_size` of ``values``, stopping once over the bound."""
    total = 0
    for value in values:
        total += value_size(value, ev.max_value_size - total)
        if total > ev.max_value_size:
            break
    return total


@_builtin("join")
def _join(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 1, 2)
    items = _list(args[0], "the first argument")
    delimiter = _string(args[1], "the delimiter") if len(args) == 2 else ""
    ev.check_size(len(items) * len(delimiter), "the joined string")
    texts = [_lenient_text(ev, item, f"item {i}") for i, item in enumerate(items)]
    ev.check_size(
        sum(map(len, texts)) + len(delimiter) * max(len(texts) - 1, 0), "the joined string"
    )
    return delimiter.join(texts)


@_builtin("token")
def _token(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 3, 3)
    text = _string(args[0], "the first argument")
    delimiters = _string(args[1], "the delimiters")
    index = args[2]
    if not delimiters:
        raise Failure("ArgType", "the delimiters must not be empty")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise Failure("ArgType", f"the index must be a non-negative integer, got {describe(index)}")
    pieces = re.split("[" + re.escape(delimiters) + "]", text)
    if index >= len(pieces):
        raise Failure(
            "PathError",
            f"index {index} is out of range: '{text}' has {len(pieces)} piece(s)",
        )
    return pieces[index]


def _unique(items: list) -> list:
    """Items without duplicates (equality of §6.1), first occurrence kept; linear time."""
    seen: set = set()
    out: list = []
    for item in items:
        key = canonical(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


@_builtin("union")
def _union(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 1, None)
    lists = [_list(a, f"argument {i + 1}") for i, a in enumerate(args)]
    ev.check_size(_sizes(ev, lists), "the union")
    return _unique([item for items in lists for item in items])


@_builtin("intersection")
def _intersection(ev: Evaluation, call: Call) -> Any:
    args, _ = ev.args(call)
    _count(args, 1, None)
    lists = [_list(a, f"argument {i + 1}") for i, a in enumerate(args)]
    first = lists[0]
    others = [{canonical(o) for o in other} for other in lists[1:]]
    return _unique([item for item in first if all(canonical(item) in o for o in others)])


# ------------------------------------------------------------------------ arithmetic


def _number_result(value: int | float) -> int | float:
    if isinstance(value, int):
        return _check_int(value)
    if not math.isfinite(value):
        raise Failure("ArgType", f"the result {value} is not a finite number")
    return value


class _ScalarReader:
    """Reads scalar operands: classic scalar-units, or a declared 2.0 scalar type."""

    def __init__(self, ev: Evaluation, types: list[str | None]) -> None:
        self.declared: ScalarClass | None = None
        for type_name in types:
            reader = ev.type_reader(type_name)
            if isinstance(reader, ScalarClass):
                self.declared = reader
                break

    def read(self, value: Any) -> ScalarUnit | None:
        if not isinstance(value, str):
            return None
        if self.declared is not None:
            found = self.declared.parse(value)
            if found is not None:
                return found
        return parse_scalar_unit(value)

    def result(self, amount: float, like: ScalarUnit) -> str:
        table = (
            self.declared.units
            if self.declared is not None and like.kind == self.declared.name
            else scalar_units(like.kind)
        )
        number = amount / table[like.unit]
        if not math.isfinite(number):
            raise Failure("ArgType", f"the result {number} is not a finite number")
        return format_scalar(number, like.unit)


def _numbers_or_scalars(reader: _ScalarReader, args: list, name: str) -> tuple[str, list]:
    """``("number", [..])`` or ``("scalar", [ScalarUnit..])`` of one class."""
    read = [reader.read(a) for a in args]
    scalars = [s for s in read if s is not None]
    if len(scalars) == len(read):
        kinds = {s.kind for s in scalars}
        if len(kinds) > 1:
            raise Failure("ArgType", f"{name} cannot mix scalar-units of classes {sorted(kinds)}")
        return "scalar", scalars
    for a, s in zip(args, read):
        if s is None and not is_number(a):
            raise Failure("ArgType", f"{name} takes numbers or scalar-units, got {describe(a)}")
    if scalars:
        raise Failure("ArgType", f"{name} cannot mix scalar-units with plain numbers")
    return "number", args


@_builtin("sum")
def _sum(ev: Evaluation, call: Call) -> Any:
    args, types = ev.args(call)
    _count(args, 1, None)
    reader = _ScalarReader(ev, types)
    kind, values = _numbers_or_scalars(reader, args, "$sum")
    if kind == "scalar":
        return reader.result(sum(v.amount for v in values), values[0])
    return _number_result(sum(values))


@_builtin("difference")
def _difference(ev: Evaluation, call: Call) -> Any:
    args, types = ev.args(call)
    _count(args, 2, 2)
    reader = _ScalarReader(ev, types)
    kind, values = _numbers_or_scalars(reader, args, "$difference")
    if kind == "scalar":
        return reader.result(values[0].amount - values[1].amount, values[0])
    return _number_result(values[0] - values[1])


@_builtin("product")
def _product(ev: Evaluation, call: Call) -> Any:
    args, types = ev.args(call)
    _count(args, 1, None)
    reader = _ScalarReader(ev, types)
    first = reader.read(args[0])
    if first is not None:
        if len(args) != 2:
            raise Failure(
                "ArgCount",
                f"a scalar-unit is multiplied by exactly one number, got {len(args) - 1}",
            )
        if not is_number(args[1]):
            raise Failure("ArgType", f"the factor must be a number, got {describe(args[1])}")
        return reader.result(first.amount * args[1], first)
    result: int | float = 1
    for a in args:
        if not is_number(a):
            raise Failure("ArgType", f"$product takes numbers, got {describe(a)}")
        result = result * a
        if isinstance(result, int) and abs(result) >= _INT64:
            _check_int(result)
    return _number_result(result)


@_builtin("quotient")
def _quotient(ev: Evaluation, call: Call) -> Any:
    args, types = ev.args(call)
    _count(args, 2, 2)
    dividend, divisor = args
    reader = _ScalarReader(ev, types)
    scalar = reader.read(dividend)
    if scalar is None and not is_number(dividend):
        raise Failure(
            "ArgType", f"the dividend must be a number or scalar-unit, got {describe(dividend)}"
        )
    if not is_number(divisor):
        raise Failure("ArgType", f"the divisor must be a number, got {describe(divisor)}")
    if divisor == 0:
        raise Failure("DivisionByZero", "division by zero")
    if scalar is not None:
        return reader.result(scalar.amount / divisor, scalar)
    try:
        return _number_result(float(dividend) / divisor)
    except OverflowError:
        raise Failure("ArgType", "the quotient is beyond the float range") from None


@_builtin("remainder")
def _remainder(ev: Evaluation, call: Call) -> Any:
    args, types = ev.args(call)
    _count(args, 2, 2)
    dividend, divisor = args
    scalar = _ScalarReader(ev, types).read(dividend)
    number = scalar.number if scalar is not None else dividend
    if isinstance(number, bool) or not isinstance(number, int):
        raise Failure(
            "ArgType",
            f"the dividend must be an integer or integral scalar-unit, got {describe(dividend)}",
        )
    if isinstance(divisor, bool) or not isinstance(divisor, int):
        raise Failure("ArgType", f"the divisor must be an integer, got {describe(divisor)}")
    if divisor == 0:
        raise Failure("DivisionByZero", "division by zero")
    rest = abs(number) % abs(divisor)
    rest = -rest if number < 0 else rest
    if scalar is not None:
        return format_scalar(rest, scalar.unit)
    return _check_int(rest)


def _one_number(ev: Evaluation, call: Call) -> int | float:
    args, _ = ev.args(call)
    _count(args, 1, 1)
    value = args[0]
    if not is_number(value):
        raise Failure("ArgType", f"expected a number, got {describe(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise Failure("ArgType", f"{value} cannot be rounded to an integer")
    return value


@_builtin("round")
def _round(ev: Evaluation, call: Call) -> Any:
    value = _one_number(ev, call)
    if isinstance(value, int):
        return value
    # Exact halves go toward -inf (§11.11): round half down == ceil(x - 0.5).
    return _check_int(math.ceil(value - 0.5))


@_builtin("floor")
def _floor(ev: Evaluation, call: Call) -> Any:
    value = _one_number(ev, call)
    return value if isinstance(value, int) else _check_int(math.floor(value))


@_builtin("ceil")
def _ceil(ev: Evaluation, call: Call) -> Any:
    value = _one_number(ev, call)
    return value if isinstance(value, int) else _check_int(math.ceil(value))


assert set(BUILTINS) == set(BUILTINS_2_0), set(BUILTINS) ^ set(BUILTINS_2_0)
assert set(_ONLY_1X) == INTRINSICS_1_X - BUILTINS_2_0
