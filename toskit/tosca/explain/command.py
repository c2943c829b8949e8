"""``toskit explain FILE PATH [--format text|json]`` and
``toskit blame FILE [--node NAME] [--full]``.

``toskit.cli`` imports this on use (``toskit check`` never loads it). Both
commands load the file, print, and exit 0, or 2 when the file cannot be read
or the path (``--node``) names nothing; the message then has a did-you-mean.
"""

from __future__ import annotations

from typing import Any

from toskit.errors import ToskitError
from toskit.tosca import load
from toskit.tosca.explain.blame_yaml import blame
from toskit.tosca.explain.build import explain
from toskit.tosca.explain.model import ExplainError, explanation_json

__all__ = ["run"]


def run(args: Any, out: Any, err: Any) -> int:
    """Run ``args.command`` (``explain`` or ``blame``): 0, or 2 when it cannot run."""
    try:
        template = load(args.file)
    except ToskitError as exc:
        err.write(f"toskit {args.command}: {exc}\n")
        return 2
    try:  # an ExplainError's message starts with the command's name
        if args.command == "blame":
            limits = {"value_limit": None, "was_limit": None} if args.full else {}
            text = blame(template, args.node, **limits)
        elif args.format == "json":
            text = explanation_json(explain(template, args.path)) + "\n"
        else:
            text = str(explain(template, args.path)) + "\n"
    except ExplainError as exc:
        err.write(f"toskit {exc}\n")
        return 2
    out.write(text)
    return 0
