"""The answer of "will it fit?" (``core.measure.fit``): bytes on the device for one step, the
verdict and the proof's reading. Its JSON keys are a contract (``fit --json``, docs/cli.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.core.measure.fit_batch import BatchSearch
from inspector.core.measure.fit_cluster_plan import ClusterPlan
from inspector.core.measure.peak_reading import measured_text
from inspector.core.measure.planned_device import device_label, input_text

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
    #: A distributed run's plan (``fit --gpus``): the strategy, the world size and each rank's
    #: measured peak; the figures above are then one rank's. None for one device (not written).
    cluster: ClusterPlan | None = None

    @property
    def row_name(self) -> str:
        """What a table names this answer by: the named device, else the device."""
        return f"{self.named_device} ({self.device})" if self.named_device else self.device

    @property
    def shown_device(self) -> str:
        """What a table shows as this answer's device: a planned one as planned ("RTX 4090,
        planned: not on this machine"), never the cuda:0 its plan was laid out on (``planned_device``)."""
        return device_label(self.device, self.named_device, self.device_present)

    @property
    def shown_input(self) -> str:
        """Its input's shapes, with the largest batch a search found ("12x3 (largest batch 12)")."""
        return input_text(self.to_dict())

    @property
    def measured_note(self) -> str | None:
        """What stands for the measured peak when it is under what RSS resolves (``peak_reading``); else None."""
        return measured_text(self.device, self.measured_peak_bytes)

    @property
    def ratio(self) -> float | None:
        """Measured over estimated peak (1.0: the estimate was exact)."""
        if self.measured_peak_bytes is None or self.estimated_peak_bytes <= 0:
            return None
        return self.measured_peak_bytes / self.estimated_peak_bytes

    def to_dict(self) -> dict[str, Any]:
        cluster = {"cluster": self.cluster.to_dict()} if self.cluster is not None else {}
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
            "shown_device": self.shown_device,
            **cluster,
        }
