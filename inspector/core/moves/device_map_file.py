"""A device map read from its file: accelerate's JSON, checked as an attacker wrote it.

A device map says, per module name, which device holds that module's weights: the
``device_map`` that accelerate's ``infer_auto_device_map`` returns and ``from_pretrained``
accepts, written as JSON (``{"model.embed_tokens": 0, "model.layers.0": 0, ..., "lm_head":
"cpu"}``; an integer is a CUDA index). A file may also wrap it with the budgets it was made
from: ``{"device_map": {...}, "max_memory": {"0": "10GiB", "cpu": "64GiB"}}``; the
explanations then say which budget pushed modules elsewhere. accelerate itself is not needed.

The file is read as an attacker wrote it: size-capped before parsing, every key and value
checked, every message one line with the file's text escaped. Nothing here sees a model:
applying a map is ``core.moves.device_map``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from inspector.core.devices import discovery as devices
from inspector.core.errors import InputError
from inspector.core.units import format_bytes

#: A real map has one entry per block; 16 MiB of JSON is far beyond any model's.
MAX_FILE_BYTES = 16 * 1024 * 1024
_ACCEPTED_TYPES = ("cpu", "cuda", "mps", "xpu", "meta")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}


def shown(value: Any, limit: int = 60) -> str:
    """A file's text, safe for one terminal line: repr escapes control characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class DeviceMap:
    """A checked device map: module name -> canonical device id, in the file's order."""

    entries: tuple[tuple[str, str], ...]
    #: Budgets per device id in bytes, when the file carries them.
    max_memory: tuple[tuple[str, int], ...] = ()
    source: str = ""

    def as_dict(self) -> dict[str, str]:
        return dict(self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "device_map": self.as_dict(), "max_memory": dict(self.max_memory)}


def parse_map_device(value: Any) -> str:
    """accelerate's device values -> our ids: ``0`` -> ``cuda:0``, ``"cuda"`` -> ``cuda:0``."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(f"{shown(value)} is not a device (use a GPU index such as 0, or cpu, cuda:1, mps, xpu:0, meta)")
    if isinstance(value, int):
        if value < 0:
            raise InputError(f"{value} is not a GPU index (indices start at 0)")
        return f"cuda:{value}"
    text = value.strip()
    if text == "disk":
        raise InputError("'disk' (accelerate's offload to disk) cannot be applied here: map those modules to cpu or meta")
    if text.isdigit():
        return f"cuda:{int(text)}"
    if len(text) > 32:
        raise InputError(f"{shown(value)} is not a device name")
    try:
        device = torch.device(text)
    except (RuntimeError, TypeError, ValueError):
        raise InputError(f"{shown(value)} is not a device name (try cpu, cuda:0, mps, xpu:0 or meta)") from None
    if device.type not in _ACCEPTED_TYPES:
        raise InputError(f"{shown(value)} is a device type this app does not place on (use {', '.join(_ACCEPTED_TYPES)})")
    return "meta" if device.type == "meta" else devices.device_id(device)


def _parse_size(value: Any, key: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str):
        m = _SIZE.match(value)
        if m:
            return int(float(m.group(1)) * _UNITS[(m.group(2) or "").upper()])
    raise InputError(f"max_memory for {shown(key)} is {shown(value)}, not a size (bytes, or text such as 10GiB)")


def parse_device_map(data: Any, source: str = "") -> DeviceMap:
    """Check a decoded JSON value; raise InputError naming the first problem."""
    max_memory: list[tuple[str, int]] = []
    if isinstance(data, dict) and "device_map" in data and isinstance(data["device_map"], dict):
        budgets = data.get("max_memory", {})
        if not isinstance(budgets, dict):
            raise InputError("max_memory must map devices to sizes")
        for key, value in budgets.items():
            max_memory.append((parse_map_device(int(key) if isinstance(key, str) and key.isdigit() else key), _parse_size(value, key)))
        data = data["device_map"]
    if not isinstance(data, dict):
        raise InputError("a device map is a JSON object of module name -> device, e.g. {\"encoder\": 0, \"decoder\": \"cpu\"}")
    if not data:
        raise InputError("the device map is empty: it names no module")
    entries: list[tuple[str, str]] = []
    for name, value in data.items():
        if len(name) > 1000 or any(ord(c) < 32 for c in name):
            raise InputError(f"{shown(name)} is not a module name")
        try:
            entries.append((name, parse_map_device(value)))
        except InputError as exc:
            raise InputError(f"device map entry {shown(name)}: {exc.message}") from None
    return DeviceMap(tuple(entries), tuple(max_memory), source)


def read_device_map(path: str | Path) -> DeviceMap:
    """Read and check a device map file. Every failure is an InputError of one line."""
    p = Path(path).expanduser()
    try:
        with p.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"no device map at {p}: the file does not exist") from None
    except IsADirectoryError:
        raise InputError(f"{p} is a folder, not a device map") from None
    except OSError as exc:
        raise InputError(f"could not read the device map {p}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(f"{p} is larger than {format_bytes(MAX_FILE_BYTES)}: not a device map")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{p} is not a device map: it is not UTF-8 text") from None

    def refuse_constant(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")

    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except (ValueError, RecursionError) as exc:
        where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise InputError(f"{p} is not a device map: it is not JSON{where}") from None
    return parse_device_map(data, str(p))
