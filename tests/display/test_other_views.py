"""Views of schema, function and condition results (real objects)."""

from __future__ import annotations

import re

import pytest
from htmlcheck import assert_safe, body, parse, plain_links
from simulator_html import POOL, SEED_ROLES, WHA, WMN

from toskit import conditions, functions, schema
from toskit.display import to_html

SCHEMA = {
    "types": [
        {
            "name": "root",
            "map": {
                "fields": [
                    {"name": "name", "type": {"scalar": "string"}},
                    {
                        "name": "items",
                        "type": {
                            "list": {
                                "elementType": {"namedType": "item"},
                                "elementRelationship": "associative",
                                "keys": ["id"],
                            }
                        },
                    },
                ]
            },
        },
        {
            "name": "item",
            "map": {
                "fields": [{"name": "id", "type": {"scalar": "numeric"}, "default": 0}],
                "elementType": {"scalar": "untyped"},
            },
        },
    ]
}


def _text(html: str) -> str:
    return " ".join(t.strip() for t in parse(body(html)).text if t.strip())


@pytest.fixture(scope="module")
def roles():
    return conditions.load_roles(SEED_ROLES)


def test_schema_view_lists_types_with_their_atoms():
    html = to_html(schema.load(SCHEMA))
    assert_safe(html)
    text = _text(html)
    assert "schema 2 types" in text
    # The merge relationships in words, not the schema's keywords (issue #35 item 5).
    assert "root struct of 2 fields (merged key by key)" in text
    assert "items list< item > (merged by id)" in text
    assert (
        "separable" not in text and "associative" not in text and "1 types" not in text
    )  # `item` is a link (its own text node)


def test_schema_view_links_a_named_type_to_its_section():
    """Every schema type name in a schema's field tables is a link to that
    type's section in the same view (issue #18 item 4); names in summaries
    stay text (no control inside a control), and a lone type's view has no
    section to go to, so no link."""
    import re

    html = to_html(schema.load(SCHEMA))
    assert_safe(html)
    html = plain_links(html)
    link = '<a class="toskit-type-link" href="#toskit-schema-type-item">item</a>'
    assert f'<td class="toskit-type">list&lt;{link}&gt; (merged by id)</td>' in html
    assert '<div id="toskit-schema-type-item">' in html
    assert set(re.findall(r'href="#([^"]+)"', html)) <= set(re.findall(r' id="([^"]+)"', html))
    for summary in re.findall(r"<summary>(.*?)</summary>", html, flags=re.S):
        assert "<a " not in summary
    assert "href=" not in to_html(schema.load(SCHEMA).find("root"))


def test_typedef_view_shows_fields_defaults_and_element_type():
    html = to_html(schema.load(SCHEMA).find("item"))
    text = _text(html)
    assert (
        text
        == "schema type item struct of 1 field (merged key by key) field type default id numeric 0 other keys untyped"
    )


def test_comparison_view_groups_paths():
    s = schema.load(SCHEMA)
    html = to_html(
        s.compare({"name": "a", "items": [{"id": 1}]}, {"name": "b", "items": [{"id": 2}]}, "root")
    )
    assert_safe(html)
    view = body(html)
    assert "2 added" in view and "1 modified" in view
    assert re.search(
        r'<li class="toskit-added"><span class="toskit-mono">\+ \.items\[id=2\]</span>', view
    )
    assert re.search(r'<li class="toskit-modified"><span class="toskit-mono">~ \.name</span>', view)


def test_comparison_without_changes():
    s = schema.load(SCHEMA)
    html = to_html(s.compare({"name": "a"}, {"name": "a"}, "root"))
    assert "no changes" in _text(html)
    assert "<li" not in body(html)


def test_call_view_shows_2_0_notation():
    call = functions.Call("concat", ["http://", functions.Call("get_input", ["host"])])
    html = to_html(call)
    assert_safe(html)
    assert str(call) in _text(html)
    assert "function call concat 2 arguments" in _text(html)


def test_role_set_view(roles):
    html = to_html(roles)
    assert_safe(html)
    roles_table = body(html).split("Outcomes on an empty cluster")[0]  # then every role's outcome
    rows = re.findall(r"<tr>(.*?)</tr>", roles_table)
    assert len(rows) == 1 + 4
    assert "".join(parse(rows[4]).text) == "zabbix-server* (every other role)0"


def test_role_view(roles):
    html = to_html(roles["controller"])
    text = _text(html)
    assert "role controller 2 rules" in text
    assert "conflicts compute" in text


def test_blocked_outcome_shows_warning_and_trace(roles):
    cluster = conditions.Cluster("multinode", pool=POOL)
    out = roles.check("controller", cluster, selected=[11, 12])
    html = to_html(out)
    assert_safe(html)
    view = body(html)
    assert "toskit-badge-blocked" in view
    assert f"<li>{WMN}</li>" in view
    # The trace: each condition states its facts (guard TRUE → then: FALSE, …).
    assert view.count('class="toskit-f"') >= 3 and 'class="toskit-t"' in view
    assert "selectedNodes._length &lt;= 1" in view
    # The warning shows in the reason, in the list above the trace and, in
    # the trace, only at the condition that raised it (not again at every
    # enclosing node).
    assert view.count(WMN) == 3
    leaf = view.index("selectedNodes._length &lt;= 1")
    assert view.index(WMN, view.index("Why: evaluation trace")) > leaf


def test_advice_outcome_is_allowed_with_a_warning(roles):
    out = roles.check("controller", conditions.Cluster("ha_compact", pool=POOL), selected=[11])
    view = body(to_html(out))
    assert "toskit-badge-allowed" in view and "toskit-badge-advice" in view and WHA in view


def test_conflict_outcome_lists_conflicts(roles):
    out = roles.check(
        "controller",
        conditions.Cluster("multinode", pool=POOL),
        selected=[11],
        selected_roles=["compute"],
    )
    text = _text(to_html(out))
    assert "conflicts with compute" in text


def test_evaluate_outcome_view():
    out = conditions.evaluate(
        {"condition": "cluster:mode == 'ha_compact'", "warning": "HA only"},
        conditions.Cluster("multinode"),
    )
    html = to_html(out)
    assert_safe(html)
    assert "condition evaluation false" in _text(html)
    assert "HA only" in _text(html)


def test_cluster_view_lists_nodes_and_states():
    cluster = conditions.Cluster(
        "multinode",
        nodes=[
            {"id": 1, "roles": ["controller"], "pending_deletion": True},
            {"id": 2, "pending_roles": ["compute"], "pending_addition": True},
        ],
        pool=POOL,
        status="new",
    )
    html = to_html(cluster)
    assert_safe(html)
    text = _text(html)
    assert "cluster multinode 2 nodes 2 in pool status: new" in text
    assert "1 controller — pending deletion" in text
    assert "2 — compute pending addition" in text


# A trimmed Fuel release file (the shape of Fuel's openstack.yaml).
FUEL_RELEASE = """\
- model: nailgun.release
  fields:
    name: Newton <i>test</i>
    version: newton-10.0
    operating_system: Ubuntu
    state: available
    description: A small release for the views.
    modes: [ha_compact]
    attributes_metadata:
      editable:
        storage:
          osd_pool_size: {value: "2"}
          volumes_ceph: {value: false}
    roles_metadata:
      controller:
        name: Controller
        description: Runs the API.
        conflicts: [compute]
        limits: {min: 1, recommended: 3}
      compute:
        name: Compute
        limits: {recommended: 1}
      ceph-osd:
        name: Ceph OSD
        limits: {min: "settings:storage.osd_pool_size.value"}
        restrictions:
          - condition: "settings:storage.volumes_ceph.value == false"
            message: Ceph should be enabled in the environment settings.
"""


@pytest.fixture(scope="module")
def release():
    return conditions.load_release(FUEL_RELEASE)


def test_fuel_release_view_lists_roles_with_restrictions_and_limits(release):
    html = to_html(release)
    assert_safe(html)
    text = _text(html)
    assert text.startswith(f"Fuel release {release.name} version: {release.version}")
    rows = [
        ["".join(parse(cell).text) for cell in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
        for tr in re.findall(r"<tr>(.*?)</tr>", body(html))
    ]
    by_role = {row[0]: row for row in rows if row}
    assert set(by_role) == set(release.roles)
    assert by_role["controller"][1] == "compute"
    assert by_role["controller"][4] == "min 1, recommended 3"
    assert by_role["ceph-osd"][3] == "1"
    assert by_role["ceph-osd"][4] == "min settings:storage.osd_pool_size.value"
    assert "object at 0x" not in text  # expression bounds show their text


def test_fuel_outcome_shows_limits_and_advice(release):
    cluster = release.cluster(nodes=[{"id": 1, "roles": ["controller"]}])
    out = release.check("controller", cluster, selected=[1])
    html = to_html(out)
    assert_safe(html)
    text = _text(html)
    assert "1 / min 1 / rec 3" in text  # the count against its limits
    assert "toskit-badge-advice" in body(html)
    limits = to_html(out.limits)
    assert _text(limits) == "limits count 1 bound value min 1 recommended 3"


def test_merge_result_view_shows_sources_and_replaced_values():
    s = schema.load(
        {
            "types": [
                {
                    "name": "r",
                    "map": {
                        "fields": [
                            {"name": "a", "type": {"scalar": "numeric"}},
                            {"name": "b", "type": {"scalar": "string"}},
                        ]
                    },
                }
            ]
        }
    )
    result = s.merge_layers([({"a": 1, "b": "x"}, "base"), ({"a": 2}, "over")], "r")
    html = to_html(result)
    assert_safe(html)
    view = body(html)
    assert "2 leaves" in view and "1 overridden" in view
    assert re.search(
        r'<tr class="toskit-overridden"><td class="toskit-path">a</td><td class="toskit-value">1</td>',
        view,
    )
    # Layer labels get palette colours, in order of appearance.
    assert '<span class="toskit-src toskit-src-0">over</span>' in view
    assert '<span class="toskit-src toskit-src-1">base</span>' in view


def test_explore_a_fuel_release_simulates_its_roles(release):
    from toskit.widgets import ClusterSimulator, explore

    sim = explore(release)
    assert isinstance(sim, ClusterSimulator)
    assert sim.mode == "ha_compact"
    node = sim.add_node(["controller"])
    sim.select([node])
    out = sim.outcome("controller")
    assert out.allowed is True
    assert out.limits is not None and out.limits.recommended == 3
    ceph = sim.outcome("ceph-osd")
    assert ceph.restrictions == ["Ceph should be enabled in the environment settings."]
    assert "Ceph should be enabled" in body(sim.html)
