"""The proof of "will it fit?": one real step on a copy of the model, its peak memory measured.

On CUDA, ``torch.cuda.max_memory_allocated`` over the step (after a first step, so the
libraries' workspaces are in place); on the CPU, the allocator's own count from
``torch.profiler``'s memory events. The proof needs the memory it measures; ``core.measure.fit``
skips it when the estimate says the step does not fit.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator

import torch

from inspector.core.devices.discovery import is_out_of_memory, synchronize
from inspector.core.errors import Cancelled, InspectorError
from inspector.core.files.models import LoadedModel
from inspector.core.measure.fit_step import copy_with, make_inputs, make_optimizer, real_maker, run_step
from inspector.core.messages import Text
from inspector.core.placement.storage_counter import CancelCheck
from inspector.core.units import first_line

def measure_peak(
    loaded: LoadedModel,
    device: torch.device,
    dtype: torch.dtype,
    optimizer_name: str,
    mode: str,
    templates: list[Any],
    should_cancel: Callable[[], bool] | None = None,
) -> tuple[int | None, str]:
    """One real step (``mode``, with the optimizer ``optimizer_name``) on a copy: (peak bytes,
    how they were counted) or (None, why not).

    ``Cancelled`` (polled every few operators of the step) propagates; the copy is dropped."""
    if device.type not in ("cpu", "cuda"):
        return None, Text("fit.proof_unsupported", device_type=device.type)

    def step() -> None:
        module = copy_with(loaded.module, real_maker(device), dtype, should_cancel)
        optimizer = make_optimizer(optimizer_name, module, device) if mode == "train-step" else None
        args = make_inputs(templates, dtype, device, real=True)
        with CancelCheck(should_cancel) if should_cancel is not None else contextlib.nullcontext():
            run_step(module, args, optimizer, mode)

    try:
        if device.type == "cuda":
            return _measure_cuda(step, device), Text("fit.proof_cuda")
        peak = _measure_cpu(step)
        if peak is None:
            return None, Text("fit.proof_no_allocations")
        return peak, Text("fit.proof_cpu")
    except Cancelled:
        raise
    except InspectorError as exc:
        return None, Text("fit.proof_failed", error=exc.message)
    except Exception as exc:  # noqa: BLE001 -- a failed proof is reported as its reason, never raised
        if is_out_of_memory(exc):
            return None, Text("fit.proof_oom", error=first_line(exc))
        return None, Text("fit.proof_failed", error=first_line(exc))


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


def _measure_cpu(step: Callable[[], None]) -> int | None:
    """Peak of the CPU allocator's own count while ``step`` runs, from the profiler's
    allocation events (each carries the size and the running total)."""
    from torch.profiler import ProfilerActivity, profile

    with _quiet_profiler(), profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        step()
    # The flat event list (one "[memory]" event per allocation and per free, negative bytes
    # for a free) is half the cost of walking the event tree on a 10,000-tensor step.
    cpu = torch._C._autograd.DeviceType.CPU
    events = [
        (int(e.start_ns()), int(e.nbytes()))
        for e in prof.profiler.kineto_results.events()
        if e.name() == "[memory]" and e.device_type() == cpu
    ]
    if not events:
        return None
    events.sort()
    current = peak = 0
    for _, size in events:
        current += size
        peak = max(peak, current)
    return peak


@contextlib.contextmanager
def _quiet_profiler() -> Iterator[None]:
    """The profiler's C++ side (kineto) logs "profiler_start"/"profiler_stop" lines straight
    to file descriptor 2; a CLI answer should not carry them. Failures still come out as
    exceptions, which this leaves alone."""
    import os
    import sys
    import warnings

    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real stderr (a frozen GUI app): nothing to hide
        saved = -1
    try:
        if saved >= 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 2)
            os.close(devnull)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        if saved >= 0:
            os.dup2(saved, 2)
            os.close(saved)
