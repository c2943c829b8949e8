"""Tokens, grammar and syntax tree of the role-condition expression language.

This module is the grammar in one place; it turns
text into a small tree of frozen nodes and knows nothing about evaluation
(see :mod:`toskit.conditions.expression`).

Grammar, lowest precedence first (Python's precedence, not Fuel's)::

    expression  := or_expr
    or_expr     := and_expr ( "or" and_expr )*
    and_expr    := not_expr ( "and" not_expr )*
    not_expr    := "not" not_expr | comparison
    comparison  := postfix [ comp_op postfix ]          # at most one operator
    comp_op     := "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in"
    postfix     := primary ( "." NAME [ "(" [ expression ( "," expression )* ] ")" ] )* [ "?" ]
    primary     := NUMBER | STRING | "true" | "false" | "null"
                 | MODEL NAME | PLACEHOLDER | NAME | "(" expression ")"

A ``?`` written right after a model path (``settings:foo.bar.value?``,
fuel-web's and fuel-ui's per-path non-strict lookup) makes that one data
chain lenient: a missing key gives null even in strict mode. It may only
follow a model reference or a data member of one (no space before it).

``parse(text, default_model="wizard")`` reads a bare name other than a
context variable (``Compute.vcenter``) as a key of that model, the way
fuel-ui evaluated its setup-wizard conditions (a path without a model
name belongs to the ``default`` model).

The parser is hand-written recursive descent so that a syntax error is
reported at the first token at which the text stops being the beginning of a
valid expression. Tokens are produced eagerly, but a lexical error is only
raised when the parser reaches it, so ``1 2 =`` is reported at ``2``.
"""

from __future__ import annotations

import re

from toskit.errors import ConditionError
from toskit.records import record

__all__ = [
    "Node",
    "Literal",
    "ModelRef",
    "Placeholder",
    "Variable",
    "Member",
    "Not",
    "BoolOp",
    "Compare",
    "parse",
    "children",
    "placeholders_of",
    "token_span",
    "CONTEXT_VARIABLES",
    "SPECIAL_PROPERTIES",
    "SPECIAL_METHODS",
]

# Nesting bound (parentheses, `not`, call arguments, member links): keeps
# hostile text far from Python's recursion limit.
MAX_DEPTH = 100

#: Characters of one expression that :func:`parse` reads (#37): a real
#: condition is under a kilobyte; 300,000 terms (8 MB) compiled for more
#: than 20 s. A longer one is a ``LimitExceeded`` ConditionError whose
#: diagnostic has the code ``limit-exceeded``, before any token is made.
MAX_EXPRESSION_CHARS = 100_000

KEYWORDS = frozenset({"true", "false", "null", "and", "or", "not", "in"})
CONTEXT_VARIABLES = frozenset({"selectedNodes"})
SPECIAL_PROPERTIES = frozenset(
    {"_length", "_pending_deletion", "_pending_addition", "_afterDeployment"}
)
SPECIAL_METHODS = frozenset({"_pluck", "_hasRole", "_hasDeployedRole", "_withRole"})

# --------------------------------------------------------------------------- tokens


@record(frozen=True)
class Token:
    """One token: ``kind`` is STRING, PLACEHOLDER, OP, NUMBER, MODEL, WORD,
    PUNCT, END or ERROR; ``value`` its meaning; ``pos``/``end`` offsets."""

    kind: str
    value: object
    pos: int
    end: int
    text: str

    def is_keyword(self, word: str) -> bool:
        return self.kind == "WORD" and self.value == word


_SPACE = re.compile(r"\s*")
_PLACEHOLDER = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")
_OPERATOR = re.compile(r"==|!=|<=|>=|<|>")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_MODEL = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?=[A-Za-z_])")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def tokenize(text: str) -> list[Token]:
    """The tokens of ``text``, ending with END, or with ERROR at a lexical error.

    An ERROR token carries the message in ``value``; the parser raises it
    when (and only if) it gets that far.
    """
    tokens: list[Token] = []
    pos = 0
    n = len(text)
    while True:
        space = _SPACE.match(text, pos)  # `\s*` always matches
        pos = space.end() if space else pos
        if pos >= n:
            tokens.append(Token("END", None, n, n, ""))
            return tokens
        c = text[pos]
        if c in "'\"":
            close = text.find(c, pos + 1)
            if close < 0:
                tokens.append(Token("ERROR", "Unterminated string", pos, n, text[pos:]))
                return tokens
            tokens.append(
                Token("STRING", text[pos + 1 : close], pos, close + 1, text[pos : close + 1])
            )
            pos = close + 1
            continue
        m = _PLACEHOLDER.match(text, pos) or None
        if m:
            tokens.append(Token("PLACEHOLDER", m.group(1), pos, m.end(), m.group()))
            pos = m.end()
            continue
        m = _OPERATOR.match(text, pos)
        if m:
            tokens.append(Token("OP", m.group(), pos, m.end(), m.group()))
            pos = m.end()
            continue
        m = _NUMBER.match(text, pos)
        if m and len(m.group()) > 4000:  # Python's int() refuses over 4300 digits (#19)
            tokens.append(
                Token(
                    "ERROR",
                    f"Number too long ({len(m.group())} characters)",
                    pos,
                    m.end(),
                    m.group()[:20] + "...",
                )
            )
            return tokens
        if m:
            value: object = float(m.group()) if m.group(1) else int(m.group())
            tokens.append(Token("NUMBER", value, pos, m.end(), m.group()))
            pos = m.end()
            continue
        m = _MODEL.match(text, pos)
        if m:
            tokens.append(Token("MODEL", m.group(1), pos, m.end(), m.group()))
            pos = m.end()
            continue
        m = _WORD.match(text, pos)
        if m:
            tokens.append(Token("WORD", m.group(), pos, m.end(), m.group()))
            pos = m.end()
            continue
        if c in "().,?":
            tokens.append(Token("PUNCT", c, pos, pos + 1, c))
            pos += 1
            continue
        tokens.append(Token("ERROR", f"Illegal character {describe_char(c)}", pos, pos + 1, c))
        return tokens


def describe_char(c: str) -> str:
    """``'c'`` for a visible character; an escape and its code point for an
    invisible one (``'\\x00' (U+0000)``, ``'\\u200b' (U+200B)``), so that a
    message never carries a control or zero-width character raw."""
    if c.isprintable() and not c.isspace():
        return f"'{c}'"
    code = ord(c)
    if code <= 0xFF:
        escape = f"\\x{code:02x}"
    elif code <= 0xFFFF:
        escape = f"\\u{code:04x}"
    else:
        escape = f"\\U{code:08x}"
    return f"'{escape}' (U+{code:04X})"


def printable(text: str) -> str:
    """``text`` with every invisible character written as its escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else describe_char(c)[1:].split("'")[0] for c in text)


# --------------------------------------------------------------------------- tree


@record(frozen=True)
class Node:
    """Base of the syntax tree. ``start``/``end`` are offsets into the text."""

    start: int
    end: int


@record(frozen=True)
class Literal(Node):
    """A constant: string, number, ``true``/``false`` or ``null``."""

    value: object


@record(frozen=True)
class ModelRef(Node):
    """``model:key``: the model name and its first key."""

    model: str
    key: str
    #: ``model:key?``: a missing key is null even in strict mode
    lenient: bool = False


@record(frozen=True)
class Placeholder(Node):
    """``<name>``: a value bound by ``exists``, ``recommended`` or the caller."""

    name: str


@record(frozen=True)
class Variable(Node):
    """A bare name: a context variable such as ``selectedNodes``."""

    name: str


@record(frozen=True)
class Member(Node):
    """``obj.name`` or ``obj.name(args)``; ``name_pos`` is where the name starts,
    ``chain_start`` where the whole member chain starts (for Undefined)."""

    obj: Node
    name: str
    name_pos: int
    args: tuple[Node, ...] | None  # None: not called
    chain_start: int
    #: ``?`` after the chain: a missing key is null even in strict mode
    lenient: bool = False


@record(frozen=True)
class Not(Node):
    """``not operand``."""

    operand: Node


@record(frozen=True)
class BoolOp(Node):
    """``and`` / ``or`` over two or more operands (a flat, left-to-right chain)."""

    op: str
    operands: tuple[Node, ...]


@record(frozen=True)
class Compare(Node):
    """A comparison or membership test; ``op_pos`` is where the operator starts
    (for ``not in``, where ``not`` starts)."""

    op: str
    left: Node
    right: Node
    op_pos: int


# --------------------------------------------------------------------------- parser


class _Parser:
    def __init__(self, text: str, default_model: str | None = None) -> None:
        self.text = text
        self.default_model = default_model
        self.tokens = tokenize(text)
        self.i = 0
        self.depth = 0

    # -- token helpers
    def peek(self, ahead: int = 0) -> Token:
        j = min(self.i + ahead, len(self.tokens) - 1)
        tok = self.tokens[j]
        if tok.kind == "ERROR" and ahead == 0:
            self.error(str(tok.value), tok.pos)
        return tok

    def next(self) -> Token:
        tok = self.peek()
        self.i += 1
        return tok

    def error(self, message: str, pos: int) -> ConditionError:
        raise ConditionError("SyntaxError", message, expression=self.text, position=pos)

    def unexpected(self, tok: Token, detail: str = "") -> ConditionError:
        if tok.kind == "ERROR":
            raise self.error(str(tok.value), tok.pos)
        if tok.kind == "END":
            raise self.error("Unexpected end of expression" + detail, tok.pos)
        raise self.error(f"Unexpected '{printable(tok.text)}'" + detail, tok.pos)

    def is_punct(self, tok: Token, char: str) -> bool:
        return tok.kind == "PUNCT" and tok.value == char

    # -- grammar
    def parse(self) -> Node:
        node = self.or_expr()
        tok = self.peek()
        if tok.kind != "END":
            if self.is_punct(tok, ")"):
                self.unexpected(tok, " (no '(' to close)")
            previous = self.tokens[self.i - 1] if self.i > 0 else None
            if (
                tok.kind == "STRING"
                and previous is not None
                and previous.kind == "STRING"
                and previous.end == tok.pos
            ):
                self.unexpected(
                    tok,
                    "; strings have no escapes: to include a quote, enclose the string in the "
                    "other kind "
                    """("it's" or 'say "hi"')""",
                )
            self.unexpected(tok)
        return node

    def or_expr(self) -> Node:
        items = [self.and_expr()]
        while self.peek().is_keyword("or"):
            self.next()
            items.append(self.and_expr())
        if len(items) == 1:
            return items[0]
        return BoolOp(items[0].start, items[-1].end, "or", tuple(items))

    def and_expr(self) -> Node:
        items = [self.not_expr()]
        while self.peek().is_keyword("and"):
            self.next()
            items.append(self.not_expr())
        if len(items) == 1:
            return items[0]
        return BoolOp(items[0].start, items[-1].end, "and", tuple(items))

    def deeper(self, tok: Token) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.error(f"Expression is nested too deeply (more than {MAX_DEPTH} levels)", tok.pos)

    def not_expr(self) -> Node:
        tok = self.peek()
        if tok.is_keyword("not"):
            self.next()
            self.deeper(tok)
            operand = self.not_expr()
            self.depth -= 1
            return Not(tok.pos, operand.end, operand)
        return self.comparison()

    def comp_op(self) -> tuple[str, int] | None:
        """The comparison operator at the cursor (consumed), or None."""
        tok = self.peek()
        if tok.kind == "OP":
            self.next()
            return str(tok.value), tok.pos
        if tok.is_keyword("in"):
            self.next()
            return "in", tok.pos
        if tok.is_keyword("not"):
            after = self.peek(1)
            if after.is_keyword("in"):
                self.next()
                self.next()
                return "not in", tok.pos
            # `x not` can only continue as `x not in …`
            self.i += 1
            self.unexpected(self.peek())
        return None

    def comparison(self) -> Node:
        left = self.postfix()
        found = self.comp_op()
        if found is None:
            return left
        op, op_pos = found
        if self.peek().is_keyword("not"):
            self.unexpected(
                self.peek(),
                "; 'not' cannot be a comparison operand, write it in parentheses: (not …)",
            )
        right = self.postfix()
        node = Compare(left.start, right.end, op, left, right, op_pos)
        tok = self.peek()
        chained = tok.kind == "OP" or tok.is_keyword("in")
        if tok.is_keyword("not") and self.peek(1).is_keyword("in"):
            chained = True
        if chained:
            self.error(
                "Comparisons cannot be chained; use parentheses, e.g. (a == b) == c",
                tok.pos,
            )
        return node

    def postfix(self) -> Node:
        node = self.primary()
        chain_start = node.start
        links = 0
        while self.is_punct(self.peek(), "."):
            dot = self.next()
            links += 1
            self.deeper(dot)
            name_tok = self.peek()
            if name_tok.kind != "WORD" or name_tok.value in KEYWORDS:
                self.unexpected(name_tok, " (expected a member name after '.')")
            self.next()
            args: tuple[Node, ...] | None = None
            end = name_tok.end
            if self.is_punct(self.peek(), "("):
                self.next()
                items: list[Node] = []
                self.deeper(name_tok)
                if not self.is_punct(self.peek(), ")"):
                    items.append(self.or_expr())
                    while self.is_punct(self.peek(), ","):
                        self.next()
                        items.append(self.or_expr())
                self.depth -= 1
                close = self.peek()
                if not self.is_punct(close, ")"):
                    self.unexpected(close)
                self.next()
                args = tuple(items)
                end = close.end
            node = Member(
                chain_start, end, node, str(name_tok.value), name_tok.pos, args, chain_start
            )
        self.depth -= links
        mark = self.peek()
        if self.is_punct(mark, "?"):
            return self.lenient(node, mark)
        return node

    def lenient(self, node: Node, mark: Token) -> Node:
        """``node`` marked lenient by the ``?`` right after it (fuel's
        per-path non-strict lookup); only a model path may carry one."""
        previous = self.tokens[self.i - 1]
        if previous.end != mark.pos:
            self.unexpected(mark, " ('?' must follow a model path directly, without a space)")
        if not _is_model_path(node, self.text):
            self.unexpected(mark, " ('?' can only follow a model path such as settings:a.b.value)")
        self.next()
        from toskit.records import replace

        assert isinstance(node, (Member, ModelRef))  # _is_model_path
        return replace(node, end=mark.end, lenient=True)

    def primary(self) -> Node:
        tok = self.peek()
        kind = tok.kind
        if kind in ("NUMBER", "STRING"):
            self.next()
            return Literal(tok.pos, tok.end, tok.value)
        if kind == "PLACEHOLDER":
            self.next()
            return Placeholder(tok.pos, tok.end, str(tok.value))
        if kind == "MODEL":
            self.next()
            key = self.peek()
            if key.kind != "WORD" or key.value in KEYWORDS:
                self.unexpected(key, " (expected a key after the model name)")
            self.next()
            return ModelRef(tok.pos, key.end, str(tok.value), str(key.value))
        if kind == "WORD":
            word = tok.value
            if word in ("true", "false", "null"):
                self.next()
                return Literal(tok.pos, tok.end, {"true": True, "false": False, "null": None}[word])
            if word in KEYWORDS:
                self.unexpected(tok)
            self.next()
            if self.default_model is not None and word not in CONTEXT_VARIABLES:
                # fuel-ui: a path without `model:` belongs to the default model.
                return ModelRef(tok.pos, tok.end, self.default_model, str(word))
            return Variable(tok.pos, tok.end, str(word))
        if self.is_punct(tok, "("):
            self.next()
            self.deeper(tok)
            inner = self.or_expr()
            self.depth -= 1
            close = self.peek()
            if not self.is_punct(close, ")"):
                self.unexpected(close, " (missing ')')" if close.kind == "END" else "")
            self.next()
            return _regroup(inner, tok.pos, close.end)
        self.unexpected(tok)
        raise AssertionError("unreachable")


def _is_model_path(node: Node, text: str) -> bool:
    """A model reference followed only by data members (no call, no special
    member, no parentheses in between)."""
    chain_start = node.start
    while isinstance(node, Member):
        if node.args is not None or node.name.startswith("_") or node.chain_start != chain_start:
            return False
        node = node.obj
    return (
        isinstance(node, ModelRef)
        and node.start == chain_start
        and text[node.start : node.start + 1] != "("
    )


def _regroup(node: Node, start: int, end: int) -> Node:
    """``node`` with its span widened to the parentheses around it."""
    from toskit.records import replace

    return replace(node, start=start, end=end)


# --------------------------------------------------------------------------- static checks


def _check(node: Node, text: str) -> None:
    """Static semantic errors: unknown variables and special members,
    properties called, methods not called or with the wrong arity."""
    if isinstance(node, Variable):
        if node.name not in CONTEXT_VARIABLES:
            raise ConditionError(
                "UnboundVariable",
                f"Unknown variable {node.name!r}",
                expression=text,
                position=node.start,
            )
    elif isinstance(node, Member):
        _check(node.obj, text)
        name = node.name
        if name.startswith("_"):
            if name in SPECIAL_PROPERTIES:
                if node.args is not None:
                    raise ConditionError(
                        "TypeError",
                        f"{name!r} is a property",
                        expression=text,
                        position=node.name_pos,
                    )
            elif name in SPECIAL_METHODS:
                if node.args is None or len(node.args) != 1:
                    raise ConditionError(
                        "TypeError",
                        f"{name!r} takes exactly one argument",
                        expression=text,
                        position=node.name_pos,
                    )
            else:
                raise ConditionError(
                    "UnknownSpecial",
                    f"Unknown special member {name!r}",
                    expression=text,
                    position=node.name_pos,
                )
        elif node.args is not None:
            raise ConditionError(
                "TypeError",
                f"{name!r} is not a method: only special members (such as '_pluck') can be called",
                expression=text,
                position=node.name_pos,
            )
        for arg in node.args or ():
            _check(arg, text)
    else:
        for child in children(node):
            _check(child, text)


def children(node: Node) -> tuple[Node, ...]:
    """The sub-expressions of ``node`` in text order (a member's object, then
    its arguments; a comparison's left, then right); ``()`` for a leaf.
    The one place the tree's shape is spelt out for the walks over it."""
    if isinstance(node, Member):
        return (node.obj, *(node.args or ()))
    if isinstance(node, Not):
        return (node.operand,)
    if isinstance(node, BoolOp):
        return node.operands
    if isinstance(node, Compare):
        return (node.left, node.right)
    return ()


def token_span(text: str, position: int) -> tuple[int, int]:
    """``(start, end)`` of the token at ``position`` in ``text`` (end exclusive):
    the span a finding at that position underlines. The end of the text
    is the empty span ``(len, len)``; a position between tokens is one
    character wide."""
    n = len(text)
    if position >= n:
        return n, n
    for tok in tokenize(text):
        if tok.pos <= position < tok.end:
            return (
                (position, tok.end)
                if tok.kind == "ERROR" and tok.pos < position
                else (tok.pos, tok.end)
            )
        if tok.pos > position:
            break
    return position, position + 1


def parse(text: str, default_model: str | None = None) -> Node:
    """Parse ``text`` into a syntax tree; raise ``ConditionError`` for a syntax
    error or a static error. With ``default_model``, a bare name other
    than a context variable is a key of that model (fuel-ui's wizard)."""
    if not isinstance(text, str):
        raise ConditionError(
            "TypeError", f"an expression must be a string, got {type(text).__name__}"
        )
    if len(text) > MAX_EXPRESSION_CHARS:
        raise _too_long(text)
    node = _Parser(text, default_model).parse()
    _check(node, text)
    return node


def _too_long(text: str) -> ConditionError:
    """The error of an expression over :data:`MAX_EXPRESSION_CHARS` (its
    text is not copied into the message: only its length and first words)."""
    from toskit.diagnostics import Diagnostic

    message = (
        f"the expression is {len(text):,} characters long, over the bound of "
        f"{MAX_EXPRESSION_CHARS:,} (toskit.conditions.syntax.MAX_EXPRESSION_CHARS)"
    )
    start = printable(text[:40]) + ("…" if len(text) > 40 else "")
    hint = (
        "split the condition into several restrictions, or raise the bound for a trusted "
        f"file; it starts {start!r}"
    )
    return ConditionError(
        "LimitExceeded",
        message,
        diagnostic=Diagnostic("error", "limit-exceeded", f"LimitExceeded: {message}", hint=hint),
    )


def placeholders_of(node: Node) -> frozenset[str]:
    """The placeholder names that ``node`` reads."""
    if isinstance(node, Placeholder):
        return frozenset((node.name,))
    if isinstance(node, Member):
        out = placeholders_of(node.obj)
        for arg in node.args or ():
            out |= placeholders_of(arg)
        return out
    if isinstance(node, Not):
        return placeholders_of(node.operand)
    if isinstance(node, BoolOp):
        return frozenset().union(*(placeholders_of(o) for o in node.operands))
    if isinstance(node, Compare):
        return placeholders_of(node.left) | placeholders_of(node.right)
    return frozenset()
