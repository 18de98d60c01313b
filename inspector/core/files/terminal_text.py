"""Text from files, made safe to print: control characters shown as escapes, never obeyed,
and lengths capped.

A tensor name, module name, path or exception message read from a model file can hold ANSI
escape sequences (colours, cursor moves, "clear line"), carriage returns or bidi overrides
that would fake an ``error:`` line or hide text in a terminal. Each such character is
printed as its Python escape (``\\x1b``, ``\\u202e``) instead. A name can also be 100,000
characters long: a line or a table cell shows a readable prefix and says how long it was
(``capped``), so one name cannot make a 100 KB "one-line" error or pad every row of a table.
"""

from __future__ import annotations

from inspector.core.messages import NAME_LIMIT, cap_split, capped

__all__ = ["LINE_LIMIT", "NAME_LIMIT", "capped", "escape_control", "one_line"]

#: The most characters one line of text (an error, a note) takes.
LINE_LIMIT = 2000


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


def one_line(text: object, limit: int = LINE_LIMIT, *, say_length: bool = True) -> str:
    """``text`` as one line a terminal or a report shows: control characters (newlines
    too) escaped; a text longer than ``limit`` characters (read or escaped) is cut as
    ``capped`` cuts it, its length said as read (unless ``say_length`` is False: the window
    says it in a tooltip, in its own language)."""
    raw = str(text)
    if len(raw) <= limit:  # a 100 MB text is never escaped whole
        escaped = escape_control(raw)
        if len(escaped) <= limit:
            return escaped
    head, tail = cap_split(limit if say_length else limit - 1)  # (without a length, "…" fits in)
    start = _escaped_within(raw[:head], head)
    end = _escaped_within(raw[-tail:][::-1], tail, reverse=True)
    return f"{start}…{end} ({len(raw):,} characters)" if say_length else f"{start}…{end}"


def _escaped_within(chars: str, limit: int, *, reverse: bool = False) -> str:
    """The escapes of ``chars`` (read backwards from the text's end when ``reverse``), as
    many as fit in ``limit`` characters, never cut inside an escape (``\\u20`` of
    ``\\u202e``)."""
    parts: list[str] = []
    size = 0
    for ch in chars:
        shown = escape_control(ch)
        if size + len(shown) > limit:
            break
        parts.append(shown)
        size += len(shown)
    return "".join(reversed(parts) if reverse else parts)
