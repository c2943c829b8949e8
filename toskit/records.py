"""``record``: toskit's records, a cheaper ``dataclasses.dataclass``.

Every record class of toskit (a diagnostic, a property row, a grammar
shape...) is declared with :func:`record` instead of
``dataclasses.dataclass``. It is a drop-in for the part of ``dataclass``
toskit uses, built for start-up (issue #31): ``toskit check`` creates
some 34 record classes, and Python 3.11's ``dataclass`` compiled up to five
generated methods per class with an ``exec`` each (~0.45 ms a class, 15 ms
of a 90 ms command) and imports ``inspect`` (with ``ast``, ``dis``,
``tokenize``: ~5 ms more). Here:

* ``__repr__`` and a frozen class's ``__setattr__``/``__delattr__`` are
  generic closures over the field names: nothing to compile;
* ``__init__`` (which needs its own signature), ``__eq__`` and ``__hash__``
  are generated text as ``dataclass`` makes them (the fastest calls), but
  compiled only once a class has made :data:`COMPILE_AFTER` calls of them
  (``__init__`` apart from ``__eq__`` with ``__hash__``); before, generic
  versions do the same work at a few microseconds a call. A class that
  makes a handful of instances in a process (most of a check's) never
  compiles; one that makes thousands compiles once. A frozen record's
  compiled ``__init__`` sets its fields through one bound
  ``object.__setattr__``: ~25 % faster per call than ``dataclass``'s, the
  same memory per instance. Asking the signature (``inspect.signature``,
  ``help``) compiles ``__init__`` for ``inspect`` to read;
* neither ``dataclasses`` nor ``inspect`` is imported.

What is supported, with ``dataclass``'s meaning: ``init``, ``repr``, ``eq``,
``frozen``, ``slots`` on the class; ``field(default=, default_factory=,
init=, repr=, hash=, compare=)``; defaults as class attributes; ``ClassVar``
annotations (skipped); inheritance from other records (fields in the same
order, frozen with frozen only); ``__post_init__``; a class's own
``__eq__``/``__repr__``/``__init__``/``__hash__`` kept; ``__match_args__``;
pickling (frozen slotted records included). Not supported (a ``TypeError``
says so): ``InitVar``, ``KW_ONLY``, ``order``, ``unsafe_hash``,
``kw_only``.

Compatibility with the ``dataclasses`` module: a record's
``__dataclass_fields__`` (and ``__dataclass_params__``) is built on first
access, importing ``dataclasses`` only then, with real
``dataclasses.Field`` objects. So ``dataclasses.is_dataclass``,
``fields``, ``replace`` and ``asdict`` work on records as on dataclasses.
toskit's own code uses :func:`replace` from here, which needs no import.

What a caller can see differ (``tests/test_records.py`` compares the rest
with ``dataclass`` over random class shapes): a class without a docstring
gets ``Name(field, ...)`` as its ``__doc__`` (``dataclass`` writes its
signature there, which needs ``inspect``); a frozen record's error is
``toskit.records.FrozenInstanceError`` (an ``AttributeError``, and a
``dataclasses.FrozenInstanceError`` too once ``dataclasses`` is
imported, so whoever catches that one catches it); setting an undeclared
attribute on a frozen slotted record raises it as well, where Python
3.11's ``dataclass`` fails with a ``TypeError`` (a bug of its slots copy).

Type checkers see :func:`record` as a dataclass transform
(``typing.dataclass_transform``), so constructors are checked as for a
dataclass.
"""

from __future__ import annotations

import sys
from _thread import get_ident
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, overload

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pragma: no cover  (type checkers run on 3.11; at run time it only marks)

    def dataclass_transform(**_: Any) -> Callable[[_T], _T]:
        return lambda decorated: decorated


__all__ = [
    "COMPILE_AFTER",
    "FrozenInstanceError",
    "MISSING",
    "Field",
    "asdict",
    "field",
    "fields",
    "record",
    "replace",
]

_T = TypeVar("_T")
_C = TypeVar("_C", bound=type)


class _Missing:
    """The sentinel of "no default" (``MISSING``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class _HasFactory:
    """The default of an ``__init__`` parameter whose field has a factory."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _HasFactory()


class FrozenInstanceError(AttributeError):
    """Assigning to (or deleting) a field of a frozen record.

    An ``AttributeError`` like ``dataclasses.FrozenInstanceError`` (whose
    class it is not: catch ``AttributeError`` to handle both).
    """


_frozen_errors: list[type[FrozenInstanceError]] = []


def _frozen_error(message: str) -> FrozenInstanceError:
    """The error of a frozen record: also a ``dataclasses.FrozenInstanceError`` when
    ``dataclasses`` is imported (whoever catches that one has imported it)."""
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses is None:
        return FrozenInstanceError(message)
    if not _frozen_errors:

        class _Both(FrozenInstanceError, dataclasses.FrozenInstanceError):  # type: ignore[name-defined]
            pass

        _Both.__name__ = _Both.__qualname__ = "FrozenInstanceError"
        _frozen_errors.append(_Both)
    return _frozen_errors[0](message)


class Field:
    """One field of a record: what ``field()`` returns, and what the record keeps."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare")

    def __init__(
        self,
        default: Any,
        default_factory: Any,
        init: bool,
        repr: bool,  # noqa: A002  (dataclasses' name)
        hash: bool | None,  # noqa: A002
        compare: bool,
    ) -> None:
        self.name: str = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare

    def __repr__(self) -> str:
        return (
            f"Field(name={self.name!r}, default={self.default!r}, "
            f"default_factory={self.default_factory!r}, init={self.init}, repr={self.repr}, "
            f"hash={self.hash}, compare={self.compare})"
        )


@overload
def field(
    *,
    default: _T,
    init: bool = ...,
    repr: bool = ...,  # noqa: A002
    hash: bool | None = ...,  # noqa: A002
    compare: bool = ...,
) -> _T: ...
@overload
def field(
    *,
    default_factory: Callable[[], _T],
    init: bool = ...,
    repr: bool = ...,  # noqa: A002
    hash: bool | None = ...,  # noqa: A002
    compare: bool = ...,
) -> _T: ...
@overload
def field(
    *,
    init: bool = ...,
    repr: bool = ...,  # noqa: A002
    hash: bool | None = ...,  # noqa: A002
    compare: bool = ...,
) -> Any: ...
def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    init: bool = True,
    repr: bool = True,  # noqa: A002
    hash: bool | None = None,  # noqa: A002
    compare: bool = True,
) -> Any:
    """A field with options, as ``dataclasses.field``: a default or a factory, and flags."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare)


def _is_classvar(annotation: Any) -> bool:
    if isinstance(annotation, str):
        head = annotation.split("[", 1)[0].strip()
        return head in ("ClassVar", "typing.ClassVar", "t.ClassVar")
    import typing

    return annotation is typing.ClassVar or getattr(annotation, "__origin__", None) is (
        typing.ClassVar
    )


def _refuse_pseudo_field(name: str, annotation: Any) -> None:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    for pseudo in ("InitVar", "KW_ONLY"):
        if pseudo in text.split("[", 1)[0]:
            raise TypeError(f"record field {name!r}: {pseudo} is not supported by toskit.records")


def _own_fields(cls: type) -> list[Field]:
    """The fields the class itself declares, in order, its defaults taken off the class."""
    annotations = cls.__dict__.get("__annotations__", {})
    found: list[Field] = []
    for name, annotation in annotations.items():
        if _is_classvar(annotation):
            continue
        _refuse_pseudo_field(name, annotation)
        value = cls.__dict__.get(name, MISSING)
        if isinstance(value, Field):
            f = value
            if f.default is MISSING:
                delattr(cls, name)  # no class attribute: a missing value is an error
            else:
                setattr(cls, name, f.default)
        else:
            f = Field(value, MISSING, True, True, None, True)
        f.name = name
        f.type = annotation
        # As dataclasses: an unhashable default (a list, dict, set) would be
        # shared by every instance.
        if f.default is not MISSING and type(f.default).__hash__ is None:
            raise ValueError(
                f"mutable default {type(f.default)} for field {name} is not allowed: "
                "use default_factory"
            )
        found.append(f)
    return found


def _set_new(cls: type, name: str, value: Any) -> bool:
    """Set ``name`` on ``cls`` unless the class defines it; True when set."""
    if name in cls.__dict__:
        return False
    value.__qualname__ = f"{cls.__qualname__}.{value.__name__}"
    setattr(cls, name, value)
    return True


def _make_repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    getters = [(name + "=", attrgetter(name)) for name in names]
    running: set[tuple[int, int]] = set()

    def __repr__(self: Any) -> str:
        # A record holding itself prints "..." there, as dataclasses' repr.
        key = (id(self), get_ident())
        if key in running:
            return "..."
        running.add(key)
        try:
            inner = ", ".join([label + repr(get(self)) for label, get in getters])
        finally:
            running.discard(key)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def _make_frozen(cls: Any, names: frozenset[str]) -> tuple[Callable, Callable]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _init_lines(cls: type, all_fields: tuple[Field, ...], frozen: bool, slots: bool) -> list[str]:
    """The text of ``cls.__init__`` (its defaults are the factory's closure variables)."""
    names = {f.name for f in all_fields}
    self_name = "__record_self__" if "self" in names else "self"
    params: list[str] = []
    body: list[str] = []
    setting = [f for f in all_fields if f.init or f.default_factory is not MISSING or slots]
    if frozen and len(setting) > 2:
        # One bound object.__setattr__ for every field (the class's own
        # __setattr__ refuses them): ~25 % faster than dataclasses' call of
        # object.__setattr__ per field, the same memory.
        body.append(f"_set = _setattr.__get__({self_name})")
    for f in all_fields:
        name = f.name
        if f.init:
            if f.default_factory is not MISSING:
                params.append(f"{name}=_HAS_FACTORY")
                value = f"_dflt_{name}() if {name} is _HAS_FACTORY else {name}"
            elif f.default is not MISSING:
                params.append(f"{name}=_dflt_{name}")
                value = name
            else:
                params.append(name)
                value = name
        elif f.default_factory is not MISSING:
            value = f"_dflt_{name}()"
        elif slots and f.default is not MISSING:
            value = f"_dflt_{name}"
        else:
            continue  # the class attribute is the default (or the field is set later)
        if not frozen:
            body.append(f"{self_name}.{name} = {value}")
        elif len(setting) > 2:
            body.append(f"_set({name!r}, {value})")
        else:
            body.append(f"_setattr({self_name}, {name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        body.append(f"{self_name}.__post_init__()")
    return [f"def __init__({', '.join([self_name, *params])}):", *(body or ["pass"])]


def _values(obj: str, names: tuple[str, ...]) -> str:
    # A tuple, as dataclasses compare and hash (one field included: (x,) ==
    # (y,) compares identity first).
    if len(names) == 1:
        return f"({obj}.{names[0]},)"
    return "(" + ", ".join(f"{obj}.{name}" for name in names) + ")"


def _eq_lines(names: tuple[str, ...]) -> list[str]:
    return [
        "def __eq__(self, other):",
        "if other.__class__ is self.__class__:",
        f"    return {_values('self', names)} == {_values('other', names)}",
        "return NotImplemented",
    ]


def _hash_lines(names: tuple[str, ...]) -> list[str]:
    return ["def __hash__(self):", f"return hash({_values('self', names)})"]


#: A record's ``__init__`` (and, apart, its ``__eq__`` with ``__hash__``) is
#: compiled on its call after this many: before, a generic version runs
#: (a few microseconds a call, against ~0.1-0.4 ms to compile): most classes
#: of a ``toskit check`` make a handful of instances, a few make thousands.
COMPILE_AFTER = 10


class _Methods:
    """The generated methods of one record class, compiled when they pay.

    ``__init__``, ``__eq__`` and ``__hash__`` are generated text, as
    dataclasses make them (the fastest calls), compiled by one ``exec``
    (``__init__`` alone, ``__eq__`` with ``__hash__``) on the call after
    :data:`COMPILE_AFTER`. Until then the class holds a stand-in of each
    that does the same generically (bound arguments, defaults, factories;
    a call it cannot bind, a wrong one, compiles at once, so its
    ``TypeError`` is Python's own); the compiled ones then replace the
    stand-ins on the class. A class never used compiles nothing.
    """

    __slots__ = (
        "cls",
        "fields",
        "frozen",
        "slots",
        "wanted",
        "made",
        "calls",
        "plan",
        "params",
        "index",
        "post_init",
    )

    def __init__(self, cls: type, all_fields: tuple[Field, ...], frozen: bool, slots: bool) -> None:
        self.cls = cls
        self.fields = all_fields
        self.frozen = frozen
        self.slots = slots
        # group ("init" or "cmp") -> name -> (stand-in, its text's maker)
        self.wanted: dict[str, dict[str, tuple[Any, Callable[[], list[str]]]]] = {}
        self.made: dict[str, Any] = {}
        self.calls = {"init": 0, "cmp": 0}
        # The generic __init__'s plan: per field, in order, (name, parameter
        # position or -1, how its value comes when not passed).
        params = [f.name for f in all_fields if f.init]
        self.params = params
        self.index = {name: i for i, name in enumerate(params)}
        plan: list[tuple[str, int, str, Any]] = []
        for f in all_fields:
            position = self.index.get(f.name, -1) if f.init else -1
            if f.default_factory is not MISSING:
                plan.append((f.name, position, "factory", f.default_factory))
            elif f.default is not MISSING and (f.init or slots):
                plan.append((f.name, position, "default", f.default))
            elif f.init:
                plan.append((f.name, position, "required", None))
        self.plan = plan
        self.post_init = hasattr(cls, "__post_init__")

    def want(self, group: str, name: str, lines: Callable[[], list[str]], stand_in: Any) -> None:
        if _set_new(self.cls, name, stand_in):
            self.wanted.setdefault(group, {})[name] = (stand_in, lines)

    def build(self, group: str) -> dict[str, Any]:
        """Compile the group's methods (once) and put them on the class."""
        wanted = self.wanted.get(group, {})
        if wanted and not all(name in self.made for name in wanted):
            made = self._compile(wanted)
            for name, (stand_in, _) in wanted.items():
                if self.cls.__dict__.get(name) is stand_in:
                    type.__setattr__(self.cls, name, made[name])
            self.made.update(made)
        return self.made

    def generic_init(self, obj: Any, args: tuple, kwargs: dict[str, Any]) -> bool:
        """Set ``obj``'s fields as the compiled ``__init__`` would; False if the call
        does not bind (nothing is done then)."""
        if len(args) > len(self.params):
            return False
        for key in kwargs:
            position = self.index.get(key)
            if position is None or position < len(args):
                return False
        for name, position, how, _ in self.plan:
            if how == "required" and position >= len(args) and name not in kwargs:
                return False
        setter = object.__setattr__ if self.frozen else setattr
        for name, position, how, default in self.plan:
            if 0 <= position < len(args):
                value = args[position]
            elif position >= 0 and name in kwargs:
                value = kwargs[name]
            elif how == "factory":
                value = default()
            else:
                value = default
            if how == "factory" and value is _HAS_FACTORY:
                value = default()
            setter(obj, name, value)
        if self.post_init:
            obj.__post_init__()
        return True

    def _compile(self, wanted: dict[str, tuple[Any, Callable[[], list[str]]]]) -> dict[str, Any]:
        closure = ["_setattr", "_HAS_FACTORY", *(f"_dflt_{f.name}" for f in self.fields)]
        text = [f"def __create__({', '.join(closure)}):"]
        for make in (make for _, make in wanted.values()):
            lines = make()
            text.append("    " + lines[0])
            text.extend("        " + line for line in lines[1:])
        text.append(f"    return {{{', '.join(f'{n!r}: {n}' for n in wanted)}}}")
        namespace: dict[str, Any] = {}
        # The text names only its closure's variables (no annotations, no
        # module globals), and is toskit's own: field names, never a document.
        exec("\n".join(text) + "\n", {}, namespace)  # noqa: S102
        defaults = [
            f.default_factory if f.default_factory is not MISSING else f.default
            for f in self.fields
        ]
        made: dict[str, Any] = namespace["__create__"](object.__setattr__, _HAS_FACTORY, *defaults)
        for name, method in made.items():
            method.__qualname__ = f"{self.cls.__qualname__}.{name}"
            method.__module__ = self.cls.__module__
        if "__init__" in made:
            # As dataclasses annotate it (inspect.signature shows the types).
            hints: dict[str, Any] = {f.name: f.type for f in self.fields if f.init}
            made["__init__"].__annotations__ = {**hints, "return": None}
        return made


def _stand_ins(
    methods: _Methods, compared: tuple[str, ...], hashed: tuple[str, ...]
) -> tuple[Any, Any, Any]:
    """The class's ``__init__``, ``__eq__`` and ``__hash__`` until compiled."""
    build = methods.build
    calls = methods.calls
    compared_values = _tuple_getter(compared)
    hashed_values = _tuple_getter(hashed)

    def __init__(*args: Any, **kwargs: Any) -> None:
        # (The instance is args[0]: a field may be called "self".)
        calls["init"] += 1
        if calls["init"] > COMPILE_AFTER or not methods.generic_init(args[0], args[1:], kwargs):
            build("init")["__init__"](*args, **kwargs)

    def __eq__(self: Any, other: Any) -> Any:
        calls["cmp"] += 1
        if calls["cmp"] > COMPILE_AFTER:
            return build("cmp")["__eq__"](self, other)
        if other.__class__ is self.__class__:
            return compared_values(self) == compared_values(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        calls["cmp"] += 1
        if calls["cmp"] > COMPILE_AFTER:
            result: int = build("cmp")["__hash__"](self)
            return result
        return hash(hashed_values(self))

    __init__.__record_build__ = lambda: build("init")  # type: ignore[attr-defined]
    return __init__, __eq__, __hash__


def _tuple_getter(names: tuple[str, ...]) -> Callable[[Any], tuple]:
    # A tuple, as the compiled methods compare and hash.
    if len(names) > 1:
        return attrgetter(*names)
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _check_order(all_fields: tuple[Field, ...]) -> None:
    seen_default = False
    for f in all_fields:
        if not f.init:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


class _Signature:
    """``cls.__signature__``: compiles the lazy ``__init__``, then lets ``inspect`` read it.

    ``inspect.signature(cls)`` asks the class for ``__signature__`` first;
    this makes the real ``__init__`` exist and answers "none" (an
    ``AttributeError``), so ``inspect`` reads the compiled ``__init__``.
    """

    __slots__ = ()

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None and owner is not None:
            init = getattr(owner, "__init__", None)
            build = getattr(init, "__record_build__", None)
            if build is not None:
                build()
        raise AttributeError("__signature__")


_SIGNATURE = _Signature()


class _DataclassFields:
    """``__dataclass_fields__`` of a record, built on first access.

    It imports ``dataclasses`` only then, so ``dataclasses.is_dataclass``,
    ``fields``, ``replace`` and ``asdict`` accept records while toskit's
    start-up imports none of it.
    """

    __slots__ = ("fields", "built")

    def __init__(self, all_fields: tuple[Field, ...]) -> None:
        self.fields = all_fields
        self.built: dict[str, Any] | None = None

    def __get__(self, obj: Any, owner: type | None = None) -> dict[str, Any]:
        if self.built is None:
            import dataclasses

            built: dict[str, Any] = {}
            for f in self.fields:
                real: Any = dataclasses.field(
                    default=dataclasses.MISSING if f.default is MISSING else f.default,
                    default_factory=(
                        dataclasses.MISSING if f.default_factory is MISSING else f.default_factory
                    ),
                    init=f.init,
                    repr=f.repr,
                    hash=f.hash,
                    compare=f.compare,
                )
                real.name = f.name
                real.type = f.type
                real._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
                built[f.name] = real
            self.built = built
        return self.built


class _DataclassParams:
    """``__dataclass_params__`` of a record, built on first access."""

    __slots__ = ("flags", "built")

    def __init__(self, **flags: bool) -> None:
        self.flags = flags
        self.built: Any = None

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if self.built is None:
            import dataclasses

            params = dataclasses._DataclassParams  # type: ignore[attr-defined]
            flags = dict(self.flags, order=False, unsafe_hash=False)
            try:
                self.built = params(**flags)
            except TypeError:  # Python 3.12 and later name four more
                self.built = params(
                    **flags, match_args=True, kw_only=False, slots=False, weakref_slot=False
                )
        return self.built


def _frozen_getstate(self: Any) -> list[Any]:
    return [getattr(self, name) for name in type(self).__record_names__]


def _frozen_setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(type(self).__record_names__, state, strict=True):
        object.__setattr__(self, name, value)


def _slotted(cls: type, names: tuple[str, ...]) -> type:
    """``cls`` made again with ``__slots__`` for its fields (as ``dataclass(slots=True)``)."""
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    inherited: set[str] = set()
    for base in cls.__mro__[1:-1]:
        slots = base.__dict__.get("__slots__", ())
        inherited.update((slots,) if isinstance(slots, str) else slots)
    namespace = dict(cls.__dict__)
    for name in names:
        namespace.pop(name, None)
    namespace["__slots__"] = tuple(name for name in names if name not in inherited)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def _process(cls: Any, init: bool, repr: bool, eq: bool, frozen: bool, slots: bool) -> type:  # noqa: A002
    inherited: dict[str, Field] = {}
    any_frozen_base = False
    has_record_base = False
    for base in cls.__mro__[-1:0:-1]:
        base_fields = base.__dict__.get("__record_fields__")
        if base_fields is not None:
            has_record_base = True
            any_frozen_base = base.__dict__["__record_frozen__"]
            for f in base_fields:
                inherited[f.name] = f
    if has_record_base and any_frozen_base != frozen:
        if frozen:
            raise TypeError("cannot inherit frozen dataclass from a non-frozen one")
        raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
    for f in _own_fields(cls):
        inherited[f.name] = f  # a redefined field keeps its place, as dataclasses
    all_fields = tuple(inherited.values())
    names = tuple(f.name for f in all_fields)

    cls.__record_fields__ = all_fields
    cls.__record_names__ = names
    cls.__record_frozen__ = frozen
    cls.__dataclass_fields__ = _DataclassFields(all_fields)
    cls.__dataclass_params__ = _DataclassParams(init=init, repr=repr, eq=eq, frozen=frozen)
    if "__match_args__" not in cls.__dict__:
        type.__setattr__(cls, "__match_args__", tuple(f.name for f in all_fields if f.init))
    if slots:
        cls = _slotted(cls, names)

    methods = _Methods(cls, all_fields, frozen, slots)
    compared = tuple(f.name for f in all_fields if f.compare)
    hashed = tuple(f.name for f in all_fields if (f.compare if f.hash is None else f.hash))
    init_stand_in, eq_stand_in, hash_stand_in = _stand_ins(methods, compared, hashed)
    if init:
        _check_order(all_fields)  # a misordered default is an error of the class
        methods.want(
            "init", "__init__", lambda: _init_lines(cls, all_fields, frozen, slots), init_stand_in
        )
        if "__signature__" not in cls.__dict__:
            cls.__signature__ = _SIGNATURE
    if repr:
        _set_new(cls, "__repr__", _make_repr(tuple(f.name for f in all_fields if f.repr)))
    # The hash as dataclasses decide it (unsafe_hash=False): a class's own
    # __hash__ stays; eq and frozen hash the compared fields; eq alone makes
    # the records unhashable; eq=False keeps the base class's.
    class_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in cls.__dict__))
    if eq:
        methods.want("cmp", "__eq__", lambda: _eq_lines(compared), eq_stand_in)
        if not explicit_hash:
            if frozen:
                if "__hash__" in cls.__dict__:
                    type.__delattr__(cls, "__hash__")  # None, set by Python for __eq__
                methods.want("cmp", "__hash__", lambda: _hash_lines(hashed), hash_stand_in)
            else:
                cls.__hash__ = None
    if frozen:
        for name, method in zip(
            ("__setattr__", "__delattr__"), _make_frozen(cls, frozenset(names)), strict=True
        ):
            if not _set_new(cls, name, method):
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        if slots and "__getstate__" not in cls.__dict__:
            cls.__getstate__ = _frozen_getstate
            cls.__setstate__ = _frozen_setstate
    if cls.__doc__ is None:
        cls.__doc__ = f"{cls.__name__}({', '.join(names)})"
    return cls


@overload
def record(cls: _C, /) -> _C: ...
@overload
def record(
    *,
    init: bool = ...,
    repr: bool = ...,  # noqa: A002
    eq: bool = ...,
    frozen: bool = ...,
    slots: bool = ...,
) -> Callable[[_C], _C]: ...
@dataclass_transform(field_specifiers=(field, Field))
def record(
    cls: Any = None,
    /,
    *,
    init: bool = True,
    repr: bool = True,  # noqa: A002
    eq: bool = True,
    frozen: bool = False,
    slots: bool = False,
) -> Any:
    """Make ``cls`` a record: ``dataclasses.dataclass`` with the same options, cheaper.

    ``@record``, ``@record(frozen=True)``, ``@record(frozen=True, eq=False)``,
    ``@record(slots=True)``: see the module's docstring for what differs
    (nothing a caller of the class sees, but the cost of making it).
    """

    def wrap(cls: type) -> type:
        return _process(cls, init, repr, eq, frozen, slots)

    if cls is None:
        return wrap
    return wrap(cls)


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in order (toskit's own :class:`Field`)."""
    try:
        found: tuple[Field, ...] = obj.__record_fields__
        return found
    except AttributeError:
        raise TypeError("must be called with a record type or instance") from None


def replace(obj: _T, /, **changes: Any) -> _T:
    """A copy of the record ``obj`` with ``changes``, as ``dataclasses.replace``.

    Every ``init`` field not changed is passed on as it is (``__post_init__``
    runs again); changing a field that is not an ``__init__`` parameter is a
    ``ValueError``.
    """
    try:
        all_fields: tuple[Field, ...] = type(obj).__record_fields__  # type: ignore[attr-defined]
    except AttributeError:
        raise TypeError("replace() should be called on record instances") from None
    for f in all_fields:
        if not f.init:
            if f.name in changes:
                raise ValueError(
                    f"field {f.name} is declared with init=False, it cannot be specified with "
                    "replace()"
                )
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def asdict(obj: Any) -> dict[str, Any]:
    """The record ``obj`` as a dict, recursively, as ``dataclasses.asdict``.

    Records (and dataclasses) inside become dicts; lists, tuples (named
    ones included) and dicts are rebuilt; other values are deep-copied.
    """
    if not hasattr(type(obj), "__record_fields__"):
        raise TypeError("asdict() should be called on record instances")
    result: dict[str, Any] = _asdict_inner(obj)
    return result


def _asdict_inner(obj: Any) -> Any:
    names = getattr(type(obj), "__record_names__", None)
    if names is not None:
        return {name: _asdict_inner(getattr(obj, name)) for name in names}
    if hasattr(type(obj), "__dataclass_fields__"):
        import dataclasses

        return dataclasses.asdict(obj)
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_asdict_inner(v) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)(_asdict_inner(v) for v in obj)
    if isinstance(obj, dict):
        return type(obj)((_asdict_inner(k), _asdict_inner(v)) for k, v in obj.items())
    import copy

    return copy.deepcopy(obj)
