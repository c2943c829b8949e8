"""TOSCA special values: scalar-units, versions, timestamps, ranges, bytes (toskit.values)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import plain_data, plain_scalars

from toskit.values import (
    UNBOUNDED,
    Range,
    ScalarUnit,
    Version,
    format_scalar,
    parse_bytes,
    parse_range,
    parse_scalar_unit,
    parse_timestamp,
    parse_version,
    scalar_kind_of_type,
)

SCALARS = [
    ("2 GB", "size", 2_000_000_000, 2, "GB"),
    ("2GB", "size", 2_000_000_000, 2, "GB"),
    ("2 gb", "size", 2_000_000_000, 2, "GB"),
    ("1 KiB", "size", 1024, 1, "KiB"),
    ("1 kb", "size", 1000, 1, "kB"),
    ("1.5 MiB", "size", 1.5 * 1024**2, 1.5, "MiB"),
    ("10 B", "size", 10, 10, "B"),
    ("1 TiB", "size", 1024**4, 1, "TiB"),
    ("2 d", "time", 172800, 2, "d"),
    ("30 m", "time", 1800, 30, "m"),
    ("5 MS", "time", 0.005, 5, "ms"),
    ("100 us", "time", 1e-4, 100, "us"),
    ("1 ns", "time", 1e-9, 1, "ns"),
    ("2.4 GHz", "frequency", 2.4e9, 2.4, "GHz"),
    ("100 khz", "frequency", 1e5, 100, "kHz"),
    ("10 Mbps", "bitrate", 1e7, 10, "Mbps"),
    ("10 MBps", "bitrate", 8e7, 10, "MBps"),
    ("1 Kibps", "bitrate", 1024, 1, "Kibps"),
    ("1 Bps", "bitrate", 8, 1, "Bps"),
    ("1 GiBps", "bitrate", 8 * 1024**3, 1, "GiBps"),
    ("-3 s", "time", -3, -3, "s"),
    ("1e3 B", "size", 1000, 1000.0, "B"),
]


@pytest.mark.parametrize(
    ("text", "kind", "amount", "number", "unit"), SCALARS, ids=[s[0] for s in SCALARS]
)
def test_parse_scalar_unit(text: str, kind: str, amount: float, number: float, unit: str) -> None:
    s = parse_scalar_unit(text)
    assert s is not None and s.kind == kind and s.unit == unit and s.number == number
    assert s.amount == pytest.approx(amount)
    assert parse_scalar_unit(text, kind) == s
    assert parse_scalar_unit(text, f"scalar-unit.{kind}") == s


@pytest.mark.parametrize(
    "text",
    [
        "two GB",
        "2",
        "GB",
        "2 XB",
        "10 mbps",
        "10 MBPS",
        "",
        "2 G B",
        "nan GB",
        "inf s",
        2,
        None,
        ["2 GB"],
        "2 GB extra",
    ],
)
def test_not_scalar_units(text: object) -> None:
    assert parse_scalar_unit(text) is None


def test_kind_restricts_the_class() -> None:
    assert parse_scalar_unit("2 GB", "time") is None
    assert parse_scalar_unit("2 s", "scalar-unit.size") is None
    assert parse_scalar_unit("2 GB", "nonsense") is None


def test_scalar_comparison_and_formatting() -> None:
    assert parse_scalar_unit("1 GiB") > parse_scalar_unit("1 GB")
    assert parse_scalar_unit("1000 ms") == parse_scalar_unit("1 s")
    assert parse_scalar_unit("1 h") == parse_scalar_unit("60 m")
    assert hash(parse_scalar_unit("1 h")) == hash(parse_scalar_unit("3600 s"))
    assert parse_scalar_unit("1 s") != parse_scalar_unit("1 B")
    with pytest.raises(TypeError):
        _ = parse_scalar_unit("1 s") < parse_scalar_unit("1 B")
    assert str(parse_scalar_unit("2gb")) == "2 GB"
    assert format_scalar(2.0, "GB") == "2 GB" and format_scalar(1.5, "s") == "1.5 s"
    assert parse_scalar_unit("1 GB").in_unit("MB") == 1000
    assert scalar_kind_of_type("scalar-unit.time") == "time"
    assert scalar_kind_of_type("string") is None


VERSIONS = [
    ("1.0", Version(1, 0)),
    ("1.0.0", Version(1, 0, 0)),
    ("2.10.3", Version(2, 10, 3)),
    ("1.0.0.alpha", Version(1, 0, 0, "alpha")),
    ("1.0.0.beta-2", Version(1, 0, 0, "beta", 2)),
]


@pytest.mark.parametrize(("text", "expected"), VERSIONS, ids=[v[0] for v in VERSIONS])
def test_parse_version(text: str, expected: Version) -> None:
    v = parse_version(text)
    assert v == expected and str(v) == text


@pytest.mark.parametrize(
    "text", ["1", "1.", "a.b", "1.2.3.", "1.2.3.x-y", "1.2-3", "", None, True, [1, 0], "1.2.3.4.5"]
)
def test_not_versions(text: object) -> None:
    assert parse_version(text) is None


def test_leading_zero_versions() -> None:
    # Ubuntu-style versions: components are integers, so 14.04 < 14.10.
    assert parse_version("01.2") == Version(1, 2)
    assert parse_version(14.04) == Version(14, 4) < parse_version("14.10")


def test_version_order() -> None:
    assert parse_version("1.10.0") > parse_version("1.9.0")
    assert parse_version("1.0") == parse_version("1.0.0")
    assert parse_version("1.0.0") < parse_version("1.0.0.beta")
    assert parse_version("1.0.0.alpha") < parse_version("1.0.0.beta")
    assert parse_version("1.0.0.beta-2") < parse_version("1.0.0.beta-10")
    assert parse_version(1.0) == Version(1, 0)
    assert hash(parse_version("1.0")) == hash(parse_version("1.0.0"))


UTC = dt.timezone.utc

TIMESTAMPS = [
    ("2001-12-14t21:59:43.10-05:00", dt.datetime(2001, 12, 15, 2, 59, 43, 100000, tzinfo=UTC)),
    ("2001-12-14 21:59:43.10 -5", dt.datetime(2001, 12, 15, 2, 59, 43, 100000, tzinfo=UTC)),
    ("2001-12-15T02:59:43.1Z", dt.datetime(2001, 12, 15, 2, 59, 43, 100000, tzinfo=UTC)),
    ("2001-12-15 2:59:43.10", dt.datetime(2001, 12, 15, 2, 59, 43, 100000, tzinfo=UTC)),
    ("2002-12-14", dt.datetime(2002, 12, 14, tzinfo=UTC)),
    ("2024-02-29T12:00:00+01:30", dt.datetime(2024, 2, 29, 10, 30, tzinfo=UTC)),
]


@pytest.mark.parametrize(("text", "instant"), TIMESTAMPS, ids=[t[0] for t in TIMESTAMPS])
def test_parse_timestamp(text: str, instant: dt.datetime) -> None:
    ts = parse_timestamp(text)
    assert ts is not None and ts.tzinfo is not None and ts == instant


@pytest.mark.parametrize(
    "text",
    ["2001-02-30", "2001-13-01", "yesterday", "2001-12-14T25:00:00", "", 5, None, "2001-12-14T"],
)
def test_not_timestamps(text: object) -> None:
    assert parse_timestamp(text) is None


RFC3339 = [
    ("date-only", "2000-02-29", True),
    ("fraction-z", "2025-04-12T23:20:50.52Z", True),
    ("offset", "1996-12-19T16:39:57-08:00", True),
    ("lowercase-t-z", "1996-12-19t16:39:57z", True),
    ("leap-second", "1990-12-31T15:59:60-08:00", True),
    ("space-separator", "2001-12-14 21:59:43.10", False),
    ("one-digit-hour", "2001-12-15T2:59:43Z", False),
    ("offset-without-colon", "2001-12-14T21:59:43-0500", False),
    ("spaced-offset", "2001-12-14T21:59:43 -05:00", False),
]


@pytest.mark.parametrize(("text", "ok"), [r[1:] for r in RFC3339], ids=[r[0] for r in RFC3339])
def test_rfc3339_timestamps(text: str, ok: bool) -> None:
    assert (parse_timestamp(text, rfc3339=True) is not None) is ok
    # The YAML forms stay readable without rfc3339 (TOSCA 1.x).
    assert parse_timestamp(text) is not None


def test_a_leap_second_orders_inside_its_minute() -> None:
    leap = parse_timestamp("1990-12-31T23:59:60Z")
    assert leap is not None
    assert parse_timestamp("1990-12-31T23:59:59Z") < leap < parse_timestamp("1991-01-01T00:00:00Z")


def test_timestamp_objects() -> None:
    assert parse_timestamp(dt.date(2020, 1, 2)) == dt.datetime(2020, 1, 2, tzinfo=UTC)
    assert parse_timestamp(dt.datetime(2020, 1, 2, 3)).tzinfo is UTC


def test_ranges() -> None:
    r = parse_range([1, 5])
    assert r == Range(1, 5) and r.contains(1) and r.contains(5) and not r.contains(6)
    open_ended = parse_range((0, UNBOUNDED))
    assert open_ended.contains(10**12) and not open_ended.contains(-1)
    scalar = parse_range(["1 GB", "2 GB"])
    assert scalar.contains(parse_scalar_unit("1500 MB"))
    assert not r.contains("x")
    assert str(r) == "[1, 5]"


@pytest.mark.parametrize(
    "value", [[5, 1], [1], [1, 2, 3], "1-5", ["a", "b"], [True, 2], [1, "x"], ["1 GB", "1 s"], None]
)
def test_not_ranges(value: object) -> None:
    assert parse_range(value) is None


def test_bytes() -> None:
    assert parse_bytes("aGVsbG8=") == b"hello"
    assert parse_bytes("aGVs\n bG8=") == b"hello"
    assert parse_bytes(b"raw") == b"raw"
    for bad in ("not base64!", "aGVsbG8", 5, None, "é"):
        assert parse_bytes(bad) is None


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=30), st.integers(), st.floats(), st.none(), st.booleans()))
def test_parsers_never_raise(value: object) -> None:
    expected = {
        parse_scalar_unit: ScalarUnit,
        parse_version: Version,
        parse_timestamp: dt.datetime,
        parse_bytes: bytes,
        parse_range: Range,
    }
    for parser, result_type in expected.items():
        result = parser(value)
        assert result is None or isinstance(result, result_type)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from(["B", "kB", "MiB", "GB", "s", "ms", "Hz", "Gbps"]),
)
def test_scalar_round_trip(number: int, unit: str) -> None:
    s = parse_scalar_unit(format_scalar(number, unit))
    assert isinstance(s, ScalarUnit) and s.number == number and s.unit == unit


# ------------------------------------------------------------- TOSCA 2.0 scalar types

ISO = {
    "μ": 0.0001,
    "m": 0.001,
    "c": 0.01,
    "d": 0.1,
    "": 1.0,
    "da": 10,
    "h": 100,
    "k": 1000,
    "M": 1000000,
}
BITRATE_UNITS = {
    "bits/s": 1,
    "bps": 1,
    "kbits/s": 1000,
    "Kibits/s": 1024,
    "Mbits/s": 10**6,
    "Mibits/s": 1048576,
}


def test_scalar_class_with_prefixes() -> None:
    from toskit.values import ScalarClass

    mass, problems = ScalarClass.define("Mass", units={"g": 1}, prefixes=ISO)
    assert problems == [] and mass.canonical_unit == "g" and mass.data_type == "float"
    ten = mass.parse("10 kg")
    assert ten.kind == "Mass" and ten.amount == 10000 and ten.unit == "kg"
    assert mass.parse("1.5 g") < ten and mass.parse("10000 g") == ten
    assert mass.parse("10") is None and mass.parse("10 kilo") is None and mass.parse(10) is None
    assert mass.format(1500, "kg") == "1.5 kg"


def test_scalar_class_with_canonical_unit_and_integers() -> None:
    from toskit.values import ScalarClass

    rate, problems = ScalarClass.define(
        "Bitrate", units=BITRATE_UNITS, canonical_unit="bits/s", data_type="integer"
    )
    assert problems == []
    assert rate.parse("2 Mbits/s").amount == 2 * 10**6
    assert rate.parse("1.5 Mbits/s") is None
    assert rate.parse("1,000bp/s") is None
    assert rate.parse("1 mbits/s") is None  # units are case-sensitive


def test_scalar_class_derivation() -> None:
    from toskit.values import ScalarClass

    mass, _ = ScalarClass.define("Mass", units={"g": 1}, prefixes=ISO)
    larger, problems = ScalarClass.define("Mass_larger", prefixes={"G": 1000000000}, parent=mass)
    assert (
        problems == [] and larger.parse("1 Gg").amount == 1e9 and larger.parse("1 kg") is not None
    )
    bad, problems = ScalarClass.define("Mass_limited", data_type="integer", parent=mass)
    assert bad is None and "incompatible" in problems[0]


SCALAR_PROBLEMS = [
    (
        "canonical-prefix-multiplier-not-one",
        {"units": {"bits/s": 1.0}, "prefixes": {"": 1, "K": 1000}, "canonical_unit": "Kbits/s"},
        "multiplier 1",
    ),
    (
        "canonical-prefix-not-found",
        {"units": {"bits/s": 1.0}, "prefixes": {"": 1, "K": 1000}, "canonical_unit": "b/s"},
        "not one of the units",
    ),
    (
        "canonical-unit-multiplier-not-one",
        {"units": BITRATE_UNITS, "canonical_unit": "kbits/s"},
        "multiplier 1",
    ),
    ("data-type", {"units": {"bps": 1}, "data_type": "string"}, "integer or float"),
    (
        "multiplier-for-datatype",
        {"units": {"bits/s": 1}, "prefixes": {"": 1, "Ki": -1024}, "data_type": "integer"},
        "positive",
    ),
    ("multiplier-not-float", {"units": {"bits/s": "one", "Kbps": "one thousand"}}, "number"),
    ("no-canonical-unit", {"units": BITRATE_UNITS}, "canonical_unit"),
    ("no-multiplier-value-one", {"units": {"Kbits/s": 1000, "Mbits/s": 10**6}}, "multiplier 1"),
    (
        "no-prefix-value-one",
        {"units": {"bits/s": 1}, "prefixes": {"k": 1000, "M": 10**6}},
        "multiplier 1",
    ),
    (
        "prefixes-with-multiple-units",
        {"units": {"bits/s": 1, "bytes/s": 8}, "prefixes": ISO},
        "exactly one unit",
    ),
    ("units-missing", {}, "units"),
    (
        "integer-with-fractional-prefix",
        {"units": {"g": 1}, "prefixes": ISO, "data_type": "integer"},
        "whole-number",
    ),
]


@pytest.mark.parametrize(
    ("definition", "words"), [pytest.param(d, w, id=i) for i, d, w in SCALAR_PROBLEMS]
)
def test_scalar_class_problems(definition: dict, words: str) -> None:
    from toskit.values import ScalarClass

    cls, problems = ScalarClass.define("InvalidScalar", **definition)
    assert cls is None and problems
    assert any(words in p for p in problems), problems


_ANY = plain_data(
    plain_scalars(st.integers(), st.floats(), st.text(max_size=5)), st.text(max_size=3)
)


_UNITS = st.one_of(
    _ANY,
    st.dictionaries(
        st.sampled_from(["g", "m", "bps", ""]),
        st.sampled_from([1, 1000, 0.5, -1]),
        min_size=1,
        max_size=3,
    ),
)
_VALUES = st.one_of(
    _ANY, st.builds("{} {}".format, st.integers(-5, 5), st.sampled_from(["g", "kg", "m"]))
)


@settings(max_examples=300, deadline=None)
@given(
    _UNITS,
    st.one_of(st.none(), _UNITS),
    st.one_of(st.none(), _ANY),
    st.sampled_from([None, "integer", "float"]),
    _VALUES,
    st.data(),
)
def test_scalar_class_define_never_raises(
    units, prefixes, canonical, data_type, value, data
) -> None:
    from toskit.values import ScalarClass

    cls, problems = ScalarClass.define(
        "T", units=units, prefixes=prefixes, canonical_unit=canonical, data_type=data_type
    )
    assert (cls is None) == bool(problems)
    if cls is None:
        return
    parsed = cls.parse(value)
    assert parsed is None or (parsed.kind == "T" and parsed.unit in cls.units)
    unit = data.draw(st.sampled_from(sorted(cls.units)))
    number = data.draw(st.integers(-1000, 1000))
    scalar = cls.parse(f"{number} {unit}")
    assert scalar is not None and scalar.number == number
    assert scalar.amount == number * cls.units[unit]
    assert cls.parse(cls.format(scalar.amount)) == scalar or cls.data_type == "integer"
