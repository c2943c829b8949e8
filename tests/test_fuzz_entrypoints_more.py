"""Robustness tests written from failures the QA pass found (each fixed since).

Deep call trees, parsed clauses never re-parsed, catastrophic regexes,
recursive defaults, misused entry points: nothing escapes but ToskitError.
"""

from __future__ import annotations

import contextlib
import signal
import textwrap

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toskit
from toskit import Diagnostic

V13 = "tosca_definitions_version: tosca_simple_yaml_1_3\n"


class Hang(Exception):
    pass


@contextlib.contextmanager
def bounded(seconds: float = 10.0):
    def on_alarm(signum, frame):
        raise Hang(f"no result after {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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
    """parse accepts 900 nested calls; str/hash/== of the result raised RecursionError."""
    from toskit import functions

    for depth in (200, 900):
        tree = functions.parse(_deep_call(depth))
        assert str(tree).startswith("$concat")
        assert hash(tree) == hash(functions.parse(_deep_call(depth)))
        assert tree == functions.parse(_deep_call(depth))


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
