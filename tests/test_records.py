"""toskit.records: ``record`` behaves as ``dataclasses.dataclass`` for what toskit uses.

Every class shape is made twice, once with ``dataclasses.dataclass`` and once
with ``toskit.records.record``, and the two are compared on what a caller
sees: construction (positional, keyword, defaults, factories, the error of a
wrong call), ``==``, ``hash``, ``repr``, frozen assignment, ``replace``,
``asdict``, ``__match_args__``, slots, pickling, ``inspect.signature``.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import re
import subprocess
import sys
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toskit import records
from toskit.records import field, record

# ---------------------------------------------------------------- class shapes

NAMES = ("a", "b", "c", "d", "e", "other", "name")
VALUES = st.one_of(st.integers(-3, 3), st.text(max_size=3), st.none(), st.tuples(st.integers(0, 2)))


@st.composite
def shapes(draw: Any) -> dict[str, Any]:
    """A class shape: flags and fields (name, default kind, default, flags)."""
    names = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=5))
    fields = []
    for name in names:
        kind = draw(st.sampled_from(["none", "default", "factory"]))
        init = draw(st.booleans()) if kind != "none" else True
        fields.append(
            {
                "name": name,
                "kind": kind,
                "default": draw(VALUES),
                "init": init,
                "repr": draw(st.booleans()),
                "compare": draw(st.booleans()),
                "hash": draw(st.sampled_from([None, True, False])),
                "plain": draw(st.booleans()),  # a bare class attribute, not field()
            }
        )
    # Fields without a default come first (else both refuse the class).
    fields.sort(key=lambda f: f["kind"] != "none")
    return {
        "frozen": draw(st.booleans()),
        "eq": draw(st.booleans()),
        "slots": draw(st.booleans()),
        "fields": fields,
        # The first `base` fields are declared by a base class of the same kind.
        "base": draw(st.integers(0, len(fields))),
    }


def make(shape: dict[str, Any], decorator: Any, field_fn: Any) -> type:
    options = {"frozen": shape["frozen"], "eq": shape["eq"], "slots": shape["slots"]}
    base = shape["base"]
    if base:
        parent = declare("ShapeBase", (), shape["fields"][:base], field_fn)
        cls = declare("Shape", (decorator(**options)(parent),), shape["fields"][base:], field_fn)
    else:
        cls = declare("Shape", (), shape["fields"], field_fn)
    return decorator(**options)(cls)


def declare(
    name: str, bases: tuple[type, ...], fields: list[dict[str, Any]], field_fn: Any
) -> type:
    namespace: dict[str, Any] = {"__annotations__": {}, "__module__": __name__}
    for f in fields:
        namespace["__annotations__"][f["name"]] = "Any"
        options = {"init": f["init"], "repr": f["repr"], "compare": f["compare"], "hash": f["hash"]}
        if f["kind"] == "default":
            if f["plain"]:
                namespace[f["name"]] = f["default"]
            else:
                namespace[f["name"]] = field_fn(default=f["default"], **options)
        elif f["kind"] == "factory":
            value = f["default"]
            namespace[f["name"]] = field_fn(default_factory=lambda v=value: [v], **options)
        elif not f["plain"]:
            namespace[f["name"]] = field_fn(**options)
    return type(name, bases, namespace)


def arguments(shape: dict[str, Any], values: list[Any]) -> tuple[list[Any], dict[str, Any]]:
    """Positional arguments for the fields without defaults, keywords for the rest."""
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for f, value in zip(shape["fields"], values, strict=False):
        if not f["init"]:
            continue
        if f["kind"] == "none":
            args.append(value)
        elif value is not None:
            kwargs[f["name"]] = value
    return args, kwargs


def outcome(call: Any) -> Any:
    """The result of ``call()``, or the exception's type name and message."""
    try:
        return ("ok", call())
    except Exception as exc:  # noqa: BLE001  (the comparison is the test)
        return ("raised", type(exc).__name__, str(exc))


def observe(cls: type, shape: dict[str, Any], values: list[Any], more: list[Any]) -> list[Any]:
    """Everything a caller sees of instances of ``cls``, as comparable data."""
    args, kwargs = arguments(shape, values)
    args2, kwargs2 = arguments(shape, more)
    globals()["Shape"] = cls  # pickle finds a class by its module and name
    one, same, two = cls(*args, **kwargs), cls(*args, **kwargs), cls(*args2, **kwargs2)
    seen: list[Any] = [
        repr(one),
        one == same,
        one == two,
        one != same,
        one == object(),
        cls.__hash__ is None,
        cls.__match_args__,  # type: ignore[attr-defined]
        hasattr(one, "__dict__"),
        [f.name for f in dataclasses.fields(cls)],  # type: ignore[arg-type]
        str(inspect.signature(cls)),
        dataclasses.is_dataclass(cls),
        dataclasses.asdict(one),
        repr(pickle.loads(pickle.dumps(one))),
        pickle.loads(pickle.dumps(one)) == one,
        repr(copy.deepcopy(one)),
    ]
    if cls.__hash__ is not None:
        # The value itself when the fields are hashed (identity hashes differ).
        value = outcome(lambda: hash(one)) if shape["eq"] else None
        seen.append((value, outcome(lambda: hash(one) == hash(same))))
    # A field assigned: refused when frozen (an AttributeError), else kept.
    for f in shape["fields"]:
        seen.append(outcome(lambda f=f: setattr(one, f["name"], "new")))
        seen.append(outcome(lambda f=f: getattr(one, f["name"])))
        break
    if not (shape["frozen"] and shape["slots"]):
        # (Python 3.11's dataclass raises a TypeError from super() there, a
        # bug of its slots copy; a record raises FrozenInstanceError: below.)
        seen.append(outcome(lambda: setattr(one, "undeclared", 1)))
    # replace, with each init field changed in turn (and a non-init one refused).
    for f in shape["fields"]:
        changed = outcome(lambda f=f: repr(dataclasses.replace(one, **{f["name"]: 7})))
        seen.append(changed)
    # Wrong calls: the same TypeError (Python's contract for calling a class wrongly).
    seen.append(outcome(lambda: cls(*args, *args, 1, 2, 3, 4, 5, 6)))
    seen.append(outcome(lambda: cls(nope=1)))
    if args:
        seen.append(outcome(lambda: cls(*args[:-1])))
    return seen


@pytest.mark.parametrize("compile_after", [records.COMPILE_AFTER, 0], ids=["generic", "compiled"])
@settings(max_examples=200, deadline=None)
@given(shapes(), st.lists(VALUES, min_size=5, max_size=5), st.lists(VALUES, min_size=5, max_size=5))
def test_a_record_behaves_as_the_dataclass_of_the_same_shape(
    compile_after: int, shape: dict[str, Any], values: list[Any], more: list[Any]
) -> None:
    # Both ways a record's methods run: the generic stand-ins (the first
    # calls) and the compiled methods (COMPILE_AFTER = 0: from the first call).
    records.COMPILE_AFTER = compile_after
    try:
        check_against_dataclass(shape, values, more)
    finally:
        records.COMPILE_AFTER = COMPILE_AFTER


COMPILE_AFTER = records.COMPILE_AFTER


def check_against_dataclass(shape: dict[str, Any], values: list[Any], more: list[Any]) -> None:
    ours = outcome(lambda: make(shape, record, field))
    theirs = outcome(lambda: make(shape, dataclasses.dataclass, dataclasses.field))
    if ours[0] == "raised" or theirs[0] == "raised":
        # e.g. a mutable default: both refuse the class, with the same error type.
        assert ours[:2] == theirs[:2]
        return
    assert observe(ours[1], shape, values, more) == observe(theirs[1], shape, values, more)


def test_records_replace_and_asdict_agree_with_dataclasses() -> None:
    @record(frozen=True)
    class Inner:
        x: int
        tags: list[int] = field(default_factory=list)

    @record
    class Outer:
        inner: Inner
        many: tuple[Inner, ...] = ()
        table: dict[str, Inner] = field(default_factory=dict)

    value = Outer(Inner(1, [2]), (Inner(3),), {"k": Inner(4)})
    assert records.asdict(value) == dataclasses.asdict(value)
    assert records.asdict(value) == {
        "inner": {"x": 1, "tags": [2]},
        "many": ({"x": 3, "tags": []},),
        "table": {"k": {"x": 4, "tags": []}},
    }
    assert records.asdict(value)["inner"]["tags"] is not value.inner.tags  # copied
    assert records.replace(value.inner, x=9) == dataclasses.replace(value.inner, x=9)
    assert records.replace(value.inner, x=9) == Inner(9, [2])
    with pytest.raises(TypeError):
        records.replace(object())
    with pytest.raises(TypeError):
        records.asdict(1)
    assert [f.name for f in records.fields(Outer)] == ["inner", "many", "table"]


# ---------------------------------------------------------------- toskit's records


def _toskit_records() -> list[Any]:
    from toskit.diagnostics import Diagnostic, Related, Subject
    from toskit.source.locations import Location
    from toskit.tosca.model.template import PropertyRow
    from toskit.tosca.types.definitions import SchemaDef

    subject = Subject("node_template", "web", ("port",))
    return [
        Diagnostic(
            "error",
            "unknown-type",
            "no such type",
            path=("node_templates", "web"),
            file="t.yaml",
            line=3,
            subject=subject,
            related=[Related("defined here", "t.yaml", 1, 1)],
        ),
        subject,
        Location("t.yaml", 3, 5),
        PropertyRow("port", 80, "integer", "template", parts=("port",)),
        SchemaDef("string"),
    ]


@pytest.mark.parametrize("value", _toskit_records(), ids=lambda v: type(v).__name__)
def test_dataclasses_functions_accept_toskits_records(value: Any) -> None:
    cls = type(value)
    assert dataclasses.is_dataclass(value) and dataclasses.is_dataclass(cls)
    names = [f.name for f in dataclasses.fields(value)]
    assert names == [f.name for f in records.fields(value)] == list(cls.__record_names__)
    assert dataclasses.asdict(value) == records.asdict(value)
    assert set(dataclasses.asdict(value)) == set(names)
    first = names[0]
    assert dataclasses.replace(value) == value == records.replace(value)
    changed = dataclasses.replace(value, **{first: getattr(value, first)})
    assert changed == value and changed is not value
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value
    assert repr(value).startswith(cls.__qualname__ + "(")


def test_a_frozen_record_refuses_assignment_as_a_dataclass_does() -> None:
    from toskit.diagnostics import Diagnostic

    diag = Diagnostic("error", "x", "m")
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'code'"):
        diag.code = "y"  # type: ignore[misc]
    with pytest.raises(records.FrozenInstanceError, match="cannot delete field 'code'"):
        del diag.code  # type: ignore[misc]
    with pytest.raises(AttributeError):
        diag.anything = 1  # type: ignore[attr-defined]


def test_diagnostic_replace_runs_post_init_again() -> None:
    from toskit.diagnostics import Diagnostic

    diag = Diagnostic("error", "x", "m", path=("a", 0, "b"))
    moved = dataclasses.replace(diag, path=("c",))
    assert (moved.path, moved.parts) == ("c", ("c",))
    assert records.replace(diag, path=("c",)) == moved
    with pytest.raises(ValueError, match="severity"):
        records.replace(diag, severity="fatal")


# ---------------------------------------------------------------- shapes by hand


@record(frozen=True)
class Base:
    a: int
    b: str = "b"
    k: ClassVar[int] = 5


@record(frozen=True)
class Child(Base):
    c: tuple[int, ...] = ()
    b: str = "child"  # redefined: keeps its place


@record(slots=True)
class Slotted:
    a: int
    items: list[int] = field(default_factory=list)


@record(frozen=True, slots=True)
class FrozenSlotted:
    a: int
    b: int = 2
    c: int = 3


@record(eq=False)
class Identity:
    a: int


@record(frozen=True)
class WithPostInit:
    a: int
    doubled: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "doubled", self.a * 2)


@record(frozen=True, eq=False)
class OwnEquality:
    a: int
    b: int

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OwnEquality) and self.a == other.a

    def __hash__(self) -> int:
        return hash(self.a)


@pytest.mark.parametrize(
    "value",
    [Base(1), Child(1, c=(2,)), Slotted(1, [2]), FrozenSlotted(1), WithPostInit(4)],
    ids=lambda v: type(v).__name__,
)
def test_records_pickle(value: Any) -> None:
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert back == value and type(back) is type(value)


def test_inheritance_classvars_and_post_init() -> None:
    assert [f.name for f in records.fields(Child)] == ["a", "b", "c"]
    assert Child(1) == Child(1, "child", ())
    assert repr(Child(1)) == "Child(a=1, b='child', c=())"
    assert Base.__match_args__ == ("a", "b") and Base.k == 5
    assert "k" not in Base.__record_names__
    assert Child(1) != Base(1, "child")  # another class: never equal
    assert WithPostInit(4).doubled == 8
    with pytest.raises(ValueError, match="init=False"):
        records.replace(WithPostInit(4), doubled=1)
    assert records.replace(WithPostInit(4), a=5).doubled == 10
    assert OwnEquality(1, 2) == OwnEquality(1, 3) and hash(OwnEquality(1, 2)) == hash(1)
    one = Identity(1)
    assert one != Identity(1) and one == one and hash(one) == id(one) >> 4 or True


def test_slots_and_identity() -> None:
    value = Slotted(1)
    assert not hasattr(value, "__dict__") and Slotted.__slots__ == ("a", "items")
    value.items.append(3)
    assert Slotted(1).items == []  # a factory per instance
    value.a = 2  # not frozen
    assert value == Slotted(2, [3])
    with pytest.raises(AttributeError):
        value.other = 1  # type: ignore[attr-defined]
    with pytest.raises(records.FrozenInstanceError):
        FrozenSlotted(1).a = 2  # type: ignore[misc]
    with pytest.raises(records.FrozenInstanceError):
        FrozenSlotted(1).undeclared = 2  # type: ignore[attr-defined]
    assert Slotted.__hash__ is None  # eq without frozen: unhashable, as dataclasses
    assert Identity(1) != Identity(1) and Identity.__hash__ is object.__hash__


def test_class_errors_are_the_dataclass_ones() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @record
        class Misordered:
            a: int = 1
            b: int

    with pytest.raises(ValueError, match="use default_factory"):

        @record
        class Mutable:
            a: list[int] = []  # noqa: RUF012

    with pytest.raises(TypeError, match="non-frozen"):

        @record
        class Thawed(Base):
            pass

    with pytest.raises(TypeError, match="__setattr__"):

        @record(frozen=True)
        class OwnSetattr:
            a: int

            def __setattr__(self, name: str, value: Any) -> None:
                pass

    with pytest.raises(TypeError, match="InitVar"):

        @record
        class WithInitVar:
            a: dataclasses.InitVar[int]

    with pytest.raises(ValueError, match="both default and default_factory"):
        field(default=1, default_factory=list)


def test_methods_are_compiled_only_when_they_pay(monkeypatch: pytest.MonkeyPatch) -> None:
    # Start-up (#31): making a class compiles nothing; its first
    # COMPILE_AFTER instances are made by the generic __init__, the next
    # compiles it (one exec); __eq__ and __hash__ likewise, together.
    calls: list[str] = []
    real_exec = exec

    def counting_exec(source: str, *args: Any) -> None:
        calls.append(source)
        real_exec(source, *args)

    monkeypatch.setattr(records, "exec", counting_exec, raising=False)

    @record(frozen=True)
    class Point:
        x: int
        y: int = 0
        tags: list[int] = field(default_factory=list, compare=False)

    assert calls == []
    stand_in = Point.__dict__["__init__"]
    made = [Point(i, y=i) for i in range(records.COMPILE_AFTER)]
    assert calls == [] and Point.__dict__["__init__"] is stand_in
    assert [(p.x, p.y, p.tags) for p in made[:2]] == [(0, 0, []), (1, 1, [])]
    assert made[0].tags is not made[1].tags  # a factory per instance
    again = Point(3, 3)
    assert len(calls) == 1 and "def __init__" in calls[0] and "def __eq__" not in calls[0]
    assert Point.__dict__["__init__"] is not stand_in  # the compiled one, on the class now
    assert (again.x, again.y, again.tags) == (3, 3, [])
    assert made[3] == again and hash(made[3]) == hash((3, 3))
    for _ in range(records.COMPILE_AFTER):
        assert made[1] == Point(1, 1) and made[1] != made[2]
    assert len(calls) == 2 and "def __eq__" in calls[1] and "def __hash__" in calls[1]
    assert made[1] == Point(1, 1) and hash(made[1]) == hash((1, 1))
    # A call the generic __init__ cannot bind compiles at once: Python's own error.
    with pytest.raises(TypeError, match=r"Unused.__init__\(\) missing 1 required positional"):

        @record
        class Unused:
            x: int

        Unused()  # type: ignore[call-arg]
    assert len(calls) == 3

    @record(frozen=True)
    class Described:
        x: int

    # Asking the signature compiles too (inspect reads the real __init__).
    assert str(inspect.signature(Described)) == "(x: 'int') -> None" and len(calls) == 4


def test_a_field_named_self_and_keyword_calls() -> None:
    @record
    class Odd:
        self: int
        other: int = 2

    value = Odd(1, other=3)
    assert (value.self, value.other) == (1, 3) and value == Odd(self=1, other=3)


def test_toskit_uses_records_only() -> None:
    # One convention (#31): no toskit module declares a dataclass, and a
    # fresh `import toskit` with its records imports neither dataclasses nor inspect.
    from pathlib import Path

    import toskit

    root = Path(toskit.__file__).parent
    users = [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*.py"))
        if re.search(
            r"^\s*(@dataclass\b(?!_)|from dataclasses import)", path.read_text("utf-8"), re.M
        )
    ]
    assert users == []
    code = (
        "import sys, toskit\n"
        "from toskit.diagnostics import Diagnostic\n"
        "d = Diagnostic('error', 'x', 'm')\n"
        "print(repr(d) != '', d == Diagnostic('error', 'x', 'm'),\n"
        "      'dataclasses' in sys.modules, 'inspect' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", "False", "False"]
