"""One step traced on fake tensors (``core.measure.fit``'s estimate), and its verdict against
the memory there is (``judge``: the CUDA caching allocator replayed for a GPU).

``estimate_step`` copies the module's structure with fake stand-ins, runs the step under
``fit_trace.AllocationLog`` and returns the exact storage sums and the step's events.
Costs: one fake step (roughly the Python time of one real step), one tuple per event.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Protocol

import torch
from torch import nn

from inspector.core.devices.discovery import device_count, unavailable_reason
from inspector.core.files.models import LoadedModel
from inspector.core.measure import cuda_allocator
from inspector.core.measure.fit_devices import NamedDevice
from inspector.core.measure.fit_step import (
    copy_with,
    fake_maker,
    host_state,
    make_inputs,
    make_optimizer,
    output_tensors,
    prepare,
    run_step,
)
from inspector.core.measure.fit_trace import AllocationLog, following_resizes, later_step, live_peak


class StepOptions(Protocol):
    """What of a request the traced step reads (``FitRequest`` has it all)."""

    @property
    def device(self) -> str: ...
    @property
    def optimizer(self) -> str: ...
    @property
    def mode(self) -> str: ...
    @property
    def checkpointing(self) -> bool: ...
    @property
    def use_cache(self) -> bool: ...
    @property
    def keep_output(self) -> bool: ...


#: Lays the fake copy out as a distributed engine does before the step (``fit_shard``): given the
#: copy, it returns the module to step and the tensors the engine holds beyond the copy's own
#: (DDP's gradient buckets). Called inside the fake mode.
Wrap = Callable[[nn.Module], "tuple[nn.Module, list[torch.Tensor]]"]


def present(device: torch.device) -> bool:
    if unavailable_reason(device.type) is not None:
        return False
    return device.type in ("cpu", "mps") or (device.index or 0) < device_count(device.type)



def storage_bytes(tensors: Iterator[torch.Tensor]) -> int:
    """Sum of storage sizes, each storage once (tied weights, views)."""
    seen: set[int] = set()
    kept: list[object] = []
    total = 0
    for t in tensors:
        # A sharded parameter (FSDP2's DTensor) holds its rank's shard: that is what the rank stores.
        local = getattr(t, "_local_tensor", None)
        t = local if isinstance(local, torch.Tensor) else t
        storage = t.untyped_storage()
        kept.append(storage)  # alive to the end: no other storage takes its id meanwhile
        # Fake and meta storages have no address: the storage object itself tells (views of one
        # storage, as FSDP2's gradient shards of one reduce-scatter output, count it once).
        key = id(storage) if t.device.type == "meta" or is_fake(t) else storage.data_ptr()
        if key in seen:
            continue
        seen.add(key)
        total += storage.nbytes()
    return total


def is_fake(t: torch.Tensor) -> bool:
    from torch._subclasses.fake_tensor import FakeTensor

    return isinstance(t, FakeTensor)


def unique(tensors: Iterator[torch.Tensor | None]) -> Iterator[torch.Tensor]:
    seen: set[int] = set()
    for t in tensors:
        if t is not None and id(t) not in seen:
            seen.add(id(t))
            yield t


def optimizer_state_tensors(optimizer: torch.optim.Optimizer | None) -> Iterator[torch.Tensor]:
    if optimizer is None:
        return
    for state in optimizer.state.values():
        for value in state.values():
            if isinstance(value, torch.Tensor):
                yield value


@dataclass(frozen=True)
class Estimate:
    parameters: int
    buffers: int
    gradients: int
    optimizer_state: int
    activations: int | None
    peak: int
    #: The traced step's allocations and frees, then (training with an optimizer) the next
    #: step's (``fit_trace.later_step``); ``first_events`` of them are the traced step's.
    events: tuple[cuda_allocator.Event, ...] = ()
    first_events: int = 0
    #: The next step's live peak (None where it is the traced step's: no optimizer state).
    later_peak: int | None = None


@dataclass(frozen=True)
class Plan:
    """One traced step judged against the memory there is: ``peak`` the live tensors' peak
    (rounded as the device's allocator rounds), ``reserved`` the CUDA allocator's segments,
    ``fits`` and ``margin`` against the limit (None without one). ``judged`` is the figure
    the verdict compared: the reserved peak where the allocator was replayed under the
    limit, else the live peak."""

    estimate: Estimate
    peak: int
    reserved: int | None
    fits: bool | None
    margin: int | None
    judged: int
    judged_by: str  # "reserved" or "allocated"
    later: int | None = None  # the next step's live peak, where it differs from the traced step's


def judge(estimate: Estimate, device: torch.device, named: NamedDevice | None, limit: int | None) -> Plan:
    """The verdict: every step must fit, so the larger of the traced step's peak and the next
    step's (the optimizer's state held through its forward and backward) is judged."""
    if device.type != "cuda":
        live = max(estimate.peak, estimate.later_peak or 0)
        fits = None if limit is None else live <= limit
        margin = None if limit is None else limit - live
        return Plan(estimate, estimate.peak, None, fits, margin, live, "allocated", estimate.later_peak)
    first = cuda_allocator.replay(estimate.events[: estimate.first_events])
    both = cuda_allocator.replay(estimate.events) if estimate.later_peak is not None else first
    later = both.peak_allocated if estimate.later_peak is not None else None
    if named is None:  # a GPU of this machine: its free memory against the live peak, as measured
        peak = estimate.peak if present(device) else first.peak_allocated
        live = max(peak, later or 0)
        fits = None if limit is None else live <= limit
        margin = None if limit is None else limit - live
        return Plan(estimate, peak, both.peak_reserved, fits, margin, live, "allocated", later)
    planned = cuda_allocator.replay(estimate.events, named.usable_bytes, first=named.first_requests)
    if not planned.fits:  # how much it would need: the same replay without the limit
        planned = cuda_allocator.replay(estimate.events, first=named.first_requests)
        fits = False
    else:
        fits = True
    margin = named.usable_bytes - planned.peak_reserved
    return Plan(estimate, first.peak_allocated, planned.peak_reserved, fits, margin, planned.peak_reserved,
                 "reserved", later)  # fmt: skip


def estimate_step(
    loaded: LoadedModel,
    *,
    device: torch.device,
    dtype: torch.dtype,
    request: StepOptions,
    templates: list[Any],
    should_cancel: Callable[[], bool] | None = None,
    amp: torch.dtype | None = None,
    wrap: Wrap | None = None,
) -> Estimate:
    from torch._subclasses.fake_tensor import FakeTensorMode

    fake_mode = FakeTensorMode()
    module = copy_with(loaded.module, fake_maker(fake_mode, device), dtype, should_cancel)
    prepare(module, checkpointing=request.checkpointing)
    training = request.mode == "train-step"
    counter = AllocationLog(device, should_cancel)
    target_type = torch.device(request.device).type
    extra: list[torch.Tensor] = []
    with fake_mode:
        if wrap is not None:  # before the optimizer: it steps the engine's parameters (FSDP's shards)
            module, extra = wrap(module)
        # The optimizer's path (foreach or not) is the target device's, where it differs.
        optimizer = make_optimizer(request.optimizer, module, torch.device(target_type)) if training else None
        args = make_inputs(templates, dtype, device, real=False)
        counter.track(*module.parameters(), *module.buffers(), *args, *extra)
        body_start = len(counter.events)
        counter.watch_forward(module)
        held = None  # the loop's ``out``, held past the step where the loop holds it
        try:
            with counter, following_resizes(counter) if wrap is not None else contextlib.nullcontext():
                if templates:
                    held = run_step(module, args, optimizer, request.mode, amp=amp, device_type=device.type,
                                    use_cache=request.use_cache, keep_output=request.keep_output)  # fmt: skip
                elif training:
                    # No input: the optimizer's state still exists after a step on gradients.
                    for p in module.parameters():
                        if p.requires_grad:
                            p.grad = torch.zeros_like(p)
                    if optimizer is not None:
                        optimizer.step()
        finally:
            counter.remove_hooks()

    # The optimizer's state that lives on the host whatever the parameters' device (AdamW's step
    # counts): traced on the CPU for a device that is not here, where it would not be counted.
    host = list(host_state(optimizer)) if target_type != "cpu" else []
    on_host = set(counter.serials_of(host))
    host_ids = {id(t) for t in host}
    parameters = storage_bytes(unique(module.parameters()))
    buffers = storage_bytes(unique(b for b in module.buffers()))
    gradients = storage_bytes(unique(p.grad for p in module.parameters())) if training else 0
    state = storage_bytes(unique(t for t in optimizer_state_tensors(optimizer) if id(t) not in host_ids))
    activations = counter.forward_added if templates else None
    events = [event for event in counter.events if event[1] not in on_host]
    peak = live_peak(events) if on_host else counter.peak
    first_events = len(events)
    later_peak: int | None = None
    if training and optimizer is not None and templates:
        # Steps after the first hold the state the first one made through their forward and backward;
        # where the loop holds its output, the first step's is freed when the next forward returns.
        later = later_step(events, body_start, counter.serials_of(optimizer_state_tensors(optimizer)),
                           counter.serials_of(p.grad for p in module.parameters()),
                           held=counter.serials_of(output_tensors(held)), forward_end=shifted(counter, on_host))  # fmt: skip
        events += later
        later_peak = live_peak(events, start=first_events)
    del held
    return Estimate(parameters, buffers, gradients, state, activations, peak, tuple(events), first_events,
                     later_peak)  # fmt: skip


def shifted(counter: AllocationLog, dropped: set[int]) -> int | None:
    """Where the forward ended among the events once those of ``dropped`` storages are left out
    (the host's state is made by the optimizer, after the forward: nothing moves in practice)."""
    if counter.forward_end is None:
        return None
    return counter.forward_end - sum(1 for event in counter.events[: counter.forward_end] if event[1] in dropped)
