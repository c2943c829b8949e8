"""TOSCA 2.0 user-defined scalar types (``derived_from: scalar``).

A scalar type declares ``units`` (unit -> multiplier), optionally
``prefixes`` (prefix -> multiplier),
``canonical_unit`` and ``data_type`` (``float`` by default, or ``integer``,
or a type derived from them). Values are ``"<number> <unit>"``.

:func:`check_scalar_definition` reports definition mistakes
(``invalid-definition``, ``unknown-type``) where they are written;
:func:`scalar_class` gives the type's one model, a
:class:`toskit.values.ScalarClass` (the allowed units and the number type,
inherited down the type chain), which both the loader's value checks and
``toskit.functions`` (comparisons, arithmetic, through the
``TemplateContext.scalar_class`` hook) read values with;
:func:`number_data_type` the data type its numbers must also satisfy.
Rules and decisions: docs/tosca.md.

>>> import toskit
>>> st = toskit.loads('''
... tosca_definitions_version: tosca_2_0
... data_types:
...   Mass:
...     derived_from: scalar
...     units: {g: 1}
...     prefixes: {"": 1, k: 1000}
... ''')
>>> mass = scalar_class(st.types["Mass"], st.registry)
>>> mass.canonical_unit, mass.units["kg"]
('g', 1000.0)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from toskit.diagnostics import Diagnostic
from toskit.tosca.types.definitions import Type
from toskit.tosca.types.registry import Registry

if TYPE_CHECKING:  # imported on use (scalar_class): not by a check without scalar-units (#31)
    from toskit.values import ScalarClass

__all__ = [
    "SCALAR_KEYS",
    "ScalarTypes",
    "check_scalar_definition",
    "number_data_type",
    "scalar_class",
]

SCALAR_KEYS = ("units", "prefixes", "canonical_unit", "data_type")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _effective(t: Type, key: str) -> Any:
    for each in [t, *t.ancestors]:
        if key in each.definition:
            return each.definition[key]
    return None


def _number_type(
    registry: Registry, name: Any, prefix: str | None
) -> tuple[str | None, Type | None]:
    """``("integer"|"float", data type or None)``, or ``(None, None)`` when not numeric."""
    if name is None:
        return "float", None
    vt = registry.value_type(name, prefix)
    if vt == "integer" or vt == "float":
        return str(vt), None
    if isinstance(vt, Type) and vt.base_primitive in ("integer", "float"):
        return vt.base_primitive, vt
    return None, None


def scalar_class(t: Type, registry: Registry) -> ScalarClass:
    """The :class:`~toskit.values.ScalarClass` of ``t``: units (prefixed forms
    included), canonical unit and number type in effect down its chain.

    Definition mistakes are reported by :func:`check_scalar_definition`; here
    a broken definition still gives a class (the units that are well formed),
    so that values are checked against what the author meant.
    """
    units: dict[str, float] = {}
    prefixes: dict[str, float] = {}
    for each in t.chain:
        if isinstance(each.definition.get("units"), Mapping):
            units.update({str(k): v for k, v in each.definition["units"].items() if _number(v)})
        if isinstance(each.definition.get("prefixes"), Mapping):
            prefixes.update(
                {str(k): v for k, v in each.definition["prefixes"].items() if _number(v)}
            )
    allowed = dict(units)
    for p, pm in prefixes.items():
        for u, um in units.items():
            allowed.setdefault(f"{p}{u}", pm * um)
    number_type, _ = _number_type(registry, _effective(t, "data_type"), t.prefix)
    canonical = _effective(t, "canonical_unit")
    if not isinstance(canonical, str) or canonical not in allowed:
        canonical = next((u for u, m in allowed.items() if m == 1), next(iter(allowed), ""))
    from toskit.values import ScalarClass

    return ScalarClass(
        t.name,
        {u: float(m) for u, m in allowed.items()},
        canonical,
        number_type or "float",
        {u: float(m) for u, m in units.items()},
        {p: float(m) for p, m in prefixes.items()},
    )


def number_data_type(t: Type, registry: Registry) -> Type | None:
    """The declared data type (``data_type: PositiveInteger``) its numbers must satisfy."""
    return _number_type(registry, _effective(t, "data_type"), t.prefix)[1]


def check_scalar_definition(t: Type, registry: Registry) -> list[Diagnostic]:
    """Definition mistakes of one of the document's own data types."""
    out: list[Diagnostic] = []
    raw = t.definition
    doc = t.doc
    if doc is None:
        return out
    written = [key for key in SCALAR_KEYS if key in raw]

    def error(
        message: str,
        parts: tuple[Hashable, ...],
        code: str = "invalid-definition",
        hint: str | None = None,
        misspelt: str | None = None,
        candidates: Iterable[str] = (),
    ) -> None:
        out.append(
            doc.diagnostic(
                "error",
                code,
                f"scalar type '{t.name}': {message}",
                (*t.parts, *parts),
                hint=hint,
                misspelt=misspelt,  # a did-you-mean with its fix (issue #28)
                candidates=candidates,
            )
        )

    if t.base_primitive != "scalar":
        if written:
            out.append(
                doc.diagnostic(
                    "error",
                    "invalid-definition",
                    f"data type '{t.name}' does not derive from 'scalar', so it cannot have "
                    f"'{written[0]}'",
                    (*t.parts, written[0]),
                    at_key=True,
                )
            )
        return out

    _check_units(raw, t.parent is None, error)
    _check_prefixes(t, raw, error)
    _check_canonical(t, raw, registry, error)
    _check_data_type(t, raw, registry, error)
    return out


# ``error(message, parts, code=..., hint=..., misspelt=..., candidates=...)``:
# a finding about the scalar type being checked.
_Error = Callable[..., None]


def _check_units(raw: Mapping, direct: bool, error: _Error) -> None:
    """``units``: a map of positive multipliers, one of them 1 (``direct``:
    the type derives from ``scalar`` itself, so it must declare them)."""
    units = raw.get("units")
    if direct and units is None:
        error("a type derived from 'scalar' needs 'units'", ())
    if units is not None and not isinstance(units, Mapping):
        error("'units' must be a map of unit -> multiplier", ("units",))
        units = None
    if isinstance(units, Mapping):
        for unit, multiplier in units.items():
            if not _number(multiplier) or multiplier <= 0:
                error(f"the multiplier of unit '{unit}' must be a positive number", ("units", unit))
        ones = [u for u, m in units.items() if _number(m) and m == 1]
        if direct and not ones:
            error("one unit must have the multiplier 1", ("units",))
        if len(ones) > 1 and "canonical_unit" not in raw:
            error(
                f"several units have the multiplier 1 ({', '.join(map(str, ones))}): "
                "name one as 'canonical_unit'",
                ("units",),
            )


def _check_prefixes(t: Type, raw: Mapping, error: _Error) -> None:
    """``prefixes``: positive multipliers; with the inherited ones, one of them 1."""
    prefixes = raw.get("prefixes")
    if prefixes is not None:
        if not isinstance(prefixes, Mapping):
            error("'prefixes' must be a map of prefix -> multiplier", ("prefixes",))
        else:
            for p, multiplier in prefixes.items():
                if not _number(multiplier) or multiplier <= 0:
                    error(
                        f"the multiplier of prefix '{p}' must be a positive number", ("prefixes", p)
                    )
            # Prefixes add up down the chain; together they need a multiplier-1 prefix.
            effective: dict[Any, Any] = {}
            for each in t.chain:
                if isinstance(each.definition.get("prefixes"), Mapping):
                    effective.update(each.definition["prefixes"])
            if not any(_number(m) and m == 1 for m in effective.values()):
                error(
                    'one prefix must have the multiplier 1 (often the empty prefix "")',
                    ("prefixes",),
                )


def _check_canonical(t: Type, raw: Mapping, registry: Registry, error: _Error) -> None:
    """``canonical_unit``: one of the type's units, with the multiplier 1."""
    canonical = raw.get("canonical_unit")
    if isinstance(canonical, str):  # another value: reported by the keyname checks
        allowed = scalar_class(t, registry).units
        if canonical not in allowed:
            error(
                f"canonical unit '{canonical}' is not one of its units",
                ("canonical_unit",),
                misspelt=str(canonical),
                candidates=allowed,
            )
        elif allowed[canonical] != 1:
            error(f"canonical unit '{canonical}' must have the multiplier 1", ("canonical_unit",))


def _check_data_type(t: Type, raw: Mapping, registry: Registry, error: _Error) -> None:
    """``data_type``: integer or float or derived from them, no wider than the parent's."""
    if isinstance(raw.get("data_type"), str):  # another value: reported by the keyname checks
        name = raw["data_type"]
        kind, _type = _number_type(registry, name, t.prefix)
        if kind is None:
            if registry.value_type(name, t.prefix) is None and isinstance(name, str):
                error(f"unknown data type '{name}'", ("data_type",), code="unknown-type")
            else:
                error(
                    f"'data_type' must be integer or float (or derive from them), not '{name}'",
                    ("data_type",),
                )
        elif t.parent is not None:
            parent_kind, _ = _number_type(
                registry, _effective(t.parent, "data_type"), t.parent.prefix
            )
            if parent_kind == "float" and kind == "integer":
                error(
                    f"'data_type' {name} is not compatible with the inherited float numbers",
                    ("data_type",),
                )


class ScalarTypes:
    """The scalar classes of one load, computed once per type.

    The loader's value checks (``CheckContext.scalars``) and the
    ``TemplateContext.scalar_class`` hook of the loaded template both read
    through this, so a value and a validation clause see the same units.
    """

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        # id(type) -> (type, class, number data type); the type is kept so the id stays unique.
        self._cache: dict[int, tuple[Type, ScalarClass, Type | None]] = {}

    def _entry(self, t: Type) -> tuple[Type, ScalarClass, Type | None]:
        found = self._cache.get(id(t))
        if found is None:
            found = self._cache[id(t)] = (
                t,
                scalar_class(t, self.registry),
                number_data_type(t, self.registry),
            )
        return found

    def scalar_class(self, t: Type) -> ScalarClass:
        """The :class:`~toskit.values.ScalarClass` of a scalar type."""
        return self._entry(t)[1]

    def number_data_type(self, t: Type) -> Type | None:
        """The data type the numbers of ``t`` must also satisfy, if any."""
        return self._entry(t)[2]

    def by_name(self, type_name: str) -> ScalarClass | None:
        """The class of the scalar type called ``type_name``; ``None`` for other types."""
        vt = self.registry.value_type(type_name)
        if isinstance(vt, Type) and vt.base_primitive == "scalar":
            return self.scalar_class(vt)
        return None
