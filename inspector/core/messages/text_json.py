"""A core ``Text`` as JSON-plain values and back: its English sentence, its template id and its
arguments, so what another process said can be said in this one's language (the agent's wire,
``remote.wire``; a measuring worker's line, ``measure.fresh_runs``)."""

from __future__ import annotations

from typing import Any, Callable

from inspector.core.messages import Text

#: Nesting deeper than this is refused (a hostile line could nest arguments thousands deep).
MAX_DEPTH = 32


def encode_text(text: Text) -> dict[str, Any]:
    """One ``Text`` as its English sentence, its template id and its arguments (an argument that
    is a ``Text`` itself goes the same way)."""
    args = {name: encode_text(v) if isinstance(v, Text) else str(v) for name, v in text.args.items()}
    return {"text": str(text), "key": text.key, "args": args}


def decode_text(data: Any, at: str = "text", depth: int = 0, *, error: Callable[[str], Exception] = ValueError) -> str:
    """What ``encode_text`` sent, as a ``Text`` again; a plain string stays a string.

    A template this side does not know (a newer sender's), or arguments that do not fill it,
    give the sender's English sentence as a plain string: said, if not translated. Anything
    else that is not a text object raises ``error(one line naming where)``."""
    if isinstance(data, str):
        return data
    if depth > MAX_DEPTH:
        raise error(f"{at}: nested too deeply")
    if not isinstance(data, dict):
        raise error(f"{at}: expected text, got {type_name(data)}")
    english, key, args = data.get("text"), data.get("key"), data.get("args", {})
    if not isinstance(english, str) or not isinstance(key, str) or not isinstance(args, dict):
        raise error(f"{at}: expected text, or an object with 'text', 'key' and 'args'")
    values = {str(name): decode_text(v, f"{at}.args[{name!r}]", depth + 1, error=error) for name, v in args.items()}
    try:
        text = Text(key, **values)
    except (KeyError, TypeError, ValueError, IndexError):
        return english  # a template of another version: its English words
    return text if str(text) == english else english


def type_name(data: Any) -> str:
    """What a JSON value is, in words ("an object", "a list", "text", ...)."""
    return {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}.get(
        type(data), type(data).__name__
    )
