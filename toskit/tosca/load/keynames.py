"""Check a document's keynames against the grammar tables of :mod:`.grammar`.

Reports ``unknown-keyname`` (with a did-you-mean hint) for a key TOSCA does
not define at its place, and ``invalid-definition`` where a section that
must be a map (or a list) is something else. Values TOSCA leaves to the
user (property values, metadata, filters) are not looked into here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from toskit.diagnostics import Diagnostic, did_you_mean
from toskit.plain import describe
from toskit.source import YamlDocument
from toskit.tosca.load.grammar import ANY, Keys, ListOf, NamedList, NamedMap, Shape, Short, Value
from toskit.tosca.types.definitions import yaml11_boolean

__all__ = ["article", "check_keynames"]


def article(noun: str) -> str:
    """``noun`` with its indefinite article: ``an operation definition``, ``a map``."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def check_keynames(doc: YamlDocument, value: Any, shape: Shape) -> list[Diagnostic]:
    """Every keyname problem of ``value`` (the whole document) against ``shape``."""
    out: list[Diagnostic] = []
    _walk(doc, value, shape, [], out)
    return out


def _walk(
    doc: YamlDocument, value: Any, shape: Shape, parts: list[Hashable], out: list[Diagnostic]
) -> None:
    if shape is ANY:
        return
    if isinstance(shape, Value):
        _check_value(doc, value, shape, parts, out)
        return
    if value is None:
        _no_value(doc, shape, parts, out)
        return
    if isinstance(shape, Short):
        if isinstance(value, shape.short) and not isinstance(value, dict):
            return
        _walk(doc, value, shape.full, parts, out)
        return
    if isinstance(shape, Keys):
        _walk_keys(doc, value, shape, parts, out)
    elif isinstance(shape, NamedMap):
        _walk_named_map(doc, value, shape, parts, out)
    elif isinstance(shape, NamedList):
        _walk_named_list(doc, value, shape, parts, out)
    elif isinstance(shape, ListOf):
        if not isinstance(value, list):
            out.append(_not_a(doc, parts, "expected a list", value))
            return
        for index, item in enumerate(value):
            _walk(doc, item, shape.item, [*parts, index], out)


def _no_value(
    doc: YamlDocument, shape: Shape, parts: list[Hashable], out: list[Diagnostic]
) -> None:
    """``section:`` with nothing after it (``{}`` is an explicit empty map, fine)."""
    if not parts:
        return
    if isinstance(shape, NamedMap | NamedList | ListOf) and shape.nonempty:
        out.append(
            doc.diagnostic(
                "error",
                "invalid-definition",
                f"'{parts[-1]}' has no value: write {{}} or leave the section out",
                parts,
                at_key=True,
            )
        )
    elif isinstance(shape, Keys) and shape.required:
        # Nothing written where keynames are required (``substitution_mappings:``).
        needed = ", ".join(f"'{k}'" for k in shape.required)
        out.append(
            doc.diagnostic(
                "error",
                "missing-keyname",
                f"'{parts[-1]}' has no value: {article(shape.name)} needs {needed}",
                parts,
                at_key=True,
            )
        )


def _walk_keys(
    doc: YamlDocument, value: Any, shape: Keys, parts: list[Hashable], out: list[Diagnostic]
) -> None:
    if not isinstance(value, dict):
        out.append(_not_a(doc, parts, f"{article(shape.name)} must be a map", value))
        return
    for key in shape.required:
        if key not in value:
            out.append(
                doc.diagnostic(
                    "error",
                    "missing-keyname",
                    f"{article(shape.name)} needs '{key}'",
                    parts,
                    at_key=True,  # on the key that lacks it (issue #28), not its first child
                )
            )
    keys = shape.keys
    for key, item in value.items():
        sub = keys.get(key) if key.__class__ is str or isinstance(key, str) else None
        if sub is ANY or (
            item.__class__ is str and sub.__class__ is Value and sub.kind in _TEXT_KINDS
        ):
            continue  # nothing to check below (property values, a type's name): no path built
        if sub is None and key in shape.forbidden:
            out.append(
                doc.diagnostic(
                    "error",
                    "invalid-definition",
                    f"'{key}' is not allowed here: {shape.forbidden[key]}",
                    (*parts, key),
                    at_key=True,
                )
            )
            continue
        if sub is None and (not shape.extra_alone or len(value) == 1):
            sub = shape.extra
        if sub is None:
            out.append(
                doc.diagnostic(
                    "error",
                    "unknown-keyname",
                    f"unknown keyname '{key}' in {shape.name}",
                    (*parts, key),
                    hint=_hint(key, shape),
                    at_key=True,
                    # The fix (issue #28): the renamed keyname, else the one closest.
                    replacement=_renamed(key, shape),
                    misspelt=str(key),
                    candidates=shape.keys,
                )
            )
            continue
        _walk(doc, item, sub, [*parts, key], out)


def _walk_named_map(
    doc: YamlDocument, value: Any, shape: NamedMap, parts: list[Hashable], out: list[Diagnostic]
) -> None:
    if not isinstance(value, dict):
        out.append(_not_a(doc, parts, "expected a map of names", value))
        return
    sub = shape.item
    if sub is ANY:
        for key in value:
            if not isinstance(key, str) or not key:
                out.append(_bad_name(doc, [*parts, key], key))
        return
    # The common case (each item a map of keynames, as node templates are):
    # straight to the keys' walk, as _walk would go.
    keyed = sub if sub.__class__ is Keys else None
    for key, item in value.items():
        if not isinstance(key, str) or not key:
            out.append(_bad_name(doc, [*parts, key], key))
        if keyed is not None and item is not None:
            _walk_keys(doc, item, keyed, [*parts, key], out)
        else:
            _walk(doc, item, sub, [*parts, key], out)


def _walk_named_list(
    doc: YamlDocument, value: Any, shape: NamedList, parts: list[Hashable], out: list[Diagnostic]
) -> None:
    if isinstance(value, dict) and shape.also_map:
        for key, item in value.items():
            _walk(doc, item, shape.item, [*parts, key], out)
        return
    if not isinstance(value, list):
        out.append(_not_a(doc, parts, "expected a list of single-key maps", value))
        return
    for index, entry in enumerate(value):
        if not isinstance(entry, dict) or len(entry) != 1:
            out.append(
                _not_a(doc, [*parts, index], "expected a single-key map (name: definition)", entry)
            )
            continue
        ((key, item),) = entry.items()
        _walk(doc, item, shape.item, [*parts, index, key], out)


def _renamed(key: Hashable, shape: Keys) -> str | None:
    return shape.renamed.get(key) if isinstance(key, str) else None


def _hint(key: Hashable, shape: Keys) -> str | None:
    other = shape.renamed.get(key) if isinstance(key, str) else None
    if other is not None:
        return f"did you mean '{other}'? ('{key}' belongs to the other TOSCA version)"
    return did_you_mean(str(key), shape.keys)


def _bad_name(doc: YamlDocument, parts: list[Hashable], key: Any) -> Diagnostic:
    return doc.diagnostic(
        "error",
        "invalid-definition",
        f"a name must be a non-empty string, got {describe(key)}",
        parts,
        at_key=True,
    )


def _check_value(
    doc: YamlDocument, value: Any, shape: Value, parts: list[Hashable], out: list[Diagnostic]
) -> None:
    """Keynames whose value kind TOSCA fixes (grammar.VALUE_KINDS_1 / _2).

    The finding is located at the value; a YAML 1.1 boolean written for a
    boolean keyname gets the hint ``write false`` (or ``true``).
    """
    kind = shape.kind
    name = parts[-1] if parts else "value"
    if value is None and shape.soft_null:
        # ``description:`` with nothing after it: harmless, worth a warning
        out.append(
            doc.diagnostic(
                "warning",
                "invalid-definition",
                f"'{name}' is empty (null)",
                parts,
                hint="write some text or leave the keyname out",
            )
        )
        return
    if kind == "metadata":
        problem, hint = _metadata_problem(doc, value, parts, out), None
    else:
        problem, hint = _value_problem(value, shape)
    if problem is not None:
        out.append(
            doc.diagnostic(
                "error",
                "invalid-definition",
                f"'{name}' {problem}, got {describe(value)}",
                parts,
                hint=hint,
            )
        )


def _is_names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _is_version(value: Any) -> bool:
    # toskit.values imported on the first `version:` keyname, not with this
    # module: a check without one never needs it (#31 start-up).
    import toskit.values

    return not isinstance(value, bool) and toskit.values.parse_version(value) is not None


# Kinds checked by one test: (the value is fine, what it must be).
_SIMPLE_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "type-name": (lambda v: isinstance(v, str), "must be a type name"),
    "integer": (lambda v: isinstance(v, int) and not isinstance(v, bool), "must be an integer"),
    "names": (_is_names, "must be a list of names"),
    "version": (
        _is_version,
        "must be a version (major.minor[.fix[.qualifier[-build]]])",
    ),
    "map": (lambda v: isinstance(v, dict), "must be a map"),
    "type-names": (_is_names, "must be a list of type names"),
    "count-range": (
        lambda v: _is_count_range(v),
        "must be a range [lower, upper] of non-negative integers "
        "(upper may be UNBOUNDED, lower <= upper)",
    ),
}


# Value kinds any string satisfies (see _value_problem): a str written for one
# is not looked into further.
_TEXT_KINDS = frozenset(("type-name", "string", "text"))


def _value_problem(value: Any, shape: Value) -> tuple[str | None, str | None]:
    """What is wrong with ``value`` for its kind (``None``: nothing), and a hint."""
    kind = shape.kind
    simple = _SIMPLE_KINDS.get(kind)
    if simple is not None:
        return (None if simple[0](value) else simple[1]), None
    if kind in ("string", "text"):
        text_like = isinstance(value, str) or (
            kind == "text" and isinstance(value, int | float) and not isinstance(value, bool)
        )
        return (None if text_like else "must be a string"), None
    if kind == "boolean" and not isinstance(value, bool):
        meant = yaml11_boolean(value)
        hint = None
        if meant is not None:
            word = "true" if meant else "false"
            hint = f"write {word}: TOSCA reads YAML 1.2, where only true and false are booleans"
        return "must be a boolean (true or false)", hint
    if kind == "choices" and not (
        isinstance(value, list)
        and all(isinstance(item, str) and item.lower() in shape.choices for item in value)
    ):
        bad = (
            next((i for i in value if isinstance(i, str) and i.lower() not in shape.choices), None)
            if isinstance(value, list)
            else None
        )
        hint = did_you_mean(bad, shape.choices) if bad is not None else None
        return "must be a list of " + ", ".join(f"'{c}'" for c in shape.choices), hint
    if kind == "choice" and not (isinstance(value, str) and value.lower() in shape.choices):
        # any case: the OASIS suite's all_elements.yaml writes 'SUPPORTED'
        hint = did_you_mean(value, shape.choices) if isinstance(value, str) else None
        return "must be one of " + ", ".join(f"'{c}'" for c in shape.choices), hint
    return None, None


def _metadata_problem(
    doc: YamlDocument, value: Any, parts: list[Hashable], out: list[Diagnostic]
) -> str | None:
    """``metadata`` must be a map; each entry's problem is reported at the entry."""
    if not isinstance(value, dict):
        return "must be a map"
    for key, item in value.items():
        # Every entry needs a value; the template's name and author are
        # text (or structured text), never a bare number or boolean.
        bare = isinstance(item, (int, float, bool))
        if item is None or (key in _TEXT_METADATA and bare):
            what = "a string" if key in _TEXT_METADATA else "a value"
            out.append(
                doc.diagnostic(
                    "error",
                    "invalid-definition",
                    f"metadata '{key}' must be {what}, got {describe(item)}",
                    [*parts, key],
                )
            )
    return None


def _is_count_range(value: Any) -> bool:
    """``[lower, upper]``: integers ``0 <= lower <= upper``, or ``upper`` ``UNBOUNDED``."""
    if not (isinstance(value, list) and len(value) == 2):
        return False
    lower, upper = value

    def count(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and x >= 0

    if not count(lower):
        return False
    return upper == "UNBOUNDED" or (count(upper) and lower <= upper)


_TEXT_METADATA = frozenset({"template_name", "template_author"})


def _not_a(doc: YamlDocument, parts: list[Hashable], what: str, value: Any) -> Diagnostic:
    return doc.diagnostic(
        "error",
        "invalid-definition",
        f"{what}, got {describe(value, 40)}",
        parts,
    )
