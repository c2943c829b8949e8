"""The runtime side of the DSL: base classes, instances, field markers.

A subclass of one of these bases *is* a TOSCA type; nothing is registered
anywhere when it is defined (there is no process-wide type registry).
:mod:`toskit.dsl.python2yaml` reads the classes a module defines and writes
the TOSCA definitions.

* ``DataEntity`` (also ``datatypes.Root``): data types. An instance records
  only the fields it was given (``Data1(prop2="x")`` is a *partial* value
  that merges over the data type's defaults exactly as the YAML
  ``{prop2: x}`` does).
* ``NodeType`` and the normative ``nodes.*`` classes: node types. Calling
  one with a name and keyword properties makes a node template.
* ``CapabilityType``, ``RelationshipType``, ``InterfaceType``,
  ``ArtifactType``, ``GroupType``, ``PolicyType``: the other kinds.
* ``Property(...)`` / ``Attribute(...)``: a class attribute value that
  carries more than a default (constraints, status, metadata, an explicit
  TOSCA type, ``required``, a description).
* ``Size``, ``Time``, ``Frequency``, ``Bitrate``, ``tosca_timestamp``,
  ``tosca_version``, ``tosca_range``, ``tosca_bytes``: annotations for
  TOSCA's special types (their values are written as strings in Python,
  as in YAML).
"""

from __future__ import annotations

import contextvars
import functools
import sys
import types
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from toskit.records import field, record

__all__ = [
    "ArtifactType",
    "Attribute",
    "Bitrate",
    "CapabilityType",
    "DataEntity",
    "DataType",
    "Frequency",
    "GroupType",
    "InterfaceType",
    "MISSING",
    "Namespace",
    "NodeType",
    "PolicyType",
    "Property",
    "RelationshipType",
    "Size",
    "SourcePosition",
    "Time",
    "ToscaType",
    "ToscaTypeRef",
    "ToscaTemplate",
    "UNITS",
    "Unit",
    "tosca_bytes",
    "tosca_range",
    "tosca_timestamp",
    "tosca_version",
]


class _Missing:
    """No value given (distinct from ``None``, which is a value)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


@record(frozen=True)
class SourcePosition:
    """Where a Python expression was written: file, 1-based line and column."""

    file: str | None
    line: int | None
    column: int | None = None


def _caller_position(depth: int = 2) -> SourcePosition | None:
    """The position of the call expression ``depth`` frames up.

    Python 3.11+ knows the exact column of the call instruction; earlier
    versions give the line only. Frames inside toskit itself are skipped so
    that a subclass calling ``super().__init__`` still points at user code.
    """
    try:
        frame: types.FrameType | None = sys._getframe(depth)
    except ValueError:  # pragma: no cover - not that deep
        return None
    while frame is not None and frame.f_globals.get("__name__", "").startswith("toskit.dsl"):
        frame = frame.f_back
    if frame is None:
        return None
    code = frame.f_code
    line, column = frame.f_lineno, None
    positions = _positions(code)
    if positions is not None:
        try:
            pos = positions[frame.f_lasti // 2]
            if pos[0] is not None:
                line = pos[0]
            if pos[2] is not None:
                column = pos[2] + 1
        except (IndexError, TypeError):
            pass
    return SourcePosition(code.co_filename, line, column)


@functools.lru_cache(maxsize=256)
def _positions(code: types.CodeType) -> tuple | None:
    """The (line, end line, column, end column) of each instruction (3.11+),
    cached per code object."""
    positions = getattr(code, "co_positions", None)
    return tuple(positions()) if positions is not None else None


class ToscaTypeRef(str):
    """Base of the annotations that name a TOSCA special type (``Size`` is ``scalar-unit.size``).

    They are ``str`` subclasses (values are written as strings, ``"2 GB"``),
    so ``Size | None`` and ``list[Size]`` work as ordinary annotations.
    """

    tosca_name: ClassVar[str] = ""
    python_name: ClassVar[str] = ""


def _special(tosca_name: str, python_name: str) -> type[ToscaTypeRef]:
    return type(
        python_name,
        (ToscaTypeRef,),
        {"tosca_name": tosca_name, "python_name": python_name, "__module__": "toskit.dsl"},
    )


Size = _special("scalar-unit.size", "Size")
Time = _special("scalar-unit.time", "Time")
Frequency = _special("scalar-unit.frequency", "Frequency")
Bitrate = _special("scalar-unit.bitrate", "Bitrate")
tosca_timestamp = _special("timestamp", "tosca_timestamp")
tosca_version = _special("version", "tosca_version")
tosca_range = _special("range", "tosca_range")
tosca_bytes = _special("bytes", "tosca_bytes")


class Unit:
    """A scalar unit: ``2 * GB`` is ``Size("2 GB")`` (Unfurl's notation)."""

    def __init__(self, name: str, marker: type[ToscaTypeRef]) -> None:
        self.name = name
        self.marker = marker

    def __rmul__(self, number: Any) -> ToscaTypeRef:
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            return NotImplemented
        return self.marker(f"{number!r} {self.name}")

    def __repr__(self) -> str:
        return self.name


#: Unit name -> Unit, for every unit TOSCA 1.3 defines (case as the spec writes it).
UNITS: dict[str, Unit] = {
    **{n: Unit(n, Size) for n in ("B", "kB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB")},
    **{n: Unit(n, Time) for n in ("d", "h", "m", "s", "ms", "us", "ns")},
    **{n: Unit(n, Frequency) for n in ("Hz", "kHz", "MHz", "GHz")},
    **{
        n: Unit(n, Bitrate)
        for n in ("bps", "Kbps", "Kibps", "Mbps", "Mibps", "Gbps", "Gibps", "Tbps", "Tibps")
    },
}

#: TOSCA special type name -> the marker that annotates it.
SPECIAL_TYPES: dict[str, type[ToscaTypeRef]] = {
    ref.tosca_name: ref
    for ref in (
        Size,
        Time,
        Frequency,
        Bitrate,
        tosca_timestamp,
        tosca_version,
        tosca_range,
        tosca_bytes,
    )
}


@record
class Property:
    """A class attribute value that says more about a property than its default.

    ``Property(default=2233, constraints=[{"in_range": [1, 65535]}])``.
    ``type`` overrides the TOSCA type derived from the annotation;
    ``required`` overrides what the annotation says (``X | None`` means not
    required). ``extra`` holds any further definition keys verbatim
    (``key_schema``, ``entry_schema`` with constraints, 2.0 ``value``...).
    """

    default: Any = MISSING
    description: str | None = None
    required: bool | None = None
    type: str | None = None
    constraints: list | None = None
    validation: Any = None
    status: str | None = None
    metadata: Mapping | None = None
    entry_schema: Any = None
    key_schema: Any = None
    extra: dict = field(default_factory=dict)
    name: str | None = None  # the TOSCA name when it is not a Python identifier
    _attribute: ClassVar[bool] = False


@record
class Attribute(Property):
    """Like :class:`Property`, for a TOSCA attribute definition."""

    _attribute: ClassVar[bool] = True


class Namespace:
    """A plain holder of classes (``nodes``, ``datatypes``, ...)."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        names = sorted(k for k in vars(self) if not k.startswith("_"))
        return f"<dsl namespace {self._name}: {', '.join(names)}>"


# Collects the templates made while load_module executes a module (by
# creation order); outside load_module nothing is collected.
_COLLECTOR: contextvars.ContextVar[list | None] = contextvars.ContextVar(
    "toskit_dsl_collector", default=None
)


class ToscaType:
    """Base of every DSL class. A subclass is a TOSCA type of ``_tosca_kind``.

    Class-level keys (all optional):

    * ``_type_name``: the TOSCA name (default: the class name);
    * ``_derived_from``: a parent TOSCA name that has no Python class (kept
      verbatim, e.g. an unknown type the YAML named);
    * ``_type``: for data types, the primitive the type derives from;
    * ``_constraints`` / ``_validation`` / ``_metadata`` / ``_version``;
    * ``_tosca_extra``: further definition keys written verbatim
      (requirements, capabilities, interfaces, ...);
    * ``_tosca_names``: Python attribute name -> TOSCA property name, for
      property names that are not identifiers.
    """

    _tosca_kind: ClassVar[str] = ""
    _type_name: ClassVar[str] = ""
    _tosca_normative: ClassVar[bool] = False
    _tosca_abstract: ClassVar[bool] = True
    # Set by __init_subclass__: the file and module globals of the class statement.
    _tosca_file: ClassVar[str | None]
    _tosca_globals: ClassVar[dict[str, Any]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_type_name" not in cls.__dict__:
            cls._type_name = cls.__name__
        if "_tosca_normative" not in cls.__dict__:
            cls._tosca_normative = False
        if "_tosca_abstract" not in cls.__dict__:
            cls._tosca_abstract = False
        # Remember where the class statement ran: its file (for positions and
        # attribute docstrings) and its module globals (to read string
        # annotations), even after load_module has dropped the module.
        frame: types.FrameType | None = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__", "").startswith("toskit.dsl"):
            frame = frame.f_back
        cls._tosca_file = frame.f_code.co_filename if frame is not None else None
        cls._tosca_globals = frame.f_globals if frame is not None else {}


def _check_no_positional(cls: type, args: tuple) -> None:
    if args:
        raise TypeError(
            f"{cls.__name__}() takes fields as keywords only (got {len(args)} positional "
            f"argument{'s' if len(args) != 1 else ''})"
        )


class _ValueEntity(ToscaType):
    """An instance that records the fields it was given, and where."""

    _tosca_abstract = True

    def __init__(self, *args: Any, **fields: Any) -> None:
        _check_no_positional(type(self), args)
        object.__setattr__(self, "_values", dict(fields))
        object.__setattr__(self, "_position", _caller_position())

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup (instance dict, class defaults) fails.
        values = self.__dict__.get("_values", {})
        if name in values:
            return values[name]
        raise AttributeError(f"{type(self).__name__!r} value has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            self._values[name] = value

    def __getattribute__(self, name: str) -> Any:
        # Given fields win over class-level defaults of the same name.
        if not name.startswith("_"):
            values = object.__getattribute__(self, "__dict__").get("_values")
            if values is not None and name in values:
                return values[name]
        return object.__getattribute__(self, name)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values == other._values

    # Unhashable on purpose: defining __eq__ (without __hash__) sets __hash__ to None.

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"{type(self).__name__}({args})"


class DataEntity(_ValueEntity):
    """Base of data types (``tosca.datatypes.Root``).

    ``Endpoint(ip="10.0.0.1")`` records only ``ip``; the data type's other
    defaults are applied when the template is resolved, as in YAML.
    """

    _tosca_kind = "data"
    _type_name = "tosca.datatypes.Root"
    _tosca_normative = True
    _tosca_abstract = False
    if TYPE_CHECKING:
        # The loaded profile's definition of tosca.datatypes.Root, set by
        # dsl.normative. Declared for the type checker only: annotations of an
        # entity class are its TOSCA properties at run time.
        _tosca_definition: ClassVar[Any]


#: Unfurl's name for the same base class.
DataType = DataEntity


class CapabilityType(_ValueEntity):
    """Base of capability types; an instance is a capability assignment."""

    _tosca_kind = "capability"
    _tosca_abstract = True


class ArtifactType(_ValueEntity):
    """Base of artifact types."""

    _tosca_kind = "artifact"
    _tosca_abstract = True


class InterfaceType(ToscaType):
    """Base of interface types."""

    _tosca_kind = "interface"
    _tosca_abstract = True


class ToscaTemplate(ToscaType):
    """A template: a named instance of a node, relationship, group or policy type.

    ``MyApp("my_app", data1=Data1(prop3="x"))``. The name may be left out
    when the template is bound to a module-level variable (the variable's
    name is used). ``_extra`` holds template keys written verbatim
    (``requirements``, ``capabilities``, ``interfaces``, ``artifacts``,
    ``directives``, ``metadata``...).
    """

    _tosca_abstract = True
    # Set by __init__ (through object.__setattr__, as the values are frozen).
    _name: str | None
    _values: dict[str, Any]
    _extra: dict[str, Any]

    def __init__(
        self, _name: str | None = None, /, *, _extra: Mapping | None = None, **properties: Any
    ) -> None:
        object.__setattr__(self, "_name", _name)
        object.__setattr__(self, "_values", dict(properties))
        object.__setattr__(self, "_extra", dict(_extra or {}))
        object.__setattr__(self, "_position", _caller_position())
        collected = _COLLECTOR.get()
        if collected is not None:
            collected.append(self)

    __getattr__ = _ValueEntity.__getattr__
    __getattribute__ = _ValueEntity.__getattribute__
    __setattr__ = _ValueEntity.__setattr__

    def __repr__(self) -> str:
        args = [repr(self._name)] if self._name is not None else []
        args += [f"{k}={v!r}" for k, v in self._values.items()]
        return f"{type(self).__name__}({', '.join(args)})"


class NodeType(ToscaTemplate):
    """Base of node types; calling a node class makes a node template."""

    _tosca_kind = "node"
    _tosca_abstract = True


class RelationshipType(ToscaTemplate):
    """Base of relationship types; an instance is a relationship template."""

    _tosca_kind = "relationship"
    _tosca_abstract = True


class GroupType(ToscaTemplate):
    """Base of group types; an instance is a group."""

    _tosca_kind = "group"
    _tosca_abstract = True


class PolicyType(ToscaTemplate):
    """Base of policy types; an instance is a policy."""

    _tosca_kind = "policy"
    _tosca_abstract = True


#: Kind -> the abstract Python base of that kind.
KIND_BASES: dict[str, type[ToscaType]] = {
    "data": DataEntity,
    "node": NodeType,
    "capability": CapabilityType,
    "relationship": RelationshipType,
    "interface": InterfaceType,
    "artifact": ArtifactType,
    "group": GroupType,
    "policy": PolicyType,
}
