"""Hypothesis properties over generated schemas and values."""

from __future__ import annotations

import copy
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toskit import SchemaError, schema
from toskit.schema.values import canonical

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCALARS = ["numeric", "string", "boolean", "untyped"]
_NUMBERS = st.one_of(st.integers(-3, 3), st.sampled_from([0.5, 1.0, 2.0, -1.5]))
_STRINGS = st.sampled_from(["a", "b", "c", "x"])
SCALAR_VALUES = {
    "numeric": _NUMBERS,
    "string": _STRINGS,
    "boolean": st.booleans(),
    "untyped": st.one_of(_NUMBERS, _STRINGS, st.booleans()),
}


# -- schemas ---------------------------------------------------------------------------------


def typeref(draw, later: list[str], containers: set[str] | None = None) -> dict:
    choices = ["scalar", "list", "deduced"] + (["named"] * 3 if later else [])
    kind = draw(st.sampled_from(choices))
    if kind == "scalar":
        return {"scalar": draw(st.sampled_from(SCALARS))}
    if kind == "deduced":
        return {"namedType": "__untyped_deduced_"}
    if kind == "named":
        name = draw(st.sampled_from(later))
        ref = {"namedType": name}
        if containers and name in containers and draw(st.booleans()):
            ref["elementRelationship"] = "atomic"  # the override of spec §1.4
        return ref
    rel = draw(st.sampled_from([None, "atomic", "associative"]))
    lst: dict = {"elementType": {"scalar": draw(st.sampled_from(SCALARS))}}
    if rel:
        lst["elementRelationship"] = rel
    return {"list": lst}


@st.composite
def typedef(draw, name: str, later: list[str], containers: set[str]) -> dict:
    kind = draw(st.sampled_from(["scalar", "map", "map", "list", "multi"]))
    if kind == "scalar":
        return {"name": name, "scalar": draw(st.sampled_from(SCALARS))}
    if kind == "multi":
        return {
            "name": name,
            "scalar": draw(st.sampled_from(SCALARS)),
            "list": {"elementType": {"scalar": "string"}, "elementRelationship": "atomic"},
            "map": {"elementType": {"namedType": "__untyped_deduced_"}},
        }
    if kind == "map":
        names = draw(st.lists(st.sampled_from("abcd"), unique=True, max_size=3))
        mp: dict = {
            "fields": [{"name": n, "type": typeref(draw, later, containers)} for n in names]
        }
        rel = draw(st.sampled_from([None, "separable", "atomic"]))
        if rel:
            mp["elementRelationship"] = rel
        if draw(st.booleans()):
            mp["elementType"] = typeref(draw, later, containers)
        return {"name": name, "map": mp}
    flavour = draw(st.sampled_from(["atomic", "unset", "set", "keyed"]))
    if flavour == "keyed":
        others = draw(st.lists(st.sampled_from("abc"), unique=True, max_size=2))
        fields = [{"name": "k", "type": {"scalar": "string"}}]
        keys = ["k"]
        if draw(st.booleans()):  # a second key field with a default (spec §2.2)
            fields.append({"name": "j", "type": {"scalar": "numeric"}, "default": 0})
            keys.append("j")
        fields += [{"name": n, "type": typeref(draw, later, containers)} for n in others]
        return {
            "name": name,
            "list": {
                "elementType": {"map": {"fields": fields}},
                "elementRelationship": "associative",
                "keys": keys,
            },
        }
    lst = {
        "elementType": typeref(draw, later, containers)
        if flavour != "set"
        else {"scalar": draw(st.sampled_from(SCALARS))}
    }
    if flavour == "set":
        lst["elementRelationship"] = "associative"
    elif flavour == "atomic":
        lst["elementRelationship"] = "atomic"
    return {"name": name, "list": lst}


@st.composite
def schema_docs(draw) -> dict:
    n = draw(st.integers(1, 4))
    types = []
    containers: set[str] = set()
    for i in reversed(range(n)):
        t = draw(typedef(f"t{i}", [f"t{j}" for j in range(i + 1, n)], containers))
        if "map" in t or "list" in t:
            containers.add(t["name"])
        types.append(t)
    return {"types": types}


# -- values ----------------------------------------------------------------------------------


def value_for_ref(ref: dict | None, types: dict) -> st.SearchStrategy:
    if ref is None:
        return st.none()
    if "namedType" in ref:
        if ref["namedType"] == "__untyped_deduced_":
            return st.one_of(st.none(), _STRINGS, st.dictionaries(_STRINGS, _NUMBERS, max_size=2))
        return value_for_atom(types[ref["namedType"]], types)
    return value_for_atom(ref, types)


def value_for_atom(atom: dict, types: dict, top: bool = False) -> st.SearchStrategy:
    # null is valid everywhere; at the top it would hide everything else.
    options = [] if top else [st.none()]
    if "scalar" in atom:
        options.append(SCALAR_VALUES[atom["scalar"]])
    if "map" in atom:
        mp = atom["map"]
        fields = {f["name"]: value_for_ref(f.get("type"), types) for f in mp.get("fields", [])}
        struct = st.fixed_dictionaries({}, optional=fields)
        if "elementType" in mp:
            extra = st.dictionaries(
                st.sampled_from(["x1", "x2"]), value_for_ref(mp["elementType"], types), max_size=2
            )
            struct = st.builds(lambda a, b: {**a, **b}, struct, extra)
        options.append(struct)
    if "list" in atom:
        lst = atom["list"]
        elem = lst.get("elementType")
        if lst.get("elementRelationship") == "associative" and lst.get("keys"):
            fields = {
                f["name"]: value_for_ref(f.get("type"), types)
                for f in elem["map"]["fields"]
                if f["name"] not in ("k", "j")
            }
            if "j" in lst["keys"]:
                fields["j"] = st.sampled_from([0, 1, 0.0])
            item = st.builds(
                lambda k, rest: {"k": k, **rest},
                _STRINGS,
                st.fixed_dictionaries({}, optional=fields),
            )
            options.append(st.lists(item, max_size=4, unique_by=lambda d: (d["k"], d.get("j", 0))))
        elif lst.get("elementRelationship") == "associative":
            options.append(st.lists(SCALAR_VALUES[elem["scalar"]], max_size=4, unique_by=canonical))
        else:
            options.append(st.lists(value_for_ref(elem, types), max_size=3))
    return st.one_of(options)


@st.composite
def schema_and_values(draw, count: int = 2):
    doc = draw(schema_docs())
    types = {t["name"]: t for t in doc["types"]}
    name = draw(st.sampled_from(sorted(types)))
    strategy = value_for_atom(types[name], types, top=True)
    values = [draw(strategy) for _ in range(count)]
    return schema.load(doc), name, values


# -- properties ------------------------------------------------------------------------------


@SETTINGS
@given(schema_and_values())
def test_generated_values_are_valid(case):
    s, name, values = case
    for x in values:
        assert s.validate(x, name) == []


@SETTINGS
@given(schema_and_values(count=1))
def test_merge_with_itself_is_identity(case):
    s, name, (x,) = case
    assert s.merge(x, x, name) == x


@SETTINGS
@given(schema_and_values())
def test_merge_of_valid_values_is_valid_and_pure(case):
    s, name, (a, b) = case
    before = copy.deepcopy((a, b))
    merged = s.merge(a, b, name)
    assert s.validate(merged, name) == []
    assert (a, b) == before


@SETTINGS
@given(schema_and_values())
def test_compare(case):
    s, name, (a, b) = case
    assert s.compare(a, a, name).is_same
    c = s.compare(a, b, name)
    back = s.compare(b, a, name)
    assert (c.added, c.removed, c.modified) == (back.removed, back.added, back.modified)
    if c.is_same:  # equal up to the order of associative lists
        assert s.compare(s.merge(a, b, name), s.merge(b, a, name), name).is_same


@SETTINGS
@given(schema_and_values(count=3))
def test_merge_layers_matches_merge(case):
    s, name, (a, b, c) = case
    result = s.merge_layers([(a, "a"), (schema.ABSENT, "skipped"), (b, "b"), (c, "c")], name)
    assert result.value == s.merge(s.merge(a, b, name), c, name)
    assert set(result.sources.values()) <= {"a", "b", "c"}
    for path, history in result.overridden.items():
        assert path in result.sources
        labels = [label for label, _ in history]
        assert labels == sorted(labels)  # lowest first
        assert result.sources[path] not in labels


@SETTINGS
@given(schema_and_values(count=1))
def test_fieldset_paths_parse_and_remove(case):
    s, name, (x,) = case
    paths = s.to_fieldset(x, name)
    assert "" not in paths
    s.remove(x, paths, name)  # every rendered path parses back
    kept = s.extract(x, paths, name)
    assert kept is None or s.validate(kept, name) == []


# -- hostile values --------------------------------------------------------------------------


class Weird:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


hostile_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(),
    st.text(max_size=5),
    st.binary(max_size=3),
    st.just(math.nan),
    st.builds(Weird),
    st.builds(object),
    st.frozensets(st.integers(0, 3), max_size=2),
    st.just(complex(1, 2)),
)
hostile_values = st.recursive(
    hostile_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.tuples(children, children),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers(0, 2)), children, max_size=3),
        st.sets(st.integers(0, 3), max_size=2),
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["S1", "S2"]), hostile_values, hostile_values)
def test_hostile_values_never_crash(schemas, which, a, b):
    s = schemas[which]
    name = "root" if which == "S1" else "any"
    for x in (a, b):
        diags = s.validate(x, name)
        assert all(d.severity == "error" and d.message for d in diags)
    for op in (
        lambda: s.merge(a, b, name),
        lambda: s.compare(a, b, name),
        lambda: s.to_fieldset(a, name),
        lambda: s.remove(a, [".num", '.set[="a"]'], name),
        lambda: s.extract(a, [".num"], name),
        lambda: s.merge_layers([(a, "a"), (b, "b")], name),
    ):
        try:
            op()
        except SchemaError as err:
            assert err.diagnostics


@settings(max_examples=150, deadline=None)
@given(hostile_values)
def test_hostile_layer_lists_never_crash(schemas, layers):
    """merge_layers takes any object for ``layers``: a result or a SchemaError."""
    try:
        result = schemas["S2"].merge_layers(layers, "any")
    except SchemaError as err:
        assert err.diagnostics
        return
    assert len(result.rows()) == len(result.sources)  # every recorded leaf is in the value


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.text(max_size=30),
        st.recursive(
            st.one_of(st.none(), st.text(max_size=4), st.integers(), st.booleans()),
            lambda c: st.one_of(
                st.lists(c, max_size=3),
                st.dictionaries(
                    st.sampled_from(
                        [
                            "types",
                            "name",
                            "scalar",
                            "map",
                            "list",
                            "fields",
                            "type",
                            "keys",
                            "elementType",
                            "elementRelationship",
                            "namedType",
                            "unions",
                            "default",
                        ]
                    ),
                    c,
                    max_size=4,
                ),
            ),
            max_leaves=15,
        ),
    )
)
def test_hostile_schema_documents(doc):
    try:
        s = schema.load(doc)
    except SchemaError as err:
        assert err.diagnostics
        return
    for t in s.types:
        s.validate({"a": [1]}, t.name)


@SETTINGS
@given(schema_docs())
def test_schema_round_trips_through_yaml_form(doc):
    s = schema.load(doc)
    assert schema.load(s.to_data()) == s


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8),
    st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8),
)
def test_merge_order_invariants(lhs, rhs):
    from toskit.schema.merge import merge_order

    pairs = merge_order(lhs, rhs)
    keys = [lhs[i] if j is None else rhs[j] for i, j in pairs]
    assert sorted(keys) == sorted(set(lhs) | set(rhs))  # every item exactly once
    assert [k for k in keys if k in rhs] == rhs  # rhs order wins for rhs items
    lhs_only = [k for k in lhs if k not in rhs]
    assert [k for k in keys if k in lhs_only] == lhs_only  # lhs-only items keep their order
    for i, j in pairs:  # matched pairs really match
        if i is not None and j is not None:
            assert lhs[i] == rhs[j]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='.[]=,"\\0123456789abcnulltrue-eE{}:', max_size=25))
def test_path_parser_fuzz(schemas, text):
    s = schemas["S1"]
    value = {"num": 1, "items": [{"name": "a"}], "set": ["a"], "numSet": [1]}
    try:
        s.remove(value, [text], "root")
        s.extract(value, [text], "root")
    except SchemaError as err:
        assert err.diagnostics[0].message.startswith("bad path")


_S3_VALUES = st.fixed_dictionaries(
    {},
    optional={
        "discriminator": st.sampled_from(["One", "TWO", "three", "random", ""]),
        "letter": st.sampled_from(["A", "b", "q"]),
        "one": st.one_of(st.none(), st.integers(0, 2)),
        "two": st.one_of(st.none(), st.integers(0, 2)),
        "three": st.integers(0, 2),
        "a": st.integers(0, 2),
        "b": st.one_of(st.none(), st.integers(0, 2)),
    },
)


@settings(max_examples=300, deadline=None)
@given(_S3_VALUES, _S3_VALUES)
def test_union_rules_never_crash(schemas, old, new):
    s = schemas["S3"]
    for update, run in (
        (True, lambda: s.normalize_union(old, new, "union")),
        (False, lambda: s.normalize_union_apply(old, new, "union")),
    ):
        try:
            result = run()
        except SchemaError as err:
            assert err.diagnostics[0].code == "union-conflict"
            continue
        assert s.validate(result, "union") == []
        assert set(result) <= set(new) | {"discriminator"}
        if update:  # after the update rules at most one field of each union is set
            assert len([f for f in ("one", "two", "three") if result.get(f) is not None]) <= 1
            assert len([f for f in ("a", "b") if result.get(f) is not None]) <= 1
