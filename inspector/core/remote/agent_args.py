"""The arguments of a request to the agent, checked: each read gives the value or raises a
protocol error that names the argument and what it must be."""

from __future__ import annotations

from typing import Any

from inspector.core.errors import InspectorError
from inspector.core.files.inputs import InputSpecs, parse_inputs
from inspector.core.remote.protocol import ErrorKind


def _bad(name: str, wanted: str) -> InspectorError:
    return InspectorError(f"argument {name!r} must be {wanted}", kind=ErrorKind.PROTOCOL)


def text(args: dict[str, Any], name: str, default: str | None) -> Any:
    """``args[name]``: text, or ``default`` when absent."""
    value = args.get(name, default)
    if value is not None and not isinstance(value, str):
        raise _bad(name, "text")
    return value


def flag(args: dict[str, Any], name: str, default: bool = False) -> bool:
    """``args[name]``: true or false, or ``default`` when absent."""
    value = args.get(name, default)
    if not isinstance(value, bool):
        raise _bad(name, "true or false")
    return value


def number(args: dict[str, Any], name: str, default: float | None) -> Any:
    """``args[name]``: a number (not NaN) as a float, or ``default`` when absent."""
    value = args.get(name, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise _bad(name, "a number")
    return float(value)


def whole(args: dict[str, Any], name: str) -> int | None:
    """``args[name]``: a whole number, or None when absent."""
    value = args.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(name, "a whole number")
    return value


def choice(args: dict[str, Any], name: str, choices: tuple[str, ...], default: str | None) -> Any:
    """``args[name]``: one of ``choices``, or ``default`` when absent."""
    value = args.get(name, default)
    if value is not None and value not in choices:
        raise _bad(name, "one of " + ", ".join(choices))
    return None if value is None else str(value)


def shape(value: Any) -> InputSpecs | None:
    """Input specs as the window's field takes them ("1,3,224", "10,32,512; 20,32,512",
    "8,128:int64"), or one shape as a list of sizes."""
    if value is None:
        return None
    if isinstance(value, str):
        return parse_inputs(value)
    if isinstance(value, list) and all(isinstance(d, int) and not isinstance(d, bool) for d in value):
        return parse_inputs(",".join(map(str, value)))  # the same checks as typed text
    raise _bad("input_shape", "a list of sizes or text such as 1,3,224,224 or 10,32,512; 20,32,512")
