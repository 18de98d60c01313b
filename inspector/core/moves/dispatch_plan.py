"""What accelerate does with a device map, worked out without a GPU: what runs where, what is
streamed at every forward and how many bytes, the room it keeps for the largest layer, and
every budget of ``max_memory`` accounted for with numbers that add up.

accelerate's semantics (``dispatch_model``, ``infer_auto_device_map``, accelerate 1.16):

- The main device is ``list(set(device_map.values()) - {"cpu", "disk"})[0]`` (``big_modeling.
  dispatch_model``), ``cpu`` when there is none. For integer ids 0-7, as
  ``infer_auto_device_map`` writes them, a set of ints iterates in order: the lowest GPU, what
  is said here. GPUs named by strings (``"cuda:0"``, ``"cuda:1"``) iterate by the process's
  hash seed: any of them (``cuda:1`` under 4 of 12 seeds); the explanation then says so.
- Modules mapped to ``cpu`` or ``disk`` do not run there: ``AlignDevicesHook`` runs them on the
  main device. ``attach_align_device_hook`` puts one hook on every module with tensors of its
  own (not on the key's block as a whole: ``no_split_module_classes`` only shapes the map),
  and each copies that module's own parameters there just before its call and drops them after
  (from the CPU's RAM, or from the files written to ``offload_dir``); what is held at once is
  one module's own weights and those of its streamed ancestors still in their call. Their activations
  stay on the main device; their buffers live there the whole time (``offload_buffers=False``,
  the default). With no GPU in the map, ``cpu`` modules run in place and only ``disk`` ones
  are streamed (to the CPU).
- ``infer_auto_device_map`` fills devices in order (GPUs by index, ``mps``, ``cpu``, ``disk``)
  and keeps room on each main device (the first GPU and ``cpu``; ``cpu`` alone without a
  GPU) for the largest layer still to place, so a layer offloaded later can be put back there
  for its forward. It never limits ``disk``.

Nothing here moves a tensor or touches a device: a GPU map is explained on a laptop.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from torch import nn

from inspector.core.messages import Text
from inspector.core.moves import accelerate_rules
from inspector.core.moves.device_map_file import DISK, DeviceMap
from inspector.core.units import format_bytes

CPU = "cpu"


def covering_key(name: str, mapping: Container[str]) -> str | None:
    """The longest map key that is ``name`` or one of its parents ("" covers everything)."""
    candidate = name
    while True:
        if candidate in mapping:
            return candidate
        if not candidate:
            return None
        candidate = candidate.rpartition(".")[0]


def main_device(devices: Iterable[str]) -> str:
    """dispatch_model's main device: the first GPU (lowest index) of the map, else ``cpu``."""
    kept = [d for d in dict.fromkeys(devices) if d not in (CPU, DISK)]
    if not kept:
        return CPU
    return min(kept, key=_rank)


def offloaded_devices(main: str) -> tuple[str, ...]:
    """The map's devices whose modules are streamed to the main device at every forward."""
    return (DISK,) if main in (CPU, "mps") else (CPU, DISK)


def _rank(device: str) -> tuple[int, str, int]:
    """accelerate's device order: GPUs by index (meta, our stand-in, after them), mps, cpu, disk."""
    kind, _, index = device.partition(":")
    group = {"mps": 2, CPU: 3, DISK: 4, "meta": 1}.get(kind, 0)
    return group, kind, int(index) if index.isdigit() else 0


@dataclass(frozen=True)
class EntryPlan:
    """One key of the map: where its weights are kept, where it runs, what is streamed."""

    name: str
    holds: str
    runs_on: str
    streamed: bool
    parameter_bytes: int
    buffer_bytes: int

    @property
    def bytes(self) -> int:
        return self.parameter_bytes + self.buffer_bytes

    def to_dict(self) -> dict[str, Any]:
        return {"module": self.name, "weights_on": self.holds, "runs_on": self.runs_on, "streamed": self.streamed,
                "parameter_bytes": self.parameter_bytes, "buffer_bytes": self.buffer_bytes}  # fmt: skip


@dataclass(frozen=True)
class BudgetPlan:
    """One device's memory: its budget (None without one), what the map puts there, and the
    room accelerate keeps free on it for the largest layer still to place after it."""

    device: str
    budget: int | None
    placed: int
    reserve: int
    reserve_layers: tuple[str, ...]

    @property
    def left(self) -> int | None:
        """What is left of the budget (None without one, and for disk, which is never limited)."""
        return None if self.budget is None or self.device == DISK else self.budget - self.placed - self.reserve

    def to_dict(self) -> dict[str, Any]:
        return {"device": self.device, "budget": self.budget, "placed": self.placed, "reserve": self.reserve,
                "reserve_layers": list(self.reserve_layers), "left": self.left}  # fmt: skip


@dataclass(frozen=True)
class DispatchPlan:
    main_device: str
    #: The map's devices whose modules are streamed to the main device.
    offloaded: tuple[str, ...]
    #: In the model's module order.
    entries: tuple[EntryPlan, ...]
    #: Parameter bytes copied to the main device by one forward that calls each module once.
    streamed_bytes: int
    #: The most streamed weights held on the main device at once (each hook holds its module's
    #: own parameters for its call, its streamed ancestors' still held), and the modules whose
    #: calls reach it.
    held_at_once: int
    held_at_once_modules: tuple[str, ...]
    budgets: tuple[BudgetPlan, ...]
    findings: tuple[str, ...]
    #: Who answered the sizes and the largest layer: accelerate itself or the built-in rules.
    rules: str
    #: The devices accelerate may take as the main device instead, by the hash seed (a map
    #: naming GPUs by strings); empty where its choice is fixed.
    main_by_hash_seed: tuple[str, ...] = ()

    def runs_on(self) -> dict[str, str]:
        return {e.name: e.runs_on for e in self.entries}

    def to_dict(self) -> dict[str, Any]:
        return {
            "main_device": self.main_device,
            "offloaded": list(self.offloaded),
            "entries": [e.to_dict() for e in self.entries],
            "streamed_bytes_per_forward": self.streamed_bytes,
            "streamed_held_at_once": {"bytes": self.held_at_once, "modules": list(self.held_at_once_modules)},
            "budgets": [b.to_dict() for b in self.budgets],
            "findings": list(self.findings),
            "rules": self.rules,
            "main_device_by_hash_seed": list(self.main_by_hash_seed),
        }


def _ordered_keys(model: nn.Module, dmap: DeviceMap) -> list[str]:
    """The map's keys in the model's order (accelerate writes them in its own)."""
    order: dict[str, int] = {}
    for i, (name, module) in enumerate(model.named_modules(remove_duplicate=False)):
        order.setdefault(name, 2 * i)
        dot = f"{name}." if name else ""
        for key in (*module._parameters, *module._buffers):
            order.setdefault(dot + key, 2 * i + 1)
    return sorted((name for name, _ in dmap.entries), key=lambda n: order.get(n, len(order) * 2))


def _entry_sizes(model: nn.Module, mapping: Mapping[str, str]) -> dict[str, list[float]]:
    """Per key: [parameter bytes, buffer bytes] as accelerate counts them, each tensor once."""
    sizes: dict[str, list[float]] = {name: [0.0, 0.0] for name in mapping}
    for column, tensors in enumerate((model.named_parameters(), model.named_buffers())):
        for name, tensor in tensors:
            key = covering_key(name, mapping)
            if key is not None:
                sizes[key][column] += accelerate_rules.tensor_bytes(tensor)
    return sizes


def _named(model: nn.Module, name: str) -> Any:
    """The module or tensor a key names."""
    if not name:
        return model
    try:
        return model.get_submodule(name)
    except AttributeError:
        owner, _, key = name.rpartition(".")
        sub = model.get_submodule(owner) if owner else model
        return sub._parameters.get(key, sub._buffers.get(key))


def _layers(model: nn.Module, names: Iterable[str]) -> list[tuple[str, Any]]:
    """(name, module or tensor) for get_max_layer_size; the whole model ("") as accelerate
    starts it: its own tensors and its children (their names would read ".child" otherwise)."""
    out: list[tuple[str, Any]] = []
    for name in names:
        if name:
            out.append((name, _named(model, name)))
        else:
            out.extend([*model.named_parameters(recurse=False), *model.named_children(), *model.named_buffers(recurse=False)])
    return out


def _first_layer(model: nn.Module, name: str, no_split: Sequence[str]) -> str:
    """The first layer accelerate meets inside a key (itself for a leaf or a no-split class)."""
    item = _named(model, name)
    while isinstance(item, nn.Module) and type(item).__name__ not in no_split:
        children = list(item.named_children())
        if not children:
            break
        name, item = f"{name}.{children[0][0]}" if name else children[0][0], children[0][1]
    return name


_NUMBERED = re.compile(r"^(.*\.)?(\d+)$")


def compress_names(names: Iterable[str]) -> list[str]:
    """``layers.20, layers.21, …, layers.31`` -> ``layers.20–31`` (consecutive runs only)."""
    out: list[str] = []
    run: tuple[str, int, int] | None = None
    for name in names:
        m = _NUMBERED.match(name)
        if m and run is not None and run[0] == (m.group(1) or "") and int(m.group(2)) == run[2] + 1:
            run = (run[0], run[1], int(m.group(2)))
            continue
        if run is not None:
            out.append(_run_text(run))
            run = None
        if m:
            run = (m.group(1) or "", int(m.group(2)), int(m.group(2)))
        else:
            out.append(name)
    if run is not None:
        out.append(_run_text(run))
    return out


def _run_text(run: tuple[str, int, int]) -> str:
    prefix, first, last = run
    return f"{prefix}{first}" if first == last else f"{prefix}{first}–{last}"


def _names(names: Sequence[str]) -> str:
    shown = compress_names(n or "(the whole model)" for n in names)
    text = ", ".join(shown[:6])
    return Text("list.and_more", names=text, more=len(shown) - 6) if len(shown) > 6 else text


def plan(model: nn.Module, dmap: DeviceMap, free_bytes: Callable[[str], int | None] | None = None) -> DispatchPlan:
    """accelerate's reading of ``dmap`` for ``model``: a value, nothing moved.

    ``free_bytes`` (a device id -> its free bytes, or None) lets the explanation say whether
    the main device had room, when the file carries no budget for it.
    """
    mapping = dmap.as_dict()
    keys = _ordered_keys(model, dmap)
    main = main_device(mapping[k] for k in keys)
    offloaded = offloaded_devices(main)
    sizes = _entry_sizes(model, mapping)
    entries = tuple(
        EntryPlan(k, mapping[k], main if mapping[k] in offloaded else mapping[k], mapping[k] in offloaded,
                  int(sizes[k][0]), int(sizes[k][1]))  # fmt: skip
        for k in keys
    )
    module_sizes = accelerate_rules.module_sizes(model)
    streamed = [e for e in entries if e.streamed]
    held, held_names = held_at_once(model, [e.name for e in streamed])
    budgets = _budgets(model, dmap, entries, module_sizes)
    findings = _findings(model, dmap, entries, budgets, main, module_sizes, free_bytes)
    return DispatchPlan(main, offloaded, entries, sum(e.parameter_bytes for e in streamed), held, tuple(held_names),
                        budgets, tuple(findings), accelerate_rules.rules(), dmap.main_by_hash_seed)  # fmt: skip


def held_at_once(model: nn.Module, keys: Iterable[str]) -> tuple[int, list[str]]:
    """The most streamed parameter bytes on the main device at one moment, and every module
    whose call reaches it. accelerate's hook on a module holds the module's own parameters
    (``recurse=False``) from its pre-forward to its post-forward; a child's call runs inside
    its parent's, so a moment holds one path of modules from the key down."""
    best, names = 0, list[str]()

    def reached(name: str, size: int) -> None:
        nonlocal best, names
        if size > best:
            best, names = size, []
        if size == best and size:
            names.append(name)

    for key in keys:
        item = _named(model, key)
        if not isinstance(item, nn.Module):  # a tensor named in the map: copied whole for its module's call
            reached(key, int(accelerate_rules.tensor_bytes(item)) if item is not None else 0)
            continue
        stack: list[tuple[str, nn.Module, int, frozenset[int]]] = [(key, item, 0, frozenset())]
        while stack:  # depth first, each path's held bytes (a tensor shared along a path counted once)
            name, module, above, seen = stack.pop()
            own = [p for p in module.parameters(recurse=False) if id(p) not in seen]
            here = above + sum(int(accelerate_rules.tensor_bytes(p)) for p in own)
            if own:  # a module with no weights of its own holds nothing new (and has no hook)
                reached(name, here)
            seen = seen | {id(p) for p in own}
            stack.extend((f"{name}.{child}" if name else child, sub, here, seen)
                         for child, sub in reversed(list(module.named_children())))  # fmt: skip
    return best, list(dict.fromkeys(names))


def _budgets(model: nn.Module, dmap: DeviceMap, entries: Sequence[EntryPlan], module_sizes: accelerate_rules.Sizes) -> tuple[BudgetPlan, ...]:
    budgets = dict(dmap.max_memory)
    devices = sorted({e.holds for e in entries} | set(budgets), key=_rank)
    gpus = [d for d in devices if d not in (CPU, DISK)]
    mains = ["mps"] if "mps" in gpus else ([gpus[0], CPU] if gpus else [CPU])
    out: list[BudgetPlan] = []
    for device in devices:
        placed = sum(e.bytes for e in entries if e.holds == device)
        reserve, layers = 0, list[str]()
        if device in mains:
            later = _layers(model, (e.name for e in entries if _rank(e.holds) > _rank(device)))
            reserve, layers = accelerate_rules.largest_layer(later, module_sizes, dmap.no_split) if later else (0, [])
        out.append(BudgetPlan(device, budgets.get(device), placed, reserve, tuple(layers)))
    return tuple(out)


def _findings(model: nn.Module, dmap: DeviceMap, entries: Sequence[EntryPlan], budgets: Sequence[BudgetPlan], main: str,
              module_sizes: accelerate_rules.Sizes, free_bytes: Callable[[str], int | None] | None) -> list[str]:  # fmt: skip
    findings: list[str] = []
    if dmap.main_by_hash_seed:
        findings.append(Text("device_map.main_by_hash_seed", devices=", ".join(dmap.main_by_hash_seed), main=main))
    for held in (CPU, DISK):
        group = [e for e in entries if e.holds == held and e.streamed]
        if group:
            findings.append(Text("device_map.streamed", names=_names([e.name for e in group]), held=held, main=main,
                                 size=format_bytes(sum(e.parameter_bytes for e in group))))  # fmt: skip
            buffers = sum(e.buffer_bytes for e in group)
            if buffers:
                findings.append(Text("device_map.streamed_buffers", held=held, main=main, size=format_bytes(buffers)))
    on_disk = [e for e in entries if e.holds == DISK]
    if on_disk:
        findings.append(Text("device_map.disk_not_applied", names=_names([e.name for e in on_disk]),
                             size=format_bytes(sum(e.bytes for e in on_disk))))  # fmt: skip
    for b in budgets:
        findings.extend(_budget_findings(model, dmap, entries, b, module_sizes))
    streamed = [e for e in entries if e.streamed]
    main_budget = next((b for b in budgets if b.device == main), None)
    if streamed and main != CPU and free_bytes is not None and (main_budget is None or main_budget.budget is None):
        free = free_bytes(main)
        size = sum(e.parameter_bytes for e in streamed)
        if free is not None:
            one = "_one" if len(streamed) == 1 else ""
            key = f"device_map.spill_by_map{one}" if free >= size else f"device_map.spill_no_room{one}"
            findings.append(Text(key, names=_names([e.name for e in streamed]), spill=", ".join(dict.fromkeys(e.holds for e in streamed)),
                                 size=format_bytes(size), device=main, free=format_bytes(free)))  # fmt: skip
    return findings


def _budget_findings(model: nn.Module, dmap: DeviceMap, entries: Sequence[EntryPlan], b: BudgetPlan,
                     module_sizes: accelerate_rules.Sizes) -> list[str]:  # fmt: skip
    if b.budget is None:
        return []
    words = {"device": b.device, "budget": format_bytes(b.budget), "placed": format_bytes(b.placed)}
    if b.device == DISK:
        key = "device_map.disk_budget" if b.placed else "device_map.disk_budget_unused"
        return [Text(key, budget=words["budget"])]
    left = b.left
    assert left is not None
    layers = _names(list(b.reserve_layers))
    if left < 0:
        if b.reserve and not b.placed:
            return [Text("device_map.budget_below_reserve", device=b.device, budget=words["budget"], reserve=format_bytes(b.reserve), layers=layers)]
        if b.reserve:
            return [Text("device_map.over_budget_reserve", reserve=format_bytes(b.reserve), layers=layers, **words)]
        return [Text("device_map.over_budget", **words)]
    out: list[str] = [Text("device_map.budget_reserve", reserve=format_bytes(b.reserve), layers=layers, left=format_bytes(left), **words)
           if b.reserve else Text("device_map.budget", left=format_bytes(left), **words)]  # fmt: skip
    # Why accelerate went on to the next device: the first layer of the next key did not fit.
    here = [i for i, e in enumerate(entries) if e.holds == b.device]
    if here and here[-1] + 1 < len(entries):
        after = entries[here[-1] + 1]
        if _rank(after.holds) > _rank(b.device):
            layer = _first_layer(model, after.name, dmap.no_split)
            size = int(module_sizes.get(layer, 0))
            if size > left:
                out.append(Text("device_map.next_did_not_fit", name=layer, size=format_bytes(size), left=format_bytes(left),
                                device=b.device, target=after.holds))  # fmt: skip
    return out
