"""The proof of "will it fit?": one real step on a copy of the model, its peak memory measured.

On CUDA, ``torch.cuda.max_memory_allocated`` over the step (after a first step, so the
libraries' workspaces are in place). On the CPU, an independent reading: the process's peak
resident set size over the step, its RSS before the step taken off (``process_peak``), after
a first step (thread pools, oneDNN's kernels and the allocator's arenas are set up once). It
counts what the estimate cannot see (a kernel's own buffers, memory the C allocator keeps), so
where the two differ by more than 15 % a third step, watched operator by operator
(``peak_gap``), says which memory the estimate misses. The proof needs the memory it
measures; ``core.measure.fit`` skips it when the estimate says the step does not fit.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, NamedTuple

import torch

from inspector.core.devices.discovery import is_out_of_memory, synchronize
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.files.models import LoadedModel
from inspector.core.measure import peak_gap, process_peak
from inspector.core.measure.fit_step import copy_with, make_inputs, make_optimizer, prepare, real_maker, run_step
from inspector.core.messages import Text
from inspector.core.placement.storage_counter import CancelCheck, StorageCounter
from inspector.core.units import first_line


class Proof(NamedTuple):
    """The measured peak (None when not measured), how it was read or why not, and, where it
    differs from the estimate by more than 15 %, the finding that says why (else None)."""

    peak: int | None
    how: str
    gap: str | None = None


def measure_peak(
    loaded: LoadedModel,
    device: torch.device,
    dtype: torch.dtype,
    optimizer_name: str,
    mode: str,
    templates: list[Any],
    should_cancel: Callable[[], bool] | None = None,
    estimated: int | None = None,
    *,
    amp: torch.dtype | None = None,
    checkpointing: bool = False,
    use_cache: bool = False,
    keep_output: bool = False,
) -> Proof:
    """One real step (``mode``, with the optimizer ``optimizer_name``) on a copy: its peak,
    how it was read, and (CPU) why it differs from ``estimated`` where it does.

    ``Cancelled`` (polled every few operators of the step) propagates; the copy is dropped."""
    if device.type not in ("cpu", "cuda"):
        return Proof(None, Text("fit.proof_unsupported", device_type=device.type))
    if device.type == "cpu" and (unavailable := process_peak.unavailable_reason()) is not None:
        return Proof(None, Text("fit.proof_cpu_unavailable", reason=unavailable))

    def step(watch: Callable[[StorageCounter], peak_gap.OperatorMemory] | None = None) -> None:
        module = copy_with(loaded.module, real_maker(device), dtype, should_cancel)
        prepare(module, checkpointing=checkpointing)
        optimizer = make_optimizer(optimizer_name, module, device) if mode == "train-step" else None
        args = make_inputs(templates, dtype, device, real=True)
        with contextlib.ExitStack() as modes:
            if should_cancel is not None:
                modes.enter_context(CancelCheck(should_cancel))
            if watch is not None:  # the diagnosis: the same tensors the estimate tracks
                counter = StorageCounter(device)
                counter.track(*module.parameters(), *module.buffers(), *args)
                modes.enter_context(counter)
                watched = modes.enter_context(watch(counter))
            run_step(module, args, optimizer, mode, amp=amp, device_type=device.type, use_cache=use_cache,
                     keep_output=keep_output)  # fmt: skip
            if watch is not None:
                watched.finish()

    try:
        if device.type == "cuda":
            return Proof(_measure_cuda(step, device), Text("fit.proof_cuda"))
        peak = _measure_cpu(step)
        gap = None
        if estimated is not None and peak_gap.worth_explaining(estimated, peak):
            gap = _explain_cpu_gap(step, estimated, peak)
        small = estimated is not None and max(estimated, peak) < peak_gap.GAP_FLOOR
        # Under a MiB, the reading is as coarse as what it reads (pages; Python's own objects).
        how = Text("fit.proof_cpu_process_small" if small else "fit.proof_cpu_process")
        return Proof(peak, how, gap)
    except Cancelled:
        raise
    except InspectorError as exc:
        return Proof(None, Text("fit.proof_failed", error=exc.message))
    except Exception as exc:  # noqa: BLE001 -- a failed proof is reported as its reason, never raised
        if is_out_of_memory(exc):
            return Proof(None, Text("fit.proof_oom", error=first_line(exc)))
        return Proof(None, Text("fit.proof_failed", error=first_line(exc)))


def _measure_cuda(step: Callable[[], None], device: torch.device) -> int:
    # One step first: cuBLAS keeps a workspace per handle from its first matmul on, which
    # is the library's, not this step's; the measured step then starts with it in place.
    step()
    synchronize(device)
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats(device)
    base = torch.cuda.memory_allocated(device)
    step()
    synchronize(device)
    peak = torch.cuda.max_memory_allocated(device) - base
    torch.cuda.empty_cache()
    return int(peak)


def _measure_cpu(step: Callable[[], None]) -> int:
    """The process's peak RSS over one step, less its RSS before (freed memory handed back
    first). A first step runs before: what the libraries set up once (OpenMP's threads,
    oneDNN's generated kernels, the autograd engine) would otherwise count as the step's."""
    step()
    with process_peak.ProcessPeak() as peak:
        step()
    return peak.bytes


def _explain_cpu_gap(step: Callable[..., None], estimated: int, measured: int) -> str:
    """Run the step once more, watched operator by operator, and say what the estimate misses."""
    import gc

    gc.collect()
    trimmed = process_peak.hand_back_freed_memory()
    baseline, _ = process_peak.read_rss()
    process_peak.reset_peak()
    watchers: list[peak_gap.OperatorMemory] = []

    def watch(counter: StorageCounter) -> peak_gap.OperatorMemory:
        watchers.append(peak_gap.OperatorMemory(counter, baseline, trim=trimmed))
        return watchers[-1]

    step(watch)
    return peak_gap.explain(estimated, measured, watchers[0] if watchers else None, trimmed)
