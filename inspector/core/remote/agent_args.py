"""The arguments of a request to the agent, checked: each read gives the value or raises a
protocol error that names the argument and what it must be."""

from __future__ import annotations

import math
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


def number(args: dict[str, Any], name: str, default: float | None, *, above: float | None = None) -> Any:
    """``args[name]``: a finite number (more than ``above``, when given) as a float, or
    ``default`` when absent. JSON's ``1e400`` reads as infinity: refused like NaN, since
    every figure made from it (a progress total, an estimate) would be one too."""
    value = args.get(name, default)
    if value is None:
        return None
    wanted = "a finite number" if above is None else f"a finite number above {above:g}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _bad(name, wanted)
    try:
        result = float(value)
    except OverflowError:  # a whole number of hundreds of digits
        raise _bad(name, wanted) from None
    if not math.isfinite(result) or (above is not None and not result > above):
        raise _bad(name, wanted)
    return result


def whole(args: dict[str, Any], name: str, *, least: int | None = None, most: int | None = None) -> int | None:
    """``args[name]``: a whole number (at least ``least``, at most ``most``, when given), or None when absent.
    ``100.0`` is the whole number 100 (JSON writers in other languages write it so); 1.5 is not."""
    value = args.get(name)
    if value is None:
        return None
    wanted = "a whole number" if least is None else f"a whole number of at least {least}"
    if most is not None:
        wanted = f"a whole number from {least if least is not None else 0} to {most}"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or (least is not None and value < least):
        raise _bad(name, wanted)
    if most is not None and value > most:
        raise _bad(name, wanted)
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
    if isinstance(value, list) and all(_size(d) for d in value):
        return parse_inputs(",".join(str(int(d)) for d in value))  # the same checks as typed text
    raise _bad("input_shape", "a list of sizes or text such as 1,3,224,224 or 10,32,512; 20,32,512")


def _size(value: Any) -> bool:
    """A size in a shape list: a whole number, or a float that is one (``224.0``)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
