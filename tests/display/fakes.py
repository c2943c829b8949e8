"""Small duck-typed stand-ins for the core objects of API.md.

Used where a test needs shapes the real loaders cannot produce cheaply
(10,000 node templates, hostile names in every field); the real objects are
tested in the other modules once they exist.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.sentinels import NO_DEFAULT


@dataclass
class FakePropertyDefinition:
    name: str
    type: str | None = "string"
    required: bool = True
    default: Any = NO_DEFAULT
    description: str | None = None
    defined_in: str = ""


@dataclass(eq=False)
class FakeType:
    name: str
    kind: str = "node"
    parent: FakeType | None = None
    description: str | None = None
    own_properties: dict[str, FakePropertyDefinition] = field(default_factory=dict)

    @property
    def ancestors(self) -> list[FakeType]:
        out, t = [], self.parent
        while t is not None and len(out) < 50:
            out.append(t)
            t = t.parent
        return out

    @property
    def properties(self) -> dict[str, FakePropertyDefinition]:
        merged: dict[str, FakePropertyDefinition] = {}
        for t in reversed([self, *self.ancestors]):
            merged.update(t.own_properties)
        return merged


@dataclass
class FakeRow:
    path: str
    value: Any
    type: str
    source: str
    overridden: list = field(default_factory=list)


@dataclass
class FakePropertyTable:
    rows: list[FakeRow]
    show_overridden: bool = False

    def to_frame(self):  # pragma: no cover - not used by the views
        import pandas as pd

        return pd.DataFrame([r.__dict__ for r in self.rows])


@dataclass
class FakeNodeTemplate:
    name: str
    type: FakeType
    rows: list[FakeRow] = field(default_factory=list)

    @property
    def properties(self) -> dict[str, Any]:
        return {r.path: r.value for r in self.rows}

    def property_table(self, show_overridden: bool = False) -> FakePropertyTable:
        return FakePropertyTable(self.rows, show_overridden)


@dataclass
class FakeServiceTemplate:
    version: str = "tosca_simple_yaml_1_3"
    types: dict[str, FakeType] = field(default_factory=dict)
    node_templates: dict[str, FakeNodeTemplate] = field(default_factory=dict)
    inputs: dict[str, Any] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    name: str = "fake.yaml"

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def sample_template(text: str = "x") -> FakeServiceTemplate:
    """A template whose every user-visible string contains ``text``."""
    root = FakeType("tosca.nodes.Root", "node")
    dbms = FakeType("tosca.nodes.DBMS", "node", root)
    droot = FakeType("tosca.datatypes.Root", "data")
    endpoint = FakeType(
        f"my.Endpoint{text}",
        "data",
        droot,
        description=f"endpoint {text}",
        own_properties={
            f"ip{text}": FakePropertyDefinition(
                f"ip{text}", "string", description=text, defined_in=f"my.Endpoint{text}"
            ),
            "port": FakePropertyDefinition(
                "port", "integer", default=text, defined_in=f"my.Endpoint{text}"
            ),
        },
    )
    service = FakeType(
        f"my.Service{text}",
        "node",
        dbms,
        description=text,
        own_properties={
            "endpoint": FakePropertyDefinition(
                "endpoint", endpoint.name, defined_in=f"my.Service{text}"
            )
        },
    )
    rows = [
        FakeRow(f"endpoint.ip{text}", text, "string", "template"),
        FakeRow(
            "endpoint.port",
            2233,
            "integer",
            f"default: my.Endpoint{text}",
            overridden=[(text, f"default: my.Service{text}")],
        ),
        FakeRow("endpoint.list", [text, {text: text}], "list", f"input: {text}"),
    ]
    node = FakeNodeTemplate(f"db{text}", service, rows)
    diag = Diagnostic(
        "error",
        "unknown-property",
        f"node template 'db{text}': unknown {text}",
        path=f"topology_template.node_templates.db{text}.properties.{text}",
        file=f"{text}.yaml",
        line=3,
        column=5,
        hint=f"did you mean '{text}'?",
        source_line=f"    {text}: 1",
    )
    warn = Diagnostic(
        "warning", "missing-version", f"no version {text}", file="f.yaml", line=1, column=1
    )
    return FakeServiceTemplate(
        types={t.name: t for t in (root, dbms, droot, endpoint, service)},
        node_templates={node.name: node},
        inputs={f"in{text}": text},
        diagnostics=[warn, diag],
        name=f"{text}.yaml",
    )
