"""The toskit server with one more checker, for the code-action round trip over stdio.

A plain YAML document's checker is replaced (``toskit.cli.register_checker``,
the public hook) by one that reports ``colour:`` keys as ``spelling`` with
an unambiguous fix to ``color``, so the test drives a fix it controls end to
end: the diagnostic, the code action, the edit applied by the client, the
re-check. TOSCA findings carry their own fixes (``Diagnostic.fixes``).
"""

from __future__ import annotations

import re
import sys

from toskit.cli import check_yaml, register_checker
from toskit.diagnostics import Diagnostic, Fix


def check(text: str, name: str) -> list[Diagnostic]:
    found = list(check_yaml(text, name))
    for number, line in enumerate(text.split("\n"), 1):
        for match in re.finditer(r"\bcolour(?=:)", line):
            column = match.start() + 1
            found.append(
                Diagnostic(
                    "warning",
                    "spelling",
                    "'colour' is spelled 'color' here",
                    file=name,
                    line=number,
                    column=column,
                    end_line=number,
                    end_column=column + len("colour"),
                    fixes=(
                        Fix(
                            "rename 'colour' to 'color'",
                            "color",
                            name,
                            number,
                            column,
                            number,
                            column + 6,
                        ),
                    ),
                )
            )
    return found


if __name__ == "__main__":
    register_checker("yaml", check)
    from toskit.lsp.server import serve

    sys.exit(serve())
