"""Every diagnostic code is produced, and each finding carries its structure (issue #28 item 4).

One case per code of :data:`toskit.codes.CODES` (``CASES``); a case produces
findings through a public entry point (``toskit.loads``, a file or CSAR
load, ``toskit.schema``, ``toskit check``'s checkers, a template's
topology). For every finding of the case's code the test asserts:

* a subject (a :class:`~toskit.diagnostics.Subject`);
* a range: ``line``/``column`` and ``end_line``/``end_column``, the end
  after the start (a finding about a whole file that is not text, a CSAR
  archive or a file over ``max_size``, has none: ``WHOLE_FILE``);
* a did-you-mean (a hint ``did you mean …``) carries exactly one fix, or
  names its tied candidates (``are equally close``) and carries none.

Codes whose producers are not this issue's (the Python DSL, another
helper's ``toskit.conditions``) are listed in ``NOT_STRUCTURED`` with why,
and checked only for being produced.
"""

from __future__ import annotations

import io
import textwrap
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

import toskit
from toskit.codes import CODES
from toskit.diagnostics import Diagnostic

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"
V20 = "tosca_definitions_version: tosca_2_0\n"

#: Findings about a whole file that is not read as text: a subject, no range.
WHOLE_FILE = {"csar-error", "profile-catalog"}

#: Findings that are about two places: each carries a related location
#: (an import cycle: the file it re-enters).
MUST_RELATE = {"import-cycle"}

#: Codes produced outside this issue's producers (checked for being produced only).
NOT_STRUCTURED: dict[str, str] = {
    # toskit.dsl: Python templates, not YAML text; not in issue #28's list of producers.
    "python-error": "toskit.dsl (Python source)",
    "duplicate-template": "toskit.dsl (Python source)",
    "duplicate-type": "toskit.dsl (Python source)",
    "invalid-type-name": "toskit.dsl (Python source)",
    "missing-template-name": "toskit.dsl (Python source)",
    "unannotated-attribute": "toskit.dsl (Python source)",
    "value-cycle": "toskit.dsl (Python source)",
    "invalid-annotation": "toskit.dsl (Python source)",
    # toskit.report (another helper's, issue #34): findings about a run, a file or a diff.
    "file-unreadable": "toskit.report: a file that could not be read (no text to range over)",
    "internal-error": "toskit.report: a crash while checking a file",
    "changed-value": "toskit.report.diff: a changed value of a diff (issue #34's helper)",
    # toskit.schema values validated without a document: a subject, no text to range over.
    "union-conflict": "toskit.schema value (no document)",
    "invalid-value": "toskit.schema value (no document)",
}


def _tosca(text: str, **kwargs) -> list[Diagnostic]:
    return list(toskit.loads(textwrap.dedent(text), name="case.yaml", **kwargs).diagnostics)


def _files(tmp_path: Path, files: dict[str, str], entry: str = "main.yaml") -> list[Diagnostic]:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    return list(toskit.load(str(tmp_path / entry)).diagnostics)


def _profiles(tmp_path: Path, case: str) -> list[Diagnostic]:
    """Profile catalog findings (issue #36): a duplicate profile, a broken archive."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "lib.yaml").write_text(V20 + "profile: org.x:1\n")
    if case == "profile-catalog":
        (tmp_path / "a" / "broken.csar").write_bytes(b"not a zip")
    text = V20 + "imports: [{profile: org.x:1}]\n"
    return list(
        toskit.loads(text, name="case.yaml", profiles=[tmp_path / "a", tmp_path / "b"]).diagnostics
    )


def _topology(text: str, attribute: str) -> list[Diagnostic]:
    topo = toskit.loads(textwrap.dedent(text), name="case.yaml").topology()
    return [p.diagnostic for p in getattr(topo, attribute)]


def _csar(tmp_path: Path, entries: dict[str, str], meta: str | None = None) -> list[Diagnostic]:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as z:
        if meta is not None:
            z.writestr("TOSCA-Metadata/TOSCA.meta", meta)
        for name, text in entries.items():
            z.writestr(name, textwrap.dedent(text))
    path = tmp_path / "case.csar"
    path.write_bytes(data.getvalue())
    return list(toskit.load(str(path)).diagnostics)


def _check(tmp_path: Path, name: str, text: str) -> list[Diagnostic]:
    from toskit.cli import check_file

    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return list(check_file(str(path))[1])


def _schema_load(text: str) -> list[Diagnostic]:
    from toskit import schema

    try:
        schema.load(textwrap.dedent(text), name="s.yaml")
    except toskit.SchemaError as err:
        return list(err.diagnostics)
    return []


def _dsl(tmp_path: Path, source: str) -> list[Diagnostic]:
    from toskit import dsl

    path = tmp_path / "t.py"
    path.write_text("import tosca\n\n" + textwrap.dedent(source))
    return list(dsl.load_module(str(path)).diagnostics)


NODE_TYPES = """
node_types:
  W:
    derived_from: tosca.nodes.Root
    properties:
      release: {type: string}
      port: {type: integer, required: false, constraints: [{in_range: [1, 10]}]}
    attributes:
      state2: {type: string}
"""

CASES: dict[str, Callable[[Path], list[Diagnostic]]] = {
    "yaml-syntax": lambda p: _tosca(V13 + "a: [1,\n"),
    "duplicate-key": lambda p: _tosca(V13 + "description: a\ndescription: b\n"),
    "limit-exceeded": lambda p: _tosca(V13 + "metadata: {a: {b: {c: {d: 1}}}}\n", max_depth=3),
    "import-error": lambda p: _files(p, {"main.yaml": V13 + "imports: [nope.yaml]\n"}),
    "import-cycle": lambda p: _files(
        p, {"main.yaml": V13 + "imports: [b.yaml]\n", "b.yaml": V13 + "imports: [main.yaml]\n"}
    ),
    "import-above-root": lambda p: _csar(
        p,
        {"main.yaml": V13 + "imports: [../x.yaml]\n", "x.yaml": V13},
        "TOSCA-Meta-File-Version: 1.1\nCSAR-Version: 1.1\nCreated-By: t\nEntry-Definitions: main.yaml\n",
    ),
    "csar-error": lambda p: _csar(p, {"a.txt": "x"}),
    "missing-version": lambda p: _tosca("description: x\n"),
    "unknown-version": lambda p: _tosca("tosca_definitions_version: tosca_simple_yaml_9_9\n"),
    "version-not-first": lambda p: _tosca("description: x\n" + V20),
    "unknown-profile": lambda p: _tosca(V20 + "imports: [{profile: org.example.nope}]\n"),
    "duplicate-profile": lambda p: _profiles(p, "duplicate-profile"),
    "profile-catalog": lambda p: _profiles(p, "profile-catalog"),
    "invalid-requirement-target": lambda p: _tosca(
        V20 + "capability_types: {A: {}, B: {}}\nnode_types:\n  T:\n    capabilities: {a: A}\n"
        "  U:\n    requirements: [{r: {capability: B, relationship: DependsOn}}]\n"
        "service_template:\n  node_templates:\n    t: {type: T}\n"
        "    u: {type: U, requirements: [{r: t}]}\n"
    ),
    "unknown-keyname": lambda p: _tosca(
        V13
        + "topology_template:\n  node_templates:\n    n: {type: tosca.nodes.Root, propertys: {}}\n"
    ),
    "missing-keyname": lambda p: _tosca(V13 + "repositories:\n  r: {description: no url}\n"),
    "invalid-definition": lambda p: _tosca(V13 + "description: {complex: text}\n"),
    "unknown-type": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    n: {type: tosca.nodes.Compte}\n"
    ),
    "missing-type": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    n: {description: x}\n"
    ),
    "derivation-cycle": lambda p: _tosca(
        V13 + "node_types:\n  A: {derived_from: B}\n  B: {derived_from: A}\n"
    ),
    "incompatible-refinement": lambda p: _tosca(
        V13
        + "node_types:\n  A:\n    derived_from: tosca.nodes.Root\n    properties: {p: {type: integer}}\n"
        "  B:\n    derived_from: A\n    properties: {p: {type: string}}\n"
    ),
    "missing-property": lambda p: _tosca(
        V13 + NODE_TYPES + "topology_template:\n  node_templates:\n    w: {type: W}\n"
    ),
    "unknown-property": lambda p: _tosca(
        V13 + NODE_TYPES + "topology_template:\n  node_templates:\n    w:\n      type: W\n"
        "      properties:\n        release: r\n        prot: 1\n"
    ),
    "unknown-attribute": lambda p: _tosca(
        V13 + NODE_TYPES + "topology_template:\n  node_templates:\n    w:\n      type: W\n"
        "      properties: {release: r}\n      attributes:\n        state3: x\n"
    ),
    "type-mismatch": lambda p: _tosca(
        V13 + NODE_TYPES + "topology_template:\n  node_templates:\n    w:\n      type: W\n"
        "      properties: {release: r, port: eighty}\n"
    ),
    "constraint-violation": lambda p: _tosca(
        V13 + NODE_TYPES + "topology_template:\n  node_templates:\n    w:\n      type: W\n"
        "      properties: {release: r, port: 99}\n"
    ),
    "validation-failed": lambda p: _tosca(
        V20 + "node_types:\n  W:\n    properties:\n      port:\n        type: integer\n"
        "        validation: {$less_than: [$value, 10]}\n"
        "service_template:\n  node_templates:\n    w:\n      type: W\n      properties: {port: 99}\n"
    ),
    "invalid-constraint": lambda p: _tosca(
        V13 + "node_types:\n  W:\n    derived_from: tosca.nodes.Root\n    properties:\n"
        "      port: {type: integer, constraints: [{in_rang: [1, 2]}]}\n"
        "topology_template:\n  node_templates:\n    w:\n      type: W\n      properties: {port: 1}\n"
    ),
    "fixed-value": lambda p: _tosca(
        V20 + "node_types:\n  W:\n    properties:\n      port: {type: integer, value: 1}\n"
        "service_template:\n  node_templates:\n    w:\n      type: W\n      properties: {port: 2}\n"
    ),
    "missing-input": lambda p: _tosca(
        V13 + "topology_template:\n  inputs:\n    x: {type: string}\n"
    ),
    "unknown-input": lambda p: _tosca(
        V13 + "topology_template:\n  inputs:\n    x: {type: string}\n", inputs={"x": "a", "y": 1}
    ),
    "unknown-capability": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    c:\n      type: tosca.nodes.Compute\n"
        "      capabilities:\n        hots: {}\n"
    ),
    "unknown-requirement": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    c: {type: tosca.nodes.Compute}\n"
        "    s:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n        - hots: c\n"
    ),
    "unknown-node": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    lb_host: {type: tosca.nodes.Compute}\n"
        "    db_host: {type: tosca.nodes.Compute}\n    web_host: {type: tosca.nodes.Compute}\n"
        "    cache:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n        - host: cache_host\n"
    ),
    "unfulfilled-requirement": lambda p: _tosca(
        V13
        + "topology_template:\n  node_templates:\n    sw: {type: tosca.nodes.SoftwareComponent}\n"
    ),
    "requirement-count": lambda p: _tosca(
        V13
        + "node_types:\n  S: {derived_from: tosca.nodes.Root}\n  C:\n    derived_from: tosca.nodes.Root\n"
        "    requirements:\n      - dep: {capability: tosca.capabilities.Node, occurrences: [0, 1]}\n"
        "topology_template:\n  node_templates:\n    s1: {type: S}\n    s2: {type: S}\n"
        "    c:\n      type: C\n      requirements: [{dep: s1}, {dep: s2}]\n"
    ),
    "unresolved-requirement": lambda p: _topology(
        V20 + "capability_types:\n  Storage: {}\nnode_types:\n  App:\n    requirements:\n"
        "      - disk: { capability: Storage }\nservice_template:\n  node_templates:\n"
        "    app:\n      type: App\n      requirements: [ { disk: { capability: Storage } } ]\n",
        "unresolved",
    ),
    "ambiguous-requirement": lambda p: _topology(
        V13
        + "topology_template:\n  node_templates:\n    app:\n      type: tosca.nodes.SoftwareComponent\n"
        "      requirements:\n        - host: tosca.nodes.Compute\n"
        "    vm1: { type: tosca.nodes.Compute }\n    vm2: { type: tosca.nodes.Compute }\n",
        "ambiguous",
    ),
    "invalid-relationship-target": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    server: {type: tosca.nodes.Compute}\n"
        "    app:\n      type: tosca.nodes.SoftwareComponent\n      requirements:\n"
        "        - host: {node: server, relationship: tosca.relationships.ConnectsTo}\n"
    ),
    "unknown-interface": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    n:\n      type: tosca.nodes.Root\n"
        "      interfaces:\n        Standrd: {}\n"
    ),
    "unknown-operation": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    n:\n      type: tosca.nodes.Root\n"
        "      interfaces:\n        Standard:\n          operations:\n            creat: x.sh\n"
    ),
    "unknown-operation-input": lambda p: _tosca(WORKFLOW.replace("INPUTS", "{name: a, nmae: b}")),
    "missing-operation-input": lambda p: _tosca(WORKFLOW.replace("INPUTS", "{}")),
    "copy-cycle": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    a: {copy: b}\n    b: {copy: a}\n"
    ),
    "invalid-copy": lambda p: _tosca(
        V13 + "topology_template:\n  node_templates:\n    a: {copy: nope}\n"
    ),
    "missing-anchor": lambda p: _tosca(V13 + "dsl_definitions:\n  x: {a: 1}\n"),
    "malformed-function": lambda p: _tosca(
        V20 + "service_template:\n  outputs:\n    o:\n      value: {$concat: [a], x: 1}\n"
    ),
    "unknown-function": lambda p: _tosca(
        V20 + "service_template:\n  outputs:\n    o:\n      value: {$concta: [a, b]}\n"
    ),
    "function-error": lambda p: _tosca(
        V13 + "topology_template:\n  inputs:\n    port: {type: integer, default: 1}\n"
        "  outputs:\n    o:\n      value: {get_input: prot}\n"
    ),
    "dollar-literal": lambda p: _tosca(
        V20 + "service_template:\n  outputs:\n    o:\n      value: $abc\n"
    ),
    "invalid-function-definition": lambda p: _tosca(
        V20
        + "functions:\n  f:\n    signatures:\n      - {result: {type: string}, implementaton: x}\n"
    ),
    "unchecked-constraint": lambda p: _unchecked_constraint(),
    "schema-error": lambda p: _schema_load("types:\n  - name: t\n    sclar: numeric\n"),
    "union-conflict": lambda p: _union_conflict(),
    "invalid-value": lambda p: _invalid_value(),
    "condition-schema": lambda p: _conditions("roles_metadata:\n  r: {restrictions: 5}\n"),
    "expression-syntax": lambda p: _conditions(
        "roles_metadata:\n  c:\n    conditions:\n      - \"cluster:mode = 'x'\"\n"
    ),
    "expression-error": lambda p: _conditions(
        'roles_metadata:\n  c:\n    conditions:\n      - condition: "cluster:nodes._size"\n'
    ),
    "unknown-role": lambda p: _conditions(
        "roles_metadata:\n  controller:\n    conflicts: [compte]\n  compute: {}\n"
    ),
    "unknown-setting": lambda p: _conditions(
        "- pk: 1\n  model: nailgun.release\n  fields:\n    name: R\n    state: available\n"
        "    roles_metadata:\n      ceph-osd:\n        restrictions:\n"
        '          - "settings:storag.volumes_ceph.value == false"\n'
        "    attributes_metadata:\n      editable:\n        storage:\n          volumes_ceph: {value: false}\n"
    ),
    "fuel-release": lambda p: _conditions(
        "- pk: 1\n  model: nailgun.release\n  extend: 7\n  fields: {name: R}\n"
    ),
    "unknown-document": lambda p: _conditions("just: a map\n"),
    "file-unreadable": lambda p: _unreadable(p),
    "internal-error": lambda p: _crash(p),
    "changed-value": lambda p: _changed_value(p),
    "python-error": lambda p: _dsl(p, "class E(tosca.DataEntity):\n    ip: str\n\ne = E('1')\n"),
    "duplicate-template": lambda p: _dsl(
        p, "a = tosca.nodes.Root('x')\nb = tosca.nodes.Root('x')\n"
    ),
    "duplicate-type": lambda p: _dsl(
        p,
        "class C(tosca.DataEntity):\n    _type_name = 'Dup'\n\nclass D(tosca.DataEntity):\n    _type_name = 'Dup'\n",
    ),
    "invalid-type-name": lambda p: _dsl(p, "class C(tosca.DataEntity):\n    _type_name = ''\n"),
    "missing-template-name": lambda p: _dsl(p, "named = tosca.nodes.Root()\ntosca.nodes.Root()\n"),
    "unannotated-attribute": lambda p: _dsl(p, "class App(tosca.nodes.Root):\n    port = 80\n"),
    "value-cycle": lambda p: _dsl(
        p,
        "class App(tosca.nodes.Root):\n    items: list\n\nloop = []\nloop.append(loop)\napp = App('app', items=loop)\n",
    ),
    "invalid-annotation": lambda p: _dsl(p, "class Data(tosca.DataEntity):\n    bad: complex\n"),
}

WORKFLOW = (
    V20
    + """\
interface_types:
  Backup:
    operations:
      backup: {}
node_types:
  Entity:
    interfaces:
      backup:
        type: Backup
        operations:
          backup:
            inputs:
              name: {type: string}
service_template:
  node_templates:
    client: {type: Entity}
  workflows:
    w:
      steps:
        s:
          target: client
          activities:
            - call_operation: {operation: backup.backup, inputs: INPUTS}
"""
)


def _conditions(text: str) -> list[Diagnostic]:
    from toskit.conditions.check import check_text

    return list(check_text(textwrap.dedent(text), "roles.yaml"))


def _unchecked_constraint() -> list[Diagnostic]:
    from toskit.functions.validation import check_value

    # Through a document, as the loader calls it: the finding is located.
    doc = toskit.source.load_yaml("p: a\n", name="v.yaml")
    return check_value(
        "a",
        constraints=[{"schema": "x"}],
        version="1.3",
        path=("p",),
        make_diagnostic=doc.diagnostic,
    )


class _File:
    """A checked file as ``toskit.report`` reads one (``toskit.cli.FileResult`` is one)."""

    def __init__(self, path: str, error: str | None, crashed: bool = False) -> None:
        self.path, self.kind, self.label, self.diagnostics = path, "yaml", "YAML", []
        self.error, self.crashed = error, crashed


def _unreadable(tmp_path: Path) -> list[Diagnostic]:
    from toskit import report

    return report.findings(_File(str(tmp_path / "bad.yaml"), "not UTF-8 text"))


def _crash(tmp_path: Path) -> list[Diagnostic]:
    from toskit import report

    return report.findings(_File(str(tmp_path / "a.yaml"), "RuntimeError: boom", crashed=True))


def _changed_value(tmp_path: Path) -> list[Diagnostic]:
    from toskit.compare import compare
    from toskit.report.diff import diff_findings

    base = V13 + NODE_TYPES + "topology_template:\n  node_templates:\n    w:\n      type: W\n"
    old = toskit.loads(base + "      properties: {release: a}\n", name="old.yaml")
    new = toskit.loads(base + "      properties: {release: b}\n", name="new.yaml")
    return diff_findings(compare(old, new), ["changes"])


def _union_conflict() -> list[Diagnostic]:
    from toskit import schema

    s = schema.load(
        "types:\n- name: union\n  map:\n    fields:\n"
        "    - {name: discriminator, type: {scalar: string}}\n"
        "    - {name: one, type: {scalar: numeric}}\n    - {name: two, type: {scalar: numeric}}\n"
        "    unions:\n    - discriminator: discriminator\n      fields:\n"
        "      - {fieldName: one, discriminatorValue: One}\n      - {fieldName: two, discriminatorValue: TWO}\n"
    )
    try:
        s.normalize_union({"one": 1}, {"one": 2, "two": 1}, "union")
    except toskit.SchemaError as err:
        return list(err.diagnostics)
    return []


def _invalid_value() -> list[Diagnostic]:
    from toskit import schema

    s = schema.load(
        "types:\n- name: l\n  list:\n    elementType: {map: {fields: [{name: k, type: {scalar: string}}]}}\n"
        "    elementRelationship: associative\n    keys: [k]\n"
    )
    return list(s.validate([None], "l"))


def _did_you_mean(d: Diagnostic) -> bool:
    return bool(d.hint) and "did you mean" in d.hint


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_is_produced_with_its_structure(code: str, tmp_path: Path) -> None:
    produced = CASES[code](tmp_path)
    found = [d for d in produced if d.code == code]
    assert found, f"{code}: the case produced no such finding"
    # Every did-you-mean of the case (whatever its code) has one fix or names its tie.
    for d in produced:
        if d.code not in NOT_STRUCTURED and d.line is not None and _did_you_mean(d):
            tied = "are equally close" in d.hint
            assert len(d.fixes) == (0 if tied else 1), f"{d.code}: {d.hint} {d.fixes}"
    if code in NOT_STRUCTURED:
        return
    for d in found:
        assert d.subject is not None, f"{code}: no subject: {d}"
        assert d.related or code not in MUST_RELATE, f"{code}: no related location: {d}"
        if code in WHOLE_FILE:
            continue
        assert d.line is not None and d.column is not None, f"{code}: no start: {d}"
        assert d.end_line is not None and d.end_column is not None, f"{code}: no end: {d}"
        assert (d.end_line, d.end_column) > (d.line, d.column), f"{code}: empty range: {d}"
        if _did_you_mean(d):
            tied = "are equally close" in d.hint
            assert (len(d.fixes) == 0) if tied else (len(d.fixes) == 1), (
                f"{code}: {d.hint} {d.fixes}"
            )


def test_the_cases_cover_every_code() -> None:
    assert set(CASES) == set(CODES)
