"""``toskit check --format junit``: a JUnit XML report, for CI test tabs.

The shape is the one JUnit readers agree on (Jenkins' ``junit-10.xsd``,
GitLab, Azure, the ``junitparser`` family)::

    <testsuites name="toskit check" tests="2" failures="1" errors="0" skipped="0" time="0">
      <testsuite name="toskit check" tests="2" failures="1" errors="0" skipped="0" time="0">
        <testcase name="service.yaml" classname="toskit.check" file="service.yaml" time="0">
          <failure type="unknown-property" message="12:9: node template 'a': …">
            service.yaml:12:9: error[unknown-property]: …</failure>
          <system-out>service.yaml:3:1: warning[missing-version]: …</system-out>
        </testcase>
        …

* one ``testsuite`` for the run, one ``testcase`` per file (named by its
  path), in input order;
* one ``failure`` per error finding (``type`` its code, ``message`` its
  ``line:column: message``, the text its full ``file:line:column:
  severity[code]: message`` line and hint);
* a file that could not be checked (unreadable, crashed) has an ``error``
  element instead (JUnit's "the test could not run"), counted in
  ``errors``;
* warnings and infos do not fail a test: each is one line of the
  testcase's ``system-out``, written like the text output's headline;
* ``time`` is 0: toskit does not time files (reports stay reproducible).

Text that XML 1.0 cannot carry (control characters, lone surrogates) is
shown as visible stand-ins (``␛``, ``\\ufffd``), so a hostile key never
makes the report unparsable.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable

from toskit.diagnostics import Diagnostic, abbreviate
from toskit.report import CRASH, UNREADABLE, CheckedFile, findings, visible

__all__ = ["CLASSNAME", "SUITE", "headline", "render"]

SUITE = "toskit check"
CLASSNAME = "toskit.check"

# Not allowed in XML 1.0 text: C0 controls but TAB/LF/CR, surrogates, U+FFFE/U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _visible(char: str) -> str:
    # A C0 control has a control picture (as in the text output); the rest
    # (surrogates, non-characters) become the replacement character.
    return visible(char) if char < " " else "\ufffd"


def _text(value: str) -> str:
    """Element text: line breaks kept, anything XML 1.0 cannot carry made visible."""
    return _NOT_XML.sub(lambda m: _visible(m.group()), value)


def _attr(value: str) -> str:
    """An attribute value: every control character made visible (one line)."""
    return _text(visible(value))


def _position(diag: Diagnostic) -> str:
    if diag.line is None:
        return ""
    return f"{diag.line}:{diag.column}" if diag.column is not None else str(diag.line)


def headline(diag: Diagnostic, fallback_file: str) -> str:
    """``file:line:column: severity[code]: message``, as the text output's first line."""
    location = diag.file or fallback_file
    if diag.line is not None:
        location += f":{_position(diag)}"
    code, message = abbreviate(diag.code), abbreviate(diag.message)
    return f"{abbreviate(location)}: {diag.severity}[{code}]: {message}"


def _body(diag: Diagnostic, fallback_file: str) -> str:
    text = headline(diag, fallback_file)
    if diag.hint:
        text += f"\n  hint: {abbreviate(diag.hint)}"
    return text


def render(results: Iterable[CheckedFile]) -> str:
    """The JUnit XML report of a run (UTF-8 text with its XML declaration)."""
    suite = ET.Element("testsuite")
    tests = failures = errors = 0
    for result in results:
        tests += 1
        case = ET.SubElement(
            suite, "testcase", {"name": _attr(result.path), "classname": CLASSNAME}
        )
        case.set("file", _attr(result.path))
        case.set("time", "0")
        found = findings(result)
        broken = [d for d in found if d.code in (UNREADABLE, CRASH)]
        failed = [d for d in found if d.severity == "error" and d not in broken]
        others = [d for d in found if d.severity != "error"]
        # Children in the order junit-10.xsd requires: error*, failure*, system-out.
        for diag in broken:
            element = ET.SubElement(
                case,
                "error",
                {"type": _attr(diag.code), "message": _attr(abbreviate(diag.message))},
            )
            element.text = _text(_body(diag, result.path))
            errors += 1
        for diag in failed:
            message = (
                f"{_position(diag)}: {abbreviate(diag.message)}"
                if diag.line is not None
                else abbreviate(diag.message)
            )
            element = ET.SubElement(
                case, "failure", {"type": _attr(diag.code), "message": _attr(message)}
            )
            element.text = _text(_body(diag, result.path))
            failures += 1
        if others:
            out = ET.SubElement(case, "system-out")
            out.text = _text("\n".join(_body(d, result.path) for d in others) + "\n")
    counts = {
        "tests": str(tests),
        "failures": str(failures),
        "errors": str(errors),
        "skipped": "0",
        "time": "0",
    }
    suite.attrib = {"name": SUITE, **counts, **suite.attrib}
    root = ET.Element("testsuites", {"name": SUITE, **counts})
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
