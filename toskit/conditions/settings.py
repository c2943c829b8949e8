"""The settings a Fuel release's roles depend on (the model behind the
simulator's settings panel).

A role's ``restrictions`` and ``limits`` read settings with member chains
such as ``settings:storage.volumes_ceph.value``. :func:`referenced_settings`
walks the compiled expressions' syntax trees (``Expression.node``; no regex
over the text, so strings and comments that merely look like a reference
do not count) and returns every ``settings:`` chain they read, as dotted
leaf paths. :func:`setting_fields` pairs each path with its place in the
settings model: label, current value and the kind of control that edits it.

Choices toskit made:

* A chain stops at the first special member (``_length``, ``_pluck(…)``):
  the data read is the chain before it.
* A chain with a single key (``settings:storage``) names a whole group, not
  a setting a person toggles; it is left out of the panel.
* Paths are listed in the order of the settings model (groups and
  attributes as the release file writes them), then, for paths the model
  does not define, in the order the roles first reference them.
* :func:`validate_setting` checks a new value with the setting's own
  ``type`` and ``regex`` (compiled with RE2: the pattern comes from the
  release file) and reports the setting's own ``regex.error`` text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toskit.errors import ToskitError
from toskit.records import record

__all__ = [
    "SettingError",
    "SettingField",
    "validate_setting",
    "expression_feature_groups",
    "expression_settings",
    "feature_group_test",
    "referenced_feature_groups",
    "referenced_settings",
    "setting_fields",
    "settings_chain",
    "short_path",
]


def settings_chain(node: Any) -> list[str] | None:
    """The keys of a ``settings:`` member chain ending at ``node``, or None."""
    from toskit.conditions.syntax import Member, ModelRef

    names: list[str] = []
    while isinstance(node, Member):
        if node.args is not None or node.name.startswith("_"):
            return None
        names.append(node.name)
        node = node.obj
    if isinstance(node, ModelRef) and node.model == "settings":
        return [node.key, *reversed(names)]
    return None


def _walk(node: Any, found: list[str]) -> None:
    from toskit.conditions.syntax import children

    stack = [node]
    while stack:  # iterative: expression nesting is bounded, but stay flat anyway
        current = stack.pop()
        keys = settings_chain(current)
        if keys is not None:
            if len(keys) >= 2:
                found.append(".".join(keys))
            continue
        stack.extend(reversed(children(current)))


def expression_settings(expression: Any) -> list[str]:
    """The ``settings:`` paths one compiled expression reads, in text order."""
    node = getattr(expression, "node", None)
    found: list[str] = []
    if node is not None:
        _walk(node, found)
    return found


def expression_feature_groups(expression: Any) -> list[str]:
    """The feature group names one expression tests with
    ``'<name>' in version:feature_groups`` (or ``not in``), in text order."""
    from toskit.conditions.syntax import children

    node = getattr(expression, "node", None)
    found: list[str] = []
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        group = feature_group_test(current)
        if group is not None:
            found.append(group[0])
        stack.extend(reversed(children(current)))
    return found


def feature_group_test(node: Any) -> tuple[str, bool] | None:
    """``(name, True)`` for ``'<name>' in version:feature_groups``,
    ``(name, False)`` for ``not in``; ``None`` for any other node."""
    from toskit.conditions.syntax import Compare, Literal, ModelRef

    if not isinstance(node, Compare) or node.op not in ("in", "not in"):
        return None
    left, right = node.left, node.right
    if (
        isinstance(left, Literal)
        and isinstance(left.value, str)
        and isinstance(right, ModelRef)
        and (right.model, right.key) == ("version", "feature_groups")
    ):
        return left.value, node.op == "in"
    return None


def _role_expressions(role: Any) -> Iterable[Any]:
    for restriction in getattr(role, "restrictions", ()) or ():
        yield getattr(restriction, "condition", None)
    limits = getattr(role, "limits", None)
    if limits is None:
        return
    for bound in (getattr(limits, "bounds", None) or {}).values():
        yield getattr(bound, "expression", None)
    for override in getattr(limits, "overrides", ()) or ():
        yield getattr(override, "condition", None)
        for bound in (getattr(override, "bounds", None) or {}).values():
            yield getattr(bound, "expression", None)


def referenced_settings(roles: Mapping[str, Any]) -> list[str]:
    """Every ``settings:`` leaf path the roles' restrictions and limits read
    (``storage.volumes_ceph.value``), each once, in order of first reference."""
    found: list[str] = []
    for role in roles.values():
        for expression in _role_expressions(role):
            found.extend(expression_settings(expression))
    return list(dict.fromkeys(found))


def referenced_feature_groups(roles: Mapping[str, Any]) -> list[str]:
    """Every feature group (``experimental``, ``advanced``) whose presence in
    ``version:feature_groups`` the roles' restrictions and limits test, each
    once, in order of first reference."""
    found: list[str] = []
    for role in roles.values():
        for expression in _role_expressions(role):
            found.extend(expression_feature_groups(expression))
    return list(dict.fromkeys(found))


def short_path(path: str) -> str:
    """``storage.volumes_ceph.value`` → ``storage.volumes_ceph`` (the name a
    person uses for a setting); other paths unchanged."""
    return path[: -len(".value")] if path.endswith(".value") and path.count(".") >= 2 else path


@record(frozen=True)
class SettingField:
    """One editable setting: ``path`` (the full leaf path, such as
    ``storage.volumes_ceph.value``), ``name`` (``storage.volumes_ceph``),
    ``label`` (the setting's own ``label``, else its name), ``default`` (its
    value in the settings model the simulator started from), ``kind``
    (``bool``, ``int``, ``float``, ``choice``, ``text`` or ``other``),
    ``choices`` (the ``data`` of its ``values``, for ``choice``), and from
    the release file: ``setting_type`` (``checkbox``, ``text``, …),
    ``regex`` and ``regex_error`` (the pattern a text value must match and
    the message shown when it does not), ``description``."""

    path: str
    name: str
    label: str
    default: Any
    kind: str
    choices: tuple[Any, ...] = ()
    defined: bool = True
    setting_type: str | None = None
    regex: str | None = None
    regex_error: str | None = None
    description: str | None = None


class SettingError(ToskitError, ValueError):
    """A value a setting does not take; the message is the setting's own
    (its ``regex.error``) or says which kind of value it takes."""


def _expected(field: SettingField) -> str:
    return {
        "bool": "true or false",
        "int": "an integer",
        "float": "a number",
        "choice": "one of " + ", ".join(repr(c) for c in field.choices),
        "text": "a string",
    }.get(field.kind, "a value")


def validate_setting(field: SettingField, value: Any) -> Any:
    """``value`` checked (and, where unambiguous, converted) for ``field``:
    a boolean for a checkbox, an integer/number for a number, one of the
    setting's ``values`` for a choice, text matching the setting's ``regex``
    for a text setting (numbers are kept as text, as Fuel does). Raises
    :class:`SettingError` with the setting's own message otherwise."""
    kind = field.kind
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    label = f" ({field.label})" if field.label != field.name else ""
    result: Any = _NOT_OK
    exact = (kind == "bool" and isinstance(value, bool)) or (
        kind == "int" and isinstance(value, int) and not isinstance(value, bool)
    )
    if exact or kind == "other":
        result = value
    elif kind == "int" and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        result = int(value)
    elif kind == "float" and is_number:
        result = float(value)
    elif kind == "choice" and (value in field.choices or value == field.default):
        result = value
    elif kind == "text" and (isinstance(value, str) or is_number):
        result = value if isinstance(value, str) else str(value)
    if result is _NOT_OK:
        raise SettingError(f"setting {field.name!r}{label} takes {_expected(field)}, got {value!r}")
    if kind == "text" and field.regex:
        from toskit.functions.regex import RegexRejected, compile_bounded

        try:
            pattern = compile_bounded(field.regex)
        except RegexRejected as err:
            raise SettingError(
                f"setting {field.name!r}{label}: its regex cannot be checked ({err})"
            ) from None
        if pattern.search(result) is None:
            why = field.regex_error or f"does not match {field.regex!r}"
            raise SettingError(f"setting {field.name!r}{label}: {why} (got {result!r})")
    return result


_NOT_OK = object()
_MISSING = object()


def _lookup(model: Any, keys: list[str]) -> Any:
    for key in keys:
        if not isinstance(model, Mapping) or key not in model:
            return _MISSING
        model = model[key]
    return model


def _kind(value: Any, choices: tuple[Any, ...]) -> str:
    if isinstance(value, bool):
        return "bool"
    if (
        choices
        and all(isinstance(c, str) for c in choices)
        and (value is None or isinstance(value, str))
    ):
        return "choice"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "text"
    return "other"


def setting_fields(roles: Mapping[str, Any], settings: Any) -> list[SettingField]:
    """A :class:`SettingField` for every setting the roles reference, with
    its default taken from ``settings`` (the settings model)."""
    paths = referenced_settings(roles)
    order: dict[str, int] = {}
    if isinstance(settings, Mapping):
        for group, attrs in settings.items():
            if isinstance(attrs, Mapping):
                for attr in attrs:
                    order.setdefault(f"{group}.{attr}", len(order))
    first = {p: i for i, p in enumerate(paths)}

    def rank(path: str) -> tuple[int, int]:
        head = ".".join(path.split(".")[:2])
        return (order[head], first[path]) if head in order else (len(order), first[path])

    fields = []
    for path in sorted(paths, key=rank):
        keys = path.split(".")
        value = _lookup(settings, keys)
        name = short_path(path)
        owner = _lookup(settings, keys[:-1]) if path.endswith(".value") else _MISSING
        label = name
        choices: tuple[Any, ...] = ()
        extra: dict[str, Any] = {}
        if isinstance(owner, Mapping):
            if isinstance(owner.get("label"), str) and owner["label"]:
                label = owner["label"]
            values = owner.get("values")
            if isinstance(values, list):
                choices = tuple(v["data"] for v in values if isinstance(v, Mapping) and "data" in v)
            if isinstance(owner.get("type"), str):
                extra["setting_type"] = owner["type"]
            if isinstance(owner.get("description"), str):
                extra["description"] = owner["description"]
            regex = owner.get("regex")
            if isinstance(regex, Mapping) and isinstance(regex.get("source"), str):
                extra["regex"] = regex["source"]
                if isinstance(regex.get("error"), str):
                    extra["regex_error"] = regex["error"]
        defined = value is not _MISSING
        default = value if defined else None
        fields.append(
            SettingField(
                path, name, label, default, _kind(default, choices), choices, defined, **extra
            )
        )
    return fields
