"""Requirements, capabilities, relationship templates, groups and policies."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from tosca_fixtures import errors, loads, text_1_3

import toskit

TYPES = """
tosca_definitions_version: tosca_simple_yaml_1_3
capability_types:
  Port:
    derived_from: tosca.capabilities.Root
    properties:
      number: {type: integer, default: 80}
      proto: {type: string, default: tcp}
node_types:
  App:
    derived_from: tosca.nodes.Root
    capabilities:
      port: Port
      tuned:
        type: Port
        properties:
          number: {type: integer, default: 8080}
    requirements:
      - backend:
          capability: Port
          node: App
          occurrences: [0, 1]
      - store:
          capability: tosca.capabilities.Storage
          occurrences: [0, UNBOUNDED]
"""


def test_requirements_resolve_by_name_type_and_capability() -> None:
    st = loads(
        TYPES
        + """
topology_template:
  node_templates:
    a:
      type: App
      requirements:
        - backend: b
    b:
      type: App
      requirements:
        - backend: {node: App}
    c:
      type: App
      requirements:
        - backend: {capability: Port}
    d:
      type: App
      requirements:
        - backend: nowhere
        - bakend: a
"""
    )
    nodes = st.node_templates
    assert nodes["a"].requirement("backend").target is nodes["b"]
    assert nodes["b"].requirement("backend").target is nodes["a"]  # the first other App
    assert nodes["c"].requirement("backend").target is nodes["a"]  # the first with a Port
    found = errors(st)
    assert [d.code for d in found] == ["unknown-node", "unknown-requirement"]
    assert found[0].path == "topology_template.node_templates.d.requirements[0].backend"
    assert found[1].hint == "did you mean 'backend'?"
    assert repr(nodes["a"].requirement("backend")) == "<Requirement backend -> b>"


def test_unfulfilled_requirement_is_a_1x_warning_only() -> None:
    one = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        topology_template:
          node_templates:
            sw: {type: tosca.nodes.SoftwareComponent}
        """
    )
    assert one.ok
    (diag,) = one.diagnostics
    assert (diag.code, diag.severity) == ("unfulfilled-requirement", "warning")
    assert "'host'" in diag.message and "'sw'" in diag.message
    two = loads(
        """
        tosca_definitions_version: tosca_2_0
        service_template:
          node_templates:
            sw: {type: SoftwareComponent}
        """
    )
    assert two.diagnostics == []


def test_capability_properties_with_defaults_and_refinement() -> None:
    st = loads(
        TYPES
        + """
topology_template:
  node_templates:
    a:
      type: App
      capabilities:
        port:
          properties: {number: 81}
        nope: {}
"""
    )
    caps = st.node_templates["a"].capabilities
    assert caps["port"].properties == {"number": 81, "proto": "tcp"}
    assert caps["tuned"].properties == {"number": 8080, "proto": "tcp"}
    table = caps["tuned"].property_table()
    assert table["number"].source == "default: App"
    assert table["proto"].source == "default: Port"
    assert caps["port"].property_table()["number"].source == "template"
    assert caps["port"].node is st.node_templates["a"]
    (diag,) = errors(st)
    assert diag.code == "unknown-capability" and diag.hint is None


def test_capability_property_type_mismatch_is_located() -> None:
    st = loads(
        TYPES
        + """
topology_template:
  node_templates:
    a:
      type: App
      capabilities:
        port:
          properties: {number: eighty}
"""
    )
    (diag,) = errors(st)
    assert diag.code == "type-mismatch"
    assert diag.path == "topology_template.node_templates.a.capabilities.port.properties.number"
    assert diag.message.startswith("node template 'a' capability 'port': ")


def test_relationship_templates_groups_and_policies() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        relationship_types:
          Link:
            derived_from: tosca.relationships.Root
            properties:
              weight: {type: integer, default: 1}
        group_types:
          Team:
            derived_from: tosca.groups.Root
            properties:
              size: {type: integer}
        policy_types:
          Scale:
            derived_from: tosca.policies.Root
            properties:
              max: {type: integer, default: 3}
        topology_template:
          node_templates:
            n: {type: tosca.nodes.Root}
          relationship_templates:
            l: {type: Link, properties: {weight: heavy}}
          groups:
            g: {type: Team, members: [n]}
          policies:
            - p: {type: Scale, targets: [g]}
        """
    )
    assert st.relationship_templates["l"].type.name == "Link"
    assert st.groups["g"].members == ["n"]
    assert st.policies["p"].properties == {"max": 3}
    assert st.policies["p"].targets == ["g"]
    found = errors(st)
    assert [(d.code, d.path) for d in found] == [
        ("type-mismatch", "topology_template.relationship_templates.l.properties.weight"),
        ("missing-property", "topology_template.groups.g.properties.size"),
    ]
    assert found[0].message.startswith("relationship template 'l': ")
    assert found[1].message.startswith("group 'g': ")


def test_copy_takes_the_other_templates_keynames() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_2_0
        node_types:
          N: {properties: {a: {type: integer}, b: {type: integer, default: 2}}}
        service_template:
          node_templates:
            one: {type: N, properties: {a: 1}}
            two: {copy: one}
            three: {copy: nowhere}
        """
    )
    assert st.node_templates["two"].properties == {"a": 1, "b": 2}
    assert "invalid-copy" in [d.code for d in errors(st)]


YAML_TEXT = st_.text(
    alphabet=st_.sampled_from(list("abc:-{}[]$ \n'\"#&*!|>%@0123456789.,")), max_size=120
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(YAML_TEXT)
def test_fuzz_arbitrary_text_never_raises(text: str) -> None:
    st = toskit.loads(text)
    assert isinstance(st.ok, bool)
    for diag in st.diagnostics:
        assert diag.code and diag.severity in ("error", "warning", "info")


VALUES = st_.recursive(
    st_.none()
    | st_.booleans()
    | st_.integers()
    | st_.text(max_size=8)
    | st_.floats(allow_nan=False),
    lambda children: (
        st_.lists(children, max_size=3)
        | st_.dictionaries(st_.text(max_size=6), children, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(VALUES, VALUES, st_.sampled_from(["tosca_simple_yaml_1_3", "tosca_2_0"]))
def test_fuzz_property_values_never_raise(first: object, second: object, version: str) -> None:
    import json

    topology = "service_template" if version == "tosca_2_0" else "topology_template"
    text = (
        f"tosca_definitions_version: {version}\n"
        "data_types:\n"
        "  D:\n"
        "    properties:\n"
        "      x: {type: integer, default: 1}\n"
        "      y: {type: list, required: false, entry_schema: {type: string}}\n"
        "node_types:\n"
        "  N:\n"
        "    properties:\n"
        "      d: {type: D}\n"
        "      m: {type: map, required: false, entry_schema: {type: D}}\n"
        f"{topology}:\n"
        "  node_templates:\n"
        "    n:\n"
        "      type: N\n"
        f"      properties: {{d: {json.dumps(first)}, m: {json.dumps(second)}}}\n"
    )
    st = toskit.loads(text)
    node = st.node_templates.get("n")
    if node is not None:
        node.property_table()
    for diag in st.diagnostics:
        if diag.code in ("type-mismatch", "missing-property", "unknown-property"):
            assert diag.path.startswith(f"{topology}.node_templates.n.properties")
            assert diag.line is not None


def test_required_capability_property_without_value_even_unassigned() -> None:
    text = """
        tosca_definitions_version: tosca_2_0
        capability_types:
          Endpoint:
            properties:
              protocol: {type: string}
        node_types:
          Host:
            capabilities:
              terminal: {type: Endpoint}
        service_template:
          node_templates:
            my_host: {type: Host}
            chosen: {type: Host, directives: [select]}
        """
    st = loads(text)
    (diag,) = errors(st)
    assert diag.code == "missing-property"
    assert (
        diag.path
        == "service_template.node_templates.my_host.capabilities.terminal.properties.protocol"
    )
    assert diag.message.startswith("node template 'my_host' capability 'terminal': ")


def test_required_nil_property_needs_an_explicit_null() -> None:
    body = """
        tosca_definitions_version: tosca_2_0
        node_types:
          Node:
            properties:
              nothing: {type: nil, required: true}
        service_template:
          node_templates:
            n: {type: Node%s}
        """
    assert [d.code for d in errors(loads(body % ""))] == ["missing-property"]
    assert errors(loads(body % ", properties: {nothing: null}")) == []


def test_definition_checks() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_2_0
        data_types:
          url:
            derived_from: string
            properties:
              first: {type: string}
        capability_types:
          Root: {}
          Endpoint:
            derived_from: Root
            valid_source_node_types: [Unknwn]
            properties:
              protocol: {type: string, value: tcp}
          Better:
            derived_from: Endpoint
            properties:
              protocol: {value: udp}
        node_types:
          N:
            requirements:
              - r: {capability: Endpont}
        """
    )
    found = [(d.code, d.path) for d in errors(st)]
    assert found == [
        ("invalid-definition", "data_types.url.properties"),
        ("unknown-type", "capability_types.Endpoint.valid_source_node_types[0]"),
        ("incompatible-refinement", "capability_types.Better.properties.protocol.value"),
        ("unknown-type", "node_types.N.requirements[0].r.capability"),
    ]
    assert errors(st)[3].hint == "did you mean 'Endpoint'?"


def test_requirement_node_filter_picks_the_matching_target() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        topology_template:
          node_templates:
            small:
              type: tosca.nodes.Compute
              capabilities:
                host: {properties: {num_cpus: 1, mem_size: 512 MB}}
            big:
              type: tosca.nodes.Compute
              capabilities:
                host: {properties: {num_cpus: 8, mem_size: 16 GB}}
            app:
              type: tosca.nodes.SoftwareComponent
              requirements:
                - host:
                    node_filter:
                      capabilities:
                        - host:
                            properties:
                              - num_cpus: {in_range: [2, 16]}
                              - mem_size: [{greater_or_equal: 4 GB}]
            plain:
              type: tosca.nodes.SoftwareComponent
              requirements:
                - host: {node: tosca.nodes.Compute}
        """
    )
    assert errors(st) == []
    nodes = st.node_templates
    assert nodes["app"].requirement("host").target is nodes["big"]
    assert nodes["plain"].requirement("host").target is nodes["small"]


def test_requirement_relationship_properties() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        relationship_types:
          Wire:
            # Root: ConnectsTo may only target an Endpoint (invalid-relationship-target).
            derived_from: tosca.relationships.Root
            properties:
              speed: {type: integer, default: 100}
              label: {type: string}
        topology_template:
          node_templates:
            db: {type: tosca.nodes.Database, properties: {name: d}, requirements: [{host: dbms}]}
            dbms: {type: tosca.nodes.DBMS, requirements: [{host: server}]}
            server: {type: tosca.nodes.Compute}
            app:
              type: tosca.nodes.WebApplication
              requirements:
                - host: {node: server, relationship: {type: Wire, properties: {speed: fast}}}
                - dependency: {node: db, relationship: link}
          relationship_templates:
            link: {type: Wire, properties: {label: L}}
        """
    )
    (diag,) = errors(st)
    assert diag.code == "type-mismatch"
    assert (
        diag.path
        == "topology_template.node_templates.app.requirements[0].host.relationship.properties.speed"
    )
    app = st.node_templates["app"]
    host = app.requirement("host")
    assert host.relationship_type is st.types["Wire"]
    # The written value is kept (and reported); a required property the
    # orchestrator completes (label) is not required here.
    assert host.properties == {"speed": "fast"}
    link = app.requirement("dependency")
    assert link.relationship_template is st.relationship_templates["link"]
    assert link.properties == {"speed": 100, "label": "L"}


def test_requirement_counts() -> None:
    body = """
        tosca_definitions_version: {version}
        node_types:
          Server: {{capabilities: {{service: tosca:Root}}}}
          Client:
            requirements:
              - service: {{capability: tosca:Root, {bounds}}}
        {topology}:
          node_templates:
            s1: {{type: Server}}
            s2: {{type: Server}}
            s3: {{type: Server}}
            c:
              type: Client
              requirements: [{reqs}]
        """

    def run(version: str, bounds: str, reqs: str) -> list[tuple[str, str]]:
        topology = "service_template" if version == "tosca_2_0" else "topology_template"
        key = "count_range" if version == "tosca_2_0" else "occurrences"
        text = body.format(version=version, bounds=f"{key}: {bounds}", topology=topology, reqs=reqs)
        return [(d.code, d.severity) for d in loads(text).diagnostics]

    three = "{service: s1}, {service: s2}, {service: s3}"
    assert run("tosca_2_0", "[1, 2]", three) == [("requirement-count", "error")]
    assert run("tosca_2_0", "[3, 4]", "{service: s1}") == [("requirement-count", "error")]
    assert run("tosca_2_0", "[3, 4]", "") == []  # the orchestrator fulfils it
    assert run("tosca_2_0", "[1, UNBOUNDED]", three) == []
    assert run("tosca_simple_yaml_1_3", "[1, 2]", three) == [("requirement-count", "error")]
    assert run("tosca_simple_yaml_1_3", "[2, 2]", "{service: s1}") == [
        ("unfulfilled-requirement", "warning")
    ]


KEYS = st_.sampled_from(
    [
        "derived_from",
        "properties",
        "type",
        "default",
        "required",
        "entry_schema",
        "key_schema",
        "constraints",
        "validation",
        "requirements",
        "capabilities",
        "node",
        "capability",
        "relationship",
        "occurrences",
        "count_range",
        "interfaces",
        "attributes",
        "members",
        "targets",
        "copy",
        "directives",
        "node_filter",
        "value",
        "A",
        "B",
        "get_input",
        "$get_property",
        "SELF",
        "integer",
        "string",
        "list",
        "map",
        "tosca.nodes.Root",
    ]
)
SCALARS = st_.none() | st_.booleans() | st_.integers(-3, 3) | KEYS
TREES = st_.recursive(
    SCALARS,
    lambda children: st_.lists(children, max_size=3) | st_.dictionaries(KEYS, children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st_.sampled_from(["tosca_simple_yaml_1_3", "tosca_2_0"]),
    st_.dictionaries(st_.sampled_from(["A", "B", "C"]), TREES, max_size=3),
    st_.dictionaries(st_.sampled_from(["A", "B", "C"]), TREES, max_size=3),
    st_.dictionaries(st_.sampled_from(["n", "m"]), TREES, max_size=2),
)
def test_fuzz_random_definitions_never_raise(
    version: str, data: dict, nodes: dict, templates: dict
) -> None:
    import json

    topology = "service_template" if version == "tosca_2_0" else "topology_template"
    document = {
        "tosca_definitions_version": version,
        "data_types": data,
        "node_types": nodes,
        topology: {"node_templates": templates, "inputs": {"A": {"type": "integer", "default": 1}}},
    }
    st = toskit.loads(json.dumps(document))
    for node in st.node_templates.values():
        node.property_table(show_overridden=True)
        for cap in node.capabilities.values():
            cap.property_table()
    assert isinstance(st.types, dict)
    for diag in st.diagnostics:
        assert diag.code and diag.message


def test_attribute_assignments() -> None:
    st = loads(
        """
        tosca_definitions_version: tosca_simple_yaml_1_3
        node_types:
          N:
            derived_from: tosca.nodes.Root
            properties:
              size: {type: integer, default: 1}
            attributes:
              ready: {type: boolean}
        topology_template:
          node_templates:
            n:
              type: N
              attributes:
                ready: maybe
                state: initial
                size: 3
                redy: true
                tosca_id: {get_attribute: [SELF, tosca_name]}
        """
    )
    found = errors(st)
    assert [(d.code, d.path.rsplit(".", 1)[-1]) for d in found] == [
        ("type-mismatch", "ready"),
        ("unknown-attribute", "redy"),
    ]
    assert found[1].hint == "did you mean 'ready'?"


# ---- Data-type defaults inside list and map entries ----


ENTRIES = text_1_3(
    """\
    data_types:
      E:
        derived_from: tosca.datatypes.Root
        properties:
          ip: {type: string}
          port: {type: integer, default: 80}
      Holder:
        derived_from: tosca.datatypes.Root
        properties:
          eps: {type: list, entry_schema: {type: E}}
      EList:
        derived_from: list
        entry_schema: {type: E}
    node_types:
      N:
        derived_from: tosca.nodes.Root
        properties:
          eps: {type: list, entry_schema: {type: E}, required: false}
          labels: {type: map, entry_schema: {type: E}, required: false}
          holder: {type: Holder, required: false}
          typed: {type: EList, required: false}
          dflt: {type: list, entry_schema: {type: E}, default: [{ip: z}]}
    topology_template:
      node_templates:
        a:
          type: N
          properties:
            eps: [{ip: a}, {ip: b, port: 8}]
            labels: {k: {ip: c}}
            holder: {eps: [{ip: d}]}
            typed: [{ip: e}]
    """
)


def test_defaults_fill_in_inside_list_and_map_entries():
    st = toskit.loads(ENTRIES)
    assert [d.code for d in st.diagnostics] == []
    props = st.node_templates["a"].properties
    assert props["eps"] == [{"ip": "a", "port": 80}, {"ip": "b", "port": 8}]
    assert props["labels"] == {"k": {"ip": "c", "port": 80}}
    assert props["holder"] == {"eps": [{"ip": "d", "port": 80}]}
    assert props["typed"] == [{"ip": "e", "port": 80}]
    assert props["dflt"] == [{"ip": "z", "port": 80}]


def test_entry_defaults_record_their_source():
    node = toskit.loads(ENTRIES).node_templates["a"]
    assert node.source_of("eps[0].port") == "default: E"
    assert node.source_of("eps[1].port") == "template"
    assert node.source_of("labels.k.port") == "default: E"
    assert node.source_of("eps[0].ip") == "template"


def test_entry_with_a_wrong_value_is_still_reported():
    text = ENTRIES.replace("eps: [{ip: a}, {ip: b, port: 8}]", "eps: [{port: x}, 5]")
    codes = sorted(d.code for d in toskit.loads(text).diagnostics)
    assert codes and all(c in {"type-mismatch", "missing-property"} for c in codes)


# ---- Result values are not shared between templates, types and inputs ----


SHARED = text_1_3(
    """\
    data_types:
      D:
        derived_from: tosca.datatypes.Root
        properties:
          m: {type: map, default: {k: 1}}
          l: {type: list, default: [1]}
    node_types:
      N:
        derived_from: tosca.nodes.Root
        properties:
          p: {type: map, default: {a: 1}}
          d: {type: D, default: {}}
          q: {type: list, required: false}
          r: {type: list, required: false}
    topology_template:
      inputs:
        items: {type: list, default: [1, 2]}
      node_templates:
        a:
          type: N
          properties:
            q: {get_input: items}
        b:
          type: N
          properties:
            q: {get_input: items}
            r: {get_property: [a, q]}
    """
)


def _mutate_all(value):
    """Change every map and list inside ``value`` in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _mutate_all(item)
        value["mutated"] = True
    elif isinstance(value, list):
        for item in value:
            _mutate_all(item)
        value.append("mutated")


def test_editing_one_templates_values_changes_nothing_else():
    st = toskit.loads(SHARED)
    assert st.ok, st.diagnostics
    b_before = copy.deepcopy(st.node_templates["b"].properties)
    input_before = copy.deepcopy(st.inputs)
    _mutate_all(st.node_templates["a"].properties)
    assert st.node_templates["b"].properties == b_before
    assert st.inputs == input_before
    assert st.types["N"].properties["p"].default == {"a": 1}
    assert st.types["D"].properties["m"].default == {"k": 1}
    assert st.types["D"].properties["l"].default == [1]
    assert b_before["r"] == [1, 2]  # get_property of a's value, copied before a was edited


def test_copy_data_copies_containers_and_keeps_leaves():
    from toskit.tosca.values.resolve import copy_data

    leaf = ("t",)
    value = {"a": [{"b": 1}, leaf], "c": "s"}
    copied = copy_data(value)
    assert copied == value and copied is not value
    assert copied["a"] is not value["a"] and copied["a"][0] is not value["a"][0]
    assert copied["a"][1] is leaf


# ---- Requirement count ranges (2.0 count_range, 1.x occurrences) ----


REQ_WITH_RANGE = """\
tosca_definitions_version: {version}
capability_types:
  Host: {{{cap_derived}}}
node_types:
  App:
    {derived}requirements:
      - host:
          capability: {capability}
          {key}: {bounds}
"""

COUNT_RANGES = [
    ("[1, 2]", True),
    ("[0, UNBOUNDED]", True),
    ("[2, 2]", True),
    ("[1.0, 2.5]", False),
    ("[2, 1]", False),
    ("[-1, 3]", False),
    ("[1]", False),
    ("[true, 2]", False),
    ("'1..2'", False),
    ("[1, unbounded]", False),
]


@pytest.mark.parametrize(("bounds", "ok"), COUNT_RANGES, ids=[b for b, _ in COUNT_RANGES])
@pytest.mark.parametrize("major", [2, 1], ids=["count_range-2.0", "occurrences-1.3"])
def test_requirement_count_ranges_are_integer_ranges(bounds: str, ok: bool, major: int) -> None:
    text = REQ_WITH_RANGE.format(
        version="tosca_2_0" if major == 2 else "tosca_simple_yaml_1_3",
        derived="" if major == 2 else "derived_from: tosca.nodes.Root\n    ",
        cap_derived="" if major == 2 else "derived_from: tosca.capabilities.Root",
        capability="Host",
        key="count_range" if major == 2 else "occurrences",
        bounds=bounds,
    )
    found = errors(toskit.loads(text))
    if ok:
        assert found == []
    else:
        (diag,) = found
        assert diag.code == "invalid-definition"
        key = "count_range" if major == 2 else "occurrences"
        assert diag.message.startswith(f"'{key}' must be a range [lower, upper] of non-negative")
        assert diag.path == f"node_types.App.requirements[0].host.{key}"


# -- the collector after a large load (toskit.runtime._promote_young) ---------

_MANY = (
    "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n"
    + "".join(f"    n{i}:\n      type: tosca.nodes.Root\n" for i in range(2000))
)


def test_a_large_load_leaves_its_objects_in_the_oldest_generation():
    # The load's objects skip the young collections (one pass over all of
    # them took ~100 ms at 5,000 node templates): they are handed to the
    # oldest generation unscanned when the paused collector resumes.
    import gc

    assert gc.isenabled()
    st = toskit.loads(_MANY)
    node = st.node_templates["n1999"]
    assert gc.is_tracked(node)
    assert any(o is node for o in gc.get_objects(generation=2))
    assert gc.get_count()[0] < 1000


def test_a_large_load_keeps_the_objects_a_process_froze():
    import gc

    kept = [[]]  # a tracked object the process froze
    gc.freeze()
    try:
        toskit.loads(_MANY)
        # Still frozen (in no generation), not released by the promotion.
        assert gc.get_freeze_count() > 0
        assert not any(o is kept for o in gc.get_objects())
    finally:
        gc.unfreeze()
    assert any(o is kept for o in gc.get_objects())
