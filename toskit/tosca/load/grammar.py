"""The keyname grammar of TOSCA documents, as data, one table per version.

Each place in a document where TOSCA fixes the keynames is a
:class:`Keys` table: keyname -> the shape of its value. Places where the
user chooses the names (``node_templates``, ``properties`` of a type, …)
are :class:`NamedMap` (a map of user names to one shape) or
:class:`NamedList` (a list of single-key maps, as ``requirements`` is).
Some entries accept a short form (a string) instead of their full map:
:class:`Short`.

:mod:`toskit.tosca.load.keynames` walks a document against these tables and
reports ``unknown-keyname`` (with a did-you-mean hint). Nothing else in
the package decides which keynames exist, so adding a keyname is a change
to a table here, not an ``if`` somewhere else.

The tables follow TOSCA Simple Profile 1.3 (section 3) and the TOSCA 2.0
specification (section 5). The 1.x table also accepts the few keynames of
the ``tosca_simple_unfurl_1_0_0`` dialect that real Unfurl templates use.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Union

from toskit.records import field, record

__all__ = [
    "ANY",
    "Keys",
    "NamedList",
    "NamedMap",
    "Short",
    "GRAMMARS",
    "VERSIONS",
    "grammar_for",
    "TYPE_SECTIONS",
    "VALUE_KINDS_1",
    "VALUE_KINDS_2",
    "PLACE_KINDS_1",
    "PLACE_KINDS_2",
]


class _Any:
    """Any value: toskit does not look inside (values, metadata, filters)."""

    def __repr__(self) -> str:
        return "ANY"


ANY = _Any()


@record(frozen=True)
class Keys:
    """A map whose keynames TOSCA fixes.

    ``extra`` is the shape of a key not in ``keys`` (``None``: such a key is
    ``unknown-keyname``); TOSCA 1.x interface definitions list their
    operations as plain keys, for example. ``renamed`` maps a keyname of the
    other TOSCA version to this version's (for the did-you-mean hint).
    """

    name: str
    keys: dict[str, Shape]
    extra: Shape | None = None
    # Keynames of the other TOSCA version, and what this version calls them.
    renamed: dict[str, str] = field(default_factory=dict)
    # Keynames that must be present.
    required: tuple[str, ...] = ()
    # Keynames this shape forbids, with the reason (``invalid-definition``).
    forbidden: dict[str, str] = field(default_factory=dict)
    # ``extra`` applies only to a map of one key (TOSCA 1.x named imports
    # ``- my_types: types.yaml``); with more keys an unknown one is an error.
    extra_alone: bool = False


@record(frozen=True)
class NamedMap:
    """A map from user-chosen names to values of one shape.

    ``nonempty``: the section may not be written empty (TOSCA 2.0 sections).
    """

    item: Shape
    nonempty: bool = False


@record(frozen=True)
class Value:
    """A value of one kind, checked by :mod:`toskit.tosca.load.keynames`: ``string``,
    ``type-name``, ``text`` (a string or a number), ``boolean``, ``integer``,
    ``names`` (a list of strings),
    ``version``, ``map``, ``metadata`` (a map of strings in 2.0, of anything
    in 1.x), ``type-names``, ``count-range``, ``choice`` (one of ``choices``),
    ``choices`` (a list of them).
    ``soft_null``: an empty value (``description:``) is a warning, not an error."""

    kind: str
    choices: tuple[str, ...] = ()
    soft_null: bool = False


@record(frozen=True)
class NamedList:
    """A list of single-key maps (name -> shape), e.g. ``requirements``.

    ``also_map`` accepts a plain map too (TOSCA 2.0 writes ``policies`` and
    some real templates write ``requirements`` that way).
    """

    item: Shape
    also_map: bool = False
    nonempty: bool = False


@record(frozen=True)
class Short:
    """Either a short form (a scalar, or a list) or the full ``Keys`` map."""

    full: Shape
    short: tuple[type, ...] = (str,)


@record(frozen=True)
class ListOf:
    """A list whose items all have one shape."""

    item: Shape
    nonempty: bool = False


# Union, not ``X | Y`` (UP007): a runtime alias, on Python 3.10 too.
Shape = Union[_Any, Keys, NamedMap, NamedList, Short, ListOf, Value]  # noqa: UP007

# --------------------------------------------------------------------------
# Building blocks shared by both versions.


def _keys(
    name: str,
    *parts: Mapping[str, Shape],
    extra: Shape | None = None,
    renamed: dict[str, str] | None = None,
) -> Keys:
    merged: dict[str, Shape] = {}
    for part in parts:
        merged.update(part)
    return Keys(name, merged, extra, renamed or {})


# ``valid_*_types``: a list of type names.
TYPE_NAMES = Value("type-names")
# ``count_range`` (2.0) / ``occurrences`` (1.x): ``[lower, upper]`` integers.
COUNT_RANGE = Value("count-range")

_COMMON_TYPE = {"derived_from": ANY, "version": ANY, "metadata": ANY, "description": ANY}


def _renamed(shape: Short, name: str) -> Short:
    """``shape`` (a short form over a ``Keys`` table) under another name."""
    full = shape.full
    assert isinstance(full, Keys)
    return Short(Keys(name, full.keys, full.extra, full.renamed, full.required), shape.short)


def _build(v2: bool) -> dict[str, Shape]:
    """The grammar tables for 1.x (``v2=False``) or 2.0 (``v2=True``)."""
    check = {"validation": ANY} if v2 else {"constraints": ANY}

    schema_keys: dict[str, Shape] = {"type": ANY, "description": ANY, **check}
    # Recursive: the table refers to itself through key_schema/entry_schema.
    schema = Keys("schema definition", schema_keys)
    schema_keys["key_schema"] = Short(schema)
    schema_keys["entry_schema"] = Short(schema)
    if v2:
        schema_keys["metadata"] = ANY
    schema_ref = Short(schema)

    prop_def_full = _keys(
        "property definition",
        {
            "type": ANY,
            "description": ANY,
            "required": ANY,
            "default": ANY,
            "status": ANY,
            "key_schema": schema_ref,
            "entry_schema": schema_ref,
            "metadata": ANY,
            **check,
        },
        {"value": ANY} if v2 else {"external-schema": ANY},
    )
    # Short forms: ``prop: string`` (a type name) and, in a 2.0 refinement,
    # ``prop: true`` (a new default).
    prop_def = Short(prop_def_full, short=(str, int, float, bool, list))
    attr_def = _keys(
        "attribute definition",
        {
            "type": ANY,
            "description": ANY,
            "default": ANY,
            "status": ANY,
            "key_schema": schema_ref,
            "entry_schema": schema_ref,
            "metadata": ANY,
        },
        {"validation": ANY} if v2 else {},
    )
    param_def = Short(
        _keys(
            "parameter definition",
            prop_def_full.keys,
            {"value": ANY, "mapping": ANY} if v2 else {"value": ANY},
        ),
        short=(str, int, float, bool, list, type(None)),
    )
    # Parameters may also be plain values (operation inputs assignments).
    params = NamedMap(ANY)

    implementation = Short(
        _keys(
            "implementation definition",
            {"primary": ANY, "dependencies": ANY, "timeout": ANY},
            {"artifact": ANY} if v2 else {"operation_host": ANY},
        )
    )
    operation_def = Short(
        _keys(
            "operation definition",
            {
                "description": ANY,
                "implementation": implementation,
                "inputs": params,
                "outputs": ANY,
                "metadata": ANY,
            },
        )
    )
    notification_def = Short(
        _keys(
            "notification definition",
            {"description": ANY, "implementation": implementation, "outputs": ANY, "metadata": ANY},
        )
    )
    operations: dict[str, Shape] = {
        "operations": NamedMap(operation_def),
        "notifications": NamedMap(notification_def),
    }
    # 1.x writes operations as plain keys of the interface (and 1.3 added
    # the ``operations`` keyname); 2.0 only has ``operations``.
    interface_extra = None if v2 else operation_def
    interface_def = _keys(
        "interface definition",
        {"type": ANY, "description": ANY, "inputs": params, "metadata": ANY},
        operations,
        extra=interface_extra,
    )
    # In a template's interface assignment, operations and notifications are
    # assignments (same keynames, TOSCA's name for them in messages).
    op_assign = _renamed(operation_def, "operation assignment")
    note_assign = _renamed(notification_def, "notification assignment")
    interface_assign = _keys(
        "interface assignment",
        {"type": ANY, "description": ANY, "inputs": params, "metadata": ANY},
        {"operations": NamedMap(op_assign), "notifications": NamedMap(note_assign)},
        extra=None if v2 else op_assign,
    )
    artifact_def = Short(
        _keys(
            "artifact definition",
            {
                "type": ANY,
                "file": ANY,
                "repository": ANY,
                "description": ANY,
                "deploy_path": ANY,
                "artifact_version": ANY,
                "checksum": ANY,
                "checksum_algorithm": ANY,
                "properties": ANY,
                "metadata": ANY,
            },
        )
    )
    capability_def = Short(
        _keys(
            "capability definition",
            {
                "type": ANY,
                "description": ANY,
                "properties": NamedMap(prop_def),
                "attributes": NamedMap(attr_def),
                "occurrences": COUNT_RANGE,
                "metadata": ANY,
            },
            {"valid_source_node_types": TYPE_NAMES, "valid_relationship_types": TYPE_NAMES}
            if v2
            else {"valid_source_types": TYPE_NAMES},
        )
    )
    relationship_in_req = Short(
        _keys(
            "relationship definition",
            {"type": ANY, "description": ANY, "interfaces": NamedMap(interface_def)},
        )
    )
    # A 1.x node filter's keynames (a 2.0 filter is a condition: any value).
    node_filter: Shape = (
        ANY if v2 else Keys("node filter", {"properties": ANY, "capabilities": ANY})
    )
    requirement_def = Short(
        _keys(
            "requirement definition",
            {
                "description": ANY,
                "metadata": ANY,
                "capability": ANY,
                "node": ANY,
                "relationship": relationship_in_req,
                "node_filter": node_filter,
            },
            {"count_range": COUNT_RANGE, "allocation": ANY} if v2 else {"occurrences": COUNT_RANGE},
        )
    )

    def entity_type(name: str, *parts: Mapping[str, Shape]) -> Keys:
        return _keys(name, _COMMON_TYPE, *parts)

    props = {"properties": NamedMap(prop_def)}
    attrs = {"attributes": NamedMap(attr_def)}
    data_type = entity_type(
        "data type",
        props,
        check,
        {"key_schema": schema_ref, "entry_schema": schema_ref},
        # 2.0 scalar types: ``derived_from: scalar`` with their units.
        {"data_type": ANY, "units": ANY, "canonical_unit": ANY, "prefixes": ANY} if v2 else {},
    )
    node_type = entity_type(
        "node type",
        props,
        attrs,
        {
            "requirements": NamedList(requirement_def),
            "capabilities": NamedMap(capability_def),
            "interfaces": NamedMap(interface_def),
            "artifacts": NamedMap(artifact_def),
        },
    )
    capability_type = entity_type(
        "capability type",
        props,
        attrs,
        {"valid_source_node_types": TYPE_NAMES, "valid_relationship_types": TYPE_NAMES}
        if v2
        else {"valid_source_types": TYPE_NAMES},
    )
    relationship_type = entity_type(
        "relationship type",
        props,
        attrs,
        {"interfaces": NamedMap(interface_def)},
        {
            "valid_capability_types": TYPE_NAMES,
            "valid_target_node_types": TYPE_NAMES,
            "valid_source_node_types": TYPE_NAMES,
        }
        if v2
        else {"valid_target_types": TYPE_NAMES},
    )
    interface_type = _keys(
        "interface type",
        _COMMON_TYPE,
        {"inputs": params},
        operations,
        extra=interface_extra,
    )
    if v2:
        # TOSCA 2.0 §interface type: its inputs are parameter definitions (maps),
        # and an operation is implemented where it is used (a node or
        # relationship type or template), never in the interface type itself.
        param_full = param_def.full
        op_full = operation_def.full
        assert isinstance(param_full, Keys) and isinstance(op_full, Keys)
        type_operation = Short(
            Keys(
                op_full.name,
                {k: v for k, v in op_full.keys.items() if k != "implementation"},
                forbidden={
                    "implementation": "an interface type only declares its operations; "
                    "implement them in a node or relationship type or template"
                },
            )
        )
        note_full = notification_def.full
        assert isinstance(note_full, Keys)
        type_notification = Short(
            Keys(
                note_full.name,
                {k: v for k, v in note_full.keys.items() if k != "implementation"},
                forbidden={
                    "implementation": "an interface type only declares its notifications; "
                    "implement them in a node or relationship type or template"
                },
            )
        )
        interface_type.keys["inputs"] = NamedMap(param_full)
        interface_type.keys["operations"] = NamedMap(type_operation)
        interface_type.keys["notifications"] = NamedMap(type_notification)
    artifact_type = entity_type("artifact type", props, {"mime_type": ANY, "file_ext": ANY})
    group_type = entity_type(
        "group type",
        props,
        attrs,
        {"members": ANY}
        if v2
        else {
            "members": ANY,
            "requirements": NamedList(requirement_def),
            "capabilities": NamedMap(capability_def),
            "interfaces": NamedMap(interface_def),
        },
    )
    trigger_def = _keys(
        "trigger definition",
        {
            "description": ANY,
            "metadata": ANY,
            "event": ANY,
            "condition": ANY,
            "action": ANY,
        },
        {} if v2 else {"schedule": ANY, "target_filter": ANY, "event_type": ANY},
    )
    policy_type = entity_type(
        "policy type", props, {"targets": ANY, "triggers": NamedMap(trigger_def)}
    )

    prop_assign = NamedMap(ANY)
    requirement_assign = Short(
        _keys(
            "requirement assignment",
            {
                "capability": ANY,
                "node": ANY,
                "relationship": Short(
                    _keys(
                        "relationship assignment",
                        {
                            "type": ANY,
                            "properties": prop_assign,
                            "attributes": prop_assign,
                            "interfaces": NamedMap(interface_assign),
                        },
                    )
                ),
                "node_filter": node_filter,
            },
            {
                "count": ANY,
                "directives": ANY,
                "optional": ANY,
                "allocation": ANY,
                "description": ANY,
                "metadata": ANY,
            }
            if v2
            else {"occurrences": COUNT_RANGE, "metadata": ANY},
        ),
        # ``- req: node_name`` and 2.0's ``- req: [node_name, index]``.
        short=(str, list) if v2 else (str,),
    )
    capability_assign = _keys(
        "capability assignment",
        {"properties": prop_assign, "attributes": prop_assign},
        {"directives": ANY, "description": ANY, "metadata": ANY}
        if v2
        else {"occurrences": COUNT_RANGE},
    )
    node_template = _keys(
        "node template",
        {
            "type": ANY,
            "description": ANY,
            "metadata": ANY,
            "directives": ANY,
            "properties": prop_assign,
            "attributes": prop_assign,
            "requirements": NamedList(requirement_assign),
            "capabilities": NamedMap(capability_assign),
            "interfaces": NamedMap(interface_assign),
            "artifacts": NamedMap(artifact_def),
            "node_filter": node_filter,
            "copy": ANY,
        },
        {"count": ANY} if v2 else {},
    )
    relationship_template = _keys(
        "relationship template",
        {
            "type": ANY,
            "description": ANY,
            "metadata": ANY,
            "properties": prop_assign,
            "attributes": prop_assign,
            "interfaces": NamedMap(interface_assign),
            "copy": ANY,
        },
    )
    group_def = _keys(
        "group definition",
        {
            "type": ANY,
            "description": ANY,
            "metadata": ANY,
            "properties": prop_assign,
            "attributes": prop_assign,
            "members": ANY,
        },
        {} if v2 else {"interfaces": NamedMap(interface_assign)},
    )
    policy_def = _keys(
        "policy definition",
        {
            "type": ANY,
            "description": ANY,
            "metadata": ANY,
            "properties": prop_assign,
            "targets": ANY,
            "triggers": NamedMap(trigger_def),
        },
    )
    step_def = _keys(
        "workflow step",
        {
            "target": ANY,
            "target_relationship": ANY,
            "operation_host": ANY,
            "filter": ANY,
            "activities": ANY,
            "on_success": ANY,
            "on_failure": ANY,
        },
    )
    workflow_def = _keys(
        "workflow definition",
        {
            "description": ANY,
            "metadata": ANY,
            "inputs": NamedMap(param_def),
            "preconditions": ANY,
            "steps": NamedMap(step_def),
            "implementation": ANY,
            "outputs": ANY,
        },
    )
    substitution = _keys(
        "substitution mappings",
        {
            "node_type": ANY,
            "properties": ANY,
            "attributes": ANY,
            "capabilities": ANY,
            "requirements": ANY,
            "interfaces": ANY,
        },
        {"substitution_filter": ANY}
        if v2
        else {"substitution_filter": node_filter, "node_filter": node_filter},
    )
    # The node type the topology implements is what makes it a substitution.
    substitution = Keys(
        substitution.name, substitution.keys, substitution.extra, required=("node_type",)
    )
    function_defs = NamedMap(ANY)
    topology = _keys(
        "service template" if v2 else "topology template",
        {
            "description": ANY,
            "inputs": NamedMap(param_def),
            "node_templates": NamedMap(node_template),
            "relationship_templates": NamedMap(relationship_template),
            "groups": NamedMap(group_def),
            "policies": NamedList(policy_def, also_map=True),
            "outputs": NamedMap(param_def),
            "substitution_mappings": substitution,
            "workflows": NamedMap(workflow_def),
        },
        {"metadata": ANY, "functions": function_defs} if v2 else {},
    )
    import_def = Short(
        _keys(
            "import definition",
            {
                "url": ANY,
                "profile": ANY,
                "repository": ANY,
                "namespace": ANY,
                "description": ANY,
                "metadata": ANY,
            }
            if v2
            else {"file": ANY, "repository": ANY, "namespace_uri": ANY, "namespace_prefix": ANY},
        )
    )
    if not v2:
        # TOSCA 1.0-1.3 also name an import: ``- my_types: types.yaml`` or
        # ``- my_types: {file: types.yaml}`` (the name is not used).
        full = import_def.full
        assert isinstance(full, Keys)
        import_def = Short(Keys(full.name, full.keys, Short(full), full.renamed, extra_alone=True))
    repository_def = Short(
        Keys(
            "repository definition",
            {"description": ANY, "url": ANY, "metadata": ANY, "credential": ANY},
            # Every version requires the url (1.3 §3.6.2.1; tosca-parser checks it too).
            required=("url",),
        )
    )
    top: dict[str, Shape] = {
        "tosca_definitions_version": ANY,
        "metadata": ANY,
        "description": ANY,
        "dsl_definitions": ANY,
        "repositories": NamedMap(repository_def),
        "imports": ListOf(import_def),
        "artifact_types": NamedMap(artifact_type),
        "data_types": NamedMap(data_type),
        "capability_types": NamedMap(capability_type),
        "interface_types": NamedMap(interface_type),
        "relationship_types": NamedMap(relationship_type),
        "node_types": NamedMap(node_type),
        "group_types": NamedMap(group_type),
        "policy_types": NamedMap(policy_type),
    }
    if v2:
        top.update({"profile": ANY, "functions": function_defs, "service_template": topology})
    else:
        top.update(
            {
                "namespace": ANY,
                "template_name": ANY,
                "template_author": ANY,
                "template_version": ANY,
                "topology_template": topology,
                # Unfurl's dialect (tosca_simple_unfurl_1_0_0).
                "decorators": ANY,
                "deployment_blueprints": ANY,
            }
        )
    _refine_values(
        Keys("document", top),
        VALUE_KINDS_2 if v2 else VALUE_KINDS_1,
        PLACE_KINDS_2 if v2 else PLACE_KINDS_1,
        set(),
    )
    if v2:
        # The document's own metadata is a map of strings (template_name, …);
        # elsewhere TOSCA 2.0 templates put lists and numbers in metadata too.
        top["metadata"] = Value("metadata")
    if v2:
        # TOSCA 2.0: a section that is written must not be empty.
        for name, shape in list(top.items()):
            if isinstance(shape, NamedMap):
                top[name] = NamedMap(shape.item, nonempty=True)
        for name in ("node_templates", "relationship_templates", "groups", "outputs", "workflows"):
            shape = topology.keys[name]
            assert isinstance(shape, NamedMap)
            topology.keys[name] = NamedMap(shape.item, nonempty=True)
        topology.keys["policies"] = NamedList(policy_def, also_map=True, nonempty=True)
        top["imports"] = ListOf(import_def, nonempty=True)
        top["service_template"] = Keys(
            topology.name, topology.keys, topology.extra, topology.renamed, ("node_templates",)
        )
        top["repositories"] = NamedMap(repository_def, nonempty=True)
    renamed = (
        {"topology_template": "service_template", "namespace_prefix": "namespace"}
        if v2
        else {"service_template": "topology_template", "namespace": "namespace_prefix"}
    )
    return {"document": Keys("document", top, renamed=renamed)}


def _refine_values(
    shape: Shape,
    table: Mapping[str, Shape],
    places: Mapping[tuple[str, str], Shape],
    seen: set[int],
) -> None:
    """Give every keyname whose value TOSCA fixes its value kind, from ``table``
    (one per grammar; ``places`` for a keyname that differs at one place),
    wherever the keyname stands with an unchecked value."""
    if id(shape) in seen:
        return
    seen.add(id(shape))
    if isinstance(shape, Keys):
        for key, sub in list(shape.keys.items()):
            kind = places.get((shape.name, key), table.get(key))
            if sub is ANY and kind is not None:
                shape.keys[key] = kind if key != "metadata" else Value("map")
            else:
                _refine_values(sub, table, places, seen)
        if shape.extra is not None:
            _refine_values(shape.extra, table, places, seen)
    elif isinstance(shape, (NamedMap, NamedList, ListOf)):
        _refine_values(shape.item, table, places, seen)
    elif isinstance(shape, Short):
        _refine_values(shape.full, table, places, seen)


_STRING = Value("string")
_TYPE_NAME = Value("type-name")
_NAMES = Value("names")

# The value kind of each keyname whose value TOSCA fixes, wherever it
# stands (TOSCA Simple Profile 1.3 section 3; TOSCA 2.0 sections 5-9): one
# table per grammar. A keyname not listed keeps any value (values,
# functions, filters, conditions, keynames whose forms vary).
VALUE_KINDS_1: dict[str, Shape] = {
    "description": Value("string", soft_null=True),
    "metadata": Value("metadata"),
    "version": Value("version"),
    "dsl_definitions": Value("map"),
    "type": _TYPE_NAME,
    "derived_from": _TYPE_NAME,
    "node_type": _TYPE_NAME,
    "required": Value("boolean"),
    "status": Value("choice", ("supported", "unsupported", "experimental", "deprecated")),
    "file": _STRING,
    "url": _STRING,
    "repository": _STRING,
    "namespace": _STRING,
    "namespace_uri": _STRING,
    "namespace_prefix": _STRING,
    "external-schema": _STRING,
    "deploy_path": _STRING,
    # a version label: '1.0' is often written unquoted (a YAML float)
    "artifact_version": Value("text"),
    "checksum": _STRING,
    "checksum_algorithm": _STRING,
    "mime_type": _STRING,
    "file_ext": _NAMES,
    "operation_host": _STRING,
    "timeout": Value("integer"),
    "capability": _STRING,
    "node": _STRING,
    "members": _NAMES,
    "targets": _NAMES,
    "directives": _NAMES,
    "template_name": _STRING,
    "template_author": _STRING,
    "target": _STRING,
    "target_relationship": _STRING,
    "credential": Value("map"),
}
VALUE_KINDS_2: dict[str, Shape] = {
    **{k: v for k, v in VALUE_KINDS_1.items() if k not in ("namespace_uri", "namespace_prefix")},
    "profile": _STRING,
    "data_type": _TYPE_NAME,
    "canonical_unit": _STRING,
    "units": Value("map"),
    "prefixes": Value("map"),
    "optional": Value("boolean"),
}
# Where one keyname means something else at one place: (place, keyname).
PLACE_KINDS_1: dict[tuple[str, str], Shape] = {}
PLACE_KINDS_2: dict[tuple[str, str], Shape] = {
    # ``node: [name, index]`` as well as ``node: name``
    ("requirement assignment", "node"): ANY,
    # The directives TOSCA 2.0 defines (a node template's: §8.3; a capability's)
    ("node template", "directives"): Value("choices", ("create", "select", "substitute")),
    ("capability assignment", "directives"): Value("choices", ("internal", "external")),
}


@record(frozen=True)
class Grammar:
    """Everything version-specific about a document."""

    version: str
    major: int  # 1 for the 1.x family, 2 for 2.0
    topology_key: str  # "topology_template" or "service_template"
    functions_version: str  # what toskit.functions.parse takes
    check_keyword: str  # "constraints" or "validation"
    extras: dict = field(default_factory=dict)

    @functools.cached_property
    def document(self) -> Keys:
        """The document's keyname grammar (:func:`_build`), built on first use:
        ~2.5 ms of a ``toskit check``'s start-up each when built at import
        (#31), and a check of one file needs one of the two."""
        shape = _build(v2=self.major == 2)["document"]
        assert isinstance(shape, Keys)
        return shape


GRAMMAR_1 = Grammar("tosca_simple_yaml_1_3", 1, "topology_template", "1.3", "constraints")
GRAMMAR_2 = Grammar("tosca_2_0", 2, "service_template", "2.0", "validation")

VERSIONS: dict[str, Grammar] = {
    "tosca_simple_yaml_1_0": GRAMMAR_1,
    "tosca_simple_yaml_1_1": GRAMMAR_1,
    "tosca_simple_yaml_1_2": GRAMMAR_1,
    "tosca_simple_yaml_1_3": GRAMMAR_1,
    "tosca_simple_unfurl_1_0_0": GRAMMAR_1,
    # TOSCA Simple Profile for NFV 1.0: 1.x grammar plus the NFV types.
    "tosca_simple_profile_for_nfv_1_0_0": GRAMMAR_1,
    "tosca_2_0": GRAMMAR_2,
}
# The namespace-URI form of the 1.x versions (tosca-parser reads the 1.0 one).
VERSIONS.update(
    {f"http://docs.oasis-open.org/tosca/ns/simple/yaml/1.{minor}": GRAMMAR_1 for minor in range(4)}
)
GRAMMARS = {1: GRAMMAR_1, 2: GRAMMAR_2}

# Top-level sections holding type definitions, and the kind of each.
TYPE_SECTIONS: dict[str, str] = {
    "data_types": "data",
    "node_types": "node",
    "capability_types": "capability",
    "relationship_types": "relationship",
    "interface_types": "interface",
    "artifact_types": "artifact",
    "group_types": "group",
    "policy_types": "policy",
}


def grammar_for(version: str) -> Grammar | None:
    """The grammar of a ``tosca_definitions_version`` value (``None``: unknown)."""
    return VERSIONS.get(version)
