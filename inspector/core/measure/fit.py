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
from dataclasses import dataclass
from typing import Any, Callable

import torch
from torch import nn

from inspector.core.devices.discovery import device_id, unavailable_reason
from inspector.core.devices.inventory import discover_devices
from inspector.core.errors import InputError, InspectorError
from inspector.core.files.hugging_face.code_names import CLASS_FROM_TYPE
from inspector.core.files.models import LoadedModel
from inspector.core.placement.storage_counter import same_device as _same_device
from inspector.core.files.inputs import InputSpec
from inspector.core.messages import Text
from inspector.core.measure.fit_batch import BatchSearch, largest_batch, with_batch
from inspector.core.measure.fit_devices import NamedDevice, name_device
from inspector.core.measure.fit_estimate import Plan, Wrap, estimate_step, judge, present as _present
from inspector.core.measure.fit_proof import measure_peak
from inspector.core.measure.fit_result import LOOP_OUTPUT_FREED, LOOP_OUTPUT_HELD, FitResult
from inspector.core.measure.fit_step import input_templates, takes_use_cache
from inspector.core.measure.model_input import model_dtype
from inspector.core.units import dtype_name, first_line, format_bytes

__all__ = ["AMP_DTYPES", "FIT_DTYPES", "FIT_MODES", "LOOP_OUTPUT_FREED", "LOOP_OUTPUT_HELD", "OPTIMIZERS", "FitRequest",
           "FitResult", "estimate_fit", "measure_peak"]  # fmt: skip

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





# --------------------------------------------------------------------------- estimate


def estimate_fit(
    loaded: LoadedModel,
    request: FitRequest,
    *,
    should_cancel: Callable[[], bool] | None = None,
    on_estimate: Callable[[FitResult], None] | None = None,
    wrap: Wrap | None = None,
    autocast: bool = True,
) -> FitResult:
    """Estimate one step's memory on ``request.device`` without allocating it; then, where the
    device exists, the step fits and ``request.measure`` is set, run it for real and measure.

    ``should_cancel`` is polled every few operators of the estimate and of the proof; when it
    returns True, ``Cancelled`` is raised (the user's model is never touched either way: both
    steps run on copies). ``on_estimate`` gets the estimate (no measured peak yet) before the
    real step starts: a front end shows it then, so an out-of-memory kill during the proof
    (the kernel's, in a container) still leaves it on screen. ``wrap``: one rank of a
    distributed run (``core.measure.fit_cluster``): the copy laid out by the engine before the
    traced step, no single-card proof; ``autocast`` False: the engine does the mixed precision
    (FSDP2's ``MixedPrecisionPolicy``), not autocast.
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
    if amp is not None and autocast:
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

    def plan_at(chosen: list[Any]) -> Plan:
        try:
            estimate = estimate_step(loaded, device=fake_device, dtype=target_dtype, request=request, templates=chosen,
                                     should_cancel=should_cancel, amp=amp if autocast else None, wrap=wrap)  # fmt: skip
        except InspectorError:
            raise
        except Exception as exc:  # noqa: BLE001 -- the model's own code can raise anything: one line for the user
            shown = ", ".join(str(t[0]) for t in chosen if isinstance(t, tuple)) or Text("fit.no_input_shown")
            raise InspectorError(
                Text("fit.estimate_failed", mode=request.mode, device=device_id(device), shapes=shown, error=first_line(exc)),
                detail=f"{type(exc).__name__}: {exc}",
            ) from None
        return judge(estimate, device, named, limit)

    search: BatchSearch | None = None
    if request.max_batch:
        if limit is None:
            raise InputError(Text("fit.max_batch_needs_capacity", device=device_id(device)))
        if not any(isinstance(t, tuple) for t in templates):
            raise InputError(Text("fit.max_batch_needs_input"))
        plans: dict[int, Plan] = {}

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
    if wrap is not None:
        reason = Text("cluster.reason_ranks")  # the ranks' proof is fit_cluster's
    elif not present:
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
