"""From YAML text to a :class:`ServiceTemplate`: the TOSCA loading pipeline.

1. parse the YAML (``toskit.source``), pick the grammar from
   ``tosca_definitions_version`` (or infer it, ``missing-version``);
2. check keynames against the grammar tables (``unknown-keyname``);
3. load imports (``import-error``; an info ``import-cycle``), collect type
   definitions (namespaced ones as ``ns:Name``);
4. build the registry on top of the cached normative profile;
5. resolve inputs, then every node template's, capability's, relationship
   template's, group's and policy's properties (merge with provenance, then
   validation);
6. resolve requirements to target node templates.

Nothing here raises for a problem inside the template: everything becomes a
:class:`~toskit.diagnostics.Diagnostic`. The phases and their context:
:mod:`toskit.tosca.load.context`; decisions: docs/tosca.md.

>>> text = "tosca_definitions_version: tosca_2_0\\nnode_types: {A: {derived_from: B}}"
>>> [d.code for d in check_text(text)]
['unknown-type']
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING, Any

from toskit import functions
from toskit.diagnostics import MAX_PER_CODE, Diagnostic, did_you_mean, sort_diagnostics
from toskit.errors import ToskitError
from toskit.runtime import deep_walk
from toskit.source import Importer, YamlDocument, load_yaml, load_yaml_file
from toskit.source.csar import is_csar, open_csar
from toskit.source.document import LIMIT_DEFAULTS, resolve_limits
from toskit.tosca.load.anchors import check_dsl_anchors
from toskit.tosca.load.context import LoadContext
from toskit.tosca.load.grammar import Grammar
from toskit.tosca.load.imports import load_imports
from toskit.tosca.load.keynames import check_keynames
from toskit.tosca.load.profile import registry_for
from toskit.tosca.load.versions import detect_version
from toskit.tosca.model.entities import (
    MergeCaches,
    build_capabilities,
    build_entities,
    check_pending,
)
from toskit.tosca.model.filter_names import check_filter_names
from toskit.tosca.model.graph import TemplateGraph
from toskit.tosca.model.inputs import InputResolver
from toskit.tosca.model.interfaces import check_template_interfaces
from toskit.tosca.model.requirements import resolve_requirements
from toskit.tosca.model.service import ServiceTemplate
from toskit.tosca.model.template import (
    EntityTemplate,
    GroupTemplate,
    NodeTemplate,
    PolicyTemplate,
    RelationshipTemplate,
)
from toskit.tosca.model.workflows import check_workflows
from toskit.tosca.types.artifacts import check_template_artifacts
from toskit.tosca.types.expansion import FILL_LIMITS, active_budget, fill_budget
from toskit.tosca.types.registry import Registry
from toskit.tosca.types.scalars import ScalarTypes
from toskit.tosca.values.check import describe
from toskit.tosca.values.defchecks import check_definitions
from toskit.tosca.values.evaluation import (
    ParseState,
    evaluate_outputs,
    load_function_definitions,
    without_cascades,
)

if TYPE_CHECKING:
    from toskit.tosca.load.catalog import ProfileCatalog

__all__ = ["load", "loads", "check_text", "build", "run"]


Resolver = Callable[[str, "str | None"], str]


def _as_catalog(profiles: Any, limits: dict[str, Any]) -> ProfileCatalog | None:
    """:func:`~toskit.tosca.load.catalog.as_catalog`, its module imported only
    for ``profiles=``: without it a load never needs the catalog (#31 start-up)."""
    if profiles is None:
        return None
    from toskit.tosca.load.catalog import as_catalog

    return as_catalog(profiles, limits)


def loads(
    text: str,
    *,
    name: str = "<string>",
    inputs: Mapping[str, Any] | None = None,
    resolver: Resolver | None = None,
    root: str | os.PathLike | None = None,
    max_per_code: int | None = MAX_PER_CODE,
    profiles: Any = None,
    **limits: int,
) -> ServiceTemplate:
    """Load a TOSCA template from text. Never raises for problems in the template.

    ``profiles``: folders (or a :class:`~toskit.tosca.load.catalog.ProfileCatalog`)
    where ``- profile: name:version`` imports are looked up (docs/profiles.md).

    ``root``: the folder local imports must stay inside (default: the
    enclosing project of ``name``'s folder -- the nearest folder holding
    ``.git`` or ``TOSCA-Metadata/TOSCA.meta`` -- else that folder; the
    current directory stands for ``"<string>"``'s folder; docs/limits.md).
    ``max_per_code``: diagnostics of one code listed per file, then a summary (``None``: all).

    Misuse (``text`` not a ``str``, an unknown limit keyword, a limit that is
    not a positive integer, a resolver that is not callable) is a
    :class:`toskit.ToskitError`.
    """
    if not isinstance(text, str):
        raise ToskitError(
            f"loads() expects YAML text (str), got {type(text).__name__}"
            + ("; to read a file use toskit.load(path)" if isinstance(text, os.PathLike) else "")
        )
    if not isinstance(name, str):
        raise ToskitError(f"loads(name=...) must be a str, got {type(name).__name__}")
    fill = _check_options(resolver, limits)
    catalog = _as_catalog(profiles, limits)
    with _LOADING, fill_budget(**fill):
        doc = load_yaml(text, name=name, parser=None, **limits)
        return build(
            doc,
            inputs=inputs,
            resolver=resolver,
            limits=limits,
            root=root,
            max_per_code=max_per_code,
            profiles=catalog,
        )


def load(
    path: str | os.PathLike,
    *,
    inputs: Mapping[str, Any] | None = None,
    resolver: Resolver | None = None,
    root: str | os.PathLike | None = None,
    max_per_code: int | None = MAX_PER_CODE,
    profiles: Any = None,
    **limits: int,
) -> ServiceTemplate:
    """Load a TOSCA template file; ``ToskitError`` only if the file cannot be read.

    ``profiles``: folders (or a :class:`~toskit.tosca.load.catalog.ProfileCatalog`)
    where ``- profile: name:version`` imports are looked up (docs/profiles.md).

    ``root``: the folder local imports must stay inside (default: the
    enclosing project -- the nearest folder above the template holding
    ``.git`` or ``TOSCA-Metadata/TOSCA.meta`` -- else the template's folder;
    docs/limits.md).
    ``max_per_code``: diagnostics of one code listed per file, then a summary (``None``: all).

    ``path`` must be a ``str`` or ``os.PathLike`` (an ``int`` is refused rather
    than read as a file descriptor); bad options are a ``ToskitError`` as for
    :func:`loads`.
    """
    if not isinstance(path, str | os.PathLike):
        raise ToskitError(
            f"load() expects a file path (str or os.PathLike), got {type(path).__name__}"
            + ("; to load YAML text use toskit.loads(text)" if isinstance(path, bytes) else "")
        )
    fill = _check_options(resolver, limits)
    catalog = _as_catalog(profiles, limits)
    if is_csar(path):
        # A CSAR archive: its entry document, imports resolved inside it.
        with _LOADING, fill_budget(**fill):
            doc, importer = open_csar(path, resolver, **limits)
            return run(
                doc, _checked_inputs(inputs), importer, max_per_code=max_per_code, profiles=catalog
            )
    with _LOADING, fill_budget(**fill):
        doc = load_yaml_file(path, **limits)
        return build(
            doc,
            inputs=inputs,
            resolver=resolver,
            limits=limits,
            root=root,
            max_per_code=max_per_code,
            profiles=catalog,
        )


def _check_options(resolver: Any, limits: dict[str, Any]) -> dict[str, int]:
    """Refuse a resolver that cannot be called and bad loader limits (``ToskitError``).

    The fill-in bounds (``max_expanded``, ``max_fill_depth``,
    ``max_fill_total``: :mod:`toskit.tosca.types.expansion`) are taken out of
    ``limits`` and returned; the rest are the document and import limits.
    """
    if resolver is not None and not callable(resolver):
        raise ToskitError(
            f"resolver must be a function (url, base) -> text, got {type(resolver).__name__}"
        )
    known = [*LIMIT_DEFAULTS, *FILL_LIMITS]
    for key in limits:
        if key not in known:
            hint = did_you_mean(key, known)
            raise ToskitError(
                f"unknown keyword argument {key!r}: the loader limits are "
                f"{', '.join(known)}" + (f" ({hint})" if hint else "")
            )
    fill = {key: limits.pop(key) for key in FILL_LIMITS if key in limits}
    for key, value in list(fill.items()):
        if value is None:
            del fill[key]  # the default, as for the other limits
        elif not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ToskitError(f"loader limit {key} must be a positive integer, not {value!r}")
    try:
        resolve_limits(limits)
    except (TypeError, ValueError) as exc:
        raise ToskitError(str(exc)) from None
    return fill


# Loading: the cyclic garbage collector paused. A load allocates hundreds of
# thousands of small acyclic objects; the collector's repeated passes over
# them made load time grow faster than the template (measured again for
# issue 15: 5,000 node templates load ~1.4x faster with it paused).
# Reference counting still frees everything, and a loaded template holds no
# reference cycles. Nothing in toskit raises the recursion limit: the
# loader's own walks over values are iterative (check.check_value,
# may_hold_calls) or recurse one frame per level of a value bounded by the
# YAML depth limit, and function calls nest at most
# toskit.functions._limits.MAX_CALL_DEPTH deep (about 500 frames).
# ``toskit.runtime.deep_walk`` keeps these process-wide settings (re-entrant, threads).
_PAUSED = deep_walk(0, pause_gc=True)

# A load that leaves this many young objects hands them to the oldest
# generation unscanned before the collector resumes. deep_walk does the
# same only past 50,000 (its other users are small merges in loops), and a
# 1,000-node B1 load leaves 47,000 to 57,000, depending on what the caller
# freed just before: below the mark, the first allocation after the load
# ran a young collection over all of them, 6-9 ms of a ~55 ms load (issue
# 23). A load's objects live as long as the template, which holds no
# reference cycles; ~250 B1 node templates leave about this many.
PROMOTE_LOAD_AFTER = 10_000


class _Loading:
    """``deep_walk(0, pause_gc=True)`` that, on leaving, promotes a load's
    young objects (``PROMOTE_LOAD_AFTER``) as ``deep_walk`` does after a
    larger block: ``gc.freeze()`` + ``gc.unfreeze()``, never when the process
    froze objects itself (``gc.unfreeze()`` would release them)."""

    __slots__ = ()

    def __enter__(self) -> None:
        _PAUSED.__enter__()

    def __exit__(self, *exc: object) -> None:
        # Still paused here: nothing is collected between the two calls.
        if gc.get_count()[0] >= PROMOTE_LOAD_AFTER and gc.get_freeze_count() == 0:
            gc.freeze()  # also zeroes the young count: deep_walk does not promote again
            gc.unfreeze()
        _PAUSED.__exit__(*exc)


_LOADING = _Loading()


def check_text(text: str, name: str = "<string>") -> list[Diagnostic]:
    """The diagnostics of a template given as text (what ``toskit check`` prints)."""
    return loads(text, name=name).diagnostics


def build(
    doc: YamlDocument,
    *,
    inputs: Mapping[str, Any] | None = None,
    resolver: Resolver | None = None,
    limits: dict | None = None,
    root: str | os.PathLike | None = None,
    max_per_code: int | None = MAX_PER_CODE,
    profiles: ProfileCatalog | None = None,
) -> ServiceTemplate:
    """Build a :class:`ServiceTemplate` from a loaded YAML document."""
    importer = Importer(resolver, root=root, **(limits or {}))
    return run(doc, _checked_inputs(inputs), importer, max_per_code=max_per_code, profiles=profiles)


def _checked_inputs(inputs: Any) -> Mapping[str, Any] | None:
    if inputs is not None and not isinstance(inputs, Mapping):
        raise ToskitError(
            f"inputs must be a mapping of input names to values, not {type(inputs).__name__}"
        )
    return inputs


def run(
    doc: YamlDocument,
    inputs: Mapping[str, Any] | None,
    importer: Importer,
    max_per_code: int | None = MAX_PER_CODE,
    profiles: ProfileCatalog | None = None,
) -> ServiceTemplate:
    """The pipeline: document checks, imports, definitions, inputs, entities,
    requirements, evaluation, workflows, outputs (see the module docstring).

    Fill-ins from defaults spend the budget of the load (``load``/``loads``
    open it with their options); called on its own, with the default bounds.
    """
    budget = active_budget()
    if budget is None:
        with fill_budget():
            return run(doc, inputs, importer, max_per_code=max_per_code, profiles=profiles)
    diags: list[Diagnostic] = list(doc.diagnostics)
    root, version, grammar = _document(doc, diags)

    imported = load_imports(doc, root, grammar, importer, diags, profiles)
    registry = Registry(base=registry_for(version, grammar.major))
    registry.opaque_prefixes = imported.opaque_prefixes
    if imported.scopes:
        registry.set_scopes(imported.top, imported.scopes)
    diags.extend(registry.add_sources(imported.sources))
    ctx = LoadContext(
        doc=doc,
        grammar=grammar,
        registry=registry,
        scalars=ScalarTypes(registry),
        value_type=registry.value_types(),
        diags=diags,
        passed_inputs=dict(inputs or {}),
        # ``None``: a template check (a missing input is ``info``); a mapping:
        # the caller asked for a resolved template (a missing one is an error).
        inputs_given=inputs is not None,
        parsing=ParseState(call_names_1x=functions.INTRINSICS_1_X | functions.registered_names()),
    )
    topology = root.get(grammar.topology_key)
    if not isinstance(topology, Mapping):
        topology = {}
    tparts: tuple[Hashable, ...] = (grammar.topology_key,)
    if grammar.major == 2:
        # Before the definition checks: their validation clauses may call
        # the document's own functions.
        load_function_definitions(ctx, imported.functions, root, topology, tparts)
    check_definitions(ctx)
    diags.extend(check_template_artifacts(registry, doc, topology, tparts))
    if grammar.major == 1:
        diags.extend(check_filter_names(registry, doc, topology, tparts))
    ctx.input_resolver = InputResolver(ctx, topology.get("inputs"), (*tparts, "inputs"))
    diags.extend(
        check_template_interfaces(
            registry, doc, topology, tparts, ctx.inputs.definitions, grammar.major == 2
        )
    )

    # The entities phase's state (it substitutes inputs: created once they are).
    ctx.merge_caches = MergeCaches(ctx)
    nodes = build_entities(
        ctx, topology, tparts, "node_templates", "node", NodeTemplate, "node template"
    )
    rels = build_entities(
        ctx,
        topology,
        tparts,
        "relationship_templates",
        "relationship",
        RelationshipTemplate,
        "relationship template",
    )
    groups = build_entities(ctx, topology, tparts, "groups", "group", GroupTemplate, "group")
    policies = build_entities(ctx, topology, tparts, "policies", "policy", PolicyTemplate, "policy")
    for node in nodes.values():
        build_capabilities(ctx, node)

    diags.extend(resolve_requirements(ctx, nodes, rels))
    diags.extend(ctx.inputs.diagnostics)

    graph = ctx.template_graph = TemplateGraph(ctx, nodes, rels)
    everything: list[EntityTemplate] = [
        *nodes.values(),
        *rels.values(),
        *groups.values(),
        *policies.values(),
    ]
    for node in nodes.values():
        everything.extend(node.capabilities.values())
    graph.evaluate_all(everything)
    check_pending(ctx.merge.pending)

    if grammar.major == 2:
        diags.extend(check_workflows(doc, registry, ctx.value_type, topology, tparts, nodes))
    _substitution_type(ctx, topology, tparts)
    outputs = evaluate_outputs(ctx, topology, tparts)

    diags.extend(budget.diagnostics())  # the load's total of fill-ins, if crossed
    diags = without_cascades(diags, ctx.parsing.unparsed_roots)  # a malformed call is one mistake
    _release(ctx, everything)
    desc = root.get("description")
    return ServiceTemplate(
        name=doc.name,
        version=version,
        registry=registry,
        diagnostics=sort_diagnostics(diags),
        # The first N of each code in each file listed, then a summary (#19).
        max_per_code=max_per_code,
        node_templates=nodes,
        relationship_templates=rels,
        groups=groups,
        policies=policies,
        inputs=ctx.inputs.values,
        outputs=outputs,
        description=desc if isinstance(desc, str) else None,
        metadata=root.get("metadata") if isinstance(root.get("metadata"), Mapping) else None,
        document=doc,
    )


def _document(doc: YamlDocument, diags: list[Diagnostic]) -> tuple[Mapping, Any, Grammar]:
    """The document's root map, version and grammar; checks of keynames and anchors."""
    root = doc.value
    if root is None:
        root = {}
    if not isinstance(root, Mapping):
        diags.append(
            doc.diagnostic(
                "error",
                "invalid-definition",
                f"a TOSCA document must be a map, got {describe(root)}",
                (),
            )
        )
        root = {}
    version, grammar, vdiags = detect_version(doc, root)
    if isinstance(doc.value, Mapping) or not doc.diagnostics and doc.value is None:
        # A document that did not parse at all has no version to miss.
        diags.extend(vdiags)
    diags.extend(check_keynames(doc, root, grammar.document))
    diags.extend(check_dsl_anchors(doc, root, grammar.major))
    return root, version, grammar


def _substitution_type(ctx: LoadContext, topology: Mapping, tparts: tuple[Hashable, ...]) -> None:
    """``substitution_mappings.node_type`` names a node type (``unknown-type``)."""
    mappings = topology.get("substitution_mappings")
    name = mappings.get("node_type") if isinstance(mappings, Mapping) else None
    if not isinstance(name, str) or ctx.registry.lookup("node", name) is not None:
        return
    if ctx.registry.is_opaque(name):
        return  # a type from a profile toskit does not have
    ctx.diags.append(
        ctx.doc.diagnostic(
            "error",
            "unknown-type",
            f"substitution mappings: unknown node type '{name}'",
            (*tparts, "substitution_mappings", "node_type"),
            hint=ctx.registry.unknown_hint("node", name),
            misspelt=str(name),
            candidates=ctx.registry.fix_candidates("node", name),
        )
    )


def _release(ctx: LoadContext, entities: list[EntityTemplate]) -> None:
    """Drop the back references only loading needs.

    Without cycles, a template that is no longer used is freed at once by
    reference counting instead of waiting for the cyclic collector (which
    makes repeated loads of large templates slower and slower).
    """
    for entity in entities:
        entity._resolution.entity = None
    ctx.graph.release()
    ctx.template_graph = None
    ctx.merge_caches = None  # the entities phase's caches and its (run) queue
    ctx.inputs.build = None
