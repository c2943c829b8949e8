"""Each loader phase declares what it reads (issue 15, item 1).

``toskit.tosca.load.context`` defines one ``typing.Protocol`` per phase (or per
group of phases reading the same fields); each phase function annotates its
context parameter with its Protocol, so a phase that starts reading a field
it does not declare is a mypy error (``mypy toskit/`` is part of ``make
lint``). These tests pin the declarations themselves: every Protocol member
is something ``LoadContext`` has, each phase takes the Protocol the docs name,
and only the loader (which builds the context) names ``LoadContext`` in a
signature.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import typing
from pathlib import Path

import pytest

from toskit.tosca.load import context
from toskit.tosca.load.context import LoadContext
from toskit.tosca.model import copies, entities, graph, inputs, requirements
from toskit.tosca.values import defchecks, evaluation

TOSCA = Path(context.__file__).resolve().parent.parent

PROTOCOLS = {
    name: obj
    for name, obj in vars(context).items()
    if inspect.isclass(obj)
    and getattr(obj, "_is_protocol", False)
    and obj.__module__ == context.__name__
}

# phase (or helper) -> the Protocol its context parameter is annotated with.
PHASES = [
    (copies.resolve_copies, "ctx", "Reporting"),
    (evaluation.parse_value, "ctx", "ParseContext"),
    (evaluation.clause_tree, "ctx", "ParseContext"),
    (evaluation.validate_clauses, "ctx", "ClauseContext"),
    (evaluation.load_function_definitions, "ctx", "FunctionsContext"),
    (evaluation.evaluate_outputs, "ctx", "EvaluationContext"),
    (defchecks.check_definitions, "ctx", "DefinitionsContext"),
    (inputs.InputResolver.__init__, "ctx", "InputsContext"),
    (entities.build_entities, "ctx", "EntitiesContext"),
    (entities.build_capabilities, "ctx", "EntitiesContext"),
    (entities.resolve_properties, "ctx", "EntitiesContext"),
    (requirements.resolve_requirements, "ctx", "EntitiesContext"),
    (graph.TemplateGraph.__init__, "ctx", "EvaluationContext"),
]


def _members(proto: type) -> set[str]:
    """The attributes, properties and methods a Protocol (with its bases) declares."""
    names: set[str] = set()
    for base in proto.__mro__:
        if base is object or base is typing.Protocol or base is typing.Generic:
            continue
        names.update(getattr(base, "__annotations__", {}))
        names.update(n for n in vars(base) if not n.startswith("_"))
    return names


def _load_context_members() -> set[str]:
    fields = {f.name for f in dataclasses.fields(LoadContext)}
    return fields | {n for n in vars(LoadContext) if not n.startswith("_")}


def test_every_phase_protocol_is_found():
    assert set(PROTOCOLS) == {
        "Reporting",
        "ParseContext",
        "ClauseContext",
        "FunctionsContext",
        "DefinitionsContext",
        "InputsContext",
        "EntitiesContext",
        "EvaluationContext",
    }


@pytest.mark.parametrize("name", sorted(PROTOCOLS))
def test_a_protocol_declares_only_what_the_load_context_has(name):
    declared = _members(PROTOCOLS[name])
    assert declared, name
    assert declared <= _load_context_members(), declared - _load_context_members()


def test_narrow_phases_do_not_declare_the_merge_caches():
    # What separates the phases: only the entities phase holds its MergeCaches
    # (the merge's caches and the pending queue); only the inputs phase reads
    # the call's inputs.
    for name, proto in PROTOCOLS.items():
        members = _members(proto)
        assert ("merge" in members) == (name == "EntitiesContext"), name
        assert "merge_caches" not in members, name  # the Optional field: the loader's
        assert ("passed_inputs" in members) == (name == "InputsContext"), name
    assert _members(PROTOCOLS["Reporting"]) == {"doc", "diags"}


def test_the_entities_context_does_not_grow_back():
    """#28: per-load state is one member per phase that fills it, not fields of
    the context: the merge's caches and pending checks (MergeCaches, six fields
    before) and what parsing values fills (ParseState, seven). The Protocol
    adds two members to its shared bases (the inputs and the phase's
    MergeCaches); a thirteenth is a decision to write down here."""
    entities_ctx = PROTOCOLS["EntitiesContext"]
    bases = _members(PROTOCOLS["DefinitionsContext"]) | _members(PROTOCOLS["ClauseContext"])
    assert _members(entities_ctx) - bases == {"inputs", "merge"}
    assert len(_members(entities_ctx)) == 12
    assert len(_load_context_members()) == 17
    caches = set(entities.MergeCaches.__slots__)
    assert {"pending", "default_layers", "cap_defs", "property_plans", "field_types"} <= caches
    assert not caches & _load_context_members()
    parsing = {f.name for f in dataclasses.fields(evaluation.ParseState)}
    assert {"function_defs", "parsed_clauses", "unparsed_roots", "foreign_roots"} <= parsing
    assert not parsing & _load_context_members()
    assert _members(PROTOCOLS["ParseContext"]) == {"doc", "diags", "grammar", "parsing"}


def test_the_merge_caches_exist_only_during_the_entities_phase(monkeypatch):
    seen: list[entities.MergeCaches] = []
    build = entities.build_entities

    def spy(ctx, *args, **kwargs):
        seen.append(ctx.merge)
        return build(ctx, *args, **kwargs)

    import toskit
    from toskit.tosca.load import loader

    monkeypatch.setattr(loader, "build_entities", spy)
    contexts: list[LoadContext] = []
    real = loader.LoadContext
    monkeypatch.setattr(
        loader, "LoadContext", lambda **kw: contexts.append(real(**kw)) or contexts[-1]
    )
    st = toskit.loads(
        "tosca_definitions_version: tosca_simple_yaml_1_3\n"
        "topology_template:\n  node_templates:\n    a: {type: tosca.nodes.Compute}\n"
    )
    assert st.ok and len(seen) == 4 and len({id(m) for m in seen}) == 1
    assert seen[0].cap_defs and seen[0].pending == []  # filled, then run and emptied
    (ctx,) = contexts
    with pytest.raises(RuntimeError, match="entities phase"):
        ctx.merge  # noqa: B018 - dropped when the load ends


@pytest.mark.parametrize(
    ("func", "param", "proto"), PHASES, ids=lambda p: getattr(p, "__qualname__", p)
)
def test_each_phase_takes_its_protocol(func, param, proto):
    annotation = inspect.signature(func).parameters[param].annotation
    assert annotation == proto  # postponed annotations: the name as written


def test_check_pending_takes_the_queue_and_empties_it(monkeypatch):
    calls: list[tuple] = []

    class _Res:
        values = {"p": 1}
        calls: set[str] = set()

    class _Def:
        name = "p"
        schema = None

    pending = [(object(), _Res(), _Def(), None)]
    monkeypatch.setattr(entities, "check_value", lambda *a: calls.append(a))
    entities.check_pending(pending)  # type: ignore[arg-type]
    assert len(calls) == 1 and calls[0][2] is None and calls[0][4] == ("p",)
    assert pending == []


def _annotations(tree: ast.AST) -> list[ast.expr]:
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                if a is not None and a.annotation is not None:
                    found.append(a.annotation)
            if node.returns is not None:
                found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return found


def _names_load_context(annotation: ast.expr) -> bool:
    return any(
        (isinstance(n, ast.Name) and n.id == "LoadContext")
        or (isinstance(n, ast.Attribute) and n.attr == "LoadContext")
        or (isinstance(n, ast.Constant) and isinstance(n.value, str) and "LoadContext" in n.value)
        for n in ast.walk(annotation)
    )


def test_only_the_loader_annotates_with_load_context():
    offenders = []
    for path in sorted(TOSCA.rglob("*.py")):
        if path.name in {"context.py", "loader.py"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        offenders += [
            f"{path.name}:{a.lineno}" for a in _annotations(tree) if _names_load_context(a)
        ]
    assert offenders == []


def test_the_scan_sees_a_load_context_annotation():
    tree = ast.parse("def f(ctx: LoadContext) -> None: ...\nx: 'LoadContext | None' = None\n")
    assert [_names_load_context(a) for a in _annotations(tree)] == [True, False, True]


def test_the_docs_name_each_protocol():
    doc = context.__doc__ or ""
    guide = (TOSCA.parents[1] / "docs" / "tosca.md").read_text(encoding="utf-8")
    for name in PROTOCOLS:
        assert name in doc, name
        assert name in guide, name
