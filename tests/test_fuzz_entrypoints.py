"""Hypothesis over the public entry points: nothing escapes but toskit's own errors.

Every public entry point that takes user input is fed structured random
input built from the real vocabulary (TOSCA keynames, normative type
names, function names, expression tokens, schema keys). The contract
(API.md, DESIGN.md): bad input gives a ``Diagnostic`` or a
``toskit.ToskitError`` subclass — never ``KeyError``, ``TypeError``,
``AttributeError``, ``RecursionError`` or a hang. Each call runs under a
wall-clock alarm so a hang fails the test instead of stalling CI.
"""

from __future__ import annotations

import contextlib
import signal
import string
import textwrap

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import BIG_INTEGERS, plain_scalars

import toskit
from toskit import Diagnostic

FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Hang(Exception):
    """Raised by the alarm: the call under test took too long."""


@contextlib.contextmanager
def bounded(seconds: float = 10.0):
    """Fail (raise ``Hang``) if the block runs longer than ``seconds``."""

    def on_alarm(signum, frame):
        raise Hang(f"no result after {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------

TOP_KEYNAMES = [
    "tosca_definitions_version",
    "description",
    "metadata",
    "imports",
    "repositories",
    "dsl_definitions",
    "data_types",
    "node_types",
    "capability_types",
    "relationship_types",
    "interface_types",
    "artifact_types",
    "group_types",
    "policy_types",
    "functions",
    "topology_template",
    "service_template",
    "profile",
    "node_type",  # a typo
]
VERSIONS = [
    "tosca_simple_yaml_1_3",
    "tosca_simple_yaml_1_0",
    "tosca_simple_unfurl_1_0_0",
    "tosca_2_0",
    "tosca_3_0",
    "",
]
TYPE_KEYNAMES = [
    "derived_from",
    "description",
    "properties",
    "attributes",
    "requirements",
    "capabilities",
    "interfaces",
    "artifacts",
    "metadata",
    "version",
    "constraints",
    "validation",
    "key_schema",
    "entry_schema",
]
PROP_KEYNAMES = [
    "type",
    "description",
    "required",
    "default",
    "status",
    "constraints",
    "validation",
    "key_schema",
    "entry_schema",
    "metadata",
    "value",
]
TEMPLATE_KEYNAMES = [
    "type",
    "description",
    "properties",
    "attributes",
    "requirements",
    "capabilities",
    "interfaces",
    "artifacts",
    "node_filter",
    "copy",
    "count",
    "directives",
    "metadata",
]
TYPE_NAMES = [
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
    "bytes",
    "tosca.nodes.Root",
    "tosca.nodes.DBMS",
    "DBMS",
    "tosca:Compute",
    "tosca.datatypes.Root",
    "tosca.datatypes.Credential",
    "tosca.capabilities.Endpoint",
    "tosca.relationships.HostedOn",
    "T0",
    "T1",
    "T2",
    "D0",
    "D1",
    "Nope",
]
USER_TYPES = ["T0", "T1", "T2", "D0", "D1"]
FUNCTION_NAMES = [
    "concat",
    "join",
    "token",
    "get_input",
    "get_property",
    "get_attribute",
    "get_artifact",
    "value",
    "node_index",
    "and",
    "or",
    "not",
    "xor",
    "equal",
    "greater_than",
    "less_or_equal",
    "valid_values",
    "matches",
    "has_prefix",
    "contains",
    "has_entry",
    "has_key",
    "length",
    "union",
    "intersection",
    "sum",
    "difference",
    "product",
    "quotient",
    "remainder",
    "round",
    "floor",
    "ceil",
    "frobnicate",
    "ns:fn",
]
WORDS = [
    "a",
    "b",
    "SELF",
    "SOURCE",
    "TARGET",
    "CAPABILITY",
    "RELATIONSHIP",
    "ALL",
    "x",
    "port",
    "ip",
    "host",
]

scalars = plain_scalars(
    BIG_INTEGERS,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(WORDS + TYPE_NAMES + ["$myid", "$$x", "$", "2 GB", "1.2.3", "yes", ""]),
    st.text(max_size=8),
)


def function_key(name: str) -> str:
    return "$" + name


def function_values(depth: int = 3):
    """Plain data in which some maps are (possibly malformed) `$` calls."""
    return st.recursive(
        scalars,
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(st.sampled_from(WORDS + ["$$k", "$"]), children, max_size=3),
            st.builds(
                lambda name, args: {function_key(name): args},
                st.sampled_from(FUNCTION_NAMES),
                st.one_of(children, st.lists(children, max_size=4)),
            ),
            st.builds(
                lambda name, args, extra: {function_key(name): args, **extra},
                st.sampled_from(FUNCTION_NAMES),
                st.lists(children, max_size=2),
                st.dictionaries(st.sampled_from(WORDS), children, min_size=1, max_size=2),
            ),
            st.builds(
                lambda name, args: {name: args},
                st.sampled_from(FUNCTION_NAMES),
                st.lists(children, max_size=3),
            ),  # 1.x bare form
            st.builds(lambda name: function_key(name), st.sampled_from(FUNCTION_NAMES)),
        ),
        max_leaves=12,
    )


values = function_values()


def mapping_of(keys, vals, max_size=4):
    return st.dictionaries(st.sampled_from(keys), vals, max_size=max_size)


property_definition = st.one_of(
    mapping_of(
        PROP_KEYNAMES,
        st.one_of(st.sampled_from(TYPE_NAMES), values, st.booleans()),
    ),
    st.builds(
        lambda t, req, d: {"type": t, "required": req, **({"default": d} if d is not None else {})},
        st.sampled_from(TYPE_NAMES),
        st.booleans(),
        values,
    ),
    scalars,
)

type_definition = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "derived_from": st.sampled_from(TYPE_NAMES),
            "description": st.text(max_size=5),
            "properties": st.dictionaries(
                st.sampled_from(["p", "q", "port", "ip", "$$p"]), property_definition, max_size=3
            ),
            "requirements": st.lists(
                st.dictionaries(st.sampled_from(["host", "db"]), values, max_size=1), max_size=2
            ),
        },
    ),
    mapping_of(TYPE_KEYNAMES, values),
    scalars,
)

template_definition = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(TYPE_NAMES)},
        optional={
            "properties": st.dictionaries(
                st.sampled_from(["p", "q", "port", "ip", "endpoint"]), values, max_size=3
            ),
            "requirements": st.lists(
                st.dictionaries(
                    st.sampled_from(["host", "db"]), st.sampled_from(["n0", "n1", "nx"]), max_size=1
                ),
                max_size=2,
            ),
            "count": st.integers(-1, 3),
        },
    ),
    mapping_of(TEMPLATE_KEYNAMES, values),
    scalars,
)

topology = st.fixed_dictionaries(
    {},
    optional={
        "inputs": st.dictionaries(st.sampled_from(["i", "j"]), property_definition, max_size=2),
        "node_templates": st.dictionaries(
            st.sampled_from(["n0", "n1", "n2"]), template_definition, max_size=3
        ),
        "relationship_templates": st.dictionaries(
            st.sampled_from(["r0"]), template_definition, max_size=1
        ),
        "outputs": st.dictionaries(st.sampled_from(["o"]), values, max_size=1),
        "groups": st.dictionaries(st.sampled_from(["g"]), values, max_size=1),
    },
)

tosca_documents = st.fixed_dictionaries(
    {},
    optional={
        "tosca_definitions_version": st.sampled_from(VERSIONS),
        "description": st.one_of(st.text(max_size=5), values),
        "data_types": st.one_of(
            st.dictionaries(st.sampled_from(USER_TYPES), type_definition, max_size=3), scalars
        ),
        "node_types": st.one_of(
            st.dictionaries(st.sampled_from(USER_TYPES), type_definition, max_size=3), scalars
        ),
        "capability_types": st.dictionaries(
            st.sampled_from(USER_TYPES), type_definition, max_size=2
        ),
        "topology_template": st.one_of(topology, scalars),
        "service_template": topology,
        "imports": st.lists(
            st.sampled_from(["missing.yaml", "https://example.invalid/x.yaml", 5]), max_size=1
        ),
        "node_type": values,
        "functions": values,
    },
)


def dump(doc) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def exercise_template(stt) -> None:
    """Touch every public member of a loaded template, as a notebook would."""
    assert isinstance(stt, toskit.ServiceTemplate)
    assert isinstance(stt.ok, bool)
    for diag in stt.diagnostics:
        assert isinstance(diag, Diagnostic)
        assert diag.severity in ("error", "warning", "info")
        assert str(diag)
    assert stt.ok == (not any(d.severity == "error" for d in stt.diagnostics))
    assert isinstance(stt.version, str)
    for name, typ in stt.types.items():
        assert typ.name == name
        typ.ancestors  # noqa: B018 - must not raise
        for prop in typ.properties.values():
            assert isinstance(prop.required, bool)
    for node in stt.node_templates.values():
        node.properties  # noqa: B018
        node.property_table().to_frame()
    dict(stt.inputs)
    repr(stt)
    try:
        stt.raise_for_errors()
    except toskit.TemplateError as err:
        assert not stt.ok
        assert err.diagnostics
    else:
        assert stt.ok


# --------------------------------------------------------------------------
# TOSCA
# --------------------------------------------------------------------------


@FUZZ
@given(tosca_documents)
def test_loads_random_tosca_documents(doc):
    text = dump(doc)
    with bounded():
        stt = toskit.loads(text, name="fuzz.yaml")
        exercise_template(stt)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tosca_documents)
def test_html_of_random_tosca_documents(doc):
    with bounded():
        stt = toskit.loads(dump(doc))
        html = stt._repr_html_()
        assert "<script" not in html.lower()
        for node in stt.node_templates.values():
            assert "<script" not in node._repr_html_().lower()


YAML_ALPHABET = string.ascii_letters[:6] + string.digits[:3] + " :-[]{},'\"&*!|>#%@`?\n\t$~.<="


@FUZZ
@given(
    st.one_of(tosca_documents.map(dump), st.text(alphabet=YAML_ALPHABET, max_size=120)),
    tosca_documents,
)
def test_compare_random_tosca_documents(old_text, new_doc):
    """`toskit.compare` of any two documents: a TemplateDiff in every form (#29)."""
    with bounded():
        old = toskit.loads(old_text, name="old.yaml")
        new = toskit.loads(dump(new_doc), name="new.yaml")
        diff = toskit.compare(old, new)
        assert toskit.compare(new, new).is_same
        assert str(diff) and diff.to_json() and diff._repr_html_()
        diff.to_frame()
        assert "<script" not in diff._repr_html_().lower()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tosca_documents, tosca_documents, st.sampled_from(["text", "json", "html"]))
def test_cli_diff_of_random_documents_exits_0_or_1(old_doc, new_doc, fmt):
    """`toskit diff` of two readable files: 0, or 1 with --fail-on changes; never 2 or a traceback."""
    import io
    import os
    import tempfile

    from toskit import cli

    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, "old.yaml"), os.path.join(tmp, "new.yaml")]
        for path, doc in zip(paths, (old_doc, new_doc)):
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(dump(doc))
        out, err = io.StringIO(), io.StringIO()
        with bounded(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(["diff", *paths, "--format", fmt, "--fail-on", "changes"])
        assert status in (0, 1), err.getvalue()
        assert (status == 0) == (
            old_doc == new_doc or "no changes" in out.getvalue() or '"same": true' in out.getvalue()
        )


yaml_text = st.text(alphabet=YAML_ALPHABET, max_size=120)


@FUZZ
@given(yaml_text)
def test_loads_random_yaml_text(text):
    with bounded():
        exercise_template(toskit.loads(text))


@FUZZ
@given(
    st.lists(
        st.sampled_from(
            [
                "tosca_definitions_version: tosca_simple_yaml_1_3\n",
                "tosca_definitions_version: tosca_2_0\n",
                "node_types:\n",
                "  A:\n",
                "    derived_from: tosca.nodes.Root\n",
                "    properties:\n",
                "      p: {type: integer}\n",
                "      p: {type: string, default: x}\n",
                "topology_template\n",
                "topology_template:\n",
                "  node_templates:\n",
                "    a:\n",
                "      type: A\n",
                "      properties: {p: abc}\n",
                "      properties: {p: {$concat: [a, b]}}\n",
                "x: &a [1, 2]\n",
                "y: *a\n",
                "z: *b\n",
                "<<: {a: 1}\n",
                "? [a, b]\n: 1\n",
                "  \t bad indent\n",
                "- item\n",
                "!!python/object:os.system x\n",
                "key: 'unterminated\n",
            ]
        ),
        max_size=12,
    )
)
def test_loads_random_line_soups(lines):
    with bounded():
        exercise_template(toskit.loads("".join(lines)))


# --------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------


@FUZZ
@given(values, st.sampled_from(["2.0", "1.3", "tosca_simple_unfurl_1_0_0"]))
def test_functions_parse_and_evaluate_random_trees(value, version):
    from toskit import functions

    with bounded():
        try:
            tree = functions.parse(value, version=version)
        except toskit.FunctionSyntaxError as err:
            assert err.diagnostic.code == "malformed-function"
            return
        try:
            functions.evaluate(tree, inputs={"a": 1, "b": [1, 2], "x": {"y": "z"}}, version=version)
        except toskit.FunctionError as err:
            assert isinstance(err.kind, str) and err.kind
            assert err.diagnostic.code in ("function-error", "unknown-function")
        str(tree)
        if version == "2.0":
            assert functions.parse(functions.unparse(tree)) == tree


@FUZZ
@given(values, scalars)
def test_functions_validate_random_clause_data(clause, value):
    """``validate`` also takes clause data as written in YAML (it parses it first)."""
    from toskit import functions

    with bounded():
        try:
            assert functions.validate(clause, value) is None
        except (toskit.FunctionSyntaxError, toskit.FunctionError) as err:
            assert err.diagnostic.code in (
                "malformed-function",
                "function-error",
                "unknown-function",
            )


@FUZZ
@given(st.text(max_size=12))
def test_functions_register_random_names(name):
    from toskit import functions

    with bounded():
        try:
            functions.register(name, lambda *args: None)
        except toskit.ToskitError:
            return
        functions.unregister(name)


# --------------------------------------------------------------------------
# Schema
# --------------------------------------------------------------------------

SCHEMA_KEYS = [
    "scalar",
    "list",
    "map",
    "namedType",
    "elementType",
    "elementRelationship",
    "keys",
    "fields",
    "unions",
    "name",
    "type",
    "default",
    "discriminator",
    "fieldName",
    "discriminatorValue",
    "deduceInvalidDiscriminator",
    "sclar",
]
SCHEMA_WORDS = [
    "numeric",
    "string",
    "boolean",
    "untyped",
    "int",
    "atomic",
    "associative",
    "separable",
    "root",
    "inner",
    "__untyped_atomic_",
    "__untyped_deduced_",
    "name",
    "a",
]

schema_fragment = st.recursive(
    st.one_of(st.sampled_from(SCHEMA_WORDS), st.none(), st.booleans(), st.integers(-2, 2)),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.sampled_from(SCHEMA_KEYS), children, max_size=3),
    ),
    max_leaves=15,
)

field = st.fixed_dictionaries(
    {"name": st.sampled_from(["a", "b", "name", "k"])},
    optional={
        "type": st.one_of(
            st.fixed_dictionaries(
                {"scalar": st.sampled_from(["numeric", "string", "boolean", "untyped"])}
            ),
            st.fixed_dictionaries({"namedType": st.sampled_from(["root", "inner", "nope"])}),
            st.fixed_dictionaries(
                {
                    "list": st.fixed_dictionaries(
                        {
                            "elementType": st.fixed_dictionaries(
                                {"namedType": st.sampled_from(["root", "inner"])}
                            )
                        },
                        optional={
                            "elementRelationship": st.sampled_from(["atomic", "associative"]),
                            "keys": st.lists(st.sampled_from(["name", "k"]), max_size=2),
                        },
                    )
                }
            ),
            schema_fragment,
        ),
        "default": st.one_of(st.none(), st.sampled_from(["x", 1])),
    },
)
type_def = st.fixed_dictionaries(
    {"name": st.sampled_from(["root", "inner"])},
    optional={
        "map": st.fixed_dictionaries(
            {},
            optional={
                "fields": st.lists(field, max_size=4),
                "elementType": st.one_of(st.just({"scalar": "untyped"}), schema_fragment),
                "elementRelationship": st.sampled_from(["separable", "atomic", "associative"]),
            },
        ),
        "scalar": st.sampled_from(["numeric", "string", "untyped", "int"]),
    },
)
schema_documents = st.one_of(
    st.fixed_dictionaries({"types": st.lists(type_def, max_size=3)}),
    st.dictionaries(st.sampled_from(["types"] + SCHEMA_KEYS), schema_fragment, max_size=2),
    schema_fragment,
)
plain_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False),
        st.sampled_from(["a", "x", "name"]),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "name", "k", "zz"]), children, max_size=3),
    ),
    max_leaves=12,
)


@FUZZ
@given(schema_documents, plain_values, plain_values)
def test_schema_random_documents_and_values(doc, lhs, rhs):
    from toskit import schema

    with bounded():
        try:
            s = schema.load(doc)
        except toskit.SchemaError as err:
            assert err.diagnostics
            assert all(isinstance(d, Diagnostic) for d in err.diagnostics)
            return
        for typedef in s.types:
            name = typedef.name
            for value in (lhs, rhs):
                for diag in s.validate(value, name):
                    assert isinstance(diag, Diagnostic) and diag.severity == "error"
            for operation in (s.merge, s.compare):
                with contextlib.suppress(toskit.SchemaError):
                    operation(lhs, rhs, name)
            with contextlib.suppress(toskit.SchemaError):
                s.to_fieldset(lhs, name)
            try:
                s.normalize_union(lhs, rhs, name)
                s.normalize_union_apply(lhs, rhs, name)
            except toskit.SchemaError:
                pass
            s._repr_html_()


@FUZZ
@given(st.text(alphabet="types:- {}[],name\n scalrmp", max_size=80))
def test_schema_random_yaml_text(text):
    from toskit import schema

    with bounded():
        try:
            schema.load(text)
        except toskit.SchemaError as err:
            assert isinstance(str(err), str)


# --------------------------------------------------------------------------
# Conditions
# --------------------------------------------------------------------------

EXPRESSION_TOKENS = [
    "cluster:mode",
    "cluster:nodes",
    "settings:a.b",
    "foo:x",
    "selectedNodes",
    "<node>",
    "<value>",
    "==",
    "!=",
    "<",
    ">=",
    " in ",
    " not ",
    " and ",
    " or ",
    "'multinode'",
    '"x"',
    "'",
    "1",
    "2.5",
    "-3",
    "true",
    "null",
    "(",
    ")",
    ".",
    ",",
    "._length",
    "._pluck('id')",
    "._hasRole('controller')",
    "._withRole('compute')",
    "._afterDeployment",
    "._pending_deletion",
    "._size",
    "=",
    "!",
    ":",
    " ",
    "a",
]
expressions = st.lists(st.sampled_from(EXPRESSION_TOKENS), max_size=10).map("".join)


def make_cluster():
    from toskit import conditions

    return conditions.Cluster(
        mode="multinode",
        nodes=[
            {"id": 1, "roles": ["controller"]},
            {"id": 2, "roles": ["compute"], "pending_deletion": True},
        ],
        pool=[{"id": 11}],
    )


@FUZZ
@given(expressions, st.booleans())
def test_conditions_random_expressions(text, strict):
    from toskit import conditions

    cluster = make_cluster()
    with bounded():
        try:
            expr = conditions.compile_expression(text)
        except toskit.ConditionError as err:
            assert err.kind
            assert err.position is None or 0 <= err.position <= len(text)
            str(err)
            return
        try:
            expr.evaluate(
                cluster=cluster,
                selected=[11],
                variables={"node": {"id": 3}, "value": 2},
                models={"settings": {"a": {"b": [1]}}},
                strict=strict,
            )
        except toskit.ConditionError as err:
            assert err.kind
            str(err)


condition_forms = st.recursive(
    st.one_of(st.booleans(), expressions, st.none(), st.integers(0, 2)),
    lambda children: st.one_of(
        st.fixed_dictionaries(
            {"condition": st.one_of(expressions, st.booleans())},
            optional={"then": children, "else": children, "warning": st.sampled_from(["w", 5])},
        ),
        st.fixed_dictionaries(
            {"all": st.lists(children, max_size=3)}, optional={"warning": st.just("w")}
        ),
        st.fixed_dictionaries({"any": st.lists(children, max_size=3)}),
        st.fixed_dictionaries({"not": children}),
        st.fixed_dictionaries(
            {
                "exists": st.fixed_dictionaries(
                    {
                        "where": st.sampled_from(
                            ["cluster:nodes", "selectedNodes", "cluster:mode"]
                        ),
                        "variable": st.sampled_from(["node", "n", "1x"]),
                        "condition": children,
                    }
                )
            }
        ),
        st.fixed_dictionaries(
            {
                "recommended": st.fixed_dictionaries(
                    {
                        "expression": expressions,
                        "value": st.one_of(st.integers(0, 3), expressions),
                        "warning": st.just("at least <value>"),
                    }
                )
            }
        ),
        st.lists(children, max_size=2),
        st.dictionaries(st.sampled_from(["condition", "then", "bogus"]), children, max_size=2),
    ),
    max_leaves=8,
)


@FUZZ
@given(condition_forms)
def test_conditions_random_condition_trees(condition):
    from toskit import conditions

    cluster = make_cluster()
    with bounded():
        try:
            outcome = conditions.evaluate(condition, cluster, selected=[11])
        except toskit.ToskitError as err:
            str(err)
            return
        assert isinstance(outcome.value, bool)
        assert all(isinstance(w, str) for w in outcome.warnings)
        outcome._repr_html_()


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(["controller", "compute", "cinder"]),
        st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "conflicts": st.one_of(
                        st.just("*"),
                        st.lists(
                            st.sampled_from(["controller", "compute", "ghost", "*"]), max_size=2
                        ),
                    ),
                    "conditions": st.one_of(st.lists(condition_forms, max_size=2), condition_forms),
                    "name": st.text(max_size=4),
                },
            ),
            st.none(),
            st.integers(),
        ),
        max_size=3,
    ),
    st.lists(st.sampled_from(["controller", "compute", "cinder", "ghost"]), max_size=3),
)
def test_conditions_random_roles_documents(roles_doc, assignment):
    from toskit import conditions

    cluster = make_cluster()
    with bounded():
        try:
            roles = conditions.load_roles(dump({"roles_metadata": roles_doc}))
        except toskit.ToskitError as err:
            str(err)
            return
        for name in roles:
            try:
                out = roles.check(name, cluster, selected=[11], selected_roles=assignment)
            except toskit.ToskitError:
                continue
            assert isinstance(out.allowed, bool)
        try:
            roles.check_assignment(assignment)
        except toskit.ToskitError as err:
            str(err)
        roles._repr_html_()


@FUZZ
@given(
    st.lists(
        st.one_of(
            st.fixed_dictionaries(
                {"id": st.one_of(st.integers(0, 4), st.sampled_from(["a", "b"]))},
                optional={
                    "roles": st.one_of(
                        st.lists(st.sampled_from(["controller", "compute"]), max_size=2),
                        st.text(max_size=2),
                    ),
                    "pending_deletion": st.one_of(st.booleans(), st.none()),
                },
            ),
            st.dictionaries(st.sampled_from(["roles", "name"]), st.text(max_size=2), max_size=2),
            st.integers(),
        ),
        max_size=4,
    ),
    st.lists(st.one_of(st.integers(0, 5), st.sampled_from(["a", "zz"])), max_size=3),
)
def test_conditions_random_clusters_and_selections(nodes, selected):
    from toskit import conditions

    with bounded():
        try:
            cluster = conditions.Cluster(mode="multinode", nodes=nodes)
        except toskit.ToskitError as err:
            str(err)
            return
        try:
            conditions.evaluate(
                "selectedNodes._pluck('id')._length >= 0 and cluster:nodes._withRole('controller')._length >= 0",
                cluster,
                selected=selected,
            )
        except toskit.ToskitError as err:
            str(err)
        cluster._repr_html_()


def _nest(kind: str, depth: int) -> str:
    """A flow-style YAML value nested ``depth`` levels deep."""
    if kind == "list":
        return "[" * depth + "1" + "]" * depth
    if kind == "map":
        return "{a: " * depth + "1" + "}" * depth
    if kind == "call-list":
        return "{$get_attribute: [SELF, x, " + "[" * depth + "1" + "]" * depth + "]}"
    return "{$concat: " + "[{$concat: " * depth + "[a]" + "}]" * depth + "}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["list", "map", "call-list", "calls"]), st.integers(1, 150), st.booleans())
def test_loads_moderately_deep_values(kind, depth, two):
    """Values nested well inside the loader's depth bound load, resolve and render."""
    version = "tosca_2_0" if two or kind.startswith("call") else "tosca_simple_yaml_1_3"
    section = "service_template" if version == "tosca_2_0" else "topology_template"
    text = (
        f"tosca_definitions_version: {version}\n"
        "node_types:\n  N:\n    properties:\n      p: {required: false}\n"
        f"{section}:\n  node_templates:\n    a:\n      type: N\n      properties:\n        p: {_nest(kind, depth)}\n"
    )
    with bounded():
        exercise_template(toskit.loads(text))
        toskit.loads(text)._repr_html_()


@FUZZ
@given(
    st.one_of(
        tosca_documents.map(dump),
        yaml_text,
        condition_forms.map(
            lambda c: dump({"roles_metadata": {"controller": {"conditions": [c]}}})
        ),
        schema_documents.map(dump),
    )
)
def test_cli_check_of_any_readable_file_exits_0_or_1(text):
    """`toskit check` on a readable UTF-8 file: 0 or 1, never 2, never a traceback."""
    import io
    import os
    import tempfile

    from toskit import cli

    fd, path = tempfile.mkstemp(suffix=".yaml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        out, err = io.StringIO(), io.StringIO()
        with bounded(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(["check", path])
        assert status in (0, 1), err.getvalue()
        assert (status == 1) == ("error[" in out.getvalue())
    finally:
        os.unlink(path)


# ---- regressions found by fuzzing (kept as plain cases) ----

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"

RECURSIVE_REQUIRED = V13 + textwrap.dedent(
    """\
    data_types:
      D0:
        derived_from: tosca.datatypes.Root
        properties:
          d: {type: D0}
    node_types:
      N:
        derived_from: tosca.nodes.Root
        properties:
          p: {type: D0}
    topology_template:
      node_templates:
        n: {type: N}
    """
)

DEEP_1X = V13 + textwrap.dedent(
    """\
    node_types:
      N:
        derived_from: tosca.nodes.Root
        properties:
          p: {required: false}
    topology_template:
      node_templates:
        a:
          type: N
          properties:
            p: """
)

DEEP_20 = textwrap.dedent(
    """\
    tosca_definitions_version: tosca_2_0
    node_types:
      N:
        properties:
          p: {required: false}
    service_template:
      node_templates:
        a:
          type: N
          properties:
            p: """
)


def test_recursive_required_data_type_is_a_diagnostic_not_a_recursion_error():
    with bounded():
        stt = toskit.loads(RECURSIVE_REQUIRED)
        exercise_template(stt)
    assert not stt.ok
    assert "missing-property" in [d.code for d in stt.diagnostics]


def test_loads_a_list_nested_400_deep_within_the_depth_bound():
    """A 400-deep flow list is under max_depth=500; loads raised RecursionError."""
    for head in (DEEP_1X, DEEP_20):
        with bounded():
            stt = toskit.loads(head + "[" * 400 + "1" + "]" * 400 + "\n")
            exercise_template(stt)


# ---- Robustness tests written from failures the QA pass found (each fixed since). (folded from test_fuzz_entrypoints_more.py) ----


def _touch(stt) -> None:
    for diag in stt.diagnostics:
        assert isinstance(diag, Diagnostic)
    for node in stt.node_templates.values():
        node.properties  # noqa: B018
        node.property_table().to_frame()
    stt._repr_html_()


# ---- functions.validate re-parses an already parsed, call-free tree ----


@settings(max_examples=150, deadline=None)
@given(
    st.recursive(
        st.one_of(st.none(), st.integers(), st.sampled_from(["a", "$$k", "$$value", "$"])),
        lambda c: st.one_of(
            st.lists(c, max_size=3),
            st.dictionaries(st.sampled_from(["a", "$$k", "$$value"]), c, max_size=3),
        ),
        max_leaves=8,
    ),
    st.integers(),
)
def test_functions_validate_parsed_literal_trees(clause, value):
    """A parsed tree is evaluated as it is: its literals are never parsed a second time."""
    from toskit import functions

    tree = functions.parse(clause)
    try:
        functions.validate(tree, value)
    except toskit.FunctionError as err:
        assert err.kind == "ValidationNotBoolean"  # a literal is never a boolean here
    else:
        raise AssertionError("a call-free literal clause is not a boolean")


def test_functions_validate_parsed_escaped_value_is_a_literal():
    from toskit import functions

    tree = functions.parse("$$value")  # the literal string "$value", not a call
    assert tree == "$value"
    try:
        functions.validate(tree, True)
    except toskit.FunctionError as err:
        assert err.kind == "ValidationNotBoolean"
    else:
        raise AssertionError("the literal '$value' was evaluated as the call $value")


def test_functions_validate_parsed_escaped_key_minimal():
    from toskit import functions

    tree = functions.parse({"a": None, "$$k": None})  # -> {"a": None, "$k": None}, no call
    try:
        functions.validate(tree, None)
    except toskit.FunctionError as err:
        assert err.kind == "ValidationNotBoolean"


# ---- recursive data types ----


RECURSIVE_DEFAULT = V13 + textwrap.dedent(
    """\
    data_types:
      D0:
        derived_from: tosca.datatypes.Root
        properties:
          d: {type: D0, default: {d: {}}}
          x: {type: integer, default: 1}
    node_types:
      N:
        derived_from: tosca.nodes.Root
        properties:
          p: {type: D0, default: {}}
    topology_template:
      node_templates:
        n: {type: N}
    """
)


def test_recursive_data_type_with_defaults_loads():
    with bounded():
        stt = toskit.loads(RECURSIVE_DEFAULT)
        _touch(stt)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(
        st.sampled_from(["D0", "D1", "D2"]),
        st.dictionaries(
            st.sampled_from(["a", "b"]),
            st.fixed_dictionaries(
                {"type": st.sampled_from(["D0", "D1", "D2", "integer", "list"])},
                optional={
                    "required": st.booleans(),
                    "default": st.sampled_from([{}, {"a": {}}, 1, None]),
                },
            ),
            max_size=2,
        ),
        min_size=1,
        max_size=3,
    ),
    st.recursive(
        st.integers(0, 3),
        lambda c: st.dictionaries(st.sampled_from(["a", "b"]), c, max_size=2),
        max_leaves=6,
    ),
)
def test_data_types_referring_to_each_other(data_types, value):
    import yaml

    doc = {
        "tosca_definitions_version": "tosca_simple_yaml_1_3",
        "data_types": {
            name: {"derived_from": "tosca.datatypes.Root", "properties": props}
            for name, props in data_types.items()
        },
        "node_types": {
            "N": {"derived_from": "tosca.nodes.Root", "properties": {"p": {"type": "D0"}}}
        },
        "topology_template": {"node_templates": {"n": {"type": "N", "properties": {"p": value}}}},
    }
    with bounded():
        _touch(toskit.loads(yaml.safe_dump(doc)))


# ---- a hostile pattern constraint must not hang the loader ----


def test_catastrophic_pattern_does_not_hang():
    text = V13 + textwrap.dedent(
        """\
        node_types:
          N:
            derived_from: tosca.nodes.Root
            properties:
              s: {type: string, constraints: [{pattern: '(a+)+$'}]}
        topology_template:
          node_templates:
            a: {type: N, properties: {s: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab'}}
        """
    )
    with bounded(5):
        toskit.loads(text)


# ---- values nested within the loader's depth bound (500) must not crash ----


def test_property_table_of_a_deep_unevaluated_call():
    """An unevaluated call holding a 480-deep list: str(call) recursed without bound."""
    text = DEEP_20 + "{$get_attribute: [SELF, x, " + "[" * 480 + "1" + "]" * 480 + "]}\n"
    with bounded():
        stt = toskit.loads(text)
        _touch(stt)


def _deep_call(n):
    value = 1
    for _ in range(n):
        value = {"$concat": [value]}
    return value


def test_functions_str_hash_eq_of_any_parsed_tree():
    """str/hash/== of a parsed tree raised RecursionError. Calls nested past
    the call bound (MAX_CALL_DEPTH, 50) and data past the depth bound
    (toskit.plain.MAX_DEPTH) are clear FunctionSyntaxErrors; trees built by
    hand are not bounded, and str/hash/== of them do not recurse either."""
    from toskit import functions

    tree = functions.parse(_deep_call(50))
    assert str(tree).startswith("$concat")
    assert hash(tree) == hash(functions.parse(_deep_call(50)))
    assert tree == functions.parse(_deep_call(50))

    def built(depth):
        call = functions.Call("concat", [1])
        for _ in range(depth):
            call = functions.Call("concat", [call])
        return call

    for depth in (200, 500):
        assert str(built(depth)).startswith("$concat")
        assert hash(built(depth)) == hash(built(depth))
        assert built(depth) == built(depth)
    with pytest.raises(toskit.FunctionSyntaxError, match="nested more than 50 deep"):
        functions.parse(_deep_call(900))
    deep_data: object = {"$concat": ["x"]}
    for _ in range(900):
        deep_data = [deep_data]
    with pytest.raises(toskit.FunctionSyntaxError, match="nested too deeply"):
        functions.parse(deep_data)


def test_functions_validate_deep_clause_data():
    """validate() on deeply nested clause data raised RecursionError (before parsing)."""
    from toskit import functions

    for depth in (900, 5000):
        with contextlib.suppress(toskit.ToskitError):
            functions.validate(_deep_call(depth), 1)


# ---- wrong argument types to public functions: ToskitError, not a bare TypeError/ValueError ----


def _simulator(arg):
    from toskit import widgets

    return widgets.ClusterSimulator(arg)


def test_misused_entry_points_raise_toskit_errors():
    """Low priority (programming errors, not template errors), but API.md promises ToskitError."""
    import pytest

    from toskit import dsl, functions

    calls = {
        "load(None)": lambda: toskit.load(None),
        "loads(max_depth=-1)": lambda: toskit.loads("a: 1", max_depth=-1),
        "loads(bogus=1)": lambda: toskit.loads("a: 1", bogus=1),
        "Call('x', 5)": lambda: functions.Call("x", 5),
        "dsl.load_module(None)": lambda: dsl.load_module(None),
        "ClusterSimulator(roles YAML text)": lambda: _simulator("a: {}\nb: {}\n"),
        "ClusterSimulator(ServiceTemplate)": lambda: _simulator(toskit.loads("")),
    }
    bare = {}
    for name, call in calls.items():
        try:
            call()
        except toskit.ToskitError:
            pass
        except Exception as exc:  # noqa: BLE001 - collecting what escapes
            bare[name] = type(exc).__name__
    if bare:
        pytest.fail(f"bare exceptions: {bare}")


def test_dsl_module_calling_sys_exit_is_a_diagnostic(tmp_path):
    """A module that calls sys.exit() ends the caller's process (SystemExit escapes load_module)."""
    from toskit import dsl

    path = tmp_path / "exits.py"
    path.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    try:
        stt = dsl.load_module(str(path))
    except toskit.ToskitError:
        return
    assert not stt.ok


def test_input_defaults_that_refer_to_each_other_are_reported():
    """Input defaults calling $get_input in a loop: the property silently holds a Call."""
    text = textwrap.dedent(
        """\
        tosca_definitions_version: tosca_2_0
        node_types:
          N:
            properties:
              p: {type: string}
        service_template:
          inputs:
            i: {type: string, default: {$get_input: j}}
            j: {type: string, default: {$get_input: i}}
          node_templates:
            a: {type: N, properties: {p: {$get_input: i}}}
        """
    )
    stt = toskit.loads(text)
    assert not stt.ok, stt.node_templates["a"].properties
