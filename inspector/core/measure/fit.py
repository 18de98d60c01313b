""""Will it fit?": the memory one step of a model needs on a device, estimated before any
real allocation, then proven by one real step where the device exists and the model fits.

The estimate runs the real step (forward, or forward + backward + optimizer step) on a copy
of the model made of fake tensors (``FakeTensorMode``: shapes, dtypes and devices, no data)
under ``storage_counter.StorageCounter``, which follows every storage the step creates and
frees (what ``torch.distributed._tools.mem_tracker.MemTracker`` counts, at a fraction of its
per-operator cost). Nothing here knows a layer's formula: the optimizer's state is what
``optimizer.step()`` really creates in this torch version, the activations are what the
forward really keeps. A 50 GB model on the meta device is answered in about a second, with
no real memory used.

Costs: the estimate copies the module's structure (not its data) and runs one fake step
(roughly the Python time of one real step). The proof copies the model onto the device and
runs two real steps there (the first sets the libraries up; the second is measured), and on
the CPU a third, watched, where the two differ by more than 15 %; it needs the memory it
measures and is skipped when the estimate says the step does not fit.

The step both run, on their copies, is ``core.measure.fit_step``; the proof,
``core.measure.fit_proof``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import torch
from torch import nn

from inspector.core.devices.discovery import device_count, device_id, unavailable_reason
from inspector.core.devices.inventory import discover_devices
from inspector.core.errors import InputError, InspectorError
from inspector.core.files.hugging_face.code_names import CLASS_FROM_TYPE
from inspector.core.files.models import LoadedModel
from inspector.core.placement.storage_counter import same_device as _same_device
from inspector.core.files.inputs import InputSpec
from inspector.core.messages import Text
from inspector.core.measure import cuda_allocator
from inspector.core.measure.fit_batch import BatchSearch, largest_batch, with_batch
from inspector.core.measure.fit_devices import NamedDevice, name_device
from inspector.core.measure.fit_proof import measure_peak
from inspector.core.measure.fit_step import (
    copy_with,
    fake_maker,
    host_state,
    input_templates,
    make_inputs,
    make_optimizer,
    output_tensors,
    prepare,
    run_step,
    takes_use_cache,
)
from inspector.core.measure.fit_trace import AllocationLog, later_step, live_peak
from inspector.core.measure.model_input import model_dtype
from inspector.core.units import dtype_name, first_line, format_bytes

OPTIMIZERS = ("none", "sgd", "sgd-momentum", "adam", "adamw")
FIT_MODES = ("forward", "train-step")
FIT_DTYPES = ("float32", "float16", "bfloat16", "float64")
#: Mixed precision: the dtype autocast computes in (the weights stay float32).
AMP_DTYPES = ("bfloat16", "float16")


@dataclass(frozen=True)
class FitRequest:
    """What to estimate: one step of ``mode`` on ``device`` in ``dtype`` with ``optimizer``.

    ``dtype`` None keeps the model's own floating dtype. ``inputs`` None uses the model's
    example input; otherwise one ``(shape, dtype name or None)`` per positional input, None
    meaning the model's floating dtype (see ``core.files.inputs.parse_inputs``). ``measure`` False skips the
    proof (one real step).

    A device the user names instead of (or over) the one present: ``gpu``, a preset's name
    (``resources/gpus.json``), and/or ``capacity``, its memory in bytes; the verdict is then
    against that memory, less the stated allowances (``core.measure.fit_devices``).
    ``margin``: bytes to keep free. ``max_batch``: search the inputs' first dimension for the
    largest batch that fits (``core.measure.fit_batch``). ``amp``: autocast to this dtype
    with float32 weights; ``checkpointing``: the model's own activation checkpointing.
    ``use_cache``: call a model that takes ``use_cache`` with it True (a key/value cache kept;
    by default False, whatever its config says). ``keep_output``: plan the hand-written loop
    that holds the output through ``backward()`` (``out = model(x); out.loss.backward()``),
    instead of the Trainer's, which frees it before (``core.measure.fit_step.run_step``).
    """

    device: str
    dtype: str | None = None
    optimizer: str = "none"
    mode: str = "train-step"
    inputs: tuple[InputSpec, ...] | None = None
    measure: bool = True
    gpu: str | None = None
    capacity: int | None = None
    margin: int = 0
    max_batch: bool = False
    amp: str | None = None
    checkpointing: bool = False
    use_cache: bool = False
    keep_output: bool = False


#: The loops a training step is planned for (``FitResult.loop``).
LOOP_OUTPUT_FREED = "output-freed"  # the Trainer's: the output freed before backward()
LOOP_OUTPUT_HELD = "output-held"  # out = model(x); out.loss.backward(); optimizer.step()


@dataclass(frozen=True)
class FitResult:
    """Bytes on the device for one step. Its JSON keys are a contract (``fit --json``, docs/cli.md).

    ``parameters_bytes``, ``gradients_bytes`` and ``optimizer_state_bytes`` are exact sums of
    the tensors' storage sizes (tied tensors once). ``activations_bytes`` is what the forward
    holds at its peak beyond parameters and buffers (None without an input).
    ``estimated_peak_bytes`` is the tracker's peak of everything live at once on the device
    (rounded the way the device's allocator rounds, e.g. 512-byte blocks on CUDA).
    ``measured_peak_bytes`` is one real step's: on CUDA ``max_memory_allocated`` over it; on
    the CPU the process's peak RSS over it less its RSS before (``process_peak``), a reading
    independent of the estimate's, which ``measured_reason`` names.
    """

    device: str
    dtype: str
    optimizer: str
    mode: str
    input_shapes: tuple[tuple[int, ...], ...]
    parameters_bytes: int
    buffers_bytes: int
    gradients_bytes: int
    optimizer_state_bytes: int
    activations_bytes: int | None
    estimated_peak_bytes: int
    free_bytes: int | None
    fits: bool | None
    margin_bytes: int | None  # free_bytes - estimated_peak_bytes
    measured_peak_bytes: int | None
    measured_reason: str | None  # why measured_peak_bytes is None, or how it was measured
    device_present: bool
    notes: tuple[str, ...] = field(default=())
    #: What sets ``free_bytes`` on the host: the machine's available memory, the container's
    #: (cgroup's) limit or ``RLIMIT_AS`` (``devices.memory_limits``); None for a GPU.
    free_limit: str | None = None
    #: Where the measured peak differs from the estimate by more than 15 % (and 1 MiB): by how
    #: much, and which memory the estimate does not count (``peak_gap``); else None.
    measured_gap: str | None = None
    #: The device the user named ("RTX 4090", "24 GiB"), None for a device of this machine.
    #: Then ``free_bytes`` is what a step may use of ``capacity_bytes``: less
    #: ``allowance_bytes`` (outside the allocator) and the margin asked for.
    named_device: str | None = None
    capacity_bytes: int | None = None
    allowance_bytes: int | None = None
    #: On CUDA: the most bytes of segments the caching allocator holds over the step
    #: (``max_memory_reserved``), from the traced allocations replayed through its rules.
    reserved_peak_bytes: int | None = None
    #: What the answer applies of PyTorch's own rules, and what it allows without one.
    rules: tuple[str, ...] = field(default=())
    allowances: tuple[str, ...] = field(default=())
    amp: str | None = None
    checkpointing: bool = False
    #: The largest batch that fits (``fit --max-batch``); the figures above are at it.
    batch_search: BatchSearch | None = None
    #: Training with an optimizer: the live peak of the steps after the first, which hold the
    #: optimizer's state (made by the first step) through their forward and backward; the
    #: verdict is on the larger of the two peaks. None where there is no such state.
    later_step_peak_bytes: int | None = None
    #: The class of the module planned (``LlamaForCausalLM``), and where the loader chose it
    #: (a config naming no class), the note that says why (also in ``notes``).
    model_class: str | None = None
    #: What the model was called with as ``use_cache`` (None: it takes none).
    use_cache: bool | None = None
    #: The training loop planned (``LOOP_OUTPUT_FREED`` or ``LOOP_OUTPUT_HELD``); None in forward mode.
    loop: str | None = None
    #: For a preset: where its capacity comes from (what PyTorch reports for the card, and the source).
    capacity_source: str | None = None

    @property
    def row_name(self) -> str:
        """What a table names this answer by: the named device, else the device."""
        return f"{self.named_device} ({self.device})" if self.named_device else self.device

    @property
    def ratio(self) -> float | None:
        """Measured over estimated peak (1.0: the estimate was exact)."""
        if self.measured_peak_bytes is None or self.estimated_peak_bytes <= 0:
            return None
        return self.measured_peak_bytes / self.estimated_peak_bytes

    def to_dict(self) -> dict[str, Any]:
        return {
            "device": self.device,
            "dtype": self.dtype,
            "optimizer": self.optimizer,
            "mode": self.mode,
            "input_shapes": [list(s) for s in self.input_shapes],
            "parameters_bytes": self.parameters_bytes,
            "buffers_bytes": self.buffers_bytes,
            "gradients_bytes": self.gradients_bytes,
            "optimizer_state_bytes": self.optimizer_state_bytes,
            "activations_bytes": self.activations_bytes,
            "estimated_peak_bytes": self.estimated_peak_bytes,
            "measured_peak_bytes": self.measured_peak_bytes,
            "measured_reason": self.measured_reason,
            "measured_gap": self.measured_gap,
            "ratio": self.ratio,
            "free_bytes": self.free_bytes,
            "fits": self.fits,
            "margin_bytes": self.margin_bytes,
            "device_present": self.device_present,
            "free_limit": self.free_limit,
            "notes": list(self.notes),
            "named_device": self.named_device,
            "capacity_bytes": self.capacity_bytes,
            "allowance_bytes": self.allowance_bytes,
            "reserved_peak_bytes": self.reserved_peak_bytes,
            "rules": list(self.rules),
            "allowances": list(self.allowances),
            "amp": self.amp,
            "checkpointing": self.checkpointing,
            "max_batch": self.batch_search.to_dict() if self.batch_search is not None else None,
            "later_step_peak_bytes": self.later_step_peak_bytes,
            "model_class": self.model_class,
            "use_cache": self.use_cache,
            "loop": self.loop,
            "capacity_source": self.capacity_source,
        }


# --------------------------------------------------------------------------- checks


def _check_request(request: FitRequest) -> torch.device:
    if request.optimizer not in OPTIMIZERS:
        raise InputError(Text("input.unknown_optimizer", name=repr(request.optimizer), choices=", ".join(OPTIMIZERS)))
    if request.mode not in FIT_MODES:
        raise InputError(Text("input.unknown_mode", name=repr(request.mode)))
    if request.dtype is not None and request.dtype not in FIT_DTYPES:
        raise InputError(Text("input.unknown_dtype", name=repr(request.dtype), choices=", ".join(FIT_DTYPES)))
    if request.amp is not None and request.amp not in AMP_DTYPES:
        raise InputError(Text("input.unknown_dtype", name=repr(request.amp), choices=", ".join(AMP_DTYPES)))
    if request.keep_output and request.mode != "train-step":
        raise InputError(Text("fit.keep_output_needs_training"))
    try:
        device = torch.device(request.device)
    except (RuntimeError, TypeError, ValueError):
        raise InputError(Text("fit.not_a_device", device=repr(request.device))) from None
    if device.type not in ("cpu", "cuda", "mps", "xpu"):
        raise InputError(Text("fit.not_a_fit_device", device=repr(request.device)))
    return torch.device(device_id(device))  # cuda -> cuda:0


def _present(device: torch.device) -> bool:
    if unavailable_reason(device.type) is not None:
        return False
    return device.type in ("cpu", "mps") or (device.index or 0) < device_count(device.type)



def _storage_bytes(tensors: Iterator[torch.Tensor]) -> int:
    """Sum of storage sizes, each storage once (tied weights, views)."""
    seen: set[int] = set()
    total = 0
    for t in tensors:
        storage = t.untyped_storage()
        # Fake and meta storages have no address; those tensors are already unique objects.
        key = id(t) if t.device.type == "meta" or _is_fake(t) else storage.data_ptr()
        if key in seen:
            continue
        seen.add(key)
        total += storage.nbytes()
    return total


def _is_fake(t: torch.Tensor) -> bool:
    from torch._subclasses.fake_tensor import FakeTensor

    return isinstance(t, FakeTensor)


def _unique(tensors: Iterator[torch.Tensor | None]) -> Iterator[torch.Tensor]:
    seen: set[int] = set()
    for t in tensors:
        if t is not None and id(t) not in seen:
            seen.add(id(t))
            yield t


def _optimizer_state_tensors(optimizer: torch.optim.Optimizer | None) -> Iterator[torch.Tensor]:
    if optimizer is None:
        return
    for state in optimizer.state.values():
        for value in state.values():
            if isinstance(value, torch.Tensor):
                yield value


# --------------------------------------------------------------------------- estimate


def estimate_fit(
    loaded: LoadedModel,
    request: FitRequest,
    *,
    should_cancel: Callable[[], bool] | None = None,
    on_estimate: Callable[[FitResult], None] | None = None,
) -> FitResult:
    """Estimate one step's memory on ``request.device`` without allocating it; then, where the
    device exists, the step fits and ``request.measure`` is set, run it for real and measure.

    ``should_cancel`` is polled every few operators of the estimate and of the proof; when it
    returns True, ``Cancelled`` is raised (the user's model is never touched either way: both
    steps run on copies). ``on_estimate`` gets the estimate (no measured peak yet) before the
    real step starts: a front end shows it then, so an out-of-memory kill during the proof
    (the kernel's, in a container) still leaves it on screen.
    """
    device = _check_request(request)
    amp = getattr(torch, request.amp) if request.amp else None
    if request.dtype:
        target_dtype = getattr(torch, request.dtype)
    else:  # mixed precision keeps float32 master weights
        target_dtype = torch.float32 if amp is not None else model_dtype(loaded.module)
    for shape, _ in request.inputs or ():
        if not shape or any(int(d) <= 0 for d in shape):
            raise InputError(Text("input.shape_not_positive", shape=repr(shape)))
    training = request.mode == "train-step"
    named = _named(request, device, training)
    notes: list[str] = []
    present = _present(device)
    # A fake CUDA tensor on a build without CUDA aborts the process: estimate with the CPU's
    # layout instead (for a named CUDA device, the allocator's rules are replayed over it).
    fake_device = device if present else torch.device("cpu")
    if not present:
        absent = unavailable_reason(device.type) or Text("fit.no_such_index")
        if named is None:
            notes.append(Text("fit.absent_device", device=device_id(device), reason=absent))
        else:
            notes.append(Text("fit.absent_named", device=device_id(device), reason=absent, label=named.label))
    templates = input_templates(loaded, request.inputs)
    if not templates:
        notes.append(Text("fit.no_input"))
    if request.mode == "forward" and request.optimizer != "none":
        notes.append(Text("fit.forward_no_optimizer"))
    # Which class the loader built, where it chose it (a config naming none), said again here.
    notes += [n for n in loaded.notes if isinstance(n, Text) and n.key == CLASS_FROM_TYPE]
    use_cache = request.use_cache if takes_use_cache(loaded.module) else None
    if use_cache is not None:
        notes.append(Text("fit.use_cache_on" if use_cache else "fit.use_cache_off"))
    loop = None
    if training:
        loop = LOOP_OUTPUT_HELD if request.keep_output else LOOP_OUTPUT_FREED
        notes.append(Text("fit.loop_output_held" if request.keep_output else "fit.loop_output_freed"))
    if any(isinstance(m, nn.RNNBase) for m in loaded.module.modules()):
        notes.append(Text("fit.recurrent"))
    if device.type == "cuda" and named is not None and any(isinstance(m, nn.modules.conv._ConvNd) for m in loaded.module.modules()):
        notes.append(Text("fit.cudnn_workspace"))
    if amp is not None:
        notes.append(Text("fit.amp_note", amp=request.amp, dtype=dtype_name(target_dtype)))
        if request.amp == "float16" and training:
            notes.append(Text("fit.amp_scaler"))
    if loaded.source in ("torchscript", "export"):
        raise InputError(Text("fit.needs_python_torchscript" if loaded.source == "torchscript" else "fit.needs_python_export"))

    free, free_limit = _free_bytes(device) if present else (None, None)
    if named is not None:
        limit: int | None = named.usable_bytes
    else:
        limit = None if free is None else free - request.margin

    def plan_at(chosen: list[Any]) -> _Plan:
        try:
            estimate = _estimate(loaded, device=fake_device, dtype=target_dtype, request=request, templates=chosen,
                                 should_cancel=should_cancel, amp=amp)  # fmt: skip
        except InspectorError:
            raise
        except Exception as exc:  # noqa: BLE001 -- the model's own code can raise anything: one line for the user
            shown = ", ".join(str(t[0]) for t in chosen if isinstance(t, tuple)) or Text("fit.no_input_shown")
            raise InspectorError(
                Text("fit.estimate_failed", mode=request.mode, device=device_id(device), shapes=shown, error=first_line(exc)),
                detail=f"{type(exc).__name__}: {exc}",
            ) from None
        return _judge(estimate, device, named, limit)

    search: BatchSearch | None = None
    if request.max_batch:
        if limit is None:
            raise InputError(Text("fit.max_batch_needs_capacity", device=device_id(device)))
        if not any(isinstance(t, tuple) for t in templates):
            raise InputError(Text("fit.max_batch_needs_input"))
        plans: dict[int, _Plan] = {}

        def fits_at(batch: int) -> bool:
            plans[batch] = plan_at(with_batch(templates, batch))
            return bool(plans[batch].fits)

        best, failed = largest_batch(fits_at)
        search = BatchSearch(
            batch=best, peak_bytes=plans[best].judged if best else None, next_batch=failed,
            next_peak_bytes=plans[failed].judged if failed is not None else None, steps=len(plans),
            limit_bytes=limit, judged_by=plans[max(best, 1)].judged_by,
        )  # fmt: skip
        templates = with_batch(templates, max(best, 1))
        planned = plans[max(best, 1)]
    else:
        planned = plan_at(templates)
    estimate = planned.estimate

    if present and _model_lives_on(loaded.module, device):
        notes.append(Text("fit.model_lives_there", device=device_id(device)))
    if named is None and free is not None and free_limit is not None and free_limit.key != "device.memory_bound_host":
        notes.append(Text("fit.free_limited", free=format_bytes(free), limit=free_limit))
    fits = planned.fits

    reason: str | None = None
    if not present:
        reason = Text("fit.reason_absent", device=device_id(device))
    elif not request.measure:
        reason = Text("fit.reason_not_asked")
    elif fits is False:
        reason = Text("fit.reason_does_not_fit")
    elif not templates:
        reason = Text("fit.reason_no_input")
    answer = functools.partial(
        FitResult,
        device=device_id(device),
        dtype=dtype_name(target_dtype),
        optimizer=request.optimizer,
        mode=request.mode,
        input_shapes=tuple(t[0] for t in templates if isinstance(t, tuple)),
        parameters_bytes=estimate.parameters,
        buffers_bytes=estimate.buffers,
        gradients_bytes=estimate.gradients,
        optimizer_state_bytes=estimate.optimizer_state,
        activations_bytes=estimate.activations,
        estimated_peak_bytes=planned.peak,
        free_bytes=limit if named is not None else free,
        fits=fits,
        margin_bytes=planned.margin,
        device_present=present,
        notes=tuple(notes),
        free_limit=free_limit if named is None else None,
        named_device=named.label if named is not None else None,
        capacity_bytes=named.capacity_bytes if named is not None else None,
        allowance_bytes=named.allowance_bytes if named is not None else None,
        reserved_peak_bytes=planned.reserved,
        rules=named.rules if named is not None else (),
        allowances=named.allowances if named is not None else (),
        amp=request.amp,
        checkpointing=request.checkpointing,
        batch_search=search,
        later_step_peak_bytes=planned.later,
        model_class=loaded.class_name,
        use_cache=use_cache,
        loop=loop,
        capacity_source=named.capacity_source if named is not None else None,
    )
    if reason is not None:  # no real step: the estimate is the answer
        return answer(measured_peak_bytes=None, measured_reason=reason)
    if on_estimate is not None:
        on_estimate(answer(measured_peak_bytes=None, measured_reason=None))
    proof = measure_peak(loaded, device, target_dtype, request.optimizer, request.mode, templates, should_cancel,
                         estimated=planned.peak, amp=amp, checkpointing=request.checkpointing,
                         use_cache=request.use_cache, keep_output=request.keep_output)  # fmt: skip
    return answer(measured_peak_bytes=proof.peak, measured_reason=proof.how, measured_gap=proof.gap)


def _named(request: FitRequest, device: torch.device, training: bool) -> NamedDevice | None:
    if request.gpu is None and request.capacity is None:
        return None
    return name_device(device.type, gpu=request.gpu, capacity=request.capacity, margin=request.margin,
                       training=training)  # fmt: skip


@dataclass(frozen=True)
class _Estimate:
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
class _Plan:
    """One traced step judged against the memory there is: ``peak`` the live tensors' peak
    (rounded as the device's allocator rounds), ``reserved`` the CUDA allocator's segments,
    ``fits`` and ``margin`` against the limit (None without one). ``judged`` is the figure
    the verdict compared: the reserved peak where the allocator was replayed under the
    limit, else the live peak."""

    estimate: _Estimate
    peak: int
    reserved: int | None
    fits: bool | None
    margin: int | None
    judged: int
    judged_by: str  # "reserved" or "allocated"
    later: int | None = None  # the next step's live peak, where it differs from the traced step's


def _judge(estimate: _Estimate, device: torch.device, named: NamedDevice | None, limit: int | None) -> _Plan:
    """The verdict: every step must fit, so the larger of the traced step's peak and the next
    step's (the optimizer's state held through its forward and backward) is judged."""
    if device.type != "cuda":
        live = max(estimate.peak, estimate.later_peak or 0)
        fits = None if limit is None else live <= limit
        margin = None if limit is None else limit - live
        return _Plan(estimate, estimate.peak, None, fits, margin, live, "allocated", estimate.later_peak)
    first = cuda_allocator.replay(estimate.events[: estimate.first_events])
    both = cuda_allocator.replay(estimate.events) if estimate.later_peak is not None else first
    later = both.peak_allocated if estimate.later_peak is not None else None
    if named is None:  # a GPU of this machine: its free memory against the live peak, as measured
        peak = estimate.peak if _present(device) else first.peak_allocated
        live = max(peak, later or 0)
        fits = None if limit is None else live <= limit
        margin = None if limit is None else limit - live
        return _Plan(estimate, peak, both.peak_reserved, fits, margin, live, "allocated", later)
    planned = cuda_allocator.replay(estimate.events, named.usable_bytes, first=named.first_requests)
    if not planned.fits:  # how much it would need: the same replay without the limit
        planned = cuda_allocator.replay(estimate.events, first=named.first_requests)
        fits = False
    else:
        fits = True
    margin = named.usable_bytes - planned.peak_reserved
    return _Plan(estimate, first.peak_allocated, planned.peak_reserved, fits, margin, planned.peak_reserved,
                 "reserved", later)  # fmt: skip


def _estimate(
    loaded: LoadedModel,
    *,
    device: torch.device,
    dtype: torch.dtype,
    request: FitRequest,
    templates: list[Any],
    should_cancel: Callable[[], bool] | None = None,
    amp: torch.dtype | None = None,
) -> _Estimate:
    from torch._subclasses.fake_tensor import FakeTensorMode

    fake_mode = FakeTensorMode()
    module = copy_with(loaded.module, fake_maker(fake_mode, device), dtype, should_cancel)
    prepare(module, checkpointing=request.checkpointing)
    training = request.mode == "train-step"
    counter = AllocationLog(device, should_cancel)
    target_type = torch.device(request.device).type
    with fake_mode:
        # The optimizer's path (foreach or not) is the target device's, where it differs.
        optimizer = make_optimizer(request.optimizer, module, torch.device(target_type)) if training else None
        args = make_inputs(templates, dtype, device, real=False)
        counter.track(*module.parameters(), *module.buffers(), *args)
        body_start = len(counter.events)
        counter.watch_forward(module)
        held = None  # the loop's ``out``, held past the step where the loop holds it
        try:
            with counter:
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
    parameters = _storage_bytes(_unique(module.parameters()))
    buffers = _storage_bytes(_unique(b for b in module.buffers()))
    gradients = _storage_bytes(_unique(p.grad for p in module.parameters())) if training else 0
    state = _storage_bytes(_unique(t for t in _optimizer_state_tensors(optimizer) if id(t) not in host_ids))
    activations = counter.forward_added if templates else None
    events = [event for event in counter.events if event[1] not in on_host]
    peak = live_peak(events) if on_host else counter.peak
    first_events = len(events)
    later_peak: int | None = None
    if training and optimizer is not None and templates:
        # Steps after the first hold the state the first one made through their forward and backward;
        # where the loop holds its output, the first step's is freed when the next forward returns.
        later = later_step(events, body_start, counter.serials_of(_optimizer_state_tensors(optimizer)),
                           counter.serials_of(p.grad for p in module.parameters()),
                           held=counter.serials_of(output_tensors(held)), forward_end=_shifted(counter, on_host))  # fmt: skip
        events += later
        later_peak = live_peak(events, start=first_events)
    del held
    return _Estimate(parameters, buffers, gradients, state, activations, peak, tuple(events), first_events,
                     later_peak)  # fmt: skip


def _shifted(counter: AllocationLog, dropped: set[int]) -> int | None:
    """Where the forward ended among the events once those of ``dropped`` storages are left out
    (the host's state is made by the optimizer, after the forward: nothing moves in practice)."""
    if counter.forward_end is None:
        return None
    return counter.forward_end - sum(1 for event in counter.events[: counter.forward_end] if event[1] in dropped)


def _free_bytes(device: torch.device) -> tuple[int | None, Text | None]:
    """The device's free bytes (the CPU's: what this process may still take) and, for the
    host, which limit sets them."""
    snapshot = discover_devices(with_nvml=False).get(device_id(device))
    if snapshot is None:
        return None, None
    limit = snapshot.free_limit
    return snapshot.free_bytes, limit if isinstance(limit, Text) else None


def _model_lives_on(module: nn.Module, device: torch.device) -> bool:
    return any(_same_device(p.device, device) for p in module.parameters())
