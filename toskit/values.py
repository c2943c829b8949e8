"""TOSCA special values: scalar-units, versions, timestamps, ranges, bytes.

Used by :mod:`toskit.functions` (comparisons, arithmetic) and by the TOSCA
layer (type checks). Independent of both. Every ``parse_*`` function takes
what a YAML loader returns and gives back a value object, or ``None`` when
the input is not of that type; none of them raises for bad input.

Scalar-units (``parse_scalar_unit(text, kind=None)``)
    ``"<number><optional spaces><unit>"``. Classes and canonical units:
    ``size`` (``B``; ``kB MB GB TB`` powers of 1000, ``KiB MiB GiB TiB``
    powers of 1024), ``time`` (``s``; ``d h m s ms us ns``), ``frequency``
    (``Hz``; ``kHz MHz GHz``), ``bitrate`` (``bps``; ``Kbps Kibps Mbps Mibps
    Gbps Gibps Tbps Tibps`` and the byte forms ``Bps KBps KiBps …``, 1 B =
    8 b). Size, time and frequency units match without regard to case
    (``2 gb`` is ``2 GB``); bitrate units match exactly (``Mbps`` ≠
    ``MBps``). ``kind`` may be the class (``"size"``) or the TOSCA type name
    (``"scalar-unit.size"``); without it the unit decides the class. The
    result is a :class:`ScalarUnit` with ``kind``, ``amount`` (in the
    canonical unit), ``number`` and ``unit`` (as written, normalised to the
    table's spelling). Scalars of one class compare by amount.
    :func:`format_scalar` writes ``"<number> <unit>"`` (the number an int
    when whole), which is how arithmetic results are shown.

Versions (``parse_version``)
    ``major.minor[.fix[.qualifier[-build]]]`` with non-negative integers
    for major, minor, fix and build. Ordering compares
    ``(major, minor, fix, qualifier, build)`` with an absent fix or build
    counting as 0 and an absent qualifier as ``""`` (so ``1.0`` equals
    ``1.0.0`` and ``1.0.0`` sorts before ``1.0.0.beta``); qualifiers compare
    by code point. A YAML float such as ``1.0`` is read through ``repr``.

Timestamps (``parse_timestamp``)
    The YAML 1.1 timestamp forms (ISO 8601 as YAML writes it:
    ``2001-12-14t21:59:43.10-05:00``, ``2001-12-14 21:59:43.10 -5``,
    ``2002-12-14``), also ``datetime``/``date`` objects. The result is an
    aware :class:`datetime.datetime`; a time without offset is UTC, a bare
    date is midnight UTC. Comparison is by instant. ``rfc3339=True`` (TOSCA
    2.0, whose timestamps are RFC 3339 strings) accepts only a full date,
    optionally followed by ``T`` (or ``t``), a two-digit time, a fraction and
    ``Z`` or a ``±hh:mm`` offset: no space separator, no one-digit fields.
    A leap second (``:60``, RFC 3339 §5.7) is accepted in both modes and read
    as the last microsecond of its minute (``:59.999999``), so it orders
    after ``:59`` and before the next minute (datetime has no second 60).

Ranges (``parse_range``)
    ``[lower, upper]``: two integers (or scalar-unit strings of one class),
    ``lower <= upper``; ``upper`` may be ``UNBOUNDED``. The result is a
    :class:`Range` with ``contains(x)``.

TOSCA 2.0 scalar types (``ScalarClass.define``)
    A data type ``derived_from: scalar`` declares ``units`` (unit →
    multiplier), optional ``prefixes`` (prefix → multiplier, only with a
    single unit), ``canonical_unit`` and ``data_type`` (``integer`` or
    ``float``, the default). ``ScalarClass.define`` checks a definition
    (the rules the OASIS conformance suite tests) and returns the class and
    a list of problems; ``ScalarClass.parse("10 kg")`` reads a value as a
    :class:`ScalarUnit` whose ``kind`` is the type's name. Units are matched
    exactly (they are case-sensitive); the number must be of the data type
    (``1.5 Mbits/s`` is not an integer scalar).

Bytes (``parse_bytes``)
    TOSCA 2.0 ``bytes`` are base64 text (padding required, whitespace
    ignored); the result is ``bytes``.

>>> parse_scalar_unit("2 GB") > parse_scalar_unit("1500 MB")
True
>>> parse_version("1.0") == parse_version("1.0.0")
True
>>> mass, problems = ScalarClass.define("Mass", units={"g": 1}, prefixes={"": 1, "k": 1000})
>>> mass.parse("500 g") < mass.parse("10 kg"), problems
(True, [])
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import math
import re
from collections.abc import Mapping
from functools import total_ordering
from typing import Any

from toskit.plain import is_number  # re-exported: the one definition lives there
from toskit.records import record

__all__ = [
    "SCALAR_KINDS",
    "ScalarClass",
    "UNBOUNDED",
    "Range",
    "ScalarUnit",
    "Version",
    "format_scalar",
    "is_number",
    "parse_bytes",
    "parse_range",
    "parse_scalar_unit",
    "parse_timestamp",
    "parse_version",
    "scalar_kind_of_type",
    "scalar_units",
]

UNBOUNDED = "UNBOUNDED"
"""The upper bound of an open range."""

_SIZE: dict[str, float] = {
    "B": 1,
    "kB": 1000,
    "KiB": 1024,
    "MB": 1000**2,
    "MiB": 1024**2,
    "GB": 1000**3,
    "GiB": 1024**3,
    "TB": 1000**4,
    "TiB": 1024**4,
}
_TIME: dict[str, float] = {
    "d": 86400,
    "h": 3600,
    "m": 60,
    "s": 1,
    "ms": 1e-3,
    "us": 1e-6,
    "ns": 1e-9,
}
_FREQUENCY: dict[str, float] = {"Hz": 1, "kHz": 1000, "MHz": 1000**2, "GHz": 1000**3}
_BITRATE: dict[str, float] = {"bps": 1, "Bps": 8}
for _prefix, _dec, _bin in (
    ("K", 1000, 1024),
    ("M", 1000**2, 1024**2),
    ("G", 1000**3, 1024**3),
    ("T", 1000**4, 1024**4),
):
    _BITRATE[f"{_prefix}bps"] = _dec
    _BITRATE[f"{_prefix}ibps"] = _bin
    _BITRATE[f"{_prefix}Bps"] = _dec * 8
    _BITRATE[f"{_prefix}iBps"] = _bin * 8

_UNITS: dict[str, dict[str, float]] = {
    "size": _SIZE,
    "time": _TIME,
    "frequency": _FREQUENCY,
    "bitrate": _BITRATE,
}
SCALAR_KINDS = tuple(_UNITS)


def scalar_units(kind: str) -> Mapping[str, float]:
    """The unit table of a scalar-unit class (``"size"``…): unit -> multiplier."""
    return _UNITS[kind]


"""The scalar-unit classes: ``size``, ``time``, ``frequency``, ``bitrate``."""

_CASE_INSENSITIVE = {
    kind: {unit.lower(): unit for unit in _UNITS[kind]} for kind in ("size", "time", "frequency")
}

# re.ASCII: TOSCA numbers are ASCII ('１２ GB' is not a scalar-unit, #24).
_SCALAR_RE = re.compile(
    r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*([A-Za-z]+)\s*$", re.ASCII
)


@total_ordering
@record(frozen=True, eq=False)
class ScalarUnit:
    """A scalar-unit value: ``kind``, ``amount`` in the canonical unit, as written.

    Two scalars are equal when they are of one class with equal amounts;
    ordering between different classes raises ``TypeError`` (callers check
    ``kind`` first).
    """

    kind: str
    amount: float
    number: int | float
    unit: str

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScalarUnit):
            return NotImplemented
        # Sub-units (ms, ns) are float factors: compare with a relative tolerance.
        return self.kind == other.kind and (
            self.amount == other.amount or math.isclose(self.amount, other.amount, rel_tol=1e-12)
        )

    def __lt__(self, other: ScalarUnit) -> bool:
        if not isinstance(other, ScalarUnit) or other.kind != self.kind:
            raise TypeError("scalar-units of different classes do not compare")
        return self.amount < other.amount and self != other

    def __hash__(self) -> int:
        return hash((self.kind, round(self.amount, 9)))

    def in_unit(self, unit: str) -> int | float:
        """The amount expressed in ``unit`` (of the same class)."""
        factor = _UNITS[self.kind][unit]
        return _tidy(self.amount / factor)

    def __str__(self) -> str:
        return format_scalar(self.number, self.unit)


def _tidy(number: float) -> int | float:
    """An int when the float is whole (and finite), else the float."""
    if isinstance(number, float) and number.is_integer() and abs(number) < 2**63:
        return int(number)
    return number


def format_scalar(number: int | float, unit: str) -> str:
    """``"<number> <unit>"``, the number written as an int when it is whole."""
    number = _tidy(number)
    return f"{number} {unit}"


def scalar_kind_of_type(type_name: str | None) -> str | None:
    """``"scalar-unit.size"`` → ``"size"``; ``None`` for other type names."""
    if isinstance(type_name, str) and type_name.startswith("scalar-unit."):
        kind = type_name[len("scalar-unit.") :]
        return kind if kind in _UNITS else None
    return None


def _lookup_unit(kind: str, unit: str) -> str | None:
    table = _UNITS[kind]
    if unit in table:
        return unit
    if kind in _CASE_INSENSITIVE:
        return _CASE_INSENSITIVE[kind].get(unit.lower())
    return None


def parse_scalar_unit(text: Any, kind: str | None = None) -> ScalarUnit | None:
    """Read ``"2 GB"``-style text as a :class:`ScalarUnit`, or ``None``.

    ``kind`` restricts the class (``"size"`` or ``"scalar-unit.size"``).
    Without it, a unit that belongs to exactly one class decides it.
    """
    if not isinstance(text, str) or len(text) > 200:
        return None
    if kind is not None:
        kind = scalar_kind_of_type(kind) or kind
        if kind not in _UNITS:
            return None
    match = _SCALAR_RE.match(text)
    if not match:
        return None
    raw_number, raw_unit = match.groups()
    kinds = [kind] if kind else list(_UNITS)
    found = [(k, u) for k in kinds if (u := _lookup_unit(k, raw_unit)) is not None]
    if len(found) != 1:
        return None
    found_kind, unit = found[0]
    try:
        number: int | float = int(raw_number)
    except ValueError:
        number = float(raw_number)
        if not math.isfinite(number):
            return None
    amount = number * _UNITS[found_kind][unit]
    return ScalarUnit(found_kind, amount, number, unit)


# ------------------------------------------------------------- TOSCA 2.0 scalar types

_NUMBER_UNIT_RE = re.compile(
    r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)\s*(\S+)\s*$", re.ASCII
)
_INTEGER_RE = re.compile(r"^[+-]?\d+$", re.ASCII)


def _multiplier(value: Any) -> float | None:
    return float(value) if is_number(value) and math.isfinite(value) else None


def _read_multipliers(label: str, raw: Any, target: dict, problems: list[str]) -> None:
    """Check a scalar type's ``units`` or ``prefixes`` map (``label``) and
    add its valid entries to ``target``; each problem is added to ``problems``."""
    if raw is None:
        return
    if not isinstance(raw, dict) or (label == "units" and not raw):
        problems.append(f"'{label}' must be a non-empty map of {label[:-1]} to multiplier")
        return
    for key, mult in raw.items():
        number = _multiplier(mult)
        if (
            not isinstance(key, str)
            or (label == "units" and not key)
            or (isinstance(key, str) and any(c.isspace() for c in key))
        ):
            problems.append(
                f"{label[:-1]} {key!r} must be a string without spaces"
                + (" (and not empty)" if label == "units" else "")
            )
        elif number is None:
            problems.append(
                f"the multiplier of {label[:-1]} '{key}' must be a number, not {mult!r}"
            )
        elif number <= 0:
            problems.append(
                f"the multiplier of {label[:-1]} '{key}' must be positive, not {mult!r}"
            )
        else:
            target[key] = number


def _canonical_unit(canonical: Any, expanded: dict[str, float], problems: list[str]) -> Any:
    """The canonical unit: the one given (it must be a unit with multiplier
    1), else the one unit with multiplier 1; problems are added to
    ``problems``."""
    if canonical is None:
        ones = [u for u, m in expanded.items() if m == 1.0]
        if len(ones) > 1:
            problems.append(
                f"several units have the multiplier 1 ({', '.join(ones)}): set 'canonical_unit'"
            )
        return ones[0] if ones else None
    if not isinstance(canonical, str) or canonical not in expanded:
        problems.append(f"the canonical_unit {canonical!r} is not one of the units")
    elif expanded[canonical] != 1.0:
        problems.append(
            f"the canonical_unit '{canonical}' must have the multiplier 1, not "
            f"{expanded[canonical]:g}"
        )
    return canonical


@record(frozen=True)
class ScalarClass:
    """A TOSCA 2.0 scalar type: its units (prefixes applied), canonical unit and data type.

    ``units`` maps every accepted unit spelling (prefix + unit when the type
    has prefixes) to its multiplier towards the canonical unit. ``raw_units``
    and ``raw_prefixes`` are the definition's own maps (merged along the
    derivation chain), kept so that a derived type can refine them.
    """

    name: str
    units: dict[str, float]
    canonical_unit: str
    data_type: str = "float"
    raw_units: dict[str, float] | None = None
    raw_prefixes: dict[str, float] | None = None

    @classmethod
    def define(
        cls,
        name: str,
        *,
        units: Any = None,
        prefixes: Any = None,
        canonical_unit: Any = None,
        data_type: str | None = None,
        parent: ScalarClass | None = None,
    ) -> tuple[ScalarClass | None, list[str]]:
        """Check a scalar type definition; ``(class or None, problems)``.

        ``data_type`` is the *primitive* the declared data type resolves to
        (``integer`` or ``float``; the caller resolves ``PositiveInteger`` →
        ``integer``). A derived type (``parent``) inherits units, prefixes,
        canonical unit and data type, may add units and prefixes, and may
        not change the data type's primitive.
        """
        problems: list[str] = []
        merged_units = dict(parent.raw_units or {}) if parent else {}
        merged_prefixes = dict(parent.raw_prefixes or {}) if parent else {}
        _read_multipliers("units", units, merged_units, problems)
        _read_multipliers("prefixes", prefixes, merged_prefixes, problems)
        primitive = (
            data_type if data_type is not None else (parent.data_type if parent else "float")
        )
        if primitive not in ("integer", "float"):
            problems.append(
                "the data_type of a scalar must be integer or float (or derive from one), not "
                f"{primitive!r}"
            )
        elif parent is not None and data_type is not None and primitive != parent.data_type:
            problems.append(
                f"the data_type {primitive!r} is incompatible with the parent's "
                f"{parent.data_type!r}"
            )
        if not merged_units:
            problems.append("a scalar type needs 'units' (unit to multiplier, one of them 1)")
            return None, problems
        if merged_prefixes and len(merged_units) > 1:
            problems.append("'prefixes' are only allowed when the type has exactly one unit")
        if merged_prefixes and 1.0 not in merged_prefixes.values():
            problems.append(
                "'prefixes' must include one with multiplier 1 (usually the empty prefix '')"
            )
        expanded = dict(merged_units)
        if merged_prefixes and len(merged_units) == 1:
            ((unit, umult),) = merged_units.items()
            expanded = {f"{p}{unit}": pmult * umult for p, pmult in merged_prefixes.items()}
        if not any(m == 1.0 for m in merged_units.values()):
            problems.append("one unit must have the multiplier 1")
        if canonical_unit is None and parent is not None:
            canonical_unit = parent.canonical_unit
        canonical = _canonical_unit(canonical_unit, expanded, problems)
        if primitive == "integer" and any(not float(m).is_integer() for m in expanded.values()):
            problems.append("an integer scalar type needs whole-number multipliers")
        if problems or not isinstance(canonical, str):
            return None, problems
        return cls(name, expanded, canonical, primitive, merged_units, merged_prefixes), []

    def parse(self, value: Any) -> ScalarUnit | None:
        """Read ``"<number> <unit>"`` in this type, or ``None``."""
        if not isinstance(value, str) or len(value) > 200:
            return None
        match = _NUMBER_UNIT_RE.match(value)
        if not match:
            return None
        raw_number, unit = match.groups()
        if unit not in self.units:
            return None
        if self.data_type == "integer":
            if not _INTEGER_RE.match(raw_number):
                return None
            number: int | float = int(raw_number)
        else:
            number = float(raw_number)
            if not math.isfinite(number):
                return None
            number = _tidy(number) if _INTEGER_RE.match(raw_number) else number
        return ScalarUnit(self.name, number * self.units[unit], number, unit)

    def format(self, amount: float, unit: str | None = None) -> str:
        """``"<number> <unit>"`` for a canonical amount, in ``unit`` (default: canonical)."""
        unit = unit or self.canonical_unit
        return format_scalar(amount / self.units[unit], unit)


# --------------------------------------------------------------------------- versions

_VERSION_RE = re.compile(
    # Leading zeros are accepted (``14.04``: Ubuntu-style versions, read by
    # tosca-parser too); each component is read as an integer.
    r"^(\d+)\.(\d+)(?:\.(\d+)(?:\.([A-Za-z0-9_]+)(?:-(\d+))?)?)?$",
    re.ASCII,
)


@total_ordering
@record(frozen=True, eq=False)
class Version:
    """A TOSCA version ``major.minor[.fix[.qualifier[-build]]]`` (see the module doc)."""

    major: int
    minor: int
    fix: int | None = None
    qualifier: str | None = None
    build: int | None = None

    def _key(self) -> tuple[int, int, int, str, int]:
        return (self.major, self.minor, self.fix or 0, self.qualifier or "", self.build or 0)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: Version) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}"
        if self.fix is not None:
            text += f".{self.fix}"
            if self.qualifier is not None:
                text += f".{self.qualifier}"
                if self.build is not None:
                    text += f"-{self.build}"
        return text


def parse_version(text: Any) -> Version | None:
    """Read a TOSCA version (string, or a YAML float such as ``1.0``), or ``None``."""
    if isinstance(text, float) and math.isfinite(text):
        text = repr(text)
    elif isinstance(text, bool) or not isinstance(text, str):
        return None
    match = _VERSION_RE.match(text.strip()) if len(text) < 200 else None
    if not match:
        return None
    major, minor, fix, qualifier, build = match.groups()
    return Version(
        int(major),
        int(minor),
        int(fix) if fix is not None else None,
        qualifier,
        int(build) if build is not None else None,
    )


# ------------------------------------------------------------------------- timestamps

_TIMESTAMP_RE = re.compile(
    r"""^(?P<year>[0-9]{4})-(?P<month>[0-9]{1,2})-(?P<day>[0-9]{1,2})
    (?:(?:[Tt]|[ \t]+)
       (?P<hour>[0-9]{1,2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})
       (?:\.(?P<fraction>[0-9]*))?
       (?:[ \t]*(?P<tz>[Zz]
          |(?P<tz_sign>[-+])(?P<tz_hour>[0-9]{1,2})(?::?(?P<tz_minute>[0-9]{2}))?))?
    )?$""",
    re.VERBOSE,
)


_RFC3339_RE = re.compile(
    r"""^[0-9]{4}-[0-9]{2}-[0-9]{2}
    (?:[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:[Zz]|[-+][0-9]{2}:[0-9]{2})?)?$""",
    re.VERBOSE,
)


def parse_timestamp(value: Any, *, rfc3339: bool = False) -> _dt.datetime | None:
    """Read a YAML/ISO 8601 timestamp as an aware ``datetime``, or ``None``.

    ``rfc3339``: accept only RFC 3339 text (TOSCA 2.0; see the module docstring).
    """
    if isinstance(value, _dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=_dt.timezone.utc)
    if isinstance(value, _dt.date):
        return _dt.datetime(value.year, value.month, value.day, tzinfo=_dt.timezone.utc)
    if not isinstance(value, str) or len(value) > 100:
        return None
    if rfc3339 and not _RFC3339_RE.match(value):
        return None
    match = _TIMESTAMP_RE.match(value.strip())
    if not match:
        return None
    g = match.groupdict()
    try:
        if g["hour"] is None:
            return _dt.datetime(
                int(g["year"]), int(g["month"]), int(g["day"]), tzinfo=_dt.timezone.utc
            )
        fraction = (g["fraction"] or "0")[:6].ljust(6, "0")
        second = int(g["second"])
        if second == 60:  # a leap second: the last instant of its minute
            second, fraction = 59, "999999"
        tz = _dt.timezone.utc
        if g["tz_sign"]:
            offset = _dt.timedelta(hours=int(g["tz_hour"]), minutes=int(g["tz_minute"] or 0))
            if g["tz_sign"] == "-":
                offset = -offset
            tz = _dt.timezone(offset)
        return _dt.datetime(
            int(g["year"]),
            int(g["month"]),
            int(g["day"]),
            int(g["hour"]),
            int(g["minute"]),
            second,
            int(fraction),
            tzinfo=tz,
        )
    except ValueError:  # day 31 of February, an offset of 30 hours, ...
        return None


# ----------------------------------------------------------------------------- ranges


@record(frozen=True)
class Range:
    """A TOSCA range ``[lower, upper]``; ``upper`` may be :data:`UNBOUNDED`."""

    lower: Any
    upper: Any

    def contains(self, value: Any) -> bool:
        """Whether ``lower <= value <= upper`` (an unbounded upper has no limit)."""
        try:
            if value < self.lower:
                return False
            return self.upper == UNBOUNDED or value <= self.upper
        except TypeError:
            return False

    def __str__(self) -> str:
        return f"[{self.lower}, {self.upper}]"


def parse_range(value: Any) -> Range | None:
    """Read ``[lower, upper]`` (a list or tuple of two bounds) as a :class:`Range`, or ``None``.

    Bounds are integers (TOSCA 1.3), or numbers / scalar-unit strings of one
    class (as ``in_range`` uses them). ``lower`` must not exceed ``upper``.
    """
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    lower, upper = value
    if is_number(lower) and (upper == UNBOUNDED or is_number(upper)):
        if upper != UNBOUNDED and lower > upper:
            return None
        return Range(lower, upper)
    low_scalar = parse_scalar_unit(lower)
    if low_scalar is not None:
        if upper == UNBOUNDED:
            return Range(low_scalar, UNBOUNDED)
        up_scalar = parse_scalar_unit(upper, low_scalar.kind)
        if up_scalar is not None and not up_scalar < low_scalar:
            return Range(low_scalar, up_scalar)
    return None


# ------------------------------------------------------------------------------ bytes


_WHITESPACE = re.compile(r"\s")


def parse_bytes(text: Any) -> bytes | None:
    """Decode TOSCA 2.0 ``bytes`` (base64 text) or ``None`` when it is not base64."""
    if isinstance(text, (bytes, bytearray)):
        return bytes(text)
    if not isinstance(text, str):
        return None
    # One copy fewer for the usual one-line value (a 20 MB base64 line, #37):
    # split only text that has whitespace in it.
    compact = "".join(text.split()) if _WHITESPACE.search(text) else text
    try:
        return base64.b64decode(compact.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return None
