"""The shipped normative profiles: well-formed, self-contained, faithful to the spec."""

from __future__ import annotations

import functools
from typing import Any

import pytest
import yaml

from toskit.errors import ToskitError
from toskit.source import load_yaml
from toskit.tosca.profiles import profile_path

SECTIONS = {
    "data_types": "data",
    "artifact_types": "artifact",
    "capability_types": "capability",
    "interface_types": "interface",
    "relationship_types": "relationship",
    "node_types": "node",
    "group_types": "group",
    "policy_types": "policy",
}
PRIMITIVES = {
    "string",
    "integer",
    "float",
    "boolean",
    "null",
    "timestamp",
    "version",
    "range",
    "list",
    "map",
    "scalar-unit.size",
    "scalar-unit.time",
    "scalar-unit.frequency",
    "scalar-unit.bitrate",
    "bytes",
}
ROOTS_13 = {
    "data": "tosca.datatypes.Root",
    "artifact": "tosca.artifacts.Root",
    "capability": "tosca.capabilities.Root",
    "interface": "tosca.interfaces.Root",
    "relationship": "tosca.relationships.Root",
    "node": "tosca.nodes.Root",
    "group": "tosca.groups.Root",
    "policy": "tosca.policies.Root",
}
FAMILIES = ["1.3", "2.0"]
VERSIONS = {"1.3": "tosca_simple_yaml_1_3", "2.0": "tosca_2_0"}


@functools.cache
def _load(family: str) -> dict[str, Any]:
    # Cached: the tests only read the parsed documents.
    return yaml.safe_load(profile_path(family).read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=FAMILIES)
def profile(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param, _load(request.param)


def _types(doc: dict[str, Any], kind: str) -> dict[str, Any]:
    section = {v: k for k, v in SECTIONS.items()}[kind]
    return doc.get(section) or {}


def _definitions(body: dict[str, Any]):
    """Every property/attribute definition of a type, with a label."""
    for key in ("properties", "attributes"):
        for name, definition in (body.get(key) or {}).items():
            yield f"{key}.{name}", definition


# --------------------------------------------------------------------------
# Locating the files


@pytest.mark.parametrize("family", FAMILIES)
def test_profile_path_points_at_an_existing_file(family: str) -> None:
    path = profile_path(family)
    assert path.is_file()
    assert path.suffix == ".yaml"


@pytest.mark.parametrize("bad", ["1.2", "3.0", "", None])
def test_profile_path_rejects_unknown_families_with_a_clear_error(bad: Any) -> None:
    with pytest.raises(ToskitError, match="known: '1.3', '2.0'"):
        profile_path(bad)


# --------------------------------------------------------------------------
# Structure


@pytest.mark.parametrize("family", FAMILIES)
def test_profile_loads_cleanly_with_the_toskit_loader(family: str) -> None:
    path = profile_path(family)
    doc = load_yaml(path.read_text(encoding="utf-8"), name=str(path))
    assert doc.diagnostics == []
    assert doc.value["tosca_definitions_version"] == VERSIONS[family]


def test_2_0_profile_declares_its_profile_name() -> None:
    assert _load("2.0")["profile"] == "org.oasis-open.simple:2.0"


def test_every_kind_is_present(profile) -> None:
    _, doc = profile
    for section in SECTIONS:
        assert doc.get(section), f"{section} is empty"


def test_every_derived_from_resolves_within_its_kind(profile) -> None:
    _, doc = profile
    for kind in SECTIONS.values():
        names = set(_types(doc, kind))
        for name, body in _types(doc, kind).items():
            parent = (body or {}).get("derived_from")
            if parent is None:
                continue
            ok = parent in names or (kind == "data" and parent in PRIMITIVES)
            assert ok, f"{kind} type {name}: derived_from {parent!r} does not resolve"


def test_no_derivation_cycles_and_each_kind_has_one_root(profile) -> None:
    family, doc = profile
    for kind in SECTIONS.values():
        types = _types(doc, kind)
        roots = set()
        for name in types:
            seen = [name]
            current = name
            while (parent := (types[current] or {}).get("derived_from")) in types:
                assert parent not in seen, f"cycle: {' -> '.join([*seen, parent])}"
                seen.append(parent)
                current = parent
            if (types[current] or {}).get("derived_from") is None:
                roots.add(current)
        expected = ROOTS_13[kind] if family == "1.3" else "Root"
        assert roots == {expected}, f"{kind} roots: {roots}"


def test_every_property_and_attribute_type_resolves(profile) -> None:
    _, doc = profile
    data_types = set(_types(doc, "data")) | PRIMITIVES
    problems = []
    for kind in SECTIONS.values():
        for name, body in _types(doc, kind).items():
            for label, definition in _definitions(body or {}):
                for key in ("type", "entry_schema", "key_schema"):
                    ref = definition.get(key)
                    if isinstance(ref, dict):
                        ref = ref.get("type")
                    if ref is not None and ref not in data_types:
                        problems.append(f"{name}.{label}.{key}: {ref}")
    assert problems == []


def test_capability_requirement_and_interface_references_resolve(profile) -> None:
    _, doc = profile
    caps = set(_types(doc, "capability"))
    nodes = set(_types(doc, "node"))
    rels = set(_types(doc, "relationship"))
    ifaces = set(_types(doc, "interface"))
    problems = []
    for kind in ("node", "relationship", "group"):
        for name, body in _types(doc, kind).items():
            body = body or {}
            for cap_name, cap in (body.get("capabilities") or {}).items():
                if cap["type"] not in caps:
                    problems.append(f"{name}.capabilities.{cap_name}: {cap['type']}")
                for src in cap.get("valid_source_types", cap.get("valid_source_node_types", [])):
                    if src not in nodes:
                        problems.append(f"{name}.capabilities.{cap_name} source {src}")
            for item in body.get("requirements") or []:
                ((req_name, req),) = item.items()
                for key, pool in (("capability", caps), ("node", nodes), ("relationship", rels)):
                    if key in req and req[key] not in pool:
                        problems.append(f"{name}.requirements.{req_name}.{key}: {req[key]}")
            for if_name, iface in (body.get("interfaces") or {}).items():
                if iface["type"] not in ifaces:
                    problems.append(f"{name}.interfaces.{if_name}: {iface['type']}")
            for target in body.get("valid_target_types", body.get("valid_capability_types", [])):
                if target not in caps:
                    problems.append(f"{name} valid target {target}")
    assert problems == []


def test_every_type_has_a_description(profile) -> None:
    _, doc = profile
    missing = [
        f"{kind}:{name}"
        for kind in SECTIONS.values()
        for name, body in _types(doc, kind).items()
        if not (body or {}).get("description")
    ]
    assert missing == []


def test_1_3_uses_constraints_and_2_0_uses_validation() -> None:
    text_13 = profile_path("1.3").read_text(encoding="utf-8")
    text_20 = profile_path("2.0").read_text(encoding="utf-8")
    assert "constraints:" in text_13 and "validation:" not in text_13
    assert "validation:" in text_20 and "constraints:" not in text_20.split("\n\n", 1)[1]


# --------------------------------------------------------------------------
# Spot checks against the TOSCA Simple Profile 1.3 text

NORMATIVE_13 = {
    "data": [
        "tosca.datatypes.Root",
        "tosca.datatypes.json",
        "tosca.datatypes.xml",
        "tosca.datatypes.Credential",
        "tosca.datatypes.TimeInterval",
        "tosca.datatypes.network.NetworkInfo",
        "tosca.datatypes.network.PortInfo",
        "tosca.datatypes.network.PortDef",
        "tosca.datatypes.network.PortSpec",
    ],
    "artifact": [
        "tosca.artifacts.Root",
        "tosca.artifacts.File",
        "tosca.artifacts.Deployment",
        "tosca.artifacts.Deployment.Image",
        "tosca.artifacts.Deployment.Image.VM",
        "tosca.artifacts.Implementation",
        "tosca.artifacts.Implementation.Bash",
        "tosca.artifacts.Implementation.Python",
        "tosca.artifacts.template",
    ],
    "capability": [
        "tosca.capabilities.Root",
        "tosca.capabilities.Node",
        "tosca.capabilities.Compute",
        "tosca.capabilities.Network",
        "tosca.capabilities.Storage",
        "tosca.capabilities.Container",
        "tosca.capabilities.Endpoint",
        "tosca.capabilities.Endpoint.Public",
        "tosca.capabilities.Endpoint.Admin",
        "tosca.capabilities.Endpoint.Database",
        "tosca.capabilities.Attachment",
        "tosca.capabilities.OperatingSystem",
        "tosca.capabilities.Scalable",
        "tosca.capabilities.network.Bindable",
        "tosca.capabilities.network.Linkable",
    ],
    "interface": [
        "tosca.interfaces.Root",
        "tosca.interfaces.node.lifecycle.Standard",
        "tosca.interfaces.relationship.Configure",
    ],
    "relationship": [
        "tosca.relationships.Root",
        "tosca.relationships.DependsOn",
        "tosca.relationships.HostedOn",
        "tosca.relationships.ConnectsTo",
        "tosca.relationships.AttachesTo",
        "tosca.relationships.RoutesTo",
        "tosca.relationships.network.LinksTo",
        "tosca.relationships.network.BindsTo",
    ],
    "node": [
        "tosca.nodes.Root",
        "tosca.nodes.Abstract.Compute",
        "tosca.nodes.Compute",
        "tosca.nodes.SoftwareComponent",
        "tosca.nodes.WebServer",
        "tosca.nodes.WebApplication",
        "tosca.nodes.DBMS",
        "tosca.nodes.Database",
        "tosca.nodes.Abstract.Storage",
        "tosca.nodes.Storage.ObjectStorage",
        "tosca.nodes.Storage.BlockStorage",
        "tosca.nodes.ObjectStorage",
        "tosca.nodes.BlockStorage",
        "tosca.nodes.Container.Runtime",
        "tosca.nodes.Container.Application",
        "tosca.nodes.LoadBalancer",
        "tosca.nodes.network.Network",
        "tosca.nodes.network.Port",
    ],
    "group": ["tosca.groups.Root"],
    "policy": [
        "tosca.policies.Root",
        "tosca.policies.Placement",
        "tosca.policies.Scaling",
        "tosca.policies.Update",
        "tosca.policies.Performance",
    ],
}


@pytest.mark.parametrize(
    ("kind", "name"),
    [(kind, name) for kind, names in NORMATIVE_13.items() for name in names],
    ids=lambda v: v,
)
def test_1_3_normative_type_exists(kind: str, name: str) -> None:
    assert name in _types(_load("1.3"), kind)


def test_1_3_compute_capabilities_and_requirements() -> None:
    compute = _load("1.3")["node_types"]["tosca.nodes.Compute"]
    caps = {name: cap["type"] for name, cap in compute["capabilities"].items()}
    assert caps == {
        "host": "tosca.capabilities.Compute",
        "endpoint": "tosca.capabilities.Endpoint.Admin",
        "os": "tosca.capabilities.OperatingSystem",
        "scalable": "tosca.capabilities.Scalable",
        "binding": "tosca.capabilities.network.Bindable",
    }
    assert compute["capabilities"]["host"]["valid_source_types"] == [
        "tosca.nodes.SoftwareComponent"
    ]
    ((name, req),) = compute["requirements"][0].items()
    assert name == "local_storage"
    assert req["capability"] == "tosca.capabilities.Attachment"
    assert req["relationship"] == "tosca.relationships.AttachesTo"
    assert req["occurrences"] == [0, "UNBOUNDED"]
    assert set(compute["attributes"]) == {"private_address", "public_address", "networks", "ports"}


def test_1_3_portdef_is_an_integer_in_range() -> None:
    port_def = _load("1.3")["data_types"]["tosca.datatypes.network.PortDef"]
    assert port_def["derived_from"] == "integer"
    assert port_def["constraints"] == [{"in_range": [1, 65535]}]


def test_1_3_credential_token_is_required_and_token_type_defaults_to_password() -> None:
    props = _load("1.3")["data_types"]["tosca.datatypes.Credential"]["properties"]
    assert props["token"].get("required", True) is True
    assert props["token"]["type"] == "string"
    assert props["token_type"]["default"] == "password"
    for optional in ("protocol", "keys", "user"):
        assert props[optional]["required"] is False
    assert props["keys"]["entry_schema"] == {"type": "string"}


def test_1_3_dbms_properties_and_inherited_admin_credential() -> None:
    nodes = _load("1.3")["node_types"]
    dbms = nodes["tosca.nodes.DBMS"]
    assert dbms["derived_from"] == "tosca.nodes.SoftwareComponent"
    assert dbms["properties"]["root_password"]["type"] == "string"
    assert dbms["properties"]["root_password"]["required"] is False
    assert dbms["properties"]["port"]["type"] == "integer"
    assert dbms["properties"]["port"]["required"] is False
    credential = nodes["tosca.nodes.SoftwareComponent"]["properties"]["admin_credential"]
    assert credential["type"] == "tosca.datatypes.Credential"
    assert credential["required"] is False


def test_1_3_endpoint_capability_defaults_and_constraints() -> None:
    caps = _load("1.3")["capability_types"]
    props = caps["tosca.capabilities.Endpoint"]["properties"]
    assert props["protocol"]["default"] == "tcp"
    assert props["port"]["type"] == "tosca.datatypes.network.PortDef"
    assert props["network_name"]["default"] == "PRIVATE"
    assert props["initiator"]["constraints"] == [{"valid_values": ["source", "target", "peer"]}]
    assert props["ports"]["entry_schema"]["type"] == "tosca.datatypes.network.PortSpec"
    admin = caps["tosca.capabilities.Endpoint.Admin"]["properties"]["secure"]
    assert admin["default"] is True and admin["constraints"] == [{"equal": True}]
    public = caps["tosca.capabilities.Endpoint.Public"]["properties"]["network_name"]
    assert public["default"] == "PUBLIC"


def test_1_3_compute_capability_properties() -> None:
    props = _load("1.3")["capability_types"]["tosca.capabilities.Compute"]["properties"]
    assert props["num_cpus"]["constraints"] == [{"greater_or_equal": 1}]
    assert props["cpu_frequency"]["type"] == "scalar-unit.frequency"
    assert props["mem_size"]["type"] == "scalar-unit.size"
    assert all(p["required"] is False for p in props.values())


def test_1_3_storage_and_network_defaults() -> None:
    nodes = _load("1.3")["node_types"]
    assert nodes["tosca.nodes.Abstract.Storage"]["properties"]["size"]["default"] == "0 MB"
    network = nodes["tosca.nodes.network.Network"]["properties"]
    assert network["ip_version"]["default"] == 4
    assert network["ip_version"]["constraints"] == [{"valid_values": [4, 6]}]
    assert network["dhcp_enabled"]["default"] is True
    assert nodes["tosca.nodes.network.Port"]["properties"]["order"]["default"] == 0


def test_1_3_lifecycle_operations() -> None:
    ifaces = _load("1.3")["interface_types"]
    standard = ifaces["tosca.interfaces.node.lifecycle.Standard"]["operations"]
    assert list(standard) == ["create", "configure", "start", "stop", "delete"]
    configure = ifaces["tosca.interfaces.relationship.Configure"]["operations"]
    assert {"pre_configure_source", "post_configure_target", "add_target", "remove_source"} <= set(
        configure
    )


def test_1_3_root_node_type() -> None:
    root = _load("1.3")["node_types"]["tosca.nodes.Root"]
    assert set(root["attributes"]) == {"tosca_id", "tosca_name", "state"}
    assert root["capabilities"]["feature"]["type"] == "tosca.capabilities.Node"
    assert root["interfaces"]["Standard"]["type"] == "tosca.interfaces.node.lifecycle.Standard"
    ((name, req),) = root["requirements"][0].items()
    assert name == "dependency" and req["occurrences"] == [0, "UNBOUNDED"]


# --------------------------------------------------------------------------
# The 2.0 profile: names and grammar of the 2.0 draft


def test_2_0_uses_short_names_and_2_0_keynames() -> None:
    doc = _load("2.0")
    assert "Compute" in doc["node_types"] and "tosca.nodes.Compute" not in doc["node_types"]
    assert {"Lifecycle.Standard", "Relationship.Configure"} <= set(doc["interface_types"])
    assert "modify" in doc["interface_types"]["Lifecycle.Standard"]["operations"]
    compute = doc["node_types"]["Compute"]
    assert compute["capabilities"]["host"]["valid_source_node_types"] == ["SoftwareComponent"]
    ((_, req),) = compute["requirements"][0].items()
    assert req["count_range"] == [0, "UNBOUNDED"] and "occurrences" not in req
    assert doc["relationship_types"]["HostedOn"]["valid_capability_types"] == ["Container"]


def test_2_0_portdef_validation_clause() -> None:
    port_def = _load("2.0")["data_types"]["PortDef"]
    assert port_def["derived_from"] == "integer"
    assert port_def["validation"] == {"$in_range": ["$value", 1, 65535]}


def test_2_0_has_the_same_node_types_as_1_3_modulo_renames() -> None:
    nodes_20 = set(_load("2.0")["node_types"])
    assert {
        "Root",
        "Compute",
        "SoftwareComponent",
        "WebServer",
        "WebApplication",
        "DBMS",
        "Database",
        "ObjectStorage",
        "BlockStorage",
        "Container.Runtime",
        "Container.Application",
        "LoadBalancer",
        "Network",
        "Port",
    } <= nodes_20


@pytest.mark.parametrize("family", FAMILIES)
def test_profile_keynames_match_the_tosca_grammar(family: str) -> None:
    from toskit.tosca.load.grammar import grammar_for
    from toskit.tosca.load.keynames import check_keynames

    path = profile_path(family)
    doc = load_yaml(path.read_text(encoding="utf-8"), name=str(path))
    diagnostics = check_keynames(doc, doc.value, grammar_for(VERSIONS[family]).document)
    assert [str(d) for d in diagnostics] == []


# --- issue 20 item 3: 1.0, 1.1 and 1.2 documents see their own normative types ---------

OLDER = ["1.0", "1.1", "1.2", "1.3"]


def _check(tmp_path: Any, minor: str, body: str, uri: bool = False) -> list[tuple[str, str]]:
    """(code, message) of ``toskit.load`` of ``body`` declared as Simple Profile ``minor``."""
    import textwrap

    import toskit

    version = (
        f"http://docs.oasis-open.org/tosca/ns/simple/yaml/{minor}"
        if uri
        else f"tosca_simple_yaml_{minor.replace('.', '_')}"
    )
    path = tmp_path / f"t{minor}.yaml"
    path.write_text(f"tosca_definitions_version: {version}\n" + textwrap.dedent(body))
    return [(d.code, d.message) for d in toskit.load(path).diagnostics]


BLOCK_NO_NAME = """
    topology_template:
      node_templates:
        vol:
          type: tosca.nodes.BlockStorage
          properties: {size: 10 GB}
    """
BLOCK_NO_SIZE = """
    topology_template:
      node_templates:
        vol:
          type: tosca.nodes.BlockStorage
          properties: {name: data}
    """


@pytest.mark.parametrize("minor", OLDER)
def test_block_storage_is_the_one_of_the_declared_version(tmp_path: Any, minor: str) -> None:
    """1.0/1.1 BlockStorage derives from Root: no `name`, `size` required; 1.2 added Abstract.Storage."""
    no_name = _check(tmp_path, minor, BLOCK_NO_NAME)
    no_size = _check(tmp_path, minor, BLOCK_NO_SIZE)
    if minor in ("1.0", "1.1"):
        assert no_name == []
        assert sorted(c for c, _ in no_size) == ["missing-property", "unknown-property"]
        assert any(c == "missing-property" and "'size'" in m for c, m in no_size)
    else:
        assert [c for c, _ in no_name] == ["missing-property"] and "'name'" in no_name[0][1]
        assert no_size == []


def test_the_namespace_uri_form_picks_the_same_types(tmp_path: Any) -> None:
    assert _check(tmp_path, "1.1", BLOCK_NO_NAME, uri=True) == []
    assert [c for c, _ in _check(tmp_path, "1.2", BLOCK_NO_NAME, uri=True)] == ["missing-property"]


CONTAINER_PROPERTIES = """
    node_types:
      my.Host:
        derived_from: tosca.nodes.Root
        capabilities:
          host: {type: tosca.capabilities.Container}
    topology_template:
      node_templates:
        box:
          type: my.Host
          capabilities:
            host: {properties: {num_cpus: 2, mem_size: 4 GB}}
    """


@pytest.mark.parametrize("minor", OLDER)
def test_container_capability_sizes_exist_before_1_2(tmp_path: Any, minor: str) -> None:
    """1.0 Container has num_cpus...; 1.1's derives from Compute; 1.2 moved them to Compute only."""
    found = _check(tmp_path, minor, CONTAINER_PROPERTIES)
    if minor in ("1.0", "1.1"):
        assert found == []
    else:
        assert [c for c, _ in found] == ["unknown-property", "unknown-property"]


CONTAINER_APP_STORAGE = """
    node_types:
      my.Store:
        derived_from: tosca.nodes.Root
        capabilities:
          store: {type: tosca.capabilities.Root}
    topology_template:
      node_templates:
        disk: {type: my.Store}
        app:
          type: tosca.nodes.Container.Application
          requirements:
            - storage: disk
    """


@pytest.mark.parametrize("minor", OLDER)
def test_container_application_storage_requirement_is_1_1(tmp_path: Any, minor: str) -> None:
    found = [c for c, _ in _check(tmp_path, minor, CONTAINER_APP_STORAGE)]
    assert ("unknown-requirement" in found) is (minor == "1.0")


# (type written in a derived_from, first version that has it)
ADDED_TYPES = [
    ("data_types", "tosca.datatypes.TimeInterval", "1.1"),
    ("capability_types", "tosca.capabilities.Compute", "1.1"),
    ("capability_types", "tosca.capabilities.Storage", "1.1"),
    ("node_types", "tosca.nodes.Abstract.Compute", "1.2"),
    ("node_types", "tosca.nodes.Abstract.Storage", "1.2"),
    ("data_types", "tosca.datatypes.json", "1.2"),
    ("data_types", "tosca.datatypes.xml", "1.2"),
    ("artifact_types", "tosca.artifacts.template", "1.3"),
]


@pytest.mark.parametrize(("section", "name", "since"), ADDED_TYPES)
@pytest.mark.parametrize("minor", OLDER)
def test_types_added_later_are_unknown_to_older_documents(
    tmp_path: Any, minor: str, section: str, name: str, since: str
) -> None:
    body = f"{section}:\n  my.T:\n    derived_from: {name}\n"
    found = _check(tmp_path, minor, body)
    if minor >= since:
        assert found == []
    else:
        ((code, message),) = found
        assert code == "unknown-type" and f"unknown type '{name}'" in message


def test_older_profiles_are_clean_and_cached() -> None:
    from toskit.tosca.load.profile import normative_registry, profile_diagnostics, registry_for

    for version in ("tosca_simple_yaml_1_0", "tosca_simple_yaml_1_1", "tosca_simple_yaml_1_2"):
        registry = registry_for(version, 1)
        assert registry is registry_for(version, 1) and registry is not normative_registry(1)
    for key in (100, 110, 120):
        assert profile_diagnostics(key) == []
    assert registry_for("tosca_simple_yaml_1_3", 1) is normative_registry(1)


@pytest.mark.parametrize("delta", ["1.2-delta", "1.1-delta", "1.0-delta"])
def test_deltas_name_their_sources_and_licence(delta: str) -> None:
    text = profile_path(delta).read_text(encoding="utf-8")
    assert "Apache License 2.0" in text and "puccini" in text and "NOTICE" in text
    folder = profile_path(delta).parent
    assert profile_path(delta).name in (folder / "NOTICE").read_text(encoding="utf-8")
    assert "Apache License" in (folder / "LICENSE").read_text(encoding="utf-8")


# Relationship, interface, group and policy types, compared field by field
# between Puccini's 1.0, 1.1, 1.2 and 1.3 Simple Profiles (and tosca-parser's
# 1.0 file): no version differs, so no delta defines or drops one. These pin
# that, in the registry and through toskit.load, for every version.
SAME_IN_EVERY_VERSION = {
    "relationship": (
        "tosca.relationships.Root",
        "tosca.relationships.DependsOn",
        "tosca.relationships.HostedOn",
        "tosca.relationships.ConnectsTo",
        "tosca.relationships.AttachesTo",
        "tosca.relationships.RoutesTo",
        "tosca.relationships.network.LinksTo",
        "tosca.relationships.network.BindsTo",
    ),
    "interface": (
        "tosca.interfaces.Root",
        "tosca.interfaces.node.lifecycle.Standard",
        "tosca.interfaces.relationship.Configure",
    ),
    "group": ("tosca.groups.Root",),
    "policy": (
        "tosca.policies.Root",
        "tosca.policies.Placement",
        "tosca.policies.Scaling",
        "tosca.policies.Update",
        "tosca.policies.Performance",
    ),
}


@pytest.mark.parametrize("kind", sorted(SAME_IN_EVERY_VERSION))
@pytest.mark.parametrize("minor", ["1.0", "1.1", "1.2"])
def test_older_versions_share_the_1_3_relationship_interface_group_policy_types(
    kind: str, minor: str
) -> None:
    from toskit.tosca.load.profile import normative_registry, registry_for

    older = registry_for(f"tosca_simple_yaml_{minor.replace('.', '_')}", 1).all_of(kind)
    newest = normative_registry(1).all_of(kind)
    names = set(SAME_IN_EVERY_VERSION[kind])
    assert {n for n in older if n.startswith("tosca.")} == names
    assert {n for n in newest if n.startswith("tosca.")} == names
    for name in names:
        assert older[name].definition == newest[name].definition, name


def test_the_fields_tosca_parsers_1_0_file_lacks_are_there_in_1_0() -> None:
    """Puccini's 1.0 profile has them (tosca-parser's 1.0 file leaves them out): kept."""
    from toskit.tosca.load.profile import registry_for

    registry = registry_for("tosca_simple_yaml_1_0", 1)
    rel = registry.all_of("relationship")
    assert set(rel["tosca.relationships.Root"].definition["attributes"]) == {
        "tosca_id",
        "tosca_name",
        "state",
    }
    assert rel["tosca.relationships.DependsOn"].definition["valid_target_types"] == [
        "tosca.capabilities.Node"
    ]
    assert set(rel["tosca.relationships.AttachesTo"].definition["attributes"]) == {"device"}
    configure = registry.all_of("interface")["tosca.interfaces.relationship.Configure"]
    assert "remove_source" in configure.definition["operations"]
    group_root = registry.all_of("group")["tosca.groups.Root"].definition
    assert (
        group_root["interfaces"]["Standard"]["type"] == "tosca.interfaces.node.lifecycle.Standard"
    )


RELATIONSHIP_PROPERTIES = """
    topology_template:
      relationship_templates:
        attach:
          type: tosca.relationships.AttachesTo
          properties: {device: /dev/vdb}
        conn:
          type: tosca.relationships.ConnectsTo
          properties: {credential: {user: u, token_type: password, token: s}, port: 3}
    """


@pytest.mark.parametrize("minor", OLDER)
def test_relationship_type_properties_are_the_same_in_every_version(
    tmp_path: Any, minor: str
) -> None:
    """AttachesTo needs `location` and takes `device`; ConnectsTo takes only `credential`."""
    found = _check(tmp_path, minor, RELATIONSHIP_PROPERTIES)
    assert sorted(c for c, _ in found) == ["missing-property", "unknown-property"]
    assert any("'attach'" in m and "'location'" in m for _, m in found)
    assert any("'conn'" in m and "'port'" in m for _, m in found)


INTERFACE_OPERATIONS = """
    node_types:
      my.N:
        derived_from: tosca.nodes.Root
        interfaces:
          Configure: {type: tosca.interfaces.relationship.Configure}
    topology_template:
      node_templates:
        a:
          type: my.N
          interfaces:
            Standard: {create: c.sh, configure: c.sh, start: s.sh, stop: s.sh, delete: d.sh, reboot: r.sh}
            Configure:
              pre_configure_source: x.sh
              pre_configure_target: x.sh
              post_configure_source: x.sh
              post_configure_target: x.sh
              add_target: x.sh
              add_source: x.sh
              target_changed: x.sh
              remove_target: x.sh
              remove_source: x.sh
              teardown: x.sh
    """


@pytest.mark.parametrize("minor", OLDER)
def test_standard_and_configure_operations_are_the_same_in_every_version(
    tmp_path: Any, minor: str
) -> None:
    """The five Standard and nine Configure operations (remove_source too) in 1.0-1.3 alike."""
    found = _check(tmp_path, minor, INTERFACE_OPERATIONS)
    assert sorted(m.split("operation ")[-1] for c, m in found if c == "unknown-operation") == [
        "'reboot'",
        "'teardown'",
    ]
    assert len(found) == 2


POLICIES = """
    topology_template:
      node_templates:
        a: {type: tosca.nodes.Root}
      groups:
        g: {type: tosca.groups.Root, members: [a]}
      policies:
        - p1: {type: tosca.policies.Placement, targets: [a]}
        - p2: {type: tosca.policies.Scaling, targets: [g]}
        - p3: {type: tosca.policies.Update}
        - p4: {type: tosca.policies.Performance}
        - p5: {type: tosca.policies.Monitoring}
    """


@pytest.mark.parametrize("minor", OLDER)
def test_policy_types_are_the_same_in_every_version(tmp_path: Any, minor: str) -> None:
    """The four normative policy types in every version; tosca-parser's Monitoring in none."""
    ((code, message),) = _check(tmp_path, minor, POLICIES)
    assert code == "unknown-type" and "'tosca.policies.Monitoring'" in message
