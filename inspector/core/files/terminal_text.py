"""Text from files, made safe to print: control characters shown as escapes, never obeyed.

A tensor name, module name, path or exception message read from a model file can hold ANSI
escape sequences (colours, cursor moves, "clear line"), carriage returns or bidi overrides
that would fake an ``error:`` line or hide text in a terminal. Each such character is
printed as its Python escape (``\\x1b``, ``\\u202e``) instead.
"""

from __future__ import annotations


def escape_control(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every non-printable character (C0/C1 controls, format characters such
    as bidi overrides, line and paragraph separators) replaced by its escape.

    ``keep_newlines`` leaves ``\\n`` alone, for text the program itself laid out in lines.
    """
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() or ch == " " or (keep_newlines and ch == "\n") else ascii(ch)[1:-1]
        for ch in text
    )
