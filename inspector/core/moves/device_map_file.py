"""A device map read from its file: accelerate's JSON, checked as an attacker wrote it.

A device map says, per module name, which device holds that module's weights: the
``device_map`` that accelerate's ``infer_auto_device_map`` returns and ``from_pretrained``
accepts, written as JSON (``{"model.embed_tokens": 0, "model.layers.0": 0, ..., "lm_head":
"cpu"}``; an integer is a CUDA index; ``"disk"`` is accelerate's offload to disk, explained,
never applied). A file may also wrap it with the budgets it was made from: ``{"device_map":
{...}, "max_memory": {"0": "10GiB", "cpu": "64GiB", "disk": "1TiB"}}``, and the
``no_split_module_classes`` it was made with; the explanations then account for each budget.
Sizes are read as accelerate reads them (``core.moves.accelerate_rules``: ``"160Mb"`` is
megabits; a number such as ``1.5e9`` is bytes). accelerate itself is not needed.

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
from inspector.core.files.regular_file import FileTooLarge, NotRegularFile, read_regular_file
from inspector.core.moves import accelerate_rules
from inspector.core.messages import Text
from inspector.core.units import format_bytes

#: A real map has one entry per block; 16 MiB of JSON is far beyond any model's.
MAX_FILE_BYTES = 16 * 1024 * 1024
_ACCEPTED_TYPES = ("cpu", "cuda", "mps", "xpu", "meta")
#: accelerate's offload to disk: a map may say it; nothing is ever written for it here.
DISK = "disk"
#: A class name as Python spells one (no_split_module_classes).
_CLASS_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,199}$")


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
    #: The classes accelerate was told never to split (they are one "layer" each).
    no_split: tuple[str, ...] = ()
    #: The devices any of which accelerate may take as its main device, by the hash seed: the
    #: map names two or more GPUs, one at least by a string (``"cuda:1"``), and dispatch_model
    #: takes the first of a set of them (``dispatch_plan``). Empty: the choice is fixed.
    main_by_hash_seed: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, str]:
        return dict(self.entries)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "device_map": self.as_dict(), "max_memory": dict(self.max_memory),
                "no_split_module_classes": list(self.no_split)}  # fmt: skip


def parse_map_device(value: Any) -> str:
    """accelerate's device values -> our ids: ``0`` -> ``cuda:0``, ``"cuda"`` -> ``cuda:0``,
    ``"disk"`` stays ``disk``."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(Text("device_map.not_a_device", value=shown(value)))
    if isinstance(value, int):
        if value < 0:
            raise InputError(Text("device_map.not_a_gpu_index", value=value))
        return f"cuda:{value}"
    text = value.strip()
    if text == DISK:
        return DISK
    if text.isdigit():
        return f"cuda:{int(text)}"
    if len(text) > 32:
        raise InputError(Text("device_map.not_a_device_name", value=shown(value)))
    try:
        device = torch.device(text)
    except (RuntimeError, TypeError, ValueError):
        raise InputError(Text("device_map.not_a_device_name_try", value=shown(value))) from None
    if device.type not in _ACCEPTED_TYPES:
        raise InputError(Text("device_map.unsupported_type", value=shown(value), choices=", ".join(_ACCEPTED_TYPES)))
    if device.type in devices.SINGLE_DEVICE_TYPES and device.index not in (None, 0):  # "cpu:1" is no other CPU
        raise InputError(Text("device.one_of_its_kind", device=shown(value), type=device.type))
    return "meta" if device.type == "meta" else devices.device_id(device)


def _parse_size(value: Any, key: str) -> int:
    try:
        return accelerate_rules.parse_budget(value)
    except ValueError:
        raise InputError(Text("device_map.not_a_size", device=shown(key), value=shown(value))) from None


def _parse_no_split(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]  # accelerate takes one class name as a string too
    if not isinstance(value, list) or not all(isinstance(v, str) and _CLASS_NAME.match(v) for v in value):
        raise InputError(Text("device_map.not_class_names", value=shown(value)))
    return tuple(value)


def parse_device_map(data: Any, source: str = "") -> DeviceMap:
    """Check a decoded JSON value; raise InputError naming the first problem."""
    max_memory: list[tuple[str, int]] = []
    no_split: tuple[str, ...] = ()
    if isinstance(data, dict) and "device_map" in data and isinstance(data["device_map"], dict):
        budgets = data.get("max_memory", {})
        if not isinstance(budgets, dict):
            raise InputError(Text("device_map.max_memory_not_a_map"))
        for key, value in budgets.items():
            try:
                device = parse_map_device(int(key) if isinstance(key, str) and key.isdigit() else key)
            except InputError as exc:
                raise InputError(Text("device_map.max_memory_key", key=shown(key), error=exc.message)) from None
            max_memory.append((device, _parse_size(value, key)))
        no_split = _parse_no_split(data.get("no_split_module_classes", []))
        data = data["device_map"]
    if not isinstance(data, dict):
        raise InputError(Text("device_map.not_an_object"))
    if not data:
        raise InputError(Text("device_map.empty"))
    entries: list[tuple[str, str]] = []
    gpus: dict[Any, str] = {}  # each value accelerate's set would hold (not cpu, not disk) -> our id
    for name, value in data.items():
        if len(name) > 1000 or any(ord(c) < 32 for c in name):
            raise InputError(Text("device_map.not_a_module_name", name=shown(name)))
        try:
            entries.append((name, parse_map_device(value)))
        except InputError as exc:
            raise InputError(Text("device_map.entry", name=shown(name), error=exc.message)) from None
        if entries[-1][1] not in ("cpu", DISK):
            gpus[value] = entries[-1][1]
    named = tuple(sorted(set(gpus.values()), key=str))
    by_seed = named if len(named) > 1 and any(isinstance(v, str) for v in gpus) else ()
    return DeviceMap(tuple(entries), tuple(max_memory), source, no_split, by_seed)


def read_device_map(path: str | Path) -> DeviceMap:
    """Read and check a device map file. Every failure is an InputError of one line."""
    p = Path(path).expanduser()
    try:
        raw = read_regular_file(p, MAX_FILE_BYTES)  # a FIFO or a device is refused unopened
    except FileNotFoundError:
        raise InputError(Text("device_map.no_file", path=p)) from None
    except IsADirectoryError:
        raise InputError(Text("device_map.is_folder", path=p)) from None
    except NotRegularFile:
        raise InputError(Text("device_map.not_regular", path=p)) from None
    except FileTooLarge:
        raise InputError(Text("device_map.too_large", path=p, limit=format_bytes(MAX_FILE_BYTES))) from None
    except OSError as exc:
        raise InputError(Text("device_map.cannot_read", path=p, error=exc.strerror or exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(Text("device_map.not_utf8", path=p)) from None

    def refuse_constant(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")

    try:
        data = json.loads(text, parse_constant=refuse_constant)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, json.JSONDecodeError):
            raise InputError(Text("device_map.not_json_line", path=p, line=exc.lineno)) from None
        raise InputError(Text("device_map.not_json", path=p)) from None
    return parse_device_map(data, str(p))
