"""Every diagnostic code toskit can emit, in one place.

:data:`CODES` maps each stable kebab-case code of a
:class:`toskit.Diagnostic` to a :class:`CodeInfo`: its usual severity and a
one-line description. Outputs that describe rules (SARIF's
``tool.driver.rules``, the docs) read it; ``tests/test_codes.py`` fails when
the package uses a code in a diagnostic that is not listed here, or lists one
that nothing produces.

``severity`` is the severity the code is reported with in the common case;
``severities`` every severity it can have (``import-cycle`` is ``info``;
``missing-input`` is ``info`` for a plain check and an ``error`` when inputs
were given; a summary of capped diagnostics keeps its code's severity).
"""

from __future__ import annotations

from toskit.records import record

__all__ = ["CODES", "CodeInfo", "code_info"]


@record(frozen=True)
class CodeInfo:
    """What one diagnostic code means: its usual severity and a description."""

    code: str
    severity: str
    description: str
    severities: tuple[str, ...] = ()
    #: The part of toskit that produces it (``source``, ``tosca``, ``functions``,
    #: ``schema``, ``conditions``, ``dsl``).
    area: str = "tosca"

    def __post_init__(self) -> None:
        if not self.severities:
            object.__setattr__(self, "severities", (self.severity,))


def _table(*rows: tuple) -> dict[str, CodeInfo]:
    out: dict[str, CodeInfo] = {}
    for row in rows:
        code, severity, area, description, *more = row
        out[code] = CodeInfo(code, severity, description, tuple(more[0]) if more else (), area)
    return out


#: code -> :class:`CodeInfo`, sorted by code.
CODES: dict[str, CodeInfo] = _table(
    # YAML source, imports and CSAR archives (toskit.source)
    ("yaml-syntax", "error", "source", "the text is not valid YAML"),
    ("duplicate-key", "error", "source", "a key written twice in one mapping"),
    (
        "limit-exceeded",
        "error",
        "source",
        "a document or value over a bound (size, depth, alias expansion, call depth, steps)",
    ),
    ("import-error", "error", "source", "an import that cannot be loaded"),
    (
        "import-cycle",
        "info",
        "source",
        "imports that loop; each file is still loaded once",
        ("info", "warning"),
    ),
    ("import-above-root", "warning", "source", "an import that climbs above the archive's root"),
    ("csar-error", "error", "source", "a CSAR archive that cannot be read (metadata, entry point)"),
    # toskit check's reports (toskit.report): a file that could not be checked at all
    (
        "file-unreadable",
        "error",
        "cli",
        "a file that cannot be read (missing, not a regular file, not UTF-8)",
    ),
    (
        "internal-error",
        "error",
        "cli",
        "toskit failed while checking the file (a bug: please report it)",
    ),
    (
        "changed-value",
        "warning",
        "cli",
        "toskit diff --fail-on changes: an effective property value the new version changes",
    ),
    # TOSCA documents (toskit.tosca)
    ("missing-version", "warning", "tosca", "no tosca_definitions_version"),
    ("unknown-version", "error", "tosca", "a tosca_definitions_version toskit does not know"),
    ("version-not-first", "error", "tosca", "tosca_definitions_version is not the first key (2.0)"),
    ("unknown-profile", "warning", "tosca", "a profile (or import namespace) toskit does not have"),
    (
        "duplicate-profile",
        "error",
        "tosca",
        "two files of the profile catalog declare the same profile and version",
    ),
    (
        "profile-catalog",
        "warning",
        "tosca",
        "a file of the profile catalog that cannot be read or indexed",
    ),
    ("unknown-keyname", "error", "tosca", "a keyname TOSCA does not define at that place"),
    ("missing-keyname", "error", "tosca", "a keyname TOSCA requires at that place is missing"),
    (
        "invalid-definition",
        "error",
        "tosca",
        "a definition whose value has the wrong shape",
        ("error", "warning"),
    ),  # warning: an empty description (issue 38)
    ("unknown-type", "error", "tosca", "a type name that resolves to nothing"),
    ("missing-type", "error", "tosca", "a template or definition without its type"),
    ("derivation-cycle", "error", "tosca", "derived_from loops"),
    (
        "incompatible-refinement",
        "error",
        "tosca",
        "a redefined property's type does not derive from the parent's",
    ),
    ("missing-property", "error", "tosca", "a required property has no value and no default"),
    (
        "unknown-property",
        "error",
        "tosca",
        "a property (or data type field) the type does not declare",
    ),
    ("unknown-attribute", "error", "tosca", "an attribute the type does not declare"),
    ("type-mismatch", "error", "tosca", "a value of the wrong type"),
    ("constraint-violation", "error", "tosca", "a 1.x constraint fails"),
    ("validation-failed", "error", "tosca", "a 2.0 validation clause is false"),
    ("invalid-constraint", "error", "tosca", "a constraint or validation clause that is malformed"),
    (
        "fixed-value",
        "error",
        "tosca",
        "a value that differs from a fixed (2.0) value of its definition",
    ),
    (
        "missing-input",
        "info",
        "tosca",
        "a required input without a value (info for a plain check, an error when inputs are given)",
        ("info", "error"),
    ),
    (
        "unknown-input",
        "warning",
        "tosca",
        "a value given for an input the template does not declare",
    ),
    ("unknown-capability", "error", "tosca", "a capability the node type does not declare"),
    ("unknown-requirement", "error", "tosca", "a requirement the node type does not declare"),
    (
        "unknown-node",
        "error",
        "tosca",
        "a requirement (or reference) naming a node template that does not exist",
    ),
    (
        "unfulfilled-requirement",
        "warning",
        "tosca",
        "a requirement below its lower occurrence bound",
    ),
    (
        "requirement-count",
        "error",
        "tosca",
        "more assignments of a requirement than its occurrences allow",
    ),
    ("unresolved-requirement", "warning", "tosca", "a requirement no node template can satisfy"),
    (
        "ambiguous-requirement",
        "warning",
        "tosca",
        "a requirement several node templates can satisfy",
    ),
    (
        "invalid-requirement-target",
        "error",
        "tosca",
        "a requirement's target offers no capability of the type the requirement names",
    ),
    (
        "invalid-relationship-target",
        "error",
        "tosca",
        "a requirement whose target does not suit the relationship's valid target types",
    ),
    ("unknown-interface", "error", "tosca", "an interface the type does not declare"),
    ("unknown-operation", "error", "tosca", "an operation the interface does not declare"),
    (
        "unknown-operation-input",
        "error",
        "tosca",
        "a workflow step's input the operation does not declare",
    ),
    (
        "missing-operation-input",
        "error",
        "tosca",
        "a required operation input without a value in a workflow step",
    ),
    ("copy-cycle", "error", "tosca", "templates whose copy keynames loop"),
    ("invalid-copy", "error", "tosca", "a copy keyname naming a template that cannot be copied"),
    (
        "missing-anchor",
        "warning",
        "tosca",
        "a dsl_definitions entry without a YAML anchor (nothing can refer to it; an error in 2.0)",
        ("warning", "error"),
    ),
    # Function calls (toskit.functions)
    (
        "malformed-function",
        "error",
        "functions",
        "a malformed function call ($ key beside other keys, bad arguments)",
    ),
    ("unknown-function", "error", "functions", "a $name that is neither built in nor declared"),
    ("function-error", "error", "functions", "a function call that fails when evaluated"),
    ("dollar-literal", "warning", "functions", "a $name string kept as literal text"),
    (
        "invalid-function-definition",
        "error",
        "functions",
        "a functions: definition (2.0) that is malformed",
    ),
    (
        "unchecked-constraint",
        "info",
        "functions",
        "a constraint toskit cannot decide for a value (a call)",
    ),
    # Schemas (toskit.schema)
    ("schema-error", "error", "schema", "a schema document that is malformed"),
    ("union-conflict", "error", "schema", "union members that conflict"),
    ("invalid-value", "error", "schema", "a value a schema rejects (constraint, enum, pattern)"),
    # Role conditions (toskit.conditions)
    ("condition-schema", "error", "conditions", "a role-condition document that is malformed"),
    ("expression-syntax", "error", "conditions", "a condition expression that does not parse"),
    ("expression-error", "error", "conditions", "a condition expression that cannot be evaluated"),
    (
        "fuel-release",
        "error",
        "conditions",
        "a Fuel release file (fixture records) that is malformed",
    ),
    ("unknown-document", "error", "conditions", "neither a roles document nor a Fuel release file"),
    (
        "unknown-role",
        "warning",
        "conditions",
        "a role name (conflicts, _hasRole('…')) that is a near miss of a role of the document",
    ),
    (
        "unknown-setting",
        "warning",
        "conditions",
        "a settings:group.attribute path that is a near miss of a setting of the release file",
    ),
    # Python DSL (toskit.dsl)
    ("python-error", "error", "dsl", "a Python template module that fails to run"),
    ("duplicate-template", "error", "dsl", "two templates with one name"),
    ("duplicate-type", "error", "dsl", "two types with one name"),
    ("invalid-type-name", "error", "dsl", "a type name that is not a valid TOSCA name"),
    ("missing-template-name", "error", "dsl", "a template without a name"),
    ("unannotated-attribute", "warning", "dsl", "a class attribute without a type annotation"),
    ("value-cycle", "error", "dsl", "values that refer to each other"),
    ("invalid-annotation", "error", "dsl", "a type annotation toskit cannot map to TOSCA"),
)
CODES = dict(sorted(CODES.items()))


def code_info(code: str) -> CodeInfo | None:
    """The :class:`CodeInfo` of ``code``, or ``None`` for a code toskit does not emit."""
    return CODES.get(code)
