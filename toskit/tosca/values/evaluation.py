"""Function notation in a loaded template: parsing, validation clauses, outputs.

Phase functions of the loading pipeline (:mod:`toskit.tosca.load.loader`), each
over the Protocol of :mod:`toskit.tosca.load.context` it reads: every value is
parsed in the file's dialect (``toskit.functions.parse``, skipped for plain
data by a quick scan), diagnostics are placed in the document a value came
from, 2.0 ``validation`` clauses run through ``toskit.functions.check_value``,
``functions:`` sections are loaded, and outputs are evaluated.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any

from toskit import functions
from toskit.diagnostics import Diagnostic, format_path
from toskit.errors import FunctionSyntaxError
from toskit.plain import describe
from toskit.records import field, record, replace
from toskit.source import YamlDocument
from toskit.tosca.load.context import (
    ClauseContext,
    EvaluationContext,
    FunctionsContext,
    ParseContext,
)
from toskit.tosca.values.check import CheckContext
from toskit.tosca.values.resolve import Resolution

if TYPE_CHECKING:  # .signatures is imported on use: a check without functions needs none (#31)
    from toskit.functions import FunctionDefinition

__all__ = [
    "ParseState",
    "calls_in",
    "clause_tree",
    "evaluate_outputs",
    "load_function_definitions",
    "may_hold_calls",
    "parse_value",
    "validate_clauses",
    "without_cascades",
]


@record(eq=False)
class ParseState:
    """What parsing values reads and fills during one load (``LoadContext.parsing``).

    The functions phase fills the document's functions
    (:func:`load_function_definitions`); :func:`parse_value` and
    :func:`clause_tree` read them and fill the rest: where a value tree came
    from another document (its diagnostics belong there), values whose calls
    did not parse (value checks under them are cascades, dropped), and each
    validation clause parsed once.
    """

    # Names that make a 1.x single-key map a call (built-ins and the registry).
    call_names_1x: frozenset[str] = frozenset()
    # ``functions:`` sections (2.0): declared functions by qualified name.
    function_defs: dict[str, FunctionDefinition] = field(default_factory=dict)
    known_functions: list[str] = field(default_factory=list)
    foreign_roots: list[tuple[tuple[Hashable, ...], YamlDocument]] = field(default_factory=list)
    # (file, path) of each value whose calls did not parse.
    unparsed_roots: list[tuple[str | None, tuple[Hashable, ...]]] = field(default_factory=list)
    # Parsed 2.0 validation clauses by id of their definition (kept with it).
    parsed_clauses: dict[int, tuple[Any, Any]] = field(default_factory=dict)


def parse_value(
    ctx: ParseContext, value: Any, doc: YamlDocument, parts: tuple[Hashable, ...]
) -> Any:
    """``value`` as a tree of calls (the file's function dialect); malformed calls reported."""
    state = ctx.parsing
    if not may_hold_calls(value, ctx.grammar.major == 2, state.call_names_1x):
        return value
    try:
        parsed = functions.parse(
            value,
            ctx.grammar.functions_version,
            known=state.known_functions,
            diagnostics=ctx.diags,
            path=parts,
            make_diagnostic=doc.diagnostic,
        )
    except FunctionSyntaxError as exc:
        ctx.diags.extend(exc.diagnostics)
        # The value stays as written, and is not what its author meant: what
        # the value checks would say of it is dropped (without_cascades).
        state.unparsed_roots.append((doc.name, tuple(parts)))
        return value
    if doc is not ctx.doc and parsed is not value and functions.contains_call(parsed):
        state.foreign_roots.append((tuple(parts), doc))
    return parsed


def clause_tree(ctx: ParseContext, raw: Any, schema: Any) -> Any:
    """A validation clause parsed once per load; ``None`` when it cannot run.

    A clause calling a function nobody knows is reported once, where it is
    written (``unknown-function``), and then not run for every value.
    """
    key = id(raw)
    cached = ctx.parsing.parsed_clauses.get(key)
    if cached is None:
        doc = schema.doc or ctx.doc
        parts = (*schema.parts, "validation")
        tree = parse_value(ctx, raw, doc, parts)
        unknown = [c for c in calls_in(tree) if not _known_function(ctx, c)]
        for call in unknown:
            known = sorted({*functions.BUILTINS_2_0, *ctx.parsing.function_defs})
            ctx.diags.append(
                doc.diagnostic(
                    "error",
                    "unknown-function",
                    f"unknown function '{call.qualified_name}' in a validation clause",
                    call.path or parts,
                    misspelt=call.qualified_name,
                    candidates=known,
                )
            )
        if not unknown and not isinstance(tree, functions.Call) and not isinstance(tree, bool):
            # ``validation: {a: b}`` or a list: nothing to run, and not a boolean
            ctx.diags.append(
                doc.diagnostic(
                    "error",
                    "invalid-definition",
                    "a validation clause must be a function call (such as "
                    f"$greater_than) or true/false, got {describe(raw)}",
                    parts,
                )
            )
            unknown = [tree]
        cached = ctx.parsing.parsed_clauses[key] = (raw, None if unknown else tree)
    return cached[1]


def _known_function(ctx: ParseContext, call: Any) -> bool:
    name = call.qualified_name
    return (
        (call.namespace is None and name in functions.BUILTINS_2_0)
        or name in ctx.parsing.function_defs
        or name in functions.registered_names()
    )


def validate_clauses(
    ctx: ClauseContext,
    check: CheckContext,
    value: Any,
    clauses: list[tuple[Any, Any]],
    rel: tuple,
    prim: str | None,
) -> None:
    """Run 2.0 ``validation`` clauses on a checked value (``validation-failed``)."""
    trees = []
    for raw, schema in clauses:
        tree = clause_tree(ctx, raw, schema)
        if tree is not None:
            trees.append(tree)
    if not trees:
        return
    doc, parts = check.where(rel)
    entity = check.owner.entity if isinstance(check.owner, Resolution) else None
    # No graph yet while inputs are checked (their clauses need none).
    graph = ctx.template_graph
    self_view = graph.view_of(entity) if entity is not None and graph is not None else None
    found = functions.check_value(
        value,
        validations=trees,
        value_type=prim,
        inputs=ctx.input_resolver.values if ctx.input_resolver is not None else None,
        version="2.0",
        context=graph,
        self_entity=self_view,
        path=parts,
        make_diagnostic=(doc or ctx.doc).diagnostic,
        subject=f"{check.label}: {check.noun} '{format_path(rel)}'" if check.noun else check.label,
        defer_missing_inputs=True,
    )
    # Reported at the value's path in the entity (structured; the string derived).
    full = (*check.path_prefix, *rel)
    overridden = check.overridden_default(rel) if found else ()
    ctx.diags.extend(
        replace(d, path="", parts=full, related=(*d.related, *overridden)) for d in found
    )


def evaluate_outputs(
    ctx: EvaluationContext, topology: Mapping, tparts: tuple[Hashable, ...]
) -> dict[str, Any]:
    """Output values, evaluated where possible (a call that cannot be stays a call)."""
    raw = topology.get("outputs")
    out: dict[str, Any] = {}
    if not isinstance(raw, Mapping):
        return out
    for name, definition in raw.items():
        if not isinstance(definition, Mapping) or "value" not in definition:
            continue
        parts = (*tparts, "outputs", name, "value")
        tree = parse_value(ctx, definition["value"], ctx.doc, parts)
        if functions.contains_call(tree):
            tree = ctx.graph.evaluate(tree)
        out[str(name)] = tree
    return out


def load_function_definitions(
    ctx: FunctionsContext,
    imported: list[tuple[Any, str | None, YamlDocument]],
    root: Mapping,
    topology: Mapping,
    tparts: tuple[Hashable, ...],
) -> None:
    """``functions:`` sections (2.0): ``imported`` (namespaced), top level, then service template.

    Fills ``ctx.parsing.function_defs`` and ``.known_functions``.
    """
    sections: list[tuple[Any, str | None, YamlDocument, tuple[Hashable, ...]]] = [
        (section, prefix, doc, ("functions",)) for section, prefix, doc in imported
    ]
    if root.get("functions") is not None:
        sections.append((root["functions"], None, ctx.doc, ("functions",)))
    if topology.get("functions") is not None:
        sections.append((topology["functions"], None, ctx.doc, (*tparts, "functions")))
    state = ctx.parsing
    for section, prefix, doc, parts in sections:
        defs, diags = functions.load_function_definitions(
            section,
            namespace=prefix,
            version="2.0",
            path=parts,
            make_diagnostic=doc.diagnostic,
            known=list(state.function_defs),
        )
        ctx.diags.extend(diags)
        for name, definition in defs.items():
            base = state.function_defs.get(name)
            state.function_defs[name] = functions.refine(base, definition) if base else definition
    state.known_functions = list(state.function_defs)
    if ctx.registry.opaque_prefixes:
        state.function_defs = _WithOpaque(state.function_defs, ctx.registry.opaque_prefixes)


class _WithOpaque(dict):
    """Declared functions, plus any ``ns:name`` of an unknown profile's namespace.

    Such a function cannot be known (reported once, at the ``unknown-profile``
    import): it answers with a stub that accepts any arguments and has no
    implementation, so its calls stay unevaluated instead of ``unknown-function``.
    """

    def __init__(self, defs: Mapping[str, Any], opaque: set[str]) -> None:
        super().__init__(defs)
        self.opaque = opaque

    def _stub(self, name: object) -> Any:
        if isinstance(name, str) and ":" in name and name.rsplit(":", 1)[0] in self.opaque:
            from toskit.functions.signatures import Signature  # on use (#31 start-up)

            return functions.FunctionDefinition(name, (Signature(variadic=True),))
        return None

    def get(self, key: Any, default: Any = None) -> Any:
        found = super().get(key)
        return found if found is not None else (self._stub(key) or default)

    def __contains__(self, key: object) -> bool:
        return super().__contains__(key) or self._stub(key) is not None

    def __bool__(self) -> bool:
        return True  # never "no definitions" (``definitions or {}``): it answers for stubs


def calls_in(tree: Any) -> list[Any]:
    """Every ``Call`` in a parsed tree (arguments included)."""
    found: list[Any] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, functions.Call):
            found.append(node)
            stack.extend(node.args)
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def may_hold_calls(value: Any, v2: bool, names_1x: frozenset[str]) -> bool:
    """Whether ``value`` may parse to something other than itself (a quick scan).

    Most property values are plain data; skipping ``functions.parse`` for them
    keeps large templates fast. The scan is conservative: anything that might
    be a call, an escape or a complex key goes through the parser. It walks
    with an explicit stack, so deeply nested values cannot exhaust recursion.
    """
    if not isinstance(value, (dict, list)):
        # A scalar (most values): only a 2.0 "$…" string can be a call.
        return v2 and isinstance(value, str) and value.startswith("$")
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            if v2 and node.startswith("$"):
                return True
        elif isinstance(node, dict):
            if not v2 and len(node) == 1:
                (key,) = node
                if not isinstance(key, str) or key in names_1x:
                    return True
            for key, item in node.items():
                if key.__class__ is not str and not isinstance(key, str):
                    return True
                if v2 and key.startswith("$"):
                    return True
                cls = item.__class__
                if cls is str or cls is dict or cls is list or isinstance(item, (str, dict, list)):
                    stack.append(item)
        elif isinstance(node, list):
            stack.extend(item for item in node if isinstance(item, (str, dict, list)))
    return False


#: What the value checks (:mod:`toskit.tosca.values.check`, validation clauses) say.
VALUE_CHECK_CODES = frozenset(
    {
        "type-mismatch",
        "constraint-violation",
        "unknown-property",
        "missing-property",
        "fixed-value",
        "validation-failed",
    }
)


def without_cascades(
    diags: list[Diagnostic], roots: list[tuple[str | None, tuple[Hashable, ...]]]
) -> list[Diagnostic]:
    """``diags`` without the value checks' findings at or under a value whose
    calls did not parse.

    A malformed call (``{$concat: [a], x: 1}``, calls nested past the bound)
    is reported once, as ``malformed-function`` or ``limit-exceeded``; the
    raw map it leaves behind is not data its author meant, so "expected
    string, got map", unknown ``$concat`` fields and the like are cascades,
    not further mistakes. Fix the call and the value is checked again.
    """
    if not roots:
        return diags
    by_file: dict[str | None, set[tuple[Hashable, ...]]] = {}
    for file, parts in roots:
        by_file.setdefault(file, set()).add(parts)

    def cascade(d: Diagnostic) -> bool:
        if d.code not in VALUE_CHECK_CODES:
            return False
        found = by_file.get(d.file)
        if not found:
            return False
        parts = tuple(d.parts or ())
        return any(parts[:n] in found for n in range(len(parts) + 1))

    return [d for d in diags if not cascade(d)]
