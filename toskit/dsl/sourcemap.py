"""Where things are in a Python source file: classes, annotated attributes, calls.

Diagnostics about a module of DSL classes must point at the Python file
and line that wrote the offending thing. :class:`SourceIndex` parses a
file once with :mod:`ast` and answers:

* the line of a class and of each annotated attribute, with the
  attribute's docstring (the string literal right below it, the convention
  Sphinx and Unfurl use for attribute descriptions);
* the line of each keyword argument of a call, given the call's position.
"""

from __future__ import annotations

import ast
import functools
import linecache

from toskit.records import field, record

__all__ = ["AttributeInfo", "ClassInfo", "SourceIndex", "clean_docstring", "index_for"]


@record(frozen=True)
class AttributeInfo:
    """An attribute written in a class body."""

    line: int
    column: int
    docstring: str | None = None


@record
class ClassInfo:
    """A class statement: its position and its attributes (in source order)."""

    line: int
    column: int
    attributes: dict[str, AttributeInfo] = field(default_factory=dict)


@record(frozen=True)
class CallInfo:
    line: int
    column: int
    keywords: dict[str, tuple[int, int]]
    positional: tuple[tuple[int, int], ...]


def clean_docstring(text: str) -> str:
    """Like :func:`inspect.cleandoc`, but tabs inside the text stay tabs.

    The first line loses its leading spaces, the others their common
    indentation (spaces only); leading and trailing blank lines go.
    """
    lines = text.split("\n")
    indents = [len(line) - len(line.lstrip(" ")) for line in lines[1:] if line.strip()]
    margin = min(indents, default=0)
    cleaned = [lines[0].lstrip(" ")] + [line[margin:] for line in lines[1:]]
    while cleaned and not cleaned[0].strip():
        cleaned.pop(0)
    while cleaned and not cleaned[-1].strip():
        cleaned.pop()
    return "\n".join(cleaned)


class SourceIndex:
    """Positions of classes, attributes and calls in one Python source text."""

    def __init__(self, filename: str | None, text: str) -> None:
        self.filename = filename
        self.lines = text.splitlines()
        self.classes: dict[str, ClassInfo] = {}
        self.calls: dict[tuple[int, int], CallInfo] = {}
        self.module_docstring: str | None = None
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return
        self.module_docstring = ast.get_docstring(tree)
        self._index_body(tree.body, "")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                keywords = {
                    kw.arg: (kw.lineno, kw.col_offset + 1)
                    for kw in node.keywords
                    if kw.arg is not None
                }
                positional = tuple((a.lineno, a.col_offset + 1) for a in node.args)
                self.calls[(node.lineno, node.col_offset + 1)] = CallInfo(
                    node.lineno, node.col_offset + 1, keywords, positional
                )

    def _index_body(self, body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                qualname = f"{prefix}{node.name}"
                info = ClassInfo(node.lineno, node.col_offset + 1)
                statements = node.body
                for i, stmt in enumerate(statements):
                    name = None
                    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                        name = stmt.target.id
                    elif (
                        isinstance(stmt, ast.Assign)
                        and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Name)
                    ):
                        name = stmt.targets[0].id
                    if name is None:
                        continue
                    doc = None
                    following = statements[i + 1] if i + 1 < len(statements) else None
                    if (
                        isinstance(following, ast.Expr)
                        and isinstance(following.value, ast.Constant)
                        and isinstance(following.value.value, str)
                    ):
                        doc = clean_docstring(following.value.value)
                    info.attributes[name] = AttributeInfo(stmt.lineno, stmt.col_offset + 1, doc)
                # The last definition of a name wins, as it does at run time.
                self.classes[qualname] = info
                self._index_body(node.body, f"{qualname}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # Classes made inside a function have "<function>.<locals>." qualnames.
                self._index_body(node.body, f"{prefix}{node.name}.<locals>.")
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                for block in ("body", "orelse", "finalbody"):
                    self._index_body(getattr(node, block, []), prefix)
                for handler in getattr(node, "handlers", []):
                    self._index_body(handler.body, prefix)

    def line_text(self, line: int | None) -> str | None:
        """The text of a 1-based line, or ``None``."""
        if line is None or not (1 <= line <= len(self.lines)):
            return None
        return self.lines[line - 1]

    def call_at(self, line: int | None, column: int | None) -> CallInfo | None:
        """The call expression that starts at ``line``/``column``.

        Without a column (Python < 3.11), the first call on that line.
        """
        if line is None:
            return None
        if column is not None and (line, column) in self.calls:
            return self.calls[(line, column)]
        # By column (CallInfo has no order: plain sorted() raised TypeError
        # when a line held two calls).
        on_line = [c for c in self.calls.values() if c.line == line]
        return min(on_line, key=lambda c: c.column) if on_line else None


@functools.lru_cache(maxsize=64)
def _cached_index(filename: str, text: str) -> SourceIndex:
    return SourceIndex(filename, text)


def index_for(filename: str | None) -> SourceIndex | None:
    """The index of a file known to :mod:`linecache` (``None`` if unreadable)."""
    if not filename:
        return None
    lines = linecache.getlines(filename)
    if not lines:
        return None
    return _cached_index(filename, "".join(lines))
