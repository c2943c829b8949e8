"""``dsl_definitions`` entries must carry a YAML anchor.

TOSCA's ``dsl_definitions`` section exists only to hold YAML anchors
(``&name``) that the rest of the file reuses through aliases (``*name``);
its keys mean nothing to TOSCA. An entry without an anchor can never be
used, so it is almost certainly a mistake (a forgotten ``&``): an error
``missing-anchor`` in TOSCA 2.0, a warning in 1.x, where older tools were
lenient.

Parsed values do not keep anchors, so this reads the YAML event stream of
the document's text, and only up to the end of the ``dsl_definitions``
section. Text PyYAML cannot parse was already reported by the loader; it is
skipped here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toskit.diagnostics import Diagnostic
from toskit.source import YamlDocument

__all__ = ["check_dsl_anchors"]


def check_dsl_anchors(doc: YamlDocument, root: Mapping, major: int) -> list[Diagnostic]:
    """``missing-anchor`` for each ``dsl_definitions`` entry written without ``&anchor``."""
    section = root.get("dsl_definitions")
    if not isinstance(section, Mapping) or not section:
        return []
    # PyYAML only for a document with this section (toskit check of other files
    # does not import it: issue #31).
    import yaml

    try:
        unanchored = _unanchored_keys(doc.text)
    except yaml.YAMLError:
        return []
    severity = "error" if major == 2 else "warning"
    return [
        doc.diagnostic(
            severity,
            "missing-anchor",
            f"dsl_definitions entry '{key}' has no YAML anchor, so nothing can refer to it",
            ("dsl_definitions", key),
            hint=f"write '{key}: &{key} ...' and use it elsewhere as '*{key}'",
            at_key=True,
        )
        for key in unanchored
        if key in section
    ]


def _unanchored_keys(text: str) -> list[str]:
    """Keys of the top-level ``dsl_definitions`` map whose value has no anchor."""
    import yaml

    parser: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    events = iter(yaml.parse(text, Loader=parser))
    if not _to_section(events):
        return []
    return _section_unanchored(events)


def _to_section(events: Iterator[Any]) -> bool:
    """Read ``events`` up to the start of the root map's ``dsl_definitions``
    map (``False``: the document has none)."""
    import yaml

    start = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    end = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    depth = 0
    expect_key = False  # at depth 1: is the next event a key of the root map?
    key: str | None = None
    for event in events:
        if isinstance(event, start):
            depth += 1
            if (
                depth == 2
                and key == "dsl_definitions"
                and isinstance(event, yaml.MappingStartEvent)
            ):
                return True
            if depth == 1:
                expect_key = True
                continue
        elif isinstance(event, end):
            depth -= 1
            if depth == 1:
                expect_key = True
            continue
        if depth == 1 and isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent)):
            if expect_key:
                key = getattr(event, "value", None)
                expect_key = False
            else:
                expect_key = True
    return False


def _section_unanchored(events: Iterator[Any]) -> list[str]:
    """The keys whose value has no anchor, reading ``events`` from just inside
    the ``dsl_definitions`` map to its end."""
    import yaml

    start = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    end = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    depth = 2
    expect_key = True
    key: str | None = None
    found: list[str] = []
    for event in events:
        if depth == 2:
            if isinstance(event, yaml.MappingEndEvent):
                return found  # end of the section: stop reading
            if expect_key:
                key = event.value if isinstance(event, yaml.ScalarEvent) else None
                expect_key = False
            else:
                anchor = getattr(event, "anchor", None)
                if key is not None and not anchor and not isinstance(event, yaml.AliasEvent):
                    found.append(key)
                expect_key = True
        if isinstance(event, start):
            depth += 1
        elif isinstance(event, end):
            depth -= 1
    return found
