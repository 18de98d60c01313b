"""One latency measurement, from its samples to the report file: ``LatencyResult``.

One type, as ``torch.utils.benchmark`` has one ``Measurement``: ``measure_latency`` makes it,
the agent sends it, the report writes it (``to_dict``) and reads it back (``report.schema``),
and the comparison and the views read it. Its statistics are properties of its samples, so
a measurement cannot state a figure its samples do not give. Torch-free: a report is read
and compared without importing torch.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from inspector.core.measure.machine_noise import MachineNoise
from inspector.core.measure.spread import SampleFigures, figures_of


@dataclass
class SampleTimeline:
    """When a run's calls ran, on the host clock (``perf_counter_ns``), for a trace to draw
    them where they were: each warm-up call's start, each chunk's start, end and sample count,
    and, for a model on the CPU, each call's own start (``call_starts_ns``: the clock read the
    sample begins with, kept by one append after the call's end is read, outside its figure).
    Laid end to end from the measurement's start, samples were drawn up to 6.8 ms early over
    2,000 samples; spread evenly over their chunk, up to 59 µs (a hiccup between two calls
    moves every later call of the chunk). On an accelerator the samples are device time and
    the calls are spread over their chunk. ``absorbed``: the first chunk's first calls that
    went to the warm-up (a slow start, ``warm_up``)."""

    warmup_starts_ns: list[int] = field(default_factory=list)
    chunks: list[tuple[int, int, int]] = field(default_factory=list)
    call_starts_ns: list[int] = field(default_factory=list)
    absorbed: int = 0


@dataclass(frozen=True)
class LatencyResult:
    """Every sample of one measurement, in milliseconds, and what they say.

    The statistics (``median_ms``, ``p95_ms``, ``iqr_ms``...) are properties of ``samples_ms``,
    computed once when first read, as ``torch.utils.benchmark.Measurement`` derives its from
    ``raw_times``: a result cannot hold a median its samples do not have, and a result joined
    from runs or slices (``dataclasses.replace(samples_ms=...)``) has its figures by construction.
    A measurement always holds a sample; one read leniently from a file nobody checked may
    hold none (its figures are then None). Fields a file may lack (an older report's) are
    None there: ``warmup_ms``, ``timer``, ``warmup_asked``.
    """

    #: Sent on the agent's wire beside the fields, for clients that read them as fields (protocol ≤ 1.2).
    __wire_also__ = ("median_ms", "mean_ms", "p5_ms", "p95_ms", "min_ms", "max_ms", "std_ms", "iqr_ms", "median_ci_ms")

    device: str
    dtype: str
    input_shape: tuple[int, ...]
    mode: str  # "forward" | "train-step"
    warmup_ms: float | None  # the first call's cost (allocations, kernel selection, lazy init)
    warmup_samples_ms: tuple[float, ...]  # every warm-up call, the first included
    samples_ms: tuple[float, ...]
    #: Things the reader should know (e.g. "train-step used SGD(lr=0.01) on a copy").
    notes: tuple[str, ...] = field(default=())
    #: Every positional input's shape (``input_shape`` is the first one's): a Transformer has two.
    input_shapes: tuple[tuple[int, ...], ...] = field(default=())
    input_dtypes: tuple[str, ...] = field(default=())  # each input's dtype, in the same order
    #: "noisy: p95 is 84× the median; results may not be repeatable", or None. A report from
    #: before schema 2 states none: its reader takes the samples' own (``figures.noise``).
    noise: str | None = None
    #: What the machine did during the timed samples (``core.measure.machine_noise``): other
    #: processes' CPU, the hypervisor's steal, preemptions of the sampling threads; None: not watched.
    machine: MachineNoise | None = None
    #: The warm-up (``core.measure.warm_up``): the calls asked for (``warmup`` is those made),
    #: why it stopped there ("as asked", "steady", "slow start", "call cap", "time cap"), and what
    #: it absorbed: its calls' time beyond as many calls at the run's median (the first calls' cost).
    warmup_asked: int | None = 0
    warmup_reason: str | None = None
    first_calls_ms: float | None = None
    #: What timed the samples: "host clock" or "cuda events" / "xpu events".
    timer: str | None = "host clock"
    #: How the measurement was asked for: ``runs`` samples, or samples for ``min_time`` seconds.
    runs: int | None = None
    min_time: float | None = None
    warmup: int = 0  # warm-up calls made before timing
    #: Each independent run's samples, in order, when the measurement holds several
    #: (``core.measure.repeats``); ``samples_ms`` is then all of them pooled. () for one run.
    runs_ms: tuple[tuple[float, ...], ...] = ()
    #: Set on both sides of an interleaved comparison (``bench --against``, ``measure.interleaved``):
    #: run i here and run i of the entry with the same ``pair_id`` were timed turn about.
    pair_id: str | None = None
    #: Per run (``runs_ms``): the machine stalled the sampling threads in at least half its samples
    #: (``MachineNoise.spoils_median``), so that run's median is the machine's. Kept per round by
    #: ``bench --against``, so ``compare`` of its two reports says what ``bench`` said; () when not watched.
    runs_spoiled: tuple[bool, ...] = ()
    #: ``torch.get_num_threads()`` while it ran: on a CPU, 1 thread against 2 moved one forward
    #: from 13 ms to 250 ms on the development VM. None: not recorded (an older report).
    threads: int | None = None
    #: The batch the input held, by the dimension the model says is its batch
    #: (``core.measure.batch_dim``: 32 for a sequence-first Transformer's ``10,32,512``);
    #: None: unknown (layers that disagree, an older report). Throughput multiplies by it.
    batch: int | None = None
    #: When the calls ran (for a trace; not written to the report, nor sent over the wire).
    timeline: SampleTimeline | None = field(default=None, compare=False, repr=False, metadata={"wire": False})

    # ----------------------------------------------------------- derived from the samples

    @functools.cached_property
    def figures(self) -> SampleFigures | None:
        """``measure.spread.figures_of`` the samples (computed once): the same code a report's
        reader holds a file's stated figures to; None without a sample."""
        return figures_of(self.samples_ms) if self.samples_ms else None

    def _figure(self, name: str) -> float | None:
        figures = self.figures
        return None if figures is None else float(getattr(figures, name))

    @property
    def median_ms(self) -> float | None:
        return self._figure("median_ms")

    @property
    def mean_ms(self) -> float | None:
        return self._figure("mean_ms")

    @property
    def p5_ms(self) -> float | None:
        return self._figure("p5_ms")

    @property
    def p95_ms(self) -> float | None:
        return self._figure("p95_ms")

    @property
    def min_ms(self) -> float | None:
        return self._figure("min_ms")

    @property
    def max_ms(self) -> float | None:
        return self._figure("max_ms")

    @property
    def std_ms(self) -> float | None:
        return self._figure("std_ms")

    @property
    def iqr_ms(self) -> float | None:
        return self._figure("iqr_ms")

    @property
    def median_ci_ms(self) -> tuple[float, float] | None:
        return self.figures.median_ci_ms if self.figures is not None else None

    @property
    def noisy(self) -> bool:
        return self.noise is not None

    @property
    def count(self) -> int:
        return len(self.samples_ms)

    @property
    def run_samples(self) -> tuple[tuple[float, ...], ...]:
        """The independent runs: ``runs_ms``, or the samples as one run (none without samples)."""
        return self.runs_ms or ((self.samples_ms,) if self.samples_ms else ())

    @property
    def key(self) -> tuple[str, str, str, tuple[int, ...]]:
        """What a comparison matches measurements by: device, dtype, mode, input shape."""
        return self.device, self.dtype, self.mode, self.input_shape

    @property
    def inputs(self) -> tuple[tuple[tuple[int, ...], str], ...]:
        """Each positional tensor input's (shape, dtype): what the code view's snippet rebuilds."""
        return tuple(zip(self.input_shapes, self.input_dtypes))

    # ----------------------------------------------------------- the file's form

    def to_dict(self) -> dict[str, Any]:
        """The report file's entry: the fields, and the figures stated for other readers."""
        return {
            "device": self.device,
            "dtype": self.dtype,
            "input_shape": list(self.input_shape),
            "input_shapes": [list(s) for s in self.input_shapes],
            "input_dtypes": list(self.input_dtypes),
            "mode": self.mode,
            "warmup_ms": self.warmup_ms,
            "warmup_samples_ms": list(self.warmup_samples_ms),
            "samples_ms": list(self.samples_ms),
            "median_ms": self.median_ms,
            "mean_ms": self.mean_ms,
            "p5_ms": self.p5_ms,
            "p95_ms": self.p95_ms,
            "min_ms": self.min_ms,
            "max_ms": self.max_ms,
            "std_ms": self.std_ms,
            "iqr_ms": self.iqr_ms,
            "median_ci_ms": list(self.median_ci_ms) if self.median_ci_ms is not None else None,
            "noisy": self.noisy,
            "noise": self.noise,
            "machine": self.machine.to_dict() if self.machine is not None else None,
            "warmup_asked": self.warmup_asked,
            "warmup_reason": self.warmup_reason,
            "first_calls_ms": self.first_calls_ms,
            "timer": self.timer,
            "runs": self.runs,
            "min_time": self.min_time,
            "warmup": self.warmup,
            "notes": list(self.notes),
            **({"runs_ms": [list(r) for r in self.runs_ms]} if len(self.runs_ms) > 1 else {}),
            **({"pair_id": self.pair_id} if self.pair_id else {}),
            **({"runs_spoiled": list(self.runs_spoiled)} if len(self.runs_ms) > 1 and len(self.runs_spoiled) == len(self.runs_ms) else {}),
            **({"threads": self.threads} if self.threads is not None else {}),
            **({"batch": self.batch} if self.batch is not None else {}),
        }
