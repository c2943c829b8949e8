"""Function notation in a loaded template: parsing, validation clauses, outputs.

Part of the loading pipeline (:mod:`toskit.tosca.loader`): every value is
parsed in the file's dialect (``toskit.functions.parse``, skipped for plain
data by a quick scan), diagnostics are placed in the document a value came
from, 2.0 ``validation`` clauses run through ``toskit.functions.check_value``,
``functions:`` sections are loaded, and outputs are evaluated.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import replace
from typing import Any

from toskit import functions
from toskit.diagnostics import Diagnostic, did_you_mean, format_path
from toskit.errors import FunctionSyntaxError
from toskit.functions.evaluate import evaluate_calls
from toskit.source import YamlDocument
from toskit.tosca.check import CheckContext


class EvaluationMixin:
    """Methods of the loader's ``_Build`` (see the module docstring).

    The state they use (``registry``, ``diags``, ``grammar``, ``doc``…) is
    set up by ``toskit.tosca.loader._Build``.
    """

    def parse_value(self, value: Any, doc: YamlDocument, parts: tuple[Hashable, ...]) -> Any:
        """``value`` as a tree of calls (the file's function dialect); malformed calls reported."""
        if not may_hold_calls(value, self.grammar.major == 2, self.call_names_1x):
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
            unknown = [c for c in calls_in(tree) if not self._known_function(c)]
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
            defer_missing_inputs=True,
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
                    defer_missing_inputs=True,
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
    stack = [value]
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
                if not isinstance(key, str) or (v2 and key.startswith("$")):
                    return True
                if isinstance(item, (str, dict, list)):
                    stack.append(item)
        elif isinstance(node, list):
            stack.extend(item for item in node if isinstance(item, (str, dict, list)))
    return False
