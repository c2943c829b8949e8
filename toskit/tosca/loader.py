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

import gc
import os
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from toskit import functions
from toskit.diagnostics import Diagnostic, did_you_mean, format_path, sort_diagnostics
from toskit.errors import FunctionSyntaxError
from toskit.functions.evaluate import evaluate_calls
from toskit.sentinels import NO_DEFAULT
from toskit.source import Importer, YamlDocument, load_yaml, load_yaml_file
from toskit.tosca.check import NULL_TYPES, CheckContext, check_value, describe
from toskit.tosca.definitions import PRIMITIVES, PropertyDefinition, Type
from toskit.tosca.grammar import GRAMMAR_1, GRAMMAR_2, TYPE_SECTIONS, VERSIONS, Grammar
from toskit.tosca.graph import TemplateGraph
from toskit.tosca.inputs import InputResolver
from toskit.tosca.keynames import check_keynames
from toskit.tosca.profile import normative_registry
from toskit.tosca.registry import KINDS, Registry, TypeSource
from toskit.tosca.requirements import resolve_requirements
from toskit.tosca.resolve import (
    ABSENT,
    Origin,
    Resolution,
    ValueType,
    merge_property,
    missing_default_fields,
)
from toskit.tosca.scalars import check_scalar_definition, scalar_info
from toskit.tosca.service import ServiceTemplate
from toskit.tosca.template import (
    CapabilityTemplate,
    EntityTemplate,
    GroupTemplate,
    NodeTemplate,
    PolicyTemplate,
    RelationshipTemplate,
)

__all__ = ["load", "loads", "check_text", "build"]

# ``profile:`` imports of the normative types (always loaded anyway).
NORMATIVE_PROFILE_PREFIXES = (
    "org.oasis-open.simple",
    "org.oasis-open.tosca.simple",
    "tosca-simple",
    "tosca.simple",
)

Resolver = Callable[[str, "str | None"], str]


def loads(
    text: str,
    *,
    name: str = "<string>",
    inputs: Mapping[str, Any] | None = None,
    resolver: Resolver | None = None,
    **limits: int,
) -> ServiceTemplate:
    """Load a TOSCA template from text. Never raises for problems in the template."""
    with gc_paused():
        doc = load_yaml(text, name=name, **limits)
        return build(doc, inputs=inputs, resolver=resolver, limits=limits)


def load(
    path: str | os.PathLike,
    *,
    inputs: Mapping[str, Any] | None = None,
    resolver: Resolver | None = None,
    **limits: int,
) -> ServiceTemplate:
    """Load a TOSCA template file; ``ToskitError`` only if the file cannot be read."""
    with gc_paused():
        doc = load_yaml_file(path, **limits)
        return build(doc, inputs=inputs, resolver=resolver, limits=limits)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a template loads.

    Loading allocates hundreds of thousands of small, acyclic objects; the
    collector's repeated full passes over them made load time grow faster
    than the template (2-3x slower at 5,000 node templates). Reference
    counting still frees everything; the collector resumes afterwards.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def check_text(text: str, name: str = "<string>") -> list[Diagnostic]:
    """The diagnostics of a template given as text (what ``toskit check`` prints)."""
    return loads(text, name=name).diagnostics


def detect_version(doc: YamlDocument, root: Mapping) -> tuple[str, Grammar, list[Diagnostic]]:
    """The version string, its grammar, and ``missing-version``/``unknown-version``."""
    diags: list[Diagnostic] = []
    written = root.get("tosca_definitions_version")
    if isinstance(written, str) and written in VERSIONS:
        grammar = VERSIONS[written]
        if grammar.major == 2 and next(iter(root)) != "tosca_definitions_version":
            # TOSCA 2.0: the version must come first, so tools can tell the grammar
            # before reading the rest.
            diags.append(
                doc.diagnostic(
                    "error",
                    "version-not-first",
                    "tosca_definitions_version must be the first keyname of a TOSCA 2.0 file",
                    ("tosca_definitions_version",),
                    at_key=True,
                )
            )
        return written, grammar, diags
    inferred = (
        GRAMMAR_1 if "topology_template" in root and "service_template" not in root else GRAMMAR_2
    )
    if written is None:
        diags.append(
            doc.diagnostic(
                "warning",
                "missing-version",
                f"no tosca_definitions_version; assuming {inferred.version}",
                (),
                hint=f"add 'tosca_definitions_version: {inferred.version}' as the first line",
            )
        )
        return inferred.version, inferred, diags
    diags.append(
        doc.diagnostic(
            "error",
            "unknown-version",
            f"unknown tosca_definitions_version {written!r}; reading it as {inferred.version}",
            ("tosca_definitions_version",),
            hint=did_you_mean(str(written), VERSIONS) or f"known versions: {', '.join(VERSIONS)}",
        )
    )
    return (written if isinstance(written, str) else inferred.version), inferred, diags


class _Build:
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
        self.passed_inputs = dict(inputs or {})
        self.importer = Importer(resolver, **limits)
        self.reported: set = set()
        self.opaque_prefixes: set[str] = set()
        self._default_layers: dict[
            int, tuple[PropertyDefinition, list[tuple[Any, Origin]], bool]
        ] = {}
        self._parsed_clauses: dict[int, tuple[Any, Any]] = {}
        self._scalar_info: dict[int, tuple[Type, Any]] = {}
        self.foreign_roots: list[tuple[tuple[Hashable, ...], YamlDocument]] = []
        self.known_functions: list[str] = []
        # Names that make a 1.x single-key map a call (built-ins and the registry).
        self.call_names_1x = functions.INTRINSICS_1_X | functions.registered_names()
        self.imported_functions: list[tuple[Any, str | None, YamlDocument]] = []
        self.function_defs: dict[str, Any] = {}
        self.pending: list[tuple[CheckContext, PropertyDefinition, ValueType, Any]] = []
        self._vt_cache: dict[tuple[str | None, str | None], ValueType] = {}
        self._cap_defs: dict[
            tuple[str, str], tuple[Type | None, dict[str, PropertyDefinition]]
        ] = {}

    # -- value types -------------------------------------------------------

    def value_type(self, name: str | None, owner: Type | None) -> ValueType:
        prefix = owner.prefix if owner is not None else None
        key = (name, prefix)
        try:
            return self._vt_cache[key]
        except KeyError:
            pass
        vt = self.registry.value_type(name, prefix) if name is not None else None
        self._vt_cache[key] = vt
        return vt

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

    def parse_value(self, value: Any, doc: YamlDocument, parts: tuple[Hashable, ...]) -> Any:
        """``value`` as a tree of calls (the file's function dialect); malformed calls reported."""
        if not _may_hold_calls(value, self.grammar.major == 2, self.call_names_1x):
            return value
        try:
            parsed = functions.parse(
                value,
                self.grammar.functions_version,
                known=self.known_functions,
                diagnostics=self.diags,
                path=parts,
                make_diagnostic=doc.diagnostic,
            )
        except FunctionSyntaxError as exc:
            self.diags.extend(exc.diagnostics)
            return value
        if doc is not self.doc and parsed is not value and functions.contains_call(parsed):
            self.foreign_roots.append((tuple(parts), doc))
        return parsed

    def make_diagnostic(
        self, severity: str, code: str, message: str, parts: Any = (), **kwargs: Any
    ) -> Diagnostic:
        """``YamlDocument.diagnostic`` of the document a value tree came from."""
        parts = tuple(parts)
        for prefix, doc in self.foreign_roots:
            if parts[: len(prefix)] == prefix:
                return doc.diagnostic(severity, code, message, parts, **kwargs)
        return self.doc.diagnostic(severity, code, message, parts, **kwargs)

    # -- the pipeline ------------------------------------------------------

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

        sources: list[TypeSource] = []
        self._load_imports(doc, root, None, [doc.name], sources, set())
        sources.extend(_type_sources(doc, root, None))
        self.registry = Registry(base=normative_registry(grammar.major))
        self.registry.opaque_prefixes = self.opaque_prefixes
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
        outputs = self._outputs(topology, tparts)

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

    # -- imports -----------------------------------------------------------

    def _load_imports(
        self,
        doc: YamlDocument,
        root: Mapping,
        prefix: str | None,
        chain: list[str],
        sources: list[TypeSource],
        seen: set[str],
    ) -> None:
        imports = root.get("imports")
        if not isinstance(imports, list):
            return
        for index, entry in enumerate(imports):
            url: Any = entry
            ns: Any = None
            if isinstance(entry, Mapping):
                url = entry.get("url", entry.get("file"))
                ns = entry.get("namespace", entry.get("namespace_prefix"))
                if url is None and "profile" in entry:
                    self._profile_import(doc, entry, ("imports", index), prefix)
                    continue
            parts = ("imports", index)
            try:
                loaded = self.importer.load_import(url, doc, chain, parts=parts)
            except (NotImplementedError, TypeError) as exc:
                self.diags.append(
                    doc.diagnostic("error", "import-error", f"cannot import {url!r}: {exc}", parts)
                )
                continue
            if isinstance(loaded, Diagnostic):
                self.diags.append(loaded)
                continue
            full_prefix = _join_prefix(prefix, ns if isinstance(ns, str) and ns else None)
            key = f"{loaded.name}|{full_prefix}"
            if key in seen:
                continue
            seen.add(key)
            self.diags.extend(loaded.diagnostics)
            iroot = loaded.value if isinstance(loaded.value, Mapping) else {}
            iversion = iroot.get("tosca_definitions_version")
            igrammar = (
                VERSIONS.get(iversion, self.grammar) if isinstance(iversion, str) else self.grammar
            )
            if isinstance(iversion, str) and iversion not in VERSIONS:
                self.diags.extend(detect_version(loaded, iroot)[2])
            self.diags.extend(check_keynames(loaded, iroot, igrammar.document))
            if igrammar.major == 2 and iroot.get("functions") is not None:
                self.imported_functions.append((iroot["functions"], full_prefix, loaded))
            self._load_imports(loaded, iroot, full_prefix, [*chain, loaded.name], sources, seen)
            sources.extend(_type_sources(loaded, iroot, full_prefix))

    def _profile_import(
        self, doc: YamlDocument, entry: Mapping, parts: tuple[Hashable, ...], prefix: str | None
    ) -> None:
        """``- profile: name``: the normative profile is always loaded; others are not available."""
        name = entry.get("profile")
        if isinstance(name, str) and name.startswith(NORMATIVE_PROFILE_PREFIXES):
            return
        ns = entry.get("namespace")
        if isinstance(ns, str) and ns:
            # Names in this namespace cannot be checked: not an error to use them
            # (seen from the importing file's own namespace, and from the top).
            self.opaque_prefixes.add(ns)
            if prefix:
                self.opaque_prefixes.add(f"{prefix}:{ns}")
        self.diags.append(
            doc.diagnostic(
                "warning",
                "unknown-profile",
                f"profile {name!r} is not available to toskit; its types cannot be checked",
                (*parts, "profile"),
            )
        )

    # -- templates -----------------------------------------------------------

    def _entities(
        self,
        topology: Mapping,
        tparts: tuple[Hashable, ...],
        section: str,
        kind: str,
        cls: type[EntityTemplate],
        label: str,
    ) -> dict[str, EntityTemplate]:
        raw = topology.get(section)
        out: dict[str, EntityTemplate] = {}
        items: list[tuple[Any, Any, tuple[Hashable, ...]]] = []
        if isinstance(raw, Mapping):
            items = [(name, value, (*tparts, section, name)) for name, value in raw.items()]
        elif isinstance(raw, list):  # 1.x policies: a list of single-key maps
            for index, entry in enumerate(raw):
                if isinstance(entry, Mapping) and len(entry) == 1:
                    ((name, value),) = entry.items()
                    items.append((name, value, (*tparts, section, index, name)))
        by_name = {str(name): value for name, value, _ in items}
        for name, value, parts in items:
            if not isinstance(value, Mapping):
                continue  # reported by the keyname check
            if "copy" in value:
                value = self._copied(by_name, str(name), value, parts, label)
            out[str(name)] = self._entity(str(name), value, parts, kind, cls, f"{label} '{name}'")
        return out

    def _copied(
        self,
        by_name: Mapping[str, Any],
        name: str,
        raw: Mapping,
        parts: tuple[Hashable, ...],
        label: str,
    ) -> Mapping:
        """A template written with ``copy: other``: the other's keynames under its own."""
        chain = [name]
        source = raw
        merged: dict[str, Any] = {}
        while isinstance(source, Mapping) and "copy" in source:
            other = source.get("copy")
            if not isinstance(other, str) or other not in by_name or other in chain:
                problem = "loops" if other in chain else f"names '{other}', which does not exist"
                self.diags.append(
                    self.doc.diagnostic(
                        "error",
                        "invalid-copy",
                        f"{label} '{name}': copy {problem}",
                        (*parts, "copy"),
                        hint=did_you_mean(str(other), [n for n in by_name if n != name]),
                    )
                )
                break
            chain.append(other)
            for key, item in source.items():
                merged.setdefault(key, item)
            source = by_name[other]
        if isinstance(source, Mapping):
            for key, item in source.items():
                merged.setdefault(key, item)
        merged.pop("copy", None)
        return merged

    def _resolve_type(
        self, kind: str, raw: Mapping, parts: tuple[Hashable, ...], label: str
    ) -> tuple[Type, bool]:
        type_name = raw.get("type")
        found = self.registry.lookup(kind, type_name) if type_name is not None else None
        if found is not None:
            return found, True
        if self.registry.is_opaque(type_name):
            pass  # a type from a profile toskit does not have: no error, nothing to check
        elif type_name is None:
            self.diags.append(
                self.doc.diagnostic(
                    "error", "missing-type", f"{label} has no type", parts, at_key=True
                )
            )
        else:
            self.diags.append(
                self.doc.diagnostic(
                    "error",
                    "unknown-type",
                    f"{label}: unknown {kind} type '{type_name}'",
                    (*parts, "type"),
                    hint=did_you_mean(str(type_name), self.registry.names(kind)),
                )
            )
        root = self.registry.roots.get(kind)
        return (root if root is not None else Type(str(type_name), kind)), False

    def _entity(
        self,
        name: str,
        raw: Mapping,
        parts: tuple[Hashable, ...],
        kind: str,
        cls: type[EntityTemplate],
        label: str,
    ) -> EntityTemplate:
        etype, known = self._resolve_type(kind, raw, parts, label)
        definitions = etype.properties if known else {}
        resolution = self.resolve_properties(
            label,
            etype,
            definitions,
            raw.get("properties"),
            parts,
            check_unknown=known,
            require_values=not _is_abstract(raw),
        )
        kwargs: dict[str, Any] = {}
        if cls is GroupTemplate:
            members = raw.get("members")
            kwargs["members"] = (
                [m for m in members if isinstance(m, str)] if isinstance(members, list) else []
            )
        if cls is PolicyTemplate:
            targets = raw.get("targets")
            kwargs["targets"] = (
                [t for t in targets if isinstance(t, str)] if isinstance(targets, list) else []
            )
        desc = raw.get("description")
        entity = cls(
            name,
            etype,
            definitions=definitions,
            resolution=resolution,
            value_type=self.value_type,
            description=desc if isinstance(desc, str) else None,
            metadata=raw.get("metadata"),
            parts=parts,
            type_known=known,
            **kwargs,
        )
        if isinstance(entity, NodeTemplate):
            directives = raw.get("directives")
            entity.directives = (
                [d for d in directives if isinstance(d, str)]
                if isinstance(directives, list)
                else []
            )
            count = raw.get("count", 1)
            entity.count = (
                count
                if isinstance(count, int) and not isinstance(count, bool) and count >= 0
                else 1
            )
            entity.raw = raw  # type: ignore[attr-defined]
        return entity

    def resolve_properties(
        self,
        label: str,
        owner: Type | None,
        definitions: Mapping[str, PropertyDefinition],
        raw_props: Any,
        entity_parts: tuple[Hashable, ...],
        *,
        check_unknown: bool = True,
        doc: YamlDocument | None = None,
        props_parts: tuple[Hashable, ...] | None = None,
        require_values: bool = True,
    ) -> Resolution:
        """Merge and check one entity's properties (see :mod:`.resolve`, :mod:`.check`).

        ``entity_parts`` locate the entity (where a missing property is
        reported when nothing else fits); ``props_parts`` is the document
        path of its properties (default: ``entity_parts`` + ``properties``).
        """
        doc = doc or self.doc
        res = Resolution()
        if props_parts is None:
            props_parts = (*entity_parts, "properties")
        has_props = isinstance(raw_props, Mapping)
        anchor = props_parts if raw_props is not None else entity_parts
        res.origins[()] = Origin("template", doc, anchor)
        ctx = CheckContext(
            label=label,
            path_prefix=props_parts,
            doc=doc,
            anchor=anchor,
            origins=res.origins,
            value_type=self.value_type,
            diagnostics=self.diags,
            reported=self.reported,
            validator=self.validate_clauses if self.grammar.major == 2 else None,
            owner=res,
            require_values=require_values,
            scalar_info=self.scalar_info,
        )
        template_values: Mapping = raw_props if has_props else {}
        if raw_props is not None and not has_props:
            ctx.report("type-mismatch", (), f"properties must be a map, got {describe(raw_props)}")
        parsed = {
            key: self.parse_value(item, doc, (*props_parts, key))
            for key, item in template_values.items()
        }
        for pname, pdef in definitions.items():
            layer = None
            if pname in parsed:
                layer = (parsed[pname], Origin("template", doc, (*props_parts, pname)))
            vt = self.value_type(pdef.type, owner)
            value = merge_property(pdef, layer, vt, res, self)
            if (
                (
                    pname in parsed
                    and parsed[pname] is not template_values[pname]
                    and functions.contains_call(parsed[pname])
                )
                or (pdef.default_layers and self.defaults_have_calls(pdef))
                or self.inputs.has_calls
            ):
                res.calls.add(pname)
            if value is ABSENT or (value is None and pdef.required and pdef.type not in NULL_TYPES):
                if value is None:
                    res.values[pname] = None
                if pdef.required and require_values:
                    self._report_missing(ctx, pdef, vt)
                continue
            res.values[pname] = value
            # Checked after evaluation (calls first become values): see _check_all.
            self.pending.append((ctx, res, pdef, vt))
        for key, item in parsed.items():
            if key in definitions:
                continue
            if check_unknown:
                ctx.report(
                    "unknown-property",
                    (key,),
                    f"unknown property '{key}' (not declared by {owner.name if owner else 'its type'})",
                    hint=did_you_mean(str(key), definitions),
                    at_key=True,
                )
            value, origin = self.substitute(item, Origin("template", doc, (*props_parts, key)))
            if functions.contains_call(value):
                res.calls.add(str(key))
            res.values[key] = value
            res.origins[(key,)] = origin
        return res

    def scalar_info(self, t: Type) -> Any:
        """Units and number type of a 2.0 scalar type (cached per load)."""
        info = self._scalar_info.get(id(t))
        if info is None:
            info = self._scalar_info[id(t)] = (t, scalar_info(t, self.registry))
        return info[1]

    def _check_definitions(self) -> None:
        """Defaults of the document's own definitions, and 2.0 attributes' types.

        A default of a primitive type (or a type derived from one) is checked
        where it is written; data-typed defaults may be partial (their type's
        defaults complete them), so they are checked in templates instead.
        """
        for kind in KINDS:
            for t in self.registry.by_kind[kind].values():
                if t.doc is None:
                    continue
                label = f"{kind} type '{t.name}'"
                if kind == "data" and self.grammar.major == 2:
                    self.diags.extend(check_scalar_definition(t, self.registry))
                if self.grammar.major == 2:
                    self._definition_clauses(t)
                for pname, pdef in t.own_properties.items():
                    abstract = pdef.type == "scalar" or (
                        pdef.entry_schema is not None and pdef.entry_schema.type == "scalar"
                    )
                    if abstract and pdef.schema.doc is not None:
                        self.diags.append(
                            t.doc.diagnostic(
                                "error",
                                "invalid-definition",
                                f"{label}: property '{pname}' uses the abstract type 'scalar'; "
                                "define a type derived from it",
                                (*t.parts, "properties", pname),
                                at_key=True,
                            )
                        )
                for pname, pdef in t.own_properties.items():
                    if pdef.default_layers and pdef.default_layers[-1].type_name == t.name:
                        layer = pdef.default_layers[-1]
                        self._check_default(
                            label, t, pname, layer.value, pdef.schema, layer.parts, "properties"
                        )
                attributes = t.definition.get("attributes")
                if not isinstance(attributes, Mapping):
                    continue
                for aname, araw in attributes.items():
                    parts = (*t.parts, "attributes", aname)
                    if not isinstance(araw, Mapping):
                        continue
                    if self.grammar.major == 2 and araw.get("type") is None and t.parent is None:
                        self.diags.append(
                            t.doc.diagnostic(
                                "error",
                                "missing-type",
                                f"{label}: attribute '{aname}' has no type",
                                parts,
                                at_key=True,
                            )
                        )
                        continue
                    if "default" in araw:
                        schema = self.registry.schema_def(araw, t.doc, parts, t.prefix, self.diags)
                        self._check_default(
                            label,
                            t,
                            str(aname),
                            araw["default"],
                            schema,
                            (*parts, "default"),
                            "attributes",
                        )

    def _definition_clauses(self, t: Type) -> None:
        """Parse the validation clauses a type writes (reports problems where written)."""
        schemas = [t.schema] if t.kind == "data" else []
        for pdef in t.own_properties.values():
            schema = pdef.schema
            while schema is not None:
                schemas.append(schema)
                if schema.key_schema is not None:
                    schemas.append(schema.key_schema)
                schema = schema.entry_schema
        for schema in schemas:
            if schema.validation is not None and schema.doc is t.doc:
                self.clause_tree(schema.validation, schema)

    def _check_default(
        self,
        label: str,
        t: Type,
        name: str,
        value: Any,
        schema: Any,
        parts: tuple[Hashable, ...],
        section: str,
    ) -> None:
        vt = self.value_type(schema.type, t)
        if vt is None or (isinstance(vt, Type) and vt.base_primitive is None):
            return
        assert t.doc is not None
        tree = self.parse_value(value, t.doc, parts)
        ctx = CheckContext(
            label=label,
            path_prefix=(*t.parts, section),
            doc=t.doc,
            anchor=parts,
            origins={(name,): Origin("default", t.doc, parts)},
            value_type=self.value_type,
            diagnostics=self.diags,
            reported=self.reported,
            scalar_info=self.scalar_info,
        )
        check_value(ctx, tree, schema, vt, (name,))

    def _check_all(self) -> None:
        """Type checks and validation of every merged, evaluated property."""
        for ctx, res, pdef, vt in self.pending:
            name = pdef.name
            check_value(ctx, res.values[name], pdef.schema, vt, (name,), name in res.calls)
        self.pending = []

    def clause_tree(self, raw: Any, schema: Any) -> Any:
        """A validation clause parsed once per load; ``None`` when it cannot run.

        A clause calling a function nobody knows is reported once, where it is
        written (``unknown-function``), and then not run for every value.
        """
        key = id(raw)
        cached = self._parsed_clauses.get(key)
        if cached is None:
            doc = schema.doc or self.doc
            parts = (*schema.parts, "validation")
            tree = self.parse_value(raw, doc, parts)
            unknown = [c for c in _calls(tree) if not self._known_function(c)]
            for call in unknown:
                known = sorted({*functions.BUILTINS_2_0, *self.function_defs})
                self.diags.append(
                    doc.diagnostic(
                        "error",
                        "unknown-function",
                        f"unknown function '{call.qualified_name}' in a validation clause",
                        call.path or parts,
                        hint=did_you_mean(call.qualified_name, known),
                    )
                )
            cached = self._parsed_clauses[key] = (raw, None if unknown else tree)
        return cached[1]

    def _known_function(self, call: Any) -> bool:
        name = call.qualified_name
        return (
            (call.namespace is None and name in functions.BUILTINS_2_0)
            or name in self.function_defs
            or name in functions.registered_names()
        )

    def validate_clauses(
        self,
        ctx: CheckContext,
        value: Any,
        clauses: list[tuple[Any, Any]],
        rel: tuple,
        prim: str | None,
    ) -> None:
        """Run 2.0 ``validation`` clauses on a checked value (``validation-failed``)."""
        trees = []
        for raw, schema in clauses:
            tree = self.clause_tree(raw, schema)
            if tree is not None:
                trees.append(tree)
        if not trees:
            return
        doc, parts = ctx.where(rel)
        entity = getattr(ctx.owner, "entity", None)
        self_view = self.graph.view_of(entity) if entity is not None else None
        found = functions.check_value(
            value,
            validations=trees,
            value_type=prim,
            inputs=self.inputs.values,
            version="2.0",
            context=self.graph,
            self_entity=self_view,
            path=parts,
            make_diagnostic=(doc or self.doc).diagnostic,
            subject=f"{ctx.label}: property '{format_path(rel)}'",
        )
        path = format_path((*ctx.path_prefix, *rel))
        self.diags.extend(replace(d, path=path) for d in found)

    def _outputs(self, topology: Mapping, tparts: tuple[Hashable, ...]) -> dict[str, Any]:
        """Output values, evaluated where possible (a call that cannot be stays a call)."""
        raw = topology.get("outputs")
        out: dict[str, Any] = {}
        if not isinstance(raw, Mapping):
            return out
        for name, definition in raw.items():
            if not isinstance(definition, Mapping) or "value" not in definition:
                continue
            parts = (*tparts, "outputs", name, "value")
            tree = self.parse_value(definition["value"], self.doc, parts)
            if functions.contains_call(tree):
                tree = evaluate_calls(
                    tree,
                    self.inputs.values,
                    diagnostics=self.diags,
                    make_diagnostic=self.make_diagnostic,
                    version=self.grammar.functions_version,
                    context=self.graph,
                    input_types=self.inputs.types,
                    definitions=self.function_defs,
                )
            out[str(name)] = tree
        return out

    def _function_definitions(
        self, root: Mapping, topology: Mapping, tparts: tuple[Hashable, ...]
    ) -> None:
        """``functions:`` sections: imported (namespaced), top level, then service template."""
        sections = [
            (section, prefix, doc, ("functions",))
            for section, prefix, doc in self.imported_functions
        ]
        if root.get("functions") is not None:
            sections.append((root["functions"], None, self.doc, ("functions",)))
        if topology.get("functions") is not None:
            sections.append((topology["functions"], None, self.doc, (*tparts, "functions")))
        for section, prefix, doc, parts in sections:
            defs, diags = functions.load_function_definitions(
                section,
                namespace=prefix,
                version="2.0",
                path=parts,
                make_diagnostic=doc.diagnostic,
                known=list(self.function_defs),
            )
            self.diags.extend(diags)
            for name, definition in defs.items():
                base = self.function_defs.get(name)
                self.function_defs[name] = (
                    functions.refine(base, definition) if base else definition
                )
        self.known_functions = list(self.function_defs)

    def _report_missing(self, ctx: CheckContext, pdef: PropertyDefinition, vt: ValueType) -> None:
        detail = ""
        if isinstance(vt, Type) and vt.base_primitive is None:
            missing = missing_default_fields(vt, self.value_type)
            if missing:
                detail = f" (no default for {', '.join(repr(m) for m in missing)} in {vt.name})"
        ctx.report(
            "missing-property",
            (pdef.name,),
            f"required property '{pdef.name}' has no value{detail}",
            at=(),
        )

    # -- capabilities ----------------------------------------------------------

    def capability_definitions(
        self, node_type: Type, cap_name: str
    ) -> tuple[Type | None, dict[str, PropertyDefinition]]:
        """The capability type and effective property definitions of one capability of a node type."""
        key = (node_type.name, cap_name)
        cached = self._cap_defs.get(key)
        if cached is not None:
            return cached
        cap_type: Type | None = None
        written: list[tuple[Type, Mapping]] = []  # (node type, capability definition), root first
        for t in node_type.chain:
            caps = t.definition.get("capabilities")
            cdef = caps.get(cap_name) if isinstance(caps, Mapping) else None
            if isinstance(cdef, str):
                cdef = {"type": cdef}
            if not isinstance(cdef, Mapping):
                continue
            written.append((t, cdef))
            if cdef.get("type") is not None:
                # The nearest written type is the one in effect (a refinement narrows it).
                cap_type = self.registry.lookup("capability", cdef["type"], t.prefix) or cap_type
        defs: dict[str, PropertyDefinition] = dict(cap_type.properties) if cap_type else {}
        for t, cdef in written:
            refinements = cdef.get("properties")
            if not isinstance(refinements, Mapping):
                continue
            for pname, praw in refinements.items():
                if isinstance(pname, str):
                    parts = (*t.parts, "capabilities", cap_name, "properties", pname)
                    defs[pname] = self.registry.property_definition(
                        t, pname, praw, defs.get(pname), parts, []
                    )
        result = (cap_type, defs)
        self._cap_defs[key] = result
        return result

    def _capabilities(self, node: NodeTemplate) -> None:
        raw = getattr(node, "raw", {})
        assigned = raw.get("capabilities") if isinstance(raw, Mapping) else None
        if not isinstance(assigned, Mapping):
            assigned = {}
        known = node.type_known
        for cap_name in node.type.capabilities:
            cap_type, defs = self.capability_definitions(node.type, cap_name)
            araw = assigned.get(cap_name)
            cparts = (*node.parts, "capabilities", cap_name)
            label = f"node template '{node.name}' capability '{cap_name}'"
            # Assigned or not, a capability's required properties need values
            # (TOSCA 2.0 conformance: an unassigned required property is an error).
            props = araw.get("properties") if isinstance(araw, Mapping) else None
            anchor = cparts if isinstance(araw, Mapping) else node.parts
            res = self.resolve_properties(
                label,
                cap_type,
                defs,
                props,
                anchor,
                props_parts=(*cparts, "properties"),
                require_values=not _is_abstract(raw),
            )
            node.capabilities[cap_name] = CapabilityTemplate(
                cap_name,
                cap_type or Type(cap_name, "capability"),
                definitions=defs,
                resolution=res,
                value_type=self.value_type,
                parts=cparts,
                node=node,
            )
        for cap_name in assigned:
            if cap_name not in node.type.capabilities and known:
                self.diags.append(
                    self.doc.diagnostic(
                        "error",
                        "unknown-capability",
                        f"node template '{node.name}': unknown capability '{cap_name}' "
                        f"(not declared by {node.type.name})",
                        (*node.parts, "capabilities", cap_name),
                        hint=did_you_mean(str(cap_name), node.type.capabilities),
                        at_key=True,
                    )
                )


def _calls(tree: Any) -> list[Any]:
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


def _may_hold_calls(value: Any, v2: bool, names_1x: frozenset[str]) -> bool:
    """Whether ``value`` may parse to something other than itself (a quick scan).

    Most property values are plain data; skipping ``functions.parse`` for them
    keeps large templates fast. The scan is conservative: anything that might
    be a call, an escape or a complex key goes through the parser.
    """
    if isinstance(value, str):
        return v2 and value.startswith("$")
    if isinstance(value, dict):
        if not v2 and len(value) == 1:
            (key,) = value
            if not isinstance(key, str) or key in names_1x:
                return True
        for key, item in value.items():
            if not isinstance(key, str) or (v2 and key.startswith("$")):
                return True
            if isinstance(item, (str, dict, list)) and _may_hold_calls(item, v2, names_1x):
                return True
        return False
    if isinstance(value, list):
        return any(
            isinstance(item, (str, dict, list)) and _may_hold_calls(item, v2, names_1x)
            for item in value
        )
    return False


def _is_abstract(raw: Any) -> bool:
    """A template the orchestrator selects or substitutes (its values may be incomplete)."""
    directives = raw.get("directives") if isinstance(raw, Mapping) else None
    return isinstance(directives, list) and any(d in ("select", "substitute") for d in directives)


def _join_prefix(outer: str | None, inner: str | None) -> str | None:
    if outer and inner:
        return f"{outer}:{inner}"
    return inner or outer


def _type_sources(doc: YamlDocument, root: Mapping, prefix: str | None) -> list[TypeSource]:
    out: list[TypeSource] = []
    for section, kind in TYPE_SECTIONS.items():
        defs = root.get(section)
        if not isinstance(defs, Mapping):
            continue
        for name, raw in defs.items():
            if not isinstance(name, str):
                continue
            full = f"{prefix}:{name}" if prefix else name
            out.append(TypeSource(kind, full, raw, doc, (section, name), prefix=prefix))
    return out


def build(
    doc: YamlDocument,
    *,
    inputs: Mapping[str, Any] | None = None,
    resolver: Resolver | None = None,
    limits: dict | None = None,
) -> ServiceTemplate:
    """Build a :class:`ServiceTemplate` from a loaded YAML document."""
    return _Build(doc, inputs, resolver, limits or {}).run()


# Keep the names importable for modules that only need them.
_ = (PRIMITIVES, NO_DEFAULT, format_path, GRAMMAR_2)
