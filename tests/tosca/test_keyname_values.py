"""The value of every keyname TOSCA fixes is checked (issue #38 items 1-5, 8).

One table per grammar (``grammar.VALUE_KINDS_1`` / ``VALUE_KINDS_2``) gives
each keyname's value kind: booleans (``required``, 2.0 ``optional``) are
YAML 1.2 booleans, enumerated keynames (``status``) take one of their
values, string keynames (``namespace_prefix``, ``namespace_uri``, ``url``,
``file``…) are strings, type names are names. A finding sits at the value.
"""

from __future__ import annotations

import copy
import itertools
import re
from pathlib import Path

import pytest
import yaml

import toskit
from toskit.tosca.load.grammar import VALUE_KINDS_1, VALUE_KINDS_2, Value

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"
V10 = "tosca_definitions_version: tosca_simple_yaml_1_0\n"
V2 = "tosca_definitions_version: tosca_2_0\n"
ROOT = {V13: "tosca.nodes.Root", V10: "tosca.nodes.Root", V2: "Root"}
TOPOLOGY = {V13: "topology_template", V10: "topology_template", V2: "service_template"}
GRAMMARS = pytest.mark.parametrize("version", [V13, V2], ids=["1.3", "2.0"])
FIXTURES = Path(__file__).parent / "fixtures"


def _node_type(version: str, props: str, template_props: str = "") -> str:
    """A node type N with ``props`` (lines under ``properties:``) and a template of it."""
    return (
        version
        + f"node_types:\n  N:\n    derived_from: {ROOT[version]}\n    properties:\n"
        + props
        + f"{TOPOLOGY[version]}:\n  node_templates:\n    n:\n      type: N\n"
        + (f"      properties:\n{template_props}" if template_props else "")
    )


def _findings(text: str, code: str = "invalid-definition") -> list[toskit.Diagnostic]:
    return [d for d in toskit.loads(text).diagnostics if d.code == code]


def _at(text: str, diag: toskit.Diagnostic) -> str:
    """The text the finding points at (its line from its column)."""
    assert diag.line is not None and diag.column is not None
    return text.splitlines()[diag.line - 1][diag.column - 1 :]


# ---- item 1: booleans -------------------------------------------------------


@pytest.mark.parametrize("version", [V10, V13, V2], ids=["1.0", "1.3", "2.0"])
@pytest.mark.parametrize(
    ("written", "hint"),
    [
        ("no", "write false"),
        ("0", "write false"),
        ('"no"', "write false"),
        ("off", "write false"),
        ("N", "write false"),
        ("maybe", None),
        ("[false]", None),
    ],
)
def test_required_must_be_a_boolean_and_a_bad_one_is_not_true(
    version: str, written: str, hint
) -> None:
    """INDIGO's ``required: no``: one finding at the value, no missing-property anywhere."""
    text = _node_type(
        version,
        f"      uris: {{type: list, entry_schema: {{type: string}}, required: {written}}}\n",
    )
    st = toskit.loads(text)
    [diag] = [d for d in st.diagnostics if d.code == "invalid-definition"]
    assert diag.severity == "error"
    assert "'required' must be a boolean (true or false)" in diag.message
    assert _at(text, diag).startswith(written)
    assert (diag.hint or "").startswith(hint) if hint else diag.hint is None
    assert "missing-property" not in [d.code for d in st.diagnostics]
    assert st.types["N"].properties["uris"].required is False


@GRAMMARS
def test_a_yaml_1_1_true_is_reported_and_read_as_meant(version: str) -> None:
    text = _node_type(version, "      p: {type: string, required: yes}\n")
    st = toskit.loads(text)
    assert [d.code for d in st.diagnostics] == ["invalid-definition", "missing-property"]
    assert st.diagnostics[0].hint.startswith("write true")


@GRAMMARS
def test_a_bad_boolean_beside_a_default_is_still_reported(version: str) -> None:
    text = _node_type(version, "      p: {type: string, required: no, default: x}\n")
    [diag] = _findings(text)
    assert _at(text, diag).startswith("no")


@GRAMMARS
def test_every_boolean_keyname_of_the_grammar(version: str) -> None:
    """Input (parameter) definitions, data type fields, and 2.0's requirement ``optional``."""
    text = (
        version
        + "data_types:\n  D:\n    derived_from: "
        + ("tosca.datatypes.Root" if version != V2 else "Root")
        + "\n    properties:\n      f: {type: string, required: 'yes'}\n"
        + f"{TOPOLOGY[version]}:\n  inputs:\n    i: {{type: string, required: off, default: x}}\n"
        + "  node_templates:\n    a:\n      type: "
        + ("tosca.nodes.Root" if version != V2 else "Root")
        + "\n"
    )
    found = _findings(text)
    assert [d.message.split(" must")[0] for d in found] == ["'required'", "'required'"]
    if version == V2:
        text2 = (
            V2 + "node_types:\n  N:\n    derived_from: Root\n    requirements:\n"
            "      - dep: {capability: Node, relationship: DependsOn}\n"
            "service_template:\n  node_templates:\n    b: {type: Root}\n    a:\n      type: N\n"
            "      requirements:\n        - dep: {node: b, optional: no}\n"
        )
        [diag] = _findings(text2)
        assert "'optional' must be a boolean" in diag.message and diag.hint.startswith(
            "write false"
        )
    assert {
        k
        for k, v in (VALUE_KINDS_2 if version == V2 else VALUE_KINDS_1).items()
        if isinstance(v, Value) and v.kind == "boolean"
    } == ({"required", "optional"} if version == V2 else {"required"})


# ---- item 2: enumerated keynames --------------------------------------------


@GRAMMARS
@pytest.mark.parametrize("where", ["property", "attribute", "input"])
def test_status_must_be_one_of_its_values(version: str, where: str) -> None:
    definition = "{type: string, status: bogus}"
    if where == "input":
        text = (
            version + f"{TOPOLOGY[version]}:\n  inputs:\n    i: {definition}\n"
            f"  node_templates:\n    a: {{type: {ROOT[version]}}}\n"
        )
    else:
        section = "properties" if where == "property" else "attributes"
        text = (
            version + f"node_types:\n  N:\n    derived_from: {ROOT[version]}\n"
            f"    {section}:\n      p: {definition}\n"
        )
    [diag] = _findings(text)
    assert diag.message == (
        "'status' must be one of 'supported', 'unsupported', 'experimental', 'deprecated', "
        "got string 'bogus'"
    )
    assert _at(text, diag).startswith("bogus")


@GRAMMARS
def test_status_values_are_accepted_and_misspellings_hinted(version: str) -> None:
    for status in ("supported", "unsupported", "experimental", "deprecated", "SUPPORTED"):
        assert (
            _findings(
                _node_type(
                    version, f"      p: {{type: string, status: {status}, required: false}}\n"
                )
            )
            == []
        )
    [diag] = _findings(
        _node_type(version, "      p: {type: string, status: deprecate, required: false}\n")
    )
    assert diag.hint == "did you mean 'deprecated'?"


# ---- item 3: keynames whose value is a string (and other kinds) ----------------

CASES_1 = [
    (
        "imports:\n  - {file: t.yaml, namespace_prefix: {ns: test}}\n",
        "namespace_prefix",
        "a string",
    ),
    ("imports:\n  - {file: t.yaml, namespace_uri: [a, b]}\n", "namespace_uri", "a string"),
    ("imports:\n  - {file: {a: b}}\n", "file", "a string"),
    ("namespace: {name: x}\n", "namespace", "a string"),
    ("template_author: [me]\n", "template_author", "a string"),
    ("node_types:\n  N: {derived_from: 5}\n", "derived_from", "a type name"),
    (
        "node_types:\n  N:\n    derived_from: tosca.nodes.Root\n    artifacts:\n"
        "      a: {type: tosca.artifacts.File, file: a.txt, deploy_path: [x]}\n",
        "deploy_path",
        "a string",
    ),
    (
        "artifact_types:\n  A: {derived_from: tosca.artifacts.Root, mime_type: 5}\n",
        "mime_type",
        "a string",
    ),
    (
        "artifact_types:\n  A: {derived_from: tosca.artifacts.Root, file_ext: txt}\n",
        "file_ext",
        "a list of names",
    ),
    (
        "group_types:\n  G: {derived_from: tosca.groups.Root, members: tosca.nodes.Root}\n",
        "members",
        "a list of names",
    ),
    (
        "interface_types:\n  I:\n    derived_from: tosca.interfaces.Root\n    op:\n"
        "      implementation: {primary: a.sh, timeout: '10'}\n",
        "timeout",
        "an integer",
    ),
]
CASES_2 = [
    ("imports:\n  - {url: t.yaml, namespace: {ns: test}}\n", "namespace", "a string"),
    ("imports:\n  - {url: [t.yaml]}\n", "url", "a string"),
    ("imports:\n  - {profile: {a: b}}\n", "profile", "a string"),
    ("profile: 5\n", "profile", "a string"),
    ("node_types:\n  N: {derived_from: [Root]}\n", "derived_from", "a type name"),
    ("repositories:\n  r: {url: 5}\n", "url", "a string"),
    (
        "data_types:\n  Mass: {derived_from: scalar, data_type: 5, units: {kg: 1}}\n",
        "data_type",
        "a type name",
    ),
    ("policy_types:\n  P: {derived_from: Root, targets: Root}\n", "targets", "a list of names"),
]


@pytest.mark.parametrize(("body", "keyname", "kind"), CASES_1, ids=[c[1] for c in CASES_1])
def test_1x_keyname_values(body: str, keyname: str, kind: str) -> None:
    text = V13 + body
    found = [d for d in _findings(text) if f"'{keyname}' must be" in d.message]
    assert len(found) == 1, [str(d) for d in toskit.loads(text).diagnostics]
    assert f"'{keyname}' must be {kind}, got " in found[0].message


@pytest.mark.parametrize(("body", "keyname", "kind"), CASES_2, ids=[c[1] for c in CASES_2])
def test_2_0_keyname_values(body: str, keyname: str, kind: str) -> None:
    text = V2 + body
    found = [d for d in _findings(text) if f"'{keyname}' must be" in d.message]
    assert len(found) == 1, [str(d) for d in toskit.loads(text).diagnostics]
    assert f"'{keyname}' must be {kind}, got " in found[0].message


def test_one_table_per_grammar() -> None:
    """1.x import keynames are not 2.0's: there they are unknown, not mistyped."""
    st = toskit.loads(V2 + "imports:\n  - {url: t.yaml, namespace_prefix: {ns: test}}\n")
    assert "unknown-keyname" in [d.code for d in st.diagnostics]
    assert "namespace_prefix" in VALUE_KINDS_1 and "namespace_prefix" not in VALUE_KINDS_2
    assert "profile" in VALUE_KINDS_2 and "profile" not in VALUE_KINDS_1


@GRAMMARS
def test_description_of_a_map_is_caught_at_the_same_places(version: str) -> None:
    """The gap the issue names: ``description: {a: b}`` was caught, string keynames were not."""
    for body in (
        "repositories:\n  r: {url: http://x, description: {a: b}}\n",
        "repositories:\n  r: {url: http://x, metadata: x}\n",
    ):
        found = _findings(version + body)
        assert len(found) == 1 and " must be a" in found[0].message, found


# ---- item 4: a new property needs a type --------------------------------------


@GRAMMARS
@pytest.mark.parametrize("kind", ["node", "data", "capability", "relationship"])
def test_a_new_property_without_type_is_an_error(version: str, kind: str) -> None:
    parent = {
        ("node", V13): "tosca.nodes.Root",
        ("node", V2): "Root",
        ("data", V13): "tosca.datatypes.Root",
        ("data", V2): "Root",
        ("capability", V13): "tosca.capabilities.Root",
        ("capability", V2): "Root",
        ("relationship", V13): "tosca.relationships.Root",
        ("relationship", V2): "Root",
    }[(kind, version)]
    text = (
        version + f"{kind}_types:\n  T:\n    derived_from: {parent}\n    properties:\n"
        "      p: {description: no type}\n      q:\n      r: {type: string}\n"
    )
    found = [d for d in toskit.loads(text).diagnostics if d.code == "missing-type"]
    assert [(d.severity, d.message) for d in found] == [
        ("error", f"{kind} type 'T': property 'p' has no type"),
        ("error", f"{kind} type 'T': property 'q' has no type"),
    ]
    assert _at(text, found[0]).startswith("p:")


@GRAMMARS
def test_a_refinement_may_leave_out_the_type(version: str) -> None:
    text = (
        version + f"node_types:\n  A:\n    derived_from: {ROOT[version]}\n    properties:\n"
        "      p: {type: integer, required: false}\n"
        "  B:\n    derived_from: A\n    properties:\n      p: {default: 3}\n"
        f"{TOPOLOGY[version]}:\n  node_templates:\n    b: {{type: B}}\n"
    )
    st = toskit.loads(text)
    assert st.diagnostics == [], [str(d) for d in st.diagnostics]
    assert st.node_templates["b"].properties == {"p": 3}


def test_unfurls_dialect_and_an_unknown_parent_may_leave_out_the_type() -> None:
    unfurl = "tosca_definitions_version: tosca_simple_unfurl_1_0_0\n"
    assert (
        toskit.loads(
            unfurl + "node_types:\n  N:\n    properties:\n      p: {default: 1}\n"
        ).diagnostics
        == []
    )
    opaque = (
        V2 + "imports:\n  - {profile: com.example.missing:1.0, namespace: x}\n"
        "node_types:\n  N:\n    derived_from: x:Base\n    properties:\n      p: {default: 1}\n"
    )
    assert "missing-type" not in [d.code for d in toskit.loads(opaque).diagnostics]


# ---- item 5: no Python reprs in messages -------------------------------------


@GRAMMARS
def test_an_empty_type_says_it_must_be_a_type_name(version: str) -> None:
    text = _node_type(version, "      p: {type: , required: false}\n")
    st = toskit.loads(text)
    [diag] = [d for d in st.diagnostics if d.severity == "error"]
    assert diag.message == "'type' must be a type name, got null"
    text = version + f"{TOPOLOGY[version]}:\n  node_templates:\n    a: {{type: }}\n"
    [diag] = [d for d in toskit.loads(text).diagnostics if d.severity == "error"]
    assert diag.message == "'type' must be a type name, got null"


# Python reprs and type names where YAML has its own words (null, true, map).
LEAK = re.compile(
    r"\bNone\b|\bTrue\b|\bFalse\b|<class|\bNoneType\b|\bdict\b|\bstr\b|\bbool\b|\bint\b"
)


def _paths(value, prefix=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


@pytest.mark.parametrize("fixture", ["all_keynames_1_3.yaml", "all_keynames_2_0.yaml"])
def test_no_message_shows_a_python_repr(fixture: str) -> None:
    """Every keyname of the grammar (each distinct one, once) is given null, true,
    a map and a list, ten at a time; no message or hint may show a Python repr."""
    base = yaml.safe_load((FIXTURES / fixture).read_text(encoding="utf-8"))
    seen: set[object] = set()
    paths = []
    for path in _paths(base):
        name = path[-1]
        if isinstance(name, int) or name in seen or path[0] == "tosca_definitions_version":
            continue
        seen.add(name)
        paths.append(path)
    assert len(paths) > 80  # the fixture writes every keyname
    messages: list[str] = []
    for bad in (None, True, {"k": "v"}, [1, 2]):
        for start in range(0, len(paths), 10):
            doc = copy.deepcopy(base)
            for path in paths[start : start + 10]:
                target = doc
                for part in path[:-1]:  # an earlier path of the chunk may have replaced a parent
                    if isinstance(target, dict):
                        target = target.get(part)
                    elif isinstance(target, list) and isinstance(part, int) and part < len(target):
                        target = target[part]
                    else:
                        target = None
                if isinstance(target, dict) and path[-1] in target:
                    target[path[-1]] = copy.deepcopy(bad)
            st = toskit.loads(yaml.safe_dump(doc, sort_keys=False))
            messages += [m for d in st.diagnostics for m in (d.message, d.hint or "")]
    assert len(messages) > 100
    leaks = sorted({m for m in messages if LEAK.search(m)})
    assert leaks == []


@pytest.mark.parametrize(
    "text",
    [
        V13 + "imports:\n  - {file: }\n",
        V2 + "imports:\n  - \n",
        V13 + "topology_template:\n  node_templates:\n    a: {type: tosca.nodes.Root, copy: }\n",
        V2 + "service_template:\n  node_templates:\n    a: {type: Root}\n    b: {copy: true}\n",
        V2 + "node_types:\n  N:\n    derived_from: Root\n    properties:\n"
        "      p: {type: string, validation: {a: b}}\n",
        V2 + "service_template:\n  node_templates:\n    a:\n      type: Root\n"
        "      properties: {x: {$get_property: [true, p]}}\n",
        V13 + "node_types:\n  N:\n    derived_from: true\n",
        V2 + "data_types:\n  M: {derived_from: scalar, canonical_unit: {a: 1}, units: {a: 1}}\n",
        V2
        + "repositories:\n  r: {url: http://x}\nimports:\n  - {url: a.yaml, repository: {a: b}}\n",
        V13 + "imports:\n  - {file: a.yaml, repository: [r]}\n",
        V2 + "node_types:\n  5: {derived_from: Root}\n  ~: {derived_from: Root}\n",
        V13 + "topology_template:\n  inputs:\n    i: {type: {a: b}}\n  node_templates:\n"
        "    a: {type: tosca.nodes.Root}\n",
    ],
    ids=[
        "1x-empty-import",
        "2.0-empty-import",
        "copy-null",
        "copy-true",
        "validation-map",
        "path-true",
        "derived-from-true",
        "canonical-unit-map",
        "repository-map",
        "repository-list",
        "type-names",
        "input-type-map",
    ],
)
def test_bad_templates_give_yaml_words_not_python_reprs(text: str) -> None:
    st = toskit.loads(text)
    assert not st.ok
    shown = [m for d in st.diagnostics for m in (d.message, d.hint or "")]
    assert [m for m in shown if LEAK.search(m)] == [], shown


# ---- item 8: messages ----------------------------------------------------------


@GRAMMARS
def test_articles_and_assignments(version: str) -> None:
    text = (
        version + f"node_types:\n  N:\n    derived_from: {ROOT[version]}\n    interfaces:\n"
        "      Standard:\n        type: "
        + ("tosca.interfaces.node.lifecycle.Standard" if version != V2 else "Standard")
        + "\n        operations:\n          create: [1]\n"
        f"{TOPOLOGY[version]}:\n  node_templates:\n    n:\n      type: N\n      interfaces:\n"
        "        Standard:\n          operations:\n            create: [x]\n"
        "            configure: {bogus: 1}\n"
    )
    messages = [d.message for d in _findings(text)] + [
        d.message for d in _findings(text, "unknown-keyname")
    ]
    assert "an operation definition must be a map, got list [1]" in messages
    assert "an operation assignment must be a map, got list ['x']" in messages
    assert "unknown keyname 'bogus' in operation assignment" in messages
    assert not any(re.search(r"\ba [aeiou]", m) for m in messages)


@GRAMMARS
@pytest.mark.parametrize(
    "where",
    ["top", "type", "property", "template", "import"],
)
def test_an_empty_description_is_a_warning(version: str, where: str) -> None:
    body = {
        "top": "description:\n",
        "type": f"node_types:\n  N:\n    derived_from: {ROOT[version]}\n    description:\n",
        "property": f"node_types:\n  N:\n    derived_from: {ROOT[version]}\n    properties:\n"
        "      p: {type: string, required: false, description: }\n",
        "template": f"{TOPOLOGY[version]}:\n  node_templates:\n    a:\n      type: {ROOT[version]}\n"
        "      description:\n",
        "import": "repositories:\n  r: {url: http://x, description: }\n",
    }[where]
    st = toskit.loads(version + body)
    found = [d for d in st.diagnostics if "description" in d.message]
    assert [(d.severity, d.message) for d in found] == [
        ("warning", "'description' is empty (null)")
    ]
    if where != "import":
        assert st.ok


def test_the_value_kinds_cover_the_issue_keynames() -> None:
    for table in (VALUE_KINDS_1, VALUE_KINDS_2):
        assert all(isinstance(v, Value) for v in table.values())
    kinds = {k: v.kind for k, v in VALUE_KINDS_1.items() if isinstance(v, Value)}
    assert {
        kinds[k] for k in ("namespace_prefix", "namespace_uri", "namespace", "file", "url")
    } == {"string"}
    assert kinds["status"] == "choice" and kinds["required"] == "boolean"
    assert list(itertools.islice(VALUE_KINDS_2, 1)) == ["description"]


def test_2_0_directives_are_enumerated() -> None:
    """A node template's directives (create, select, substitute) and a capability
    assignment's (internal, external); 1.x leaves directives open (dialects add their own)."""
    text = (
        V2 + "service_template:\n  node_templates:\n    a: {type: Root, directives: [selct]}\n"
        "    b: {type: Root, directives: [select, substitute, CREATE]}\n"
        "    c:\n      type: Root\n      capabilities:\n        feature: {directives: [inside]}\n"
    )
    found = _findings(text)
    assert [(d.line, d.hint) for d in found] == [(4, "did you mean 'select'?"), (9, None)]
    assert found[1].message.startswith("'directives' must be a list of 'internal', 'external'")
    v1 = (
        V13
        + "topology_template:\n  node_templates:\n    a: {type: tosca.nodes.Root, directives: [dependent]}\n"
    )
    assert _findings(v1) == []
