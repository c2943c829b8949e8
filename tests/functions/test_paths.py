"""TOSCA paths over an in-memory template graph: V11–V19, V53, V54 and 1.x §4.1."""

from __future__ import annotations

import pytest
import yaml

from toskit.functions import Call, FunctionError, evaluate, parse
from toskit.functions.context import NodeView, RelationshipView, TemplateContext
from toskit.functions.memory import MemoryTemplate


@pytest.fixture()
def graph() -> MemoryTemplate:
    """WordPress on MySQL, as the TOSCA examples draw it."""
    tpl = MemoryTemplate(
        inputs={"db_name": "wp"},
        input_types={"db_name": "string"},
        derived={"my.Version": "version"},
    )
    dbms = tpl.add_node(
        "mysql_dbms",
        {
            "admin_credential": {"user": "root", "token": "s3cret"},
            "root_password": "pw",
            "value": "dbms-value",
        },
        {"admin_credential": "tosca.datatypes.Credential", "root_password": "string"},
        attributes=["state"],
    )
    dbms.add_capability("host", {"num_cpus": 2})
    db = tpl.add_node(
        "mysql_database",
        {"name": "sql_database1", "version": "1.10.0", "declared_only": toskit_no_default()},
        {"name": "string", "version": "my.Version", "declared_only": "string"},
        artifacts={"zip": "/data/db.zip"},
    )
    db.add_capability("database_endpoint", {"port": 3306, "protocol": "tcp"})
    tpl.connect(db, "host", dbms, capability="host")
    wordpress = tpl.add_node(
        "wordpress",
        {"db_name": parse({"$get_property": ["mysql_database", "name"]}), "admin": "me"},
        {"db_name": "string", "admin": "string"},
        artifacts={"zip": "/data/wordpress.zip"},
    )
    tpl.connect(
        wordpress,
        "database_endpoint",
        db,
        capability="database_endpoint",
        properties={"timeout": 30},
    )
    tpl.connect(
        wordpress,
        "database_endpoint",
        db,
        capability="database_endpoint",
        properties={"timeout": 60},
    )
    tpl.connect(wordpress, "host", dbms, capability="host")
    primary = tpl.add_node("primary")
    primary.add_capability("host", {"address": "10.0.0.1"})
    tpl.add_node("web", {"name": "web-server"}, {"name": "string"}, count=3)
    tpl.add_relationship_template(
        "my_connection", wordpress, dbms, capability="host", properties={"value": "rel-value"}
    )
    return tpl


def toskit_no_default():
    from toskit import NO_DEFAULT

    return NO_DEFAULT


def run(graph: MemoryTemplate, text: str, self_name: str | None = "wordpress", **kw):
    tree = parse(yaml.safe_load(text), kw.pop("version", "2.0"))
    entity = graph.node(self_name) if self_name else None
    if "self_entity" in kw:
        entity = kw.pop("self_entity")
    return evaluate(tree, graph.input_values, context=graph, self_entity=entity, **kw)


def error(
    graph: MemoryTemplate, text: str, self_name: str | None = "wordpress", **kw
) -> FunctionError:
    with pytest.raises(FunctionError) as info:
        run(graph, text, self_name, **kw)
    return info.value


def test_memory_graph_satisfies_the_protocols(graph: MemoryTemplate) -> None:
    assert isinstance(graph, TemplateContext)
    assert isinstance(graph.node("wordpress"), NodeView)
    assert isinstance(graph.node("wordpress").requirements()[0], RelationshipView)


PATHS = [
    ("V11", "{ $get_property: [ mysql_database, name ] }", "sql_database1"),
    (
        "V12",
        "{ $get_property: [ SELF, RELATIONSHIP, database_endpoint, 0, CAPABILITY, port ] }",
        3306,
    ),
    (
        "V13",
        "{ $get_property: [ SELF, RELATIONSHIP, database_endpoint, TARGET, RELATIONSHIP, host,"
        " TARGET, admin_credential ] }",
        {"user": "root", "token": "s3cret"},
    ),
    ("V15", "{ $get_property: [ primary, CAPABILITY, host, address ] }", "10.0.0.1"),
    ("V19", "{ $get_property: [ web, ALL, name ] }", ["web-server"] * 3),
    (
        "steps",
        "{ $get_property: [ SELF, RELATIONSHIP, database_endpoint, TARGET, RELATIONSHIP, host,"
        " TARGET, admin_credential, user ] }",
        "root",
    ),
    (
        "relationship-props",
        "{ $get_property: [ SELF, RELATIONSHIP, database_endpoint, 1, timeout ] }",
        60,
    ),
    (
        "relationship-ALL",
        "{ $get_property: [ SELF, RELATIONSHIP, database_endpoint, ALL, timeout ] }",
        [30, 60],
    ),
    ("node-index", "{ $get_property: [ web, 2, name ] }", "web-server"),
    (
        "incoming-via-capability",
        "{ $get_property: [ mysql_database, CAPABILITY, database_endpoint, RELATIONSHIP, 1, timeout ] }",
        60,
    ),
    (
        "incoming-ALL-source",
        "{ $get_property: [ mysql_dbms, CAPABILITY, host, RELATIONSHIP, ALL, SOURCE, RELATIONSHIP, host,"
        " TARGET, root_password ] }",
        ["pw", "pw"],
    ),
    (
        "rel-target-capability",
        "{ $get_property: [ SELF, RELATIONSHIP, host, CAPABILITY, num_cpus ] }",
        2,
    ),
    (
        "rel-capability-relationship",
        "{ $get_property: [ SELF, RELATIONSHIP, host, CAPABILITY, RELATIONSHIP, 1, SOURCE, admin ] }",
        "me",
    ),
    ("source", "{ $get_property: [ SELF, RELATIONSHIP, host, SOURCE, admin ] }", "me"),
    ("lazily-evaluated-property", "{ $get_property: [ SELF, db_name ] }", "sql_database1"),
    ("relationship-template", "{ $get_property: [ my_connection, value ] }", "rel-value"),
    (
        "relationship-template-target",
        "{ $get_property: [ my_connection, TARGET, value ] }",
        "dbms-value",
    ),
    ("V54-artifact", "{ $get_artifact: [ SELF, zip ] }", "/data/wordpress.zip"),
    (
        "artifact-other-node",
        "{ $get_artifact: [ SELF, RELATIONSHIP, database_endpoint, TARGET, zip ] }",
        "/data/db.zip",
    ),
    ("attribute-property", "{ $get_attribute: [ mysql_database, name ] }", "sql_database1"),
    ("node_index-in-node", "$node_index", 0),
    ("get_input-in-template", "{ $get_input: db_name }", "wp"),
]


@pytest.mark.parametrize(("text", "expected"), [pytest.param(t, e, id=i) for i, t, e in PATHS])
def test_paths(graph: MemoryTemplate, text: str, expected: object) -> None:
    assert run(graph, text) == expected


def test_all_fans_out_and_every_branch_must_resolve(graph: MemoryTemplate) -> None:
    # Incoming host relationships of mysql_dbms: from mysql_database and wordpress;
    # only mysql_database has the database_endpoint capability.
    err = error(
        graph,
        "{ $get_property: [ mysql_dbms, CAPABILITY, host, RELATIONSHIP, ALL, SOURCE,"
        " CAPABILITY, database_endpoint, port ] }",
    )
    assert err.kind == "PathError" and "wordpress" in str(err)


def test_v14_self_in_a_relationship_template(graph: MemoryTemplate) -> None:
    rel = graph.relationship_template("my_connection")
    assert run(graph, "{ $get_property: [ SELF, TARGET, value ] }", self_entity=rel) == "dbms-value"
    assert run(graph, "{ $get_property: [ SELF, value ] }", self_entity=rel) == "rel-value"
    assert run(graph, "{ $get_property: [ SELF, CAPABILITY, num_cpus ] }", self_entity=rel) == 2


V17 = [
    ("self-nope", "{ $get_property: [ SELF, nope ] }", ["nope", "wordpress"]),
    ("ghost-node", "{ $get_property: [ ghost_node, x ] }", ["ghost_node"]),
    ("no-requirement", "{ $get_property: [ SELF, RELATIONSHIP, nope ] }", ["nope", "requirement"]),
    (
        "no-capability",
        "{ $get_property: [ primary, CAPABILITY, nope, x ] }",
        ["nope", "capability"],
    ),
    ("index-out-of-range", "{ $get_property: [ web, 3, name ] }", ["3"]),
    (
        "rel-index-out-of-range",
        "{ $get_property: [ SELF, RELATIONSHIP, database_endpoint, 5, timeout ] }",
        ["5"],
    ),
    (
        "declared-without-value",
        "{ $get_property: [ mysql_database, declared_only ] }",
        ["no value"],
    ),
    ("step-missing", "{ $get_property: [ mysql_database, name, x ] }", ["x"]),
    ("V54-nozip", "{ $get_artifact: [ SELF, nozip ] }", ["nozip"]),
    ("allocation-not-capability", "{ $available_allocation: [ SELF, num_cpus ] }", ["capability"]),
    (
        "allocation-no-property",
        "{ $available_allocation: [ mysql_dbms, CAPABILITY, host, nope ] }",
        ["nope"],
    ),
]


@pytest.mark.parametrize(("text", "words"), [pytest.param(t, w, id=i) for i, t, w in V17])
def test_v17_path_errors_name_the_missing_piece(
    graph: MemoryTemplate, text: str, words: list
) -> None:
    err = error(graph, text)
    assert err.kind == "PathError"
    assert err.diagnostic.code == "function-error"
    for word in words:
        assert word in str(err)


def test_did_you_mean_on_path_errors(graph: MemoryTemplate) -> None:
    assert error(graph, "{ $get_property: [ wordpres, admin ] }").diagnostic.hint == (
        "did you mean 'wordpress'?"
    )
    assert (
        error(graph, "{ $get_property: [ SELF, admn ] }").diagnostic.hint == "did you mean 'admin'?"
    )


def test_p29_get_attribute_on_a_non_property_stays_a_call(graph: MemoryTemplate) -> None:
    text = (
        "{ $concat: [ 'http://', $get_attribute: [ mysql_dbms, public_address ], ':',"
        " $get_attribute: [ mysql_dbms, state ] ] }"
    )
    tree = parse(yaml.safe_load(text))
    assert evaluate(tree, context=graph, self_entity=graph.node("wordpress")) is tree


def test_v53_available_allocation_stays_unevaluated(graph: MemoryTemplate) -> None:
    tree = parse(yaml.safe_load("{ $available_allocation: [ SELF, CAPABILITY, host, num_cpus ] }"))
    assert evaluate(tree, context=graph, self_entity=graph.node("mysql_dbms")) is tree


def test_relationship_index_stays_unevaluated_in_a_relationship(graph: MemoryTemplate) -> None:
    rel = graph.relationship_template("my_connection")
    tree = parse("$relationship_index")
    assert evaluate(tree, context=graph, self_entity=rel) is tree
    assert error(graph, "$node_index", self_entity=rel).kind == "ContextError"


def test_keywords_win_over_user_names(graph: MemoryTemplate) -> None:
    graph.add_node("SELF", {"x": "the node called SELF"})
    graph.node("wordpress").properties["x"] = "wordpress x"
    assert run(graph, "{ $get_property: [ SELF, x ] }") == "wordpress x"


def test_path_needs_a_property_name(graph: MemoryTemplate) -> None:
    assert error(graph, "{ $get_property: [ SELF ] }").kind == "ArgCount"
    assert error(graph, "{ $get_property: [ SELF, 3 ] }").kind == "ArgType"
    assert error(graph, "{ $get_property: [ 3, x ] }").kind == "ArgType"


def test_reference_cycle_is_a_path_error(graph: MemoryTemplate) -> None:
    a = graph.add_node("a", {"p": parse({"$get_property": ["b", "q"]})})
    graph.add_node("b", {"q": parse({"$get_property": ["a", "p"]})})
    with pytest.raises(FunctionError) as info:
        a.property_value("p")
    assert info.value.kind == "PathError"
    assert "cycle" in str(info.value) and "a.p" in str(info.value) and "b.q" in str(info.value)


def test_self_reference_is_a_cycle(graph: MemoryTemplate) -> None:
    n = graph.add_node("n", {"p": parse({"$get_property": ["SELF", "p"]})})
    with pytest.raises(FunctionError) as info:
        n.property_value("p")
    assert info.value.kind == "PathError" and "cycle" in str(info.value)


def test_property_holding_an_unevaluated_call_keeps_the_caller_unevaluated(
    graph: MemoryTemplate,
) -> None:
    graph.add_node("late", {"addr": parse({"$get_attribute": ["SELF", "ip"]})})
    tree = parse({"$get_property": ["late", "addr"]})
    assert evaluate(tree, context=graph, self_entity=graph.node("wordpress")) is tree


def test_typed_operand_from_get_property(graph: MemoryTemplate) -> None:
    # mysql_database.version is a my.Version, derived from version: version order.
    text = "{ $greater_than: [ { $get_property: [ mysql_database, version ] }, 1.9.0 ] }"
    assert run(graph, text) is True
    assert run(graph, "{ $greater_than: [ 1.10.0, 1.9.0 ] }") is False  # plain strings


# ----------------------------------------------------------------------------- 1.x §4.1

V1X = [
    ("entity-name", {"get_property": ["mysql_database", "name"]}, "sql_database1"),
    ("self", {"get_property": ["SELF", "admin"]}, "me"),
    ("capability", {"get_property": ["mysql_database", "database_endpoint", "port"]}, 3306),
    ("requirement-to-capability", {"get_property": ["SELF", "database_endpoint", "port"]}, 3306),
    (
        "requirement-to-node",
        {"get_property": ["SELF", "database_endpoint", "name"]},
        "sql_database1",
    ),
    ("host", {"get_property": ["HOST", "root_password"]}, "pw"),
    ("key-steps", {"get_property": ["mysql_dbms", "admin_credential", "token"]}, "s3cret"),
    ("attribute-property", {"get_attribute": ["SELF", "admin"]}, "me"),
    ("artifact", {"get_artifact": ["SELF", "zip"]}, "/data/wordpress.zip"),
]


@pytest.mark.parametrize(("value", "expected"), [pytest.param(v, e, id=i) for i, v, e in V1X])
def test_1x_paths(graph: MemoryTemplate, value: dict, expected: object) -> None:
    tree = parse(value, "1.3")
    assert isinstance(tree, Call)
    result = evaluate(tree, context=graph, self_entity=graph.node("wordpress"), version="1.3")
    assert result == expected


def test_1x_source_and_target(graph: MemoryTemplate) -> None:
    rel = graph.relationship_template("my_connection")
    src = parse({"get_property": ["SOURCE", "admin"]}, "1.3")
    tgt = parse({"get_property": ["TARGET", "root_password"]}, "1.3")
    assert evaluate(src, context=graph, self_entity=rel, version="1.3") == "me"
    assert evaluate(tgt, context=graph, self_entity=rel, version="1.3") == "pw"
    with pytest.raises(FunctionError) as info:
        evaluate(src, context=graph, self_entity=graph.node("wordpress"), version="1.3")
    assert info.value.kind == "ContextError"


def test_1x_host_without_host_is_context_error(graph: MemoryTemplate) -> None:
    tree = parse({"get_property": ["HOST", "x"]}, "1.3")
    with pytest.raises(FunctionError) as info:
        evaluate(tree, context=graph, self_entity=graph.node("primary"), version="1.3")
    assert info.value.kind == "ContextError"


def test_1x_unknown_entity_is_path_error(graph: MemoryTemplate) -> None:
    tree = parse({"get_property": ["ghost", "x"]}, "1.3")
    with pytest.raises(FunctionError) as info:
        evaluate(tree, context=graph, self_entity=graph.node("wordpress"), version="1.3")
    assert info.value.kind == "PathError" and "ghost" in str(info.value)


def test_and_decided_by_a_later_argument_despite_a_runtime_one(graph: MemoryTemplate) -> None:
    runtime = "{ $get_attribute: [ mysql_dbms, state ] }"
    assert run(graph, f"{{ $and: [ {runtime}, false ] }}") is False
    assert run(graph, f"{{ $or: [ {runtime}, true ] }}") is True
    tree = parse(yaml.safe_load(f"{{ $and: [ {runtime}, true ] }}"))
    assert evaluate(tree, context=graph, self_entity=graph.node("wordpress")) is tree


def test_get_attribute_on_a_property_without_value_stays_a_call(graph: MemoryTemplate) -> None:
    tree = parse({"$get_attribute": ["mysql_database", "declared_only"]})
    assert evaluate(tree, context=graph, self_entity=graph.node("wordpress")) is tree


def test_a_broken_view_becomes_a_path_error(graph: MemoryTemplate) -> None:
    class Broken(type(graph.node("primary"))):
        def property_value(self, name):
            raise KeyError(name)

    broken = Broken(graph, "broken", {"p": 1})
    graph.nodes["broken"] = broken
    err = error(graph, "{ $get_property: [ broken, p ] }")
    assert err.kind == "PathError" and "KeyError" in str(err)


def test_requirement_messages_name_the_node(graph: MemoryTemplate) -> None:
    err = error(graph, "{ $get_property: [ SELF, RELATIONSHIP, database_endpoint, nope ] }")
    assert "requirement 'database_endpoint' of node 'wordpress'" in str(err)


def test_long_reference_chains_hit_the_depth_bound_not_recursion() -> None:
    tpl = MemoryTemplate()
    for i in range(400):
        tpl.add_node(f"n{i}", {"p": parse({"$get_property": [f"n{i + 1}", "p"]})})
    tpl.add_node("n400", {"p": "end"})
    assert tpl.node("n350").property_value("p") == "end"  # a chain of 50 (MAX_CALL_DEPTH) resolves
    with pytest.raises(FunctionError) as info:
        tpl.node("n0").property_value("p")
    assert info.value.kind == "LimitExceeded"
    assert info.value.diagnostic.code == "limit-exceeded"
