"""Devices "will it fit?" plans for without having them: a capacity the user names, or a GPU
from the presets table (``resources/gpus.json``: for each card, what
``torch.cuda.get_device_properties(i).total_memory`` reports, less than the memory sold, with
the public printout it comes from, or how it was derived where none was found), and what of
that memory a step may use.

What is taken off a named device's memory is said in two kinds, never mixed:

- **rules**: what PyTorch's own code does, read from its source. On CUDA, the caching
  allocator (``core.measure.cuda_allocator``): the step's traced allocations are replayed
  through it, so the plan counts the segments a real GPU would hold, not only live tensors.
- **allowances**: figures no rule fixes, stated with their source, each said in the output
  as an allowance. On CUDA: the CUDA context with the kernels it loads (outside the
  allocator), and the cuBLAS workspaces (inside it). On Apple's unified memory: the part
  of the machine's memory the GPU is planned to get.

Costs: the table is read once per process (a few KiB of JSON).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from inspector.core.errors import InputError
from inspector.core.measure import cublas_workspace, cuda_allocator
from inspector.core.messages import Text
from inspector.core.units import format_bytes

#: The CUDA context and the kernels it loads, held by the driver outside PyTorch's allocator.
#: An allowance, not a rule: Hugging Face's "Model training anatomy"
#: (https://huggingface.co/docs/transformers/model_memory_anatomy) measures 1-2 GB for the
#: kernels loaded at once; PyTorch 2.x sets CUDA_MODULE_LOADING=LAZY, which loads a kernel
#: only when it first runs (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#lazy-loading),
#: so 1 GiB is allowed. The real figure depends on the driver, the GPU and the kernels the
#: step runs: a GPU machine measures it (the proof's step) where one is at hand.
CUDA_CONTEXT_ALLOWANCE = 1 << 30
#: One cuBLAS workspace, the largest (Hopper's): a card's own is ``cublas_workspace.workspace_bytes``.
CUBLAS_WORKSPACE_BYTES = cublas_workspace.HOPPER_BYTES
#: Handles a training step uses: the forward's thread and the autograd engine's device
#: thread each take one (handles are per thread). An allowance: a step that runs more
#: threads or streams takes more.
CUBLAS_HANDLES = 2
#: Where the presets are, inside the package ``inspector.resources``.
RESOURCE_PACKAGE = "inspector.resources"
PRESETS_FILE = "gpus.json"
_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12, "pb": 10**15,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40, "pib": 2**50}  # fmt: skip
#: The largest capacity planned for: 64 PiB, thousands of times any one device's memory (a
#: host's RAM is at most tens of TiB), and under the 1e18 a report holds of any number, so a
#: plan made for it can be read back. Every unit up to PiB is known, so 1PiB is a size and
#: 99999999999999999999999999999TB is one too large, never a plan for 1e41 bytes.
MAX_CAPACITY = 64 * 2**50
_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*\Z")


@dataclass(frozen=True)
class GpuPreset:
    """One row of ``resources/gpus.json``."""

    name: str
    kind: str  # "cuda" or "mps"
    memory_bytes: int  # what PyTorch reports as the card's total_memory (the plan's capacity)
    memory: str  # the vendor's words, e.g. "24 GB GDDR6X"
    source: str  # the vendor's page (URL)
    usable_fraction: float = 1.0
    aliases: tuple[str, ...] = ()
    memory_source: str = ""  # where ``memory_bytes`` comes from (URL of a public printout)
    memory_how: str = ""  # what that printout says, or how the figure was derived
    derived: bool = False  # no printout found: derived as ``memory_how`` says


@dataclass(frozen=True)
class NamedDevice:
    """A device the user named: its memory, what a step may use of it, and why.

    ``usable_bytes`` is what the allocator (or, off CUDA, the step's tensors) may take:
    ``capacity_bytes`` less the allowances outside the allocator and the user's margin.
    ``first_requests`` are allocations made before the step and kept (the cuBLAS
    workspaces), replayed through the allocator ahead of the step's own. ``rules`` and
    ``allowances`` are said with the answer.
    """

    label: str  # "RTX 4090" or "24 GiB"
    kind: str
    capacity_bytes: int
    usable_bytes: int
    allowance_bytes: int  # taken off outside the allocator (CUDA context; Apple's share of memory)
    first_requests: tuple[int, ...] = ()
    rules: tuple[str, ...] = ()
    allowances: tuple[str, ...] = field(default=())
    source: str | None = None
    #: Where the capacity comes from, said with the answer (a preset's printout or derivation).
    capacity_source: str | None = None

    @property
    def replays_allocator(self) -> bool:
        return self.kind == "cuda"


def _shown(text: object) -> str:
    """The text as given, on one short line (a 400-digit size is its start)."""
    quoted = repr(str(text))
    return quoted if len(quoted) <= 60 else quoted[:59] + "…"


def parse_capacity(text: str | int) -> int:
    """A memory size in bytes: ``24GiB``, ``24 GiB``, ``80GB`` (powers of ten), ``1.5TiB``, ``1PiB`` or
    plain bytes, up to ``MAX_CAPACITY``. ``InputError`` for anything else, zero, or more."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        match = _SIZE.match(str(text))
        unit = match.group(2).lower() if match else ""
        if match is None or unit not in _UNITS:
            raise InputError(Text("fit.not_a_capacity", text=_shown(text)))
        amount = float(match.group(1)) * _UNITS[unit]  # 400 digits read as inf: refused below, never int(inf)
        value = int(amount) if amount <= MAX_CAPACITY else MAX_CAPACITY + 1
    if value <= 0:
        raise InputError(Text("fit.not_a_capacity", text=_shown(text)))
    if value > MAX_CAPACITY:
        raise InputError(Text("fit.capacity_too_large", text=_shown(text), limit=format_bytes(MAX_CAPACITY)))
    return value


@lru_cache(maxsize=1)
def presets() -> tuple[GpuPreset, ...]:
    """Every row of the presets table, in its order."""
    data: Any = json.loads(resources.files(RESOURCE_PACKAGE).joinpath(PRESETS_FILE).read_text(encoding="utf-8"))
    return tuple(
        GpuPreset(
            name=row["name"], kind=row["kind"], memory_bytes=int(row["total_memory_bytes"]), memory=row["memory"],
            source=row["source"], usable_fraction=float(row.get("usable_fraction", 1.0)),
            aliases=tuple(row.get("aliases", ())), memory_source=row["total_memory_source"],
            memory_how=row["total_memory_how"], derived=bool(row.get("derived", False)),
        )  # fmt: skip
        for row in data["gpus"]
    )


def _folded(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name).lower()


def find_preset(name: str) -> GpuPreset:
    """The preset called ``name`` (case, spaces and hyphens aside: ``rtx4090``, ``H100``);
    ``InputError`` naming the presets for a name that is none of them."""
    wanted = _folded(name)
    for preset in presets():
        if wanted in (_folded(preset.name), *(_folded(a) for a in preset.aliases)):
            return preset
    close = [p.name for p in presets() if wanted and wanted in _folded(p.name)]
    choices = ", ".join(close or [p.name for p in presets()])
    raise InputError(Text("fit.unknown_gpu", name=repr(name), choices=choices))


def name_device(device_type: str, *, gpu: str | None = None, capacity: int | None = None,
                margin: int = 0, training: bool = True) -> NamedDevice:  # fmt: skip
    """The device the user named for ``device_type`` (``cuda``, ``mps``, ``cpu``...): a
    preset by name, or a capacity (both: the capacity wins, the preset's rules stay)."""
    preset = find_preset(gpu) if gpu else None
    if preset is not None and preset.kind != device_type:
        raise InputError(Text("fit.gpu_kind_mismatch", name=preset.name, kind=preset.kind, device=device_type))
    if margin < 0:
        raise InputError(Text("fit.not_a_capacity", text=repr(str(margin))))
    total = capacity if capacity is not None else preset.memory_bytes if preset is not None else 0
    if total <= 0:
        raise InputError(Text("fit.no_capacity"))
    label = preset.name if preset is not None and capacity is None else format_bytes(total)
    rules: list[str] = []
    allowances: list[str] = []
    outside = 0
    first: tuple[int, ...] = ()
    if device_type == "cuda":
        outside = CUDA_CONTEXT_ALLOWANCE
        handles = CUBLAS_HANDLES if training else 1
        # The workspace by the card's architecture (core.measure.cublas_workspace): 32 MiB is Hopper's only.
        workspace = cublas_workspace.workspace_bytes(preset.name if preset is not None else None)
        first = (workspace,) * handles
        rules.append(Text("fit.rule_cuda_allocator", source=cuda_allocator.SOURCE))
        allowances.append(Text("fit.allowance_cuda_context", size=format_bytes(CUDA_CONTEXT_ALLOWANCE)))
        allowances.append(cublas_workspace.allowance(preset.name if preset is not None else None, handles))
    elif device_type == "mps":
        fraction = preset.usable_fraction if preset is not None else 0.75
        outside = total - int(total * fraction)
        allowances.append(Text("fit.allowance_unified", share=f"{fraction:.0%}", size=format_bytes(outside)))
    else:
        rules.append(Text("fit.rule_plain_bytes", device=device_type))
    if margin:
        allowances.append(Text("fit.allowance_margin", size=format_bytes(margin)))
    usable = total - outside - margin
    if usable <= 0:
        raise InputError(Text("fit.capacity_too_small", capacity=format_bytes(total), taken=format_bytes(outside + margin)))
    return NamedDevice(
        label=label, kind=device_type, capacity_bytes=total, usable_bytes=usable, allowance_bytes=outside,
        first_requests=first, rules=tuple(rules), allowances=tuple(allowances),
        source=preset.source if preset is not None else None,
        capacity_source=_capacity_source(preset) if preset is not None and capacity is None else None,
    )  # fmt: skip


def _capacity_source(preset: GpuPreset) -> Text:
    """Where a preset's capacity comes from: PyTorch's own figure for the card, or how it was derived."""
    if preset.kind != "cuda":
        return Text("fit.capacity_unified", name=preset.name, how=preset.memory_how, source=preset.memory_source)
    key = "fit.capacity_derived" if preset.derived else "fit.capacity_reported"
    return Text(key, name=preset.name, how=preset.memory_how, source=preset.memory_source)
