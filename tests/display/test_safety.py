"""Hostile names, descriptions, keys and values render as text in every view."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from fakes import sample_template
from htmlcheck import HOSTILE, PAYLOAD, assert_payload_is_text, assert_safe

from toskit import functions
from toskit.conditions.cluster import Cluster
from toskit.conditions.results import Outcome, RoleOutcome, TraceEntry
from toskit.diagnostics import Diagnostic
from toskit.display import conditions_views as cv
from toskit.display import render_page, to_html
from toskit.display import schema_views as sv
from toskit.display import tosca_views as tv
from toskit.display.diagnostics_view import diagnostics_html


@dataclass
class FakeRole:
    name: str
    conflicts: tuple = ()
    conditions: tuple = ()
    metadata: dict = field(default_factory=dict)


class FakeRoleSet(dict):
    """A mapping of roles whose check says every role is allowed with advice."""

    def check(self, role, cluster, selected=(), selected_roles=()):
        trace = TraceEntry(
            "rules",
            True,
            [PAYLOAD],
            source=None,
            children=[TraceEntry("expression", True, [], PAYLOAD)],
        )
        return RoleOutcome(role, True, [PAYLOAD], [PAYLOAD], trace)

    def check_assignment(self, roles):
        return None


@dataclass
class FakeComparison:
    added: frozenset
    removed: frozenset
    modified: frozenset


def _trace() -> TraceEntry:
    leaf = TraceEntry("expression", False, [PAYLOAD], source=PAYLOAD)
    return TraceEntry(
        "rules", False, [PAYLOAD], children=[TraceEntry("all", False, [PAYLOAD], children=[leaf])]
    )


def _roles() -> FakeRoleSet:
    return FakeRoleSet(
        {PAYLOAD: FakeRole(PAYLOAD, (PAYLOAD,), (PAYLOAD,), {"description": PAYLOAD})}
    )


def _schema():
    from toskit import schema

    return schema.load(
        {
            "types": [
                {
                    "name": PAYLOAD,
                    "map": {
                        "fields": [
                            {"name": PAYLOAD, "type": {"namedType": PAYLOAD}, "default": PAYLOAD},
                        ],
                        "elementType": {"scalar": "string"},
                    },
                }
            ]
        }
    )


def _diag() -> Diagnostic:
    return sample_template(PAYLOAD).diagnostics[1]


VIEWS = {
    "service-template": lambda: tv.service_template_html(sample_template(PAYLOAD)),
    "type": lambda: tv.type_html(sample_template(PAYLOAD).types[f"my.Endpoint{PAYLOAD}"]),
    "property-definition": lambda: tv.property_definition_html(
        sample_template(PAYLOAD).types[f"my.Endpoint{PAYLOAD}"].properties[f"ip{PAYLOAD}"]
    ),
    "node-template": lambda: tv.node_template_html(
        sample_template(PAYLOAD).node_templates[f"db{PAYLOAD}"]
    ),
    "property-table": lambda: tv.property_table_html(
        sample_template(PAYLOAD).node_templates[f"db{PAYLOAD}"].property_table(show_overridden=True)
    ),
    "diagnostic-list": lambda: diagnostics_html([_diag()]),
    "diagnostic": lambda: to_html(_diag()),
    "diagnostic-list-dispatch": lambda: to_html([_diag(), _diag()]),
    "role-outcome": lambda: to_html(RoleOutcome(PAYLOAD, False, [PAYLOAD], [PAYLOAD], _trace())),
    "outcome": lambda: to_html(Outcome(False, [PAYLOAD], _trace())),
    "trace": lambda: to_html(_trace()),
    "cluster": lambda: to_html(
        Cluster(
            PAYLOAD,
            nodes=[
                {"id": PAYLOAD, "name": PAYLOAD, "roles": [PAYLOAD], "pending_roles": [PAYLOAD]}
            ],
            pool=[{"id": 99, "roles": [PAYLOAD]}],
            status=PAYLOAD,
        )
    ),
    "role-set": lambda: cv.role_set_html(_roles()),
    "role": lambda: cv.role_html(_roles()[PAYLOAD]),
    "schema": lambda: to_html(_schema()),
    "schema-type": lambda: to_html(_schema().find(PAYLOAD)),
    "comparison": lambda: sv.comparison_html(
        FakeComparison(frozenset({PAYLOAD}), frozenset({PAYLOAD + "r"}), frozenset({PAYLOAD + "m"}))
    ),
    "call": lambda: to_html(functions.Call(PAYLOAD, [PAYLOAD, {PAYLOAD: PAYLOAD}])),
}


@pytest.mark.parametrize("render", VIEWS.values(), ids=list(VIEWS))
def test_hostile_text_is_escaped(render):
    assert_payload_is_text(render())


@pytest.mark.parametrize("render", VIEWS.values(), ids=list(VIEWS))
def test_render_is_deterministic(render):
    assert render() == render()


def test_report_page_escapes_everything():
    page = render_page(sample_template(PAYLOAD))
    assert page.startswith("<!DOCTYPE html>")
    doc = assert_safe(page)
    text = "".join(doc.text)
    for piece in HOSTILE:
        assert piece in text


def test_fallback_text_is_escaped_and_bounded():
    html = tv.service_template_html(sample_template(PAYLOAD * 200))
    doc = assert_safe(html)
    fallback = "".join(doc.fallback)
    assert fallback.startswith("FakeServiceTemplate(")
    assert len(fallback) <= 4000


def test_widgets_escape_hostile_text():
    from toskit.widgets import ClusterSimulator, PropertyExplorer, TypeTree

    st = sample_template(PAYLOAD)
    tree = TypeTree(st)
    explorer = PropertyExplorer(st).link(tree)
    tree.select(f"my.Endpoint{PAYLOAD}")
    assert_payload_is_text(tree.html)
    assert_payload_is_text(explorer.html)
    explorer.show_overridden = True
    tree.select(f"my.Service{PAYLOAD}")
    assert_payload_is_text(explorer.html)
    simulator = ClusterSimulator(
        _roles(), Cluster("multinode", nodes=[{"id": 1, "roles": [PAYLOAD]}])
    )
    simulator.select_node(1)
    from simulator_html import assert_view_safe  # the simulator's checkboxes, in their one shape

    assert_payload_is_text(assert_view_safe(simulator.html))
