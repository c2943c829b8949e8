"""From YAML text to a :class:`ServiceTemplate`: the TOSCA loading pipeline.

1. parse the YAML (``toskit.source``), pick the grammar from
   ``tosca_definitions_version`` (or infer it, ``missing-version``);
2. check keynames against the grammar tables (``unknown-keyname``);
3. load imports (``import-error``, ``import-cycle``), collect type
   definitions (namespaced ones as ``ns:Name``);
4. build the registry on top of the cached normative profile;
5. resolve inputs, then every node template's, capability's, relationship
   template's, group's and policy's properties (merge with provenance, then
   validation);
6. resolve requirements to target node templates.

Nothing here raises for a problem inside the template: everything becomes a
:class:`~toskit.diagnostics.Diagnostic`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from toskit import functions
from toskit._runtime import deep_walk
from toskit.diagnostics import Diagnostic, did_you_mean, sort_diagnostics
from toskit.errors import ToskitError
from toskit.source import Importer, YamlDocument, load_yaml, load_yaml_file
from toskit.source.document import LIMIT_DEFAULTS, resolve_limits
from toskit.tosca.anchors import check_dsl_anchors
from toskit.tosca.check import CheckContext, describe
from toskit.tosca.defchecks import DefinitionChecksMixin
from toskit.tosca.definitions import PropertyDefinition, Type
from toskit.tosca.entities import EntitiesMixin
from toskit.tosca.evaluation import EvaluationMixin
from toskit.tosca.graph import TemplateGraph
from toskit.tosca.imports import ImportsMixin, type_sources
from toskit.tosca.inputs import InputResolver
from toskit.tosca.keynames import check_keynames
from toskit.tosca.profile import normative_registry
from toskit.tosca.registry import Registry, TypeSource
from toskit.tosca.requirements import resolve_requirements
from toskit.tosca.resolve import Origin, ValueType
from toskit.tosca.scalars import ScalarTypes
from toskit.tosca.service import ServiceTemplate
from toskit.tosca.template import (
    EntityTemplate,
    GroupTemplate,
    NodeTemplate,
    PolicyTemplate,
    RelationshipTemplate,
)
from toskit.tosca.versions import detect_version
from toskit.tosca.workflows import check_workflows

__all__ = ["load", "loads", "check_text", "build"]


Resolver = Callable[[str, "str | None"], str]


def loads(
    text: str,
    *,
    name: str = "<string>",
    inputs: Mapping[str, Any] | None = None,
    resolver: Resolver | None = None,
    **limits: int,
) -> ServiceTemplate:
    """Load a TOSCA template from text. Never raises for problems in the template.

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
    _check_options(resolver, limits)
    with _LOADING:
        doc = load_yaml(text, name=name, **limits)
        return build(doc, inputs=inputs, resolver=resolver, limits=limits)


def load(
    path: str | os.PathLike,
    *,
    inputs: Mapping[str, Any] | None = None,
    resolver: Resolver | None = None,
    **limits: int,
) -> ServiceTemplate:
    """Load a TOSCA template file; ``ToskitError`` only if the file cannot be read.

    ``path`` must be a ``str`` or ``os.PathLike`` (an ``int`` is refused rather
    than read as a file descriptor); bad options are a ``ToskitError`` as for
    :func:`loads`.
    """
    if not isinstance(path, str | os.PathLike):
        raise ToskitError(
            f"load() expects a file path (str or os.PathLike), got {type(path).__name__}"
            + ("; to load YAML text use toskit.loads(text)" if isinstance(path, bytes) else "")
        )
    _check_options(resolver, limits)
    with _LOADING:
        doc = load_yaml_file(path, **limits)
        return build(doc, inputs=inputs, resolver=resolver, limits=limits)


def _check_options(resolver: Any, limits: dict[str, Any]) -> None:
    """Refuse a resolver that cannot be called and bad loader limits (``ToskitError``)."""
    if resolver is not None and not callable(resolver):
        raise ToskitError(
            f"resolver must be a function (url, base) -> text, got {type(resolver).__name__}"
        )
    for key in limits:
        if key not in LIMIT_DEFAULTS:
            hint = did_you_mean(key, LIMIT_DEFAULTS)
            raise ToskitError(
                f"unknown keyword argument {key!r}: the loader limits are "
                f"{', '.join(LIMIT_DEFAULTS)}" + (f" ({hint})" if hint else "")
            )
    try:
        resolve_limits(limits)
    except (TypeError, ValueError) as exc:
        raise ToskitError(str(exc)) from None


# Loading: room for deep walks (values nested up to the loader's depth bound),
# and the cyclic garbage collector paused. A load allocates hundreds of
# thousands of small acyclic objects; the collector's repeated passes over
# them made load time grow faster than the template (2-3x slower at 5,000
# node templates). Reference counting still frees everything, and a loaded
# template holds no reference cycles. ``toskit._runtime.deep_walk`` is the
# project's one keeper of these process-wide settings (re-entrant, threads).
_LOADING = deep_walk(3000, pause_gc=True)


def check_text(text: str, name: str = "<string>") -> list[Diagnostic]:
    """The diagnostics of a template given as text (what ``toskit check`` prints)."""
    return loads(text, name=name).diagnostics


class _Build(ImportsMixin, EntitiesMixin, DefinitionChecksMixin, EvaluationMixin):
    """State of one load (one top-level document and its imports)."""

    def __init__(
        self,
        doc: YamlDocument,
        inputs: Mapping[str, Any] | None,
        resolver: Resolver | None,
        limits: dict,
    ):
        self.doc = doc
        self.diags: list[Diagnostic] = list(doc.diagnostics)
        if inputs is not None and not isinstance(inputs, Mapping):
            raise ToskitError(
                f"inputs must be a mapping of input names to values, not {type(inputs).__name__}"
            )
        self.passed_inputs = dict(inputs or {})
        # ``None``: a template check (a missing input is ``info``); a mapping:
        # the caller asked for a resolved template (a missing one is an error).
        self.inputs_given = inputs is not None
        self.importer = Importer(resolver, **limits)
        self.reported: set = set()
        self.opaque_prefixes: set[str] = set()
        self._default_layers: dict[
            int, tuple[PropertyDefinition, list[tuple[Any, Origin]], bool]
        ] = {}
        self._parsed_clauses: dict[int, tuple[Any, Any]] = {}
        self.foreign_roots: list[tuple[tuple[Hashable, ...], YamlDocument]] = []
        self.known_functions: list[str] = []
        # Names that make a 1.x single-key map a call (built-ins and the registry).
        self.call_names_1x = functions.INTRINSICS_1_X | functions.registered_names()
        self.imported_functions: list[tuple[Any, str | None, YamlDocument]] = []
        self.function_defs: dict[str, Any] = {}
        self.pending: list[tuple[CheckContext, PropertyDefinition, ValueType, Any]] = []
        self._cap_defs: dict[
            tuple[str, str], tuple[Type | None, dict[str, PropertyDefinition]]
        ] = {}

    # -- value types -------------------------------------------------------

    def _release(self, entities: list[EntityTemplate]) -> None:
        """Drop the back references only loading needs.

        Without cycles, a template that is no longer used is freed at once by
        reference counting instead of waiting for the cyclic collector (which
        makes repeated loads of large templates slower and slower).
        """
        for entity in entities:
            entity._resolution.entity = None
        self.graph.release()
        self.graph = None  # type: ignore[assignment]
        self.pending = []
        self.inputs.build = None  # type: ignore[assignment]

    # -- merge hooks (toskit.tosca.resolve.Hooks) ----------------------------

    def substitute(self, value: Any, origin: Origin) -> tuple[Any, Origin]:
        return self.inputs.resolve(value, origin)

    def default_layers(self, pdef: PropertyDefinition) -> list[tuple[Any, Origin]]:
        """``pdef``'s defaults down its type chain, parsed, with origins (once per load)."""
        key = id(pdef)
        cached = self._default_layers.get(key)
        if cached is None:
            layers = []
            for layer in pdef.default_layers:
                doc = layer.doc or self.doc
                value = self.parse_value(layer.value, doc, layer.parts)
                layers.append(
                    (value, Origin(f"default: {layer.type_name}", layer.doc, layer.parts))
                )
            has_call = any(functions.contains_call(v) for v, _ in layers)
            # Keep pdef alive with its entry, so the id stays unique during this load.
            cached = self._default_layers[key] = (pdef, layers, has_call)
        return cached[1]

    def defaults_have_calls(self, pdef: PropertyDefinition) -> bool:
        self.default_layers(pdef)
        return self._default_layers[id(pdef)][2]

    def run(self) -> ServiceTemplate:
        doc = self.doc
        root = doc.value
        if root is None:
            root = {}
        if not isinstance(root, Mapping):
            self.diags.append(
                doc.diagnostic(
                    "error",
                    "invalid-definition",
                    f"a TOSCA document must be a map, got {describe(root)}",
                    (),
                )
            )
            root = {}
        version, grammar, vdiags = detect_version(doc, root)
        self.grammar = grammar
        if isinstance(doc.value, Mapping) or not doc.diagnostics and doc.value is None:
            # A document that did not parse at all has no version to miss.
            self.diags.extend(vdiags)
        self.diags.extend(check_keynames(doc, root, grammar.document))
        self.diags.extend(check_dsl_anchors(doc, root, grammar.major))

        sources: list[TypeSource] = []
        self._load_imports(doc, root, None, [doc.name], sources, set())
        sources.extend(type_sources(doc, root, None))
        self.registry = Registry(base=normative_registry(grammar.major))
        # A plain function (not a bound method): result objects keep it.
        self.value_type = self.registry.value_types()
        self.registry.opaque_prefixes = self.opaque_prefixes
        self.scalars = ScalarTypes(self.registry)
        self.diags.extend(self.registry.add_sources(sources))
        self._check_definitions()

        topology = root.get(grammar.topology_key)
        if not isinstance(topology, Mapping):
            topology = {}
        tparts: tuple[Hashable, ...] = (grammar.topology_key,)

        if grammar.major == 2:
            self._function_definitions(root, topology, tparts)
        self.inputs = InputResolver(self, topology.get("inputs"), (*tparts, "inputs"))
        nodes = self._entities(
            topology, tparts, "node_templates", "node", NodeTemplate, "node template"
        )
        rels = self._entities(
            topology,
            tparts,
            "relationship_templates",
            "relationship",
            RelationshipTemplate,
            "relationship template",
        )
        groups = self._entities(topology, tparts, "groups", "group", GroupTemplate, "group")
        policies = self._entities(topology, tparts, "policies", "policy", PolicyTemplate, "policy")
        for node in nodes.values():
            assert isinstance(node, NodeTemplate)
            self._capabilities(node)
        self.diags.extend(resolve_requirements(self, nodes, rels))  # type: ignore[arg-type]
        self.diags.extend(self.inputs.diagnostics)
        self.graph = TemplateGraph(self, nodes, rels, self.make_diagnostic)  # type: ignore[arg-type]
        everything: list[EntityTemplate] = [
            *nodes.values(),
            *rels.values(),
            *groups.values(),
            *policies.values(),
        ]
        for node in nodes.values():
            everything.extend(node.capabilities.values())  # type: ignore[attr-defined]
        self.graph.evaluate_all(everything)
        self._check_all()
        if grammar.major == 2:
            self.diags.extend(check_workflows(self, topology, tparts, nodes))
        self._substitution_type(topology, tparts)
        outputs = self._outputs(topology, tparts)

        self._release(everything)
        desc = root.get("description")
        return ServiceTemplate(
            name=doc.name,
            version=version,
            registry=self.registry,
            diagnostics=sort_diagnostics(self.diags),
            node_templates=nodes,  # type: ignore[arg-type]
            relationship_templates=rels,  # type: ignore[arg-type]
            groups=groups,  # type: ignore[arg-type]
            policies=policies,  # type: ignore[arg-type]
            inputs=self.inputs.values,
            outputs=outputs,
            description=desc if isinstance(desc, str) else None,
            metadata=root.get("metadata") if isinstance(root.get("metadata"), Mapping) else None,
            document=doc,
        )

    def _substitution_type(self, topology: Mapping, tparts: tuple[Hashable, ...]) -> None:
        """``substitution_mappings.node_type`` names a node type (``unknown-type``)."""
        mappings = topology.get("substitution_mappings")
        name = mappings.get("node_type") if isinstance(mappings, Mapping) else None
        if not isinstance(name, str) or self.registry.lookup("node", name) is not None:
            return
        if self.registry.is_opaque(name):
            return  # a type from a profile toskit does not have
        self.diags.append(
            self.doc.diagnostic(
                "error",
                "unknown-type",
                f"substitution mappings: unknown node type '{name}'",
                (*tparts, "substitution_mappings", "node_type"),
                hint=did_you_mean(name, self.registry.names("node")),
            )
        )

    # -- imports -----------------------------------------------------------


def build(
    doc: YamlDocument,
    *,
    inputs: Mapping[str, Any] | None = None,
    resolver: Resolver | None = None,
    limits: dict | None = None,
) -> ServiceTemplate:
    """Build a :class:`ServiceTemplate` from a loaded YAML document."""
    return _Build(doc, inputs, resolver, limits or {}).run()
