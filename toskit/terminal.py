"""Text for a terminal: control characters from documents made visible.

Template text reaches the command line's output (messages quote keys and
values, diagnostics echo the source line). Printed raw, an ESC sequence in
a template could retitle the terminal (OSC), hide lines, move the cursor or
forge a "0 errors" line; a carriage return or line feed inside a key could
do the same. :func:`terminal_safe` replaces each control character with a
visible stand-in *of one character* where one exists, so a caret under a
source line still points at the right column:

* C0 controls (U+0000–U+001F, except TAB) become the Unicode "control
  pictures" U+2400–U+241F (ESC is shown as ``␛``, LF as ``␊``); DEL
  becomes ``␡``;
* C1 controls (U+0080–U+009F, which include the 8-bit CSI and OSC) and the
  invisible bidirectional and line-separator characters (which can reorder
  or split what a reader sees) become ``\\x9b`` / ``\\u202e`` escapes.

TAB is kept: it is harmless and needed to line the caret up under
tab-indented text.
"""

from __future__ import annotations

from typing import Any, TextIO

__all__ = ["TerminalStream", "terminal_safe"]

_TABLE: dict[int, str] = {code: chr(0x2400 + code) for code in range(0x20) if code != 0x09}
_TABLE[0x7F] = "\u2421"
_TABLE.update({code: f"\\x{code:02x}" for code in range(0x80, 0xA0)})
_TABLE.update(
    {
        code: f"\\u{code:04x}"
        for code in (
            0x061C,
            0x200E,
            0x200F,
            0x2028,
            0x2029,
            *range(0x202A, 0x202F),
            *range(0x2066, 0x206A),
        )
    }
)


# What a whole output stream may still carry: its own line breaks.
_STREAM_TABLE = {code: shown for code, shown in _TABLE.items() if code != 0x0A}


def terminal_safe(text: str) -> str:
    """``text`` with every control character replaced by a visible stand-in."""
    return text.translate(_TABLE)


class TerminalStream:
    """A text stream that shows control characters before they reach ``target``.

    The command line writes through one of these, so that a subcommand which
    prints document text (``toskit diff`` values, for instance) cannot send an
    escape sequence to the terminal. Line feeds are kept (they are the
    output's own lines); fields that may hold a line feed of their own are
    escaped with :func:`terminal_safe` before they are printed.
    """

    def __init__(self, target: TextIO) -> None:
        self._target = target

    def write(self, text: str) -> int:
        shown = text.translate(_STREAM_TABLE)
        try:
            self._target.write(shown)
        except UnicodeEncodeError:
            # A terminal that is not UTF-8 (PYTHONIOENCODING=ascii): the
            # stand-ins and any other character it lacks become \u escapes.
            encoding = getattr(self._target, "encoding", None) or "ascii"
            self._target.write(shown.encode(encoding, "backslashreplace").decode(encoding))
        return len(text)

    def flush(self) -> None:
        self._target.flush()

    def __getattr__(self, name: str) -> Any:  # encoding, isatty(), fileno()…
        return getattr(self._target, name)
